/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rxbisect ring models: the driver half's interface (the driver side).
 *
 * A ring model's driver half is the driver's object: it allocates the
 * rings' memory in host RAM, programs their base registers, posts buffers
 * and rings doorbells, and consumes what the NIC wrote: completion
 * entries, done marks, write-back counters.  It runs in the driver's
 * contexts only (a queue's poll, the driver's control task, process
 * context for create and destroy).  The driver's services (buffers from
 * its pools, a clock, the register path) come through struct rxb_drv_ops.
 *
 * The NIC's hardware half is another object the driver never sees: the
 * driver half reaches it through ring memory and the registers of
 * rxb_desc.h alone.  A register write (rxb_reg_write(), rxb_db_ring()) is
 * a posted write: a store into the register space, marked for the NIC's
 * address decoder, and at most a wake-up of the NIC, which acts on it in
 * its own context, later.  The driver reads the NIC's statistics and
 * debug registers in the register space too.
 *
 * No NIC file may include this header (RXB_NIC_SIDE).
 */
#ifndef _RXB_DRV_MODEL_H
#define _RXB_DRV_MODEL_H

#ifdef RXB_NIC_SIDE
#error "the NIC reaches the driver only through ring memory and registers (rxb_desc.h)"
#endif

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <asm/barrier.h>
#include <rxbisect/rxb_model.h>
#include <rxbisect/rxb_desc.h>

struct rxb_layout;
struct rxb_model;

/**
 * struct rxb_buf - an empty receive buffer handed to a ring model.
 * @addr: bus address the NIC writes to (the first byte of packet data).
 * @cookie: the environment's handle for the buffer (a struct page in the
 *	kernel); returned in struct rxb_pkt when the buffer carries a packet.
 */
struct rxb_buf {
	u64 addr;
	void *cookie;
};

/**
 * struct rxb_drv_ring_ops - the driver's data rings for a streaming
 * model's driver half (struct rxb_model_ops.stream).
 * @map: allocate @size bytes (a power of two, at least 4 KiB) of zeroed
 *	host memory for queue @q that the NIC writes as one ring at bus
 *	address *@addr, and map it twice in a row in the driver's address
 *	space: the returned mapping is 2 * @size bytes and byte i + @size is
 *	byte i, so a read across the ring's end needs no split (Ensō pipes;
 *	the kernel vmap()s the same pages twice).  NULL on failure.
 * @unmap: free a ring of @size bytes @map returned at @va.
 */
struct rxb_drv_ring_ops {
	void *(*map)(void *drv, unsigned int q, size_t size, u64 *addr);
	void (*unmap)(void *drv, unsigned int q, void *va, size_t size);
};

/**
 * struct rxb_drv_ops - what a ring model's driver half needs from the
 * driver: its buffers, ring memory, a clock and the register path.  Every
 * callback gets the @drv the half was created with.
 * @alloc_buf: allocate an empty buffer from queue @q's pool.  Returns 0 or
 *	-ENOMEM.  Called from @q's poll context only.
 * @free_buf: drop the model's reference on a buffer of queue @q's pool (at
 *	teardown, or a batched RxList buffer the NIC closed); it goes back to
 *	the pool once no packet holds it either.
 * @ref_buf: take a reference on buffer @cookie of queue @q's pool for a
 *	packet handed up in it while the model keeps the buffer (struct
 *	rxb_pkt.frag), or for the model itself before it hands the whole
 *	buffer up (CEIO's ceio_release=page).  May be NULL for models that
 *	do neither.
 * @buf_idle: optional: true when the model's reference is the only one
 *	left on buffer @cookie of queue @q's pool.  Called from @q's poll
 *	context.
 * @buf_cookie: the handle of the buffer at bus address @addr (the driver's
 *	reverse mapping of addresses it posted).
 * @now_ns: a monotonic clock (the driver's, not the NIC's).
 * @dma_alloc: allocate @size bytes of zeroed ring memory the NIC may read
 *	and write (descriptor, completion, notification and command rings),
 *	its bus address in *@addr.  NULL on failure.  Process context.
 * @dma_free: free ring memory @dma_alloc returned (@va, @size bytes).
 * @reg_write: optional: the driver half wrote @bytes of queue @q's
 *	registers (rxb_reg_write()): counted as host-to-NIC interconnect
 *	bytes.  NULL: not counted.
 * @reg_read: optional: the driver half read @bytes of the NIC's memory or
 *	registers on its data path (an MMIO read, a PCIe round trip on
 *	hardware: only where a paper's design does it): counted.
 * @kick: wake the NIC: a register write marked a page while the NIC had
 *	nothing pending.  Cheap and never does the NIC's work itself.
 * @ring: optional: data rings of streaming models (Ensō pipes).
 */
struct rxb_drv_ops {
	int (*alloc_buf)(void *drv, unsigned int q, struct rxb_buf *buf);
	void (*free_buf)(void *drv, unsigned int q, void *cookie);
	void (*ref_buf)(void *drv, unsigned int q, void *cookie);
	bool (*buf_idle)(void *drv, unsigned int q, void *cookie);
	void *(*buf_cookie)(void *drv, u64 addr);
	u64 (*now_ns)(void *drv);
	void *(*dma_alloc)(void *drv, size_t size, u64 *addr);
	void (*dma_free)(void *drv, void *va, size_t size);
	void (*reg_write)(void *drv, unsigned int q, u32 bytes);
	void (*reg_read)(void *drv, unsigned int q, u32 bytes);
	void (*kick)(void *drv);
	const struct rxb_drv_ring_ops *ring;
};

/**
 * struct rxb_pkt - a received packet handed to the driver's stack glue.
 * @cookie: the buffer's environment handle (see struct rxb_buf).
 * @len: bytes of packet data at the start of the buffer.
 * @hash: RSS hash reported by the NIC.
 * @ts: the frame's arrival time on the NIC's clock, in nanoseconds, as
 *	the stamp ring behind its record reported it (rxb_desc.h,
 *	RXB_TSTAMP); 0: none (receive stamps off, rxb_model_cfg.rx_tstamp).
 * @csum: checksum reported by the NIC, valid with RXB_CQE_F_CSUM.
 * @flags: RXB_CQE_F_* bits reported by the NIC, less the done bit.
 * @pool_q: queue whose pool the buffer came from.
 * @offset: where the packet starts in the buffer (0 unless @frag).
 * @frag: the buffer holds other packets too (batched RxList): the packet
 *	is a fragment of it at @offset, and holds its own reference on the
 *	buffer (rxb_drv_ops.ref_buf), which the caller drops when done with
 *	the packet; the buffer returns to its pool when the last reference
 *	goes.  Otherwise the whole buffer is the caller's, but for a
 *	reference the model may have kept on it (rxb_drv_ops.ref_buf):
 *	the buffer returns to its pool when the caller's and the model's
 *	are both gone.
 * @data: streaming models (rxb_model_ops.stream), with @cookie NULL: the
 *	packet's bytes in ring memory, valid until the queue's next poll or
 *	refill call; the caller copies them out before that.
 */
struct rxb_pkt {
	void *cookie;
	u32 len;
	u32 hash;
	u64 ts;
	u32 csum;
	u8 flags;
	u16 pool_q;
	u32 offset;
	bool frag;
	const void *data;
};

/**
 * struct rxb_drv_qstats - a queue's counters every model's driver half
 * keeps, written by the queue's poll context only.
 */
struct rxb_drv_qstats {
	/** @packets: packets handed to the stack */
	u64 packets;
	/** @bytes: bytes of those packets */
	u64 bytes;
	/** @polls: poll calls */
	u64 polls;
	/** @refills: buffers posted */
	u64 refills;
	/** @alloc_fails: buffer allocation failures */
	u64 alloc_fails;
	/** @doorbells: doorbell writes */
	u64 doorbells;
} ____cacheline_aligned;

/**
 * struct rxb_qstats - a snapshot of a queue's counters, the NIC's
 * statistics registers (struct rxb_hw_qstats) and the driver half's
 * (struct rxb_drv_qstats) together, as ethtool -S shows them.
 */
struct rxb_qstats {
	/** @hw_packets: frames written to a buffer */
	u64 hw_packets;
	/** @hw_bytes: bytes of those frames */
	u64 hw_bytes;
	/** @nobuf_drops: no buffer posted for this queue */
	u64 nobuf_drops;
	/** @ring_full_drops: completion ring full */
	u64 ring_full_drops;
	/** @oversize_drops: frame longer than the posted buffer */
	u64 oversize_drops;
	/** @packets: packets handed to the stack */
	u64 packets;
	/** @bytes: bytes of those packets */
	u64 bytes;
	/** @polls: poll calls */
	u64 polls;
	/** @refills: buffers posted */
	u64 refills;
	/** @alloc_fails: buffer allocation failures */
	u64 alloc_fails;
	/** @doorbells: doorbell writes */
	u64 doorbells;
};

/**
 * struct rxb_stat_desc - name and location of one u64 counter.
 * @name: name as shown by ethtool -S (after a queue prefix).
 * @off: byte offset of the counter in its structure.
 */
struct rxb_stat_desc {
	const char *name;
	unsigned int off;
};

/* The counters of struct rxb_qstats, in display order. */
#define RXB_QSTATS_NUM	11
extern const struct rxb_stat_desc rxb_qstats_desc[RXB_QSTATS_NUM];

/**
 * rxb_stat_get() - read the counter @d describes in @base.
 * @base: structure holding the counter.
 * @d: its descriptor.
 *
 * Return: the counter's value.
 */
static inline u64 rxb_stat_get(const void *base, const struct rxb_stat_desc *d)
{
	return READ_ONCE(*(const u64 *)((const char *)base + d->off));
}

/**
 * struct rxb_ring_state - the driver's view of a queue's completion ring,
 * for dumps and watchdogs (rxb_model_ops.ring_state).
 * @size: entries of the queue's completion ring (CR, Bx or notification
 *	ring).
 * @drv_tail: index of the next entry the driver reads.
 * @drv_gen: generation bit the driver expects at @drv_tail.
 *
 * Read from any context without stopping the poll: a snapshot.
 */
struct rxb_ring_state {
	u32 size;
	u32 drv_tail;
	u8 drv_gen;
};

/**
 * struct rxb_hw_debug - what the NIC's debug registers of a queue say
 * (struct rxb_qdebug_regs), as the driver half reads them
 * (rxb_model_ops.nic_debug).
 * @cq_tail: index of the next completion entry the NIC writes for the
 *	queue (its CR, or Bx ring).
 * @posted: empty buffers the NIC holds for the queue: posted by the driver
 *	and not yet taken (Ensō: free flits of its pipes).
 * @taken: descriptors the NIC has taken from the ring that supplies the
 *	queue's buffers (struct rxb_qdebug_regs.taken).
 *
 * A snapshot, read from any context.
 */
struct rxb_hw_debug {
	u32 cq_tail;
	u32 posted;
	u32 taken;
};

/**
 * struct rxb_model_ops - one ring model as the driver sees it: its driver
 *	half, and the name of its hardware half for the NIC.
 * @name: model name, as given to the ring_model parameter.
 * @layout: what an instance is (struct rxb_layout): what
 *	rxb_model_create() allocates and rxb_model_destroy() frees.
 * @hw: the model's hardware half, an opaque name the driver passes to the
 *	NIC's "create receive context" command.
 * @multi_pkt_bufs: the model places several packets in one buffer and
 *	hands them up as fragments (struct rxb_pkt.frag).
 * @contig_bufs: the hardware half writes into buffers other than with one
 *	DMA write at the address it took (several packets at offsets of one
 *	buffer, or a fetch engine): a buffer longer than a page must be one
 *	contiguous range, which the driver then allocates (larger pages)
 *	rather than scatter buffers (rxb_desc.h).  Implied by
 *	@multi_pkt_bufs and @stream.
 * @stream: the model has no buffers: the NIC writes frames into rings the
 *	driver owns (Ensō pipes) and poll hands packets up in ring memory
 *	(struct rxb_pkt.data), which the ring reuses once the next poll or
 *	refill call of the queue returns it to the NIC: the caller copies
 *	each packet out first.
 * @init: optional: set up instance @m, which rxb_model_create() allocated
 *	(@layout, zeroed) for the configuration @m->cfg: allocate the rings,
 *	program their base registers in @m->bar (the NIC's register space
 *	of the context, mapped) and post the initial buffers.  Process
 *	context.  Returns 0 or a negative errno; on error @fini runs.
 * @fini: optional: free the rings and every buffer still held by them, of
 *	an instance @init set up, wholly or in part (pointers it did not set
 *	are NULL).  The NIC's context is disabled, no poll runs.
 * @poll: consume up to @budget completions of queue @q into @pkts, repost
 *	buffers for them and ring the doorbell.  Returns the number of
 *	packets.  Runs in @q's poll context only.
 * @refill: post buffers to every empty slot of queue @q.  Returns true
 *	when the queue's ring is fully posted.
 * @rx_pending: true if queue @q has something to poll (a completion, or a
 *	done mark the NIC wrote since).
 * @ctl_tick: optional: the driver's periodic control task (a software
 *	controller such as dshRing's, which reads the NIC's statistics
 *	registers and writes its registers).  The driver calls it with the
 *	time @now (the clock of rxb_drv_ops.now_ns) from its own periodic
 *	context, first soon after the rings go live, then again after the
 *	delay it returns in nanoseconds, until the rings are torn down;
 *	never concurrently with itself.  It may run concurrently with polls.
 * @validate: optional: check the model-specific parts of @cfg before
 *	@create (and before the NIC's half is created with it); on error set
 *	*@msg to a static explanation.
 * @advise: optional: a static warning about a configuration that works but
 *	defeats the model's purpose, or NULL.
 * @ring_state: optional: a snapshot of queue @q's ring state as the driver
 *	sees it (any context).
 * @nic_debug: optional: queue @q's debug registers as the NIC wrote them,
 *	with what the driver posted (any context).
 * @buf_refs: optional: under configuration @cfg the model keeps a
 *	reference (rxb_drv_ops.ref_buf) on buffers it hands up whole, so the
 *	driver's pools must count references per buffer.
 * @bufs_per_queue: optional: most buffers of one queue's pool the rings can
 *	hold at once (posted, or written and waiting in a completion ring);
 *	default @ring_size.
 * @pool_of: optional: the queue whose buffer pool queue @q allocates from
 *	under configuration @cfg, at most @q; default @q.  A pool that
 *	several queues share is never recycled into directly (page_pool's
 *	cache is single-consumer): the model serializes its @alloc_buf calls
 *	for those queues, and may keep buffers its queues drop (@recycle).
 * @recycle: optional, with @pool_of: queue @q's poll dropped a packet whose
 *	buffer @buf, of a shared pool, the model handed up whole and nothing
 *	else references: the model may keep it for its next refill (a cache
 *	per consumer, as DPDK's per-lcore mempool cache).  Returns true when
 *	it did; else the driver gives it back to the pool.  @q's poll
 *	context.
 * @queue_reset: optional: queue @q's rings go back to their power-on
 *	state, as a driver reprogramming a stopped queue's ring registers
 *	leaves them: every buffer they hold goes back to @q's pool, written
 *	or not, and the driver's indices restart from zero; the driver then
 *	has the NIC reset its half of the queue and refills.  Only models
 *	whose queues share no ring and lend no buffer.
 * @umem_bufs: zero-copy AF_XDP: a queue's buffers may come from a umem
 *	(an xsk buffer pool, bound to that one queue): every buffer the
 *	model takes from queue q's pool is handed up by queue q's poll alone,
 *	as one packet (not @multi_pkt_bufs), and never given back with
 *	buf_cookie() by another queue.
 * @umem_check: optional, with @umem_bufs: may queue @q of configuration
 *	@cfg take its buffers from a umem?  Returns 0, or an error with
 *	*@msg set to a static explanation.
 * @xstats_count: optional: number of model-specific counters of @m (its
 *	own, and those of the NIC's statistics registers the model
 *	declares).
 * @xstats_names: fill @names with their names, one every RXB_STAT_NAME_LEN
 *	bytes (NUL included).
 * @xstats_values: fill @vals with their current values.
 */
struct rxb_model_ops {
	const char *name;
	const struct rxb_layout *layout;
	const struct rxb_hw_model_ops *hw;
	bool multi_pkt_bufs;
	bool contig_bufs;
	bool stream;
	int (*init)(struct rxb_model *m);
	void (*fini)(struct rxb_model *m);
	int (*poll)(struct rxb_model *m, unsigned int q, struct rxb_pkt *pkts,
		    int budget);
	bool (*refill)(struct rxb_model *m, unsigned int q);
	bool (*rx_pending)(struct rxb_model *m, unsigned int q);
	u64 (*ctl_tick)(struct rxb_model *m, u64 now);
	int (*validate)(const struct rxb_model_cfg *cfg, const char **msg);
	const char *(*advise)(const struct rxb_model_cfg *cfg);
	void (*ring_state)(struct rxb_model *m, unsigned int q,
			   struct rxb_ring_state *st);
	void (*nic_debug)(struct rxb_model *m, unsigned int q,
			  struct rxb_hw_debug *dbg);
	bool (*buf_refs)(const struct rxb_model_cfg *cfg);
	unsigned int (*bufs_per_queue)(const struct rxb_model_cfg *cfg);
	unsigned int (*pool_of)(const struct rxb_model_cfg *cfg,
				unsigned int q);
	bool (*recycle)(struct rxb_model *m, unsigned int q,
			const struct rxb_buf *buf);
	void (*queue_reset)(struct rxb_model *m, unsigned int q);
	bool umem_bufs;
	int (*umem_check)(const struct rxb_model_cfg *cfg, unsigned int q,
			  const char **msg);
	unsigned int (*xstats_count)(struct rxb_model *m);
	void (*xstats_names)(struct rxb_model *m, char *names);
	void (*xstats_values)(struct rxb_model *m, u64 *vals);
};

/**
 * struct rxb_model - common head of every driver-half instance.
 * @ops: the model.
 * @cfg: configuration the instance was created with.
 * @env: the driver's services.
 * @drv: their argument.
 * @bar: the NIC's register space of the context, as this half sees it.
 * @qstats: per-queue counters of the driver half, @cfg.nqueues entries.
 */
struct rxb_model {
	const struct rxb_model_ops *ops;
	struct rxb_model_cfg cfg;
	const struct rxb_drv_ops *env;
	void *drv;
	struct rxb_bar bar;
	struct rxb_drv_qstats *qstats;
};

/**
 * rxb_pool_users() - queues that allocate from queue @q's buffer pool.
 * @ops: the model.
 * @cfg: its configuration.
 * @q: a queue.
 *
 * Return: 1 for a pool of its own; more for a pool several queues share
 * (rxb_model_ops.pool_of), which is never recycled into directly and may
 * take dropped buffers back through rxb_model_ops.recycle.
 */
static inline unsigned int rxb_pool_users(const struct rxb_model_ops *ops,
					  const struct rxb_model_cfg *cfg,
					  unsigned int q)
{
	unsigned int owner, i, n = 0;

	if (!ops->pool_of)
		return 1;
	owner = ops->pool_of(cfg, q);
	for (i = 0; i < cfg->nqueues; i++)
		n += ops->pool_of(cfg, i) == owner;
	return n;
}

/**
 * rxb_model_create() - create a ring model's driver half: allocate an
 *	instance of @ops->layout for @cfg and run @ops->init.
 * @ops: the model.
 * @cfg: the configuration (validated by the caller).
 * @env: the driver's services.
 * @drv: their argument.
 * @bar: the NIC's register space of the context.
 *
 * Return: the instance, or an ERR_PTR().
 */
struct rxb_model *rxb_model_create(const struct rxb_model_ops *ops,
				   const struct rxb_model_cfg *cfg,
				   const struct rxb_drv_ops *env, void *drv,
				   const struct rxb_bar *bar);

/**
 * rxb_model_destroy() - run the model's fini and free the instance.
 * @m: the instance; the NIC's context is disabled, no poll runs.
 */
void rxb_model_destroy(struct rxb_model *m);

/**
 * rxb_model_poll() - poll queue @q of instance @m (rxb_model_ops.poll).
 * @m: the instance.
 * @q: the queue; in its poll context.
 * @pkts: where the packets go.
 * @budget: most packets.
 *
 * Every caller polls through here, so every model's qstats count its polls
 * the same way (no model counts its own).
 *
 * Return: the number of packets.
 */
static inline int rxb_model_poll(struct rxb_model *m, unsigned int q,
				 struct rxb_pkt *pkts, int budget)
{
	rxb_stat_inc(&m->qstats[q].polls);
	return m->ops->poll(m, q, pkts, budget);
}

/* A model's calls into the driver's services (struct rxb_drv_ops). */
static inline int rxb_drv_alloc_buf(const struct rxb_model *m, unsigned int q,
				    struct rxb_buf *buf)
{
	return m->env->alloc_buf(m->drv, q, buf);
}

static inline void rxb_drv_free_buf(const struct rxb_model *m, unsigned int q,
				    void *cookie)
{
	m->env->free_buf(m->drv, q, cookie);
}

static inline void rxb_drv_ref_buf(const struct rxb_model *m, unsigned int q,
				   void *cookie)
{
	m->env->ref_buf(m->drv, q, cookie);
}

static inline bool rxb_drv_buf_idle(const struct rxb_model *m, unsigned int q,
				    void *cookie)
{
	return m->env->buf_idle(m->drv, q, cookie);
}

static inline void *rxb_drv_buf_cookie(const struct rxb_model *m, u64 addr)
{
	return m->env->buf_cookie(m->drv, addr);
}

static inline u64 rxb_drv_now_ns(const struct rxb_model *m)
{
	return m->env->now_ns(m->drv);
}

static inline void *rxb_drv_map_ring(const struct rxb_model *m, unsigned int q,
				     size_t size, u64 *addr)
{
	return m->env->ring->map(m->drv, q, size, addr);
}

static inline void rxb_drv_unmap_ring(const struct rxb_model *m,
				      unsigned int q, void *va, size_t size)
{
	m->env->ring->unmap(m->drv, q, va, size);
}

/**
 * rxb_reg_decode() - the emulation's address decoder: mark the page of
 *	register @reg written, and wake the NIC if nothing was pending.
 * @m: the model instance.
 * @reg: a register in @m's register space, just written.
 *
 * Every register write of every model goes through here (rxb_reg_write()),
 * so that each pays the same: one atomic OR, and a wake-up when the NIC
 * had nothing left to look at.
 */
static inline void rxb_reg_decode(const struct rxb_model *m, const void *reg)
{
	struct rxb_bar_global *g = (struct rxb_bar_global *)m->bar.base;
	unsigned long page = ((const u8 *)reg - m->bar.base) / RXB_BAR_PAGE;

	/* The register's value before the mark: the NIC that finds the
	 * mark (xchg, fully ordered) reads the value after.
	 */
	smp_mb__before_atomic();
	set_bit(page, g->written);
	/* The mark before @pending is read.  Pairs with the barrier
	 * between the NIC's clearing of @pending and its taking of the
	 * marks (rxb_nic_doorbells()): either the NIC sees this mark, or we
	 * see @pending clear and wake it.
	 */
	smp_mb__after_atomic();
	if (!READ_ONCE(g->pending) && !xchg(&g->pending, 1))
		m->env->kick(m->drv);
}

/**
 * rxb_reg_write() - write a register of the NIC: a posted write.
 * @m: the model instance.
 * @q: the queue the register belongs to (or the ring's first queue), for
 *	the interconnect counters.
 * @reg: the register, in @m's register space.
 * @val: its new value.
 *
 * Release: the ring memory written before (descriptors posted,
 * completions consumed) is complete before the NIC can see @val; the NIC
 * reads the register with acquire (rxb_db_read() on its side).  The NIC
 * acts on the write in its own context, later.
 */
static inline void rxb_reg_write(const struct rxb_model *m, unsigned int q,
				 u32 *reg, u32 val)
{
	/* Release: pairs with the acquire of the NIC's register read. */
	smp_store_release(reg, val);
	rxb_reg_decode(m, reg);
	if (m->env->reg_write)
		m->env->reg_write(m->drv, q, sizeof(*reg));
}

/**
 * rxb_reg_base() - program a ring base register pair (before the context
 *	or the queue is enabled).
 * @m: the model instance.
 * @q: the queue, for the interconnect counters.
 * @reg: the register pair.
 * @addr: the ring's bus address (rxb_drv_ops.dma_alloc).
 */
static inline void rxb_reg_base(const struct rxb_model *m, unsigned int q,
				struct rxb_base_reg *reg, u64 addr)
{
	WRITE_ONCE(reg->hi, (u32)(addr >> 32));
	rxb_reg_write(m, q, &reg->lo, (u32)addr);
}

/**
 * rxb_reg_read() - read a register (or NIC memory) on the data path: an
 *	MMIO read, counted.
 * @m: the model instance.
 * @q: the queue, for the interconnect counters.
 * @reg: the register.
 *
 * Acquire: what the NIC wrote before it released the register is seen.
 *
 * Return: the value.
 */
static inline u32 rxb_reg_read(const struct rxb_model *m, unsigned int q,
			       const u32 *reg)
{
	if (m->env->reg_read)
		m->env->reg_read(m->drv, q, sizeof(*reg));
	/* Acquire: pairs with the release of the NIC's write. */
	return smp_load_acquire(reg);
}

/**
 * rxb_db_ring() - write a doorbell register of queue @qi and count it.
 * @m: the model instance.
 * @qi: the queue the register belongs to (a shared ring's first queue).
 * @reg: the register.
 * @val: new producer or consumer index.
 *
 * Every model rings every doorbell through here, so each pays the same.
 */
static inline void rxb_db_ring(const struct rxb_model *m, unsigned int qi,
			       u32 *reg, u32 val)
{
	rxb_reg_write(m, qi, reg, val);
}

/* The driver's reads of the NIC's statistics and debug registers. */
void rxb_model_qstats_read(const struct rxb_model *m, unsigned int q,
			   struct rxb_qstats *st);

const struct rxb_model_ops *rxb_model_find(const char *name);
const struct rxb_model_ops *rxb_model_get(unsigned int i);
int rxb_model_validate(const struct rxb_model_ops *ops,
		       const struct rxb_model_cfg *cfg, const char **msg);

#define RXB_MODEL_DECL(name) extern const struct rxb_model_ops rxb_##name##_ops;
RXB_MODELS(RXB_MODEL_DECL)
#undef RXB_MODEL_DECL

#endif /* _RXB_DRV_MODEL_H */
