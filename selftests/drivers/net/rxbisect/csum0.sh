#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tx checksum offload and a checksum that folds to 0: UDP datagrams (IPv4
# and IPv6) whose payload is crafted so that their checksum computes to 0
# must go out with 0xffff in the field (CSUM_MANGLED_0), as
# skb_checksum_help() and real NICs write it.  A 0 would mean "no checksum"
# in IPv4 and is invalid in IPv6 (the receiver drops the datagram).  An
# AF_PACKET capture on rxb1 reads the field; UDP sockets count delivery.

source "$(dirname "$0")/lib.sh"

rxb_init python3
ktap_set_plan 5

N=20		# datagrams per family
PORT=4242	# destination port
SPORT=4343	# source port (part of the checksum)
IP6_0=fd00:52:42::1
IP6_1=fd00:52:42::2

rxb_load queues=2 || rxb_bail "cannot load the module"
rxb_setup_netns || rxb_bail "cannot set up the namespaces"
rxb_setup_ip6 "$IP6_0" "$IP6_1" || rxb_bail "cannot set up IPv6 on the ports"

# 1: the sender leaves the checksum to the NIC (CHECKSUM_PARTIAL)
ktap_test_result "rxb0 offloads its Tx checksum (tx-checksumming on)" \
	eval 'rxb_in rxb0 ethtool -k rxb0 | grep -q "^tx-checksumming: on"'

# The receiver: an AF_PACKET capture of rxb1 and one UDP socket per family.
cat > "$RXB_TMP/csum0.py" <<'PY'
import json, os, select, socket, struct, sys, time

def fold(s):
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s

def sum16(b):
    if len(b) % 2:
        b += b"\0"
    return fold(sum(struct.unpack("!%dH" % (len(b) // 2), b)))

def payload(fam, src, dst, sport, dport, i):
    """8 bytes whose last two make the UDP checksum compute to 0."""
    body = struct.pack("!IH", 0x52584230, i)
    ulen = 8 + len(body) + 2
    s, d = socket.inet_pton(fam, src), socket.inet_pton(fam, dst)
    if fam == socket.AF_INET:
        pseudo = s + d + struct.pack("!BBH", 0, 17, ulen)
    else:
        pseudo = s + d + struct.pack("!IxxxB", ulen, 17)
    total = sum16(pseudo + struct.pack("!HHHH", sport, dport, ulen, 0) + body)
    # total + x == 0xffff: the sum folds to 0xffff, the checksum to 0
    return body + struct.pack("!H", ~total & 0xffff)

def send(sport, dport, n, *addrs):
    for fam, src, dst in ((socket.AF_INET, addrs[0], addrs[1]),
                          (socket.AF_INET6, addrs[2], addrs[3])):
        s = socket.socket(fam, socket.SOCK_DGRAM)
        s.bind((src, sport))
        for i in range(n):
            s.sendto(payload(fam, src, dst, sport, dport, i), (dst, dport))
            time.sleep(0.002)
        s.close()

def recv(ifname, dport, n, ready, timeout=20):
    cap = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    cap.bind((ifname, 0))
    u4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    u4.bind(("0.0.0.0", dport))
    u6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    u6.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    u6.bind(("::", dport))
    open(ready, "w").write("ready\n")
    r = {"csum4": [], "csum6": [], "got4": 0, "got6": 0}
    end = time.monotonic() + timeout
    while time.monotonic() < end and (r["got4"] < n or r["got6"] < n):
        rd, _, _ = select.select([cap, u4, u6], [], [], 0.2)
        for sk in rd:
            data = sk.recv(4096)
            if sk is u4:
                r["got4"] += 1
            elif sk is u6:
                r["got6"] += 1
            else:
                et = struct.unpack("!H", data[12:14])[0]
                if et == 0x0800 and data[23] == 17:
                    l4 = 14 + (data[14] & 15) * 4
                    key = "csum4"
                elif et == 0x86dd and data[20] == 17:
                    l4, key = 54, "csum6"
                else:
                    continue
                if struct.unpack("!H", data[l4 + 2:l4 + 4])[0] == dport:
                    r[key].append(struct.unpack("!H", data[l4 + 6:l4 + 8])[0])
    print(json.dumps(r))

if sys.argv[1] == "send":
    send(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), *sys.argv[5:9])
else:
    recv(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
PY

out=$RXB_TMP/csum0.json
rxb_bg ip netns exec "$NS1" python3 "$RXB_TMP/csum0.py" recv rxb1 $PORT $N \
	"$RXB_TMP/ready" > "$out"
for i in {1..100}; do
	[ -e "$RXB_TMP/ready" ] && break
	rxb_sleep 0.1
done
ip netns exec "$NS0" python3 "$RXB_TMP/csum0.py" send $SPORT $PORT $N \
	$RXB_IP0 $RXB_IP1 $IP6_0 $IP6_1 || ktap_print_msg "the sender failed"
for i in {1..250}; do
	[ -s "$out" ] && break
	rxb_sleep 0.1
done
ktap_print_msg "receiver: $(cat "$out")"

# field VAR: the checksums captured, sorted and counted
field() { python3 -c 'import json,sys,collections; print(" ".join("%04x:%d" % kv for kv in sorted(collections.Counter(json.load(open(sys.argv[1]))[sys.argv[2]]).items())))' "$out" "$1" 2>/dev/null; }
c4=$(field csum4)
c6=$(field csum6)
ktap_print_msg "checksum fields seen (value:count): IPv4 $c4; IPv6 $c6"

# 2, 3
ktap_test_result "IPv4: every captured checksum field is 0xffff" [ "$c4" = "ffff:$N" ]
ktap_test_result "IPv6: every captured checksum field is 0xffff" [ "$c6" = "ffff:$N" ]
# 4, 5
ktap_test_result "IPv4: the $N datagrams are delivered" [ "$(rxb_jget "$out" got4)" = $N ]
ktap_test_result "IPv6: the $N datagrams are delivered" [ "$(rxb_jget "$out" got6)" = $N ]

ktap_finished
