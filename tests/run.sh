#!/usr/bin/env bash
# The test command: makes sure this machine has what the tests need, then runs `cargo test`
# with this script's arguments.
#
#   tests/run.sh                     # every test
#   tests/run.sh -- browser          # any `cargo test` arguments, passed through
#
# Beyond Rust, the tests need (each installed or made only when missing, and said so):
#   - headless Chromium (tests/browser.rs): Debian's chromium, unless CHROMIUM names a browser
#     or chromium, chromium-browser or google-chrome is on PATH;
#   - Slurm and munge (tests/cluster.rs): Debian's slurm-wlm and munge; the tests start and stop
#     a one-node Slurm themselves (experiments/slurm/local-cluster.sh), which needs root;
#   - Python with the package python/playstyles_dask (tests/cluster.rs): a virtual environment
#     in target/venv-dask, unless PLAYSTYLES_PYTHON names a Python that has it; the package is
#     installed again when its files change.
# Debian packages are installed with apt-get, through sudo when not root. When everything is
# there this only checks, in well under a second. Without this script the tests that need a
# missing thing fail, naming it: they never skip.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "tests/run.sh: $*" >&2; }
on_path() { command -v "$1" >/dev/null 2>&1; }

# The browser the tests take (tests/browser.rs, `browser()`), if any.
has_browser() {
    if [ -n "${CHROMIUM:-}" ]; then
        on_path "$CHROMIUM" || { say "error: CHROMIUM=$CHROMIUM is not a program"; exit 2; }
        return 0
    fi
    on_path chromium || on_path chromium-browser || on_path google-chrome
}

# A Python that can make virtual environments (Debian's python3 needs python3-venv for that).
venv_maker() {
    local p
    for p in python3 /usr/bin/python3; do
        if on_path "$p" && "$p" -c 'import ensurepip, venv' >/dev/null 2>&1; then
            command -v "$p"
            return 0
        fi
    done
    return 1
}

venv=target/venv-dask
# What the virtual environment was last filled from: the package's files.
venv_stamp=$venv/.playstyles-dask-source
source_hash() {
    cat python/pyproject.toml python/README.md python/playstyles_dask/*.py | sha256sum | cut -d' ' -f1
}
need_venv=0
if [ -n "${PLAYSTYLES_PYTHON:-}" ]; then
    on_path "$PLAYSTYLES_PYTHON" || { say "error: PLAYSTYLES_PYTHON=$PLAYSTYLES_PYTHON is not a program"; exit 2; }
else
    if ! "$venv/bin/python" -c '' >/dev/null 2>&1 \
        || [ "$(cat "$venv_stamp" 2>/dev/null)" != "$(source_hash)" ]; then
        need_venv=1
    fi
fi

packages=()
has_browser || packages+=(chromium)
for c in sbatch srun squeue sinfo scancel slurmctld slurmd; do
    if ! on_path "$c"; then
        packages+=(slurm-wlm)
        break
    fi
done
on_path munged || packages+=(munge)
if [ $need_venv -eq 1 ] && ! venv_maker >/dev/null; then
    packages+=(python3-venv)
fi

if [ ${#packages[@]} -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        on_path sudo || { say "error: installing ${packages[*]} needs root or sudo"; exit 2; }
        sudo=sudo
    fi
    say "installing Debian packages: ${packages[*]}"
    $sudo apt-get update -q
    # No recommends: they would bring systemd, perl, avahi and Slurm's plugins, none of which
    # the tests use.
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${packages[@]}"
fi

if [ $need_venv -eq 1 ]; then
    if ! "$venv/bin/python" -c '' >/dev/null 2>&1; then
        maker=$(venv_maker) || { say "error: no python3 that can make a virtual environment"; exit 2; }
        say "making the virtual environment $venv (with $maker)"
        rm -rf "$venv"
        "$maker" -m venv "$venv"
    fi
    say "installing python/ (playstyles_dask and Dask) into $venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check ./python
    source_hash >"$venv_stamp"
fi

if [ "$(id -u)" -ne 0 ]; then
    say "warning: not root, so the Slurm tests (tests/cluster.rs) will fail: their slurmd must run as root"
fi
if [ ${#packages[@]} -eq 0 ] && [ $need_venv -eq 0 ]; then
    say "Chromium, Slurm, munge and the Dask environment are there"
fi
exec cargo test "$@"
