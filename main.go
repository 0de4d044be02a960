// Command qcnlab is a workbench for the IEEE 802.1Qau family of layer-2
// congestion control schemes: QCN and its relatives, simulated packet by
// packet. main parses the command line and hands over to the experiments
// package (batch mode) or the tui package (the workbench).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
	"golang.org/x/term"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/reproduce"
	"qcnlab/experiments/results"
	"qcnlab/experiments/shard"
	"qcnlab/experiments/stability"
	"qcnlab/tui"
	"qcnlab/units"
)

// Exit codes.
const (
	exitOK    = 0
	exitRun   = 1 // a run failed or was interrupted
	exitUsage = 2 // bad usage or a bad experiment
)

const usage = `qcnlab: a workbench for 802.1Qau congestion control (QCN and its family).

Usage:
  qcnlab                      open the workbench on the default experiment (` + experiments.DefaultName + `);
                              without a terminal, run it and print its summary
  qcnlab tui [FILE|NAME] [--set KEY=VALUE]...
                              open the interactive workbench on an experiment
  qcnlab run FILE|NAME [--set KEY=VALUE]... [--out DIR [--plot png|svg]] [--json] [--workers N]
             [--shard I/N]    run an experiment file or a built-in experiment (with --shard,
                              the I-th of N slices of its runs, 0 <= I < N)
  qcnlab merge DIR... --out DIR [--plot png|svg]
                              join the --shard outputs of one experiment into one
  qcnlab stability FILE|NAME --vary KEY --range LO:HI [--seeds N] [--criteria LIST]
                  [--grid N] [--resolution X] [--set KEY=VALUE]... [--json] [--workers N]
                              find where along KEY each algorithm stops being stable
  qcnlab list                 list the built-in experiments and the algorithms
  qcnlab algos [NAME]... [--exp FILE|NAME]
                              list algorithm parameters: unit, default, meaning
  qcnlab show NAME            print a built-in experiment's TOML
  qcnlab bench [--duration D] measure simulation speed and memory
  qcnlab reproduce [ID...] [--quick] --out DIR [--workers N] [--list]
                              rerun the seeds' figures and judge each claim: DIR/report.md, report.json

  qcnlab help [COMMAND]       this help, or a command's usage, arguments and flags (also --help)
  qcnlab --version            the version and the revision it was built from

Exit status: 0 success, 1 a run failed or was interrupted, 2 bad usage or experiment,
3 an internal error (a bug in qcnlab, reported with its stack).
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	helpOut = stdout
	return guard(stderr, func() int { return dispatch(args, stdout, stderr) })
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		if isTerminal(os.Stdin) && isTerminal(stdout) {
			return tuiCommand(nil, stdout, stderr)
		}
		return runCommand([]string{experiments.DefaultName}, stdout, stderr)
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run":
		return runCommand(rest, stdout, stderr)
	case "tui":
		return tuiCommand(rest, stdout, stderr)
	case "merge":
		return mergeCommand(rest, stdout, stderr)
	case "stability":
		return stabilityCommand(rest, stdout, stderr)
	case "list":
		return listCommand(rest, stdout, stderr)
	case "algos":
		return algosCommand(rest, stdout, stderr)
	case "show":
		return showCommand(rest, stdout, stderr)
	case "bench":
		return benchCommand(rest, stdout, stderr)
	case "reproduce":
		return reproduce.Command(rest, stdout, stderr, isTerminal(stderr))
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 && cmd == "help" && rest[0] != "help" {
			return dispatch([]string{rest[0], "--help"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, version())
		return exitOK
	}
	fmt.Fprintf(stderr, "qcnlab: unknown command %q\n\n%s", cmd, usage)
	return exitUsage
}

// setFlags collects repeated --set flags.
type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, ", ") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

func runCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("run", stderr)
	var sets setFlags
	fs.Var(&sets, "set", "override a key with a TOML value, `KEY=VALUE`: --set network.rtt=300us (repeatable)")
	out := fs.String("out", "", "write summary.json, timeseries.csv and experiment.toml to the directory `DIR`")
	plotFormat := fs.String("plot", "", "with --out, also draw each run's queue and rates in plots/, as `png|svg`")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	workers := fs.Int("workers", 0, "`N` runs at once (default: one per CPU)")
	shardFlag := fs.String("shard", "", "with --out, run only the I-th of N disjoint slices of the runs, `I/N` (I from 0)")
	pos, err := parse(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "qcnlab run: name one experiment file or built-in experiment")
		return exitUsage
	}
	var part results.Part
	if *shardFlag != "" {
		slice, err := shard.Parse(*shardFlag)
		if err != nil {
			fmt.Fprintln(stderr, "qcnlab run:", err)
			return exitUsage
		}
		part = slice
		if *out == "" {
			fmt.Fprintln(stderr, "qcnlab run: --shard needs --out DIR (qcnlab merge joins the directories)")
			return exitUsage
		}
	}
	e, err := openExperiment(pos[0], sets)
	if err != nil {
		return openFailed(stderr, err)
	}

	ctx, abort, stop := batchSignals()
	defer stop()
	if *plotFormat != "" && *out == "" {
		fmt.Fprintln(stderr, "qcnlab run: --plot needs --out DIR")
		return exitUsage
	}
	if *workers < 0 {
		fmt.Fprintln(stderr, "qcnlab run: --workers must not be negative (0 means one per CPU)")
		return exitUsage
	}
	opt := results.Options{Workers: *workers, OutDir: *out, Plot: *plotFormat, Part: part, Abort: abort}
	if isTerminal(stderr) {
		opt.Progress = func(p batch.Progress) {
			fmt.Fprintf(stderr, "\r%s: %d/%d runs, %3.0f%%", e.Name, p.Done, p.Total, 100*p.Fraction)
		}
	}
	res, err := results.Execute(ctx, e, opt)
	if opt.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if res != nil {
		for _, w := range results.Warnings(res) {
			fmt.Fprintln(stderr, "qcnlab: warning:", w)
		}
		write := results.WriteText
		if *asJSON {
			write = results.WriteJSON
		}
		if werr := write(stdout, res); werr != nil && err == nil {
			err = werr
		}
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, context.Canceled) && res != nil && (res.Complete || abort.Err() != nil):
		fmt.Fprintf(stderr, "qcnlab: interrupted while writing the outputs; %s holds what was written before\n", *out)
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "qcnlab: "+interrupted(len(res.Runs), *out))
	case errors.As(err, new(*batch.InternalError)):
		fmt.Fprintln(stderr, "qcnlab:", err)
		return exitInternal
	case res == nil: // the experiment could not be expanded into runs
		fmt.Fprintln(stderr, err)
		return exitUsage
	default:
		fmt.Fprintln(stderr, "qcnlab:", err)
	}
	return exitRun
}

func mergeCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("merge", stderr)
	out := fs.String("out", "", "the directory `DIR` to write the joined outputs to")
	plotFormat := fs.String("plot", "", "also draw the sweep's figure in plots/, as `png|svg`")
	dirs, err := parse(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(dirs) == 0 || *out == "" {
		fmt.Fprintln(stderr, "qcnlab merge: name the shard directories and --out DIR")
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := shard.Merge(ctx, dirs, *out, *plotFormat)
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "qcnlab merge: interrupted; its temporary files are removed")
		return exitRun
	}
	if err != nil {
		fmt.Fprintln(stderr, "qcnlab merge:", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "%s: %d runs from %d shards written to %s\n", res.Experiment, len(res.Runs), len(dirs), *out)
	return exitOK
}

func stabilityCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("stability", stderr)
	var sets setFlags
	fs.Var(&sets, "set", "override a key: --set duration=200ms (repeatable)")
	key := fs.String("vary", "", "the key to search along: network.rtt, network.capacity, network.buffer, sources.count, params.NAME.KEY")
	span := fs.String("range", "", "LO:HI with units, walked from LO to HI: 60us:300us")
	seeds := fs.Int("seeds", 0, "judge each point over this many seeds from the experiment's seed (default: the experiment's seed sweep, else its seed)")
	criteria := fs.String("criteria", stability.DefaultCriteria, "comma-separated METRIC>X or METRIC<X; queue sizes take Xqeq or a size")
	grid := fs.Int("grid", 9, "coarse grid points over the range, both ends included")
	resolution := fs.String("resolution", "", "bracket width at which bisection stops, with the key's unit (default: range/64)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	workers := fs.Int("workers", 0, "`N` runs at once (default: one per CPU)")
	pos, err := parse(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(pos) != 1 || *key == "" || *span == "" {
		fmt.Fprintln(stderr, "qcnlab stability: name one experiment, --vary KEY and --range LO:HI")
		return exitUsage
	}
	e, err := openExperiment(pos[0], sets)
	if err != nil {
		return openFailed(stderr, err)
	}
	opt := stability.Options{Key: *key, Range: *span, Grid: *grid, Workers: *workers}
	if opt.Criteria, err = stability.ParseCriteria(*criteria); err != nil {
		fmt.Fprintln(stderr, "qcnlab stability:", err)
		return exitUsage
	}
	seedsSet := false
	fs.Visit(func(f *flag.Flag) { seedsSet = seedsSet || f.Name == "seeds" })
	if *seeds < 0 || seedsSet && *seeds == 0 || *grid < 2 {
		fmt.Fprintln(stderr, "qcnlab stability: --seeds must be positive and --grid at least 2")
		return exitUsage
	}
	opt.SeedCount = *seeds
	if *resolution != "" {
		if opt.Resolution, err = stability.ParseValue(*key, *resolution); err != nil {
			fmt.Fprintln(stderr, "qcnlab stability: --resolution:", err)
			return exitUsage
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if isTerminal(stderr) {
		opt.Progress = func(p batch.Progress) {
			fmt.Fprintf(stderr, "\r%s: %s, %d/%d runs, %3.0f%%", e.Name, p.Stage, p.Done, p.Total, 100*p.Fraction)
		}
	}
	rep, err := stability.Search(ctx, e, opt)
	if opt.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if rep == nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	write := stability.WriteText
	if *asJSON {
		write = stability.WriteJSON
	}
	if werr := write(stdout, rep); werr != nil && err == nil {
		err = werr
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "qcnlab: interrupted")
	default:
		fmt.Fprintln(stderr, "qcnlab:", err)
	}
	return exitRun
}

func tuiCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("tui", stderr)
	var sets setFlags
	fs.Var(&sets, "set", "override a key with a TOML value, `KEY=VALUE`: --set network.rtt=300us (repeatable)")
	pos, err := parse(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(pos) > 1 {
		fmt.Fprintln(stderr, "qcnlab tui: name at most one experiment file or built-in experiment")
		return exitUsage
	}
	name := experiments.DefaultName
	if len(pos) == 1 {
		name = pos[0]
	}
	e, err := openExperiment(name, sets)
	if err != nil {
		return openFailed(stderr, err)
	}
	if !isTerminal(os.Stdin) || !isTerminal(stdout) {
		fmt.Fprintln(stderr, "qcnlab tui: the workbench needs a terminal; qcnlab run "+name+" runs it in batch")
		return exitUsage
	}
	if err := tui.Run(e); err != nil {
		fmt.Fprintln(stderr, "qcnlab:", err)
		if errors.Is(err, tea.ErrProgramPanic) { // the stack is on the terminal
			return exitInternal
		}
		return exitRun
	}
	return exitOK
}

func listCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("list", stderr)
	if pos, err := parse(fs, args); err != nil {
		return usageExit(err)
	} else if len(pos) > 0 {
		fmt.Fprintln(stderr, "qcnlab list takes no arguments")
		return exitUsage
	}
	if err := experiments.WriteList(stdout); err != nil {
		fmt.Fprintln(stderr, err)
		return exitRun
	}
	return exitOK
}

func algosCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("algos", stderr)
	exp := fs.String("exp", experiments.DefaultName, "show the values for the experiment `FILE|NAME`: its network's defaults, and what it sets")
	var sets setFlags
	fs.Var(&sets, "set", "override a key of the experiment, `KEY=VALUE`: --set params.qcn.q_eq=40KB (repeatable)")
	names, err := parse(fs, args)
	if err != nil {
		return usageExit(err)
	}
	for _, n := range names {
		if _, err := algos.Lookup(n); err != nil {
			fmt.Fprintln(stderr, "qcnlab algos:", err)
			return exitUsage
		}
	}
	e, err := openExperiment(*exp, sets)
	if err != nil {
		return openFailed(stderr, err)
	}
	if err := experiments.WriteAlgos(stdout, e, names...); err != nil {
		fmt.Fprintln(stderr, err)
		return exitRun
	}
	return exitOK
}

func showCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("show", stderr)
	pos, err := parse(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "qcnlab show: name one built-in experiment (qcnlab list shows them)")
		return exitUsage
	}
	data, err := experiments.BuiltinSource(pos[0])
	if err != nil {
		fmt.Fprintln(stderr, "qcnlab show:", err)
		return exitUsage
	}
	stdout.Write(data)
	return exitOK
}

func benchCommand(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("bench", stderr)
	duration := fs.String("duration", "1s", "simulated time `D` of the main measurement, at least 1ms")
	if pos, err := parse(fs, args); err != nil {
		return usageExit(err)
	} else if len(pos) > 0 {
		fmt.Fprintln(stderr, "qcnlab bench takes no arguments")
		return exitUsage
	}
	d, err := units.ParseDuration(*duration)
	if err == nil && d < experiments.MinBenchDuration {
		err = fmt.Errorf("%s is too short to measure; the least is %s", units.FormatDuration(d), units.FormatDuration(experiments.MinBenchDuration))
	} else if err == nil {
		if verr := experiments.BenchExperiment(d).Validate(); verr != nil {
			err = fmt.Errorf("%s is too long to simulate: %w", units.FormatDuration(d), verr)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "qcnlab bench: --duration:", err)
		return exitUsage
	}
	fmt.Fprintln(stdout, "10 greedy QCN sources, 10 Gbps dumbbell, 1500 B frames, 100 us RTT, one core:")
	fmt.Fprintf(stdout, "%10s %12s %14s %14s %12s\n", "simulated", "wall", "frames/s", "events/s", "peak heap")
	// A short run first: the heap at a tenth of the time shows whether
	// memory grows with simulated time.
	for _, t := range []algos.Time{d / 10, d} {
		r, err := experiments.Bench(t)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitRun
		}
		fmt.Fprintf(stdout, "%10s %11.3fs %14.0f %14.0f %10.1fMB\n", units.FormatDuration(t), r.WallSeconds,
			r.FramesPerSecond(), r.EventsPerSecond(), float64(r.PeakHeap)/1e6)
	}
	return exitOK
}

// interrupted says what a stopped batch kept.
func interrupted(finished int, out string) string {
	switch {
	case finished == 0 && out != "":
		return "interrupted before any run finished; " + out + " holds the experiment and an empty summary"
	case finished == 0:
		return "interrupted before any run finished"
	case out != "":
		return fmt.Sprintf("interrupted; %s finished, in %s", runs(finished), out)
	}
	return fmt.Sprintf("interrupted; the summary above covers the %s that finished", runs(finished))
}

func runs(n int) string {
	if n == 1 {
		return "1 run"
	}
	return fmt.Sprintf("%d runs", n)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
