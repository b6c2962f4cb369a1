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

use std::ops::Range;

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

/// Union-find over the flock, a piece at a time so that a survey can spread it over
/// frames: small cells' occupancy (`mark`), then the joins (`join`), then the labels
/// (`label`). The groups come out the same however it is cut: a group's root is its lowest
/// cell (small cells) or slot (any size) either way.
pub(super) struct Joining {
    /// Small cells: one node per cell; else one per slot.
    parent: Vec<u32>,
    /// Small cells: which hold boids.
    occupied: Occupied,
    /// The rows behind `rows_of`, the row being looked from.
    rows: Vec<RowBehind>,
    rows_of: usize,
    /// The next row of cells (small cells) or cell (any size) to look from, and in that
    /// row the next cell along x.
    next: usize,
    next_x: usize,
}

impl Joining {
    pub fn new(cells: &Cells) -> Self {
        let nodes = if cells.small {
            cells.cells()
        } else {
            cells.order.len()
        };
        Joining {
            parent: (0..nodes as u32).collect(),
            occupied: Occupied::new(cells),
            rows: Vec::new(),
            rows_of: usize::MAX,
            next: 0,
            next_x: 0,
        }
    }

    /// Rows of cells `mark` must see before the joins: all of them for small cells, none
    /// otherwise.
    pub fn rows_to_mark(cells: &Cells) -> usize {
        if cells.small {
            cells.dims[1] * cells.dims[2]
        } else {
            0
        }
    }

    /// Marks which cells of rows `rows` hold boids (small cells; every row, in any order,
    /// before the first `join`).
    pub fn mark(&mut self, cells: &Cells, rows: Range<usize>) {
        self.occupied.mark(cells, rows);
    }

    /// Looks from the next cells until the work done (cells looked at and pairs of boids
    /// tested, each a few nanoseconds) reaches `work`, or none is left. Returns the work
    /// done, and whether every cell has been looked from.
    pub fn join(&mut self, cells: &Cells, work: usize) -> (usize, bool) {
        let [nx, ny, nz] = cells.dims;
        let mut done = 0;
        if cells.small {
            while self.next < ny * nz && done < work {
                let row = self.next;
                let base = row * nx;
                // An empty row of cells has nothing to join.
                if cells.start[base + nx] == cells.start[base] {
                    self.next += 1;
                    continue;
                }
                if self.rows_of != row {
                    rows_behind(cells, row % ny, row / ny, &mut self.rows);
                    self.rows_of = row;
                }
                let (spent, stop) = small_cells_row(
                    cells,
                    &self.occupied,
                    row,
                    self.next_x,
                    work - done,
                    &self.rows,
                    &mut self.parent,
                );
                done += spent;
                match stop {
                    Some(x) => self.next_x = x,
                    None => (self.next, self.next_x) = (row + 1, 0),
                }
            }
            (done, self.next == ny * nz)
        } else {
            while self.next < cells.cells() && done < work {
                let c = self.next;
                self.next += 1;
                done += any_cell(cells, c, &mut self.parent);
            }
            (done, self.next == cells.cells())
        }
    }

    /// Labels of items `items`, once every cell has been looked from: boids (small cells)
    /// or slots (any size), `n` in either case. Each boid's label, written to `group_of`,
    /// is the lowest slot of its group (labels are below the count).
    pub fn label(&mut self, cells: &Cells, items: Range<usize>, group_of: &mut [u32]) {
        let parent = &mut self.parent;
        if cells.small {
            // The root is the group's lowest cell, whose first slot is the group's lowest.
            for boid in items {
                let cell = cells.cell_of[boid];
                group_of[boid] = cells.start[root(parent, cell) as usize];
            }
        } else {
            for slot in items {
                group_of[cells.order[slot] as usize] = root(parent, slot as u32);
            }
        }
    }
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
    /// No cell marked yet (small cells), or none to mark.
    fn new(cells: &Cells) -> Self {
        let [nx, ny, nz] = cells.dims;
        let words = nx.div_ceil(64);
        let rows = Joining::rows_to_mark(cells);
        debug_assert!(rows == 0 || rows == ny * nz);
        Occupied {
            words,
            bits: vec![0u64; words * rows],
        }
    }

    /// Marks the cells of rows `rows` that hold boids.
    fn mark(&mut self, cells: &Cells, rows: Range<usize>) {
        let nx = cells.dims[0];
        for row in rows {
            for x in 0..nx {
                let c = row * nx + x;
                if cells.start[c] != cells.start[c + 1] {
                    self.bits[row * self.words + x / 64] |= 1 << (x % 64);
                }
            }
        }
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

/// Small cells (each one group already, one node of `parent`), looking from row `row`
/// (`z · ny + y`) of cells, from cell `from_x` along it, with `rows` its rows behind: each
/// pair of cells within reach once, from the later one. Only cells that hold boids are
/// visited (a bit per cell: in a flock still spreading most cells within reach are empty);
/// one already in this one's group costs one look-up, any other joins at its first boid
/// within the radius. Stops after the cell that brings the work done (cells looked at and
/// pairs of boids tested) to `work`: returns how much it was, and the cell to go on from
/// (`None`: the row is done).
fn small_cells_row(
    cells: &Cells,
    occupied: &Occupied,
    row: usize,
    from_x: usize,
    work: usize,
    rows: &[RowBehind],
    parent: &mut [u32],
) -> (usize, Option<usize>) {
    let r2 = cells.radius * cells.radius;
    let points = &cells.points;
    let within = |a: usize, b: usize| cells.offset(points[a], points[b]).length_squared() <= r2;
    let nx = cells.dims[0];
    let start = &cells.start;
    let base = row * nx;
    let (mut done, mut stop) = (0, None);
    occupied.each(row, from_x, nx - 1, |x| {
        if stop.is_some() {
            return;
        }
        let c = base + x;
        let here = start[c] as usize..start[c + 1] as usize;
        let mut mine = root(parent, c as u32);
        for behind in rows {
            let mut look = |other: usize| {
                done += 1;
                let theirs = root(parent, other as u32);
                let there = start[other] as usize..start[other + 1] as usize;
                if theirs != mine
                    && there.into_iter().any(|j| {
                        here.clone().any(|i| {
                            done += 1;
                            within(i, j)
                        })
                    })
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
        done += 1;
        if done >= work && x + 1 < nx {
            stop = Some(x + 1);
        }
    });
    (done, stop)
}

/// Cells of any size, looking from cell `c`: every pair within the cell and with the cells
/// ahead within reach, boid by boid. Returns the work done (pairs of boids looked at, and
/// one for the cell).
fn any_cell(cells: &Cells, c: usize, parent: &mut [u32]) -> usize {
    let r2 = cells.radius * cells.radius;
    let points = &cells.points;
    let within = |a: usize, b: usize| cells.offset(points[a], points[b]).length_squared() <= r2;
    let [(x_lo, x_hi), (y_lo, y_hi), (_, z_hi)] = cells.span;
    let here = cells.slots(c);
    if here.is_empty() {
        return 1;
    }
    let mut work = 1;
    for a in here.clone() {
        work += here.end - a - 1;
        for b in a + 1..here.end {
            let (ra, rb) = (root(parent, a as u32), root(parent, b as u32));
            if ra != rb && within(a, b) {
                join(parent, ra, rb);
            }
        }
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
                work += there.len() * here.len();
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
    work
}
