#!/usr/bin/env bash
# MAP-Elites on Slurm with one job array per batch, driven from a login node:
#
#   experiments/slurm/run-arrays.sh RUN_DIR [CONFIG] [SHARDS]
#
# Loop: `playstyles ask` writes the next batch's tasks; an array of SHARDS elements
# (work-array.sbatch) plays them, `sbatch --wait` blocking until all elements end; then
# `playstyles tell` folds the results into the archive. Ends when ask says the schedule is
# finished (exit 3). CONFIG is only read when RUN_DIR is created (default: the built-in quick
# start); SHARDS defaults to 4.
#
# This script runs for the whole experiment but uses no CPU: run it on the login node inside
# tmux or screen (`tmux new -s evolve`, detach with Ctrl-b d), since logging out ends it. If it
# does end, run the same command again: a batch whose array is still in the queue is waited for,
# ask hands out the same batch until it is told, and work skips games that have a result.
#
# Environment:
#   PLAYSTYLES        the binary (default: playstyles on PATH); compute nodes must see it
#   WORK_SBATCH_ARGS  extra sbatch options for the arrays, split on spaces, e.g.
#                     "--partition=compute --account=my-project --cpus-per-task=16 --time=1:00:00"
#   LOG_DIR           where the elements' logs go (default RUN_DIR/slurm-logs)
#   Slurm's own SBATCH_* input variables (SBATCH_PARTITION, SBATCH_ACCOUNT, ...) work too.
set -euo pipefail

usage() {
    echo "usage: $0 RUN_DIR [CONFIG] [SHARDS]" >&2
    exit 2
}
if [ $# -lt 1 ] || [ $# -gt 3 ]; then usage; fi
run_dir=$1
config=${2:-}
shards=${3:-4}
[[ $shards =~ ^[1-9][0-9]*$ ]] || usage

here=$(cd "$(dirname "$0")" && pwd)
# An absolute path, since the array elements may start elsewhere than this directory.
playstyles=$(command -v "${PLAYSTYLES:-playstyles}") || {
    echo "error: no playstyles binary (set PLAYSTYLES)" >&2
    exit 2
}
export PLAYSTYLES=$playstyles
read -r -a extra <<<"${WORK_SBATCH_ARGS:-}"
ask_args=()
[ -n "$config" ] && ask_args=(--config "$config")

mkdir -p "$(dirname "$run_dir")"
run_abs=$(cd "$(dirname "$run_dir")" && pwd)/$(basename "$run_dir")
# One job name per run directory: a second driver on the same run finds the array of the first.
job_name=playstyles-work-$(printf %s "$run_abs" | cksum | cut -d' ' -f1)

# Wait while an array of this run is still queued or running (a driver that was killed left it).
wait_for_running_array() {
    local jobs
    while jobs=$(squeue -h --name="$job_name" -u "$(id -un)" -o %F | sort -u | tr '\n' ' ') && [ -n "${jobs// /}" ]; do
        echo "waiting for job(s) $jobs of this run to end" >&2
        sleep 10
    done
}

wait_for_running_array
batches=0
while :; do
    rc=0
    tasks=$("$playstyles" ask "$run_abs" "${ask_args[@]}") || rc=$?
    if [ $rc -eq 3 ]; then
        echo "schedule finished after $batches batch(es) in this session: $run_abs" >&2
        break
    elif [ $rc -ne 0 ]; then
        echo "error: playstyles ask exited $rc" >&2
        exit $rc
    fi
    log_dir=${LOG_DIR:-$run_abs/slurm-logs}
    mkdir -p "$log_dir"
    echo "$(date '+%F %T') batch $tasks: array of $shards" >&2
    rc=0
    # --wait: exit with the highest exit code of the elements, once all of them have ended.
    sbatch --wait --array="0-$((shards - 1))" --job-name="$job_name" \
        --output="$log_dir/work-%A_%a.out" "${extra[@]}" \
        "$here/work-array.sbatch" "$tasks" >&2 || rc=$?
    if [ $rc -ne 0 ]; then
        echo "error: the array for $tasks failed (sbatch exit $rc); logs in $log_dir." >&2
        echo "Run the same command again to continue: finished games are kept." >&2
        exit $rc
    fi
    "$playstyles" tell "$run_abs"
    batches=$((batches + 1))
done
