// The SCORM side of a downloaded lesson (www/package/scorm.js writes the package): the
// lesson page finds the learning platform's runtime API, says it started, reports progress
// as the student goes, and leaves a suspend state to come back to. Active only in a page
// whose <html> has `data-scorm="1.2"` or `data-scorm="2004"` (the package's index.html);
// anywhere else it does nothing.
//
// What it writes (SCORM 1.2 name / SCORM 2004 name):
// - status: cmi.core.lesson_status / cmi.completion_status, "incomplete" until the lesson is
//   complete (progress.js: the flock ran and every prompt has an answer), then "completed";
// - an interaction per answer (id "predict", "notice", "try"; 1.2 "fill-in", its response at
//   most 255 characters; 2004 "long-fill-in", up to 4,000) and one per finished experiment
//   (id "experiment-<parameter>", 1.2 "performance" / 2004 "other", a short summary);
// - a suspend state (cmi.suspend_data, 1.2 at most 4,096 characters, 2004 64,000), JSON: the
//   answers, whether the flock ran, and the flock itself: the exact moment (moment.js) when it
//   fits, else the lesson's settings as they are now (its link's parameters, seed included),
//   so a student comes back to their flock, or to its settings when the moment is too big;
// - cmi.core.exit / cmi.exit "suspend", and a commit, whenever it changes and on leaving.
// The platform's API is found as SCORM's run-time guide says: the nearest window up the
// parents (then the opener's) that has `API` (1.2) or `API_1484_11` (2004), 7 levels at most.

import { setAnswers } from './answers.js';
import { watchLesson } from './progress.js';

const VERSIONS = {
  '1.2': {
    api: 'API',
    call: { init: 'LMSInitialize', get: 'LMSGetValue', set: 'LMSSetValue', commit: 'LMSCommit', finish: 'LMSFinish', error: 'LMSGetLastError' },
    status: 'cmi.core.lesson_status',
    exit: 'cmi.core.exit',
    answerType: 'fill-in',
    experimentType: 'performance',
    response: 'student_response',
    responseMax: 255,
    suspendMax: 4096,
  },
  2004: {
    api: 'API_1484_11',
    call: { init: 'Initialize', get: 'GetValue', set: 'SetValue', commit: 'Commit', finish: 'Terminate', error: 'GetLastError' },
    status: 'cmi.completion_status',
    exit: 'cmi.exit',
    answerType: 'long-fill-in',
    experimentType: 'other',
    response: 'learner_response',
    responseMax: 4000,
    suspendMax: 64000,
  },
};

/** Suspend states of this shape only: a later package reads what an earlier wrote. */
const SUSPEND_VERSION = 1;
/** The moment is written again at most this often while the flock runs, ms (a 1,500-boid snapshot deflates in ~5 ms). */
const SAVE_EVERY = 5000;

/** The nearest window from `start` up that has `name`, or null. */
export function findApi(name, start = window) {
  for (const first of [start, start.opener]) {
    let win = first;
    for (let level = 0; win && level <= 7; level++) {
      try {
        if (win[name]) return win[name];
        if (win.parent === win) break;
        win = win.parent;
      } catch {
        break; // another origin's window: not the platform's frame
      }
    }
  }
  return null;
}

/** The lesson's suspend state as text, within `max` characters: with the moment if it fits. */
export async function suspendText({ element, answers, ran }, max) {
  const base = { v: SUSPEND_VERSION, ran, answers };
  const link = new URL(element.shareUrl());
  const settings = Object.fromEntries(new URLSearchParams(link.search));
  if (typeof element.flock?.snapshot === 'function') {
    try {
      const { encodeMoment } = await import('../lesson/moment.js');
      const text = JSON.stringify({ ...base, state: await encodeMoment(element.flock.snapshot()), paused: element.paused });
      if (text.length <= max) return text;
    } catch (error) {
      console.warn(`boids lesson: no moment in the suspend state (${error})`);
    }
  }
  const text = JSON.stringify({ ...base, settings });
  if (text.length <= max) return text;
  // Answers long enough to fill the space on their own: the settings go first, then the answers are cut.
  return JSON.stringify({ ...base, answers: Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, v.slice(0, Math.floor(max / 8))])) });
}

/** A suspend state read back: { ran, answers, state?, settings? }, or null for none or junk. */
export function readSuspend(text) {
  if (!text) return null;
  try {
    const data = JSON.parse(text);
    if (data?.v !== SUSPEND_VERSION) return null;
    return data;
  } catch {
    return null;
  }
}

/** Puts a returning student's flock back on `element` (before it is defined: attributes only). */
function restore(element, data) {
  if (data.state) {
    element.setAttribute('state', data.state);
    // Left paused, found paused: the very moment, not a step after it.
    if (data.paused) element.setAttribute('paused', '');
  } else if (data.settings) {
    for (const [name, value] of Object.entries(data.settings)) {
      // The link's parameters are the element's attributes, a bare one written "1".
      if (/^[a-z][a-z-]*$/.test(name) && typeof value === 'string') element.setAttribute(name, value);
    }
  }
  setAnswers(element, data.answers);
}

function start(version) {
  const spec = VERSIONS[version];
  const element = document.querySelector('boids-flock');
  const api = findApi(spec.api);
  if (!element) return;
  if (!api) {
    console.warn(`boids lesson: no SCORM ${version} runtime (window.${spec.api}) found; the lesson runs but reports nothing`);
    return;
  }
  const call = (what, ...args) => {
    const out = api[spec.call[what]](...args);
    if (what === 'set' && String(out) !== 'true') console.warn(`boids lesson: ${spec.call.set}(${args[0]}) refused, error ${api[spec.call.error]()}`);
    return out;
  };
  if (String(call('init', '')) !== 'true') {
    console.warn(`boids lesson: ${spec.call.init} failed, error ${api[spec.call.error]()}`);
    return;
  }
  const saved = readSuspend(call('get', 'cmi.suspend_data'));
  if (saved) restore(element, saved);
  const status = call('get', spec.status);
  let complete = status === 'completed' || status === 'passed';
  if (!complete) call('set', spec.status, 'incomplete');

  let state = { ran: saved?.ran ?? false, answers: saved?.answers ?? {} };
  const interactions = new Map(); // id → index
  const interaction = (id, type, response) => {
    if (!interactions.has(id)) interactions.set(id, interactions.size);
    const n = interactions.get(id);
    call('set', `cmi.interactions.${n}.id`, id);
    call('set', `cmi.interactions.${n}.type`, type);
    call('set', `cmi.interactions.${n}.${spec.response}`, response.slice(0, spec.responseMax));
  };
  let saving = null;
  let again = false;
  const save = async () => {
    if (saving) {
      again = true;
      return saving;
    }
    saving = (async () => {
      try {
        call('set', 'cmi.suspend_data', await suspendText({ element, ...state }, spec.suspendMax));
        call('set', spec.exit, complete ? '' : 'suspend');
        call('commit', '');
      } catch (error) {
        console.warn(`boids lesson: the suspend state was not written (${error})`);
      }
    })();
    await saving;
    saving = null;
    if (again) {
      again = false;
      await save();
    }
  };

  watchLesson(
    element,
    (now) => {
      for (const [name, text] of Object.entries(now.answers)) {
        if (state.answers[name] !== text) interaction(name, spec.answerType, text);
      }
      state = { ran: now.ran, answers: now.answers };
      if (now.complete && !complete) {
        complete = true;
        call('set', spec.status, 'completed');
      }
      save();
    },
    { alreadyRan: state.ran },
  );
  element.addEventListener('boids-experiment', ({ detail }) => {
    const summary = `${detail.param} ${detail.values?.length ?? 0} values, ${detail.seeds?.length ?? detail.seeds ?? ''} seeds, ${detail.rows} rows`;
    interaction(`experiment-${detail.param}`, spec.experimentType, summary);
    save();
  });
  // The moment moves as the flock runs: written again now and then when it has moved (a pause
  // included: the paused moment is the one to come back to).
  let savedSteps = element.steps;
  setInterval(() => {
    if (element.steps === savedSteps) return;
    savedSteps = element.steps;
    save();
  }, SAVE_EVERY);
  let finished = false;
  const leave = () => {
    if (finished) return;
    finished = true;
    // The moment is deflated asynchronously: on leaving there is no time, so the last saved
    // one stands, and the finish call goes now.
    call('set', spec.exit, complete ? '' : 'suspend');
    call('commit', '');
    call('finish', '');
  };
  window.addEventListener('pagehide', leave);
  window.addEventListener('beforeunload', leave);
}

const version = document.documentElement.dataset.scorm;
if (version && VERSIONS[version]) start(version);
