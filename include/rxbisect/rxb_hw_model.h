/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rxbisect ring models: the hardware half's interface (the NIC side).
 *
 * A ring model's hardware half is an object of the emulated NIC: the
 * receive context creates it with the context's configuration and register
 * space (struct rxb_bar), starts it once the driver has programmed the
 * ring registers, and runs it only in the NIC's own context: the receive
 * engine (inline, in the context of the sender that put the frame on the
 * wire, or its dedicated thread), the NIC's timers and its doorbell
 * service.  The NIC's services (interrupt vectors, timer, clock, DMA
 * engine, interconnect counters, on-NIC memory) come through struct
 * rxb_hw_ops.  The half reaches the driver only through ring memory in
 * host RAM (mapped with rxb_hw_dma_map() from the addresses the driver
 * wrote into its base registers) and the registers of rxb_desc.h; it keeps
 * its statistics and debug registers in the register space, where the
 * driver reads them.
 *
 * No driver file may include this header (RXB_DRIVER_SIDE).
 */
#ifndef _RXB_HW_MODEL_H
#define _RXB_HW_MODEL_H

#ifdef RXB_DRIVER_SIDE
#error "the driver reaches the NIC only through ring memory and registers (rxb_desc.h)"
#endif

#include <linux/types.h>
#include <linux/compiler.h>
#include <asm/byteorder.h>
#include <rxbisect/rxb_model.h>
#include <rxbisect/rxb_desc.h>

struct rxb_hw_model;
struct rxb_layout;
struct rxb_nicmem;

/**
 * struct rxb_nic_tuple - what the parser extracts from a frame: the flow
 * key of the flow table and of the ntuple rules, the input of RSS.
 * @src: source address (IPv4: @src[0]).
 * @dst: destination address (IPv4: @dst[0]).
 * @sport: TCP/UDP source port (0 unless @proto).
 * @dport: TCP/UDP destination port (0 unless @proto).
 * @family: 4 or 6 for IP frames, 0 otherwise.
 * @proto: IPPROTO_TCP or IPPROTO_UDP when the ports were parsed (not an
 *	IPv4 fragment, header complete), 0 otherwise.
 * @pad: zero.
 *
 * Zeroed first and filled field by field, so memcmp() compares keys.
 */
struct rxb_nic_tuple {
	__be32 src[4];
	__be32 dst[4];
	__be16 sport;
	__be16 dport;
	u8 family;
	u8 proto;
	u8 pad[2];
};

/**
 * struct rxb_frame - a frame arriving at the emulated NIC.
 * @data: opaque handle passed back to rxb_hw_ops.dma_write.
 * @len: frame length in bytes, from the Ethernet header on.
 * @hash: RSS hash computed by the NIC's parser.
 * @flow: the NIC's flow table entry of the frame's flow: an index below
 *	the table's capacity (the flow_table_size parameter), stable while
 *	the entry lives, or RXB_FLOW_NONE for a frame the table does not
 *	track (not TCP/UDP over IPv4 or IPv6, an IPv4 fragment, or a new
 *	flow that found the table full).  The NIC learns an entry on a
 *	flow's first frame and frees it once no frame arrived for the
 *	flow_idle_ms parameter; it then calls rxb_hw_model_ops.flow_free
 *	with the index before reusing it.  The table belongs to the
 *	receive context: a new model instance starts with an empty one.
 * @flow_new: this frame's flow was learned by this frame.
 * @hash_flags: RXB_CQE_F_L4_HASH / RXB_CQE_F_L3_HASH, or 0.
 * @key: the parser's flow key of the frame, or NULL where the environment
 *	has none (the userspace tests).
 * @ts: the NIC clock's time when the frame arrived (nanoseconds), taken
 *	before any ring work while the port's receive-stamp register is set;
 *	0 when it is not (no stamp).  The model writes it into the stamp
 *	ring's slot of the record that reports the frame
 *	(rxb_hw_tstamp_put(); rxb_desc.h, RXB_TSTAMP).
 */
struct rxb_frame {
	const void *data;
	const struct rxb_nic_tuple *key;
	unsigned int len;
	u64 ts;
	u32 hash;
	u32 flow;
	bool flow_new;
	u8 hash_flags;
};

/**
 * enum rxb_pcie_kind - what a ring model's hardware half moves across the
 * emulated PCIe besides packet data (which the DMA engine counts itself).
 * @RXB_PCIE_META_WR: NIC to host: descriptor, completion or notification
 *	bytes the NIC writes to ring memory.
 * @RXB_PCIE_DESC_RD: host to NIC: descriptor or buffer-address bytes the
 *	NIC reads from ring memory (a read request's payload).
 * @RXB_PCIE_DATA_WR: NIC to host: packet bytes moved from the on-NIC
 *	memory tier into a host buffer (a slow-path fetch); the DMA engine
 *	counts the packet data it writes on arrival itself.
 * @RXB_PCIE_DATA_RD: host to NIC: packet bytes the NIC reads from host
 *	memory to transmit (rxb_hw_ops.tx_read counts its own).
 */
enum rxb_pcie_kind {
	RXB_PCIE_META_WR,
	RXB_PCIE_DESC_RD,
	RXB_PCIE_DATA_WR,
	RXB_PCIE_DATA_RD,
};

/**
 * struct rxb_hw_ring_ops - the DMA engine's writes into a streaming
 * model's data rings (Ensō pipes).
 * @dma_write: as rxb_hw_ops.dma_write, into the ring of @size bytes at bus
 *	address @addr from byte @off on, continuing at the ring's start past
 *	its end (the transfer split in two, as a NIC splits a DMA at a
 *	ring's wrap).
 * @dma_put: write @len bytes the NIC made up (@src: a header it adds to a
 *	frame) to bus address @addr of such a ring.
 */
struct rxb_hw_ring_ops {
	u8 (*dma_write)(void *hw, const struct rxb_frame *frame, u64 addr,
			u32 size, u32 off, u32 *csum);
	void (*dma_put)(void *hw, const void *src, u32 len, u64 addr);
};

/**
 * struct rxb_hw_ops - what a ring model's hardware half needs from the rest
 * of the NIC: interrupt vectors, a timer, a clock and the DMA engine.
 * Every callback gets the @hw the half was created with, and runs in the
 * NIC's context.
 * @raise_irq: an event on queue @q's interrupt vector (under the NIC's
 *	interrupt moderation).
 * @arm_timer: call the model's rxb_hw_model_ops.timer in about @ns
 *	nanoseconds, unless a call is already pending.  May be NULL for an
 *	environment whose models never set one.
 * @now_ns: a monotonic clock.
 * @dma_write: copy @frame into bus address @addr ("DMA").  Returns the
 *	completion flags the transfer adds: RXB_CQE_F_CSUM with *@csum set
 *	when the DMA engine's checksum unit summed the frame (see
 *	rxb_cqe.csum), RXB_CQE_F_DMA_ERR when the write failed (the model
 *	still reports the buffer, with that flag), RXB_CQE_F_SPLIT when the
 *	engine split the frame (nicmem_split), 0 otherwise.
 * @pcie: optional: account @bytes of kind @kind (enum rxb_pcie_kind) for
 *	queue @q on the interconnect counters.  NULL: not counted.
 * @nicmem: optional: the NIC's on-NIC memory tier (struct rxb_nicmem,
 *	include/rxbisect/rxb_nicmem.h) of this context, or NULL if the NIC
 *	has none.
 * @nicmem_write: optional: the NIC writes @frame (from the wire, no host
 *	memory crossed) at offset @off of its memory allocation @addr
 *	(rxb_nicmem_alloc()); the allocation holds @off + frame length.
 * @dma_ptr: optional: the DMA engine's view of the @len bytes at host bus
 *	address @addr, for transfers it runs out of its own memory (a host
 *	fetch from the on-NIC memory tier); they count in the I/O working set
 *	as any DMA write.
 * @dma_map: the NIC's view of @len bytes of ring memory at bus address
 *	@addr, which the driver wrote into a base register: the mapping the
 *	NIC reads descriptors from and writes completions to.  NULL when
 *	the address is not host memory the driver can have given the NIC.
 * @ring: optional: DMA into the data rings of streaming models.
 * @tx_read: optional: the DMA engine reads a frame to transmit, @len
 *	bytes from byte @off of the ring of @size bytes at bus address @addr
 *	(continuing at its start past its end), into the NIC's transmit
 *	buffer, for queue @q's wire (counted as packet data read,
 *	RXB_PCIE_DATA_RD).  Returns 0, -EMSGSIZE when @len is not a frame
 *	the port sends (shorter than an Ethernet header, longer than its
 *	largest frame), -ENOMEM when the buffer has no room.  NULL: the
 *	environment sends nothing.
 * @tx_send: optional (with @tx_read): put the frames @tx_read buffered
 *	on the wire, in order, through the NIC's transmit path to the wire.
 *	Called outside the model's locks (the wire may lead back into a NIC).
 */
struct rxb_hw_ops {
	void (*raise_irq)(void *hw, unsigned int q);
	void (*arm_timer)(void *hw, u64 ns);
	u64 (*now_ns)(void *hw);
	u8 (*dma_write)(void *hw, const struct rxb_frame *frame, u64 addr,
			u32 *csum);
	void (*pcie)(void *hw, unsigned int q, unsigned int kind, u32 bytes);
	struct rxb_nicmem *(*nicmem)(void *hw);
	void (*nicmem_write)(void *hw, const struct rxb_frame *frame, u64 addr,
			     u32 off);
	void *(*dma_ptr)(void *hw, u64 addr, u32 len);
	void *(*dma_map)(void *hw, u64 addr, size_t len);
	const struct rxb_hw_ring_ops *ring;
	int (*tx_read)(void *hw, unsigned int q, u64 addr, u32 size, u32 off,
		       u32 len);
	void (*tx_send)(void *hw);
};

/**
 * struct rxb_hw_model - common head of every hardware-half instance.
 * @ops: the model's hardware half.
 * @cfg: configuration the context was created with.
 * @env: the NIC's services.
 * @hw: their argument.
 * @bar: the register space, as this half sees it.
 */
struct rxb_hw_model {
	const struct rxb_hw_model_ops *ops;
	struct rxb_model_cfg cfg;
	const struct rxb_hw_ops *env;
	void *hw;
	struct rxb_bar bar;
};

/**
 * struct rxb_hw_model_ops - a ring model's hardware half.
 * @name: the model's name (as its driver half's).
 * @layout: what an instance is (struct rxb_layout): what
 *	rxb_hw_model_create() allocates and rxb_hw_model_destroy() frees.
 * @bar_pages: optional: pages of the register space the model uses beyond
 *	page 0 (queues' pages first); default: one per queue.
 * @init: set up instance @m, which rxb_hw_model_create() allocated
 *	(@layout, zeroed) for the configuration @m->cfg (checked by the
 *	driver half's validate), with the services @m->env, @m->hw and the
 *	register space @m->bar (zeroed).  Process context.  Returns 0 or a
 *	negative errno; on error @fini runs.
 * @start: the context is enabled: read the ring base registers the driver
 *	programmed and map the rings (rxb_hw_dma_map()).  Returns 0, or
 *	-EINVAL when a register is not programmed or maps nothing (the
 *	context is not enabled).  Process context, before any other call
 *	but destroy.
 * @fini: optional: free what @init set up, wholly or in part (pointers it
 *	did not set are NULL), and what the NIC holds for the context
 *	(on-NIC memory).  Nothing runs.
 * @rx: deliver @frame to queue @q (chosen by RSS or a steering rule).
 *	Returns 0 when delivered, or the drop cause: -ENOBUFS (no buffer),
 *	-ENOSPC (ring full), -EMSGSIZE (frame longer than buffer).  May run
 *	concurrently for any queues; the model serialises as a NIC pipeline
 *	would.
 * @doorbell: optional: the driver wrote registers in page @page of the
 *	register space since the NIC last looked (posted writes, possibly
 *	several coalesced): act on them.  May run concurrently with @rx and
 *	with itself for other pages.
 * @timer: optional: the timer set with rxb_hw_ops.arm_timer fired.
 * @flow_free: optional: the NIC freed flow table entry @flow, idle for
 *	flow_idle_ms: release any per-flow state (credits).  Called after
 *	every frame that carried @flow has left @rx, before the index is
 *	reused; never concurrently with itself.  Not at teardown.
 * @queue_reset: optional: queue @q's state goes back to power-on (the
 *	queue disabled, its rings about to be reprogrammed by the driver);
 *	the other queues go on.  Only models whose queues share no ring
 *	and lend no buffer have it (the queue management API's restart).
 */
struct rxb_hw_model_ops {
	const char *name;
	const struct rxb_layout *layout;
	u32 (*bar_pages)(const struct rxb_model_cfg *cfg);
	int (*init)(struct rxb_hw_model *m);
	int (*start)(struct rxb_hw_model *m);
	void (*fini)(struct rxb_hw_model *m);
	int (*rx)(struct rxb_hw_model *m, unsigned int q,
		  const struct rxb_frame *frame);
	void (*doorbell)(struct rxb_hw_model *m, u32 page);
	void (*timer)(struct rxb_hw_model *m);
	void (*flow_free)(struct rxb_hw_model *m, u32 flow);
	void (*queue_reset)(struct rxb_hw_model *m, unsigned int q);
};

/**
 * rxb_hw_model_create() - create a ring model's hardware half: allocate an
 *	instance of @ops->layout for @cfg and run @ops->init.
 * @ops: the model's hardware half.
 * @cfg: the context's configuration.
 * @env: the NIC's services.
 * @hw: their argument.
 * @bar: the register space, as the half sees it.
 *
 * Return: the instance, or an ERR_PTR().
 */
struct rxb_hw_model *rxb_hw_model_create(const struct rxb_hw_model_ops *ops,
					 const struct rxb_model_cfg *cfg,
					 const struct rxb_hw_ops *env, void *hw,
					 const struct rxb_bar *bar);

/**
 * rxb_hw_model_destroy() - run the model's fini and free the instance.
 * @m: the instance; nothing runs.
 */
void rxb_hw_model_destroy(struct rxb_hw_model *m);

/*
 * The NIC's context.  Every entry point of a hardware half, and of the
 * NIC's components that do data-path work, runs in it: the environment
 * marks the sections it runs the NIC in (rxb_nic_ctx_enter() /
 * rxb_nic_ctx_exit(), per CPU in the kernel, per thread in userspace),
 * and, when checking is on (the debug_ctx module parameter, always in the
 * userspace tests), rxb_nic_ctx_assert() reports an entry reached from
 * outside such a section: a driver that did the NIC's work in its own
 * call.
 */
#ifdef __KERNEL__
#include <linux/jump_label.h>
DECLARE_STATIC_KEY_FALSE(rxb_nic_ctx_check);
#define rxb_nic_ctx_checking()	static_branch_unlikely(&rxb_nic_ctx_check)
#else
extern bool rxb_nic_ctx_check;
#define rxb_nic_ctx_checking()	READ_ONCE(rxb_nic_ctx_check)
#endif

void rxb_nic_ctx_enter(void);
void rxb_nic_ctx_exit(void);
bool rxb_nic_ctx_in(void);
void rxb_nic_ctx_violation(const char *what);

/* An entry point of the NIC: report a call from outside its context. */
#define rxb_nic_ctx_assert(what) do {					\
	if (rxb_nic_ctx_checking() && !rxb_nic_ctx_in())		\
		rxb_nic_ctx_violation(what);				\
} while (0)

/* The NIC's calls into a hardware half: each an entry point. */
static inline int rxb_hwm_rx(struct rxb_hw_model *m, unsigned int q,
			     const struct rxb_frame *f)
{
	rxb_nic_ctx_assert("rx");
	return m->ops->rx(m, q, f);
}

static inline void rxb_hwm_doorbell(struct rxb_hw_model *m, u32 page)
{
	rxb_nic_ctx_assert("doorbell");
	if (m->ops->doorbell)
		m->ops->doorbell(m, page);
}

static inline void rxb_hwm_timer(struct rxb_hw_model *m)
{
	rxb_nic_ctx_assert("timer");
	if (m->ops->timer)
		m->ops->timer(m);
}

static inline void rxb_hwm_flow_free(struct rxb_hw_model *m, u32 flow)
{
	rxb_nic_ctx_assert("flow_free");
	if (m->ops->flow_free)
		m->ops->flow_free(m, flow);
}

/* Pages of the register space a model instance of @cfg needs, page 0 too. */
static inline u32 rxb_hwm_bar_pages(const struct rxb_hw_model_ops *ops,
				    const struct rxb_model_cfg *cfg)
{
	return 1 + (ops->bar_pages ? ops->bar_pages(cfg) : cfg->nqueues);
}

/* The statistics registers of queue @q (the register space). */
static inline struct rxb_hw_qstats *rxb_hw_qstats(const struct rxb_hw_model *m,
						  unsigned int q)
{
	return rxb_bar_qstats(&m->bar, q);
}

/* A model's calls into the NIC's services (struct rxb_hw_ops). */
static inline void rxb_hw_raise_irq(const struct rxb_hw_model *m,
				    unsigned int q)
{
	m->env->raise_irq(m->hw, q);
}

static inline void rxb_hw_arm_timer(const struct rxb_hw_model *m, u64 ns)
{
	m->env->arm_timer(m->hw, ns);
}

static inline u64 rxb_hw_now_ns(const struct rxb_hw_model *m)
{
	return m->env->now_ns(m->hw);
}

static inline u8 rxb_hw_dma_write(const struct rxb_hw_model *m,
				  const struct rxb_frame *f, u64 addr,
				  u32 *csum)
{
	return m->env->dma_write(m->hw, f, addr, csum);
}

/**
 * rxb_hw_pcie() - account interconnect bytes.
 * @m: the model instance.
 * @q: the queue the transfer belongs to (its counters).
 * @kind: enum rxb_pcie_kind.
 * @bytes: bytes moved.
 *
 * Every model calls it where its NIC side writes ring memory other than
 * packet data (completions, Bx entries, notifications) or reads
 * descriptors, with the size of the structure moved, so that ethtool -S
 * shows what each model costs on the bus.
 */
static inline void rxb_hw_pcie(const struct rxb_hw_model *m, unsigned int q,
			       unsigned int kind, u32 bytes)
{
	if (m->env->pcie)
		m->env->pcie(m->hw, q, kind, bytes);
}

/**
 * rxb_hw_tstamp_put() - write a frame's arrival stamp into a stamp ring.
 * @m: the model instance.
 * @q: the queue whose counters the write goes to.
 * @ring: the stamp ring behind the ring of records (mapped with them:
 *	rxb_tstamp_ring_bytes()), or NULL when the ring has none.
 * @slot: the slot of the record that reports the frame, masked.
 * @ts: the frame's stamp (struct rxb_frame.ts); 0, not stamped: nothing
 *	is written.
 *
 * Before the record's release (done bit, tail), which orders it for the
 * driver.  RXB_TSTAMP_LEN bytes of metadata written, whatever the model.
 */
static inline void rxb_hw_tstamp_put(const struct rxb_hw_model *m,
				     unsigned int q, __le64 *ring, u32 slot,
				     u64 ts)
{
	if (!ring || !ts)
		return;
	WRITE_ONCE(ring[slot], cpu_to_le64(ts));
	rxb_hw_pcie(m, q, RXB_PCIE_META_WR, RXB_TSTAMP_LEN);
}

/* The on-NIC memory tier (include/rxbisect/rxb_nicmem.h), or NULL. */
static inline struct rxb_nicmem *rxb_hw_nicmem(const struct rxb_hw_model *m)
{
	return m->env->nicmem ? m->env->nicmem(m->hw) : NULL;
}

static inline void *rxb_hw_dma_ptr(const struct rxb_hw_model *m, u64 addr,
				   u32 len)
{
	return m->env->dma_ptr(m->hw, addr, len);
}

/**
 * rxb_hw_dma_map() - map ring memory whose bus address a base register
 *	holds.
 * @m: the model instance.
 * @reg: the register pair.
 * @len: bytes of the ring.
 *
 * Return: the NIC's view of the ring, or NULL when the register holds no
 * address the driver can have programmed.
 */
static inline void *rxb_hw_dma_map(const struct rxb_hw_model *m,
				   const struct rxb_base_reg *reg, size_t len)
{
	u64 addr = (u64)READ_ONCE(reg->hi) << 32 | READ_ONCE(reg->lo);

	return addr ? m->env->dma_map(m->hw, addr, len) : NULL;
}

static inline u8 rxb_hw_dma_write_ring(const struct rxb_hw_model *m,
				       const struct rxb_frame *f, u64 addr,
				       u32 size, u32 off, u32 *csum)
{
	return m->env->ring->dma_write(m->hw, f, addr, size, off, csum);
}

static inline void rxb_hw_dma_put(const struct rxb_hw_model *m,
				  const void *src, u32 len, u64 addr)
{
	m->env->ring->dma_put(m->hw, src, len, addr);
}

#endif /* _RXB_HW_MODEL_H */
