#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""UDP traffic with a chosen share for one RSS queue, for tools/bench.

  udp_mix.py DST SECS PPS SHARE TPORTS OPORTS [LEN]

Send LEN-byte (default 1000) UDP datagrams to DST port 9 for SECS seconds
at PPS datagrams per second in all: SHARE percent of them from the source
ports TPORTS (comma separated: flows that RSS puts on the target queue,
chosen against the port's RSS table by tools/bench/lib.sh), the rest from
OPORTS, interleaved evenly.  Prints "sent_target sent_other seconds": the
datagrams sent and the time it took (longer than SECS when the sender
cannot keep up).
"""
import socket
import sys
import time


def socks(ports):
    out = []
    for p in ports.split(","):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("", int(p)))
        out.append(s)
    return out


def main():
    dst, secs, pps, share = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
    tsocks, osocks = socks(sys.argv[5]), socks(sys.argv[6])
    payload = b"x" * (int(sys.argv[7]) if len(sys.argv) > 7 else 1000)
    sent = [0, 0]
    acc = 0.0
    t0 = time.monotonic()
    for i in range(int(secs * pps)):
        # Bresenham: the target gets exactly SHARE % of the datagrams.
        acc += share
        tgt = acc >= 100.0
        if tgt:
            acc -= 100.0
        group = tsocks if tgt else osocks
        try:
            group[sent[not tgt] % len(group)].sendto(payload, (dst, 9))
            sent[not tgt] += 1
        except OSError:
            pass
        if i % 16 == 15:
            ahead = t0 + (i + 1) / pps - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
    print(sent[0], sent[1], "%.2f" % (time.monotonic() - t0))


if __name__ == "__main__":
    main()
