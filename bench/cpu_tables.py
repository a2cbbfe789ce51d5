#!/usr/bin/env python3
"""Tables of the simd/ group of butterfly-bench-draw (Figure 3 on the SIMD host lanes):
   cpu_tables.py draw.json > tables.md
M tokens per second of the benchmark thread's CPU time (the machine is shared, so wall
time also counts other processes' turns; the JSON keeps both) per (K, algorithm, W), the
plain scalar loop of the same run, and each K's best configuration with its ratio to the
scalar loop. Times are the benchmark's medians when
repetitions were run, otherwise the single measurement."""
import json
import sys
from collections import defaultdict


def runs(path):
    with open(path) as f:
        data = json.load(f)
    for b in data["benchmarks"]:
        name = b["name"]
        if not name.startswith("simd/"):
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        yield b


def main():
    rate = defaultdict(dict)  # K -> (label, W) -> M tokens/s
    for b in runs(sys.argv[1]):
        # tokens_per_s is per wall second; rescale to the thread's CPU time.
        rate[int(b["K"])][(b["label"], int(b["W"]))] = (
            b["tokens_per_s"] * b["real_time"] / b["cpu_time"] / 1e6)
    algs = ["basic", "transposed", "butterfly", "warp_scan"]
    widths = sorted({w for k in rate for (_, w) in rate[k] if w > 1})
    print("### Figure 3 on SIMD lanes: M tokens per CPU second (1 thread, packing on)\n")
    print("| K | scalar | " + " | ".join(f"{a} W={w}" for a in algs for w in widths) + " |")
    print("|---" * (2 + len(algs) * len(widths)) + "|")
    for k in sorted(rate):
        r = rate[k]
        cells = [f"{r[(a, w)]:.2f}" if (a, w) in r else "-" for a in algs for w in widths]
        print(f"| {k} | {r.get(('scalar', 1), float('nan')):.2f} | " + " | ".join(cells) + " |")
    print("\n### Best per K against the scalar loop of the same run\n")
    print("| K | best | M tokens/s | scalar | ratio | best butterfly | butterfly / basic (same W) |")
    print("|---|---|---|---|---|---|---|")
    for k in sorted(rate):
        r = rate[k]
        lanes = {key: v for key, v in r.items() if key[0] != "scalar"}
        if not lanes:
            continue
        (a, w), v = max(lanes.items(), key=lambda kv: kv[1])
        s = r.get(("scalar", 1), float("nan"))
        bf = max(((w2, v2) for (a2, w2), v2 in lanes.items() if a2 == "butterfly"),
                 key=lambda x: x[1], default=None)
        ratio = r[("butterfly", bf[0])] / r[("basic", bf[0])] if bf and ("basic", bf[0]) in r else float("nan")
        print(f"| {k} | {a} W={w} | {v:.2f} | {s:.2f} | {v / s:.2f}x | "
              f"{'W=%d %.2f' % bf if bf else '-'} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
