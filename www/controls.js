// Sliders built from the parameter table (`Flock.params()`): no range or default lives here.

/** Slider positions of a log-scale parameter run over 0..LOG_STEPS. */
const LOG_STEPS = 1000;

function decimals(step) {
  return Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
}

/** `value` as shown beside its slider, with the unit. */
export function formatValue(spec, value) {
  const text = spec.kind === 'integer' ? String(Math.round(value)) : value.toFixed(decimals(spec.step));
  return spec.unit ? (spec.unit === '°' ? `${text}°` : `${text} ${spec.unit}`) : text;
}

/** Slider position ↔ value. Log scale: position 0..LOG_STEPS runs min..max exponentially. */
function scaleFor(spec) {
  if (spec.scale === 'log') {
    const ratio = Math.log(spec.max / spec.min);
    return {
      min: 0,
      max: LOG_STEPS,
      step: 1,
      toValue: (position) => {
        const value = spec.min * Math.exp((ratio * position) / LOG_STEPS);
        return spec.kind === 'integer' ? Math.round(value) : value;
      },
      toPosition: (value) => Math.round((LOG_STEPS * Math.log(value / spec.min)) / ratio),
    };
  }
  return {
    min: spec.min,
    max: spec.max,
    step: spec.step,
    toValue: (position) => position,
    toPosition: (value) => value,
  };
}

/**
 * Fills `form` with a labelled range input for every parameter marked `slider`, wired to the
 * flock's exported setters. `getFlock()` returns the flock now; `onChange(spec, value)` hears
 * of every change. Returns `sync()`, which moves every slider to the flock's current values.
 */
export function buildControls(form, specs, getFlock, onChange) {
  const rows = [];
  for (const spec of specs) {
    if (!spec.slider) continue;
    const scale = scaleFor(spec);
    const row = document.createElement('div');
    row.className = 'param';

    const head = document.createElement('div');
    head.className = 'param-head';
    const label = document.createElement('label');
    label.htmlFor = `param-${spec.name}`;
    label.textContent = spec.label;
    const output = document.createElement('output');
    output.id = `value-${spec.name}`;
    output.htmlFor = `param-${spec.name}`;
    head.append(label, output);

    const input = document.createElement('input');
    input.type = 'range';
    input.id = `param-${spec.name}`;
    input.name = spec.name;
    input.dataset.param = spec.name;
    input.min = String(scale.min);
    input.max = String(scale.max);
    input.step = String(scale.step);
    input.title = spec.description;
    const hint = document.createElement('p');
    hint.className = 'param-hint';
    hint.id = `hint-${spec.name}`;
    hint.textContent = spec.description;
    input.setAttribute('aria-describedby', hint.id);

    const show = () => {
      const value = getFlock()[spec.getter]();
      output.value = formatValue(spec, value);
      input.setAttribute('aria-valuetext', output.value);
      return value;
    };
    const sync = () => {
      input.value = String(scale.toPosition(show()));
    };
    input.addEventListener('input', () => {
      const flock = getFlock();
      flock[spec.setter](scale.toValue(Number(input.value)));
      const value = show();
      onChange?.(spec, value);
    });

    row.append(head, input, hint);
    form.append(row);
    rows.push(sync);
    sync();
  }
  form.addEventListener('submit', (event) => event.preventDefault());
  return () => rows.forEach((sync) => sync());
}
