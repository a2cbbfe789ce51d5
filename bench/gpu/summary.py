#!/usr/bin/env python3
"""summary.md of a bench/gpu/run.sh state folder, on stdout: the steps (failures first, with
their logs' tails), each prediction of bench/gpu/predictions.tsv beside its measurement, the
z draw's two targets on a GPU (butterfly >= 2x basic, within 3x of the HBM floor), the
profiles, and the run log's tail.

    summary.py STATE --predictions bench/gpu/predictions.tsv

The HBM floor of a z draw is the bytes it must move at best, over the peak bandwidth: per
token its phi row (4K bytes), its word id and its z (8); per document its theta row (4K, read
once: the warp caches it) and its offset (8). fraction = floor / measured time: 1.0 would be
a draw limited by HBM bandwidth alone (above 1.0, L2 served what the floor counts).
"""
import argparse
import csv
import glob
import json
import os
import re


def read_env(state):
    env = {}
    path = os.path.join(state, "run.env")
    if os.path.exists(path):
        for line in open(path):
            key, _, value = line.rstrip("\n").partition("=")
            env[key] = value
    return env


def predictions(path):
    """key -> (predicted, low, high, unit)."""
    out = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        key, value, low, high, unit = line.rstrip("\n").split("\t")[:5]
        out[key] = (float(value), float(low), float(high), unit)
    return out


def benchmarks(path):
    """The iteration runs of a Google Benchmark JSON (empty when the file is not there). A
    program stopped at the phase's limit leaves its runs so far: the file is cut after the last
    whole one."""
    if not os.path.exists(path):
        return []
    text = open(path).read()
    try:
        data = json.loads(text)
    except ValueError:
        cut = text.rfind("\n    }")
        try:
            data = json.loads(text[:cut + 6] + "\n  ]\n}") if cut >= 0 else {"benchmarks": []}
        except ValueError:
            data = {"benchmarks": []}
    return [b for b in data["benchmarks"] if b.get("run_type", "iteration") == "iteration"]


def ms(b):
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
    return b["real_time"] * scale


def fmt(x):
    if x is None:
        return "-"
    return f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}"


class table:
    """Rows of a markdown table; `compare` adds a measurement and its prediction."""

    def __init__(self, pred, *head):
        self.pred = pred
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))

    def compare(self, key, measured):
        p = self.pred.get(key)
        if p is None:
            return [fmt(measured), "-", "-"]
        value, low, high, _ = p
        verdict = "-" if measured is None else ("in range" if low <= measured <= high else "**outside**")
        ratio = "-" if measured is None else f"{measured / value:.2f}x"
        return [fmt(measured), f"{fmt(value)} [{fmt(low)}, {fmt(high)}]", f"{ratio}, {verdict}"]

    def row(self, *cells):
        print("| " + " | ".join(str(c) for c in cells) + " |")


def steps_section(state):
    path = os.path.join(state, "steps.tsv")
    rows = [l.rstrip("\n").split("\t") for l in open(path)] if os.path.exists(path) else []
    order = ("build", "test", "measure", "profile")
    rows.sort(key=lambda r: order.index(r[0]) if r[0] in order else len(order))
    bad = [r for r in rows if r[2] in ("FAILED", "TIMEOUT")]
    print("## Steps\n")
    if bad:
        print("**Failed:** " + ", ".join(f"{r[0]}/{r[1]} ({r[2]})" for r in bad) + "\n")
    else:
        print("No step failed.\n")
    print("| phase | step | status | seconds | ended (UTC) | note |\n|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r + [""] * (6 - len(r))) + " |")
    for r in bad:
        log = os.path.join(state, "logs", f"{r[0]}-{r[1]}.log")
        if os.path.exists(log):
            print(f"\n`logs/{r[0]}-{r[1]}.log`, last lines:\n```")
            print("".join(open(log, errors="replace").readlines()[-12:]).rstrip())
            print("```")


def floor_ms(b, gbps):
    K, M, N = b["K"], b["M"], b["N"]
    return (N + M) * (4 * K + 8) / (gbps * 1e9) * 1e3 if gbps else None


def draw_section(state, pred, gbps, emulated):
    device = benchmarks(os.path.join(state, "draw-device.json"))
    print("\n## Figure 3: the z draw device-resident (inputs uploaded once per K, the draw prepared once, events)\n")
    times = {}
    if device:
        device_tables(pred, gbps, emulated, device, times)
    else:
        print("Not measured (draw-device.json missing).")

    e2e = benchmarks(os.path.join(state, "draw-end-to-end.json"))
    if e2e:
        print("\n### End to end: the host-span draw_topics (uploads, checks and the copy of z back per call)\n")
        t = table(pred, "algorithm", "K", "measured ms", "predicted ms [range]", "measured / predicted",
                  "end to end / device-resident")
        for b in e2e:
            _, alg, k = b["run_name"].split("/")[:3]
            K = int(k.split(":")[1])
            dev = times.get((alg, K))
            t.row(alg, K, *t.compare(f"e2e/{alg}/K:{K}", ms(b)), fmt(ms(b) / dev[0]) if dev else "-")


def device_tables(pred, gbps, emulated, device, times):
    """Figure 3's table, butterfly against basic and the targets; times[(alg, K)] = (ms, run)."""
    floor = f"the HBM floor at {gbps:g} GB/s" if gbps else "the HBM floor (no bandwidth known here)"
    print(f"Milliseconds per draw of every token; floor = {floor}; fraction = floor / measured.\n")
    t = table(pred, "algorithm", "K", "measured ms", "predicted ms [range]", "measured / predicted",
              "ns per token", "floor ms", "fraction")
    for b in device:
        _, alg, k = b["run_name"].split("/")[:3]
        K = int(k.split(":")[1])
        m = ms(b)
        times[(alg, K)] = (m, b)
        f = floor_ms(b, gbps)
        t.row(alg, K, *t.compare(f"draw/{alg}/K:{K}", m), fmt(m * 1e6 / b["N"]), fmt(f),
              fmt(f / m) if f else "-")
    print("\n### butterfly against basic (time(basic) / time(butterfly))\n")
    t = table(pred, "K", "measured", "predicted [range]", "measured / predicted")
    met_ratio, met_floor = [], []
    for K in sorted({K for _, K in times}):
        if ("basic", K) in times and ("butterfly", K) in times:
            r = times[("basic", K)][0] / times[("butterfly", K)][0]
            t.row(K, *t.compare(f"ratio/K:{K}", r))
            if K >= 200:
                met_ratio.append((K, r >= 2))
        if ("butterfly", K) in times and K >= 240 and gbps:
            m, b = times[("butterfly", K)]
            met_floor.append((K, m <= 3 * floor_ms(b, gbps)))
    print("\nTargets of the z draw on a GPU"
          + (", not meaningful on the emulated device:" if emulated else ":"))
    for what, res in (("butterfly >= 2x basic at K >= 200", met_ratio),
                      ("butterfly's z draw within 3x of the HBM floor for K >= 240", met_floor)):
        missed = [str(K) for K, ok in res if not ok]
        verdict = "not measured" if not res else ("met" if not missed else "missed at K = " + ", ".join(missed))
        print(f"- {what}: {verdict}")


def lda_section(state, pred):
    runs = benchmarks(os.path.join(state, "lda-estimators.json"))
    print("\n## The LDA iteration per estimator (butterfly, native width, state on the device)\n")
    if runs:
        print("Milliseconds per iteration; z step = the draw (sample, mean) or the sweep (collapsed, mh);")
        print("rest = counts, theta and phi, tables (sampler::iterate's steady_clock split).\n")
        t = table(pred, "estimator", "K", "part", "measured ms", "predicted ms [range]", "measured / predicted",
                  "bytes copied per iteration")
        for b in runs:
            _, est, k = b["run_name"].split("/")[:3]
            K = int(k.split(":")[1])
            parts = (("iteration", ms(b)), ("z_draw", b["z_draw_s"] * 1e3), ("rest", (b["rest_s"] + b.get("combine_s", 0)) * 1e3))
            for part, value in parts:
                t.row(est, K, part, *t.compare(f"lda/{est}/K:{K}/{part}", value),
                      fmt(b["copied_bytes_per_iter"]) if part == "iteration" else "")
    else:
        print("Not measured (lda-estimators.json missing).")

    reports = sorted(glob.glob(os.path.join(state, "ncu", "lda-*.csv")))
    if reports:
        print("\n### Each step's kernels (ncu, gpu__time_duration), ms per iteration\n")
        print("Per iteration = the step's kernel time over the profiled run (setup, one warmup, the timed")
        print("iterations) / the number of z steps in it: slightly high for steps the setup also runs.\n")
        t = table(pred, "estimator", "K", "step", "launches", "measured ms / iteration", "predicted [range]",
                  "measured / predicted")
        for path in reports:
            m = re.match(r"lda-(\w+)-K(\d+)\.csv", os.path.basename(path))
            est, K = m.group(1), int(m.group(2))
            total, count = {}, {}
            for kernel, metric, unit, value in ncu_rows(path):
                if metric == "gpu__time_duration.sum":
                    step = step_name(kernel)
                    total[step] = total.get(step, 0) + to_ms(value, unit)
                    count[step] = count.get(step, 0) + 1
            z_steps = max(count.get("draw", 0), count.get("collapsed_documents", 0), count.get("mh_documents", 0), 1)
            for step in sorted(total, key=total.get, reverse=True):
                t.row(est, K, step, count[step], *t.compare(f"step/{est}/K:{K}/{step}", total[step] / z_steps))

    runs = benchmarks(os.path.join(state, "lda-algorithms.json"))
    if runs:
        print("\n## The whole application by algorithm (sample estimator, the paper's K grid)\n")
        t = table(pred, "algorithm", "K", "measured ms / iteration", "predicted [range]", "measured / predicted", "z share")
        whole = {}
        for b in runs:
            _, alg, k = b["run_name"].split("/")[:3]
            K = int(k.split(":")[1])
            whole[(alg, K)] = ms(b)
            t.row(alg, K, *t.compare(f"app/{alg}/K:{K}", ms(b)), fmt(b["z_share"]))
        print()
        t = table(pred, "K", "basic / butterfly, measured", "predicted [range]", "measured / predicted")
        for K in sorted({K for _, K in whole}):
            if ("basic", K) in whole and ("butterfly", K) in whole:
                t.row(K, *t.compare(f"app_ratio/K:{K}", whole[("basic", K)] / whole[("butterfly", K)]))


def ncu_rows(path):
    """(kernel name, metric, unit, value) of ncu --csv --print-units base."""
    lines = [l for l in open(path, errors="replace") if l.startswith('"')]
    for row in csv.DictReader(lines):
        value = row.get("Metric Value", "").replace(",", "")
        try:
            yield row.get("Kernel Name", ""), row.get("Metric Name", ""), row.get("Metric Unit", ""), float(value)
        except ValueError:
            continue


def to_ms(value, unit):
    return value * {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "second": 1e3}.get(unit, 1e-6)


def step_name(kernel):
    m = re.search(r"steps::(\w+)", kernel)
    return m.group(1) if m else ("draw" if re.search(r"\bdraw\b", kernel) else kernel[:40])


def algorithm_of(mangled):
    for alg, tag in (("basic", "5basic"), ("transposed", "10transposed"), ("warp_scan", "9warp_scan")):
        if tag in mangled:
            return alg
    return "butterfly"


def profile_section(state, pred):
    reports = sorted(glob.glob(os.path.join(state, "ncu", "draw-*.csv")))
    if reports:
        print("\n## ncu on the draw (--clock-control none, the second launch)\n")
        print("Per token: DRAM and L2 bytes, L1 wavefronts; imbalance = the busiest SM's active cycles /")
        print("the mean (the warp plan sorts warps by length, so the first blocks hold the longest).\n")
        t = table(pred, "algorithm", "K", "ms", "DRAM bytes / token", "predicted [range]", "L2 bytes / token",
                  "L1 wavefronts / token", "predicted [range]", "imbalance", "predicted [range]",
                  "warps active %", "registers")
        tokens = token_count(state)
        for path in reports:
            m = re.match(r"draw-(\w+)-K(\d+)\.csv", os.path.basename(path))
            alg, K = m.group(1), int(m.group(2))
            v = {metric: value for _, metric, _, value in ncu_rows(path)}
            per_token = {name: v[name] / tokens for name in v if tokens}
            dram = (per_token.get("dram__bytes_read.sum", 0) + per_token.get("dram__bytes_write.sum", 0)) or None
            busiest, mean = v.get("sm__cycles_active.max"), v.get("sm__cycles_active.avg")
            duration = v.get("gpu__time_duration.sum")  # nanoseconds (base units)
            t.row(alg, K, fmt(duration * 1e-6 if duration else None),
                  *t.compare(f"ncu/dram_bytes_per_token/{alg}/K:{K}", dram)[:2],
                  fmt(per_token.get("lts__t_bytes.sum")),
                  *t.compare(f"ncu/l1_wavefronts_per_token/{alg}/K:{K}",
                             per_token.get("l1tex__data_pipe_lsu_wavefronts.sum"))[:2],
                  *t.compare(f"ncu/imbalance/{alg}/K:{K}", busiest / mean if busiest and mean else None)[:2],
                  fmt(v.get("sm__warps_active.avg.pct_of_peak_sustained_active")),
                  fmt(v.get("launch__registers_per_thread")))

    sweeps = sorted(glob.glob(os.path.join(state, "sweep-cap*.json")))
    if sweeps:
        print("\n## Register caps (__launch_bounds__ minimum blocks per multiprocessor), K = 240, device-resident\n")
        t = table(pred, "cap", "kernel", "registers", "stack", "local (spill) bytes", "warps active %", "ms",
                  "time / cap 1", "predicted [range]", "measured / predicted")
        base = {}
        for path in sorted(sweeps, key=lambda p: int(re.search(r"cap(\d+)", p).group(1))):
            cap = int(re.search(r"cap(\d+)", path).group(1))
            res = resources(os.path.join(state, f"resources-cap{cap}.txt"))
            for b in benchmarks(path):
                alg = b["run_name"].split("/")[1]
                regs, stack, local = res.get(f"{alg}/product", ("-", "-", "-"))
                base.setdefault(alg, ms(b))
                # ncu's achieved occupancy: cap 1's from ncu-draw, the others' from the sweep.
                report = f"draw-{alg}-K240.csv" if cap == 1 else f"sweep-cap{cap}-{alg}.csv"
                occupancy = {metric: value for _, metric, _, value in ncu_rows(os.path.join(state, "ncu", report))} \
                    if os.path.exists(os.path.join(state, "ncu", report)) else {}
                t.row(cap, f"{alg}/product", regs, stack, local,
                      fmt(occupancy.get("sm__warps_active.avg.pct_of_peak_sustained_active")), fmt(ms(b)),
                      *t.compare(f"sweep/{alg}/cap:{cap}", ms(b) / base[alg]))

    lda = resources(os.path.join(state, "resources-lda.txt"))
    if lda:
        print("\n## Registers of the LDA benchmark's kernels (cuobjdump --dump-resource-usage)\n")
        t = table(pred, "kernel", "registers", "stack", "local bytes")
        for name, (regs, stack, local) in sorted(lda.items()):
            t.row(name, regs, stack, local)


def resources(path):
    """kernel label -> (registers, stack, local bytes) from cuobjdump --dump-resource-usage,
    whose 'Function <mangled>:' line is followed by 'REG:242 STACK:0 SHARED:0 LOCAL:0 ...'."""
    out = {}
    if not os.path.exists(path):
        return out
    name = None
    for line in open(path):
        f = re.search(r"Function (\S+):", line)
        if f:
            name = f.group(1)
        m = re.search(r"REG:(\d+).*?STACK:(\d+).*?LOCAL:(\d+)", line)
        if m and name:
            out[kernel_label(name)] = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
            name = None
    return out


def kernel_label(mangled):
    """draw kernels: ALGORITHM/product or /rows; LDA kernels: the step (with its template
    arguments' codes, e.g. column_partials<dd>)."""
    step = re.search(r"5steps(\d+)", mangled)
    if not step:
        return algorithm_of(mangled) + ("/rows" if "row_form" in mangled else "/product")
    end = step.end() + int(step.group(1))
    label = mangled[step.end():end]
    args = re.match(r"I(\w+?)E", mangled[end:])
    return label + (f"<{args.group(1)}>" if args else "")


def token_count(state):
    for b in benchmarks(os.path.join(state, "draw-device.json")):
        return b["N"]
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("state")
    p.add_argument("--predictions", required=True)
    a = p.parse_args()
    env = read_env(a.state)
    pred = predictions(a.predictions)
    gbps = float(env.get("hbm_gbps") or 0)
    print(f"# GPU runbook: {env.get('gpu', '?')}\n")
    machine = os.path.join(a.state, "machine.txt")
    if os.path.exists(machine):
        print(open(machine).read().strip().replace("\n", "  \n") + "\n")
    if env.get("mode") == "emulated":
        print("**Emulated device**: these timings are the host CPU's on a tiny input; the predictions")
        print("(an H100 SXM on the whole wiki-lead corpus) are shown only to rehearse the comparison.\n")
    elif "H100" not in env.get("gpu", "") or "PCIe" in env.get("gpu", ""):
        print("The predictions are for an H100 SXM (3.35 TB/s, 132 SMs); this GPU differs: compare ratios.\n")
    steps_section(a.state)
    draw_section(a.state, pred, gbps, env.get("mode") == "emulated")
    lda_section(a.state, pred)
    profile_section(a.state, pred)
    log = os.path.join(a.state, "run.log")
    if os.path.exists(log):
        print("\n## The log's tail\n```")
        print("".join(open(log, errors="replace").readlines()[-40:]).rstrip())
        print("```")


if __name__ == "__main__":
    main()
