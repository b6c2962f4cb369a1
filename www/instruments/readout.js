// The inspector's readout of one boid (instruments.js shows it): which rule wins, how many
// neighbours it heeds, and each force on it with the colour of its arrow in the scene.

import { element } from '../core/dom.js';

const FORCE_TEXT = {
  separation: 'forceSeparation',
  alignment: 'forceAlignment',
  cohesion: 'forceCohesion',
  cruise: 'forceCruise',
  walls: 'forceWalls',
  wind: 'forceWind',
  hawks: 'forceHawks',
  obstacles: 'forceObstacles',
  leader: 'forceLeader',
  pointer: 'forcePointer',
  total: 'forceTotal',
};
const STRONGEST_TEXT = { separation: 'strongestSeparation', alignment: 'strongestAlignment', cohesion: 'strongestCohesion' };

const length = (v) => Math.hypot(v[0], v[1], v[2]);

/**
 * The readout's children for `seen` (`flock.inspect(id)`), in the words of `text` and the
 * numbers of `lang`; `colours`: the arrows' colours by force name.
 */
export function readoutOf(seen, text, lang, colours) {
  const t = (key) => text.ui(key);
  const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
  const title = element('p', 'bf-inspector-title');
  title.append(element('strong', null, t('boidId').replace('{id}', String(seen.id))));
  const strongest = seen.strongest ? t(STRONGEST_TEXT[seen.strongest]) : t('strongestOther');
  title.append(` — ${strongest}`);
  const facts = element(
    'p',
    'bf-inspector-facts',
    `${t('neighboursHeeded')
      .replace('{n}', number.format(seen.heeded.length))
      .replace('{close}', number.format(seen.tooClose.length))
      .replace('{unseen}', number.format(seen.unseen.length))} · ${t('speedNow').replace('{v}', number.format(seen.speed))}`,
  );
  const list = element('ul', 'bf-forces');
  for (const [name, key] of Object.entries(FORCE_TEXT)) {
    const term = seen.terms[name];
    const vector = term?.weighted ?? term;
    if (!vector) continue;
    const size = length(vector);
    if (name !== 'total' && !['separation', 'alignment', 'cohesion'].includes(name) && size < 1e-4) continue;
    const item = element('li');
    item.dataset.force = name;
    const swatch = element('span', 'bf-force-swatch');
    swatch.style.background = colours[name] ?? '#fff';
    item.append(swatch, `${t(key)} `, element('span', 'bf-force-size', number.format(size)));
    list.append(item);
  }
  return [title, facts, list];
}
