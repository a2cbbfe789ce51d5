#!/usr/bin/python3
"""butterfly.LDA against sklearn.decomposition.LatentDirichletAllocation on the shared ap
split: wall seconds of fit and held-out perplexity from ../shared/eval/heldout.py (the one
evaluator every peer in ../shared/eval/ap/peers.tsv was scored with).

    PYTHONPATH=build-python/python /usr/bin/python3 bench/python/lda_vs_sklearn.py \\
        [--eval ../shared/eval] [--topics 100] [--butterfly-iters 100,300] [--sklearn-iters 10,30]

alpha = 50/K, beta = 0.01 for both (the peers' settings). butterfly's iteration counts are
one run continued through its checkpoint, so the time of the longer run is cumulative. The
training matrix is read with scipy, independently of both libraries; sklearn runs batch
variational Bayes (its default), one job.
"""
import argparse
import gzip
import os
import re
import subprocess
import tempfile
import time

import numpy as np
import scipy.sparse as sp

import butterfly


def read_uci(path):
    with gzip.open(path, "rt") as f:
        D, W, _ = (int(f.readline()) for _ in range(3))
        e = np.loadtxt(f, dtype=np.int64, ndmin=2)
    return sp.csr_matrix((e[:, 2], (e[:, 0] - 1, e[:, 1] - 1)), shape=(D, W))


def perplexity(evaluator, heldout, phi_vxk, alpha, tmp):
    path = os.path.join(tmp, "phi.npy")
    np.save(path, np.ascontiguousarray(phi_vxk, dtype=np.float64))
    out = subprocess.run(["/usr/bin/python3", evaluator, "score", "--phi", path, "--vxk", "--heldout", heldout,
                          "--alpha", str(alpha)], capture_output=True, text=True, check=True).stdout
    return float(re.search(r"PERPLEXITY=([0-9.]+)", out).group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--eval", default=os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "eval"))
    ap.add_argument("--topics", type=int, default=100)
    ap.add_argument("--butterfly-iters", default="100,300")
    ap.add_argument("--sklearn-iters", default="10,30")
    args = ap.parse_args()
    from sklearn.decomposition import LatentDirichletAllocation

    K, alpha, beta = args.topics, 50.0 / args.topics, 0.01
    X = read_uci(os.path.join(args.eval, "ap", "train.docword.txt.gz"))
    evaluator = os.path.join(args.eval, "heldout.py")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        heldout = os.path.join(tmp, "heldout.txt")
        with gzip.open(os.path.join(args.eval, "ap", "heldout.txt.gz"), "rb") as src, open(heldout, "wb") as dst:
            dst.write(src.read())
        checkpoint, elapsed, cpu = os.path.join(tmp, "lda.ckpt"), 0.0, 0.0
        for n in map(int, args.butterfly_iters.split(",")):
            lda = butterfly.LDA(K, doc_topic_prior=alpha, topic_word_prior=beta, max_iter=n, random_state=1,
                                checkpoint=checkpoint, checkpoint_every=1 << 30, progress=False)
            t0, c0 = time.perf_counter(), time.process_time()
            lda.fit(X)
            elapsed += time.perf_counter() - t0
            cpu += time.process_time() - c0
            results.append(("butterfly.LDA (Gibbs, butterfly)", f"{n} iterations", elapsed, cpu,
                            perplexity(evaluator, heldout, lda.components_.T, alpha, tmp)))
            print(results[-1], flush=True)
        for n in map(int, args.sklearn_iters.split(",")):
            sk = LatentDirichletAllocation(K, doc_topic_prior=alpha, topic_word_prior=beta, max_iter=n,
                                           learning_method="batch", random_state=1, n_jobs=1)
            t0, c0 = time.perf_counter(), time.process_time()
            sk.fit(X)
            results.append(("sklearn LatentDirichletAllocation (batch VB)", f"{n} passes",
                            time.perf_counter() - t0, time.process_time() - c0, perplexity(evaluator, heldout, sk.components_.T, alpha, tmp)))
            print(results[-1], flush=True)
    print(f"\nK = {K}, alpha = {alpha:g}, beta = {beta:g}, ap train split ({X.shape[0]} documents, {X.sum()} tokens)")
    print("| trainer | length | wall s | CPU s (process) | held-out perplexity |\n|---|---|---|---|---|")
    for name, length, seconds, cpu_s, p in results:
        print(f"| {name} | {length} | {seconds:.1f} | {cpu_s:.1f} | {p:.0f} |")


if __name__ == "__main__":
    main()
