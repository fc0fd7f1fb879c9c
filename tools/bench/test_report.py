#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test of report.py on made-up repetitions: medians, spreads, ratio
ranges and the "within noise" mark; and of nf_report.py's baseline when a
run has privring only with a queue count (nf_bench.sh COREC_SCALE=1).  Prints KTAP; run by
tools/run-tests.sh (static stage) or by hand:

  python3 tools/bench/test_report.py
"""
import csv
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH_HDR = ("model,rep,status,tcp1_gbps,tcp8_gbps,udp64_kpps,udp1500_kpps,kernel_ns_pkt,"
             "softirq_ns_pkt,lat_p50_us,lat_p99_us,lat_p999_us,io_ws_buffers,io_ws_peak,"
             "nobuf_drops").split(",")
SWEEP_HDR = ("model,rep,sweep,work,share_pct,sent_target,sent_other,target_deliv_pct,"
             "other_deliv_pct,pps_sent").split(",")

# tcp1 per repetition: rxbisect clearly above privring, shring within noise
TCP1 = {"veth": ["1.600"] * 5,
        "privring": ["0.500", "0.480", "0.520", "0.490", "0.510"],
        "rxbisect": ["0.600", "0.620", "0.610", "0.630", "0.590"],
        "shring": ["0.450", "0.550", "0.500", "0.530", "0.470"]}
OTHER = {"privring": ["100.0"] * 5, "rxbisect": ["100.0"] * 5,
         "shring": ["49.1", "55.0", "50.2", "52.0", "48.0"]}


def write(d):
    with open(os.path.join(d, "bench.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(BENCH_HDR)
        for rep in range(5):
            for m in ("veth", "privring", "rxbisect", "shring", "corec"):
                if m == "corec":
                    w.writerow([m, rep + 1, "skipped"] + [""] * 12)
                    continue
                row = [m, rep + 1, "ok"]
                row += [TCP1[m][rep], "0.600", "60.0", "55.0", str(400000 + rep),
                        "60000", "280.000", "550.000", "1100.000"]
                row += ["-", "-", "-"] if m == "veth" else [str(2600 + 10 * rep), "2624", "0"]
                w.writerow(row)
        # a sixth repetition cut short: left out
        w.writerow(["veth", 6, "ok", "9.000"] + ["1"] * 11)
        w.writerow(["privring", 6, "ok", "9.000"] + ["1"] * 11)
    with open(os.path.join(d, "sweep.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(SWEEP_HDR)
        for rep in range(5):
            for m in ("privring", "rxbisect", "shring"):
                w.writerow([m, rep + 1, "work", 262144, 31, 930, 2070, "61.7",
                            OTHER[m][rep], 3000])


def main():
    fails = 0
    n = 0

    def check(ok, name, detail=""):
        nonlocal fails, n
        n += 1
        if not ok:
            fails += 1
            for line in detail.splitlines():
                print("# " + line)
        print("%sok %d %s" % ("" if ok else "not ", n, name))

    print("TAP version 13")
    print("1..9")
    with tempfile.TemporaryDirectory() as d:
        write(d)
        r = subprocess.run([sys.executable, os.path.join(HERE, "report.py"), d],
                           capture_output=True, text=True)
        out = r.stdout
        check(r.returncode == 0, "report.py runs", r.stderr)
        rows = {}
        for line in out.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows.setdefault(cells[0], []).append(cells)
        pr_main = rows.get("privring", [[]])[0]
        check(len(pr_main) > 2 and pr_main[1] == "5" and pr_main[2] == "0.500 (0.480–0.520)",
              "main table: runs, median (min–max)", out)
        check(rows.get("corec", [[""] * 3])[0][1:3] == ["0", "skipped"],
              "a model that never loaded is reported as skipped", out)
        check("repetition 6 incomplete, left out" in out,
              "a repetition cut short is left out and said so", out)
        rx_ratio = rows.get("rxbisect", [[], []])[1]
        sh_ratio = rows.get("shring", [[], []])[1]
        # rxbisect: 0.610/0.500, range 0.590/0.520 to 0.630/0.480
        check(len(rx_ratio) > 1 and rx_ratio[1] == "1.22 (1.13–1.31)",
              "ratio outside noise: median ratio and range, no mark", out)
        check(len(sh_ratio) > 1 and sh_ratio[1] == "1.00 (0.87–1.15)~",
              "ratio whose range includes 1.0 is marked within noise", out)
        with open(os.path.join(d, "sweep-summary.csv")) as f:
            sw = {(r["model"], r["x"]): r for r in csv.DictReader(f)}
        s = sw.get(("shring", "262144"), {})
        x = sw.get(("rxbisect", "262144"), {})
        check(s.get("other_median") == "50.2" and s.get("within_noise") == "0" and
              x.get("within_noise") == "1",
              "sweep summary: shring's loss is outside noise, rxbisect's 100 % is not",
              str(sw))
        with open(os.path.join(d, "bench-summary.csv")) as f:
            bs = {(r["model"], r["metric"]): r for r in csv.DictReader(f)}
        b = bs.get(("shring", "tcp1_gbps"), {})
        check(b.get("min") == "0.450" and b.get("max") == "0.550" and
              b.get("within_noise") == "1", "bench summary: spread and noise flag", str(b))
        # nf_report.py: COREC's scale-up run, privring:1 the baseline
        nf = os.path.join(d, "nf.csv")
        with open(nf, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(("nf,model,rep,status,mpps,rx_mpps,malformed,frag,no_route,"
                        "ttl_expired,conn_map_full,no_backend,no_port,nic_drops").split(","))
            for rep, (p1, c1, c2) in enumerate([(0.10, 0.11, 0.16), (0.20, 0.21, 0.36)]):
                for m, v in (("privring:1", p1), ("corec:1", c1), ("corec:2", c2)):
                    w.writerow(["l3fwd", m, rep + 1, "ok", v, v] + [0] * 8)
        r = subprocess.run([sys.executable, os.path.join(HERE, "nf_report.py"), nf],
                           capture_output=True, text=True)
        c2 = [ln for ln in r.stdout.splitlines() if "| corec:2 |" in ln]
        # corec:2 / privring:1 per repetition: 1.6 and 1.8
        check(r.returncode == 0 and "vs privring:1" in r.stdout and c2 and
              "1.70 (1.60–1.80)" in c2[0] and "COREC paper, Table 2" in r.stdout,
              "nf_report.py: privring:1 the baseline of a COREC scale-up run, "
              "the paper's Table 2 beside", r.stdout + r.stderr)
    print("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0" % (n - fails, fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
