// Cross-origin isolation for the full page on a static host that cannot send headers (issue
// 30): SharedArrayBuffer, and so the threaded step, needs a page served with COOP and COEP.
// `trunk serve` and a configured server send them (Trunk.toml); GitHub Pages cannot, so the
// page installs a service worker (coi-sw.js, at dist/'s root) that adds them, and reloads once
// when it takes control. app.js loads this module only when the page is not isolated.
//
// Only the full page calls it: an embed (<boids-flock> on a teacher's page, embed.html in an
// iframe) is a guest, and never installs a worker or reloads the page it is on; it runs on one
// thread there. `?threads=1` asks for one thread: nothing is installed either. If the page is
// still not isolated after its one reload (a browser without COEP, storage refused), it stays
// as it is, silently: the flock runs on one thread, as before.

/** Set just before the reload and kept for the tab's session: one reload a tab, never a loop. */
const RELOADED = 'boids-coi-reloaded';

export function isolate() {
  if (window.crossOriginIsolated) return;
  if (new URLSearchParams(location.search).get('threads') === '1') return;
  if (!window.isSecureContext || !('serviceWorker' in navigator)) return;
  let storage;
  try {
    // Throws where the browser blocks storage for the site; without it no loop guard, no reload.
    storage = window.sessionStorage;
    if (storage.getItem(RELOADED)) return;
  } catch {
    return;
  }

  const container = navigator.serviceWorker;
  let reloading = false;
  const reload = () => {
    if (reloading) return;
    reloading = true;
    try {
      storage.setItem(RELOADED, '1');
    } catch {
      // A full storage: no guard to write, so no reload.
      return;
    }
    location.reload();
  };
  // The first visit: the worker installs, claims the page (coi-sw.js), and this fires.
  container.addEventListener('controllerchange', reload, { once: true });
  // The scope is dist/'s root, this module's folder's grandparent (www/core/ → dist/): index.html and the lessons.
  const root = new URL('../../', import.meta.url);
  container
    .register(new URL('coi-sw.js', root), { scope: root.href })
    .then((registration) => {
      // Already installed but not in control (a reload that bypassed it, Shift+F5): reload
      // through it. In control and still not isolated: a reload would change nothing.
      if (registration.active && !container.controller) reload();
    })
    .catch(() => {});
}
