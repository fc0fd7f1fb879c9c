// SPDX-License-Identifier: GPL-2.0
/*
 * enso_tool: libenso's test driver and diagnostic (enso.rst).
 *
 *   enso_tool send DST PORT NPORTS COUNT LEN RATE   UDP datagrams from a
 *	socket: COUNT per port, ports PORT..PORT+NPORTS-1, LEN bytes of
 *	payload (16..1472), RATE per second in all (0: no pacing); each
 *	carries its port and a sequence number per port and, when LEN is
 *	24 or more, its CLOCK_MONOTONIC send time in ns at offset 16
 *	(enso_bench's latency)
 *   enso_tool recv IF PORT SIZES COUNT [--slow US] [--prefetch]
 *	[--timeout S]   one pipe per size of the ','-list SIZES (bytes), pipe
 *	i taking UDP port PORT + i; receives until COUNT datagrams per pipe
 *	or the timeout (or a second without traffic once it came); checks
 *	each is its port's next; prints one line per pipe and exits 0 when
 *	each datagram of every pipe was received once, in order, or dropped
 *	by the NIC for want of room (its pipe-full drops)
 *   enso_tool hold IF PORT NPIPES SIZE   NPIPES pipes bound, then reads
 *	and frees forever (to be killed)
 *   enso_tool badwrite IF PORT   every bad register write, each refused
 *	and counted; the pipe still receives
 *   enso_tool errors IF   every bad call refused with its errno
 *   enso_tool fill IF   attach 8 contexts at once, each with 16 pipes
 *   enso_tool xmit IF DSTMAC DST PORT COUNT LEN   COUNT UDP datagrams of
 *	LEN bytes of payload (16..1472) to DST:PORT (from IF's address and
 *	MAC, source port PORT) built here and sent through a TX pipe of IF
 *	(enso_send()), at most 32 in flight; each carries the port and its
 *	sequence number; waits for every completion; prints what the
 *	completions and the TX registers say
 *   enso_tool txbad IF   every bad TX notification and TX tail write,
 *	each refused and counted, nothing sent
 *
 * Exit: 0 success, 1 failure, 2 bad usage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <rxbisect/rxb_enso_user.h>
#include "enso.h"

#define MAGIC	0x4f534e45u	/* "ENSO" */
/* The NIC's registers: single loads and stores. */
#define RD(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WR(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define MAXP	ENSO_MAX_PIPES

struct payload {
	uint32_t magic;
	uint16_t port;
	uint16_t pad;
	uint64_t seq;
};

static void bad_usage(void)
{
	fprintf(stderr,
		"usage: enso_tool send DST PORT NPORTS COUNT LEN RATE\n"
		"       enso_tool recv IF PORT SIZES COUNT [--slow US] [--prefetch] [--timeout S]\n"
		"       enso_tool hold IF PORT NPIPES SIZE\n"
		"       enso_tool badwrite IF PORT\n"
		"       enso_tool errors IF\n"
		"       enso_tool fill IF\n"
		"       enso_tool xmit IF DSTMAC DST PORT COUNT LEN\n"
		"       enso_tool txbad IF\n");
	exit(2);
}

#define CLI_PROG "enso_tool"
#include "cli.h"

static int cmd_send(int argc, char **argv)
{
	unsigned long port, nports, count, len, rate, i, k;
	struct sockaddr_in to = { .sin_family = AF_INET };
	char buf[1472] = { 0 };
	struct payload *pl = (void *)buf;
	double t0;
	uint64_t ts;
	int fd;

	if (argc != 8)
		bad_usage();
	if (inet_pton(AF_INET, argv[2], &to.sin_addr) != 1) {
		fprintf(stderr, "enso_tool: %s: not an IPv4 address\n", argv[2]);
		bad_usage();
	}
	port = num(argv[3], 1, 65535);
	nports = num(argv[4], 1, MAXP);
	count = num(argv[5], 1, 100000000);
	len = num(argv[6], sizeof(*pl), sizeof(buf));
	rate = num(argv[7], 0, 10000000);
	if (port + nports > 65536)
		bad_usage();
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("enso_tool: socket");
		return 1;
	}
	t0 = now();
	for (i = 0; i < count; i++) {
		for (k = 0; k < nports; k++) {
			unsigned long n = i * nports + k;

			*pl = (struct payload){ .magic = MAGIC,
						.port = port + k, .seq = i };
			to.sin_port = htons(port + k);
			/* paced: sleeps while more than 200 us early (the
			 * NIC's thread may share this CPU), then spins
			 */
			while (rate && n > (now() - t0) * rate) {
				double early = (double)n / rate - (now() - t0);

				if (early > 0.0002)
					usleep((useconds_t)((early - 0.0001) * 1e6));
			}
			if (len >= sizeof(*pl) + sizeof(ts)) {
				ts = (uint64_t)(now() * 1e9);
				memcpy(buf + sizeof(*pl), &ts, sizeof(ts));
			}
			if (sendto(fd, buf, len, 0, (void *)&to,
				   sizeof(to)) < 0 && errno != ENOBUFS) {
				perror("enso_tool: sendto");
				return 1;
			}
		}
	}
	printf("sent %lu in %.3f s\n", count * nports, now() - t0);
	return 0;
}

struct rxstate {
	struct enso_rx_pipe *p;
	uint16_t port;
	uint64_t next;		/* next sequence number expected */
	uint64_t bad;		/* malformed, duplicate or reordered */
	uint64_t lost;		/* sequence numbers skipped */
	uint64_t bytes;
};

/* The UDP payload of an Ethernet/IPv4 frame, or NULL. */
static const struct payload *frame_payload(const uint8_t *f, uint32_t len,
					   uint16_t *dport)
{
	uint32_t ihl;

	if (len < 14 + 20 + 8 + sizeof(struct payload) ||
	    f[12] != 0x08 || f[13] != 0x00 || f[23] != IPPROTO_UDP)
		return NULL;
	ihl = (f[14] & 0xf) * 4;
	if (len < 14 + ihl + 8 + sizeof(struct payload))
		return NULL;
	*dport = (uint16_t)(f[14 + ihl + 2] << 8 | f[14 + ihl + 3]);
	return (const void *)(f + 14 + ihl + 8);
}

/* Read pipe @s's chunk, check its frames; free if @free.  Frames read. */
static unsigned int consume(struct rxstate *s, int free)
{
	uint32_t len, off = 0, flen;
	const uint8_t *f;
	unsigned int n = 0;
	uint8_t *buf;

	len = enso_recv(s->p, &buf, 0);
	while ((f = enso_next_frame(buf, len, &off, &flen))) {
		const struct payload *pl;
		uint16_t dport;
		struct payload v;

		n++;
		pl = frame_payload(f, flen, &dport);
		if (!pl) {
			s->bad++;
			continue;
		}
		memcpy(&v, pl, sizeof(v));
		if (v.magic != MAGIC || v.port != s->port || dport != s->port ||
		    v.seq < s->next) {
			s->bad++;
			continue;
		}
		s->lost += v.seq - s->next;
		s->next = v.seq + 1;
		s->bytes += flen;
	}
	if (off != len)
		s->bad++;
	if (free)
		enso_clear(s->p);
	return n;
}

static struct enso_dev *open_dev(const char *ifname)
{
	struct enso_dev *dev = enso_dev_open(ifname, 0, 256);

	if (!dev)
		fprintf(stderr, "enso_tool: %s: %s\n", ifname, strerror(errno));
	return dev;
}

static int bind_pipe(struct enso_rx_pipe *p, uint16_t port)
{
	struct enso_flow fl = {
		.family = 4, .proto = IPPROTO_UDP, .dport = htons(port),
	};
	int err = enso_rx_pipe_bind(p, &fl);

	if (err)
		fprintf(stderr, "enso_tool: bind port %u: %s\n", port,
			strerror(-err));
	return err;
}

static int cmd_recv(int argc, char **argv)
{
	unsigned long port, count, slow = 0, timeout = 30, sizes[MAXP];
	unsigned int np = 0, i, done;
	struct rxstate st[MAXP];
	struct enso_dev *dev;
	int prefetch = 0, ok;
	double end, last;
	char *s, *tok;

	if (argc < 6)
		bad_usage();
	port = num(argv[3], 1, 65535 - MAXP);
	count = num(argv[5], 1, 100000000);
	for (i = 6; i < (unsigned int)argc; i++) {
		if (!strcmp(argv[i], "--prefetch"))
			prefetch = 1;
		else if (!strcmp(argv[i], "--slow") && i + 1 < (unsigned int)argc)
			slow = num(argv[++i], 0, 1000000);
		else if (!strcmp(argv[i], "--timeout") && i + 1 < (unsigned int)argc)
			timeout = num(argv[++i], 1, 3600);
		else
			bad_usage();
	}
	s = strdup(argv[4]);
	if (!s)
		return 1;
	for (tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
		if (np == MAXP)
			bad_usage();
		sizes[np++] = num(tok, 4096, 2 << 20);
	}
	free(s);
	if (!np)
		bad_usage();
	dev = open_dev(argv[2]);
	if (!dev)
		return 1;
	for (i = 0; i < np; i++) {
		st[i] = (struct rxstate){ .port = port + i };
		st[i].p = enso_rx_pipe_alloc(dev, sizes[i]);
		if (!st[i].p) {
			fprintf(stderr, "enso_tool: pipe of %lu bytes: %s\n",
				sizes[i], strerror(errno));
			return 1;
		}
		if (bind_pipe(st[i].p, port + i))
			return 1;
	}
	printf("ready\n");
	fflush(stdout);
	end = now() + timeout;
	last = 0;
	do {
		struct enso_rx_pipe *p = enso_next_rx_pipe(dev);

		if (p) {
			for (i = 0; i < np && st[i].p != p; i++)
				;
			if (prefetch)
				enso_prefetch(st[(i + 1) % np].p);
			consume(&st[i], 1);
			last = now();
			if (slow)
				usleep(slow);
		}
		for (done = 0, i = 0; i < np; i++)
			done += st[i].next >= count;
		/* Idle for a second once traffic came: the rest was dropped. */
		if (last && now() > last + 1)
			break;
	} while (done < np && now() < end);
	ok = 1;
	for (i = 0; i < np; i++) {
		uint64_t got = st[i].next - st[i].lost;
		uint64_t drops = RD(st[i].p->regs->drops);

		/* Every datagram received once, in order, or dropped by the
		 * NIC for want of room in the pipe (counted).
		 */
		ok &= !st[i].bad && !st[i].p->bad_frames &&
		      got + drops == count;
		printf("pipe %u: size %lu port %u frames %llu bytes %llu wraps %llu ",
		       i, sizes[i], st[i].port, (unsigned long long)got,
		       (unsigned long long)st[i].bytes,
		       (unsigned long long)(st[i].bytes / sizes[i]));
		printf("lost %llu bad %llu nic_packets %llu nic_drops %llu\n",
		       (unsigned long long)(count - got),
		       (unsigned long long)(st[i].bad + st[i].p->bad_frames),
		       (unsigned long long)RD(st[i].p->regs->packets),
		       (unsigned long long)drops);
	}
	printf("notifications %llu dropped %llu bad_writes %llu bad_notifs %llu\n",
	       (unsigned long long)RD(dev->regs->notifs),
	       (unsigned long long)RD(dev->regs->drops),
	       (unsigned long long)RD(dev->regs->bad_writes),
	       (unsigned long long)dev->bad_notifs);
	ok &= !dev->bad_notifs;
	enso_dev_close(dev);
	return ok ? 0 : 1;
}

static int cmd_hold(int argc, char **argv)
{
	struct rxstate st[MAXP];
	unsigned long port, np, size, i;
	struct enso_dev *dev;

	if (argc != 6)
		bad_usage();
	port = num(argv[3], 1, 65535 - MAXP);
	np = num(argv[4], 1, MAXP);
	size = num(argv[5], 4096, 2 << 20);
	dev = open_dev(argv[2]);
	if (!dev)
		return 1;
	for (i = 0; i < np; i++) {
		st[i] = (struct rxstate){ .port = port + i };
		st[i].p = enso_rx_pipe_alloc(dev, size);
		if (!st[i].p) {
			fprintf(stderr, "enso_tool: pipe of %lu bytes: %s\n",
				size, strerror(errno));
			return 1;
		}
		if (bind_pipe(st[i].p, port + i))
			return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		struct enso_rx_pipe *p = enso_next_rx_pipe(dev);

		if (!p) {
			usleep(100);
			continue;
		}
		for (i = 0; i < np && st[i].p != p; i++)
			;
		consume(&st[i], 1);
	}
}

/* Wait for the NIC's scan (every 50 us) to have run. */
static void nic_scan(void)
{
	usleep(20000);
}

static int check(int cond, const char *what)
{
	printf("%s: %s\n", cond ? "ok" : "FAIL", what);
	return cond ? 0 : 1;
}

static int cmd_badwrite(int argc, char **argv)
{
	struct enso_dev *dev;
	struct rxstate st;
	double end;
	int fails = 0;
	uint64_t b0;

	if (argc != 4)
		bad_usage();
	dev = open_dev(argv[2]);
	if (!dev)
		return 1;
	st = (struct rxstate){ .port = num(argv[3], 1, 65535) };
	st.p = enso_rx_pipe_alloc(dev, 4096);
	if (!st.p || bind_pipe(st.p, st.port))
		return 1;
	printf("ready\n");
	fflush(stdout);
	/* The sender sends 4 datagrams: wait for the first notification. */
	end = now() + 20;
	while (!enso_next_rx_pipe(dev) && now() < end)
		usleep(1000);
	fails += check(st.p->tail != 0, "first notification");
	nic_scan();
	/* Head_SW beyond Tail_NIC (the pipe holds 4 frames at most). */
	b0 = RD(st.p->regs->bad_writes);
	WR(st.p->regs->rx_head, (RD(st.p->regs->rx_tail) + 10) & st.p->mask);
	nic_scan();
	fails += check(RD(st.p->regs->bad_writes) == b0 + 1,
		       "Head_SW beyond Tail_NIC refused and counted");
	/* Head_SW not a flit of the pipe. */
	WR(st.p->regs->rx_head, 1u << 24);
	nic_scan();
	fails += check(RD(st.p->regs->bad_writes) == b0 + 2,
		       "Head_SW outside the pipe refused and counted");
	/* NotificationHead_SW beyond the entries the NIC wrote. */
	b0 = RD(dev->regs->bad_writes);
	WR(dev->regs->head, dev->nhead + 100);
	nic_scan();
	fails += check(RD(dev->regs->bad_writes) == b0 + 1,
		       "NotificationHead_SW beyond the ring's tail refused and counted");
	/* Back to good values: the pipe still works. */
	WR(dev->regs->head, dev->nhead);
	WR(st.p->regs->rx_head, st.p->head);
	nic_scan();
	end = now() + 20;
	while (st.next < 4 && now() < end) {
		if (enso_next_rx_pipe(dev))
			consume(&st, 1);
		usleep(1000);
	}
	fails += check(st.next == 4 && !st.bad,
		       "the pipe received every datagram in order after them");
	fails += check(RD(st.p->regs->drops) == 0, "nothing dropped");
	enso_dev_close(dev);
	return fails ? 1 : 0;
}

static int expect_errno(int ret, int want, const char *what)
{
	int ok = ret < 0 && errno == want;

	printf("%s: %s (%s)\n", ok ? "ok" : "FAIL", what,
	       ret < 0 ? strerror(errno) : "succeeded");
	return ok ? 0 : 1;
}

static int cmd_errors(int argc, char **argv)
{
	struct rxb_enso_attach a = { .queue = 0, .entries = 64 };
	struct rxb_enso_bind b = { .family = 4, .proto = IPPROTO_UDP,
				   .dport = htons(7) };
	struct rxb_enso_pipe pp = { .size = 4096 };
	int fd, fd2, fails = 0;
	uint32_t id;
	void *m;

	if (argc != 3)
		bad_usage();
	a.ifindex = if_nametoindex(argv[2]);
	fd = open(RXB_ENSO_DEVICE, O_RDWR);
	fd2 = open(RXB_ENSO_DEVICE, O_RDWR);
	if (fd < 0 || fd2 < 0 || !a.ifindex) {
		perror("enso_tool: open");
		return 1;
	}
	fails += expect_errno(ioctl(fd, RXB_ENSO_IOC_PIPE, &pp), EINVAL,
			      "pipe before attach");
	a.entries = 100;
	fails += expect_errno(ioctl(fd, RXB_ENSO_IOC_ATTACH, &a), EINVAL,
			      "ring of 100 entries");
	a.entries = 64;
	a.queue = 1000;
	fails += expect_errno(ioctl(fd, RXB_ENSO_IOC_ATTACH, &a), EINVAL,
			      "queue 1000");
	a.queue = 0;
	a.ifindex = 1;	/* lo */
	fails += expect_errno(ioctl(fd, RXB_ENSO_IOC_ATTACH, &a), ENODEV,
			      "a port that is not rxbisect's");
	a.ifindex = if_nametoindex(argv[2]);
	if (ioctl(fd, RXB_ENSO_IOC_ATTACH, &a) || ioctl(fd2, RXB_ENSO_IOC_ATTACH, &a)) {
		perror("enso_tool: attach");
		return 1;
	}
	fails += expect_errno(ioctl(fd, RXB_ENSO_IOC_ATTACH, &a), EBUSY,
			      "second attach");
	pp.size = 5000;
	fails += expect_errno(ioctl(fd, RXB_ENSO_IOC_PIPE, &pp), EINVAL,
			      "pipe of 5000 bytes");
	pp.size = 4 << 20;
	fails += expect_errno(ioctl(fd, RXB_ENSO_IOC_PIPE, &pp), EINVAL,
			      "pipe of 4 MiB");
	pp.size = 4096;
	if (ioctl(fd, RXB_ENSO_IOC_PIPE, &pp)) {
		perror("enso_tool: pipe");
		return 1;
	}
	b.id = 16;
	fails += expect_errno(ioctl(fd, RXB_ENSO_IOC_BIND, &b), EINVAL,
			      "bind pipe id 16 (out of range)");
	b.id = pp.id + 1;
	fails += expect_errno(ioctl(fd, RXB_ENSO_IOC_BIND, &b), EINVAL,
			      "bind a pipe id not created");
	b.id = pp.id;
	b.dport = 0;
	fails += expect_errno(ioctl(fd, RXB_ENSO_IOC_BIND, &b), EINVAL,
			      "bind port 0");
	b.dport = htons(7);
	b.proto = 1;
	fails += expect_errno(ioctl(fd, RXB_ENSO_IOC_BIND, &b), EINVAL,
			      "bind ICMP");
	b.proto = IPPROTO_UDP;
	if (ioctl(fd, RXB_ENSO_IOC_BIND, &b)) {
		perror("enso_tool: bind");
		return 1;
	}
	fails += expect_errno(ioctl(fd, RXB_ENSO_IOC_BIND, &b), EBUSY,
			      "bind a bound pipe again");
	/* Another process's (file's) flow and pipes. */
	pp.size = 4096;
	if (ioctl(fd2, RXB_ENSO_IOC_PIPE, &pp)) {
		perror("enso_tool: pipe");
		return 1;
	}
	b.id = pp.id;
	fails += expect_errno(ioctl(fd2, RXB_ENSO_IOC_BIND, &b), EADDRINUSE,
			      "bind a flow another context holds");
	m = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd2,
		 RXB_ENSO_MMAP_PIPE(pp.id + 1));
	fails += expect_errno(m == MAP_FAILED ? -1 : 0, EINVAL,
			      "map a pipe this context does not have");
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd2,
		 RXB_ENSO_MMAP_PIPE(pp.id));
	fails += expect_errno(m == MAP_FAILED ? -1 : 0, EINVAL,
			      "map a pipe once only (not twice its size)");
	m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd2,
		 RXB_ENSO_MMAP_NOTIF_REGS);
	fails += expect_errno(m == MAP_FAILED ? -1 : 0, EINVAL,
			      "map privately");
	m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd2, 0x300000);
	fails += expect_errno(m == MAP_FAILED ? -1 : 0, EINVAL,
			      "map an offset that is nothing");
	id = 16;
	fails += expect_errno(ioctl(fd2, RXB_ENSO_IOC_FREE, &id), EINVAL,
			      "free pipe id 16");
	id = pp.id + 1;
	fails += expect_errno(ioctl(fd2, RXB_ENSO_IOC_FREE, &id), EINVAL,
			      "free a pipe id not created");
	fails += expect_errno(ioctl(fd2, _IO('x', 0x7f)), ENOTTY,
			      "unknown ioctl");
	id = pp.id;
	fails += check(!ioctl(fd2, RXB_ENSO_IOC_FREE, &id), "free a pipe");
	close(fd2);
	close(fd);
	return fails ? 1 : 0;
}

/* Every context slot of the port at once: 8 files, 16 pipes in all (the
 * NIC's 64 user pipes: 8 each).
 */
static int cmd_fill(int argc, char **argv)
{
	struct enso_dev *dev[8];
	unsigned int i, k;
	int fails = 0;

	if (argc != 3)
		bad_usage();
	for (i = 0; i < 8; i++) {
		dev[i] = open_dev(argv[2]);
		if (!dev[i])
			return 1;
		for (k = 0; k < 8; k++)
			if (!enso_rx_pipe_alloc(dev[i], 4096)) {
				fprintf(stderr, "enso_tool: context %u pipe %u: %s\n",
					i, k, strerror(errno));
				return 1;
			}
	}
	fails += expect_errno(enso_dev_open(argv[2], 0, 64) ? 0 : -1, EBUSY,
			      "a ninth context");
	fails += expect_errno(enso_rx_pipe_alloc(dev[0], 4096) ? 0 : -1, EBUSY,
			      "a 65th pipe");
	for (i = 0; i < 8; i++)
		enso_dev_close(dev[i]);
	printf("%s: 8 contexts of 8 pipes\n", fails ? "FAIL" : "ok");
	return fails ? 1 : 0;
}

/* IF's IPv4 address and MAC, network order.  0 or -1. */
static int if_addr(const char *ifname, uint32_t *ip, uint8_t *mac)
{
	struct ifreq ifr = {};
	int fd = socket(AF_INET, SOCK_DGRAM, 0), err = -1;

	if (fd < 0)
		return -1;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (!ioctl(fd, SIOCGIFADDR, &ifr)) {
		memcpy(ip, &((struct sockaddr_in *)&ifr.ifr_addr)->sin_addr, 4);
		if (!ioctl(fd, SIOCGIFHWADDR, &ifr)) {
			memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
			err = 0;
		}
	}
	close(fd);
	return err;
}

static uint16_t ip_csum(const uint8_t *h, unsigned int len)
{
	uint32_t s = 0;
	unsigned int i;

	for (i = 0; i < len; i += 2)
		s += (uint32_t)(h[i] << 8 | h[i + 1]);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static int cmd_xmit(int argc, char **argv)
{
	unsigned long port, count, len, i;
	uint8_t f[1514], dmac[6], smac[6];
	unsigned int m[6], k;
	struct in_addr dst;
	struct enso_rx_pipe *p;
	struct enso_dev *dev;
	uint32_t src;
	double end;
	char tail;

	if (argc != 8 || sscanf(argv[3], "%x:%x:%x:%x:%x:%x%c", &m[0], &m[1],
				&m[2], &m[3], &m[4], &m[5], &tail) != 6 ||
	    inet_pton(AF_INET, argv[4], &dst) != 1)
		bad_usage();
	for (k = 0; k < 6; k++) {
		if (m[k] > 0xff)
			bad_usage();
		dmac[k] = (uint8_t)m[k];
	}
	port = num(argv[5], 1, 65535);
	count = num(argv[6], 1, 1UL << 30);
	len = num(argv[7], 16, 1472);
	if (if_addr(argv[2], &src, smac)) {
		fprintf(stderr, "enso_tool: %s: no IPv4 address: %s\n", argv[2],
			strerror(errno));
		return 1;
	}
	dev = open_dev(argv[2]);
	p = dev ? enso_tx_pipe_alloc(dev, 65536) : NULL;
	if (!p)
		return 1;
	memset(f, 0, sizeof(f));
	memcpy(f, dmac, 6);
	memcpy(f + 6, smac, 6);
	f[12] = 0x08;
	f[14] = 0x45;
	f[16] = (uint8_t)((20 + 8 + len) >> 8);
	f[17] = (uint8_t)(20 + 8 + len);
	f[22] = 64;
	f[23] = IPPROTO_UDP;
	memcpy(f + 26, &src, 4);
	memcpy(f + 30, &dst, 4);
	f[34] = (uint8_t)(port >> 8);
	f[35] = (uint8_t)port;
	memcpy(f + 36, f + 34, 2);	/* source port = destination port */
	f[38] = (uint8_t)((8 + len) >> 8);
	f[39] = (uint8_t)(8 + len);	/* UDP checksum 0: none */
	printf("ready\n");
	fflush(stdout);
	end = now() + 60;
	for (i = 0; i < count && now() < end; ) {
		struct payload pl = {
			.magic = MAGIC, .port = (uint16_t)port, .seq = i,
		};
		int err;

		f[18] = (uint8_t)(i >> 8);	/* IP id */
		f[19] = (uint8_t)i;
		memset(f + 24, 0, 2);
		k = ip_csum(f + 14, 20);
		f[24] = (uint8_t)(k >> 8);
		f[25] = (uint8_t)k;
		memcpy(f + 42, &pl, sizeof(pl));
		err = enso_send(p, f, (uint32_t)(14 + 20 + 8 + len));
		if (err == -EAGAIN) {
			usleep(50);
			continue;
		}
		if (err)
			break;
		i++;
		/* At most 32 in flight: a scan's burst fits the peer's pipes. */
		while (enso_tx_pending(dev) >= 32 && now() < end)
			enso_tx_poll(dev);
	}
	while (enso_tx_pending(dev) && now() < end)
		enso_tx_poll(dev);
	printf("sent %lu completions %llu refused %llu pending %u",
	       i, (unsigned long long)(dev->tx_sent + dev->tx_errors),
	       (unsigned long long)dev->tx_errors, enso_tx_pending(dev));
	printf(" tx_frames %llu tx_head %u tx_tail %u\n",
	       (unsigned long long)RD(dev->regs->tx.frames),
	       RD(dev->regs->tx.tx_head), RD(dev->regs->tx.tx_tail));
	i = i == count && !dev->tx_errors && !enso_tx_pending(dev) &&
	    RD(dev->regs->tx.frames) == count;
	enso_dev_close(dev);
	return i ? 0 : 1;
}

static int cmd_txbad(int argc, char **argv)
{
	static const struct { uint32_t pipe, off, len, status; } bad[] = {
		{ 9, 0, 64, RXB_ENSO_TX_EPIPE },
		{ 0, 8192, 64, RXB_ENSO_TX_ERANGE },
		{ 0, 0, 0, RXB_ENSO_TX_ELEN },
		{ 0, 0, 13, RXB_ENSO_TX_ELEN },
		{ 0, 0, 8193, RXB_ENSO_TX_ELEN },
		{ 0, 0, 4000, RXB_ENSO_TX_ELEN },	/* over the port's frame */
	};
	const unsigned int nb = ARRAY_SIZE(bad);
	struct enso_rx_pipe *p;
	struct enso_dev *dev;
	unsigned int i, n = 0;
	int fails = 0;
	uint32_t first;
	double end;

	if (argc != 3)
		bad_usage();
	dev = open_dev(argv[2]);
	p = dev ? enso_tx_pipe_alloc(dev, 8192) : NULL;
	if (!p)
		return 1;
	fails += check(p->id == 0, "the TX pipe is pipe 0");
	first = dev->tx_post;
	for (i = 0; i < nb; i++)
		enso_tx_post(dev, bad[i].pipe, bad[i].off, bad[i].len);
	end = now() + 10;
	while (n < nb && now() < end)
		n += enso_tx_poll(dev);
	fails += check(n == nb, "every bad TX notification completed");
	for (i = 0; i < nb; i++) {
		const struct rxb_enso_txnotif *t =
			&dev->txn[(first + i) & (dev->entries - 1)];

		printf("entry %u: pipe %u offset %u len %u: status %u\n", i,
		       bad[i].pipe, bad[i].off, bad[i].len, t->status);
		fails += check(t->status == bad[i].status,
			       "refused with its status");
	}
	fails += check(RD(dev->regs->tx.bad_notifs) == nb,
		       "each counted in the TX registers");
	fails += check(RD(dev->regs->tx.frames) == 0, "nothing sent");
	/* NotificationTail_SW beyond the ring, behind the completions. */
	WR(dev->regs->tx.tx_tail, dev->tx_post + dev->entries + 1);
	nic_scan();
	WR(dev->regs->tx.tx_tail, dev->tx_post - 1);
	nic_scan();
	fails += check(RD(dev->regs->tx.bad_writes) == 2,
		       "TX tails beyond the ring and behind it refused and counted");
	fails += check(RD(dev->regs->tx.tx_head) == dev->tx_post,
		       "the NIC's TX head did not move");
	WR(dev->regs->tx.tx_tail, dev->tx_post);
	nic_scan();
	fails += check(RD(dev->regs->tx.frames) == 0, "still nothing sent");
	enso_dev_close(dev);
	return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		bad_usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "send"))
		return cmd_send(argc, argv);
	if (!strcmp(argv[1], "recv"))
		return cmd_recv(argc, argv);
	if (!strcmp(argv[1], "hold"))
		return cmd_hold(argc, argv);
	if (!strcmp(argv[1], "badwrite"))
		return cmd_badwrite(argc, argv);
	if (!strcmp(argv[1], "errors"))
		return cmd_errors(argc, argv);
	if (!strcmp(argv[1], "fill"))
		return cmd_fill(argc, argv);
	if (!strcmp(argv[1], "xmit"))
		return cmd_xmit(argc, argv);
	if (!strcmp(argv[1], "txbad"))
		return cmd_txbad(argc, argv);
	bad_usage();
	return 2;
}
