// Settings from attributes and URLs: names resolved against the parameter table, values parsed
// as numbers or known words (never evaluated, never written as HTML) and then clamped by the
// flock's setters. Every parameter of `Flock.params()` is a setting, with no list kept here.

/** camelCase → kebab-case: "separationRadius" → "separation-radius". */
export function kebab(name) {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;
const TRUE_WORDS = new Set(['', '1', 'true', 'on', 'yes']);
const FALSE_WORDS = new Set(['0', 'false', 'off', 'no']);

/**
 * Names that stand for a parameter of another name or in other words. Each applies only when
 * its target exists in the table (else it is ignored with a warning).
 * - `predator` (boolean, or a number of hawks) → `predators`
 * - `mode="2d" | "3d"` → `flat` = 1 | 0
 * - `species` → `speciesCount`
 */
const ALIASES = {
  predator: { target: 'predators', parse: (raw) => (TRUE_WORDS.has(raw) ? 1 : FALSE_WORDS.has(raw) ? 0 : parseNumber(raw)) },
  mode: { target: 'flat', parse: (raw) => ({ '2d': 1, flat: 1, '3d': 0 })[raw] },
  species: { target: 'speciesCount' },
};

/** Setting names that are the element's own options, not parameters. */
export const OPTIONS = ['controls', 'lang', 'paused', 'readout', 'share', 'open', 'record'];

/** A number from text, a decimal comma allowed ("2,5"); undefined when it is not one. */
export function parseNumber(raw) {
  // A decimal comma ("2,5") is how the lessons' languages write numbers.
  const text = /^[+-]?\d+,\d+$/.test(raw) ? raw.replace(',', '.') : raw;
  if (!NUMBER.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** Parses `raw` for `spec`: a number, or for toggles a known word. undefined when it is junk. */
export function parseValue(spec, raw) {
  const text = String(raw).trim().toLowerCase();
  if (spec.kind === 'toggle') {
    if (TRUE_WORDS.has(text)) return 1;
    if (FALSE_WORDS.has(text)) return 0;
    return undefined;
  }
  return parseNumber(text);
}

/** Shortest decimal text that gives back the same 32-bit float (the flock stores f32). */
export function formatNumber(value) {
  if (Number.isInteger(value)) return String(value);
  const target = Math.fround(value);
  for (let digits = 1; digits <= 9; digits++) {
    const text = String(Number(value.toPrecision(digits)));
    if (Math.fround(Number(text)) === target) return text;
  }
  return String(value);
}

/**
 * Name lookups for a parameter table: `resolve(name)` → { spec, parse } for a parameter (any
 * spelling: camelCase, lower case, kebab-case, or an alias), { missing } for an alias whose
 * parameter does not exist, null for anything else. `attributes` lists every attribute name
 * that stands for a parameter.
 */
export function paramNames(specs) {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const lookup = new Map();
  for (const spec of specs) {
    for (const key of [spec.name.toLowerCase(), kebab(spec.name)]) {
      lookup.set(key, { spec, parse: (raw) => parseValue(spec, raw) });
    }
  }
  for (const [alias, { target, parse }] of Object.entries(ALIASES)) {
    if (lookup.has(alias)) continue; // the table has a parameter of this very name
    const spec = byName.get(target);
    lookup.set(
      alias,
      spec
        ? { spec, parse: (raw) => (parse ? parse(String(raw).trim().toLowerCase()) : parseValue(spec, raw)) }
        : { missing: target },
    );
  }
  return {
    resolve: (name) => lookup.get(String(name).toLowerCase()) ?? null,
    attributes: [...lookup.keys()],
    /** Every spelling of a parameter's name, for removing it from a URL. */
    spellings: (spec) => [spec.name, spec.name.toLowerCase(), kebab(spec.name)],
    aliases: Object.keys(ALIASES),
  };
}

/**
 * Words of `controls` that are not parameters but the panel's tools: `presets` (a row of
 * preset buttons), `obstacles` (click the scene to add one; a Clear button), `pointer`
 * (attract or repel the flock by holding the pointer down on the scene). "all" has them all.
 */
export const FEATURES = ['presets', 'obstacles', 'pointer'];

/**
 * `controls` option → { specs: the parameters to show as sliders (in table order),
 * features: the set of FEATURES to show }.
 */
export function parseControls(raw, specs, resolve, warn) {
  const none = { specs: [], features: new Set() };
  if (raw == null) return none;
  const text = String(raw).trim().toLowerCase();
  if (['', 'none', '0', 'false', 'off', 'no'].includes(text)) return none;
  if (['all', '1', 'true', 'on', 'yes'].includes(text)) {
    return { specs: specs.filter((spec) => spec.slider), features: new Set(FEATURES) };
  }
  const chosen = new Set();
  const features = new Set();
  for (const word of text.split(/[\s,]+/).filter(Boolean)) {
    const found = resolve(word);
    if (found?.spec && found.spec.name !== 'seed') chosen.add(found.spec.name);
    else if (FEATURES.includes(word)) features.add(word);
    else warn(`controls: "${word}" is neither a parameter with a slider nor one of ${FEATURES.join(', ')}; ignored`);
  }
  return { specs: specs.filter((spec) => chosen.has(spec.name)), features };
}

/** Boolean option: present and not a "no" word. */
export function isOn(raw) {
  return raw != null && !FALSE_WORDS.has(String(raw).trim().toLowerCase());
}

/** A parameter's value as a number (`wrap`'s getter gives a boolean). */
export function readParam(flock, spec) {
  return Number(flock[spec.getter]());
}

/** Sets a parameter through its exported setter (which clamps); returns the value applied. */
export function writeParam(flock, spec, value) {
  const boolean = typeof flock[spec.getter]() === 'boolean';
  flock[spec.setter](boolean ? value >= 0.5 : value);
  return readParam(flock, spec);
}
