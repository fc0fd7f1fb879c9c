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
#include "serve.h"

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
static int echo(void *tx, const uint8_t *f, uint32_t len)
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
	struct serve srv = { .np = 1, .kb = 64, .frame = echo };
	struct enso_rx_pipe *tx;
	const char *ifname = NULL;
	struct enso_dev *dev;
	int c;

	while ((c = getopt(argc, argv, SERVE_OPTS)) != -1)
		if (!serve_opt(&srv, &ifname, c, optarg))
			bad_usage();
	if (optind != argc || !ifname || !srv.port || srv.port + srv.np > 65536)
		bad_usage();
	dev = enso_dev_open(ifname, 0, 256);
	tx = dev ? enso_tx_pipe_alloc(dev, srv.kb * 1024) : NULL;
	if (!tx) {
		fprintf(stderr, "enso_echo: %s: %s\n", ifname, strerror(errno));
		return 1;
	}
	srv.dev = dev;
	srv.ctx = tx;
	if (serve(&srv))
		return 1;
	printf("frames %llu echoed %llu sent %llu refused %llu\n", srv.frames,
	       srv.handled, (unsigned long long)dev->tx_sent,
	       (unsigned long long)dev->tx_errors);
	enso_dev_close(dev);
	return 0;
}
