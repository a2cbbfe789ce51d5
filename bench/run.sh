#!/bin/sh
# Rebuilds and reruns the whole benchmark set, then redraws the plots:
#   bench/run.sh [extra Google Benchmark flags, e.g. --benchmark_filter=grid]
# Results go to bench/results/ (JSON, lane utilization table, PNGs, machine notes).
# Takes about 30-40 minutes on the reference machine (2 cores, one used).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/bench/results"
mkdir -p "$out"
cd "$root"
cmake --preset bench
cmake --build --preset bench --target butterfly-bench-draw butterfly-bench-rows butterfly-lane-utilization

{
  echo "commit: $(git rev-parse HEAD)$(git diff --quiet HEAD -- core backends bench || echo ' (+ local changes)')"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "compiler: $(c++ --version | head -n 1)"
  echo "uptime before: $(uptime)"
  lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|L1d|L2|L3|Flags)' | cut -c1-200
} > "$out/machine.txt"

build-bench/bench/butterfly-lane-utilization | tee "$out/lane_utilization.txt"
for b in draw rows; do
  build-bench/bench/butterfly-bench-$b --benchmark_repetitions=3 \
    --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/$b.json" --benchmark_out_format=json "$@"
done
echo "uptime after: $(uptime)" >> "$out/machine.txt"
python3 bench/plot.py "$out/draw.json" "$out/rows.json" "$out"
