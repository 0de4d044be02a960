package reproduce

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"qcnlab/experiments/batch"
	"qcnlab/experiments/outdir"
)

// Exit codes, as the rest of the command line has them.
const (
	exitOK    = 0
	exitRun   = 1
	exitUsage = 2
)

// Command is `qcnlab reproduce [ID...] [--quick] --out DIR [--workers N]`.
// Progress goes to stderr when it is a terminal; the verdict table to
// stdout. Ctrl-C stops the runs and writes the report of what finished.
func Command(args []string, stdout, stderr io.Writer, terminal bool) int {
	fs := flag.NewFlagSet("qcnlab reproduce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quick := fs.Bool("quick", false, "shorter runs and fewer seeds (under 10 minutes on 2 cores)")
	out := fs.String("out", "", "write report.md, report.json and the plots to this directory")
	workers := fs.Int("workers", 0, "simulations at once (default: one per CPU)")
	list := fs.Bool("list", false, "list the claims and exit")
	var ids []string
	fs.Usage = func() {} // --help is answered below, bad flags with a pointer to it
	for rest := args; ; {
		if err := fs.Parse(rest); errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "Usage: qcnlab reproduce [ID...] [--quick] --out DIR [--workers N] [--list]")
			fmt.Fprintln(stdout, "\nRun the claims of the seed papers (all, or those named by ID) and write a report.\n\nFlags:")
			fs.VisitAll(func(f *flag.Flag) {
				arg, usage := flag.UnquoteUsage(f)
				fmt.Fprintf(stdout, "  --%s %s\n      %s\n", f.Name, arg, usage)
			})
			return 0
		} else if err != nil {
			fmt.Fprintln(stderr, "(qcnlab reproduce --help shows its usage)")
			return exitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		ids = append(ids, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	claims, err := Select(ids)
	if err != nil {
		fmt.Fprintln(stderr, "qcnlab reproduce:", err)
		return exitUsage
	}
	if *list {
		for _, c := range claims {
			fmt.Fprintf(stdout, "%-20s seed %s %-12s %s\n", c.ID, c.Ref, c.Figure, c.Experiment)
		}
		return exitOK
	}
	if *out == "" {
		fmt.Fprintln(stderr, "qcnlab reproduce: --out DIR is required")
		return exitUsage
	}
	if err := writableDir(*out); err != nil { // before minutes of runs, not after
		fmt.Fprintln(stderr, "qcnlab reproduce: --out:", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opt := Options{Quick: *quick, OutDir: *out, Workers: *workers}
	if terminal {
		opt.Progress = func(p batch.Progress) {
			eta := "ETA --"
			if p.ETA > 0 {
				eta = "ETA " + p.ETA.Round(time.Second).String()
			}
			fmt.Fprintf(stderr, "\r\033[Kreproduce: %d/%d experiments, %3.0f%%, %s elapsed, %s",
				p.Done, p.Total, 100*p.Fraction, p.Elapsed.Round(time.Second), eta)
		}
	}
	rep, err := Run(ctx, claims, opt)
	if terminal {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if rep != nil {
		rep.Table(stdout)
		fmt.Fprintf(stdout, "\n%d claims judged in %.0f s; report in %s/report.md\n", len(rep.Entries), rep.WallSeconds, *out)
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(stderr, "qcnlab reproduce: interrupted; the report holds the %d claims that finished\n", len(rep.Entries))
	default:
		fmt.Fprintln(stderr, "qcnlab reproduce:", err)
	}
	return exitRun
}

// writableDir makes dir if needed and checks that qcnlab can write there:
// that it is a folder, can be locked and is not in use.
func writableDir(dir string) error {
	d, err := outdir.Open(dir)
	if err != nil {
		return err
	}
	return d.Close()
}
