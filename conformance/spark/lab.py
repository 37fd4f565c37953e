"""The streamlab side: run lab scripts with the built binary and read what they wrote.

Everything here goes through the command line a learner uses: `streamlab run SCRIPT
--format json --db DB --dump-source FILE`, its exit status and error, the report,
the SQLite file the table sink kept and the dumped source.
"""

import collections
import json
import os
import sqlite3
import subprocess


class LabRun:
    """One `streamlab run`: exit status, error text, report, table rows, dumped source."""

    def __init__(self, rc, err, report, results, events, source):
        self.rc = rc
        self.err = err
        self.report = report  # dict, or None when the script was refused
        self.results = results  # rows of table results: (window_start, window_end, key, value)
        self.events = events  # rows of table events: (id, time, action)
        self.source = source  # the dumped source, one dict per event, in offset order

    def get(self, dotted):
        v = self.report
        for part in dotted.split("."):
            v = v[part]
        return v


class Lab:
    def __init__(self, binary, work, log):
        self.binary = binary
        self.work = work
        self.log = log
        self.runs = 0
        self.done = {}

    def run(self, name, script, files=None):
        """Run SCRIPT (text) in a directory of its own, with FILES (name -> text) beside it. The
        same script with the same files is run once (the lab is deterministic)."""
        key = (script, tuple(sorted((files or {}).items())))
        if key not in self.done:
            self.done[key] = self._run(name, script, files)
        return self.done[key]

    def _run(self, name, script, files):
        self.runs += 1
        d = os.path.join(self.work, "lab", "%s-%d" % (name, self.runs))
        os.makedirs(d, exist_ok=True)
        for fname, text in (files or {}).items():
            with open(os.path.join(d, fname), "w") as f:
                f.write(text)
        path = os.path.join(d, "script.lab")
        with open(path, "w") as f:
            f.write(script)
        db = os.path.join(d, "sink.db")
        dump = os.path.join(d, "source.jsonl")
        p = subprocess.run(
            [self.binary, "run", path, "--format", "json", "--db", db, "--dump-source", dump, "--force"],
            capture_output=True, text=True, timeout=300)
        self.log("lab %s: exit %d %s" % (d, p.returncode, p.stderr.strip()))
        report = None
        if p.stdout.strip():
            report = json.loads(p.stdout)
        results, events = [], []
        if os.path.exists(db):
            con = sqlite3.connect(db)
            names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "results" in names:
                results = [tuple(r) for r in con.execute(
                    "SELECT window_start, window_end, key, value FROM results "
                    "ORDER BY window_start, key, value")]
            if "events" in names:
                events = [(str(r[0]), r[1], r[2]) for r in con.execute(
                    'SELECT id, time, action FROM events ORDER BY "offset"')]
            con.close()
        source = []
        if os.path.exists(dump):
            with open(dump) as f:
                source = [json.loads(line) for line in f if line.strip()]
        return LabRun(p.returncode, p.stderr.strip(), report, results, events, source)


def multiset_minus(after, before):
    """The rows of AFTER that BEFORE does not hold, counting repeats (an appended table)."""
    left = collections.Counter(before)
    out = []
    for r in after:
        if left[r] > 0:
            left[r] -= 1
        else:
            out.append(r)
    return sorted(out, key=repr)


def trigger_rows(tables, mode):
    """The rows each trigger wrote, from the table after each trigger.

    append: the rows added (the table only grows); update: the rows that are new or hold a new
    value (a count only grows, so a written row always differs from the one it replaced);
    complete: the whole table, which each trigger rewrites.
    """
    out, before = [], []
    for t in tables:
        if mode == "complete":
            out.append(sorted(t, key=repr))
        else:
            out.append(multiset_minus(t, before))
        before = t
    return out
