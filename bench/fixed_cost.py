#!/usr/bin/env python3
"""A run's fixed cost: read the corpus, set up, write the model (`butterfly-lda train
--iterations 0`), two binaries side by side.

    bench/fixed_cost.py --a BIN --b BIN [--corpus ap,20news,wiki-lead,nips17]
        [--topics 240,1000,10000] [--skip wiki-lead@10000] [--runs 5] [--threads 2]

For each corpus and K, A and B run in turn RUNS times each (A B A B ..., each after a sync,
so that no earlier run's files are still being written back), timed whole from outside
(start to exit, os.wait4's user and system seconds and peak RSS), alpha = 50/K, beta = 0.01,
every other option the default. The corpora are time_to_quality.py's (its fixed splits and
build-splits/). Prints, per corpus and K, the training tokens, each binary's median wall
seconds (min-max) and seconds per 10 M tokens, and the median of the pairs' A / B ratios.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import time_to_quality as ttq


def run(binary, corpus, k, threads, out):
    """(wall, user, system seconds, peak RSS KiB, training tokens) of one train --iterations 0."""
    cmd = [binary, "train", "--docword", corpus["docword"], "--vocab", corpus["vocab"], "--topics", str(k),
           "--alpha", ttq.alpha_of(k), "--beta", ttq.BETA, "--iterations", "0", "--quiet", "--out", out]
    os.sync()
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, env=dict(os.environ, OMP_NUM_THREADS=str(threads)), stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(cmd)}: exit {os.waitstatus_to_exitcode(status)}\n{p.stderr.read().decode()}")
    with open(os.path.join(out, "model.json")) as f:
        tokens = json.load(f)["training_tokens"]
    return wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss, tokens


def spread(xs):
    return f"{statistics.median(xs):.3f} ({min(xs):.3f}-{max(xs):.3f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", required=True, help="butterfly-lda A (the change)")
    ap.add_argument("--b", required=True, help="butterfly-lda B (the baseline)")
    ap.add_argument("--corpus", default="ap,20news,wiki-lead,nips17")
    ap.add_argument("--topics", default="240,1000,10000")
    ap.add_argument("--skip", default="ap@10000,wiki-lead@10000", help="CORPUS@K pairs not run")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--eval", default=os.path.normpath(os.path.join(ttq.ROOT, "..", "shared", "eval")))
    ap.add_argument("--data", default=os.path.normpath(os.path.join(ttq.ROOT, "..", "shared", "data")))
    ap.add_argument("--splits", default=os.path.join(ttq.ROOT, "build-splits"))
    a = ap.parse_args()
    skip = set(a.skip.split(",")) if a.skip else set()
    print("corpus\tK\ttokens\tA wall s\tB wall s\tA s per 10 M\tB s per 10 M\tA/B (median of pairs)\t"
          "A user+sys s\tB user+sys s\tA peak MiB\tB peak MiB", flush=True)
    for name in a.corpus.split(","):
        corpus = ttq.prepare_corpus(name, a, [])
        for k in map(int, a.topics.split(",")):
            if f"{name}@{k}" in skip:
                continue
            got = {"A": [], "B": []}
            with tempfile.TemporaryDirectory() as tmp:
                for i in range(a.runs):
                    for side, binary in (("A", a.a), ("B", a.b)):
                        got[side].append(run(binary, corpus, k, a.threads, os.path.join(tmp, f"{side}{i}")))
            tokens = got["A"][0][4]
            wall = {s: [r[0] for r in got[s]] for s in got}
            cpu = {s: [r[1] + r[2] for r in got[s]] for s in got}
            peak = {s: statistics.median(r[3] for r in got[s]) / 1024 for s in got}
            ratio = statistics.median(x / y for x, y in zip(wall["A"], wall["B"]))
            per = {s: statistics.median(wall[s]) * 1e7 / tokens for s in got}
            print(f"{name}\t{k}\t{tokens}\t{spread(wall['A'])}\t{spread(wall['B'])}\t{per['A']:.2f}\t"
                  f"{per['B']:.2f}\t{ratio:.3f}\t{statistics.median(cpu['A']):.2f}\t"
                  f"{statistics.median(cpu['B']):.2f}\t{peak['A']:.0f}\t{peak['B']:.0f}", flush=True)


if __name__ == "__main__":
    main()
