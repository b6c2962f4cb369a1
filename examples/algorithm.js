// The lesson "How is it computed?" (algorithm.html): the cost curve of finding neighbours,
// measured in this browser (www/lab/cost-curve.js: a worker steps the flock by every pair,
// the uniform grid and the Morton order), the step traced line by line (www/lab/step-trace.js)
// and the classic bugs' sandbox (www/lab/bug-sandbox.js). A file, not an inline script: the lessons run under
// a strict CSP. Its language is the lesson's (lesson-lang.js sets <html lang>).

import { buildBugSandbox } from '../www/lab/bug-sandbox.js';
import { buildCostCurve } from '../www/lab/cost-curve.js';
import { buildStepTrace } from '../www/lab/step-trace.js';

const lang = document.documentElement.lang || 'en';
// The page's flocks pause while the worker measures (they would share the processor with it),
// and go on as they were after.
const flocks = [...document.querySelectorAll('boids-flock')];
let wasPaused = [];
function onMeasuring(measuring) {
  if (measuring) {
    wasPaused = flocks.map((flock) => flock.paused);
    for (const flock of flocks) flock.paused = true;
  } else {
    flocks.forEach((flock, i) => (flock.paused = wasPaused[i] ?? flock.paused));
  }
}
const instrument = await buildCostCurve(document.getElementById('cost'), { lang, onMeasuring });
// For a test or a teacher's link: ?measure runs it at once.
if (new URLSearchParams(location.search).has('measure')) instrument.measure();
window.costCurve = instrument;
// The step traced line by line, beside its own flock (paused while traced).
window.stepTrace = await buildStepTrace(document.getElementById('trace'), document.getElementById('traced'), { lang });
// The classic bugs' sandbox: its own flock, never the ones above.
window.bugSandbox = await buildBugSandbox(document.getElementById('bugs'), { lang });
