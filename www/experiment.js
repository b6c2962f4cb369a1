// Experiments for any page (issue 26): `runExperiment(spec)` sweeps one parameter over values
// in a Web Worker and answers rows of measures; links, CSV, slices and the class split beside
// it. The code is in www/experiment/runner.js; this file is the name pages and lessons import
// (examples/order.js), loaded on demand only, touching no globals.
export * from './experiment/runner.js';
