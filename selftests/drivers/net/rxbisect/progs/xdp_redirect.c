// SPDX-License-Identifier: GPL-2.0
/* xdp.sh: every packet to the device with ifindex RXB_XDP_TARGET (the test
 * creates its targets with that index).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define RXB_XDP_TARGET	1000

SEC("xdp")
int xdp_redirect(struct xdp_md *ctx)
{
	return bpf_redirect(RXB_XDP_TARGET, 0);
}

char _license[] SEC("license") = "GPL";
