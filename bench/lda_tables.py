#!/usr/bin/env python3
"""Table of the lda_options group of butterfly-bench-lda (one LDA iteration, butterfly,
K = 240, per --estimator x --width) at 1 and 2 threads of the same run:
   lda_tables.py lda-1thread.json lda-2threads.json > lda.md
Wall time per iteration (the benchmark's median when repetitions were run), M tokens per
second, the share of the z draw, and the 2-thread speed-up."""
import json
import sys


def runs(path):
    with open(path) as f:
        data = json.load(f)
    out = {}
    for b in data["benchmarks"]:
        if not b["name"].startswith("lda_options/"):
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        _, est, width, _ = b["name"].split("/")[:4]
        out[(est, int(width.split(":")[1]))] = b
    return out


def main():
    one, two = runs(sys.argv[1]), runs(sys.argv[2])
    print("| estimator | W | 1 thread: ms / iteration | M tokens/s | z draw share | 2 threads: ms | M tokens/s | 2 / 1 |")
    print("|---|---|---|---|---|---|---|---|")
    for key in sorted(one):
        a, b = one[key], two.get(key)
        ms1 = a["real_time"]
        row = f"| {key[0]} | {key[1]} | {ms1:.1f} | {a['tokens_per_s'] / 1e6:.2f} | {a['z_share']:.2f} |"
        if b:
            row += f" {b['real_time']:.1f} | {b['tokens_per_s'] / 1e6:.2f} | {ms1 / b['real_time']:.2f}x |"
        else:
            row += " - | - | - |"
        print(row)


if __name__ == "__main__":
    main()
