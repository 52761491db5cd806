# Sourced by scripts/fuzz and scripts/fuzz-jpeg: prints libFuzzer's last status line and the run's totals from
# its log. Usage: fuzz_summary NAME LOG SECONDS CRASH_DIR
fuzz_summary() {
  local runs speed
  echo
  grep -E '^#[0-9]+' "$2" | tail -1 || true
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$2" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$2" | tail -1)
  echo "$1: ${runs:-unknown} executions in $3 s (${speed:-unknown} exec/s); crashes go to $4"
}
