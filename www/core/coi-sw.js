// The full page's service worker (www/core/isolate.js registers it; scripts/post-build.sh
// moves it to dist/'s root: a worker controls only pages under its own folder). Two jobs:
// 1. Cross-origin isolation on a static host that cannot send headers (GitHub Pages, issue
//    30): every response it serves carries Cross-Origin-Opener-Policy and
//    Cross-Origin-Embedder-Policy (SharedArrayBuffer, the threaded step) and
//    Cross-Origin-Resource-Policy (an isolated page elsewhere may embed it), cached or not.
// 2. Offline after the first visit (issue 45): the page, its lessons, the studio and every
//    file they load are kept in a cache named by the build's version; a same-origin GET is
//    answered from it first, from the network when it is not there. The build writes
//    OFFLINE below (scripts/offline-manifest.mjs: dist/'s files and a hash of their bytes),
//    so a new deployment is new worker bytes: the browser installs it beside the running one,
//    it precaches the new files, waits, and the page says "A new version is ready"
//    (update-notice.js); its Reload button sends 'skip-waiting'. Old caches go on activate.
//
// The first install precaches nothing itself: it activates at once (so isolate.js can
// reload a page that is not isolated right away) and fills its cache when a page, its flock
// running, sends 'precache' (never competing with the first load; again on later loads,
// which fetch only what is missing). It claims an open page only when asked ('claim': the
// isolation reload); otherwise the next load is the first it controls.

/** Replaced by the build with { version, files }; unbuilt, nothing is cached. */
const OFFLINE = '__OFFLINE_MANIFEST__';
const { version, files } = typeof OFFLINE === 'string' ? { version: 'dev', files: [] } : OFFLINE;
const PREFIX = 'boids-offline-';
const CACHE = PREFIX + version;

/** Set by 'forget' (`?offline=0`): a precache under way stops, and none starts. */
let forgotten = false;

/** Fetches the files missing from this version's cache (revalidated, not from a stale HTTP cache). */
async function fill() {
  const cache = await caches.open(CACHE);
  for (const file of files) {
    if (forgotten) return;
    const url = new URL(file, self.registration.scope).href;
    if (await cache.match(url)) continue;
    const response = await fetch(url, { cache: 'no-cache' });
    if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
    await cache.put(url, response);
  }
}

/** One fill at a time, however many pages ask (each load of the page sends 'precache'). */
let filling = null;
function precache() {
  filling ??= fill().finally(() => (filling = null));
  return filling;
}

/** Every offline cache gone, once a fill under way has stopped (it would open one again). */
async function forget() {
  forgotten = true;
  await filling?.catch(() => {});
  const keys = await caches.keys();
  await Promise.all(keys.filter((k) => k.startsWith(PREFIX)).map((k) => caches.delete(k)));
}

self.addEventListener('install', (event) => {
  if (!self.registration.active) self.skipWaiting();
  else event.waitUntil(precache());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k)))),
  );
});

self.addEventListener('message', (event) => {
  const type = event.data?.type;
  if (type === 'skip-waiting') self.skipWaiting();
  else if (type === 'claim') event.waitUntil(self.clients.claim());
  else if (type === 'forget') event.waitUntil(forget().then(() => event.ports[0]?.postMessage('forgotten')));
  else if (type === 'precache' && !forgotten) {
    event.waitUntil(
      precache().then(
        () => event.source?.postMessage({ type: 'offline-ready', version }),
        () => {},
      ),
    );
  }
});

/** `response` with the isolation headers; an opaque redirect (status 0) cannot be rebuilt. */
function isolated(response) {
  if (response.status === 0) return response;
  const headers = new Headers(response.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The cached copy of a GET: by path alone (a query is page state: ?lang=, ?seed=), / as /index.html. */
async function cached(request) {
  if (request.method !== 'GET' || request.headers.has('range')) return undefined;
  const url = new URL(request.url);
  const key = url.origin + (url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname);
  // caches.match, not caches.open(CACHE).match: open would make the cache again after 'forget'.
  return caches.match(key, { cacheName: CACHE });
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  // Other origins' responses are left alone (the page loads none); so is what a fetch from
  // this worker could not repeat (Chromium refuses `only-if-cached` outside same-origin mode).
  if (new URL(request.url).origin !== self.location.origin) return;
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  event.respondWith(
    cached(request)
      .catch(() => undefined)
      .then((hit) => hit ?? fetch(request))
      .then(isolated),
  );
});
