// Where a student is in a downloaded lesson (the SCORM and H5P packages report it): whether
// they have run the flock, what they answered (answers.js), and whether that makes the lesson
// complete. One rule for both packages: complete when the flock has run RUN_SECONDS of
// simulated time (its own clock: paused time and a hidden tab do not count) and every prompt
// the teacher wrote (Predict, Notice, Try) has an answer. A lesson without prompts is
// complete once it has run.

import { promptTexts } from '../lesson/prompts.js';
import { answersOf } from './answers.js';

/** Simulated seconds of running that count as "has run the flock": long enough to see it flock. */
export const RUN_SECONDS = 5;
/** The element's fixed step (boids-embed.js STEP), seconds. */
const STEP = 1 / 60;
/** How often the run is looked at, ms (a step counter: nothing to compute). */
const POLL = 500;

/** The prompts `element` shows that ask for an answer. */
export function promptsOf(element) {
  const texts = promptTexts(element);
  return ['predict', 'notice', 'try'].filter((name) => texts[name]);
}

/**
 * Calls `onUpdate({ ran, answers, complete })` now and whenever one of them changes, until
 * the returned function is called. `ran` stays true once reached (`alreadyRan`: a returning
 * student's).
 */
export function watchLesson(element, onUpdate, { alreadyRan = false } = {}) {
  let ran = alreadyRan;
  let last = '';
  const look = () => {
    if (!ran && (element.steps ?? 0) * STEP >= RUN_SECONDS) ran = true;
    const answers = answersOf(element);
    const complete = ran && promptsOf(element).every((name) => answers[name]);
    const key = JSON.stringify([ran, answers, complete]);
    if (key === last) return;
    last = key;
    onUpdate({ ran, answers, complete });
  };
  const timer = setInterval(look, POLL);
  element.addEventListener('boids-answer', look);
  look();
  return () => {
    clearInterval(timer);
    element.removeEventListener('boids-answer', look);
  };
}
