"""What the analysis scripts beside this file (holds.py, spread.py, regrid.py) read from a run
directory: a CSV's rows and the feature axes of its `config.toml`."""
import csv
import os
import tomllib


def rows(run, name):
    """The rows of the run's CSV file `name` as dicts keyed by its header; none if the run has
    no such file (`reevaluate` or `validate` not run yet)."""
    path = os.path.join(run, name)
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def feature_specs(run):
    """The `[[features]]` tables of the run's `config.toml`, in axis order."""
    with open(os.path.join(run, "config.toml"), "rb") as f:
        return tomllib.load(f).get("features", [])
