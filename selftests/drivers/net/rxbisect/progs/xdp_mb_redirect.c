// SPDX-License-Identifier: GPL-2.0
/* jumbo.sh: a multi-buffer program (SEC "xdp.frags") that counts what it
 * sees (xdp_mb.h) and redirects every frame to the device with ifindex
 * RXB_XDP_TARGET (the test creates its target with that index).
 */
#include "xdp_mb.h"

#define RXB_XDP_TARGET	1000

SEC("xdp.frags")
int xdp_mb_redirect(struct xdp_md *ctx)
{
	mb_count(ctx);
	return bpf_redirect(RXB_XDP_TARGET, 0);
}

char _license[] SEC("license") = "GPL";
