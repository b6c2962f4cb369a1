// Small DOM builders shared by the element's modules (text is always set as text, never HTML).

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

export function button(className, text, onClick) {
  const node = element('button', className, text);
  node.type = 'button';
  node.addEventListener('click', onClick);
  return node;
}

/** Lesson text with *emphasis*, {v} and {w_s} marks, as DOM nodes (never parsed as HTML). */
export function richText(parent, source) {
  for (const part of source.split(/(\*[^*]+\*|\{[^}]+\})/)) {
    if (!part) continue;
    if (part.startsWith('*')) {
      parent.append(element('em', null, part.slice(1, -1)));
    } else if (part.startsWith('{')) {
      const [name, sub] = part.slice(1, -1).split('_');
      parent.append(element('var', null, name));
      if (sub) parent.append(element('sub', null, sub));
    } else {
      parent.append(part);
    }
  }
  return parent;
}

/** Whether this device's main pointer is a finger (texts then say "tap", not "click"). */
export const isTouch = () => matchMedia('(pointer: coarse)').matches;

/** Resolves with `el.flock` once the element has made it (or rejects after `ms`). */
export function flockOf(el, ms = 30_000) {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const look = () => {
      if (el.flock) resolve(el.flock);
      else if (performance.now() - began > ms) reject(new Error('the flock did not start'));
      else setTimeout(look, 50);
    };
    look();
  });
}

/** A labelled checkbox: `<label class=bf-check><input type=checkbox> text</label>`. */
export function checkbox(id, text, checked, onChange, title) {
  const label = element('label', 'bf-check');
  const input = element('input');
  input.type = 'checkbox';
  if (id) input.id = id;
  input.checked = Boolean(checked);
  input.addEventListener('change', () => onChange(input.checked));
  if (title) label.title = title;
  label.append(input, ` ${text}`);
  return { label, input };
}

/** A labelled select of `options` ([value, text] pairs) at `value`, calling `onPick(value)`. */
export function choice(id, text, options, value, onPick) {
  const label = element('label', 'bf-look-field');
  const select = element('select');
  if (id) select.id = id;
  for (const [name, shown] of options) {
    const option = element('option', null, shown);
    option.value = name;
    select.append(option);
  }
  select.value = value;
  select.addEventListener('change', () => onPick(select.value));
  label.append(`${text} `, select);
  return { label, select };
}
