// Command qcnlab is a workbench for the IEEE 802.1Qau family of layer-2
// congestion control schemes: QCN and its relatives, simulated packet by
// packet. main parses the command line and hands over to the packages below
// (batch mode) or the tui package (the workbench): commands.go is the table
// of commands, the one place that says what each takes; cli.go parses their
// flags, writes their help and handles signals.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"qcnlab/experiments/cost"
)

// Exit codes.
const (
	exitOK       = 0
	exitRun      = 1 // a run failed or was interrupted
	exitUsage    = 2 // bad usage or a bad experiment
	exitInternal = 3 // a bug in qcnlab: a panic, reported with its stack
)

func main() {
	limitMemory()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// limitMemory sets the Go runtime's soft memory limit above the budget of
// the runs in flight (cost.MaxMemoryInFlight, by their estimates), unless
// GOMEMLIMIT sets one: the collector otherwise lets the heap grow to twice
// what is live before it collects, and runs within the budget could take
// twice the memory it states.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(memoryLimit))
	}
}

// memoryLimit is the budget and a quarter more, for the program's own
// (the workbench's screen, a batch's results and figures).
const memoryLimit = 1.25 * cost.MaxMemoryInFlight

// run is qcnlab with its arguments and output streams: what main and the
// tests run.
func run(args []string, stdout, stderr io.Writer) int {
	out := &outputWriter{w: stdout}
	code := guard(stderr, func() int { return dispatch(args, out, stderr) })
	if out.err != nil && code == exitOK {
		// A summary, a listing or a help that did not reach its reader is a
		// failure, whatever the command thought of it (/dev/full, a closed
		// file).
		fmt.Fprintln(stderr, "qcnlab: cannot write the output:", out.err)
		return exitRun
	}
	return code
}

// outputWriter is stdout, remembering the first error a write met: every
// command writes there, and one check at the end covers them all.
type outputWriter struct {
	w   io.Writer
	err error
}

func (o *outputWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil && o.err == nil {
		o.err = err
	}
	return n, err
}

// dispatch finds the command the arguments name and runs it.
func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		if isTerminal(os.Stdin) && isTerminal(stdout) {
			return execute(lookup("tui"), nil, stdout, stderr)
		}
		return execute(lookup("run"), []string{defaultExperiment}, stdout, stderr)
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-h", "-help", "--help":
		name = "help"
	case "-version", "--version":
		name = "version"
	}
	cmd := lookup(name)
	if cmd == nil {
		fmt.Fprintf(stderr, "qcnlab: unknown command %q\n\n%s", name, summary())
		return exitUsage
	}
	return execute(cmd, rest, stdout, stderr)
}

// revision is the VCS revision, for a build the Go toolchain cannot stamp
// (a linked git worktree, golang/go#58218; a source tarball; -buildvcs=false):
// go build -ldflags "-X main.revision=$(git rev-parse HEAD)".
var revision string

// version is the module version and the VCS revision the binary was built
// from, as the Go toolchain recorded them (or -X main.revision set it).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "qcnlab (no build information)"
	}
	v := "qcnlab " + info.Main.Version
	rev, at, modified := revision, "", ""
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = ", " + s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", with uncommitted changes"
			}
		}
	}
	if rev != "" {
		v += fmt.Sprintf(" (revision %s%s%s)", rev, at, modified)
	} else {
		v += " (no VCS revision: build it in a git clone with go install . or go build," +
			` or give it with -ldflags "-X main.revision=$(git rev-parse HEAD)")`
	}
	return v + ", " + info.GoVersion
}
