#!/usr/bin/env python3
"""Markdown tables (medians, CPU time) from bench/run.sh's JSON:  tables.py draw.json rows.json"""
import json
import sys
from collections import defaultdict

SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def medians(path):
    with open(path) as f:
        data = json.load(f)["benchmarks"]
    med = [b for b in data if b.get("aggregate_name") == "median"] or data
    return [(b["run_name"], b["cpu_time"] * SECONDS[b["time_unit"]], b) for b in med]


def draw_tables(path, tokens):
    runs = medians(path)
    grid = defaultdict(dict)
    for name, s, b in runs:
        if name.startswith("grid/"):
            grid[int(b["K"])][b["label"]] = s
    algs = ["basic", "transposed", "butterfly", "warp_scan"]
    print("### Draw, whole grid (native width, packing on): ms per iteration (M tokens/s)\n")
    print("| K | " + " | ".join(algs) + " | basic/transposed | basic/butterfly | basic/warp_scan |")
    print("|---" * (len(algs) + 4) + "|")
    for k in sorted(grid):
        row = grid[k]
        cells = [f"{row[a] * 1e3:.1f} ({tokens / row[a] / 1e6:.2f})" if a in row else "-" for a in algs]
        ratios = [f"{row['basic'] / row[a]:.2f}" if a in row and "basic" in row else "-" for a in algs[1:]]
        print(f"| {k} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")
    print()
    print("### Warp packing at K = 240 (native width): ms per iteration, lane utilization\n")
    print("| algorithm | packing off | packing on | on/off speedup | lane util off | lane util on |")
    print("|---|---|---|---|---|---|")
    on = {b["label"]: (s, b) for n, s, b in runs if n.startswith("grid/") and int(b["K"]) == 240}
    for n, s, b in runs:
        if n.startswith("packing/"):
            a = b["label"]
            if a in on:
                print(f"| {a} | {s * 1e3:.1f} | {on[a][0] * 1e3:.1f} | {s / on[a][0]:.2f} | "
                      f"{b['lane_util']:.4f} | {on[a][1]['lane_util']:.4f} |")
    print()
    print("### Widths at K = 240 (packing on): ms per iteration\n")
    widths = defaultdict(dict)
    for n, s, b in runs:
        if (n.startswith("widths/") or n.startswith("grid/")) and int(b["K"]) == 240:
            widths[int(b["W"])][b["label"]] = s
    print("| W | " + " | ".join(algs) + " |")
    print("|---" * (len(algs) + 1) + "|")
    for w in sorted(widths):
        print(f"| {w} | " + " | ".join(f"{widths[w][a] * 1e3:.1f}" if a in widths[w] else "-" for a in algs) + " |")
    print()


def rows_tables(path):
    runs = medians(path)
    t = defaultdict(dict)
    for n, s, b in runs:
        t[(int(b["R"]), int(b["K"]))][b["label"]] = s
    labels = ["std::discrete_distribution", "basic", "transposed", "butterfly", "warp_scan"]
    print("### Row form: ms per call (speedup over std::discrete_distribution, same run)\n")
    print("| R x K | " + " | ".join(labels) + " |")
    print("|---" * (len(labels) + 1) + "|")
    for (r, k) in sorted(t):
        row = t[(r, k)]
        base = row.get(labels[0])
        cells = []
        for a in labels:
            if a not in row:
                cells.append("-")
            elif a == labels[0] or base is None:
                cells.append(f"{row[a] * 1e3:.2f}")
            else:
                cells.append(f"{row[a] * 1e3:.2f} ({base / row[a]:.1f}x)")
        print(f"| {r} x {k} | " + " | ".join(cells) + " |")
    print()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: tables.py draw.json rows.json TOKENS")
    draw_tables(sys.argv[1], float(sys.argv[3]))
    rows_tables(sys.argv[2])
