// scripts/strip-comments.mjs (the release build's last step): only whole comment lines go;
// a line that merely looks like a comment inside a template literal, a string or a regular
// expression stays, and so does every line of code, without its indentation (but a line
// inside a template literal keeps its spaces: they are text). Also: dist/'s scripts have no comment
// lines left and still parse (the hook checks each with `node --check`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { stripComments, stripCssComments } from '../../scripts/strip-comments.mjs';
import { distDir } from './helpers.mjs';

test('comment lines go, code stays', () => {
  const source = [
    '// a header',
    '/**',
    ' * A doc comment.',
    ' */',
    'export const a = 1; // a trailing comment stays with its code',
    '  /* one line */',
    'const t = `first line',
    '// inside a template: text, not a comment',
    '/* also text */ ${a + `nested',
    '// nested template text`} end`;',
    "const s = '// a string'; const r = /\\/\\/[/*]/g; const d = 4 / 2; // d",
    '  // indented comment',
    'const u = `${ { b: 1 }.b }`;',
    'function f() {',
    '    return `a',
    '    indented text ${',
    '      1 + 1',
    '    } and more',
    '    `;',
    '}',
    '// the last line',
  ].join('\n');
  const expected = [
    'export const a = 1; // a trailing comment stays with its code',
    'const t = `first line',
    '// inside a template: text, not a comment',
    '/* also text */ ${a + `nested',
    '// nested template text`} end`;',
    "const s = '// a string'; const r = /\\/\\/[/*]/g; const d = 4 / 2; // d",
    'const u = `${ { b: 1 }.b }`;',
    'function f() {',
    'return `a',
    '    indented text ${',
    '1 + 1',
    // Inside `${ … }` is code: its spaces go; the text after `}` stays.
    '} and more',
    '    `;',
    '}',
  ].join('\n');
  assert.equal(stripComments(source), expected);
});

test('a style sheet loses its comments, indentation and blank lines, and nothing else', () => {
  const source = [
    '/* A header',
    '   on two lines. */',
    '.a {',
    '  color: red; /* why red */',
    '',
    '  background: url(x.svg) no-repeat;',
    '}',
    '.b::after { content: ""; font: 12px/1.4 sans-serif; }',
  ].join('\n');
  assert.equal(
    stripCssComments(source),
    ['.a {', 'color: red;', 'background: url(x.svg) no-repeat;', '}', '.b::after { content: ""; font: 12px/1.4 sans-serif; }'].join('\n'),
  );
  // A string holding a comment's start is refused rather than cut.
  assert.throws(() => stripCssComments('.c::before { content: "/* not a comment"; }'), /a string holds/);
});

test("dist/'s style sheets have no comments left", () => {
  const sheets = readdirSync(distDir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.css'))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
  assert.ok(sheets.length >= 4, `${sheets.length} style sheets`);
  for (const file of sheets) assert.ok(!readFileSync(file, 'utf8').includes('/*'), path.relative(distDir, file));
});

test("dist/'s scripts have no comment lines left", () => {
  const scripts = readdirSync(distDir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
  assert.ok(scripts.length > 20, `${scripts.length} scripts`);
  for (const file of scripts) {
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => /^\s*(\/\/|\/\*)/.test(l));
    assert.deepEqual(lines, [], path.relative(distDir, file));
  }
});
