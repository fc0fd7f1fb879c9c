#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tables and plots of a tools/bench/bench_all.sh run.

  report.py DIR

Reads DIR/bench.csv and DIR/sweep.csv, prints the markdown tables (ratios
to privring and to veth, both from the same run), and draws with gnuplot,
when it is installed, DIR/bench-throughput.png, bench-pps.png,
bench-working-set.png, sweep-work.png (the rxBisect paper's Fig. 14) and
sweep-share.png (Fig. 15).  Can be re-run on a copied results directory.
"""
import csv
import os
import shutil
import subprocess
import sys


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def ratio(a, b):
    a, b = num(a), num(b)
    return "%.2f" % (a / b) if a is not None and b else "-"


def main_table(rows):
    base = {r["model"]: r for r in rows if r["status"] == "ok"}
    pr, ve = base.get("privring"), base.get("veth")
    cols = [("tcp1_gbps", "TCP 1 (Gbit/s)"), ("tcp8_gbps", "TCP 8 (Gbit/s)"),
            ("udp64_kpps", "UDP 64 B (kpps)"), ("udp1500_kpps", "UDP 1518 B (kpps)"),
            ("kernel_ns_pkt", "kernel ns/pkt"), ("softirq_ns_pkt", "softirq ns/pkt"),
            ("lat_p50_us", "p50 (us)"), ("lat_p99_us", "p99 (us)"),
            ("lat_p999_us", "p99.9 (us)"), ("io_ws_buffers", "I/O WS (buffers)"),
            ("io_ws_peak", "WS peak"), ("nobuf_drops", "nobuf drops")]
    print("| model | " + " | ".join(c[1] for c in cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for r in rows:
        if r["status"] != "ok":
            print("| %s | %s |" % (r["model"], " | ".join(["skipped"] + ["-"] * (len(cols) - 1))))
            continue
        print("| %s | %s |" % (r["model"], " | ".join(r[c[0]] or "-" for c in cols)))
    print()
    rcols = [("tcp1_gbps", "TCP 1"), ("tcp8_gbps", "TCP 8"), ("udp64_kpps", "UDP 64 B"),
             ("udp1500_kpps", "UDP 1518 B"), ("kernel_ns_pkt", "kernel ns/pkt"),
             ("lat_p99_us", "p99"), ("io_ws_buffers", "I/O WS")]
    print("Ratios (model / privring, model / veth; higher is better for "
          "throughput, lower for ns/pkt, latency and working set):")
    print()
    print("| model | " + " | ".join("%s vs privring | vs veth" % c[1] for c in rcols) + " |")
    print("|---" * (2 * len(rcols) + 1) + "|")
    for r in rows:
        if r["status"] != "ok":
            continue
        cells = []
        for c, _ in rcols:
            cells.append(ratio(r[c], pr[c]) if pr else "-")
            cells.append(ratio(r[c], ve[c]) if ve else "-")
        print("| %s | %s |" % (r["model"], " | ".join(cells)))
    print()


def sweep_tables(srows, outdir):
    models = []
    for r in srows:
        if r["model"] not in models:
            models.append(r["model"])
    for kind, xcol, title in (("work", "work", "target work (touches/pkt)"),
                              ("share", "share_pct", "target share (%)")):
        pts = [r for r in srows if r["sweep"] == kind]
        if not pts:
            continue
        xs = []
        for r in pts:
            if r[xcol] not in xs:
                xs.append(r[xcol])
        val = {(r["model"], r[xcol]): r for r in pts}
        if kind == "work":
            print("Work sweep (rxBisect paper Fig. 14): non-target datagrams delivered "
                  "(%%), target delivered in brackets; target share %s %%."
                  % pts[0]["share_pct"])
        else:
            print("Share sweep (rxBisect paper Fig. 15): non-target datagrams delivered "
                  "(%%), target delivered in brackets; the target queue does %s touches/pkt."
                  % pts[0]["work"])
        print()
        print("| %s | %s | %s |" % (title, " | ".join(models),
                                    " | ".join("%s vs privring" % m for m in models)))
        print("|---" * (2 * len(models) + 1) + "|")
        for x in xs:
            cells, rats = [], []
            for m in models:
                r = val.get((m, x))
                cells.append("%s (%s)" % (r["other_deliv_pct"], r["target_deliv_pct"]) if r else "-")
                p = val.get(("privring", x))
                rats.append(ratio(r["other_deliv_pct"], p["other_deliv_pct"]) if r and p else "-")
            print("| %s | %s | %s |" % (x, " | ".join(cells), " | ".join(rats)))
        print()
        rates = [num(r.get("pps_sent")) for r in pts if num(r.get("pps_sent"))]
        if rates:
            print("Rate the sender achieved: %.0f to %.0f datagrams/s." % (min(rates), max(rates)))
            print()
        for m in models:
            with open(os.path.join(outdir, "sweep-%s-%s.dat" % (kind, m)), "w") as f:
                for x in xs:
                    r = val.get((m, x))
                    if r and num(r["other_deliv_pct"]) is not None:
                        f.write("%s %s %s\n" % (x, r["other_deliv_pct"], r["target_deliv_pct"]))
    return models


def plots(outdir, models):
    if not shutil.which("gnuplot"):
        print("(no gnuplot: apt-get install gnuplot-nox for the plots)", file=sys.stderr)
        return
    csvf = os.path.join(outdir, "bench.csv")
    ms = " ".join(models)
    gp = """
set datafile separator ","
set terminal pngcairo size 900,480 noenhanced
set style data histograms
set style histogram clustered
set style fill solid 0.8
set yrange [0:*]
set xtics rotate by -30
set key top right
set output "{o}/bench-throughput.png"
set title "iperf3 TCP (Gbit/s received)"
plot "{c}" every ::1 using 3:xtic(1) title "1 stream", "" every ::1 using 4 title "8 streams"
set output "{o}/bench-pps.png"
set title "pktgen UDP, frames received (kpps)"
plot "{c}" every ::1 using 5:xtic(1) title "64 B", "" every ::1 using 6 title "1518 B"
set output "{o}/bench-working-set.png"
set title "I/O working set after the 1518 B run (distinct buffers among the NIC's last writes)"
set key off
plot "{c}" every ::1 using 12:xtic(1) title "io_ws_buffers"
set datafile separator whitespace
set style data linespoints
unset xtics
set xtics
set key outside right
set yrange [0:105]
set ylabel "non-target datagrams delivered (%)"
set output "{o}/sweep-work.png"
set title "Processing variability (rxBisect paper Fig. 14)"
set xlabel "target queue's extra work (random cache-line touches per packet)"
set logscale x 2
plot for [m in "{ms}"] sprintf("{o}/sweep-work-%s.dat", m) using 1:2 title m
unset logscale x
set output "{o}/sweep-share.png"
set title "Traffic variability (rxBisect paper Fig. 15)"
set xlabel "target queue's share of the datagrams (%)"
plot for [m in "{ms}"] sprintf("{o}/sweep-share-%s.dat", m) using 1:2 title m
""".format(o=outdir, c=csvf, ms=ms)
    r = subprocess.run(["gnuplot"], input=gp, text=True, capture_output=True)
    if r.returncode:
        print("gnuplot failed: %s" % r.stderr.strip(), file=sys.stderr)
    else:
        print("Plots: bench-throughput.png bench-pps.png bench-working-set.png "
              "sweep-work.png sweep-share.png")


def main():
    outdir = sys.argv[1]
    rows = list(csv.DictReader(open(os.path.join(outdir, "bench.csv"))))
    env = os.path.join(outdir, "env.txt")
    if os.path.exists(env):
        for line in open(env):
            print("    " + line.rstrip())
        print()
    main_table(rows)
    sw = os.path.join(outdir, "sweep.csv")
    models = []
    if os.path.exists(sw):
        models = sweep_tables(list(csv.DictReader(open(sw))), outdir)
    plots(outdir, models)


if __name__ == "__main__":
    main()
