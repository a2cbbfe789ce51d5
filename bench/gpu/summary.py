#!/usr/bin/env python3
"""The summary table of a bench/gpu/run.sh folder, as markdown on stdout.

    summary.py OUTDIR --gpu NAME --hbm-gbps GBPS --caps 1 2 4

Tokens/s come from the benchmarks' tokens_per_s counter (median when repeated). The HBM
floor is the time the bytes a token must move take at peak bandwidth; per token of the
product form that is its phi row (4K bytes, a gather by word id that no cache holds for
the wiki-lead vocabulary), its word id and its z (8 bytes) and its share of the document's
theta row (4K / mean document length). fraction = tokens/s / (bandwidth / bytes per token):
1.0 would be a draw limited by HBM bandwidth alone.
"""
import argparse
import csv
import json
import os
import re


def benchmarks(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        data = json.load(f)
    rows = [b for b in data["benchmarks"] if b.get("run_type", "iteration") == "iteration"]
    return rows, data.get("context", {})


def floor_bytes(K, mean_doc_len):
    return 4 * K + 8 + 4 * K / mean_doc_len


def resources(path):
    """kernel label -> (registers, local bytes) from cuobjdump --dump-resource-usage, whose
    lines read 'Function <mangled>: REG:242 STACK:0 SHARED:0 LOCAL:0 ...'."""
    out = {}
    if not os.path.exists(path):
        return out
    for line in open(path):
        m = re.search(r"Function (\S+):.*?REG:(\d+).*?LOCAL:(\d+)", line)
        if m:
            out[label(m.group(1))] = (int(m.group(2)), int(m.group(3)))
    return out


def label(mangled):
    # "butterfly" last: every kernel lives in namespace butterfly.
    alg = next((a for a in ("basic", "transposed", "warp_scan", "butterfly") if a in mangled), "?")
    form = "rows" if "row_form" in mangled else "product"
    return f"{alg}/{form}"


def occupancy(path):
    """algorithm label -> achieved occupancy (% of peak active warps) from ncu --csv."""
    out = {}
    if not os.path.exists(path):
        return out
    lines = [l for l in open(path) if l.startswith('"')]
    for row in csv.DictReader(lines):
        if row.get("Metric Name") == "sm__warps_active.avg.pct_of_peak_sustained_active":
            out[label(row.get("Kernel Name", ""))] = row.get("Metric Value", "")
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("outdir")
    p.add_argument("--gpu", default="?")
    p.add_argument("--hbm-gbps", type=float, default=0)
    p.add_argument("--caps", nargs="+", default=["1"])
    a = p.parse_args()
    d = a.outdir

    print(f"# GPU run: {a.gpu}\n")
    print(open(os.path.join(d, "machine.txt")).read().strip().replace("\n", "  \n"))
    bw = a.hbm_gbps * 1e9
    draw, ctx = benchmarks(os.path.join(d, "draw.json"))
    print(f"\nHBM floor at {a.hbm_gbps:g} GB/s" if bw else "\nHBM floor: bandwidth unknown (set HBM_GBPS)")
    docs_tokens = os.popen(f"grep -m1 -o '[0-9]* documents, [0-9]* tokens' {d}/draw.txt").read().split()
    mean_len = int(docs_tokens[2]) / int(docs_tokens[0]) if len(docs_tokens) >= 3 else 1.0
    print(f"(mean document length {mean_len:.1f} tokens)\n")

    print("## Figure 3: z draw over wiki-lead, tokens/s (fraction of the HBM floor)\n")
    table = {}
    for b in draw:
        group, alg, k, w, pack = b["run_name"].split("/")[:5]
        K = int(k.split(":")[1])
        key = (alg, pack)
        rate = b["tokens_per_s"]
        frac = rate * floor_bytes(K, mean_len) / bw if bw else None
        table.setdefault(key, {})[K] = f"{rate:.3g}" + (f" ({frac:.2f})" if frac is not None else "")
    ks = sorted({K for v in table.values() for K in v})
    print("| algorithm | packing | " + " | ".join(f"K={K}" for K in ks) + " |")
    print("|---|---|" + "---|" * len(ks))
    for (alg, pack), by_k in sorted(table.items()):
        print(f"| {alg} | {pack.split(':')[1]} | " + " | ".join(by_k.get(K, "") for K in ks) + " |")

    lda, _ = benchmarks(os.path.join(d, "lda.json"))
    print("\n## Whole LDA iteration on the device (sample estimator, state device-resident)\n")
    print("ms per iteration (bytes copied between host and device per iteration); the last")
    print("column is the paper's question: butterfly's whole-application speed-up over basic.\n")
    whole = {}
    for b in lda:
        _, alg, k = b["run_name"].split("/")[:3]
        whole.setdefault(int(k.split(":")[1]), {})[alg] = (b["real_time"], b.get("copied_bytes_per_iter", float("nan")))
    algs = ("basic", "transposed", "butterfly", "warp_scan")
    print("| K | " + " | ".join(algs) + " | basic / butterfly |")
    print("|---|" + "---|" * (len(algs) + 1))
    for K in sorted(whole):
        row = whole[K]
        cells = [f"{row[a][0]:.3g} ({row[a][1]:.0f} B)" if a in row else "" for a in algs]
        ratio = f"{row['basic'][0] / row['butterfly'][0]:.2f}x" if "basic" in row and "butterfly" in row else ""
        print(f"| {K} | " + " | ".join(cells) + f" | {ratio} |")

    print("\n## Register cap (__launch_bounds__ min blocks per multiprocessor), K = 240\n")
    print("| cap | kernel | registers | local bytes | achieved occupancy % | tokens/s |")
    print("|---|---|---|---|---|---|")
    for cap in a.caps:
        res = resources(os.path.join(d, f"resources-cap{cap}.txt"))
        occ = occupancy(os.path.join(d, f"ncu-cap{cap}.csv"))
        sweep, _ = benchmarks(os.path.join(d, f"sweep-cap{cap}.json"))
        rates = {b["label"]: b["tokens_per_s"] for b in sweep}
        for alg in ("basic", "transposed", "butterfly", "warp_scan"):
            regs, local = res.get(f"{alg}/product", ("n/a", "n/a"))
            rate = rates.get(alg)
            print(f"| {cap} | {alg}/product | {regs} | {local} | {occ.get(f'{alg}/product', 'n/a')} | "
                  f"{rate:.3g} |" if rate else f"| {cap} | {alg}/product | {regs} | {local} | n/a | n/a |")


if __name__ == "__main__":
    main()
