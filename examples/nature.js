// The lesson "Is our flock like a real one?" (nature.html, issue 43): ten real pigeons played
// through a <boids-flock> (www/nature/recording.js), a model flock beside them, both measured
// every second by the same code (the worker's module's natureProfile) into one table, and the
// pigeons' leadership graph (www/nature/leaders.js), and the model fitted to them in a worker
// (www/nature/fit-panel.js). A reader's own recording plays in their place (and is what a fit
// then fits to: www/nature/player-bar.js). A file, not an inline script: the lessons run under a
// strict CSP. Its language is the lesson's (lesson-lang.js sets <html lang>).

import { flockOf } from '../www/core/dom.js';
import { kebab } from '../www/core/settings.js';
import { SPECS } from '../www/core/wasm-load.js';
import { workerModule } from '../www/core/worker-module.js';
import { loadFeatureTexts } from '../www/i18n/feature-words.js';
import { loadLang, texts } from '../www/i18n/texts.js';
import { buildFitPanel } from '../www/nature/fit-panel.js';
import { drawLeadership } from '../www/nature/leaders.js';
import { buildPlayerBar } from '../www/nature/player-bar.js';
import { buildProfileTable } from '../www/nature/profile-table.js';
import { PIGEONS, readRecording, RecordingPlayer } from '../www/nature/recording.js';

const MEASURE_EVERY = 1000;

const lang = document.documentElement.lang || 'en';
const pigeons = document.getElementById('pigeons');
const model = document.getElementById('model');
const [words, bindings] = await Promise.all([loadFeatureTexts('nature', lang), workerModule()]);
await Promise.all([flockOf(pigeons), flockOf(model)]);

const status = document.getElementById('nature-loading');
status.textContent = words.loading;
const { replay: flight, text: flightText } = await readRecording(PIGEONS);
status.textContent = '';

let player = null;
let playing = flightText; // the text of the recording playing: what a fit fits to
const bar = buildPlayerBar(document.getElementById('player'), words, {
  onRecording: (replay, name, text) => {
    playing = text;
    play(replay);
  },
  onPigeons: () => {
    playing = flightText;
    play(flight);
  },
});
function play(replay) {
  player?.detach();
  player = new RecordingPlayer(replay);
  player.attach(pigeons);
  bar.bind(player);
  window.naturePlayer = player;
}
play(flight);

const table = buildProfileTable(document.getElementById('measures'), words, [words.colReal, words.colModel]);
function measure() {
  for (const [column, el] of [pigeons, model].entries()) {
    if (!el.flock) continue;
    table.show(column, bindings.natureProfile(el.flock.positions(), el.flock.velocities()));
  }
}
measure();
setInterval(measure, MEASURE_EVERY);
window.natureTable = table;

// The fit: in a worker, to the recording playing; its values can be set on the model flock.
await loadLang(lang);
const text = texts(lang);
const specOf = (name) => SPECS.find((spec) => spec.name === name);
window.fitPanel = buildFitPanel(document.getElementById('fit'), { ...words, ...words.fit }, {
  bindings,
  labelOf: (name) => text.param(specOf(name))[0],
  recording: () => playing,
  onApply: (values) => {
    for (const [name, value] of Object.entries(values)) model.setAttribute(kebab(name), String(Math.round(value * 1000) / 1000));
  },
  count: model.flock.count(),
});

window.leadership = drawLeadership(document.getElementById('leaders'), flight, { ...words, leadersTitle: words.pigeonLeadersTitle });
// Beside it, a model flock pulled toward one leader, recorded and read the same way: 7,200
// steps on this thread, so only when the graph comes near the screen, not while the page's
// flocks start.
const modelBox = document.getElementById('model-leaders');
new IntersectionObserver(
  async (entries, observer) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    observer.disconnect();
    // Imported here: a reader who never scrolls this far never fetches them.
    const [{ recordModelFlight }, { Flock }] = await Promise.all([import('../www/nature/model-flight.js'), import('../www/core/wasm-load.js')]);
    const modelFlight = new bindings.Replay(recordModelFlight(Flock, { leaderId: words.modelLeaderId }));
    window.modelLeadership = drawLeadership(modelBox, modelFlight, {
      ...words,
      leadersTitle: words.modelLeadersTitle,
      leadersLabel: words.modelLeadersLabel,
    });
  },
  { rootMargin: '300px' },
).observe(modelBox);

