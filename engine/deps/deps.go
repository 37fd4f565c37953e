// Package deps resolves a job's connector and database driver against the
// dependencies the job declares, as Flink's class loading would, so a
// learner meets the failures (and the messages) of a real submission. It
// reads a job description and knows nothing of running one.
package deps

import (
	"errors"
	"fmt"
	"strings"

	"github.com/streamlab/streamlab/engine/jobspec"
)

// FlinkVersion is the Flink version the lab models. A connector's version
// ends in the Flink version it was built against, as in
// flink-connector-jdbc-core 4.0.0-2.0, which runs on Flink 2.3 (measured);
// one built for Flink 1.x does not (FlinkMajor).
const FlinkVersion = "2.3"

// FlinkMajor is FlinkVersion's major version: Flink 2.0 removed the APIs
// that 1.x connectors were built on (SinkFunction among them), so a
// connector works here when it was built for a 2.x Flink.
const FlinkMajor = "2"

// ErrSubmission marks a job that fails when it is submitted, before any
// record flows: its declared dependencies do not provide what it uses.
var ErrSubmission = errors.New("job submission failed")

// CheckDependencies resolves a job's connector and driver against the
// dependencies it declares, as Flink's class loading would, and fails with
// the messages a learner meets in practice:
//
//   - no connector providing the identifier: Flink's factory discovery
//     error ("Could not find any factory for identifier 'jdbc' …");
//   - a connector built for Flink 1.x: measured on Flink 2.3, the JDBC
//     connectors 3.2.0-1.19 and 3.1.2-1.17 fail while the client plans the
//     statement, with NoClassDefFoundError for SinkFunction, which Flink
//     2.0 removed. (A connector built for another minor of the same major
//     may fail in other ways or not at all; the lab accepts it.)
//
// A missing driver is not found here: Flink's JDBC connector loads the driver
// class only when the sink task opens its connection, at run time (see
// MissingDriver).
func CheckDependencies(spec jobspec.Spec) error {
	find := func(kind, provides string) (jobspec.Dependency, bool) {
		for _, d := range spec.Dependencies {
			if d.Kind == kind && d.Provides == provides {
				return d, true
			}
		}
		return jobspec.Dependency{}, false
	}
	if spec.Connector != "" {
		d, ok := find(jobspec.DependencyConnector, spec.Connector)
		if !ok {
			return fmt.Errorf("%w: org.apache.flink.table.api.ValidationException: Could not find any factory for identifier '%s' that implements 'org.apache.flink.table.factories.DynamicTableFactory' in the classpath. (the job uses connector %q, but no dependency provides it: add the connector jar)",
				ErrSubmission, spec.Connector, spec.Connector)
		}
		if built := builtFor(d.Version); built != "" && !strings.HasPrefix(built, FlinkMajor+".") {
			return fmt.Errorf("%w: java.lang.NoClassDefFoundError: org/apache/flink/streaming/api/functions/sink/SinkFunction (%s %s was built for Flink %s, whose SinkFunction Flink 2.0 removed; this lab runs Flink %s: use a connector release built for Flink %s.x, such as flink-connector-jdbc-core 4.0.0-2.0)",
				ErrSubmission, d.Name, d.Version, built, FlinkVersion, FlinkMajor)
		}
	}
	return nil
}

// MissingDriver returns the ClassNotFoundException the sink task meets when
// it opens its connection and the job declares no dependency providing its
// driver class, or nil. The JDBC connector loads the driver
// (Class.forName) in the task, on the task manager, at the moment an
// unreachable database would fail too: a task failure that goes through
// the restart strategy, not a submission failure.
func MissingDriver(spec jobspec.Spec) error {
	if spec.Driver == "" {
		return nil
	}
	for _, d := range spec.Dependencies {
		if d.Kind == jobspec.DependencyDriver && d.Provides == spec.Driver {
			return nil
		}
	}
	return fmt.Errorf("java.lang.ClassNotFoundException: %s (the sink task could not open its connection: the connector is there, but the database driver jar is not; add the driver as a dependency)", spec.Driver)
}

// builtFor returns the Flink version a connector version names after its
// last dash ("3.1.2-1.17" → "1.17"), or "" when it names none.
func builtFor(version string) string {
	i := strings.LastIndex(version, "-")
	if i < 0 {
		return ""
	}
	v := version[i+1:]
	if strings.Count(v, ".") != 1 {
		return ""
	}
	return v
}
