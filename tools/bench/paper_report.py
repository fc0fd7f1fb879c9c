#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The tables and plots of tools/bench/paper.sh: paper_report.py EXP DIR.

Reads DIR/EXP.csv (EXP: ws, bursts or ceio), prints a markdown table of the
medians over the repetitions with the papers' findings beside ours, and
draws DIR/EXP-*.png (matplotlib, else gnuplot; neither: said once).
"""

import csv
import os
import shutil
import statistics
import subprocess
import sys


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def med(rows, key):
    v = [num(r.get(key)) for r in rows]
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else None


def f(x, fmt="%.1f"):
    return "-" if x is None else fmt % x


# The papers' findings, for the same axes (seed-thesis.md, rxBisect paper)
WS_PAPER = {
    "in DDIO": "line rate while R <= 128 (16 cores, 22 MiB LLC, 2 DDIO ways)",
    "in LLC": "first drop for 128 < R < 1024 (fits the LLC, not DDIO)",
    "beyond LLC": "second drop for R >= 1024: to 0.8x throughput, 37x latency, 4.9x memory bandwidth of R = 64",
}
BURST_PAPER = {
    "privring-128": "drops under single-core bursts",
    "privring-1024": "sustains 2x privring 128's no-drop load",
    "shring-1024": "matches privring 1 Ki",
    "rxbisect-1024-ax128": "matches privring 1 Ki (paper, 4 cores: Ax 256)",
}


def region(r):
    written = num(r["written_kib"]) * 1024
    if written <= num(r["ddio_kb"]) * 1024:
        return "in DDIO"
    if written <= num(r["llc_bytes"]):
        return "in LLC"
    return "beyond LLC"


def plot(out, name, title, xlabel, ylabel, series, logx=False):
    """series: {label: [(x, y)...]}; PNG DIR/name.png."""
    png = os.path.join(out, name + ".png")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for lab, pts in series.items():
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=lab)
        if logx:
            ax.set_xscale("log", base=2)
        ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
        ax.legend()
        fig.savefig(png, dpi=100, bbox_inches="tight")
        return png
    except ImportError:
        pass
    if not shutil.which("gnuplot"):
        return None
    cmds = ["set terminal pngcairo size 900,500 noenhanced",
            "set output '%s'" % png, "set title '%s'" % title,
            "set xlabel '%s'" % xlabel, "set ylabel '%s'" % ylabel,
            "set key outside",
            "set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05"]
    if logx:
        cmds.append("set logscale x 2")
    plots = []
    for i, (lab, pts) in enumerate(series.items()):
        dat = os.path.join(out, "%s-%d.dat" % (name, i))
        with open(dat, "w") as fh:
            for x, y in pts:
                fh.write("%s %s\n" % (x, y))
        plots.append("'%s' using 1:2 with linespoints title '%s'" % (dat, lab))
    cmds.append("plot " + ", ".join(plots))
    r = subprocess.run(["gnuplot"], input="\n".join(cmds), text=True,
                       capture_output=True)
    return png if r.returncode == 0 else None


def report_ws(out, rows):
    rings = sorted({int(r["ring"]) for r in rows})
    by = {g: [r for r in rows if int(r["ring"]) == g] for g in rings}
    base = med(by[rings[0]], "kpps") if rings else None
    base_lat = med(by[rings[0]], "lat_p99_us") if rings else None
    print("## The I/O working set: privring against ring size "
          "(rxBisect Fig. 2, thesis Fig. 4.2)\n")
    r0 = rows[0]
    print("%s queues, LLC %.1f MiB, DDIO share %d KiB; medians of %d repetition(s); "
          "written = queues x ring x 1.5 KiB (a 1518 B frame's cache lines)\n"
          % (r0["queues"], num(r0["llc_bytes"]) / 2**20, int(num(r0["ddio_kb"])),
             len({r["rep"] for r in rows})))
    print("| ring | posted MiB | written / LLC | region | kpps | Gbit/s | vs ring %d "
          "| p50 us | p99 us | p99 vs ring %d | I/O WS buffers | NIC drops "
          "| LLC misses/pkt | mem B/pkt | paper |" % (rings[0], rings[0]))
    print("|---" * 15 + "|")
    for g in rings:
        rs = by[g]
        k = med(rs, "kpps")
        lat = med(rs, "lat_p99_us")
        print("| %d | %.1f | %.2f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            g, num(rs[0]["posted_kib"]) / 1024,
            num(rs[0]["written_kib"]) * 1024 / num(rs[0]["llc_bytes"]),
            region(rs[0]), f(k), f(med(rs, "gbps"), "%.3f"),
            f(k / base if k is not None and base else None, "%.2f"),
            f(med(rs, "lat_p50_us")), f(lat),
            f(lat / base_lat if lat is not None and base_lat else None, "%.2f"),
            f(med(rs, "io_ws_buffers"), "%.0f"), f(med(rs, "nic_drops"), "%.0f"),
            f(med(rs, "llc_misses_pkt"), "%.2f"), f(med(rs, "mem_bytes_pkt"), "%.0f"),
            WS_PAPER[region(rs[0])]))
    pts = [(g, med(by[g], "kpps")) for g in rings if med(by[g], "kpps") is not None]
    lat = [(g, med(by[g], "lat_p99_us")) for g in rings if med(by[g], "lat_p99_us") is not None]
    return [plot(out, "ws-throughput", "privring: delivered kpps against ring size",
                 "ring entries per queue", "kpps", {"privring": pts}, True),
            plot(out, "ws-latency", "privring: sockperf p99 under load against ring size",
                 "ring entries per queue", "usec", {"privring": lat}, True) if lat else None]


def report_bursts(out, rows):
    cfgs = []
    for r in rows:
        if r["config"] not in cfgs:
            cfgs.append(r["config"])
    bursts = sorted({int(r["burst"]) for r in rows if r["kind"] == "burst"})
    print("## Bursts absorbed: every frame to queue 0 "
          "(rxBisect Figs. 9 and 12, thesis Fig. 4.4)\n")
    print("delivered %% of bursts of N frames at full speed; medians of %d repetition(s)\n"
          % len({r["rep"] for r in rows}))
    ndr0 = None
    print("| config | " + " | ".join("burst %d" % b for b in bursts) +
          " | largest burst, no drop | full speed kpps delivered | drops % at full speed "
          "| no-drop rate kpps | NDR vs first | paper |")
    print("|---" * (len(bursts) + 7) + "|")
    series = {}
    for c in cfgs:
        rs = [r for r in rows if r["config"] == c]
        cells, best, pts = [], None, []
        for b in bursts:
            br = [r for r in rs if r["kind"] == "burst" and int(r["burst"]) == b]
            p = med(br, "deliv_pct")
            cells.append(f(p))
            if p is not None:
                pts.append((b, p))
            if br and all(num(r["nic_drops"]) == 0 and num(r["delivered"]) >= num(r["sent"])
                          for r in br):
                best = b
        series[c] = pts
        full = [r for r in rs if r["kind"] == "full"]
        fk = med(full, "deliv_kpps")
        drops = [100 * num(r["nic_drops"]) / num(r["sent"]) for r in full
                 if num(r["sent"])]
        ndr = med([r for r in rs if r["kind"] == "ndr"], "deliv_kpps")
        if ndr0 is None:
            ndr0 = ndr
        print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            c, " | ".join(cells), best if best is not None else "none", f(fk),
            f(statistics.median(drops) if drops else None), f(ndr),
            f(ndr / ndr0 if ndr is not None and ndr0 else None, "%.2f"),
            BURST_PAPER.get(c, "-")))
    return [plot(out, "bursts", "delivered % of a burst to one queue", "burst (frames)",
                 "% delivered", series, True)]


# CEIO §6.2 (Figs. 9-10), seed-ceio.md section 4
CEIO_PAPER = ("CEIO vs baseline: 1.3-2.1x throughput over 128-1024 B, LLC miss "
              "rate 88 % -> 1 % (BlueField-3, 200 Gbit/s, 8 flows, 6 MiB of "
              "DDIO ways)")


def report_ceio(out, rows):
    pkts = sorted({int(r["pkt"]) for r in rows})
    r0 = rows[0]
    print("## CEIO against the baseline (CEIO §6.2, Figs. 9-10)\n")
    print("%s queues of %s entries each, both models; ceio's credits: llc_budget "
          "%.1f MiB (the DDIO share); medians of %d repetition(s); vs privring: "
          "within each repetition\n"
          % (r0["queues"], r0["ring"], num(r0["llc_budget"]) / 2**20,
             len({r["rep"] for r in rows})))
    print("| frame B | model | kpps | Gbit/s | vs privring | NIC drops | slow path "
          "| I/O WS buffers | LLC misses/pkt | mem B/pkt |")
    print("|---" * 10 + "|")
    series = {}
    for p in pkts:
        base = {r["rep"]: num(r["kpps"]) for r in rows
                if int(r["pkt"]) == p and r["model"] == "privring"}
        for m in ("privring", "ceio"):
            rs = [r for r in rows if int(r["pkt"]) == p and r["model"] == m]
            if not rs:
                continue
            ratios = sorted(num(r["kpps"]) / base[r["rep"]] for r in rs
                            if base.get(r["rep"]) and num(r["kpps"]) is not None)
            rt = "-" if not ratios else "%.2f" % statistics.median(ratios) + (
                "" if len(ratios) == 1 else " (%.2f-%.2f)" % (ratios[0], ratios[-1]))
            fast, slow = med(rs, "ceio_fast"), med(rs, "ceio_slow")
            sl = "%.1f %%" % (100 * slow / (fast + slow)) if m == "ceio" and \
                fast is not None and slow is not None and fast + slow > 0 else "-"
            print("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                p, m, f(med(rs, "kpps")), f(med(rs, "gbps"), "%.3f"), rt,
                f(med(rs, "nic_drops"), "%.0f"), sl, f(med(rs, "io_ws_buffers"), "%.0f"),
                f(med(rs, "llc_misses_pkt"), "%.2f"), f(med(rs, "mem_bytes_pkt"), "%.0f")))
            series.setdefault(m, []).append((p, med(rs, "kpps")))
    print("\nPaper: " + CEIO_PAPER)
    series = {m: [(x, y) for x, y in v if y is not None] for m, v in series.items()}
    return [plot(out, "ceio-throughput", "privring and ceio: delivered kpps against frame size",
                 "frame bytes", "kpps", series)]


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("ws", "bursts", "ceio"):
        print("usage: paper_report.py ws|bursts|ceio DIR", file=sys.stderr)
        return 2
    exp, out = sys.argv[1], sys.argv[2]
    with open(os.path.join(out, exp + ".csv")) as fh:
        rows = list(csv.DictReader(fh))
    if not rows:
        print("paper_report: %s.csv has no rows" % exp, file=sys.stderr)
        return 1
    pngs = {"ws": report_ws, "bursts": report_bursts, "ceio": report_ceio}[exp](out, rows)
    pngs = [p for p in pngs if p]
    print()
    if pngs:
        print("plots: " + " ".join(os.path.basename(p) for p in pngs))
    else:
        print("no plots: apt-get install python3-matplotlib (or gnuplot-nox)")
    lay = os.path.join(out, "layout.txt")
    if os.path.exists(lay):
        print("\n```\n" + open(lay).read().rstrip() + "\n```")
    return 0


if __name__ == "__main__":
    sys.exit(main())
