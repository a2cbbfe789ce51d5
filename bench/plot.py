#!/usr/bin/env python3
"""Draws the benchmark JSON of bench/run.sh as PNGs (Debian: python3-matplotlib).

    plot.py draw.json rows.json OUTDIR

draw-seconds.png  seconds per iteration (the z draw over all wiki-lead tokens) vs K, one
                  line per algorithm, like the paper's Figure 3
draw-speedup.png  time(basic) / time(algorithm) vs K, from the same run
rows-speedup.png  time(std::discrete_distribution) / time(algorithm) vs K, per R
Medians of the repetitions are used when the JSON has them; times are CPU times unless
$BUTTERFLY_PLOT_TIME=real_time.
"""
import json
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
# CPU time of the (single) benchmark thread: on a shared machine the wall clock also counts
# the time other processes held the core. Set BUTTERFLY_PLOT_TIME=real_time on a quiet one.
TIME = os.environ.get("BUTTERFLY_PLOT_TIME", "cpu_time")


def runs(path):
    """(name, seconds per iteration, counters) per benchmark, the median if repeated."""
    with open(path) as f:
        data = json.load(f)["benchmarks"]
    medians = [b for b in data if b.get("aggregate_name") == "median"]
    chosen = medians or [b for b in data if b.get("run_type", "iteration") == "iteration"]
    for b in chosen:
        yield b["run_name"], b[TIME] * SECONDS[b["time_unit"]], b


def plot_draw(path, outdir):
    seconds = defaultdict(dict)  # algorithm -> K -> s
    for name, s, b in runs(path):
        if name.startswith("grid/"):
            seconds[b["label"]][int(b["K"])] = s
    if not seconds:
        sys.exit(f"{path}: no grid/ benchmarks")
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for alg, by_k in seconds.items():
        ks = sorted(by_k)
        ax.plot(ks, [by_k[k] for k in ks], marker="o", label=alg)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("K (topics)")
    ax.set_ylabel("seconds per iteration (z draw, wiki-lead)")
    ax.set_title("Draw time per LDA iteration vs K")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(f"{outdir}/draw-seconds.png", dpi=120)

    base = seconds.get("basic")
    if base:
        fig, ax = plt.subplots(figsize=(6.4, 4.4))
        for alg, by_k in seconds.items():
            ks = sorted(k for k in by_k if k in base)
            ax.plot(ks, [base[k] / by_k[k] for k in ks], marker="o", label=alg)
        ax.axhline(1.0, color="gray", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_xlabel("K (topics)")
        ax.set_ylabel("speedup over basic (same run)")
        ax.set_title("time(basic) / time(algorithm)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(f"{outdir}/draw-speedup.png", dpi=120)


def plot_rows(path, outdir):
    seconds = defaultdict(dict)  # (label, R) -> K -> s
    for _, s, b in runs(path):
        seconds[(b["label"], int(b["R"]))][int(b["K"])] = s
    rs = sorted({r for _, r in seconds})
    fig, axes = plt.subplots(1, len(rs), figsize=(4.2 * len(rs), 4.0), squeeze=False)
    for ax, r in zip(axes[0], rs):
        base = seconds.get(("std::discrete_distribution", r), {})
        for (label, rr), by_k in sorted(seconds.items()):
            if rr != r or label == "std::discrete_distribution":
                continue
            ks = sorted(k for k in by_k if k in base)
            ax.plot(ks, [base[k] / by_k[k] for k in ks], marker="o", label=label)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("K")
        ax.set_title(f"R = {r}")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("speedup over std::discrete_distribution")
    axes[0][0].legend()
    fig.tight_layout()
    fig.savefig(f"{outdir}/rows-speedup.png", dpi=120)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    plot_draw(sys.argv[1], sys.argv[3])
    plot_rows(sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    main()
