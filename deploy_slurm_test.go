package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// standInSbatch records each call's arguments (NUL ended, a file per
// call) and answers --parsable with a job id. A job array's first task runs
// its batch script as Slurm would, with --export's list split at its commas
// into variables, and a --wrap job runs its string with sh, so that what
// reaches qcnlab can be checked.
const standInSbatch = `#!/bin/bash
set -eu
n=$(ls "$RECORD" | wc -l)
printf '%s\0' "$@" > "$RECORD/sbatch-$n"
script= wrap= array=
args=() env=()
while [ $# -gt 0 ]; do
	case $1 in
	--wrap) wrap=$2; shift 2 ;;
	--wrap=*) wrap=${1#--wrap=}; shift ;;
	--array=*) array=${1#--array=}; shift ;;
	--export=*) IFS=, read -r -a env <<< "${1#--export=}"; shift ;;
	--*) shift ;;
	*) script=$1; shift; args=("$@"); break ;;
	esac
done
vars=()
for v in "${env[@]}"; do
	case $v in *=*) vars+=("$v") ;; esac
done
if [ -n "$script" ]; then
	env "${vars[@]}" SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_COUNT=$((${array#0-} + 1)) \
		bash "$script" "${args[@]}" > "$RECORD/task.log" 2>&1 || true
elif [ -n "$wrap" ]; then
	sh -c "$wrap" > "$RECORD/wrap.log" 2>&1 || true
fi
echo 100$n
`

// standInQcnlab records its arguments and makes run's --out directory.
const standInQcnlab = `#!/bin/bash
set -eu
n=$(ls "$RECORD" | wc -l)
printf '%s\0' "$@" > "$RECORD/qcnlab-$n"
if [ "$1" = run ]; then
	while [ $# -gt 1 ]; do
		if [ "$1" = --out ]; then mkdir -p "$2"; fi
		shift
	done
fi
`

// recorded reads the calls of one stand-in, in order.
func recorded(t *testing.T, dir, prefix string) [][]string {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, prefix+"-*"))
	slices.Sort(names)
	var calls [][]string
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		calls = append(calls, strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00"))
	}
	return calls
}

// deploy/slurm/submit.sh hands the experiment, OUT and every --set to the
// shards word for word: Slurm's --export splits its list at commas, and an
// unquoted expansion in the batch script would split and glob them.
func TestSlurmSubmitPassesSetsWordForWord(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	bin, record, work := filepath.Join(dir, "bin"), filepath.Join(dir, "record"), filepath.Join(dir, "work")
	for _, d := range []string{bin, record, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range map[string]string{"sbatch": standInSbatch, "qcnlab": standInQcnlab} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A file the glob sweep.seed=[1,2] would match, where the task runs.
	if err := os.WriteFile(filepath.Join(work, "sweep.seed=1"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "sweep out, it's")
	sets := []string{"--set", `algorithms=["qcn","dcqcn"]`, "--set", "sweep.seed=[1,2]", "--set", "description=a b  c"}
	submit, err := filepath.Abs("deploy/slurm/submit.sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, append([]string{submit, "dcqcn-vs-qcn", "2", out}, sets...)...)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "RECORD="+record, "QCNLAB=qcnlab", "SLURM_CPUS_PER_TASK=")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("submit.sh: %v\n%s", err, msg)
	}

	sbatch := recorded(t, record, "sbatch")
	if len(sbatch) != 2 {
		t.Fatalf("%d sbatch calls, want the array and the merge: %q", len(sbatch), sbatch)
	}
	for _, a := range sbatch[0] {
		if strings.HasPrefix(a, "--export=") && a != "--export=ALL" {
			t.Errorf("the array passes values in %q: --export splits them at commas", a)
		}
	}
	if want := append([]string{"dcqcn-vs-qcn", out}, sets...); len(sbatch[0]) < len(want) || !slices.Equal(sbatch[0][len(sbatch[0])-len(want):], want) {
		t.Errorf("the batch script's arguments: %q, want %q", sbatch[0], want)
	}
	calls := recorded(t, record, "qcnlab")
	if len(calls) != 2 {
		task, _ := os.ReadFile(filepath.Join(record, "task.log"))
		wrap, _ := os.ReadFile(filepath.Join(record, "wrap.log"))
		t.Fatalf("qcnlab ran %d times, want a shard and the merge: %q\ntask: %s\nmerge: %s", len(calls), calls, task, wrap)
	}
	run := append(append([]string{"run", "dcqcn-vs-qcn"}, sets...), "--shard", "0/2", "--workers", "1", "--out", out+"/shard-0")
	if !slices.Equal(calls[0], run) {
		t.Errorf("the shard ran\n  qcnlab %q\nwant\n  qcnlab %q", calls[0], run)
	}
	if merge := []string{"merge", out + "/shard-0", "--out", out + "/merged"}; !slices.Equal(calls[1], merge) {
		t.Errorf("the merge ran\n  qcnlab %q\nwant\n  qcnlab %q", calls[1], merge)
	}
}
