"""Run a playstyles MAP-Elites run through Dask.

The ``playstyles`` binary does the evolution in three steps, and this package
only moves text between them:

* ``playstyles ask RUN_DIR`` writes the next batch of games to a
  ``tasks.jsonl`` file and prints its path;
* ``playstyles work - --shard 0/1`` plays task lines read from stdin and prints
  one result line per game; here each Dask task runs it on one chunk;
* ``playstyles tell RUN_DIR`` reads every ``results/*.jsonl`` beside the tasks
  file and updates the archive.

Only the machine that calls :func:`evolve` touches the run directory; Dask
workers need the ``playstyles`` binary (and this package) but no shared
file system.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Callable, List, Optional, Union

__all__ = [
    "PlaystylesError",
    "default_binary",
    "split_tasks",
    "work_shard",
    "run_batch",
    "evolve",
]

__version__ = "0.1.0"

PathLike = Union[str, "os.PathLike[str]"]

# Exit status of `playstyles ask` when the schedule is finished.
ASK_FINISHED = 3


class PlaystylesError(RuntimeError):
    """A ``playstyles`` subcommand failed; the message holds its stderr."""


def default_binary() -> str:
    """``$PLAYSTYLES`` if set, else ``playstyles`` (looked up on PATH)."""
    return os.environ.get("PLAYSTYLES") or "playstyles"


def _resolve_binary(binary: Optional[str]) -> str:
    binary = binary or default_binary()
    # A path with a directory in it is made absolute, so that worker
    # processes started elsewhere (another cwd) still find it.
    if os.sep in binary or (os.altsep and os.altsep in binary):
        binary = os.path.abspath(binary)
    return binary


def _run(cmd: List[str], stdin: Optional[str] = None) -> "subprocess.CompletedProcess[str]":
    try:
        return subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    except OSError as e:  # binary missing or not executable
        raise PlaystylesError(f"cannot run {cmd[0]}: {e}") from None


def _failure(what: str, proc: "subprocess.CompletedProcess[str]") -> PlaystylesError:
    stderr = (proc.stderr or "").strip()
    return PlaystylesError(f"{what} exited with status {proc.returncode}: {stderr}")


def work_shard(tasks_text: str, binary: str = "playstyles", threads: int = 1) -> str:
    """Play the task lines in ``tasks_text``; return the result lines.

    Runs ``binary work - --shard 0/1 --threads T`` with the text on stdin.
    The shard is always given explicitly: a Dask worker may live inside a
    Slurm job, whose ``SLURM_*`` variables would otherwise pick a shard.
    Raises :class:`PlaystylesError` (with the binary's stderr) on a non-zero
    exit, or when the number of result lines differs from the number of task
    lines. This is the function Dask runs on a worker.
    """
    cmd = [binary, "work", "-", "--shard", "0/1", "--threads", str(threads)]
    proc = _run(cmd, tasks_text)
    if proc.returncode != 0:
        raise _failure(" ".join(cmd), proc)
    n_tasks = sum(1 for line in tasks_text.splitlines() if line.strip())
    n_results = sum(1 for line in proc.stdout.splitlines() if line.strip())
    if n_results != n_tasks:
        raise PlaystylesError(
            f"{' '.join(cmd)} printed {n_results} result lines for {n_tasks} tasks"
        )
    return proc.stdout


def split_tasks(tasks_text: str, shards: int) -> List[str]:
    """Split task lines into ``shards`` chunks: line k goes to chunk k % shards.

    Blank lines are dropped; every chunk ends with a newline. Chunks may be
    empty (more shards than lines).
    """
    if shards < 1:
        raise ValueError(f"shards must be at least 1, not {shards}")
    lines = [line for line in tasks_text.splitlines() if line.strip()]
    return ["".join(line + "\n" for line in lines[i::shards]) for i in range(shards)]


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    try:  # make the rename itself durable
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_DASK_RESULT = re.compile(r"^dask-(\d+)-of-(\d+)\.jsonl$")


def _existing_split(results: Path) -> Optional[int]:
    """The shard count of dask result files already in ``results``, if any."""
    if not results.is_dir():
        return None
    counts = {int(m.group(2)) for m in map(_DASK_RESULT.match, os.listdir(results)) if m}
    if len(counts) > 1:
        raise PlaystylesError(
            f"{results} holds dask results split {sorted(counts)} ways; remove all but one split"
        )
    return counts.pop() if counts else None


def run_batch(
    tasks_path: PathLike,
    client,
    shards: int,
    binary: str = "playstyles",
    threads: int = 1,
) -> int:
    """Play one batch on ``client``'s workers; return how many chunks ran.

    The lines of ``tasks_path`` are split into ``shards`` chunks (line k goes
    to chunk k % shards; empty chunks are skipped). Chunk I's output is
    written atomically to ``results/dask-I-of-N.jsonl`` beside the tasks file
    as soon as its future completes. A chunk whose result file already exists
    is not run again (resume after a crash); if an earlier attempt split the
    batch another way, its split is kept. If chunks fail, the others are still
    written, then the first failure is raised.
    """
    from distributed import as_completed

    tasks_path = Path(tasks_path)
    results = tasks_path.parent / "results"
    earlier = _existing_split(results)
    if earlier is not None and earlier != shards:
        print(
            f"{results}: keeping the earlier {earlier}-way split, not {shards}",
            file=sys.stderr,
        )
        shards = earlier
    chunks = split_tasks(tasks_path.read_text(encoding="utf-8"), shards)
    results.mkdir(exist_ok=True)

    batch = tasks_path.parent.name
    token = uuid.uuid4().hex[:8]  # a fresh key per attempt, never a stale future
    futures = {}
    for i, chunk in enumerate(chunks):
        out = results / f"dask-{i}-of-{shards}.jsonl"
        if not chunk or out.exists():
            continue
        future = client.submit(
            work_shard,
            chunk,
            binary,
            threads,
            key=f"playstyles-work-batch-{batch}-shard-{i}-of-{shards}-{token}",
            pure=False,
        )
        futures[future] = out

    errors = []
    for future in as_completed(list(futures)):
        try:
            text = future.result()
        except Exception as e:  # keep the chunks that did finish
            errors.append(e)
            continue
        _write_atomic(futures[future], text)
    if errors:
        raise errors[0]
    return len(futures)


def _worker_threads(client) -> int:
    """Threads of all connected workers (waits for a first worker)."""
    if not client.nthreads():
        client.wait_for_workers(1)
    return sum(client.nthreads().values())


def evolve(
    run_dir: PathLike,
    client=None,
    shards: Optional[int] = None,
    config: Optional[PathLike] = None,
    binary: Optional[str] = None,
    threads: int = 1,
    on_batch: Optional[Callable[[Path, str], None]] = None,
) -> int:
    """Ask, play through Dask, and tell until the schedule is finished.

    Returns the number of batches told. With ``client=None`` a ``LocalCluster``
    of ``shards or os.cpu_count()`` worker processes (one thread each) is
    started and closed. ``shards`` defaults to the number of worker threads
    connected when each batch starts (one task runs per worker thread). Each
    ``work`` runs with ``threads`` threads. ``binary`` defaults to
    ``$PLAYSTYLES`` or ``playstyles`` on PATH. ``on_batch(tasks_path,
    summary)`` is called after each tell with tell's summary line. Raises
    :class:`PlaystylesError` when ask, work or tell fails. Calling it again
    on the same ``run_dir`` resumes the run.
    """
    binary = _resolve_binary(binary)
    if client is None:
        from distributed import Client, LocalCluster

        n = shards or os.cpu_count() or 1
        with LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster, Client(cluster) as local_client:
            return evolve(run_dir, local_client, shards, config, binary, threads, on_batch)

    ask = [binary, "ask", os.fspath(run_dir)]
    if config is not None:
        ask += ["--config", os.fspath(config)]
    tell = [binary, "tell", os.fspath(run_dir)]
    told = 0
    previous = None
    while True:
        proc = _run(ask)
        if proc.returncode == ASK_FINISHED:
            return told
        if proc.returncode != 0:
            raise _failure(" ".join(ask), proc)
        tasks = proc.stdout.strip()
        if not tasks or "\n" in tasks:
            raise PlaystylesError(f"{' '.join(ask)} printed {proc.stdout!r}, not one path")
        if tasks == previous:
            raise PlaystylesError(f"ask gave {tasks} again after it was told")
        tasks_path = Path(tasks)
        run_batch(tasks_path, client, shards or _worker_threads(client), binary, threads)
        proc = _run(tell)
        if proc.returncode != 0:
            raise _failure(" ".join(tell), proc)
        told += 1
        previous = tasks
        if on_batch is not None:
            on_batch(tasks_path, proc.stdout.strip())
