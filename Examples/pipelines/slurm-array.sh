#!/usr/bin/env bash
# A Slurm job array that renders a JSON Lines manifest in 16 shards, one array task each, on nodes that share
# /data and have stampcam on PATH. Submit with:  sbatch Examples/pipelines/slurm-array.sh
# A task that failed can be resubmitted alone (sbatch --array=5 ...): --resume skips the jobs it finished.
#SBATCH --job-name=stampcam
#SBATCH --array=0-15
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --output=/data/reports/slurm-%a.log
set -euo pipefail
shards=16  # the number of array tasks above
mkdir -p /data/reports
exec stampcam render /data/jobs.jsonl --out /data/out --shard "$SLURM_ARRAY_TASK_ID/$shards" \
  --jobs "${SLURM_CPUS_PER_TASK:-2}" --resume --quiet --report "/data/reports/$SLURM_ARRAY_TASK_ID.jsonl"
