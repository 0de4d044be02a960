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
QCNLAB=${QCNLAB:-qcnlab}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"

array=$(sbatch --parsable --array="0-$((N - 1))" \
	--export=ALL,EXPERIMENT="$EXPERIMENT",OUT="$OUT",QCNLAB="$QCNLAB",SETS="$*" \
	"$here/qcnlab-shard.sbatch")
# The merge runs once every shard has succeeded; it checks that none is
# missing or repeated and that all come from the same experiment.
merge=$(sbatch --parsable --dependency="afterok:$array" --job-name=qcnlab-merge \
	--output="$OUT/merge-%j.log" --wrap "$QCNLAB merge $OUT/shard-* --out $OUT/merged")
echo "shards: job array $array ($N tasks); merge: job $merge -> $OUT/merged"
