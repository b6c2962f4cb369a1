//! What the grid will search for one boid in the next step (issue 42, "see the grid"): the
//! cells of its window and the boids in them, the candidates whose distance it checks. Read
//! from the grid the next step's sort builds (`Flock::grid_shape`), for the flock as it is
//! now, as `inspect` reads the next step's terms; the inspector draws both.

use glam::Vec3;

use super::Flock;
use crate::sim::grid::Grid;

/// One boid's window: the cells the scan walks for it and their boids.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScanWindow {
    /// Each cell scanned, as its lowest corner and its size, where it lies in the world (a
    /// cell across a wrapped edge is drawn on the far side, where its boids are). 27 cells in
    /// 3D and 9 in 2D when each is one perception radius high; a crowded flock's cells split
    /// into rows half as high (`scan::ROWS_PER_CELL`), 45 and 15 of them.
    pub cells: Vec<(Vec3, Vec3)>,
    /// Ids of the boids in those cells, itself left out: the distance checks it makes.
    pub candidates: Vec<u32>,
    /// Where each candidate is, in the order of `candidates`.
    pub places: Vec<Vec3>,
}

impl Flock {
    /// Boid `id`'s window for the next step, or `None` for an unknown id or in nearest-k mode
    /// (whose search grows in rings until the k-th nearest is sure).
    pub fn scan_window(&self, id: u32) -> Option<ScanWindow> {
        if self.settings.topological {
            return None;
        }
        let i = self.index_of(id)?;
        let mut grid = Grid::default();
        self.grid_shape().apply(&mut grid);
        let cell_of = |j: usize| {
            let p = &self.positions[3 * j..3 * j + 3];
            grid.cell_coords(p[0], p[1], p[2])
        };
        let [cx, cy, cz] = cell_of(i);
        let (wrap, world) = (self.settings.wrap, self.world);
        let reach = grid.rows_per_cell() as isize;
        let layers: &[isize] = if grid.is_flat() { &[0] } else { &[-1, 0, 1] };
        let width = grid.cell_width();
        let height = width / grid.rows_per_cell() as f32;
        let depth = if grid.is_flat() { 0.0 } else { width };
        let origin = Vec3::from(grid.origin());
        let mut scanned = vec![false; grid.cell_count()];
        let mut window = ScanWindow::default();
        for &dz in layers {
            let Some((z, _)) = Grid::wrap_cell(cz as isize + dz, grid.layers(), wrap, world) else {
                continue;
            };
            for dx in -1..=1 {
                let Some((x, _)) = Grid::wrap_cell(cx as isize + dx, grid.dims(), wrap, world)
                else {
                    continue;
                };
                for dy in -reach..=reach {
                    let Some((y, _)) = Grid::wrap_cell(cy as isize + dy, grid.rows(), wrap, world)
                    else {
                        continue;
                    };
                    let index = grid.cell_index([x, y, z]);
                    if std::mem::replace(&mut scanned[index], true) {
                        continue; // a world only a few cells wide: one cell reached twice
                    }
                    let corner =
                        origin + Vec3::new(x as f32 * width, y as f32 * height, z as f32 * depth);
                    window.cells.push((corner, Vec3::new(width, height, depth)));
                }
            }
        }
        for j in 0..self.len() {
            if j != i && scanned[grid.cell_index(cell_of(j))] {
                window.candidates.push(self.ids()[j]);
                window
                    .places
                    .push(Vec3::from_slice(&self.positions[3 * j..3 * j + 3]));
            }
        }
        Some(window)
    }
}
