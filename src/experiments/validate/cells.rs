//! `--cells`: which elites to validate (the corners of the grid, all, or a list).

use std::str::FromStr;

use crate::error::{Error, Result};
use crate::experiments::run_dir::RunDir;
use crate::qd::GridArchive;

/// Which elites to validate (`--cells`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellChoice {
    /// `corners`: the occupied cells nearest to the grid's corners ([`corner_cells`]).
    Corners,
    /// `all`: every elite.
    All,
    /// Cell indices, each holding an elite.
    List(Vec<usize>),
}

impl FromStr for CellChoice {
    type Err = Error;

    /// Parses `corners`, `all` or a comma-separated list of distinct cell indices; errors name
    /// `--cells`. (Whether the cells hold elites is checked against the archive later.)
    fn from_str(s: &str) -> Result<Self> {
        let s = s.trim();
        Ok(match s {
            "corners" => CellChoice::Corners,
            "all" => CellChoice::All,
            _ => {
                let mut cells: Vec<usize> = Vec::new();
                for part in s.split(',') {
                    let cell = part.trim().parse::<usize>().map_err(|_| {
                        Error::config(
                            "--cells",
                            format!(
                                "`{}` is not a cell index (give corners, all or a comma-separated list of cell indices)",
                                part.trim()
                            ),
                        )
                    })?;
                    if cells.contains(&cell) {
                        return Err(Error::config(
                            "--cells",
                            format!("cell {cell} is listed twice"),
                        ));
                    }
                    cells.push(cell);
                }
                CellChoice::List(cells)
            }
        })
    }
}

/// The occupied cells nearest to the corners of `grid` (see the [module docs](super)): for
/// each corner (every coordinate 0 or the axis's last cell), the cell of `occupied` at the least
/// squared Euclidean distance in grid coordinates, ties to the lower cell index; sorted, without
/// repeats. Empty if `occupied` is; cells off the grid are ignored.
pub fn corner_cells(grid: &GridArchive, occupied: &[usize]) -> Vec<usize> {
    let dims = grid.dims();
    let points: Vec<(usize, Vec<usize>)> = occupied
        .iter()
        .filter_map(|&c| grid.index_to_grid(c).map(|g| (c, g)))
        .collect();
    let mut chosen: Vec<usize> = (0..1usize << dims.len())
        .filter_map(|corner| {
            let target: Vec<usize> = dims
                .iter()
                .enumerate()
                .map(|(k, &d)| if corner >> k & 1 == 1 { d - 1 } else { 0 })
                .collect();
            points
                .iter()
                .min_by_key(|(cell, coords)| {
                    let d2: usize = coords
                        .iter()
                        .zip(&target)
                        .map(|(&a, &b)| a.abs_diff(b).pow(2))
                        .sum();
                    (d2, *cell)
                })
                .map(|(cell, _)| *cell)
        })
        .collect();
    chosen.sort_unstable();
    chosen.dedup();
    chosen
}

/// The cells `choice` picks from the run's archive, in cell order.
///
/// # Errors
///
/// [`Error::Config`] naming `--cells` for a listed cell that holds no elite, or if the
/// archive is empty.
pub fn choose_cells(choice: &CellChoice, run: &RunDir) -> Result<Vec<usize>> {
    let occupied: Vec<usize> = run.archive.rows.iter().map(|r| r.cell).collect();
    if occupied.is_empty() {
        return Err(Error::config(
            "--cells",
            format!("the archive of {} holds no elite", run.dir.display()),
        ));
    }
    Ok(match choice {
        CellChoice::Corners => corner_cells(&run.grid, &occupied),
        CellChoice::All => occupied,
        CellChoice::List(cells) => {
            if let Some(c) = cells.iter().find(|c| !occupied.contains(c)) {
                let why = if *c >= run.grid.num_cells() {
                    format!("the grid has {} cells", run.grid.num_cells())
                } else {
                    "it holds no elite".to_string()
                };
                return Err(Error::config(
                    "--cells",
                    format!("cell {c} cannot be validated: {why}"),
                ));
            }
            let mut cells = cells.clone();
            cells.sort_unstable();
            cells
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_choices_parse_and_bad_ones_name_the_flag() {
        assert_eq!(
            "corners".parse::<CellChoice>().unwrap(),
            CellChoice::Corners
        );
        assert_eq!("all".parse::<CellChoice>().unwrap(), CellChoice::All);
        assert_eq!(
            "3,1".parse::<CellChoice>().unwrap(),
            CellChoice::List(vec![3, 1])
        );
        for bad in ["", "corner", "1,1", "1,x", "-2"] {
            match bad.parse::<CellChoice>() {
                Err(Error::Config { field, .. }) => assert_eq!(field, "--cells", "{bad}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }
}
