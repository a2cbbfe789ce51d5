#!/usr/bin/env python3
"""Figure 3 for a bench/gpu/run.sh folder: bench/plot.py's draw plots (draw-seconds.png,
draw-speedup.png) of OUTDIR/draw.json, on wall-clock time: the kernels do not run on the
host thread's CPU clock.

    bench/gpu/plot.py OUTDIR
"""
import os
import sys

os.environ.setdefault("BUTTERFLY_PLOT_TIME", "real_time")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import plot  # noqa: E402  (bench/plot.py)

if len(sys.argv) != 2:
    sys.exit(__doc__)
plot.plot_draw(os.path.join(sys.argv[1], "draw.json"), sys.argv[1])
