// SPDX-License-Identifier: GPL-2.0
/*
 * rxb_tstamp: SO_TIMESTAMPING over UDP against an rxbisect port's PHC, for
 * hwtstamp.sh and tools/bench/tstamp_latency.sh.  One process does a whole
 * exchange (a Python process costs seconds under TCG).
 *
 *   rxb_tstamp rx PHC PORT N TIMEOUT_MS
 *	Receive N datagrams on UDP PORT with hardware receive stamps asked
 *	for (SOF_TIMESTAMPING_RX_HARDWARE | RAW_HARDWARE); after each
 *	recvmsg() read the PHC (/dev/ptpN, PHC) and take the datagram's
 *	arrival-to-application latency: PHC - hardware stamp.  Prints one
 *	JSON object: got, hw (datagrams with a hardware stamp), mono (stamps
 *	never decreasing), first/last stamp, phc0 (PHC when it started),
 *	phc1 (PHC at the last datagram), lat_min, p50, p99, p999, lat_max
 *	(nanoseconds), neg (stamps later than the PHC read after them).
 *   rxb_tstamp tx PHC DST PORT N
 *	Send N datagrams to DST:PORT, each asking for a hardware transmit
 *	stamp (SOF_TIMESTAMPING_TX_HARDWARE | RAW_HARDWARE | OPT_TSONLY),
 *	and read them back from the error queue.  Prints: sent, hw (stamps
 *	returned), inwin (stamps between the PHC reads around the send).
 *   rxb_tstamp send DST PORT N GAP_US
 *	Send N datagrams, GAP_US apart.
 *   rxb_tstamp now PHC
 *	Print the PHC's time, nanoseconds.
 *   rxb_tstamp cfg IF FLAGS TX_TYPE RX_FILTER
 *	SIOCSHWTSTAMP with that struct hwtstamp_config (what hwstamp_ctl
 *	cannot send: flags, any value); prints "ok TX RX" with what the
 *	driver applied, or the error's name (EINVAL, ERANGE, ...).
 *
 * The datagrams carry their index; DST is an IPv4 address.  Exit status:
 * 0, or 1 on an error (printed).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/errqueue.h>
#include <linux/net_tstamp.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#ifndef SO_TIMESTAMPING
#define SO_TIMESTAMPING 37
#endif
#define CLOCKFD 3
#define FD_TO_CLOCKID(fd) ((~(clockid_t)(fd) << 3) | CLOCKFD)

static int die(const char *what)
{
	printf("{\"error\": \"%s: %s\"}\n", what, strerror(errno));
	return 1;
}

static clockid_t phc_open(const char *path)
{
	int fd = open(path, O_RDWR);

	if (fd < 0)
		return (clockid_t)-1;
	return FD_TO_CLOCKID(fd);
}

static long long now(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return -1;
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The hardware stamp of a message's SCM_TIMESTAMPING, or 0. */
static long long hw_stamp(struct msghdr *m)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
		struct timespec *ts;

		if (c->cmsg_level != SOL_SOCKET ||
		    c->cmsg_type != SO_TIMESTAMPING)
			continue;
		ts = (struct timespec *)CMSG_DATA(c);
		/* [0] software, [1] deprecated, [2] raw hardware */
		return (long long)ts[2].tv_sec * 1000000000 + ts[2].tv_nsec;
	}
	return 0;
}

static int cmp64(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static long long pct(const long long *v, int n, int per_mille)
{
	int i;

	if (!n)
		return 0;
	i = (int)(((long long)n * per_mille + 999) / 1000) - 1;
	return v[i < 0 ? 0 : i];
}

static int do_rx(clockid_t clk, int port, int n, int timeout_ms)
{
	int flags = SOF_TIMESTAMPING_RX_HARDWARE | SOF_TIMESTAMPING_RAW_HARDWARE;
	struct sockaddr_in a = { .sin_family = AF_INET };
	long long *lat = calloc(n, sizeof(*lat));
	long long phc0, phc1 = 0, first = 0, last = 0, t, p;
	int fd, got = 0, hw = 0, mono = 1, neg = 0, nl = 0;
	char buf[2048], ctl[512];

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	a.sin_port = htons(port);
	if (fd < 0 || !lat || bind(fd, (void *)&a, sizeof(a)))
		return die("socket");
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)))
		return die("SO_TIMESTAMPING");
	phc0 = now(clk);
	printf("ready\n");
	fflush(stdout);
	while (got < n) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr m = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctl, .msg_controllen = sizeof(ctl),
		};

		if (poll(&pf, 1, timeout_ms) <= 0)
			break;
		if (recvmsg(fd, &m, 0) < 0)
			return die("recvmsg");
		p = now(clk);
		got++;
		t = hw_stamp(&m);
		if (!t)
			continue;
		if (hw && t < last)
			mono = 0;
		if (!hw)
			first = t;
		hw++;
		last = t;
		phc1 = p;
		if (p < t)
			neg++;
		lat[nl++] = p - t;
	}
	qsort(lat, nl, sizeof(*lat), cmp64);
	printf("{\"got\": %d, \"hw\": %d, \"mono\": %d, ", got, hw, mono);
	printf("\"first\": %lld, \"last\": %lld, ", first, last);
	printf("\"phc0\": %lld, \"phc1\": %lld, \"neg\": %d, ", phc0, phc1,
	       neg);
	printf("\"lat_min\": %lld, \"p50\": %lld, ", nl ? lat[0] : 0,
	       pct(lat, nl, 500));
	printf("\"p99\": %lld, \"p999\": %lld, \"lat_max\": %lld}\n",
	       pct(lat, nl, 990), pct(lat, nl, 999), nl ? lat[nl - 1] : 0);
	return 0;
}

static int udp_to(const char *dst, int port, struct sockaddr_in *a)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	a->sin_port = htons(port);
	if (fd < 0 || inet_pton(AF_INET, dst, &a->sin_addr) != 1)
		return -1;
	return fd;
}

static int do_tx(clockid_t clk, const char *dst, int port, int n)
{
	int flags = SOF_TIMESTAMPING_TX_HARDWARE |
		    SOF_TIMESTAMPING_RAW_HARDWARE | SOF_TIMESTAMPING_OPT_TSONLY;
	int i, fd, hw = 0, inwin = 0, sent = 0;
	struct sockaddr_in a;
	char buf[64], ctl[512];
	long long t0, t1, t;

	fd = udp_to(dst, port, &a);
	if (fd < 0)
		return die("socket");
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)))
		return die("SO_TIMESTAMPING");
	for (i = 0; i < n; i++) {
		struct pollfd pf = { .fd = fd, .events = 0 };
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr m = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = ctl, .msg_controllen = sizeof(ctl),
		};

		snprintf(buf, sizeof(buf), "rxb_tstamp %d", i);
		t0 = now(clk);
		if (sendto(fd, buf, 32, 0, (void *)&a, sizeof(a)) == 32)
			sent++;
		/* The error queue: POLLERR once the stamp is there. */
		if (poll(&pf, 1, 1000) <= 0 || !(pf.revents & POLLERR))
			continue;
		if (recvmsg(fd, &m, MSG_ERRQUEUE) < 0)
			continue;
		t1 = now(clk);
		t = hw_stamp(&m);
		if (!t)
			continue;
		hw++;
		if (t >= t0 && t <= t1)
			inwin++;
		usleep(2000);
	}
	printf("{\"sent\": %d, \"hw\": %d, \"inwin\": %d}\n", sent, hw, inwin);
	return 0;
}

static int do_send(const char *dst, int port, int n, int gap_us)
{
	struct sockaddr_in a;
	char buf[64];
	int i, fd;

	fd = udp_to(dst, port, &a);
	if (fd < 0)
		return die("socket");
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "rxb_tstamp %d", i);
		if (sendto(fd, buf, 32, 0, (void *)&a, sizeof(a)) != 32)
			return die("sendto");
		if (gap_us)
			usleep(gap_us);
	}
	return 0;
}

static int do_cfg(const char *ifname, int flags, int tx, int rx)
{
	struct hwtstamp_config c = { .flags = flags, .tx_type = tx,
				     .rx_filter = rx };
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&c;
	if (fd < 0)
		return die("socket");
	if (ioctl(fd, SIOCSHWTSTAMP, &ifr)) {
		printf("%s\n", errno == EINVAL ? "EINVAL" :
		       errno == ERANGE ? "ERANGE" : strerror(errno));
		return 0;
	}
	printf("ok %d %d\n", c.tx_type, c.rx_filter);
	return 0;
}

int main(int argc, char **argv)
{
	clockid_t clk;

	if (argc == 6 && !strcmp(argv[1], "send"))
		return do_send(argv[2], atoi(argv[3]), atoi(argv[4]),
			       atoi(argv[5]));
	if (argc == 6 && !strcmp(argv[1], "cfg"))
		return do_cfg(argv[2], atoi(argv[3]), atoi(argv[4]),
			      atoi(argv[5]));
	if (argc < 3)
		goto usage;
	clk = phc_open(argv[2]);
	if (clk == (clockid_t)-1)
		return die(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "now")) {
		printf("%lld\n", (long long)now(clk));
		return 0;
	}
	if (argc == 6 && !strcmp(argv[1], "rx"))
		return do_rx(clk, atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
	if (argc == 6 && !strcmp(argv[1], "tx"))
		return do_tx(clk, argv[3], atoi(argv[4]), atoi(argv[5]));
usage:
	fprintf(stderr, "usage: rxb_tstamp rx PHC PORT N TIMEOUT_MS | tx PHC DST PORT N |\n"
		"       send DST PORT N GAP_US | cfg IF FLAGS TX RX | now PHC\n");
	return 2;
}
