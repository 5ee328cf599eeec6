#!/usr/bin/env python3
"""A log-log plot (SVG, no dependencies) of scaling_bench's CSV: seconds against size per family.

    build/bench/scaling_bench --table --csv /tmp/scaling.csv
    python3 bench/plot_scaling.py /tmp/scaling.csv bench/scaling.svg
"""
import csv
import math
import sys

W, H, PAD = 720, 440, 60
COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]


def main(src, dst):
    series = {}
    for row in csv.DictReader(open(src)):
        series.setdefault(row["family"], []).append((float(row["size"]), float(row["seconds"])))
    xs = [x for pts in series.values() for x, _ in pts]
    ys = [max(y, 1e-3) for pts in series.values() for _, y in pts]
    lx0, lx1 = math.log10(min(xs)), math.log10(max(xs))
    ly0, ly1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))

    def px(x):
        return PAD + (math.log10(x) - lx0) / (lx1 - lx0) * (W - 2 * PAD - 150)

    def py(y):
        return H - PAD - (math.log10(max(y, 1e-3)) - ly0) / (ly1 - ly0) * (H - 2 * PAD)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
           f'<rect width="{W}" height="{H}" fill="white"/>']
    for e in range(ly0, ly1 + 1):
        y = py(10 ** e)
        out.append(f'<line x1="{PAD}" y1="{y:.1f}" x2="{W - PAD - 150}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{PAD - 6}" y="{y + 4:.1f}" text-anchor="end">{10 ** e:g} s</text>')
    for x in sorted(set(xs)):
        out.append(f'<text x="{px(x):.1f}" y="{H - PAD + 16}" text-anchor="middle">{int(x)}</text>')
    out.append(f'<text x="{(W - 150) / 2}" y="{H - 14}" text-anchor="middle">size (row width; M=N=K; image side)</text>')
    # A slope-1 guide through the first family's first point.
    first = next(iter(series.values()))[0]
    x1 = max(xs)
    out.append(f'<line x1="{px(first[0]):.1f}" y1="{py(first[1]):.1f}" x2="{px(x1):.1f}" '
               f'y2="{py(first[1] * x1 / first[0]):.1f}" stroke="#999" stroke-dasharray="4 3"/>')
    for k, (name, pts) in enumerate(series.items()):
        c = COLORS[k % len(COLORS)]
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{c}" stroke-width="2"/>')
        for x, y in pts:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2.5" fill="{c}"/>')
        ly = PAD + 16 * k
        out.append(f'<line x1="{W - 200}" y1="{ly}" x2="{W - 180}" y2="{ly}" stroke="{c}" stroke-width="2"/>')
        out.append(f'<text x="{W - 175}" y="{ly + 4}">{name}</text>')
    out.append(f'<text x="{W - 200}" y="{PAD + 16 * len(series) + 8}" fill="#777">dashed: slope 1</text>')
    out.append("</svg>")
    open(dst, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
