"""What the analysis scripts beside this file (holds.py, spread.py, regrid.py) share: what they
read from a run directory (a CSV's rows, the feature axes of its `config.toml`) and the
markdown table they print."""
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


def run_name(run):
    """The run directory as the tables name it: normalised, in backticks."""
    return f"`{os.path.normpath(run)}`"


def print_table(header, table_rows):
    """A markdown table: the `header` cells, the separator line, then each row's cells."""
    def line(cells):
        return "| " + " | ".join(str(c) for c in cells) + " |"

    print(line(header))
    print("|" + "---|" * len(header))
    for cells in table_rows:
        print(line(cells))
