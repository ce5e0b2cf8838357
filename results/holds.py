#!/usr/bin/env python3
"""Do the personalities hold? One markdown row per run directory, from the files that
`evolve`, `reevaluate` and `validate --cells all` wrote there:

    python3 results/holds.py THRESHOLD RUN_DIR...

elites (archive.csv), corrected elites and cells kept on re-play (reevaluated.csv) with the
share a second re-play would keep were the re-played means exact, where
reevaluated_summary.csv has it (`kept_cell_ceiling`, written since commit 23fe356), Spearman
of held-out means per feature over all validated elites against the map's means and, where
validation_summary.csv has it (`replayed_spearman`, written when the run was re-evaluated before
it was validated), against the re-played means ("map / re-played"), and
the re-played win rates of the corrected archive's elites: mean, lowest, and how many reach
THRESHOLD (0.5 against one baseline; 0.25 in four-player Puerto Rico)."""
import sys

from rundir import print_table, rows, run_name


def replayed_text(row):
    """` / ` and a summary row's `replayed_spearman`, if it has one."""
    value = row.get("replayed_spearman", "")
    return f" / {float(value):.2f}" if value else ""


def run_row(threshold, run):
    archive = rows(run, "archive.csv")
    re = rows(run, "reevaluated.csv")
    corrected = [r for r in re if r["corrected_elite"] == "true"]
    kept = sum(r["kept_cell"] == "true" for r in re)
    games = re[0]["new_games"] if re else "-"
    summary = rows(run, "validation_summary.csv")
    spearman = "-"
    if summary:
        spearman = f"({summary[0]['elites']} elites) " + ", ".join(
            f"{r['feature']} {float(r['spearman']):.2f}{replayed_text(r)}"
            for r in summary
            if r["feature"] not in ("win_rate", "all_axes")
        )
    if corrected:
        wins = [float(r["new_win_rate"]) for r in corrected]
        strong = sum(w >= threshold for w in wins)
        win = f"{100 * sum(wins) / len(wins):.1f} % / {100 * min(wins):.0f} % / {strong} of {len(wins)}"
    else:
        win = "-"
    kept_text = f"{kept} of {len(re)} ({100 * kept / len(re):.0f} %)" if re else "-"
    if re and (totals := rows(run, "reevaluated_summary.csv")):
        ceiling = totals[0].get("kept_cell_ceiling", "")
        if ceiling:
            kept_text += f"; ceiling {100 * float(ceiling):.0f} %"
    return [run_name(run), len(archive), len(corrected), kept_text, games, spearman, win]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    threshold = float(sys.argv[1])
    header = [
        "run",
        "elites",
        "corrected elites",
        "kept their cell",
        "games per elite re-played",
        "held-out Spearman (map / re-played)",
        f"corrected elites' win rate: mean / lowest / ≥ {threshold:.0%}",
    ]
    print_table(header, [run_row(threshold, run) for run in sys.argv[2:]])


if __name__ == "__main__":
    main()
