// The panel's tools beside the sliders: a row of preset buttons, the Predator checkbox (in
// the Hawks slider's row), and "In the scene": the pointer tool (off / attract / repel) and
// the obstacles' hint and Clear button. Presets come from `Flock.presets()`, text from
// i18n.js; what a click on the scene does lives in scene.js (it needs the View to pick a point).
// Also Record and Picture, which keep the stage as a clip or a picture (buildKeep).

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

/** Whether the flock's values are exactly the preset's (the flock stores 32-bit floats). */
function matches(flock, preset) {
  return Object.entries(preset.values).every(
    ([name, value]) => typeof flock[name] === 'function' && Math.fround(Number(flock[name]())) === Math.fround(value),
  );
}

/**
 * The preset buttons. One click applies the preset (`onApply(preset)`, which sets its values
 * and re-reads every slider); the button of the preset the flock's values match is pressed
 * (`aria-pressed`). Returns { element, sync }.
 */
export function buildPresets({ presets, id, text, getFlock, onApply }) {
  const box = element('div', 'bf-presets');
  box.id = id('presets');
  box.setAttribute('role', 'group');
  const headingId = id('presets-heading');
  box.setAttribute('aria-labelledby', headingId);
  const heading = element('h2', 'bf-tools-heading', text.ui('presets'));
  heading.id = headingId;
  const row = element('div', 'bf-preset-buttons');
  const buttons = presets.map((preset) => {
    const [label, description] = text.preset(preset);
    const button = element('button', 'bf-preset', label);
    button.type = 'button';
    button.id = id(`preset-${preset.name}`);
    button.dataset.preset = preset.name;
    button.title = description;
    button.addEventListener('click', () => onApply(preset));
    row.append(button);
    return [button, preset];
  });
  const hint = element('p', 'bf-tools-hint', text.ui('presetsHint'));
  hint.id = id('presets-hint');
  box.setAttribute('aria-describedby', hint.id);
  box.append(heading, row, hint);
  const sync = () => {
    const flock = getFlock();
    if (!flock) return;
    for (const [button, preset] of buttons) button.setAttribute('aria-pressed', String(matches(flock, preset)));
  };
  sync();
  return { element: box, sync };
}

/**
 * Predator and Hawks as one control: a Predator checkbox put in the Hawks slider's row
 * (`row`, from controls.js). Ticked: one hawk if there is none (a count set on the slider
 * stays); unticked: none. The slider and the box follow each other through `sync()`.
 */
export function attachPredator(row, { id, text, getFlock, onChange }) {
  const line = element('div', 'bf-tool-line bf-tool-predator');
  const input = element('input');
  input.type = 'checkbox';
  input.id = id('predator');
  const label = element('label', null, text.ui('predator'));
  label.htmlFor = input.id;
  const hint = row.querySelector('.bf-param-hint');
  hint.textContent = text.ui('predatorHint');
  input.setAttribute('aria-describedby', hint.id);
  input.addEventListener('change', () => {
    const flock = getFlock();
    if (input.checked) {
      if (flock.predators() < 1) flock.setPredators(1);
    } else {
      flock.setPredators(0);
    }
    input.checked = flock.predators() > 0;
    onChange('predators');
  });
  line.append(input, label);
  row.classList.add('bf-param-predator');
  row.prepend(line);
  const sync = () => {
    const flock = getFlock();
    if (flock) input.checked = flock.predators() > 0;
  };
  sync();
  return sync;
}

/**
 * "In the scene": the pointer tool (when `pointer`) and the obstacles' hint and Clear button
 * (when `obstacles`); `heading` false inside a panel group that has its own; `touch` words
 * the hints for fingers.
 * `onChange()` hears of a change to the flock's settings; `getMode()`/`setMode(mode)` hold the
 * pointer tool's mode ("off", "attract", "repel"). Returns { element, sync, say }: `say(text)`
 * shows a short status line (e.g. that there is no room for another obstacle).
 */
export function buildScene({ pointer, obstacles, heading = true, touch = false, id, text, getFlock, onChange, getMode, setMode }) {
  const t = text.ui;
  const box = element('div', 'bf-scene');
  box.id = id('scene');
  box.setAttribute('role', 'group');
  const headingId = id('scene-heading');
  box.setAttribute('aria-labelledby', headingId);
  if (heading) {
    const title = element('h2', 'bf-tools-heading', t('scene'));
    title.id = headingId;
    box.append(title);
  } else {
    box.removeAttribute('aria-labelledby'); // inside a group that names it
  }
  const syncs = [];

  if (pointer) {
    const tool = element('fieldset', 'bf-tool bf-tool-pointer');
    tool.id = id('pointer');
    const legend = element('legend', null, t('pointer'));
    const choices = element('div', 'bf-segmented');
    const name = id('pointer-mode');
    const radios = ['off', 'attract', 'repel'].map((mode) => {
      // The radio covers its label's box (invisibly), so a click or tap anywhere on the
      // segment, or on the radio itself, chooses it.
      const input = element('input');
      input.type = 'radio';
      input.name = name;
      input.value = mode;
      input.id = id(`pointer-${mode}`);
      const label = element('label', 'bf-segment');
      label.append(input, element('span', null, t(`pointer${mode[0].toUpperCase()}${mode.slice(1)}`)));
      input.addEventListener('change', () => {
        if (input.checked) setMode(mode);
      });
      choices.append(label);
      return input;
    });
    const hint = element('p', 'bf-tools-hint', t(touch ? 'pointerHintTouch' : 'pointerHint'));
    hint.id = id('pointer-hint');
    tool.setAttribute('aria-describedby', hint.id);
    tool.append(legend, choices, hint);
    box.append(tool);
    syncs.push(() => {
      const mode = getMode();
      for (const radio of radios) radio.checked = radio.value === mode;
    });
  }

  let status = null;
  if (obstacles) {
    const tool = element('div', 'bf-tool bf-tool-obstacles');
    const line = element('div', 'bf-tool-line');
    const hint = element('p', 'bf-tools-hint bf-obstacles-hint', t(touch ? 'obstaclesHintTouch' : 'obstaclesHint'));
    hint.id = id('obstacles-hint');
    const clear = element('button', 'bf-clear-obstacles', t('clearObstacles'));
    clear.type = 'button';
    clear.id = id('clear-obstacles');
    clear.setAttribute('aria-describedby', hint.id);
    const count = element('span', 'bf-obstacle-count');
    count.id = id('obstacle-count');
    count.setAttribute('aria-live', 'polite');
    clear.addEventListener('click', () => {
      getFlock().clearObstacles();
      onChange('obstacles');
    });
    line.append(clear, count);
    status = element('p', 'bf-tools-status');
    status.setAttribute('aria-live', 'polite');
    tool.append(hint, line, status);
    box.append(tool);
    syncs.push(() => {
      const n = getFlock().obstacles().length / 4;
      clear.disabled = n === 0;
      count.textContent = n > 0 ? `${t('obstacles')}: ${new Intl.NumberFormat(text.lang).format(n)}` : '';
    });
  }

  const sync = () => {
    if (!getFlock()) return;
    syncs.forEach((fn) => fn());
  };
  sync();
  return {
    element: box,
    sync,
    say: (message) => {
      if (status) status.textContent = message ?? '';
    },
  };
}

/**
 * Record (a WebM clip of the stage) and Picture (a PNG of it), issue 45: `onPress("record" |
 * "picture")` loads what makes them (instruments/recorder.js) on the first press. Without
 * MediaRecorder or canvas.captureStream, Record is disabled and its title says why. Glyphs,
 * so that they take no row of their own (the page's timeline bar, an embed's toolbar): a red
 * dot and a camera's frame, named in words for screen readers and titled for the pointer.
 * Returns [record, picture, said] (`said`: the polite live region where the recording's start
 * and end are told).
 */
export function buildKeep({ text, id, onPress }) {
  const t = text.ui;
  const make = (name, glyph) => {
    const node = element('button', `bf-${name} bf-glyph`, glyph);
    node.type = 'button';
    node.id = id(name);
    node.title = t(`${name}Title`);
    node.setAttribute('aria-label', t(name));
    node.addEventListener('click', () => onPress(name));
    return node;
  };
  const record = make('record', '●');
  if (typeof MediaRecorder !== 'function' || !HTMLCanvasElement.prototype.captureStream) {
    record.disabled = true;
    record.title = t('recordNone');
  }
  const said = element('span', 'bf-keep-said');
  said.setAttribute('aria-live', 'polite');
  return [record, make('picture', ''), said];
}
