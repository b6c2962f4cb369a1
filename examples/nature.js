// The lesson "Is our flock like a real one?" (nature.html, issue 43): ten real pigeons played
// through a <boids-flock> (www/nature/recording.js), a model flock beside them, both measured
// every second by the same code (the worker's module's natureProfile) into one table, and the
// pigeons' leadership graph (www/nature/leaders.js). A reader's own recording plays in their
// place (www/nature/player-bar.js). A file, not an inline script: the lessons run under a
// strict CSP. Its language is the lesson's (lesson-lang.js sets <html lang>).

import { flockOf } from '../www/core/dom.js';
import { workerModule } from '../www/core/worker-module.js';
import { loadFeatureTexts } from '../www/i18n/feature-words.js';
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
const flight = await readRecording(PIGEONS);
status.textContent = '';

let player = null;
const bar = buildPlayerBar(document.getElementById('player'), words, {
  onRecording: (replay) => play(replay),
  onPigeons: () => play(flight),
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

window.leadership = drawLeadership(document.getElementById('leaders'), flight, words);
