// SPDX-License-Identifier: GPL-2.0
/*
 * enso_echo: a UDP echo server on Ensō pipes (enso.rst).  Datagrams to
 * PORT..PORT+NPIPES-1 on IF are read in place from one pipe per port
 * and sent back to their source through a TX pipe: each frame copied
 * with its Ethernet and IPv4 addresses and UDP ports swapped (the
 * checksums stay valid), enso_send().
 *
 *   enso_echo -i IF -p PORT [-n NPIPES] [-s PIPE_KB] [-c COUNT] [-t SECONDS]
 *
 * Exits after COUNT datagrams (default: never) or SECONDS (default:
 * never); prints what it echoed.  Exit: 0, 1 on failure, 2 bad usage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "enso.h"

static void bad_usage(void)
{
	fprintf(stderr,
		"usage: enso_echo -i IF -p PORT [-n NPIPES] [-s PIPE_KB] [-c COUNT] [-t SECONDS]\n"
		"  NPIPES 1..%d (default 1), PIPE_KB a power of two in 4..2048 (default 64)\n",
		ENSO_MAX_PIPES - 1);
	exit(2);
}

#define CLI_PROG "enso_echo"
#include "cli.h"

static void swap(uint8_t *a, uint8_t *b, unsigned int n)
{
	uint8_t t[6];

	memcpy(t, a, n);
	memcpy(a, b, n);
	memcpy(b, t, n);
}

/* Echo UDP/IPv4 frame @f back to its source through TX pipe @tx: 1 when
 * sent, 0 when not an echo's frame.  Waits for completions while the
 * pipe is full.
 */
static int echo(struct enso_rx_pipe *tx, const uint8_t *f, uint32_t len)
{
	uint8_t r[2048];
	uint32_t ihl, ulen;
	int err;

	if (len < 14 + 20 + 8 || len > sizeof(r) || f[12] != 0x08 ||
	    f[13] != 0x00 || f[23] != IPPROTO_UDP)
		return 0;
	ihl = (f[14] & 0xf) * 4;
	if (ihl < 20 || len < 14 + ihl + 8)
		return 0;
	ulen = (uint32_t)(f[14 + ihl + 4] << 8 | f[14 + ihl + 5]);
	if (ulen < 8 || 14 + ihl + ulen > len)
		return 0;
	memcpy(r, f, len);
	swap(r, r + 6, 6);			/* MACs */
	swap(r + 14 + 12, r + 14 + 16, 4);	/* IPv4 addresses */
	swap(r + 14 + ihl, r + 14 + ihl + 2, 2);	/* UDP ports */
	while ((err = enso_send(tx, r, len)) == -EAGAIN)
		sched_yield();
	return !err;
}

int main(int argc, char **argv)
{
	unsigned long port = 0, np = 1, kb = 64, count = 0, secs = 0, i;
	unsigned long long echoed = 0, frames = 0;
	struct enso_rx_pipe *pipes[ENSO_MAX_PIPES], *tx;
	const char *ifname = NULL;
	struct enso_dev *dev;
	double end;
	int c;

	while ((c = getopt(argc, argv, "i:p:n:s:c:t:")) != -1) {
		switch (c) {
		case 'i':
			ifname = optarg;
			break;
		case 'p':
			port = num(optarg, 1, 65535);
			break;
		case 'n':
			np = num(optarg, 1, ENSO_MAX_PIPES - 1);	/* + TX */
			break;
		case 's':
			kb = num(optarg, 4, 2048);
			if (kb & (kb - 1))
				bad_usage();
			break;
		case 'c':
			count = num(optarg, 1, 1UL << 40);
			break;
		case 't':
			secs = num(optarg, 1, 86400);
			break;
		default:
			bad_usage();
		}
	}
	if (optind != argc || !ifname || !port || port + np > 65536)
		bad_usage();
	dev = enso_dev_open(ifname, 0, 256);
	tx = dev ? enso_tx_pipe_alloc(dev, kb * 1024) : NULL;
	if (!tx) {
		fprintf(stderr, "enso_echo: %s: %s\n", ifname, strerror(errno));
		return 1;
	}
	for (i = 0; i < np; i++) {
		struct enso_flow fl = {
			.family = 4, .proto = IPPROTO_UDP,
			.dport = htons(port + i),
		};
		int err;

		pipes[i] = enso_rx_pipe_alloc(dev, kb * 1024);
		if (!pipes[i]) {
			fprintf(stderr, "enso_echo: pipe: %s\n", strerror(errno));
			return 1;
		}
		err = enso_rx_pipe_bind(pipes[i], &fl);
		if (err) {
			fprintf(stderr, "enso_echo: port %lu: %s\n", port + i,
				strerror(-err));
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);
	end = secs ? now() + secs : 0;
	while ((!count || frames < count) && (!end || now() < end)) {
		struct enso_rx_pipe *p = enso_next_rx_pipe(dev);
		uint32_t len, off = 0, flen;
		const uint8_t *f;
		uint8_t *buf;

		enso_tx_poll(dev);
		if (!p)
			continue;
		len = enso_recv(p, &buf, 0);
		while ((f = enso_next_frame(buf, len, &off, &flen))) {
			frames++;
			echoed += echo(tx, f, flen);
		}
		enso_clear(p);
	}
	/* The last completions: nothing sent is left behind. */
	end = now() + 1;
	while (enso_tx_pending(dev) && now() < end)
		enso_tx_poll(dev);
	printf("frames %llu echoed %llu sent %llu refused %llu\n", frames,
	       echoed, (unsigned long long)dev->tx_sent,
	       (unsigned long long)dev->tx_errors);
	enso_dev_close(dev);
	return 0;
}
