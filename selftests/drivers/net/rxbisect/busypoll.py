#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""UDP ping-pong over an rxbisect pair with busy polling on the receiver.

  busypoll.py server IP PORT N DIR MODE MODEL...
      For each MODEL in turn (module parameter ring_model; "-": leave it),
      a UDP socket on IP:PORT+i echoes datagrams until it gets b"end".
      MODE sockopt: SO_BUSY_POLL and SO_PREFER_BUSY_POLL on the socket,
      blocking recv();
      MODE sysctl: nothing on the socket (net.core.busy_read and
      busy_poll, set by the caller, apply), poll() before recv().
      Touches DIR/ready.i when round i listens and prints one JSON line
      per round: model, SO_INCOMING_NAPI_ID, datagrams, and how many
      packets busy polling took off the rings (TcpExt BusyPollRxPackets of
      this namespace).
  busypoll.py client IP PORT N DIR ROUNDS
      Round i: waits for DIR/ready.i, then N ping-pongs to IP:PORT+i (one
      outstanding, resent after 1 s), then b"end".  Prints the replies.
  busypoll.py spin IP PORT DIR
      A UDP socket on IP:PORT with SO_BUSY_POLL spins on non-blocking
      recv() (each call one busy-poll round) until DIR/stop exists;
      touches DIR/ready when it listens, then prints "calls datagrams
      busy_rx napi_id" (BusyPollRxPackets gained, SO_INCOMING_NAPI_ID).
"""
import json
import os
import select
import socket
import sys
import time

SO_BUSY_POLL = 46
SO_INCOMING_NAPI_ID = 56
SO_PREFER_BUSY_POLL = 69
# The server's busy-poll window: longer than any ping-pong of a round, so
# that between two pings it never sleeps (a sleeping server's ping is taken
# by the NAPI timer, not by busy polling): with 20 ms, a host slow enough
# that every turnaround of the client took longer saw 0 of 30 packets
# busy-polled.  Busy polling ends as soon as a datagram is queued.
BUSY_US = 10000000


def busy_rx():
    with open("/proc/net/netstat") as f:
        lines = f.read().splitlines()
    for keys, vals in zip(lines[::2], lines[1::2]):
        if keys.startswith("TcpExt:"):
            return dict(zip(keys.split()[1:], map(int, vals.split()[1:]))) \
                .get("BusyPollRxPackets", 0)
    return 0


def server(ip, port, n, d, mode, models):
    for i, m in enumerate(models):
        if m != "-":
            with open("/sys/module/rxbisect/parameters/ring_model", "w") as f:
                f.write(m)
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        if mode == "sockopt":
            s.setsockopt(socket.SOL_SOCKET, SO_BUSY_POLL, BUSY_US)
            s.setsockopt(socket.SOL_SOCKET, SO_PREFER_BUSY_POLL, 1)
        s.bind((ip, port + i))
        p = select.poll()
        p.register(s, select.POLLIN)
        before = busy_rx()
        open(os.path.join(d, "ready.%d" % i), "w").close()
        got = 0
        while True:
            if mode == "sysctl":
                p.poll()
            data, peer = s.recvfrom(2048)
            s.sendto(data, peer)
            if data == b"end":
                break
            got += 1
        napi = s.getsockopt(socket.SOL_SOCKET, SO_INCOMING_NAPI_ID)
        print(json.dumps({"model": m, "napi_id": napi, "got": got,
                          "busy_rx": busy_rx() - before}), flush=True)
        s.close()


def client(ip, port, n, d, rounds):
    for i in range(rounds):
        ready = os.path.join(d, "ready.%d" % i)
        t0 = time.monotonic()
        while not os.path.exists(ready):
            if time.monotonic() - t0 > 60:
                print("round %d: the server is not ready" % i)
                return 1
            time.sleep(0.05)
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(1)
        replies = 0
        for k in range(n + 1):
            msg = b"end" if k == n else b"ping %d" % k
            for _ in range(10):
                s.sendto(msg, (ip, port + i))
                try:
                    while s.recv(2048) != msg:
                        pass
                    replies += k < n
                    break
                except socket.timeout:
                    continue
        print("round %d: %d/%d replies" % (i, replies, n), flush=True)
        s.close()
    return 0


def spin(ip, port, d):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, SO_BUSY_POLL, 50)
    s.bind((ip, port))
    stop = os.path.join(d, "stop")
    open(os.path.join(d, "ready"), "w").close()
    before = busy_rx()
    calls = got = 0
    while True:
        calls += 1
        try:
            s.recv(2048, socket.MSG_DONTWAIT)
            got += 1
        except BlockingIOError:
            pass
        if calls % 256 == 0 and os.path.exists(stop):
            break
    napi = s.getsockopt(socket.SOL_SOCKET, SO_INCOMING_NAPI_ID)
    print(calls, got, busy_rx() - before, napi, flush=True)
    return 0


def main():
    if sys.argv[1] == "spin":
        return spin(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    cmd, ip, port, n, d = sys.argv[1:6]
    if cmd == "server":
        return server(ip, int(port), int(n), d, sys.argv[6], sys.argv[7:])
    return client(ip, int(port), int(n), d, int(sys.argv[6]))


if __name__ == "__main__":
    sys.exit(main())
