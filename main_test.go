package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts in testdata/script run qcnlab as a command.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"qcnlab": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestCLI runs the command-line scripts: each is a txtar file of commands
// and the files they use, checked against qcnlab's output and exit status.
func TestCLI(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
