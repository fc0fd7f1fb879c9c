// SPDX-License-Identifier: GPL-2.0
/*
 * enso_echo: a UDP echo server on Ensō pipes (enso.rst).  Datagrams to
 * PORT..PORT+NPIPES-1 on IF are read in place from one pipe per port
 * and sent back to their source from a UDP socket (no Tx pipes: Ensō's
 * Tx side is not emulated).
 *
 *   enso_echo -i IF -p PORT [-n NPIPES] [-s PIPE_KB] [-c COUNT] [-t SECONDS]
 *
 * Exits after COUNT datagrams (default: never) or SECONDS (default:
 * never); prints what it echoed.  Exit: 0, 1 on failure, 2 bad usage.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "enso.h"

static void bad_usage(void)
{
	fprintf(stderr,
		"usage: enso_echo -i IF -p PORT [-n NPIPES] [-s PIPE_KB] [-c COUNT] [-t SECONDS]\n"
		"  NPIPES 1..%d (default 1), PIPE_KB a power of two in 4..2048 (default 64)\n",
		ENSO_MAX_PIPES);
	exit(2);
}

#define CLI_PROG "enso_echo"
#include "cli.h"

/* Echo the UDP payload of IPv4 frame @f back to its source. */
static int echo(int fd, const uint8_t *f, uint32_t len)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	uint32_t ihl, ulen;

	if (len < 14 + 20 + 8 || f[12] != 0x08 || f[13] != 0x00 ||
	    f[23] != IPPROTO_UDP)
		return 0;
	ihl = (f[14] & 0xf) * 4;
	if (ihl < 20 || len < 14 + ihl + 8)
		return 0;
	memcpy(&to.sin_addr, f + 14 + 12, 4);
	memcpy(&to.sin_port, f + 14 + ihl, 2);
	ulen = (uint32_t)(f[14 + ihl + 4] << 8 | f[14 + ihl + 5]);
	if (ulen < 8 || 14 + ihl + ulen > len)
		return 0;
	return sendto(fd, f + 14 + ihl + 8, ulen - 8, 0, (void *)&to,
		      sizeof(to)) >= 0;
}

int main(int argc, char **argv)
{
	unsigned long port = 0, np = 1, kb = 64, count = 0, secs = 0, i;
	unsigned long long echoed = 0, frames = 0;
	struct enso_rx_pipe *pipes[ENSO_MAX_PIPES];
	const char *ifname = NULL;
	struct enso_dev *dev;
	double end;
	int c, fd;

	while ((c = getopt(argc, argv, "i:p:n:s:c:t:")) != -1) {
		switch (c) {
		case 'i':
			ifname = optarg;
			break;
		case 'p':
			port = num(optarg, 1, 65535);
			break;
		case 'n':
			np = num(optarg, 1, ENSO_MAX_PIPES);
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
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	dev = fd < 0 ? NULL : enso_dev_open(ifname, 0, 256);
	if (!dev) {
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

		if (!p)
			continue;
		len = enso_recv(p, &buf, 0);
		while ((f = enso_next_frame(buf, len, &off, &flen))) {
			frames++;
			echoed += echo(fd, f, flen);
		}
		enso_clear(p);
	}
	printf("frames %llu echoed %llu\n", frames, echoed);
	enso_dev_close(dev);
	close(fd);
	return 0;
}
