#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Numbered UDP datagrams: delivery and reordering, for the rxbisect tests.

  udp_seq.py recv ADDR PORT OUT [TIMEOUT_S]
      Bind ADDR:PORT, write "ready" to OUT.ready, count datagrams until the
      sender's end marker (then stragglers until 1 s passes without one,
      0.3 s for late duplicates once every datagram arrived) or TIMEOUT_S
      (default 60), and write one JSON object to OUT: sent, received,
      unique, dup,
      lost, ooo (datagrams with a lower number than one already received,
      RFC 4737's reordered packets), ooo_pct, max_dist (largest such gap),
      flows (source addresses seen) and flow_ooo (reordered within a flow:
      a lower number than one already received from the same source).
  udp_seq.py send DST PORT COUNT [FLOWS [RATE_PPS [LEN]]]
      Send COUNT numbered datagrams of LEN bytes (default 64) from FLOWS
      source ports in turn (default 1), at about RATE_PPS (0: as fast as
      possible), then the end marker.  Prints the number sent.
"""
import json
import socket
import struct
import sys
import time

MAGIC = b"RXSQ"
END = 0xFFFFFFFFFFFFFFFF
HDR = struct.Struct("<4sQQ")	# magic, sequence number (END: marker), count


def recv(addr, port, out, timeout=60.0):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 20)
    except OSError:
        pass
    s.bind((addr, port))
    with open(out + ".ready", "w") as f:
        f.write("ready\n")
    seen = bytearray()
    received = dup = ooo = max_dist = flow_ooo = 0
    top = -1
    flow_top = {}
    sent = None
    end = deadline = time.monotonic() + timeout
    s.settimeout(0.1)
    while time.monotonic() < deadline:
        try:
            data, src = s.recvfrom(65536)
        except socket.timeout:
            continue
        if len(data) < HDR.size:
            continue
        magic, seq, count = HDR.unpack_from(data)
        if magic != MAGIC:
            continue
        if seq == END:
            if sent is None:
                sent = count
                deadline = min(deadline, time.monotonic() +
                               (0.3 if received - dup >= sent else 1.0))
            continue
        received += 1
        if seq >= len(seen):
            seen.extend(bytes(max(seq + 1 - len(seen), 4096)))
        if seen[seq]:
            dup += 1
            continue
        seen[seq] = 1
        if sent is not None and received - dup >= sent:
            # the last straggler: 0.3 s more for late duplicates
            deadline = min(deadline, time.monotonic() + 0.3)
        elif sent is not None:
            # stragglers still coming (a slow path draining behind the
            # end marker): 1 s of silence more, not 1 s in all
            deadline = min(end, time.monotonic() + 1.0)
        if seq < flow_top.get(src, -1):
            flow_ooo += 1
        else:
            flow_top[src] = seq
        if seq < top:
            ooo += 1
            max_dist = max(max_dist, top - seq)
        else:
            top = seq
    unique = received - dup
    res = {
        "sent": sent if sent is not None else -1,
        "received": received, "unique": unique, "dup": dup,
        "lost": (sent - unique) if sent is not None else -1,
        "ooo": ooo, "ooo_pct": 100.0 * ooo / unique if unique else 0.0,
        "max_dist": max_dist, "flows": len(flow_top), "flow_ooo": flow_ooo,
    }
    with open(out, "w") as f:
        json.dump(res, f)
        f.write("\n")


def send(dst, port, count, flows=1, rate=0.0, length=64):
    socks = []
    for _ in range(max(flows, 1)):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("", 0))
        socks.append(s)
    pad = b"x" * max(length - HDR.size, 0)
    sent = 0
    t0 = time.monotonic()
    for i in range(count):
        try:
            socks[i % len(socks)].sendto(HDR.pack(MAGIC, i, 0) + pad, (dst, port))
            sent += 1
        except OSError:
            pass
        if rate > 0 and i % 16 == 15:
            ahead = t0 + (i + 1) / rate - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
    time.sleep(0.2)
    for _ in range(5):
        socks[0].sendto(HDR.pack(MAGIC, END, sent), (dst, port))
        time.sleep(0.05)
    print(sent)


def main(argv):
    if len(argv) >= 4 and argv[0] == "recv":
        recv(argv[1], int(argv[2]), argv[3],
             float(argv[4]) if len(argv) > 4 else 60.0)
    elif len(argv) >= 4 and argv[0] == "send":
        send(argv[1], int(argv[2]), int(argv[3]),
             int(argv[4]) if len(argv) > 4 else 1,
             float(argv[5]) if len(argv) > 5 else 0.0,
             int(argv[6]) if len(argv) > 6 else 64)
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
