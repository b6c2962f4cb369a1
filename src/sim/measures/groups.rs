//! Groups: boids linked by chains of neighbours within the linking radius (connected
//! components), exactly, by union-find. A small cell's boids are one group without a test
//! (one node per cell); each pair of cells within reach is looked at once, from the later
//! one, and only cells that hold boids; a cell already in this one's group costs one
//! look-up, any other joins at its first boid within the radius. Looking back, at cells
//! already joined among themselves, most cells of a flock are found in the group at once:
//! looking ahead, each was joined by a test of its own. (Measured at 10,000 boids, the
//! groups alone, natively: every pair within the radius ~17 ms; cells looking ahead, slot
//! by slot, 3.2 ms on the standard scenario and 2.0 ms on the settled defaults; cells
//! looking back, occupied ones only, 2.1 and 0.85 ms.)

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
    let mut group_of = vec![0u32; n];
    if cells.small {
        // One node per cell: a cell's boids are one group already.
        let mut parent: Vec<u32> = (0..cells.cells() as u32).collect();
        small_cells(cells, &mut parent);
        // The root is the group's lowest cell, whose first slot is the group's lowest.
        for (boid, &cell) in cells.cell_of.iter().enumerate() {
            group_of[boid] = cells.start[root(&mut parent, cell) as usize];
        }
        return group_of;
    }
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let r2 = cells.radius * cells.radius;
    let points = &cells.points;
    let within = |a: usize, b: usize| cells.offset(points[a], points[b]).length_squared() <= r2;
    for c in 0..cells.cells() {
        let here = cells.slots(c);
        for a in here.clone() {
            for b in a + 1..here.end {
                let (ra, rb) = (root(&mut parent, a as u32), root(&mut parent, b as u32));
                if ra != rb && within(a, b) {
                    join(&mut parent, ra, rb);
                }
            }
        }
    }
    any_cells(cells, &mut parent);
    for slot in 0..n {
        group_of[cells.order[slot] as usize] = root(&mut parent, slot as u32);
    }
    group_of
}

/// A row of cells behind within reach: its number (`z · ny + y`), and how many cells along
/// x below and above the looking cell's it can hold boids within the radius (at most the
/// span's; −1: none, in the looking cell's own row, whose cells behind are those below).
struct RowBehind {
    row: usize,
    below: isize,
    above: isize,
}

/// The rows of cells behind row (`y`, `z`) within reach (those it lies ahead of, in z, then
/// y), each once; the row itself first.
fn rows_behind(cells: &Cells, y: usize, z: usize, rows: &mut Vec<RowBehind>) {
    let r2 = cells.radius * cells.radius;
    let [(x_lo, x_hi), (y_lo, y_hi), (_, z_hi)] = cells.span;
    let ny = cells.dims[1];
    rows.clear();
    for dz in 0..=z_hi {
        for dy in if dz == 0 { 0 } else { -y_lo }..=y_hi {
            let gap2 = cells.gap2(1, dy) + cells.gap2(2, dz);
            if gap2 > r2 {
                continue;
            }
            // A corner row reaches fewer cells along x than the row itself.
            let reach = (0..=x_hi.max(x_lo))
                .take_while(|&dx| gap2 + cells.gap2(0, dx) <= r2)
                .last()
                .unwrap_or(0);
            // Mirrored: the cells this one lies ahead of.
            if let (Some(ry), Some(rz)) = (
                cells.along(1, y as isize - dy),
                cells.along(2, z as isize - dz),
            ) {
                rows.push(RowBehind {
                    row: rz * ny + ry,
                    below: x_hi.min(reach),
                    above: if dz == 0 && dy == 0 {
                        -1
                    } else {
                        x_lo.min(reach)
                    },
                });
            }
        }
    }
}

/// Which cells hold boids: a bit per cell, each row of cells in whole words.
struct Occupied {
    words: usize,
    bits: Vec<u64>,
}

impl Occupied {
    fn new(cells: &Cells) -> Self {
        let [nx, ny, nz] = cells.dims;
        let words = nx.div_ceil(64);
        let mut bits = vec![0u64; words * ny * nz];
        for row in 0..ny * nz {
            for x in 0..nx {
                let c = row * nx + x;
                if cells.start[c] != cells.start[c + 1] {
                    bits[row * words + x / 64] |= 1 << (x % 64);
                }
            }
        }
        Occupied { words, bits }
    }

    /// Calls `visit(x)` for each cell `lo..=hi` of `row` that holds boids.
    #[inline]
    fn each(&self, row: usize, lo: usize, hi: usize, mut visit: impl FnMut(usize)) {
        let bits = &self.bits[row * self.words..(row + 1) * self.words];
        let mut x = lo;
        while x <= hi {
            let end = hi.min(x / 64 * 64 + 63);
            let width = end - x + 1;
            let mask = if width == 64 {
                u64::MAX
            } else {
                (1 << width) - 1
            };
            let mut word = (bits[x / 64] >> (x % 64)) & mask;
            while word != 0 {
                visit(x + word.trailing_zeros() as usize);
                word &= word - 1;
            }
            x = end + 1;
        }
    }
}

/// Small cells (each one group already, one node of `parent`): each pair of cells within
/// reach once, from the later one. Only cells that hold boids are visited
/// (a bit per cell: in a flock still spreading most cells within reach are empty); one
/// already in this one's group costs one look-up, any other joins at its first boid within
/// the radius.
fn small_cells(cells: &Cells, parent: &mut [u32]) {
    let r2 = cells.radius * cells.radius;
    let points = &cells.points;
    let within = |a: usize, b: usize| cells.offset(points[a], points[b]).length_squared() <= r2;
    let [nx, ny, nz] = cells.dims;
    let start = &cells.start;
    let occupied = Occupied::new(cells);
    let mut rows = Vec::new();
    for z in 0..nz {
        for y in 0..ny {
            let base = (z * ny + y) * nx;
            // An empty row of cells has nothing to join.
            if start[base] == start[base + nx] {
                continue;
            }
            rows_behind(cells, y, z, &mut rows);
            occupied.each(z * ny + y, 0, nx - 1, |x| {
                let c = base + x;
                let here = start[c] as usize..start[c + 1] as usize;
                let mut mine = root(parent, c as u32);
                for behind in &rows {
                    let mut look = |other: usize| {
                        let theirs = root(parent, other as u32);
                        let there = start[other] as usize..start[other + 1] as usize;
                        if theirs != mine
                            && there
                                .into_iter()
                                .any(|j| here.clone().any(|i| within(i, j)))
                        {
                            join(parent, mine, theirs);
                            mine = mine.min(theirs);
                        }
                    };
                    let row_base = behind.row * nx;
                    let x = x as isize;
                    cells.x_runs(x - behind.below, x + behind.above, |a, b| {
                        occupied.each(behind.row, a, b, |xx| look(row_base + xx));
                    });
                }
            });
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
