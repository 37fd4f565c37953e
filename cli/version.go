package cli

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version and commit are the Build that Main was given: the Makefile stamps
// them into package main,
//
//	go build -ldflags "-X main.version=v1.2.3 -X main.commit=abc1234"
//
// When they are empty, versionInfo falls back to the build information the
// Go toolchain records.
var (
	version string
	commit  string
)

// versionInfo returns streamlab's version, commit and Go version.
func versionInfo() (ver, com, goVersion string) {
	ver, com = version, commit
	info, ok := debug.ReadBuildInfo()
	if ok && ver == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		ver = info.Main.Version
	}
	if ok && com == "" {
		var rev, modified string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev != "" {
			com = rev
			if modified == "true" {
				com += "-dirty"
			}
		}
	}
	if ver == "" {
		ver = "dev"
	}
	if com == "" {
		com = "unknown"
	}
	return ver, com, runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
}

// versionText is what `streamlab version` prints: three lines, one field a
// line.
func versionText() string {
	ver, com, gover := versionInfo()
	return fmt.Sprintf("version  %s\ncommit   %s\ngo       %s\n", ver, com, gover)
}

func (c *cli) versionCmd() *cobra.Command {
	o := &versionOptions{c: c}
	return &cobra.Command{
		Use:   "version",
		Short: "Print streamlab's version, commit and Go version",
		Args:  cobra.NoArgs,
		RunE:  runE(o.run),
	}
}

// versionOptions are `streamlab version`'s: it has no flags.
type versionOptions struct{ c *cli }

// run prints the version, the commit and the Go version.
func (o *versionOptions) run(ctx context.Context, args []string) error {
	_, err := fmt.Fprint(o.c.stdout, versionText())
	return err
}
