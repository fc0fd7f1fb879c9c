// SPDX-License-Identifier: GPL-2.0
/*
 * Build-time feature probes (not part of the module).
 *
 * tools/compat/probe.sh compiles each "#ifdef HAVE_X" section below on its
 * own against the target kernel's build directory, with -Werror, and
 * defines HAVE_X in the generated rxb_compat_probed.h when it compiles.
 * compat.h turns those into the few helpers the driver uses.  A section
 * tests the newer interface where there is one, so that HAVE_X reads
 * "this kernel has X".  A probe under a "Required:" comment is one the
 * module cannot do without: probe.sh stops the build, naming it, when it
 * fails.  Each probe names the kernel that brought the
 * change, for the reader only: nothing tests version numbers.
 */
#include <linux/kernel.h>
#include <linux/module.h>

/* RXB_PROBE_OP(TYPE, OP, RET, ARGS...): a TYPE whose member OP points to a
 * function returning RET, of the arguments ARGS.  It compiles where the
 * kernel declares OP so (a pointer of another type warns: -Werror).
 */
#define RXB_PROBE_OP(type, op, ret, ...)			\
static ret rxb_probe_##op(__VA_ARGS__)				\
{								\
	return 0;						\
}								\
type rxb_probe_ops = { .op = rxb_probe_##op }

/* Required: page_pool (CONFIG_PAGE_POOL=y) */
#ifdef HAVE_PAGE_POOL
#include <linux/netdevice.h>
#if !IS_ENABLED(CONFIG_PAGE_POOL)
#error "no CONFIG_PAGE_POOL"
#endif
#endif

/* Required: devlink (CONFIG_NET_DEVLINK=y) */
#ifdef HAVE_DEVLINK
#include <net/devlink.h>
#if !IS_ENABLED(CONFIG_NET_DEVLINK)
#error "no CONFIG_NET_DEVLINK"
#endif
void *rxb_probe(void)
{
	return devlink_alloc;
}
#endif

/* 6.6: net/page_pool.h split into net/page_pool/{helpers,types}.h. */
#ifdef HAVE_PAGE_POOL_HELPERS_H
#include <net/page_pool/helpers.h>
#endif

/* Up to 6.5: the single net/page_pool.h. */
#ifdef HAVE_PAGE_POOL_H
#include <net/page_pool.h>
#endif

/* Up to 6.3: xdp_release_frame(), which xdp_build_skb_from_frame() calls
 * up to 6.2 to take a page_pool page out of its pool (6.3: the skb is
 * marked for recycling instead; 6.4 removed the helper).
 */
#ifdef HAVE_XDP_RELEASE_FRAME
#include <net/xdp.h>
void rxb_probe(struct xdp_frame *xdpf)
{
	xdp_release_frame(xdpf);
}
#endif

/* 6.7: page_pool_ref_page(). */
#ifdef HAVE_PAGE_POOL_REF_PAGE
#include <net/page_pool/helpers.h>
void rxb_probe(struct page *page)
{
	page_pool_ref_page(page);
}
#endif

/* 6.8: a page_pool page counts its references in pp_ref_count (was
 * pp_frag_count).
 */
#ifdef HAVE_PAGE_PP_REF_COUNT
#include <linux/mm_types.h>
long rxb_probe(struct page *page)
{
	return atomic_long_read(&page->pp_ref_count);
}
#endif

/* 6.7: the kTLS offload asks an skb, not its socket, if it is offloaded. */
#ifdef HAVE_TLS_IS_SKB_TX_DEVICE_OFFLOADED
#include <net/tls.h>
bool rxb_probe(const struct sk_buff *skb)
{
	return tls_is_skb_tx_device_offloaded(skb);
}
#endif

/* After 6.1: the kTLS async resync's start takes the context's log
 * (struct tls_offload_resync_async), not the socket.
 */
#ifdef HAVE_TLS_RESYNC_ASYNC_BY_CTX
#include <net/tls.h>
void rxb_probe(struct tls_offload_resync_async *ra)
{
	tls_offload_rx_resync_async_request_start(ra, 0, 0);
}
#endif

/* The kTLS device offload's skb mark (CONFIG_TLS_DEVICE; 6.11: its own
 * CONFIG_SKB_DECRYPTED, which TLS_DEVICE selects).
 */
#ifdef HAVE_SKB_DECRYPTED
#include <linux/skbuff.h>
int rxb_probe(struct sk_buff *skb)
{
	return skb->decrypted;
}
#endif

/* 6.5: skb_gso_segment() moved to net/gso.h. */
#ifdef HAVE_NET_GSO_H
#include <net/gso.h>
#endif

/* 6.3: vma flags are changed through vm_flags_set(). */
#ifdef HAVE_VM_FLAGS_SET
#include <linux/mm.h>
void rxb_probe_vm_flags(struct vm_area_struct *vma);
void rxb_probe_vm_flags(struct vm_area_struct *vma)
{
	vm_flags_set(vma, VM_DONTCOPY);
}
#endif

/* 6.4: bus_type callbacks take a const struct bus_type. */
#ifdef HAVE_BUS_ATTR_CONST
#include <linux/device.h>
RXB_PROBE_OP(struct bus_attribute, store, ssize_t,
	     const struct bus_type *bus, const char *buf, size_t count);
#endif

/* 6.9: devlink param set() gets an extack. */
#ifdef HAVE_DEVLINK_PARAM_SET_EXTACK
#include <net/devlink.h>
RXB_PROBE_OP(struct devlink_param, set, int, struct devlink *devlink, u32 id,
	     struct devlink_param_gset_ctx *ctx, struct netlink_ext_ack *extack);
#endif

/* 6.3: devl_params_register(), under the instance lock. */
#ifdef HAVE_DEVL_PARAMS_REGISTER
#include <net/devlink.h>
int rxb_probe(struct devlink *devlink, const struct devlink_param *params)
{
	return devl_params_register(devlink, params, 1);
}
#endif

/* 6.3: devl_health_reporter_create(), under the instance lock. */
#ifdef HAVE_DEVL_HEALTH_REPORTER_CREATE
#include <net/devlink.h>
void *rxb_probe(struct devlink *devlink,
		const struct devlink_health_reporter_ops *ops)
{
	return devl_health_reporter_create(devlink, ops, 0, NULL);
}
#endif

/* Up to 6.1: drivers put their name in devlink info; the core does later. */
#ifdef HAVE_DEVLINK_INFO_DRIVER_NAME_PUT
#include <net/devlink.h>
int rxb_probe(struct devlink_info_req *req)
{
	return devlink_info_driver_name_put(req, "x");
}
#endif

/* 6.2: a netdev names its devlink port (SET_NETDEV_DEVLINK_PORT) before
 * registering, instead of ndo_get_devlink_port and
 * devlink_port_type_eth_set(port, netdev).
 */
#ifdef HAVE_SET_NETDEV_DEVLINK_PORT
#include <linux/netdevice.h>
#include <net/devlink.h>
void rxb_probe(struct net_device *dev, struct devlink_port *port)
{
	SET_NETDEV_DEVLINK_PORT(dev, port);
}
#endif

/* 6.7: devlink_fmsg_*_put() return void; the core checks the message. */
#ifdef HAVE_DEVLINK_FMSG_PUT_VOID
#include <net/devlink.h>
void (*rxb_probe)(struct devlink_fmsg *fmsg, const char *name,
		  u32 value) = devlink_fmsg_u32_pair_put;
#endif

/* 6.10: __assign_str() takes only the field (the source is __string()'s). */
#ifdef HAVE_ASSIGN_STR_ONE_ARG
#include <linux/stringify.h>
#include <trace/stages/stage6_event_callback.h>
const char *rxb_probe = __stringify(__assign_str(dst));
#endif

/* 6.8: get_rxfh/set_rxfh take a struct ethtool_rxfh_param. */
#ifdef HAVE_ETHTOOL_RXFH_PARAM
#include <linux/ethtool.h>
int rxb_probe(struct ethtool_rxfh_param *rxfh)
{
	return rxfh->hfunc;
}
#endif

/* Up to 6.7: additional RSS contexts through get_rxfh_context() and
 * set_rxfh_context(), the driver allocating their ids.
 */
#ifdef HAVE_ETHTOOL_SET_RXFH_CONTEXT
#include <linux/ethtool.h>
RXB_PROBE_OP(const struct ethtool_ops, set_rxfh_context, int,
	     struct net_device *dev, const u32 *indir, const u8 *key,
	     const u8 hfunc, u32 *rss_context, bool delete);
#endif

/* 6.11: additional RSS contexts through create/modify/remove_rxfh_context(),
 * the core allocating their ids (below rxfh_max_num_contexts) and keeping
 * a copy of each (struct ethtool_rxfh_context).
 */
#ifdef HAVE_ETHTOOL_RXFH_CONTEXT_OPS
#include <linux/ethtool.h>
RXB_PROBE_OP(const struct ethtool_ops, create_rxfh_context, int,
	     struct net_device *dev, struct ethtool_rxfh_context *ctx,
	     const struct ethtool_rxfh_param *rxfh,
	     struct netlink_ext_ack *extack);
#endif

/* 6.16 (Debian's 6.12 has it too): get_rxfh_fields()/set_rxfh_fields(),
 * the RSS hash fields of a flow type, which get_rxnfc()/set_rxnfc()
 * (ETHTOOL_GRXFH/SRXFH) carried before.
 */
#ifdef HAVE_ETHTOOL_RXFH_FIELDS
#include <linux/ethtool.h>
RXB_PROBE_OP(const struct ethtool_ops, get_rxfh_fields, int,
	     struct net_device *dev, struct ethtool_rxfh_fields *fields);
#endif

/* 6.9: per-queue statistics through netdev_stat_ops (netdev netlink). */
#ifdef HAVE_NETDEV_STAT_OPS
#include <linux/netdevice.h>
#include <net/netdev_queues.h>
void rxb_probe(struct net_device *dev, const struct netdev_stat_ops *ops)
{
	dev->stat_ops = ops;
}
#endif

/* 6.8: queues name their NAPI instance (netif_queue_set_napi()). */
#ifdef HAVE_NETIF_QUEUE_SET_NAPI
#include <linux/netdevice.h>
void rxb_probe(struct net_device *dev, struct napi_struct *napi)
{
	netif_queue_set_napi(dev, 0, NETDEV_QUEUE_TYPE_RX, napi);
}
#endif

/* 6.8: a page_pool names its netdev and NAPI (page-pool netlink). */
#ifdef HAVE_PAGE_POOL_PARAMS_NETDEV
#include <net/page_pool/types.h>
void rxb_probe(struct page_pool_params *pp, struct net_device *dev,
	       struct napi_struct *napi)
{
	pp->netdev = dev;
	pp->napi = napi;
}
#endif

/* 6.10: the queue management API (netdev_queue_mgmt_ops). */
#ifdef HAVE_NETDEV_QUEUE_MGMT_OPS
#include <linux/netdevice.h>
#include <net/netdev_queues.h>
size_t rxb_probe = sizeof(((struct net_device *)0)->queue_mgmt_ops->ndo_queue_start);
#endif

/* 6.9: page_pool_disable_direct_recycling(): a pool's NAPI instance stops
 * recycling into it before the pool is destroyed with the NAPI running.
 */
#ifdef HAVE_PAGE_POOL_DISABLE_DIRECT_RECYCLING
#include <net/page_pool/types.h>
void rxb_probe(struct page_pool *pool)
{
	page_pool_disable_direct_recycling(pool);
}
#endif

/* 6.3: net_device.xdp_features, the XDP features a driver supports. */
#ifdef HAVE_XDP_FEATURES
#include <linux/netdevice.h>
void rxb_probe(struct net_device *dev)
{
	dev->xdp_features = NETDEV_XDP_ACT_BASIC | NETDEV_XDP_ACT_NDO_XMIT;
}
#endif

/* 6.10: xsk_buff_dma_sync_for_cpu() takes the buffer only. */
#ifdef HAVE_XSK_BUFF_DMA_SYNC_NO_POOL
#include <net/xdp_sock_drv.h>
void rxb_probe(struct xdp_buff *xdp)
{
	xsk_buff_dma_sync_for_cpu(xdp);
}
#endif

/* After 6.1 (6.12 has it): ETHTOOL_RING_USE_TCP_DATA_SPLIT. */
#ifdef HAVE_ETHTOOL_RING_USE_TCP_DATA_SPLIT
#include <linux/ethtool.h>
u32 rxb_probe = ETHTOOL_RING_USE_TCP_DATA_SPLIT;
#endif

/* 6.5: skb_frag_fill_page_desc() (6.6 dropped __skb_frag_set_page()). */
#ifdef HAVE_SKB_FRAG_FILL_PAGE_DESC
#include <linux/skbuff.h>
void rxb_probe(skb_frag_t *frag, struct page *page)
{
	skb_frag_fill_page_desc(frag, page, 0, 1);
}
#endif

/* 6.13: hrtimer_setup() initializes a timer with its callback. */
#ifdef HAVE_HRTIMER_SETUP
#include <linux/hrtimer.h>
static enum hrtimer_restart rxb_probe_fn(struct hrtimer *t)
{
	return HRTIMER_NORESTART;
}

void rxb_probe(struct hrtimer *t)
{
	hrtimer_setup(t, rxb_probe_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}
#endif

/* 6.2: timer_delete_sync() (del_timer_sync() is gone after 6.12). */
#ifdef HAVE_TIMER_DELETE_SYNC
#include <linux/timer.h>
int rxb_probe(struct timer_list *t)
{
	return timer_delete_sync(t);
}
#endif

/* 6.16: timer_container_of() (was from_timer()). */
#ifdef HAVE_TIMER_CONTAINER_OF
#include <linux/timer.h>
struct rxb_probe_s {
	struct timer_list t;
};

void *rxb_probe(struct timer_list *t)
{
	struct rxb_probe_s *s = timer_container_of(s, t, t);

	return s;
}
#endif

/* 6.13: debugfs_change_name() (debugfs_rename() is gone after 6.12). */
#ifdef HAVE_DEBUGFS_CHANGE_NAME
#include <linux/debugfs.h>
int rxb_probe(struct dentry *d)
{
	return debugfs_change_name(d, "%s", "x");
}
#endif

/* After 6.12 (7.2 has it): xdp_update_skb_frags_info() takes the frame's
 * XDP_FLAGS_FRAGS_* (was xdp_update_skb_shared_info() with a pfmemalloc
 * bool).
 */
#ifdef HAVE_XDP_UPDATE_SKB_FRAGS_INFO
#include <net/xdp.h>
void rxb_probe(struct sk_buff *skb)
{
	xdp_update_skb_frags_info(skb, 1, 1, 1, XDP_FLAGS_FRAGS_PF_MEMALLOC);
}
#endif

/* 6.15: rtnl_link_ops.newlink() takes a struct rtnl_newlink_params. */
#ifdef HAVE_RTNL_NEWLINK_PARAMS
#include <net/rtnetlink.h>
RXB_PROBE_OP(struct rtnl_link_ops, newlink, int, struct net_device *dev,
	     struct rtnl_newlink_params *params, struct netlink_ext_ack *extack);
#endif

/* 6.15: net/netdev_lock.h, the netdev instance lock (netdev_lock_ops(),
 * netdev_lockdep_set_classes() moved there).  A driver with
 * queue_mgmt_ops (or request_ops_lock) is "ops locked": the core calls
 * its ndos and ethtool ops with dev->lock held.
 */
#ifdef HAVE_NETDEV_OPS_LOCK
#include <net/netdev_lock.h>
bool rxb_probe(struct net_device *dev)
{
	return netdev_need_ops_lock(dev);
}
#endif

/* After 6.12 (7.2 has it): devlink parameter get() takes an extack. */
#ifdef HAVE_DEVLINK_PARAM_GET_EXTACK
#include <net/devlink.h>
RXB_PROBE_OP(struct devlink_param, get, int, struct devlink *devlink, u32 id,
	     struct devlink_param_gset_ctx *ctx, struct netlink_ext_ack *extack);
#endif

/* After 6.12 (7.2 has it): devlink parameter validate() takes the value by
 * pointer.
 */
#ifdef HAVE_DEVLINK_PARAM_VALIDATE_PTR
#include <net/devlink.h>
RXB_PROBE_OP(struct devlink_param, validate, int, struct devlink *devlink,
	     u32 id, union devlink_param_value *val,
	     struct netlink_ext_ack *extack);
#endif

/* After 6.12 (7.2 has it): a health reporter's graceful period is its ops'
 * default_graceful_period; devl_health_reporter_create() lost the argument.
 */
#ifdef HAVE_DEVLINK_HEALTH_OPS_GRACEFUL_PERIOD
#include <net/devlink.h>
void *rxb_probe(struct devlink *devlink,
		const struct devlink_health_reporter_ops *ops)
{
	return devl_health_reporter_create(devlink, ops, NULL);
}
#endif

/* After 6.12 (7.2 has it): the queue management API passes the queue's
 * configuration (struct netdev_queue_config) to mem_alloc and start.
 */
#ifdef HAVE_NETDEV_QUEUE_CONFIG
#include <linux/netdevice.h>
#include <net/netdev_queues.h>
RXB_PROBE_OP(struct netdev_queue_mgmt_ops, ndo_queue_start, int,
	     struct net_device *dev, struct netdev_queue_config *qcfg,
	     void *mem, int idx);
#endif

/* After 6.12 (7.2 has it): ethtool_ops.get_rx_ring_count(), which the core
 * asks instead of get_rxnfc(ETHTOOL_GRXRINGS): without it, setting the RSS
 * indirection table fails with -EOPNOTSUPP.
 */
#ifdef HAVE_ETHTOOL_GET_RX_RING_COUNT
#include <linux/ethtool.h>
RXB_PROBE_OP(const struct ethtool_ops, get_rx_ring_count, u32,
	     struct net_device *dev);
#endif

/* 6.13: netif_napi_add_config(), NAPI instances with persistent config. */
#ifdef HAVE_NETIF_NAPI_ADD_CONFIG
#include <linux/netdevice.h>
void rxb_probe(struct net_device *dev, struct napi_struct *napi,
	       int (*poll)(struct napi_struct *, int))
{
	netif_napi_add_config(dev, napi, poll, 0);
}
#endif

/* 6.6: ndo_hwtstamp_get/set with struct kernel_hwtstamp_config; before,
 * SIOCSHWTSTAMP and SIOCGHWTSTAMP reach the driver's ndo_eth_ioctl.
 */
#ifdef HAVE_NDO_HWTSTAMP
#include <linux/net_tstamp.h>
#include <linux/netdevice.h>
static int rxb_probe_hwts(struct net_device *dev,
			  struct kernel_hwtstamp_config *cfg,
			  struct netlink_ext_ack *extack)
{
	return cfg->tx_type;
}

const struct net_device_ops rxb_probe_ops = { .ndo_hwtstamp_set = rxb_probe_hwts };
#endif

/* 6.11: ethtool_ops.get_ts_info takes struct kernel_ethtool_ts_info. */
#ifdef HAVE_KERNEL_ETHTOOL_TS_INFO
#include <linux/ethtool.h>
static int rxb_probe_ts(struct net_device *dev,
			struct kernel_ethtool_ts_info *info)
{
	return info->phc_index;
}

const struct ethtool_ops rxb_probe_ops = { .get_ts_info = rxb_probe_ts };
#endif

/* 6.5: XDP metadata kfuncs (6.3: xdp_metadata_ops) with the RSS hash's
 * type (xmo_rx_hash's enum xdp_rss_hash_type argument, 6.5).
 */
#ifdef HAVE_XDP_METADATA_OPS
#include <net/xdp.h>
static int rxb_probe_hash(const struct xdp_md *ctx, u32 *hash,
			  enum xdp_rss_hash_type *type)
{
	*type = XDP_RSS_TYPE_L4_IPV4_UDP;
	return 0;
}

const struct xdp_metadata_ops rxb_probe_ops = { .xmo_rx_hash = rxb_probe_hash };
#endif

/* After 6.18 (7.2 has it): GHASH is a library (crypto/gf128hash.h); the
 * "ghash" shash algorithm is gone (crypto_alloc_shash() fails -ENOENT).
 */
#ifdef HAVE_CRYPTO_GF128HASH
#include <crypto/gf128hash.h>
void rxb_probe(struct ghash_key *key, const u8 *h)
{
	ghash_preparekey(key, h);
}
#endif

MODULE_LICENSE("GPL");
