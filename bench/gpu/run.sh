#!/usr/bin/env bash
# The first GPU hour as one command. Three modes:
#
#   bench/gpu/run.sh prepare      here (Debian 12 with ../shared beside the checkout):
#                                 `apt-get download`s the .deb files the build needs and copies
#                                 the wiki-lead and ap corpora into bench/gpu/kit/ (git-ignored, ~26 MB)
#   bench/gpu/run.sh              on the GPU machine (one NVIDIA H100/H200, CUDA 12/13, no
#                                 packages, no network; the checkout and bench/gpu/kit travel):
#                                 unpacks the kit with dpkg -x, builds for sm_90 and measures
#   bench/gpu/run.sh --rehearse   here: the same steps end to end on a HIP CPU runtime build
#                                 (BACKEND=hip, BUTTERFLY_HIP_RUNTIME=cpu) with a tiny input; the
#                                 steps that need NVIDIA tools say "rehearsal: not run". Needs a
#                                 HIP CPU runtime you already have: HIP_CPU_INCLUDE_DIR=<its
#                                 include folder> (the repository never fetches or builds it)
#
# Steps (each fails fast, naming itself): unpack kit; configure and build (cap 1, 2, 4 trees in
# parallel); the whole backend test suite (BUTTERFLY_TESTS=backend: conformance, edge cases,
# chi-square, oracles, LDA, CLI) + static checks (no test may be skipped); compute-sanitizer
# memcheck and racecheck on the device conformance tests; Figure 3 on wiki-lead (every
# algorithm x the K grid, packing on and off); the whole device-resident LDA iteration
# (draw, counts, Dirichlet steps; the paper's whole-application question) x the K grid; the
# register-cap sweep (minimum blocks per multiprocessor 1/2/4: registers, local bytes,
# achieved occupancy, tokens/s); plots; summary.md. Everything goes to one folder: $OUT when
# set, else bench/results/gpu-<date> (rehearsal: bench/results/rehearsal-<date>).
# Environment: HBM_GBPS (peak bandwidth for the HBM floor; default from the GPU name),
# JOBS (default nproc), BUTTERFLY_BENCH_DOCS (documents; default all, rehearsal 64), CAPS
# (register caps to sweep; default "1 2 4", rehearsal "1 2").
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kit=$root/bench/gpu/kit
mode=gpu
case ${1:-} in
  prepare) mode=prepare ;;
  --rehearse) mode=rehearse ;;
  "") ;;
  *) echo "usage: bench/gpu/run.sh [prepare | --rehearse]" >&2; exit 2 ;;
esac

step=start
started=$SECONDS
step() { step=$1; printf '\n== [%4ds] %s\n' $((SECONDS - started)) "$1"; }
fail() { echo "run.sh: FAILED at step '$step': $*" >&2; exit 1; }
trap 'echo "run.sh: FAILED at step '"'"'$step'"'"' (command: $BASH_COMMAND, after $((SECONDS - started)) s)" >&2' ERR

# ---- preparation (here) -------------------------------------------------------------------
# Headers and libraries the GPU build links that the GPU machine lacks: Random123 (core),
# zlib (corpus reader), Catch2 + Boost.Math headers (tests), Google Benchmark (bench/), CLI11
# and nlohmann-json (headers: butterfly-lda, which the CLI tests of the backend suite run).
debs=(librandom123-dev catch2 libboost1.74-dev zlib1g-dev libbenchmark-dev libbenchmark1debian
      libcli11-dev nlohmann-json3-dev)
if [[ $mode == prepare ]]; then
  step "prepare: apt-get download ${debs[*]} and copy wiki-lead into $kit"
  data=$root/../shared/data
  [[ -f $data/wiki-lead/docword.wiki-lead.txt.gz ]] || fail "no corpus at $data/wiki-lead (../shared beside the checkout)"
  [[ -f $data/ap/docword.ap.txt.gz ]] || fail "no corpus at $data/ap (conformance_lda trains on it)"
  rm -rf "$kit"
  mkdir -p "$kit/debs" "$kit/data"
  (cd "$kit/debs" && apt-get download "${debs[@]}") || fail "apt-get download failed"
  cp -r "$data/wiki-lead" "$data/ap" "$kit/data/"
  size=$(du -sm "$kit" | cut -f1)
  ((size < 64)) || fail "$kit is ${size} MiB; only 64 MiB of ignored files travel"
  echo "kit ready: $kit (${size} MiB). Carry bench/gpu/kit with the checkout, then run bench/gpu/run.sh there."
  exit 0
fi

# ---- measurement (GPU machine, or rehearsal here) -----------------------------------------
stamp=$(date -u +%Y%m%d-%H%M%S)
if [[ $mode == rehearse ]]; then
  out=${OUT:-$root/bench/results/rehearsal-$stamp}
  export BUTTERFLY_BENCH_DOCS=${BUTTERFLY_BENCH_DOCS:-64}
  [[ -n ${HIP_CPU_INCLUDE_DIR:-} ]] || fail "--rehearse needs HIP_CPU_INCLUDE_DIR=<include folder of a HIP CPU runtime you already have>"
  backend_args=(-DBACKEND=hip -DBUTTERFLY_HIP_RUNTIME=cpu "-DHIP_CPU_INCLUDE_DIR=$HIP_CPU_INCLUDE_DIR")
else
  out=${OUT:-$root/bench/results/gpu-$stamp}
  backend_args=(-DBACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90)  # sm_90 SASS (+ compute_90 PTX)
fi
mkdir -p "$out"
jobs=${JOBS:-$(nproc)}
exec > >(tee -a "$out/run.log") 2>&1
echo "run.sh $mode: results in $out"

step "unpack the kit (dpkg -x) into $kit/prefix"
[[ -d $kit/debs ]] || fail "no $kit/debs: run 'bench/gpu/run.sh prepare' on a Debian machine first and carry bench/gpu/kit"
command -v dpkg-deb > /dev/null || fail "dpkg-deb not found (needed to unpack $kit/debs)"
rm -rf "$kit/prefix"
for deb in "$kit"/debs/*.deb; do dpkg-deb -x "$deb" "$kit/prefix"; done
prefix=$kit/prefix/usr
libdir=$prefix/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

step "machine"
{
  echo "mode: $mode"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(uname -srm), $(nproc) cores"
  lscpu | grep 'Model name' || true
  if [[ $mode == gpu ]]; then
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv || fail "nvidia-smi fails: no usable GPU"
    nvcc --version | tail -n 2
  fi
} | tee "$out/machine.txt"

gpu_name=$( [[ $mode == gpu ]] && nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1 || echo "HIP CPU runtime (rehearsal)")
if [[ -z ${HBM_GBPS:-} ]]; then
  case $gpu_name in
    *H200*) HBM_GBPS=4800 ;;
    *H100*PCIe*) HBM_GBPS=2000 ;;
    *H100*) HBM_GBPS=3350 ;;
    *) HBM_GBPS=0 ;;  # unknown: the summary leaves the floor column empty
  esac
fi

# One build tree per register cap (__launch_bounds__ minimum blocks per multiprocessor); cap
# 1 is the default build and also builds (all targets) and runs the backend test suite. Built side by side: nvcc compiles
# the executor (the draw kernels) as one translation unit, so three trees use the cores better than one.
# CAPS overrides the list; the rehearsal builds two trees, enough to exercise the sweep.
if [[ $mode == rehearse ]]; then read -ra caps <<< "${CAPS:-1 2}"; else read -ra caps <<< "${CAPS:-1 2 4}"; fi
targets=(butterfly-bench-draw butterfly-bench-lda)
configure_and_build() {
  local cap=$1 dir=$root/build-gpu-$mode-cap$1
  # Cap 1 builds everything (the backend tests and butterfly-lda for the CLI tests); the
  # other caps only the benchmarks.
  local build_targets=(--target "${targets[@]}") apps=OFF
  [[ $cap == 1 ]] && build_targets=() apps=ON
  cmake -S "$root" -B "$dir" -G Ninja "${backend_args[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DBUTTERFLY_BUILD_BENCH=ON -DBUTTERFLY_BUILD_APPS=$apps -DBUTTERFLY_TESTS=backend \
    -DCMAKE_PREFIX_PATH="$prefix" -DRANDOM123_INCLUDE_DIR="$prefix/include" \
    -DZLIB_INCLUDE_DIR="$prefix/include" -DZLIB_LIBRARY="$libdir/libz.a" \
    -DBUTTERFLY_DATA_DIR="$kit/data" \
    "-DCMAKE_CUDA_FLAGS=-DBUTTERFLY_GPU_MIN_BLOCKS=$cap" "-DCMAKE_CXX_FLAGS=-DBUTTERFLY_GPU_MIN_BLOCKS=$cap" \
    > "$out/configure-cap$cap.log" 2>&1 &&
  cmake --build "$dir" -j "$jobs" "${build_targets[@]}" > "$out/build-cap$cap.log" 2>&1
}
step "configure and build (register caps ${caps[*]}, in parallel; logs build-cap*.log)"
command -v ninja > /dev/null || fail "ninja not found"
pids=()
for cap in "${caps[@]}"; do configure_and_build "$cap" & pids+=($!); done
for i in "${!caps[@]}"; do
  wait "${pids[$i]}" || fail "cap ${caps[$i]} build failed; see $out/configure-cap${caps[$i]}.log and $out/build-cap${caps[$i]}.log"
done
build=$root/build-gpu-$mode-cap1

step "the whole backend test suite and static checks (a skipped test fails the run)"
(cd "$build" && ctest --output-on-failure --no-tests=error \
   --output-junit "$out/ctest.xml") > "$out/ctest.txt" 2>&1 || { tail -n 30 "$out/ctest.txt"; fail "tests failed; see $out/ctest.txt"; }
tail -n 3 "$out/ctest.txt"
if grep -qE 'Not Run|\*\*\*Skipped' "$out/ctest.txt"; then fail "tests were skipped although a device is there; see $out/ctest.txt"; fi

step "compute-sanitizer memcheck and racecheck on the device conformance tests"
device_tests=$build/tests/conformance/conformance_device
for tool in memcheck racecheck; do
  if [[ $mode == gpu ]]; then
    compute-sanitizer --tool "$tool" --error-exitcode 1 "$device_tests" > "$out/sanitizer-$tool.txt" 2>&1 ||
      { tail -n 30 "$out/sanitizer-$tool.txt"; fail "compute-sanitizer --tool $tool reported errors; see $out/sanitizer-$tool.txt"; }
  else
    echo "rehearsal: compute-sanitizer not run; the program alone:" > "$out/sanitizer-$tool.txt"
    "$device_tests" >> "$out/sanitizer-$tool.txt" 2>&1 || fail "$device_tests failed"
  fi
  tail -n 2 "$out/sanitizer-$tool.txt"
done

step "Figure 3 on wiki-lead: every algorithm x K grid, packing on (grid) and off (packing)"
"$build/bench/butterfly-bench-draw" --benchmark_filter='^(grid|packing)/' \
  --benchmark_out="$out/draw.json" --benchmark_out_format=json 2>&1 | tee "$out/draw.txt"
[[ -s $out/draw.json ]] || fail "butterfly-bench-draw wrote no results"

step "the whole LDA iteration on the device (lda::sampler: nothing copied per iteration), every algorithm x the paper's K grid"
"$build/bench/butterfly-bench-lda" --benchmark_filter='^lda_iteration/.*/K:(16|48|80|112|144|176|208|240)/' \
  --benchmark_out="$out/lda.json" --benchmark_out_format=json 2>&1 | tee "$out/lda.txt"
[[ -s $out/lda.json ]] || fail "butterfly-bench-lda wrote no results"

step "register-cap sweep: registers, local bytes, achieved occupancy, tokens/s at K = 240"
for cap in "${caps[@]}"; do
  bin=$root/build-gpu-$mode-cap$cap/bench/butterfly-bench-draw
  "$bin" --benchmark_filter='^grid/.*/K:240/' --benchmark_out="$out/sweep-cap$cap.json" \
    --benchmark_out_format=json > "$out/sweep-cap$cap.txt" 2>&1
  [[ -s $out/sweep-cap$cap.json ]] || fail "cap $cap: butterfly-bench-draw wrote no results"
  if [[ $mode == gpu ]]; then
    cuobjdump --dump-resource-usage "$bin" > "$out/resources-cap$cap.txt"
    # One launch per algorithm, on few documents: ncu replays each kernel many times.
    BUTTERFLY_BENCH_DOCS=2000 ncu --csv --launch-count 8 \
      --metrics launch__registers_per_thread,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active \
      "$bin" --benchmark_filter='^grid/.*/K:240/' --benchmark_min_time=0.05 > "$out/ncu-cap$cap.csv" 2> "$out/ncu-cap$cap.log" ||
      { tail -n 20 "$out/ncu-cap$cap.log"; fail "ncu failed for cap $cap (profiling permissions?); see $out/ncu-cap$cap.log"; }
  else
    echo "rehearsal: cuobjdump and ncu not run" | tee "$out/resources-cap$cap.txt" > "$out/ncu-cap$cap.csv"
  fi
done

step "plots"
if python3 -c 'import matplotlib' 2> /dev/null; then
  python3 "$root/bench/gpu/plot.py" "$out"
else
  echo "no matplotlib here: draw the PNGs later with bench/gpu/plot.py $out" | tee "$out/plots-missing.txt"
fi

step "summary"
python3 "$root/bench/gpu/summary.py" "$out" --gpu "$gpu_name" --hbm-gbps "$HBM_GBPS" --caps "${caps[@]}" \
  | tee "$out/summary.md"
step "done in $((SECONDS - started)) s: $out"
