#!/usr/bin/env python3
"""What would a coarser or finer grid keep? For each run directory and each scale of its
grid's cell widths, one markdown row from `reevaluated.csv` and the grid of `config.toml`:

    python3 results/regrid.py SCALES RUN_DIR...      (SCALES: e.g. 1,1.5,2 or 1x2,2x1)

A scale `k` multiplies every axis's cell width by k (a bucket axis's `step`; a bins axis gets
bins / k, rounded); `aXb` scales the first axis by a and the second by b. The same elites are
binned anew: their map means (what placed them) and their re-played means. Columns: the grid's
cells; the distinct cells the re-played means fall in (the most elites a corrected archive of
these elites could hold); the elites whose map and re-played cells agree (kept); and the share
a second re-play would keep were the re-played means exact (the ceiling, as `reevaluate`
writes it: the chance that a mean with the re-play's standard error falls in its own cell).

An estimate, not a run: an archive bred on another grid holds other elites (one per cell,
chosen among more candidates). It says which goals a grid can meet together: a cell narrow
against the spread of the elites gives many cells but a low ceiling; a cell wide against the
standard error of a mean keeps its elites but holds few of them."""
import math
import sys
from statistics import NormalDist

from rundir import feature_specs, print_table, rows, run_name


class Axis:
    """One feature axis with the binning rule of `src/qd/axis.rs`."""

    def __init__(self, spec, scale):
        self.name = spec["name"]
        self.lo, self.hi = float(spec["min"]), float(spec["max"])
        if "step" in spec:
            self.kind = "bucket"
            self.step = float(spec["step"]) * scale
            self.cells = math.floor(((self.hi - 1) - (self.lo + 1)) / self.step) + 3
        else:
            self.kind = "bins"
            self.cells = max(1, round(int(spec["bins"]) / scale))
            self.width = (self.hi - self.lo) / self.cells

    def index(self, v):
        last = self.cells - 1
        if self.kind == "bucket":
            v = math.floor(v + 0.5)
            if v <= self.lo:
                return 0
            if v >= self.hi:
                return last
            return min(last, int((v - (self.lo + 1)) // self.step) + 1)
        return max(0, min(last, math.floor((v - self.lo) / self.width + 1e-9)))

    def bounds(self, i):
        """Cell i's values as [lower, upper) of the unrounded value, edge cells unbounded
        (`value_bounds` in `src/qd/axis.rs`): a bucket holds the integers lo ≤ v < hi of its
        rounded bounds, so the value bounds are those rounded up, less a half."""
        last = self.cells - 1
        if self.kind == "bins":
            lower, upper = self.lo + i * self.width, self.lo + (i + 1) * self.width
        elif i == last:
            lower, upper = math.ceil(self.hi) - 0.5, math.inf
        else:
            a = self.lo + 1 + (i - 1) * self.step
            lower = math.ceil(a) - 0.5
            upper = math.ceil(min(a + self.step, self.hi)) - 0.5
        return (-math.inf if i == 0 else lower, math.inf if i == last else upper)

    def stays(self, mean, se):
        lower, upper = self.bounds(self.index(mean))
        if se <= 0:
            return 1.0
        n = NormalDist()
        return n.cdf((upper - mean) / se) - n.cdf((lower - mean) / se)


def run_row(run, scales):
    specs = feature_specs(run)
    axes = [Axis(spec, scales[min(i, len(scales) - 1)]) for i, spec in enumerate(specs)]
    elites = rows(run, "reevaluated.csv")
    kept, ceiling, cells = 0, 0.0, set()
    for r in elites:
        games = int(r["new_games"])
        placed = tuple(a.index(float(r[f"map_{a.name}_mean"])) for a in axes)
        replayed = tuple(a.index(float(r[f"new_{a.name}_mean"])) for a in axes)
        kept += placed == replayed
        cells.add(replayed)
        # The tables' sd is the population sd; its standard error divides by sqrt(games - 1).
        ceiling += math.prod(
            a.stays(float(r[f"new_{a.name}_mean"]), float(r[f"new_{a.name}_sd"]) / math.sqrt(max(games - 1, 1)))
            for a in axes
        )
    n = len(elites)
    grid = " × ".join(str(a.cells) for a in axes)
    scale = "×".join(f"{s:g}" for s in scales)
    return [
        run_name(run),
        scale,
        grid,
        n,
        len(cells),
        f"{kept} ({100 * kept / n:.0f} %)",
        f"{100 * ceiling / n:.0f} %",
    ]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    header = [
        "run",
        "cell width ×",
        "grid",
        "elites",
        "distinct re-played cells",
        "kept their cell",
        "ceiling",
    ]
    scales = [[float(s) for s in spec.split("x")] for spec in sys.argv[1].split(",")]
    print_table(header, [run_row(run, s) for run in sys.argv[2:] for s in scales])


if __name__ == "__main__":
    main()
