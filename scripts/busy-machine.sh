#!/usr/bin/env bash
# Runs a command (default: npm test) on a machine made busy on purpose, to show that the tests hold
# when the CPU is shared: BUSY_HOGS processes (default four per core) spin at nice BUSY_NICE
# (default 19, the lowest priority), so the load average climbs far above the number of cores while
# the tests still get the CPU first. The hogs end with the command, on Ctrl-C, and in any case after
# BUSY_LIMIT_S seconds (default 7200), each by itself. Every other setting passes through to the
# command: TEST_TIME_SCALE, TEST_STORES, TEST_FILES (docs/testing.md).
#
#   scripts/busy-machine.sh                      # npm test under load
#   TEST_STORES=sqlite TEST_FILES=test/cli/demo scripts/busy-machine.sh
#   scripts/busy-machine.sh node --import tsx scripts/run-tests.ts
set -euo pipefail

cores=$(nproc)
hogs=${BUSY_HOGS:-$((cores * 4))}
nice_level=${BUSY_NICE:-19}
limit_s=${BUSY_LIMIT_S:-7200}
for setting in "$hogs" "$nice_level" "$limit_s"; do
  [[ $setting =~ ^[0-9]+$ ]] || { echo "BUSY_HOGS, BUSY_NICE and BUSY_LIMIT_S must be whole numbers" >&2; exit 2; }
done
(( $# > 0 )) || set -- npm test

pids=()
stop_hogs() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait "${pids[@]}" 2>/dev/null || true
  pids=()
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM

for ((i = 0; i < hogs; i++)); do
  # `timeout` ends each hog by itself even if this script is killed without a chance to clean up.
  timeout "$limit_s" nice -n "$nice_level" sh -c 'while :; do :; done' &
  pids+=($!)
done

# The highest one-minute load average seen while the command runs, sampled every 10 s.
peak_file=$(mktemp)
echo 0 >"$peak_file"
(
  while :; do
    read -r load _ </proc/loadavg
    awk -v now="$load" -v file="$peak_file" 'BEGIN { getline peak < file; if (now > peak) print now > file }'
    sleep 10
  done
) &
sampler=$!
pids+=("$sampler")

echo "busy-machine: $hogs hogs at nice $nice_level on $cores cores (ending by themselves after ${limit_s} s); running: $*" >&2
started=$(date +%s)
status=0
"$@" || status=$?
elapsed=$(($(date +%s) - started))
peak=$(cat "$peak_file")
rm -f "$peak_file"
echo "busy-machine: '$*' exited $status after ${elapsed} s; peak one-minute load ${peak} on $cores cores" >&2
exit "$status"
