#!/bin/sh
# Measures the z draw's speed on the CPU: Figure 3 on the SIMD host lanes -- every
# algorithm x the paper's K grid + 512, 1024 x every host width, with the plain scalar loop
# of the same run as the baseline -- on the ap corpus, one thread. Builds with the bench
# preset (build-bench/, host ISA: -march=native).
#   bench/cpu.sh [extra Google Benchmark flags]
# Output in bench/results/cpu/: machine.txt (lscpu model line, commit, load), draw.json,
# draw.log, tables.md.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/bench/results/cpu"
mkdir -p "$out"
cd "$root"
cmake --preset bench
cmake --build --preset bench --target butterfly-bench-draw

{
  echo "commit: $(git rev-parse HEAD)$(git diff --quiet HEAD -- core backends bench || echo ' (+ local changes)')"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "compiler: $(c++ --version | head -n 1)"
  echo "uptime before: $(uptime)"
  lscpu | grep 'Model name'
  lscpu | grep -o -w -E 'sse4_2|avx2|avx512f|fma' | sort -u | tr '\n' ' '; echo
} > "$out/machine.txt"

BUTTERFLY_BENCH_CORPUS=ap build-bench/bench/butterfly-bench-draw --benchmark_filter='^simd/' \
  --benchmark_min_time=0.2 --benchmark_out="$out/draw.json" --benchmark_out_format=json \
  "$@" 2>&1 | tee "$out/draw.log"
echo "uptime after: $(uptime)" >> "$out/machine.txt"
/usr/bin/python3 bench/cpu_tables.py "$out/draw.json" > "$out/tables.md"
cat "$out/tables.md"
