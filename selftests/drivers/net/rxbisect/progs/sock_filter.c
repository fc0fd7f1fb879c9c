// SPDX-License-Identifier: GPL-2.0
/* xdp.sh: a socket filter, which an XDP attach must refuse. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
int sock_filter(struct __sk_buff *skb)
{
	return 0;
}

char _license[] SEC("license") = "GPL";
