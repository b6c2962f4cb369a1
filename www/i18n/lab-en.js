// The algorithm lab's words in English (www/lab/cost-curve.js loads one table, on demand).
// {name} marks a value filled in.

export default {
  title: 'How much work is finding neighbours?',
  start: 'Measure on this device',
  stop: 'Stop',
  idle: 'Press the button: a worker steps the flock by each method, from 250 to 16,000 boids (about half a minute).',
  measured: '{method}, {count} boids: {ms} ms a step.',
  done: 'Measured in {seconds} s.',
  stopped: 'Stopped. What was measured stays.',
  failed: 'The measurement failed: {error}',
  methods: { naive: 'Every pair (naive)', grid: 'Uniform grid', morton: 'Morton order' },
  axisCount: 'boids (N), log scale',
  axisMs: 'ms per step',
  axisChecks: 'distance checks per step',
  plotLabel: 'Two log-log charts: milliseconds and distance checks per step against the number of boids, for each way of finding neighbours.',
  slope: '{method}: checks grow as N to the power {checks}, time as N to the {time}.',
  tableCaption: 'Frames a second: the texts’ table, and steps a second of the step alone on this device',
  colCount: 'Boids',
  colTextsNaive: 'Texts: naive',
  colTextsGrid: 'Texts: spatial hash',
  colHereNaive: 'Here: naive',
  colHereGrid: 'Here: grid',
  csv: 'Download CSV',
  png: 'Download PNG',
};
