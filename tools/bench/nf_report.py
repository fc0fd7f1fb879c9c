#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The table of a tools/bench/nf_bench.sh run.

  nf_report.py NF.CSV

Per NF and model: forwarded Mpps as "median (min–max)" over the
repetitions (report.py's Stat), the ratio to privring taken within each
repetition (model / privring of the same repetition: under TCG the host's
slow phases hit both alike) as median (min–max), marked "~" when that
range includes 1.0, and the drops by cause (medians per repetition, the
causes that occurred).  Draws NF.CSV's directory's nf-<NF>.png (forwarded
Mpps per model, medians) and, for COREC's scale-up run, corec-scale.png
(corec:N against privring:1 beside the paper's Table 2), with matplotlib,
else gnuplot (paper_report.py's plot(); neither: said once).
"""
import csv
import os
import statistics
import sys

# report.py beside it; no __pycache__ in the tree
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import Stat, num  # noqa: E402
from paper_report import plot  # noqa: E402

# COREC's Table 2, l3fwd on the local node: consumers -> x DPDK
COREC_T2 = [(1, 1.08), (2, 1.61), (3, 2.15), (4, 2.29)]

CAUSES = ["malformed", "frag", "no_route", "ttl_expired", "conn_map_full",
          "no_backend", "no_port", "nic_drops"]


def main():
    rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "ok"]
    nfs, models = [], []
    for r in rows:
        if r["nf"] not in nfs:
            nfs.append(r["nf"])
        if r["model"] not in models:
            models.append(r["model"])
    # the baseline: privring, or privring with a queue count (privring:N)
    # where the run has no plain one (COREC_SCALE=1: privring:1)
    baseline = "privring" if "privring" in models else \
        next((m for m in models if m.startswith("privring:")), "privring")
    print("| NF | model | Mpps | rx Mpps | vs %s (per run) | drops by cause "
          "(median per run) |" % baseline)
    print("|---|---|---|---|---|---|")
    scale, bars = {}, {}
    for nf in nfs:
        base = {r["rep"]: num(r["mpps"]) for r in rows
                if r["nf"] == nf and r["model"] == baseline}
        for m in models:
            mine = [r for r in rows if r["nf"] == nf and r["model"] == m]
            if not mine:
                continue
            ratios = [num(r["mpps"]) / base[r["rep"]] for r in mine
                      if base.get(r["rep"]) and num(r["mpps"]) is not None]
            if ratios:
                lo, hi, med = min(ratios), max(ratios), statistics.median(ratios)
                rs = "%.2f" % med if "%.2f" % lo == "%.2f" % hi else \
                    "%.2f (%.2f–%.2f)" % (med, lo, hi)
                rs += "~" if lo <= 1.0 <= hi and m != baseline else ""
            else:
                rs = "-"
            drops = []
            for c in CAUSES:
                v = statistics.median([num(r[c]) or 0 for r in mine])
                if v:
                    drops.append("%s %d" % (c, v))
            print("| %s | %s | %s | %s | %s | %s |" % (
                nf, m, Stat([r["mpps"] for r in mine]), Stat([r["rx_mpps"] for r in mine]),
                rs, ", ".join(drops) or "0"))
            if m.startswith("corec:") and ratios:
                scale.setdefault(nf, []).append((int(m[6:]), statistics.median(ratios)))
            mpps = [num(r["mpps"]) for r in mine if num(r["mpps"]) is not None]
            if mpps:
                bars.setdefault(nf, []).append((len(bars.get(nf, [])) + 1,
                                                statistics.median(mpps), m))
    print()
    print("%d repetitions; ratios: model / %s within a repetition; "
          "~: the range includes 1.0 (within noise)" %
          (len({r["rep"] for r in rows}), baseline))
    if any(m.startswith("corec:") for m in models):
        print()
        print("COREC paper, Table 2 (l3fwd, 64 B, XL710, same NUMA node; "
              "against DPDK with one thread per queue): 1 core 1.08x, "
              "2 cores 1.61x, 3 cores 2.15x, 4 cores 2.29x (NIC-bound at "
              "37 Mpps); remote node 1.03x, 1.70x, 2.43x, 2.92x.  corec:N: "
              "N consumers of one queue; privring:1: one queue, one core.")
    out = os.path.dirname(os.path.abspath(sys.argv[1]))
    pngs = []
    for nf, pts in bars.items():
        pngs.append(plot(out, "nf-" + nf, "%s: forwarded Mpps per model (%s)" % (
            nf, ", ".join("%d %s" % (i, m) for i, _, m in pts)),
            "model (numbered as in the title)", "Mpps",
            {nf: [(i, v) for i, v, _ in pts]}))
    for nf, pts in scale.items():
        pngs.append(plot(out, "corec-scale", "%s: corec:N against privring:1" % nf,
                         "consumers of one queue", "x privring:1",
                         {"rxbisect corec": sorted(pts), "COREC paper (Table 2)": COREC_T2}))
    pngs = [p for p in pngs if p]
    print()
    print("plots: " + " ".join(os.path.basename(p) for p in pngs) if pngs else
          "no plots: apt-get install python3-matplotlib (or gnuplot-nox)")


if __name__ == "__main__":
    main()
