//! Counting-sort uniform grid: boids are sorted by cell every step so that the boids of a
//! cell, and of a row of three cells along x, lie contiguous in memory. Cells may be split
//! into rows along y (`rows_per_cell`), which the scan walks up one at a time.

/// Upper bound on cells per boid: a tiny perception radius in a huge world must not
/// allocate billions of empty cells. Cells only ever get wider, so a neighbour is never
/// more than one cell away.
const MAX_CELLS_PER_BOID: usize = 8;
const MIN_CELL_BUDGET: usize = 4096;

#[derive(Clone, Debug, Default)]
pub struct Grid {
    /// Cells along x (and z in 3D), each at least the radius wide.
    dims: usize,
    /// Rows of cells along y: `dims` times `rows_per_cell`, each row that fraction of a
    /// cell's width high.
    rows: usize,
    rows_per_cell: usize,
    /// Cells along z: `dims` in 3D, one layer in a flat world (no cells wasted on z).
    layers: usize,
    flat: bool,
    /// The corner the cells start from: the world's, or under an open sky the corner of the
    /// cube around the flock (`Grid::configure`).
    origin: [f32; 3],
    inv_cell: f32,
    inv_row: f32,
    /// `cell_start[c]..cell_start[c + 1]` are the sorted slots of cell `c`.
    cell_start: Vec<u32>,
    /// Cell of each boid in the unsorted (input) order.
    cell_of: Vec<u32>,
    /// `order[slot]` is the input index of the boid sorted into `slot`.
    order: Vec<u32>,
}

impl Grid {
    /// An empty grid that remembers `rows_per_cell` rows to a cell: the flock picks the next
    /// step's rows from its last (`Flock::scan_rows_per_cell`), so one read from a snapshot
    /// starts from the rows the original had; the cells come with the next sort.
    pub fn with_rows_per_cell(rows_per_cell: usize) -> Self {
        Grid {
            rows_per_cell,
            ..Grid::default()
        }
    }

    /// Tiles a cube of side `world` from `origin` with cells at least `radius` wide along x
    /// and z, and
    /// `rows_per_cell` rows to a cell's width along y, so a scan of the 3 × (2 ×
    /// `rows_per_cell` + 1) × 3 cells around a boid's own covers the radius. (Half-size cells
    /// scanned 5×5×5 hug the sphere more tightly, 35 % fewer candidates, but cost more than
    /// they save, even in settled flocks: README, "What was tried".) A `flat` world has
    /// one layer of cells: every z is 0.
    #[allow(clippy::too_many_arguments)]
    pub fn configure(
        &mut self,
        origin: [f32; 3],
        world: f32,
        radius: f32,
        count: usize,
        flat: bool,
        rows_per_cell: usize,
    ) {
        let rows_per_cell = rows_per_cell.max(1);
        let ideal = (world / radius).floor().max(1.0) as usize;
        let budget = (count * MAX_CELLS_PER_BOID).max(MIN_CELL_BUDGET) as f64;
        let budget = budget / rows_per_cell as f64;
        let cap = if flat {
            budget.sqrt() as usize
        } else {
            cube_root_floor(budget)
        };
        let cap = cap.max(1);
        self.dims = ideal.min(cap).max(1);
        self.rows_per_cell = rows_per_cell;
        self.rows = self.dims * rows_per_cell;
        self.layers = if flat { 1 } else { self.dims };
        self.flat = flat;
        self.origin = origin;
        self.inv_cell = self.dims as f32 / world;
        self.inv_row = self.rows as f32 / world;
    }

    pub fn dims(&self) -> usize {
        self.dims
    }

    /// Rows of cells along y: `rows_per_cell` to a cell's width.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// How many rows along y a cell's width holds: how far, in rows, a neighbour may be.
    pub fn rows_per_cell(&self) -> usize {
        self.rows_per_cell
    }

    /// Cells along z: 1 in a flat world.
    pub fn layers(&self) -> usize {
        self.layers
    }

    pub fn is_flat(&self) -> bool {
        self.flat
    }

    /// Width of a cell.
    pub fn cell_width(&self) -> f32 {
        1.0 / self.inv_cell
    }

    /// The corner of cell (0, 0, 0).
    pub fn origin(&self) -> [f32; 3] {
        self.origin
    }

    fn axis_cell(coordinate: f32, inv: f32, cells: usize) -> usize {
        // `as` saturates: NaN and negatives land in cell 0, never out of bounds.
        ((coordinate * inv) as usize).min(cells - 1)
    }

    /// Cell coordinates of a position: its cell along x, row along y, layer along z.
    pub fn cell_coords(&self, x: f32, y: f32, z: f32) -> [usize; 3] {
        let [ox, oy, oz] = self.origin;
        [
            Self::axis_cell(x - ox, self.inv_cell, self.dims),
            Self::axis_cell(y - oy, self.inv_row, self.rows),
            Self::axis_cell(z - oz, self.inv_cell, self.layers),
        ]
    }

    /// Index `c` along an axis of `cells` cells, wrapped across a world of side `world`:
    /// the cell it lands in and how far its boids move to lie next to the cell looking;
    /// `None` past a wall (`wrap` false). `c` is at most one world outside the grid.
    pub fn wrap_cell(c: isize, cells: usize, wrap: bool, world: f32) -> Option<(usize, f32)> {
        let cells = cells as isize;
        match (c < 0, c >= cells, wrap) {
            (false, false, _) => Some((c as usize, 0.0)),
            (_, _, false) => None,
            (true, _, true) => Some(((c + cells) as usize, -world)),
            (_, true, true) => Some(((c - cells) as usize, world)),
        }
    }

    pub fn cell_index(&self, [x, y, z]: [usize; 3]) -> usize {
        (z * self.rows + y) * self.dims + x
    }

    pub fn cell_count(&self) -> usize {
        self.dims * self.rows * self.layers
    }

    /// Counting sort of the boids at `positions` (xyz per boid) by cell; afterwards
    /// `order()` maps sorted slots to input indices and `cell_range` gives each cell's slots.
    pub fn sort(&mut self, positions: &[f32]) {
        let count = positions.len() / 3;
        let cells = self.cell_count();
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        // `cell_of` and `order` are written in full below: resized, not cleared.
        self.cell_of.resize(count, 0);
        let mut cell_of = std::mem::take(&mut self.cell_of);
        for (cell_of, p) in cell_of.iter_mut().zip(positions.chunks_exact(3)) {
            let cell = self.cell_index(self.cell_coords(p[0], p[1], p[2]));
            *cell_of = cell as u32;
            self.cell_start[cell + 1] += 1;
        }
        self.cell_of = cell_of;
        for c in 0..cells {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        self.order.resize(count, 0);
        // Reuse the `cell_of` pass: a running cursor per cell, kept stable so equal
        // cells keep their input order (the sort is deterministic).
        let mut cursor = std::mem::take(&mut self.cell_start);
        for (input, &cell) in self.cell_of.iter().enumerate() {
            let slot = &mut cursor[cell as usize];
            self.order[*slot as usize] = input as u32;
            *slot += 1;
        }
        // Each cursor now sits at the end of its cell: shift back by one cell.
        for c in (1..=cells).rev() {
            cursor[c] = cursor[c - 1];
        }
        cursor[0] = 0;
        self.cell_start = cursor;
    }

    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// Sorted slots of cells `first..=last` (contiguous in memory).
    pub fn slots(&self, first: usize, last: usize) -> std::ops::Range<usize> {
        self.cell_start[first] as usize..self.cell_start[last + 1] as usize
    }

    /// How many boids the cells before cell `cell` hold (`cell_count()` for all of them).
    pub fn slots_before(&self, cell: usize) -> usize {
        self.cell_start[cell] as usize
    }

    /// Keeps the grid's buffers but takes `rows_per_cell` as the last step's rows (what the
    /// next sort picks its rows from): a worker's copy of a flock, loaded from its head, or
    /// a flock taking in a shared step, whose workers' sort picked them.
    pub fn set_rows_per_cell(&mut self, rows_per_cell: usize) {
        self.rows_per_cell = rows_per_cell;
    }

    /// Trades this grid's order for `order`: the order of a sort made elsewhere of the same
    /// boids (a shared step's take-in, `Flock::finish_parts`), or a worker's share giving
    /// its order away with its new state. The cells stay as this grid's last sort left them,
    /// until its next sort.
    pub fn trade_order(&mut self, order: &mut Vec<u32>) {
        std::mem::swap(&mut self.order, order);
    }

    /// Sorted slots of one cell.
    pub fn slots_of(&self, cell: [usize; 3]) -> std::ops::Range<usize> {
        let c = self.cell_index(cell);
        self.slots(c, c)
    }
}

/// The largest whole `n` with `n`³ ≤ `x` (`x` ≥ 0), exactly: f64's `cbrt` would bring
/// libm's and the software `fma` it calls into the wasm module (2.9 KB before wasm-opt).
fn cube_root_floor(x: f64) -> usize {
    let cube = |n: usize| (n as f64) * (n as f64) * (n as f64);
    let mut n = (x as f32).cbrt() as usize;
    while cube(n + 1) <= x {
        n += 1;
    }
    while n > 0 && cube(n) > x {
        n -= 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cube_root_is_the_floor_of_f64s() {
        for n in [0usize, 1, 2, 7, 16, 20, 44, 59, 200, 1000, 4000] {
            let cube = (n * n * n) as f64;
            assert_eq!(cube_root_floor(cube), n, "{n}³");
            if n > 0 {
                assert_eq!(
                    cube_root_floor(cube - 1e-9 * cube.max(1.0)),
                    n - 1,
                    "just under {n}³"
                );
            }
            assert_eq!(cube_root_floor(cube + 0.5), n, "just over {n}³");
        }
        for x in [4096.0 / 3.0, 800_000.0, 12_345.6, 0.5, 8e9] {
            assert_eq!(cube_root_floor(x), x.cbrt().floor() as usize, "{x}");
        }
    }

    fn grid(world: f32, cell: f32, count: usize) -> Grid {
        let mut grid = Grid::default();
        grid.configure([0.0; 3], world, cell, count, false, 1);
        grid
    }

    #[test]
    fn cells_are_never_narrower_than_asked_and_their_number_is_bounded() {
        let g = grid(40.0, 5.0, 1000);
        assert_eq!(g.dims(), 8);
        assert!(g.cell_width() >= 5.0);
        let g = grid(40.0, 5.5, 1000);
        assert_eq!(g.dims(), 7);
        assert!(g.cell_width() >= 5.5);
        // A tiny radius in a huge world: far fewer cells than ideal, still wide enough.
        let g = grid(1000.0, 1.0, 100);
        assert!(g.cell_count() <= MIN_CELL_BUDGET);
        assert!(g.cell_width() >= 1.0);
        // A radius wider than the world: one cell.
        assert_eq!(grid(10.0, 12.0, 100).dims(), 1);
    }

    #[test]
    fn a_flat_world_has_one_layer_and_a_square_budget() {
        let mut flat = Grid::default();
        flat.configure([0.0; 3], 100.0, 5.0, 1500, true, 1);
        assert_eq!((flat.dims(), flat.layers()), (20, 1));
        assert_eq!(flat.cell_count(), 400);
        assert_eq!(flat.cell_coords(99.0, 3.0, 0.0), [19, 0, 0]);
        // The cap follows the area: at most about 8 cells per boid.
        flat.configure([0.0; 3], 1000.0, 1.0, 50, true, 1);
        assert!(flat.cell_count() <= MIN_CELL_BUDGET);
        assert_eq!(flat.dims(), 64);
    }

    #[test]
    fn sort_groups_boids_by_cell_stably() {
        let mut g = grid(10.0, 5.0, 4);
        assert_eq!(g.dims(), 2);
        // Cells: boid 0 -> x1, boid 1 -> x0, boid 2 -> x1, boid 3 -> (1,1,1).
        let positions = [7.0, 1.0, 1.0, 1.0, 1.0, 1.0, 9.0, 2.0, 2.0, 6.0, 6.0, 6.0];
        g.sort(&positions);
        assert_eq!(g.order(), &[1, 0, 2, 3]);
        assert_eq!(g.slots(0, 0), 0..1);
        assert_eq!(g.slots(1, 1), 1..3);
        assert_eq!(g.slots(0, 1), 0..3);
        assert_eq!(g.slots(7, 7), 3..4);
        assert_eq!(g.slots(2, 6), 3..3);
    }

    #[test]
    fn rows_split_y_only_and_keep_the_cell_budget() {
        let mut g = Grid::default();
        g.configure([0.0; 3], 40.0, 5.0, 1000, false, 2);
        assert_eq!((g.dims(), g.rows(), g.layers()), (8, 16, 8));
        assert_eq!(g.cell_count(), 8 * 16 * 8);
        assert_eq!(g.rows_per_cell(), 2);
        // Rows are half a cell high; x and z keep whole cells.
        assert_eq!(g.cell_coords(4.9, 2.4, 4.9), [0, 0, 0]);
        assert_eq!(g.cell_coords(5.1, 2.6, 5.1), [1, 1, 1]);
        assert_eq!(g.cell_coords(39.9, 39.9, 39.9), [7, 15, 7]);
        // Cells along x stay contiguous within a row.
        let positions = [1.0, 1.0, 1.0, 6.0, 1.0, 1.0, 1.0, 3.0, 1.0];
        g.sort(&positions);
        assert_eq!(g.order(), &[0, 1, 2]);
        assert_eq!(g.slots(0, 1), 0..2);
        assert_eq!(g.slots_of([0, 1, 0]), 2..3);
        // The budget of cells counts the rows: a tiny radius in a huge world.
        g.configure([0.0; 3], 1000.0, 1.0, 100, false, 2);
        assert!(g.cell_count() <= MIN_CELL_BUDGET);
    }

    #[test]
    fn positions_on_and_past_the_edges_stay_in_the_grid() {
        let g = grid(10.0, 5.0, 4);
        assert_eq!(g.cell_coords(5.0, 0.0, 10.0), [1, 0, 1]);
        assert_eq!(g.cell_coords(-1.0, f32::NAN, 99.0), [0, 0, 1]);
    }

    #[test]
    fn an_index_past_an_edge_wraps_with_its_shift_or_stops_at_a_wall() {
        assert_eq!(Grid::wrap_cell(3, 8, true, 40.0), Some((3, 0.0)));
        assert_eq!(Grid::wrap_cell(-1, 8, true, 40.0), Some((7, -40.0)));
        assert_eq!(Grid::wrap_cell(9, 8, true, 40.0), Some((1, 40.0)));
        assert_eq!(Grid::wrap_cell(-1, 8, false, 40.0), None);
        assert_eq!(Grid::wrap_cell(8, 8, false, 40.0), None);
    }
}
