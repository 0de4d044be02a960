package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// fullWriter is stdout on a full disk (/dev/full).
type fullWriter struct{}

func (fullWriter) Write(p []byte) (int, error) { return 0, errors.New("no space left on device") }

// Every command that prints fails, exit 1 with a message, when its output
// cannot be written: a listing lost on a full disk is not a success.
func TestCommandsFailWhenStdoutCannotBeWritten(t *testing.T) {
	for _, args := range [][]string{
		{"show", "qcn-dumbbell"},
		{"help", "keys"},
		{"help"},
		{"help", "run"},
		{"run", "--help"},
		{"--version"},
		{"list"},
		{"algos", "qcn"},
		{"reproduce", "--list"},
	} {
		var stderr bytes.Buffer
		code := run(args, fullWriter{}, &stderr)
		if code != exitRun || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("qcnlab %s > /dev/full: exit %d, stderr %q; want exit 1 and the write's error",
				strings.Join(args, " "), code, stderr.String())
		}
	}
}
