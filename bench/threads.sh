#!/bin/sh
# 1- against 2-thread throughput of the z draw and of the whole LDA iteration at K = 240 on
# a threaded backend (openmp, or kokkos on its OpenMP space):
#   bench/threads.sh BUILD_DIR [ROUNDS=3]
# BUILD_DIR is a Release build configured with -DBACKEND=openmp|kokkos
# -DBUTTERFLY_BUILD_BENCH=ON. This machine's speed drifts by 10-20 % over minutes, more
# than the effect measured, so the thread counts alternate (1, 2, 1, 2, ...), each run
# averages several iterations (--benchmark_min_time) and each ratio is of the medians over
# the rounds. Writes bench/results/threads-BACKEND-DATE/ (JSON per run, machine.txt) and
# prints the table (bench/threads.py).
set -eu
build=${1:?usage: bench/threads.sh BUILD_DIR [ROUNDS]}
rounds=${2:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
cmake --build "$build" --target butterfly-bench-draw butterfly-bench-lda
backend=$(sed -n 's/^BACKEND:STRING=//p' "$build/CMakeCache.txt")
out="$root/bench/results/threads-$backend-$(date -u +%Y%m%dT%H%M)"
mkdir -p "$out"
{
  echo "commit: $(git -C "$root" rev-parse HEAD)$(git -C "$root" diff --quiet HEAD -- core backends bench || echo ' (+ local changes)')"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "backend: $backend, rounds: $rounds"
  echo "uptime before: $(uptime)"
} > "$out/machine.txt"
round=1
while [ "$round" -le "$rounds" ]; do
  for t in 1 2; do
    for b in draw lda; do
      filter='K:240/' min_time=6
      [ "$b" = draw ] && filter='grid/.*/K:240/' min_time=2
      OMP_NUM_THREADS=$t "$build/bench/butterfly-bench-$b" --benchmark_filter="$filter" \
        --benchmark_min_time=$min_time \
        --benchmark_out="$out/$b-t$t-r$round.json" --benchmark_out_format=json >/dev/null
    done
  done
  round=$((round + 1))
done
echo "uptime after: $(uptime)" >> "$out/machine.txt"
python3 "$root/bench/threads.py" "$out"
