// Words for a screen reader (issue 29): what the flock did, in a sentence ("The flock split
// into 3 groups.", "A hawk scattered the flock into 4 groups.", "The groups joined into one
// flock. The flock began to circle."), not its figures changing. Fed the plot's samples (the
// measures the Flock takes, `metrics()`, and the parameters in force), a Narrator says at
// most one thing every SAY_EVERY ms, and only what held for two samples running: a count
// of groups that flickers says nothing. No model here: the measures are the Flock's; the
// thresholds below only choose words. Pure (no DOM): tests/browser/narrator.test.mjs feeds it
// sequences of samples. The selected boid's words (`boidWords`) are here too.

import { plural } from './plot.js';

/** At most one announcement this often, ms (real time: a screen reader speaks in it). */
export const SAY_EVERY = 4000;
/** A change is said once it held for this many samples running (a sample a flock second). */
const HOLD = 2;
/** At most this many sentences an announcement. */
const MOST = 2;

/**
 * One group's shape from its measures, [enter, leave] thresholds apart so that a measure
 * hovering at one does not flip the words: circling (milling), flying one way
 * (polarization), a swarm (neighbours not aligned: local order), else loose (turning,
 * changing shape).
 */
function shapeOf(m, was) {
  const past = (value, enter, leave, name) => (was === name ? value > leave : value > enter);
  if (past(m.milling, 0.5, 0.35, 'circling')) return 'circling';
  if (past(m.polarization, 0.8, 0.65, 'oneWay')) return 'oneWay';
  if (m.localOrder < (was === 'swarm' ? 0.5 : 0.35)) return 'swarm';
  return 'loose';
}

/** The words of a change of shape, by "from>to" or else by what it became. */
const SHAPE_WORDS = {
  circling: 'sayCircle',
  oneWay: 'sayOneWay',
  swarm: 'saySwarm',
  'circling>loose': 'sayStopCircle',
  'oneWay>loose': 'sayTurn',
  'swarm>loose': 'sayOrder',
};

export class Narrator {
  constructor({ every = SAY_EVERY } = {}) {
    this.every = every;
    this.reset();
  }

  /** Forgets what was said (a new flock, a new language). */
  reset() {
    this.recent = [];
    this.said = null;
    this.saidAt = -Infinity;
  }

  /**
   * Hears one sample: `metrics` (`Flock.metrics()`), `hawks` (how many hunt) at `now` (ms).
   * Returns what to say now, [{key, n}] (one or two sentences), or null.
   */
  hear(metrics, hawks, now) {
    const groups = Number(metrics.bigGroups) || 0;
    // A shape is one group's: several groups have each their own.
    const shape = groups === 1 ? shapeOf(metrics, this.recent.at(-1)?.shape) : null;
    hawks = Math.max(0, Number(hawks) || 0);
    this.recent.push({ groups, shape, hawks });
    if (this.recent.length > HOLD) this.recent.shift();
    const holds = (key, value) => this.recent.length === HOLD && this.recent.every((s) => s[key] === value);
    const groupsHeld = holds('groups', groups);
    const shapeHeld = groupsHeld && holds('shape', shape);
    const hawksHeld = holds('hawks', hawks);
    const said = this.said;
    if (!said) {
      // The first state that holds is where the story starts: nothing to say yet.
      if (shapeHeld) this.said = { groups, shape, hawks };
      return null;
    }
    if (now - this.saidAt < this.every) return null;
    const out = [];
    if (hawksHeld && hawks !== said.hawks && (hawks === 0 || said.hawks === 0)) out.push(hawks > 0 ? { key: 'sayHawks', n: hawks } : { key: 'sayHawksGone' });
    if (groupsHeld && groups !== said.groups) {
      let words;
      if (groups === 0) words = { key: 'sayApart' };
      else if (said.groups === 0) words = groups === 1 ? { key: 'sayGathered' } : { key: 'sayGatheredInto', n: groups };
      else if (groups === 1) words = { key: 'sayJoined' };
      else if (groups < said.groups) words = { key: 'sayFewer', n: groups };
      else if (hawks > 0) words = { key: 'sayScattered', n: groups };
      else words = { key: 'saySplit', n: groups };
      // "A hawk scattered the flock" tells of the hawk too.
      if (words.key === 'sayScattered' && out[0]?.key === 'sayHawks') out.shift();
      out.push(words);
      said.groups = groups;
    }
    if (hawksHeld) said.hawks = hawks;
    if (shapeHeld && shape !== said.shape && out.length < MOST) {
      const key = SHAPE_WORDS[`${said.shape}>${shape}`] ?? SHAPE_WORDS[shape];
      if (key) out.push({ key });
      said.shape = shape;
    }
    if (shapeHeld && shape === null) said.shape = null;
    if (out.length === 0) return null;
    this.saidAt = now;
    return out;
  }
}

/** What `hear` returned, as text: `text` is the page's `texts(lang)`. */
export function sentences(said, text, lang) {
  const number = new Intl.NumberFormat(lang);
  return said
    .map(({ key, n }) => (n == null ? text.ui(key) : plural(text, key, n, lang).replace('{n}', number.format(n))))
    .join(' ');
}

const WINS = { separation: 'boidWinsSeparation', alignment: 'boidWinsAlignment', cohesion: 'boidWinsCohesion' };

/**
 * The selected boid in words, from `Flock.inspect`: "Boid 42: 7 neighbours in sight, 2 of
 * them too close. Separation wins: it turns away from a neighbour too close." (and whether
 * it flees a hawk).
 */
export function boidWords(seen, text, lang) {
  const number = new Intl.NumberFormat(lang);
  const n = seen.heeded.length;
  let sight = n === 0 ? text.ui('boidAlone') : plural(text, 'boidNeighbours', n, lang).replace('{n}', number.format(n));
  if (seen.tooClose.length > 0) sight += text.ui('boidClose').replace('{n}', number.format(seen.tooClose.length));
  const parts = [`${text.ui('boidId').replace('{id}', String(seen.id))}: ${sight}.`, text.ui(WINS[seen.strongest] ?? 'boidWinsNone')];
  if (seen.fleeing) parts.push(text.ui('boidFleeing'));
  return parts.join(' ');
}

/** What of a boid's words is worth saying again when it changes (not its neighbours' count). */
export const boidGist = (seen) => `${seen.id} ${seen.strongest} ${seen.fleeing}`;
