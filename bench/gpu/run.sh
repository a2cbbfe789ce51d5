#!/usr/bin/env bash
# The GPU runbook, in phases that fit one lease of a lent GPU machine (one NVIDIA H100 or H200,
# 16 cores, no packages, no network; 15 minutes of device time per task, its start and idle
# waits counted; commands of at most 10 minutes; at most 8 files of 16 MiB handed back from $OUT).
#
#   bench/gpu/run.sh prepare   here (Debian 12, ../shared beside the checkout): `apt-get
#                              download`s the .debs the build needs that the GPU machine lacks
#                              and copies the wiki-lead and ap corpora into bench/gpu/kit/
#                              (git-ignored, ~26 MiB); carry that folder with the checkout
#   bench/gpu/run.sh PHASE... [--emulated]   one or more of these, run in the order given
#     build    unpack the kit (dpkg -x), configure BACKEND=cuda for sm_90 (the backend's tests,
#              apps, benchmarks; ninja if present) and build it; the register-cap trees (CAPS)
#              build beside it, and what they have not finished when the phase's time runs
#              out `profile` finishes. A tree already built is only brought up to date.
#     test     ctest -j8 on that build (a skipped test fails it); compute-sanitizer memcheck,
#              initcheck and synccheck on the device conformance tests (not racecheck: no
#              kernel uses shared memory)
#     measure  Figure 3 (basic, transposed, butterfly, warp_scan at K = 16..1024) with the
#              draw device-resident (inputs uploaded once per K, the draw prepared once,
#              validate off, CUDA events) and end to end (the host-span draw_topics); the whole
#              LDA iteration of every estimator at K = 240 and 1000 with its steps' times, and
#              of every algorithm on the paper's K grid
#     profile  registers, stack and spills (cuobjdump --dump-resource-usage); ncu
#              --clock-control none on the draw (time, DRAM bytes, L1 wavefronts, occupancy) and
#              on the LDA iteration (each step's kernel time); the register-cap sweep
#     all      the four in order (a failed build ends it; other failures do not)
#   With --emulated every phase runs on the emulated device (BACKEND=emulated: the same
#   kernels on the host against strictly checked device memory) with tiny inputs, on any
#   Debian machine; the steps that need NVIDIA tools say "emulated: not run". CI runs it at
#   every landing on its device-emulation tree (.ci/run: BUTTERFLY_GPU_TREE, and only the
#   device-emulation tests, which its workflow has not just run: BUTTERFLY_GPU_CTEST_ARGS).
#
# On a lent machine, two commands, carrying bench/gpu/kit, the second at once after the first
# (a machine idle for 30 s goes back, and with it /tmp):
#   bench/gpu/run.sh build test measure     (the device tool's timeout_s 540)
#   bench/gpu/run.sh build profile          (timeout_s 300; build is a no-op on a warm machine;
#                                            on a fresh one it builds again, about a minute)
# On a GPU each phase runs under its own timeout, sized so that both commands and the machine's
# start fit the 15 minutes (phase_limit below); a step the limit stops, or one that finds no time
# left, is reported as such, and the phase can be run again alone. Under --emulated, on 2 cores,
# the build gets 30 minutes, the whole test suite 20 and the others 10. Everything is made under
# /tmp, never in the checkout: the build trees and a state folder that keeps every phase's logs
# and results across commands.
# After every phase, also a failed or timed-out one (and on any exit), the whole state is packed
# into $OUT as at most 4 files: summary.md (each prediction of bench/gpu/predictions.tsv
# beside its measurement, the steps with their failures and seconds, the log's tail),
# results.tar.gz (every log, JSON, CSV and ncu report; trimmed to stay under 16 MiB) and, where
# matplotlib is there, Figure 3's two PNGs. The exit status is non-zero when any step failed.
#
# Environment:
#   OUT                          where the packed files go (default $BUTTERFLY_GPU_WORK/out)
#   BUTTERFLY_GPU_WORK           the work folder (default /tmp/butterfly-gpu, or
#                                /tmp/butterfly-gpu-emulated)
#   BUTTERFLY_GPU_TREE           an existing configured and built tree to use as the main one
#                                (CI: the device-emulation preset's); build then only turns on
#                                BUTTERFLY_BUILD_BENCH there and builds the two benchmarks
#   BUTTERFLY_GPU_CTEST_ARGS     extra ctest arguments for the test phase (e.g. -R conformance)
#   BUTTERFLY_GPU_FAIL_STEP=NAME makes step NAME fail without running it, to check that a
#                                failure still packs (step names: summary.md, e.g. configure,
#                                ctest, draw-device, sweep)
#   BUTTERFLY_GPU_PHASE_SECONDS  every phase's limit in seconds (defaults above)
#   CAPS    register caps (__launch_bounds__ minimum blocks) to sweep (default "1 2 4";
#           --emulated "1": the cap means nothing on the host)
#   JOBS    build jobs (default nproc)     HBM_GBPS   peak bandwidth (default from the GPU name)
# shellcheck disable=SC2317 # the steps are functions called through run_step and `_run`
set -uo pipefail

self=$(realpath "${BASH_SOURCE[0]}")
root=$(cd "$(dirname "$self")/../.." && pwd)
kit=$root/bench/gpu/kit
export PATH=/usr/local/cuda/bin:$PATH

usage() {
  echo "usage: bench/gpu/run.sh prepare | bench/gpu/run.sh all [--emulated] |" \
    "bench/gpu/run.sh PHASE... [--emulated] (PHASE: build, test, measure or profile)" >&2
  exit 2
}

# Internal: `_phase NAME` (one phase, under the caller's timeout) and `_run FUNCTION ARGS` (one
# step's function, under the step's timeout) run with BUTTERFLY_GPU_MODE set by the caller.
cmd=${1:-}
[[ -n $cmd ]] || usage
shift
phases=()
case $cmd in
  _phase | _run) mode=${BUTTERFLY_GPU_MODE:?} ;;
  prepare) mode=gpu ;;
  build | test | measure | profile | all)
    mode=gpu
    phases=("$cmd")
    for a in "$@"; do
      case $a in
        --emulated) mode=emulated ;;
        build | test | measure | profile) [[ $cmd != all ]] || usage; phases+=("$a") ;;
        *) usage ;;
      esac
    done
    [[ $cmd == all ]] && phases=(build test measure profile)
    cmd=phases
    ;;
  *) usage ;;
esac
export BUTTERFLY_GPU_MODE=$mode
emulated() { [[ $mode == emulated ]]; }

if emulated; then work=${BUTTERFLY_GPU_WORK:-/tmp/butterfly-gpu-emulated}; else work=${BUTTERFLY_GPU_WORK:-/tmp/butterfly-gpu}; fi
state=$work/state
out=${OUT:-$work/out}
tree=${BUTTERFLY_GPU_TREE:-$work/cap1}
prefix=$work/prefix
jobs=${JOBS:-$(nproc)}
if emulated; then read -ra caps <<< "${CAPS:-1}"; else read -ra caps <<< "${CAPS:-1 2 4}"; fi
cap_tree() { if [[ $1 == 1 ]]; then echo "$tree"; else echo "$work/cap$1"; fi; }
say() { printf '[%s] %s\n' "$(date -u +%T)" "$*"; }

# Inputs of the measurements: the whole wiki-lead corpus on a GPU; on the emulated device 64
# documents of ap and few K, so that each phase takes seconds.
if emulated; then
  export BUTTERFLY_BENCH_CORPUS=${BUTTERFLY_BENCH_CORPUS:-ap} BUTTERFLY_BENCH_DOCS=${BUTTERFLY_BENCH_DOCS:-64}
  draw_K='(16|240)' paper_K='(16|240)' bench_args=(--benchmark_min_time=0.01)
else
  draw_K='[0-9]+' paper_K='(16|48|80|112|144|176|208|240)' bench_args=(--benchmark_min_time=0.2)
fi

# ---- prepare (here) -------------------------------------------------------------------------
# Headers and libraries the GPU build links that the GPU machine lacks: Random123 (core), zlib
# (corpus reader), Catch2 + Boost.Math headers (tests), Google Benchmark (bench/), CLI11 and
# nlohmann-json (headers: butterfly-lda, which the CLI tests of the backend suite run).
debs=(librandom123-dev catch2 libboost1.74-dev zlib1g-dev libbenchmark-dev libbenchmark1debian
      libcli11-dev nlohmann-json3-dev)
prepare() {
  local data=$root/../shared/data size
  [[ -f $data/wiki-lead/docword.wiki-lead.txt.gz && -f $data/ap/docword.ap.txt.gz ]] ||
    { echo "run.sh prepare: no wiki-lead or ap corpus in $data (../shared beside the checkout)" >&2; exit 1; }
  rm -rf "$kit"
  mkdir -p "$kit/debs" "$kit/data"
  (cd "$kit/debs" && apt-get download "${debs[@]}") || { echo "run.sh prepare: apt-get download failed" >&2; exit 1; }
  cp -r "$data/wiki-lead" "$data/ap" "$kit/data/"
  size=$(du -sm "$kit" | cut -f1)
  ((size < 64)) || { echo "run.sh prepare: $kit is $size MiB; only 64 MiB of ignored files travel" >&2; exit 1; }
  echo "kit ready: $kit ($size MiB). Carry bench/gpu/kit with the checkout, then run the phases there."
}

# The kit is used where it is there (always on a GPU machine; under --emulated it rehearses the
# unpacking), otherwise the host's packages.
use_kit() { ! emulated || [[ -d $kit/debs ]]; }
kit_args=()
if use_kit; then
  libdir=$prefix/usr/lib/x86_64-linux-gnu
  [[ :${LD_LIBRARY_PATH:-}: == *:$libdir:* ]] || export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  kit_args=(-DCMAKE_PREFIX_PATH="$prefix/usr" -DRANDOM123_INCLUDE_DIR="$prefix/usr/include"
            -DZLIB_INCLUDE_DIR="$prefix/usr/include" -DZLIB_LIBRARY="$libdir/libz.a"
            -DBUTTERFLY_DATA_DIR="$kit/data")
fi
if emulated; then backend=emulated backend_args=(-DBACKEND=emulated)
else backend=cuda backend_args=(-DBACKEND=cuda -DCMAKE_CUDA_ARCHITECTURES=90); fi
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)

# ---- steps ----------------------------------------------------------------------------------
# A step's status goes to steps.tsv (phase, step, status, seconds, when it ended, note); its
# output to logs/PHASE-STEP.log. Status: ok, FAILED, TIMEOUT, deferred (a cap tree left to
# profile), skipped (with the reason).
record() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$phase" "$1" "$2" "$3" "$(date -u +%FT%TZ)" "${4:-}" >> "$state/steps.tsv"; }
skip_step() {
  say "$phase/$1: skipped ($2)"
  record "$1" skipped 0 "$2"
}
# run_step NAME COMMAND...: runs COMMAND (a program, or a function of this script) with the
# phase's remaining time; returns its status.
run_step() {
  local name=$1 rc t0=$SECONDS
  shift
  local log=$state/logs/$phase-$name.log
  echo "$name" > "$state/current-step"
  say "$phase/$name ..."
  if [[ ${BUTTERFLY_GPU_FAIL_STEP:-} == "$name" ]]; then
    echo "run.sh: step $name made to fail (BUTTERFLY_GPU_FAIL_STEP=$name)" > "$log"
    rc=1
  elif ((deadline - SECONDS <= 0)); then
    echo "run.sh: no time left in phase $phase" > "$log"
    rc=124
  else
    local run=("$@")
    declare -F "$1" > /dev/null && run=("$self" _run "$@")
    timeout --kill-after=10 $((deadline - SECONDS)) "${run[@]}" > "$log" 2>&1
    rc=$?
  fi
  local status=ok note=""
  case $rc in
    0) ;;
    124 | 137) status=TIMEOUT note="stopped at the phase's limit" ;;
    *) status=FAILED note="exit status $rc" ;;
  esac
  record "$name" "$status" $((SECONDS - t0)) "$note"
  say "$phase/$name: $status ($((SECONDS - t0)) s)"
  if ((rc != 0)); then
    tail -n 15 "$log" | sed 's/^/    /'
  fi
  return "$rc"
}

preflight() {
  local t missing=0
  for t in nvcc g++ cmake ncu compute-sanitizer; do
    if command -v "$t" > /dev/null; then
      # The line with the version: nvcc's "release", the first line of g++ and cmake, the
      # last of the NVIDIA tools.
      printf '%-18s %s\n' "$t" "$("$t" --version 2>&1 | grep -v '^\s*$' |
        case $t in nvcc) grep release ;; g++ | cmake) head -n 1 ;; *) tail -n 1 ;; esac)"
    else
      printf '%-18s not found\n' "$t"
      emulated || missing=1
    fi
  done
  for t in ninja python3 cuobjdump nvidia-smi; do
    printf '%-18s %s\n' "$t" "$(command -v "$t" || echo 'not found')"
  done
  if ! emulated; then
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv || missing=1
  fi
  return "$missing"
}

# What the summary needs to know of this machine and run (run.env) and what a reader does
# (machine.txt); written at the start of every phase.
describe_machine() {
  local gpu="emulated device (BACKEND=emulated, the host's CPU)" hbm=0
  if ! emulated; then
    gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2> /dev/null | head -n 1)
    gpu=${gpu:-unknown GPU}
    case $gpu in
      *H200*) hbm=4800 ;;
      *H100*PCIe*) hbm=2000 ;;
      *H100*NVL*) hbm=3900 ;;
      *H100*) hbm=3350 ;;
    esac
  fi
  {
    echo "mode=$mode"
    echo "gpu=$gpu"
    echo "hbm_gbps=${HBM_GBPS:-$hbm}"
    echo "caps=${caps[*]}"
    echo "commit=$(git -C "$root" rev-parse --short HEAD 2> /dev/null || echo unknown)"
    echo "corpus=${BUTTERFLY_BENCH_CORPUS:-wiki-lead}${BUTTERFLY_BENCH_DOCS:+ (first $BUTTERFLY_BENCH_DOCS documents)}"
  } > "$state/run.env"
  {
    echo "date: $(date -u +%FT%TZ), phase $phase"
    echo "host: $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
    emulated || echo "device: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>&1 | head -n 1)"
    cat "$state/run.env"
  } > "$state/machine.txt"
}

unpack_kit() {
  [[ -d $kit/debs ]] || { echo "no $kit/debs: run 'bench/gpu/run.sh prepare' on a Debian machine and carry bench/gpu/kit"; return 1; }
  command -v dpkg-deb > /dev/null || { echo "dpkg-deb not found (needed to unpack $kit/debs)"; return 1; }
  local stamp list
  list=$(cd "$kit/debs" && ls ./*.deb)
  stamp=$prefix/.unpacked
  if [[ -f $stamp && $(cat "$stamp") == "$list" ]]; then
    echo "kit already unpacked in $prefix"
    return 0
  fi
  rm -rf "$prefix"
  mkdir -p "$prefix"
  local deb
  for deb in "$kit"/debs/*.deb; do dpkg-deb -x "$deb" "$prefix" || return 1; done
  echo "$list" > "$stamp"
  echo "unpacked $(wc -l <<< "$list") packages into $prefix"
}

# The tree configured with BACKEND=$backend and the benchmarks on: ours made here, or the one
# BUTTERFLY_GPU_TREE names (then only the benchmarks are turned on).
configure_main() {
  if [[ -f $tree/CMakeCache.txt ]]; then
    local have
    have=$(sed -n 's/^BACKEND:[A-Z]*=//p' "$tree/CMakeCache.txt")
    [[ $have == "$backend" ]] || { echo "$tree is configured with BACKEND=$have, not $backend"; return 1; }
    echo "reusing $tree (BACKEND=$have)"
    grep -q '^BUTTERFLY_BUILD_BENCH:BOOL=ON' "$tree/CMakeCache.txt" || cmake -B "$tree" -DBUTTERFLY_BUILD_BENCH=ON
    return
  fi
  cmake -S "$root" -B "$tree" "${generator[@]}" "${backend_args[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DBUTTERFLY_TESTS=backend -DBUTTERFLY_BUILD_APPS=ON -DBUTTERFLY_BUILD_BENCH=ON "${kit_args[@]}"
}
build_main() {
  if [[ -n ${BUTTERFLY_GPU_TREE:-} ]]; then
    cmake --build "$tree" -j "$jobs" --target butterfly-bench-draw butterfly-bench-lda
  else
    cmake --build "$tree" -j "$jobs"
  fi
}
# A register-cap tree: the draw benchmark alone, with __launch_bounds__ asking for `cap` blocks
# per multiprocessor (backends/common/cuda_hip/src/executor.cpp).
build_cap() {
  local dir
  dir=$(cap_tree "$1")
  if [[ ! -f $dir/CMakeCache.txt ]]; then
    cmake -S "$root" -B "$dir" "${generator[@]}" "${backend_args[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DBUTTERFLY_BUILD_TESTS=OFF -DBUTTERFLY_BUILD_APPS=OFF -DBUTTERFLY_BUILD_BENCH=ON "${kit_args[@]}" \
      "-DCMAKE_CUDA_FLAGS=-DBUTTERFLY_GPU_MIN_BLOCKS=$1" || return 1
  fi
  cmake --build "$dir" -j "$jobs" --target butterfly-bench-draw
}

run_ctest() {
  local j=8
  emulated && j=$jobs
  # shellcheck disable=SC2086 # word splitting of the extra arguments is wanted
  ctest --test-dir "$tree" -j "$j" --output-on-failure --no-tests=error \
    --output-junit "$state/ctest.xml" ${BUTTERFLY_GPU_CTEST_ARGS:-} | tee "$state/ctest.txt"
  local rc=$?
  if grep -qE '\*\*\*Skipped|Not Run|did not run' "$state/ctest.txt"; then
    echo "run.sh: tests were skipped; on this machine every test must run"
    return 1
  fi
  return "$rc"
}

sanitize() {
  local extra=()
  [[ $1 == memcheck ]] && extra=(--leak-check full)
  compute-sanitizer --tool "$1" "${extra[@]}" --error-exitcode 1 "$tree/tests/conformance/conformance_device"
}

# bench PROGRAM FILTER JSON [ARGS...]: one benchmark program's runs into the state folder.
bench() {
  local bin=$1 filter=$2 json=$3
  shift 3
  "$bin" --benchmark_filter="$filter" --benchmark_out="$state/$json" --benchmark_out_format=json \
    "${bench_args[@]}" "$@" || return 1
  [[ -s $state/$json ]] || { echo "$bin wrote no results"; return 1; }
}
draw_bench() { echo "$(cap_tree "${1:-1}")/bench/butterfly-bench-draw"; }
lda_bench="$tree/bench/butterfly-bench-lda"

clocks() {
  nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv |
    tee "$state/clocks-$1.csv"
}

plots() {
  if python3 -c 'import matplotlib' 2> /dev/null; then
    python3 "$root/bench/gpu/plot.py" "$state"
  else
    echo "no matplotlib here: draw the PNGs later with bench/gpu/plot.py on the unpacked results"
  fi
}

resources() {
  local cap rc=0
  for cap in "${caps[@]}"; do
    cuobjdump --dump-resource-usage "$(draw_bench "$cap")" > "$state/resources-cap$cap.txt" || rc=1
  done
  cuobjdump --dump-resource-usage "$lda_bench" > "$state/resources-lda.txt" || rc=1
  cat "$state"/resources-*.txt
  return "$rc"
}

# ncu_report NAME ARGS...: ncu --clock-control none (the GPU's own clocks, as the benchmarks ran)
# over the program in ARGS; the report and its CSV (base units, demangled kernel names, which
# name the LDA steps) into ncu/.
ncu_report() {
  local name=$1
  shift
  ncu --clock-control none --export "$state/ncu/$name" --force-overwrite "$@" || return 1
  ncu --import "$state/ncu/$name.ncu-rep" --csv --print-units base --print-kernel-base demangled \
    > "$state/ncu/$name.csv"
}
# The draw kernel of one benchmark run: its second launch (the first is untimed). The L2 and
# L1 metrics have never been tried on this code; if ncu refuses them, the others are kept.
draw_metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_active.avg,sm__cycles_active.max,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__grid_size
cache_metrics=lts__t_bytes.sum,l1tex__data_pipe_lsu_wavefronts.sum
ncu_draw_one() {
  local name=$1 bin=$2 filter=$3 metrics
  for metrics in "$draw_metrics,$cache_metrics" "$draw_metrics"; do
    ncu_report "$name" -k regex:draw --launch-skip 1 --launch-count 1 --metrics "$metrics" \
      "$bin" --benchmark_filter="$filter" --benchmark_min_time=0.001 && return 0
  done
  return 1
}
ncu_draw() {
  local K alg rc=0
  mkdir -p "$state/ncu"
  for K in 240 1000; do
    for alg in basic transposed butterfly warp_scan; do
      ncu_draw_one "draw-$alg-K$K" "$(draw_bench)" "^device/$alg/K:$K/" || rc=1
    done
  done
  return "$rc"
}
# Each kernel of an LDA run (setup, one warmup iteration, the timed ones), by step.
ncu_lda() {
  local K est rc=0
  mkdir -p "$state/ncu"
  for K in 240 1000; do
    for est in sample mean collapsed mh; do
      BUTTERFLY_BENCH_WARMUP=1 ncu_report "lda-$est-K$K" --metrics gpu__time_duration.sum \
        "$lda_bench" --benchmark_filter="^estimators/$est/K:$K(/|\$)" --benchmark_min_time=0.001 || rc=1
    done
  done
  return "$rc"
}
# The register-cap sweep at K = 240: the device-resident draw per cap tree, and on a GPU each
# cap's draw kernels under ncu (cap 1's are ncu-draw's).
sweep() {
  local cap alg rc=0
  mkdir -p "$state/ncu"
  for cap in "${caps[@]}"; do
    bench "$(draw_bench "$cap")" '^device/.*/K:240/' "sweep-cap$cap.json" || rc=1
    if ! emulated && [[ $cap != 1 ]]; then
      for alg in basic transposed butterfly warp_scan; do
        ncu_draw_one "sweep-cap$cap-$alg" "$(draw_bench "$cap")" "^device/$alg/K:240/" || rc=1
      done
    fi
  done
  return "$rc"
}

# ---- phases ---------------------------------------------------------------------------------
# Exit status of a phase: 0, 1 (a step failed) or 3 (the build failed: nothing can follow).
require_tree() {
  [[ -f $tree/CMakeCache.txt ]] && return 0
  record tree FAILED 0 "no build tree at $tree: run the build phase first (a machine handed back loses /tmp)"
  say "$phase: no build tree at $tree: run the build phase first"
  return 1
}

phase_build() {
  local failed=0 cap pids=() names=()
  if use_kit; then run_step kit unpack_kit || return 3; else skip_step kit "emulated: the host's packages"; fi
  run_step configure configure_main || return 3
  # The cap trees build beside the main tree, at a lower priority, until 20 s before the phase's
  # end; what is left then, profile finishes (build_cap is incremental).
  for cap in "${caps[@]}"; do
    [[ $cap == 1 ]] && continue
    local left=$((deadline - SECONDS - 20))
    ((left > 0)) || left=1
    (nice -n 10 timeout "$left" "$self" _run build_cap "$cap" > "$state/logs/build-cap$cap.log" 2>&1) &
    pids+=($!) names+=("$cap")
  done
  run_step build build_main || failed=3
  local i rc t0=$SECONDS
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}"
    rc=$?
    case $rc in
      0) record "cap${names[$i]}" ok $((SECONDS - t0)) ;;
      124 | 137) record "cap${names[$i]}" deferred $((SECONDS - t0)) "not finished: profile finishes it" ;;
      *) record "cap${names[$i]}" FAILED $((SECONDS - t0)) "see logs/build-cap${names[$i]}.log"; ((failed)) || failed=1 ;;
    esac
  done
  return "$failed"
}

phase_test() {
  local failed=0 tool pids=() pid
  require_tree || return 1
  # The sanitizers (GPU-bound, one core each) run beside ctest, so that the phase fits its time.
  for tool in memcheck initcheck synccheck; do
    if emulated; then
      skip_step "sanitizer-$tool" "emulated: not run (ctest ran the device conformance tests)"
    else
      run_step "sanitizer-$tool" sanitize "$tool" &
      pids+=($!)
    fi
  done
  run_step ctest run_ctest || failed=1
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  return "$failed"
}

phase_measure() {
  local failed=0
  require_tree || return 1
  if emulated; then skip_step clocks-before "emulated: not run"; else run_step clocks-before clocks before || failed=1; fi
  run_step draw-device bench "$(draw_bench)" "^device/.*/K:$draw_K/" draw-device.json || failed=1
  run_step draw-end-to-end bench "$(draw_bench)" "^grid/.*/K:$draw_K/" draw-end-to-end.json || failed=1
  run_step lda-estimators bench "$lda_bench" '^estimators/' lda-estimators.json || failed=1
  run_step lda-algorithms bench "$lda_bench" "^lda_iteration/.*/K:$paper_K(/|\$)" lda-algorithms.json || failed=1
  if emulated; then skip_step clocks-after "emulated: not run"; else run_step clocks-after clocks after || failed=1; fi
  run_step plots plots || failed=1
  return "$failed"
}

phase_profile() {
  local failed=0 cap step pids=() pid
  require_tree || return 1
  # The cap trees build (or finish building) on the CPU while ncu profiles cap 1's kernels.
  for cap in "${caps[@]}"; do
    [[ $cap == 1 ]] && continue
    run_step "build-cap$cap" build_cap "$cap" &
    pids+=($!)
  done
  if emulated; then
    for step in ncu-draw ncu-lda; do skip_step "$step" "emulated: not run"; done
  else
    run_step ncu-draw ncu_draw || failed=1
    run_step ncu-lda ncu_lda || failed=1
  fi
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  if emulated; then skip_step resources "emulated: not run"; else run_step resources resources || failed=1; fi
  run_step sweep sweep || failed=1
  return "$failed"
}

# What each phase writes into the state folder besides its logs.
phase_outputs() {
  case $1 in
    test) echo ctest.xml ctest.txt ;;
    measure) echo clocks-*.csv draw-device.json draw-end-to-end.json lda-*.json draw-*.png ;;
    profile) echo ncu resources-*.txt sweep-*.json ;;
  esac
}

# One phase, in its own process under the caller's timeout: its earlier results are replaced
# (a step that fails leaves none behind).
run_phase_inner() {
  phase=$1
  deadline=$((SECONDS + limit - 20))
  mkdir -p "$state/logs"
  touch "$state/steps.tsv"
  awk -F'\t' -v p="$phase" '$1 != p' "$state/steps.tsv" > "$state/steps.tmp" && mv "$state/steps.tmp" "$state/steps.tsv"
  rm -rf "$state/logs/$phase"-*.log
  (cd "$state" && eval "rm -rf $(phase_outputs "$phase")")
  describe_machine
  local failed=0
  run_step preflight preflight || failed=1
  "phase_$phase"
  local rc=$?
  ((rc > failed)) && failed=$rc
  rm -f "$state/current-step"
  return "$failed"
}

# On a GPU machine the two commands of a lease (the header) and the machine's start fit its 15
# minutes: build 120 s (the whole tree from scratch is 4.3 CPU-minutes, 2 min 20 s on 2 cores
# here: about a minute on 16), test 180, measure 150 (each benchmark 0.2 s: the kernels take
# milliseconds) and profile 150, each with 20 s to stop in: the first command at most 510 s, the
# second 170 s on a warm machine. On the emulated device, 2 cores: a build from scratch takes 6-9
# minutes and the whole backend suite 4-8 (its collapsed chi-square test alone 3).
phase_limit() {
  if [[ -n ${BUTTERFLY_GPU_PHASE_SECONDS:-} ]]; then echo "$BUTTERFLY_GPU_PHASE_SECONDS"
  elif ! emulated; then case $1 in build) echo 120 ;; test) echo 180 ;; *) echo 150 ;; esac
  else case $1 in build) echo 1800 ;; test) echo 1200 ;; *) echo 600 ;; esac; fi
}

# ---- packing --------------------------------------------------------------------------------
max_archive=$((15 * 1024 * 1024))
pack() {
  mkdir -p "$out"
  rm -f "$out/summary.md" "$out/results.tar.gz" "$out/draw-seconds.png" "$out/draw-speedup.png"
  if ! python3 "$root/bench/gpu/summary.py" "$state" --predictions "$root/bench/gpu/predictions.tsv" \
       > "$state/summary.md" 2> "$state/logs/summary.log"; then
    {
      echo "# GPU runbook: steps only (bench/gpu/summary.py failed: logs/summary.log)"
      echo
      echo '```'
      cat "$state/run.env" "$state/steps.tsv" 2> /dev/null
      echo '```'
      echo
      echo '## The log'"'"'s tail'
      echo '```'
      tail -n 40 "$state/run.log" 2> /dev/null
      echo '```'
    } > "$state/summary.md"
  fi
  tar -czf "$out/results.tar.gz" -C "$state" . 2> /dev/null
  if (($(stat -c %s "$out/results.tar.gz") > max_archive)); then
    # Keep each log's last MiB, then drop the ncu reports (their CSVs stay).
    local trimmed=$work/trimmed f
    rm -rf "$trimmed"
    cp -r "$state" "$trimmed"
    find "$trimmed" -type f -name '*.log' -size +1M | while read -r f; do
      { echo "[run.sh: trimmed to the last MiB]"; tail -c 1M "$f"; } > "$f.tail" && mv "$f.tail" "$f"
    done
    tar -czf "$out/results.tar.gz" -C "$trimmed" .
    if (($(stat -c %s "$out/results.tar.gz") > max_archive)); then
      find "$trimmed" -name '*.ncu-rep' -delete
      tar -czf "$out/results.tar.gz" -C "$trimmed" .
    fi
    rm -rf "$trimmed"
    printf '\nresults.tar.gz trimmed to %s bytes: logs over 1 MiB keep their last MiB%s.\n' \
      "$(stat -c %s "$out/results.tar.gz")" "$( (($(stat -c %s "$out/results.tar.gz") > max_archive)) && echo '; STILL over 15 MiB')" \
      >> "$state/summary.md"
  fi
  cp "$state/summary.md" "$out/summary.md"
  cp "$state"/draw-*.png "$out/" 2> /dev/null
  say "packed $(find "$out" -maxdepth 1 -type f | wc -l) files into $out: $(find "$out" -maxdepth 1 -type f -printf '%f ')"
}

# ---- main -----------------------------------------------------------------------------------
case $cmd in
  prepare)
    prepare
    exit
    ;;
  _run)
    "$@"
    exit
    ;;
  _phase)
    limit=$(phase_limit "$1")
    run_phase_inner "$1"
    exit
    ;;
esac

mkdir -p "$state/logs"
exec > >(tee -a "$state/run.log") 2>&1
# Packs on any exit, also a signal's; after each phase the loop packs too.
trap pack EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
say "run.sh ${phases[*]} ($mode): work in $work, results packed into $out"
failed=0
for phase in "${phases[@]}"; do
  limit=$(phase_limit "$phase")
  say "== phase $phase (limit $limit s)"
  timeout --kill-after=20 "$limit" "$self" _phase "$phase"
  rc=$?
  if ((rc == 124 || rc == 137)); then
    record "$(cat "$state/current-step" 2> /dev/null || echo phase)" TIMEOUT "$limit" "the phase's limit ($limit s) ran out"
    rm -f "$state/current-step"
  fi
  say "== phase $phase: $( ((rc == 0)) && echo ok || echo "FAILED (status $rc)")"
  ((rc == 0)) || failed=1
  pack
  if ((rc == 3)); then
    say "the build failed: the later phases cannot run"
    break
  fi
done
trap - EXIT
exit "$failed"
