// The lesson bundle's entry: what a downloaded lesson runs (the single file, the SCORM and H5P
// packages). scripts/build-lesson-bundle.mjs bundles it, with the wasm and the stylesheet
// inside, into dist/www/package/boids-lesson.js: one module that needs no other file.
// The SCORM runtime comes first: it puts a returning student's flock on the element as
// attributes before boids-embed.js defines the element.

import './package/scorm-runtime.js';
import './boids-embed.js';
import './package/answers.js';

export { BoidsFlock } from './boids-embed.js';
export { answersOf, setAnswers } from './package/answers.js';
export { watchLesson } from './package/progress.js';
