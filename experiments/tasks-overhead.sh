#!/usr/bin/env bash
# The cost of taking a run through ask / work / tell instead of evolve, on this machine:
#
#   experiments/tasks-overhead.sh [ROUNDS] [CONFIG]     # after cargo build --release
#
# Alternates, ROUNDS times (default 5), `evolve CONFIG --threads 2` with the same run through
# ask, two `work` shards of one thread side by side, and tell; prints each wall time, checks
# that both runs end with the same archive.csv and checkpoint.json, and prints the medians.
# CONFIG defaults to the quick start. Runs go to a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
ps=$PWD/${PLAYSTYLES:-target/release/playstyles}
rounds=${1:-5}
cfg=${2:-experiments/quickstart.toml}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
for i in $(seq 1 "$rounds"); do
    s=$(now)
    "$ps" evolve "$cfg" --out "$tmp/evolve-$i" --threads 2 --quiet >/dev/null
    echo "evolve $i $(echo "$(now) - $s" | bc)"
    s=$(now)
    run=$tmp/tasks-$i
    while :; do
        rc=0
        tasks=$("$ps" ask "$run" --config "$cfg") || rc=$?
        [ "$rc" -eq 3 ] && break # the schedule is finished
        [ "$rc" -eq 0 ] || exit 1
        "$ps" work "$tasks" --shard 0/2 --threads 1 --quiet >/dev/null &
        "$ps" work "$tasks" --shard 1/2 --threads 1 --quiet >/dev/null &
        wait
        "$ps" tell "$run" >/dev/null
    done
    echo "tasks $i $(echo "$(now) - $s" | bc)"
    for f in archive.csv checkpoint.json; do
        cmp "$tmp/evolve-$i/$f" "$run/$f" || { echo "$f differs" >&2; exit 1; }
    done
done | tee "$tmp/times"
python3 - "$tmp/times" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
e = statistics.median(float(r[2]) for r in rows if r[0] == "evolve")
t = statistics.median(float(r[2]) for r in rows if r[0] == "tasks")
print(f"median evolve {e:.1f} s, ask/work/tell {t:.1f} s, overhead {100 * (t / e - 1):+.1f} %")
PY
