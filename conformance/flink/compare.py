"""Sets what streamlab did beside what Flink did, one table row a scenario.

usage: compare.py SCENARIOS_DIR OUT_DIR FLINK_LOG

OUT_DIR holds lab/NAME.json (the lab's report; .stderr, .exit, .db and the
dumped source .jsonl beside it), flink/NAME.json (the MiniCluster tests) and
pyflink/NAME.json (the job-start scenarios); FLINK_LOG is the MiniCluster's
log, in which the job master names the restart strategy it chose for each
job. Every number in a row is read
from those files; the failure-free result both sides are held to is
computed here from the lab's dumped source. Prints
| flink | scenario | streamlab | real engine | agree | on standard output.
"""

import collections
import json
import os
import re
import sqlite3
import sys

WINDOW_MS = 10_000

SCEN, OUT, FLINK_LOG = sys.argv[1], sys.argv[2], sys.argv[3]

KINDS = {"ExponentialDelay": "exponential-delay", "FixedDelay": "fixed-delay",
         "FailureRate": "failure-rate", "No": "none"}


def chosen_strategy(job):
    """The restart strategy Flink's job master logged for a job, and its lab name."""
    if not os.path.exists(FLINK_LOG):
        return "", "unknown"
    pat = re.compile(r"Using restart back off time strategy (\w+RestartBackoffTimeStrategy(?:\(.*\))?) for (\S+) \(")
    with open(FLINK_LOG) as f:
        for line in f:
            m = pat.search(line)
            if m and m.group(2) == job:
                cls = m.group(1)
                return cls, KINDS.get(cls.split("RestartBackoffTimeStrategy")[0], "unknown")
    return "", "unknown"


def job_states(job):
    """Flink's failures and restarts of a job, from its state changes in the log."""
    failures = restarts = 0
    pat = re.compile(r"Job (\S+) \(\w+\) switched from state (\w+) to (\w+)\.")
    if os.path.exists(FLINK_LOG):
        with open(FLINK_LOG) as f:
            for line in f:
                m = pat.search(line)
                if not m or m.group(1) != job:
                    continue
                if m.group(3) in ("RESTARTING", "FAILING"):
                    failures += 1
                if m.group(2) == "RESTARTING" and m.group(3) == "RUNNING":
                    restarts += 1
    return failures, restarts


def same_strategy(a, b):
    """Same strategy class and parameters, however each spells its toString."""
    def norm(s):
        m = re.match(r"(\w+RestartBackoffTimeStrategy)", s)
        return (m.group(1) if m else "", tuple(sorted(re.findall(r"(\w+)=(\w+)", s))))
    return bool(a) and norm(a) == norm(b)


def load(*parts):
    path = os.path.join(OUT, *parts)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        text = f.read()
    try:
        return json.loads(text) if text.strip() else None
    except json.JSONDecodeError:
        return None


def text(*parts):
    path = os.path.join(OUT, *parts)
    return open(path).read().strip() if os.path.exists(path) else ""


def truth(name):
    """Count per (window start, key) of the dumped source: the failure-free table when nothing is late."""
    counts = collections.Counter()
    with open(os.path.join(OUT, "lab", name + ".jsonl")) as f:
        for line in f:
            if line.strip():
                e = json.loads(line)
                counts[(e["time"] - e["time"] % WINDOW_MS, e["key"])] += 1
    return counts


def lab_rows(name):
    path = os.path.join(OUT, "lab", name + ".db")
    if not os.path.exists(path):
        return []
    con = sqlite3.connect(path)
    try:
        return [tuple(r) for r in con.execute("SELECT window_start, window_end, key, value FROM results ORDER BY rowid")]
    except sqlite3.Error:
        return []
    finally:
        con.close()


def table_diff(rows, want):
    """How many (window, key) cells of an upsert table differ from the failure-free table."""
    got = {(r[0], r[2]): r[3] for r in rows}
    return sum(1 for k in set(got) | set(want) if got.get(k) != want.get(k))


def appended(rows, want, emitted_only):
    """Duplicates, divergent rows and lost cells of an append-only sink."""
    by_cell = collections.defaultdict(list)
    for r in rows:
        by_cell[(r[0], r[2])].append(r[3])
    extra_rows = sum(len(v) - 1 for v in by_cell.values())
    extra_records = sum(sum(v) - v[0] for v in by_cell.values())
    divergent = sum(1 for k, v in by_cell.items() for x in v if x != want.get(k))
    cells = by_cell if emitted_only else want
    lost = sum(max(0, want.get(k, 0) - max(by_cell.get(k, [0]))) for k in cells)
    return extra_rows, extra_records, divergent, lost


def secs(ms):
    return f"{ms / 1000:.1f} s"


def strategy_text(s):
    m = re.search(r"(\w+RestartBackoffTimeStrategy(?:\([^)]*\))?)", s or "")
    return m.group(1) if m else ""


def causes(f):
    return f.get("causes") or []


def cause_classes(f):
    return [c.split(":", 1)[0].strip() for c in causes(f)]


def short_class(c):
    return c.rsplit(".", 1)[-1]


def flink_restarts(f, task="count[1]"):
    return (f.get("attempts") or {}).get(task, 0)


ROWS = []


FAIL_AS_KILL = os.path.exists(os.path.join(OUT, "lab", "fail-ran-as-kill"))


def row(name, lab, real, agree):
    def cell(s):
        return " ".join(str(s).replace("|", "\\|").split())
    script = os.path.join(SCEN, name.split("/")[-1] + ".lab")
    if FAIL_AS_KILL and os.path.exists(script) and re.search(r"^fail ", open(script).read(), re.M):
        lab = f"{lab} (ran its fail as kill: this streamlab has no fail verb)"
    ROWS.append(f"| flink | {name} | {cell(lab)} | {cell(real)} | {'yes' if agree else 'no'} |")


def missing(name, lab, f):
    """A row for a scenario one side of which did not run."""
    if lab is None:
        row(name, "did not run: " + (text("lab", name + ".stderr")[:200] or "no report"), "—", False)
        return True
    if f is None or "harness_error" in (f or {}):
        row(name, "—", "did not run: " + ((f or {}).get("harness_error") or "no result (see .conformance/logs/flink)"), False)
        return True
    return False


def lab_report(name):
    return load("lab", name + ".json")


def lab_failed(lab):
    return lab["job"]["state"] == "failed"


# --- the scenarios -----------------------------------------------------------

def eo_upsert_window():
    name = "eo-upsert-window"
    lab, f = lab_report(name), load("flink", name + ".json")
    if missing(name, lab, f):
        return
    want = truth(name)
    lab_off = table_diff(lab_rows(name), want)
    fl_rows = [tuple(r) for r in f["table"]]
    fl_off = table_diff(fl_rows, want)
    same = {(r[0], r[2]): r[3] for r in lab_rows(name)} == {(r[0], r[2]): r[3] for r in fl_rows}
    r = lab["recovery"]
    failures, restarts = job_states(name)
    row(name,
        f"{r['failures']} failure, {r['restarts']} restart from checkpoint; table {len(want) - lab_off if not lab_off else 'differs in ' + str(lab_off)} "
        f"{'rows = failure-free' if not lab_off else 'cells'}",
        f"{failures} failure, {restarts} restart ({f['state'].lower()}); upsert table "
        f"{'= failure-free' if not fl_off else 'differs in ' + str(fl_off) + ' cells'}"
        + (", = streamlab's" if same else ""),
        lab_off == 0 and fl_off == 0 and same and r["failures"] == failures == 1 and r["restarts"] == restarts
        and f["state"] == "FINISHED" and not lab_failed(lab))


def describe_appended(extra_rows, extra_records, divergent, lost):
    kind = "identical repeats" if divergent == 0 else f"{divergent} rows over-counted"
    return f"{extra_rows} rows twice ({extra_records} records), {kind}; lost {lost}"


def alo_checkpoints():
    name = "alo-checkpoints"
    lab, f = lab_report(name), load("flink", name + ".json")
    if missing(name, lab, f):
        return
    want = truth(name)
    l = appended(lab_rows(name), want, emitted_only=True)
    fl = appended([tuple(r) for r in f["log"]], want, emitted_only=False)
    row(name,
        f"{describe_appended(*l)} (report: duplicates {lab['sink']['duplicates']}, lost {lab['sink']['lost']})",
        f"AT_LEAST_ONCE checkpoints, append sink: {describe_appended(*fl)}",
        l[0] > 0 and fl[0] > 0 and l[2] == fl[2] == 0 and l[3] == fl[3] == 0 and lab["sink"]["lost"] == 0)
    return fl


def alo_upstream_backup(flink_alo):
    name = "alo-upstream-backup"
    lab = lab_report(name)
    f = load("flink", "alo-checkpoints.json")
    if missing(name, lab, f):
        return
    want = truth(name)
    l = appended(lab_rows(name), want, emitted_only=True)
    fl = flink_alo or appended([tuple(r) for r in f["log"]], want, emitted_only=False)
    row(name,
        f"upstream backup: {describe_appended(*l)} (report: duplicates {lab['sink']['duplicates']}, lost {lab['sink']['lost']})",
        "no upstream backup in Flink (not expressible); its at-least-once is checkpoints "
        f"(alo-checkpoints): {describe_appended(*fl)}",
        l[0] > 0 and fl[0] > 0 and l[2] == fl[2] == 0 and l[3] == fl[3] == 0)


def give_up(name):
    lab, f = lab_report(name), load("flink", name + ".json")
    if missing(name, lab, f):
        return
    r = lab["recovery"]
    lab_s = strategy_text(lab["job"].get("error", ""))
    fl_s = strategy_text(" ".join(causes(f)))
    fl_fail = f["state"] == "FAILED"
    failures, restarts = job_states(name)
    row(name,
        f"{lab['job']['state']} at failure {r['failures']} after {r['restarts']} restarts"
        + (f": recovery is suppressed by {lab_s}" if lab_s else ""),
        f"{f['state'].lower()} at failure {failures} after {restarts} restarts"
        + (f": Recovery is suppressed by {fl_s}" if fl_s else ""),
        lab_failed(lab) and fl_fail and r["failures"] == failures and r["restarts"] == restarts
        and same_strategy(lab_s, fl_s))


def exponential_delay_sequence():
    name = "exponential-delay-sequence"
    f = load("flink", name + ".json")
    downs, k = [], 1
    while (rep := load("lab", f"{name}.{k}.json")) is not None:
        downs.append(rep["recovery"]["downtime_ms"])
        k += 1
    lab = lab_report(name)
    if missing(name, lab, f):
        return
    lab_waits = [b - a for a, b in zip([0] + downs, downs)]
    fl_waits = f["waits_ms"]
    fmt = lambda w: ", ".join(str(x) for x in w)
    row(name,
        f"waits (ms): {fmt(lab_waits)}",
        f"ExponentialDelayRestartBackoffTimeStrategy, jitter 0: {fmt(fl_waits)}",
        lab_waits == fl_waits and len(lab_waits) > 0)


def infer_strategy(waits):
    """Which of Flink's strategies fits the waits measured between failure and restart."""
    if len(waits) < 2:
        return "unknown"
    ratios = [b / a for a, b in zip(waits, waits[1:]) if a > 0]
    if all(1.25 <= x <= 1.8 for x in ratios):
        return "exponential-delay"
    if all(0.8 <= x <= 1.25 for x in ratios):
        return "fixed-delay or failure-rate"
    return "unknown"


def default_checkpointing_on():
    name = "default-checkpointing-on"
    lab, f = lab_report(name), load("flink", name + ".json")
    if missing(name, lab, f):
        return
    r = lab["recovery"]
    lab_kind = lab["config"]["restart"].split()[0]
    fl_cls, fl_kind = chosen_strategy(name)
    fl_cls = re.sub(r", currentRestartAttempt=.*\)$", ")", fl_cls)
    failures, restarts = job_states(name)
    row(name,
        f"{lab['config']['restart'].split(' ')[0]} ({lab['config']['restart'].split(' ', 1)[1] if ' ' in lab['config']['restart'] else ''}); "
        f"{r['failures']} failures, {r['restarts']} restarts, job {lab['job']['state']}",
        f"{fl_cls or 'no strategy logged'} (waits measured {', '.join(secs(w) for w in f['waits_ms'])}); {failures} failures, "
        f"{restarts} restarts, job {f['state'].lower()}",
        lab_kind == fl_kind and r["failures"] == failures and r["restarts"] == restarts and not lab_failed(lab)
        and f["state"] == "FINISHED")


def default_checkpointing_off():
    name = "default-checkpointing-off"
    lab, f = lab_report(name), load("flink", name + ".json")
    if missing(name, lab, f):
        return
    r = lab["recovery"]
    fl_s = strategy_text(" ".join(causes(f)))
    lab_s = strategy_text(lab["job"].get("error", ""))
    fl_cls, fl_kind = chosen_strategy(name)
    lab_kind = lab["config"]["restart"].split()[0]
    failures, restarts = job_states(name)
    row(name,
        f"{lab_kind}: {r['failures']} failure, {r['restarts']} restarts, job {lab['job']['state']}"
        + (f" ({lab_s})" if lab_s else ""),
        f"{fl_cls or 'no strategy logged'}: {failures} failure, {restarts} restarts, job {f['state'].lower()}"
        + (f": Recovery is suppressed by {fl_s}" if fl_s else ""),
        lab_kind == fl_kind and lab_failed(lab) == (f["state"] == "FAILED") and r["failures"] == failures
        and r["restarts"] == restarts and same_strategy(lab_s, fl_s) == bool(lab_s))


def task_failure_backoff():
    name = "task-failure-backoff"
    lab, f = lab_report(name), load("flink", name + ".json")
    if missing(name, lab, f):
        return
    down = lab["recovery"]["downtime_ms"]
    waits = f["waits_ms"]
    row(name,
        f"{lab['config']['restart']}: down {secs(down)} before the restart",
        f"task threw, its task manager alive: restarted after {secs(waits[0]) if waits else '—'}",
        # Flink's wait adds redeploying the tasks to the backoff (a few
        # hundred ms, more on a busy machine); a lab that also waited for a
        # new task manager is seconds off.
        bool(waits) and abs(down - waits[0]) <= 1000)


def tm_scenario(name, replaced):
    lab, f = lab_report(name), load("flink", name + ".json")
    if missing(name, lab, f):
        return
    r = lab["recovery"]
    want = truth(name)
    if replaced:
        lab_off = table_diff(lab_rows(name), want)
        fl_off = table_diff([tuple(x) for x in f["table"]], want)
        waits = f["waits_ms"]
        row(name,
            f"{r['failures']} failure, {r['restarts']} restart, down {secs(r['downtime_ms'])}; table "
            + ("= failure-free" if not lab_off else f"differs in {lab_off} cells"),
            f"{f['task_manager']}: restarted {secs(waits[0]) if waits else 'never'} after the kill, job {f['state'].lower()}; table "
            + ("= failure-free" if not fl_off else f"differs in {fl_off} cells"),
            bool(waits) and abs(r["downtime_ms"] - waits[0]) <= 1500 and lab_off == fl_off == 0
            and f["state"] == "FINISHED" and not lab_failed(lab))
        return
    runs = [(k, v) for k, v in f.items() if isinstance(v, dict)]
    parts, fl_ok = [], []
    for key, run in runs:
        failures, restarts = job_states(f"{name}/{key}")
        last = short_class(cause_classes(run)[-1]) if causes(run) else "no exception"
        msg = causes(run)[-1].split(": ", 1)[-1] if causes(run) else ""
        parts.append(f"slot.request.timeout {secs(run['slot_request_timeout_ms'])}: job {run['state'].lower()} "
                     f"{secs(run['kill_to_end_ms'])} after the kill, {failures} failures, {restarts} restart ({last}: {msg})")
        fl_ok.append((run["state"] == "FAILED", failures, restarts, last, run["kill_to_end_ms"]))
    # The script kills, then runs for a while: the lab's job must have
    # failed within that while, and Flink's within as long after its kill.
    script = open(os.path.join(SCEN, name + ".lab")).read()
    m = re.search(r"^kill [^\n]*\nrun (\d+)s\s*$", script, re.M)
    within_ms = int(m.group(1)) * 1000 if m else 0
    lab_err = lab["job"].get("error", "")
    lab_txt = (f"{r['failures']} failures, {r['restarts']} restarts; job {lab['job']['state']} {secs(within_ms)} after the kill"
               + (f": {lab_err}" if lab_err else f" ({lab['sink']['pending']} records pending)"))
    fl_txt = ("task manager lost, none started, resource manager past its start-up period; " + "; ".join(parts))
    agree = bool(fl_ok) and within_ms > 0 and lab_failed(lab) and "NoResourceAvailableException" in lab_err and all(
        ok and r["failures"] == fa and r["restarts"] == re_ and t <= within_ms
        for ok, fa, re_, _, t in fl_ok)
    row(name, lab_txt, fl_txt, agree)


def failover_clicks():
    name = "failover-clicks"
    lab, f = lab_report(name), load("flink", name + ".json")
    if missing(name, lab, f):
        return
    whole = lab["checkpoints"]["restores"] == lab["recovery"]["restarts"] >= 1

    def restarted(run):
        a = run.get("attempts", {})
        return sorted(t for t, n in a.items() if n > 0), sorted(a)

    parts, all_restarted = [], True
    for strategy in ("region", "full"):
        run = f.get(strategy, {})
        got, tasks = restarted(run)
        all_restarted &= got == tasks and len(tasks) == 4
        parts.append(f"{strategy}: {len(got)} of {len(tasks)} tasks restarted")
    row(name,
        "whole job restored from the checkpoint (every node restarts)" if whole else
        f"{lab['recovery']['restarts']} restarts, {lab['checkpoints']['restores']} restores",
        "; ".join(parts) + " (one pipelined region: the keyed exchange links every task)",
        whole and all_restarted)


def failover_two_regions():
    name = "failover-two-regions"
    lab, f = lab_report(name), load("flink", name + ".json")
    if missing(name, lab, f):
        return
    a = f.get("attempts", {})
    row(name,
        "not expressible: a lab job has one source and one sink, so one region; the lab restores the whole job",
        f"region: restarted {', '.join(t for t in sorted(a) if a[t] > 0) or 'nothing'}; "
        f"kept {', '.join(t for t in sorted(a) if a[t] == 0) or 'nothing'}",
        False)


def active_standby():
    name = "active-standby"
    lab, f = lab_report(name), load("flink", "eo-upsert-window.json")
    if missing(name, lab, f):
        return
    want = truth(name)
    lab_off = table_diff(lab_rows(name), want)
    fl_off = table_diff([tuple(r) for r in f["table"]], truth("eo-upsert-window"))
    wait = f.get("waits_ms") or []
    row(name,
        f"replica took over, down {secs(lab['recovery']['downtime_ms'])}; table "
        + ("= failure-free" if not lab_off else f"differs in {lab_off} cells"),
        "no task replicas in Flink (not expressible); its exactly-once restore (eo-upsert-window) gives table "
        + ("= failure-free" if not fl_off else f"differing in {fl_off} cells")
        + (f" after {secs(wait[0])} down" if wait else ""),
        lab_off == 0 and fl_off == 0)


def job_start(name):
    lab = lab_report(name)
    f = load("pyflink", name + ".json")
    err = text("lab", name + ".stderr")
    if lab is None and not err:
        row(name, "did not run", "—", False)
        return
    if f is None or "harness_error" in f:
        row(name, "—", "did not run: " + ((f or {}).get("harness_error") or "no result (see .conformance/logs/flink/pyflink.log)"), False)
        return
    if lab is None:
        m = re.search(r"job submission failed: ([\w.$]+): (.*)", err)
        lab_moment, lab_class, lab_msg = "submission", m.group(1) if m else "?", m.group(2) if m else err
        lab_txt = f"refused at submission: {lab_class}: {lab_msg}"
    else:
        e = lab["job"].get("error", "")
        m = re.search(r"\((?:[\w.$]+\.)?([\w$]+(?:Exception|Error)[^)]*)", e)
        cm = re.search(r"([\w.$]+(?:Exception|Error)): ([^(]*)", e)
        lab_moment = "task run" if lab["recovery"]["failures"] else "none"
        lab_class = cm.group(1) if cm else "?"
        lab_msg = cm.group(2).strip() if cm else ""
        lab_txt = (f"job started; sink task failed {lab['recovery']['failures']} times: {lab_class}: {lab_msg}; job {lab['job']['state']}")
    fl_moment = {"planning": "submission"}.get(f.get("moment"), f.get("moment"))
    classes = cause_classes(f)
    def brief(c):
        c = c.split(" Table options are:")[0].split(" Available factory identifiers are:")[0]
        return c if len(c) <= 220 else c[:220] + "…"
    keys = ("ValidationException", "IOException", "NoClassDefFoundError", "NoSuchMethodError", "ClassNotFoundException")
    chain = [brief(" ".join(c.split())) for c in causes(f)]
    picked = [c for c in chain if short_class(c.split(":", 1)[0]) in keys] or chain
    shown = [c for i, c in enumerate(picked)
             if i in (0, len(picked) - 1) or short_class(c.split(":", 1)[0]) in ("NoClassDefFoundError", "NoSuchMethodError")]
    suppressed = strategy_text(" ".join(causes(f)))
    fl_txt = (f"{'raised by execute_sql while planning; no job submitted' if f.get('moment') == 'planning' else 'job submitted; failed in a task (TableResult.wait)' if f.get('moment') == 'task run' else 'job finished'}"
              f" [{', '.join(f['jars']) or 'no jars'}]: " + " … caused by ".join(shown)
              + (f"; then the restart strategy gave up: {suppressed}" if suppressed else ""))
    agree = lab_moment == fl_moment and lab_class in classes
    if "Could not find any factory" in lab_msg:
        agree = agree and any("Could not find any factory for identifier 'jdbc'" in c for c in causes(f))
    row(name, lab_txt, fl_txt, agree)


def exported(name):
    """A program `streamlab export --to pyflink` wrote for a scenario, run by PyFlink."""
    d = os.path.join(OUT, "export", name)
    if not os.path.isdir(d):
        return
    row_name = f"export-pyflink/{name}"
    lab = lab_report(name)
    if text("export", name, "export.exit") != "0":
        row(row_name, "—", "export failed: " + text("export", name, "export.stderr")[:300], False)
        return
    status = text("export", name, "run.exit")
    dbs = [p for p in os.listdir(d) if p.endswith(".db")]
    rows = []
    if dbs:
        con = sqlite3.connect(os.path.join(d, dbs[0]))
        try:
            rows = [tuple(r) for r in con.execute("SELECT window_start, window_end, key, value FROM results ORDER BY rowid")]
        except sqlite3.Error:
            rows = []
        finally:
            con.close()
    err = text("export", name, "run.stderr")
    fired = sorted(f for p in os.listdir(d) if p.endswith(".fired") for f in os.listdir(os.path.join(d, p)))
    want = truth(name)
    if lab is None:
        row(row_name, "did not run", "—", False)
        return
    lab_state = lab["job"]["state"]
    suppressed = strategy_text(err)
    if lab["config"]["mode"] == "append":
        l = appended(lab_rows(name), want, emitted_only=True)
        fl = appended(rows, want, emitted_only=False)
        row(row_name, describe_appended(*l),
            f"exported program, exit {status}: {describe_appended(*fl)}",
            status == "0" and l[3] == fl[3] == 0 and l[2] == fl[2] == 0)
        return
    lab_off = table_diff(lab_rows(name), want) if lab_rows(name) else None
    fl_off = table_diff(rows, want) if rows else None
    lab_txt = f"job {lab_state}" + (f"; table {'= failure-free' if lab_off == 0 else f'differs in {lab_off} cells'}" if lab_off is not None else "")
    fl_txt = (f"exported program, exit {status}, its kills fired: {', '.join(fired) or 'none'}" + (f"; table {'= failure-free' if fl_off == 0 else f'differs in {fl_off} cells'}" if fl_off is not None else "")
              + (f"; recovery is suppressed by {suppressed}" if suppressed else ""))
    if lab_failed(lab):
        agree = status not in ("0", "") and (not strategy_text(lab["job"].get("error", "")) or same_strategy(strategy_text(lab["job"].get("error", "")), suppressed))
    else:
        agree = status == "0" and lab_off == fl_off == 0
    row(row_name, lab_txt, fl_txt, agree and len(fired) > 0)


def main():
    eo_upsert_window()
    flink_alo = alo_checkpoints()
    alo_upstream_backup(flink_alo)
    give_up("fixed-delay-give-up")
    give_up("failure-rate-give-up")
    exponential_delay_sequence()
    default_checkpointing_on()
    default_checkpointing_off()
    task_failure_backoff()
    tm_scenario("tm-lost-replaced", replaced=True)
    tm_scenario("standalone-tm-missing", replaced=False)
    failover_clicks()
    failover_two_regions()
    active_standby()
    for name in ("missing-connector", "missing-driver", "connector-other-version"):
        job_start(name)
    if os.path.isdir(os.path.join(OUT, "export")):
        for name in sorted(os.listdir(os.path.join(OUT, "export"))):
            exported(name)
    known = {os.path.basename(p)[:-4] for p in os.listdir(SCEN) if p.endswith(".lab")}
    shown = {r.split(" | ")[1].split("/")[-1] for r in ROWS}
    for name in sorted(known - shown):
        row(name, "no comparison written for this scenario", "—", False)
    print("\n".join(ROWS))


main()
