// What the colours mean, in a corner of the stage: a heading wheel while boids are coloured
// by the direction they fly, swatches while each species has its colour. The colours are
// the cone shader's (src/render/cone.vert.glsl), computed here the same way.

import { element } from '../core/dom.js';

const TAU = 2 * Math.PI;

/** The shader's `hue(t)`: a colour wheel tuned for a dark sky, as CSS rgb(). */
export function hue(t) {
  const channel = (offset) => Math.round(255 * (0.58 + 0.42 * Math.cos(TAU * (t + offset))));
  return `rgb(${channel(0)}, ${channel(0.33)}, ${channel(0.67)})`;
}

/** The shader's species colour: hue(species / 4 + 0.08). */
export const speciesColour = (species) => hue(species / 4 + 0.08);

/** Stops of the heading wheel: every 30° (the shader's compass runs once around the wheel). */
const WHEEL_STOPS = 12;

/**
 * The legend: { element, show(mode, { species, palette }) }. Modes it draws: "heading" (a
 * wheel), "species" (one swatch each), "speed" and "neighbours" (a colour bar) and "rule"
 * (the three rules' colours); `palette` is `view.legend()`.
 */
/** A low → high colour bar (speed, neighbours) from the View's ramp; the caption says what. */
function ramp(body, palette, caption) {
  const bar = element('span', 'bf-ramp');
  bar.style.background = `linear-gradient(90deg, ${(palette?.ramp ?? ['#333', '#999', '#fff']).join(', ')})`;
  body.append(element('span', 'bf-ramp-end', '−'), bar, element('span', 'bf-ramp-end', '+'));
  return caption;
}

export function buildLegend(text) {
  const box = element('div', 'bf-legend');
  box.hidden = true;
  const key = element('span', 'bf-legend-key');
  key.setAttribute('aria-hidden', 'true');
  const caption = element('span', 'bf-legend-caption');
  box.append(key, caption);
  let shown = null;

  const modes = {
    heading: (body) => {
      const wheel = element('span', 'bf-wheel');
      const stops = [];
      for (let i = 0; i <= WHEEL_STOPS; i++) stops.push(hue(i / WHEEL_STOPS));
      wheel.style.background = `conic-gradient(${stops.join(', ')})`;
      body.append(wheel);
      return text.ui('legendHeading');
    },
    // The View's own colours (`view.legend()`, passed as `palette`) for the instruments' modes.
    speed: (body, { palette }) => ramp(body, palette, text.ui('legendSpeed')),
    neighbours: (body, { palette }) => ramp(body, palette, text.ui('legendNeighbours')),
    rule: (body, { palette }) => {
      for (const { name, colour } of palette?.rules ?? []) {
        if (name === 'none') continue;
        const swatch = element('span', 'bf-swatch bf-swatch-rule', text.ui(`force${name[0].toUpperCase()}${name.slice(1)}`));
        swatch.style.background = colour;
        body.append(swatch);
      }
      return text.ui('legendRule');
    },
    species: (body, { species }) => {
      for (let s = 0; s < species; s++) {
        const swatch = element('span', 'bf-swatch', String(s + 1));
        swatch.style.background = speciesColour(s);
        body.append(swatch);
      }
      return text.ui('legendSpecies');
    },
  };

  return {
    element: box,
    modes,
    show(mode, options = {}) {
      const signature = `${mode}:${options.species ?? ''}:${options.palette ? 1 : 0}`;
      if (signature === shown) return;
      shown = signature;
      const draw = modes[mode];
      box.hidden = !draw;
      box.dataset.mode = mode ?? '';
      key.replaceChildren();
      if (draw) caption.textContent = draw(key, options, text);
    },
  };
}
