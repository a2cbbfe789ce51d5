#!/bin/sh
# Measures the LDA trainer's speed on the CPU, on the ap corpus, in build-bench-openmp
# (preset bench-openmp: OpenMP backend, Release, host ISA):
#   1. one iteration (butterfly, K = 240) per --estimator x --width, 1 then 2 threads
#      (butterfly-bench-lda, group lda_options; bench/lda_tables.py);
#   2. time to quality on ../shared/eval/ap with 2 threads, both estimators, scored by
#      ../shared/eval/heldout.py, plotted beside the peers (bench/time_to_quality.py).
#   bench/lda_cpu.sh [time_to_quality.py options, e.g. --iterations 50,100]
# Output in bench/results/lda-DATE/.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/bench/results/lda-$(date -u +%Y%m%dT%H%M)"
mkdir -p "$out"
cd "$root"
cmake --preset bench-openmp
cmake --build --preset bench-openmp --target butterfly-bench-lda butterfly-lda
lscpu | grep 'Model name' > "$out/machine.txt"
echo "commit: $(git rev-parse HEAD)$(git diff --quiet HEAD -- core backends apps bench || echo ' (+ local changes)')" >> "$out/machine.txt"
echo "uptime before: $(uptime)" >> "$out/machine.txt"
for t in 1 2; do
  OMP_NUM_THREADS=$t BUTTERFLY_BENCH_CORPUS=ap build-bench-openmp/bench/butterfly-bench-lda \
    --benchmark_filter='^lda_options/' --benchmark_min_time=1 --benchmark_repetitions=3 \
    --benchmark_out="$out/lda-$t.json" --benchmark_out_format=json | tee "$out/lda-$t.log"
done
echo "uptime after the iteration benchmarks: $(uptime)" >> "$out/machine.txt"
/usr/bin/python3 bench/lda_tables.py "$out/lda-1.json" "$out/lda-2.json" | tee "$out/lda.md"
/usr/bin/python3 bench/time_to_quality.py --build build-bench-openmp --threads 2 --out "$out/ttq" "$@"
