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
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/cost"
	"qcnlab/experiments/plots"
	"qcnlab/printable"
	"qcnlab/units"
)

// call is one command being run: its parsed flags and arguments, and where
// it writes.
type call struct {
	cmd            *command
	fs             *flag.FlagSet
	args           []string // the positional arguments
	stdout, stderr io.Writer
	// term is stderr itself, for the progress line's own control
	// sequences; stderr escapes what a terminal would act on in messages
	// (a path the user gave, a shard's directory).
	term io.Writer
}

// escaping writes messages with every control character but the line
// break and the tab escaped (printable.Text): they name paths and names
// that the user, or a directory listing, gave.
type escaping struct{ w io.Writer }

func (e escaping) Write(p []byte) (int, error) {
	var b strings.Builder
	for line := range strings.SplitAfterSeq(string(p), "\n") {
		body, end := strings.CutSuffix(line, "\n")
		for i, cell := range strings.Split(body, "\t") {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(printable.Text(cell))
		}
		if end {
			b.WriteByte('\n')
		}
	}
	if _, err := io.WriteString(e.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// execute parses a command's flags (before, between or after its
// positional arguments) and runs it; --help prints its help to stdout.
func execute(cmd *command, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("qcnlab "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(&dashes{w: escaping{stderr}})
	fs.Usage = func() {}
	runCmd := cmd.define(fs)
	onlyOnce(fs)
	c := &call{cmd: cmd, fs: fs, stdout: stdout, stderr: escaping{stderr}, term: stderr}
	for {
		if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
			writeHelp(stdout, cmd, fs)
			return exitOK
		} else if err != nil {
			fmt.Fprintf(stderr, "(qcnlab %s --help shows its usage)\n", cmd.name)
			return exitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		c.args = append(c.args, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return runCmd(c)
}

// onlyOnce makes every flag of fs but the repeatable ones (--set) an
// error when given twice with different values: the flag package keeps
// the last silently, so that "--out a --out b" would write to b alone,
// with a's name on the same line.
func onlyOnce(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		if _, repeatable := f.Value.(*setFlags); repeatable {
			return
		}
		o := once{Value: f.Value}
		if b, ok := f.Value.(boolValue); ok && b.IsBoolFlag() {
			f.Value = &onceBool{o}
		} else {
			f.Value = &o
		}
	})
}

// boolValue is the flag package's interface of a flag that needs no value.
type boolValue interface {
	flag.Value
	IsBoolFlag() bool
}

// once is a flag value that may be set once (or again to the same).
type once struct {
	flag.Value
	given, read string // the first value given, and as the flag read it
	set         bool
}

// Set compares the values as the flag reads them (--workers 1 and
// --workers 01 are one value): a refused second value ends the parse, so
// that it is set does not matter.
func (o *once) Set(v string) error {
	if err := o.Value.Set(v); err != nil {
		return err
	}
	if read := o.Value.String(); !o.set {
		o.given, o.read, o.set = v, read, true
	} else if read != o.read {
		return fmt.Errorf("given twice, as %q and as %q: give it once", o.given, v)
	}
	return nil
}

// unwrapped is f with the value onlyOnce wrapped, whose type names the
// argument in the help (int, string).
func unwrapped(f *flag.Flag) *flag.Flag {
	g := *f
	switch o := g.Value.(type) {
	case *once:
		g.Value = o.Value
	case *onceBool:
		g.Value = o.Value
	}
	return &g
}

// onceBool is once for a flag that needs no value.
type onceBool struct{ once }

func (o *onceBool) IsBoolFlag() bool { return true }

// fail reports bad usage of the command: exit 2.
func (c *call) fail(a ...any) int {
	fmt.Fprintln(c.stderr, append([]any{"qcnlab " + c.cmd.name + ":"}, a...)...)
	return exitUsage
}

// set reports whether a flag was given.
func (c *call) set(name string) bool {
	given := false
	c.fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// terminal reports whether stderr is a terminal: progress goes there only
// then.
func (c *call) terminal() bool { return isTerminal(c.term) }

// setFlags collects repeated --set flags.
type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, ", ") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

// The flags several commands share, each written once.

func setFlag(fs *flag.FlagSet) *setFlags {
	var sets setFlags
	fs.Var(&sets, "set", "override a key with a TOML value, `KEY=VALUE`: --set network.rtt=300us (repeatable)")
	return &sets
}

func workersFlag(fs *flag.FlagSet) *int {
	return fs.Int("workers", 0, fmt.Sprintf("`N` runs at once, at most %d, fewer while their memory estimates would pass %s together (default: one per CPU)",
		cost.MaxWorkers, units.FormatBytes(cost.MaxMemoryInFlight)))
}

// figureFlags are --plot and --plot-size.
type figureFlags struct{ format, size *string }

func plotFlags(fs *flag.FlagSet, what string) figureFlags {
	return figureFlags{
		format: fs.String("plot", "", what+", as `png|svg|pdf`"),
		size:   fs.String("plot-size", "", "with --plot, the size of every figure, `WxH` in in, cm, mm or pt (6.4inx4.8in, 16cmx10cm; a plain number is inches)"),
	}
}

// options are the figure options the flags give.
func (f figureFlags) options() (plots.Options, error) {
	opt := plots.Options{Format: *f.format}
	if err := opt.Check(); err != nil {
		return opt, err
	}
	if *f.size != "" {
		if opt.Format == "" {
			return opt, errors.New("--plot-size needs --plot FORMAT")
		}
		size, err := plots.ParseSize(*f.size)
		if err != nil {
			return opt, err
		}
		opt.Size = size
	}
	return opt, nil
}

// workersValid checks --workers, which batch.Workers reads: 0 means one per
// CPU.
func (c *call) workersValid(n int) bool {
	if n < 0 {
		c.fail("--workers must not be negative (0 means one per CPU)")
		return false
	}
	if n > cost.MaxWorkers {
		c.fail(fmt.Sprintf("--workers %d: the most is %d (runs at once are bounded by memory too: %s by their estimates)",
			n, cost.MaxWorkers, units.FormatBytes(cost.MaxMemoryInFlight)))
		return false
	}
	return true
}

// writeHelp writes a command's help: its usage line, what it does, its
// arguments and its flags (as --flag).
func writeHelp(w io.Writer, cmd *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: %s\n", cmd.usage())
	if cmd.about != "" {
		fmt.Fprintf(w, "\n%s\n", cmd.about)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 3, ' ', 0)
	if len(cmd.args) > 0 {
		fmt.Fprintln(tw, "\nArguments:")
		for _, a := range cmd.args {
			fmt.Fprintf(tw, "  %s\t%s\n", a[0], a[1])
		}
	}
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprintln(tw, "\nFlags:")
			first = false
		}
		arg, usage := flag.UnquoteUsage(unwrapped(f))
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

// summaryColumn is where the summary's descriptions start.
const summaryColumn = 28

// synopsis is the table of commands as `qcnlab help` and the README's
// "Command line" show it: each command's usage, and what it does from
// summaryColumn, on the usage's last line if it has room.
func synopsis() string {
	var b strings.Builder
	pad := strings.Repeat(" ", summaryColumn)
	for _, cmd := range commands {
		lines := cmd.synopsis
		does := cmd.does
		for i, l := range lines {
			if i < len(lines)-1 || len(l) >= summaryColumn {
				b.WriteString(l + "\n")
				continue
			}
			b.WriteString(l + pad[len(l):] + does[0] + "\n")
			does = does[1:]
		}
		for _, d := range does {
			b.WriteString(pad + d + "\n")
		}
	}
	return b.String()
}

// summary is `qcnlab help`: the synopsis and the exit statuses.
func summary() string {
	var b strings.Builder
	b.WriteString("qcnlab: a workbench for 802.1Qau congestion control (QCN and its family).\n\nUsage:\n")
	for _, l := range strings.SplitAfter(synopsis(), "\n") {
		if l != "" {
			b.WriteString("  " + l)
		}
	}
	b.WriteString("\nExit status: 0 success, 1 a run failed or was interrupted, 2 bad usage or experiment,\n" +
		"3 an internal error (a bug in qcnlab, reported with its stack).\n")
	return b.String()
}

// progress is the one progress line of the commands: on stderr, when it is
// a terminal, what runs, how far, and the time it has taken and will take.
// It returns nil (no progress) when stderr is not a terminal, and a
// function that clears the line.
func (c *call) progress(name, unit string) (report func(batch.Progress), clear func()) {
	reported := false
	report = func(p batch.Progress) {
		if !reported {
			reached("runs") // the runs are under way: for the signal test
			reported = true
		}
		if !c.terminal() {
			return
		}
		stage := ""
		if p.Stage != "" {
			stage = p.Stage + ", "
		}
		eta := "ETA --"
		if p.ETA > 0 {
			eta = "ETA " + p.ETA.Round(time.Second).String()
		}
		fmt.Fprintf(c.term, "\r\033[K%s: %s%d/%d %s, %3.0f%%, %s elapsed, %s",
			printable.Text(name), stage, p.Done, p.Total, unit, 100*p.Fraction, p.Elapsed.Round(time.Second), eta)
	}
	clear = func() {
		if c.terminal() {
			fmt.Fprint(c.term, "\r\033[K")
		}
	}
	if !c.terminal() && testHook == nil {
		report = nil
	}
	return report, clear
}

// testHook, set by the tests only, hears each phase a command reaches
// once its signal handlers are in place: "loading" an experiment (and
// validating it), "runs" under way.
var testHook func(phase string)

func reached(phase string) {
	if testHook != nil {
		testHook(phase)
	}
}

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

// signals is the context of a command that stops at the first SIGINT or
// SIGTERM.
func signals() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// interruptible runs f, and returns errInterrupted as soon as SIGINT or
// SIGTERM arrives, leaving f to the process's exit: loading and validating
// an experiment does not watch a context, and must still stop at once.
func interruptible[T any](f func() (T, error)) (T, error) {
	ctx, stop := signals()
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

// openExperiment opens an experiment (a file or a built-in), applies the
// --set overrides in order and validates it, warning of what it adapted to
// them; SIGINT or SIGTERM stops it.
func (c *call) openExperiment(arg string, sets []string) (*experiments.Experiment, error) {
	e, err := interruptible(func() (*experiments.Experiment, error) {
		reached("loading") // and validation: for the signal test
		return experiments.OpenWith(arg, sets)
	})
	if e != nil {
		for _, n := range e.Notes {
			fmt.Fprintln(c.stderr, "qcnlab: warning:", n)
		}
	}
	return e, err
}

// openFailed reports an experiment that did not open: exit 2, or 1 if the
// user stopped it.
func (c *call) openFailed(err error) int {
	if errors.Is(err, errInterrupted) {
		fmt.Fprintln(c.stderr, "qcnlab: interrupted while loading the experiment")
		return exitRun
	}
	fmt.Fprintln(c.stderr, err)
	return exitUsage
}

func isTerminal(w io.Writer) bool {
	f, ok := fileOf(w)
	return ok && term.IsTerminal(int(f.Fd()))
}

// fileOf is the file w writes to, if it is one (stdout behind its
// outputWriter included).
func fileOf(w io.Writer) (*os.File, bool) {
	if o, ok := w.(*outputWriter); ok {
		w = o.w
	}
	f, ok := w.(*os.File)
	return f, ok
}

// terminalWidth is the width of the terminal w writes to, or of $COLUMNS
// when set; 0 when neither says (a pipe or a file: no wrapping).
func terminalWidth(w io.Writer) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := fileOf(w); ok && term.IsTerminal(int(f.Fd())) {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil {
			return width
		}
	}
	return 0
}
