#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The netdev netlink family (the kernel's YNL library) against ethtool -S.

Run in the port's namespace.  The YNL library and specs come from the
running kernel's source when it is extracted (tools/ksrc.sh running: 7.2's
on 7.2, whose napi attributes 6.12's YNL cannot decode), else from
linux-source-6.12 through tools/ynl.sh --fetch (build/ksrc-6.12/ of the
checkout); everything is done in one process (a cli.py per query costs
seconds under TCG).

  netdev_nl.py has OP             exit 0 when the kernel has netdev OP
                                  (qstats-get, queue-get, page-pool-get),
                                  4 with the reason otherwise
  netdev_nl.py qstats IF          per-queue and device qstats of IF equal
                                  ethtool -S and ip -s link
  netdev_nl.py napi IF NQ [MODEL...]
                                  NQ rx and tx queues, each with a NAPI id
                                  (tx q shares rx q's), NQ page_pools of IF
                                  with those NAPI ids (COREC: one per
                                  shared queue, of no NAPI); prints "q<N>=<id>";
                                  with MODELs, for each ring model in turn
                                  (module parameter ring_model), printing
                                  "ok MODEL" or "not ok MODEL"
  netdev_nl.py down IF            no queues and no attached pools of IF
  netdev_nl.py xdpfeat IF MODEL...
                                  for each ring model in turn (module
                                  parameter ring_model): IF's xdp-features
                                  and xdp-rx-metadata-features from
                                  dev-get, printed as "MODEL feature,...
                                  meta=feature,..."
Exit status: 0 pass, 1 fail (the reasons printed as "# " lines), 4 skip.
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "../../../.."))


def skip(why):
    print("# " + why)
    sys.exit(4)


def family():
    try:
        subprocess.run([os.path.join(TOP, "tools/ynl.sh"), "--fetch"],
                       check=True, capture_output=True, text=True)
        ksrc = subprocess.run([os.path.join(TOP, "tools/ksrc.sh"),
                               "--print-dir", "running"],
                              check=True, capture_output=True,
                              text=True).stdout.strip()
    except subprocess.CalledProcessError as e:
        skip("no YNL (tools/ynl.sh --fetch): " + e.stderr.strip())
    ynl = os.path.join(ksrc, "tools/net/ynl")
    # 6.13 moved the library into pyynl/ (pyynl/lib)
    if os.path.isdir(os.path.join(ynl, "pyynl/lib")):
        ynl = os.path.join(ynl, "pyynl")
    sys.path.insert(0, ynl)
    # libyaml's parser for the spec: PyYAML's pure-Python one takes
    # seconds under TCG (pylib/rxb_libyaml.py, as kdrv_tests.sh's tests)
    sys.path.insert(0, os.path.join(HERE, "pylib"))
    from rxb_libyaml import use_libyaml

    use_libyaml()
    try:
        from lib import YnlFamily
    except ImportError as e:
        skip("cannot import YNL: %s" % e)
    spec = os.path.join(ksrc, "Documentation/netlink/specs/netdev.yaml")
    try:
        return YnlFamily(spec, "")
    except Exception as e:  # the family is missing: older kernel
        skip("kernel has no netdev netlink family: %s" % e)


def ifindex(name):
    with open("/sys/class/net/%s/ifindex" % name) as f:
        return int(f.read())


def ethtool_s(name):
    out = subprocess.run(["ethtool", "-S", name], check=True,
                         capture_output=True, text=True).stdout
    st = {}
    for line in out.splitlines()[1:]:
        k, _, v = line.strip().partition(": ")
        if v.lstrip("-").isdigit():
            st[k] = int(v)
    return st


def link_stats(name):
    st = {}
    for k in ("rx_packets", "rx_bytes", "tx_packets", "tx_bytes"):
        with open("/sys/class/net/%s/statistics/%s" % (name, k)) as f:
            st[k] = int(f.read())
    return st


def expected(e, q=None):
    """The qstats the driver promises, computed from ethtool -S."""
    if q is None:
        drops = ["rx_nobuf_drops", "rx_ring_full_drops", "rx_oversize_drops",
                 "rx_runt_drops", "rx_stopped_drops", "rx_fifo_drops",
                 "rx_dma_errors"]
        return {"rx-hw-drops": sum(e[k] for k in drops),
                "tx-hw-drops": e["tx_drops"]}
    r = "rx%d_" % q
    t = "tx%d_" % q
    over = e[r + "nobuf_drops"] + e[r + "ring_full_drops"]
    return {
        "rx": {"rx-packets": e[r + "stack_packets"],
               "rx-bytes": e[r + "stack_bytes"],
               "rx-alloc-fail": e[r + "alloc_fails"],
               "rx-hw-drop-overruns": over,
               "rx-hw-drops": over + e[r + "oversize_drops"] +
               e[r + "dma_errors"]},
        "tx": {"tx-packets": e[t + "packets"], "tx-bytes": e[t + "bytes"],
               "tx-hw-drops": e[t + "drops"]},
    }


def cmd_qstats(nf, name):
    idx = ifindex(name)
    for attempt in range(5):
        e1 = ethtool_s(name)
        l1 = link_stats(name)
        qs = nf.dump("qstats-get", {"ifindex": idx, "scope": "queue"})
        dev = nf.dump("qstats-get", {"ifindex": idx})
        e2 = ethtool_s(name)
        l2 = link_stats(name)
        if e1 == e2 and l1 == l2:
            break
        time.sleep(0.5)
    else:
        print("# counters still moving")
        return 1
    bad = 0
    nq = sum(1 for k in e1 if k.startswith("tx") and k.endswith("_packets")
             and k[2:-8].isdigit())
    seen = set()
    for s in qs:
        kind, q = s["queue-type"], s["queue-id"]
        seen.add((kind, q))
        want = expected(e1, q)[kind]
        got = {k: s.get(k) for k in want}
        print("# %s%d: %s" % (kind, q, " ".join(
            "%s=%s" % (k[3:], v) for k, v in got.items())))
        if got != want:
            print("# %s%d: ethtool -S says %s" % (kind, q, want))
            bad = 1
    with open("/sys/class/net/%s/flags" % name) as f:
        up = int(f.read(), 16) & 1
    if not up:
        nq = 0  # queue scope lists the queues of a device that is up
        if seen:
            print("# per-queue qstats of a device that is down")
            bad = 1
    for kind in ("rx", "tx"):
        for q in range(nq):
            if (kind, q) not in seen:
                print("# no qstats of %s queue %d" % (kind, q))
                bad = 1
    if len(dev) != 1:
        print("# device qstats: %d entries" % len(dev))
        return 1
    d = dev[0]
    want = expected(e1)
    for k in ("rx_packets", "rx_bytes", "tx_packets", "tx_bytes"):
        want[k.replace("_", "-")] = l1[k]
    got = {k: d.get(k) for k in want}
    print("# device: %s" % " ".join("%s=%s" % kv for kv in got.items()))
    if got != want:
        print("# device: expected %s" % want)
        bad = 1
    live = sum(s.get("rx-alloc-fail", 0) for s in qs
               if s["queue-type"] == "rx")
    if d.get("rx-alloc-fail", -1) < live:
        print("# device rx-alloc-fail %s < the queues' %d" %
              (d.get("rx-alloc-fail"), live))
        bad = 1
    return bad


def pool_napis(model, ids):
    """The NAPI ids the port's page_pools should carry under MODEL, given
    the rx queues' NAPI ids: one pool per queue, with its queue's NAPI,
    but COREC's consumers of a shared queue (groups of corec_consumers
    consecutive queues, all when 0) share one pool, with no NAPI (0) when
    the group has more than one queue."""
    if model != "corec":
        return sorted(i for i in ids if i is not None)
    with open("/sys/module/rxbisect/parameters/corec_consumers") as f:
        g = int(f.read()) or len(ids)
    groups = [ids[i:i + g] for i in range(0, len(ids), g)]
    return sorted(grp[0] if len(grp) == 1 else 0 for grp in groups)


def cmd_napi(nf, name, nq, model=None):
    idx = ifindex(name)
    bad = 0
    queues = [q for q in nf.dump("queue-get", {"ifindex": idx})
              if q["ifindex"] == idx]
    napi = {"rx": {}, "tx": {}}
    for q in queues:
        napi[q["type"]][q["id"]] = q.get("napi-id")
    for kind in ("rx", "tx"):
        if sorted(napi[kind]) != list(range(nq)):
            print("# %s queues %s, expected 0..%d" %
                  (kind, sorted(napi[kind]), nq - 1))
            bad = 1
    ids = [napi["rx"].get(q) for q in range(nq)]
    print("# napi ids " + " ".join("q%d=%s" % (q, i)
                                   for q, i in enumerate(ids)))
    if None in ids or len(set(ids)) != nq:
        print("# rx queues without a NAPI id of their own")
        bad = 1
    for q in range(nq):
        if napi["tx"].get(q) != napi["rx"].get(q):
            print("# tx queue %d: NAPI %s, rx queue %d's is %s" %
                  (q, napi["tx"].get(q), q, napi["rx"].get(q)))
            bad = 1
    pools = [p for p in nf.dump("page-pool-get", {})
             if p.get("ifindex") == idx and "detach-time" not in p]
    pids = sorted(p.get("napi-id", 0) for p in pools)
    print("# %d page_pools: napi ids %s" % (len(pools), pids))
    if pids != pool_napis(model, ids):
        print("# page_pools do not match the queues' NAPI ids: expected %s"
              % pool_napis(model, ids))
        bad = 1
    listed = {n["id"] for n in nf.dump("napi-get", {"ifindex": idx})}
    if not set(ids) <= listed:
        print("# napi-get lists %s" % sorted(listed))
        bad = 1
    return bad


def cmd_xdpfeat(nf, name, models):
    idx = ifindex(name)
    for m in models:
        with open("/sys/module/rxbisect/parameters/ring_model", "w") as f:
            f.write(m)
        d = nf.do("dev-get", {"ifindex": idx})
        out = []
        for k in ("xdp-features", "xdp-rx-metadata-features"):
            feat = d.get(k, [])
            if isinstance(feat, int):
                feat = [str(feat)]
            out.append(",".join(sorted(feat)) or "-")
        print("%s %s meta=%s" % (m, out[0], out[1]))
    return 0


def cmd_down(nf, name):
    idx = ifindex(name)
    bad = 0
    queues = [q for q in nf.dump("queue-get", {"ifindex": idx})
              if q.get("napi-id")]
    if queues:
        print("# queues with a NAPI while down: %s" % queues)
        bad = 1
    pools = [p for p in nf.dump("page-pool-get", {})
             if p.get("ifindex") == idx and "detach-time" not in p]
    if pools:
        print("# attached page_pools while down: %s" % pools)
        bad = 1
    return bad


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    nf = family()
    cmd = sys.argv[1]
    if cmd == "has":
        if sys.argv[2].replace("-", "_") not in nf.ops and \
                sys.argv[2] not in nf.ops:
            skip("the spec has no %s" % sys.argv[2])
        try:
            nf.dump(sys.argv[2], {})
        except Exception as e:
            skip("kernel has no netdev %s: %s" % (sys.argv[2], e))
        return 0
    if cmd == "qstats":
        return cmd_qstats(nf, sys.argv[2])
    if cmd == "napi":
        models = sys.argv[4:] or [None]
        bad = 0
        for m in models:
            if m:
                with open("/sys/module/rxbisect/parameters/ring_model",
                          "w") as f:
                    f.write(m)
                print("# ring_model %s" % m)
            r = cmd_napi(nf, sys.argv[2], int(sys.argv[3]), m)
            print("%s %s" % ("ok" if not r else "not ok", m or "-"))
            bad |= r
        return bad
    if cmd == "down":
        return cmd_down(nf, sys.argv[2])
    if cmd == "xdpfeat":
        if "dev_get" not in nf.ops and "dev-get" not in nf.ops:
            skip("the spec has no dev-get")
        try:
            return cmd_xdpfeat(nf, sys.argv[2], sys.argv[3:])
        except OSError as e:
            skip("kernel has no netdev dev-get: %s" % e)
    if cmd == "json":
        print(json.dumps(nf.dump(sys.argv[2], json.loads(sys.argv[3]))))
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
