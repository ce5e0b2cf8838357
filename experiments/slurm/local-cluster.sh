#!/usr/bin/env bash
# A real one-node Slurm on this machine, for tests and for trying the sbatch templates.
#
#   experiments/slurm/local-cluster.sh start DIR    # install if missing, start, wait for an idle node
#   experiments/slurm/local-cluster.sh status DIR   # daemons alive? sinfo and squeue
#   experiments/slurm/local-cluster.sh stop DIR     # cancel jobs, stop the daemons started in DIR
#
# Everything lives under DIR: the munge key and socket, slurm.conf, state, spool, logs and pid
# files. Nothing needs systemd or writes to /etc, so it runs as root in a container. Clients
# find the cluster through SLURM_CONF; `start` prints the line to paste:
#   export SLURM_CONF=DIR/slurm.conf
# Ports: SLURMCTLD_PORT and SLURMD_PORT (defaults 16817 and 16818, away from Slurm's own
# 6817/6818 so that a real Slurm on the machine is not disturbed); a port in use moves to the
# next free one. `stop` kills only the PIDs recorded in DIR, never processes found by name.
set -euo pipefail

usage() {
    echo "usage: $0 start|stop|status DIR" >&2
    exit 2
}
[ $# -eq 2 ] || usage
cmd=$1
# Only start creates DIR; stop and status of a missing DIR have nothing to do.
[ "$cmd" = start ] && mkdir -p "$2"
if [ ! -d "$2" ]; then
    echo "no cluster in $2" >&2
    [ "$cmd" = stop ] && exit 0
    exit 3
fi
dir=$(cd "$2" && pwd)
conf=$dir/slurm.conf
export SLURM_CONF=$conf

# Debian's packages, installed when missing so that this script works alone on a fresh machine
# (the tests check for them first; tests/run.sh installs them).
install_packages() {
    local missing=()
    command -v slurmctld >/dev/null 2>&1 || missing+=(slurm-wlm)
    command -v munged >/dev/null 2>&1 || missing+=(munge)
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

# PID from a pid file if that process is alive.
alive_pid() {
    local pid
    [ -s "$1" ] || return 1
    pid=$(cat "$1")
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

# True when something listens on 127.0.0.1:$1 (bash's /dev/tcp: no extra tool needed).
port_busy() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

free_port() {
    local p=$1
    while port_busy "$p"; do p=$((p + 1)); done
    echo "$p"
}

# Wait up to $1 seconds for the command "${@:2}" to succeed.
wait_for() {
    local limit=$1 start=$SECONDS
    shift
    until "$@" >/dev/null 2>&1; do
        if [ $((SECONDS - start)) -ge "$limit" ]; then return 1; fi
        sleep 0.2
    done
}

queue_empty() {
    [ -z "$(squeue -h -o %i 2>/dev/null)" ]
}

node_idle() {
    [ "$(sinfo -h -N -o %t 2>/dev/null)" = idle ]
}

show_logs() {
    local f
    for f in "$dir"/log/*.log; do
        [ -f "$f" ] || continue
        echo "--- last lines of $f" >&2
        tail -n 20 "$f" >&2
    done
}

start() {
    if [ "$(id -u)" -ne 0 ]; then
        # slurmd must be root to start job steps (it switches to the job's user).
        echo "error: local-cluster.sh start must run as root" >&2
        exit 2
    fi
    install_packages
    if alive_pid "$dir/run/slurmctld.pid" >/dev/null || alive_pid "$dir/run/slurmd.pid" >/dev/null; then
        echo "already running in $dir" >&2
        echo "export SLURM_CONF=$conf"
        return 0
    fi
    # Two clusters started at once (parallel tests) would pick the same free ports: start them
    # one at a time. The daemons must not inherit the lock's descriptor (9>&- below), or the
    # lock would be held for as long as they run.
    exec 9>>"${TMPDIR:-/tmp}/playstyles-local-slurm.lock"
    flock 9
    mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log" "$dir/run"
    # munged wants its socket directory searchable by all but writable by no one else.
    chmod 711 "$dir/munge"

    # Unix socket paths are limited to 107 bytes.
    local socket=$dir/munge/munge.socket.2
    if [ ${#socket} -gt 100 ]; then
        echo "error: DIR is too long for a Unix socket path ($socket); choose a shorter one" >&2
        exit 2
    fi

    if [ ! -s "$dir/munge/munge.key" ]; then
        # 1024 random bytes, as mungekey makes; dd works with munge versions without mungekey.
        dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
        chmod 400 "$dir/munge/munge.key"
    fi
    if ! munged --socket="$socket" --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" \
        --seed-file="$dir/munge/munged.seed" </dev/null >>"$dir/log/munged.log" 2>&1 9>&- \
        || ! wait_for 10 alive_pid "$dir/run/munged.pid"; then
        echo "error: munged did not start" >&2
        show_logs
        exit 1
    fi

    # The node as slurmd measures it (CPUs, boards, sockets, cores, threads, memory), so that
    # the node is not drained for a mismatch. Names come from the short hostname: slurmctld
    # refuses to run on a host other than SlurmctldHost, and slurmd finds its NodeName by it.
    local host node_hw ctld_port slurmd_port
    host=$(hostname -s)
    node_hw=$(slurmd -C | head -n 1 | sed 's/^NodeName=[^ ]* //')
    ctld_port=$(free_port "${SLURMCTLD_PORT:-16817}")
    slurmd_port=$(free_port "${SLURMD_PORT:-$((ctld_port + 1))}")
    [ "$slurmd_port" -eq "$ctld_port" ] && slurmd_port=$(free_port $((ctld_port + 1)))

    cat >"$conf" <<EOF
# Written by experiments/slurm/local-cluster.sh: a one-node Slurm for tests. Rewritten at each start.
ClusterName=playstyles-local
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
# Everything runs as root: there is no slurm user in a bare container.
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# Our own munged's socket. cred_expire is also how long a requeued job waits before it may
# start again (default 120 s); short so that requeue tests do not idle for two minutes.
AuthInfo=socket=$socket,cred_expire=10
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups (containers rarely allow them): processes are tracked through /proc.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
# CPUs are consumable, memory is not: jobs that ask for no memory still share the node.
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
# A node that was down (e.g. after stop/start) comes back by itself.
ReturnToService=2
# sbatch --wait polls every 2 s while MinJobAge/2 <= 2 s, and backs off to 32 s otherwise.
MinJobAge=5
KillWait=5
SlurmdTimeout=60
JobRequeue=1
MailProg=/bin/true
NodeName=$host NodeAddr=127.0.0.1 $node_hw State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

    # Stdio to the logs: a caller that captures our output must not wait on the daemons.
    slurmctld -f "$conf" </dev/null >>"$dir/log/slurmctld.log" 2>&1 9>&-
    slurmd -f "$conf" -N "$host" </dev/null >>"$dir/log/slurmd.log" 2>&1 9>&-
    if ! wait_for 60 node_idle; then
        echo "error: the node did not become idle within 60 s" >&2
        sinfo -N -l >&2 || true
        show_logs
        exit 1
    fi
    exec 9>&-
    echo "one-node Slurm up in $dir (slurmctld port $ctld_port, slurmd port $slurmd_port)" >&2
    echo "export SLURM_CONF=$conf"
}

# Stop the daemons whose pid files are named in "$@" (under DIR/run): TERM to all at once (each
# takes 1-2 s to shut down, so one after the other would add up), KILL after 10 s, then wait.
stop_daemons() {
    local name pid i names=() pids=() left
    for name in "$@"; do
        pid=$(alive_pid "$dir/run/$name.pid") || continue
        kill -TERM "$pid" 2>/dev/null || true
        names+=("$name")
        pids+=("$pid")
    done
    for i in $(seq 75); do
        left=0
        for pid in "${pids[@]}"; do
            kill -0 "$pid" 2>/dev/null && left=1
        done
        [ $left -eq 0 ] && break
        [ "$i" -eq 50 ] && kill -KILL "${pids[@]}" 2>/dev/null
        sleep 0.2
    done
    for i in "${!pids[@]}"; do
        if kill -0 "${pids[$i]}" 2>/dev/null; then
            echo "warning: ${names[$i]} (${pids[$i]}) still there" >&2
            left=2
        else
            echo "stopped ${names[$i]} (${pids[$i]})" >&2
        fi
    done
    [ "${left:-0}" -ne 2 ]
}

stop() {
    local rc=0
    # Cancel this cluster's jobs first: slurmd leaves running job steps (slurmstepd) behind
    # when it stops, and only Slurm knows those processes.
    if [ -f "$conf" ] && alive_pid "$dir/run/slurmctld.pid" >/dev/null && alive_pid "$dir/run/slurmd.pid" >/dev/null; then
        if [ -n "$(squeue -h -o %i 2>/dev/null)" ]; then
            scancel --full --user="$(id -un)" 2>/dev/null || true
            wait_for 30 queue_empty \
                || echo "warning: jobs still in the queue: $(squeue -h -o '%i %T' | tr '\n' ' ')" >&2
        fi
    fi
    stop_daemons slurmd slurmctld munged || rc=1
    # Job steps whose slurmstepd is still there leave their sockets in the spool.
    if compgen -G "$dir/spool/*_[0-9]*.*" >/dev/null; then
        echo "warning: job step sockets left in $dir/spool: $(cd "$dir/spool" && echo ./*_[0-9]*.*)" >&2
    fi
    return $rc
}

status() {
    local name pid rc=0
    for name in munged slurmctld slurmd; do
        if pid=$(alive_pid "$dir/run/$name.pid"); then
            echo "$name: running ($pid)"
        else
            echo "$name: not running"
            rc=3
        fi
    done
    if [ $rc -eq 0 ]; then
        sinfo -N
        squeue
        echo "export SLURM_CONF=$conf"
    fi
    return $rc
}

case $cmd in
start) start ;;
stop) stop ;;
status) status ;;
*) usage ;;
esac
