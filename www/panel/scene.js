// The scene's tools: a click adds an obstacle where it lands, a press held with the pointer
// tool attracts or repels the flock, and the keyboard does both at the middle of the view
// (O adds an obstacle there, X takes the last one away, A and D attract and repel until
// pressed again). `SceneTools` is the part: it owns the pointer tool's mode, the pointer the
// keys hold and the obstacle a double-click may take back.

import { attachCameraInput } from './camera-input.js';
import { element } from '../core/dom.js';
import { wake } from '../core/loop.js';

/** With the obstacles tool, a click this close to a cone's centre (CSS px) selects it. */
const ON_CONE = 6;
/** Radius of an obstacle added by a click, as a fraction of the world's side. */
const OBSTACLE_SIZE = 0.075;

export class SceneTools {
  /**
   * `host`, the element, for: its flock, View and canvas (`flock`, `view`, `canvas`, `gl`
   * whose `lost` says the View is gone), the tools it offers (`features`), the panel's parts
   * it speaks through (`ui.mark`, `ui.scene`, `text`, `syncTools`), ids (`idFor`) and the
   * inspector (`select`).
   */
  constructor(host) {
    this.host = host;
    /** The pointer tool: "off", "attract" or "repel" (a press on the scene holds it there). */
    this.pointerMode = 'off';
    /** The pointer A or D holds at the middle of the view, or null. */
    this.keyPointer = null;
    /** The obstacle the last click added (its number), which a double-click takes back. */
    this.lastObstacle = null;
  }

  makeCanvas() {
    const canvas = element('canvas', 'bf-canvas');
    canvas.id = this.host.panel.idFor('view');
    canvas.tabIndex = 0;
    canvas.setAttribute('role', 'img');
    canvas.addEventListener('webglcontextlost', (event) => this.host.gl.onContextLost(event));
    canvas.addEventListener('webglcontextrestored', () => this.host.gl.onContextRestored());
    attachCameraInput(
      canvas,
      () => (this.host.gl.lost ? null : this.host.view),
      () => this.host.flock,
      this.sceneInput(),
    );
    return canvas;
  }

  // ---- the scene's tools: obstacles by clicking, the pointer by holding ------------------------

  /** What a press on the canvas does besides orbiting (see camera-input.js). */
  sceneInput() {
    return {
      holdMode: (event) => {
        if (!this.host.panel.features.has('pointer') || !this.host.flock || !this.host.view) return null;
        if (event.shiftKey) return 'attract';
        if (event.altKey) return 'repel';
        return this.pointerMode === 'off' ? null : this.pointerMode;
      },
      hold: (x, y, mode) => this.holdPointer(x, y, mode),
      release: () => {
        this.keyPointer = null;
        this.releasePointer();
      },
      // A click on a cone selects that boid (instruments.js); elsewhere it adds an obstacle.
      // Either way it forgets the last obstacle's undo: a double-click whose first click
      // selected a boid must not take back a rock dropped seconds before.
      click: (x, y) => {
        this.lastObstacle = null;
        return this.pickAt(x, y) || this.addObstacleAt(x, y);
      },
      undoClick: () => this.undoObstacle(),
    };
  }

  /** The scene's point under the canvas pixel (x, y), in simulation coordinates, or null. */
  pointAt(x, y) {
    if (!this.host.flock || !this.host.view || this.host.gl.lost) return null;
    const point = this.host.view.worldPointAt(this.host.flock, x, y);
    return point && point.every(Number.isFinite) ? point : null;
  }

  holdPointer(x, y, mode) {
    const point = this.pointAt(x, y);
    if (!point) return;
    this.host.flock.setPointer(point[0], point[1], point[2], mode === 'repel');
    const mark = this.host.panel.ui?.mark;
    if (mark) {
      mark.hidden = false;
      mark.dataset.mode = mode;
      mark.style.transform = `translate(${x}px, ${y}px)`;
    }
    wake();
  }

  releasePointer() {
    this.host.flock?.clearPointer();
    if (this.host.panel.ui?.mark) this.host.panel.ui.mark.hidden = true;
  }

  setPointerMode(mode) {
    this.pointerMode = ['attract', 'repel'].includes(mode) ? mode : 'off';
    this.host.canvas?.classList.toggle('bf-pointing', this.pointerMode !== 'off');
    this.host.panel.syncTools();
  }

  /** Selects the boid whose cone is under the canvas pixel (x, y); whether there was one. */
  pickAt(x, y) {
    if (!this.host.flock || !this.host.view || this.host.gl.lost) return false;
    const id = this.host.view.pick(this.host.flock, x, y);
    if (id === undefined) return false;
    if (this.host.panel.features.has('obstacles')) {
      // A click also drops obstacles: only one right on a cone selects it (pick reaches a
      // fingertip around, which in a dense flock would leave no room for a rock).
      const seen = this.host.flock.inspect(id);
      const at = seen && this.host.view.cssPointOf(this.host.flock, seen.position[0], seen.position[1], seen.position[2]);
      if (!at || Math.hypot(at[0] - x, at[1] - y) > ON_CONE) return false;
    }
    this.host.select(id);
    return true;
  }

  /** A click on the scene: an obstacle there, OBSTACLE_SIZE of the world's side across. */
  addObstacleAt(x, y) {
    if (!this.host.panel.features.has('obstacles')) return;
    const point = this.pointAt(x, y);
    if (!point) return;
    const added = this.host.flock.addObstacle(point[0], point[1], point[2], OBSTACLE_SIZE * this.host.flock.worldSize());
    this.lastObstacle = added ? this.host.flock.obstacles().length / 4 : null;
    this.host.panel.ui.scene?.say(added ? '' : this.host.text.ui('obstaclesFull'));
    this.host.panel.syncTools();
    wake();
  }

  /** A double-click frames the flock: take back the obstacle its first click added. */
  undoObstacle() {
    const flock = this.host.flock;
    if (!flock || this.lastObstacle == null) return;
    const all = flock.obstacles();
    if (all.length / 4 === this.lastObstacle) flock.removeObstacle(this.lastObstacle - 1);
    this.lastObstacle = null;
    this.host.panel.syncTools();
  }

  /** The middle of the canvas, in CSS pixels (where the keyboard's tools act). */
  viewCentre() {
    return [this.host.canvas.clientWidth / 2, this.host.canvas.clientHeight / 2];
  }

  /** O: an obstacle in the middle of the view. Returns whether the key did something. */
  addObstacleAhead() {
    if (!this.host.panel.features.has('obstacles') || !this.host.flock) return false;
    this.addObstacleAt(...this.viewCentre());
    this.lastObstacle = null; // no double-click can take this one back
    return true;
  }

  /** X: takes away the obstacle added last. Returns whether the key did something. */
  removeLastObstacle() {
    if (!this.host.panel.features.has('obstacles') || !this.host.flock) return false;
    const n = this.host.flock.obstacles().length / 4;
    if (n > 0) this.host.flock.removeObstacle(n - 1);
    this.lastObstacle = null;
    this.host.panel.syncTools();
    wake();
    return true;
  }

  /**
   * A and D: attract toward (or repel from) the middle of the view until the same key comes
   * again, the other key switches, or Escape; `mode` null lets go. Returns whether it acted.
   */
  toggleKeyPointer(mode) {
    if (!this.host.panel.features.has('pointer') || !this.host.flock) return false;
    const next = mode && this.keyPointer !== mode ? mode : null;
    this.keyPointer = next;
    if (next) this.holdPointer(...this.viewCentre(), next);
    else this.releasePointer();
    this.host.panel.ui?.scene?.say(next ? this.host.text.ui(next === 'attract' ? 'keyAttracting' : 'keyRepelling') : '');
    return true;
  }
}
