#!/usr/bin/env bash
# Breeds one flagship map with the defaults only, then re-plays, validates and rosters it:
# every step resumable, so the same command continues a killed run where it stopped.
#
#   experiments/defaults/breed.sh tribes|prismata|puerto-rico|pig|skirmish [THREADS]
#
# Outputs: results/defaults/<game>/ (the run directory: calibration, map, reevaluated.csv,
# validation.csv, roster.toml). Wall times are printed per step.
# Prismata: one game on each of its 96 held-out sets.
set -euo pipefail
cd "$(dirname "$0")/../.."
game=$1
threads=${2:-2}
out=results/defaults/$game
# Held-out games per level and elite: 2 on Tribes' 20 held-out levels and Prismata's 96
# (40 and 96 games), 50 on the few held-out levels of the others.
bin=(cargo run --release --quiet --)
config=experiments/defaults/$game.toml
held_out=50
case $game in
    pig) bin=(cargo run --release --quiet --example pig --) ;;
    skirmish) bin=(cargo run --release --quiet --example skirmish --)
        config=examples/skirmish/quickstart.toml ;;
    tribes) held_out=2 ;;
    prismata) held_out=1 ;;
esac
step() {
    local start=$SECONDS
    echo "== $* ($(date -u +%H:%M:%S))"
    "${bin[@]}" "$@" --threads "$threads" --quiet --resume
    echo "== took $((SECONDS - start)) s"
}
mkdir -p results/defaults
step evolve "$config" --out "$out"
step reevaluate "$out" --games 100
step validate "$out" --levels held-out --cells all --repetitions "$held_out"
step roster "$out" --count 8
"${bin[@]}" report "$out" > /dev/null
