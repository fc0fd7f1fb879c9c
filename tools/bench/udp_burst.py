#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One burst of UDP datagrams, as fast as the sender can, for tools/bench.

  udp_burst.py DST SPORT COUNT [LEN]

Sends COUNT datagrams of LEN bytes (default 1472: 1518 B frames) from
source port SPORT (one flow: one RSS queue) to DST port 9, back to back,
and prints "sent seconds" (a datagram the stack refused, e.g. ENOBUFS, is
not sent).
"""
import socket
import sys
import time


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 2
    dst, sport, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    payload = b"\0" * (int(sys.argv[4]) if len(sys.argv) == 5 else 1472)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("", sport))
    sent = 0
    t0 = time.monotonic()
    for _ in range(count):
        try:
            s.sendto(payload, (dst, 9))
            sent += 1
        except OSError:
            pass
    print(sent, "%.6f" % (time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
