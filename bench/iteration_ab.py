#!/usr/bin/env python3
"""Seconds per iteration of two butterfly-lda binaries, interleaved in one run.

For a change that should make the iteration faster without changing its bits: each
(corpus, K, estimator) trains with binary A, then B, then A, ... (--rounds times each), and
the figure of a run is the median of its progress lines' per-iteration seconds (butterfly-lda
prints one per iteration; the first --skip are left out), and its peak RSS. Prints a
Markdown table: the median over rounds of each binary's seconds, the largest peak, B / A.
The corpora, splits and priors are the time-to-quality runs' (time_to_quality.py: ap and
20news split in ../shared/eval, wiki-lead's made once in build-splits/; alpha 50/K as
peers.tsv rounds it, beta 0.01).

  bench/iteration_ab.py --a OLD/butterfly-lda --b NEW/butterfly-lda \
      --corpus 20news --topics 240,1000 --estimators mh,collapsed --iterations 12
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

import time_to_quality as ttq  # the same corpora, splits and priors as the time-to-quality runs

ITERATION = re.compile(r"^iteration (\d+)/\d+\s+([0-9.]+) s")


def seconds_per_iteration(binary, docword, vocab, k, estimator, iterations, skip, threads):
    with tempfile.TemporaryDirectory() as out:
        cmd = [binary, "train", "--docword", docword, "--vocab", vocab, "--topics", str(k),
               "--alpha", ttq.alpha_of(k), "--beta", ttq.BETA, "--iterations", str(iterations),
               "--estimator", estimator, "--eval-every", "0", "--out", os.path.join(out, "model")]
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        output = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)  # this process's own peak RSS
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"{' '.join(cmd)} failed ({os.waitstatus_to_exitcode(status)}):\n{output}")
    times = [float(m.group(2)) for m in map(ITERATION.match, output.splitlines()) if m and int(m.group(1)) > skip]
    if not times:
        sys.exit(f"{' '.join(cmd)}: no progress lines after iteration {skip}")
    return statistics.median(times), usage.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="butterfly-lda before")
    ap.add_argument("--b", required=True, help="butterfly-lda after")
    ap.add_argument("--corpus", default="20news", help="comma list: ap, 20news, wiki-lead")
    ap.add_argument("--topics", default="240,1000")
    ap.add_argument("--estimators", default="mh,collapsed")
    ap.add_argument("--iterations", type=int, default=12)
    ap.add_argument("--skip", type=int, default=2, help="first iterations left out of the median")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--eval", default=os.path.normpath(os.path.join(ttq.ROOT, "..", "shared", "eval")))
    ap.add_argument("--data", default=os.path.normpath(os.path.join(ttq.ROOT, "..", "shared", "data")),
                    help="unsplit corpora (wiki-lead)")
    ap.add_argument("--splits", default=os.path.join(ttq.ROOT, "build-splits"))
    a = ap.parse_args()
    print("| corpus | K | estimator | A s/it | B s/it | B / A | A peak MiB | B peak MiB | B / A |")
    print("|---|---|---|---|---|---|---|---|---|")
    for corpus in a.corpus.split(","):
        files = ttq.prepare_corpus(corpus, a, notes=[])
        docword, vocab = files["docword"], files["vocab"]
        for k in map(int, a.topics.split(",")):
            for est in a.estimators.split(","):
                got = {"a": [], "b": []}
                for _ in range(a.rounds):
                    for which in ("a", "b"):
                        got[which].append(seconds_per_iteration(getattr(a, which), docword, vocab, k, est,
                                                                a.iterations, a.skip, a.threads))
                sa, sb = (statistics.median(s for s, _ in got[w]) for w in ("a", "b"))
                ma, mb = (max(m for _, m in got[w]) for w in ("a", "b"))
                print(f"| {corpus} | {k} | {est} | {sa:.4f} | {sb:.4f} | {sb / sa:.3f} | {ma:.0f} | {mb:.0f} | {mb / ma:.2f} |",
                      flush=True)


if __name__ == "__main__":
    main()
