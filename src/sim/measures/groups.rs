//! Groups: boids linked by chains of neighbours within the linking radius (connected
//! components), exactly, by union-find over the grid's slots. A small cell's boids are one
//! group without a test; each pair of cells within reach is looked at once, from the one
//! the other lies ahead of, its row of cells as one run of slots; a cell already in this
//! one's group costs one look-up, any other joins at its first boid within the radius.
//! (The old walk computed every pair within the radius: ~17 ms at 10,000 boids.)

use super::cells::Cells;

fn root(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let up = parent[parent[i as usize] as usize];
        parent[i as usize] = up;
        i = up;
    }
    i
}

/// Joins the groups of `a` and `b` (both roots); the lower slot stays the root.
fn join(parent: &mut [u32], a: u32, b: u32) {
    parent[a.max(b) as usize] = a.min(b);
}

/// A group label per boid (the lowest slot of its group: labels are below the count).
pub(super) fn groups(cells: &Cells) -> Vec<u32> {
    let n = cells.order.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let r2 = cells.radius * cells.radius;
    let points = &cells.points;
    let within = |a: usize, b: usize| cells.offset(points[a], points[b]).length_squared() <= r2;
    // Each slot's cell, as the cell's first slot.
    let mut anchor = vec![0u32; n];
    for c in 0..cells.cells() {
        let here = cells.slots(c);
        if here.is_empty() {
            continue;
        }
        anchor[here.clone()].fill(here.start as u32);
        if cells.small {
            parent[here.start + 1..here.end].fill(here.start as u32);
        } else {
            for a in here.clone() {
                for b in a + 1..here.end {
                    let (ra, rb) = (root(&mut parent, a as u32), root(&mut parent, b as u32));
                    if ra != rb && within(a, b) {
                        join(&mut parent, ra, rb);
                    }
                }
            }
        }
    }
    if cells.small {
        small_cells(cells, &anchor, &mut parent);
    } else {
        any_cells(cells, &mut parent);
    }
    let mut group_of = vec![0u32; n];
    for slot in 0..n {
        group_of[cells.order[slot] as usize] = root(&mut parent, slot as u32);
    }
    group_of
}

/// The rows of cells ahead of row (`y`, `z`) within reach, each once (in z, then y), as
/// the index of their first cell; the row itself first.
fn rows_ahead(cells: &Cells, y: usize, z: usize, rows: &mut Vec<usize>) {
    let r2 = cells.radius * cells.radius;
    let [_, (y_lo, y_hi), (_, z_hi)] = cells.span;
    let [dx, dy_n, dz_n] = cells.dims.map(|d| d as isize);
    let wrap = |v: isize, n: isize| -> Option<isize> {
        if (0..n).contains(&v) {
            Some(v)
        } else if !cells.space.wrap {
            None
        } else if v < 0 {
            Some(v + n)
        } else {
            Some(v - n)
        }
    };
    rows.clear();
    for dz in 0..=z_hi {
        for dy in if dz == 0 { 0 } else { -y_lo }..=y_hi {
            if cells.gap2(1, dy) + cells.gap2(2, dz) > r2 {
                continue;
            }
            if let (Some(ry), Some(rz)) = (wrap(y as isize + dy, dy_n), wrap(z as isize + dz, dz_n))
            {
                rows.push(((rz * dy_n + ry) * dx) as usize);
            }
        }
    }
}

/// Small cells (each one group already): each pair of cells within reach once, from the
/// one the other lies ahead of; a cell already in this one's group costs one look-up, any
/// other joins at its first boid within the radius.
fn small_cells(cells: &Cells, anchor: &[u32], parent: &mut [u32]) {
    let r2 = cells.radius * cells.radius;
    let points = &cells.points;
    let within = |a: usize, b: usize| cells.offset(points[a], points[b]).length_squared() <= r2;
    let [nx, ny, nz] = cells.dims;
    let (x_lo, x_hi) = cells.span[0];
    let (x_lo, x_hi, nxi) = (x_lo as usize, x_hi as usize, nx);
    let start = &cells.start;
    let mut rows = Vec::new();
    for z in 0..nz {
        for y in 0..ny {
            let base = (z * ny + y) * nx;
            // An empty row of cells has nothing to join.
            if start[base] == start[base + nx] {
                continue;
            }
            rows_ahead(cells, y, z, &mut rows);
            for x in 0..nx {
                let c = base + x;
                let here = start[c] as usize..start[c + 1] as usize;
                if here.is_empty() {
                    continue;
                }
                let mut mine = root(parent, here.start as u32);
                for (k, &row) in rows.iter().enumerate() {
                    // Cells x − x_lo ..= x + x_hi of that row (ahead only in its own),
                    // as one or two runs of slots.
                    let lo = if k == 0 { x + nxi + 1 } else { x + nxi - x_lo };
                    let hi = x + nxi + x_hi;
                    let (lo, hi) = if cells.space.wrap {
                        (lo, hi)
                    } else {
                        (lo.max(nxi), hi.min(2 * nxi - 1))
                    };
                    let mut run = |a: usize, b: usize| {
                        let there = start[row + a] as usize..start[row + b + 1] as usize;
                        let mut cell = u32::MAX;
                        let mut joined = false;
                        for j in there {
                            if anchor[j] != cell {
                                cell = anchor[j];
                                joined = root(parent, cell) == mine;
                            }
                            if !joined && here.clone().any(|i| within(i, j)) {
                                let theirs = root(parent, cell);
                                join(parent, mine, theirs);
                                mine = mine.min(theirs);
                                joined = true;
                            }
                        }
                    };
                    // lo..=hi counts from −nx: below nx wraps to the row's end, from
                    // 2·nx to its start.
                    if lo > hi {
                        continue;
                    }
                    if lo < nxi {
                        run(lo, nxi - 1);
                        run(0, hi - nxi);
                    } else if hi >= 2 * nxi {
                        run(lo - nxi, nxi - 1);
                        run(0, hi - 2 * nxi);
                    } else {
                        run(lo - nxi, hi - nxi);
                    }
                }
            }
        }
    }
}

/// Cells of any size: every pair within reach, boid by boid.
fn any_cells(cells: &Cells, parent: &mut [u32]) {
    let r2 = cells.radius * cells.radius;
    let points = &cells.points;
    let within = |a: usize, b: usize| cells.offset(points[a], points[b]).length_squared() <= r2;
    let [(x_lo, x_hi), (y_lo, y_hi), (_, z_hi)] = cells.span;
    for c in 0..cells.cells() {
        let here = cells.slots(c);
        if here.is_empty() {
            continue;
        }
        let at = cells.coords(c);
        for dz in 0..=z_hi {
            for dy in if dz == 0 { 0 } else { -y_lo }..=y_hi {
                let xs = if dz == 0 && dy == 0 {
                    [1, x_hi]
                } else {
                    [-x_lo, x_hi]
                };
                cells.row(at, [dy, dz], xs, |there| {
                    for j in there {
                        for i in here.clone() {
                            let (a, b) = (root(parent, i as u32), root(parent, j as u32));
                            if a != b && within(i, j) {
                                join(parent, a, b);
                            }
                        }
                    }
                });
            }
        }
    }
}
