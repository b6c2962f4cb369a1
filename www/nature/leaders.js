// Who leads whom (issue 43, after Nagy et al. 2010): the birds in a column, most leading at
// the top (the order of their summed delays), an arc from each leader to each bird that turns
// after it, labelled with the delay; the same edges as a list for a screen reader.

import { element } from '../core/dom.js';
import { fill } from '../i18n/feature-words.js';

const SVG = 'http://www.w3.org/2000/svg';
const ROW = 34;
const LEFT = 40;
/** Graphs drawn: each its own arrow marker's id (two graphs share a page). */
let drawn = 0;

function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

/**
 * The graph of `replay` (a `Replay`: its `ids()`, `leaderOrder()`, `leads()`) in `container`,
 * in `words`. Returns `{ root, leads }`, leads as { leader, follower, delay, correlation } with labels.
 */
export function drawLeadership(container, replay, words) {
  const ids = replay.ids();
  const order = Array.from(replay.leaderOrder());
  const flat = replay.leads();
  const leads = [];
  for (let k = 0; k + 3 < flat.length; k += 4) {
    leads.push({ leader: ids[flat[k]], follower: ids[flat[k + 1]], delay: flat[k + 2], correlation: flat[k + 3] });
  }
  const rank = new Map(order.map((bird, i) => [ids[bird], i]));
  const root = element('figure', 'nature-leaders');
  const height = ROW * order.length + 10;
  const width = LEFT + ROW * order.length * 0.5 + 60;
  const picture = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': words.leadersLabel, class: 'nature-leaders-graph' });
  const defs = svg('defs', {});
  const arrow = `nature-arrow-${++drawn}`;
  const marker = svg('marker', { id: arrow, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto' });
  marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#1d4a6e' }));
  defs.append(marker);
  picture.append(defs);
  const y = (label) => 20 + ROW * rank.get(label);
  for (const lead of leads) {
    const [top, bottom] = [y(lead.leader), y(lead.follower)];
    const bend = LEFT + 14 + Math.abs(bottom - top) * 0.5;
    const arc = svg('path', {
      d: `M${LEFT + 12},${top} C${bend},${top} ${bend},${bottom} ${LEFT + 12},${bottom}`,
      fill: 'none',
      stroke: '#1d4a6e',
      'stroke-width': 1.2,
      'stroke-opacity': 0.35 + 0.65 * Math.max(0, Math.min(1, (lead.correlation - 0.5) / 0.5)),
      'marker-end': `url(#${arrow})`,
    });
    const title = svg('title', {});
    title.textContent = fill(words.leadsLine, { leader: lead.leader, follower: lead.follower, delay: lead.delay.toFixed(1) });
    arc.append(title);
    picture.append(arc);
  }
  for (const bird of order) {
    const label = ids[bird];
    const node = svg('circle', { cx: LEFT, cy: y(label), r: 11, fill: '#fff', stroke: '#1d4a6e', 'stroke-width': 2 });
    const text = svg('text', { x: LEFT, y: y(label) + 5, 'text-anchor': 'middle', 'font-size': 14, 'font-weight': 700, fill: '#1d2433' });
    text.textContent = label;
    picture.append(node, text);
  }
  const caption = element('figcaption', 'nature-leaders-caption');
  caption.append(element('p', null, leads.length ? fill(words.order, { order: order.map((b) => ids[b]).join(', ') }) : words.leadersNone));
  const list = element('ul', 'nature-leads');
  for (const lead of leads) list.append(element('li', null, fill(words.leadsLine, { leader: lead.leader, follower: lead.follower, delay: lead.delay.toFixed(1) })));
  const details = element('details', 'nature-leads-box');
  details.append(element('summary', null, fill(words.leadsCount, { count: leads.length })), list);
  caption.append(details);
  root.append(element('h3', null, words.leadersTitle), picture, caption);
  container.append(root);
  return { root, leads };
}
