package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/deps"
	"github.com/streamlab/streamlab/engine/jobspec"
	"github.com/streamlab/streamlab/engine/restart"
)

// A job's dependencies are resolved as Flink resolves them, with the
// messages of REFERENCES.md "Job submission failures".
func TestDependencies(t *testing.T) {
	connector := jobspec.Dependency{Name: "flink-connector-jdbc-core", Kind: jobspec.DependencyConnector, Version: "4.0.0-2.0", Provides: "jdbc"}
	driver := jobspec.Dependency{Name: "mysql-connector-j", Kind: jobspec.DependencyDriver, Version: "8.4.0", Provides: "com.mysql.cj.jdbc.Driver"}
	old := connector
	old.Name, old.Version = "flink-connector-jdbc", "3.2.0-1.19"
	cases := []struct {
		deps []jobspec.Dependency
		want string
	}{
		{nil, "Could not find any factory for identifier 'jdbc' that implements 'org.apache.flink.table.factories.DynamicTableFactory' in the classpath"},
		{[]jobspec.Dependency{old, driver}, "java.lang.NoClassDefFoundError: org/apache/flink/streaming/api/functions/sink/SinkFunction"},
		{[]jobspec.Dependency{connector, driver}, ""},
	}
	for _, c := range cases {
		spec, _ := jobspec.Builtin("passthrough")
		spec.Connector, spec.Driver, spec.Dependencies = "jdbc", "com.mysql.cj.jdbc.Driver", c.deps
		err := deps.CheckDependencies(spec)
		if c.want == "" {
			if err != nil {
				t.Errorf("%v: %v", c.deps, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, deps.ErrSubmission) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.deps, err, c.want)
		}
		if _, err := engine.New(spec, engine.DefaultConfig()); err == nil {
			t.Errorf("%v: the job must not start", c.deps)
		}
	}
}

// A missing driver is found when the sink task opens its connection, at run
// time: the job starts, the sink fails at once and again after each restart,
// the restart strategy decides, and job.error names the missing class.
func TestMissingDriverFailsTheSinkTask(t *testing.T) {
	connector := jobspec.Dependency{Name: "flink-connector-jdbc-core", Kind: jobspec.DependencyConnector, Version: "4.0.0-2.0", Provides: "jdbc"}
	spec, _ := jobspec.Builtin("clicks")
	spec.Connector, spec.Driver, spec.Dependencies = "jdbc", "com.mysql.cj.jdbc.Driver", []jobspec.Dependency{connector}
	if err := deps.CheckDependencies(spec); err != nil {
		t.Fatalf("a missing driver must not fail the submission: %v", err)
	}
	if err := deps.MissingDriver(spec); err == nil || !strings.Contains(err.Error(), "java.lang.ClassNotFoundException: com.mysql.cj.jdbc.Driver") {
		t.Fatalf("MissingDriver = %v", err)
	}
	for _, kind := range []restart.Kind{restart.None, restart.FixedDelay} {
		cfg := engine.DefaultConfig()
		cfg.Restart, _ = restart.Default(kind)
		r, err := engine.New(spec, cfg)
		if err != nil {
			t.Fatalf("%s: the job must start: %v", kind, err)
		}
		r.Admit(2000)
		err = r.Run(context.Background())
		rep := r.Report()
		r.Close()
		if err == nil || !strings.Contains(err.Error(), "java.lang.ClassNotFoundException") || engine.JobStateOf(rep.Job) != engine.StateFailed {
			t.Errorf("%s: got %v, state %s; want the job failed with the ClassNotFoundException", kind, err, rep.Job.State)
		}
		wantFailures := map[restart.Kind]int64{restart.None: 1, restart.FixedDelay: 2}[kind]
		if rep.Recovery.Failures != wantFailures || rep.Sink.Delivered != 0 {
			t.Errorf("%s: %d failures, %d delivered; want %d failures and nothing delivered", kind, rep.Recovery.Failures, rep.Sink.Delivered, wantFailures)
		}
	}
}
