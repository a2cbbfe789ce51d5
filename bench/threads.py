#!/usr/bin/env python3
"""The scaling table of bench/threads.sh:  threads.py bench/results/threads-BACKEND"""
import glob
import json
import os
import re
import statistics
import sys
from collections import defaultdict


def main(folder):
    # tokens_per_s[(program, algorithm)][threads][round]
    rates = defaultdict(lambda: defaultdict(dict))
    for path in glob.glob(os.path.join(folder, "*-t*-r*.json")):
        program, threads, rnd = re.match(r"(\w+)-t(\d+)-r(\d+)\.json", os.path.basename(path)).groups()
        with open(path) as f:
            for b in json.load(f)["benchmarks"]:
                rates[(program, b["label"])][int(threads)][int(rnd)] = b["tokens_per_s"]
    if not rates:
        sys.exit(f"threads.py: no bench/threads.sh results in {folder}")
    print("| what (K = 240, native width) | 1 thread, M tokens/s | 2 threads, M tokens/s | 2 / 1 "
          "(medians) | 2 / 1 in each round |")
    print("|---|---|---|---|---|")
    for (program, alg) in sorted(rates):
        one, two = rates[(program, alg)][1], rates[(program, alg)][2]
        m1, m2 = statistics.median(one.values()), statistics.median(two.values())
        paired = ", ".join(f"{two[r] / one[r]:.2f}" for r in sorted(one) if r in two)
        what = "z draw" if program == "draw" else "LDA iteration"
        print(f"| {what}, {alg} | {m1 / 1e6:.3f} | {m2 / 1e6:.3f} | {m2 / m1:.2f} | {paired} |")


if __name__ == "__main__":
    main(sys.argv[1])
