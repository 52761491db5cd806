#!/usr/bin/env bash
# A Slurm job array that renders a manifest in 16 shards, one array task each, on nodes that share the folder it is
# submitted from and have stampcam on PATH (scripts/install, or the tarball from scripts/package). That folder holds
# the manifest (job.json unless named: one gesture script over "photos": "in/**/*.jpg", as in job.json beside this
# file, or a JSON Lines manifest of many jobs), its photos and stamps; the outputs go to out/ in it.
#   Submit:                    cd /data && sbatch /path/to/slurm-array.sh [MANIFEST]
#   Resubmit one task (5):     cd /data && sbatch --array=5 /path/to/slurm-array.sh [MANIFEST]
# A resubmitted (or requeued) task skips the jobs an earlier attempt finished (--resume). Every attempt is kept: its
# log is appended to stampcam-TASK.log in the submit folder (Slurm opens the log before this script runs, so it
# cannot be in a folder the script makes), its report is reports/TASK.JOBID.RESTARTS.jsonl.
#SBATCH --job-name=stampcam
#SBATCH --array=0-15
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --output=stampcam-%a.log
#SBATCH --open-mode=append
set -euo pipefail
shards=16  # the number of array tasks above: a task resubmitted alone is still one of 16
manifest="${1:-job.json}"
task="${SLURM_ARRAY_TASK_ID:?is not set: submit this script with sbatch, as above}"
report="reports/$task.$SLURM_JOB_ID.${SLURM_RESTART_COUNT:-0}.jsonl"
echo "stampcam-slurm: task $task/$shards, job $SLURM_JOB_ID, restarts ${SLURM_RESTART_COUNT:-0}," \
  "on ${SLURMD_NODENAME:-$(hostname)} at $(date -u +%Y-%m-%dT%H:%M:%SZ), report $report" >&2
mkdir -p reports
exec stampcam render "$manifest" --out out --shard "$task/$shards" --jobs "${SLURM_CPUS_PER_TASK:-2}" --resume \
  --report "$report"
