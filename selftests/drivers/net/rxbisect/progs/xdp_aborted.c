// SPDX-License-Identifier: GPL-2.0
/* xdp.sh: every packet XDP_ABORTED. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_aborted(struct xdp_md *ctx)
{
	return XDP_ABORTED;
}

char _license[] SEC("license") = "GPL";
