package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	testscript.Main(m, map[string]func(){
		"qcnlab": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestCLI runs the command-line scripts: each is a txtar file of commands
// and the files they use, checked against qcnlab's output and exit status.
func TestCLI(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
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

// SIGINT and SIGTERM stop every phase within a second: loading (a pipe no
// one writes to), validation (a large sweep) and the runs.
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
	for _, c := range []struct {
		phase string
		args  []string
		sig   syscall.Signal
		want  string
	}{
		{"loading", []string{"run", fifo}, syscall.SIGINT, "interrupted while loading"},
		{"validation", []string{"run", big}, syscall.SIGTERM, "interrupted while loading"},
		{"runs", []string{"run", "qcn-dumbbell", "--set", "duration=100s", "--out", filepath.Join(dir, "out")}, syscall.SIGINT,
			"interrupted before any run finished; " + filepath.Join(dir, "out") + " holds the experiment and an empty summary"},
		{"runs", []string{"run", "qcn-dumbbell", "--set", "duration=100s", "--json"}, syscall.SIGTERM, "interrupted before any run finished"},
	} {
		var cmd *exec.Cmd
		var stderr bytes.Buffer
		stopped, killed := false, false
		// A signal that lands before qcnlab has installed its handlers kills
		// it outright: that says the machine is slow, not that qcnlab is,
		// so try again a little later into the phase.
		for _, wait := range []time.Duration{700 * time.Millisecond, 2 * time.Second, 5 * time.Second} {
			cmd = exec.Command(os.Args[0], c.args...)
			cmd.Env = append(os.Environ(), "QCNLAB_TEST_AS_MAIN=1")
			stderr.Reset()
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(wait) // into the phase
			sent := time.Now()
			cmd.Process.Signal(c.sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
				if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					killed = true
					continue // killed before its handlers were in place
				}
				killed = false
				if took := time.Since(sent); took > time.Second {
					t.Errorf("%s: stopped %v after %v", c.phase, took, c.sig)
				}
				stopped = true
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-done
				t.Errorf("%s: still running 5 s after %v", c.phase, c.sig)
			}
			break
		}
		if killed {
			t.Errorf("%s: killed by %v even 5 s into the phase: no handler", c.phase, c.sig)
		}
		if !stopped {
			continue
		}
		if code := cmd.ProcessState.ExitCode(); code != exitRun || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and %q", c.phase, code, stderr.String(), c.want)
		}
	}
}
