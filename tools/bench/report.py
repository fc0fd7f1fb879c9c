#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tables and plots of a tools/bench/bench_all.sh run.

  report.py DIR

Reads DIR/bench.csv and DIR/sweep.csv (one row per model and repetition:
bench_all.sh runs the grid REPS times, the models interleaved), prints the
markdown tables and writes DIR/bench-summary.csv and DIR/sweep-summary.csv.

Every cell is the median over the repetitions and its spread, printed as
"median (min–max)" (just the value when all repetitions agree).  A ratio
to privring is median(model) / median(privring) with the range
min(model) / max(privring) to max(model) / min(privring); a ratio whose
range includes 1.0 is marked "~", within noise: the repetitions do not
tell the model from privring.  Ratios to veth are medians only (veth is
the anchor, not a contender).

With gnuplot installed it also draws DIR/bench-throughput.png,
bench-pps.png, bench-working-set.png (medians, min-max as error bars),
sweep-work.png (the rxBisect paper's Fig. 14) and sweep-share.png
(Fig. 15), from medians.  Can be re-run on a copied results directory.
"""
import csv
import os
import shutil
import statistics
import subprocess
import sys

NOISE = "~"

COLS = [("tcp1_gbps", "TCP 1 (Gbit/s)"), ("tcp8_gbps", "TCP 8 (Gbit/s)"),
        ("udp64_kpps", "UDP 64 B (kpps)"), ("udp1500_kpps", "UDP 1518 B (kpps)"),
        ("kernel_ns_pkt", "kernel ns/pkt"), ("softirq_ns_pkt", "softirq ns/pkt"),
        ("lat_p50_us", "p50 (us)"), ("lat_p99_us", "p99 (us)"),
        ("lat_p999_us", "p99.9 (us)"), ("io_ws_buffers", "I/O WS (buffers)"),
        ("io_ws_peak", "WS peak"), ("nobuf_drops", "nobuf drops")]
RCOLS = [("tcp1_gbps", "TCP 1"), ("tcp8_gbps", "TCP 8"), ("udp64_kpps", "UDP 64 B"),
         ("udp1500_kpps", "UDP 1518 B"), ("kernel_ns_pkt", "kernel ns/pkt"),
         ("lat_p99_us", "p99"), ("io_ws_buffers", "I/O WS")]


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def decimals(strs):
    """The most decimals among the raw values, to print medians alike."""
    d = 0
    for s in strs:
        if s and "." in s and num(s) is not None:
            d = max(d, len(s.split(".", 1)[1]))
    return d


class Stat:
    """Median and spread of one cell's repetitions."""

    def __init__(self, raw):
        self.raw = [s for s in raw if num(s) is not None]
        vals = [num(s) for s in self.raw]
        self.n = len(vals)
        self.dec = decimals(self.raw)
        if vals:
            self.med = statistics.median(vals)
            self.lo, self.hi = min(vals), max(vals)
        else:
            self.med = self.lo = self.hi = None

    def fmt(self, x):
        return "%.*f" % (self.dec, x)

    def __str__(self):
        if self.med is None:
            return "-"
        if self.lo == self.hi:
            return self.fmt(self.med)
        return "%s (%s–%s)" % (self.fmt(self.med), self.fmt(self.lo), self.fmt(self.hi))


class Ratio:
    """model / base: the ratio of the medians and the range of the runs."""

    def __init__(self, a, b):
        self.r = self.lo = self.hi = None
        if a.med is None or b.med is None or not b.med or not b.lo:
            return
        self.r = a.med / b.med
        self.lo = a.lo / b.hi
        self.hi = a.hi / b.lo
        self.noise = self.lo <= 1.0 <= self.hi

    def short(self):
        return "-" if self.r is None else "%.2f" % self.r

    def __str__(self):
        if self.r is None:
            return "-"
        if "%.2f" % self.lo == "%.2f" % self.hi:
            s = "%.2f" % self.r
        else:
            s = "%.2f (%.2f–%.2f)" % (self.r, self.lo, self.hi)
        return s + (NOISE if self.noise else "")


def complete_reps(rows, what):
    """Only the repetitions that ran as many rows as the fullest one: a
    run cut short (VM timeout, stopped by hand) leaves its last repetition
    with some models only, and keeping it would weigh those models'
    share of the run differently from the others'."""
    per = {}
    for r in rows:
        per[r.get("rep")] = per.get(r.get("rep"), 0) + 1
    if not per:
        return rows
    full = max(per.values())
    cut = sorted((k for k, v in per.items() if v < full), key=lambda x: num(x) or 0)
    if cut:
        print("(%s: repetition %s incomplete, left out)" % (what, ", ".join(cut)))
        print()
    return [r for r in rows if per[r.get("rep")] == full]


def order(rows):
    models = []
    for r in rows:
        if r["model"] not in models:
            models.append(r["model"])
    return models


def bench_stats(rows):
    """{model: {column: Stat}} over the repetitions that ran (status ok)."""
    st = {}
    for m in order(rows):
        ok = [r for r in rows if r["model"] == m and r["status"] == "ok"]
        if ok:
            st[m] = {c: Stat([r.get(c) for r in ok]) for c, _ in COLS}
            st[m]["runs"] = len(ok)
    return st


def main_table(rows, outdir):
    models = order(rows)
    st = bench_stats(rows)
    reps = sorted({r.get("rep") for r in rows if r.get("rep")}, key=lambda x: num(x) or 0)
    pr, ve = st.get("privring"), st.get("veth")
    print("Each cell: median (min–max) over the repetitions (%d, the models "
          "interleaved); one value when all agree." % len(reps))
    print()
    print("| model | runs | " + " | ".join(c[1] for c in COLS) + " |")
    print("|---" * (len(COLS) + 2) + "|")
    for m in models:
        if m not in st:
            print("| %s | 0 | %s |" % (m, " | ".join(["skipped"] + ["-"] * (len(COLS) - 1))))
            continue
        print("| %s | %d | %s |" % (m, st[m]["runs"], " | ".join(str(st[m][c]) for c, _ in COLS)))
    print()
    print("Ratios to privring (higher is better for throughput, lower for "
          "ns/pkt, latency and working set): median(model) / median(privring), "
          "in brackets min(model)/max(privring) to max(model)/min(privring); "
          "%s: within noise, that range includes 1.0." % NOISE)
    print()
    print("| model | " + " | ".join("%s vs privring" % c[1] for c in RCOLS) + " |")
    print("|---" * (len(RCOLS) + 1) + "|")
    summary = []
    for m in models:
        if m not in st:
            continue
        cells = []
        for c, _ in RCOLS:
            if m == "privring":
                cells.append("1.00" if pr[c].med else "-")
            else:
                cells.append(str(Ratio(st[m][c], pr[c])) if pr else "-")
        print("| %s | %s |" % (m, " | ".join(cells)))
        for c, _ in COLS:
            s = st[m][c]
            rt = Ratio(s, pr[c]) if pr and m != "privring" else None
            summary.append([m, c, s.n,
                            "" if s.med is None else s.fmt(s.med),
                            "" if s.med is None else s.fmt(s.lo),
                            "" if s.med is None else s.fmt(s.hi)] +
                           (["%.3f" % rt.r, "%.3f" % rt.lo, "%.3f" % rt.hi, int(rt.noise)]
                            if rt and rt.r is not None else ["", "", "", ""]))
    print()
    if ve:
        print("Ratios to veth (medians):")
        print()
        print("| model | " + " | ".join("%s vs veth" % c[1] for c in RCOLS[:-1]) + " |")
        print("|---" * len(RCOLS) + "|")
        for m in models:
            if m in st:
                print("| %s | %s |" % (m, " | ".join(Ratio(st[m][c], ve[c]).short()
                                                     for c, _ in RCOLS[:-1])))
        print()
    with open(os.path.join(outdir, "bench-summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["model", "metric", "n", "median", "min", "max", "ratio_privring",
                    "ratio_lo", "ratio_hi", "within_noise"])
        w.writerows(summary)
    with open(os.path.join(outdir, "bench-plot.dat"), "w") as f:
        for m in models:
            if m not in st:
                continue
            vals = []
            for c, _ in COLS:
                s = st[m][c]
                vals += ["-", "-", "-"] if s.med is None else [s.fmt(s.med), s.fmt(s.lo), s.fmt(s.hi)]
            f.write("%s %s\n" % (m, " ".join(vals)))
    return models


def sweep_tables(srows, outdir):
    models = order(srows)
    summary = []
    for kind, xcol, title in (("work", "work", "target work (touches/pkt)"),
                              ("share", "share_pct", "target share (%)")):
        pts = [r for r in srows if r["sweep"] == kind]
        if not pts:
            continue
        xs = []
        for r in pts:
            if r[xcol] not in xs:
                xs.append(r[xcol])
        other, target = {}, {}
        for m in models:
            for x in xs:
                here = [r for r in pts if r["model"] == m and r[xcol] == x]
                if here:
                    other[m, x] = Stat([r["other_deliv_pct"] for r in here])
                    target[m, x] = Stat([r["target_deliv_pct"] for r in here])
        if kind == "work":
            print("Work sweep (rxBisect paper Fig. 14): non-target datagrams delivered "
                  "(%%, median (min–max)), target delivered in square brackets (median); "
                  "target share %s %%." % pts[0]["share_pct"])
        else:
            print("Share sweep (rxBisect paper Fig. 15): non-target datagrams delivered "
                  "(%%, median (min–max)), target delivered in square brackets (median); "
                  "the target queue does %s touches/pkt." % pts[0]["work"])
        print()
        print("| %s | %s |" % (title, " | ".join(models)))
        print("|---" * (len(models) + 1) + "|")
        for x in xs:
            cells = []
            for m in models:
                o, t = other.get((m, x)), target.get((m, x))
                cells.append("%s [%s]" % (o, t.fmt(t.med) if t.med is not None else "-")
                             if o else "-")
            print("| %s | %s |" % (x, " | ".join(cells)))
        print()
        rest = [m for m in models if m != "privring"]
        if "privring" in models and rest:
            print("Non-target delivered, ratio to privring (%s: within noise):" % NOISE)
            print()
            print("| %s | %s |" % (title, " | ".join("%s vs privring" % m for m in rest)))
            print("|---" * (len(rest) + 1) + "|")
            for x in xs:
                p = other.get(("privring", x))
                cells = [str(Ratio(other[m, x], p)) if p and (m, x) in other else "-"
                         for m in rest]
                print("| %s | %s |" % (x, " | ".join(cells)))
            print()
        rates = [num(r.get("pps_sent")) for r in pts if num(r.get("pps_sent"))]
        if rates:
            print("Rate the sender achieved: %.0f to %.0f datagrams/s." % (min(rates), max(rates)))
            print()
        for m in models:
            with open(os.path.join(outdir, "sweep-%s-%s.dat" % (kind, m)), "w") as f:
                for x in xs:
                    o, t = other.get((m, x)), target.get((m, x))
                    if o and o.med is not None:
                        f.write("%s %s %s %s %s\n" % (x, o.fmt(o.med), t.fmt(t.med)
                                                      if t.med is not None else "-",
                                                      o.fmt(o.lo), o.fmt(o.hi)))
                    if not o:
                        continue
                    p = other.get(("privring", x))
                    rt = Ratio(o, p) if p and m != "privring" else None
                    summary.append([m, kind, x, o.n] +
                                   (["", "", ""] if o.med is None else
                                    [o.fmt(o.med), o.fmt(o.lo), o.fmt(o.hi)]) +
                                   (["", "", ""] if t.med is None else
                                    [t.fmt(t.med), t.fmt(t.lo), t.fmt(t.hi)]) +
                                   (["%.3f" % rt.r, "%.3f" % rt.lo, "%.3f" % rt.hi, int(rt.noise)]
                                    if rt and rt.r is not None else ["", "", "", ""]))
    with open(os.path.join(outdir, "sweep-summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["model", "sweep", "x", "n", "other_median", "other_min", "other_max",
                    "target_median", "target_min", "target_max", "ratio_privring",
                    "ratio_lo", "ratio_hi", "within_noise"])
        w.writerows(summary)
    return models


def plots(outdir, models, sweeps):
    if not shutil.which("gnuplot"):
        print("(no gnuplot: apt-get install gnuplot-nox for the plots)", file=sys.stderr)
        return
    dat = os.path.join(outdir, "bench-plot.dat")
    ms = " ".join(models)
    # bench-plot.dat: model, then median min max of each of COLS in turn
    col = {c: 2 + 3 * i for i, (c, _) in enumerate(COLS)}
    gp = """
set terminal pngcairo size 900,480 noenhanced
set datafile missing "-"
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.8
set yrange [0:*]
set xtics rotate by -30
set key top right
set output "{o}/bench-throughput.png"
set title "iperf3 TCP (Gbit/s received; median, min-max)"
plot "{d}" using {t1}:{t1l}:{t1h}:xtic(1) title "1 stream", "" using {t8}:{t8l}:{t8h} title "8 streams"
set output "{o}/bench-pps.png"
set title "pktgen UDP, frames received (kpps; median, min-max)"
plot "{d}" using {u6}:{u6l}:{u6h}:xtic(1) title "64 B", "" using {u15}:{u15l}:{u15h} title "1518 B"
set output "{o}/bench-working-set.png"
set title "I/O working set after the 1518 B run (distinct buffers among the NIC's last writes)"
set key off
plot "{d}" using {ws}:{wsl}:{wsh}:xtic(1) title "io_ws_buffers"
{sw}set style data linespoints
unset xtics
set xtics
set key outside right
set yrange [0:105]
set ylabel "non-target datagrams delivered (%, median)"
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
""".format(o=outdir, d=dat, ms=ms, sw="" if sweeps else "exit\n",
           t1=col["tcp1_gbps"], t1l=col["tcp1_gbps"] + 1, t1h=col["tcp1_gbps"] + 2,
           t8=col["tcp8_gbps"], t8l=col["tcp8_gbps"] + 1, t8h=col["tcp8_gbps"] + 2,
           u6=col["udp64_kpps"], u6l=col["udp64_kpps"] + 1, u6h=col["udp64_kpps"] + 2,
           u15=col["udp1500_kpps"], u15l=col["udp1500_kpps"] + 1,
           u15h=col["udp1500_kpps"] + 2,
           ws=col["io_ws_buffers"], wsl=col["io_ws_buffers"] + 1,
           wsh=col["io_ws_buffers"] + 2)
    r = subprocess.run(["gnuplot"], input=gp, text=True, capture_output=True)
    if r.returncode:
        print("gnuplot failed: %s" % r.stderr.strip(), file=sys.stderr)
    else:
        print("Plots: bench-throughput.png bench-pps.png bench-working-set.png%s"
              % (" sweep-work.png sweep-share.png" if sweeps else ""))


def main():
    outdir = sys.argv[1]
    with open(os.path.join(outdir, "bench.csv")) as f:
        rows = list(csv.DictReader(f))
    env = os.path.join(outdir, "env.txt")
    if os.path.exists(env):
        with open(env) as f:
            for line in f:
                print("    " + line.rstrip())
        print()
    rows = complete_reps(rows, "bench.csv")
    models = main_table(rows, outdir)
    sw = os.path.join(outdir, "sweep.csv")
    srows = []
    if os.path.exists(sw):
        with open(sw) as f:
            srows = complete_reps(list(csv.DictReader(f)), "sweep.csv")
        if srows:
            models = sweep_tables(srows, outdir)
    plots(outdir, models, bool(srows))


if __name__ == "__main__":
    main()
