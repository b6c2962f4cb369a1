// Locks and ranges (issue 28): what a teacher fixes for a lesson. `locked="cohesion alignment"`
// shows those controls disabled, with a lock and "(locked)" in their accessible names;
// `ranges="cohesion:0.5:2 count:100:3000"` narrows sliders to part of the parameter table's
// range and brings the value into it. They bind the students' ways in: the element's own
// controls (sliders, checkboxes, the preset buttons, the keys that move a slider) and the
// iframe's boids:set (embed-bridge.js). The teacher's own script is not bound (attributes,
// `el.flock.setCohesion`): a lesson page may still move a locked value on purpose.
// The part `Locks` owns them; the element asks it (`el.isLocked`, `el.rangeOf`).

import { SPECS } from '../core/wasm-load.js';
import { readParam, writeParam, parseNumber } from '../core/settings.js';
import { NAMES, quote, warn } from './url-sync.js';

export const LOCK_OPTIONS = ['locked', 'ranges'];

const BY_NAME = new Map(SPECS.map((spec) => [spec.name, spec]));
const SVG = 'http://www.w3.org/2000/svg';

/** A list option's words: spaces or commas between them (commas read better in a URL). */
const words = (raw) => String(raw ?? '').split(/[\s,]+/).filter(Boolean);

/** A padlock drawn in SVG (an emoji is a box where no emoji font is installed). */
function lockIcon(title) {
  const box = document.createElement('span');
  box.className = 'bf-lock';
  box.title = title;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('aria-hidden', 'true');
  const shackle = document.createElementNS(SVG, 'path');
  shackle.setAttribute('d', 'M5 7.5V5a3 3 0 0 1 6 0v2.5');
  const body = document.createElementNS(SVG, 'rect');
  for (const [key, value] of Object.entries({ x: 2.5, y: 7, width: 11, height: 8, rx: 1.5 })) body.setAttribute(key, value);
  svg.append(shackle, body);
  box.append(svg);
  return box;
}

/**
 * The lesson's locks and ranges, the part that owns them. `option(name)`: an option's raw value
 * (the URL over the attribute, lesson/url-sync.js).
 */
export class Locks {
  constructor({ option }) {
    this.option = option;
    this.locked = new Set();
    this.ranges = new Map();
  }

  /**
   * Reads `locked` and `ranges` (the URL over the attribute, as every option). A word that is
   * not a parameter, or a range that is not name:min:max inside the table's own range, is
   * warned about and ignored, as a junk attribute is.
   */
  read() {
    this.locked = new Set();
    this.ranges = new Map();
    for (const word of words(this.option('locked'))) {
      const spec = NAMES.resolve(word)?.spec;
      if (spec) this.locked.add(spec.name);
      else warn(`locked: ${quote(word)} is not a parameter; ignored`);
    }
    for (const word of words(this.option('ranges'))) {
      const [name, low, high, ...extra] = word.split(':');
      const spec = NAMES.resolve(name)?.spec;
      const [min, max] = [low, high].map((raw) => parseNumber(raw ?? ''));
      const whole = spec?.kind !== 'integer' || (Number.isInteger(min) && Number.isInteger(max));
      if (spec && spec.kind !== 'toggle' && extra.length === 0 && whole && min < max && min >= spec.min && max <= spec.max) {
        this.ranges.set(spec.name, { min, max });
      } else {
        const own = spec ? ` (${spec.name}: ${spec.kind === 'toggle' ? 'on/off, no range' : `${spec.min} to ${spec.max}`})` : '';
        warn(`ranges: ${quote(word)} is not name:min:max, min below max, within the parameter's own range${own}; ignored`);
      }
    }
  }

  /** Whether the students' controls may not change parameter `name` (any spelling). */
  isLocked(name) {
    const spec = NAMES.resolve(name)?.spec;
    return Boolean(spec && this.locked.has(spec.name));
  }

  /** Parameter `name`'s range as the students' controls have it: `{ min, max }`, or null for none. */
  rangeOf(name) {
    const spec = NAMES.resolve(name)?.spec;
    if (!spec) return null;
    return { ...(this.ranges.get(spec.name) ?? { min: spec.min, max: spec.max }) };
  }

  /** `spec` as its slider is built: with the narrowed range in place of the table's. */
  narrowed(spec) {
    const range = this.ranges.get(spec.name);
    return range ? { ...spec, ...range } : spec;
  }

  /** Brings each narrowed parameter's value in `flock` into its range. */
  clamp(flock) {
    if (!flock) return;
    for (const [name, { min, max }] of this.ranges) {
      const spec = BY_NAME.get(name);
      const value = readParam(flock, spec);
      // The flock keeps 32-bit floats: 0.3 reads back as 0.30000001, which is not above 0.3.
      if (value < Math.fround(min) || value > Math.fround(max)) writeParam(flock, spec, Math.min(max, Math.max(min, value)));
    }
  }

  /**
   * Runs `change` (a preset's button) on `flock` and puts every locked parameter back as it
   * was: a preset changes what it may and keeps the teacher's values (docs/embedding.md).
   */
  keep(flock, change) {
    const kept = [...this.locked].map((name) => [BY_NAME.get(name), readParam(flock, BY_NAME.get(name))]);
    change();
    for (const [spec, value] of kept) writeParam(flock, spec, value);
    this.clamp(flock);
  }

  /**
   * After each build of the panel in `root`: every control of a locked parameter disabled (no
   * pointer, key or tap moves it), a padlock beside it and "(locked)" in its accessible name;
   * the presets' hint (`presets`, its element, if any) says that they leave locked values alone.
   */
  show(root, text, presets) {
    if (!this.locked.size) return;
    const t = text.ui;
    for (const row of root.querySelectorAll('.bf-param[data-param]')) {
      if (!this.locked.has(row.dataset.param)) continue;
      row.classList.add('bf-locked');
      for (const input of row.querySelectorAll('input')) {
        input.disabled = true;
        input.setAttribute('aria-label', `${input.labels?.[0]?.textContent ?? row.dataset.param} (${t('locked')})`);
      }
      row.querySelector('.bf-param-head label')?.after(lockIcon(t('lockedTitle')));
    }
    const hint = presets?.querySelector('.bf-tools-hint');
    if (hint) hint.textContent = `${hint.textContent} ${t('presetsLocked')}`;
  }
}
