#!/usr/bin/env python3
"""Time to quality on the fixed ap split, scored like the peers.

Trains butterfly-lda on ../shared/eval/ap (K = 240, alpha 0.208333, beta 0.01, the given
threads) once per (estimator, iteration count), each run a fresh process timed wall-clock
from start to exit (start-up, reading the corpus and writing the model included, as the
peers were timed), scores each phi.npy with ../shared/eval/heldout.py (the evaluator the
peers were scored with), and plots held-out perplexity against wall seconds beside the
peers' curves of ../shared/eval/ap/peers.tsv.

    bench/time_to_quality.py --build build-openmp [--threads 2] [--iterations 25,50,...]

Writes OUT/ttq.tsv (the columns of peers.tsv), OUT/machine.txt, OUT/time_to_quality.png
(OUT: bench/results/ttq-DATE unless --out) and prints the table. The build must be a
Release build of a threaded backend (openmp, or kokkos on OpenMP) for --threads > 1.
"""
import argparse
import gzip
import os
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
K, ALPHA, BETA = 240, 0.208333, 0.01


def machine_lines(build):
    def run(cmd):
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    return [
        "commit: " + run(f"git -C {ROOT} rev-parse HEAD")
        + ("" if run(f"git -C {ROOT} status --porcelain -- core backends apps bench") == "" else " (+ local changes)"),
        "date: " + datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "build: " + build + " (" + run(f"grep -E '^(BACKEND|CMAKE_BUILD_TYPE|BUTTERFLY_HOST_ISA):' {build}/CMakeCache.txt").replace("\n", ", ") + ")",
        run("lscpu | grep 'Model name'"),
        "flags: " + run("lscpu | grep -o -w -E 'sse4_2|avx2|avx512f|fma' | sort -u | tr '\\n' ' '"),
        "uptime before: " + run("uptime"),
    ]


def train(binary, eval_dir, estimator, iterations, threads, width, out):
    cmd = [binary, "train", "--docword", os.path.join(eval_dir, "ap", "train.docword.txt.gz"),
           "--vocab", os.path.join(eval_dir, "ap", "train.vocab.txt"), "--topics", str(K),
           "--alpha", str(ALPHA), "--beta", str(BETA), "--iterations", str(iterations),
           "--estimator", estimator, "--eval-every", "0", "--quiet", "--out", out]
    if width:
        cmd += ["--width", str(width)]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    t0 = time.monotonic()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - t0


def score(eval_dir, phi, heldout):
    out = subprocess.run([sys.executable, os.path.join(eval_dir, "heldout.py"), "score", "--phi", phi, "--vxk",
                          "--heldout", heldout, "--alpha", str(ALPHA)], check=True, capture_output=True, text=True)
    for field in out.stdout.split():
        if field.startswith("PERPLEXITY="):
            return float(field.split("=", 1)[1])
    sys.exit("heldout.py printed no PERPLEXITY=: " + out.stdout + out.stderr)


def read_rows(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f]


def read_peers(path):
    return [r for r in read_rows(path) if r["corpus"] == "ap" and int(r["K"]) == K]


def plot(ours, peers, threads, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 5.5))
    curves = {}
    for r in peers:
        curves.setdefault((r["peer"], int(r["threads"])), []).append((float(r["wall_s"]), float(r["perplexity"])))
    for (peer, t), pts in sorted(curves.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", lw=1, alpha=0.55 if t != threads else 0.9,
                ls="-" if t == threads else ":", label=f"{peer}, {t} thread{'s' if t > 1 else ''}")
    for est, pts in sorted(ours.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", lw=2.5,
                color="black" if est == "mean" else "tab:olive",
                label=f"butterfly-lda --estimator {est}, {threads} threads")
    ax.axhline(2056, color="grey", lw=0.8, ls="--")
    ax.axvline(9.5, color="grey", lw=0.8, ls="--")
    ax.text(9.7, 2056, "target: <= 2056 in < 9.5 s", fontsize=8, va="bottom")
    ax.set_xscale("log")
    ax.set_ylim(1950, 3200)
    ax.set_xlabel("wall seconds (training incl. start-up)")
    ax.set_ylabel("held-out perplexity (document completion, heldout.py)")
    ax.set_title(f"ap split, K = {K}, alpha {ALPHA}, beta {BETA}: time to quality")
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build-openmp"))
    ap.add_argument("--eval", default=os.path.join(ROOT, "..", "shared", "eval"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--width", type=int, default=0, help="--width of the trainer (0: its default)")
    ap.add_argument("--estimators", default="mean,sample")
    ap.add_argument("--iterations", default="25,50,100,200,400,800")
    ap.add_argument("--out", default=None)
    ap.add_argument("--replot", metavar="DIR", help="only draw DIR/time_to_quality.png again from DIR/ttq.tsv")
    a = ap.parse_args()
    if a.replot:
        ours = {}
        for r in read_rows(os.path.join(a.replot, "ttq.tsv")):
            ours.setdefault(r["peer"].removeprefix("butterfly-"), []).append((float(r["wall_s"]), float(r["perplexity"])))
        plot(ours, read_peers(os.path.join(a.eval, "ap", "peers.tsv")), a.threads,
             os.path.join(a.replot, "time_to_quality.png"))
        return
    binary = os.path.join(a.build, "apps", "butterfly-lda")
    if not os.access(binary, os.X_OK):
        sys.exit(f"{binary}: not built (cmake --build {a.build} --target butterfly-lda)")
    out = a.out or os.path.join(ROOT, "bench", "results", "ttq-" + datetime.now(timezone.utc).strftime("%Y%m%dT%H%M"))
    os.makedirs(out, exist_ok=True)
    info = machine_lines(a.build)
    ours = {}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        heldout = os.path.join(tmp, "heldout.txt")
        with gzip.open(os.path.join(a.eval, "ap", "heldout.txt.gz"), "rb") as src, open(heldout, "wb") as dst:
            dst.write(src.read())
        for est in a.estimators.split(","):
            for n in (int(x) for x in a.iterations.split(",")):
                model = os.path.join(tmp, f"{est}-{n}")
                wall = train(binary, a.eval, est, n, a.threads, a.width, model)
                p = score(a.eval, os.path.join(model, "phi.npy"), heldout)
                ours.setdefault(est, []).append((wall, p))
                rows.append(["ap", str(K), f"butterfly-{est}", str(a.threads), "iters", str(n), f"{wall:.2f}",
                             f"{p:.4f}", str(ALPHA), str(BETA)])
                print("\t".join(rows[-1]), flush=True)
    info.append("uptime after: " + subprocess.run("uptime", shell=True, capture_output=True, text=True).stdout.strip())
    with open(os.path.join(out, "machine.txt"), "w") as f:
        f.write("\n".join(info) + "\n")
    with open(os.path.join(out, "ttq.tsv"), "w") as f:
        f.write("corpus\tK\tpeer\tthreads\tunit\tn\twall_s\tperplexity\talpha\tbeta\n")
        f.writelines("\t".join(r) + "\n" for r in rows)
    plot(ours, read_peers(os.path.join(a.eval, "ap", "peers.tsv")), a.threads, os.path.join(out, "time_to_quality.png"))
    print("\n".join(info))
    print("wrote", out)


if __name__ == "__main__":
    main()
