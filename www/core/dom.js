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
