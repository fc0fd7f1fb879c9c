#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What came back: count the IPv4 UDP frames to port DPORT that IFNAME
receives (not those it sends), by (source, source port, destination, TTL,
MACs), until SIGTERM or SIGINT, then (with what was still queued) write
them to OUT as JSON, a list of
[saddr, sport, daddr, ttl, csum_ok, dmac, smac, count]: csum_ok has bit 0
set when the IP header checksum is right, bit 1 when the UDP checksum is
(or is 0); dmac and smac the Ethernet destination and source, xx:xx:...
Touches OUT.ready when listening.
Stdlib only (python3 -S): nf.sh runs it in its namespaces.

Usage: nf_sniff.py IFNAME DPORT OUT
"""
import json
import os
import signal
import socket
import struct
import sys

ETH_P_ALL = 3
PACKET_OUTGOING = 4
SO_RCVBUFFORCE = 33


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s


def csum_ok(ip, ihl):
    tot = struct.unpack("!H", ip[2:4])[0]
    udp = ip[ihl:tot]
    pseudo = ip[12:20] + struct.pack("!BBH", 0, 17, len(udp))
    return (int(csum(ip[:ihl]) == 0xffff) |
            2 * int(udp[6:8] == b"\0\0" or csum(pseudo + udp) == 0xffff))


def mac(b):
    return ":".join("%02x" % c for c in b)


def main():
    ifname, dport, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
    # SO_RCVBUF is capped at net.core.rmem_max (208 KiB by default: a
    # few hundred frames of a burst the VM's python may lag behind); as
    # root, SO_RCVBUFFORCE is not
    try:
        s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 4 << 20)
    except OSError:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.bind((ifname, 0))
    seen = {}

    def count(frame, addr):
        if addr[2] == PACKET_OUTGOING or len(frame) < 42:
            return
        if frame[12:14] != b"\x08\x00" or frame[23] != 17:
            return
        ihl = (frame[14] & 15) * 4
        if len(frame) < 14 + ihl + 8:
            return
        sport, dp = struct.unpack("!HH", frame[14 + ihl:18 + ihl])
        if dp != dport:
            return
        k = (socket.inet_ntoa(frame[26:30]), sport,
             socket.inet_ntoa(frame[30:34]), frame[22],
             csum_ok(frame[14:], ihl), frame[0:12])
        seen[k] = seen.get(k, 0) + 1

    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    open(out + ".ready", "w").close()
    # the signal only flags: a frame being counted is not lost
    s.settimeout(0.1)
    while not stop:
        try:
            count(*s.recvfrom(2048))
        except socket.timeout:
            pass
    # what is queued still counts: the signal may come before it is read
    s.setblocking(False)
    try:
        while True:
            count(*s.recvfrom(2048))
    except OSError:
        pass
    # the MACs made text once, not per frame: the sniffer must keep up
    rows = [list(k[:5]) + [mac(k[5][0:6]), mac(k[5][6:12]), v]
            for k, v in sorted(seen.items())]
    with open(out + ".tmp", "w") as f:
        json.dump(rows, f)
    os.rename(out + ".tmp", out)


main()
