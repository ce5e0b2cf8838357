#!/usr/bin/env python3
"""Head-to-head of a tournament's first two participants from games.csv: the share of games
the first finishes above the second (ties half) with its 95 % Wilson interval, and each one's
share of games won alone.  Usage: python3 head_to_head.py games.csv"""
import csv, sys, math
from collections import defaultdict
rows = list(csv.DictReader(open(sys.argv[1])))
n = max(int(k[5:]) for k in rows[0] if k.startswith("seat_")) + 1
stats = defaultdict(lambda: [0, 0.0, 0, 0])  # games, h2h score, wins of 0, wins of 1
for r in rows:
    r0, r1 = int(r["rank_0"]), int(r["rank_1"])
    st = stats[r["pairing"]]
    st[0] += 1
    st[1] += 1.0 if r0 < r1 else 0.5 if r0 == r1 else 0.0
    st[2] += r["winner"] == "0"
    st[3] += r["winner"] == "1"
def wilson(k, n, z=1.96):
    p = k / n; d = 1 + z*z/n; c = p + z*z/(2*n); h = z*math.sqrt(p*(1-p)/n + z*z/(4*n*n))
    return (c-h)/d, (c+h)/d
print("pairing,games,head_to_head,lo,hi,first_wins,second_wins")
for k, (g, s, w0, w1) in stats.items():
    lo, hi = wilson(s, g)
    print(f"{k},{g},{s/g:.3f},{lo:.3f},{hi:.3f},{w0/g:.3f},{w1/g:.3f}")
