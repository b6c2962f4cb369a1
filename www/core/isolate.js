// The full page's service worker, coi-sw.js at dist/'s root (see its header): cross-origin
// isolation on a static host that cannot send COOP/COEP (issue 30) and the offline copy
// (issue 45). app.js calls register() on every load of the full page, isolated or not.
// - Not isolated (GitHub Pages' first visit): it registers at once, asks the worker to claim
//   the page and reloads it once when it takes control (one reload a tab: sessionStorage).
//   If still not isolated after it (a browser without COEP, storage refused), the page stays
//   as it is, silently, on one thread. `?threads=1` asks for one thread: no reload.
// - Then, once the flock runs (never competing with the first load): registers (if not yet)
//   and asks the worker to precache the site; a newer worker waiting shows "A new version is
//   ready" (update-notice.js, loaded only then).
// - `?offline=0`: no worker; one registered before is removed with its caches.
// Only the full page calls it: an embed (<boids-flock> on a teacher's page, embed.html) is a
// guest and never installs a worker; the lessons neither (they are made to be copied onto a
// teacher's site), but the worker's scope, dist/'s root, covers them once the page installed it.

/** Set just before the reload and kept for the tab's session: one reload a tab, never a loop. */
const RELOADED = 'boids-coi-reloaded';

/** Resolves once the page's flock has started (or failed): data-boids leaves "loading". */
function settled() {
  const root = document.documentElement;
  return new Promise((resolve) => {
    if (root.dataset.boids !== 'loading') return resolve();
    const watch = new MutationObserver(() => {
      if (root.dataset.boids !== 'loading') resolve(watch.disconnect());
    });
    watch.observe(root, { attributes: true, attributeFilter: ['data-boids'] });
  });
}

/** True when the page may reload once to become isolated (and marks nothing yet). */
function mayReload(params) {
  if (window.crossOriginIsolated || params.get('threads') === '1') return null;
  try {
    // Throws where the browser blocks storage for the site; without it no loop guard, no reload.
    const storage = window.sessionStorage;
    return storage.getItem(RELOADED) ? null : storage;
  } catch {
    return null;
  }
}

export async function register() {
  if (!window.isSecureContext || !('serviceWorker' in navigator)) return;
  const container = navigator.serviceWorker;
  // The scope is dist/'s root, this module's folder's grandparent (www/core/ → dist/).
  const root = new URL('../../', import.meta.url);
  const params = new URLSearchParams(location.search);
  if (params.get('offline') === '0') {
    const registration = await container.getRegistration(root.href);
    if (!registration) return;
    // The worker may be filling its cache: it stops and deletes it before we remove it (or
    // after 5 s, when it does not answer: an older worker knows no 'forget').
    const worker = registration.active ?? registration.waiting ?? registration.installing;
    const channel = new MessageChannel();
    const answered = new Promise((resolve) => {
      channel.port1.onmessage = resolve;
      setTimeout(resolve, 5000);
    });
    worker?.postMessage({ type: 'forget' }, [channel.port2]);
    await answered;
    await registration.unregister();
    for (const key of await caches.keys()) if (key.startsWith('boids-offline-')) await caches.delete(key);
    return;
  }
  const storage = mayReload(params);
  if (storage) {
    // The first visit: the worker installs, claims the page when asked, and this fires.
    container.addEventListener(
      'controllerchange',
      () => {
        try {
          storage.setItem(RELOADED, '1');
        } catch {
          return; // a full storage: no guard to write, so no reload
        }
        location.reload();
      },
      { once: true },
    );
    container.ready.then((registration) => registration.active?.postMessage({ type: 'claim' }));
  }
  if (!storage) await settled();
  const registration = await container.register(new URL('coi-sw.js', root), { scope: root.href });
  const notify = (worker) => import('./update-notice.js').then((m) => m.showUpdate(worker));
  if (registration.waiting && registration.active) notify(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed' && registration.active) notify(worker);
    });
  });
  if (storage) await settled();
  (await container.ready).active?.postMessage({ type: 'precache' });
}
