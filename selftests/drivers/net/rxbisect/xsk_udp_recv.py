#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The receiver of the AF_XDP transmit cases (af_xdp.sh, engine.sh).

  xsk_udp_recv.py N READY
      Bind UDP port 9, create READY, then take datagrams until N distinct
      ones arrived or 30 s passed.  Each is "RXSK", its number and N (both
      big-endian u32), then bytes (number + offset) & 0xff: counted bad
      otherwise.  Prints one line; exit 0 when all N arrived intact.
"""
import socket, struct, sys, time
n = int(sys.argv[1])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 33, 1 << 22)	# SO_RCVBUFFORCE
s.bind(("0.0.0.0", 9))
s.settimeout(0.2)
open(sys.argv[2], "w").close()
seen, bad, end = set(), 0, time.time() + 30
while len(seen) < n and time.time() < end:
    try:
        d = s.recv(65536)
    except socket.timeout:
        continue
    seq, cnt = struct.unpack(">II", d[4:12]) if len(d) >= 12 else (n, 0)
    if d[:4] != b"RXSK" or cnt != n or seq >= n or \
       any(d[i] != (seq + i) & 0xff for i in range(12, len(d))):
        bad += 1
        continue
    seen.add(seq)
print("rxb0 received %d of %d datagrams intact, %d bad" % (len(seen), n, bad))
sys.exit(0 if len(seen) == n and not bad else 1)
