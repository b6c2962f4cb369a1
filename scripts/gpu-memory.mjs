// Where does the GPU process's memory go when <boids-flock> elements come and go? (issue 16)
//
//   node scripts/gpu-memory.mjs [cycles=500]      (after `trunk build --release --offline`)
//
// Runs three kinds of cycle in headless Chromium, each on a fresh browser, and samples the
// resident memory (VmRSS, /proc) of Chromium's GPU process every 50 cycles:
//   element  — add a <boids-flock count=50>, wait until it has drawn, remove it (what the
//              soak test does);
//   bare     — the same without boids: a canvas, getContext('webgl2'), one clear, then
//              WEBGL_lose_context.loseContext() and the canvas dropped (what the element
//              does with its context when it goes);
//   bare-kept — as bare, but the context is never lost explicitly (left to the collector).
// If "bare" grows like "element", the growth is Chromium's (its GPU process keeping per-context
// state, SwiftShader's caches), not ours. Prints one line per sample and a summary.
import { chromium } from 'playwright-core';
import { readFileSync, readdirSync } from 'node:fs';
import { chromiumPath, serve } from '../tests/browser/helpers.mjs';
import { TEST_CSS, testPage } from '../tests/browser/embed-helpers.mjs';

const CYCLES = Number(process.argv[2] ?? 500);
const SAMPLE = 50;

const server = await serve({
  pages: {
    '/test/test.css': `${TEST_CSS}\nboids-flock.tiny { width: 240px; height: 150px; }\ncanvas { width: 240px; height: 150px; }\n`,
    '/test/empty.html': testPage('<div id="slot"></div>'),
  },
});

async function run(kind) {
  // A marker on the command line finds this browser's GPU process among others on the machine.
  const marker = `--boids-gpu-probe=${process.pid}-${kind}`;
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--enable-unsafe-swiftshader', '--no-first-run', '--js-flags=--expose-gc', marker],
  });
  const page = await browser.newPage();
  await page.goto(`${server.url}test/empty.html`);
  await page.waitForFunction(() => customElements.get('boids-flock'));
  const ppid = (pid) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
  };
  const gpu = () => {
    // The GPU process inherits no switch of ours: it is the one whose ancestors (it hangs
    // below a zygote-like launcher, not the browser itself) include the marked browser.
    const [browserPid] = readdirSync('/proc').filter((pid) => {
      try {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        return cmd.includes(marker) && !cmd.includes('--type=');
      } catch {
        return false;
      }
    });
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=gpu-process')) continue;
        let up = pid;
        for (let depth = 0; depth < 4 && up !== browserPid && up !== '0'; depth++) up = ppid(up);
        if (up !== browserPid) continue;
        return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
      } catch {
        // gone meanwhile
      }
    }
    return NaN;
  };
  const samples = [];
  const t0 = Date.now();
  for (let done = 0; done < CYCLES; done += SAMPLE) {
    await page.evaluate(
      async ([kind, n, from]) => {
        const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
        const slot = document.getElementById('slot');
        for (let i = 0; i < n; i++) {
          if (kind === 'element') {
            const el = document.createElement('boids-flock');
            el.className = 'tiny';
            el.setAttribute('count', '50');
            el.setAttribute('seed', String(from + i + 1));
            slot.append(el);
            const steps = () => el.steps ?? 0;
            while (!(el.dataset.state === 'running' && el.dataset.context === 'live' && steps() >= 2)) await frame();
            el.remove();
          } else {
            const canvas = document.createElement('canvas');
            slot.append(canvas);
            const gl = canvas.getContext('webgl2');
            gl.clearColor(0.1, 0.2, 0.3, 1);
            gl.clear(gl.COLOR_BUFFER_BIT);
            if (kind === 'program') {
              // A shader program, a buffer and a draw, as a View makes (smaller).
              const shader = (type, source) => {
                const s = gl.createShader(type);
                gl.shaderSource(s, `#version 300 es\nprecision highp float;\n${source}`);
                gl.compileShader(s);
                return s;
              };
              const program = gl.createProgram();
              gl.attachShader(program, shader(gl.VERTEX_SHADER, 'in vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }'));
              gl.attachShader(program, shader(gl.FRAGMENT_SHADER, 'out vec4 c; void main() { c = vec4(1.0); }'));
              gl.linkProgram(program);
              gl.useProgram(program);
              const buffer = gl.createBuffer();
              gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
              gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, 0, 1, 0, 0, 1]), gl.STATIC_DRAW);
              gl.enableVertexAttribArray(0);
              gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
              gl.drawArrays(gl.TRIANGLES, 0, 3);
            }
            await frame();
            if (kind !== 'bare-kept') gl.getExtension('WEBGL_lose_context').loseContext();
            canvas.remove();
          }
          await frame();
        }
      },
      [kind, SAMPLE, done],
    );
    samples.push(gpu());
    console.log(`${kind.padEnd(9)} ${String(done + SAMPLE).padStart(4)} cycles: GPU process ${samples.at(-1).toFixed(1)} MiB`);
  }
  const seconds = (Date.now() - t0) / 1000;
  // Garbage the renderer has not collected yet holds its canvases' GPU-side state: collect
  // it and see what is left.
  for (let i = 0; i < 3; i++) {
    await page.evaluate(() => window.gc());
    await page.waitForTimeout(1000);
  }
  const collected = gpu();
  console.log(`${kind.padEnd(9)} after gc(): GPU process ${collected.toFixed(1)} MiB`);
  await browser.close();
  return { kind, first: samples[0], last: samples.at(-1), collected, seconds };
}

const results = [];
for (const kind of (process.argv[3] ?? 'element,bare,bare-kept,program').split(',')) results.push(await run(kind));
await server.close();
for (const { kind, first, last, collected, seconds } of results) {
  console.log(
    `# ${kind}: GPU process ${first.toFixed(1)} MiB after ${SAMPLE} cycles → ${last.toFixed(1)} MiB after ${CYCLES} ` +
      `(${(((last - first) / (CYCLES - SAMPLE)) * 1024).toFixed(1)} KiB per cycle; ${seconds.toFixed(0)} s); ` +
      `${collected.toFixed(1)} MiB after gc()`,
  );
}
