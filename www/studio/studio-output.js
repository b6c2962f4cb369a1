// The studio's three outputs (studio.html, issue 28) from one list of attributes (and the
// element the downloads put in their page, studio-export.js): the
// `<script>` + `<boids-flock>` snippet, the `<iframe>` of embed.html, and a link to the full
// page. Pure text in, text out (no DOM, no flock), so what the preview shows and what the
// outputs say are one list written three ways.
//
// An attribute is [name, value]; value '' is a bare attribute (`paused`), which a URL
// writes as `name=1`. A teacher's text (a prompt, a title) is escaped for the attribute or URL
// it goes into, never trusted as markup.

/** Attributes whose value is a list: spaces in an attribute, commas in a URL (locks.js). */
const COMMA_LISTS = new Set(['locked', 'ranges']);
/** Attributes that a URL carries after `#`, not `?` (long, and never sent to the server). */
const FRAGMENT = new Set(['state']);

/** Text made safe inside a double-quoted HTML attribute (and as element text). */
export function escapeAttribute(text) {
  return String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `name="value"` or a bare `name`. */
function attributeText([name, value]) {
  return value === '' ? name : `${name}="${escapeAttribute(value)}"`;
}

/**
 * The snippet a teacher pastes into a page: the script (from `scriptSrc`) and the element.
 * Long attribute lists wrap, one attribute a line after the first few, so it reads in a
 * textarea.
 */
export function snippetOf(attributes, scriptSrc) {
  const script = `<script type="module" src="${escapeAttribute(scriptSrc)}"></script>`;
  return `${script}\n${elementOf(attributes)}\n`;
}

/** The `<boids-flock …></boids-flock>` element alone (the downloads put it in their page). */
export function elementOf(attributes) {
  const parts = attributes.map(attributeText);
  const oneLine = `<boids-flock${parts.map((p) => ` ${p}`).join('')}></boids-flock>`;
  if (oneLine.length <= 100) return oneLine;
  return `<boids-flock\n${parts.map((p) => `  ${p}`).join('\n')}\n></boids-flock>`;
}

/** The URL form of the attributes: `?name=value&…` plus `#state=…` for what goes after `#`. */
export function urlOf(base, attributes) {
  const url = new URL(base);
  const query = new URLSearchParams();
  const fragment = new URLSearchParams();
  for (const [name, value] of attributes) {
    const text = value === '' ? '1' : COMMA_LISTS.has(name) ? value.trim().split(/\s+/).join(',') : value;
    (FRAGMENT.has(name) ? fragment : query).set(name, text);
  }
  url.search = query.toString();
  url.hash = fragment.toString();
  return url.href;
}

/** The iframe of embed.html, `width`×`height` CSS px, named by `title` for screen readers. */
export function iframeOf(attributes, { embedUrl, width, height, title }) {
  const src = urlOf(embedUrl, attributes);
  return `<iframe title="${escapeAttribute(title)}" width="${Math.round(width)}" height="${Math.ceil(height)}"\n        src="${escapeAttribute(src)}"></iframe>\n`;
}
