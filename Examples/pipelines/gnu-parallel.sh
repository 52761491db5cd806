#!/usr/bin/env bash
# Renders a JSON Lines manifest in 16 shards with GNU parallel, over machines reachable by ssh that all see the
# same /data (NFS or similar) and have stampcam on PATH (scripts/install, or the tarball from scripts/package).
# One shard at a time per machine: stampcam already keeps a machine's cores busy (--jobs defaults to them).
# A shard that fails can simply be run again: --resume skips the jobs it finished.
# Usage: Examples/pipelines/gnu-parallel.sh [HOSTS]   (default: host1,host2,host3; ":" is this machine)
set -euo pipefail
hosts="${1:-host1,host2,host3}"
shards=16
mkdir -p /data/reports
seq 0 $((shards - 1)) | parallel -S "$hosts" --jobs 1 --halt never \
  stampcam render /data/jobs.jsonl --out /data/out --shard "{}/$shards" --resume --quiet \
  --report "/data/reports/{}.jsonl"
