package builtin

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Meant reports whether a command's argument names a built-in experiment
// rather than an experiment file: it is not a .toml name or a path, and
// nothing of that name is here but, for a built-in's name, a folder. A
// folder is not an experiment file (--out qcn-dumbbell makes one), so it
// does not hide the built-in of its name.
func Meant(arg string) bool {
	if strings.HasSuffix(arg, ".toml") || strings.ContainsRune(arg, os.PathSeparator) {
		return false
	}
	info, err := os.Stat(arg)
	return err != nil || info.IsDir() && slices.Contains(Names(), arg)
}

// Passed says, when the built-in arg was taken over a folder of the same
// name, that it was: the user may have meant the experiment saved there.
func Passed(arg string) []string {
	if info, err := os.Stat(arg); err != nil || !info.IsDir() || !Meant(arg) {
		return nil
	}
	return []string{fmt.Sprintf("%s: the built-in experiment, not the folder of that name; for an experiment saved there, give %s",
		arg, filepath.Join(arg, "experiment.toml"))}
}
