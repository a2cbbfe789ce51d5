#!/usr/bin/env python3
"""Seconds per iteration of two butterfly-lda binaries, interleaved in one run.

For a change that should make the iteration faster without changing its bits: each
(corpus, K, estimator) trains with binary A, then B, then A, ... (--rounds times each), and
the figure of a run is the median of its progress lines' per-iteration seconds (butterfly-lda
prints one per iteration; the first --skip are left out), and its peak RSS. Prints a
Markdown table: the median over rounds of each binary's seconds, the largest peak, B / A. The corpora are the time-to-quality
runs' training halves (bench/ttq.sh makes wiki-lead's split in build-splits/).

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

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
ITERATION = re.compile(r"^iteration (\d+)/\d+\s+([0-9.]+) s")


def corpus_files(name, eval_dir, splits):
    fixed = os.path.join(eval_dir, name)
    if os.path.exists(os.path.join(fixed, "train.docword.txt.gz")):
        return os.path.join(fixed, "train.docword.txt.gz"), os.path.join(fixed, "train.vocab.txt")
    split = os.path.join(splits, name)
    if os.path.exists(os.path.join(split, "train.docword.txt")):
        return os.path.join(split, "train.docword.txt"), os.path.join(split, "train.vocab.txt")
    sys.exit(f"corpus {name}: neither {fixed}/train.docword.txt.gz nor {split}/train.docword.txt "
             "(bench/ttq.sh makes the wiki-lead split)")


def seconds_per_iteration(binary, docword, vocab, k, estimator, iterations, skip, threads):
    with tempfile.TemporaryDirectory() as out:
        cmd = [binary, "train", "--docword", docword, "--vocab", vocab, "--topics", str(k),
               "--alpha", repr(50.0 / k), "--beta", "0.01", "--iterations", str(iterations),
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
    ap.add_argument("--eval", default=os.path.normpath(os.path.join(ROOT, "..", "shared", "eval")))
    ap.add_argument("--splits", default=os.path.join(ROOT, "build-splits"))
    a = ap.parse_args()
    print("| corpus | K | estimator | A s/it | B s/it | B / A | A peak MiB | B peak MiB | B / A |")
    print("|---|---|---|---|---|---|---|---|---|")
    for corpus in a.corpus.split(","):
        docword, vocab = corpus_files(corpus, a.eval, a.splits)
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
