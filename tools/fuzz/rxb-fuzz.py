#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rxb-fuzz: a control-plane fuzzer for the rxbisect driver.

With a seed it prints, it drives a random sequence of every control
interface of the driver while UDP traffic runs both ways through the port
pair of device rxbisect0: module parameter writes, devlink parameters,
ethtool -G/-L/-C/-K/-X/-N/-S, MTU, link up/down, ring-model switches, XDP
attach/detach, AF_XDP bind/close (progs/rxb_xsk), debugfs fault knobs and
frame injection, and port creation/deletion (the bus's new_device and
del_device, ip link add/del), with bad values mixed in.  After each step
it checks:

  - the kernel log has no splat (lib_kmsg.sh's list);
  - a refused request was refused with a message (the tool's error, or the
    driver's line in the kernel log) and changed nothing the matching
    "get" shows; a request outside the documented range was refused; an
    accepted one reads back;
  - the pair still forwards (UDP echo over several flows, each way), or a
    port is cleanly down (admin down, no carrier);
  - every ethtool -S counter that is documented to accumulate has not gone
    down (a re-created port starts a new series).

The caller (selftests/drivers/net/rxbisect/fuzz.sh) loads the module, and
afterwards unloads it and checks that every page_pool got its pages back.

Every choice comes from random.Random("SEED:STEP"), one generator per
step, never from the time: step N of seed S always chooses the same
action and values (what a step draws cannot shift the next one), so
"--seed S" replays the sequence, and "--steps N" stops at step N.  --secs bounds the run in time (the step reached is printed).

Exit status: 0 all checks held, 1 a check failed (the step, the seed and
the replay command are printed), 2 setup failed.
"""
import argparse
import ctypes
import errno
import fcntl
import os
import random
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

CLONE_NEWNET = 0x40000000
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
PROGS = os.path.join(TOP, "selftests/drivers/net/rxbisect/progs")
DBG = "/sys/kernel/debug/rxbisect"
MODP = "/sys/module/rxbisect/parameters"
BUS = "/sys/bus/rxbisect"
IP0, IP1 = "192.0.2.1", "192.0.2.2"
ECHO_PORT = 7777		# the probe's echo server, in NS1
PROBE_PORTS = (41000, 41001, 41002, 41003, 41004, 41005)
SINK_PORT = 9999		# the background traffic's sinks
MODELS_FALLBACK = ["privring"]

SPLAT_RE = re.compile(
    r"WARNING:|BUG:|Oops|general protection|RIP:|Call Trace|refcount_t|"
    r"leaked|stalled pool shutdown|KASAN:|UBSAN:|ODEBUG:|"
    r"possible circular locking|suspicious RCU usage|"
    r"inconsistent lock state|possible recursive locking|"
    r"kmemleak: .*disabled|soft lockup|hung task|rcu_sched self-detected|"
    r"rcu: INFO")

# ethtool -S counters documented to accumulate across rebuilds
# (drivers/net/rxbisect/drv/ethtool.c): device-wide, except the working
# set, flow table, memory tier (reset with the rings) and page_pool's own
# statistics; per queue, struct rxb_qstats, struct rxb_qxstats but pp_size,
# and the NIC's queue registers; every tx<q>_ counter but inflight (the
# frames on the ring now, a gauge).
DEV_GAUGE_RE = re.compile(r"^(io_ws_|flow_|nicmem_|rx_pp_(?!fresh$|released$))")
QSTATS = ("hw_packets hw_bytes nobuf_drops ring_full_drops oversize_drops "
          "packets bytes polls refills alloc_fails doorbells stack_packets "
          "stack_bytes skb_drops dma_errors irqs polls_off_cpu "
          "refill_backoffs pp_fresh pp_released xdp_pass xdp_drop xdp_tx "
          "xdp_tx_errors xdp_redirect xdp_redirect_errors xdp_aborted "
          "xdp_copies xdp_redirect_nicmem xdp_redirect_nicmem_bytes "
          "ntuple_steered pcie_to_host_data_bytes pcie_to_host_meta_bytes "
          "pcie_to_nic_desc_bytes pcie_to_nic_mmio_bytes "
          "pcie_to_host_mmio_bytes pcie_mmio_reads pcie_to_nic_data_bytes"
          ).split()
RXQ_RE = re.compile(r"^rx\d+_(%s)$" % "|".join(QSTATS))
TXQ_RE = re.compile(r"^tx\d+_(?!inflight$)")
DEV_NAMES_RE = re.compile(r"^(rx|tx)_|^(dma_bytes|engine_frames|pcie_|"
                          r"nic_ctx_violations)")

libc = ctypes.CDLL(None, use_errno=True)


class Fail(Exception):
    """A check failed."""


def log(msg):
    print(msg, flush=True)


# ---- namespaces and commands ------------------------------------------------

class Netns:
    """A named network namespace: its fd, for setns()."""

    def __init__(self, name):
        self.name = name
        path = "/run/netns/" + name
        if not os.path.exists(path):
            subprocess.run(["ip", "netns", "add", name], check=True)
        self.fd = os.open(path, os.O_RDONLY)

    def enter(self):
        if libc.setns(self.fd, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), "setns " + self.name)


INIT_NS_FD = os.open("/proc/self/ns/net", os.O_RDONLY)


def in_ns(ns, fn):
    """Run fn() with this thread in ns (sockets made there stay there)."""
    ns.enter()
    try:
        return fn()
    finally:
        libc.setns(INIT_NS_FD, CLONE_NEWNET)


TRACE = os.environ.get("RXB_FUZZ_TRACE") == "1"
# the debug kernel runs several times slower (run-vm.sh sets the scale)
SCALE = max(1, int(os.environ.get("RXB_TIMEOUT_SCALE", "1") or 1))


def run(cmd, ns=None, timeout=60, inp=None):
    """Run cmd (a list) in ns; (rc, stdout, stderr)."""
    pre = ns.enter if ns else None
    t = time.monotonic()
    try:
        p = subprocess.run(cmd, preexec_fn=pre, capture_output=True,
                           text=True, timeout=timeout, input=inp)
        ret = p.returncode, p.stdout, p.stderr.strip()
    except subprocess.TimeoutExpired:
        ret = 124, "", "timed out after %d s" % timeout
    if TRACE:
        log("     [%.2fs] %s" % (time.monotonic() - t, " ".join(cmd)[:80]))
    return ret


def sys_write(path, val):
    """Write val to a sysfs/debugfs file in one write(); (errno, '')."""
    try:
        fd = os.open(path, os.O_WRONLY)
    except OSError as e:
        return e.errno, str(e)
    try:
        os.write(fd, val.encode() if isinstance(val, str) else val)
        return 0, ""
    except OSError as e:
        return e.errno, os.strerror(e.errno)
    finally:
        os.close(fd)


def sys_read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError as e:
        return "<%s>" % os.strerror(e.errno)


# ---- ethtool and interface ioctls, in-process ----------------------------------
#
# A command costs 0.2..2 s under TCG on a loaded host: what every step
# reads (flags, MTU, ethtool -S, -g, -l, -c) goes through SIOCETHTOOL and
# SIOCGIF* on a socket of the port's namespace instead.

SIOCGIFFLAGS, SIOCGIFMTU, SIOCETHTOOL = 0x8913, 0x8921, 0x8946
SIOCGIFHWADDR = 0x8927
IFF_UP, IFF_RUNNING = 0x1, 0x40
ETHTOOL_GDRVINFO, ETHTOOL_GCOALESCE, ETHTOOL_GRINGPARAM = 0x03, 0x0e, 0x10
ETHTOOL_GSTRINGS, ETHTOOL_GSTATS, ETHTOOL_GCHANNELS = 0x1b, 0x1d, 0x3c
ETH_SS_STATS, ETH_GSTRING_LEN = 1, 32


def if_ioctl(sock, name, req, data=b""):
    """ioctl req with an ifreq for name; the ifreq's union is data."""
    ifr = struct.pack("16s24s", name.encode(), data)
    return fcntl.ioctl(sock.fileno(), req, ifr)[16:]


def eth_ioctl(sock, name, buf):
    """SIOCETHTOOL with buf (a ctypes buffer) as ifr_data."""
    if_ioctl(sock, name, SIOCETHTOOL,
             struct.pack("P", ctypes.addressof(buf)))
    return buf


def eth_u32s(sock, name, cmd, n):
    """An ethtool get of n u32s (the first is cmd)."""
    buf = ctypes.create_string_buffer(struct.pack("I", cmd), 4 * n)
    return struct.unpack("%dI" % n, eth_ioctl(sock, name, buf).raw)


def eth_stats(sock, name):
    """ethtool -S: {name: value}."""
    drv = eth_u32s(sock, name, ETHTOOL_GDRVINFO, 49)
    n = drv[45]				# n_stats
    slack = n + 256			# the kernel writes its own count
    sb = ctypes.create_string_buffer(struct.pack("III", ETHTOOL_GSTRINGS,
                                                 ETH_SS_STATS, 0),
                                     12 + slack * ETH_GSTRING_LEN)
    eth_ioctl(sock, name, sb)
    ns = struct.unpack_from("I", sb.raw, 8)[0]
    vb = ctypes.create_string_buffer(struct.pack("II", ETHTOOL_GSTATS, 0),
                                     8 + (ns + 256) * 8)
    eth_ioctl(sock, name, vb)
    nv = struct.unpack_from("I", vb.raw, 4)[0]
    if nv != ns:
        raise OSError(errno.EAGAIN, "stats count changed")
    vals = struct.unpack_from("%dQ" % nv, vb.raw, 8)
    out = {}
    for i in range(ns):
        k = sb.raw[12 + i * 32:12 + (i + 1) * 32].split(b"\0")[0]
        out[k.decode()] = vals[i]
    return out


# ---- the kernel log ---------------------------------------------------------

class Kmsg:
    """Reads /dev/kmsg from where it was opened: new lines each step."""

    def __init__(self):
        self.fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
        os.lseek(self.fd, 0, os.SEEK_END)

    def new(self):
        out = []
        while True:
            try:
                rec = os.read(self.fd, 8192)
            except BlockingIOError:
                break
            except OSError as e:
                if e.errno == errno.EPIPE:	# overwritten: go on
                    continue
                raise
            txt = rec.decode(errors="replace")
            head, _, msg = txt.partition(";")
            out.append(msg.split("\n")[0])
        return out


# ---- traffic and probes -----------------------------------------------------

TRAFFIC = r"""
import socket, sys, time, select
dst, rate, nports, sink = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
rx.bind(("", sink))
rx.setblocking(False)
tx = []
for i in range(nports):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("", 0))
    tx.append(s)
payload = b"t" * 200
n = 0
t0 = time.monotonic()
while True:
    for s in tx:
        try:
            s.sendto(payload, (dst, sink))
        except OSError:
            pass
        n += 1
    while True:
        try:
            rx.recv(2048)
        except OSError:
            break
    ahead = t0 + n / rate - time.monotonic()
    if ahead > 0:
        time.sleep(ahead)
    elif ahead < -1:
        t0 = time.monotonic()
        n = 0
"""


class Traffic:
    """UDP both ways between the namespaces, in two child processes."""

    def __init__(self, ns0, ns1, rate):
        self.procs = []
        for ns, dst in ((ns0, IP1), (ns1, IP0)):
            self.procs.append(subprocess.Popen(
                [sys.executable, "-S", "-c", TRAFFIC, dst, str(rate), "8",
                 str(SINK_PORT)], preexec_fn=ns.enter,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def alive(self):
        return all(p.poll() is None for p in self.procs)

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


class Prober:
    """UDP echo: a server socket in NS1 (a thread), one client socket per
    flow in NS0; probe() counts the flows answered."""

    def __init__(self, ns0, ns1):
        self.srv = in_ns(ns1, lambda: socket.socket(socket.AF_INET,
                                                    socket.SOCK_DGRAM))
        self.srv.bind(("", ECHO_PORT))
        self.cli = []
        for p in PROBE_PORTS:
            s = in_ns(ns0, lambda: socket.socket(socket.AF_INET,
                                                 socket.SOCK_DGRAM))
            s.bind(("", p))
            s.setblocking(False)
            self.cli.append(s)
        self.seq = 0
        self.stop_ev = threading.Event()
        self.thr = threading.Thread(target=self._echo, daemon=True)
        self.thr.start()

    def _echo(self):
        self.srv.settimeout(0.2)
        while not self.stop_ev.is_set():
            try:
                d, a = self.srv.recvfrom(2048)
                self.srv.sendto(d, a)
            except OSError:
                pass

    def probe(self, wait=4.0, need=None):
        """Send a token on every flow (again every 0.5 s) until each is
        answered or wait seconds pass; the number of flows answered."""
        need = len(self.cli) if need is None else need
        self.seq += 1
        tok = {}
        for i, s in enumerate(self.cli):
            tok[s] = ("p%d.%d" % (self.seq, i)).encode()
        got = set()
        deadline = time.monotonic() + wait
        nxt = 0
        while len(got) < len(self.cli):
            now = time.monotonic()
            if now >= deadline:
                break
            if now >= nxt:
                for s in self.cli:
                    if s not in got:
                        try:
                            s.sendto(tok[s], (IP1, ECHO_PORT))
                        except OSError:
                            pass
                nxt = now + 0.5
            r, _, _ = select.select([s for s in self.cli if s not in got],
                                    [], [], min(0.1, deadline - now))
            for s in r:
                try:
                    while True:
                        if s.recv(2048) == tok[s]:
                            got.add(s)
                except OSError:
                    pass
            if len(got) >= need and need < len(self.cli) and \
               time.monotonic() > deadline - wait / 2:
                break
        return len(got)

    def close(self):
        self.stop_ev.set()
        self.thr.join(2)
        for s in self.cli + [self.srv]:
            s.close()


# ---- values -----------------------------------------------------------------

def pow2(r, lo, hi):
    """A power of two in lo..hi, small ones likelier."""
    a, b = lo.bit_length() - 1, hi.bit_length() - 1
    return 1 << min(r.randint(a, b), r.randint(a, b))


def small(r, lo, hi):
    """lo..hi, mostly near lo."""
    if r.random() < 0.2:
        return r.choice([lo, hi])
    span = hi - lo
    return lo + min(int(r.expovariate(1.0) * max(1, span // 64)), span)


def garbage(r):
    # (never empty: sysfs takes a write of nothing as a no-op)
    return r.choice(["x", "-1", "1x", "0x", "4294967296", "99999999999",
                     "  ", "nan", "1.5", "\x01", "a" * 300, "on off"])


class P:
    """A ring-model parameter: good(r) gives an in-range value (a ring model
    may still refuse it), bad(r) one outside the documented range (must be
    refused)."""

    def __init__(self, good, bad):
        self.good, self.bad = good, bad


def enum(vals, bads):
    return P(lambda r: r.choice(vals), lambda r: r.choice(bads + [garbage(r)]))


def urange(lo, hi, gen=None, bads=()):
    g = gen or (lambda r: str(small(r, lo, hi)))
    b = list(bads) + ([str(lo - 1)] if lo > 0 else []) + [str(hi + 1)]
    return P(g, lambda r: r.choice(b + [garbage(r)]))


def upow2(lo, hi):
    return P(lambda r: str(pow2(r, lo, hi)),
             lambda r: r.choice([str(lo // 2), str(lo + 1), str(hi * 2),
                                 str(3 * lo), garbage(r)]))


def make_params(models, ncpu):
    onoff = ["off", "on"]
    return {
        "ring_model": enum(models, ["nosuch", "privring2", "PRIVRING"]),
        "share_factor": urange(1, 32),
        "ax_ring_size": upow2(64, 8192),
        "ax_policy": enum(["rr", "most", "random"], ["first", "RR"]),
        "ax_assoc": urange(0, 32),
        "ax_assoc_map": P(lambda r: r.choice(
            ["", "0-1", "0-3;2-5", "+0-1", "0", "1;0", "0-1;1-2;2-3"]),
            lambda r: r.choice(["x", "0-", ";;", "1-0-2", "0-x"])),
        "ax_link": P(lambda r: r.choice(["", "0", "1", "0,1"]),
                     lambda r: r.choice(["x", "-3", "q1"])),
        "notif_compress": urange(0, 1),
        "notif_timeout_us": urange(1, 1000000),
        "ws_window": upow2(256, 1 << 20),
        "cache_kb": urange(1, 1 << 22),
        "corec_consumers": urange(0, 32),
        "corec_irq_policy": enum(["rr", "all"], ["some"]),
        "engine": enum(["inline"] + ["cpu%d" % i for i in range(ncpu)],
                       ["cpu32", "cpu-1", "gpu0", "cpu"]),
        # pipelines on CPUs N.. of engine=cpuN: past the last CPU refused
        "engines": urange(1, 16, lambda r: str(r.choice([1, 1, 2, ncpu]))),
        "dsh_period_us": urange(100, 10000000),
        "dsh_window": urange(8, 64),
        "dsh_tput_mbps": urange(1, 1000000),
        "dsh_overload_ratio": urange(2, 1024),
        "flow_table_size": urange(16, 1 << 20),
        "flow_idle_ms": urange(1, 600000),
        "nicmem_kb": urange(0, 1 << 20, lambda r: str(r.choice(
            [0, 0, 64, 256, 1024, 4096, 16384]))),
        "nicmem_fetch_ns": urange(0, 1000000),
        "enso_pipes": upow2(1, 512),
        "enso_pipe_kb": upow2(4, 2048),
        "enso_prefetch": enum(onoff, ["maybe"]),
        "llc_budget": urange(4096, 1 << 30, bads=["0", "1"]),
        "ceio_release": enum(["batch", "page"], ["none"]),
        "ceio_fetch": enum(["sync", "async"], ["later"]),
        "ceio_force_slow": enum(onoff, ["2"]),
        "nicmem_split": enum(onoff, ["yes"]),
        "stall_timeout_ms": urange(100, 600000),
        "debug_ctx": enum(["0", "1", "y", "n", "on", "off"],
                          ["2", "yes please", "1.5", "onn"]),
    }


# ---- the fuzzer -------------------------------------------------------------

class Fuzzer:
    def __init__(self, args):
        self.a = args
        self.r = random.Random(args.seed)
        self.ns = [Netns(args.ns0), Netns(args.ns1)]
        # a socket in each namespace for the ioctls
        self.ctl = [in_ns(ns, lambda: socket.socket(socket.AF_INET,
                                                    socket.SOCK_DGRAM))
                    for ns in self.ns]
        self.kmsg = Kmsg()
        self.step = 0
        self.models = (sys_read(DBG + "/models").split() or MODELS_FALLBACK)
        self.ncpu = os.cpu_count() or 1
        self.params = make_params(self.models, self.ncpu)
        self.modparams = sorted(
            n for n in os.listdir(MODP)
            if os.stat(os.path.join(MODP, n)).st_mode & 0o200)
        self.ports = ["fz0", "fz1"]	# the pair of rxbisect0, NS0 and NS1
        self.down = set()		# ports we set down
        self.xdp = {}			# port -> program attached
        self.xsk = None			# the rxb_xsk process
        self.extra = {}			# bus id -> True, created devices
        self.links = set()		# ip link add'ed port names
        self.series = 0			# counter series (bumped on re-creation)
        self.prev = {}			# port -> last counters
        self.nq = 0
        self.stats = {"refused": 0, "accepted": 0, "bad_refused": 0}
        self.setup_pair()
        self.traffic = Traffic(self.ns[0], self.ns[1], args.rate)
        self.prober = Prober(self.ns[0], self.ns[1])

    # -- helpers --

    def nsof(self, port):
        return self.ns[self.ports.index(port)]

    def eth(self, port, *args, timeout=60):
        rc, out, err = run(["ethtool"] + list(args), self.nsof(port),
                           timeout)
        # ethtool (6.1) exits 0 when the driver refuses an insertion
        if rc == 0 and "Cannot insert" in err:
            rc = 1
        return rc, out, err

    def ipn(self, port, *args):
        return run(["ip", "-n", self.nsof(port).name] + list(args))

    def fail(self, msg):
        raise Fail(msg)

    def pair_names(self):
        """The ports of bus device rxbisect0, by ifindex (init netns)."""
        d = BUS + "/devices/rxbisect0/net"
        names = os.listdir(d) if os.path.isdir(d) else []
        return sorted(names, key=lambda n: int(sys_read(
            "/sys/class/net/%s/ifindex" % n)))

    def setup_pair(self):
        """Rename rxbisect0's ports fz0/fz1 (unless they are already), move
        them into the namespaces, address them, static neighbours, up."""
        names = self.pair_names()
        if len(names) == 2:
            for old, new in zip(names, self.ports):
                if old != new:
                    run(["ip", "link", "set", old, "name", new])
            for p, ns in zip(self.ports, self.ns):
                rc, _, err = run(["ip", "link", "set", p, "netns", ns.name])
                if rc:
                    self.fail("cannot move %s into %s: %s" % (p, ns.name, err))
        for p, ns, ip in zip(self.ports, self.ns, (IP0, IP1)):
            for c in ("default", "all"):
                in_ns(ns, lambda: sys_write(
                    "/proc/sys/net/ipv6/conf/%s/disable_ipv6" % c, "1"))
            rc, _, err = run(["ip", "-n", ns.name, "-b", "-"], inp=(
                "link set lo up\naddr replace %s/24 dev %s\n"
                "link set %s up\n" % (ip, p, p)))
            if rc:
                self.fail("cannot set %s up: %s" % (p, err))
        self.down = set()
        self.neigh()
        self.nq = self.channels("fz1")

    def mac(self, port):
        try:
            a = if_ioctl(self.sock(port), port, SIOCGIFHWADDR)[2:8]
        except OSError:
            return None
        return ":".join("%02x" % b for b in a)

    def neigh(self):
        """Permanent neighbour entries (a link down flushes them)."""
        m0, m1 = self.mac("fz0"), self.mac("fz1")
        if m0 and m1:
            self.ipn("fz0", "neigh", "replace", IP1, "lladdr", m1, "dev",
                     "fz0", "nud", "permanent")
            self.ipn("fz1", "neigh", "replace", IP0, "lladdr", m0, "dev",
                     "fz1", "nud", "permanent")

    def sock(self, port):
        return self.ctl[self.ports.index(port)]

    def channels(self, port):
        """ethtool -l: the combined count."""
        return eth_u32s(self.sock(port), port, ETHTOOL_GCHANNELS, 9)[8]

    def rings(self, port):
        """ethtool -g: (rx, tx) ring sizes."""
        g = eth_u32s(self.sock(port), port, ETHTOOL_GRINGPARAM, 9)
        return g[5], g[8]

    def coal(self, port):
        """ethtool -c: (rx-usecs, rx-frames)."""
        c = eth_u32s(self.sock(port), port, ETHTOOL_GCOALESCE, 23)
        return c[1], c[2]

    def link(self, port):
        """(admin up, running: carrier and operationally up, mtu)"""
        s = self.sock(port)
        fl = struct.unpack_from("H", if_ioctl(s, port, SIOCGIFFLAGS))[0]
        mtu = struct.unpack_from("i", if_ioctl(s, port, SIOCGIFMTU))[0]
        return bool(fl & IFF_UP), bool(fl & IFF_RUNNING), mtu

    def counters(self, port):
        """ethtool -S (retried once if a rebuild changed the count)."""
        try:
            return eth_stats(self.sock(port), port)
        except OSError:
            return eth_stats(self.sock(port), port)

    @staticmethod
    def accumulates(name):
        if RXQ_RE.match(name) or TXQ_RE.match(name):
            return True
        if re.match(r"^(rx|tx)\d+_", name):
            return False	# a model's own per-queue counters
        return bool(DEV_NAMES_RE.match(name)) and not DEV_GAUGE_RE.match(name)

    # -- one request, refused or accepted --

    def request(self, what, do, bad, fingerprint, readback=None,
                need_log=False):
        """Run do() -> (rc, msg).  A refusal (rc != 0) needs a message
        (msg, or a new kernel log line) and an unchanged fingerprint(); a
        bad value must be refused; an accepted one must pass readback()
        (a string saying what is wrong, or None)."""
        before = fingerprint()
        self.kmsg_lines += self.kmsg.new()
        mark = len(self.kmsg_lines)
        rc, msg = do()
        self.kmsg_lines += self.kmsg.new()
        klog = [line for line in self.kmsg_lines[mark:]
                if "rxbisect" in line or "rxb" in line or "fz" in line]
        if rc:
            self.stats["refused"] += 1
            if bad:
                self.stats["bad_refused"] += 1
            why = msg or (klog[-1] if klog else "")
            log("   refused (%s): %s" % (rc, why[:160]))
            if need_log and rc == errno.EINVAL and not klog:
                self.fail("%s: refused without a kernel log line" % what)
            if not why:
                self.fail("%s: refused without a message" % what)
            after = fingerprint()
            if after != before:
                self.fail("%s: refused, but changed:\n  before %r\n  after  %r"
                          % (what, before, after))
            return False
        self.stats["accepted"] += 1
        if bad:
            self.fail("%s: a value outside the documented range was accepted"
                      % what)
        if readback:
            err = readback()
            if err:
                self.fail("%s: accepted, but %s" % (what, err))
        return True

    # -- actions: each draws the same numbers whatever the state --

    def a_modparam(self):
        r = self.r
        name = r.choice(self.modparams)
        bad = r.random() < 0.3
        p = self.params.get(name)
        val = (p.bad(r) if bad else p.good(r)) if p else garbage(r)
        if not p:
            bad = False
        path = os.path.join(MODP, name)
        log("   echo %r > %s" % (val, path))

        def fp():
            return {n: sys_read(os.path.join(MODP, n)) for n in self.modparams}

        def rb():
            got = sys_read(path)
            want = val.strip()
            if name == "debug_ctx":
                want = "Y" if want in ("1", "y", "on") else "N"
            # the topology strings' empty value is their default
            if got != want and not (want == "" and
                                    got in ("", "(none)", "default")):
                return "reads back %r, not %r" % (got, want)
            return None
        # as echo writes it, with a newline
        self.request("modparam %s=%r" % (name, val),
                     lambda: sys_write(path, val + "\n"), bad, fp, rb,
                     need_log=True)

    def a_devlink(self):
        r = self.r
        ids = sorted(self.extra)
        dev = "rxbisect/rxbisect%d" % (ids[r.randrange(len(ids))] if ids and
                                       r.random() < 0.25 else 0)
        names = [n for n in self.params if n not in ("debug_ctx",)]
        name = r.choice(names)
        bad = r.random() < 0.3
        val = self.params[name].bad(r) if bad else self.params[name].good(r)
        if val == "" or val.isspace() or "\x01" in val:
            val = "nosuch" if not val.strip() else "x"
        log("   devlink dev param set %s name %s value %r" % (dev, name, val))

        def fp():
            rc, out, _ = run(["devlink", "dev", "param", "show", dev])
            return out

        def rb():
            rc, out, _ = run(["devlink", "dev", "param", "show", dev,
                              "name", name])
            m = re.search(r"cmode runtime value (.*)", out)
            got = m.group(1).strip() if m else None
            if got is not None and got != val and \
               not (val == "" and got == ""):
                return "reads back %r, not %r" % (got, val)
            return None
        self.request("devlink %s %s=%r" % (dev, name, val),
                     lambda: run(["devlink", "dev", "param", "set", dev,
                                  "name", name, "value", val, "cmode",
                                  "runtime"])[::2], bad, fp, rb)

    def a_ring(self):
        r = self.r
        port = r.choice(self.ports)
        bad = r.random() < 0.25
        rx = str(r.choice([0, 63, 100, 16384, 32, 65]) if bad else
                 pow2(r, 64, 8192))
        tx = str(pow2(r, 64, 8192))
        args = ["-G", port, "rx", rx, "tx", tx]
        log("   ethtool %s" % " ".join(args))

        def rb():
            got = self.rings(port)
            if got != (int(rx), int(tx)):
                return "ethtool -g says rx %d tx %d" % got
            return None
        self.request("ethtool " + " ".join(args),
                     lambda: self.eth(port, *args)[::2], bad,
                     lambda: self.rings(port), rb)

    def a_channels(self):
        r = self.r
        port = r.choice(self.ports)
        bad = r.random() < 0.25
        n = r.choice([0, 33, 1000]) if bad else r.randint(1, 4)
        args = ["-L", port, "combined", str(n)]
        log("   ethtool %s" % " ".join(args))

        def rb():
            got = self.channels(port)
            return None if got == n else "ethtool -l says %d" % got
        ok = self.request("ethtool " + " ".join(args),
                          lambda: self.eth(port, *args)[::2], bad,
                          lambda: self.channels(port), rb)
        if ok and port == "fz1":
            self.nq = n

    def a_coalesce(self):
        r = self.r
        port = r.choice(self.ports)
        bad = r.random() < 0.25
        if bad:
            us, fr = r.choice([(10001, 1), (10, 4097), (0, 2), (0, 64)])
        else:
            us = r.choice([0, 0, 1, 10, 50, 100, 1000, 10000])
            fr = r.choice([0, 1]) if us == 0 else r.choice([0, 1, 8, 64,
                                                            4096])
        args = ["-C", port, "rx-usecs", str(us), "rx-frames", str(fr)]
        log("   ethtool %s" % " ".join(args))

        def rb():
            got = self.coal(port)
            return None if got == (us, fr) else "ethtool -c says %d/%d" % got
        self.request("ethtool " + " ".join(args),
                     lambda: self.eth(port, *args)[::2], bad,
                     lambda: self.coal(port), rb)

    def a_features(self):
        r = self.r
        port = r.choice(self.ports)
        feat = r.choice(["rx", "rxhash", "gro", "tso", "sg", "ntuple", "tx",
                         "rx-vlan-offload", "hw-tc-offload",
                         "tls-hw-tx-offload", "tls-hw-rx-offload"])
        on = r.choice(["on", "off"])
        log("   ethtool -K %s %s %s" % (port, feat, on))
        rc, out, err = self.eth(port, "-K", port, feat, on)
        log("   rc %d %s" % (rc, (err or out).strip()[:120]))

    def a_rss(self):
        r = self.r
        port = r.choice(self.ports)
        kind = r.randrange(6)
        nq = max(self.nq if port == "fz1" else self.channels(port), 1)
        bad = False
        if kind == 0:
            args = ["-X", port, "equal", str(r.randint(1, 4))]
        elif kind == 1:
            w = [r.randint(0, 3) for _ in range(r.randint(1, 4))]
            if not any(w):
                w[0] = 1
            args = ["-X", port, "weight"] + [str(x) for x in w]
        elif kind == 2:
            args = ["-X", port, "default"]
        elif kind == 3:
            args = ["-X", port, "hkey", ":".join(
                "%02x" % r.randrange(256) for _ in range(40))]
        elif kind == 4:
            bad = True
            args = ["-X", port, "hfunc", "xor"]
        else:
            bad = True
            args = ["-X", port, "hkey", ":".join(
                "%02x" % r.randrange(256) for _ in range(r.choice([8, 41])))]
        log("   ethtool %s (%d queues)" % (" ".join(args), nq))
        self.request("ethtool " + " ".join(args),
                     lambda: self.eth(port, *args)[::2], bad,
                     lambda: self.eth(port, "-x", port)[1])

    def a_ntuple(self):
        r = self.r
        port = r.choice(self.ports)
        kind = r.randrange(5)
        q = r.randint(-1, 3)
        loc = r.randrange(128)
        sp = r.randint(20000, 30000)
        bad = False
        if kind <= 1:
            args = ["-N", port, "flow-type", r.choice(["udp4", "tcp4"]),
                    "src-port", str(sp), "dst-port",
                    str(r.choice([SINK_PORT, 9])), "action", str(q),
                    "loc", str(loc)]
        elif kind == 2:
            args = ["-N", port, "delete", str(loc)]
        elif kind == 3:
            bad = True
            args = ["-N", port, "flow-type", "udp4", "src-port", str(sp),
                    "action", str(r.choice([33, 64, 1000])), "loc",
                    str(loc)]
        else:
            bad = True
            args = r.choice([
                ["-N", port, "flow-type", "udp4", "src-port", str(sp),
                 "action", "0", "loc", str(r.choice([128, 500, 100000]))],
                ["-N", port, "flow-type", "ether", "dst",
                 "00:11:22:33:44:55", "action", "0"],
                ["-N", port, "flow-type", "udp4", "src-port", str(sp),
                 "tos", "4", "action", "0"]])
        log("   ethtool %s" % " ".join(args))
        self.request("ethtool " + " ".join(args),
                     lambda: self.eth(port, *args)[::2], bad,
                     lambda: self.eth(port, "-n", port)[1])

    def a_mtu(self):
        r = self.r
        port = r.choice(self.ports)
        bad = r.random() < 0.25
        mtu = (r.choice([0, 67, 9001, 65536]) if bad else
               r.choice([68, 576, 1280, 1500, 1500, 3502, 3503, 4000, 9000,
                         r.randint(68, 9000)]))
        log("   ip link set %s mtu %d" % (port, mtu))

        def rb():
            got = self.link(port)[2]
            return None if got == mtu else "mtu reads %d" % got
        self.request("mtu %d on %s" % (mtu, port),
                     lambda: self.ipn(port, "link", "set", port, "mtu",
                                      str(mtu))[::2], bad,
                     lambda: self.link(port)[2], rb)

    def a_updown(self):
        r = self.r
        port = r.choice(self.ports)
        both = r.random() < 0.3
        ports = self.ports if both else [port]
        if any(p in self.down for p in ports):
            for p in ports:
                log("   ip link set %s up" % p)
                rc, _, err = self.ipn(p, "link", "set", p, "up")
                if rc:
                    self.fail("link up %s: %s" % (p, err))
                self.down.discard(p)
            self.neigh()
        else:
            for p in ports:
                log("   ip link set %s down" % p)
                rc, _, err = self.ipn(p, "link", "set", p, "down")
                if rc:
                    self.fail("link down %s: %s" % (p, err))
                self.down.add(p)

    def a_model(self):
        r = self.r
        m = r.choice(self.models)
        how = r.randrange(2)
        if how == 0:
            log("   devlink ring_model %s" % m)
            rc, _, err = run(["devlink", "dev", "param", "set",
                              "rxbisect/rxbisect0", "name", "ring_model",
                              "value", m, "cmode", "runtime"])
        else:
            log("   modparam ring_model=%s" % m)
            rc, err = sys_write(MODP + "/ring_model", m)
        log("   rc %s %s" % (rc, err[:160]))

    def a_xdp(self):
        r = self.r
        port = r.choice(self.ports)
        prog = r.choice(["xdp_pass", "xdp_pass_adjust", "xdp_mb_pass", None])
        if self.xsk and port == "fz1":
            log("   (fz1 has the AF_XDP program)")
            return
        if prog is None or port in self.xdp:
            log("   ip link set %s xdpdrv off" % port)
            rc, _, err = self.ipn(port, "link", "set", "dev", port, "xdpdrv",
                                  "off")
            if rc:
                self.fail("XDP detach on %s: %s" % (port, err))
            self.xdp.pop(port, None)
            return
        obj = os.path.join(PROGS, prog + ".bpf.o")
        log("   ip link set %s xdpdrv obj %s" % (port, prog))
        rc, _, err = self.ipn(port, "-force", "link", "set", "dev", port,
                              "xdpdrv", "obj", obj, "sec", "xdp")
        log("   rc %d %s" % (rc, err[-160:]))
        if rc == 0:
            self.xdp[port] = prog

    def xsk_stop(self):
        if not self.xsk:
            return
        if self.xsk.poll() is None:
            self.xsk.send_signal(signal.SIGINT)
            try:
                self.xsk.wait(5)
            except subprocess.TimeoutExpired:
                self.xsk.kill()
                self.xsk.wait()
        log("   rxb_xsk exited %s" % self.xsk.returncode)
        self.xsk = None
        self.ipn("fz1", "link", "set", "dev", "fz1", "xdpdrv", "off")
        self.xdp.pop("fz1", None)

    def a_xsk(self):
        r = self.r
        q = r.randint(0, 4)
        zc = r.random() < 0.5
        secs = r.randint(2, 20)
        if self.xsk and self.xsk.poll() is None:
            log("   close the AF_XDP socket")
            self.xsk_stop()
            return
        self.xsk_stop()
        exe = os.path.join(PROGS, "rxb_xsk")
        if not os.access(exe, os.X_OK):
            log("   (no progs/rxb_xsk)")
            return
        cmd = [exe, "recv", "-i", "fz1", "-q", str(q), "-n", "100000000",
               "-p", "9", "-o", os.path.join(PROGS, "xdp_xsk.bpf.o"), "-t",
               str(secs)] + (["-z"] if zc else [])
        log("   rxb_xsk recv -q %d%s -t %d" % (q, " -z" if zc else "", secs))
        self.xsk = subprocess.Popen(cmd, preexec_fn=self.ns[1].enter,
                                    stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
        self.xdp["fz1"] = "xdp_xsk"
        time.sleep(0.5)

    KNOBS = {
        # name: (path under <port>/, good values, bad values)
        "alloc_fail": ("fault/alloc_fail", (1, 10, 100, 500, 1000),
                       (1001, 5000)),
        "dma_fail": ("fault/dma_fail", (1, 10, 100, 1000), (1001,)),
        "engine_stall": ("fault/engine_stall", (1,), (2, 7)),
        "reconfig_fail": ("fault/reconfig_fail", (1, 2, 3, 4, 5), ()),
        "stall": ("q%d/stall", (1,), (2,)),
        "work": ("q%d/work", (1, 16, 256, 1000), (1000001,)),
        "complete_delay": ("q%d/complete_delay", (1, 50, 500), (5001,)),
        "irq_cpu": ("q%d/irq_cpu", (0, 1), (64, 4096)),
        "restart": ("q%d/restart", (1,), (0, 2)),
    }

    def a_fault(self):
        """A fault episode: set a knob, one reconfiguration under it, a
        moment of traffic, clear the knob."""
        r = self.r
        port = r.choice(self.ports)
        name = r.choice(sorted(self.KNOBS))
        rel, goods, bads = self.KNOBS[name]
        q = r.randint(0, 3)
        bad = bool(bads) and r.random() < 0.25
        val = r.choice(bads) if bad else r.choice(goods)
        inner = r.randrange(4)
        pause = r.choice([0.1, 0.3, 1.0])
        if "%d" in rel:
            rel = rel % q
        path = "%s/%s/%s" % (DBG, port, rel)
        if not os.path.exists(path):
            log("   (no %s: queue %d)" % (path, q))
            return
        log("   echo %d > %s" % (val, path))
        readable = name != "restart"
        fp = (lambda: sys_read(path)) if readable else (lambda: "")
        self.request("debugfs %s=%d" % (rel, val),
                     lambda: sys_write(path, str(val)), bad, fp)
        if bad or name in ("restart", "irq_cpu"):
            return
        if inner == 0:
            self.a_ring()
        elif inner == 1:
            self.a_channels()
        elif inner == 2:
            self.a_model()
        time.sleep(pause)
        log("   echo 0 > %s" % path)
        e, msg = sys_write(path, "0")
        # a queue the reconfiguration removed took its knob with it (and
        # its value: drivers/net/rxbisect/drv/debugfs.c)
        if e and not ("/q%d/" % q in path and not os.path.exists(path)):
            self.fail("cannot clear %s: %s" % (path, msg))

    def a_inject(self):
        r = self.r
        port = r.choice(self.ports)
        n = r.randint(1, 20)
        frames = []
        for _ in range(n):
            ln = r.choice([0, 1, 13, 14, 60, 64, 1514, 3600, 9014, 9100,
                           16384, 16385])
            frames.append(bytes(r.randrange(256) for _ in range(min(ln, 64)))
                          * (ln // 64) + bytes(ln % 64))
        path = "%s/%s/inject" % (DBG, port)
        log("   %d frames into %s (%s bytes)" % (
            n, path, ",".join(str(len(f)) for f in frames[:8])))
        for f in frames:
            e, msg = sys_write(path, f)
            if e and len(f) <= 16384:
                self.fail("inject of %d bytes refused: %s" % (len(f), msg))
            if not e and len(f) > 16384:
                self.fail("inject of %d bytes accepted" % len(f))

    def a_bus(self):
        r = self.r
        kind = r.randrange(6)
        bid = r.randint(1, 3)
        lname = "fzl%d" % r.randint(0, 2)

        def fp():
            return (sorted(os.listdir(BUS + "/devices")),
                    run(["ip", "-o", "link", "show", "type", "rxbisect"])[1]
                    .count("\n"))
        if kind == 0:
            exists = bid in self.extra
            log("   echo %d > new_device" % bid)
            ok = self.request("new_device %d" % bid,
                              lambda: sys_write(BUS + "/new_device", str(bid)),
                              exists, fp)
            if ok:
                self.extra[bid] = True
        elif kind == 1:
            exists = bid in self.extra
            log("   echo %d > del_device" % bid)
            ok = self.request("del_device %d" % bid,
                              lambda: sys_write(BUS + "/del_device", str(bid)),
                              not exists, fp)
            if ok:
                self.extra.pop(bid, None)
        elif kind == 2:
            val = r.choice(["abc", "-1", "\n", "4294967296", "0x"])
            f = r.choice(["new_device", "del_device"])
            log("   echo %r > %s" % (val, f))
            self.request("%s %r" % (f, val),
                         lambda: sys_write(BUS + "/" + f, val), True, fp)
        elif kind == 3:
            exists = lname in self.links
            log("   ip link add %s type rxbisect" % lname)
            ok = self.request("ip link add %s" % lname,
                              lambda: run(["ip", "link", "add", lname, "type",
                                           "rxbisect"])[::2], exists, fp)
            if ok:
                self.links.add(lname)
        elif kind == 4:
            exists = lname in self.links
            log("   ip link del %s" % lname)
            ok = self.request("ip link del %s" % lname,
                              lambda: run(["ip", "link", "del", lname])[::2],
                              not exists, fp)
            if ok:
                self.links.discard(lname)
        else:
            # something on an extra port: up/down, rings, queues
            names = sorted(self.links)
            for b in sorted(self.extra):
                d = "%s/devices/rxbisect%d/net" % (BUS, b)
                if os.path.isdir(d):
                    names += sorted(os.listdir(d))
            op = r.randrange(3)
            val = pow2(r, 64, 4096)
            if not names:
                log("   (no extra port)")
                return
            port = names[r.randrange(len(names))]
            if op == 0:
                cmd = ["ip", "link", "set", port, r.choice(["up", "down"])]
            elif op == 1:
                cmd = ["ethtool", "-G", port, "rx", str(val)]
            else:
                cmd = ["ethtool", "-L", port, "combined",
                       str(r.randint(1, 4))]
            rc, _, err = run(cmd)
            log("   %s: rc %d %s" % (" ".join(cmd), rc, err[:120]))

    def a_recreate(self):
        """Delete device 0 (the pair under traffic) and create it again."""
        self.r.random()
        self.xsk_stop()
        log("   echo 0 > del_device; echo 0 > new_device")
        e, msg = sys_write(BUS + "/del_device", "0")
        if e:
            self.fail("del_device 0: %s" % msg)
        e, msg = sys_write(BUS + "/new_device", "0")
        if e:
            self.fail("new_device 0: %s" % msg)
        self.xdp = {}
        self.setup_pair()
        self.series += 1
        self.prev = {}

    ACTIONS = [
        ("modparam", 10), ("devlink", 10), ("ring", 6), ("channels", 6),
        ("coalesce", 4), ("features", 4), ("rss", 5), ("ntuple", 5),
        ("mtu", 5), ("updown", 5), ("model", 8), ("xdp", 4), ("xsk", 3),
        ("fault", 8), ("inject", 3), ("bus", 5), ("recreate", 1),
    ]

    # -- checks --

    def check(self):
        self.kmsg_lines += self.kmsg.new()
        splat = [line for line in self.kmsg_lines if SPLAT_RE.search(line)]
        if splat:
            self.fail("kernel log: " + " | ".join(splat[:5]))
        self.kmsg_lines = self.kmsg_lines[-200:]
        if not self.traffic.alive():
            self.fail("the traffic generator died")
        st = {p: self.link(p) for p in self.ports}
        for p in self.ports:
            up, carrier, _ = st[p]
            if up != (p not in self.down):
                self.fail("%s is %s, expected %s" % (
                    p, "up" if up else "down",
                    "down" if p in self.down else "up"))
            if not up and carrier:
                self.fail("%s is down but has carrier" % p)
        if not self.down:
            for _ in range(25 * SCALE):
                # carrier comes with the peer's up: a moment
                if all(st[p][1] for p in self.ports):
                    break
                time.sleep(0.2)
                st = {p: self.link(p) for p in self.ports}
            else:
                self.fail("both ports up, no carrier: %r" % st)
            eaten = self.xsk is not None and self.xsk.poll() is None
            need = 1 if eaten else len(PROBE_PORTS)
            got = self.prober.probe(wait=8.0 * SCALE, need=need)
            if got < need:
                self.fail("forwarding: %d of %d flows answered%s" % (
                    got, len(PROBE_PORTS),
                    " (AF_XDP socket bound)" if eaten else ""))
            log("   probe %d/%d" % (got, len(PROBE_PORTS)))
        for p in self.ports:
            c = self.counters(p)
            old = self.prev.get(p, {})
            down = [(k, old[k], v) for k, v in c.items()
                    if k in old and v < old[k] and self.accumulates(k)]
            if down:
                self.fail("%s counters went down: %s" % (
                    p, ", ".join("%s %d -> %d" % d for d in down[:6])))
            self.prev[p] = c

    def restore(self):
        """Back to a forwarding state: faults off, XDP off, links up."""
        self.xsk_stop()
        for p in self.ports:
            for f in ("alloc_fail", "dma_fail", "engine_stall",
                      "reconfig_fail"):
                sys_write("%s/%s/fault/%s" % (DBG, p, f), "0")
            if p in self.xdp:
                self.ipn(p, "link", "set", "dev", p, "xdpdrv", "off")
        self.xdp = {}
        for p in list(self.down):
            self.ipn(p, "link", "set", p, "up")
        self.down = set()
        self.neigh()

    def run(self):
        a = self.a
        log("rxb-fuzz: seed %d (replay: %s --seed %d)" % (
            a.seed, sys.argv[0], a.seed))
        names = [n for n, _ in self.ACTIONS]
        weights = [w for _, w in self.ACTIONS]
        self.kmsg_lines = []
        t_start = time.monotonic()
        t_end = t_start + a.secs if a.secs else None
        self.check()
        hist = {}
        while True:
            if a.steps and self.step >= a.steps:
                break
            if t_end and time.monotonic() >= t_end:
                break
            self.step += 1
            # each step its own generator: what one step drew (which may
            # depend on what the kernel answered) cannot shift the next
            self.r = random.Random("%d:%d" % (a.seed, self.step))
            act = self.r.choices(names, weights)[0]
            hist[act] = hist.get(act, 0) + 1
            log("step %d: %s%s" % (self.step, act, " [%.1fs]" % (
                time.monotonic() - t_start) if TRACE else ""))
            try:
                getattr(self, "a_" + act)()
                self.check()
            except Fail as e:
                log("FAIL at step %d (%s): %s" % (self.step, act, e))
                log("replay: %s --seed %d --steps %d" % (
                    sys.argv[0], a.seed, self.step))
                return 1
        log("end after %d steps: restoring" % self.step)
        try:
            self.restore()
            self.check()
        except Fail as e:
            log("FAIL at the end: %s" % e)
            log("replay: %s --seed %d --steps %d" % (sys.argv[0], a.seed,
                                                      self.step))
            return 1
        log("seed %d: %d steps, %s; requests %s" % (
            a.seed, self.step,
            " ".join("%s=%d" % kv for kv in sorted(hist.items())),
            " ".join("%s=%d" % kv for kv in sorted(self.stats.items()))))
        return 0

    def close(self):
        self.xsk_stop()
        self.traffic.stop()
        self.prober.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=None,
                    help="the seed (default: one from os.urandom, printed)")
    ap.add_argument("--secs", type=float, default=0,
                    help="stop after this many seconds (at a step's end)")
    ap.add_argument("--steps", type=int, default=0,
                    help="stop after this many steps")
    ap.add_argument("--ns0", required=True, help="netns for fz0")
    ap.add_argument("--ns1", required=True, help="netns for fz1")
    ap.add_argument("--rate", type=int, default=300,
                    help="background datagrams a second each way")
    a = ap.parse_args()
    if a.seed is None:
        a.seed = int.from_bytes(os.urandom(4), "little")
    if not a.secs and not a.steps:
        a.steps = 100
    if not os.path.isdir(MODP) or not os.path.isdir(BUS):
        print("rxb-fuzz: the rxbisect module is not loaded", file=sys.stderr)
        return 2
    try:
        f = Fuzzer(a)
    except (Fail, OSError, subprocess.CalledProcessError) as e:
        print("rxb-fuzz: setup: %s" % e, file=sys.stderr)
        return 2
    try:
        return f.run()
    finally:
        f.close()


if __name__ == "__main__":
    sys.exit(main())
