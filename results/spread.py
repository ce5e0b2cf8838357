#!/usr/bin/env python3
"""Do the elites differ in a feature beyond the noise of its measurement? One markdown row per
run directory and feature, from `reevaluated.csv` (and `validation.csv` where `validate
--cells all` wrote it) and the grid of `config.toml`:

    python3 results/spread.py RUN_DIR...

The elites' re-played means of a feature vary for two reasons: the elites play differently
(their true spread) and each mean rests on a finite number of games (its standard error,
the tables' population sd / sqrt(games - 1)). (A feature counted in won games only, such as Tribes' `speed_win`, has fewer
measurements than games; the tables do not say how many, so its noise is slightly
understated here.) The variance of the means, less the mean squared standard error, estimates
the true spread's variance (method of moments; clamped at 0). Columns: the sd of the re-played
means; the noise (root mean squared standard error); the true spread (sd) and the same in
cell widths of the map's axis; the reliability, true variance / variance of the means (the
share of the spread that is the elites', not chance; it bounds how well any two such
measurements can agree); and the same reliability of the held-out means. A feature whose
true spread is a small part of a cell width cannot keep its elites in their cells, nor order
them alike on other levels, whatever the number of games. (`reevaluate` writes the re-played
figures into `reevaluated_summary.csv` since commit 43bfbab; this script also reads runs re-played
before, and adds the held-out reliability.)"""
import math
import statistics
import sys

from rundir import feature_specs, print_table, rows, run_name


def cell_widths(run):
    """Each feature's inner cell width, from the run's `config.toml` (bucket `step`, or
    `(max - min) / bins`)."""
    widths = {}
    for feature in feature_specs(run):
        if "step" in feature:
            widths[feature["name"]] = float(feature["step"])
        else:
            widths[feature["name"]] = (feature["max"] - feature["min"]) / feature["bins"]
    return widths


def decompose(means_and_ses):
    """(sd of the means, rms standard error, true sd, reliability) of (mean, se) pairs."""
    means = [m for m, _ in means_and_ses]
    if len(means) < 2:
        return None
    var = statistics.variance(means)
    noise = statistics.fmean(se * se for _, se in means_and_ses)
    true_var = max(var - noise, 0.0)
    reliability = true_var / var if var > 0 else float("nan")
    return math.sqrt(var), math.sqrt(noise), math.sqrt(true_var), reliability


def run_rows(run):
    widths = cell_widths(run)
    replayed = rows(run, "reevaluated.csv")
    validated = rows(run, "validation.csv")
    out = []
    for feature, width in widths.items():
        re = decompose(
            [
                (
                    float(r[f"new_{feature}_mean"]),
                    float(r[f"new_{feature}_sd"]) / math.sqrt(int(r["new_games"]) - 1),
                )
                for r in replayed
                if r[f"new_{feature}_mean"] not in ("", "NaN") and int(r["new_games"]) > 1
            ]
        )
        if re is None:
            continue
        held = decompose(
            [
                (float(r["val_mean"]), float(r["val_sd"]) / math.sqrt(int(r["val_games"]) - 1))
                for r in validated
                if r["feature"] == feature and int(r["val_games"]) > 1
            ]
        )
        spread, noise, true_sd, reliability = re
        held_text = f"{held[3]:.2f}" if held else "-"
        out.append(
            [
                run_name(run),
                feature,
                len(replayed),
                replayed[0]["new_games"],
                f"{spread:.2f}",
                f"{noise:.2f}",
                f"{true_sd:.2f}",
                f"{true_sd / width:.2f} of {width:g}",
                f"{reliability:.2f}",
                held_text,
            ]
        )
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    header = [
        "run",
        "feature",
        "elites",
        "games each",
        "sd of re-played means",
        "noise (rms se)",
        "true spread (sd)",
        "in cell widths",
        "reliability",
        "held-out reliability",
    ]
    print_table(header, [row for run in sys.argv[1:] for row in run_rows(run)])


if __name__ == "__main__":
    main()
