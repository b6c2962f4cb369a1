// The full page's service worker, for static hosts that cannot send headers (GitHub Pages):
// it re-serves this site's own responses with the two headers that make a page cross-origin
// isolated, which SharedArrayBuffer, and so the threaded step (issue 30), needs:
// Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy (Trunk.toml sends the same from
// `trunk serve`), and Cross-Origin-Resource-Policy, which lets an isolated page elsewhere
// embed what it serves. The coi-serviceworker approach, in a few lines: no cache, nothing
// stored, every request still goes to the network.
//
// Only www/core/isolate.js registers it, from the full page (index.html), never an embed. It lives
// in www/ and is moved to dist/'s root by scripts/post-build.sh: a worker controls only pages
// under its own folder, and the page's is the root.

self.addEventListener('install', () => self.skipWaiting());
// Take the open page at once: isolate.js reloads it when this worker becomes its controller.
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  // Other origins' responses are left alone (the page loads none); so is what a fetch from
  // this worker could not repeat (Chromium refuses `only-if-cached` outside same-origin mode).
  if (new URL(request.url).origin !== self.location.origin) return;
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  event.respondWith(
    fetch(request).then((response) => {
      // An opaque redirect (status 0) can be handed on but not rebuilt.
      if (response.status === 0) return response;
      const headers = new Headers(response.headers);
      headers.set('Cross-Origin-Opener-Policy', 'same-origin');
      headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
      headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }),
  );
});
