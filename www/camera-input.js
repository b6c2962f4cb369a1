// Camera input on the canvas: drag orbits, wheel and two-finger pinch zoom, double-click resets;
// with the canvas focused, arrow keys orbit, + and − zoom, 0 or Home resets.
// `getView()` returns the current View (it is replaced after a lost WebGL context), or null.

/** Wheel pixels per e-fold of zoom. */
const WHEEL_SCALE = 600;
/** One arrow key press orbits like a drag of this many pixels. */
const KEY_ORBIT = 24;
/** One + or − press zooms by this factor. */
const KEY_ZOOM = 1.15;

export function attachCameraInput(canvas, getView) {
  const pointers = new Map();
  let pinch = null;

  const spread = () => {
    const [a, b] = [...pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };

  canvas.addEventListener('pointerdown', (event) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    canvas.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    pinch = pointers.size === 2 ? spread() : null;
    canvas.classList.add('dragging');
  });

  canvas.addEventListener('pointermove', (event) => {
    const last = pointers.get(event.pointerId);
    const view = getView();
    if (!last || !view) return;
    const dx = event.clientX - last.x;
    const dy = event.clientY - last.y;
    last.x = event.clientX;
    last.y = event.clientY;
    if (pointers.size === 1) {
      view.orbit(dx, dy);
    } else if (pointers.size === 2) {
      const now = spread();
      if (pinch > 0 && now > 0) view.zoom(now / pinch);
      pinch = now;
    }
  });

  const release = (event) => {
    pointers.delete(event.pointerId);
    pinch = pointers.size === 2 ? spread() : null;
    if (pointers.size === 0) canvas.classList.remove('dragging');
  };
  canvas.addEventListener('pointerup', release);
  canvas.addEventListener('pointercancel', release);
  canvas.addEventListener('lostpointercapture', release);

  canvas.addEventListener(
    'wheel',
    (event) => {
      const view = getView();
      if (!view) return;
      event.preventDefault();
      // Lines and pages to pixels, roughly.
      const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? canvas.clientHeight : 1;
      view.zoom(Math.exp((-event.deltaY * unit) / WHEEL_SCALE));
    },
    { passive: false },
  );

  canvas.addEventListener('dblclick', () => {
    getView()?.resetCamera();
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
      view.zoom(KEY_ZOOM);
    } else if (event.key === '-' || event.key === '−' || event.key === '_') {
      view.zoom(1 / KEY_ZOOM);
    } else if (event.key === '0' || event.key === 'Home') {
      view.resetCamera();
    } else {
      return;
    }
    event.preventDefault();
  });
}
