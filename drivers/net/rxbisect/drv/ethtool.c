// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect ethtool: -i, -g/-G, -l/-L, -S, -x/-X, -c/-C, -n/-N.
 *
 * Ring and channel changes rebuild the receive configuration of a running
 * port under traffic (rxb_reconfigure()): new rings first, then the old
 * ones quiesced and freed.
 */
#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/log2.h>
#include <linux/net_tstamp.h>
#include <linux/rtnetlink.h>
#include "rxbisect.h"

/* ethtool -S, one naming scheme:
 *  <name>		device-wide: sums over every queue that ever ran, plus
 *			the NIC's own counters;
 *  rx<q>_<name>	receive queue q: the ring model's struct rxb_qstats,
 *			the driver's struct rxb_qxstats, then the model's own
 *			per-queue counters (xstats);
 *  tx<q>_<name>	transmit queue q;
 *  ring<r>_<name>	shared ring r of a shRing model, or COREC's shared
 *			queue r (xstats);
 *  <model>_<name>	device-wide counters of a model (dshRing: dsh_*);
 *  rx_pp_<name>	page_pool's own statistics, where the kernel keeps
 *			them (CONFIG_PAGE_POOL_STATS), summed over the live
 *			pools.
 * What survives a rebuild (ethtool -L/-G, a model switch, link down/up):
 * the device-wide sums and rx<q>_/tx<q>_ counters of struct rxb_qstats and
 * struct rxb_qxstats accumulate (but rx<q>_pp_size, the live pool's size).
 * Reset with the rings: io_ws_*, flow_*, nicmem_* (the flow table, the
 * memory tier and the header/data split belong to the receive context), the model's xstats and
 * rx_pp_*.  The NIC's own registers accumulate since it was created:
 * dma_bytes, rx_ntuple_drops and the interconnect bytes pcie_* (device-wide
 * and per queue: to_host_data = packet data the NIC wrote, to_host_meta =
 * completions/descriptors/notifications it wrote, to_nic_desc =
 * descriptors it read, to_nic_mmio = doorbells and registers the driver
 * wrote, to_host_mmio and mmio_reads = NIC registers and memory the driver
 * read on its data path, which only a design that asks for it does,
 * to_nic_data = packet bytes the NIC read from host memory to transmit:
 * Ensō's TX pipes).
 * nic_ctx_violations: entry points of the NIC reached from outside its
 * context, checked when the debug_ctx parameter is on (module-wide).
 * Device-wide rx_packets and rx_bytes are those of ip -s link:
 * packets handed to the stack; rx<q>_packets count the completions the
 * model consumed, rx<q>_stack_packets those handed to the stack.
 */

/* Device-wide counters: sums over queues, plus the NIC's own drops. */
enum {
	RXB_DS_RX_PACKETS, RXB_DS_RX_BYTES, RXB_DS_NOBUF, RXB_DS_RING_FULL,
	RXB_DS_OVERSIZE, RXB_DS_RUNT, RXB_DS_STOPPED, RXB_DS_POLLS,
	RXB_DS_REFILLS, RXB_DS_IRQS, RXB_DS_OFF_CPU, RXB_DS_TX_PACKETS,
	RXB_DS_TX_BYTES, RXB_DS_TX_DROPS, RXB_DS_WS, RXB_DS_WS_PEAK,
	RXB_DS_WS_WINDOW, RXB_DS_WS_BYTES, RXB_DS_WS_BYTES_PEAK,
	RXB_DS_DMA_BYTES, RXB_DS_FIFO, RXB_DS_ENGINE,
	RXB_DS_FLUSHED, RXB_DS_DMA_ERRORS, RXB_DS_DMA_FAULTS, RXB_DS_STALL,
	RXB_DS_SKB_DROPS, RXB_DS_BACKOFFS, RXB_DS_PP_FRESH, RXB_DS_PP_RELEASED,
	RXB_DS_NTUPLE_DROPS, RXB_DS_PCIE_DATA, RXB_DS_PCIE_META,
	RXB_DS_PCIE_DESC, RXB_DS_PCIE_MMIO, RXB_DS_FLOW_SIZE, RXB_DS_FLOW_ACTIVE,
	RXB_DS_FLOW_LEARNED, RXB_DS_FLOW_EXPIRED, RXB_DS_FLOW_UNTRACKED,
	RXB_DS_NM_CAP, RXB_DS_NM_HELD, RXB_DS_NM_PEAK, RXB_DS_NM_FETCHED,
	RXB_DS_NM_FETCHES, RXB_DS_NM_ALLOCS, RXB_DS_NM_FAILS, RXB_DS_NM_NS,
	RXB_DS_HDS_HOST, RXB_DS_HDS_NIC, RXB_DS_HDS_FRAMES, RXB_DS_HDS_FETCH,
	RXB_DS_HDS_TX, RXB_DS_HDS_TX_NIC, RXB_DS_HDS_TX_HOST,
	RXB_DS_HDS_FALLBACK, RXB_DS_HDS_WHOLE, RXB_DS_HDS_HELD,
	RXB_DS_HDS_CMD_ERR, RXB_DS_HDS_RECLAIMED, RXB_DS_PCIE_HMMIO,
	RXB_DS_PCIE_MMIO_RD, RXB_DS_CTX_BAD, RXB_DS_TLS_ACTIVE,
	RXB_DS_TLS_ADDED, RXB_DS_TLS_REFUSED, RXB_DS_TLS_DELETED,
	RXB_DS_TLS_CONFIRMED, RXB_DS_TLS_ASTART, RXB_DS_TLS_AEND,
	RXB_DS_TLS_ASKIP, RXB_DS_TS_WRITES, RXB_DS_TS, RXB_DS_TS_SKIPPED,
	RXB_DS_TS_TIMEOUTS, RXB_DS_PCIE_DATA_RD,
	RXB_DEV_STATS
};

static const char rxb_dev_stat_names[RXB_DEV_STATS][ETH_GSTRING_LEN] = {
	[RXB_DS_RX_PACKETS]	= "rx_packets",
	[RXB_DS_RX_BYTES]	= "rx_bytes",
	[RXB_DS_NOBUF]		= "rx_nobuf_drops",
	[RXB_DS_RING_FULL]	= "rx_ring_full_drops",
	[RXB_DS_OVERSIZE]	= "rx_oversize_drops",
	[RXB_DS_RUNT]		= "rx_runt_drops",
	[RXB_DS_STOPPED]	= "rx_stopped_drops",
	[RXB_DS_POLLS]		= "rx_polls",
	[RXB_DS_REFILLS]	= "rx_refills",
	[RXB_DS_IRQS]		= "rx_irqs",
	[RXB_DS_OFF_CPU]	= "rx_polls_off_cpu",
	[RXB_DS_TX_PACKETS]	= "tx_packets",
	[RXB_DS_TX_BYTES]	= "tx_bytes",
	[RXB_DS_TX_DROPS]	= "tx_drops",
	[RXB_DS_WS]		= "io_ws_buffers",
	[RXB_DS_WS_PEAK]	= "io_ws_buffers_peak",
	[RXB_DS_WS_WINDOW]	= "io_ws_window",
	[RXB_DS_WS_BYTES]	= "io_ws_bytes",
	[RXB_DS_WS_BYTES_PEAK]	= "io_ws_bytes_peak",
	[RXB_DS_DMA_BYTES]	= "dma_bytes",
	[RXB_DS_FIFO]		= "rx_fifo_drops",
	[RXB_DS_ENGINE]		= "engine_frames",
	[RXB_DS_FLUSHED]	= "rx_flushed",
	[RXB_DS_DMA_ERRORS]	= "rx_dma_errors",
	[RXB_DS_DMA_FAULTS]	= "rx_dma_faults",
	[RXB_DS_STALL]		= "rx_stall_frames",
	[RXB_DS_SKB_DROPS]	= "rx_skb_drops",
	[RXB_DS_BACKOFFS]	= "rx_refill_backoffs",
	[RXB_DS_PP_FRESH]	= "rx_pp_fresh",
	[RXB_DS_PP_RELEASED]	= "rx_pp_released",
	[RXB_DS_NTUPLE_DROPS]	= "rx_ntuple_drops",
	[RXB_DS_PCIE_DATA]	= "pcie_to_host_data_bytes",
	[RXB_DS_PCIE_META]	= "pcie_to_host_meta_bytes",
	[RXB_DS_PCIE_DESC]	= "pcie_to_nic_desc_bytes",
	[RXB_DS_PCIE_MMIO]	= "pcie_to_nic_mmio_bytes",
	[RXB_DS_FLOW_SIZE]	= "flow_table_size",
	[RXB_DS_FLOW_ACTIVE]	= "flow_active",
	[RXB_DS_FLOW_LEARNED]	= "flow_learned",
	[RXB_DS_FLOW_EXPIRED]	= "flow_expired",
	[RXB_DS_FLOW_UNTRACKED]	= "flow_untracked_frames",
	[RXB_DS_NM_CAP]		= "nicmem_capacity",
	[RXB_DS_NM_HELD]	= "nicmem_held_bytes",
	[RXB_DS_NM_PEAK]	= "nicmem_held_peak",
	[RXB_DS_NM_FETCHED]	= "nicmem_fetched_bytes",
	[RXB_DS_NM_FETCHES]	= "nicmem_fetches",
	[RXB_DS_NM_ALLOCS]	= "nicmem_allocs",
	[RXB_DS_NM_FAILS]	= "nicmem_alloc_fails",
	[RXB_DS_NM_NS]		= "nicmem_fetch_ns",
	[RXB_DS_HDS_HOST]	= "nicmem_host_bytes",
	[RXB_DS_HDS_NIC]	= "nicmem_nic_bytes",
	[RXB_DS_HDS_FRAMES]	= "nicmem_split_frames",
	[RXB_DS_HDS_FETCH]	= "nicmem_split_fetch_bytes",
	[RXB_DS_HDS_TX]		= "nicmem_tx_frames",
	[RXB_DS_HDS_TX_NIC]	= "nicmem_tx_nic_bytes",
	[RXB_DS_HDS_TX_HOST]	= "nicmem_tx_host_bytes",
	[RXB_DS_HDS_FALLBACK]	= "nicmem_split_fallback",
	[RXB_DS_HDS_WHOLE]	= "nicmem_split_whole",
	[RXB_DS_HDS_HELD]	= "nicmem_split_held",
	[RXB_DS_HDS_CMD_ERR]	= "nicmem_cmd_errors",
	[RXB_DS_HDS_RECLAIMED]	= "nicmem_split_reclaimed",
	[RXB_DS_PCIE_HMMIO]	= "pcie_to_host_mmio_bytes",
	[RXB_DS_PCIE_MMIO_RD]	= "pcie_mmio_reads",
	[RXB_DS_CTX_BAD]	= "nic_ctx_violations",
	[RXB_DS_TLS_ACTIVE]	= "tls_ctx_active",
	[RXB_DS_TLS_ADDED]	= "tls_ctx_added",
	[RXB_DS_TLS_REFUSED]	= "tls_ctx_refused",
	[RXB_DS_TLS_DELETED]	= "tls_ctx_deleted",
	[RXB_DS_TLS_CONFIRMED]	= "tls_resync_confirmed",
	[RXB_DS_TLS_ASTART]	= "tls_resync_async_start",
	[RXB_DS_TLS_AEND]	= "tls_resync_async_end",
	[RXB_DS_TLS_ASKIP]	= "tls_resync_async_skip",
	[RXB_DS_TS_WRITES]	= "tx_hwtstamp_writes",
	[RXB_DS_TS]		= "tx_hwtstamps",
	[RXB_DS_TS_SKIPPED]	= "tx_hwtstamp_skipped",
	[RXB_DS_TS_TIMEOUTS]	= "tx_hwtstamp_timeouts",
	[RXB_DS_PCIE_DATA_RD]	= "pcie_to_nic_data_bytes",
};

/* Per receive queue, after struct rxb_qstats: struct rxb_qxstats. */
static const char rxb_qx_names[][ETH_GSTRING_LEN] = {
	"stack_packets", "stack_bytes", "skb_drops", "dma_errors", "irqs",
	"polls_off_cpu", "refill_backoffs", "pp_fresh", "pp_released",
	"pp_size",
	/* enum rxb_xdp_stat */
	"xdp_pass", "xdp_drop", "xdp_tx", "xdp_tx_errors", "xdp_redirect",
	"xdp_redirect_errors", "xdp_aborted", "xdp_copies",
	"xdp_redirect_nicmem", "xdp_redirect_nicmem_bytes",
};

/* Per receive queue, after those: the NIC's registers of the queue. */
static const char rxb_qnic_names[][ETH_GSTRING_LEN] = {
	"ntuple_steered", "pcie_to_host_data_bytes", "pcie_to_host_meta_bytes",
	"pcie_to_nic_desc_bytes", "pcie_to_nic_mmio_bytes",
	"pcie_to_host_mmio_bytes", "pcie_mmio_reads", "pcie_to_nic_data_bytes",
	/* the kTLS offload's (struct rxb_nic_tls_qcounters) */
	"tls_decrypted", "tls_records", "tls_encrypted", "tls_resync_req",
	"tls_auth_fail", "tls_resync_progress",
};

#define RXB_QX_STATS	ARRAY_SIZE(rxb_qx_names)
#define RXB_QNIC_STATS	ARRAY_SIZE(rxb_qnic_names)
static_assert(sizeof(struct rxb_qxstats) / sizeof(u64) == RXB_QX_STATS);
#define RXB_RXQ_STATS	(RXB_QSTATS_NUM + RXB_QX_STATS + RXB_QNIC_STATS)
/* Per transmit queue: packets, bytes, drops, xdp_xmit, xdp_xmit_errors,
 * the ring's stops and wakes, the NIC's engine thread's frames and the
 * frames in flight on the ring now, and the kTLS offload's.
 */
static const char rxb_txq_names[][ETH_GSTRING_LEN] = {
	"packets", "bytes", "drops", "xdp_xmit", "xdp_xmit_errors",
	"stops", "wakes", "engine", "inflight",
	"tls_records", "tls_packets", "tls_dumps", "tls_drops",
};

#define RXB_TXQ_STATS	ARRAY_SIZE(rxb_txq_names)

/* Per pipeline of a dedicated engine (the engines parameter): frames it
 * processed, frames its full ingress FIFO dropped, its CPU.
 */
static const char rxb_pipe_names[][ETH_GSTRING_LEN] = {
	"frames", "fifo_drops", "cpu",
};

#define RXB_PIPE_STATS	ARRAY_SIZE(rxb_pipe_names)

static void rxb_get_drvinfo(struct net_device *dev,
			    struct ethtool_drvinfo *info)
{
	struct rxb_port *port = netdev_priv(dev);

	strscpy(info->driver, RXB_DRV_NAME, sizeof(info->driver));
	strscpy(info->version, RXB_DRV_VERSION, sizeof(info->version));
	snprintf(info->fw_version, sizeof(info->fw_version), "emulated %s",
		 port->cfg.model->name);
	strscpy(info->bus_info, "emulated", sizeof(info->bus_info));
}

static void rxb_get_ringparam(struct net_device *dev,
			      struct ethtool_ringparam *ring,
			      struct kernel_ethtool_ringparam *kring,
			      struct netlink_ext_ack *extack)
{
	struct rxb_port *port = netdev_priv(dev);
	struct rxb_buf_layout bl;

	rxb_rx_buf_layout(&port->cfg, &bl);
	/* What the NIC may write into one buffer: a scatter buffer's all. */
	kring->rx_buf_len = bl.len;
	ring->rx_max_pending = RXB_RING_MAX;
	ring->tx_max_pending = RXB_RING_MAX;
	ring->rx_pending = port->cfg.rx_ring_size;
	ring->tx_pending = port->cfg.tx_ring_size;
	/* The NIC's header/data split (nic_hds.c): nicmem_split. */
	kring->tcp_data_split = port->cfg.mp.nicmem_split ?
				ETHTOOL_TCP_DATA_SPLIT_ENABLED :
				ETHTOOL_TCP_DATA_SPLIT_DISABLED;
}

static bool rxb_ring_size_ok(u32 n)
{
	return is_power_of_2(n) && n >= RXB_RING_MIN && n <= RXB_RING_MAX;
}

static int rxb_set_ringparam(struct net_device *dev,
			     struct ethtool_ringparam *ring,
			     struct kernel_ethtool_ringparam *kring,
			     struct netlink_ext_ack *extack)
{
	struct rxb_port *port = netdev_priv(dev);
	struct rxb_cfg cfg = port->cfg;
	u32 split = cfg.mp.nicmem_split;

	/* tcp-data-split: settable where the kernel passes it (compat.h). */
	if (kring->tcp_data_split == ETHTOOL_TCP_DATA_SPLIT_ENABLED)
		split = 1;
	else if (kring->tcp_data_split == ETHTOOL_TCP_DATA_SPLIT_DISABLED)
		split = 0;
	if (split && !cfg.mp.nicmem_kb) {
		NL_SET_ERR_MSG_MOD(extack,
				   "tcp-data-split needs an on-NIC memory tier (nicmem_kb > 0)");
		return -EINVAL;
	}
	if (ring->rx_mini_pending || ring->rx_jumbo_pending) {
		NL_SET_ERR_MSG_MOD(extack, "rx-mini and rx-jumbo rings are not supported");
		return -EINVAL;
	}
	if (!rxb_ring_size_ok(ring->rx_pending)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "rx ring size must be a power of two in 64..8192");
		return -EINVAL;
	}
	if (!rxb_ring_size_ok(ring->tx_pending)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "tx ring size must be a power of two in 64..8192");
		return -EINVAL;
	}
	cfg.tx_ring_size = ring->tx_pending;
	if (ring->rx_pending == cfg.rx_ring_size &&
	    split == cfg.mp.nicmem_split) {
		port->cfg = cfg;
		return 0;
	}
	cfg.rx_ring_size = ring->rx_pending;
	cfg.mp.nicmem_split = split;
	return rxb_reconfigure(port, &cfg, extack);
}

static void rxb_get_channels(struct net_device *dev,
			     struct ethtool_channels *ch)
{
	struct rxb_port *port = netdev_priv(dev);

	ch->max_combined = min(dev->num_rx_queues, dev->num_tx_queues);
	ch->combined_count = port->cfg.nqueues;
}

/* The largest queue an additional RSS context uses, -1 for none. */
static int rxb_rss_ctx_max_queue(struct rxb_port *port)
{
	u32 tbl[RXB_RSS_INDIR_SIZE], id, i;
	int max = -1;

	for (id = 1; id < RXB_RSS_CTX_MAX; id++) {
		if (rxb_nic_rss_ctx_read(port->nic, id, tbl, NULL))
			continue;
		for (i = 0; i < RXB_RSS_INDIR_SIZE; i++)
			max = max_t(int, max, tbl[i]);
	}
	return max;
}

static int rxb_set_channels(struct net_device *dev,
			    struct ethtool_channels *ch)
{
	struct rxb_port *port = netdev_priv(dev);
	struct rxb_cfg cfg = port->cfg;
	int err;

	/* The core has checked combined_count <= max and no rx/tx-only.
	 * No extack for this op in 6.1: the reason goes to the log.
	 */
	if (!ch->combined_count) {
		netdev_err(dev, "ethtool -L: at least one combined channel\n");
		return -EINVAL;
	}
	if (ch->combined_count == cfg.nqueues)
		return 0;
	/* What 6.11's core checks (6.1's does not): an RSS context's queues. */
	if ((int)ch->combined_count <= rxb_rss_ctx_max_queue(port)) {
		netdev_err(dev, "ethtool -L: an RSS context uses queue %d\n",
			   rxb_rss_ctx_max_queue(port));
		return -EINVAL;
	}
	cfg.nqueues = ch->combined_count;
	err = rxb_reconfigure(port, &cfg, NULL);
	if (err)
		return err;
	/* A user-set table was checked by the core to fit the new count. */
	if (!netif_is_rxfh_configured(dev))
		rxb_nic_rss_default(port->nic, cfg.nqueues);
	rxb_debugfs_queues_update(port);
	return 0;
}

/* ethtool -N: the NIC's ntuple rules (nic_ntuple.c).  set_rxnfc has no
 * extack: a refusal is explained in the log.
 */
#define rxb_nfc_err(dev, fmt, ...) \
	netdev_err(dev, "ethtool -N: " fmt "\n", ##__VA_ARGS__)

/* One field of an ethtool_tcpip{4,6}_spec and where the NIC's rule keeps
 * its value and its mask: offsets and length in bytes.
 */
struct rxb_nfc_field {
	u8 spec;
	u8 val;
	u8 mask;
	u8 len;
};

#define RXB_NFC_FIELD(type, sf, rf) {					\
	offsetof(type, sf), offsetof(struct rxb_nic_ntuple, rf),	\
	offsetof(struct rxb_nic_ntuple, rf##_mask), sizeof_field(type, sf) }
#define RXB_NFC_NFIELDS	4

/**
 * struct rxb_nfc_family - what a rule of one address family matches.
 * @family: rxb_nic_ntuple.family, 4 or 6.
 * @tcp: its TCP flow type.
 * @udp: its UDP flow type.
 * @nomatch: offset of the (u8) field the NIC cannot match.
 * @nomatch_name: that field's name, as ethtool spells it.
 * @f: the fields it matches: source and destination address and port.
 */
struct rxb_nfc_family {
	u8 family;
	u32 tcp;
	u32 udp;
	u8 nomatch;
	const char *nomatch_name;
	struct rxb_nfc_field f[RXB_NFC_NFIELDS];
};

/* Both specs name their ports psrc and pdst; @sa, @da: their addresses,
 * @nm: their (one byte) TOS or traffic class.
 */
#define RXB_NFC_FAMILY(fam, type, sa, da, nm) {				\
	fam, TCP_V##fam##_FLOW, UDP_V##fam##_FLOW,			\
	offsetof(type, nm) + BUILD_BUG_ON_ZERO(sizeof_field(type, nm) != 1), \
	#nm, {								\
		RXB_NFC_FIELD(type, sa, src),				\
		RXB_NFC_FIELD(type, da, dst),				\
		RXB_NFC_FIELD(type, psrc, sport),			\
		RXB_NFC_FIELD(type, pdst, dport) } }

static const struct rxb_nfc_family rxb_nfc_families[] = {
	RXB_NFC_FAMILY(4, struct ethtool_tcpip4_spec, ip4src, ip4dst, tos),
	RXB_NFC_FAMILY(6, struct ethtool_tcpip6_spec, ip6src, ip6dst, tclass),
};

/* The NIC's rule -> ethtool's flow spec (and RSS context) in @info. */
static void rxb_nfc_to_fs(const struct rxb_nic_ntuple *r,
			  struct ethtool_rxnfc *info)
{
	const struct rxb_nfc_family *fam = &rxb_nfc_families[r->family == 6];
	struct ethtool_rx_flow_spec *fs = &info->fs;
	u8 *v = (u8 *)&fs->h_u, *m = (u8 *)&fs->m_u;
	const u8 *rule = (const u8 *)r;
	int i;

	memset(fs, 0, sizeof(*fs));
	fs->location = r->loc;
	fs->ring_cookie = r->action == RXB_NTUPLE_DROP ? RX_CLS_FLOW_DISC :
							  r->action;
	fs->flow_type = r->proto == IPPROTO_UDP ? fam->udp : fam->tcp;
	for (i = 0; i < RXB_NFC_NFIELDS; i++) {
		const struct rxb_nfc_field *f = &fam->f[i];

		memcpy(v + f->spec, rule + f->val, f->len);
		memcpy(m + f->spec, rule + f->mask, f->len);
	}
	if (r->rss_ctx) {
		fs->flow_type |= FLOW_RSS;
		info->rss_context = r->rss_ctx;
	}
}

/* ethtool's flow spec -> the NIC's rule; 0 or -EINVAL (logged). */
static int rxb_nfc_from_fs(struct net_device *dev,
			   const struct ethtool_rx_flow_spec *fs,
			   struct rxb_nic_ntuple *r)
{
	u32 type = fs->flow_type & ~(FLOW_EXT | FLOW_MAC_EXT | FLOW_RSS);
	const u8 *v = (const u8 *)&fs->h_u, *m = (const u8 *)&fs->m_u;
	const struct rxb_nfc_family *fam;
	u8 *rule = (u8 *)r;
	int i;

	memset(r, 0, sizeof(*r));
	if ((fs->flow_type & ~FLOW_RSS) != type) {
		rxb_nfc_err(dev, "flow extensions (vlan, dst-mac, user-def) are not supported");
		return -EINVAL;
	}
	for (fam = rxb_nfc_families;
	     fam < rxb_nfc_families + ARRAY_SIZE(rxb_nfc_families); fam++)
		if (type == fam->tcp || type == fam->udp)
			break;
	if (fam == rxb_nfc_families + ARRAY_SIZE(rxb_nfc_families)) {
		rxb_nfc_err(dev, "flow-type %#x is not supported: tcp4, udp4, tcp6 or udp6",
			    type);
		return -EINVAL;
	}
	if (m[fam->nomatch]) {
		rxb_nfc_err(dev, "%s is not supported", fam->nomatch_name);
		return -EINVAL;
	}
	r->family = fam->family;
	r->proto = type == fam->udp ? IPPROTO_UDP : IPPROTO_TCP;
	for (i = 0; i < RXB_NFC_NFIELDS; i++) {
		const struct rxb_nfc_field *f = &fam->f[i];

		memcpy(rule + f->val, v + f->spec, f->len);
		memcpy(rule + f->mask, m + f->spec, f->len);
	}
	return 0;
}

static int rxb_nfc_insert(struct net_device *dev, struct ethtool_rxnfc *info)
{
	struct rxb_port *port = netdev_priv(dev);
	struct ethtool_rx_flow_spec *fs = &info->fs;
	struct rxb_nic_ntuple r;
	u32 loc = fs->location;
	int err;

	if (!(dev->features & NETIF_F_NTUPLE)) {
		rxb_nfc_err(dev, "ntuple filters are off (ethtool -K %s ntuple on)",
			    dev->name);
		return -EOPNOTSUPP;
	}
	err = rxb_nfc_from_fs(dev, fs, &r);
	if (err)
		return err;
	if (fs->flow_type & FLOW_RSS) {
		/* RSS of the context picks the queue: no queue to add. */
		if (!info->rss_context || info->rss_context >= RXB_RSS_CTX_MAX ||
		    rxb_nic_rss_ctx_read(port->nic, info->rss_context, NULL,
					 NULL)) {
			rxb_nfc_err(dev, "RSS context %u does not exist",
				    info->rss_context);
			return -EINVAL;
		}
		if (fs->ring_cookie) {
			rxb_nfc_err(dev, "context %u: no action with a context (the context's table picks the queue)",
				    info->rss_context);
			return -EINVAL;
		}
		r.rss_ctx = info->rss_context;
	} else if (fs->ring_cookie == RX_CLS_FLOW_WAKE ||
	    (fs->ring_cookie != RX_CLS_FLOW_DISC &&
	     ethtool_get_flow_spec_ring_vf(fs->ring_cookie))) {
		rxb_nfc_err(dev, "action: a queue or -1 (drop) only");
		return -EINVAL;
	}
	if (!r.rss_ctx && fs->ring_cookie != RX_CLS_FLOW_DISC &&
	    fs->ring_cookie >= port->cfg.nqueues) {
		rxb_nfc_err(dev, "queue %llu does not exist (%u queues)",
			    fs->ring_cookie, port->cfg.nqueues);
		return -EINVAL;
	}
	r.action = fs->ring_cookie == RX_CLS_FLOW_DISC ? RXB_NTUPLE_DROP :
							 fs->ring_cookie;
	if (r.rss_ctx)
		r.action = 0;
	if (loc == RX_CLS_LOC_ANY || loc == RX_CLS_LOC_FIRST ||
	    loc == RX_CLS_LOC_LAST) {
		u32 locs[RXB_NTUPLE_MAX];
		unsigned int n, i;
		bool used[RXB_NTUPLE_MAX] = {};

		n = rxb_nic_ntuple_locs(port->nic, locs, RXB_NTUPLE_MAX);
		for (i = 0; i < n; i++)
			used[locs[i]] = true;
		if (loc == RX_CLS_LOC_LAST) {
			for (loc = RXB_NTUPLE_MAX; loc-- > 0 && used[loc];)
				;
		} else {
			for (loc = 0; loc < RXB_NTUPLE_MAX && used[loc]; loc++)
				;
		}
		if (loc >= RXB_NTUPLE_MAX) {
			rxb_nfc_err(dev, "the rule table is full (%u rules)",
				    RXB_NTUPLE_MAX);
			return -ENOSPC;
		}
	} else if (loc >= RXB_NTUPLE_MAX) {
		rxb_nfc_err(dev, "location %u out of range (0..%u)", loc,
			    RXB_NTUPLE_MAX - 1);
		return -EINVAL;
	}
	r.loc = loc;
	err = rxb_nic_ntuple_write(port->nic, &r);
	if (!err)
		fs->location = loc;
	return err;
}

static int rxb_nfc_delete(struct net_device *dev, struct ethtool_rxnfc *info)
{
	struct rxb_port *port = netdev_priv(dev);
	u32 loc = info->fs.location;

	if (loc >= RXB_NTUPLE_MAX) {
		rxb_nfc_err(dev, "location %u out of range (0..%u)", loc,
			    RXB_NTUPLE_MAX - 1);
		return -EINVAL;
	}
	if (rxb_nic_ntuple_delete(port->nic, loc)) {
		rxb_nfc_err(dev, "no rule at location %u", loc);
		return -ENOENT;
	}
	return 0;
}

/* A refusal of an RSS setting: in @extack, or in the log for the callers
 * that have none (every one before 6.8, set_rxfh_fields() before 6.16).
 */
#define rxb_rss_err(dev, extack, msg)					\
	do {								\
		NL_SET_ERR_MSG_MOD(extack, msg);			\
		if (!(extack))						\
			netdev_err(dev, "ethtool: %s\n", msg);		\
	} while (0)

#define RXB_RXH_FIELDS	(RXH_IP_SRC | RXH_IP_DST | RXH_L4_B_0_1 | RXH_L4_B_2_3)

/* ethtool's flow type -> the NIC's register of its hash fields, or -1. */
static int rxb_rss_ft(u32 flow_type)
{
	switch (flow_type) {
	case TCP_V4_FLOW:
		return RXB_RSS_FT_TCP4;
	case UDP_V4_FLOW:
		return RXB_RSS_FT_UDP4;
	case TCP_V6_FLOW:
		return RXB_RSS_FT_TCP6;
	case UDP_V6_FLOW:
		return RXB_RSS_FT_UDP6;
	default:
		return -1;
	}
}

/* The IP flow types whose frames the NIC hashes on both addresses, fixed:
 * it parses no ports of theirs.
 */
static bool rxb_rss_l3_only(u32 flow_type)
{
	switch (flow_type) {
	case IPV4_FLOW:
	case SCTP_V4_FLOW:
	case AH_ESP_V4_FLOW:
	case AH_V4_FLOW:
	case ESP_V4_FLOW:
	case IPV6_FLOW:
	case SCTP_V6_FLOW:
	case AH_ESP_V6_FLOW:
	case AH_V6_FLOW:
	case ESP_V6_FLOW:
		return true;
	default:
		return false;
	}
}

/* ethtool -n IF rx-flow-hash T: the NIC's hash fields of flow type T. */
static int rxb_get_rxfh_fields(struct net_device *dev,
			       struct ethtool_rxfh_fields *f)
{
	struct rxb_port *port = netdev_priv(dev);
	int ft = rxb_rss_ft(f->flow_type);
	u8 nf;

	if (ft < 0) {
		if (!rxb_rss_l3_only(f->flow_type))
			return -EOPNOTSUPP;
		f->data = RXH_IP_SRC | RXH_IP_DST;
		return 0;
	}
	nf = rxb_nic_rss_fields_read(port->nic, ft);
	f->data = (nf & RXB_RSS_F_SRC ? RXH_IP_SRC : 0) |
		  (nf & RXB_RSS_F_DST ? RXH_IP_DST : 0) |
		  (nf & RXB_RSS_F_SPORT ? RXH_L4_B_0_1 : 0) |
		  (nf & RXB_RSS_F_DPORT ? RXH_L4_B_2_3 : 0);
	return 0;
}

/* ethtool -N IF rx-flow-hash T F: any of s, d, f, n for tcp4, udp4, tcp6
 * and udp6, the port's (every RSS context's) setting.
 */
static int rxb_set_rxfh_fields(struct net_device *dev,
			       const struct ethtool_rxfh_fields *f,
			       struct netlink_ext_ack *extack)
{
	struct rxb_port *port = netdev_priv(dev);
	int ft = rxb_rss_ft(f->flow_type);

	if (f->rss_context) {
		rxb_rss_err(dev, extack,
			    "rx-flow-hash: the hash fields are the port's, for every RSS context");
		return -EINVAL;
	}
	if (f->data & ~RXB_RXH_FIELDS) {
		rxb_rss_err(dev, extack,
			    "rx-flow-hash: the NIC hashes s, d, f and n only");
		return -EINVAL;
	}
	if (ft < 0) {
		if (rxb_rss_l3_only(f->flow_type) &&
		    f->data == (RXH_IP_SRC | RXH_IP_DST))
			return 0;
		rxb_rss_err(dev, extack,
			    "rx-flow-hash: settable for tcp4, udp4, tcp6 and udp6 (other IP traffic hashes sd)");
		return -EOPNOTSUPP;
	}
	rxb_nic_rss_fields_write(port->nic, ft,
				 (f->data & RXH_IP_SRC ? RXB_RSS_F_SRC : 0) |
				 (f->data & RXH_IP_DST ? RXB_RSS_F_DST : 0) |
				 (f->data & RXH_L4_B_0_1 ? RXB_RSS_F_SPORT : 0) |
				 (f->data & RXH_L4_B_2_3 ? RXB_RSS_F_DPORT : 0));
	return 0;
}

/* ETHTOOL_GRXFH and ETHTOOL_SRXFH, on kernels that ask through
 * get_rxnfc() and set_rxnfc() (compat.h).
 */
static int rxb_rxnfc_rxfh(struct net_device *dev, struct ethtool_rxnfc *info)
{
	return rxb_rxnfc_rxfh_fields(dev, info, rxb_get_rxfh_fields,
				     rxb_set_rxfh_fields);
}

/* The core checks indirection entries against this count. */
static u32 rxb_get_rx_ring_count(struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);

	return port->cfg.nqueues;
}

static int rxb_get_rxnfc(struct net_device *dev, struct ethtool_rxnfc *info,
			 u32 *rule_locs)
{
	struct rxb_port *port = netdev_priv(dev);
	struct rxb_nic_ntuple r;
	unsigned int n;

	switch (info->cmd) {
	case ETHTOOL_GRXRINGS:	/* kernels without get_rx_ring_count */
		info->data = rxb_get_rx_ring_count(dev);
		return 0;
	case ETHTOOL_GRXCLSRLCNT:
		info->rule_cnt = rxb_nic_ntuple_locs(port->nic, NULL, 0);
		info->data = RXB_NTUPLE_MAX | RX_CLS_LOC_SPECIAL;
		return 0;
	case ETHTOOL_GRXCLSRULE:
		if (info->fs.location >= RXB_NTUPLE_MAX ||
		    rxb_nic_ntuple_read(port->nic, info->fs.location, &r))
			return -ENOENT;
		rxb_nfc_to_fs(&r, info);
		return 0;
	case ETHTOOL_GRXCLSRLALL:
		n = rxb_nic_ntuple_locs(port->nic, rule_locs, info->rule_cnt);
		if (n > info->rule_cnt)
			return -EMSGSIZE;
		info->rule_cnt = n;
		info->data = RXB_NTUPLE_MAX;
		return 0;
	case ETHTOOL_GRXFH:
		return rxb_rxnfc_rxfh(dev, info);
	default:
		return -EOPNOTSUPP;
	}
}

static int rxb_set_rxnfc(struct net_device *dev, struct ethtool_rxnfc *info)
{
	switch (info->cmd) {
	case ETHTOOL_SRXCLSRLINS:
		return rxb_nfc_insert(dev, info);
	case ETHTOOL_SRXCLSRLDEL:
		return rxb_nfc_delete(dev, info);
	case ETHTOOL_SRXFH:
		return rxb_rxnfc_rxfh(dev, info);
	default:
		return -EOPNOTSUPP;
	}
}

static u32 rxb_get_rxfh_indir_size(struct net_device *dev)
{
	return RXB_RSS_INDIR_SIZE;
}

static u32 rxb_get_rxfh_key_size(struct net_device *dev)
{
	return RXB_RSS_KEY_SIZE;
}

/* ethtool -x [context N]: the registers of RSS context N (0: default). */
static int rxb_get_rxfh(struct net_device *dev,
			struct ethtool_rxfh_param *rxfh)
{
	struct rxb_port *port = netdev_priv(dev);

	rxfh->hfunc = ETH_RSS_HASH_TOP;
	return rxb_nic_rss_ctx_read(port->nic, rxfh->rss_context, rxfh->indir,
				    rxfh->key);
}

static int rxb_rxfh_hfunc_ok(struct net_device *dev,
			     const struct ethtool_rxfh_param *rxfh,
			     struct netlink_ext_ack *extack)
{
	if (rxfh->hfunc == ETH_RSS_HASH_NO_CHANGE ||
	    rxfh->hfunc == ETH_RSS_HASH_TOP)
		return 0;
	rxb_rss_err(dev, extack, "hash function refused: only toeplitz");
	return -EOPNOTSUPP;
}

static int rxb_set_rxfh(struct net_device *dev,
			struct ethtool_rxfh_param *rxfh,
			struct netlink_ext_ack *extack)
{
	struct rxb_port *port = netdev_priv(dev);
	int err = rxb_rxfh_hfunc_ok(dev, rxfh, extack);

	if (err)
		return err;
	/* The core has checked every entry against the queue count.  A
	 * hash racing with the key update uses a mix: harmless.
	 */
	rxb_nic_rss_write(port->nic, rxfh->indir, rxfh->key);
	return 0;
}

/* Additional RSS contexts (ethtool -X IF context new|N): RSS contexts
 * 1..RXB_RSS_CTX_MAX - 1 of the NIC, each with its own table and key, which
 * ntuple rules name (ethtool -N ... context N).  compat.h adapts the
 * kernel's interface; @ctx is the core's copy of the context where it
 * keeps one (6.11+), NULL elsewhere.
 */

/* Program context rxfh->rss_context from @rxfh; a new one without a table
 * spreads over every queue, without a key takes context 0's.
 */
static int __maybe_unused
rxb_rss_ctx_set(struct net_device *dev, struct ethtool_rxfh_context *ctx,
		const struct ethtool_rxfh_param *rxfh, bool create,
		struct netlink_ext_ack *extack)
{
	struct rxb_port *port = netdev_priv(dev);
	u32 id = rxfh->rss_context, *indir = rxfh->indir, i;
	u32 tbl[RXB_RSS_INDIR_SIZE];
	u8 key[RXB_RSS_KEY_SIZE];
	int err;

	err = rxb_rxfh_hfunc_ok(dev, rxfh, extack);
	if (err)
		return err;
	if (!id || id >= RXB_RSS_CTX_MAX) {
		rxb_rss_err(dev, extack, "RSS context id out of range");
		return -EINVAL;
	}
	err = rxb_nic_rss_ctx_read(port->nic, id, NULL, NULL);
	if (create && !err) {
		rxb_rss_err(dev, extack, "RSS context in use");
		return -EBUSY;
	}
	if (!create && err) {
		rxb_rss_err(dev, extack, "no such RSS context");
		return -ENOENT;
	}
	if (create && !indir) {
		for (i = 0; i < RXB_RSS_INDIR_SIZE; i++)
			tbl[i] = ethtool_rxfh_indir_default(i,
							    port->cfg.nqueues);
		indir = tbl;
	}
	/* The core has checked every entry against the queue count. */
	rxb_nic_rss_ctx_write(port->nic, id, indir, rxfh->key);
	if (ctx) {
		rxb_nic_rss_ctx_read(port->nic, id, tbl, key);
		rxb_rxfh_ctx_store(ctx, tbl, key, ETH_RSS_HASH_TOP);
	}
	return 0;
}

/* A context an ntuple rule names stays: the rule would steer into whatever
 * context takes its id next.
 */
static int __maybe_unused
rxb_remove_rxfh_context(struct net_device *dev,
			struct ethtool_rxfh_context *ctx, u32 id,
			struct netlink_ext_ack *extack)
{
	struct rxb_port *port = netdev_priv(dev);
	u32 locs[RXB_NTUPLE_MAX];
	struct rxb_nic_ntuple r;
	unsigned int n, i;

	n = rxb_nic_ntuple_locs(port->nic, locs, RXB_NTUPLE_MAX);
	for (i = 0; i < n; i++) {
		if (!rxb_nic_ntuple_read(port->nic, locs[i], &r) &&
		    r.rss_ctx == id) {
			rxb_rss_err(dev, extack,
				    "an ntuple rule steers into the RSS context (ethtool -N ... delete it first)");
			return -EBUSY;
		}
	}
	if (rxb_nic_rss_ctx_clear(port->nic, id)) {
		rxb_rss_err(dev, extack, "no such RSS context");
		return -ENOENT;
	}
	return 0;
}

/* The lowest context id not in use (kernels before 6.11 leave it to the
 * driver).
 */
static int __maybe_unused rxb_rss_ctx_alloc(struct net_device *dev)
{
	struct rxb_port *port = netdev_priv(dev);
	u32 id;

	for (id = 1; id < RXB_RSS_CTX_MAX; id++)
		if (rxb_nic_rss_ctx_read(port->nic, id, NULL, NULL))
			return id;
	netdev_err(dev, "ethtool -X: every RSS context (%u) is in use\n",
		   RXB_RSS_CTX_MAX - 1);
	return -ENOSPC;
}

RXB_ETHTOOL_RXFH_DEFINE(rxb_get_rxfh, rxb_set_rxfh)
RXB_ETHTOOL_RXFH_CONTEXTS_DEFINE(rxb_get_rxfh, rxb_rss_ctx_set,
				 rxb_remove_rxfh_context, rxb_rss_ctx_alloc)

/* The live ring model's own counters: RTNL keeps the model in place. */
static unsigned int rxb_xstats_count(struct rxb_port *port)
{
	struct rxb_rx *rx = rtnl_dereference(port->rx);

	if (!rx || !rx->model->ops->xstats_count)
		return 0;
	return rx->model->ops->xstats_count(rx->model);
}

static int rxb_get_sset_count(struct net_device *dev, int sset)
{
	struct rxb_port *port = netdev_priv(dev);

	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	return RXB_DEV_STATS +
	       port->cfg.nqueues * (RXB_RXQ_STATS + RXB_TXQ_STATS) +
	       rxb_cfg_pipes(&port->cfg) * RXB_PIPE_STATS +
	       rxb_xstats_count(port) + page_pool_ethtool_stats_get_count();
}

/* The live pools' page_pool statistics, summed (CONFIG_PAGE_POOL_STATS). */
static u64 *rxb_pp_stats(struct rxb_port *port, u64 *data)
{
#ifdef CONFIG_PAGE_POOL_STATS
	struct page_pool_stats pps = {};
	struct rxb_rx *rx = rtnl_dereference(port->rx);
	unsigned int q;

	/* page_pool_get_stats() adds to @pps. */
	for (q = 0; rx && q < rx->nqueues; q++)
		if (rx->rxq[q].pp_q == q)	/* a shared pool once */
			page_pool_get_stats(rx->rxq[q].pp, &pps);
	return page_pool_ethtool_stats_get(data, &pps);
#else
	return data;
#endif
}

static void rxb_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	struct rxb_port *port = netdev_priv(dev);
	unsigned int q, i;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i < RXB_DEV_STATS; i++)
		ethtool_sprintf(&data, "%s", rxb_dev_stat_names[i]);
	for (q = 0; q < port->cfg.nqueues; q++) {
		for (i = 0; i < RXB_QSTATS_NUM; i++)
			ethtool_sprintf(&data, "rx%u_%s", q,
					rxb_qstats_desc[i].name);
		for (i = 0; i < RXB_QX_STATS; i++)
			ethtool_sprintf(&data, "rx%u_%s", q, rxb_qx_names[i]);
		for (i = 0; i < RXB_QNIC_STATS; i++)
			ethtool_sprintf(&data, "rx%u_%s", q, rxb_qnic_names[i]);
	}
	for (q = 0; q < port->cfg.nqueues; q++)
		for (i = 0; i < RXB_TXQ_STATS; i++)
			ethtool_sprintf(&data, "tx%u_%s", q, rxb_txq_names[i]);
	for (q = 0; q < rxb_cfg_pipes(&port->cfg); q++)
		for (i = 0; i < RXB_PIPE_STATS; i++)
			ethtool_sprintf(&data, "engine%u_%s", q,
					rxb_pipe_names[i]);
	if (rxb_xstats_count(port)) {
		struct rxb_model *m = rtnl_dereference(port->rx)->model;

		BUILD_BUG_ON(RXB_STAT_NAME_LEN != ETH_GSTRING_LEN);
		m->ops->xstats_names(m, (char *)data);
		data += rxb_xstats_count(port) * ETH_GSTRING_LEN;
	}
	page_pool_ethtool_stats_get_strings(data);
}

static void rxb_get_ethtool_stats(struct net_device *dev,
				  struct ethtool_stats *stats, u64 *data)
{
	struct rxb_port *port = netdev_priv(dev);
	u64 *tot = data, *p = data + RXB_DEV_STATS;
	struct rxb_nic_tls_qcounters tc;
	struct rxb_nic_pipe_counters pc;
	struct rxb_nic_tls_counters tls;
	struct rxb_nic_counters nc;
	struct rxb_txq_counts tx;
	unsigned int q, i;

	memset(tot, 0, RXB_DEV_STATS * sizeof(*tot));
	rxb_nic_read_counters(port->nic, &nc);
	for (q = 0; q < RXB_MAX_QUEUES; q++) {
		struct rxb_nic_qcounters qc;
		struct rxb_qstats st;
		struct rxb_qxstats xst;

		rxb_nic_read_qcounters(port->nic, q, &qc);
		tot[RXB_DS_PCIE_DATA] += qc.to_host_data;
		tot[RXB_DS_PCIE_META] += qc.to_host_meta;
		tot[RXB_DS_PCIE_DESC] += qc.to_nic_desc;
		tot[RXB_DS_PCIE_MMIO] += qc.to_nic_mmio;
		tot[RXB_DS_PCIE_HMMIO] += qc.to_host_mmio;
		tot[RXB_DS_PCIE_MMIO_RD] += qc.mmio_reads;
		tot[RXB_DS_PCIE_DATA_RD] += qc.to_nic_data;
		rxb_get_qstats(port, q, &st, &xst);
		tot[RXB_DS_RX_PACKETS] += xst.packets;
		tot[RXB_DS_RX_BYTES] += xst.bytes;
		tot[RXB_DS_NOBUF] += st.nobuf_drops;
		tot[RXB_DS_RING_FULL] += st.ring_full_drops;
		tot[RXB_DS_OVERSIZE] += st.oversize_drops;
		tot[RXB_DS_POLLS] += st.polls;
		tot[RXB_DS_REFILLS] += st.refills;
		tot[RXB_DS_IRQS] += xst.irqs;
		tot[RXB_DS_OFF_CPU] += xst.polls_off_cpu;
		tot[RXB_DS_DMA_ERRORS] += xst.dma_errors;
		tot[RXB_DS_SKB_DROPS] += xst.skb_drops;
		tot[RXB_DS_BACKOFFS] += xst.refill_backoffs;
		tot[RXB_DS_PP_FRESH] += xst.pp_fresh;
		tot[RXB_DS_PP_RELEASED] += xst.pp_released;
		if (q >= port->cfg.nqueues)
			continue;
		for (i = 0; i < RXB_QSTATS_NUM; i++)
			*p++ = rxb_stat_get(&st, &rxb_qstats_desc[i]);
		*p++ = xst.packets;
		*p++ = xst.bytes;
		*p++ = xst.skb_drops;
		*p++ = xst.dma_errors;
		*p++ = xst.irqs;
		*p++ = xst.polls_off_cpu;
		*p++ = xst.refill_backoffs;
		*p++ = xst.pp_fresh;
		*p++ = xst.pp_released;
		*p++ = xst.pp_size;
		for (i = 0; i < RXB_XDP_NSTATS; i++)
			*p++ = xst.xdp[i];
		*p++ = qc.steered;
		*p++ = qc.to_host_data;
		*p++ = qc.to_host_meta;
		*p++ = qc.to_nic_desc;
		*p++ = qc.to_nic_mmio;
		*p++ = qc.to_host_mmio;
		*p++ = qc.mmio_reads;
		*p++ = qc.to_nic_data;
		rxb_nic_tls_read_q(port->nic, q, &tc);
		*p++ = tc.rx_decrypted;
		*p++ = tc.rx_records;
		*p++ = tc.rx_encrypted;
		*p++ = tc.rx_resync_req;
		*p++ = tc.rx_auth_fail;
		*p++ = tc.rx_resync_progress;
	}
	tot[RXB_DS_CTX_BAD] = rxb_nic_ctx_violations();
	rxb_nic_tls_read(port->nic, &tls);
	tot[RXB_DS_TLS_ACTIVE] = tls.ctx_active;
	tot[RXB_DS_TLS_ADDED] = tls.ctx_added;
	tot[RXB_DS_TLS_REFUSED] = tls.ctx_refused;
	tot[RXB_DS_TLS_DELETED] = tls.ctx_deleted;
	tot[RXB_DS_TLS_CONFIRMED] = tls.resync_confirmed;
	tot[RXB_DS_TLS_ASTART] = atomic64_read(&port->tls_async[RXB_TLS_ASYNC_START]);
	tot[RXB_DS_TLS_AEND] = atomic64_read(&port->tls_async[RXB_TLS_ASYNC_END]);
	tot[RXB_DS_TLS_ASKIP] = atomic64_read(&port->tls_async[RXB_TLS_ASYNC_SKIP]);
	tot[RXB_DS_TS_WRITES] = nc.tx_hwtstamps;
	rxb_ptp_counters(port, &tot[RXB_DS_TS], &tot[RXB_DS_TS_SKIPPED],
			 &tot[RXB_DS_TS_TIMEOUTS]);
	tot[RXB_DS_OVERSIZE] += nc.oversize_drops;
	tot[RXB_DS_RUNT] = nc.runt_drops;
	tot[RXB_DS_STOPPED] = nc.stopped_drops;
	spin_lock_bh(&port->stats_lock);
	tot[RXB_DS_FLUSHED] = port->flushed;
	spin_unlock_bh(&port->stats_lock);
	tot[RXB_DS_DMA_FAULTS] = nc.dma_faults;
	tot[RXB_DS_DMA_BYTES] = nc.dma_bytes;
	tot[RXB_DS_STALL] = nc.stall_frames;
	tot[RXB_DS_FIFO] = nc.fifo_drops;
	tot[RXB_DS_ENGINE] = nc.engine_frames;
	/* Of the live rings' context; restarts when they are rebuilt. */
	tot[RXB_DS_WS] = nc.ws;
	tot[RXB_DS_WS_PEAK] = nc.ws_peak;
	tot[RXB_DS_WS_WINDOW] = nc.ws_window;
	tot[RXB_DS_WS_BYTES] = nc.ws_bytes;
	tot[RXB_DS_WS_BYTES_PEAK] = nc.ws_bytes_peak;
	tot[RXB_DS_NTUPLE_DROPS] = nc.ntuple_drops;
	tot[RXB_DS_FLOW_SIZE] = nc.flow_table_size;
	tot[RXB_DS_FLOW_ACTIVE] = nc.flow_active;
	tot[RXB_DS_FLOW_LEARNED] = nc.flow_learned;
	tot[RXB_DS_FLOW_EXPIRED] = nc.flow_expired;
	tot[RXB_DS_FLOW_UNTRACKED] = nc.flow_untracked;
	tot[RXB_DS_NM_CAP] = nc.nicmem.capacity;
	tot[RXB_DS_NM_HELD] = nc.nicmem.held;
	tot[RXB_DS_NM_PEAK] = nc.nicmem.peak;
	tot[RXB_DS_NM_FETCHED] = nc.nicmem.fetched;
	tot[RXB_DS_NM_FETCHES] = nc.nicmem.fetches;
	tot[RXB_DS_NM_ALLOCS] = nc.nicmem.allocs;
	tot[RXB_DS_NM_FAILS] = nc.nicmem.alloc_fails;
	tot[RXB_DS_NM_NS] = nc.nicmem.fetch_ns;
	tot[RXB_DS_HDS_HOST] = nc.hds.host_bytes;
	tot[RXB_DS_HDS_NIC] = nc.hds.nic_bytes;
	tot[RXB_DS_HDS_FRAMES] = nc.hds.frames;
	tot[RXB_DS_HDS_FETCH] = nc.hds.fetch_bytes;
	tot[RXB_DS_HDS_TX] = nc.hds.tx_frames;
	tot[RXB_DS_HDS_TX_NIC] = nc.hds.tx_nic_bytes;
	tot[RXB_DS_HDS_TX_HOST] = nc.hds.tx_host_bytes;
	tot[RXB_DS_HDS_FALLBACK] = nc.hds.fallback;
	tot[RXB_DS_HDS_WHOLE] = nc.hds.whole;
	tot[RXB_DS_HDS_HELD] = nc.hds.held;
	tot[RXB_DS_HDS_CMD_ERR] = nc.hds.cmd_errors;
	tot[RXB_DS_HDS_RECLAIMED] = nc.hds.reclaimed;
	for (q = 0; q < RXB_MAX_QUEUES; q++) {
		rxb_get_txq_counts(port, q, &tx);
		tot[RXB_DS_TX_PACKETS] += tx.packets;
		tot[RXB_DS_TX_BYTES] += tx.bytes;
		tot[RXB_DS_TX_DROPS] += tx.drops;
		if (q >= port->cfg.nqueues)
			continue;
		*p++ = tx.packets;
		*p++ = tx.bytes;
		*p++ = tx.drops;
		*p++ = tx.xdp_xmit;
		*p++ = tx.xdp_xmit_errors;
		*p++ = tx.stops;
		*p++ = tx.wakes;
		*p++ = tx.engine;
		*p++ = tx.inflight;
		rxb_nic_tls_read_q(port->nic, q, &tc);
		*p++ = tc.tx_records;
		*p++ = tc.tx_packets;
		*p++ = tc.tx_dumps;
		*p++ = tc.tx_drops;
	}
	for (q = 0; q < rxb_cfg_pipes(&port->cfg); q++) {
		rxb_nic_read_pipe(port->nic, q, &pc);
		*p++ = pc.frames;
		*p++ = pc.fifo_drops;
		*p++ = (u64)(s64)pc.cpu;
	}
	if (rxb_xstats_count(port)) {
		struct rxb_model *m = rtnl_dereference(port->rx)->model;

		m->ops->xstats_values(m, p);
		p += rxb_xstats_count(port);
	}
	rxb_pp_stats(port, p);
}

/* Interrupt moderation: registers of the NIC, applied by its vectors at
 * once, kept across ring rebuilds.
 */
static int rxb_get_coalesce(struct net_device *dev,
			    struct ethtool_coalesce *ec,
			    struct kernel_ethtool_coalesce *kec,
			    struct netlink_ext_ack *extack)
{
	struct rxb_port *port = netdev_priv(dev);

	rxb_nic_get_coalesce(port->nic, &ec->rx_coalesce_usecs,
			     &ec->rx_max_coalesced_frames);
	return 0;
}

static int rxb_set_coalesce(struct net_device *dev,
			    struct ethtool_coalesce *ec,
			    struct kernel_ethtool_coalesce *kec,
			    struct netlink_ext_ack *extack)
{
	struct rxb_port *port = netdev_priv(dev);

	/* The core refused what supported_coalesce_params does not list. */
	if (ec->rx_coalesce_usecs > RXB_COAL_MAX_USECS) {
		NL_SET_ERR_MSG_MOD(extack, "rx-usecs must be at most "
				   __stringify(RXB_COAL_MAX_USECS));
		return -ERANGE;
	}
	if (ec->rx_max_coalesced_frames > RXB_COAL_MAX_FRAMES) {
		NL_SET_ERR_MSG_MOD(extack, "rx-frames must be at most "
				   __stringify(RXB_COAL_MAX_FRAMES));
		return -ERANGE;
	}
	if (!ec->rx_coalesce_usecs && ec->rx_max_coalesced_frames > 1) {
		NL_SET_ERR_MSG_MOD(extack,
				   "rx-frames above 1 needs rx-usecs: the last frames of a burst would never be signalled");
		return -EINVAL;
	}
	rxb_nic_set_coalesce(port->nic, ec->rx_coalesce_usecs,
			     ec->rx_max_coalesced_frames);
	return 0;
}

/* ethtool -T: hardware stamps both ways (ptp.c), every frame or none,
 * the port's PHC; software stamps too (skb_tx_timestamp()).
 */
static int rxb_get_ts_info(struct net_device *dev,
			   struct rxb_ethtool_ts_info *info)
{
	info->so_timestamping = SOF_TIMESTAMPING_TX_HARDWARE |
				SOF_TIMESTAMPING_RX_HARDWARE |
				SOF_TIMESTAMPING_RAW_HARDWARE |
				SOF_TIMESTAMPING_TX_SOFTWARE |
				SOF_TIMESTAMPING_RX_SOFTWARE |
				SOF_TIMESTAMPING_SOFTWARE;
	info->phc_index = rxb_ptp_index(netdev_priv(dev));
	info->tx_types = BIT(HWTSTAMP_TX_OFF) | BIT(HWTSTAMP_TX_ON);
	info->rx_filters = BIT(HWTSTAMP_FILTER_NONE) | BIT(HWTSTAMP_FILTER_ALL);
	return 0;
}

const struct ethtool_ops rxb_ethtool_ops = {
	.supported_ring_params	= RXB_RING_PARAMS,
	.supported_coalesce_params = ETHTOOL_COALESCE_RX_USECS |
				     ETHTOOL_COALESCE_RX_MAX_FRAMES,
	.get_drvinfo		= rxb_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_ringparam		= rxb_get_ringparam,
	.set_ringparam		= rxb_set_ringparam,
	.get_channels		= rxb_get_channels,
	.set_channels		= rxb_set_channels,
	RXB_ETHTOOL_RX_RING_COUNT(rxb_get_rx_ring_count)
	.get_rxnfc		= rxb_get_rxnfc,
	.set_rxnfc		= rxb_set_rxnfc,
	.get_rxfh_indir_size	= rxb_get_rxfh_indir_size,
	.get_rxfh_key_size	= rxb_get_rxfh_key_size,
	RXB_ETHTOOL_RXFH(rxb_get_rxfh, rxb_set_rxfh),
	RXB_ETHTOOL_RXFH_FIELDS(rxb_get_rxfh_fields, rxb_set_rxfh_fields)
	RXB_ETHTOOL_RXFH_CONTEXTS(RXB_RSS_CTX_MAX, rxb_get_rxfh,
				  rxb_rss_ctx_set, rxb_remove_rxfh_context,
				  rxb_rss_ctx_alloc)
	.get_sset_count		= rxb_get_sset_count,
	.get_strings		= rxb_get_strings,
	.get_ethtool_stats	= rxb_get_ethtool_stats,
	.get_coalesce		= rxb_get_coalesce,
	.set_coalesce		= rxb_set_coalesce,
	.get_ts_info		= rxb_get_ts_info,
};
