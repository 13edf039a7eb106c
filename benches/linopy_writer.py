"""Time linopy's (and PuLP's) LP writers on the "basic" benchmark model, for benches/writers.rs.

Usage: python3 benches/linopy_writer.py N RUNS OUTDIR [PULP_N]

The model (linopy's own "basic" benchmark): for an N x N grid, x(i,j), y(i,j) >= 0,
rows x - y >= i - j and x + y >= 0, objective sum 2x + y; 4 N^2 constraint non-zeros.
Prints one line per writer: `RESULT <tool> <format> <n> <median seconds> <bytes> <nnz>
<peak RSS MiB>`, where nnz counts constraint non-zeros only (the objective's 2 N^2 terms
come on top) and the peak RSS is the process's high-water mark from just before the model is
built to the end of its writes (reset through /proc/self/clear_refs on Linux).
"""

import os
import statistics
import sys
import time


def linopy_basic(n):
    import linopy
    import numpy as np
    import pandas as pd
    import xarray as xr

    m = linopy.Model()
    coords = [pd.RangeIndex(n, name="i"), pd.RangeIndex(n, name="j")]
    x = m.add_variables(lower=0, coords=coords, name="x")
    y = m.add_variables(lower=0, coords=coords, name="y")
    idx = np.arange(n)
    rhs = xr.DataArray(idx[:, None] - idx[None, :], coords=coords)
    m.add_constraints(x - y >= rhs, name="lo")
    m.add_constraints(x + y >= 0, name="pos")
    m.add_objective((2 * x + y).sum())
    return m


def pulp_basic(n):
    import pulp

    p = pulp.LpProblem("basic", pulp.LpMinimize)
    x = {(i, j): pulp.LpVariable(f"x_{i}_{j}", lowBound=0) for i in range(n) for j in range(n)}
    y = {(i, j): pulp.LpVariable(f"y_{i}_{j}", lowBound=0) for i in range(n) for j in range(n)}
    p += pulp.lpSum(2 * x[k] + y[k] for k in x)
    for (i, j) in x:
        p += x[i, j] - y[i, j] >= i - j, f"lo_{i}_{j}"
        p += x[i, j] + y[i, j] >= 0, f"pos_{i}_{j}"
    return p


def reset_peak_rss():
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def peak_rss_mib():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def timed(write, path, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        write(path)
        times.append(time.perf_counter() - t)
    return statistics.median(times), os.path.getsize(path)


def main():
    n, runs, outdir = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    pulp_n = int(sys.argv[4]) if len(sys.argv) > 4 else 0

    reset_peak_rss()
    m = linopy_basic(n)
    path = os.path.join(outdir, "linopy.lp")
    secs, size = timed(lambda p: m.to_file(p, io_api="lp", progress=False), path, runs)
    os.remove(path)
    print(f"RESULT linopy LP {n} {secs:.6f} {size} {4 * n * n} {peak_rss_mib():.0f}", flush=True)
    del m

    if pulp_n:
        reset_peak_rss()
        p = pulp_basic(pulp_n)
        for fmt, ext, write in [("LP", "lp", p.writeLP), ("MPS", "mps", p.writeMPS)]:
            path = os.path.join(outdir, "pulp." + ext)
            secs, size = timed(lambda f: write(f), path, runs)
            os.remove(path)
            print(
                f"RESULT pulp {fmt} {pulp_n} {secs:.6f} {size} {4 * pulp_n * pulp_n} "
                f"{peak_rss_mib():.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
