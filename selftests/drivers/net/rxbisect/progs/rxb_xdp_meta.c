// SPDX-License-Identifier: GPL-2.0
/*
 * rxb_xdp_meta: load xdp_meta.bpf.o bound to a device (the XDP metadata
 * kfuncs need a device-bound program: BPF_F_XDP_DEV_BOUND_ONLY, which
 * bpftool before v7.3 cannot ask for), attach it in native mode, wait for
 * N datagrams (or TIMEOUT_MS), print what it recorded and detach.
 *
 *   rxb_xdp_meta OBJ IFNAME N TIMEOUT_MS [READY_FILE]
 *
 * Output: one line per datagram, "q=Q sport=S ts_err=E ts=T hash_err=E
 * hash=0xH type=Y", then "count=C".  READY_FILE is created once the
 * program is attached.  Exit status: 0, 1 on an error, 4 when the kernel
 * cannot load a device-bound program (no XDP metadata kfuncs: skip).
 */
#include <errno.h>
#include <linux/if_link.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xdp_meta.h"

#ifndef BPF_F_XDP_DEV_BOUND_ONLY
#define BPF_F_XDP_DEV_BOUND_ONLY	0x40U	/* bit 6, uapi/linux/bpf.h */
#endif

int main(int argc, char **argv)
{
	struct bpf_program *prog;
	struct bpf_object *obj;
	int ifindex, n, timeout, fd_meta, fd_count, err, i;
	__u32 zero = 0, count = 0;
	struct timespec t0, t;
	struct meta m;

	if (argc < 5) {
		fprintf(stderr, "usage: rxb_xdp_meta OBJ IFNAME N TIMEOUT_MS [READY]\n");
		return 2;
	}
	ifindex = if_nametoindex(argv[2]);
	n = atoi(argv[3]);
	timeout = atoi(argv[4]);
	if (!ifindex) {
		perror(argv[2]);
		return 1;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		perror(argv[1]);
		return 1;
	}
	prog = bpf_object__find_program_by_name(obj, "xdp_meta");
	if (!prog)
		return 1;
	bpf_program__set_ifindex(prog, ifindex);
	bpf_program__set_flags(prog, BPF_F_XDP_DEV_BOUND_ONLY);
	err = bpf_object__load(obj);
	if (err) {
		printf("# cannot load a device-bound XDP program: %s\n",
		       strerror(-err));
		return 4;
	}
	err = bpf_xdp_attach(ifindex, bpf_program__fd(prog),
			     XDP_FLAGS_DRV_MODE, NULL);
	if (err) {
		printf("# cannot attach: %s\n", strerror(-err));
		return 1;
	}
	fd_meta = bpf_object__find_map_fd_by_name(obj, "meta");
	fd_count = bpf_object__find_map_fd_by_name(obj, "count");
	if (argc > 5)
		fclose(fopen(argv[5], "w"));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		bpf_map_lookup_elem(fd_count, &zero, &count);
		if ((int)count >= n)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 +
		    (t.tv_nsec - t0.tv_nsec) / 1000000 > timeout)
			break;
		usleep(20000);
	}
	bpf_xdp_detach(ifindex, XDP_FLAGS_DRV_MODE, NULL);
	for (i = 0; i < (int)count && i < 256; i++) {
		if (bpf_map_lookup_elem(fd_meta, &i, &m))
			continue;
		printf("q=%u sport=%u ts_err=%d ts=%llu hash_err=%d hash=0x%08x type=%u\n",
		       m.queue, m.sport, m.ts_err, (unsigned long long)m.ts,
		       m.hash_err, m.hash, m.type);
	}
	printf("count=%u\n", count);
	bpf_object__close(obj);
	return 0;
}
