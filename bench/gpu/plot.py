#!/usr/bin/env python3
"""Figure 3 of a bench/gpu/run.sh state folder: bench/plot.py's draw plots (draw-seconds.png,
draw-speedup.png) of the device-resident draw (STATE/draw-device.json, its device/ runs in
the place of plot.py's grid/ runs), on the time the device took.

    bench/gpu/plot.py STATE
"""
import json
import os
import sys
import tempfile

os.environ.setdefault("BUTTERFLY_PLOT_TIME", "real_time")  # the manual (event) time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import plot  # noqa: E402  (bench/plot.py)

if len(sys.argv) != 2:
    sys.exit(__doc__)
with open(os.path.join(sys.argv[1], "draw-device.json")) as f:
    data = json.load(f)
for b in data["benchmarks"]:
    for key in ("name", "run_name"):
        if b.get(key, "").startswith("device/"):
            b[key] = "grid/" + b[key][len("device/"):]
with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    json.dump(data, f)
try:
    plot.plot_draw(f.name, sys.argv[1])
finally:
    os.unlink(f.name)
