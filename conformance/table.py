"""Builds the conformance table from the harnesses' rows.

usage: table.py ROWS TABLE_MD README_MD KNOWN_DIFFERENCES

Prints the table (header and rows), writes it to TABLE_MD and between the
conformance markers of README_MD, and exits 1 when a row says `no` and
KNOWN_DIFFERENCES does not list it (lines `engine scenario  reason`; `#`
starts a comment), or when no row came at all.
"""

import re
import sys

HEADER = "| engine | scenario | streamlab | real engine | agree |\n| --- | --- | --- | --- | --- |\n"
START, END = "<!-- conformance:start -->", "<!-- conformance:end -->"

rows_path, table_path, readme_path, known_path = sys.argv[1:5]

rows = [line.rstrip("\n") for line in open(rows_path) if line.startswith("| ")]
table = HEADER + "".join(r + "\n" for r in rows)
print(table, end="")
with open(table_path, "w") as f:
    f.write(table)

readme = open(readme_path).read()
pattern = re.compile(re.escape(START) + r"\n.*?" + re.escape(END), re.S)
if not pattern.search(readme):
    sys.exit(f"{readme_path}: no {START} … {END} section to write the table into")
readme = pattern.sub(lambda _: START + "\n" + table + END, readme)
with open(readme_path, "w") as f:
    f.write(readme)

# A line is `engine scenario  reason` (a scenario without spaces), or
# `engine | words | reason`, which covers every row of that engine whose
# scenario contains the words.
known = {}
for n, line in enumerate(open(known_path), 1):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    if "|" in line:
        parts = [p.strip() for p in line.split("|", 2)]
    else:
        parts = line.split(None, 2)
    if len(parts) < 3 or not all(parts):
        sys.exit(f"{known_path}:{n}: expected `engine scenario  reason` or `engine | words | reason`")
    known[(parts[0], parts[1])] = parts[2]


def known_as(engine, scenario):
    """The known difference that covers a row, as its key, or None."""
    if (engine, scenario) in known:
        return (engine, scenario)
    for e, words in known:
        if e == engine and words in scenario:
            return (e, words)
    return None

status = 0
if not rows:
    print("conformance: no rows: every harness failed before comparing", file=sys.stderr)
    status = 1
seen = set()
for r in rows:
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", r)[1:-1]]
    engine, scenario, agree = cells[0], cells[1], cells[-1]
    key = known_as(engine, scenario)
    if key:
        seen.add(key)
    if agree == "yes":
        if key:
            print(f"conformance: {engine} {scenario} agrees now (known difference: {known[key]})", file=sys.stderr)
        continue
    if key:
        print(f"conformance: {engine} {scenario} differs, as known: {known[key]}", file=sys.stderr)
        continue
    print(f"conformance: {engine} {scenario}: streamlab and the real engine disagree", file=sys.stderr)
    status = 1
for engine, scenario in sorted(set(known) - seen):
    print(f"conformance: known difference {engine} {scenario} has no row", file=sys.stderr)
sys.exit(status)
