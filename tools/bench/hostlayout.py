#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The layout of a host benchmark, read from the machine's sysfs.

Reads the online CPUs (devices/system/cpu/online), the NUMA nodes
(devices/system/node/nodeN/cpulist; none: one node of every CPU) and the
last-level cache (devices/system/cpu/cpuN/cache/indexM with the highest
level of a Data or Unified cache, usually index3: size,
ways_of_associativity, shared_cpu_list) and lays an experiment out the way
the papers do (rxBisect paper section 5, thesis section 4.3): on the NUMA
node with the most online CPUs,

  housekeeping  its first CPU, left to the shell, perf and the kernel's
                housekeeping, when the node has 8 CPUs or more;
  engine        the emulated NIC's engine when the node has 3 CPUs or more
                (else inline, in the sender's context): one pipeline per 8
                CPUs of the node, at least 1, at most --max-engines (the
                module's 16), on consecutive CPUs (the module's engine=cpuN
                engines=K runs them on CPUs N..N+K-1, the same CPUs for all
                its ports; queue q goes to pipeline q mod K, as a NIC's
                steering feeds its packet-processing pipelines);
  generators    pktgen threads (kpktgend_N runs on CPU N): one per 8 CPUs
                of the node, at least 1, at most 4;
  queues        the rest, one receive queue per CPU (its interrupt and
                NAPI there), at most --max-queues (the module's 32).

With 1 or 2 CPUs every role shares them and the layout says so ("scaled
down").  The LLC is the sum of the distinct cache instances the node's
CPUs share (one on most Intel parts, one per CCX on AMD).  Buffer budgets
are relative to it: for each factor of --factors (0.25 .. 8: inside the
LLC and several times beyond), the privring ring size (entries per queue,
a power of two within the module's 64..8192) whose posted buffers, queues
x entries x --buf-bytes (a page), come nearest below that budget; a budget
the ring limits cannot reach is clamped and marked.

Usage: hostlayout.py [--sysfs ROOT] [--format text|shell|json] [...]
  --sysfs ROOT   the sysfs mount (default /sys; the tests pass fake trees)
  --format       text (for people, the default), shell (HL_*=... lines to
                 eval) or json
The shell format's variables: HL_CPUS (online), HL_NODES, HL_NODE,
HL_NODE_CPUS, HL_LLC_BYTES, HL_LLC_WAYS, HL_LLC_SLICES, HL_DDIO_KB (two
ways of the LLC: Intel DDIO's default), HL_HOUSEKEEPING, HL_ENGINE
(cpuN or inline), HL_ENGINE_CPUS, HL_GEN_CPUS, HL_QUEUES, HL_QUEUE_CPUS,
HL_ENGINES (pipelines, 0 inline), HL_ENGINE_PARAMS (the module
parameters that place them: "engine=cpuN", with " engines=K" when K > 1;
empty inline), HL_RINGS (ring sizes, one per factor), HL_BUDGETS (their bytes),
HL_FACTORS, HL_SCALED (0/1), HL_NOTE, HL_TEXT (the text format).
"""

import argparse
import json
import os
import sys


def parse_list(text):
    """CPU list "0-3,8,10-11" -> sorted list of ints."""
    out = []
    for part in text.strip().split(","):
        if not part:
            continue
        if "-" in part:
            a, b = part.split("-", 1)
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return sorted(set(out))


def fmt_list(cpus):
    """Sorted ints -> "0-3,8"."""
    out, i = [], 0
    cpus = sorted(cpus)
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(out)


def parse_size(text):
    """sysfs cache size "22528K", "32M", "4096" -> bytes."""
    t = text.strip().upper()
    mult = 1
    if t.endswith("K"):
        mult, t = 1024, t[:-1]
    elif t.endswith("M"):
        mult, t = 1 << 20, t[:-1]
    elif t.endswith("G"):
        mult, t = 1 << 30, t[:-1]
    return int(t) * mult


def read(path, default=None):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        if default is None:
            raise
        return default


class Machine:
    """What the sysfs tree under ROOT says."""

    def __init__(self, root):
        cpu = os.path.join(root, "devices/system/cpu")
        self.cpus = parse_list(read(os.path.join(cpu, "online")))
        if not self.cpus:
            raise ValueError("no online CPUs in %s/online" % cpu)
        self.nodes = {}
        nd = os.path.join(root, "devices/system/node")
        if os.path.isdir(nd):
            for e in sorted(os.listdir(nd)):
                if e.startswith("node") and e[4:].isdigit():
                    c = parse_list(read(os.path.join(nd, e, "cpulist"), ""))
                    c = [x for x in c if x in self.cpus]
                    if c:
                        self.nodes[int(e[4:])] = c
        if not self.nodes:
            self.nodes = {0: list(self.cpus)}
        # every CPU's LLC instance: (level, shared cpus) -> size, ways
        self.llc_of = {}
        self.llc_inst = {}
        for c in self.cpus:
            best = None
            cd = os.path.join(cpu, "cpu%d" % c, "cache")
            if not os.path.isdir(cd):
                continue
            for e in os.listdir(cd):
                if not e.startswith("index"):
                    continue
                d = os.path.join(cd, e)
                if read(os.path.join(d, "type"), "Unified") == "Instruction":
                    continue
                try:
                    lvl = int(read(os.path.join(d, "level")))
                    size = parse_size(read(os.path.join(d, "size")))
                except (OSError, ValueError):
                    continue
                ways = int(read(os.path.join(d, "ways_of_associativity"), "0") or 0)
                shared = tuple(parse_list(read(os.path.join(d, "shared_cpu_list"), str(c))))
                if best is None or lvl > best[0]:
                    best = (lvl, size, ways, shared)
            if best:
                key = (best[0], best[3])
                self.llc_of[c] = key
                self.llc_inst[key] = (best[1], best[2])


def consecutive(cpus, k):
    """The first k consecutive CPU numbers of the sorted list cpus, or []."""
    for i in range(len(cpus) - k + 1):
        if cpus[i + k - 1] - cpus[i] == k - 1:
            return cpus[i:i + k]
    return []


def layout(m, factors, buf_bytes, max_queues, min_ring, max_ring,
           max_engines=16):
    node = max(m.nodes, key=lambda n: (len(m.nodes[n]), -n))
    cpus = m.nodes[node]
    n = len(cpus)
    notes = []
    scaled = 0
    hk, eng, gens = [], [], []
    if n >= 3:
        rest = list(cpus)
        if n >= 8:
            hk = [rest.pop(0)]
        ne = max(1, min(max_engines, n // 8))
        eng = consecutive(rest, ne)
        if not eng:
            notes.append("no %d consecutive CPUs for the engine: one pipeline"
                         % ne)
            eng = rest[:1]
        rest = [c for c in rest if c not in eng]
        ng = max(1, min(4, n // 8))
        gens = rest[-ng:]
        rest = rest[:-ng]
        queues = rest[:max_queues]
        if len(rest) > max_queues:
            notes.append("%d CPUs left idle: the module has at most %d queues"
                         % (len(rest) - max_queues, max_queues))
    else:
        scaled = 1
        queues = list(cpus)
        gens = [cpus[-1]]
        notes.append("scaled down: %d CPU(s), the engine inline, the generator "
                     "shares queue %d's CPU" % (n, len(queues) - 1))
    if len(m.nodes) > 1:
        notes.append("NUMA node %d of %d (the one with the most online CPUs)"
                     % (node, len(m.nodes)))
    # the node's LLC: the distinct instances its CPUs share
    inst = sorted({m.llc_of[c] for c in cpus if c in m.llc_of})
    llc = sum(m.llc_inst[k][0] for k in inst)
    ways = max([m.llc_inst[k][1] for k in inst] or [0])
    if not inst:
        notes.append("no cache information in sysfs: LLC taken as 4 MiB")
        llc, ways = 4 << 20, 0
    rings, budgets, kept, beyond = [], [], [], []
    nq = len(queues)
    for f in factors:
        want = f * llc / (nq * buf_bytes)
        r = min_ring
        while r * 2 <= want and r * 2 <= max_ring:
            r *= 2
        if r in rings:		# clamped to a ring size already there
            beyond.append("%gx" % f)
            continue
        if want < min_ring:
            notes.append("budget %gx LLC raised to %d entries" % (f, r))
        kept.append(f)
        rings.append(r)
        budgets.append(r * nq * buf_bytes)
    if beyond:
        notes.append("budgets %s LLC out of reach: %d queues x %d entries x "
                     "%d B = %s at most" % (", ".join(beyond), nq, max_ring,
                                            buf_bytes, mib(nq * max_ring * buf_bytes)))
    factors = kept
    return {
        "cpus": m.cpus, "nodes": len(m.nodes), "node": node,
        "node_cpus": cpus, "llc_bytes": llc, "llc_ways": ways,
        "llc_slices": len(inst),
        "ddio_kb": (llc * 2 // ways // 1024) if ways else llc // 1024 // 4,
        "housekeeping": hk, "engine": ("cpu%d" % eng[0]) if eng else "inline",
        "engine_cpus": eng, "engines": len(eng),
        "engine_params": ("engine=cpu%d" % eng[0] +
                          (" engines=%d" % len(eng) if len(eng) > 1 else "")
                          if eng else ""), "gen_cpus": gens, "queues": nq,
        "queue_cpus": queues, "factors": factors, "rings": rings,
        "budgets": budgets, "buf_bytes": buf_bytes, "scaled": scaled,
        "note": "; ".join(notes),
    }


def mib(b):
    return "%.1f MiB" % (b / (1 << 20))


def text(lo):
    out = [
        "host layout: %d online CPUs (%s), %d NUMA node(s); node %d: CPUs %s"
        % (len(lo["cpus"]), fmt_list(lo["cpus"]), lo["nodes"], lo["node"],
           fmt_list(lo["node_cpus"])),
        "  LLC %s, %d ways, %d slice(s); DDIO share (2 ways) %d KiB"
        % (mib(lo["llc_bytes"]), lo["llc_ways"], lo["llc_slices"], lo["ddio_kb"]),
        "  housekeeping CPU: %s" % (fmt_list(lo["housekeeping"]) or "none"),
        "  NIC engine: %s" % (lo["engine"] if lo["engines"] < 2 else
                              "%s, %d pipelines on CPUs %s (%s)" % (
                                  lo["engine"], lo["engines"],
                                  fmt_list(lo["engine_cpus"]),
                                  lo["engine_params"])),
        "  pktgen CPUs: %s" % fmt_list(lo["gen_cpus"]),
        "  %d queues on CPUs %s" % (lo["queues"], fmt_list(lo["queue_cpus"])),
        "  buffer budgets (%d B buffers): %s" % (lo["buf_bytes"], ", ".join(
            "%gx LLC: ring %d (%s)" % (f, r, mib(b)) for f, r, b in
            zip(lo["factors"], lo["rings"], lo["budgets"]))),
    ]
    if lo["note"]:
        out.append("  note: " + lo["note"])
    return "\n".join(out)


def shell(lo):
    def q(v):
        return "'" + str(v).replace("'", "'\\''") + "'"
    sp = lambda xs: " ".join(str(x) for x in xs)
    vals = [
        ("CPUS", len(lo["cpus"])), ("NODES", lo["nodes"]), ("NODE", lo["node"]),
        ("NODE_CPUS", sp(lo["node_cpus"])), ("LLC_BYTES", lo["llc_bytes"]),
        ("LLC_WAYS", lo["llc_ways"]), ("LLC_SLICES", lo["llc_slices"]),
        ("DDIO_KB", lo["ddio_kb"]), ("HOUSEKEEPING", sp(lo["housekeeping"])),
        ("ENGINE", lo["engine"]), ("ENGINE_CPUS", sp(lo["engine_cpus"])),
        ("ENGINES", lo["engines"]), ("ENGINE_PARAMS", lo["engine_params"]),
        ("GEN_CPUS", sp(lo["gen_cpus"])), ("QUEUES", lo["queues"]),
        ("QUEUE_CPUS", sp(lo["queue_cpus"])), ("FACTORS", sp(lo["factors"])),
        ("RINGS", sp(lo["rings"])), ("BUDGETS", sp(lo["budgets"])),
        ("SCALED", lo["scaled"]), ("NOTE", lo["note"]), ("TEXT", text(lo)),
    ]
    return "\n".join("HL_%s=%s" % (k, q(v)) for k, v in vals)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sysfs", default="/sys")
    ap.add_argument("--format", choices=("text", "shell", "json"), default="text")
    ap.add_argument("--factors", default="0.25 0.5 1 2 4 8",
                    help="buffer budgets, multiples of the LLC")
    ap.add_argument("--buf-bytes", type=int, default=4096)
    ap.add_argument("--max-queues", type=int, default=32)
    ap.add_argument("--max-engines", type=int, default=16,
                    help="engine pipelines at most (the module's engines)")
    ap.add_argument("--min-ring", type=int, default=64)
    ap.add_argument("--max-ring", type=int, default=8192)
    a = ap.parse_args(argv)
    try:
        factors = [float(x) for x in a.factors.replace(",", " ").split()]
        m = Machine(a.sysfs)
    except (OSError, ValueError) as e:
        print("hostlayout: cannot read %s: %s" % (a.sysfs, e), file=sys.stderr)
        return 1
    lo = layout(m, [int(f) if f == int(f) else f for f in factors],
                a.buf_bytes, a.max_queues, a.min_ring, a.max_ring,
                max(1, a.max_engines))
    if a.format == "json":
        print(json.dumps(lo, indent=1))
    elif a.format == "shell":
        print(shell(lo))
    else:
        print(text(lo))
    return 0


if __name__ == "__main__":
    sys.exit(main())
