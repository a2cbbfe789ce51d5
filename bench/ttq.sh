#!/bin/sh
# Runs butterfly's side of the time to quality against the peers: held-out perplexity
# against wall seconds on ap, 20news and nips17 (the fixed splits of ../shared/eval) and wiki-lead
# (split once, 10 % held out, seed 0, by ../shared/eval/heldout.py split into
# build-splits/wiki-lead, git-ignored, reused after), K = 240 and 1000 (alpha 50/K, beta
# 0.01), 2 threads, each point a fresh butterfly-lda process timed wall-clock with its peak
# RSS, scored by heldout.py (bench/time_to_quality.py does the runs, the table and the plots).
#   1. configures and builds butterfly-lda of preset PRESET (default bench-openmp: OpenMP
#      backend, Release, host ISA, in build-bench-openmp, as bench/lda_cpu.sh does;
#      bench-openmp-clang: the same compiled by clang++, in build-bench-openmp-clang);
#   2. runs bench/time_to_quality.py over CORPORA x TOPICS x ESTIMATORS x the curve's
#      iteration list (variables below; each can be overridden from the environment).
#
#   bench/ttq.sh [--peers FILE.tsv ...] [other time_to_quality.py options]
#   e.g. ESTIMATORS="collapsed mean" bench/ttq.sh --peers /tmp/warplda-peers.tsv
#   (--iterations LIST after these replaces every list; CORPUS=LIST one corpus's, CORPUS@K=LIST one curve's)
#
# --peers FILE.tsv (repeatable): the peers' curves measured on this machine, header
#   corpus K peer threads unit n wall_s perplexity alpha beta maxrss_kb
# (maxrss_kb may be absent: unknown); without --peers, ../shared/eval/ap/peers.tsv (another
# machine of the same kind) is drawn for ap, and 20news/wiki-lead have no peer.
# Output in bench/results/ttq-DATE/: ttq.log (the console), ttq.tsv (one row per run, peer = butterfly-<estimator>,
# maxrss_kb), machine.txt, ttq-<corpus>-K<K>.png, ttq.md (per corpus and K: time to within
# 2 % of the best peer's perplexity and its ratio to WarpLDA's, final perplexity, seconds
# per iteration, peak MiB against WarpLDA's, and whether each curve is below WarpLDA's at
# every wall time >= 1 s). Redraw the PNGs and ttq.md later, e.g. with other peers files:
#   /usr/bin/python3 bench/time_to_quality.py --replot bench/results/ttq-DATE --threads 2 --peers FILE.tsv
set -eu
CORPORA=${CORPORA:-"ap 20news nips17 wiki-lead"}
TOPICS=${TOPICS:-"240 1000"}
THREADS=${THREADS:-2}
PRESET=${PRESET:-bench-openmp}
ESTIMATORS=${ESTIMATORS:-"collapsed mean"}
# corpus@K=LIST: the iteration counts of each curve: early points (where WarpLDA's curve is
# ahead), points around the time to WarpLDA's 2 % level, and a long run (about 30 minutes of
# training per estimator here)
ITERATIONS=${ITERATIONS:-"ap@240=10,25,50,100,200,400 ap@1000=10,25,50,100,200,400
  20news@240=10,25,50,100,150,200,400 20news@1000=5,10,20,40,50,60,65,70,80
  wiki-lead@240=10,25,50,100,150,200,400 wiki-lead@1000=10,20,40,55,70,75,85,100
  nips17@240=10,25,50,100,200,250,300 nips17@1000=10,25,50,100,150,250,400,600"}

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/bench/results/ttq-$(date -u +%Y%m%dT%H%M)"
cd "$root"
cmake --preset "$PRESET"
cmake --build --preset "$PRESET" --target butterfly-lda
mkdir -p "$out"
# (sh has no pipefail: the status of time_to_quality.py goes through a file)
{
  status=0
  /usr/bin/python3 bench/time_to_quality.py --build "build-$PRESET" --threads "$THREADS" \
    --corpus "$CORPORA" --topics "$TOPICS" --estimators "$ESTIMATORS" \
    $(for i in $ITERATIONS; do printf -- '--iterations %s ' "$i"; done) --out "$out" "$@" || status=$?
  echo "$status" > "$out/.status"
} 2>&1 | tee "$out/ttq.log"
status=$(cat "$out/.status")
rm -f "$out/.status"
exit "$status"
