"""Per pairing of a Skirmish tournament (its games.csv): the first agent's win rate and draws,
its mean shares of military, defence and economy actions, the round of its first attack
(the round cap + 1 when it made none) and its workers at the end.

    python3 results/skirmish-styles/shares.py results/skirmish-styles/tournament
"""

import collections
import csv
import sys

games = csv.DictReader(open(sys.argv[1] + "/games.csv", newline=""))
rows = collections.OrderedDict()
for g in games:
    r = rows.setdefault(g["pairing"], collections.defaultdict(float))
    actions = max(float(g["actions_0"]), 1.0)
    r["games"] += 1
    r["win"] += g["winner"] == "0"
    r["draw"] += g["winner"] == ""
    for k in ("military", "defence", "economy"):
        r[k] += float(g[k + "_0"]) / actions
    r["first_attack"] += float(g["first_attack_0"])
    r["workers"] += float(g["workers_0"])

print("| pairing | games | win % | draws | military | defence | economy | first attack | workers |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for name, r in rows.items():
    n = r["games"]
    print(
        f"| {name} | {n:.0f} | {100 * r['win'] / n:.1f} | {r['draw']:.0f} "
        f"| {r['military'] / n:.2f} | {r['defence'] / n:.2f} | {r['economy'] / n:.2f} "
        f"| {r['first_attack'] / n:.1f} | {r['workers'] / n:.1f} |"
    )
