// SPDX-License-Identifier: GPL-2.0
/*
 * rxb_xsk: a small AF_XDP client for af_xdp.sh (libxdp's xsk API).
 *
 *   rxb_xsk recv -i IF -q QUEUE -n COUNT -p PORT (-o PROG.bpf.o | -m MAP)
 *		  [-z] [-t TIMEOUT_S] [-r READY_FILE]
 *	Attach PROG (an XDP program redirecting to its XSKMAP "xsks", native
 *	mode) to IF, or use the XSKMAP pinned at MAP of a program already
 *	attached, bind an AF_XDP socket to QUEUE (copy mode, or zero-copy
 *	with -z), receive until COUNT numbered datagrams to UDP port PORT
 *	arrived or TIMEOUT_S (default 10) passed, check each one's content,
 *	print the counts.  Exit 0 when all COUNT arrived once and intact, 1
 *	otherwise, 2 when the socket cannot be made (the reason on stderr).
 *   rxb_xsk send -d DST -p PORT -s SPORT -n COUNT [-l LEN] [-g GAP_US]
 *	Send COUNT numbered datagrams of LEN bytes (default 64) from UDP
 *	port SPORT to DST:PORT, GAP_US microseconds apart (default 0).
 *   rxb_xsk xmit -i IF -q QUEUE -a SRC -d DST -D DST_MAC -p PORT -s SPORT
 *		  -n COUNT [-l LEN] [-g GAP_US] [-z] [-t TIMEOUT_S]
 *	The same datagrams, from SRC, as Ethernet frames to DST_MAC written
 *	into the Tx ring of an AF_XDP socket bound to QUEUE of IF (copy mode,
 *	or zero-copy with -z), in batches of 16, GAP_US apart; wait until
 *	every frame is completed.  Exit 0 when all COUNT were, 1 otherwise, 2 when the socket
 *	cannot be made.
 *
 * A datagram: "RXSK", its number (be32), COUNT (be32), then byte i of the
 * payload is (number + i) & 0xff.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/xsk.h>
#include "rxb_xsk_rx.h"

#define MAGIC		"RXSK"
#define HDR_LEN		12
#define NUM_FRAMES	2048
#define FRAME_SIZE	XSK_UMEM__DEFAULT_FRAME_SIZE

struct opts {
	const char *ifname, *obj, *map, *ready, *dst, *src, *dmac;
	unsigned int queue, count, port, sport, len, gap_us, timeout;
	int zc;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void fill_payload(unsigned char *b, unsigned int len, __u32 seq,
			 __u32 count)
{
	unsigned int i;

	memcpy(b, MAGIC, 4);
	seq = htonl(seq);
	count = htonl(count);
	memcpy(b + 4, &seq, 4);
	memcpy(b + 8, &count, 4);
	for (i = HDR_LEN; i < len; i++)
		b[i] = (ntohl(seq) + i) & 0xff;
}

static int do_send(const struct opts *o)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	unsigned char buf[9000];
	unsigned int i, sent = 0;
	int fd, one = 1;

	if (o->len < HDR_LEN || o->len > sizeof(buf) || !o->dst) {
		fprintf(stderr, "send: -d DST and -l %d..%zu needed\n", HDR_LEN,
			sizeof(buf));
		return 2;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return perror("socket"), 2;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	sa.sin_port = htons(o->sport);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		return perror("bind"), 2;
	/* Not connected: an ICMP error (a datagram the stack got) does not
	 * fail the next send.
	 */
	sa.sin_port = htons(o->port);
	if (inet_pton(AF_INET, o->dst, &sa.sin_addr) != 1)
		return fprintf(stderr, "%s: not an IPv4 address\n", o->dst), 2;
	for (i = 0; i < o->count; i++) {
		fill_payload(buf, o->len, i, o->count);
		if (sendto(fd, buf, o->len, 0, (struct sockaddr *)&sa,
			   sizeof(sa)) == (ssize_t)o->len)
			sent++;
		if (o->gap_us)
			usleep(o->gap_us);
	}
	printf("%u\n", sent);
	close(fd);
	return 0;
}

struct rx_counts {
	unsigned int unique, dup, bad, other;
	unsigned long long bytes;
	unsigned char *seen;
	__u64 *addr;
};

/* One frame the socket received: ours (UDP to the port) or other. */
static void check_frame(const struct opts *o, struct rx_counts *c,
			const unsigned char *f, unsigned int len, __u64 addr)
{
	const struct ethhdr *eth = (const void *)f;
	const struct iphdr *ip = (const void *)(f + ETH_HLEN);
	const struct udphdr *udp;
	const unsigned char *pl;
	unsigned int ihl, plen, i;
	__u32 seq, cnt;

	if (len < ETH_HLEN + sizeof(*ip) || eth->h_proto != htons(ETH_P_IP) ||
	    ip->protocol != IPPROTO_UDP)
		goto other;
	ihl = ip->ihl * 4;
	if (len < ETH_HLEN + ihl + sizeof(*udp))
		goto other;
	udp = (const void *)(f + ETH_HLEN + ihl);
	if (ntohs(udp->dest) != o->port)
		goto other;
	pl = (const unsigned char *)(udp + 1);
	plen = ntohs(udp->len) - sizeof(*udp);
	if (plen < HDR_LEN || pl + plen > f + len || memcmp(pl, MAGIC, 4))
		goto bad;
	memcpy(&seq, pl + 4, 4);
	memcpy(&cnt, pl + 8, 4);
	seq = ntohl(seq);
	if (seq >= o->count || ntohl(cnt) != o->count)
		goto bad;
	for (i = HDR_LEN; i < plen; i++)
		if (pl[i] != ((seq + i) & 0xff))
			goto bad;
	if (c->seen[seq]) {
		if (c->dup++ < 5)
			fprintf(stderr, "datagram %u again, umem address %#llx (first at %#llx)\n",
				seq, (unsigned long long)addr,
				(unsigned long long)c->addr[seq]);
		return;
	}
	c->seen[seq] = 1;
	c->addr[seq] = addr;
	c->unique++;
	c->bytes += len;
	return;
bad:
	c->bad++;
	return;
other:
	c->other++;
}

static int do_recv(const struct opts *o)
{
	struct rx_counts c = { 0 };
	struct xdp_statistics st = { 0 };
	socklen_t sl = sizeof(st);
	struct rxb_xsk_rx x = { 0 };
	unsigned int i, n, idx, fidx;
	int ret = 2;
	double t0, t1;

	if (!if_nametoindex(o->ifname ? o->ifname : "") ||
	    !(o->obj || o->map) || !o->count)
		return fprintf(stderr, "recv: -i IF, -o PROG or -m MAP, -n COUNT needed\n"), 2;
	c.seen = calloc(o->count, 1);
	c.addr = calloc(o->count, sizeof(*c.addr));
	if (!c.seen || !c.addr)
		goto out;
	/* Half the frames to the fill ring, the rest for refills. */
	if (rxb_xsk_rx_open(&x, o->ifname, o->queue, o->zc, o->obj, o->map,
			    NUM_FRAMES, FRAME_SIZE, NUM_FRAMES / 2, 0))
		goto out;
	if (o->ready) {
		FILE *f = fopen(o->ready, "w");

		if (f)
			fclose(f);
	}
	ret = 1;
	t0 = now();
	t1 = t0;
	while (c.unique < o->count && now() - t0 < o->timeout) {
		struct pollfd pfd = { .fd = xsk_socket__fd(x.xsk), .events = POLLIN };

		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = xsk_ring_cons__peek(&x.rx, 64, &idx);
		if (!n)
			continue;
		if (xsk_ring_prod__reserve(&x.fq, n, &fidx) != n) {
			fprintf(stderr, "fill ring full\n");
			break;
		}
		for (i = 0; i < n; i++) {
			const struct xdp_desc *d = xsk_ring_cons__rx_desc(&x.rx, idx + i);

			check_frame(o, &c, xsk_umem__get_data(x.area, d->addr),
				    d->len, d->addr);
			*xsk_ring_prod__fill_addr(&x.fq, fidx + i) =
				xsk_umem__extract_addr(d->addr);
		}
		xsk_ring_prod__submit(&x.fq, n);
		xsk_ring_cons__release(&x.rx, n);
		t1 = now();
	}
	getsockopt(xsk_socket__fd(x.xsk), SOL_XDP, XDP_STATISTICS, &st, &sl);
	printf("%s queue %u %s: received %u of %u (dup %u bad %u other %u, %llu bytes) in %.3f s;"
	       " socket rx_dropped %llu rx_ring_full %llu fill_ring_empty %llu\n",
	       o->ifname, o->queue, o->zc ? "zero-copy" : "copy", c.unique,
	       o->count, c.dup, c.bad, c.other, c.bytes, t1 - t0,
	       (unsigned long long)st.rx_dropped,
	       (unsigned long long)st.rx_ring_full,
	       (unsigned long long)st.rx_fill_ring_empty_descs);
	if (c.unique == o->count && !c.dup && !c.bad)
		ret = 0;
out:
	rxb_xsk_rx_close(&x);
	free(c.seen);
	free(c.addr);
	return ret;
}

static __u16 ip_csum(const void *p, unsigned int len)
{
	const __u16 *w = p;
	__u32 sum = 0;

	while (len > 1) {
		sum += *w++;
		len -= 2;
	}
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/* Ethernet + IPv4 + UDP + payload of datagram @seq at @f; its length. */
static unsigned int build_frame(const struct opts *o, unsigned char *f,
				const unsigned char *smac,
				const unsigned char *dmac, __u32 saddr,
				__u32 daddr, __u32 seq)
{
	struct ethhdr *eth = (void *)f;
	struct iphdr *ip = (void *)(f + ETH_HLEN);
	struct udphdr *udp = (void *)(ip + 1);

	memcpy(eth->h_dest, dmac, ETH_ALEN);
	memcpy(eth->h_source, smac, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	memset(ip, 0, sizeof(*ip));
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons(sizeof(*ip) + sizeof(*udp) + o->len);
	ip->saddr = saddr;
	ip->daddr = daddr;
	ip->check = ip_csum(ip, sizeof(*ip));
	udp->source = htons(o->sport);
	udp->dest = htons(o->port);
	udp->len = htons(sizeof(*udp) + o->len);
	udp->check = 0;		/* none (IPv4) */
	fill_payload((unsigned char *)(udp + 1), o->len, seq, o->count);
	return ETH_HLEN + sizeof(*ip) + sizeof(*udp) + o->len;
}

static int do_xmit(const struct opts *o)
{
	struct xsk_socket_config cfg = {
		.rx_size = XSK_RING_CONS__DEFAULT_NUM_DESCS,
		.tx_size = XSK_RING_PROD__DEFAULT_NUM_DESCS,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.bind_flags = o->zc ? XDP_ZEROCOPY : XDP_COPY,
	};
	unsigned char smac[ETH_ALEN], dmac[ETH_ALEN];
	/* libxdp leaves the cached indices of a ring it does not set up
	 * (the completion ring here) as the caller had them.
	 */
	struct xsk_ring_prod fq = { 0 }, txr = { 0 };
	struct xsk_ring_cons cq = { 0 };
	struct xsk_umem *umem = NULL;
	struct xsk_socket *xsk = NULL;
	unsigned int i, n, idx, sent = 0, done = 0, nf = 16;
	struct in_addr sa, da;
	struct ifreq ifr = { 0 };
	void *area = NULL;
	int err, fd, ret = 2;
	double t0;

	if (!o->ifname || !o->src || !o->dst || !o->dmac || !o->count ||
	    o->len < HDR_LEN || o->len > FRAME_SIZE - 64 ||
	    inet_pton(AF_INET, o->src, &sa) != 1 ||
	    inet_pton(AF_INET, o->dst, &da) != 1 ||
	    sscanf(o->dmac, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &dmac[0], &dmac[1],
		   &dmac[2], &dmac[3], &dmac[4], &dmac[5]) != 6)
		return fprintf(stderr, "xmit: -i IF -a SRC -d DST -D MAC -n N, -l %d..%d needed\n",
			       HDR_LEN, FRAME_SIZE - 64), 2;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", o->ifname);
	if (fd < 0 || ioctl(fd, SIOCGIFHWADDR, &ifr))
		return perror(o->ifname), 2;
	close(fd);
	memcpy(smac, ifr.ifr_hwaddr.sa_data, ETH_ALEN);
	if (posix_memalign(&area, getpagesize(), NUM_FRAMES * FRAME_SIZE))
		return 2;
	err = xsk_umem__create(&umem, area, NUM_FRAMES * FRAME_SIZE, &fq, &cq,
			       NULL);
	if (err) {
		fprintf(stderr, "umem: %s\n", strerror(-err));
		goto out;
	}
	err = xsk_socket__create(&xsk, o->ifname, o->queue, umem, NULL, &txr,
				 &cfg);
	if (err) {
		fprintf(stderr, "%s queue %u: AF_XDP bind (%s) refused: %s\n",
			o->ifname, o->queue, o->zc ? "zero-copy" : "copy",
			strerror(-err));
		xsk = NULL;
		goto out;
	}
	ret = 1;
	t0 = now();
	while (done < o->count && now() - t0 < o->timeout) {
		/* Frames 0..nf-1 of the umem, reused once completed. */
		n = o->count - sent < nf ? o->count - sent : nf;
		if (sent == done && n &&
		    xsk_ring_prod__reserve(&txr, n, &idx) == n) {
			for (i = 0; i < n; i++) {
				struct xdp_desc *d = xsk_ring_prod__tx_desc(&txr, idx + i);

				d->addr = (__u64)i * FRAME_SIZE;
				d->len = build_frame(o, xsk_umem__get_data(area, d->addr),
						     smac, dmac, sa.s_addr,
						     da.s_addr, sent + i);
				d->options = 0;
			}
			xsk_ring_prod__submit(&txr, n);
			sent += n;
			if (o->gap_us && sent > n)
				usleep(o->gap_us);
		}
		sendto(xsk_socket__fd(xsk), NULL, 0, MSG_DONTWAIT, NULL, 0);
		n = xsk_ring_cons__peek(&cq, nf, &idx);
		if (n) {
			xsk_ring_cons__release(&cq, n);
			done += n;
		} else {
			usleep(1000);
		}
	}
	printf("%s queue %u %s: %u of %u frames sent and completed in %.3f s\n",
	       o->ifname, o->queue, o->zc ? "zero-copy" : "copy", done,
	       o->count, now() - t0);
	if (done == o->count)
		ret = 0;
out:
	if (xsk)
		xsk_socket__delete(xsk);
	if (umem)
		xsk_umem__delete(umem);
	free(area);
	return ret;
}

int main(int argc, char **argv)
{
	struct opts o = { .len = 64, .timeout = 10 };
	int ch;

	if (argc < 2)
		goto usage;
	optind = 2;
	while ((ch = getopt(argc, argv, "i:q:n:p:o:m:zt:r:d:s:l:g:a:D:")) != -1) {
		switch (ch) {
		case 'i':
			o.ifname = optarg;
			break;
		case 'q':
			o.queue = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			o.count = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			o.port = strtoul(optarg, NULL, 0);
			break;
		case 'o':
			o.obj = optarg;
			break;
		case 'm':
			o.map = optarg;
			break;
		case 'z':
			o.zc = 1;
			break;
		case 't':
			o.timeout = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			o.ready = optarg;
			break;
		case 'd':
			o.dst = optarg;
			break;
		case 's':
			o.sport = strtoul(optarg, NULL, 0);
			break;
		case 'l':
			o.len = strtoul(optarg, NULL, 0);
			break;
		case 'g':
			o.gap_us = strtoul(optarg, NULL, 0);
			break;
		case 'a':
			o.src = optarg;
			break;
		case 'D':
			o.dmac = optarg;
			break;
		default:
			goto usage;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "recv"))
		return do_recv(&o);
	if (!strcmp(argv[1], "send"))
		return do_send(&o);
	if (!strcmp(argv[1], "xmit"))
		return do_xmit(&o);
usage:
	fprintf(stderr, "usage: rxb_xsk recv -i IF -q Q -n N -p PORT (-o PROG.bpf.o | -m MAP)\n"
		"                    [-z] [-t S] [-r FILE]\n"
		"       rxb_xsk send -d DST -p PORT -s SPORT -n N [-l LEN] [-g US]\n"
		"       rxb_xsk xmit -i IF -q Q -a SRC -d DST -D MAC -p PORT -s SPORT -n N\n"
		"                    [-l LEN] [-g US] [-z] [-t S]\n");
	return 2;
}
