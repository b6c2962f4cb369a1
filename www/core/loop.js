// What all <boids-flock> instances on a page share:
//
// - one requestAnimationFrame loop, which asks for frames only while some instance can use
//   them (connected, on screen, tab visible, drawing), so an idle lesson page costs nothing;
// - one IntersectionObserver, which tells each instance whether it is on screen;
// - the pool of live WebGL contexts. Browsers keep only so many (Chrome 16, fewer on phones)
//   and silently kill the oldest beyond that, so the pool keeps at most `limit` and takes the
//   context of the instance that has been off screen longest when another needs one.

const clients = new Set();
let pending = 0;

/** Adds an instance: it has `active()`, `frame(now)`, `idle()`, `setInView(bool)`. */
export function register(client) {
  clients.add(client);
  observer.observe(client);
  wake();
}

export function unregister(client) {
  clients.delete(client);
  observer.unobserve(client);
  pool.release(client);
}

/** Asks for the next frame if some instance wants it. */
export function wake() {
  if (pending) return;
  for (const client of clients) {
    if (client.active()) {
      pending = requestAnimationFrame(tick);
      return;
    }
  }
}

function tick(now) {
  pending = 0;
  for (const client of clients) {
    if (client.active()) client.frame(now);
    else client.idle();
  }
  wake();
}

const observer = new IntersectionObserver((entries) => {
  for (const entry of entries) entry.target.setInView(entry.isIntersecting);
  wake();
});

document.addEventListener('visibilitychange', () => {
  for (const client of clients) client.idle();
  wake();
});

// devicePixelRatio changes (browser zoom, another monitor) without a resize of any box.
const watchPixelRatio = () => {
  matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener(
    'change',
    () => {
      for (const client of clients) client.resize();
      watchPixelRatio();
    },
    { once: true },
  );
};
watchPixelRatio();

/**
 * Live WebGL contexts. An instance `acquire`s one before it makes a View and `release`s it
 * when it frees its View. A client has `inView`, `lastSeen` (ms) and `releaseContext()`.
 */
export const pool = {
  /** Most contexts held at once (below every browser's own limit). */
  limit: 8,
  live: new Set(),

  /**
   * Room for one more context for `client`, made if need be by taking the context of the
   * instance off screen longest. With `force`, an instance on screen gives way too (the one
   * seen least recently). False when there is no room.
   */
  acquire(client, { force = false } = {}) {
    if (this.live.has(client)) return true;
    while (this.live.size >= Math.max(1, this.limit)) {
      const others = [...this.live].filter((other) => other !== client);
      const candidates = force ? others : others.filter((other) => !other.inView);
      if (candidates.length === 0) return false;
      candidates.sort((a, b) => Number(a.inView) - Number(b.inView) || a.lastSeen - b.lastSeen);
      candidates[0].releaseContext();
      this.live.delete(candidates[0]);
    }
    this.live.add(client);
    return true;
  },

  release(client) {
    this.live.delete(client);
  },
};
