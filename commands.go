package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"qcnlab/algos"
	"qcnlab/experiments"
	"qcnlab/experiments/batch"
	"qcnlab/experiments/bench"
	"qcnlab/experiments/builtin"
	"qcnlab/experiments/catalog"
	"qcnlab/experiments/keys"
	"qcnlab/experiments/outdir"
	"qcnlab/experiments/reproduce"
	"qcnlab/experiments/results"
	"qcnlab/experiments/shard"
	"qcnlab/experiments/stability"
	"qcnlab/experiments/userfile"
	"qcnlab/printable"
	"qcnlab/tui"
	"qcnlab/units"
)

// defaultExperiment is what qcnlab runs when given none.
const defaultExperiment = experiments.DefaultName

// command is one entry of the command table: everything the summary
// (qcnlab help, and the README's synopsis, which a test keeps equal to it),
// the command's own --help and the dispatcher know of it.
type command struct {
	name string // the word after qcnlab; "" for qcnlab alone, which is not a command
	// synopsis is the command's usage in the summary: the first line from
	// "qcnlab", the others indented under it. Its --help shows it on one
	// line.
	synopsis []string
	does     []string    // what it does, in the summary
	about    string      // what it does, in its --help
	args     [][2]string // its positional arguments and their meaning, in its --help
	// define declares the command's flags on fs and returns what runs it,
	// which reads them once they are parsed.
	define func(fs *flag.FlagSet) func(c *call) int
}

// usage is the command's usage on one line.
func (cmd *command) usage() string {
	return strings.Join(strings.Fields(strings.Join(cmd.synopsis, " ")), " ")
}

// lookup finds a command by name; nil if there is none.
func lookup(name string) *command {
	for i := range commands {
		if commands[i].name == name && name != "" {
			return &commands[i]
		}
	}
	return nil
}

var experimentArg = [2]string{"FILE|NAME", "an experiment file, or a built-in experiment (qcnlab list)"}

// commands is the command table, in the order the summary lists them.
var commands []command

func init() {
	commands = []command{
		{
			synopsis: []string{"qcnlab"},
			does:     []string{"the workbench on " + defaultExperiment + "; without a terminal, run it in batch"},
		},
		{
			name:     "tui",
			synopsis: []string{"qcnlab tui [FILE|NAME] [--set KEY=VALUE]..."},
			does:     []string{"the workbench on an experiment"},
			about:    "Open the interactive workbench on an experiment (default: " + defaultExperiment + ").",
			args:     [][2]string{experimentArg},
			define:   tuiCommand,
		},
		{
			name: "run",
			synopsis: []string{"qcnlab run FILE|NAME [--set KEY=VALUE]... [--json] [--workers N]",
				"           [--out DIR [--plot png|svg|pdf] [--plot-size WxH] [--series full|none|D] [--shard I/N]]"},
			does: []string{"run an experiment and print its summary; with --shard, only the",
				"I-th (from 0) of N slices of its runs"},
			about:  "Run an experiment (every algorithm at every point of its sweep) and print its summary.",
			args:   [][2]string{experimentArg},
			define: runCommand,
		},
		{
			name:     "merge",
			synopsis: []string{"qcnlab merge DIR... --out DIR [--plot png|svg|pdf] [--plot-size WxH] [--force]"},
			does:     []string{"join the shards of one batch into its unsharded outputs"},
			about:    "Join the output directories of the shards of one batch.",
			args:     [][2]string{{"DIR...", "the --out directories of qcnlab run --shard I/N"}},
			define:   mergeCommand,
		},
		{
			name: "stability",
			synopsis: []string{"qcnlab stability FILE|NAME --vary KEY --range LO:HI [--seeds N] [--criteria LIST] [--grid N]",
				"                 [--resolution X] [--set KEY=VALUE]... [--json] [--workers N]"},
			does: []string{"where along KEY each algorithm stops being stable"},
			about: "Find where along KEY each algorithm stops being stable.\n\n" +
				"Each algorithm is judged by criteria that fit its scheme unless --criteria gives one list for all:\n" +
				"  qcn, ecm, dsm and the rest of the QCN family: " + stability.DefaultCriteria + "\n" +
				"    (queue std above 0.2 of the set point Q_EQ, queue empty over 1% of the time, utilization under 0.95)\n" +
				"  dcqcn: " + stability.BandCriteria + "\n" +
				"    (the queue above its marking band, p95 over K_max; the link idle over 5% of the time;\n" +
				"    the queue's p5-p95 swing wider than the band K_max - K_min)\n" +
				"  none, timely, hpcc, swift: " + stability.LinkCriteria + "\n" +
				"    (no set point or band to judge the queue by: the link alone)\n" +
				"Metrics: std, mean, max, min, empty, util, drops, jain, and the queue's p5, p50, p95, p99, swing (p95 - p5).\n" +
				"Queue sizes take a size (4.5KB) or a multiple of qeq, kmin, kmax or band (K_max - K_min).",
			args:   [][2]string{experimentArg},
			define: stabilityCommand,
		},
		{
			name:     "list",
			synopsis: []string{"qcnlab list"},
			does:     []string{"built-in experiments and algorithms"},
			about:    "List the built-in experiments and the algorithms.",
			define:   listCommand,
		},
		{
			name:     "algos",
			synopsis: []string{"qcnlab algos [NAME]... [--exp FILE|NAME] [--set KEY=VALUE]..."},
			does: []string{"each algorithm's parameters: unit, value in the experiment",
				`("set" where it sets one, else the default for its network),`,
				"meaning, then the readings taken where its seed is ambiguous"},
			about:  "List each algorithm's parameters: unit, value and meaning.",
			args:   [][2]string{{"NAME", "an algorithm (default: all of them)"}},
			define: algosCommand,
		},
		{
			name:     "show",
			synopsis: []string{"qcnlab show NAME"},
			does:     []string{"print a built-in experiment's TOML"},
			about:    "Print a built-in experiment's TOML.",
			args:     [][2]string{{"NAME", "a built-in experiment (qcnlab list)"}},
			define:   showCommand,
		},
		{
			name:     "bench",
			synopsis: []string{"qcnlab bench [--duration D] [--topology " + strings.Join(bench.Topologies, "|") + "] [--k N] [--cpuprofile FILE] [--set KEY=VALUE]..."},
			does:     []string{"simulation speed and memory (D from 1ms)"},
			about: "Measure simulation speed and memory: a short run (a tenth of D), then the run of D, a row each.\n\n" +
				"Columns (a rate is per second of wall time):\n" +
				"  simulated      the simulated time of the run; wall, the wall time it took\n" +
				"  frames/s       frames that left the network (data frames, at their route's last port)\n" +
				"  frame-hops/s   frames leaving a switch port, data or control (ACKs, NACKs, CNPs, feedback sent as frames);\n" +
				"                 a frame dropped at a port counts nothing there\n" +
				"  transmits/s    frames sent onto any link, data or control, by a host's NIC or a switch port\n" +
				"                 (a frame across five switches makes six: its host's and the five ports')\n" +
				"  events/s       discrete events the engine handles\n" +
				"  ns/hop         wall time per frame-hop; CPU ns/hop, the process's CPU time per frame-hop\n" +
				"  peak heap      the most heap in use seen during the run\n" +
				"Feedback kept out of band (on a chain, a sprayed fabric, or the QCN family's by default) is not a frame.",
			define: benchCommand,
		},
		{
			name:     "reproduce",
			synopsis: []string{"qcnlab reproduce [ID...] [--quick] --out DIR [--workers N] [--list]"},
			does:     []string{"rerun the seeds' figures and judge each claim"},
			about:    "Run the claims of the seed papers (all, or those named by ID) and write a report: DIR/report.md, report.json.",
			args:     [][2]string{{"ID...", "a claim (qcnlab reproduce --list lists them)"}},
			define:   reproduceCommand,
		},
		{
			name:     "help",
			synopsis: []string{"qcnlab help [COMMAND|keys]"},
			does:     []string{"usage; every command also takes --help (exit status 0);", "keys: every key of an experiment file"},
			about:    "Print the commands' usage, or a command's usage, arguments and flags, or every key of an experiment file (kind, default, where it applies, what it is).",
			args:     [][2]string{{"COMMAND", "a command"}, {"keys", "the keys of an experiment file"}},
			define:   helpCommand,
		},
		{
			name:     "version",
			synopsis: []string{"qcnlab --version"},
			does:     []string{"the module version and the VCS revision it was built from"},
			about:    "Print the module version, the VCS revision it was built from and the Go version.",
			define:   versionCommand,
		},
	}
}

func runCommand(fs *flag.FlagSet) func(c *call) int {
	sets := setFlag(fs)
	out := fs.String("out", "", "write experiment.toml, summary.json, results.csv and timeseries.csv.gz to the directory `DIR`")
	plotFlags := plotFlags(fs, "with --out, also draw each run's queue and rates, and the sweep's figures, in plots/")
	seriesFlag := fs.String("series", "full", "with --out, what timeseries.csv.gz holds: every sample (full), none, or one row per duration `D` (1ms)")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	workers := workersFlag(fs)
	shardFlag := fs.String("shard", "", "with --out, run only the I-th of N disjoint slices of the runs, `I/N` (I from 0)")
	return func(c *call) int {
		if len(c.args) != 1 {
			return c.fail("name one experiment file or built-in experiment")
		}
		plot, err := plotFlags.options()
		if err != nil {
			return c.fail(err)
		}
		series, err := results.ParseSeries(*seriesFlag)
		if err != nil {
			return c.fail(err)
		}
		if c.set("series") && *out == "" {
			return c.fail("--series needs --out DIR")
		}
		var part results.Part
		if *shardFlag != "" {
			slice, err := shard.Parse(*shardFlag)
			if err != nil {
				return c.fail(err)
			}
			if *out == "" {
				return c.fail("--shard needs --out DIR (qcnlab merge joins the directories)")
			}
			slice.Version = version() // merge refuses shards of different versions
			part = slice
		}
		e, err := c.openExperiment(c.args[0], *sets)
		if err != nil {
			return c.openFailed(err)
		}
		ctx, abort, stop := batchSignals()
		defer stop()
		if plot.Format != "" && *out == "" {
			return c.fail("--plot needs --out DIR")
		}
		if !c.workersValid(*workers) {
			return exitUsage
		}
		if d := algos.Time(e.Duration); series.Every > d && !slices.ContainsFunc(e.Sweep, func(a experiments.Axis) bool { return a.Key == "duration" }) {
			fmt.Fprintf(c.stderr, "qcnlab: warning: --series %s is longer than the run (%s): timeseries.csv.gz holds one row a run, at t = 0\n",
				*seriesFlag, units.FormatDuration(d))
		}
		report, clear := c.progress(e.Name, "runs")
		res, err := results.Execute(ctx, e, results.Options{Workers: *workers, OutDir: *out, Plot: plot.Format, PlotSize: plot.Size, Series: series, Part: part,
			Abort: abort, Progress: report})
		clear()
		deadlocked := false
		if res != nil {
			for _, w := range results.Warnings(res) {
				fmt.Fprintln(c.stderr, "qcnlab: warning:", w)
			}
			for _, r := range res.Runs {
				if d := r.PFCDeadlock; d != nil { // the run stopped there: a failed run
					fmt.Fprintf(c.stderr, "qcnlab: run %d (%s): %v\n", r.Run, r.Label, d)
					deadlocked = true
				}
			}
			write := results.WriteText
			if *asJSON {
				write = results.WriteJSON
			}
			if werr := write(c.stdout, res); werr != nil && err == nil {
				err = werr
			}
		}
		switch {
		case err == nil && deadlocked:
			return exitRun
		case err == nil:
			return exitOK
		case errors.Is(err, context.Canceled) && res != nil && (res.Complete || abort.Err() != nil):
			c.besides(err)
			fmt.Fprintf(c.stderr, "qcnlab: interrupted while writing the outputs; %s holds what was written before\n", *out)
		case errors.Is(err, context.Canceled):
			fmt.Fprintln(c.stderr, "qcnlab: "+interrupted(len(res.Runs), *out))
		case errors.As(err, new(*batch.InternalError)):
			fmt.Fprintln(c.stderr, "qcnlab:", err)
			return exitInternal
		case res == nil: // the experiment could not be expanded into runs, or --out was refused
			fmt.Fprintln(c.stderr, err)
			return exitUsage
		case outdir.IsRefusal(err): // a name in --out, changed while the runs went on
			fmt.Fprintln(c.stderr, "qcnlab:", err)
			return exitUsage
		case res.Stopped():
			// Interrupted, and some outputs lost (a full disk) or runs
			// failed: the error says what the directory holds, and the
			// user hears of the interruption too.
			fmt.Fprintln(c.stderr, "qcnlab:", err)
			fmt.Fprintln(c.stderr, "qcnlab: "+interrupted(len(res.Runs), ""))
		default:
			fmt.Fprintln(c.stderr, "qcnlab:", err)
		}
		return exitRun
	}
}

// besides prints what err says besides the cancellation it holds: the
// outputs a batch stopped while writing them had lost already.
func (c *call) besides(err error) {
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return
	}
	var others []error
	for _, e := range joined.Unwrap() {
		if !errors.Is(e, context.Canceled) {
			others = append(others, e)
		}
	}
	if len(others) > 0 {
		fmt.Fprintln(c.stderr, "qcnlab:", errors.Join(others...))
	}
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

func mergeCommand(fs *flag.FlagSet) func(c *call) int {
	out := fs.String("out", "", "the directory `DIR` to write the joined outputs to")
	plotFlags := plotFlags(fs, "also draw the sweep's figures in plots/")
	force := fs.Bool("force", false, "merge shards that different versions of qcnlab ran (shard.json's qcnlab_version), with a warning")
	return func(c *call) int {
		if len(c.args) == 0 || *out == "" {
			return c.fail("name the shard directories and --out DIR")
		}
		plot, err := plotFlags.options()
		if err != nil {
			return c.fail(err)
		}
		ctx, stop := signals()
		defer stop()
		res, err := shard.Merge(ctx, c.args, *out, shard.Options{Plot: plot, Force: *force,
			Warn: func(w string) { fmt.Fprintln(c.stderr, "qcnlab merge: warning:", w) }})
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(c.stderr, "qcnlab merge: interrupted; its temporary files are removed")
			return exitRun
		}
		if err != nil && res != nil { // the data merged, a figure failed
			fmt.Fprintln(c.stderr, "qcnlab merge:", err)
			return exitRun
		}
		if err != nil {
			return c.fail(err)
		}
		fmt.Fprintf(c.stdout, "%s: %d runs from %d shards written to %s\n", res.Experiment, len(res.Runs), len(c.args), printable.Text(*out))
		return exitOK
	}
}

func stabilityCommand(fs *flag.FlagSet) func(c *call) int {
	sets := setFlag(fs)
	key := fs.String("vary", "", "the key to search along: network.rtt, network.capacity, network.buffer, sources.count, params.NAME.KEY")
	span := fs.String("range", "", "LO:HI with units, walked from LO to HI: 60us:300us")
	seeds := fs.Int("seeds", 0, "judge each point over this many seeds from the experiment's seed (default: the experiment's seed sweep, else its seed)")
	criteria := fs.String("criteria", "", "comma-separated METRIC>X or METRIC<X for every algorithm; queue sizes take a size or Xqeq, Xkmin, Xkmax, Xband (default: each scheme's, above)")
	grid := fs.Int("grid", 9, "coarse grid points over the range, both ends included")
	resolution := fs.String("resolution", "", "bracket width at which bisection stops, with the key's unit (default: range/64)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	workers := workersFlag(fs)
	return func(c *call) int {
		if len(c.args) != 1 || *key == "" || *span == "" {
			return c.fail("name one experiment, --vary KEY and --range LO:HI")
		}
		e, err := c.openExperiment(c.args[0], *sets)
		if err != nil {
			return c.openFailed(err)
		}
		opt := stability.Options{Key: *key, Range: *span, Grid: *grid, Workers: *workers}
		if c.set("criteria") {
			if opt.Criteria, err = stability.ParseCriteria(*criteria); err != nil {
				return c.fail(err)
			}
		}
		if c.set("seeds") {
			opt.SeedCount = seeds
		}
		if *resolution != "" {
			if opt.Resolution, err = stability.ParseValue(*key, *resolution); err != nil {
				return c.fail("--resolution:", err)
			}
		}
		if !c.workersValid(*workers) {
			return exitUsage
		}
		ctx, stop := signals()
		defer stop()
		var clear func()
		opt.Progress, clear = c.progress(e.Name, "runs")
		rep, err := stability.Search(ctx, e, opt)
		clear()
		if rep == nil {
			return c.fail(err)
		}
		write := stability.WriteText
		if *asJSON {
			write = stability.WriteJSON
		}
		if werr := write(c.stdout, rep); werr != nil && err == nil {
			err = werr
		}
		switch {
		case err == nil:
			return exitOK
		case errors.Is(err, context.Canceled):
			fmt.Fprintln(c.stderr, "qcnlab stability: interrupted")
		default:
			fmt.Fprintln(c.stderr, "qcnlab stability:", err)
		}
		return exitRun
	}
}

func tuiCommand(fs *flag.FlagSet) func(c *call) int {
	sets := setFlag(fs)
	return func(c *call) int {
		if len(c.args) > 1 {
			return c.fail("name at most one experiment file or built-in experiment")
		}
		name := defaultExperiment
		if len(c.args) == 1 {
			name = c.args[0]
		}
		e, err := c.openExperiment(name, *sets)
		if err != nil {
			return c.openFailed(err)
		}
		if !isTerminal(os.Stdin) || !isTerminal(c.stdout) {
			return c.fail("the workbench needs a terminal; qcnlab run " + name + " runs it in batch")
		}
		if err := tui.Run(e); err != nil {
			fmt.Fprintln(c.stderr, "qcnlab:", err)
			if errors.Is(err, tea.ErrProgramPanic) { // the stack is on the terminal
				return exitInternal
			}
			return exitRun
		}
		return exitOK
	}
}

// defaultListWidth is the width qcnlab list wraps to when it writes to no
// terminal and $COLUMNS is not set: unwrapped, the algorithms' long source
// references made lines of 500 characters.
const defaultListWidth = 80

func listCommand(fs *flag.FlagSet) func(c *call) int {
	return func(c *call) int {
		if len(c.args) > 0 {
			fmt.Fprintln(c.stderr, "qcnlab list takes no arguments")
			return exitUsage
		}
		width := terminalWidth(c.stdout)
		if width == 0 {
			width = defaultListWidth // a pipe or a file: a terminal's classic width
		}
		if err := catalog.WriteListWidth(c.stdout, width); err != nil {
			fmt.Fprintln(c.stderr, "qcnlab list:", err)
			return exitRun
		}
		return exitOK
	}
}

func algosCommand(fs *flag.FlagSet) func(c *call) int {
	exp := fs.String("exp", defaultExperiment, "show the values for the experiment `FILE|NAME`: its network's defaults, and what it sets")
	sets := setFlag(fs)
	return func(c *call) int {
		for _, n := range c.args {
			if _, err := algos.Lookup(n); err != nil {
				return c.fail(err)
			}
		}
		e, err := c.openExperiment(*exp, *sets)
		if err != nil {
			return c.openFailed(err)
		}
		if err := catalog.WriteAlgos(c.stdout, e, c.args...); err != nil {
			fmt.Fprintln(c.stderr, "qcnlab algos:", err)
			return exitRun
		}
		return exitOK
	}
}

func showCommand(fs *flag.FlagSet) func(c *call) int {
	return func(c *call) int {
		if len(c.args) != 1 {
			return c.fail("name one built-in experiment (qcnlab list shows them)")
		}
		data, err := builtin.Source(c.args[0])
		if err != nil {
			return c.fail(err)
		}
		if _, err := c.stdout.Write(data); err != nil {
			fmt.Fprintln(c.stderr, "qcnlab show:", err)
			return exitRun
		}
		return exitOK
	}
}

func benchCommand(fs *flag.FlagSet) func(c *call) int {
	duration := fs.String("duration", "", "simulated time `D` of the main measurement, at least 1ms (default 1s on the dumbbell, 100ms on the fat-tree)")
	topology := fs.String("topology", bench.Topologies[0], "the network to measure, `"+strings.Join(bench.Topologies, "|")+"`")
	k := fs.Int("k", 0, "the fat-tree's `N`, even, 2 or more: N^3/4 hosts, as many as the memory estimate lets in (default 8)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the main measurement (pprof's format) to `FILE`")
	sets := setFlag(fs)
	return func(c *call) int {
		if len(c.args) > 0 {
			fmt.Fprintln(c.stderr, "qcnlab bench takes no arguments")
			return exitUsage
		}
		if *cpuProfile != "" {
			if err := checkCreatable(*cpuProfile); err != nil {
				return c.fail("--cpuprofile:", err)
			}
		}
		if !slices.Contains(bench.Topologies, *topology) {
			return c.fail(fmt.Sprintf("--topology: %q is not one of %q", *topology, bench.Topologies))
		}
		d, err := bench.Duration(*topology), error(nil)
		if *duration != "" {
			d, err = units.ParseDuration(*duration)
		}
		if err == nil && d < bench.MinDuration {
			err = fmt.Errorf("%s is too short to measure; the least is %s", units.FormatDuration(d), units.FormatDuration(bench.MinDuration))
		}
		if err != nil {
			return c.fail("--duration:", err)
		}
		if c.set("k") && (*k < 2 || *k%2 != 0) {
			return c.fail(fmt.Sprintf("--k: %d: a fat-tree's k is even, 2 or more (leave --k out for 8)", *k))
		}
		setup := bench.Setup{Topology: *topology, K: *k, Sets: *sets}
		var runs []*experiments.Experiment
		// A short run first: the heap at a tenth of the time shows whether
		// memory grows with simulated time.
		for _, t := range []algos.Time{d / 10, d} {
			setup.Duration = t
			e, err := bench.Experiment(setup)
			if err != nil {
				return c.fail(err)
			}
			if err := e.Validate(); err != nil {
				if t < d {
					continue // the short run alone is out of bounds: the main one is measured
				}
				shortest := setup
				shortest.Duration = bench.MinDuration
				if s, serr := bench.Experiment(shortest); serr == nil && s.Validate() == nil {
					return c.fail(fmt.Sprintf("--duration: %s is too long to simulate:", units.FormatDuration(d)), err)
				}
				return c.fail(err) // the network itself: --k or --set
			}
			runs = append(runs, e)
		}
		fmt.Fprintln(c.stdout, bench.Description(runs[len(runs)-1]))
		fmt.Fprintf(c.stdout, "%10s %10s %11s %13s %14s %13s %10s %10s %10s\n",
			"simulated", "wall", "frames/s", "frame-hops/s", "transmits/s", "events/s", "ns/hop", "CPU ns/hop", "peak heap")
		var profile bytes.Buffer
		for i, e := range runs {
			var w io.Writer
			if *cpuProfile != "" && i == len(runs)-1 {
				w = &profile
			}
			r, err := interruptible(func() (bench.Result, error) {
				reached("runs")
				return bench.Run(e, w)
			})
			if errors.Is(err, errInterrupted) {
				fmt.Fprintln(c.stderr, "qcnlab bench: interrupted")
				return exitRun
			}
			if err != nil {
				fmt.Fprintln(c.stderr, err)
				return exitRun
			}
			fmt.Fprintf(c.stdout, "%10s %9.3fs %11.0f %13.0f %14.0f %13.0f %10.1f %10.1f %8.1fMB\n", units.FormatDuration(algos.Time(e.Duration)), r.WallSeconds,
				r.FramesPerSecond(), r.FrameHopsPerSecond(), r.TransmissionsPerSecond(), r.EventsPerSecond(), r.NanosecondsPerFrameHop(),
				r.CPUNanosecondsPerFrameHop(), float64(r.PeakHeap)/1e6)
		}
		fmt.Fprintln(c.stdout, "a frame-hop is a frame, data or control, leaving a switch port; a transmit, one sent onto any link (hosts' and switches'); an event, one the engine handles (qcnlab bench --help)")
		if *cpuProfile != "" {
			// Checked before the runs: a failure now is the run's, not the usage's.
			if err := userfile.WriteAtomic(*cpuProfile, profile.Bytes()); err != nil {
				fmt.Fprintln(c.stderr, "qcnlab bench: --cpuprofile:", err)
				return exitRun
			}
		}
		return exitOK
	}
}

// checkCreatable reports whether userfile.WriteAtomic can write path, before
// a long measurement whose result it will hold: a temporary file is created
// where the save would create its own (a read-only file system, a name too
// long for one, a folder one may not write in), then removed.
func checkCreatable(path string) error {
	if err := userfile.CheckSaveTarget(path); err != nil {
		return err
	}
	at := path
	if target, err := filepath.EvalSymlinks(path); err == nil {
		at = target // WriteAtomic writes where a link points
	}
	dir, base := filepath.Split(at)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return &fs.PathError{Op: "save", Path: path, Err: err}
	}
	f.Close()
	return os.Remove(f.Name())
}

func reproduceCommand(fs *flag.FlagSet) func(c *call) int {
	quick := fs.Bool("quick", false, "shorter runs and fewer seeds (under 10 minutes on 2 cores)")
	out := fs.String("out", "", "write report.md, report.json and the plots to the directory `DIR`")
	workers := workersFlag(fs)
	list := fs.Bool("list", false, "list the claims and exit")
	return func(c *call) int {
		claims, err := reproduce.Select(c.args)
		if err != nil {
			return c.fail(err)
		}
		if *list {
			reproduce.WriteList(c.stdout, claims) // a failed write is the call's (TestCommandsFailWhenStdoutCannotBeWritten)
			return exitOK
		}
		if *out == "" {
			return c.fail("--out DIR is required")
		}
		if !c.workersValid(*workers) {
			return exitUsage
		}
		ctx, stop := signals()
		defer stop()
		report, clear := c.progress("reproduce", "experiments")
		rep, err := reproduce.Run(ctx, claims, reproduce.Options{Quick: *quick, OutDir: *out, Workers: *workers, Progress: report})
		clear()
		if rep != nil {
			rep.Table(c.stdout)
			fmt.Fprintf(c.stdout, "\n%s\n", reproduce.Judged(len(rep.Entries), rep.WallSeconds, printable.Text(*out)))
		}
		switch {
		case err == nil:
			return exitOK
		case outdir.IsRefusal(err): // the output directory, or a name in it, as for run
			return c.fail("--out:", err)
		case errors.Is(err, context.Canceled):
			fmt.Fprintf(c.stderr, "qcnlab reproduce: interrupted; the report holds the %d claims that finished\n", len(rep.Entries))
		default:
			fmt.Fprintln(c.stderr, "qcnlab reproduce:", err)
		}
		return exitRun
	}
}

func helpCommand(fs *flag.FlagSet) func(c *call) int {
	return func(c *call) int {
		if len(c.args) > 0 && c.args[0] == "keys" {
			keys.WriteText(c.stdout, experiments.KeyDefaults())
			return exitOK
		}
		if len(c.args) > 0 && c.args[0] != "help" {
			cmd := lookup(c.args[0])
			if cmd == nil {
				fmt.Fprintf(c.stderr, "qcnlab: unknown command %q\n\n%s", c.args[0], summary())
				return exitUsage
			}
			cfs := flag.NewFlagSet("qcnlab "+cmd.name, flag.ContinueOnError)
			cmd.define(cfs)
			writeHelp(c.stdout, cmd, cfs)
			return exitOK
		}
		fmt.Fprint(c.stdout, summary())
		return exitOK
	}
}

func versionCommand(fs *flag.FlagSet) func(c *call) int {
	return func(c *call) int {
		fmt.Fprintln(c.stdout, version())
		return exitOK
	}
}
