// SPDX-License-Identifier: GPL-2.0
/* xdp.sh: every packet back out of the port it came in on (XDP_TX), its
 * Ethernet addresses swapped so that the sender's stack takes it.
 */
#include "xdp_swap.h"
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_tx(struct xdp_md *ctx)
{
	return xdp_swap_tx(ctx);
}

char _license[] SEC("license") = "GPL";
