// SPDX-License-Identifier: GPL-2.0
/*
 * enso_bench: the receive side of Ensō's microbenchmark (enso.rst),
 * with three back ends, so that Ensō pipes, AF_XDP and UDP sockets are
 * measured by the same loop:
 *
 *   enso_bench -b enso|xdp|udp -i IF -p PORT [-n NPIPES] [-s BUF_KB]
 *              [-q QUEUE] [-d SECONDS] [-T TIMEOUT] [-C CPU] [-w IDLE_US]
 *              [-z] [-o XDP_OBJ | -m XSKMAP]
 *
 * Datagrams to UDP ports PORT..PORT+NPIPES-1 (enso_tool send: each
 * payload carries its port, a sequence number per port and the sender's
 * CLOCK_MONOTONIC time in ns at offset 16) are received
 *   enso  from NPIPES Ensō pipes of BUF_KB each, bound to the ports, all
 *         sharing one notification buffer (one context on QUEUE);
 *   xdp   from one AF_XDP socket on QUEUE (zero-copy with -z, else copy),
 *         a umem of BUF_KB in 2 KiB frames, all posted to the fill ring;
 *         the XDP program of XDP_OBJ attached here, or the XSKMAP pinned
 *         at XSKMAP of a program attached already;
 *   udp   from NPIPES UDP sockets, one a port, SO_RCVBUF(FORCE) BUF_KB,
 *         recvmmsg() of up to 64.
 * Every back end polls without blocking and, when a poll finds nothing,
 * sleeps IDLE_US microseconds (0: spins), so that a fixed offered load
 * costs each the same wake-ups.  Each message counts in messages and
 * bytes (UDP payload), its sequence number is checked against its port's
 * (gaps: lost, going back: bad), and its latency is the receive time less
 * the sender's time.  The window opens at the first message and lasts
 * SECONDS (default 3); the process runs on CPU (-C), whose busy time over
 * the window (the wall time less the CPU's idle time, /proc/timer_list;
 * -1 when not readable) is the application core's cost, every cycle the
 * CPU did not idle, its interrupts' included, and so the empty polls'
 * and their wake-ups'.
 *
 * Prints "ready" once set up (and half a second of the loop without
 * traffic), then one line of key=value: backend, msgs, bytes, lost, bad,
 * other (frames not ours), wall_ns, busy_ns, empty_polls (in the window),
 * self_ns (the process's CPU time), busy_ticks and hz (/proc/stat), mpps,
 * gbps (payload), p50_ns, p99_ns, p999_ns, max_ns.
 * Exit: 0 a window measured, 1 failure (no traffic before TIMEOUT, a
 * setup error), 2 bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "enso.h"
#ifdef HAVE_XSK
#include "../../selftests/drivers/net/rxbisect/progs/rxb_xsk_rx.h"
#endif

#define MAGIC		0x4f534e45u	/* "ENSO", enso_tool send's */
#define MAXP		ENSO_MAX_PIPES
#define BATCH		64
#define XSK_FRAME	2048
#define MAX_SAMPLES	2097152	/* latencies kept, the first ones */

static void bad_usage(void)
{
	fprintf(stderr,
		"usage: enso_bench -b enso|xdp|udp -i IF -p PORT [-n NPIPES] [-s BUF_KB] [-q QUEUE]\n"
		"                  [-d SECONDS] [-T TIMEOUT] [-C CPU] [-w IDLE_US] [-z] [-o XDP_OBJ | -m XSKMAP]\n"
		"  NPIPES 1..%d (default 1), BUF_KB a power of two in 16..2048 (default 1024),\n"
		"  SECONDS 1..3600 (default 3), TIMEOUT 1..3600 (default 30), IDLE_US 0..100000\n"
		"  (default 20); -z, -o, -m: xdp only (one of -o, -m)\n", MAXP);
	exit(2);
}

#define CLI_PROG "enso_bench"
#include "cli.h"

struct payload {
	uint32_t magic;
	uint16_t port;
	uint16_t pad;
	uint64_t seq;
	uint64_t ts;		/* sender's CLOCK_MONOTONIC, ns */
};

struct port_state {
	uint64_t next;		/* next sequence number expected */
	int seen;
};

static struct {
	unsigned long port, np;
	int started, done;
	int ready;
	double t_end, settled;
	uint64_t msgs, bytes, lost, bad, other;
	uint64_t polls;		/* empty polls in the window */
	struct port_state ps[MAXP];
	uint64_t *lat;		/* ns */
	uint64_t nlat;
} B;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* The CPU's busy time, as tls_bench.sh's ktls_bulk reads it. */
struct cpustat {
	uint64_t t, idle_ns, busy_ticks, self_ns;
	int idle_ok;
};

static void cpu_stat(int cpu, struct cpustat *st)
{
	unsigned long long v[8] = { 0 }, x;
	char line[512], name[16], *p;
	int cur = -1, seen = 0;
	struct rusage ru;
	FILE *f;

	memset(st, 0, sizeof(*st));
	f = fopen("/proc/timer_list", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu: %d", &cur) == 1 || cur != cpu)
			continue;
		p = strstr(line, ".idle_sleeptime");
		if (!p)
			p = strstr(line, ".iowait_sleeptime");
		p = p ? strchr(p, ':') : NULL;
		if (!p || sscanf(p + 1, "%llu", &x) != 1)
			continue;
		st->idle_ns += x;
		if (++seen == 2)
			break;
	}
	if (f)
		fclose(f);
	st->idle_ok = seen == 2;
	f = fopen("/proc/stat", "r");
	snprintf(name, sizeof(name), "cpu%d ", cpu);
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, name, strlen(name)))
			continue;
		if (sscanf(line + strlen(name), "%llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) == 7)
			st->busy_ticks = v[0] + v[1] + v[2] + v[5] + v[6];
		break;
	}
	if (f)
		fclose(f);
	if (!getrusage(RUSAGE_SELF, &ru))
		st->self_ns = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
			1000000000ull + (ru.ru_utime.tv_usec +
					 ru.ru_stime.tv_usec) * 1000ull;
	st->t = now_ns();
}

static int cpu;
static struct cpustat c0, c1;

/* One UDP payload of @len bytes received at @t. */
static void message(const uint8_t *pl, uint32_t len, uint64_t t)
{
	struct port_state *ps;
	struct payload v;

	if (B.done)
		return;
	if (len < sizeof(v)) {
		B.other++;
		return;
	}
	memcpy(&v, pl, sizeof(v));
	if (v.magic != MAGIC || v.port < B.port || v.port >= B.port + B.np) {
		B.other++;
		return;
	}
	if (!B.started) {
		B.started = 1;
		B.polls = 0;
		cpu_stat(cpu, &c0);
		B.t_end = now() + B.t_end;
	}
	ps = &B.ps[v.port - B.port];
	if (ps->seen && v.seq < ps->next) {
		B.bad++;
		return;
	}
	if (ps->seen)
		B.lost += v.seq - ps->next;
	ps->seen = 1;
	ps->next = v.seq + 1;
	B.msgs++;
	B.bytes += len;
	if (B.nlat < MAX_SAMPLES)
		B.lat[B.nlat++] = t > v.ts ? t - v.ts : 0;
}

/* The UDP payload of Ethernet/IPv4 frame @f, or NULL. */
static const uint8_t *udp_payload(const uint8_t *f, uint32_t len,
				  uint32_t *plen)
{
	uint32_t ihl, ulen;

	if (len < 14 + 20 + 8 || f[12] != 0x08 || f[13] != 0x00 ||
	    f[23] != IPPROTO_UDP)
		return NULL;
	ihl = (f[14] & 0xf) * 4u;
	if (ihl < 20 || len < 14 + ihl + 8)
		return NULL;
	ulen = (uint32_t)(f[14 + ihl + 4] << 8 | f[14 + ihl + 5]);
	if (ulen < 8 || 14 + ihl + ulen > len)
		return NULL;
	*plen = ulen - 8;
	return f + 14 + ihl + 8;
}

static void frame(const uint8_t *f, uint32_t len, uint64_t t)
{
	const uint8_t *pl;
	uint32_t plen;

	pl = udp_payload(f, len, &plen);
	if (pl)
		message(pl, plen, t);
	else if (!B.done)
		B.other++;
}

/* A poll found nothing: count it, sleep @us. */
static void idle(unsigned long us)
{
	struct timespec ts = { 0, (long)us * 1000 };

	B.polls++;
	if (us)
		nanosleep(&ts, NULL);
}

#define SETTLE_SECS	0.5

/* Set up: the loop runs SETTLE_SECS before it says "ready" (the kernel's
 * part of the set-up done: buffers posted, rings filled).
 */
static void settle_start(void)
{
	B.settled = now() + SETTLE_SECS;
}

/* Stop once the window is over; 1 when it is.  Says "ready" once
 * settled.
 */
static int window_over(void)
{
	if (!B.ready && (B.started || now() >= B.settled)) {
		B.ready = 1;
		printf("ready\n");
		fflush(stdout);
	}
	if (!B.started || now() < B.t_end)
		return 0;
	cpu_stat(cpu, &c1);
	B.done = 1;
	return 1;
}

struct opts {
	const char *backend, *ifname, *obj, *map;
	unsigned long port, np, kb, queue, secs, timeout, idle_us;
	int zc;
};

static int run_enso(const struct opts *o, double deadline)
{
	struct enso_rx_pipe *pipes[MAXP];
	struct enso_dev *dev;
	unsigned long i;

	dev = enso_dev_open(o->ifname, o->queue, 4096);
	if (!dev) {
		fprintf(stderr, "enso_bench: %s: %s\n", o->ifname,
			strerror(errno));
		return 1;
	}
	for (i = 0; i < o->np; i++) {
		struct enso_flow fl = {
			.family = 4, .proto = IPPROTO_UDP,
			.dport = htons(o->port + i),
		};
		int err;

		pipes[i] = enso_rx_pipe_alloc(dev, o->kb * 1024);
		if (!pipes[i]) {
			fprintf(stderr, "enso_bench: pipe: %s\n", strerror(errno));
			return 1;
		}
		err = enso_rx_pipe_bind(pipes[i], &fl);
		if (err) {
			fprintf(stderr, "enso_bench: port %lu: %s\n", o->port + i,
				strerror(-err));
			return 1;
		}
	}
	settle_start();
	while (!window_over() && (B.started || now() < deadline)) {
		struct enso_rx_pipe *p = enso_next_rx_pipe(dev);
		uint32_t len, off = 0, flen;
		const uint8_t *f;
		uint8_t *buf;
		uint64_t t;

		if (!p) {
			idle(o->idle_us);
			continue;
		}
		len = enso_recv(p, &buf, 0);
		t = now_ns();
		while ((f = enso_next_frame(buf, len, &off, &flen)))
			frame(f, flen, t);
		enso_clear(p);
	}
	enso_dev_close(dev);
	return 0;
}

static int run_udp(const struct opts *o, double deadline)
{
	static uint8_t bufs[BATCH][2048];
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	int fds[MAXP], rcvbuf = (int)(o->kb * 1024);
	unsigned long i;
	int k, n, got;

	for (k = 0; k < BATCH; k++) {
		iov[k] = (struct iovec){ bufs[k], sizeof(bufs[k]) };
		msgs[k] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov[k],
							  .msg_iovlen = 1 } };
	}
	for (i = 0; i < o->np; i++) {
		struct sockaddr_in a = { .sin_family = AF_INET,
					 .sin_port = htons(o->port + i) };

		fds[i] = socket(AF_INET, SOCK_DGRAM, 0);
		if (fds[i] < 0 ||
		    (setsockopt(fds[i], SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
				sizeof(rcvbuf)) &&
		     setsockopt(fds[i], SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				sizeof(rcvbuf))) ||
		    bind(fds[i], (void *)&a, sizeof(a))) {
			fprintf(stderr, "enso_bench: UDP port %lu: %s\n",
				o->port + i, strerror(errno));
			return 1;
		}
	}
	settle_start();
	while (!window_over() && (B.started || now() < deadline)) {
		uint64_t t;

		for (got = 0, i = 0; i < o->np; i++) {
			n = recvmmsg(fds[i], msgs, BATCH, MSG_DONTWAIT, NULL);
			if (n <= 0)
				continue;
			t = now_ns();
			got += n;
			for (k = 0; k < n; k++)
				message(bufs[k], msgs[k].msg_len, t);
		}
		if (!got)
			idle(o->idle_us);
	}
	for (i = 0; i < o->np; i++)
		close(fds[i]);
	return 0;
}

#ifdef HAVE_XSK
static int run_xdp(const struct opts *o, double deadline)
{
	unsigned int frames = o->kb * 1024 / XSK_FRAME, n, i, idx, fidx = 0;
	struct rxb_xsk_rx x;

	if (rxb_xsk_rx_open(&x, o->ifname, o->queue, o->zc, o->obj, o->map,
			    frames, XSK_FRAME, frames, XDP_USE_NEED_WAKEUP))
		return 1;
	settle_start();
	while (!window_over() && (B.started || now() < deadline)) {
		uint64_t t;

		n = xsk_ring_cons__peek(&x.rx, BATCH, &idx);
		if (!n) {
			if (xsk_ring_prod__needs_wakeup(&x.fq))
				recvfrom(xsk_socket__fd(x.xsk), NULL, 0,
					 MSG_DONTWAIT, NULL, NULL);
			idle(o->idle_us);
			continue;
		}
		t = now_ns();
		/* every frame goes back: the fill ring has room for all */
		while (xsk_ring_prod__reserve(&x.fq, n, &fidx) != n)
			;
		for (i = 0; i < n; i++) {
			const struct xdp_desc *d =
				xsk_ring_cons__rx_desc(&x.rx, idx + i);

			frame(xsk_umem__get_data(x.area, d->addr), d->len, t);
			*xsk_ring_prod__fill_addr(&x.fq, fidx + i) =
				xsk_umem__extract_addr(d->addr);
		}
		xsk_ring_prod__submit(&x.fq, n);
		xsk_ring_cons__release(&x.rx, n);
	}
	rxb_xsk_rx_close(&x);
	return 0;
}
#else
static int run_xdp(const struct opts *o, double deadline)
{
	(void)o;
	(void)deadline;
	fprintf(stderr, "enso_bench: built without libxdp (libxdp-dev): no xdp back end\n");
	return 1;
}
#endif

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static unsigned long long pct(double q)
{
	uint64_t i;

	if (!B.nlat)
		return 0;
	i = (uint64_t)(q * (B.nlat - 1) + 0.5);
	return B.lat[i];
}

int main(int argc, char **argv)
{
	struct opts o = { .np = 1, .kb = 1024, .secs = 3, .timeout = 30,
			  .idle_us = 20 };
	int c, ret, pin = 0;
	double wall;
	cpu_set_t set;
	long long busy;

	while ((c = getopt(argc, argv, "b:i:p:n:s:q:d:T:C:w:zo:m:")) != -1) {
		switch (c) {
		case 'b':
			o.backend = optarg;
			if (strcmp(optarg, "enso") && strcmp(optarg, "xdp") &&
			    strcmp(optarg, "udp")) {
				fprintf(stderr, "enso_bench: %s: not a back end (enso, xdp, udp)\n",
					optarg);
				bad_usage();
			}
			break;
		case 'i':
			o.ifname = optarg;
			break;
		case 'p':
			o.port = num(optarg, 1, 65535);
			break;
		case 'n':
			o.np = num(optarg, 1, MAXP);
			break;
		case 's':
			o.kb = num(optarg, 16, 2048);
			if (o.kb & (o.kb - 1)) {
				fprintf(stderr, "enso_bench: %s: not a power of two\n",
					optarg);
				bad_usage();
			}
			break;
		case 'q':
			o.queue = num(optarg, 0, 63);
			break;
		case 'd':
			o.secs = num(optarg, 1, 3600);
			break;
		case 'T':
			o.timeout = num(optarg, 1, 3600);
			break;
		case 'C':
			cpu = (int)num(optarg, 0, CPU_SETSIZE - 1);
			pin = 1;
			break;
		case 'w':
			o.idle_us = num(optarg, 0, 100000);
			break;
		case 'z':
			o.zc = 1;
			break;
		case 'o':
			o.obj = optarg;
			break;
		case 'm':
			o.map = optarg;
			break;
		default:
			bad_usage();
		}
	}
	if (optind != argc || !o.backend || !o.ifname || !o.port) {
		fprintf(stderr, "enso_bench: -b, -i and -p are needed, nothing else\n");
		bad_usage();
	}
	if (o.port + o.np > 65536) {
		fprintf(stderr, "enso_bench: ports beyond 65535\n");
		bad_usage();
	}
	if (strcmp(o.backend, "xdp") ? (o.zc || o.obj || o.map) :
	    !o.obj == !o.map) {
		fprintf(stderr, "enso_bench: -z, -o, -m are xdp's, which needs one of -o, -m\n");
		bad_usage();
	}
	if (!pin)
		cpu = sched_getcpu();
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "enso_bench: CPU %d: %s\n", cpu, strerror(errno));
		return 1;
	}
	B.port = o.port;
	B.np = o.np;
	B.t_end = o.secs;
	B.lat = malloc(MAX_SAMPLES * sizeof(*B.lat));
	if (!B.lat)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(o.backend, "enso"))
		ret = run_enso(&o, now() + o.timeout);
	else if (!strcmp(o.backend, "udp"))
		ret = run_udp(&o, now() + o.timeout);
	else
		ret = run_xdp(&o, now() + o.timeout);
	if (ret)
		return ret;
	if (!B.done) {
		fprintf(stderr, "enso_bench: no traffic to ports %lu..%lu within %lu s\n",
			o.port, o.port + o.np - 1, o.timeout);
		return 1;
	}
	qsort(B.lat, B.nlat, sizeof(*B.lat), cmp_u64);
	wall = (double)(c1.t - c0.t);
	busy = c0.idle_ok && c1.idle_ok ?
		(long long)(c1.t - c0.t) - (long long)(c1.idle_ns - c0.idle_ns) : -1;
	printf("backend=%s%s pipes=%lu buf_kb=%lu cpu=%d", o.backend,
	       !strcmp(o.backend, "xdp") ? (o.zc ? "-zc" : "-copy") : "",
	       o.np, o.kb, cpu);
	printf(" msgs=%llu bytes=%llu lost=%llu bad=%llu other=%llu",
	       (unsigned long long)B.msgs,
	       (unsigned long long)B.bytes, (unsigned long long)B.lost,
	       (unsigned long long)B.bad, (unsigned long long)B.other);
	printf(" wall_ns=%.0f busy_ns=%lld empty_polls=%llu", wall, busy,
	       (unsigned long long)B.polls);
	printf(" self_ns=%llu busy_ticks=%llu hz=%ld",
	       (unsigned long long)(c1.self_ns - c0.self_ns),
	       (unsigned long long)(c1.busy_ticks - c0.busy_ticks),
	       sysconf(_SC_CLK_TCK));
	printf(" mpps=%.6f gbps=%.6f p50_ns=%llu p99_ns=%llu p999_ns=%llu max_ns=%llu\n",
	       B.msgs / wall * 1e3, B.bytes * 8 / wall, pct(0.5), pct(0.99),
	       pct(0.999), B.nlat ? (unsigned long long)B.lat[B.nlat - 1] : 0);
	return 0;
}
