#!/usr/bin/env bash
# The paper's whole experiment at full scale (issue 11), one step after another, each step
# continuing where it stopped: run this script again after an interruption (Ctrl-C, a reboot)
# and it picks up the unfinished step with --resume, skipping the finished ones.
#
#   experiments/paper-scale.sh            # from the repository root, after cargo build --release
#
# Steps, in order (results/<name>/ each):
#   1. Table I: experiments/table1.toml (3,500 games).
#   2. For each use case (usecase1-attacks-vs-support, usecase2-defenders-vs-win-turn,
#      usecase3-research-vs-tiles): the MAP-Elites run (11,020 games); Table II, the corner
#      elites on the 20 held-out levels x 25 repetitions (500 games each, the paper's count);
#      the re-evaluation of every elite on 40 fresh games of the training levels; the run
#      explorer, report.html, with everything the run now knows (one game per elite).
#   3. Use case I with continuous weights (usecase1-continuous, 11,020 games) and its
#      re-evaluation (40 games per elite), to compare with the discrete map's.
#
# Runtimes: see experiments/README.md. PLAYSTYLES names the binary (default
# target/release/playstyles); THREADS the worker threads (default: one per core).
set -euo pipefail
cd "$(dirname "$0")/.."
ps=${PLAYSTYLES:-target/release/playstyles}
threads=()
[[ -n "${THREADS:-}" ]] && threads=(--threads "$THREADS")

say() { echo "[$(date -u '+%F %T')] $*"; }

# A tournament: resumed if its folder holds a config.toml, else started.
tournament() {
    local name=$1 dir=results/$1 resume=()
    [[ -f $dir/config.toml ]] && resume=(--resume)
    say "tournament $name ${resume[*]}"
    "$ps" tournament "experiments/$name.toml" --out "$dir" --quiet "${threads[@]}" "${resume[@]}"
}

# A MAP-Elites run: resumed from its checkpoint if it has one, else started.
evolve() {
    local name=$1 dir=results/$1 resume=()
    [[ -f $dir/checkpoint.json ]] && resume=(--resume)
    say "evolve $name ${resume[*]}"
    "$ps" evolve "experiments/$name.toml" --out "$dir" --quiet "${threads[@]}" "${resume[@]}"
}

# `validate` or `reevaluate` on a run: skipped once its table exists, resumed from its journal.
replay() {
    local command=$1 dir=$2 table=$3 journal=$4
    shift 4
    [[ -f $dir/$table ]] && return 0
    local resume=()
    [[ -f $dir/$journal ]] && resume=(--resume)
    say "$command $dir $* ${resume[*]}"
    "$ps" "$command" "$dir" "$@" --quiet "${threads[@]}" "${resume[@]}"
}

tournament table1
for name in usecase1-attacks-vs-support usecase2-defenders-vs-win-turn usecase3-research-vs-tiles; do
    evolve "$name"
    replay validate "results/$name" validation.csv validation.journal.json \
        --levels held-out --cells corners --repetitions 25
    replay reevaluate "results/$name" reevaluated.csv reevaluated.journal.json --games 40
    say "report results/$name"
    "$ps" report "results/$name" "${threads[@]}"
done
evolve usecase1-continuous
replay reevaluate results/usecase1-continuous reevaluated.csv reevaluated.journal.json --games 40
say "done"
