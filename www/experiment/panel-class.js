// The Experiment group's class split (issue 26; split out of experiment-panel.js in issue
// 41): the teacher's part shares the experiment as one link a slice and merges the result
// codes the students paste back (refusing another experiment's); a student's part shows the
// code of the slice it ran, to copy.

import { button, element } from '../core/dom.js';
import { experimentFingerprint, experimentUnits, mergeResults, parseResultCode, sliceSpecs } from './runner.js';

// The form (experiment-panel.js) keeps the state on the element, `host.experiment_`, and
// hands over on it what these parts need of it: formSpec(), link(spec), say(text), error(e),
// copy(text, field), param(name), refresh(). Nothing imports back.

const CODE = /boids1:[A-Za-z0-9_-]+/g;
/** The most students a class is split among (the experiment's units bound it too). */
const MAX_STUDENTS = 200;

/** A student's part: the result code to send back, with a copy button. */
export function buildStudent(host, ui, t) {
  const box = element('div', 'bf-exp-student');
  const code = element('textarea', 'bf-exp-code');
  code.id = host.idFor('exp-code');
  code.readOnly = true;
  code.rows = 3;
  const label = element('label', null, t('expCode'));
  label.htmlFor = code.id;
  const copy = button('bf-exp-copy-code', t('expCopyCode'), async () => {
    host.experiment_.say(t((await host.experiment_.copy(code.value, code)) ? 'expCopied' : 'expCopyManual'));
  });
  copy.id = host.idFor('exp-copy-code');
  ui.code = code;
  ui.copyCode = copy;
  box.append(label, code, copy);
  return box;
}

/** Sharing with the class, and merging the codes the students send back. */
export function buildClass(host, ui, t) {
  const state = host.experiment_;
  const box = element('section', 'bf-exp-class');
  const headingId = host.idFor('exp-class-heading');
  const heading = element('h3', 'bf-look-heading', t('expClass'));
  heading.id = headingId;
  box.setAttribute('aria-labelledby', headingId);
  const students = element('input');
  students.type = 'number';
  students.min = '1';
  students.max = String(MAX_STUDENTS);
  students.step = '1';
  students.value = String(state.form.students ?? 4);
  students.id = host.idFor('exp-students');
  const studentsLabel = element('label', null, t('expStudents'));
  studentsLabel.htmlFor = students.id;
  ui.students = students;
  students.addEventListener('change', () => {
    state.form.students = students.value;
  });
  const share = button('bf-exp-share', t('expShare'), () => shareWithClass(host));
  share.id = host.idFor('exp-share');
  ui.share = share;
  const row = element('div', 'bf-exp-share-row');
  const wrap = element('div', 'bf-exp-field');
  wrap.append(studentsLabel, students);
  row.append(wrap, share);
  const links = element('ol', 'bf-exp-links');
  links.id = host.idFor('exp-links');
  ui.links = links;
  const copyLinks = button('bf-exp-copy-links', t('expCopyLinks'), async () => {
    const text = state.links.join('\n');
    host.experiment_.say(t((await host.experiment_.copy(text)) ? 'expCopied' : 'expCopyManual'));
  });
  copyLinks.id = host.idFor('exp-copy-links');
  ui.copyLinks = copyLinks;

  const paste = element('textarea', 'bf-exp-paste');
  paste.id = host.idFor('exp-paste');
  paste.rows = 3;
  paste.spellcheck = false;
  const pasteLabel = element('label', null, t('expPaste'));
  pasteLabel.htmlFor = paste.id;
  const merge = button('bf-exp-merge', t('expMerge'), () => mergeCodes(host, paste.value));
  merge.id = host.idFor('exp-merge');
  const mergeStatus = element('p', 'bf-exp-merge-status');
  mergeStatus.id = host.idFor('exp-merge-status');
  mergeStatus.setAttribute('aria-live', 'polite');
  paste.setAttribute('aria-describedby', mergeStatus.id);
  ui.paste = paste;
  ui.merge = merge;
  ui.mergeStatus = mergeStatus;

  box.append(heading, element('p', 'bf-exp-hint', t('expShareHint')), row, links, copyLinks, pasteLabel, paste, merge, mergeStatus);
  return box;
}

/** One link a slice, as many as there are students (at most one a unit of the experiment). */
function shareWithClass(host) {
  const state = host.experiment_;
  const t = (key) => host.text.ui(key);
  const ui = host.experimentUi;
  let spec;
  let specs;
  let units;
  let n;
  const wanted = Math.max(1, Math.round(Number(ui.students.value) || 1));
  try {
    spec = state.formSpec();
    units = experimentUnits(spec); // the most slices: one a unit
    n = Math.min(units, wanted);
    specs = sliceSpecs(spec, n);
    state.links = specs.map((slice) => host.experiment_.link(slice));
  } catch (error) {
    host.experiment_.say(host.experiment_.error(error));
    return;
  }
  state.shared = spec;
  const shown = t('expShared').replace('{n}', String(n));
  host.experiment_.say(n < wanted ? `${shown} ${t('expClassMax').replace('{n}', String(units))}` : shown);
  showLinks(host);
}

function showLinks(host) {
  const state = host.experiment_;
  const ui = host.experimentUi;
  if (!ui?.links) return;
  const t = (key) => host.text.ui(key);
  ui.links.replaceChildren(
    ...state.links.map((link, k) => {
      const item = element('li');
      const a = element('a', null, t('expPart').replace('{k}', String(k + 1)).replace('{n}', String(state.links.length)));
      a.href = link;
      a.target = '_blank';
      a.rel = 'noopener';
      item.append(a);
      return item;
    }),
  );
  ui.links.hidden = state.links.length === 0;
  ui.copyLinks.hidden = state.links.length === 0;
}

/**
 * Merges the pasted codes into the plot. The experiment is the one shared from here (else
 * the form's); codes of another are refused, and said so.
 */
async function mergeCodes(host, text) {
  const state = host.experiment_;
  const t = (key) => host.text.ui(key);
  let whole;
  let expected;
  try {
    const { slice, ...spec } = state.shared ?? state.formSpec(); // eslint-disable-line no-unused-vars
    whole = spec;
    expected = experimentFingerprint(whole);
  } catch (error) {
    host.experiment_.say(host.experiment_.error(error));
    return;
  }
  const found = String(text).match(CODE) ?? [];
  const own = [];
  let bad = 0;
  let foreign = 0;
  for (const code of found) {
    try {
      const result = await parseResultCode(code);
      if (result.fingerprint === expected) own.push(result);
      else foreign += 1;
    } catch {
      bad += 1;
    }
  }
  const messages = [];
  if (found.length === 0) messages.push(t('expNoCodes'));
  if (foreign > 0) messages.push(t('expForeign').replace('{n}', String(foreign)));
  if (bad > 0) messages.push(t('expBadCodes').replace('{n}', String(bad)));
  if (own.length > 0) {
    try {
      const merged = mergeResults(own, whole);
      state.result = merged;
      state.rows = merged.rows;
      state.spec = whole;
      let said = t('expMerged').replace('{n}', String(own.length)).replace('{rows}', String(merged.rows.length));
      if (merged.missing > 0) said += ` ${t('expMissing').replace('{n}', String(merged.missing))}`;
      messages.unshift(said);
    } catch (error) {
      messages.push(t('expError').replace('{m}', error?.message ?? String(error)));
    }
  }
  state.mergeMessage = messages.join(' ');
  state.mergeRefused = foreign > 0 || bad > 0 || found.length === 0;
  host.experiment_.refresh();
}

/** Shows the class's part: a student's code, the teacher's links and the merge's outcome. */
export function showClass(host) {
  const state = host.experiment_;
  const ui = host.experimentUi;
  if (!ui?.run?.isConnected) return;
  if (ui.code) {
    ui.code.value = state.code;
    ui.copyCode.disabled = !state.code;
  }
  if (ui.mergeStatus) {
    ui.mergeStatus.textContent = state.mergeMessage;
    ui.mergeStatus.classList.toggle('bf-exp-refused', Boolean(state.mergeRefused));
    showLinks(host);
  }
}
