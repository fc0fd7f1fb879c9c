/* SPDX-License-Identifier: GPL-2.0 */
/* jumbo.sh: the multi-buffer programs' common part.  Each counts, in the
 * array mb_stats, the frames it saw ([0]), those that came in several
 * buffers ([1]: bpf_xdp_get_buff_len() longer than the linear part),
 * their bytes ([2]) and the longest ([3]).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64);
} mb_stats SEC(".maps");

static __always_inline void mb_add(__u32 k, __u64 v)
{
	__u64 *p = bpf_map_lookup_elem(&mb_stats, &k);

	if (p)
		__sync_fetch_and_add(p, v);
}

static __always_inline void mb_count(struct xdp_md *ctx)
{
	__u64 linear = ctx->data_end - ctx->data;
	__u64 len = bpf_xdp_get_buff_len(ctx);
	__u32 k = 3;
	__u64 *max;

	mb_add(0, 1);
	if (len > linear)
		mb_add(1, 1);
	mb_add(2, len);
	max = bpf_map_lookup_elem(&mb_stats, &k);
	if (max && *max < len)
		*max = len;
}
