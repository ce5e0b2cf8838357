#!/usr/bin/env python3
"""A stand-in for the ``playstyles`` binary's ask / work / tell contract.

The run lasts ``batches`` batches of ``tasks`` games (3 and 7, or from the
``--config`` file's ``key = value`` lines). A task line is
``{"batch": b, "task": k}`` and its result ``{"batch": b, "task": k,
"result": k*k}``. Environment: MOCK_FAIL_WORK=1 makes ``work`` fail;
MOCK_WORK_LOG=FILE appends one line per ``work`` call (the tasks it played).
"""

import json
import os
import sys


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def option(args, name, default=None):
    if name in args:
        i = args.index(name)
        if i + 1 >= len(args):
            fail(f"{name} needs a value")
        return args[i + 1]
    return default


def write_atomic(path, text):
    tmp = os.path.join(os.path.dirname(path), "." + os.path.basename(path) + ".tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def load_state(run_dir):
    with open(os.path.join(run_dir, "state.json")) as f:
        return json.load(f)


def tasks_path(run_dir, batch):
    return os.path.join(run_dir, "batches", f"{batch:06d}", "tasks.jsonl")


def ask(args):
    run_dir = args[0]
    state_file = os.path.join(run_dir, "state.json")
    if not os.path.exists(state_file):
        state = {"batches": 3, "tasks": 7, "batch": 0}
        config = option(args, "--config")
        if config is not None:
            with open(config) as f:
                for line in f:
                    if "=" in line:
                        key, value = (s.strip() for s in line.split("=", 1))
                        state[key] = int(value)
        os.makedirs(run_dir, exist_ok=True)
        write_atomic(state_file, json.dumps(state))
    state = load_state(run_dir)
    b = state["batch"]
    if b >= state["batches"]:
        print("the schedule is finished", file=sys.stderr)
        sys.exit(3)
    path = tasks_path(run_dir, b)
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        lines = "".join(json.dumps({"batch": b, "task": k}) + "\n" for k in range(state["tasks"]))
        write_atomic(path, lines)
    print(path)


def play(line):
    task = json.loads(line)
    return json.dumps({"batch": task["batch"], "task": task["task"], "result": task["task"] ** 2})


def work(args):
    source = args[0]
    shard = option(args, "--shard")
    if source == "-" and shard is None:
        fail("the mock insists on an explicit --shard with stdin")
    i, n = (int(x) for x in (shard or "0/1").split("/"))
    text = sys.stdin.read() if source == "-" else open(source).read()
    lines = [l for l in text.splitlines() if l.strip()]
    lines = [l for k, l in enumerate(lines) if k % n == i]
    if os.environ.get("MOCK_FAIL_WORK"):
        fail(f"boom: the mock was told to fail on {len(lines)} tasks")
    log = os.environ.get("MOCK_WORK_LOG")
    if log:
        with open(log, "a") as f:
            f.write(json.dumps([json.loads(l)["task"] for l in lines]) + "\n")
    out = "".join(play(l) + "\n" for l in lines)
    if source == "-":
        sys.stdout.write(out)
    else:
        results = os.path.join(os.path.dirname(source), "results")
        os.makedirs(results, exist_ok=True)
        write_atomic(os.path.join(results, f"shard-{i}-of-{n}.jsonl"), out)


def tell(args):
    run_dir = args[0]
    state = load_state(run_dir)
    b = state["batch"]
    path = tasks_path(run_dir, b)
    if not os.path.exists(path):
        print("nothing to tell", file=sys.stderr)
        return
    results = os.path.join(os.path.dirname(path), "results")
    counts = {}
    for name in sorted(os.listdir(results)) if os.path.isdir(results) else []:
        if name.startswith(".") or not name.endswith(".jsonl"):
            continue
        with open(os.path.join(results, name)) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    if r["batch"] != b or not 0 <= r["task"] < state["tasks"]:
                        fail(f"{name}: foreign result {line.strip()}")
                    counts[r["task"]] = counts.get(r["task"], 0) + 1
    missing = [k for k in range(state["tasks"]) if counts.get(k, 0) == 0]
    twice = [k for k, c in counts.items() if c > 1]
    if missing or twice:
        fail(f"batch {b}: missing results for tasks {missing}, more than one for {twice}")
    state["batch"] = b + 1
    write_atomic(os.path.join(run_dir, "state.json"), json.dumps(state))
    print(f"batch {b}: told {state['tasks']} results")


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("ask", "work", "tell"):
        fail("usage: mock_playstyles.py ask|work|tell ARG [OPTIONS]")
    {"ask": ask, "work": work, "tell": tell}[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
