"""The job-start scenarios on PyFlink 2.3.0.

For each scenario the lab's job file names the connector, the driver class
and the jars on the class path; this runs the same job (the dumped source,
counts per action in tumbling 10 s windows, a JDBC sink) with those jars
(pipeline.jars) and the script's restart strategy, and writes which
exception Flink raised and when: while planning the statement (execute_sql
raised, no job was submitted) or in a task once the job ran
(TableResult.wait raised).

usage: jobstart.py SCENARIOS_DIR LAB_OUT_DIR JARS_DIR OUT_DIR NAME...
"""

import json
import os
import re
import sys
import time

from pyflink.table import EnvironmentSettings, TableEnvironment

CHAIN = re.compile(r"^(?:Caused by: )?((?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error)): ?(.*)$")


def job_file(scenarios, name):
    lab = open(os.path.join(scenarios, name + ".lab")).read()
    job = re.search(r"^job (\S+)", lab, re.M).group(1)
    restart = re.search(r"^set restart (.+)$", lab, re.M)
    return open(os.path.join(scenarios, job)).read(), restart.group(1).split() if restart else []


def jars(spec, jars_dir):
    """The jars the job file declares, as files fetched from Maven Central."""
    out = []
    for block in re.split(r"\n  - ", spec.split("dependencies:", 1)[1])[1:] if "dependencies:" in spec else []:
        name = re.search(r"name: (\S+)", block).group(1)
        version = re.search(r"version: \"?([^\"\s]+)", block).group(1)
        path = os.path.join(jars_dir, f"{name}-{version}.jar")
        if not os.path.exists(path):
            raise SystemExit(f"jobstart.py: {path} is missing (conformance/flink/run fetches it)")
        out.append("file://" + os.path.abspath(path))
    return out


def restart_config(words):
    conf = {}
    if not words:
        return conf
    kind, params = words[0], dict(w.split("=", 1) for w in words[1:])
    conf["restart-strategy.type"] = kind
    keys = {
        "fixed-delay": {"attempts": "restart-strategy.fixed-delay.attempts", "delay": "restart-strategy.fixed-delay.delay"},
        "failure-rate": {"max": "restart-strategy.failure-rate.max-failures-per-interval",
                         "interval": "restart-strategy.failure-rate.failure-rate-interval",
                         "delay": "restart-strategy.failure-rate.delay"},
    }.get(kind, {})
    for k, v in params.items():
        conf[keys[k]] = v
    return conf


def chain(text):
    """Exception classes and messages, outermost first, from a Java stack trace."""
    out = []
    for line in text.splitlines():
        m = CHAIN.match(line.strip())
        if m and (not out or out[-1][0] != m.group(1) or out[-1][1] != m.group(2)):
            out.append((m.group(1), m.group(2)[:400]))
    return [f"{c}: {msg}" for c, msg in out]


def describe(exc):
    text = str(exc)
    java = getattr(exc, "java_exception", None)
    if java is not None:
        parts, t = [], java
        while t is not None and len(parts) < 12:
            parts.append(f"{t.getClass().getName()}: {t.getMessage()}")
            t = t.getCause()
        return parts
    trace = getattr(exc, "stackTrace", None) or text
    found = chain(trace)
    return found or [f"{type(exc).__name__}: {text[:400]}"]


def run(scenarios, lab_out, jars_dir, out_dir, name):
    spec, restart = job_file(scenarios, name)
    source = os.path.join(lab_out, name + ".jsonl")
    if not os.path.exists(source) or os.path.getsize(source) == 0:
        # The lab refused the job before admitting a record; any clicks log serves.
        source = os.path.join(lab_out, "eo-upsert-window.jsonl")
    driver = re.search(r"^driver: (\S+)", spec, re.M).group(1)
    jar_list = jars(spec, jars_dir)
    result = {"jars": [os.path.basename(j) for j in jar_list], "driver": driver, "restart": " ".join(restart) or "nothing"}

    env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    conf = env.get_config()
    conf.set("parallelism.default", "1")
    if jar_list:
        conf.set("pipeline.jars", ";".join(jar_list))
    for k, v in restart_config(restart).items():
        conf.set(k, v)
    env.execute_sql(f"""
        CREATE TABLE events (
            `time` BIGINT, action STRING, `key` STRING, `offset` BIGINT,
            ts AS TO_TIMESTAMP_LTZ(`time`, 3),
            WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
        ) WITH ('connector' = 'filesystem', 'path' = 'file://{os.path.abspath(source)}', 'format' = 'json')""")
    env.execute_sql(f"""
        CREATE TABLE results (
            window_start TIMESTAMP(3), window_end TIMESTAMP(3), `key` STRING, `value` BIGINT
        ) WITH ('connector' = 'jdbc', 'url' = 'jdbc:derby:memory:streamlab;create=true',
                'table-name' = 'results', 'driver' = '{driver}')""")
    insert = """
        INSERT INTO results
        SELECT window_start, window_end, `key`, COUNT(*)
        FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND))
        GROUP BY window_start, window_end, `key`"""
    start = time.monotonic()
    try:
        submitted = env.execute_sql(insert)
    except Exception as exc:  # noqa: BLE001 - any failure is the measurement
        result.update(moment="planning", submitted=False, causes=describe(exc))
    else:
        try:
            submitted.wait()
            result.update(moment="none", submitted=True, state="FINISHED")
        except Exception as exc:  # noqa: BLE001
            result.update(moment="task run", submitted=True, state="FAILED", causes=describe(exc))
    result["seconds"] = round(time.monotonic() - start, 1)
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump(result, f, indent=1)


def main():
    scenarios, lab_out, jars_dir, out_dir, *names = sys.argv[1:]
    os.makedirs(out_dir, exist_ok=True)
    for name in names:
        try:
            run(scenarios, lab_out, jars_dir, out_dir, name)
        except Exception as exc:  # noqa: BLE001 - the harness itself broke: say so in the row
            with open(os.path.join(out_dir, name + ".json"), "w") as f:
                json.dump({"harness_error": f"{type(exc).__name__}: {exc}"[:600]}, f)


if __name__ == "__main__":
    main()
