package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/streamlab/streamlab/engine"
	"github.com/streamlab/streamlab/engine/jobspec"
)

// A job's dependencies are resolved as Flink resolves them, with the
// messages of REFERENCES.md "Job submission failures".
func TestDependencies(t *testing.T) {
	connector := jobspec.Dependency{Name: "flink-connector-jdbc", Kind: jobspec.DependencyConnector, Version: "3.2.0-1.19", Provides: "jdbc"}
	driver := jobspec.Dependency{Name: "mysql-connector-j", Kind: jobspec.DependencyDriver, Version: "8.4.0", Provides: "com.mysql.cj.jdbc.Driver"}
	old := connector
	old.Version = "3.1.2-1.17"
	cases := []struct {
		deps []jobspec.Dependency
		want string
	}{
		{nil, "Could not find any factory for identifier 'jdbc' that implements 'org.apache.flink.table.factories.DynamicTableFactory' in the classpath"},
		{[]jobspec.Dependency{connector}, "java.lang.ClassNotFoundException: com.mysql.cj.jdbc.Driver"},
		{[]jobspec.Dependency{old, driver}, "java.lang.NoSuchMethodError: 'void org.apache.flink.table"},
		{[]jobspec.Dependency{connector, driver}, ""},
	}
	for _, c := range cases {
		spec, _ := jobspec.Builtin("passthrough")
		spec.Connector, spec.Driver, spec.Dependencies = "jdbc", "com.mysql.cj.jdbc.Driver", c.deps
		err := engine.CheckDependencies(spec)
		if c.want == "" {
			if err != nil {
				t.Errorf("%v: %v", c.deps, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, engine.ErrSubmission) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.deps, err, c.want)
		}
		if _, err := engine.New(spec, engine.DefaultConfig()); err == nil {
			t.Errorf("%v: the job must not start", c.deps)
		}
	}
}
