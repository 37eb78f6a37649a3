#!/usr/bin/python3
"""Plots of an `augur compare` results.csv (called by `augur compare`).

Usage: plot_compare.py RESULTS_CSV OUT_DIR
Writes OUT_DIR/speedup.png (speed-up over the single-node baseline vs nodes,
one line per policy; none when no run has one: a diverged baseline) and
OUT_DIR/quality_time.png (training loss per epoch against cumulative time:
every policy at its largest node count, and the baseline as one node with a
cluster node's cores at its measured CPU time). Uses only the standard library
and Debian's python3-matplotlib.
A malformed results.csv is one line on stderr naming the file, the line and
the column, and exit code 2.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


# Columns every row needs, and how each is read.
REQUIRED = ("run", "backend", "workload", "policy", "nodes", "workers_per_node",
            "speedup_over_single", "epoch_seconds")


class BadCell(Exception):
    """A results.csv cell that cannot be read: (line, column, value, what it should be)."""


class Row:
    """One results.csv row with typed, checked access to its cells."""

    def __init__(self, cells, line):
        self.cells, self.line = cells, line

    def text(self, column):
        value = self.cells.get(column)
        if value is None:
            raise BadCell(self.line, column, None, None)
        return value

    def integer(self, column):
        value = self.text(column)
        try:
            n = int(value)
        except ValueError:
            raise BadCell(self.line, column, value, "a whole number") from None
        if n < 1:
            raise BadCell(self.line, column, value, "a whole number >= 1")
        return n

    def number(self, column):
        value = self.text(column)
        try:
            return float(value)
        except ValueError:
            raise BadCell(self.line, column, value, "a number") from None

    def numbers(self, column):
        """A ';'-joined list of numbers; an absent or empty cell is none."""
        value = self.cells.get(column) or ""
        try:
            return [float(x) for x in value.split(";") if x != ""]
        except ValueError:
            raise BadCell(self.line, column, value, "numbers joined by ';'") from None


def read_rows(path):
    """The rows of results.csv, each checked for the columns the plots need."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
        if reader.fieldnames and missing:
            raise BadCell(1, missing[0], None, "header")
        rows = []
        for cells in reader:
            row = Row(cells, reader.line_num)
            for column in REQUIRED:
                row.text(column)  # a short row lacks cells
            row.integer("nodes")
            row.integer("workers_per_node")
            if row.text("speedup_over_single") != "":
                row.number("speedup_over_single")
            row.numbers("epoch_seconds")
            row.numbers("epoch_cpu_seconds")
            row.numbers("train_loss_per_epoch")
            rows.append(row)
        return rows


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: plot_compare.py RESULTS_CSV OUT_DIR\n")
        return 2
    path, out = argv[1], argv[2]
    try:
        rows = read_rows(path)
    except OSError as e:
        sys.stderr.write(f"plot_compare.py: cannot read {path}: {e}\n")
        return 1
    except (csv.Error, UnicodeDecodeError) as e:
        sys.stderr.write(f"plot_compare.py: {path}: not a readable CSV file: {e}\n")
        return 2
    except BadCell as e:
        line, column, value, expected = e.args
        if expected == "header":
            what = f"the header has no column '{column}'"
        elif expected is None:
            what = f"column '{column}' has no value (the row is short)"
        else:
            what = f"column '{column}' must be {expected}, got {value!r}"
        sys.stderr.write(f"plot_compare.py: {path}:{line}: {what}\n")
        return 2
    if not rows:
        sys.stderr.write(f"plot_compare.py: {path} has no rows\n")
        return 2
    try:
        return plot(rows, out)
    except OSError as e:
        sys.stderr.write(f"plot_compare.py: cannot write the plots into {out}: {e}\n")
        return 1


def plot_speedup(runs, policies, title, out):
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for p in policies:
        pts = sorted((r.integer("nodes"), r.number("speedup_over_single")) for r in runs
                     if r.text("policy") == p and r.text("speedup_over_single") != "")
        ax.plot([n for n, _ in pts], [s for _, s in pts], marker="o", label=p)
    ax.axhline(1.0, color="grey", linewidth=0.8, linestyle="--", label="single node")
    ax.set_xlabel("nodes")
    ax.set_ylabel("speed-up over the single-node baseline")
    ax.set_title(f"Speed-up per policy ({title})")
    ax.set_xscale("log", base=2)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(f"{out}/speedup.png", dpi=110)
    plt.close(fig)


def plot(rows, out):
    runs = [r for r in rows if r.text("policy") != "single"]
    base = [r for r in rows if r.text("policy") == "single"]
    policies = list(dict.fromkeys(r.text("policy") for r in runs))
    title = f"{rows[0].text('workload')} on {runs[0].text('backend') if runs else 'single'}"

    # No speed-up (a diverged baseline is no reference): no speed-up plot,
    # and none left over from an earlier comparison in the same directory.
    if any(r.text("speedup_over_single") != "" for r in runs):
        plot_speedup(runs, policies, title, out)
    elif os.path.exists(f"{out}/speedup.png"):
        os.remove(f"{out}/speedup.png")

    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    largest = max((r.integer("nodes") for r in runs), default=1)
    cores = runs[0].integer("workers_per_node") if runs else 1
    for r in base + [r for r in runs if r.integer("nodes") == largest]:
        times = r.numbers("epoch_seconds")
        if r.text("policy") == "single" and r.numbers("epoch_cpu_seconds"):
            # The baseline as the speed-up column counts it: one node with as
            # many cores as a cluster node has workers, at its measured cost.
            times = [c / cores for c in r.numbers("epoch_cpu_seconds")]
        loss = r.numbers("train_loss_per_epoch")
        if not times or len(loss) != len(times):
            continue
        t, cumulative = 0.0, []
        for s in times:
            t += s
            cumulative.append(t)
        label = (f"single node ({cores} cores)" if r.text("policy") == "single"
                 else f"{r.text('policy')}, {largest} nodes")
        ax.plot(cumulative, loss, marker="o", label=label)
    ax.set_xlabel(f"time (s; simulated for sim runs; the baseline's CPU time over {cores} cores)")
    ax.set_ylabel("training loss per epoch")
    ax.set_title(f"Quality over time ({title})")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(f"{out}/quality_time.png", dpi=110)
    plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
