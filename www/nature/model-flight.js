// A model flock recorded as a real one is (issue 43): stepped here, on the page's thread, and
// written in the recording format (`time,id,x,y,z,vx,vy,vz`, docs/nature.md), so the same
// `Replay` and the same leadership graph read it as they read the pigeons. The boids are pulled
// toward one of the model's leaders (`leaders`, `leaderWeight`), which is recorded as a bird
// too. They cut the corners of its loop and turn before it does: by Nagy et al.'s delay each
// boid leads it (by 0.4 s), as tests/nature.rs finds of the same flock natively. The world's
// side is 60: in ten boids' own (about 20) the loop comes round so soon that its period
// aliases the delay.

/** Fixes a second: the pigeons' (one every 0.2 s). */
const FIXES_PER_SECOND = 5;
const DT = 1 / 60;

/**
 * The text of a recording of `count` boids of `Flock` (the page's module's class) with one
 * leader pulling at `leaderWeight` in a world of side `worldSize`, over `seconds`: boids named
 * 1…count, the leader `leaderId`.
 */
export function recordModelFlight(Flock, { count = 10, seed = 1, seconds = 120, leaderWeight = 3, worldSize = 60, leaderId = '★' } = {}) {
  const flock = new Flock(count, seed);
  try {
    flock.setLeaders(1);
    flock.setLeaderWeight(leaderWeight);
    flock.setWorldSize(worldSize);
    const lines = ['time,id,x,y,z,vx,vy,vz'];
    const every = Math.round(1 / (DT * FIXES_PER_SECOND));
    const steps = Math.round(seconds / DT);
    const fix = (t, id, p, v, i) => `${t},${id},${p[i]},${p[i + 1]},${p[i + 2]},${v[i]},${v[i + 1]},${v[i + 2]}`;
    for (let step = 0; step <= steps; step++) {
      if (step % every === 0) {
        const t = Math.round((step * DT) * 1000) / 1000;
        const [p, v] = [flock.positions(), flock.velocities()];
        for (let b = 0; b < count; b++) lines.push(fix(t, b + 1, p, v, 3 * b));
        lines.push(fix(t, leaderId, flock.leaderPositions(), flock.leaderVelocities(), 0));
      }
      flock.step(DT);
    }
    return lines.join('\n');
  } finally {
    flock.free();
  }
}
