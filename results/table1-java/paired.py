"""Paired comparison of two tournament pairings played on the same series (same game seeds,
levels and seats): the difference in the first agent's win rate, game by game, with a 95 %
normal interval on the mean of the per-game differences (draws count as non-wins, as in
summary.csv). Standard library only.

    python3 results/table1-java/paired.py DIR_A:PAIRING_A DIR_B:PAIRING_B
"""
import csv
import math
import sys


def first_agent_wins(arg):
    folder, _, pairing = arg.rpartition(":")
    games = {}
    with open(f"{folder}/games.csv", newline="") as f:
        for row in csv.DictReader(f):
            if row["pairing"] == pairing:
                key = (row["level"], row["repetition"], row["seed"], row["seat_0"], row["seat_1"])
                games[int(row["game"])] = (key, row["winner"] == "0")
    if not games:
        sys.exit(f"error: no games of pairing `{pairing}` in {folder}/games.csv")
    return games


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = (first_agent_wins(x) for x in sys.argv[1:])
    common = sorted(set(a) & set(b))
    for g in common:
        if a[g][0] != b[g][0]:
            sys.exit(f"error: game {g} differs in level, repetition, seed or seats")
    n = len(common)
    d = [int(a[g][1]) - int(b[g][1]) for g in common]
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    rate = lambda w: 100 * sum(w[g][1] for g in common) / n
    print(
        f"{n} common games: {rate(a):.1f} % vs {rate(b):.1f} %, difference "
        f"{100 * mean:+.1f} points (95 % CI {100 * (mean - half):+.1f} to {100 * (mean + half):+.1f}); "
        f"only A won {d.count(1)}, only B won {d.count(-1)}"
    )


main()
