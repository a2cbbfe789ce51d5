#!/bin/sh
# Runs every CPU-speed measurement of the host lanes and the LDA trainer, one after the
# other on a machine left alone meanwhile:
#   1. bench/cpu.sh: Figure 3 on the SIMD host lanes with the scalar loop (bench/results/cpu/)
#   2. butterfly-bench-simd-tools: the SIMD tool comparison (bench/results/cpu/simd_tools.*)
#   3. butterfly-bench-gamma: Gamma variates, new row form against the old code (bench/results/gamma/)
#   4. bench/lda_cpu.sh: one LDA iteration per --estimator x --width at 1 and 2 threads, and
#      time to quality on ../shared/eval/ap beside the peers (bench/results/lda-DATE/)
#   BUTTERFLY_DATA_DIR=/path/to/shared/data bench/cpu_all.sh     (about 20 minutes here)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bench/cpu.sh
cmake --preset bench-openmp > /dev/null
cmake --build --preset bench-openmp --target butterfly-bench-simd-tools
build-bench-openmp/bench/butterfly-bench-simd-tools --benchmark_min_time=0.5 --benchmark_repetitions=5 \
  --benchmark_report_aggregates_only=true --benchmark_out=bench/results/cpu/simd_tools.json \
  --benchmark_out_format=json
cmake --build --preset bench --target butterfly-bench-gamma
mkdir -p bench/results/gamma
build-bench/bench/butterfly-bench-gamma --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
  --benchmark_min_time=0.5 --benchmark_out=bench/results/gamma/gamma.json --benchmark_out_format=json
bench/lda_cpu.sh --iterations 25,50,100,200,300,400,800,1500
