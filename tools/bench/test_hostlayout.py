#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of hostlayout.py on fake sysfs trees: 2, 16 and 64 CPUs,
LLCs of 4, 22 and 260 MiB, one and two NUMA nodes, AMD-like LLC slices,
the engine's pipelines (one per 8 CPUs, on consecutive CPUs).
Run: python3 tools/bench/test_hostlayout.py (static stage of make test)."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hostlayout as hl  # noqa: E402

MiB = 1 << 20


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text + "\n")


def fake_sysfs(root, ncpu, llc_kb, ways, nodes=1, slices=1, nodedir=True):
    """A sysfs tree: ncpu CPUs online, split evenly into nodes NUMA nodes,
    slices LLC instances (each llc_kb // slices KiB) of consecutive CPUs,
    L1d, L1i and L2 per CPU below them."""
    cpu = os.path.join(root, "devices/system/cpu")
    write(os.path.join(cpu, "online"), "0-%d" % (ncpu - 1) if ncpu > 1 else "0")
    per_node = ncpu // nodes
    if nodedir:
        for n in range(nodes):
            write(os.path.join(root, "devices/system/node/node%d/cpulist" % n),
                  "%d-%d" % (n * per_node, (n + 1) * per_node - 1))
    per_slice = ncpu // slices
    for c in range(ncpu):
        cd = os.path.join(cpu, "cpu%d/cache" % c)
        s = c // per_slice
        for i, (lvl, typ, size, w, shared) in enumerate([
                (1, "Data", "48K", 12, str(c)),
                (1, "Instruction", "32K", 8, str(c)),
                (2, "Unified", "2048K", 16, str(c)),
                (3, "Unified", "%dK" % (llc_kb // slices), ways,
                 "%d-%d" % (s * per_slice, (s + 1) * per_slice - 1))]):
            d = os.path.join(cd, "index%d" % i)
            write(os.path.join(d, "level"), str(lvl))
            write(os.path.join(d, "type"), typ)
            write(os.path.join(d, "size"), size)
            write(os.path.join(d, "ways_of_associativity"), str(w))
            write(os.path.join(d, "shared_cpu_list"), shared)


FACTORS = [0.25, 0.5, 1, 2, 4, 8]


class Layout(unittest.TestCase):
    def lay(self, **kw):
        with tempfile.TemporaryDirectory() as root:
            fake_sysfs(root, **kw)
            return hl.layout(hl.Machine(root), FACTORS, 4096, 32, 64, 8192)

    def check_roles(self, lo):
        """No CPU has two roles unless the layout says it is scaled down,
        and every CPU used is on the chosen node."""
        roles = lo["housekeeping"] + lo["engine_cpus"] + lo["gen_cpus"] + lo["queue_cpus"]
        self.assertTrue(set(roles) <= set(lo["node_cpus"]))
        if not lo["scaled"]:
            self.assertEqual(len(roles), len(set(roles)), roles)

    def check_budgets(self, lo):
        """Each ring's posted buffers: the largest power of two within
        its budget (factor x LLC), unless raised to the smallest ring."""
        for f, r, b in zip(lo["factors"], lo["rings"], lo["budgets"]):
            self.assertEqual(b, r * lo["queues"] * 4096)
            want = f * lo["llc_bytes"]
            if r > 64:
                self.assertLessEqual(b, want)
            if r < 8192:
                self.assertGreater(2 * b, want)

    def test_2_cpus_4_mib(self):
        lo = self.lay(ncpu=2, llc_kb=4096, ways=16)
        self.check_roles(lo)
        self.assertEqual(lo["llc_bytes"], 4 * MiB)
        self.assertEqual(lo["scaled"], 1)
        self.assertEqual(lo["engine"], "inline")
        self.assertEqual(lo["engines"], 0)
        self.assertEqual(lo["engine_params"], "")
        self.assertEqual(lo["queue_cpus"], [0, 1])
        self.assertEqual(lo["gen_cpus"], [1])
        self.assertIn("scaled down", lo["note"])
        # 4 MiB x f over 2 queues of 4 KiB buffers
        self.assertEqual(lo["rings"], [128, 256, 512, 1024, 2048, 4096])
        self.assertEqual(lo["ddio_kb"], 512)
        self.check_budgets(lo)

    def test_16_cpus_22_mib(self):
        lo = self.lay(ncpu=16, llc_kb=22528, ways=11)
        self.check_roles(lo)
        self.assertEqual(lo["llc_bytes"], 22 * MiB)
        self.assertEqual(lo["llc_ways"], 11)
        self.assertEqual(lo["scaled"], 0)
        self.assertEqual(lo["housekeeping"], [0])
        # two engine pipelines (one per 8 CPUs), consecutive
        self.assertEqual(lo["engine"], "cpu1")
        self.assertEqual(lo["engine_cpus"], [1, 2])
        self.assertEqual(lo["engines"], 2)
        self.assertEqual(lo["engine_params"], "engine=cpu1 engines=2")
        self.assertEqual(lo["gen_cpus"], [14, 15])
        self.assertEqual(lo["queue_cpus"], list(range(3, 14)))
        self.assertEqual(lo["queues"], 11)
        # 22 MiB / (11 x 4 KiB) = 512 entries at 1x
        self.assertEqual(lo["rings"], [128, 256, 512, 1024, 2048, 4096])
        self.check_budgets(lo)
        self.assertEqual(lo["note"], "")

    def test_64_cpus_260_mib_one_node(self):
        lo = self.lay(ncpu=64, llc_kb=260 * 1024, ways=20)
        self.check_roles(lo)
        self.assertEqual(lo["llc_bytes"], 260 * MiB)
        self.assertEqual(lo["gen_cpus"], [60, 61, 62, 63])
        # 8 engine pipelines on CPUs 1-8
        self.assertEqual(lo["engine_cpus"], list(range(1, 9)))
        self.assertEqual(lo["engine_params"], "engine=cpu1 engines=8")
        # the module's 32 queues at most; the rest idle, and said so
        self.assertEqual(lo["queues"], 32)
        self.assertEqual(lo["queue_cpus"], list(range(9, 41)))
        self.assertIn("19 CPUs left idle", lo["note"])
        # 8x is beyond 32 x 8192 x 4 KiB = 1 GiB: dropped, and said so
        self.assertEqual(lo["factors"], [0.25, 0.5, 1, 2, 4])
        self.assertEqual(lo["rings"], [512, 1024, 2048, 4096, 8192])
        self.assertIn("8x LLC out of reach", lo["note"])
        self.check_budgets(lo)

    def test_64_cpus_260_mib_two_nodes(self):
        # two sockets of 32 CPUs, 130 MiB each: node 0 alone is used
        lo = self.lay(ncpu=64, llc_kb=260 * 1024, ways=20, nodes=2, slices=2)
        self.check_roles(lo)
        self.assertEqual(lo["nodes"], 2)
        self.assertEqual(lo["node"], 0)
        self.assertEqual(lo["node_cpus"], list(range(32)))
        self.assertEqual(lo["llc_bytes"], 130 * MiB)
        self.assertEqual(lo["gen_cpus"], [28, 29, 30, 31])
        self.assertEqual(lo["engine_cpus"], [1, 2, 3, 4])
        self.assertEqual(lo["queue_cpus"], list(range(5, 28)))
        self.assertIn("NUMA node 0 of 2", lo["note"])
        self.check_budgets(lo)

    def test_llc_slices_sum(self):
        # AMD-like: 16 CPUs, 4 L3 slices of 8 MiB: the node sees 32 MiB
        lo = self.lay(ncpu=16, llc_kb=32768, ways=16, slices=4)
        self.assertEqual(lo["llc_slices"], 4)
        self.assertEqual(lo["llc_bytes"], 32 * MiB)

    def test_no_node_dir_3_cpus(self):
        lo = self.lay(ncpu=3, llc_kb=8192, ways=16, nodedir=False)
        self.check_roles(lo)
        self.assertEqual(lo["nodes"], 1)
        self.assertEqual(lo["engine"], "cpu0")
        self.assertEqual(lo["engine_params"], "engine=cpu0")
        self.assertEqual(lo["queue_cpus"], [1])
        self.assertEqual(lo["gen_cpus"], [2])

    def test_engines_consecutive_and_capped(self):
        # the node's CPUs 0-7 and 16-23 (SMT siblings numbered apart):
        # the engine's 2 pipelines on consecutive CPUs, none straddling
        with tempfile.TemporaryDirectory() as root:
            fake_sysfs(root, ncpu=24, llc_kb=16384, ways=16, nodedir=False)
            write(os.path.join(root, "devices/system/cpu/online"), "0-7,16-23")
            lo = hl.layout(hl.Machine(root), FACTORS, 4096, 32, 64, 8192)
            self.check_roles(lo)
            self.assertEqual(lo["engine_cpus"], [1, 2])
            # at most --max-engines
            lo = hl.layout(hl.Machine(root), FACTORS, 4096, 32, 64, 8192, 1)
            self.assertEqual(lo["engine_cpus"], [1])
            self.assertEqual(lo["engine_params"], "engine=cpu1")
        # 72 CPUs in runs of 3: no 9 consecutive ones, one pipeline, said so
        m = hl.Machine.__new__(hl.Machine)
        m.cpus = [c for c in range(96) if c % 4 != 3]
        m.nodes = {0: m.cpus}
        m.llc_of, m.llc_inst = {}, {}
        lo = hl.layout(m, FACTORS, 4096, 32, 64, 8192)
        self.check_roles(lo)
        self.assertEqual(lo["engine_cpus"], [1])
        self.assertIn("no 9 consecutive CPUs for the engine", lo["note"])

    def test_lists_and_sizes(self):
        self.assertEqual(hl.parse_list("0-3,8,10-11\n"), [0, 1, 2, 3, 8, 10, 11])
        self.assertEqual(hl.fmt_list([0, 1, 2, 3, 8, 10, 11]), "0-3,8,10-11")
        self.assertEqual(hl.parse_size("22528K"), 22 * MiB)
        self.assertEqual(hl.parse_size("32M"), 32 * MiB)


class Cli(unittest.TestCase):
    def run_cli(self, root, *args):
        return subprocess.run([sys.executable, os.path.join(HERE, "hostlayout.py"),
                               "--sysfs", root] + list(args),
                              capture_output=True, text=True)

    def test_shell_format_evals(self):
        with tempfile.TemporaryDirectory() as root:
            fake_sysfs(root, ncpu=16, llc_kb=22528, ways=11)
            r = self.run_cli(root, "--format", "shell")
            self.assertEqual(r.returncode, 0, r.stderr)
            got = subprocess.run(["bash", "-c", r.stdout +
                                  '\necho "$HL_ENGINE|$HL_ENGINES|$HL_ENGINE_PARAMS|'
                                  '$HL_QUEUES|$HL_GEN_CPUS|$HL_RINGS"'],
                                 capture_output=True, text=True).stdout.strip()
            self.assertEqual(got, "cpu1|2|engine=cpu1 engines=2|11|14 15|"
                             "128 256 512 1024 2048 4096")
            r = self.run_cli(root)
            self.assertIn("11 queues on CPUs 3-13", r.stdout)
            self.assertIn("NIC engine: cpu1, 2 pipelines on CPUs 1-2 "
                          "(engine=cpu1 engines=2)", r.stdout)

    def test_bad_root(self):
        with tempfile.TemporaryDirectory() as root:
            r = self.run_cli(root)
            self.assertEqual(r.returncode, 1)
            self.assertIn("hostlayout: cannot read", r.stderr)


if __name__ == "__main__":
    unittest.main()
