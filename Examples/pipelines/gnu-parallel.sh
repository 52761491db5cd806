#!/usr/bin/env bash
# Renders a manifest in 16 shards with GNU parallel over machines reachable by ssh that all see the folder it is run
# from at the same path (NFS or similar) and have stampcam on PATH (scripts/install, or the tarball from
# scripts/package). That folder holds the manifest (job.json unless named: one gesture script over
# "photos": "in/**/*.jpg", as in job.json beside this file, or a JSON Lines manifest of many jobs), its photos and
# stamps; the outputs go to out/ in it.
#   cd /data && /path/to/gnu-parallel.sh [HOSTS [MANIFEST]]   (HOSTS: default host1,host2,host3; ":" is this machine)
# One shard at a time per machine: stampcam already keeps a machine's cores busy (--jobs defaults to them).
# Every run keeps its reports (reports/SHARD.RUN.jsonl) and parallel's job log (reports/RUN.joblog), and ends by
# naming the shards that failed. Run it again to finish them: --resume skips the jobs already done.
# Exit status: 0 every shard rendered; 1 a shard failed or did not run; 130 stopped by Ctrl-C (143 by SIGTERM).
set -euo pipefail
hosts="${1:-host1,host2,host3}"
manifest="${2:-job.json}"
shards=16
run="$(date -u +%Y%m%dT%H%M%SZ).$$"
joblog="reports/$run.joblog"
stopped=""
trap 'stopped=130' INT
trap 'stopped=143' TERM
mkdir -p reports
status=0
seq 0 $((shards - 1)) | parallel -S "$hosts" --wd "$PWD" --jobs 1 --halt never --joblog "$joblog" -q \
  stampcam render "$manifest" --out out --shard "{}/$shards" --resume --quiet --report "reports/{}.$run.jsonl" ||
  status=$?
# The job log: Seq Host Starttime JobRuntime Send Receive Exitval Signal Command, one line per shard that ended;
# Seq counts from 1, shard 0 first.
failed=0
done=0
while IFS=$'\t' read -r seq host _ _ _ _ exitval signal _; do
  if [ "$exitval" = 0 ] && [ "$signal" = 0 ]; then
    done=$((done + 1))
  else
    failed=$((failed + 1))
    shard=$((seq - 1))
    echo "gnu-parallel.sh: shard $shard/$shards failed on $host (exit status $exitval, signal $signal):" \
      "see reports/$shard.$run.jsonl" >&2
  fi
done < <(if [ -f "$joblog" ]; then tail -n +2 "$joblog"; fi)
if [ -n "$stopped" ]; then
  echo "gnu-parallel.sh: stopped: $done of $shards shards rendered; run it again to finish" \
    "(--resume skips the jobs already done)" >&2
  exit "$stopped"
fi
if [ "$done" -ne "$shards" ]; then
  echo "gnu-parallel.sh: $done of $shards shards rendered ($failed failed, parallel's status $status; job log" \
    "$joblog); run it again to finish (--resume skips the jobs already done)" >&2
  exit 1
fi
