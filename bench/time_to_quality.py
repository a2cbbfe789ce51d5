#!/usr/bin/env python3
"""Time to quality: held-out perplexity against wall seconds, butterfly-lda beside its peers.

For every corpus x K x estimator x iteration count, trains butterfly-lda once in a fresh
process (alpha = 50/K, beta = 0.01, --threads via OMP_NUM_THREADS), timed wall-clock from
start to exit (start-up, reading the corpus and writing the model included, as the peers
were timed; each run after a sync, so that no earlier run's files are still being written
back), with the child's peak RSS (os.wait4's ru_maxrss); scores each model's phi with
../shared/eval/heldout.py (the evaluator the peers were scored with): its phi.npy, or the phi
its word-topic-counts.txt gives (model.json's formula, made after the timed run, as the
peers' models were converted after theirs).

    bench/time_to_quality.py --build build-bench-openmp [--corpus ap,20news,wiki-lead]
        [--topics 240,1000] [--threads 2] [--estimators collapsed,mean]
        [--iterations 25,50,100] [--iterations wiki-lead=10,25,50] [--peers FILE.tsv ...]

Corpora: a corpus NAME with a fixed split in EVAL/NAME/ (train.docword.txt.gz,
train.vocab.txt, heldout.txt.gz: ap, 20news) uses it; otherwise (wiki-lead) the split is
made once, 10 % held out, seed 0, by `heldout.py split DATA/NAME/docword.NAME.txt.gz
DATA/NAME/vocab.NAME.txt SPLITS/NAME --frac 0.1 --seed 0` (SPLITS: build-splits/ at the
repository top, git-ignored) and reused after. heldout.txt.gz is gunzipped into SPLITS/NAME.
--iterations LIST applies to every corpus (and replaces the lists given before it),
--iterations NAME=LIST to one corpus (repeatable);
--corpus, --topics, --estimators, --peers are repeatable or comma lists.

Peers: TSV files with the header
    corpus K peer threads unit n wall_s perplexity alpha beta maxrss_kb
(maxrss_kb may be missing or empty: unknown). Rows are kept for the corpus, K and --threads
being plotted. Without --peers, EVAL/<corpus>/peers.tsv is used where it exists (the peers'
curves of ../shared/eval/ap, measured on another machine of the same kind).

Writes into OUT (bench/results/ttq-DATE unless --out):
  ttq.tsv              the columns above, one row per run, peer = butterfly-<estimator>
                       (written as the runs finish)
  machine.txt          commit, build, CPU, load before/after, split commands, peers files
  ttq-<corpus>-K<K>.png  perplexity against wall seconds (log x), each estimator and peer
  ttq.md               per corpus and K: time to within 2 % of the best peer's final
                       perplexity (LEVEL = 1.02 x the lowest perplexity any peer reached): the
                       first measured point at or below it and where the curve crosses it
                       (interpolated linearly in log time: a coarse grid of points does not
                       push it later), each with its ratio to WarpLDA's; the final
                       (longest-run) perplexity, seconds per iteration (slope between the
                       two longest runs), peak MiB of the longest run and its ratio to
                       WarpLDA's; and whether each butterfly curve is below
                       WarpLDA's at every wall time >= 1 s (curves interpolated linearly in
                       log time over their overlap)
Repeated (corpus, K, curve, n) points are reduced to their medians. --replot DIR redraws the
PNGs and ttq.md from DIR/ttq.tsv (with the --peers given then); --dry-run lists the runs.
The build must be a Release build of a threaded backend (openmp, or kokkos on OpenMP) for
--threads > 1.
"""
import argparse
import concurrent.futures
import gzip
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

import numpy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BETA = "0.01"
COLUMNS = ["corpus", "K", "peer", "threads", "unit", "n", "wall_s", "perplexity", "alpha", "beta", "maxrss_kb"]
LEVEL = 1.02       # "within 2 %" of the best peer's perplexity
FROM_SECONDS = 1.0  # the below-WarpLDA check starts here


def alpha_of(k):
    return f"{50.0 / k:.6g}"  # 240 -> 0.208333 (as in peers.tsv), 1000 -> 0.05


def run_text(cmd):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()


def machine_lines(build):
    return [
        "commit: " + run_text(f"git -C {ROOT} rev-parse HEAD")
        + ("" if run_text(f"git -C {ROOT} status --porcelain -- core backends apps bench") == "" else " (+ local changes)"),
        "date: " + datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "build: " + build + " (" + run_text(f"grep -E '^(BACKEND|CMAKE_BUILD_TYPE|BUTTERFLY_HOST_ISA):' {build}/CMakeCache.txt").replace("\n", ", ") + ")",
        "compiler: " + run_text(f"$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' {build}/CMakeCache.txt) --version | head -1"),
        run_text("lscpu | grep 'Model name'"),
        "flags: " + run_text("lscpu | grep -o -w -E 'sse4_2|avx2|avx512f|fma' | sort -u | tr '\\n' ' '"),
        "uptime before: " + run_text("uptime"),
    ]


def lists(values, default):
    """Repeatable, comma- or space-separated option values, in order, without repeats."""
    out = []
    for v in values or [default]:
        for x in v.replace(",", " ").split():
            if x not in out:
                out.append(x)
    return out


def iteration_lists(values, default):
    """--iterations LIST (every corpus; replaces the lists given before it), NAME=LIST (one corpus)
    and NAME@K=LIST (one corpus at one K) -> (default list, {name or name@K: list})."""
    common, per = None, {}
    for v in values or [default]:
        name, _, rest = v.rpartition("=")
        ns = [int(x) for x in rest.replace(",", " ").split()]
        if name:
            per[name] = ns
        else:
            common, per = ns, {}
    if common is None:
        common = [int(x) for x in default.split(",")]
    return common, per


def iterations_of(per, common, corpus, k):
    return per.get(f"{corpus}@{k}", per.get(corpus, common))


# ------------------------------------------------------------------------------ corpora, splits
def gunzip_cached(src, dst):
    if not os.path.exists(dst) or os.path.getmtime(dst) < os.path.getmtime(src):
        tmp = dst + ".part"
        with gzip.open(src, "rb") as f, open(tmp, "wb") as g:
            shutil.copyfileobj(f, g)
        os.replace(tmp, dst)
    return dst


def prepare_corpus(name, a, notes):
    """{docword, vocab, heldout} of corpus NAME: the fixed split in EVAL/NAME or one made once in SPLITS/NAME."""
    fixed = os.path.join(a.eval, name)
    cache = os.path.join(a.splits, name)
    os.makedirs(a.splits, exist_ok=True)
    if os.path.exists(os.path.join(fixed, "train.docword.txt.gz")):
        os.makedirs(cache, exist_ok=True)
        notes.append(f"split {name}: {os.path.abspath(fixed)} (fixed)")
        return {"docword": os.path.join(fixed, "train.docword.txt.gz"),
                "vocab": os.path.join(fixed, "train.vocab.txt"),
                "heldout": gunzip_cached(os.path.join(fixed, "heldout.txt.gz"), os.path.join(cache, "heldout.txt"))}
    src_docword = os.path.join(a.data, name, f"docword.{name}.txt.gz")
    src_vocab = os.path.join(a.data, name, f"vocab.{name}.txt")
    if not os.path.exists(src_docword):
        sys.exit(f"corpus {name}: neither {fixed}/train.docword.txt.gz nor {src_docword}")
    files = ["train.docword.txt", "train.vocab.txt", "heldout.txt", "split.info"]

    def split_cmd(outdir):
        return ["/usr/bin/python3", os.path.join(a.eval, "heldout.py"), "split", src_docword, src_vocab, outdir,
                "--frac", "0.1", "--seed", "0"]
    cmd = split_cmd(cache)
    if all(os.path.exists(os.path.join(cache, f)) for f in files):
        print(f"split {name}: reusing {cache} (made by: {' '.join(cmd)})", flush=True)
    else:
        part = cache + ".part"
        shutil.rmtree(part, ignore_errors=True)
        print("split:", " ".join(split_cmd(part)), "&& mv", part, cache, flush=True)
        subprocess.run(split_cmd(part), check=True)
        shutil.rmtree(cache, ignore_errors=True)
        os.replace(part, cache)
    notes.append(f"split {name}: {' '.join(cmd)}")
    with open(os.path.join(cache, "split.info")) as f:
        notes.append(f"split {name}: " + " | ".join(line.strip() for line in f if line.strip()))
    return {"docword": os.path.join(cache, "train.docword.txt"), "vocab": os.path.join(cache, "train.vocab.txt"),
            "heldout": os.path.join(cache, "heldout.txt")}


# --------------------------------------------------------------------------- training, scoring
def estimator_args(estimator):
    """--estimator NAME (NAME "default": no --estimator, the trainer's choice for the corpus);
    NAME:B adds --burn-in B, NAME:B:S (B may be empty) --start-topics S, NAME:B:S:C (B and S
    may be empty) --sweep-blocks C, NAME:B:S:C:P (B, S and C may be empty) --phased-sweeps P."""
    name, _, rest = estimator.partition(":")
    burn_in, _, rest = rest.partition(":")
    start_topics, _, rest = rest.partition(":")
    blocks, _, phased = rest.partition(":")
    return ((["--estimator", name] if name != "default" else []) + (["--burn-in", burn_in] if burn_in else []) +
            (["--start-topics", start_topics] if start_topics else []) +
            (["--sweep-blocks", blocks] if blocks else []) + (["--phased-sweeps", phased] if phased else []))


def train(binary, corpus, k, estimator, iterations, threads, width, out):
    """(wall seconds, peak RSS KiB) of one fresh butterfly-lda train process."""
    cmd = [binary, "train", "--docword", corpus["docword"], "--vocab", corpus["vocab"], "--topics", str(k),
           "--alpha", alpha_of(k), "--beta", BETA, "--iterations", str(iterations),
           *estimator_args(estimator), "--eval-every", "0", "--quiet", "--out", out]
    if width:
        cmd += ["--width", str(width)]
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    # Every run starts on a quiet disk: the earlier runs' model files (376 MB a run on
    # wiki-lead at K = 1000) are written back first, not while this run writes its own
    # (measured: the same files took 0.16-0.18 s on a quiet disk, up to 1.5 s behind the
    # writeback of earlier runs).
    os.sync()
    with open(out + ".stderr", "w+") as err:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            err.seek(0)
            sys.exit(f"{' '.join(cmd)}: exit {p.returncode}\n{err.read()}")
    return wall, usage.ru_maxrss  # Linux: KiB


def phi_of(model):
    """The model's phi (V x K float32 .npy): phi.npy, or made from word-topic-counts.txt
    without a dense float64 copy (2.2 GB at 20news K = 10,000, two scored at a time)."""
    npy = os.path.join(model, "phi.npy")
    if os.path.exists(npy):
        return npy
    with open(os.path.join(model, "model.json")) as f:
        d = json.load(f)
    k, prior = d["topics"], d["beta"] * d["counted_sweeps"]
    with open(os.path.join(model, "word-topic-counts.txt")) as f:
        rows = [numpy.array(line.replace(":", " ").split()[2:], dtype=numpy.int64).reshape(-1, 2) for line in f]
    n_k = numpy.zeros(k)
    for pairs in rows:
        numpy.add.at(n_k, pairs[:, 0], pairs[:, 1])
    scale = 1.0 / (n_k + len(rows) * prior)
    phi = numpy.empty((len(rows), k), dtype=numpy.float32)
    phi[:] = (prior * scale).astype(numpy.float32)
    for w, pairs in enumerate(rows):
        phi[w, pairs[:, 0]] = (pairs[:, 1] + prior) * scale[pairs[:, 0]]
    numpy.save(npy, phi)
    return npy


def score(eval_dir, phi, heldout, alpha):
    out = subprocess.run([sys.executable, os.path.join(eval_dir, "heldout.py"), "score", "--phi", phi, "--vxk",
                          "--heldout", heldout, "--alpha", alpha], check=True, capture_output=True, text=True)
    for field in out.stdout.split():
        if field.startswith("PERPLEXITY="):
            return float(field.split("=", 1)[1])
    sys.exit("heldout.py printed no PERPLEXITY=: " + out.stdout + out.stderr)


# ----------------------------------------------------------------------------------- the curves
def read_rows(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def kib(row):
    v = (row.get("maxrss_kb") or "").strip()
    try:
        return float(v) if v and float(v) > 0 else None
    except ValueError:  # "NA", "-"
        return None


def curves_of(rows, corpus, k, threads):
    """{label: [(n, wall, perplexity, maxrss KiB or None, unit)]} for one corpus/K/threads, medians of repeats."""
    raw = {}
    for r in rows:
        if r["corpus"] != corpus or int(r["K"]) != k or int(r["threads"]) != threads:
            continue
        raw.setdefault(r["_label"], {}).setdefault(float(r["n"]), []).append(r)
    curves = {}
    for label, by_n in raw.items():
        pts = []
        for n, rs in by_n.items():
            mem = [m for m in (kib(r) for r in rs) if m is not None]
            pts.append((n, statistics.median(float(r["wall_s"]) for r in rs),
                        statistics.median(float(r["perplexity"]) for r in rs),
                        statistics.median(mem) if mem else None, rs[0].get("unit", "iters")))
        curves[label] = sorted(pts)
    return curves


def read_peers(paths):
    """Peer rows of every file; a peer found in several files is labelled 'peer (file)'."""
    rows, files_of = [], {}
    for path in paths:
        for r in read_rows(path):
            r["_file"] = os.path.basename(path)
            files_of.setdefault((r["corpus"], r["K"], r["peer"]), set()).add(path)
            rows.append(r)
    for r in rows:
        r["_label"] = r["peer"] if len(files_of[(r["corpus"], r["K"], r["peer"])]) == 1 else f"{r['peer']} ({r['_file']})"
    return rows


def by_time(pts):
    return sorted((w, p) for _, w, p, _, _ in pts)


def time_to(pts, level):
    for w, p in by_time(pts):
        if p <= level:
            return w
    return None


def crossing(pts, level):
    """Where the time-sorted curve first reaches level, linear in log t between the last point
    above it and the first at or below it (as below_everywhere compares curves): unlike
    time_to, not pushed later by a coarse grid of points."""
    tp = by_time(pts)
    for i, (w, p) in enumerate(tp):
        if p <= level:
            if i == 0 or tp[i - 1][0] == w:
                return w
            (t0, p0), (t1, p1) = tp[i - 1], (w, p)
            f = (p0 - level) / (p0 - p1)
            return math.exp(math.log(t0) + f * (math.log(t1) - math.log(t0)))
    return None


def interp_log(tp, t):
    """Perplexity of the time-sorted curve tp at time t (linear in log t)."""
    for (t0, p0), (t1, p1) in zip(tp, tp[1:]):
        if t0 <= t <= t1:
            if t1 == t0:
                return min(p0, p1)
            f = (math.log(t) - math.log(t0)) / (math.log(t1) - math.log(t0))
            return p0 + f * (p1 - p0)
    return None


def below_everywhere(ours, ref, from_s=FROM_SECONDS):
    """Sentence: is curve ours below curve ref at every wall time >= from_s of their overlap?"""
    a, b = by_time(ours), by_time(ref)
    lo, hi = max(from_s, a[0][0], b[0][0]), min(a[-1][0], b[-1][0])
    if lo > hi:
        return None, f"no overlap at or after {from_s:g} s ({a[0][0]:.2f}-{a[-1][0]:.2f} s against {b[0][0]:.2f}-{b[-1][0]:.2f} s)"
    # both curves are piecewise linear in log t, so their difference is too: its knots suffice
    knots = sorted({lo, hi} | {t for t, _ in a + b if lo <= t <= hi})
    diffs = [(interp_log(a, t) - interp_log(b, t), t) for t in knots]
    worst = max(diffs)
    if worst[0] < 0:
        best = min(diffs)
        return True, (f"**yes**, over {lo:.2f}-{hi:.2f} s (closest {-worst[0]:,.1f} below at {worst[1]:.2f} s; "
                      f"widest {-best[0]:,.1f} below at {best[1]:.2f} s)")
    spans = []  # runs of knots where ours is at or above ref
    for (d, t), prev in zip(diffs, [None] + diffs[:-1]):
        if d >= 0:
            if prev is not None and prev[0] >= 0:
                spans[-1][1] = t
            else:
                spans.append([t, t])
    where = ", ".join(f"{x:.2f} s" if x == y else f"{x:.2f}-{y:.2f} s" for x, y in spans)
    return False, (f"**no**, over {lo:.2f}-{hi:.2f} s: at or above it at the knots {where} "
                   f"(worst {worst[0]:+,.1f} at {worst[1]:.2f} s)")


def is_reference(label, reference):
    return label.lower().startswith(reference.lower())


def summary(corpus, k, threads, ours, peers, reference):
    """Markdown section of ttq.md for one corpus and K."""
    lines = [f"### {corpus}, K = {k} (alpha {alpha_of(k)}, beta {BETA}, {threads} threads)", ""]
    allc = {**ours, **peers}
    if not ours:
        return lines + ["(no butterfly runs)", ""]
    if peers:
        best_label = min(peers, key=lambda c: min(p for _, _, p, _, _ in peers[c]))
        best = min(p for _, _, p, _, _ in peers[best_label])
        lines.append(f"LEVEL = {LEVEL:g} x {best:,.1f} (the lowest perplexity of any peer: {best_label}) = **{LEVEL * best:,.1f}**")
    else:
        best_label = min(ours, key=lambda c: min(p for _, _, p, _, _ in ours[c]))
        best = min(p for _, _, p, _, _ in ours[best_label])
        lines.append(f"No peer's curve for {corpus}, K = {k}, {threads} threads: LEVEL = {LEVEL:g} x {best:,.1f} "
                     f"(the lowest of butterfly's, {best_label}) = **{LEVEL * best:,.1f}**")
    level = LEVEL * best
    ref = next((c for c in peers if is_reference(c, reference)), None)
    ref_t = time_to(peers[ref], level) if ref else None
    ref_x = crossing(peers[ref], level) if ref else None
    ref_last = peers[ref][-1] if ref else None
    lines += ["", f"| curve | s to <= {level:,.1f} | / {ref or reference} | crossing s (interpolated) | / {ref or reference} "
                  f"| final perplexity (n) | s per iteration | peak MiB (longest run) | / {ref or reference} |",
              "|---|---|---|---|---|---|---|---|---|"]
    for label in list(ours) + sorted(peers):
        pts = allc[label]
        t = time_to(pts, level)
        x = crossing(pts, level)
        x_s = f"{x:.2f}" if x is not None else "not reached"
        x_ratio = f"{x / ref_x:.2f}x" if x is not None and ref_x else "-"
        n, w, p, mem, unit = pts[-1]
        slope = f"{(pts[-1][1] - pts[-2][1]) / (pts[-1][0] - pts[-2][0]):.4f}" if len(pts) > 1 else "-"
        if unit != "iters" and slope != "-":
            slope += f" (per {unit})"
        ratio = f"{t / ref_t:.2f}x" if t is not None and ref_t else "-"
        mem_s = f"{mem / 1024:,.0f}" if mem else "unknown"
        mem_r = f"{mem / ref_last[3]:.2f}x" if mem and ref_last and ref_last[3] else "-"
        name = f"**{label}**" if label in ours else label
        lines.append(f"| {name} | {f'{t:.2f}' if t is not None else 'not reached'} | {ratio} | {x_s} | {x_ratio} "
                     f"| {p:,.1f} ({n:g} {unit}) "
                     f"| {slope} | {mem_s} | {mem_r} |")
    lines.append("")
    if ref and ref_t is None:
        lines.append(f"- {ref} does not reach {level:,.1f}: no time ratios.")
    for label in ours:
        if ref:
            _, sentence = below_everywhere(ours[label], peers[ref])
            lines.append(f"- {label} below {ref} at every wall time >= {FROM_SECONDS:g} s: {sentence}")
        else:
            lines.append(f"- {label} below {reference} at every wall time >= {FROM_SECONDS:g} s: no {reference} curve")
    return lines + [""]


def plot(corpus, k, threads, ours, peers, reference, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    fig, ax = plt.subplots(figsize=(8, 5.5))
    ps = [p for c in list(ours.values()) + list(peers.values()) for _, _, p, _, _ in c]
    best_peer = min((p for c in peers.values() for _, _, p, _, _ in c), default=None)

    def mem_label(pts):
        return f", peak {pts[-1][3] / 1024:,.0f} MiB" if pts[-1][3] else ""
    # points joined in iteration order (pts is sorted by n): a longer run that finished sooner shows
    for label, pts in sorted(peers.items()):
        tp = [(w, p) for _, w, p, _, _ in pts]
        ref = is_reference(label, reference)
        ax.plot([t for t, _ in tp], [p for _, p in tp], marker="s" if ref else ".", lw=2 if ref else 1,
                alpha=0.95 if ref else 0.6, color="tab:red" if ref else None, label=f"{label}{mem_label(pts)}")
    colors = ["black", "tab:olive", "tab:blue", "tab:purple", "tab:green"]
    for i, (label, pts) in enumerate(ours.items()):
        tp = [(w, p) for _, w, p, _, _ in pts]
        ax.plot([t for t, _ in tp], [p for _, p in tp], marker="o", lw=2.5, color=colors[i % len(colors)],
                label=f"butterfly-lda --estimator {label.removeprefix('butterfly-')}{mem_label(pts)}")
    if best_peer is not None:
        ax.axhline(LEVEL * best_peer, color="grey", lw=0.8, ls="--")
        t0 = min(t for c in list(ours.values()) + list(peers.values()) for _, t, _, _, _ in c)
        ax.text(t0, LEVEL * best_peer, f" {LEVEL:g} x best peer = {LEVEL * best_peer:,.0f}", fontsize=8, va="bottom")
    ax.set_xscale("log")
    seconds = matplotlib.ticker.FuncFormatter(lambda x, _: f"{x:g}")
    ax.xaxis.set_major_formatter(seconds)
    ts = [w for c in list(ours.values()) + list(peers.values()) for _, w, _, _, _ in c]
    if max(ts) / min(ts) < 30:  # less than about 1.5 decades: label the minor ticks too
        ax.xaxis.set_minor_formatter(seconds)
        ax.tick_params(axis="x", which="minor", labelsize=7)
    lo = min(ps)
    ax.set_ylim(lo * 0.98, min(max(ps), lo * 1.6) * 1.01)
    ax.set_xlabel("wall seconds (training incl. start-up)")
    ax.set_ylabel("held-out perplexity (document completion, heldout.py)")
    ax.set_title(f"{corpus}, K = {k}, alpha {alpha_of(k)}, beta {BETA}, {threads} thread{'s' if threads > 1 else ''}: "
                 "time to quality", fontsize=10)
    ax.grid(True, which="both", lw=0.3)
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def report(out, rows, peer_rows, threads, reference):
    """ttq-<corpus>-K<K>.png and ttq.md of OUT from our rows and the peers' rows."""
    for r in rows:
        r["_label"] = r["peer"]
    ours_labels = {r["peer"] for r in rows}
    for r in peer_rows:  # e.g. an earlier ttq.tsv given as --peers
        if r["_label"] in ours_labels:
            r["_label"] = f"{r['peer']} ({r['_file']})"
    keys = []
    for r in rows:
        if (r["corpus"], int(r["K"])) not in keys:
            keys.append((r["corpus"], int(r["K"])))
    md = [f"# Time to quality ({threads} threads)", "",
          f"LEVEL: {LEVEL:g} x the lowest perplexity any peer reached on the corpus and K; time: the first measured "
          f"point at or below it; crossing: where the curve, linear in log time between its points, first reaches "
          f"it; s per iteration: slope between the two longest runs; peak MiB: ru_maxrss of the "
          f"longest run; below {reference}: curves linear in log time, compared at every knot of their overlap "
          f">= {FROM_SECONDS:g} s. Medians where a point was repeated. butterfly's curves in bold.", ""]
    for corpus, k in keys:
        ours = curves_of(rows, corpus, k, threads)
        peers = curves_of(peer_rows, corpus, k, threads)
        md += summary(corpus, k, threads, ours, peers, reference)
        png = os.path.join(out, f"ttq-{corpus}-K{k}.png")
        plot(corpus, k, threads, ours, peers, reference, png)
        md += [f"![{corpus} K = {k}](ttq-{corpus}-K{k}.png)", ""]
    with open(os.path.join(out, "ttq.md"), "w") as f:
        f.write("\n".join(md))
    print("\n".join(md))


def peer_files(a, corpora):
    if a.peers:
        return [p for p in lists(a.peers, "") if p != "none"]
    return [p for p in (os.path.join(a.eval, c, "peers.tsv") for c in corpora) if os.path.exists(p)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build-openmp"))
    ap.add_argument("--eval", default=os.path.normpath(os.path.join(ROOT, "..", "shared", "eval")))
    ap.add_argument("--data", default=os.path.normpath(os.path.join(ROOT, "..", "shared", "data")), help="unsplit corpora (wiki-lead)")
    ap.add_argument("--splits", default=os.path.join(ROOT, "build-splits"), help="cache of splits and gunzipped held-out files")
    ap.add_argument("--corpus", action="append", help="ap (default), 20news, wiki-lead; repeatable or comma list")
    ap.add_argument("--topics", action="append", help="K (default 240); repeatable or comma list; alpha = 50/K")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--width", type=int, default=0, help="--width of the trainer (0: its default)")
    ap.add_argument("--estimators", action="append",
                    help="--estimator values (default mean,sample; 'default': the trainer's choice); NAME:B adds "
                         "--burn-in B, NAME:B:S --start-topics S, NAME:B:S:C --sweep-blocks C, NAME:B:S:C:P "
                         "--phased-sweeps P")
    ap.add_argument("--iterations", action="append",
                    help="LIST for every corpus or CORPUS=LIST for one (default 25,50,100,200,400,800)")
    ap.add_argument("--peers", action="append", metavar="FILE.tsv",
                    help="peers' curves (repeatable; default EVAL/<corpus>/peers.tsv where present; 'none': no peers)")
    ap.add_argument("--reference", default="warplda", help="the peer the ratios and the below-check compare with")
    ap.add_argument("--out", default=None)
    ap.add_argument("--replot", metavar="DIR", help="only draw DIR's PNGs and ttq.md again from DIR/ttq.tsv")
    ap.add_argument("--dry-run", action="store_true", help="print the runs and the peers files, run nothing")
    a = ap.parse_args()
    corpora = lists(a.corpus, "ap")
    topics = [int(k) for k in lists(a.topics, "240")]
    estimators = lists(a.estimators, "mean,sample")
    common_iters, corpus_iters = iteration_lists(a.iterations, "25,50,100,200,400,800")
    peers = peer_files(a, corpora)
    if a.dry_run:
        for corpus in corpora:
            fixed = os.path.exists(os.path.join(a.eval, corpus, "train.docword.txt.gz"))
            print(f"{corpus}: " + (f"fixed split {os.path.join(a.eval, corpus)}" if fixed
                                   else f"split made once into {os.path.join(a.splits, corpus)}"))
            for k in topics:
                for est in estimators:
                    print(f"  K = {k} (alpha {alpha_of(k)}), --estimator {est}, {a.threads} threads, iterations "
                          + ",".join(map(str, iterations_of(corpus_iters, common_iters, corpus, k))))
        print("peers:", " ".join(peers) or "none")
        return
    if a.replot:
        rows = read_rows(os.path.join(a.replot, "ttq.tsv"))
        report(a.replot, rows, read_peers(peers), a.threads, a.reference)
        return
    binary = os.path.join(a.build, "apps", "butterfly-lda")
    if not os.access(binary, os.X_OK):
        sys.exit(f"{binary}: not built (cmake --build {a.build} --target butterfly-lda)")
    out = a.out or os.path.join(ROOT, "bench", "results", "ttq-" + datetime.now(timezone.utc).strftime("%Y%m%dT%H%M"))
    os.makedirs(out, exist_ok=True)
    info = machine_lines(a.build)
    info.append(f"threads: {a.threads} (OMP_NUM_THREADS), width: {a.width or 'default'}")
    info += [f"peers: {os.path.abspath(p)}" for p in peers] or ["peers: none"]
    splits = {c: prepare_corpus(c, a, info) for c in corpora}
    rows = []
    tsv = open(os.path.join(out, "ttq.tsv"), "w")
    tsv.write("\t".join(COLUMNS) + "\n")
    # Every run is trained (timed) before any is scored, so that the evaluator, which takes
    # minutes at K = 1000, never runs beside a timed run; the scoring then runs two at a time.
    with tempfile.TemporaryDirectory() as tmp:
        trained = []
        for corpus in corpora:
            for k in topics:
                for est in estimators:
                    for n in iterations_of(corpus_iters, common_iters, corpus, k):
                        model = os.path.join(tmp, f"{corpus}-{k}-{est}-{n}")
                        wall, rss = train(binary, splits[corpus], k, est, n, a.threads, a.width, model)
                        print(f"trained {corpus} K = {k} {est} {n} iterations: {wall:.2f} s, {rss} KiB", flush=True)
                        trained.append((corpus, k, est, n, model, wall, rss))
        def scored(run):
            corpus, k, est, n, model, wall, rss = run
            p = score(a.eval, phi_of(model), splits[corpus]["heldout"], alpha_of(k))
            shutil.rmtree(model, ignore_errors=True)
            return [corpus, str(k), f"butterfly-{est}", str(a.threads), "iters", str(n), f"{wall:.2f}",
                    f"{p:.4f}", alpha_of(k), BETA, str(rss)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for row in pool.map(scored, trained):
                rows.append(dict(zip(COLUMNS, row)))
                tsv.write("\t".join(row) + "\n")
                tsv.flush()
                print("\t".join(row), flush=True)
    tsv.close()
    info.append("uptime after: " + run_text("uptime"))
    with open(os.path.join(out, "machine.txt"), "w") as f:
        f.write("\n".join(info) + "\n")
    report(out, rows, read_peers(peers), a.threads, a.reference)
    print("\n".join(info))
    print("wrote", out)


if __name__ == "__main__":
    main()
