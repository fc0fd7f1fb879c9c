#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Randomized command lines for rxbisect-sim, for a bounded time.

Builds argument vectors from the options --help lists and from values
that have broken command lines before (NaN, infinities, negatives, huge
and overflowing numbers, empty strings, junk suffixes, control and quote
characters, gnuplot and shell syntax in labels), runs the binary (the
ASan/UBSan build in `make check`) on each with a timeout, and fails on a
crash, a sanitizer report, a hang, an exit status other than 0, 1 or 2,
a non-zero exit without a message, or a file created by a label.

Usage: fuzz_cli.py BINARY [--seed N] [--seconds S] [--timeout S]
Reproduce a failure with the command line it prints.
"""
import argparse
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time

NUMS = [
    "0", "1", "-1", "2", "7", "8", "16", "64", "63", "65", "100", "128", "255", "256",
    "257", "1024", "2048", "4096", "65535", "65536", "65537", "1048576", "4194304",
    "2147483647", "2147483648", "4294967295", "4294967296", "9223372036854775807",
    "18446744073709551615", "18446744073709551616", "99999999999999999999999",
    "0.5", "0.001", "1e-6", "1e-7", "0.999999", "1.0", "1e3", "1e9", "1e10", "1e11",
    "1e308", "1e309", "1e400", "-1e400", "1e-400", "nan", "-nan", "NaN", "inf",
    "-inf", "Infinity", "0x", "0x10", "0xffffffff", "0x1p3", "-0", "+1", " 1", "1 ",
    "", "1K", "22M", "1G", "1.5G", "1024G", "8T", "16E", "1KiB", "2MB", "1Kx", "K",
    "010", "08", "1,2", "1e", ".", "-.", "1..2", "--1", "3:4", "1=2",
]
JUNK = [
    "", " ", "-", "--", "=", ":", ",", "'", "\"", "`", "$(touch pwned_a)",
    "`touch pwned_b`", "'; system('touch pwned_c'); '", "@x", "%s%s%s%n", "%99999d",
    "\n", "a\nb", "\t", "\x1b[31m", "\u00b5s", "x" * 300, "privring", "rxbisect",
    "shring", "ceio", "sync", "async", "nosuch", "/dev/zero", "/", "/nonexistent",
]
SPECIAL = ["--sweep", "--series", "--case", "--change", "--extra", "--columns",
           "--plot-y", "--plot", "--plot-title", "--csv", "--per-queue", "--xstats",
           "--bench", "--list-models"]
METRICS = ["gbps", "mpps", "drop_pct", "lat_p99_us", "ddio_hit", "wss_mib", "nosuch", ""]
CANARY = re.compile(r"^pwned")
SAN = re.compile(r"Sanitizer|runtime error:|ERROR: ")


def options(binary):
    """Option names, and the accepted ranges --help gives: {name: (lo, hi, kind)}."""
    out = subprocess.run([binary, "--help"], capture_output=True, text=True,
                         timeout=60).stdout
    names = [n for n in re.findall(r"^  --([a-z0-9-]+)", out, re.M) if n != "help"]
    ranges = {}
    for m in re.finditer(r"^  --([a-z0-9-]+)[^\n]*\n[^\n]*\n +(a number|an integer|a size)"
                         r"[^\n]* in [\[(]([^,]+), ([^\])]+)[\])]", out, re.M):
        ranges[m.group(1)] = (m.group(3), m.group(4), m.group(2))
    return names, ranges


class Gen:
    def __init__(self, rnd, opts, ranges):
        self.r = rnd
        self.opts = opts
        self.ranges = ranges
        self.plausible = False
        # What a sweep, case or change may set: not --packets (kept small)
        # nor the run-shaping options of this file.
        self.settable = [o for o in opts if o not in
                         ("packets", "sweep", "series", "case", "plot", "plot-y",
                          "plot-title", "columns", "csv", "bench", "list-models",
                          "per-queue", "xstats")]

    def in_range(self, name):
        """A value --NAME accepts: an end of its range, or between."""
        r = self.r
        lo, hi, kind = self.ranges[name]
        if r.random() < 0.3:
            return r.choice([lo, hi])
        if kind == "a size":
            return r.choice(["64K", "1M", "4M", "22M", "64M", "256M", "1G", "0", "4096"])
        try:
            a, b = float(lo.rstrip("KMGT")), float(hi.rstrip("KMGT"))
        except ValueError:
            return lo
        b = min(b, 1e6)
        if kind == "an integer":
            v = int(min(b, max(a, 2 ** r.randint(0, 20) + r.choice([-1, 0, 0, 1]))))
            return str(v if r.random() < 0.7 else r.randint(int(a), int(b)))
        return repr(r.uniform(a, min(b, a + 10 ** r.randint(-3, 4))))

    def value(self, name=None):
        r = self.r
        if name in self.ranges and (self.plausible or r.random() < 0.5):
            return self.in_range(name)
        k = r.random()
        if k < 0.55:
            return r.choice(NUMS)
        if k < 0.7:
            return r.choice(JUNK)
        if k < 0.85:
            return str(r.randint(-10, 10 ** r.randint(1, 20)))
        if k < 0.95:
            return repr(r.uniform(-2, 2) * 10 ** r.randint(-8, 12))
        return "".join(chr(r.randint(1, 0x7f)) for _ in range(r.randint(0, 12)))

    def assign(self):
        r = self.r
        name = r.choice(self.settable + ["nosuch", "", "no-rewrite", "change"])
        return "%s=%s" % (name, self.value(name))

    def vals(self, name):
        return ",".join(self.value(name) for _ in range(self.r.randint(0, 3)))

    def one(self):
        r = self.r
        if r.random() < (0.85 if self.plausible else 0.6):
            name = r.choice(sorted(self.ranges) if self.plausible and self.ranges else self.opts)
            if r.random() < 0.3:
                return ["--%s=%s" % (name, self.value(name))]
            return ["--" + name, self.value(name)]
        s = r.choice(SPECIAL)
        if s in ("--sweep", "--series"):
            name = r.choice(self.settable + ["nosuch", ""])
            return [s, "%s=%s" % (name, self.vals(name))]
        if s == "--case":
            label = r.choice(["a", "b'c", "x`touch pwned_d`", "$1 @m", "l,q\"", "",
                              "\n", "e" * 80])
            return [s, "%s:%s" % (label, ",".join(self.assign()
                                                   for _ in range(r.randint(0, 3))))]
        if s == "--change":
            return [s, "%s:%s" % (r.choice(["0", "0.5", "1", "1.5", "-0.1", "nan", ""]),
                                  self.assign())]
        if s == "--extra":
            return [s, ":".join(self.value() for _ in range(r.randint(1, 4)))]
        if s in ("--columns", "--plot-y"):
            return [s, ",".join(r.choice(METRICS) for _ in range(r.randint(0, 10)))]
        if s == "--plot":
            return [s, r.choice(["p.png", "q'`touch pwned_e`.png", "", "nodir/x.png",
                                 "a\nb.png", "plot"])]
        if s == "--plot-title":
            return [s, r.choice(JUNK)]
        return [s]

    def argv(self):
        # Half of the command lines only use values in range, to get past
        # the checks into the models more often.
        self.plausible = self.r.random() < 0.5
        args = []
        for _ in range(self.r.randint(1, 6)):
            args += self.one()
        # Runs that get through the checks stay short; a second --packets
        # later in args still counts, within the limits checked.
        return args + ["--packets", "1500"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("SIM_FUZZ_SEED", 1)))
    ap.add_argument("--seconds", type=float,
                    default=float(os.environ.get("SIM_FUZZ_SECONDS", 50)))
    ap.add_argument("--timeout", type=float, default=30)
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = "halt_on_error=1:detect_leaks=1:" + env.get("ASAN_OPTIONS", "")
    env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1:" + env.get("UBSAN_OPTIONS", "")
    rnd = random.Random(a.seed)
    gen = Gen(rnd, *options(binary))
    counts = {0: 0, 1: 0, 2: 0}
    fails = 0
    n = 0
    t_end = time.monotonic() + a.seconds
    with tempfile.TemporaryDirectory(prefix="rxb-fuzz-") as work:
        while time.monotonic() < t_end and fails < 5:
            args = gen.argv()
            n += 1
            why = None
            try:
                p = subprocess.run([binary] + args, cwd=work, env=env,
                                   stdin=subprocess.DEVNULL, capture_output=True,
                                   timeout=a.timeout)
                err = p.stderr.decode("utf-8", "replace")
                if p.returncode < 0 or p.returncode not in (0, 1, 2):
                    why = "exit status %d" % p.returncode
                elif SAN.search(err):
                    why = "sanitizer report"
                elif p.returncode and "rxbisect-sim: " not in err:
                    why = "exit %d without a message" % p.returncode
                else:
                    counts[p.returncode] += 1
            except subprocess.TimeoutExpired:
                why = "hang (no exit within %g s)" % a.timeout
                err = ""
            except OSError as e:
                why = "could not run it: %s" % e
                err = ""
            made = [f for f in os.listdir(work) if CANARY.match(f)]
            if made and not why:
                why = "a label created %s" % made
            for f in os.listdir(work):
                if os.path.isfile(os.path.join(work, f)):
                    os.unlink(os.path.join(work, f))
            if why:
                fails += 1
                print("# FAIL (%s): %s %s" % (why, shlex.quote(binary),
                                              " ".join(shlex.quote(x) for x in args)))
                for line in err.splitlines()[:12]:
                    print("#   " + line)
    print("# fuzz: seed %d, %d command lines in %.0f s: exit 0: %d, 1: %d, 2: %d; %d failed"
          % (a.seed, n, a.seconds, counts[0], counts[1], counts[2], fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
