package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts in testdata/script run qcnlab as a command, and
// the signal test run this binary as qcnlab.
func TestMain(m *testing.M) {
	if os.Getenv("QCNLAB_TEST_AS_MAIN") == "1" {
		// The signal test reads the phases qcnlab reaches on file 3.
		if phases := os.NewFile(3, "phases"); phases != nil {
			testHook = func(phase string) { fmt.Fprintln(phases, phase) }
		}
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	testscript.Main(m, map[string]func(){
		"qcnlab": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestCLI runs the command-line scripts: each is a txtar file of commands
// and the files they use, checked against qcnlab's output and exit status.
func TestCLI(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Cmds: map[string]func(*testscript.TestScript, bool, []string){
		// status N CMD ARGS... runs CMD as exec does and fails unless it
		// exits with status N: the CLI's contract (2 for bad input, 1 for a
		// failed or interrupted run) is checked, where "! exec" accepts any
		// non-zero status.
		"status": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) < 2 {
				ts.Fatalf("usage: status N CMD [ARGS...]")
			}
			want, err := strconv.Atoi(args[0])
			ts.Check(err)
			got := 0
			if err := ts.Exec(args[1], args[2:]...); err != nil {
				var exit *exec.ExitError
				if !errors.As(err, &exit) {
					ts.Fatalf("%s: %v", args[1], err)
				}
				got = exit.ExitCode()
			}
			if got != want {
				ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
			}
		},
		// gunzip FILE.gz writes FILE beside it, as gunzip -k does.
		"gunzip": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 1 || !strings.HasSuffix(args[0], ".gz") {
				ts.Fatalf("usage: gunzip FILE.gz")
			}
			f, err := os.Open(ts.MkAbs(args[0]))
			ts.Check(err)
			defer f.Close()
			z, err := gzip.NewReader(f)
			ts.Check(err)
			data, err := io.ReadAll(z)
			ts.Check(err)
			ts.Check(os.WriteFile(ts.MkAbs(strings.TrimSuffix(args[0], ".gz")), data, 0o644))
		},
	}})
}

// A panic is an internal error: its own exit status and the stack.
func TestPanicIsInternalError(t *testing.T) {
	var stderr bytes.Buffer
	code := guard(&stderr, func() int { panic("boom") })
	if code != exitInternal || !strings.Contains(stderr.String(), "internal error") ||
		!strings.Contains(stderr.String(), "boom") || !strings.Contains(stderr.String(), "TestPanicIsInternalError") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr.String())
	}
	// A panic in a goroutine that loads an experiment reaches the guard
	// with the stack where it happened.
	stderr.Reset()
	code = guard(&stderr, func() int {
		interruptible(func() (int, error) { panic("in a goroutine") })
		return exitOK
	})
	if code != exitInternal || !strings.Contains(stderr.String(), "in a goroutine") || !strings.Contains(stderr.String(), "TestPanicIsInternalError.func") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr.String())
	}
}

// SIGINT and SIGTERM stop every phase: loading (a pipe no one writes to),
// validation (a large sweep, which takes tens of seconds to load and
// validate) and the runs. qcnlab says on file 3 when it has reached each
// phase with its signal handlers in place (testHook), and the test signals
// it then: no guess of how long a loaded machine takes to get there.
// Stopping is judged by the exit status and message; a process still
// running a minute after the signal has hung.
func TestSignalsStopEveryPhase(t *testing.T) {
	if testing.Short() {
		t.Skip("runs qcnlab as a subprocess")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	var sweep strings.Builder
	sweep.WriteString("[sources]\ncount = 20000\n[sweep]\nseed = [")
	for i := range 10000 {
		fmt.Fprintf(&sweep, "%d, ", i+1)
	}
	sweep.WriteString("]\n")
	big := filepath.Join(dir, "sweep.toml")
	if err := os.WriteFile(big, []byte(sweep.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// A fabric of a thousand hosts, whose steps of simulated time hold
	// hundreds of thousands of events: its run stops at bounded work
	// (batch's TestRunChecksItsContextAtBoundedWork), not at the next step.
	fabric := filepath.Join(dir, "fabric.toml")
	if err := os.WriteFile(fabric, []byte("duration = \"10s\"\nalgorithms = [\"qcn\"]\n[network]\ntopology = \"fat_tree\"\nk = 16\n[traffic]\npattern = \"permutation\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const hung = time.Minute
	for _, c := range []struct {
		phase string // as qcnlab reports it
		args  []string
		sig   syscall.Signal
		want  string
	}{
		{"loading", []string{"run", fifo}, syscall.SIGINT, "interrupted while loading"},
		{"loading", []string{"run", big}, syscall.SIGTERM, "interrupted while loading"},
		{"runs", []string{"run", "qcn-dumbbell", "--set", "duration=100s", "--out", filepath.Join(dir, "out")}, syscall.SIGINT,
			"interrupted before any run finished; " + filepath.Join(dir, "out") + " holds the experiment and an empty summary"},
		{"runs", []string{"run", "qcn-dumbbell", "--set", "duration=100s", "--json"}, syscall.SIGTERM, "interrupted before any run finished"},
		{"runs", []string{"run", fabric, "--json"}, syscall.SIGINT, "interrupted before any run finished"},
		{"runs", []string{"bench", "--topology", "fat_tree", "--duration", "10s"}, syscall.SIGINT, "qcnlab bench: interrupted"},
	} {
		name := fmt.Sprintf("%s %s", c.phase, c.args[1])
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], c.args...)
		cmd.Env = append(os.Environ(), "QCNLAB_TEST_AS_MAIN=1")
		cmd.ExtraFiles = []*os.File{w}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		w.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		reachedPhase := make(chan bool, 1)
		go func() {
			lines := bufio.NewScanner(r)
			for lines.Scan() {
				if lines.Text() == c.phase {
					reachedPhase <- true
					return
				}
			}
			reachedPhase <- false
		}()
		select {
		case ok := <-reachedPhase:
			if !ok {
				<-done
				t.Errorf("%s: ended without reaching the phase: %v, stderr %q", name, cmd.ProcessState, stderr.String())
				r.Close()
				continue
			}
		case <-time.After(hung):
			cmd.Process.Kill()
			<-done
			t.Errorf("%s: never reached the phase", name)
			r.Close()
			continue
		}
		cmd.Process.Signal(c.sig)
		select {
		case <-done:
		case <-time.After(hung):
			cmd.Process.Kill()
			<-done
			t.Errorf("%s: still running %v after %v", name, hung, c.sig)
		}
		r.Close()
		if code := cmd.ProcessState.ExitCode(); code != exitRun || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and %q", name, code, stderr.String(), c.want)
		}
	}
}

// The README's synopsis is the command table's: the code block that opens
// its "Command line" section.
func TestREADMESynopsisIsTheCommandTable(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Command line\n\n```\n")
	block, _, closed := strings.Cut(section, "```\n")
	if !ok || !closed {
		t.Fatal(`README.md has no code block after "## Command line"`)
	}
	if want := synopsis(); block != want {
		t.Errorf("README.md's synopsis differs from the command table (commands.go); the table's is\n%s", want)
	}
}

// A path the user gave (an output directory, a shard's) reaches stderr
// with its control characters escaped, as names do: a directory named
// with an escape sequence must not clear the screen when a message names
// it.
func TestMessagesEscapePaths(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out\x1b[2J")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "summary.json")); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", "qcn-dumbbell", "--set", "duration=1ms", "--out", dir}, &stdout, &stderr); code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, stderr.String())
	}
	if got := stderr.String(); strings.ContainsRune(got, 0x1b) || !strings.Contains(got, `out\x1b[2J`) || !strings.HasSuffix(got, "\n") {
		t.Errorf("stderr %q: want the path escaped, and its line end kept", got)
	}
}
