#!/usr/bin/python3
"""butterfly.draw_rows against torch.multinomial(w, 1) and the NumPy idiom (cumsum, then
compare with u * total and argmax), one process, one thread each, ratios in one run.

    PYTHONPATH=build-python/python /usr/bin/python3 bench/python/draw_rows.py [--repeats 7] [--out F.json]

Rows ~ Dirichlet(1) as in bench/rows.cpp, float32, C-contiguous (what every contestant
accepts without a copy). Times are CPU seconds of the calling thread (time.thread_time,
median of --repeats calls after one warm-up call): the machine is shared, and wall clock
would count the other users' compiles. torch is limited to one thread, like the serial
backend.
"""
import argparse
import json
import platform
import statistics
import time

import numpy as np

import butterfly

SIZES = [(100_000, 16), (100_000, 240), (10_000, 1024)]


def numpy_idiom(w, rng):
    c = np.cumsum(w, axis=1)
    u = rng.random(w.shape[0], dtype=np.float32)[:, None] * c[:, -1:]
    return np.argmax(c > u, axis=1)


def cpu_median(fn, repeats):
    fn()  # warm-up: page in the output, build plans
    times = []
    for _ in range(repeats):
        t0 = time.thread_time()
        fn()
        times.append(time.thread_time() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--out")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    rows = []
    for R, K in SIZES:
        w = rng.dirichlet(np.ones(K), size=R).astype(np.float32)
        wt = torch.from_numpy(w)
        out = np.empty(R, np.int32)
        contestants = {
            "butterfly": lambda: butterfly.draw_rows(w, out=out),
            "butterfly validate=False": lambda: butterfly.draw_rows(w, out=out, validate=False),
            "transposed": lambda: butterfly.draw_rows(w, method="transposed", out=out),
            "torch.multinomial": lambda: torch.multinomial(wt, 1),
            "numpy cumsum+argmax": lambda: numpy_idiom(w, rng),
        }
        ms = {name: 1e3 * cpu_median(fn, args.repeats) for name, fn in contestants.items()}
        rows.append({"R": R, "K": K, "ms": ms})
        print(f"{R} x {K}: " + ", ".join(f"{k} {v:.2f} ms" for k, v in ms.items()), flush=True)
    print()
    print("| R x K | torch.multinomial ms | numpy ms | butterfly ms (vs torch, vs numpy) | butterfly validate=False "
          "| transposed |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        ms = r["ms"]
        t, n = ms["torch.multinomial"], ms["numpy cumsum+argmax"]

        def cell(name):
            return f"{ms[name]:.2f} ({t / ms[name]:.2f}x, {n / ms[name]:.2f}x)"

        print(f"| {r['R']} x {r['K']} | {t:.2f} | {n:.2f} | {cell('butterfly')} | {cell('butterfly validate=False')} "
              f"| {cell('transposed')} |")
    if args.out:
        meta = {"python": platform.python_version(), "numpy": np.__version__, "torch": torch.__version__,
                "butterfly": butterfly.__version__, "backend": butterfly.backend, "repeats": args.repeats}
        with open(args.out, "w") as f:
            json.dump({"meta": meta, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
