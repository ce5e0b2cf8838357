#!/usr/bin/env bash
# Runs a whole MAP-Elites run through Slurm on this machine, for CI:
#
#   experiments/slurm/test-local.sh PLAYSTYLES_BINARY CONFIG WORKDIR [arrays|allocation]
#
# Starts a one-node Slurm in WORKDIR/slurm (local-cluster.sh), runs CONFIG into WORKDIR/run
# either with one job array of 2 per batch (run-arrays.sh; the default) or in one allocation of
# 2 tasks (evolve.sbatch, submitted with sbatch --wait), and stops the cluster again, also on
# failure. Exits non-zero when anything fails. It compares nothing: the caller compares
# WORKDIR/run with a plain `playstyles evolve` run.
#
# Environment: MODE (arrays|allocation) when no fourth argument is given. REQUEUE_TEST=1 (allocation
# mode): once the first games of the run have results, send the job the time-limit signal
# (USR1) with GRACE=0, so that the work step is stopped mid-batch and the job requeues itself
# and finishes after the requeue, as on a real cluster at the time limit.
set -euo pipefail

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
    echo "usage: $0 PLAYSTYLES_BINARY CONFIG WORKDIR [arrays|allocation]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
binary=$(abs "$1")
config=$(abs "$2")
mkdir -p "$3"
workdir=$(cd "$3" && pwd)
mode=${4:-${MODE:-arrays}}
case $mode in arrays | allocation) ;; *)
    echo "error: mode must be arrays or allocation, not $mode" >&2
    exit 2
    ;;
esac
[ -x "$binary" ] || { echo "error: $binary is not executable" >&2; exit 2; }
[ -f "$config" ] || { echo "error: no config $config" >&2; exit 2; }

cluster=$workdir/slurm
run=$workdir/run
t0=$SECONDS

# The cluster goes down whatever happens below; a failed stop fails the test too.
# shellcheck disable=SC2317  # (called by the EXIT trap)
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    local t=$SECONDS
    "$here/local-cluster.sh" stop "$cluster" || rc=1
    echo "test-local: stop took $((SECONDS - t)) s; total $((SECONDS - t0)) s; exit $rc" >&2
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$here/local-cluster.sh" start "$cluster" >"$workdir/slurm-env"
# shellcheck source=/dev/null
. "$workdir/slurm-env"
echo "test-local: cluster up after $((SECONDS - t0)) s ($SLURM_CONF)" >&2

t=$SECONDS
rc=0
if [ "$mode" = arrays ]; then
    # One CPU per element, so that both elements run at once on a 2-CPU machine.
    PLAYSTYLES=$binary WORK_SBATCH_ARGS="--cpus-per-task=1 --time=30:00" \
        "$here/run-arrays.sh" "$run" "$config" 2 || rc=$?
else
    log=$workdir/evolve.out
    if [ "${REQUEUE_TEST:-0}" = 1 ]; then
        # Signal the job once the first results are written (the USR1 that --signal would send).
        (
            until compgen -G "$run/batches/*/results/*.jsonl" >/dev/null; do sleep 0.2; done
            job=$(squeue -h --name=playstyles-test-evolve -o %A | head -n 1)
            echo "test-local: sending USR1 to job $job" >&2
            scancel --batch --signal=USR1 "$job"
        ) &
        signaller=$!
    fi
    RUN_DIR=$run CONFIG=$config PLAYSTYLES=$binary GRACE=0 \
        sbatch --wait --job-name=playstyles-test-evolve --ntasks=2 --cpus-per-task=1 \
        --time=30:00 --output="$log" "$here/evolve.sbatch" || rc=$?
    [ -n "${signaller:-}" ] && { kill "$signaller" 2>/dev/null || true; }
    echo "--- $log" >&2
    cat "$log" >&2 || true
fi
echo "test-local: $mode run took $((SECONDS - t)) s, exit $rc" >&2
if [ $rc -ne 0 ]; then
    for f in "$cluster"/log/slurmctld.log "$cluster"/log/slurmd.log; do
        echo "--- last lines of $f" >&2
        tail -n 30 "$f" >&2 || true
    done
fi
exit $rc
