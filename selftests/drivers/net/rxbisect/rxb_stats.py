#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rxb_stats.py PORTFILE PID: serve "ethtool -S" over a loopback TCP socket.

lib.sh's rxb_snap reads a port's counters hundreds of times per selftest.
Through ethtool that is two execs (ip netns exec, ethtool) and a fork per
read: about half a second in the TCG VM, where an exec costs 100-300 ms,
and most of the suite's time.  This server answers the same question with
the same ioctls ethtool uses (ETHTOOL_GSSET_INFO, GSTRINGS, GSTATS), and
bash talks to it through /dev/tcp with builtins only, from subshells and
background jobs alike.

Protocol: one request per connection, a line "NETNS IFNAME" ("-" for the
namespace the server runs in, else a name under /run/netns); one reply
line: "0 ([name]=value ...)", a bash associative-array compound
assignment, or "1 message".

The server holds no reference to a namespace between requests (it enters
one, opens a socket there, leaves it, and closes the socket after the
reply), so "ip netns del" frees a namespace as it would without it.  It
listens on 127.0.0.1 on a port the kernel picks, and writes "PORT SERVERPID"
to PORTFILE once it listens.  It exits when process PID (the selftest's
shell) is gone: lib.sh starts it detached, not as a job of that shell,
whose tests "wait" for their own background jobs.
"""

import ctypes
import fcntl
import os
import shlex
import socket
import struct
import sys

SIOCETHTOOL = 0x8946
ETHTOOL_GSTRINGS = 0x1b
ETHTOOL_GSTATS = 0x1d
ETHTOOL_GSSET_INFO = 0x37
ETH_SS_STATS = 1
ETH_GSTRING_LEN = 32
CLONE_NEWNET = 0x40000000
# The kernel writes as many entries as the device has now, whatever
# count we asked with (ethtool has the same race): room for that many
# more if queues were added between the calls, and a retry.
SLACK = 4096

libc = ctypes.CDLL(None, use_errno=True)


def setns(fd):
    if libc.setns(fd, CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, "setns: " + os.strerror(err))


def ethtool(sock, ifname, buf):
    """SIOCETHTOOL on @ifname with ifr_data pointing at @buf."""
    ifr = struct.pack("16sP", ifname.encode(), ctypes.addressof(buf))
    fcntl.ioctl(sock.fileno(), SIOCETHTOOL, ifr + bytes(40 - len(ifr)))


def stats(sock, ifname):
    """[(name, value)] as ethtool -S prints them."""
    for _ in range(3):
        info = ctypes.create_string_buffer(
            struct.pack("IIQI", ETHTOOL_GSSET_INFO, 0, 1 << ETH_SS_STATS, 0))
        ethtool(sock, ifname, info)
        _, _, mask, n = struct.unpack("IIQI", info.raw[:20])
        if not mask & (1 << ETH_SS_STATS) or not n:
            # ethtool -S fails on these too ("no stats available")
            raise OSError(0, "no stats available")
        cap = n + SLACK
        strs = ctypes.create_string_buffer(12 + cap * ETH_GSTRING_LEN)
        strs[:12] = struct.pack("III", ETHTOOL_GSTRINGS, ETH_SS_STATS, n)
        ethtool(sock, ifname, strs)
        ns = struct.unpack("III", strs.raw[:12])[2]
        vals = ctypes.create_string_buffer(8 + cap * 8)
        vals[:8] = struct.pack("II", ETHTOOL_GSTATS, n)
        ethtool(sock, ifname, vals)
        nv = struct.unpack("II", vals.raw[:8])[1]
        if ns == n and nv == n:
            break
    else:
        raise OSError(0, "the number of counters keeps changing")
    raw = strs.raw[12:12 + n * ETH_GSTRING_LEN]
    names = [raw[i:i + ETH_GSTRING_LEN].split(b"\0", 1)[0].decode(
        "ascii", "replace") for i in range(0, len(raw), ETH_GSTRING_LEN)]
    values = struct.unpack("%dQ" % n, vals.raw[8:8 + 8 * n])
    return list(zip(names, values))


def answer(req, home):
    try:
        nsname, ifname = req.split()
    except ValueError:
        return "1 bad request"
    if nsname != "-" and ("/" in nsname or nsname in (".", "..")):
        return "1 bad namespace name"
    if len(ifname.encode()) > 15:
        return "1 bad interface name"
    fd = -1
    try:
        if nsname != "-":
            fd = os.open("/run/netns/" + nsname, os.O_RDONLY)
            setns(fd)
        try:
            sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        finally:
            if fd >= 0:
                setns(home)
        with sock:
            st = stats(sock, ifname)
    except OSError as e:
        return "1 %s %s: %s" % (nsname, ifname, e.strerror or e)
    finally:
        if fd >= 0:
            os.close(fd)
    # ethtool -S prints "name: value"; rxb_snap keys by the name
    return "0 (" + " ".join("[%s]=%d" % (shlex.quote(k), v)
                            for k, v in st if k) + ")"


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def main():
    if len(sys.argv) != 3 or not sys.argv[2].isdigit():
        sys.stderr.write("usage: rxb_stats.py PORTFILE PID\n")
        return 2
    owner = int(sys.argv[2])
    home = os.open("/proc/self/ns/net", os.O_RDONLY)
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    srv.settimeout(2)
    tmp = sys.argv[1] + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d %d\n" % (srv.getsockname()[1], os.getpid()))
    os.rename(tmp, sys.argv[1])
    while alive(owner):
        try:
            conn, _ = srv.accept()
        except socket.timeout:
            continue
        with conn:
            conn.settimeout(10)
            try:
                req = conn.makefile("r").readline().strip()
                conn.sendall((answer(req, home) + "\n").encode())
            except OSError:
                pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
