// Times the instruments in the built page (dist/, headless Debian chromium): at 10,000 boids
// (BENCH_COUNT), the median ms of a step, of `metrics()`, of `inspect(id)`, of a piece of a
// survey as the page's plot takes it (`beginSurvey(60)`, then `advanceSurvey(survey)` with a
// step between: the mean, median and slowest piece, and the calls a survey took), and of
// `view.draw(flock)` (the CPU side: staging, uploads, GL calls) with nothing, a selected boid,
// trails, and both. Not part of test.sh: `node scripts/bench-instruments.mjs` after
// `trunk build --release --offline`.
import { launchBrowser, serve } from '../tests/browser/helpers.mjs';

const count = Number(process.env.BENCH_COUNT ?? 10000);
// Frames timed per draw case: software GL draws 100,000 boids' trails in seconds a frame, so
// 120 frames a case had not finished after more than six minutes there (12 take 18 s).
const frames = Number(process.env.BENCH_FRAMES ?? (count > 20000 ? 12 : 120));
const server = await serve();
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  page.on('pageerror', (err) => console.error('page error:', err));
  await page.goto(`${server.url}?paused=1&count=${count}&seed=1`);
  // Not just `window.view`: until the View exists, that names the canvas (id="view").
  await page.waitForFunction(() => window.flock && typeof window.view?.draw === 'function', null, {
    timeout: 60_000,
  });
  const result = await page.evaluate((frames) => {
    const { flock, view } = window;
    const median = (f, n) => {
      const times = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        f(i);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      return times[times.length >> 1];
    };
    for (let i = 0; i < 200; i++) flock.step(1 / 60);
    const id = flock.ids()[flock.count() >> 1];
    const out = {
      build: customElements.get('boids-flock').build,
      step: median(() => flock.step(1 / 60), 60),
      metrics: median(() => flock.metrics(), 60),
      inspect: median(() => flock.inspect(id), 60),
    };
    // Ten surveys as the plot takes them (www/instruments/plot.js, SURVEY_CALLS): a piece a step.
    const pieces = [];
    let surveys = 0;
    for (; surveys < 10; surveys++) {
      const survey = flock.beginSurvey(60);
      for (let done = null; !done; ) {
        const t = performance.now();
        done = flock.advanceSurvey(survey);
        pieces.push(performance.now() - t);
        if (!done) flock.step(1 / 60);
      }
    }
    // performance.now() is coarse (0.1 ms in a page that is not cross-origin isolated), so
    // the mean, over some 200 pieces, says more than the median.
    out.surveyMean = pieces.reduce((a, b) => a + b, 0) / pieces.length;
    pieces.sort((a, b) => a - b);
    out.surveyCalls = pieces.length / surveys;
    out.surveyPiece = pieces[pieces.length >> 1];
    out.surveySlowest = pieces.at(-1);
    // A frame: one step (so that trails sample at their pace), then the draw timed alone.
    const frame = (n) => median(() => view.draw(flock), n);
    const drawn = (setup) => {
      setup();
      for (let i = 0; i < 10; i++) view.draw(flock);
      const times = [];
      for (let i = 0; i < frames; i++) {
        flock.step(1 / 60);
        const t = performance.now();
        view.draw(flock);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      return { median: times[frames >> 1], p90: times[Math.floor(frames * 0.9)] };
    };
    out.draw = drawn(() => {
      view.select(flock, null);
      view.setTrails(false);
    });
    out.drawSelected = drawn(() => view.select(flock, id));
    out.drawSelectedTrails = drawn(() => view.setTrails(true));
    out.drawTrails = drawn(() => view.select(flock, null));
    view.setTrails(false);
    out.colourModes = {};
    for (const mode of ['heading', 'neighbours', 'rule']) {
      view.setColourBy(mode);
      out.colourModes[mode] = frame(Math.max(1, frames >> 1));
    }
    return out;
  }, frames);
  console.log(JSON.stringify(result, null, 1));
} finally {
  await browser.close();
  await server.close();
}
