// "How a boid decides where to fly": the explanation panel, with the rules in the sliders'
// colours, the update formula and the behaviours beyond the three rules. Loaded on demand
// (panel.js imports it the first time "How it works" opens), with its words
// (i18n/explain-<lang>.js, through texts.js `explain()`).

import { element, richText } from '../core/dom.js';

/**
 * Fills the explanation's <section> (the panel's, empty until now) with `explain`, the
 * language's table; `text` names the rules as their sliders do.
 */
export function fillExplanation(section, { text, explain, specs }) {
  section.replaceChildren();
  section.setAttribute('aria-label', explain.title);
  section.append(element('h2', null, explain.title));
  section.append(richText(element('p'), explain.intro));
  const list = element('ul', 'bf-rules');
  ['separation', 'alignment', 'cohesion'].forEach((name, i) => {
    const spec = specs.find((s) => s.name === name);
    const item = element('li');
    const label = spec ? text.param(spec)[0] : name;
    item.append(element('strong', `bf-${name.slice(0, 3)}`, label), ` — ${explain.rules[i]}`);
    list.append(item);
  });
  section.append(list);
  const formula = element('p', 'bf-formula');
  formula.setAttribute('role', 'math');
  formula.setAttribute('aria-label', explain.formula);
  richText(formula, '{v}′ = {v} + {w_s}·{S} + {w_a}·{A} + {w_c}·{C}');
  section.append(formula);
  section.append(richText(element('p'), explain.body));
  section.append(richText(element('p', 'bf-try'), explain.try));
  if (explain.more) {
    section.append(element('h3', null, explain.more.title));
    const more = element('ul', 'bf-more');
    for (const [title, body] of explain.more.items) {
      const item = element('li');
      item.append(element('strong', null, title), ' — ');
      richText(item, body);
      more.append(item);
    }
    section.append(more);
  }
}
