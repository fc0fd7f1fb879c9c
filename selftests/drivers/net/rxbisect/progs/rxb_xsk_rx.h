/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An AF_XDP receive socket on one queue (libxdp's xsk API), shared by
 * rxb_xsk (af_xdp.sh) and tools/enso/enso_bench: the XDP program (an
 * object whose XSKMAP is "xsks", attached in native mode) or an XSKMAP
 * pinned by someone else, a umem, the socket bound in copy or zero-copy
 * mode, the socket in the map, part of the umem posted to the fill ring.
 * Link with -lxdp -lbpf.
 */
#ifndef RXB_XSK_RX_H
#define RXB_XSK_RX_H

#include <errno.h>
#include <linux/if_link.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/xsk.h>

/**
 * struct rxb_xsk_rx - an AF_XDP receive socket and its umem.
 * @fq: the fill ring.
 * @cq: the completion ring (unused on receive).
 * @rx: the receive ring.
 * @umem: the umem, @frames frames of @frame_size bytes at @area.
 * @xsk: the socket.
 * @obj: the XDP program's object, when this attached it.
 * @area: the umem's memory.
 * @ifindex: the port's.
 * @attached: the program was attached here (detached at close).
 * @frames: frames in the umem.
 * @frame_size: bytes per frame (2048 or 4096).
 */
struct rxb_xsk_rx {
	struct xsk_ring_prod fq;
	struct xsk_ring_cons cq, rx;
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	struct bpf_object *obj;
	void *area;
	int ifindex, attached;
	unsigned int frames, frame_size;
};

/* Why a bind may have been refused, when it can be told. */
static const char *rxb_xsk_hint(const char *ifname, unsigned int queue,
				int zc, int err)
{
	static char hint[96];
	char path[128];

	hint[0] = 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s/queues/rx-%u",
		 ifname, queue);
	if (err == -EINVAL && access(path, F_OK))
		snprintf(hint, sizeof(hint), " (%s has no receive queue %u)",
			 ifname, queue);
	else if (err == -EOPNOTSUPP && zc)
		snprintf(hint, sizeof(hint), " (no zero-copy AF_XDP on %s)",
			 ifname);
	return hint;
}

/* Close what rxb_xsk_rx_open() made (any part of it). */
static void rxb_xsk_rx_close(struct rxb_xsk_rx *x)
{
	if (x->xsk)
		xsk_socket__delete(x->xsk);
	if (x->umem)
		xsk_umem__delete(x->umem);
	if (x->attached)
		bpf_xdp_detach(x->ifindex, XDP_FLAGS_DRV_MODE, NULL);
	bpf_object__close(x->obj);
	free(x->area);
	memset(x, 0, sizeof(*x));
}

/* Open @x on queue @queue of @ifname: the program of object @obj attached
 * or the XSKMAP pinned at @map, @frames frames of @frame_size bytes,
 * @fill of them posted (frame i at i * @frame_size), zero-copy when @zc,
 * @flags more bind flags (XDP_USE_NEED_WAKEUP).  0, or 2 with the reason on
 * stderr (everything closed).
 */
static int rxb_xsk_rx_open(struct rxb_xsk_rx *x, const char *ifname,
			   unsigned int queue, int zc, const char *obj,
			   const char *map, unsigned int frames,
			   unsigned int frame_size, unsigned int fill,
			   unsigned int flags)
{
	struct xsk_socket_config cfg = {
		.rx_size = XSK_RING_CONS__DEFAULT_NUM_DESCS,
		.tx_size = XSK_RING_PROD__DEFAULT_NUM_DESCS,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
	};
	struct xsk_umem_config ucfg = {
		.fill_size = XSK_RING_PROD__DEFAULT_NUM_DESCS,
		.comp_size = XSK_RING_CONS__DEFAULT_NUM_DESCS,
		.frame_size = frame_size,
	};
	struct bpf_program *prog;
	unsigned int i, n, fidx = 0;
	int err, map_fd;

	memset(x, 0, sizeof(*x));
	x->frames = frames;
	x->frame_size = frame_size;
	x->ifindex = if_nametoindex(ifname);
	if (!x->ifindex) {
		fprintf(stderr, "%s: no such interface\n", ifname);
		return 2;
	}
	if (map) {
		map_fd = bpf_obj_get(map);
		if (map_fd < 0) {
			fprintf(stderr, "%s: %s\n", map, strerror(errno));
			return 2;
		}
	} else {
		x->obj = bpf_object__open_file(obj, NULL);
		err = libbpf_get_error(x->obj);
		if (err || bpf_object__load(x->obj)) {
			fprintf(stderr, "%s: cannot load: %s\n", obj,
				strerror(errno));
			if (err)
				x->obj = NULL;
			goto fail;
		}
		prog = bpf_object__next_program(x->obj, NULL);
		map_fd = bpf_object__find_map_fd_by_name(x->obj, "xsks");
		if (!prog || map_fd < 0) {
			fprintf(stderr, "%s: no program or no map xsks\n", obj);
			goto fail;
		}
		err = bpf_xdp_attach(x->ifindex, bpf_program__fd(prog),
				     XDP_FLAGS_DRV_MODE, NULL);
		if (err) {
			fprintf(stderr, "%s: native XDP attach: %s\n", ifname,
				strerror(-err));
			goto fail;
		}
		x->attached = 1;
	}
	if (posix_memalign(&x->area, getpagesize(),
			   (size_t)frames * frame_size)) {
		x->area = NULL;
		goto fail;
	}
	err = xsk_umem__create(&x->umem, x->area, (__u64)frames * frame_size,
			       &x->fq, &x->cq, &ucfg);
	if (err) {
		fprintf(stderr, "umem: %s\n", strerror(-err));
		x->umem = NULL;
		goto fail;
	}
	cfg.bind_flags = (zc ? XDP_ZEROCOPY : XDP_COPY) | flags;
	err = xsk_socket__create(&x->xsk, ifname, queue, x->umem, &x->rx, NULL,
				 &cfg);
	if (err) {
		fprintf(stderr, "%s queue %u: AF_XDP bind (%s) refused: %s%s\n",
			ifname, queue, zc ? "zero-copy" : "copy",
			strerror(-err), rxb_xsk_hint(ifname, queue, zc, err));
		x->xsk = NULL;
		goto fail;
	}
	err = xsk_socket__update_xskmap(x->xsk, map_fd);
	if (err) {
		fprintf(stderr, "xskmap: %s\n", strerror(-err));
		goto fail;
	}
	n = xsk_ring_prod__reserve(&x->fq, fill, &fidx);
	for (i = 0; i < n; i++)
		*xsk_ring_prod__fill_addr(&x->fq, fidx + i) =
			(__u64)i * frame_size;
	xsk_ring_prod__submit(&x->fq, n);
	return 0;
fail:
	rxb_xsk_rx_close(x);
	return 2;
}

#endif
