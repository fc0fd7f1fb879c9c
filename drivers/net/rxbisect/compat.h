/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the kernel interfaces that differ between the kernels rxbisect
 * builds against (Debian 12's 6.1 and 6.12, and the newest kernel of
 * Debian's unstable suite, 7.2: tools/vm/kernels.conf).
 *
 * Every difference lives here, driven by the build-time feature probes of
 * tools/compat/probes.c (tools/compat/probe.sh writes rxb_compat_probed.h with
 * one HAVE_* macro per probe that compiled against the target kernel).  No
 * other file tests kernel versions or HAVE_* macros: the driver is written
 * against the newer interface, and this header supplies it on older
 * kernels.  Ring-model cores (model*.c and their headers) do not include it:
 * they also build in userspace (tools/testing/rxbisect).
 */
#ifndef _RXB_COMPAT_H
#define _RXB_COMPAT_H

#include <rxb_compat_probed.h>

#ifndef HAVE_PAGE_POOL
#error "rxbisect needs page_pool: this kernel is built without CONFIG_PAGE_POOL"
#endif
#ifndef HAVE_DEVLINK
#error "rxbisect needs devlink: this kernel is built without CONFIG_NET_DEVLINK"
#endif

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/ethtool.h>
#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <net/devlink.h>
#include <net/rtnetlink.h>

/* 6.15: the netdev instance lock's helpers (and netdev_lockdep_set_classes())
 * in net/netdev_lock.h.
 */
#ifdef HAVE_NETDEV_OPS_LOCK
#include <net/netdev_lock.h>
#endif

/* 6.6: net/page_pool.h split into net/page_pool/{helpers,types}.h. */
#if defined(HAVE_PAGE_POOL_HELPERS_H)
#include <net/page_pool/helpers.h>
#elif defined(HAVE_PAGE_POOL_H)
#include <net/page_pool.h>
#else
#error "rxbisect needs page_pool: neither net/page_pool/helpers.h nor net/page_pool.h found"
#endif

/**
 * rxb_page_pool_frag_init() - a fresh page counts as one fragment.
 * @pool: the page's pool.
 * @page: the page, just allocated.
 *
 * Up to 6.5 only pools created with PP_FLAG_PAGE_FRAG count fragments, and
 * their fresh pages must be set to one.  From 6.6 every page of every pool
 * starts with one reference (pp_ref_count) and the flag is gone: defined
 * as 0 here.
 */
#ifdef PP_FLAG_PAGE_FRAG
static inline void rxb_page_pool_frag_init(struct page_pool *pool,
					   struct page *page)
{
	if (pool->p.flags & PP_FLAG_PAGE_FRAG)
		page_pool_fragment_page(page, 1);
}
#else
#define PP_FLAG_PAGE_FRAG	0
static inline void rxb_page_pool_frag_init(struct page_pool *pool,
					   struct page *page)
{
}
#endif

/* RXB_XDP_WHOLE_PAGES: must an XDP program's frames be in whole pages?
 * Up to 6.2 an skb built from an XDP frame (xdp_build_skb_from_frame():
 * veth or cpumap receiving a redirected frame, rxbisect's own XDP_TX)
 * takes its page out of the page_pool (xdp_release_frame()) and frees it
 * with put_page(): the page of two 2 KiB buffers (page_pool fragments)
 * would go back to the page allocator while the other buffer is still
 * posted.  6.3 marks the skb for recycling instead, which returns one
 * fragment.  Kernels with the helper (to 6.3) take a page per buffer while
 * a program is attached (rxb_rx_buf_layout()).
 */
#ifdef HAVE_XDP_RELEASE_FRAME
#define RXB_XDP_WHOLE_PAGES	true
#else
#define RXB_XDP_WHOLE_PAGES	false
#endif

/* 6.7: page_pool_ref_page() adds a reference (a fragment) to a page. */
#ifndef HAVE_PAGE_POOL_REF_PAGE
static inline void page_pool_ref_page(struct page *page)
{
	atomic_long_inc(&page->pp_frag_count);
}
#endif

/**
 * rxb_page_pool_refs() - references on a page_pool page: 1 when only one
 *	holder is left (a fragment pool's page, or any from 6.6).
 * @page: the page.
 *
 * Return: the page's page_pool reference (fragment) count.
 */
static inline long rxb_page_pool_refs(struct page *page)
{
#ifdef HAVE_PAGE_PP_REF_COUNT
	return atomic_long_read(&page->pp_ref_count);
#else
	return atomic_long_read(&page->pp_frag_count);
#endif
}

/* The kTLS device offload's mark on an skb: decrypted by the NIC (RX),
 * plaintext to encrypt (TX); absent without CONFIG_TLS_DEVICE.
 */
static inline void rxb_skb_set_decrypted(struct sk_buff *skb, bool on)
{
#ifdef HAVE_SKB_DECRYPTED
	skb->decrypted = on;
#endif
}

/* 6.7: tls_is_skb_tx_device_offloaded() replaced the socket's test. */
#ifndef HAVE_TLS_IS_SKB_TX_DEVICE_OFFLOADED
#define tls_is_skb_tx_device_offloaded(skb)				\
	({ struct sock *__sk = (skb)->sk;				\
	   __sk && tls_is_sk_tx_device_offloaded(__sk); })
#endif

/* After 6.1 (6.12 has it): the kTLS async resync's start and end take
 * the context's struct tls_offload_resync_async, no longer the socket
 * (whose context 6.1 looks it up in).  The caller includes net/tls.h.
 */
#ifdef HAVE_TLS_RESYNC_ASYNC_BY_CTX
#define rxb_tls_resync_async_start(sk, ra, seq, len)			\
	tls_offload_rx_resync_async_request_start(ra, seq, len)
#define rxb_tls_resync_async_end(sk, ra, seq)				\
	tls_offload_rx_resync_async_request_end(ra, seq)
#else
#define rxb_tls_resync_async_start(sk, ra, seq, len)			\
	tls_offload_rx_resync_async_request_start(sk, seq, len)
#define rxb_tls_resync_async_end(sk, ra, seq)				\
	tls_offload_rx_resync_async_request_end(sk, seq)
#endif

/* 6.5: skb_gso_segment() moved to net/gso.h. */
#ifdef HAVE_NET_GSO_H
#include <net/gso.h>
#endif

/* 6.3: vma flags through vm_flags_set(); before, written directly (mmap
 * lock held).
 */
#ifndef HAVE_VM_FLAGS_SET
#include <linux/mm.h>
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}
#endif

/* 6.4: bus attribute callbacks take a const struct bus_type. */
#ifdef HAVE_BUS_ATTR_CONST
#define rxb_bus_type_t	const struct bus_type
#else
#define rxb_bus_type_t	struct bus_type
#endif

/* 6.9: devlink parameter set() takes an extack.  The driver's set()
 * callbacks have the newer signature; RXB_DL_PARAM_SET(fn) names what goes
 * into DEVLINK_PARAM_DRIVER(), and RXB_DL_PARAM_SET_DEFINE(fn) (after fn)
 * defines the wrapper older kernels call.
 */
#ifdef HAVE_DEVLINK_PARAM_SET_EXTACK
#define RXB_DL_PARAM_SET(fn)		fn
#define RXB_DL_PARAM_SET_DEFINE(fn)
#else
#define RXB_DL_PARAM_SET(fn)		fn##_noextack
#define RXB_DL_PARAM_SET_DEFINE(fn)	RXB_DL_PARAM_NOEXTACK_DEFINE(fn)
#endif

/* fn##_noextack(): a get() or set() callback of a kernel whose callbacks
 * take no extack, calling @fn with none.
 */
#define RXB_DL_PARAM_NOEXTACK_DEFINE(fn)				\
static int fn##_noextack(struct devlink *devlink, u32 id,		\
			 struct devlink_param_gset_ctx *ctx)		\
{									\
	return fn(devlink, id, ctx, NULL);				\
}

/* After 6.12 (7.2 has it): devlink parameter get() takes an extack too, and
 * validate() the value by pointer.  The driver's callbacks have the newer
 * signatures; RXB_DL_PARAM_GET(fn) and RXB_DL_PARAM_VALIDATE(fn) name what
 * goes into DEVLINK_PARAM_DRIVER(), and the _DEFINE(fn) macros (after fn)
 * define the wrappers older kernels call.
 */
#ifdef HAVE_DEVLINK_PARAM_GET_EXTACK
#define RXB_DL_PARAM_GET(fn)		fn
#define RXB_DL_PARAM_GET_DEFINE(fn)
#else
#define RXB_DL_PARAM_GET(fn)		fn##_noextack
#define RXB_DL_PARAM_GET_DEFINE(fn)	RXB_DL_PARAM_NOEXTACK_DEFINE(fn)
#endif

#ifdef HAVE_DEVLINK_PARAM_VALIDATE_PTR
#define RXB_DL_PARAM_VALIDATE(fn)	fn
#define RXB_DL_PARAM_VALIDATE_DEFINE(fn)
#else
#define RXB_DL_PARAM_VALIDATE(fn)	fn##_byval
#define RXB_DL_PARAM_VALIDATE_DEFINE(fn)				\
static int fn##_byval(struct devlink *devlink, u32 id,			\
		      union devlink_param_value val,			\
		      struct netlink_ext_ack *extack)			\
{									\
	return fn(devlink, id, &val, extack);				\
}
#endif

/* 6.3: devl_params_register() and devl_health_reporter_create(), under
 * devl_lock(), the plain ones taking it (a deadlock under it).  Up to 6.2
 * the plain ones do not take the instance lock: the same calls.
 */
#ifndef HAVE_DEVL_PARAMS_REGISTER
static inline int devl_params_register(struct devlink *devlink,
				       const struct devlink_param *params,
				       size_t params_count)
{
	return devlink_params_register(devlink, params, params_count);
}

static inline void devl_params_unregister(struct devlink *devlink,
					  const struct devlink_param *params,
					  size_t params_count)
{
	devlink_params_unregister(devlink, params, params_count);
}
#endif

#if !defined(HAVE_DEVL_HEALTH_REPORTER_CREATE) && \
	!defined(HAVE_DEVLINK_HEALTH_OPS_GRACEFUL_PERIOD)
static inline void
devl_health_reporter_destroy(struct devlink_health_reporter *reporter)
{
	devlink_health_reporter_destroy(reporter);
}
#endif

/**
 * rxb_health_reporter_create() - create a devlink health reporter.
 * @devlink: the instance, its lock held.
 * @ops: the reporter's operations; from after 6.12 (7.2 has it) with
 *	RXB_HEALTH_GRACEFUL_PERIOD(@graceful_period) in their initializer.
 * @graceful_period: ms after a recovery during which a new report is not
 *	recovered automatically; 0 for a reporter without .recover.
 * @priv: the reporter's private data.
 *
 * Up to 6.2 devlink_health_reporter_create() (which takes no instance
 * lock), 6.3 to 6.12 devl_health_reporter_create() with the period as an
 * argument; after 6.12 the period is the ops' default_graceful_period and
 * devl_health_reporter_create() takes none.
 *
 * Return: the reporter or an ERR_PTR().
 */
static inline struct devlink_health_reporter *
rxb_health_reporter_create(struct devlink *devlink,
			   const struct devlink_health_reporter_ops *ops,
			   u64 graceful_period, void *priv)
{
#if defined(HAVE_DEVLINK_HEALTH_OPS_GRACEFUL_PERIOD)
	WARN_ON(ops->default_graceful_period != graceful_period);
	return devl_health_reporter_create(devlink, ops, priv);
#elif defined(HAVE_DEVL_HEALTH_REPORTER_CREATE)
	return devl_health_reporter_create(devlink, ops, graceful_period, priv);
#else
	return devlink_health_reporter_create(devlink, ops, graceful_period,
					      priv);
#endif
}

#ifdef HAVE_DEVLINK_HEALTH_OPS_GRACEFUL_PERIOD
#define RXB_HEALTH_GRACEFUL_PERIOD(ms)	.default_graceful_period = (ms),
#else
#define RXB_HEALTH_GRACEFUL_PERIOD(ms)
#endif

/* 6.2: the devlink core reports the driver's name itself. */
#ifndef HAVE_DEVLINK_INFO_DRIVER_NAME_PUT
static inline int devlink_info_driver_name_put(struct devlink_info_req *req,
					       const char *name)
{
	return 0;
}
#endif

/**
 * rxb_netdev_set_devlink_port() - link a netdev to its devlink port.
 * @dev: the netdev, before register_netdevice().
 * @port: its devlink port (registered), or NULL.
 *
 * From 6.2 the netdev names its port before registering
 * (SET_NETDEV_DEVLINK_PORT) and devlink learns the type from it; before,
 * the driver answered ndo_get_devlink_port and told devlink with
 * rxb_devlink_port_type_eth_set() once the netdev was registered.
 */
static inline void rxb_netdev_set_devlink_port(struct net_device *dev,
					       struct devlink_port *port)
{
#ifdef HAVE_SET_NETDEV_DEVLINK_PORT
	if (port)
		SET_NETDEV_DEVLINK_PORT(dev, port);
#endif
}

/**
 * rxb_devlink_port_type_eth_set() - the port is an Ethernet port of @dev.
 * @port: the devlink port.
 * @dev: its registered netdev.
 *
 * A no-op from 6.2 on (rxb_netdev_set_devlink_port() did it).
 */
static inline void rxb_devlink_port_type_eth_set(struct devlink_port *port,
						 struct net_device *dev)
{
#ifndef HAVE_SET_NETDEV_DEVLINK_PORT
	devlink_port_type_eth_set(port, dev);
#endif
}

/**
 * rxb_devlink_port_type_clear() - the port's netdev is going away.
 * @port: the devlink port.
 *
 * A no-op from 6.2 on: unregistering the netdev clears the type (and
 * devlink_port_type_clear() would warn of a port without a netdev).
 */
static inline void rxb_devlink_port_type_clear(struct devlink_port *port)
{
#ifndef HAVE_SET_NETDEV_DEVLINK_PORT
	devlink_port_type_clear(port);
#endif
}

/* Up to 6.1: .ndo_get_devlink_port; RXB_NDO_GET_DEVLINK_PORT(fn) in a
 * struct net_device_ops initializer sets it where it exists.
 */
#ifdef HAVE_SET_NETDEV_DEVLINK_PORT
#define RXB_NDO_GET_DEVLINK_PORT(fn)
#else
#define RXB_NDO_GET_DEVLINK_PORT(fn)	.ndo_get_devlink_port = fn,
#endif

/* 6.7: devlink_fmsg_*_put() return void (the core checks the message once).
 * rxb_fmsg_*_put() return the error on every kernel: 0 from 6.7 on.
 */
#ifdef HAVE_DEVLINK_FMSG_PUT_VOID
#define RXB_FMSG_PUT(call)	({ call; 0; })
#else
#define RXB_FMSG_PUT(call)	(call)
#endif
#define rxb_fmsg_string_pair_put(fmsg, name, value)			\
	RXB_FMSG_PUT(devlink_fmsg_string_pair_put(fmsg, name, value))
#define rxb_fmsg_u32_pair_put(fmsg, name, value)			\
	RXB_FMSG_PUT(devlink_fmsg_u32_pair_put(fmsg, name, value))
#define rxb_fmsg_bool_pair_put(fmsg, name, value)			\
	RXB_FMSG_PUT(devlink_fmsg_bool_pair_put(fmsg, name, value))
#define rxb_fmsg_u64_pair_put(fmsg, name, value)			\
	RXB_FMSG_PUT(devlink_fmsg_u64_pair_put(fmsg, name, value))
#define rxb_fmsg_obj_nest_start(fmsg)					\
	RXB_FMSG_PUT(devlink_fmsg_obj_nest_start(fmsg))
#define rxb_fmsg_obj_nest_end(fmsg)					\
	RXB_FMSG_PUT(devlink_fmsg_obj_nest_end(fmsg))
#define rxb_fmsg_arr_pair_nest_start(fmsg, name)			\
	RXB_FMSG_PUT(devlink_fmsg_arr_pair_nest_start(fmsg, name))
#define rxb_fmsg_arr_pair_nest_end(fmsg)				\
	RXB_FMSG_PUT(devlink_fmsg_arr_pair_nest_end(fmsg))

/* 6.10: __assign_str() takes the field only (__string() names the source). */
#ifdef HAVE_ASSIGN_STR_ONE_ARG
#define rxb_assign_str(dst, src)	__assign_str(dst)
#else
#define rxb_assign_str(dst, src)	__assign_str(dst, src)
#endif

/* 6.8: ethtool get_rxfh()/set_rxfh() take a struct ethtool_rxfh_param (and
 * set_rxfh() an extack).  The driver's callbacks have the newer signature;
 * RXB_ETHTOOL_RXFH(get, set) names them in struct ethtool_ops, and
 * RXB_ETHTOOL_RXFH_DEFINE(get, set) (after both) defines the wrappers older
 * kernels call (with a NULL extack).
 */
#ifdef HAVE_ETHTOOL_RXFH_PARAM
#define RXB_ETHTOOL_RXFH(get, set)	.get_rxfh = get, .set_rxfh = set
#define RXB_ETHTOOL_RXFH_DEFINE(get, set)
#else
struct ethtool_rxfh_param {
	u8	hfunc;
	u32	*indir;
	u8	*key;
	u32	rss_context;
};

#define RXB_ETHTOOL_RXFH(get, set)				\
	.get_rxfh = get##_noparam, .set_rxfh = set##_noparam
#define RXB_ETHTOOL_RXFH_DEFINE(get, set)				\
static int get##_noparam(struct net_device *dev, u32 *indir, u8 *key,	\
			 u8 *hfunc)					\
{									\
	struct ethtool_rxfh_param rxfh = { .indir = indir, .key = key };	\
	int err = get(dev, &rxfh);					\
									\
	if (!err && hfunc)						\
		*hfunc = rxfh.hfunc;					\
	return err;							\
}									\
static int set##_noparam(struct net_device *dev, const u32 *indir,	\
			 const u8 *key, const u8 hfunc)			\
{									\
	struct ethtool_rxfh_param rxfh = {				\
		.hfunc = hfunc,						\
		.indir = (u32 *)indir,					\
		.key = (u8 *)key,					\
	};								\
									\
	return set(dev, &rxfh, NULL);					\
}
#endif

/* Additional RSS contexts (ethtool -X IF context new|N ...).  The driver's
 * callbacks: set(dev, ctx, rxfh, create, extack) creates (@create) or
 * modifies context rxfh->rss_context, remove(dev, ctx, id, extack) as
 * 6.11's, get_rxfh() reads the context rxfh->rss_context names, and
 * alloc(dev) returns a free id or a negative error.
 * RXB_ETHTOOL_RXFH_CONTEXTS(max, get, set, remove, alloc) names them in
 * struct ethtool_ops (ids below max, a key per context),
 * RXB_ETHTOOL_RXFH_CONTEXTS_DEFINE(...) (after them) defines the wrappers
 * the kernel calls, and rxb_rxfh_ctx_store(ctx, indir, key, hfunc) gives
 * the core what a new context holds.
 *   6.11+: the core allocates the ids (alloc is not used) and keeps a copy
 *	of each context (struct ethtool_rxfh_context), which it reads back
 *	for ethtool -x ... context N.
 *   up to 6.7: get_rxfh_context() and set_rxfh_context(), the driver
 *	allocating the id (alloc); no copy in the core: @ctx is NULL.
 *   6.8 to 6.10 (contexts through set_rxfh() and cap_rss_ctx_supported):
 *	not supported, no context can be created.
 */
#if defined(HAVE_ETHTOOL_RXFH_CONTEXT_OPS)
#define RXB_ETHTOOL_RXFH_CONTEXTS(max, get, set, remove, alloc)	\
	.rxfh_max_num_contexts = (max), .rxfh_per_ctx_key = 1,		\
	.create_rxfh_context = set##_create,				\
	.modify_rxfh_context = set##_modify,				\
	.remove_rxfh_context = remove,
#define RXB_RXFH_CTX_OP(set, op, create)				\
static int set##_##op(struct net_device *dev,				\
		      struct ethtool_rxfh_context *ctx,			\
		      const struct ethtool_rxfh_param *rxfh,		\
		      struct netlink_ext_ack *extack)			\
{									\
	return set(dev, ctx, rxfh, create, extack);			\
}

#define RXB_ETHTOOL_RXFH_CONTEXTS_DEFINE(get, set, remove, alloc)	\
	RXB_RXFH_CTX_OP(set, create, true)				\
	RXB_RXFH_CTX_OP(set, modify, false)

static inline void rxb_rxfh_ctx_store(struct ethtool_rxfh_context *ctx,
				      const u32 *indir, const u8 *key,
				      u8 hfunc)
{
	memcpy(ethtool_rxfh_context_indir(ctx), indir,
	       ctx->indir_size * sizeof(*indir));
	memcpy(ethtool_rxfh_context_key(ctx), key, ctx->key_size);
	ctx->hfunc = hfunc;
}
#elif defined(HAVE_ETHTOOL_SET_RXFH_CONTEXT)
struct ethtool_rxfh_context;

#define RXB_ETHTOOL_RXFH_CONTEXTS(max, get, set, remove, alloc)	\
	.get_rxfh_context = get##_ctx, .set_rxfh_context = set##_legacy,
#define RXB_ETHTOOL_RXFH_CONTEXTS_DEFINE(get, set, remove, alloc)	\
static int get##_ctx(struct net_device *dev, u32 *indir, u8 *key,	\
		     u8 *hfunc, u32 rss_context)			\
{									\
	struct ethtool_rxfh_param rxfh = {				\
		.indir = indir, .key = key, .rss_context = rss_context,	\
	};								\
	int err = get(dev, &rxfh);					\
									\
	if (!err && hfunc)						\
		*hfunc = rxfh.hfunc;					\
	return err;							\
}									\
static int set##_legacy(struct net_device *dev, const u32 *indir,	\
			const u8 *key, const u8 hfunc,			\
			u32 *rss_context, bool delete)			\
{									\
	struct ethtool_rxfh_param rxfh = {				\
		.hfunc = hfunc, .indir = (u32 *)indir, .key = (u8 *)key, \
		.rss_context = *rss_context,				\
	};								\
	int id, err;							\
									\
	if (delete)							\
		return remove(dev, NULL, *rss_context, NULL);		\
	if (*rss_context != ETH_RXFH_CONTEXT_ALLOC)			\
		return set(dev, NULL, &rxfh, false, NULL);		\
	id = alloc(dev);						\
	if (id < 0)							\
		return id;						\
	rxfh.rss_context = id;						\
	err = set(dev, NULL, &rxfh, true, NULL);			\
	if (!err)							\
		*rss_context = id;					\
	return err;							\
}

static inline void rxb_rxfh_ctx_store(struct ethtool_rxfh_context *ctx,
				      const u32 *indir, const u8 *key,
				      u8 hfunc)
{
}
#else
struct ethtool_rxfh_context;

#define RXB_ETHTOOL_RXFH_CONTEXTS(max, get, set, remove, alloc)
#define RXB_ETHTOOL_RXFH_CONTEXTS_DEFINE(get, set, remove, alloc)

static inline void rxb_rxfh_ctx_store(struct ethtool_rxfh_context *ctx,
				      const u32 *indir, const u8 *key,
				      u8 hfunc)
{
}
#endif

/* The RSS hash fields of a flow type (ethtool -N IF rx-flow-hash T F,
 * ethtool -n IF rx-flow-hash T).  The driver's callbacks have the newer
 * signatures, get(dev, fields) and set(dev, fields, extack);
 * RXB_ETHTOOL_RXFH_FIELDS(get, set) names them in struct ethtool_ops where
 * the kernel has get_rxfh_fields() (6.16, and Debian's 6.12), and
 * rxb_rxnfc_rxfh_fields(dev, info, get, set), called by get_rxnfc() and
 * set_rxnfc() for ETHTOOL_GRXFH and ETHTOOL_SRXFH, calls them where the
 * kernel asks through those (-EOPNOTSUPP elsewhere: never asked).
 */
#ifdef HAVE_ETHTOOL_RXFH_FIELDS
#define RXB_ETHTOOL_RXFH_FIELDS(get, set)				\
	.get_rxfh_fields = get, .set_rxfh_fields = set,
#define rxb_rxnfc_rxfh_fields(dev, info, get, set)	(-EOPNOTSUPP)
#else
struct ethtool_rxfh_fields {
	u32 data;
	u32 flow_type;
	u32 rss_context;
};

#define RXB_ETHTOOL_RXFH_FIELDS(get, set)

static inline int
rxb_rxnfc_rxfh_fields(struct net_device *dev, struct ethtool_rxnfc *info,
		      int (*get)(struct net_device *dev,
				 struct ethtool_rxfh_fields *f),
		      int (*set)(struct net_device *dev,
				 const struct ethtool_rxfh_fields *f,
				 struct netlink_ext_ack *extack))
{
	struct ethtool_rxfh_fields f = {
		.data = info->data,
		.flow_type = info->flow_type & ~FLOW_RSS,
		.rss_context = info->flow_type & FLOW_RSS ?
			       info->rss_context : 0,
	};
	int err;

	if (info->cmd == ETHTOOL_SRXFH)
		return set(dev, &f, NULL);
	err = get(dev, &f);
	if (!err)
		info->data = f.data;
	return err;
}
#endif

/* After 6.12 (7.2 has it): the ethtool core asks get_rx_ring_count() for
 * the receive ring count (checking RSS indirection entries against it),
 * no longer get_rxnfc(ETHTOOL_GRXRINGS), which older kernels ask.
 * RXB_ETHTOOL_RX_RING_COUNT(fn) in a struct ethtool_ops initializer sets
 * it where it exists.
 */
#ifdef HAVE_ETHTOOL_GET_RX_RING_COUNT
#define RXB_ETHTOOL_RX_RING_COUNT(fn)	.get_rx_ring_count = fn,
#else
#define RXB_ETHTOOL_RX_RING_COUNT(fn)
#endif

/* 6.11: ethtool_ops.get_ts_info takes struct kernel_ethtool_ts_info, the
 * uAPI struct ethtool_ts_info before; the driver fills either by name.
 */
#ifdef HAVE_KERNEL_ETHTOOL_TS_INFO
#define rxb_ethtool_ts_info	kernel_ethtool_ts_info
#else
#define rxb_ethtool_ts_info	ethtool_ts_info
#endif

/* 6.6: ndo_hwtstamp_get/set (struct kernel_hwtstamp_config, an extack);
 * before, SIOCSHWTSTAMP/SIOCGHWTSTAMP reach ndo_eth_ioctl with the uAPI
 * struct hwtstamp_config in user memory.  The driver implements the 6.6
 * callbacks on every kernel (the struct's fields are defined here before
 * 6.6) and an ioctl that calls rxb_hwtstamp_ioctl() with them;
 * RXB_NDO_HWTSTAMP(get, set, ioctl) in a struct net_device_ops
 * initializer sets whichever the kernel calls.
 */
#include <linux/net_tstamp.h>

struct kernel_hwtstamp_config;
struct netlink_ext_ack;

/* The 6.6 callbacks rxb_hwtstamp_ioctl() calls. */
typedef int (*rxb_hwtstamp_get_t)(struct net_device *dev,
				  struct kernel_hwtstamp_config *c);
typedef int (*rxb_hwtstamp_set_t)(struct net_device *dev,
				  struct kernel_hwtstamp_config *c,
				  struct netlink_ext_ack *extack);

#ifdef HAVE_NDO_HWTSTAMP
#define RXB_NDO_HWTSTAMP(get, set, ioctl) \
	.ndo_hwtstamp_get = get, .ndo_hwtstamp_set = set,

static inline int
rxb_hwtstamp_ioctl(struct net_device *dev, struct ifreq *ifr, int cmd,
		   rxb_hwtstamp_get_t get, rxb_hwtstamp_set_t set)
{
	return -EOPNOTSUPP;	/* the core calls get and set itself */
}
#else
#include <linux/sockios.h>
#include <linux/uaccess.h>

#define RXB_NDO_HWTSTAMP(get, set, ioctl)	.ndo_eth_ioctl = ioctl,

/* The fields of 6.6's struct kernel_hwtstamp_config the driver uses. */
struct kernel_hwtstamp_config {
	int flags;
	int tx_type;
	int rx_filter;
};

/* ndo_eth_ioctl's SIOCSHWTSTAMP/SIOCGHWTSTAMP through the 6.6 callbacks. */
static inline int
rxb_hwtstamp_ioctl(struct net_device *dev, struct ifreq *ifr, int cmd,
		   rxb_hwtstamp_get_t get, rxb_hwtstamp_set_t set)
{
	struct kernel_hwtstamp_config k;
	struct hwtstamp_config c;
	int err;

	if (cmd != SIOCSHWTSTAMP && cmd != SIOCGHWTSTAMP)
		return -EOPNOTSUPP;
	if (cmd == SIOCSHWTSTAMP) {
		if (copy_from_user(&c, ifr->ifr_data, sizeof(c)))
			return -EFAULT;
		k.flags = c.flags;
		k.tx_type = c.tx_type;
		k.rx_filter = c.rx_filter;
		err = set(dev, &k, NULL);
	} else {
		err = get(dev, &k);
	}
	if (err)
		return err;
	c.flags = k.flags;
	c.tx_type = k.tx_type;
	c.rx_filter = k.rx_filter;
	return copy_to_user(ifr->ifr_data, &c, sizeof(c)) ? -EFAULT : 0;
}
#endif

/* 6.9: per-queue statistics in the netdev netlink family (qstats).  The
 * driver fills the newer structures on every kernel (the fields it uses
 * are defined here on older ones); rxb_netdev_set_stat_ops() installs the
 * callbacks where the kernel has them and does nothing before (ethtool -S
 * shows the same counters there).
 */
#ifdef HAVE_NETDEV_STAT_OPS
#include <net/netdev_queues.h>

static inline void rxb_netdev_set_stat_ops(struct net_device *dev,
					   const struct netdev_stat_ops *ops)
{
	dev->stat_ops = ops;
}
#else
struct netdev_queue_stats_rx {
	u64 bytes;
	u64 packets;
	u64 alloc_fail;
	u64 hw_drops;
	u64 hw_drop_overruns;
};

struct netdev_queue_stats_tx {
	u64 bytes;
	u64 packets;
	u64 hw_drops;
	u64 stop;
	u64 wake;
};

struct netdev_stat_ops {
	void (*get_queue_stats_rx)(struct net_device *dev, int idx,
				   struct netdev_queue_stats_rx *stats);
	void (*get_queue_stats_tx)(struct net_device *dev, int idx,
				   struct netdev_queue_stats_tx *stats);
	void (*get_base_stats)(struct net_device *dev,
			       struct netdev_queue_stats_rx *rx,
			       struct netdev_queue_stats_tx *tx);
};

static inline void rxb_netdev_set_stat_ops(struct net_device *dev,
					   const struct netdev_stat_ops *ops)
{
}
#endif

/* 6.13: netif_napi_add_config().  NAPI instance N keeps its id and its
 * settings (defer-hard-irqs, gro-flush-timeout, ...) in dev->napi_config[N]
 * across napi_disable() and napi_enable() and across rebuilds.  Without a
 * config, from 6.13 an instance enabled again alone (a queue restart) gets
 * a new id, and the device's NAPI list, which the netdev netlink napi dump
 * expects sorted by id, no longer is (a WARN in netdev_nl_napi_dump_one()
 * on 7.2).  Before 6.13, plain netif_napi_add().
 */
#ifndef HAVE_NETIF_NAPI_ADD_CONFIG
static inline void netif_napi_add_config(struct net_device *dev,
					 struct napi_struct *napi,
					 int (*poll)(struct napi_struct *, int),
					 int index)
{
	netif_napi_add(dev, napi, poll);
}
#endif

/**
 * rxb_channel_set_napi() - name the NAPI instance of channel @q.
 * @dev: the netdev; RTNL held.
 * @q: channel: receive queue @q and transmit queue @q.
 * @napi: its NAPI instance (added), or NULL to unlink it before the NAPI
 *	instance goes away.
 *
 * From 6.8 the netdev netlink family reports each queue's NAPI id
 * (queue-get); nothing before.
 */
static inline void rxb_channel_set_napi(struct net_device *dev,
					unsigned int q,
					struct napi_struct *napi)
{
#ifdef HAVE_NETIF_QUEUE_SET_NAPI
	netif_queue_set_napi(dev, q, NETDEV_QUEUE_TYPE_RX, napi);
	netif_queue_set_napi(dev, q, NETDEV_QUEUE_TYPE_TX, napi);
#endif
}

/**
 * rxb_pp_params_set_owner() - the netdev and NAPI instance of a page_pool.
 * @pp: the pool's parameters.
 * @dev: its netdev.
 * @napi: the NAPI instance that allocates from it (added before the pool
 *	is created, deleted after it is destroyed).
 *
 * From 6.8 such a pool is listed by the page-pool netlink introspection
 * with its ifindex and NAPI id, and recycles pages directly into its cache
 * when they are freed on the CPU its NAPI instance runs on (as every
 * driver's pools on that kernel).  Nothing before.
 */
static inline void rxb_pp_params_set_owner(struct page_pool_params *pp,
					   struct net_device *dev,
					   struct napi_struct *napi)
{
#ifdef HAVE_PAGE_POOL_PARAMS_NETDEV
	pp->netdev = dev;
	pp->napi = napi;
#endif
}

/**
 * rxb_page_pool_disable_direct_recycling() - unlink a pool from its NAPI.
 * @pool: a pool whose NAPI instance is disabled.
 *
 * Before a pool is destroyed while its NAPI instance runs again (a queue
 * restarted with a new pool): from 6.9 page_pool_destroy() expects the
 * NAPI instance disabled unless this was done.  Nothing before (no pool
 * knows its NAPI instance).
 */
static inline void rxb_page_pool_disable_direct_recycling(struct page_pool *pool)
{
#ifdef HAVE_PAGE_POOL_DISABLE_DIRECT_RECYCLING
	page_pool_disable_direct_recycling(pool);
#endif
}

/**
 * rxb_page_pool_discard() - destroy a pool no NAPI instance ever used.
 * @pool: a pool made for a queue restart that did not happen; its NAPI
 *	instance still runs the queue on its old pool.
 *
 * From 6.9 page_pool_destroy() asserts that the pool's NAPI instance is
 * disabled, since it could be recycling into the pool; this one never
 * reached it, so it is unlinked first.  Before 6.8 no pool knows its NAPI
 * instance.
 */
static inline void rxb_page_pool_discard(struct page_pool *pool)
{
#ifdef HAVE_PAGE_POOL_PARAMS_NETDEV
	WRITE_ONCE(pool->p.napi, NULL);
#endif
	page_pool_destroy(pool);
}

/* 6.10: the queue management API (one receive queue restarted alone).  The
 * driver's callbacks have the newest signatures (mem_alloc and start take
 * the queue's struct netdev_queue_config, which the driver does not use:
 * after 6.12, 7.2 has it); RXB_QUEUE_MGMT_OPS(alloc, free, start, stop)
 * initializes a struct netdev_queue_mgmt_ops with them, and
 * RXB_QUEUE_MGMT_OPS_DEFINE(alloc, start) (after both) defines the wrappers
 * 6.10 to 6.12 call.  rxb_netdev_set_queue_mgmt_ops() installs the ops
 * where the kernel has the API and the driver can take it: not from 6.15,
 * where queue_mgmt_ops makes the core call every ndo and ethtool op under
 * the netdev instance lock (netdev_need_ops_lock()), and napi_enable(),
 * netif_napi_add() and the like would take that lock again: the driver
 * is not written for the instance lock yet (Documentation/kernels.rst).
 * There, as on 6.1, the driver's own restart (rxb_rx_queue_restart())
 * calls the same callbacks.
 */
#ifdef HAVE_NETDEV_QUEUE_MGMT_OPS
#ifdef HAVE_NETDEV_QUEUE_CONFIG
#define RXB_QUEUE_MGMT_OPS(alloc, free, start, stop)			\
	.ndo_queue_mem_alloc = alloc, .ndo_queue_mem_free = free,	\
	.ndo_queue_start = start, .ndo_queue_stop = stop
#define RXB_QUEUE_MGMT_OPS_DEFINE(alloc, start)
#else
struct netdev_queue_config;

#define RXB_QUEUE_MGMT_OPS(alloc, free, start, stop)			\
	.ndo_queue_mem_alloc = alloc##_noqcfg,				\
	.ndo_queue_mem_free = free,					\
	.ndo_queue_start = start##_noqcfg, .ndo_queue_stop = stop
#define RXB_QUEUE_MGMT_OPS_DEFINE(alloc, start)				\
static int alloc##_noqcfg(struct net_device *dev, void *mem, int idx)	\
{									\
	return alloc(dev, NULL, mem, idx);				\
}									\
static int start##_noqcfg(struct net_device *dev, void *mem, int idx)	\
{									\
	return start(dev, NULL, mem, idx);				\
}
#endif

static inline void
rxb_netdev_set_queue_mgmt_ops(struct net_device *dev,
			      const struct netdev_queue_mgmt_ops *ops)
{
#ifndef HAVE_NETDEV_OPS_LOCK
	dev->queue_mgmt_ops = ops;
#endif
}
#else
struct netdev_queue_config;

struct netdev_queue_mgmt_ops {
	size_t	ndo_queue_mem_size;
	int	(*ndo_queue_mem_alloc)(struct net_device *dev,
				       struct netdev_queue_config *qcfg,
				       void *per_queue_mem, int idx);
	void	(*ndo_queue_mem_free)(struct net_device *dev,
				      void *per_queue_mem);
	int	(*ndo_queue_start)(struct net_device *dev,
				   struct netdev_queue_config *qcfg,
				   void *per_queue_mem, int idx);
	int	(*ndo_queue_stop)(struct net_device *dev, void *per_queue_mem,
				  int idx);
};

#define RXB_QUEUE_MGMT_OPS(alloc, free, start, stop)			\
	.ndo_queue_mem_alloc = alloc, .ndo_queue_mem_free = free,	\
	.ndo_queue_start = start, .ndo_queue_stop = stop
#define RXB_QUEUE_MGMT_OPS_DEFINE(alloc, start)

static inline void
rxb_netdev_set_queue_mgmt_ops(struct net_device *dev,
			      const struct netdev_queue_mgmt_ops *ops)
{
}
#endif

/* 6.3: a driver advertises its XDP features (net_device.xdp_features);
 * devmap refuses to redirect to a device without NETDEV_XDP_ACT_NDO_XMIT.
 * Up to 6.2 there is nothing to advertise.
 */
#ifdef HAVE_XDP_FEATURES
#include <net/xdp.h>

static inline void rxb_xdp_set_features(struct net_device *dev, bool zc)
{
	/* Zero-copy AF_XDP where the ring model and the configuration take
	 * it (@zc, xsk.c); multi-buffer frames in (scatter buffers, rx.c)
	 * and out (ndo_xdp_xmit builds an skb with the frame's fragments).
	 * A change is announced (netdev netlink, NETDEV_XDP_FEAT_CHANGE).
	 */
	xdp_set_features_flag(dev, NETDEV_XDP_ACT_BASIC |
			      NETDEV_XDP_ACT_REDIRECT |
			      NETDEV_XDP_ACT_NDO_XMIT |
			      (zc ? NETDEV_XDP_ACT_XSK_ZEROCOPY : 0) |
			      NETDEV_XDP_ACT_RX_SG |
			      NETDEV_XDP_ACT_NDO_XMIT_SG);
}
#else
static inline void rxb_xdp_set_features(struct net_device *dev, bool zc)
{
}
#endif

/* 6.3: XDP metadata kfuncs, a driver's struct xdp_metadata_ops; 6.5: the
 * RSS hash with its type.  rxb_netdev_set_xdp_metadata_ops() installs the
 * driver's ops where the kernel has them (with the hash type) and does
 * nothing before.
 */
#ifdef HAVE_XDP_METADATA_OPS
#include <net/xdp.h>

static inline void
rxb_netdev_set_xdp_metadata_ops(struct net_device *dev,
				const struct xdp_metadata_ops *ops)
{
	dev->xdp_metadata_ops = ops;
}
#else
/* The driver builds its ops on every kernel; before 6.5 they are not
 * installed.  Renamed: 6.3 and 6.4 have a struct xdp_metadata_ops of
 * their own, without the hash type.
 */
#define xdp_metadata_ops	rxb_compat_xdp_metadata_ops
#define xdp_rss_hash_type	rxb_compat_xdp_rss_hash_type

enum xdp_rss_hash_type {
	XDP_RSS_TYPE_L2 = 0,
	XDP_RSS_TYPE_L3_IPV4 = 1,
	XDP_RSS_TYPE_L3_IPV6 = 2,
	XDP_RSS_TYPE_L4_IPV4_TCP = 1 | 8 | 16,
	XDP_RSS_TYPE_L4_IPV4_UDP = 1 | 8 | 32,
	XDP_RSS_TYPE_L4_IPV6_TCP = 2 | 8 | 16,
	XDP_RSS_TYPE_L4_IPV6_UDP = 2 | 8 | 32,
};

struct xdp_md;

struct xdp_metadata_ops {
	int (*xmo_rx_timestamp)(const struct xdp_md *ctx, u64 *timestamp);
	int (*xmo_rx_hash)(const struct xdp_md *ctx, u32 *hash,
			   enum xdp_rss_hash_type *rss_type);
};

static inline void
rxb_netdev_set_xdp_metadata_ops(struct net_device *dev,
				const struct xdp_metadata_ops *ops)
{
}
#endif

/* 6.3, with the XDP features: devmap and bpf_redirect() take multi-buffer
 * frames (to a device advertising NETDEV_XDP_ACT_NDO_XMIT_SG); up to 6.2
 * only a cpumap does (xdp_do_redirect()).
 */
#ifdef HAVE_XDP_FEATURES
#define RXB_XDP_REDIRECT_FRAGS	true
#else
#define RXB_XDP_REDIRECT_FRAGS	false
#endif

/* 6.10: xsk_buff_dma_sync_for_cpu() finds the pool itself. */
#include <net/xdp_sock_drv.h>

static inline void rxb_xsk_buff_dma_sync_for_cpu(struct xdp_buff *xdp,
						 struct xsk_buff_pool *pool)
{
#ifdef HAVE_XSK_BUFF_DMA_SYNC_NO_POOL
	xsk_buff_dma_sync_for_cpu(xdp);
#else
	xsk_buff_dma_sync_for_cpu(xdp, pool);
#endif
}

/* After 6.1 (6.12 has it): ethtool -G tcp-data-split, the driver opting
 * in with ETHTOOL_RING_USE_TCP_DATA_SPLIT; 6.1 only reports the setting.
 */
#ifdef HAVE_ETHTOOL_RING_USE_TCP_DATA_SPLIT
#define RXB_RING_PARAMS		ETHTOOL_RING_USE_TCP_DATA_SPLIT
#else
#define RXB_RING_PARAMS		0
#endif

/* 6.5: skb_frag_fill_page_desc(); before, the fields one by one. */
#ifdef HAVE_SKB_FRAG_FILL_PAGE_DESC
static inline void rxb_skb_frag_fill(skb_frag_t *frag, struct page *page,
				     u32 off, u32 size)
{
	skb_frag_fill_page_desc(frag, page, off, size);
}
#else
static inline void rxb_skb_frag_fill(skb_frag_t *frag, struct page *page,
				     u32 off, u32 size)
{
	__skb_frag_set_page(frag, page);
	skb_frag_off_set(frag, off);
	skb_frag_size_set(frag, size);
}
#endif

/* After 6.12 (7.2 has it): xdp_update_skb_frags_info() takes the frame's
 * XDP_FLAGS_FRAGS_* flags; before, xdp_update_skb_shared_info() took the
 * pfmemalloc bit alone.
 */
#ifndef HAVE_XDP_UPDATE_SKB_FRAGS_INFO
static inline void xdp_update_skb_frags_info(struct sk_buff *skb, u8 nr_frags,
					     unsigned int size,
					     unsigned int truesize,
					     u32 xdp_flags)
{
	xdp_update_skb_shared_info(skb, nr_frags, size, truesize,
				   !!(xdp_flags & XDP_FLAGS_FRAGS_PF_MEMALLOC));
}
#endif

/* GHASH keyed with H, for the kTLS offload's NIC (hw/nic_tls.c): the
 * library's (crypto/gf128hash.h, after 6.18) or, before, the crypto API's
 * "ghash" shash.  rxb_ghash_setkey() may sleep; the rest runs in any
 * context.
 */
#ifdef HAVE_CRYPTO_GF128HASH
#include <crypto/gf128hash.h>
struct rxb_ghash {
	struct ghash_key key;
	struct ghash_ctx ctx;
};

static inline int rxb_ghash_setkey(struct rxb_ghash *g, const u8 h[16])
{
	ghash_preparekey(&g->key, h);
	return 0;
}

static inline void rxb_ghash_init(struct rxb_ghash *g)
{
	ghash_init(&g->ctx, &g->key);
}

static inline void rxb_ghash_update(struct rxb_ghash *g, const u8 *p,
				    unsigned int len)
{
	ghash_update(&g->ctx, p, len);
}

static inline void rxb_ghash_final(struct rxb_ghash *g, u8 out[16])
{
	ghash_final(&g->ctx, out);
}

static inline void rxb_ghash_free(struct rxb_ghash *g)
{
	memzero_explicit(g, sizeof(*g));
}
#else
#include <crypto/hash.h>
struct rxb_ghash {
	struct crypto_shash *tfm;
	struct shash_desc *desc;
};

static inline int rxb_ghash_setkey(struct rxb_ghash *g, const u8 h[16])
{
	struct crypto_shash *tfm = crypto_alloc_shash("ghash", 0, 0);

	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	g->tfm = tfm;
	g->desc = kzalloc(sizeof(*g->desc) + crypto_shash_descsize(tfm),
			  GFP_KERNEL);
	if (!g->desc)
		return -ENOMEM;
	g->desc->tfm = tfm;
	return crypto_shash_setkey(tfm, h, 16);
}

static inline void rxb_ghash_init(struct rxb_ghash *g)
{
	crypto_shash_init(g->desc);
}

static inline void rxb_ghash_update(struct rxb_ghash *g, const u8 *p,
				    unsigned int len)
{
	crypto_shash_update(g->desc, p, len);
}

static inline void rxb_ghash_final(struct rxb_ghash *g, u8 out[16])
{
	crypto_shash_final(g->desc, out);
}

static inline void rxb_ghash_free(struct rxb_ghash *g)
{
	kfree_sensitive(g->desc);
	if (g->tfm)
		crypto_free_shash(g->tfm);
}
#endif

/* 6.13: hrtimer_setup() initializes a timer and sets its callback. */
#ifndef HAVE_HRTIMER_SETUP
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/* 6.2: timer_delete_sync(); after 6.12 del_timer_sync() is gone. */
#ifndef HAVE_TIMER_DELETE_SYNC
#define timer_delete_sync(timer)	del_timer_sync(timer)
#endif

/* 6.16: timer_container_of(); from_timer() is gone. */
#ifndef HAVE_TIMER_CONTAINER_OF
#define timer_container_of(var, timer, field)	from_timer(var, timer, field)
#endif

/**
 * rxb_debugfs_rename() - give a debugfs directory a new name, in place.
 * @dentry: the directory.
 * @name: its new name.
 *
 * From 6.13 debugfs_change_name(); before, debugfs_rename() in the same
 * parent (which returns the same dentry).
 *
 * Return: 0 or a negative error (the old name stays).
 */
static inline int rxb_debugfs_rename(struct dentry *dentry, const char *name)
{
#ifdef HAVE_DEBUGFS_CHANGE_NAME
	return debugfs_change_name(dentry, "%s", name);
#else
	struct dentry *d = debugfs_rename(dentry->d_parent, dentry,
					  dentry->d_parent, name);

	return PTR_ERR_OR_ZERO(d);
#endif
}

/* 6.15: rtnl_link_ops.newlink() takes its netns and attributes in a struct
 * rtnl_newlink_params.  The driver's newlink() has the newer signature;
 * RXB_RTNL_NEWLINK(fn) names it in struct rtnl_link_ops, and
 * RXB_RTNL_NEWLINK_DEFINE(fn) (after it) defines the wrapper older kernels
 * call, whose src_net is the link netns (IFLA_LINK_NETNSID's, else the
 * caller's): what rtnl_newlink_link_net() gives.
 */
#ifdef HAVE_RTNL_NEWLINK_PARAMS
#define RXB_RTNL_NEWLINK(fn)		.newlink = fn
#define RXB_RTNL_NEWLINK_DEFINE(fn)
#else
struct rtnl_newlink_params {
	struct net *src_net;
	struct net *link_net;
	struct nlattr **tb;
	struct nlattr **data;
};

static inline struct net *rtnl_newlink_link_net(struct rtnl_newlink_params *p)
{
	return p->link_net ? : p->src_net;
}

#define RXB_RTNL_NEWLINK(fn)		.newlink = fn##_noparams
#define RXB_RTNL_NEWLINK_DEFINE(fn)					\
static int fn##_noparams(struct net *src_net, struct net_device *dev,	\
			 struct nlattr *tb[], struct nlattr *data[],	\
			 struct netlink_ext_ack *extack)		\
{									\
	struct rtnl_newlink_params params = {				\
		.src_net = src_net, .tb = tb, .data = data,		\
	};								\
									\
	return fn(dev, &params, extack);				\
}
#endif

#endif /* _RXB_COMPAT_H */
