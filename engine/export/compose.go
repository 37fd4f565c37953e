package export

import "strings"

// compose renders the compose file of a standalone Flink cluster, one
// JobManager and two TaskManagers of one slot each, in the manner of
// Flink's Operations Playground. The official image has no Python, so the
// file builds one with PyFlink in a virtual environment. The export
// directory is mounted at /opt/streamlab in every container: the job reads
// its events there and the task managers share the kills' marker files.
// With one slot per task manager, a job of parallelism 2 needs both: kill
// one and the job waits for slots, as the lab's standalone deployment shows.
func compose(p *Plan) string {
	var b code
	var head strings.Builder
	head.WriteString(ComposeFile + ": a standalone Flink " + FlinkVersion + " cluster for " + ProgramName(p, PyFlink) + "\n")
	head.WriteString("(and " + ProgramName(p, FlinkSQL) + "): one JobManager, two TaskManagers of one slot each.\n")
	head.WriteString("  docker compose up -d --build          # the web UI is on http://localhost:8081\n")
	head.WriteString("  docker compose exec jobmanager flink run -py /opt/streamlab/" + ProgramName(p, PyFlink) + "\n")
	head.WriteString("  docker compose kill taskmanager-2     # lose a task manager; `docker compose start taskmanager-2` brings it back\n")
	head.WriteString("The official image has no Python: this file builds one with PyFlink in /opt/venv.\n")
	comment(&b.Builder, "# ", head.String())
	b.l(0, "x-flink: &flink")
	b.l(1, "image: streamlab-pyflink:%s", FlinkVersion)
	b.l(1, "build:")
	b.l(2, "context: .")
	b.l(2, "dockerfile_inline: |")
	b.l(3, "FROM %s", FlinkImage)
	b.l(3, "RUN apt-get update -y && apt-get install -y --no-install-recommends python3 python3-venv \\")
	b.l(4, "&& rm -rf /var/lib/apt/lists/* \\")
	b.l(4, "&& python3 -m venv /opt/venv \\")
	b.l(4, "&& /opt/venv/bin/pip install --no-cache-dir apache-flink==%s", FlinkVersion)
	b.l(1, "volumes:")
	b.l(2, "- ./:/opt/streamlab")
	b.l(0, "")
	b.l(0, "services:")
	b.l(1, "jobmanager:")
	b.l(2, "<<: *flink")
	b.l(2, "command: jobmanager")
	b.l(2, "ports:")
	b.l(3, "- \"8081:8081\"")
	b.l(2, "environment:")
	b.l(3, "FLINK_PROPERTIES: |")
	flinkProperties(&b, 4)
	for _, tm := range []string{"taskmanager-1", "taskmanager-2"} {
		b.l(1, "%s:", tm)
		b.l(2, "<<: *flink")
		b.l(2, "command: taskmanager")
		b.l(2, "depends_on:")
		b.l(3, "- jobmanager")
		b.l(2, "environment:")
		b.l(3, "FLINK_PROPERTIES: |")
		flinkProperties(&b, 4)
		b.l(4, "taskmanager.numberOfTaskSlots: 1")
	}
	return b.String()
}

// flinkProperties writes the properties every container shares.
func flinkProperties(b *code, indent int) {
	b.l(indent, "jobmanager.rpc.address: jobmanager")
	b.l(indent, "python.executable: /opt/venv/bin/python")
	b.l(indent, "python.client.executable: /opt/venv/bin/python")
}
