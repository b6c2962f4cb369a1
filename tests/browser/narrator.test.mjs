// The words for a screen reader (issue 29), without a browser: www/instruments/narrator.js fed sequences
// of samples says what the flock did in a sentence — a split, a hawk's scatter, the groups
// joining and circling — once it held for two samples, at most one announcement every
// SAY_EVERY ms, nothing while the flock goes on as it was or a count flickers; every
// sentence in English, Ukrainian, Polish and Russian with each plural form the language
// needs; the selected boid in words. The page's own live region: narrator-page.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Narrator, SAY_EVERY, boidWords, sentences } from '../../www/instruments/narrator.js';
import en from '../../www/i18n/en.js';
import uk from '../../www/i18n/uk.js';
import pl from '../../www/i18n/pl.js';
import ru from '../../www/i18n/ru.js';

const TABLES = { en, uk, pl, ru };
/** The page's `texts(lang)`, as far as the narrator uses it (English beneath the others). */
const textOf = (lang) => ({ ui: (key) => TABLES[lang].ui[key] ?? en.ui[key] ?? key });

/** A sample's measures: one group flying one way unless told otherwise. */
const flying = (over = {}) => ({ count: 1500, bigGroups: 1, polarization: 0.9, milling: 0.1, localOrder: 0.9, ...over });
const circling = (over = {}) => flying({ polarization: 0.2, milling: 0.7, ...over });
const split = (n, over = {}) => flying({ bigGroups: n, polarization: 0.4, ...over });

/**
 * Feeds `samples` ([metrics, hawks] or metrics) a second apart from t = 0 and returns what
 * was said, as [{at, text}] in `lang`.
 */
function run(samples, { lang = 'en', every = SAY_EVERY, gap = 1000 } = {}) {
  const narrator = new Narrator({ every });
  const out = [];
  samples.forEach((sample, k) => {
    const [metrics, hawks] = Array.isArray(sample) ? sample : [sample, 0];
    const said = narrator.hear(metrics, hawks, k * gap);
    if (said) out.push({ at: k * gap, text: sentences(said, textOf(lang), lang) });
  });
  return out;
}

const repeat = (n, sample) => Array.from({ length: n }, () => sample);

test('a flock that goes on as it was says nothing; nor does a count of groups that flickers', () => {
  assert.deepEqual(run(repeat(30, flying())), []);
  assert.deepEqual(run(repeat(30, circling())), []);
  const flicker = [...repeat(5, flying()), ...Array.from({ length: 20 }, (_, k) => (k % 2 ? split(2) : flying()))];
  assert.deepEqual(run(flicker), []);
});

test('a split is said once it held two samples, in a sentence with its count', () => {
  const said = run([...repeat(6, flying()), ...repeat(10, split(3))]);
  assert.deepEqual(said, [{ at: 7000, text: 'The flock split into 3 groups.' }]);
});

test('a hawk comes, scatters the flock, leaves; the groups join and begin to circle', () => {
  const said = run([
    ...repeat(5, flying()),
    ...repeat(5, [flying(), 1]),
    ...repeat(6, [split(4), 1]),
    ...repeat(6, [split(4), 0]),
    ...repeat(8, circling()),
  ]);
  assert.deepEqual(
    said.map((s) => s.text),
    ['A hawk is hunting the flock.', 'A hawk scattered the flock into 4 groups.', 'No hawk hunts the flock now.', 'The groups joined into one flock. The flock began to circle.'],
  );
  // A hawk that comes as the flock splits: one sentence tells both.
  assert.deepEqual(run([...repeat(5, flying()), ...repeat(5, [split(2), 2])]).map((s) => s.text), ['A hawk scattered the flock into 2 groups.']);
});

test('the shapes of one flock: lined up, turning, circling, a swarm, and back', () => {
  const said = run([
    ...repeat(4, flying({ polarization: 0.5 })),
    ...repeat(5, flying()),
    // Hovering at the threshold (0.8 to enter, 0.65 to leave) keeps the words as they were.
    ...Array.from({ length: 8 }, (_, k) => flying({ polarization: k % 2 ? 0.79 : 0.81 })),
    ...repeat(5, flying({ polarization: 0.5 })),
    ...repeat(5, circling()),
    ...repeat(5, flying({ polarization: 0.5 })),
    ...repeat(5, flying({ polarization: 0.1, localOrder: 0.2 })),
    ...repeat(5, flying({ polarization: 0.3, localOrder: 0.7 })),
    ...repeat(5, flying({ bigGroups: 0, polarization: 0.1, localOrder: 0.3 })),
    ...repeat(5, flying()),
  ]);
  assert.deepEqual(
    said.map((s) => s.text),
    [
      'The flock lined up and flies one way.',
      'The flock is turning.',
      'The flock began to circle.',
      'The flock stopped circling.',
      'The flock lost its order: each boid flies its own way.',
      'The boids began to fly with their neighbours.',
      'The flock fell apart into lone boids and small bunches.',
      'The boids gathered into one flock. The flock lined up and flies one way.',
    ],
  );
});

test('at most one announcement every few seconds, whatever the flock does', () => {
  // A flock that changes every two samples, for ten minutes of samples a quarter second apart.
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const samples = Array.from({ length: 2400 }, (_, k) => {
    const kind = Math.floor(k / 2) % 4;
    return [kind === 0 ? flying() : kind === 1 ? circling() : split(2 + Math.floor(random() * 5)), random() < 0.5 ? 0 : 1];
  });
  const said = run(samples, { gap: 250 });
  assert.ok(said.length > 20, `it still says things: ${said.length}`);
  for (let k = 1; k < said.length; k++) assert.ok(said[k].at - said[k - 1].at >= SAY_EVERY, `${said[k - 1].at} then ${said[k].at}`);
  for (const { text } of said) assert.ok(text.split('. ').length <= 2, `at most two sentences: ${text}`);
});

test('every sentence in Ukrainian, Polish and Russian, each plural form right', () => {
  const expect = {
    uk: { 2: 'Зграя розділилася на 2 групи.', 5: 'Зграя розділилася на 5 груп.', 21: 'Зграя розділилася на 21 групу.', 22: 'Зграя розділилася на 22 групи.' },
    pl: { 2: 'Stado podzieliło się na 2 grupy.', 5: 'Stado podzieliło się na 5 grup.', 21: 'Stado podzieliło się na 21 grup.', 22: 'Stado podzieliło się na 22 grupy.' },
    ru: { 2: 'Стая разделилась на 2 группы.', 5: 'Стая разделилась на 5 групп.', 21: 'Стая разделилась на 21 группу.', 22: 'Стая разделилась на 22 группы.' },
  };
  for (const [lang, byCount] of Object.entries(expect)) {
    for (const [n, text] of Object.entries(byCount)) {
      assert.deepEqual(run([...repeat(4, flying()), ...repeat(3, split(Number(n)))], { lang }).map((s) => s.text), [text], `${lang} ${n}`);
    }
  }
  const hawks = { en: ['A hawk is hunting the flock.', '3 hawks are hunting the flock.'], uk: ['Яструб полює на зграю.', '3 яструби полюють на зграю.'], pl: ['Jastrząb poluje na stado.', '3 jastrzębie polują na stado.'], ru: ['Ястреб охотится на стаю.', '3 ястреба охотятся на стаю.'] };
  for (const [lang, [one, three]] of Object.entries(hawks)) {
    assert.equal(sentences([{ key: 'sayHawks', n: 1 }], textOf(lang), lang), one);
    assert.equal(sentences([{ key: 'sayHawks', n: 3 }], textOf(lang), lang), three);
    assert.equal(sentences([{ key: 'sayHawks', n: 5 }], textOf(lang), lang), lang === 'en' ? '5 hawks are hunting the flock.' : { uk: '5 яструбів полюють на зграю.', pl: '5 jastrzębi poluje na stado.', ru: '5 ястребов охотятся на стаю.' }[lang]);
  }
  // Every word the narrator says, in every language, with the plural forms it needs.
  const keys = Object.keys(en.ui).filter((key) => /^(say|boid)[A-Z]/.test(key));
  assert.ok(keys.length > 20, keys.join(' '));
  for (const lang of ['uk', 'pl', 'ru']) {
    for (const key of keys) {
      const base = key.replace(/_(one|other)$/, '');
      const forms = base === key ? [key] : ['one', 'few', 'many', 'other'].map((form) => `${base}_${form}`);
      for (const form of forms) {
        const value = TABLES[lang].ui[form];
        assert.ok(typeof value === 'string' && value && value !== en.ui[form], `${lang}: ${form} is translated`);
        if (en.ui[key].includes('{n}') && form !== `${base}_one`) assert.ok(value.includes('{n}'), `${lang}: ${form} has {n}`);
      }
    }
  }
});

test('the selected boid in words: its neighbours, the rule that wins, a hawk it flees', () => {
  const seen = { id: 42, heeded: new Uint32Array(7), tooClose: new Uint32Array(2), strongest: 'separation', fleeing: false };
  assert.equal(boidWords(seen, textOf('en'), 'en'), 'Boid 42: 7 neighbours in sight; too close: 2. Separation wins: it turns away from a neighbour too close.');
  assert.equal(
    boidWords({ ...seen, heeded: new Uint32Array(1), tooClose: new Uint32Array(0), strongest: 'cohesion', fleeing: true }, textOf('en'), 'en'),
    'Boid 42: 1 neighbour in sight. Cohesion wins: it steers toward the middle of its neighbours. It is fleeing a hawk.',
  );
  assert.equal(boidWords({ ...seen, heeded: new Uint32Array(0), tooClose: new Uint32Array(0), strongest: null }, textOf('en'), 'en'), 'Boid 42: no neighbour in sight. No rule acts on it.');
  assert.equal(boidWords({ ...seen, heeded: new Uint32Array(5), strongest: 'alignment' }, textOf('uk'), 'uk'), 'Боїд 42: 5 сусідів у полі зору; заблизько: 2. Перемагає вирівнювання: він повертає, щоб летіти туди ж, куди сусіди.');
  assert.equal(boidWords({ ...seen, heeded: new Uint32Array(3) }, textOf('ru'), 'ru'), 'Боид 42: 3 соседа в поле зрения; слишком близко: 2. Побеждает разделение: он отворачивает от соседа, который слишком близко.');
  assert.equal(boidWords({ ...seen, heeded: new Uint32Array(1), tooClose: new Uint32Array(0) }, textOf('pl'), 'pl'), 'Boid nr 42: 1 sąsiad w polu widzenia. Wygrywa separacja: odwraca się od sąsiada, który jest za blisko.');
});
