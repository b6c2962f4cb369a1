// A handle on a wasm object (the element's Flock or View) for the element and a page's scripts.
// Every method call goes through it, so that
// - a call that traps the wasm module is told (`onTrap`) before it is thrown on: the trap may
//   come from a slider, a key, a lesson's script or the frame loop, and the element that owns
//   the object shows it;
// - a call is told (`onCall`, with the method's name) once it has run, so the element hears of
//   a script's `flock.setCohesion(2)` as of its own slider;
// - another object can be put behind it (`swap`): a lesson's `const flock = el.flock` stays
//   good when a seek or a moment brings in a new Flock (issue 41: it threw "the Flock was
//   freed" after a rewind).

/**
 * `object` behind a Proxy; returns `{ handle, swap }`, where `swap(fresh)` puts `fresh` behind
 * the same handle and returns the object that was there.
 */
export function makeHandle(object, { onCall = null, onTrap }) {
  const slot = { current: object };
  const guarded = new Map(); // method → its guarded form (the same function each time)
  const handle = new Proxy(object, {
    get: (_, key) => {
      const value = slot.current[key];
      if (typeof value !== 'function' || key === 'constructor') return value;
      if (!guarded.has(value)) {
        guarded.set(value, (...args) => {
          try {
            const result = value.apply(slot.current, args);
            onCall?.(key);
            return result;
          } catch (error) {
            onTrap(error);
            throw error;
          }
        });
      }
      return guarded.get(value);
    },
    has: (_, key) => key in slot.current,
  });
  const swap = (fresh) => {
    const old = slot.current;
    slot.current = fresh;
    return old;
  };
  return { handle, swap };
}
