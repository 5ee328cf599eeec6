#!/usr/bin/env python3
"""Two builds' Google Benchmark figures, measured side by side: each benchmark runs alternately
in BASE and NEW, REPS times each, and the table gives the medians and their ratio. Interleaving
per benchmark keeps this machine's drift (up to 30% between runs) out of the ratios.

usage: bench/side_by_side.py BASE_BUILD NEW_BUILD BENCH [REPS [FILTER]]
  FILTER: a regular expression the benchmark names must match (scaling_bench has 60 rows:
  'scaling/(layernorm|rmsnorm)/(4096|16384)' picks four).
  e.g. git worktree add /tmp/base REV && cmake -S /tmp/base -B /tmp/base/build &&
       cmake --build /tmp/base/build --target nf_bench &&
       bench/side_by_side.py /tmp/base/build build nf_bench 3
Counters (proved, iters, ...) must agree: a row says NO when they do not.
"""
import math
import re
import statistics
import subprocess
import sys


def run(binary, name):
    out = subprocess.run([binary, "--benchmark_filter=^" + re.escape(name) + "$"],
                         capture_output=True, text=True, timeout=1200).stdout
    for line in out.split("\n"):
        if line.startswith(name):
            parts = line.split()
            scale = {"ns": 1e-6, "us": 1e-3, "ms": 1, "s": 1000}[parts[2]]
            return float(parts[1]) * scale, " ".join(p for p in parts if "=" in p)
    raise SystemExit(f"{binary}: no result for {name}")


def main():
    base, new, bench = sys.argv[1], sys.argv[2], sys.argv[3]
    reps = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    pattern = re.compile(sys.argv[5]) if len(sys.argv) > 5 else None
    binaries = {"base": f"{base}/bench/{bench}", "new": f"{new}/bench/{bench}"}
    names = subprocess.run([binaries["new"], "--benchmark_list_tests=true"], capture_output=True,
                           text=True).stdout.split()
    names = [n for n in names if pattern is None or pattern.search(n)]
    print("| benchmark | base ms | new ms | base/new | same counters |")
    print("|---|---|---|---|---|")
    ratios = []
    for name in names:
        times = {"base": [], "new": []}
        counters = {}
        for _ in range(reps):
            for which, binary in binaries.items():
                t, c = run(binary, name)
                times[which].append(t)
                counters[which] = c
        b, n = statistics.median(times["base"]), statistics.median(times["new"])
        ratios.append(b / n)
        same = "yes" if counters["base"] == counters["new"] else "NO: " + counters["new"]
        print(f"| {name.replace('/iterations:1', '')} | {b:.3g} | {n:.3g} | {b / n:.2f} | {same} |")
    print(f"\ngeometric mean of base/new: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f}")


if __name__ == "__main__":
    main()
