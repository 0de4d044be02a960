package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"text/tabwriter"

	"qcnlab/experiments"
)

// exitInternal is a bug in qcnlab: a panic, reported with its stack, so that
// scripts can tell a crash from a typo.
const exitInternal = 3

// helpOut is where --help writes: run's stdout.
var helpOut io.Writer = os.Stdout

// guard runs a command and turns a panic into an internal error with its
// stack and exit status 3.
func guard(stderr io.Writer, f func() int) (code int) {
	defer func() {
		if r := recover(); r != nil {
			code = internalError(stderr, r, debug.Stack())
		}
	}()
	return f()
}

// panicked carries a panic out of a goroutine with the stack where it
// happened.
type panicked struct {
	value any
	stack []byte
}

func internalError(stderr io.Writer, value any, stack []byte) int {
	if p, ok := value.(panicked); ok {
		value, stack = p.value, p.stack
	}
	fmt.Fprintf(stderr, "qcnlab: internal error (a bug in qcnlab; please report it with this message): %v\n\n%s", value, stack)
	return exitInternal
}

// errInterrupted is a phase stopped by SIGINT or SIGTERM.
var errInterrupted = errors.New("interrupted")

// interruptible runs f, and returns errInterrupted as soon as SIGINT or
// SIGTERM arrives, leaving f to the process's exit: loading and validating
// an experiment does not watch a context, and must still stop at once.
func interruptible[T any](f func() (T, error)) (T, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	type result struct {
		v   T
		err error
		p   *panicked
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{p: &panicked{r, debug.Stack()}}
			}
		}()
		v, err := f()
		done <- result{v: v, err: err}
	}()
	select {
	case r := <-done:
		if r.p != nil {
			panic(*r.p)
		}
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, errInterrupted
	}
}

// batchSignals are the contexts of a batch that writes outputs: the first
// SIGINT or SIGTERM cancels runs (the batch then writes what finished), a
// second one abort, which stops that writing too.
func batchSignals() (runs, abort context.Context, stop func()) {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	runs, cancelRuns := context.WithCancel(context.Background())
	abort, cancelAbort := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		for n := 0; ; n++ {
			select {
			case <-ch:
				if n == 0 {
					cancelRuns()
				} else {
					cancelAbort()
				}
			case <-done:
				return
			}
		}
	}()
	return runs, abort, func() {
		signal.Stop(ch)
		close(done)
		cancelRuns()
		cancelAbort()
	}
}

// openExperiment opens, overrides and validates an experiment; SIGINT or
// SIGTERM stops it.
func openExperiment(arg string, sets []string) (*experiments.Experiment, error) {
	return interruptible(func() (*experiments.Experiment, error) { return experiments.OpenWith(arg, sets) })
}

// openFailed reports an experiment that did not open: exit 2, or 1 if the
// user stopped it.
func openFailed(stderr io.Writer, err error) int {
	if errors.Is(err, errInterrupted) {
		fmt.Fprintln(stderr, "qcnlab: interrupted while loading the experiment")
		return exitRun
	}
	fmt.Fprintln(stderr, err)
	return exitUsage
}

// commandHelp is a command's usage line, what it does and its arguments.
type commandHelp struct {
	usage, about string
	args         [][2]string
}

var helps = map[string]commandHelp{
	"run": {"qcnlab run FILE|NAME [--set KEY=VALUE]... [--out DIR [--plot png|svg]] [--json] [--workers N]",
		"Run an experiment (every algorithm at every point of its sweep) and print its summary.",
		[][2]string{{"FILE|NAME", "an experiment file, or a built-in experiment (qcnlab list)"}}},
	"tui": {"qcnlab tui [FILE|NAME] [--set KEY=VALUE]...",
		"Open the interactive workbench on an experiment (default: " + experiments.DefaultName + ").",
		[][2]string{{"FILE|NAME", "an experiment file, or a built-in experiment (qcnlab list)"}}},
	"stability": {"qcnlab stability FILE|NAME --vary KEY --range LO:HI [flags]",
		"Find where along KEY each algorithm stops being stable.",
		[][2]string{{"FILE|NAME", "an experiment file, or a built-in experiment (qcnlab list)"}}},
	"merge": {"qcnlab merge DIR... --out DIR", "Join the output directories of the shards of one batch.",
		[][2]string{{"DIR...", "the --out directories of qcnlab run --shard I/N"}}},
	"list": {"qcnlab list", "List the built-in experiments and the algorithms.", nil},
	"algos": {"qcnlab algos [NAME]... [--exp FILE|NAME]", "List each algorithm's parameters: unit, value and meaning.",
		[][2]string{{"NAME", "an algorithm (default: all of them)"}}},
	"show": {"qcnlab show NAME", "Print a built-in experiment's TOML.",
		[][2]string{{"NAME", "a built-in experiment (qcnlab list)"}}},
	"bench": {"qcnlab bench [--duration D]", "Measure simulation speed and memory.", nil},
}

// newFlags makes a command's flag set: --help prints its usage, arguments
// and flags to stdout, and a bad flag is reported as --flag.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("qcnlab "+name, flag.ContinueOnError)
	fs.SetOutput(&dashes{w: stderr})
	fs.Usage = func() {}
	return fs
}

// parse parses flags that may come before, between or after the positional
// arguments, and returns the positional ones. After --help it returns
// flag.ErrHelp, for which usageExit gives status 0.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			name := strings.TrimPrefix(fs.Name(), "qcnlab ")
			if errors.Is(err, flag.ErrHelp) {
				writeHelp(helpOut, name, fs)
			} else {
				fmt.Fprintf(fs.Output(), "(qcnlab %s --help shows its usage)\n", name)
			}
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// usageExit is the status of a command whose flags did not parse: 0 after
// --help, 2 otherwise.
func usageExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

func writeHelp(w io.Writer, name string, fs *flag.FlagSet) {
	h, ok := helps[name]
	if !ok {
		h.usage = "qcnlab " + name + " [flags]"
	}
	fmt.Fprintf(w, "Usage: %s\n", h.usage)
	if h.about != "" {
		fmt.Fprintf(w, "\n%s\n", h.about)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 3, ' ', 0)
	if len(h.args) > 0 {
		fmt.Fprintln(tw, "\nArguments:")
		for _, a := range h.args {
			fmt.Fprintf(tw, "  %s\t%s\n", a[0], a[1])
		}
	}
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprintln(tw, "\nFlags:")
			first = false
		}
		arg, usage := flag.UnquoteUsage(f)
		if arg != "" {
			arg = " " + arg
		}
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(tw, "  --%s%s\t%s\n", f.Name, arg, usage)
	})
	fmt.Fprintln(tw, "  --help\tprint this help")
	tw.Flush()
}

// dashes writes the flag package's messages with flags as --flag, as the
// help shows them.
type dashes struct{ w io.Writer }

func (d *dashes) Write(p []byte) (int, error) {
	s := strings.NewReplacer(": -", ": --", "flag -", "flag --").Replace(string(p))
	if _, err := io.WriteString(d.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// version is the module version and the VCS revision the binary was built
// from, as the Go toolchain recorded them.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "qcnlab (no build information)"
	}
	v := "qcnlab " + info.Main.Version
	var rev, at, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", with uncommitted changes"
			}
		}
	}
	if rev != "" {
		v += fmt.Sprintf(" (revision %s, %s%s)", rev, at, modified)
	} else {
		v += " (built without VCS information)"
	}
	return v + ", " + info.GoVersion
}
