// Camera input on the canvas: drag orbits, wheel and two-finger pinch zoom toward the flock,
// double-click frames the flock; with the canvas focused, arrow keys orbit, + and − zoom,
// F frames the flock, 0 or Home shows the whole world again.
// `getView()` returns the current View (it is replaced after a lost WebGL context), or null;
// `getFlock()` the Flock it draws.
//
// `tools` (optional) adds what a press on the scene does besides orbiting:
// - `holdMode(event)` → "attract" | "repel" | null: a press that starts a hold instead of an
//   orbit (the pointer tool, or Shift / Alt held). While held, `hold(x, y, mode)` hears of
//   every position, then `release()` once (also when a second finger turns it into a pinch);
// - `click(x, y)`: a click or tap that did not drag (not the second click of a double-click);
// - `undoClick()`: a double-click follows that click (which then only resets the view).
// x, y are CSS pixels from the canvas's top-left corner.

/** A press that moves less than this many CSS pixels in all is a click, not a drag. */
const CLICK_SLOP = 6;
/** A double-click undoes its first click only when it comes this soon after it, ms. */
const DOUBLE_CLICK_WINDOW = 800;
/** Wheel pixels per e-fold of zoom. */
const WHEEL_SCALE = 600;
/** One arrow key press orbits like a drag of this many pixels. */
const KEY_ORBIT = 24;
/** One + or − press zooms by this factor. */
const KEY_ZOOM = 1.15;

export function attachCameraInput(canvas, getView, getFlock, tools = {}) {
  /** Zooms by `factor` toward the flock's centre (out: back toward the whole world). */
  const zoom = (view, factor) => {
    const flock = getFlock();
    if (flock) view.zoomToward(flock, factor);
    else view.zoom(factor);
  };
  const fit = (view) => {
    const flock = getFlock();
    if (flock) view.fitFlock(flock);
    else view.resetCamera();
  };
  const pointers = new Map();
  let pinch = null;
  /** The press being held for the pointer tool: { id, mode }. */
  let holding = null;
  /** This gesture (first press to last release): how far it moved, whether it was more. */
  let gesture = null;
  let lastClick = 0;

  const spread = () => {
    const [a, b] = [...pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };
  const local = (event) => {
    const box = canvas.getBoundingClientRect();
    return [event.clientX - box.left, event.clientY - box.top];
  };
  const endHold = () => {
    if (!holding) return;
    holding = null;
    tools.release?.();
  };

  canvas.addEventListener('pointerdown', (event) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    canvas.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 1) {
      gesture = { travel: 0, multi: false, held: false };
      const mode = tools.holdMode?.(event) ?? null;
      if (mode) {
        holding = { id: event.pointerId, mode };
        gesture.held = true;
        tools.hold(...local(event), mode);
      }
    } else {
      if (gesture) gesture.multi = true;
      endHold(); // a second finger: pinch (and orbit) instead
    }
    pinch = pointers.size === 2 ? spread() : null;
    canvas.classList.add(holding ? 'holding' : 'dragging');
  });

  canvas.addEventListener('pointermove', (event) => {
    const last = pointers.get(event.pointerId);
    if (!last) return;
    const dx = event.clientX - last.x;
    const dy = event.clientY - last.y;
    last.x = event.clientX;
    last.y = event.clientY;
    if (gesture) gesture.travel += Math.hypot(dx, dy);
    if (holding) {
      if (holding.id === event.pointerId) tools.hold(...local(event), holding.mode);
      return;
    }
    const view = getView();
    if (!view) return;
    if (pointers.size === 1) {
      view.orbit(dx, dy);
    } else if (pointers.size === 2) {
      const now = spread();
      if (pinch > 0 && now > 0) zoom(view, now / pinch);
      pinch = now;
    }
  });

  const release = (event) => {
    if (!pointers.delete(event.pointerId)) return;
    if (holding?.id === event.pointerId) endHold();
    pinch = pointers.size === 2 ? spread() : null;
    if (pointers.size === 0) canvas.classList.remove('dragging', 'holding');
  };
  canvas.addEventListener('pointerup', release);
  canvas.addEventListener('pointercancel', release);
  canvas.addEventListener('lostpointercapture', release);

  canvas.addEventListener('click', (event) => {
    const done = gesture;
    if (!tools.click || !done || done.held || done.multi || done.travel > CLICK_SLOP) return;
    if (event.detail > 1) return; // the second click of a double-click
    lastClick = performance.now();
    tools.click(...local(event));
  });

  canvas.addEventListener(
    'wheel',
    (event) => {
      const view = getView();
      if (!view) return;
      event.preventDefault();
      // Lines and pages to pixels, roughly.
      const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? canvas.clientHeight : 1;
      zoom(view, Math.exp((-event.deltaY * unit) / WHEEL_SCALE));
    },
    { passive: false },
  );

  canvas.addEventListener('dblclick', () => {
    const view = getView();
    if (view) fit(view);
    if (lastClick && performance.now() - lastClick < DOUBLE_CLICK_WINDOW) tools.undoClick?.();
    lastClick = 0;
  });

  canvas.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const view = getView();
    if (!view) return;
    const orbit = {
      ArrowLeft: [-KEY_ORBIT, 0],
      ArrowRight: [KEY_ORBIT, 0],
      ArrowUp: [0, -KEY_ORBIT],
      ArrowDown: [0, KEY_ORBIT],
    }[event.key];
    if (orbit) {
      view.orbit(orbit[0], orbit[1]);
    } else if (event.key === '+' || event.key === '=') {
      zoom(view, KEY_ZOOM);
    } else if (event.key === '-' || event.key === '−' || event.key === '_') {
      zoom(view, 1 / KEY_ZOOM);
    } else if (event.key === 'f' || event.key === 'F') {
      fit(view);
    } else if (event.key === '0' || event.key === 'Home') {
      view.resetCamera();
    } else {
      return;
    }
    event.preventDefault();
  });
}
