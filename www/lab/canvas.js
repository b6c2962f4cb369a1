// A 2D canvas sized for its CSS box at the device's pixel ratio, cleared to white: what the
// lab's charts and its sandbox draw on.

/** Sizes `canvas` to `width` × `height` CSS pixels and returns its context, cleared to white. */
export function whiteCanvas(canvas, width, height) {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const g = canvas.getContext('2d');
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, width, height);
  return g;
}
