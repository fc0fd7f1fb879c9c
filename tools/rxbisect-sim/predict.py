#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""predict.py: the seeds' figures as rxbisect-sim predicts them.

Prints three reStructuredText tables (Documentation/simulator.rst,
"Calibration and prediction"):

  1. prediction: for each figure or table of the thesis, the rxBisect
     paper, COREC, CEIO and Enso that the simulator can address, the value
     the paper states, the simulator's, their ratio and the verdict: a
     ratio within 1.5x is a hit; a bound or claim ("never above", "up to",
     "below", a range) holds or not; rows whose two runs both carry the
     whole offered load are counted apart (trivial); the calibration row
     is not counted.  A tally follows.
  2. workloads: each experiment's settings and their source.
  3. sensitivity: the three headlines with each free parameter at -20 %
     and +20 %: does the winner stay?

Calibration: the defaults of opts.c are the testbed (Xeon Silver 4216,
2.1 GHz, 16 cores, 22 MiB 11-way LLC with 2 DDIO ways, 2 x 100 Gbps,
1500 B) and measured or published costs; the one parameter fitted to a
figure is --cycles, the NF's base work per packet, to Table 2 of the
rxBisect paper (LB on non-emulated privRing, Rx 1 Ki: 162 Gbps); it is
opts.c's default, so the experiments run the same NF.  --calibrate
redoes the fit by bisection.  Every other row is a prediction.  Every
run but an RFC 2544 trial starts stalled (STALL below).

Usage: predict.py [--packets N] [--jobs N] [--quick] [--no-sensitivity]
                  [--calibrate] [--sim PATH]
Runtime at the defaults: about 200 runs of --packets (600000) for the
prediction, 400 of half that for the sensitivity: some 10 minutes of CPU
(20-30 of wall time with --jobs 2 on a loaded 2-core machine).  --quick:
three rows and one parameter of one headline with 20000 packets, a few
seconds (make check runs it: that the tables are well-formed).
"""
import argparse
import concurrent.futures
import csv
import io
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Fitted to the paper's Table 2 (privRing LB, 162 Gbps): see --calibrate.
# The same value is opts.c's --cycles default.
CAL_CYCLES = 1138
# Every run but an RFC 2544 trial (ndr()) starts with the cores stalled
# until STALL of its packets arrived, so that the rings are full when they
# begin (16 rings of 1 Ki entries hold 2.7 % of 600000 packets, 5.5 % of
# the sensitivity grid's 300000):
# where a model has two stable states, a near-empty ring and a full one
# whose packets left the LLC before the core reads them (thesis 4.1: "a
# core that falls behind fills its ring"), the run ends in the one a real
# core reaches after any stall, not in the one only a core that never
# stalls keeps.  WARMUP covers the stall and the drain that follows.
STALL = 0.05
WARMUP = 0.5
CAL_TARGET_GBPS = 162.0
HIT = 1.5

args = None
cache = {}


def run1(argv):
    p = subprocess.run(argv, capture_output=True, text=True, check=False)
    if p.returncode not in (0, 1) or not p.stdout.strip():
        raise RuntimeError("%s: %s" % (" ".join(argv), p.stderr.strip()))
    row = list(csv.DictReader(io.StringIO(p.stdout)))[0]
    res = {}
    for k, v in row.items():
        try:
            res[k] = float(v)
        except (TypeError, ValueError):
            res[k] = v
    return res


def sim(opts, packets=None):
    """One run; its metrics as a dict (numbers as floats; cached).

    A run that delivers more than it was offered still drains the
    stall's backlog: it runs again with two and then four times the
    packets, the stall as many packets as before, measured later."""
    pk = packets or args.packets
    o = dict(opts)
    o.setdefault("cycles", args.cycles)
    o.setdefault("warmup", WARMUP)
    stall = o.pop("start-stall", STALL)
    key = (pk, stall) + tuple(sorted(o.items()))
    if key in cache:
        return cache[key]
    for grow in (1, 2, 4):
        argv = [args.sim, "--packets", str(pk * grow), "--csv",
                "--start-stall", str(stall / grow)]
        for k, v in sorted(o.items()):
            argv += ["--" + k, str(v)]
        res = run1(argv)
        if res.get("gbps", 0) <= res.get("offered_gbps", 0) * 1.002:
            break
        print("# draining: %s" % " ".join(argv[1:]), file=sys.stderr)
    cache[key] = res
    return res


def pmap(fn, items):
    """fn over items, --jobs at a time (the runs are subprocesses)."""
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        return list(ex.map(fn, items))


def m(*dicts):
    out = {}
    for d in dicts:
        out.update(d)
    return out


# ---- the workloads (their sources: the WORKLOADS table below) ------------

# The NFs read the headers (the first line) and rewrite them: --touch-lines 1
# --rewrite (opts.c defaults).
SYN = {"app-accesses": 2, "app-mem": "40M"}          # thesis 5.2.2, Fig. 5.7
LB = {"app-accesses": 2, "app-mem": "640M"}          # thesis 5.2.2 "NAT and LB"
NAT = {"app-accesses": 4, "app-mem": "1280M"}
L3FWD = {"cycles": 128, "app-accesses": 0}           # COREC Table 2, DPDK
# COREC Table 3: DPDK ipsec-secgw, 5.04 Mpps on one 2.1 GHz core, so
# 2.1e9 / 5.04e6 = 417 cycles a packet all in (as l3fwd's 128 is
# 2.1e9 / 16.43e6); its forward/drop/encrypt mix is not modelled apart.
IPSEC = {"cycles": 417, "app-accesses": 0}
PRIV = {"model": "privring", "ring": 1024}
SMALL = {"model": "privring", "ring": 128}
SHR = {"model": "shring", "ring": 1024, "share": 8}
RXB = {"model": "rxbisect", "ring": 1024, "ax": 128}
LIST = {"model": "shring-list", "ring": 1024, "share": 8}
# Batched RxList: a descriptor's buffer holds four 1500 B packets, the
# batch of the thesis's Fig. 5.2b (6 KiB; 4 KiB, a page, holds two).
BAT = {"model": "shring-batched", "ring": 1024, "share": 8, "buf-stride": 6144}
# One NIC, 8 cores, every packet to one core (thesis 4.2.2, 5.2.2 No-Drop).
NDR1 = {"cores": 8, "ports": 1, "target": 0, "target-share": 1}
# One flow on one NIC, 4 cores (paper 6.2, Fig. 12).
FLOW1 = {"cores": 4, "ports": 1, "flows": 1}
# One core per NIC gets 1 Gbps and reads more (paper Fig. 14, thesis 5.10).
SLOW = {"target": 0, "target-share": 0.01}
SLOW_ACC = 800
# A share of 64 B packets to one core per NIC (paper Fig. 15, thesis 5.11).
FLOOD = {"target": 0, "target-pkt-size": 64}
LOW = {"load": 0.005}                                # 1 Gbps of 200
# COREC: one XL710 40 GbE port, 64 B, l3fwd, one shared queue.
COREC = {"ports": 1, "link-gbps": 40, "pkt-size": 64, "nic-mpps": 37.7}
# CEIO: one BlueField-3 200 GbE, 8 flows a core each, 12 MB LLC, 6 DDIO
# ways, PCIe 5.0 x16, 8 DDR4-3200 channels, 2.8 GHz.
CEIO = {"ports": 1, "cores": 8, "link-gbps": 200, "llc": "12M",
        "llc-ways": 12, "ddio-ways": 6, "pcie-gbps": 504, "ghz": 2.8,
        "mem-gbs": 55 * 8 * 3200 / (4 * 2400), "touch-lines": 0,
        "app-accesses": 0}
# Enso: one core, one 100 GbE port, 64 B echo, 3.1 GHz, 22 MB LLC.  The
# echo "increment[s] a value in each packet's payload" (Enso 7.2.1): the
# line's read and write are --touch-lines 1 --rewrite, the add one cycle.
# (The E810's 52 cycles a packet are its whole cost, driver included; as
# the NF's own work they would cap Enso at 59.6 Mpps, not 148.8.)
ENSO = {"ports": 1, "cores": 1, "pkt-size": 64, "ghz": 3.1,
        "app-accesses": 0, "cycles": 1}

WORKLOADS = [
    ("every row", "testbed",
     "thesis 5.2.1: Xeon Silver 4216 2.1 GHz, 16 cores, 22 MiB 11-way LLC, "
     "2 DDIO ways, 2 x 100 GbE, 1 Ki Rx and Tx rings, 1500 B at 200 Gbps"),
    ("every row but NDR", "--start-stall 0.05 --warmup 0.5",
     "thesis 4.1 and Fig. 5.7: a core that falls behind fills its ring, and "
     "the thesis measured that state (94 %); RFC 2544 trials start idle"),
    ("NFs", "--touch-lines 1 --rewrite",
     "thesis 5.2.2: NAT/LB rewrite headers; WorkPackage routes, the payload "
     "untouched unless stated"),
    ("Fig. 5.4-5.7, 5.10-5.11, 14-15", "SYN: 2 accesses in 40 MiB",
     "thesis 5.2.2 Cycle Breakdown, paper 6.2"),
    ("Table 2, T1.5, Fig. 5.6", "LB: 2 accesses in 640 MiB; NAT: 4 in 1280 MiB",
     "thesis 5.2.2: 10 M flows in per-core cuckoo tables, LB one entry a "
     "flow, NAT two; a new flow (random 5-tuples) reads both of its key's "
     "buckets (DPDK rte_hash: primary and secondary); 64 B an entry "
     "(assumption, beyond the LLC either way)"),
    ("Fig. 4.4, 5.8, 9, 12, COREC", "l3fwd: --cycles 128, no accesses",
     "COREC Table 2: DPDK l3fwd 16.43 Mpps on one 2.1 GHz Silver 4110 core"),
    ("Fig. 4.4, 5.8, 9", "NDR: 8 cores, 1 NIC, all to one core",
     "thesis 4.2.2/5.2.2 (RFC 2544 no-drop rate, bisected on --load)"),
    ("Fig. 12", "NDR: 4 cores, 1 NIC, one flow", "paper 6.2"),
    ("Fig. 5.10, 14", "1 Gbps to one core a NIC, 800 more accesses",
     "paper 6.2 (1 Gbps); the accesses are not stated: the grid "
     "(target-accesses)"),
    ("Fig. 5.11, 15", "64 B to one core a NIC, 5 % and 30 %",
     "paper 6.2 / thesis 5.2.3"),
    ("Fig. 18 / ch. 6", "1 Gbps of 200", "thesis 6.3 Low load"),
    ("COREC", "1 port 40 GbE, 64 B, l3fwd, NIC 37.7 Mpps",
     "COREC 4: XL710, 'about 37 Mpps' (datasheet), one queue"),
    ("COREC T3", "ipsec: --cycles 417, no accesses",
     "COREC Table 3: DPDK ipsec-secgw 5.04 Mpps on one 2.1 GHz core "
     "(2.1e9 / 5.04e6)"),
    ("CEIO", "8 cores, 200 GbE, 12 MB LLC 6 DDIO ways, PCIe 5.0, "
     "2.8 GHz, 512 B, payload read",
     "CEIO 6.1; the NF's cycles are not stated (the grid); DRAM scaled "
     "from the testbed's 55 GB/s by channels x rate"),
    ("Enso", "1 core, 100 GbE, 64 B echo, 3.1 GHz, --cycles 1",
     "Enso 7, 7.2.1: i9-9960X; the echo increments a value in the "
     "payload (one line read and written, one add)"),
    ("§5.1.4 batched", "--buf-stride 6144: four 1500 B packets a "
     "descriptor", "thesis Fig. 5.2b: 'the batch size is 4'"),
]


def ratio(a, b, metric="gbps", pk=None):
    x, y = sim(a, pk)[metric], sim(b, pk)[metric]
    return x / y if y else float("nan")


def full(r):
    """Did the run carry the whole offered load (nothing to tell apart)?"""
    return r["drop_pct"] < 0.05


def tput_ratio(a, b):
    """Throughput ratio; trivial when both carry everything offered."""
    ra, rb = sim(a), sim(b)
    v = ra["gbps"] / rb["gbps"] if rb["gbps"] else float("nan")
    return v, ("both at the offered load" if full(ra) and full(rb) else None)


def r_fig2(metric, agg):
    rs = [sim(m(PRIV, LB, {"ring": R})) for R in (64, 128, 256, 512, 1024, 2048)]
    vals = [x[metric] for x in rs]
    return agg(vals) / vals[0]


def r_cores(pkt):
    best, arg = -1, 0
    for n in (4, 8, 12, 16):
        g = sim(m(PRIV, LB, {"cores": n, "pkt-size": pkt}))["gbps"]
        if g > best * 1.01:
            best, arg = g, n
    return arg


def ndr(opts, lo=0.01, hi=1.0, steps=7):
    """RFC 2544 no-drop rate: the highest --load that drops nothing.

    Returns (Gbps, whether the line rate itself drops nothing).  A trial
    starts from an idle DUT: no stall."""
    opts = m(opts, {"start-stall": 0, "warmup": 0.2})
    r = sim(m(opts, {"load": 1}), args.packets // 2)
    if r["drop_pct"] == 0:
        return r["gbps"], True
    best = 0.0
    for _ in range(steps):
        mid = (lo + hi) / 2
        r = sim(m(opts, {"load": round(mid, 4)}), args.packets // 2)
        if r["drop_pct"] == 0:
            best, lo = r["gbps"], mid
        else:
            hi = mid
    return best, False


def ndr_ratio(a, b):
    (x, fx), (y, fy) = ndr(a), ndr(b)
    return (x / y if y else float("nan"),
            "both NDRs at the line rate" if fx and fy else None)


def configs_won():
    wins = n = 0
    for acc in (1, 4, 12):
        for mem in ("1M", "40M"):
            for tl in (1, 0):
                o = {"app-accesses": acc, "app-mem": mem, "touch-lines": tl}
                wins += sim(m(SHR, o))["gbps"] >= sim(m(PRIV, o))["gbps"]
                n += 1
    return wins / n


def up_to(fn, xs):
    return max(fn(x) for x in xs)


def app_hit_ratio(acc):
    return ratio(m(SHR, SYN, {"app-accesses": acc}),
                 m(PRIV, SYN, {"app-accesses": acc}), "app_hit")


def alloc_pct():
    r = sim(m(RXB, SYN, FLOOD, {"target-share": 0.31}))
    return 100 * r["allocs"] * 0.25 * 2.1 / r["cyc_pkt"]


def corec(n, nf=None):
    return sim(m(COREC, nf or L3FWD, {"model": "corec", "cores": n}))["mpps"]


def dpdk1(nf=None):
    return sim(m(COREC, nf or L3FWD, PRIV, {"cores": 1}))["mpps"]


def ceio_speedup():
    return up_to(lambda pk: ratio(
        m(CEIO, {"model": "ceio", "ring": 1024, "ceio-fetch": "async",
                 "pkt-size": pk}),
        m(CEIO, PRIV, {"pkt-size": pk})), (128, 512, 1024))


def ceio_miss(model):
    o = m(CEIO, {"pkt-size": 512}, {"model": model, "ring": 1024},
          {"ceio-fetch": "async"} if model == "ceio" else {})
    return 100 - sim(o)["cpu_hit"]


# (source, quantity, paper, unit, function, kind, note)
# kind: "ratio" (within 1.5x is a hit), "le"/"ge" (a bound: never above,
# at least), "range" (paper is (lo, hi)), "cal" (the calibration), "na".
ROWS = [
    ("Fig. 2a / 4.2", "privRing throughput, worst R / R=64", 0.80, "x",
     lambda: r_fig2("gbps", min), "ratio", "LB, R = 64 .. 2 Ki"),
    ("Fig. 2a / 4.2", "line rate holds to R=128: R=128 / R=64", 1.0, "x",
     lambda: tput_ratio(m(PRIV, LB, {"ring": 128}), m(PRIV, LB, {"ring": 64})),
     "ratio", ""),
    ("Fig. 2b / 4.2", "privRing latency, worst R / R=64", 37, "x",
     lambda: r_fig2("lat_mean_us", max), "ratio", ""),
    ("Fig. 2c / 4.2", "privRing memory bandwidth, worst R / R=64", 4.9, "x",
     lambda: r_fig2("mem_gbs", max), "ratio", "up to"),
    ("Fig. 3 / 4.3", "cores at peak throughput, 1500 B", 12, "cores",
     lambda: r_cores(1500), "ratio", ""),
    ("Fig. 3 / 4.3", "cores at peak throughput, 64 B", 16, "cores",
     lambda: r_cores(64), "ratio", ""),
    ("Fig. 4.4 / 5.8", "one core NDR: 1 Ki / 128", 2.0, "x",
     lambda: ndr_ratio(m(PRIV, L3FWD, NDR1), m(SMALL, L3FWD, NDR1)),
     "ratio", "RFC 2544 NDR"),
    ("Fig. 9 / 5.8", "one core NDR: rxBisect / 1 Ki privRing", 1.0, "x",
     lambda: ndr_ratio(m(RXB, L3FWD, NDR1), m(PRIV, L3FWD, NDR1)),
     "claim", "'match 1 Ki privRing'"),
    ("Fig. 9 / 5.8", "one core NDR: shRing / 1 Ki privRing", 1.0, "x",
     lambda: ndr_ratio(m(SHR, L3FWD, NDR1), m(PRIV, L3FWD, NDR1)),
     "claim", "'optimal NDR'"),
    ("Fig. 5.3", "RxList / RxArr throughput, 1:2", 0.67, "x",
     lambda: ratio(m(LIST, SYN, {"share": 2}), m(SHR, SYN, {"share": 2})),
     "ratio", ""),
    ("Fig. 5.3", "RxList / RxArr throughput, 1:8", 0.24, "x",
     lambda: ratio(m(LIST, SYN), m(SHR, SYN)), "ratio", ""),
    ("§5.1.4", "batched RxList / RxArr throughput, 1:8", 1.0, "x",
     lambda: ratio(m(BAT, SYN), m(SHR, SYN)), "claim",
     "not evaluated; 4 packets a desc. (Fig. 5.2b)"),
    ("§5.1.4", "batched RxList locks per packet, 64 B: 1/batch", 1 / 32, "",
     lambda: sim(m(BAT, SYN, {"pkt-size": 64, "load": 0.05,
                              "buf-stride": 2048}))["locks"],
     "claim", "once per batch (32)"),
    ("§5.1.4 / 5.10", "batched RxList, slow target / fast", 1.0, "x",
     lambda: ratio(m(BAT, SYN, SLOW, {"target-accesses": SLOW_ACC}),
                   m(BAT, SYN, SLOW)), "claim", "RxList's resilience"),
    ("§5.1.4 / 5.11", "batched RxList, 30 % to target / 5 %", 1.0, "x",
     lambda: ratio(m(BAT, SYN, FLOOD, {"target-share": 0.3}),
                   m(BAT, SYN, FLOOD, {"target-share": 0.05})), "claim",
     "RxList's resilience"),
    ("Fig. 5.4", "configs where shRing/8 >= privRing", 1.0, "share",
     configs_won, "ge", "all 60 (12 run here)"),
    ("Fig. 5.5", "app cache hit, shRing/8 / privRing, up to", 2.1, "x",
     lambda: up_to(app_hit_ratio, (1, 2, 4, 8, 16)), "ratio",
     "max over 1-16 accesses"),
    ("Fig. 5.5", "throughput, shRing/8 / privRing, up to", 1.13, "x",
     lambda: up_to(lambda a: ratio(m(SHR, SYN, {"app-accesses": a}),
                                   m(PRIV, SYN, {"app-accesses": a})),
                   (1, 2, 4, 8, 16)), "ratio", "max over 1-16 accesses"),
    ("Fig. 5.5", "latency, privRing / shRing/8, up to", 13.1, "x",
     lambda: up_to(lambda a: ratio(m(PRIV, SYN, {"app-accesses": a}),
                                   m(SHR, SYN, {"app-accesses": a}),
                                   "lat_mean_us"), (1, 2, 4, 8, 16)),
     "ratio", "max over 1-16 accesses"),
    ("Fig. 5.6 / T1.5", "LB throughput, shRing/8 / privRing", 1.20, "x",
     lambda: ratio(m(SHR, LB), m(PRIV, LB)), "ratio", ""),
    ("Fig. 5.6 / T1.5", "LB latency, privRing / shRing/8", 11.1, "x",
     lambda: ratio(m(PRIV, LB), m(SHR, LB), "lat_mean_us"), "ratio", ""),
    ("Fig. 5.6 / T1.5", "NAT throughput, shRing/8 / privRing", 1.25, "x",
     lambda: ratio(m(SHR, NAT), m(PRIV, NAT)), "ratio", ""),
    ("Fig. 5.6 / T1.5", "NAT latency, privRing / shRing/8", 25.0, "x",
     lambda: ratio(m(PRIV, NAT), m(SHR, NAT), "lat_mean_us"), "ratio", ""),
    ("T1.5 / 6.3", "LB throughput, rxBisect / privRing", 1.20, "x",
     lambda: ratio(m(RXB, LB), m(PRIV, LB)), "ratio", ""),
    ("T1.5 / 6.3", "NAT throughput, rxBisect / privRing", 1.24, "x",
     lambda: ratio(m(RXB, NAT), m(PRIV, NAT)), "ratio", ""),
    ("Fig. 5.6", "DDIO off: privRing throughput", 150, "Gbps",
     lambda: sim(m(PRIV, LB, {"ddio-ways": 0}))["gbps"], "ratio", ""),
    ("Fig. 5.7", "privRing ring occupancy", 94, "%",
     lambda: sim(m(PRIV, SYN))["occ_pct"], "ratio", "synthetic NF"),
    ("Fig. 5.7", "privRing Tx DMA read latency", 1.45, "us",
     lambda: sim(m(PRIV, SYN))["pcie_rd_us"], "ratio", ""),
    ("Fig. 5.7", "privRing NIC PCIe (DDIO write) miss rate", 85, "%",
     lambda: 100 - sim(m(PRIV, SYN))["ddio_hit"], "ratio", "up to"),
    ("Fig. 5.7", "shRing/8 cycles per packet, budget 2061", 2061, "cycles",
     lambda: sim(m(SHR, SYN))["cyc_pkt"], "le", "only shRing/8 meets it"),
    ("Fig. 5.7", "privRing cycles per packet, budget 2061", 2061, "cycles",
     lambda: sim(m(PRIV, SYN))["cyc_pkt"], "ge", "privRing does not"),
    ("Fig. 5.9", "MICA", float("nan"), "", lambda: float("nan"), "na",
     "key-value store not modelled"),
    ("Fig. 5.10", "shRing / privRing, slow target", 0.42, "x",
     lambda: ratio(m(SHR, SYN, SLOW, {"target-accesses": SLOW_ACC}),
                   m(PRIV, SYN, SLOW, {"target-accesses": SLOW_ACC})),
     "ratio", "thesis: 58 % below privRing"),
    ("Fig. 5.10", "shRing / privRing, fast target", 1.12, "x",
     lambda: ratio(m(SHR, SYN, SLOW), m(PRIV, SYN, SLOW)), "ratio",
     "thesis: +12 %"),
    ("Fig. 14", "shRing, slow target / fast", 0.40, "x",
     lambda: ratio(m(SHR, SYN, SLOW, {"target-accesses": SLOW_ACC}),
                   m(SHR, SYN, SLOW)), "ratio", "paper -60 %"),
    ("Fig. 14", "rxBisect, slow target / fast", 1.0, "x",
     lambda: ratio(m(RXB, SYN, SLOW, {"target-accesses": SLOW_ACC}),
                   m(RXB, SYN, SLOW)), "claim", "'close to line rate'"),
    ("Fig. 14", "privRing throughput (dshRing's floor)", 178, "Gbps",
     lambda: sim(m(PRIV, SYN, SLOW, {"target-accesses": SLOW_ACC}))["gbps"],
     "le", "never above"),
    ("Fig. 14", "rxBisect / privRing, slow target, up to", 1.12, "x",
     lambda: ratio(m(RXB, SYN, SLOW, {"target-accesses": SLOW_ACC}),
                   m(PRIV, SYN, SLOW, {"target-accesses": SLOW_ACC})),
     "ratio", "beats dshRing by up to 12 %"),
    ("Fig. 5.11", "shRing, 30 % to target / 5 %", 0.46, "x",
     lambda: ratio(m(SHR, SYN, FLOOD, {"target-share": 0.3}),
                   m(SHR, SYN, FLOOD, {"target-share": 0.05})), "ratio",
     "thesis -54 %"),
    ("Fig. 15", "shRing, 30 % to target / 5 %", 0.51, "x",
     lambda: ratio(m(SHR, SYN, FLOOD, {"target-share": 0.3}),
                   m(SHR, SYN, FLOOD, {"target-share": 0.05})), "ratio",
     "paper -49 %"),
    ("Fig. 15", "rxBisect, 30 % to target / 5 %", 0.94, "x",
     lambda: ratio(m(RXB, SYN, FLOOD, {"target-share": 0.3}),
                   m(RXB, SYN, FLOOD, {"target-share": 0.05})), "ratio",
     "paper: emulator bottleneck"),
    ("Fig. 15", "privRing throughput", 175, "Gbps",
     lambda: sim(m(PRIV, SYN, FLOOD, {"target-share": 0.3}))["gbps"], "le",
     "never above"),
    ("Fig. 12", "one flow, 4 cores NDR: rxBisect Ax 256 / privRing 1 Ki",
     1.0, "x", lambda: ndr_ratio(m(RXB, L3FWD, FLOW1, {"ax": 256}),
                                 m(PRIV, L3FWD, FLOW1)), "claim",
     "both ~80 Gbps"),
    ("Fig. 13", "rxBisect Bx 4 Ki / Bx 128 (Ax 128)", 1.0, "x",
     lambda: tput_ratio(m(RXB, SYN, {"ring": 4096}), m(RXB, SYN, {"ring": 128})),
     "claim", "flat"),
    ("Table 2", "LB privRing, non-emulated", CAL_TARGET_GBPS, "Gbps",
     lambda: sim(m(PRIV, LB))["gbps"], "cal", "calibrated (--cycles)"),
    ("Table 2", "LB small privRing", 195, "Gbps",
     lambda: sim(m(SMALL, LB))["gbps"], "ratio", ""),
    ("Table 2", "LB shRing", 194, "Gbps", lambda: sim(m(SHR, LB))["gbps"],
     "ratio", ""),
    ("Table 2", "LB privRing latency", 1224, "us",
     lambda: sim(m(PRIV, LB))["lat_mean_us"], "ratio", ""),
    ("Table 2", "LB small privRing latency", 110, "us",
     lambda: sim(m(SMALL, LB))["lat_mean_us"], "ratio", ""),
    ("Table 2", "LB shRing latency", 69, "us",
     lambda: sim(m(SHR, LB))["lat_mean_us"], "ratio", ""),
    ("Table 2", "NAT privRing, non-emulated", 155, "Gbps",
     lambda: sim(m(PRIV, NAT))["gbps"], "ratio", ""),
    ("Table 2", "NAT small privRing", 196, "Gbps",
     lambda: sim(m(SMALL, NAT))["gbps"], "ratio", ""),
    ("Table 2", "NAT shRing", 195, "Gbps", lambda: sim(m(SHR, NAT))["gbps"],
     "ratio", ""),
    ("Table 2", "NAT privRing latency", 1256, "us",
     lambda: sim(m(PRIV, NAT))["lat_mean_us"], "ratio", ""),
    ("Table 2", "NAT small privRing latency", 89, "us",
     lambda: sim(m(SMALL, NAT))["lat_mean_us"], "ratio", ""),
    ("Table 2", "NAT shRing latency", 67, "us",
     lambda: sim(m(SHR, NAT))["lat_mean_us"], "ratio", ""),
    ("Table 3", "rxBisect allocator cycles, 31 % imbalance", 0.2, "% max",
     alloc_pct, "le", "below 0.2 %"),
    ("Fig. 18 / 6.3", "low load: shRing / privRing cycles per packet", 1.34,
     "x", lambda: ratio(m(SHR, SYN, LOW), m(PRIV, SYN, LOW), "cyc_pkt"),
     "ratio", "up to 34 %"),
    ("6.3", "low load: shRing / small privRing cycles per packet", 1.46,
     "x", lambda: ratio(m(SHR, SYN, LOW), m(SMALL, SYN, LOW), "cyc_pkt"),
     "ratio", "up to 46 %"),
    ("COREC T2", "COREC 1 core / DPDK 1 core", 17.68 / 16.43, "x",
     lambda: corec(1) / dpdk1(), "ratio", "l3fwd, same NUMA"),
    ("COREC T2", "COREC 2 cores / DPDK 1 core", 26.4 / 16.43, "x",
     lambda: corec(2) / dpdk1(), "ratio", ""),
    ("COREC T2", "COREC 3 cores / DPDK 1 core", 35.35 / 16.43, "x",
     lambda: corec(3) / dpdk1(), "ratio", ""),
    ("COREC T2", "COREC 4 cores / DPDK 1 core", 37.66 / 16.43, "x",
     lambda: corec(4) / dpdk1(), "ratio", "NIC-bound"),
    ("COREC T2", "COREC 4 cores, Mpps", 37.7, "Mpps",
     lambda: corec(4), "le", "the XL710's limit"),
    ("COREC T3", "ipsec: COREC 1 core / DPDK 1 core", 5.07 / 5.04, "x",
     lambda: corec(1, IPSEC) / dpdk1(IPSEC), "ratio", "ipsec-secgw, same NUMA"),
    ("COREC T3", "ipsec: COREC 2 cores / DPDK 1 core", 8.18 / 5.04, "x",
     lambda: corec(2, IPSEC) / dpdk1(IPSEC), "ratio", ""),
    ("COREC T3", "ipsec: COREC 3 cores / DPDK 1 core", 10.9 / 5.04, "x",
     lambda: corec(3, IPSEC) / dpdk1(IPSEC), "ratio", ""),
    ("COREC T3", "ipsec: COREC 4 cores / DPDK 1 core", 15.3 / 5.04, "x",
     lambda: corec(4, IPSEC) / dpdk1(IPSEC), "ratio", "not NIC-bound"),
    ("CEIO 6.2", "CEIO / baseline throughput, up to", (1.3, 2.1), "x",
     ceio_speedup, "range", "async fetch; 128-1024 B"),
    ("CEIO 6.2", "baseline LLC miss rate (core reads)", 88, "%",
     lambda: ceio_miss("privring"), "ratio", ""),
    ("CEIO 6.2", "CEIO LLC miss rate (core reads)", 1, "%",
     lambda: ceio_miss("ceio"), "le", "'88 % -> 1 %': at most"),
    ("Enso 7.1", "echo 1 core: Enso / E810 packet rate", 148.8 / 59, "x",
     lambda: ratio(m(ENSO, {"model": "enso"}), m(ENSO, PRIV), "mpps"),
     "ratio", "Enso at 148.8 Mpps, Ethernet-bound"),
    ("Enso 7.2", "E810: descriptors' share of PCIe reads", 39, "%",
     lambda: sim(m(ENSO, PRIV))["meta_pct"], "ratio", "up to"),
    ("Enso 7.2", "Enso: notifications' share of PCIe reads", 1.2, "%",
     lambda: sim(m(ENSO, {"model": "enso"}))["meta_pct"], "le", "below"),
]

# The rows --quick runs (make check).
QUICK = ("line rate holds to R=128: R=128 / R=64",
         "LB throughput, shRing/8 / privRing",
         "low load: shRing / privRing cycles per packet")

# The headlines: (name, the winner's check).  Each compares two runs.
HEADLINES = [
    ("cache-bound LB: shRing/8 beats privRing (Table 2, T1.5)",
     lambda o, pk: sim(m(SHR, LB, o), pk)["gbps"] >
     sim(m(PRIV, LB, o), pk)["gbps"]),
    ("slow core: rxBisect beats shRing/8 (Fig. 14)",
     lambda o, pk: sim(m(RXB, SYN, SLOW, {"target-accesses": SLOW_ACC}, o),
                       pk)["gbps"] >
     sim(m(SHR, SYN, SLOW, {"target-accesses": SLOW_ACC}, o), pk)["gbps"]),
    ("1:8: RxArr beats RxList (Fig. 5.3)",
     lambda o, pk: sim(m(SHR, SYN, o), pk)["gbps"] >
     sim(m(LIST, SYN, o), pk)["gbps"]),
]

# Every parameter not fixed by a testbed description, with its default
# (opts.c) and where it comes from; "cycles" is the calibrated one.
FREE = [
    ("cycles", None, "calibrated, Table 2"),
    ("cycles", None, "its fit, +-5 % (Table 2's sigma)", (0.95, 1.05)),
    ("poll-cycles", 100, "assumption"),
    ("llc-ns", 20, "assumption"),
    ("dram-ns", 83, "MLC fit, Silver 4110"),
    ("mem-load", 0.4, "MLC fit, Silver 4110"),
    ("mem-gbs", 55, "thesis 2.4.2, measured"),
    ("mem-burst-ns", 1000, "assumption"),
    ("mlp", 8, "assumption"),
    ("pcie-rd-ns", 500, "assumption"),
    ("pcie-reads", 32, "PCIe 5-bit tags"),
    ("nic-buf", 262144, "assumption"),
    ("desc-cache", 64, "8254x SDM 3.2.4"),
    ("desc-batch", 8, "assumption"),
    ("desc-thresh", 8, "DPDK ixgbe"),
    ("desc-reads", 8, "QDMA fetch_max"),
    ("tx-iqueue", 1024, "FastClick default"),
    ("atomic-ns", 2.6, "syncbench"),
    ("xfer-ns", 25, "syncbench"),
    ("fence-ns", 2.4, "syncbench"),
    ("alloc-ns", 0.25, "syncbench"),
    ("doorbell-ns", 100, "Intel forum"),
    ("refill-retry-us", 10, "assumption"),
    ("start-stall", STALL, "rings full (16 x 1 Ki)"),
    ("pool-cache", 128, "page_pool"),
    ("target-accesses", SLOW_ACC, "not stated (slow core)"),
]
INT_PARAMS = ("cycles", "poll-cycles", "pcie-reads", "nic-buf", "desc-cache",
              "desc-batch", "desc-thresh", "desc-reads", "tx-iqueue",
              "pool-cache", "target-accesses")


def fmt(v):
    if isinstance(v, tuple):
        return "%s-%s" % (fmt(v[0]), fmt(v[1]))
    if isinstance(v, float) and math.isnan(v):
        return "--"
    if abs(v) >= 100:
        return "%.0f" % v
    if abs(v) >= 10:
        return "%.1f" % v
    if abs(v) >= 0.1 or v == 0:
        return "%.2f" % v
    return "%.3f" % v


def table(head, rows):
    w = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    line = "  ".join("=" * n for n in w)
    out = [line, "  ".join(str(h).ljust(n) for h, n in zip(head, w)).rstrip(),
           line]
    out += ["  ".join(str(c).ljust(n) for c, n in zip(r, w)).rstrip()
            for r in rows]
    out.append(line)
    return "\n".join(out)


def verdict(kind, paper, v, trivial):
    """(ratio text, verdict)."""
    if kind == "na" or (isinstance(v, float) and math.isnan(v)):
        return "--", "not modelled" if kind == "na" else "no result"
    if kind == "range":
        lo, hi = paper
        return "--", "bound held" if lo <= v <= hi else "bound missed"
    r = v / paper if paper else float("nan")
    if kind == "le":
        return fmt(r), "bound held" if v <= paper else "bound missed"
    if kind == "ge":
        return fmt(r), "bound held" if v >= paper else "bound missed"
    if kind == "cal":
        return fmt(r), "calibration"
    hit = 1 / HIT <= r <= HIT
    what = "claim " if kind == "claim" else ""
    if trivial:
        return fmt(r), what + ("trivial hit" if hit else "trivial miss")
    return fmt(r), what + ("hit" if hit else "miss")


def calibrate():
    lo, hi = 800, 3000
    for _ in range(8):
        mid = (lo + hi) // 2
        args.cycles = mid
        g = sim(m(PRIV, LB))["gbps"]
        print("# --cycles %d: privRing 1 Ki LB %.1f Gbps" % (mid, g),
              file=sys.stderr)
        if g > CAL_TARGET_GBPS:
            lo = mid
        else:
            hi = mid
    return (lo + hi) // 2


def main():
    global args
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sim", default=os.path.join(HERE, "rxbisect-sim"))
    ap.add_argument("--packets", type=int, default=600000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-sensitivity", action="store_true")
    ap.add_argument("--calibrate", action="store_true")
    args = ap.parse_args()
    if args.packets < 1000 or args.packets > 10**8 or not 1 <= args.jobs <= 64:
        ap.error("--packets in [1000, 1e8], --jobs in [1, 64]")
    args.cycles = CAL_CYCLES
    rows, heads, free = ROWS, HEADLINES, FREE
    if args.quick:
        args.packets = 20000
        rows = [r for r in ROWS if r[1] in QUICK]
        heads, free = HEADLINES[-1:], FREE[-1:]
    if args.calibrate:
        args.cycles = calibrate()
        print("# calibrated --cycles %d" % args.cycles)

    print("Prediction (--cycles %d, --packets %d)\n" % (args.cycles,
                                                         args.packets))

    def value(row):
        try:
            v = row[4]()
        except RuntimeError as e:
            print("# %s: %s" % (row[1], e), file=sys.stderr)
            return float("nan"), None
        return v if isinstance(v, tuple) else (v, None)

    out = []
    tally = {}
    for (src, what, paper, unit, _, kind, note), (v, triv) in \
            zip(rows, pmap(value, rows)):
        r, verd = verdict(kind, paper, v, triv)
        tally[verd] = tally.get(verd, 0) + 1
        out.append((src, what, unit, fmt(paper), fmt(v), r, verd,
                    note + ("; " if note and triv else "") + (triv or "")))
    print(table(("source", "quantity", "unit", "paper", "sim", "sim/paper",
                 "verdict", "note"), out))

    def cnt(*keys):
        return sum(tally.get(k, 0) for k in keys)

    ratios = cnt("hit", "miss", "claim hit", "claim miss")
    hits = cnt("hit", "claim hit")
    triv = cnt("trivial hit", "trivial miss", "claim trivial hit",
               "claim trivial miss")
    thits = cnt("trivial hit", "claim trivial hit")
    bounds = cnt("bound held", "bound missed")
    print("\nTally: %d rows with a ratio, not trivial: %d within %.1fx "
          "(%.0f %%); trivial (both runs carry the offered load): %d, %d "
          "within; all ratio rows: %d of %d within (%.0f %%); bounds: %d of "
          "%d held; not modelled: %d; calibration: %d" %
          (ratios, hits, HIT, 100.0 * hits / ratios if ratios else 0, triv,
           thits, hits + thits, ratios + triv,
           100.0 * (hits + thits) / (ratios + triv) if ratios + triv else 0,
           cnt("bound held"), bounds, cnt("not modelled"), cnt("calibration")))

    if not args.quick:
        print("\nWorkloads and their sources\n")
        print(table(("rows", "setting", "source"), WORKLOADS))
    if args.no_sensitivity:
        return 0

    pk = args.packets // 2
    print("\nSensitivity (--packets %d): does each headline's winner stay "
          "with the parameter at -20 %% / +20 %%?\n" % pk)

    def over(p, dflt, f):
        v = (args.cycles if dflt is None else dflt) * f
        return {p: int(round(v)) if p in INT_PARAMS else round(v, 4)}

    def factors(entry):
        return entry[3] if len(entry) > 3 else (0.8, 1.2)

    work = [({}, h) for h in range(len(heads))]
    for entry in free:
        p, d = entry[0], entry[1]
        for f in factors(entry):
            for h in range(len(heads)):
                work.append((over(p, d, f), h))
    got = pmap(lambda w: heads[w[1]][1](w[0], pk), work)
    base = got[:len(heads)]
    res = got[len(heads):]
    out, fragile = [], []
    i = 0
    for entry in free:
        p, d, src = entry[0], entry[1], entry[2]
        lo_f, hi_f = factors(entry)
        cells = []
        for h in range(len(heads)):
            lo, hi = res[i + h], res[i + len(heads) + h]
            cells.append(("y" if lo else "n") + ("y" if hi else "n"))
            if lo != base[h] or hi != base[h]:
                fragile.append("%s at %+.0f/%+.0f %% (%s)" % (
                    p, 100 * (lo_f - 1), 100 * (hi_f - 1),
                    heads[h][0].split(":")[0]))
        i += 2 * len(heads)
        out.append([p, fmt(args.cycles if d is None else d),
                    "%+.0f/%+.0f %%" % (100 * (lo_f - 1), 100 * (hi_f - 1)),
                    src] + cells)
    print(table(["parameter", "default", "varied", "source"] +
                ["H%d" % (h + 1) for h in range(len(heads))], out))
    for h, (name, _) in enumerate(heads):
        print("H%d: %s; base: %s" % (h + 1, name,
                                      "holds" if base[h] else "does NOT hold"))
    print("Verdict: " + ("robust" if not fragile else
                         "fragile: " + ", ".join(fragile)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
