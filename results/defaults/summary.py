#!/usr/bin/env python3
"""One row per run directory bred by experiments/defaults/breed.sh: the calibrated style
strength, the extremes' spread there (cell widths), elites, held-out Spearman per feature
(map means / re-played means), the roster's accuracy and its weakest member.

    python3 results/defaults/summary.py results/defaults/*/
"""
import csv
import sys
import tomllib
from pathlib import Path


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def summary(run):
    run = Path(run)
    out = {"run": run.name}
    strengths = run / "calibration_strengths.csv"
    if strengths.exists():
        for r in rows(strengths):
            if r["chosen"] == "true":
                spreads = [f"{k[7:]} {float(v):.1f}" for k, v in r.items()
                           if k.startswith("spread_") and not k.endswith(("_lo", "_hi"))]
                out["calibrated"] = f"{r['strength']} ({', '.join(spreads)} cells)"
    else:
        out["calibrated"] = "-"
    summary = rows(run / "reevaluated_summary.csv")[0] if (run / "reevaluated_summary.csv").exists() else {}
    out["elites"] = f"{summary.get('elites', '?')} ({summary.get('corrected_elites', '?')} corrected)"
    if (run / "validation_summary.csv").exists():
        out["held-out Spearman"] = ", ".join(
            f"{r['feature']} {float(r['spearman']):.2f}/{float(r['replayed_spearman']):.2f}"
            for r in rows(run / "validation_summary.csv")
            if r["feature"] not in ("win_rate", "all_axes") and r["spearman"])
    if (run / "roster.toml").exists():
        roster = tomllib.loads((run / "roster.toml").read_text())
        members = roster["member"]
        out["roster"] = (f"{roster['count']}: {100 * roster['accuracy_1']:.1f} % / "
                         f"{100 * roster['accuracy_3']:.1f} %")
        out["weakest member"] = (f"{100 * min(m['win_rate'] for m in members):.1f} % re-played, "
                                 f"{100 * min(m['held_out_win_rate'] for m in members):.1f} % held-out")
    return out


runs = [summary(r) for r in sys.argv[1:]]
keys = ["run", "calibrated", "elites", "held-out Spearman", "roster", "weakest member"]
print("| " + " | ".join(keys) + " |")
print("|" + "---|" * len(keys))
for r in runs:
    print("| " + " | ".join(r.get(k, "-") for k in keys) + " |")
