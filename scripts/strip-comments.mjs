// The release build's last step (scripts/post-build.sh, Trunk's post_build hook): takes the
// comment lines out of the scripts a browser downloads (www/, the bindings, their snippets,
// the lessons' scripts) in the staging folder, and the indentation of the lines of code. Only
// whole lines that are comments go — a `// …` line, a `/* … */` or `/** … */` block standing
// alone; code keeps its lines and names, so a reader of dist/ or a stack trace still finds
// the way. Why: the sources explain themselves at length, and those comments were ~17 KB of
// the ~75 KB gzipped www/, and the bindings' doc comments 5 KB (issue 11's 200 KB for the
// page); the indentation ~2 KB more, which the measures' survey needed (its wasm, 4 KB).
// The style sheets lose their comments, indentation and blank lines too (2.4 KB gzipped).
// The commented sources stay in the repository (www/, src/web/).
//
// A small scanner keeps track of strings, template literals (with `${…}` inside) and regular
// expressions, so a line inside a template that happens to start with // stays. Each file
// is checked afterwards with `node --check`; the hook fails on a file that no longer parses.
//
//   node scripts/strip-comments.mjs <folder>    # default: $TRUNK_STAGING_DIR
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** After one of these characters (or a keyword below) a `/` starts a regular expression. */
const BEFORE_REGEX = new Set('(,=:[!&|?{};+-*%<>~^'.split(''));
const KEYWORDS_BEFORE_REGEX = /\b(return|typeof|case|in|of|new|delete|void|throw|else|do|yield|await)$/;

/**
 * The lines of `source` that are not whole-line comments. `state` carries what is open at
 * the end of a line: a template literal (a stack, for `${ … }` nesting) or a block comment.
 */
export function stripComments(source) {
  const out = [];
  // Stack of contexts: 'code' (braces counted) or 'template'.
  const stack = [{ kind: 'code', braces: 0 }];
  let inBlock = false; // inside a /* */ that began on a line of its own
  let blockLines = [];
  let lastSignificant = ''; // the code before the current point, trimmed (for regex detection)
  for (const line of source.split('\n')) {
    const top = stack[stack.length - 1];
    const trimmed = line.trim();
    if (inBlock) {
      blockLines.push(line);
      const end = line.indexOf('*/');
      if (end >= 0) {
        inBlock = false;
        // Code after the block's end on the same line: keep the whole block (rare; never here).
        if (line.slice(end + 2).trim() !== '') out.push(...blockLines);
        blockLines = [];
      }
      continue;
    }
    if (top.kind === 'code' && trimmed.startsWith('//')) continue;
    if (top.kind === 'code' && trimmed.startsWith('/*')) {
      const end = trimmed.indexOf('*/', 2);
      if (end < 0) {
        inBlock = true;
        blockLines = [line];
        continue;
      }
      if (trimmed.slice(end + 2).trim() === '') continue; // a one-line block comment
    }
    // A line of code loses its indentation; one that starts inside a template literal is
    // text and stays as it is.
    out.push(top.kind === 'code' ? line.trimStart() : line);
    lastSignificant = scanLine(line, stack, lastSignificant);
  }
  if (inBlock) out.push(...blockLines);
  return out.join('\n');
}

/** Walks one kept line, updating the template/brace stack. Returns the code seen last. */
function scanLine(line, stack, lastSignificant) {
  let last = lastSignificant;
  let i = 0;
  while (i < line.length) {
    const top = stack[stack.length - 1];
    const c = line[i];
    if (top.kind === 'template') {
      if (c === '\\') i += 2;
      else if (c === '`') {
        stack.pop();
        last = '`';
        i += 1;
      } else if (c === '$' && line[i + 1] === '{') {
        stack.push({ kind: 'code', braces: 0 });
        last = '{';
        i += 2;
      } else i += 1;
      continue;
    }
    // Code.
    if (c === '/' && line[i + 1] === '/') break; // a comment to the end of the line
    if (c === '/' && line[i + 1] === '*') {
      const end = line.indexOf('*/', i + 2);
      if (end < 0) throw new Error(`a block comment opens after code and runs on: ${line}`);
      i = end + 2;
      continue;
    }
    if (c === '\'' || c === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== c) j += line[j] === '\\' ? 2 : 1;
      if (j >= line.length) throw new Error(`a string runs past its line: ${line}`);
      i = j + 1;
      last = c;
      continue;
    }
    if (c === '`') {
      stack.push({ kind: 'template' });
      i += 1;
      continue;
    }
    if (c === '/') {
      const before = last.trimEnd();
      const regex = before === '' || BEFORE_REGEX.has(before[before.length - 1]) || KEYWORDS_BEFORE_REGEX.test(before);
      if (regex) {
        let j = i + 1;
        let inClass = false;
        while (j < line.length && (inClass || line[j] !== '/')) {
          if (line[j] === '\\') j += 1;
          else if (line[j] === '[') inClass = true;
          else if (line[j] === ']') inClass = false;
          j += 1;
        }
        if (j >= line.length) throw new Error(`a regular expression runs past its line: ${line}`);
        i = j + 1;
        last = '/x/';
        continue;
      }
    }
    if (c === '{') top.braces += 1;
    if (c === '}') {
      if (top.braces === 0 && stack.length > 1) {
        stack.pop(); // the end of a template's ${ … }
        last = '}';
        i += 1;
        continue;
      }
      top.braces -= 1;
    }
    if (!/\s/.test(c)) last = (last + c).slice(-12);
    else last += c;
    i += 1;
  }
  return last;
}

/**
 * A style sheet without its comments, indentation and blank lines. CSS has one kind of
 * comment, slash-star to star-slash, never nested; a string holding a comment's opening would
 * end it early, so a sheet with one is refused (none has one).
 */
export function stripCssComments(source) {
  if (/(["'])[^"'\n]*\/\*/.test(source)) throw new Error('a string holds the start of a comment');
  return source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** Every file under `folder` whose name ends with `ending`. */
function filesEnding(folder, ending) {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(ending))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}

/** Throws unless `file` still parses as a module. */
function checkSyntax(file, scratch) {
  const copy = path.join(scratch, 'check.mjs');
  copyFileSync(file, copy);
  execFileSync(process.execPath, ['--check', copy], { stdio: 'pipe' });
}

/**
 * Rewrites each of `files` as `strip` leaves it, then runs `check(file)` on it; says what it
 * saved, `what` naming the files and what went.
 */
function stripEach(files, strip, check, what) {
  let [before, after] = [0, 0];
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    let stripped;
    try {
      stripped = strip(source);
    } catch (error) {
      throw new Error(`${file}: ${error.message}`);
    }
    writeFileSync(file, stripped);
    check(file);
    before += Buffer.byteLength(source);
    after += Buffer.byteLength(stripped);
  }
  console.log(`==> ${what}: ${before} -> ${after} bytes`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const folder = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
  if (!folder) throw new Error('usage: node scripts/strip-comments.mjs <folder> (or run by trunk as a hook)');
  const scratch = mkdtempSync(path.join(tmpdir(), 'strip-'));
  try {
    const parses = (file) => {
      try {
        checkSyntax(file, scratch);
      } catch (error) {
        throw new Error(`${file} no longer parses after its comment lines went: ${error.stderr ?? error}`);
      }
    };
    stripEach(filesEnding(folder, '.js'), stripComments, parses, 'comment lines out of the scripts');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  stripEach(filesEnding(folder, '.css'), stripCssComments, () => {}, 'comments and indentation out of the style sheets');
}
