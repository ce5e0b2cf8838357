"""Tests of playstyles_dask against a mock playstyles binary (tests/mock_playstyles.py).

Run from the repository root: python -m unittest discover -s python/tests -v
"""

import json
import os
import shlex
import stat
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from distributed import Client, LocalCluster

import playstyles_dask
from playstyles_dask import PlaystylesError, evolve, run_batch, split_tasks, work_shard

MOCK = Path(__file__).resolve().with_name("mock_playstyles.py")


def mock_binary(directory: Path, name: str, **env: str) -> str:
    """A shell wrapper running the mock with this Python and the given environment."""
    path = directory / name
    exports = "".join(f"export {k}={shlex.quote(v)}\n" for k, v in env.items())
    path.write_text(
        f"#!/bin/sh\n{exports}exec {shlex.quote(sys.executable)} {shlex.quote(str(MOCK))} \"$@\"\n"
    )
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(path)


def results_for(tasks):
    return "".join(
        json.dumps({"batch": t["batch"], "task": t["task"], "result": t["task"] ** 2}) + "\n"
        for t in tasks
    )


class WithCluster(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster = LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        )
        cls.client = Client(cls.cluster)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = Path(self._tmp.name)
        self.log = self.tmp / "work.log"
        self.binary = mock_binary(self.tmp, "playstyles", MOCK_WORK_LOG=str(self.log))
        self.run_dir = self.tmp / "run"

    def tearDown(self):
        self._tmp.cleanup()

    def work_calls(self):
        if not self.log.exists():
            return []
        return sorted(json.loads(line) for line in self.log.read_text().splitlines())

    def ask(self):
        out = subprocess.run(
            [self.binary, "ask", str(self.run_dir)], capture_output=True, text=True, check=True
        )
        return Path(out.stdout.strip())

    def tell(self):
        return subprocess.run(
            [self.binary, "tell", str(self.run_dir)], capture_output=True, text=True
        )


class EvolveTest(WithCluster):
    def test_evolve_tells_every_batch_through_local_cluster(self):
        seen = []
        told = evolve(
            self.run_dir, self.client, binary=self.binary,
            on_batch=lambda path, summary: seen.append((path, summary)),
        )
        self.assertEqual(told, 3)
        self.assertEqual([s for _, s in seen], [f"batch {b}: told 7 results" for b in range(3)])
        for b in range(3):
            results = self.run_dir / "batches" / f"{b:06d}" / "results"
            self.assertEqual(sorted(os.listdir(results)), ["dask-0-of-2.jsonl", "dask-1-of-2.jsonl"])
        # two shards (one per worker) per batch: line k went to chunk k % 2
        self.assertEqual(self.work_calls(), [[0, 2, 4, 6]] * 3 + [[1, 3, 5]] * 3)
        # the schedule is finished: a second evolve tells nothing
        self.assertEqual(evolve(self.run_dir, self.client, binary=self.binary), 0)

    def test_config_is_passed_to_ask(self):
        config = self.tmp / "run.toml"
        config.write_text("batches = 2\ntasks = 3\n")
        told = evolve(self.run_dir, self.client, shards=5, config=config, binary=self.binary)
        self.assertEqual(told, 2)
        # 3 tasks in 5 shards: the two empty chunks are not submitted
        self.assertEqual(self.work_calls(), [[0], [0], [1], [1], [2], [2]])


class OwnClusterTest(unittest.TestCase):
    def test_evolve_without_client_starts_and_closes_a_local_cluster(self):
        with tempfile.TemporaryDirectory() as tmp:
            binary = mock_binary(Path(tmp), "playstyles")
            self.assertEqual(evolve(Path(tmp) / "run", shards=2, binary=binary), 3)
            results = Path(tmp) / "run" / "batches" / "000002" / "results"
            self.assertEqual(sorted(os.listdir(results)), ["dask-0-of-2.jsonl", "dask-1-of-2.jsonl"])


class ResumeTest(WithCluster):
    def test_existing_chunk_result_is_not_recomputed(self):
        tasks_path = self.ask()
        tasks = [json.loads(l) for l in tasks_path.read_text().splitlines()]
        results = tasks_path.parent / "results"
        results.mkdir()
        done = results / "dask-0-of-2.jsonl"
        done.write_text(results_for(tasks[0::2]))
        before = done.stat().st_mtime_ns

        self.assertEqual(run_batch(tasks_path, self.client, 2, self.binary), 1)
        self.assertEqual(self.work_calls(), [[1, 3, 5]])
        self.assertEqual(done.stat().st_mtime_ns, before)
        self.assertEqual((results / "dask-1-of-2.jsonl").read_text(), results_for(tasks[1::2]))
        self.assertEqual(self.tell().returncode, 0)

    def test_earlier_split_is_kept(self):
        tasks_path = self.ask()
        tasks = [json.loads(l) for l in tasks_path.read_text().splitlines()]
        results = tasks_path.parent / "results"
        results.mkdir()
        (results / "dask-1-of-3.jsonl").write_text(results_for(tasks[1::3]))

        self.assertEqual(run_batch(tasks_path, self.client, 2, self.binary), 2)
        self.assertEqual(self.work_calls(), [[0, 3, 6], [2, 5]])
        self.assertEqual(self.tell().returncode, 0)

    def test_evolve_resumes_a_half_played_batch(self):
        tasks_path = self.ask()
        tasks = [json.loads(l) for l in tasks_path.read_text().splitlines()]
        (tasks_path.parent / "results").mkdir()
        (tasks_path.parent / "results" / "dask-1-of-2.jsonl").write_text(results_for(tasks[1::2]))
        self.assertEqual(evolve(self.run_dir, self.client, binary=self.binary), 3)
        self.assertEqual(self.work_calls(), [[0, 2, 4, 6]] * 3 + [[1, 3, 5]] * 2)


class FailureTest(WithCluster):
    def test_failing_work_raises_with_its_stderr(self):
        tasks_path = self.ask()
        failing = mock_binary(self.tmp, "failing", MOCK_FAIL_WORK="1")
        with self.assertRaises(PlaystylesError) as caught:
            run_batch(tasks_path, self.client, 2, failing)
        self.assertIn("error: boom: the mock was told to fail", str(caught.exception))
        self.assertFalse(list((tasks_path.parent / "results").glob("dask-*")))
        # evolve stops there too, without telling
        with self.assertRaises(PlaystylesError) as caught:
            evolve(self.run_dir, self.client, binary=failing)
        self.assertIn("boom", str(caught.exception))
        self.assertNotEqual(self.tell().returncode, 0)

    def test_work_shard_raises_with_stderr(self):
        failing = mock_binary(self.tmp, "failing", MOCK_FAIL_WORK="1")
        with self.assertRaisesRegex(PlaystylesError, "boom: the mock was told to fail on 1 tasks"):
            work_shard('{"batch":0,"task":1}\n', failing)

    def test_missing_binary_raises(self):
        with self.assertRaisesRegex(PlaystylesError, "cannot run"):
            evolve(self.run_dir, self.client, binary=str(self.tmp / "nowhere"))


class UnitTest(unittest.TestCase):
    def test_split_tasks_deals_line_k_to_chunk_k_mod_n(self):
        text = "a\nb\n\nc\nd\ne\n"
        self.assertEqual(split_tasks(text, 2), ["a\nc\ne\n", "b\nd\n"])
        self.assertEqual(split_tasks(text, 1), ["a\nb\nc\nd\ne\n"])
        self.assertEqual(split_tasks("a\nb", 3), ["a\n", "b\n", ""])
        with self.assertRaises(ValueError):
            split_tasks(text, 0)

    def test_work_shard_passes_explicit_shard_despite_slurm_environment(self):
        with tempfile.TemporaryDirectory() as tmp:
            binary = mock_binary(
                Path(tmp), "playstyles", SLURM_ARRAY_TASK_ID="3", SLURM_ARRAY_TASK_COUNT="4"
            )
            tasks = [{"batch": 0, "task": k} for k in range(3)]
            text = "".join(json.dumps(t) + "\n" for t in tasks)
            self.assertEqual(work_shard(text, binary, threads=2), results_for(tasks))

    def test_default_binary_from_environment(self):
        old = os.environ.pop("PLAYSTYLES", None)
        try:
            self.assertEqual(playstyles_dask.default_binary(), "playstyles")
            os.environ["PLAYSTYLES"] = "/opt/ps"
            self.assertEqual(playstyles_dask.default_binary(), "/opt/ps")
        finally:
            os.environ.pop("PLAYSTYLES", None)
            if old is not None:
                os.environ["PLAYSTYLES"] = old


class CommandLineTest(unittest.TestCase):
    def test_module_runs_a_whole_evolve_with_two_workers(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            binary = mock_binary(tmp, "playstyles")
            config = tmp / "run.toml"
            config.write_text("batches = 3\ntasks = 4\n")
            run_dir = tmp / "run"
            cmd = [sys.executable, "-m", "playstyles_dask", str(run_dir), "--config", str(config),
                   "--workers", "2", "--binary", binary]
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(out.stdout.splitlines(), [f"batch {b}: told 4 results" for b in range(3)])
            for b in range(3):
                results = run_dir / "batches" / f"{b:06d}" / "results"
                self.assertEqual(sorted(os.listdir(results)), ["dask-0-of-2.jsonl", "dask-1-of-2.jsonl"])

    def test_module_exits_2_on_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            binary = mock_binary(Path(tmp), "failing", MOCK_FAIL_WORK="1")
            cmd = [sys.executable, "-m", "playstyles_dask", str(Path(tmp) / "run"),
                   "--workers", "1", "--binary", binary]
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            self.assertEqual(out.returncode, 2)
            self.assertEqual(out.stdout, "")
            self.assertIn("boom", out.stderr)


if __name__ == "__main__":
    unittest.main()
