#!/bin/sh
# Rebuilds and reruns the whole benchmark set, then redraws the plots:
#   bench/run.sh [extra Google Benchmark flags, e.g. --benchmark_filter=grid]
# Results go to bench/results/ (JSON, lane utilization table, markdown tables, PNGs, machine
# notes). $BUTTERFLY_BENCH_DOCS=n times the draw on the first n wiki-lead documents only
# (the committed results used 4000, see RESULTS.md); unset, all 63,479.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/bench/results"
mkdir -p "$out"
cd "$root"
cmake --preset bench
cmake --build --preset bench --target butterfly-bench-draw butterfly-bench-rows butterfly-bench-lda \
  butterfly-lane-utilization

{
  echo "commit: $(git rev-parse HEAD)$(git diff --quiet HEAD -- core backends bench || echo ' (+ local changes)')"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "compiler: $(c++ --version | head -n 1)"
  echo "uptime before: $(uptime)"
  lscpu | grep -E '^(Model name|CPU\(s\)|Thread|Core|L1d|L2|L3|Flags)' | cut -c1-200
} > "$out/machine.txt"

build-bench/bench/butterfly-lane-utilization | tee "$out/lane_utilization.txt"
for b in draw rows lda; do
  build-bench/bench/butterfly-bench-$b --benchmark_repetitions=3 \
    --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/$b.json" --benchmark_out_format=json "$@" 2>&1 | tee "$out/$b.log"
done
echo "uptime after: $(uptime)" >> "$out/machine.txt"
tokens=$(sed -n 's/^wiki-lead: .* documents, \([0-9]*\) tokens.*/\1/p' "$out/draw.log")
python3 bench/tables.py "$out/draw.json" "$out/rows.json" "$tokens" > "$out/tables.md"
python3 bench/plot.py "$out/draw.json" "$out/rows.json" "$out"
