"""``python -m playstyles_dask RUN_DIR``: a whole playstyles run through Dask."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import List, Optional

from . import PlaystylesError, default_binary, evolve


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m playstyles_dask",
        description="Run playstyles ask / work / tell until the schedule is finished, "
        "playing each batch on Dask workers. Prints tell's summary line per batch.",
    )
    parser.add_argument("run_dir", metavar="RUN_DIR", help="the run directory")
    parser.add_argument("--config", metavar="FILE", help="run config (TOML) for a new run")
    parser.add_argument(
        "--workers", type=int, metavar="N",
        help="worker processes of the local cluster (default: one per core)",
    )
    parser.add_argument(
        "--shards", type=int, metavar="N",
        help="chunks per batch (default: the number of worker threads)",
    )
    parser.add_argument(
        "--threads", type=int, default=1, metavar="T",
        help="threads for each `playstyles work` (default: 1)",
    )
    parser.add_argument(
        "--binary", metavar="PATH",
        help=f"the playstyles binary (default: $PLAYSTYLES or playstyles; now {default_binary()})",
    )
    parser.add_argument(
        "--scheduler", metavar="ADDRESS",
        help="connect to this Dask scheduler instead of starting a local cluster",
    )
    args = parser.parse_args(argv)

    def show(tasks: Path, summary: str) -> None:
        print(summary or f"told {tasks}", flush=True)

    try:
        if args.scheduler:
            from distributed import Client

            with Client(args.scheduler) as client:
                told = evolve(args.run_dir, client, args.shards, args.config,
                              args.binary, args.threads, show)
        else:
            from distributed import Client, LocalCluster

            with LocalCluster(
                n_workers=args.workers, threads_per_worker=1, processes=True,
                dashboard_address=None,
            ) as cluster, Client(cluster) as client:
                told = evolve(args.run_dir, client, args.shards, args.config,
                              args.binary, args.threads, show)
    except PlaystylesError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{told} batches told; the schedule is finished", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
