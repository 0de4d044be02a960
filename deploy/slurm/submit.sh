#!/bin/bash
# Runs a qcnlab sweep as a Slurm job array of N shards, then merges them.
#   deploy/slurm/submit.sh EXPERIMENT N OUT [--set KEY=VALUE]...
# EXPERIMENT is a file every node can read or a built-in name; OUT a
# directory on a shared file system. The merged outputs land in OUT/merged.
set -euo pipefail
if [ $# -lt 3 ]; then
	echo "usage: $0 EXPERIMENT N OUT [--set KEY=VALUE]..." >&2
	exit 2
fi
EXPERIMENT=$1 N=$2 OUT=$3
shift 3
export QCNLAB=${QCNLAB:-qcnlab}
here=$(cd "$(dirname "$0")" && pwd)
# shquote writes $1 as one word for sh, in single quotes.
shquote() { printf "'%s'" "${1//\'/\'\\\'\'}"; }
mkdir -p "$OUT"

# The experiment, OUT and the --set arguments go to the batch script as its
# arguments, each one word whatever it holds: --export would cut a value at
# its commas (--set 'algorithms=["qcn","dcqcn"]', --set sweep.seed=[1,2]).
# QCNLAB reaches the tasks through the environment (--export=ALL).
array=$(sbatch --parsable --array="0-$((N - 1))" --export=ALL \
	"$here/qcnlab-shard.sbatch" "$EXPERIMENT" "$OUT" "$@")
# The merge runs once every shard has succeeded; it checks that none is
# missing or repeated and that all come from the same experiment. --wrap
# hands sh one string: the names are quoted in it, the shards' glob not.
merge=$(sbatch --parsable --dependency="afterok:$array" --job-name=qcnlab-merge \
	--output="$OUT/merge-%j.log" \
	--wrap "$(shquote "$QCNLAB") merge $(shquote "$OUT")/shard-* --out $(shquote "$OUT/merged")")
echo "shards: job array $array ($N tasks); merge: job $merge -> $OUT/merged"
