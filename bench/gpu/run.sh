#!/usr/bin/env bash
# GPU runbook: on a machine with an NVIDIA (nvidia-smi) or AMD (rocminfo) GPU, configure the
# cuda or hip build, run the conformance suite and the static checks, run the draw and LDA
# benchmarks over the paper's K grid, and write JSON plus the plot.
#
#   bench/gpu/run.sh [cuda|hip]        (default: whichever GPU is found)
#
# Environment: BUILD_DIR (default build-<backend>), OUT_DIR (default bench/results/<backend>-
# <date>), JOBS (default nproc), and CMAKE_ARGS for extra configure flags (e.g.
# -DCMAKE_CUDA_ARCHITECTURES=90 or -DBUTTERFLY_HIP_ARCHITECTURES=gfx90a to build for one GPU).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
backend=${1:-}
if [[ -z $backend ]]; then
  if nvidia-smi -L >/dev/null 2>&1; then backend=cuda
  elif rocminfo 2>/dev/null | grep -q 'Device Type: *GPU'; then backend=hip
  else
    echo "run.sh: no GPU found (nvidia-smi and rocminfo both fail); nothing to run" >&2
    exit 1
  fi
fi
case $backend in
  cuda) nvidia-smi -L || { echo "run.sh: nvidia-smi fails: no usable NVIDIA GPU" >&2; exit 1; } ;;
  hip) rocminfo | grep -E 'Marketing Name|Name: *gfx' || { echo "run.sh: rocminfo fails: no usable AMD GPU" >&2; exit 1; } ;;
  *) echo "run.sh: backend must be cuda or hip, got '$backend'" >&2; exit 2 ;;
esac

build=${BUILD_DIR:-$root/build-$backend}
out=${OUT_DIR:-$root/bench/results/$backend-$(date +%Y%m%d-%H%M%S)}
jobs=${JOBS:-$(nproc)}
mkdir -p "$out"

echo "== configure and build ($backend) in $build"
# shellcheck disable=SC2086
cmake -B "$build" -DBACKEND="$backend" -DBUTTERFLY_BUILD_BENCH=ON -DCMAKE_BUILD_TYPE=Release ${CMAKE_ARGS:-}
cmake --build "$build" -j "$jobs"

{
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(uname -a)"
  if [[ $backend == cuda ]]; then nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
  else rocminfo | grep -E 'Marketing Name|Name: *gfx' | sort -u; fi
} > "$out/machine.txt"

echo "== conformance suite and static checks (a skipped device test here means the GPU is not usable)"
(cd "$build" && ctest --output-on-failure --output-junit "$out/ctest.xml") | tee "$out/ctest.txt"
if grep -q 'Not Run\|Skipped' "$out/ctest.txt"; then
  echo "run.sh: some tests were skipped although a GPU was found; see $out/ctest.txt" >&2
  exit 1
fi

ran=0
draw=$build/bench/butterfly-bench-draw
lda=$build/bench/butterfly-bench-lda
if [[ -x $draw ]]; then
  # The program's own arguments span the paper's K grid (16, 48, ..., 240, on to 1024).
  echo "== $draw"
  "$draw" --benchmark_format=json --benchmark_out="$out/draw.json" --benchmark_out_format=json \
    --benchmark_repetitions=5 --benchmark_report_aggregates_only=true | tee "$out/draw.txt"
  ran=1
else
  echo "run.sh: $draw does not exist (bench/ has no draw benchmark yet); skipping it" >&2
fi
if [[ -x $lda ]]; then
  echo "== $lda"
  "$lda" --benchmark_format=json --benchmark_out="$out/lda.json" --benchmark_out_format=json \
    | tee "$out/lda.txt"
  ran=1
else
  echo "run.sh: $lda does not exist (bench/ has no LDA benchmark yet); skipping it" >&2
fi

if [[ $ran == 1 && -f $root/bench/plot.py ]]; then
  echo "== plot"
  python3 "$root/bench/plot.py" "$out"/*.json -o "$out/figure3-$backend.png"
elif [[ $ran == 1 ]]; then
  echo "run.sh: bench/plot.py does not exist yet; JSON is in $out, no plot drawn" >&2
fi
echo "== results in $out"
