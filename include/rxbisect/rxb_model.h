/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rxbisect ring-model interface.
 *
 * A ring model is one NIC receive architecture (privRing, shRing, rxBisect,
 * ...).  Each model lives in one file and implements both halves of its
 * receive interface:
 *
 *  - the hardware half (hw_rx), run by the emulated NIC for every arriving
 *    frame: take a buffer the driver posted, "DMA" the frame into it, write
 *    a completion, raise the queue's interrupt;
 *  - the driver half (poll, refill), run by the queue's NAPI context:
 *    consume completions, hand the buffers up, post fresh buffers and ring
 *    the doorbell.
 *
 * The halves share only the ring memory and doorbells described in
 * rxb_desc.h: the hardware half never reads the driver half's state, and
 * the driver half reads the NIC's internal indices only through the debug
 * registers of @hw_debug.  Model cores use no netdev, skb or page_pool API:
 * the driver's buffers go through struct rxb_drv_ops and the NIC's vectors,
 * timer and DMA engine through struct rxb_hw_ops, so the same source builds
 * in userspace (tools/testing/rxbisect) for unit and thread-stress tests.
 */
#ifndef _RXB_MODEL_H
#define _RXB_MODEL_H

#include <linux/types.h>
#include <linux/cache.h>
#include <linux/compiler.h>

struct rxb_model;
struct rxb_frame;
struct rxb_nicmem;

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
 * struct rxb_drv_ops - what a ring model's driver half needs from the
 * driver: its buffers and a clock.  Every callback gets rxb_model_cfg.drv.
 * @alloc_buf: allocate an empty buffer from queue @q's pool.  Returns 0 or
 *	-ENOMEM.  Called from @q's poll context only.
 * @free_buf: drop the model's reference on a buffer of queue @q's pool (at
 *	teardown, or a batched RxList buffer the NIC closed); it goes back to
 *	the pool once no packet holds it either.
 * @ref_buf: take a reference on buffer @cookie of queue @q's pool for a
 *	packet handed up in it while the model keeps the buffer (struct
 *	rxb_pkt.frag), or for the model itself before it hands the whole
 *	buffer up (CEIO's ceio_release=page: the buffer then stays the
 *	model's to free_buf once @buf_idle).  May be NULL for models that
 *	do neither.
 * @buf_idle: optional: true when the model's reference is the only one
 *	left on buffer @cookie of queue @q's pool: every packet handed up
 *	in it was freed, and free_buf would return it to the pool (the
 *	kernel: the page_pool page's reference count is 1).  Called from
 *	@q's poll context.
 * @buf_cookie: the handle of the buffer at bus address @addr (the driver's
 *	reverse mapping of addresses it posted).
 * @now_ns: a monotonic clock (the driver's, not the NIC's).
 * @reg_write: optional: the driver half wrote @bytes of queue @q's
 *	doorbell or other NIC registers (rxb_db_ring()); the driver passes
 *	the write to the NIC's register path, which counts the bytes that
 *	cross the interconnect (to_nic_mmio_bytes).  NULL: not counted.
 * @ring: optional: data rings of streaming models (Ensō pipes).
 */
struct rxb_drv_ops {
	int (*alloc_buf)(void *drv, unsigned int q, struct rxb_buf *buf);
	void (*free_buf)(void *drv, unsigned int q, void *cookie);
	void (*ref_buf)(void *drv, unsigned int q, void *cookie);
	bool (*buf_idle)(void *drv, unsigned int q, void *cookie);
	void *(*buf_cookie)(void *drv, u64 addr);
	u64 (*now_ns)(void *drv);
	void (*reg_write)(void *drv, unsigned int q, u32 bytes);
	const struct rxb_drv_ring_ops *ring;
};

/**
 * enum rxb_pcie_kind - what a ring model's hardware half moves across the
 * emulated PCIe besides packet data (which the DMA engine counts itself).
 * @RXB_PCIE_META_WR: NIC to host: descriptor, completion or notification
 *	bytes the NIC writes to ring memory.
 * @RXB_PCIE_DESC_RD: host to NIC: descriptor or buffer-address bytes the
 *	NIC reads from ring memory (a read request's payload).
 * @RXB_PCIE_DATA_WR: NIC to host: packet bytes moved from the on-NIC
 *	memory tier into a host buffer (CEIO's slow-path fetch); the DMA
 *	engine counts the packet data it writes on arrival itself.
 */
enum rxb_pcie_kind {
	RXB_PCIE_META_WR,
	RXB_PCIE_DESC_RD,
	RXB_PCIE_DATA_WR,
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
 * struct rxb_hw_ops - what a ring model's hardware half needs from the rest
 * of the NIC: interrupt vectors, a timer, a clock and the DMA engine.
 * Every callback gets rxb_model_cfg.hw.
 * @raise_irq: an event on queue @q's interrupt vector (under the NIC's
 *	interrupt moderation).
 * @arm_timer: call @ops->hw_timer of the model in about @ns nanoseconds,
 *	unless a call is already pending.  May be NULL for models that never
 *	set one.
 * @now_ns: a monotonic clock.
 * @dma_write: copy @frame into bus address @addr ("DMA").  Returns the
 *	completion flags the transfer adds: RXB_CQE_F_CSUM with *@csum set
 *	when the DMA engine's checksum unit summed the frame (see
 *	rxb_cqe.csum), RXB_CQE_F_DMA_ERR when the write failed (the model
 *	still reports the buffer, with that flag), 0 otherwise.
 * @pcie: optional: account @bytes of kind @kind (enum rxb_pcie_kind) for
 *	queue @q on the interconnect counters (rxb_hw_pcie()).  Cheap: a
 *	per-queue counter, the same for every model.  NULL: not counted.
 * @nicmem: optional: the NIC's on-NIC memory tier (struct rxb_nicmem,
 *	include/rxbisect/rxb_nicmem.h) of this context, or NULL if the NIC
 *	has none.
 * @nicmem_write: optional: the NIC writes @frame (from the wire, no host
 *	memory crossed) at offset @off of its memory allocation @addr
 *	(rxb_nicmem_alloc()); the allocation holds @off + frame length.
 * @dma_ptr: optional: the DMA engine's view of the @len bytes at host bus
 *	address @addr, for transfers it runs out of its own memory (a host
 *	fetch from the on-NIC memory tier: the NIC moves the bytes, the
 *	driver asked); they count in the I/O working set as any DMA write.
 * @ring: optional: DMA into the data rings of streaming models.
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
	const struct rxb_hw_ring_ops *ring;
};

/**
 * struct rxb_hw_ring_ops - the DMA engine's writes into a streaming
 * model's data rings (struct rxb_drv_ring_ops).
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

/* Version of this interface, reported by "devlink dev info". */
#define RXB_MODEL_API_VERSION	"1"

/* Most queues a model instance may have. */
#define RXB_MAX_MODEL_QUEUES	64

/**
 * enum rxb_ax_policy - rxBisect: where to borrow a buffer from.
 * @RXB_AX_RR: the next non-empty associated Ax ring, round-robin.
 * @RXB_AX_MOST: the associated Ax ring with the most posted buffers.
 * @RXB_AX_RANDOM: a non-empty associated Ax ring chosen at random (the
 *	rxbisect paper's example policy, section 4.1).
 * @RXB_AX_NPOLICIES: number of policies.
 */
enum rxb_ax_policy {
	RXB_AX_RR,
	RXB_AX_MOST,
	RXB_AX_RANDOM,
	RXB_AX_NPOLICIES,
};

/* Longest rxBisect topology string (ax_link, ax_assoc_map), NUL included:
 * devlink's string parameter size.
 */
#define RXB_AX_TOPO_LEN	32

/**
 * enum rxb_corec_irq - COREC: which consumers of a shared queue the NIC
 *	interrupts when it writes a completion there.
 * @RXB_COREC_IRQ_RR: the next consumer, round-robin: one vector per
 *	completion, successive completions wake successive consumers, busy
 *	or not.
 * @RXB_COREC_IRQ_ALL: every consumer: the idle ones race for the batch,
 *	so a completion waits for no busy consumer (M/G/N).
 * @RXB_COREC_IRQ_NPOLICIES: number of policies.
 */
enum rxb_corec_irq {
	RXB_COREC_IRQ_RR,
	RXB_COREC_IRQ_ALL,
	RXB_COREC_IRQ_NPOLICIES,
};

/**
 * enum rxb_ceio_release - CEIO: when the driver gives a fast-path packet's
 *	credit back to the NIC (lazy credit release).
 * @RXB_CEIO_REL_BATCH: at the end of the NAPI batch that handed it up
 *	(the paper's "after processing a batch").
 * @RXB_CEIO_REL_PAGE: when its buffer comes back to the driver's pool
 *	(the kernel: the page returns to the page_pool), i.e. once the
 *	stack freed the packet: closer to its cache residency.  Credits come
 *	back in completion ring order, so a buffer the stack keeps delays
 *	the credits of those handed up after it.
 * @RXB_CEIO_REL_NMODES: number of modes.
 */
enum rxb_ceio_release {
	RXB_CEIO_REL_BATCH,
	RXB_CEIO_REL_PAGE,
	RXB_CEIO_REL_NMODES,
};

/* CEIO: the largest llc_budget: what the NIC's credit counters address. */
#define RXB_CEIO_BUDGET_MAX	0x40000000ULL
/* CEIO: default llc_budget: the paper's 6 MiB of DDIO ways. */
#define RXB_CEIO_BUDGET_DEF	(6U << 20)

/**
 * struct rxb_model_cfg - configuration of a ring-model instance.
 * @nqueues: receive queues (NAPI contexts) of the device.
 * @ring_size: entries of each Rx ring and completion ring; power of two.
 * @buf_len: bytes the NIC may write into each buffer.
 * @share_factor: shRing models: queues sharing one Rx ring (the last group
 *	may be smaller); clamped to @nqueues.
 * @ax_ring_size: rxBisect: entries of each allocation (Ax) ring.
 * @ax_policy: rxBisect: which associated Ax ring the NIC borrows from when
 *	the linked one is empty (enum rxb_ax_policy).
 * @notif_compress: rxBisect: hold notification-only Bx entries back until
 *	the Bx ring's next packet entry or @notif_timeout_ns.
 * @notif_timeout_ns: rxBisect: longest hold of a notification.
 * @ax_assoc: rxBisect: each Bx ring is associated with the Ax rings of its
 *	group of @ax_assoc consecutive queues; 0: with every Ax ring.
 *	Ignored when @ax_assoc_map is set.
 * @ax_assoc_map: rxBisect: the Ax rings each Bx ring may borrow from, as
 *	";"-separated sets (Documentation/rxbisect.rst); "": @ax_assoc.
 * @ax_link: rxBisect: the queue (Bx ring) each Ax ring is linked to, as a
 *	","-separated list of queues and ranges, one per Ax ring; "": one Ax
 *	ring per queue, Ax ring i linked to queue i.
 * @cache_bytes: the cache capacity the I/O working set should fit (the
 *	DDIO ways of the LLC on real hardware), for configuration advice.
 * @dsh_period_ns: dshRing: period of the controller's samples; 0: 10 ms.
 * @dsh_window: dshRing: samples in the controller's sliding window, a
 *	multiple of 8 in 8..64; 0: 16.
 * @dsh_tput_mbps: dshRing: a sample's throughput is high above this many
 *	Mbit/s; 0: 1000.
 * @dsh_overload_ratio: dshRing: a sample sees an overloaded queue when
 *	the standard deviation of the queues' intervals between receive
 *	calls exceeds this multiple of their median; 0: 32.
 *	(dshRing's memory-pressure threshold is @cache_bytes; 0: 4 MiB.)
 * @corec_consumers: COREC: queues consuming each shared queue (groups of
 *	consecutive queues, the last may be smaller); 0: all queues share one.
 * @corec_irq_policy: COREC: enum rxb_corec_irq.
 * @enso_pipes: Ensō: pipes per queue, 1..RXB_ENSO_MAX_PIPES_Q; the
 *	queue's notification ring (@ring_size entries) serves them all.
 * @enso_pipe_size: Ensō: bytes of each pipe, a power of two in
 *	RXB_ENSO_PIPE_MIN..RXB_ENSO_PIPE_MAX.
 * @enso_prefetch: Ensō: low-latency mode: before the driver hands up data
 *	of a pipe it rings the prefetch doorbell of the queue's next pipe.
 * @enso_chaotic: Ensō: Chaotic Ensō (paper section 7.2.3), a control
 *	for benchmarks: the NIC leaves a gap after each frame, computed
 *	from the frame's position in the pipe, which the driver computes
 *	alike; frames are no longer back to back.
 * @flow_table_size: entries of the NIC's flow table (struct
 *	rxb_frame.flow is below it); 0: no flow table (every frame carries
 *	RXB_FLOW_NONE or an index the model must not use).
 * @nicmem_bytes: capacity of the NIC's on-NIC memory tier.
 * @ceio_llc_budget: CEIO: host cache budget in bytes; credits =
 *	@ceio_llc_budget / @buf_len.
 * @ceio_release: CEIO: enum rxb_ceio_release.
 * @ceio_fetch_async: CEIO: fetch slow-path packets asynchronously.
 * @ceio_force_slow: CEIO: no credits at all: every packet takes the slow
 *	path (the paper's Fig. 11 setup).
 * @ceio_inactive_ns: CEIO: a flow without a frame for this long gives its
 *	credits back (the paper's 1 s timer); 0: 1 s.
 * @nicmem_split: the NIC splits headers (host buffer) from payloads (its
 *	memory tier) of the frames it writes with rxb_hw_ops.dma_write;
 *	needs @nicmem_bytes and a model whose buffers hold one packet each
 *	(not @multi_pkt_bufs, not @stream).  The model only reports the
 *	completion flags the DMA engine returns (RXB_CQE_F_SPLIT).
 * @drv_ops: the driver's services to the driver half.
 * @drv: opaque argument of every @drv_ops callback.
 * @hw_ops: the NIC's services to the hardware half.
 * @hw: opaque argument of every @hw_ops callback.
 */
struct rxb_model_cfg {
	unsigned int nqueues;
	unsigned int ring_size;
	unsigned int buf_len;
	unsigned int share_factor;
	unsigned int ax_ring_size;
	unsigned int ax_policy;
	bool notif_compress;
	u64 notif_timeout_ns;
	unsigned int ax_assoc;
	char ax_assoc_map[RXB_AX_TOPO_LEN];
	char ax_link[RXB_AX_TOPO_LEN];
	u64 cache_bytes;
	u64 dsh_period_ns;
	unsigned int dsh_window;
	unsigned int dsh_tput_mbps;
	unsigned int dsh_overload_ratio;
	unsigned int corec_consumers;
	unsigned int corec_irq_policy;
	unsigned int enso_pipes;
	unsigned int enso_pipe_size;
	bool enso_prefetch;
	bool enso_chaotic;
	unsigned int flow_table_size;
	u64 nicmem_bytes;
	u64 ceio_llc_budget;
	unsigned int ceio_release;
	bool ceio_fetch_async;
	bool ceio_force_slow;
	u64 ceio_inactive_ns;
	bool nicmem_split;
	const struct rxb_drv_ops *drv_ops;
	void *drv;
	const struct rxb_hw_ops *hw_ops;
	void *hw;
};

/* struct rxb_frame.flow of a frame the flow table does not track. */
#define RXB_FLOW_NONE	0xffffffffU

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
 *	flow_idle_ms parameter; it then calls rxb_model_ops.hw_flow_free
 *	with the index before reusing it.  The table belongs to the
 *	receive context: a new model instance starts with an empty one, so
 *	an instance sees only indices learned during its own life.
 * @flow_new: this frame's flow was learned by this frame.
 * @hash_flags: RXB_CQE_F_L4_HASH / RXB_CQE_F_L3_HASH, or 0.
 */
struct rxb_frame {
	const void *data;
	unsigned int len;
	u32 hash;
	u32 flow;
	bool flow_new;
	u8 hash_flags;
};

/**
 * struct rxb_pkt - a received packet handed to the driver's stack glue.
 * @cookie: the buffer's environment handle (see struct rxb_buf).
 * @len: bytes of packet data at the start of the buffer.
 * @hash: RSS hash reported by the NIC.
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
	u32 csum;
	u8 flags;
	u16 pool_q;
	u32 offset;
	bool frag;
	const void *data;
};

/**
 * struct rxb_qstats - per-queue counters every model keeps.
 *
 * The hardware group is written only by the NIC under the model's
 * hardware-side serialisation, the driver group only by the queue's poll
 * context.  Readers use READ_ONCE and may see a value one update old.
 */
struct rxb_qstats {
	/* hardware side */
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
	/* driver side */
	/** @packets: packets handed to the stack */
	u64 packets ____cacheline_aligned;
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

/* Longest counter name, NUL included (ethtool's ETH_GSTRING_LEN). */
#define RXB_STAT_NAME_LEN	32

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
 * @size: entries of the queue's completion ring (CR, or Bx ring).
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
 * struct rxb_hw_debug - the NIC's debug registers of a queue
 * (rxb_model_ops.hw_debug): internal indices a datasheet would expose
 * for diagnosis only.  The driver reads them for health dumps and
 * counters, never to run the rings.
 * @cq_tail: index of the next completion entry the NIC writes for the
 *	queue (its CR, or Bx ring).
 * @posted: empty buffers the NIC holds for the queue: posted by the driver
 *	and not yet taken.
 * @taken: descriptors the NIC has taken from the ring that @posted counts,
 *	as a free-running index from the ring's first one (its Rx head; an
 *	RxList ring, whose head is a list position, counts its takes): the
 *	queue's own Rx ring (privRing), the shared ring of its group (shRing
 *	models, COREC) or the Ax ring linked to it (rxBisect; 0 if none).
 *	Queues of one group report the same ring.
 *
 * Read from any context without stopping the NIC: a snapshot.
 */
struct rxb_hw_debug {
	u32 cq_tail;
	u32 posted;
	u32 taken;
};

/**
 * struct rxb_model_ops - one ring model.
 * @name: model name, as given to the ring_model parameter.
 * @multi_pkt_bufs: the model places several packets in one buffer and
 *	hands them up as fragments (struct rxb_pkt.frag).
 * @contig_bufs: the hardware half writes into buffers other than with one
 *	rxb_hw_ops.dma_write at the address it took (several packets at
 *	offsets of one buffer, or a fetch engine through
 *	rxb_hw_ops.dma_ptr): a buffer longer than a page must be one
 *	contiguous range, which the driver then allocates (larger pages)
 *	rather than scatter buffers (rxb_desc.h).  Implied by
 *	@multi_pkt_bufs and @stream.
 * @stream: the model has no buffers: the NIC writes frames into rings the
 *	driver owns (Ensō pipes) and poll hands packets up in ring memory
 *	(struct rxb_pkt.data), which the ring reuses once the next poll or
 *	refill call of the queue returns it to the NIC: the caller copies
 *	each packet out first (one copy per packet that buffer models do
 *	not make).
 * @create: allocate the rings of a device with configuration @cfg and post
 *	the initial buffers.  Returns the instance or an ERR_PTR().
 * @destroy: free the rings and every buffer still held by them.  Neither
 *	half may be running.
 * @hw_rx: hardware half: deliver @frame to queue @q (chosen by RSS).
 *	Returns 0 when delivered, or the drop cause: -ENOBUFS (no buffer),
 *	-ENOSPC (completion ring full), -EMSGSIZE (frame longer than buffer).
 *	May run concurrently for any queues; the model serialises as a NIC
 *	pipeline would.
 * @poll: driver half: consume up to @budget completions of queue @q into
 *	@pkts, repost buffers for them and ring the doorbell.  Returns the
 *	number of packets.  Runs in @q's poll context only.
 * @refill: driver half: post buffers to every empty slot of queue @q.
 *	Returns true when the queue's ring is fully posted.
 * @rx_pending: driver half: true if queue @q has an unconsumed completion.
 * @hw_timer: optional: hardware half: the timer set with
 *	rxb_hw_ops.arm_timer fired.
 * @ctl_tick: optional: driver half: the driver's periodic control task
 *	(a software controller such as dshRing's, which reads the NIC's
 *	counters and writes its registers).  The driver calls it with the
 *	time @now (the clock of rxb_drv_ops.now_ns) from its own periodic
 *	context (a delayed work in the kernel), first soon after the rings go
 *	live, then again after the delay it returns in nanoseconds, until
 *	the rings are torn down; never concurrently with itself.  It may run
 *	concurrently with either half.
 * @validate: optional: check the model-specific parts of @cfg before
 *	@create; on error set *@msg to a static explanation.
 * @advise: optional: a static warning about a configuration that works but
 *	defeats the model's purpose, or NULL.
 * @ring_state: optional: driver half: a snapshot of queue @q's ring state
 *	as the driver sees it (any context).
 * @hw_debug: optional: hardware half: queue @q's debug registers (any
 *	context); what the NIC reports of its internal indices.
 * @buf_refs: optional: under configuration @cfg the model keeps a
 *	reference (rxb_drv_ops.ref_buf) on buffers it hands up whole, so the
 *	driver's pools must count references per buffer (page_pool
 *	fragments), as they always do for @multi_pkt_bufs models.
 * @bufs_per_queue: optional: most buffers of one queue's pool the rings can
 *	hold at once (posted, or written and waiting in a completion ring);
 *	default @ring_size.  The driver sizes each pool to this plus one
 *	completion ring's worth in the stack.
 * @queue_reset: optional: queue @q's rings go back to their power-on
 *	state, as a driver reprogramming a stopped queue's ring registers
 *	leaves them: every buffer they hold goes back to @q's pool
 *	(rxb_drv_ops.free_buf), written or not, and both halves' indices
 *	restart from zero; the driver then refills them (@refill).  Neither
 *	half may run on @q meanwhile (its poll stopped, the NIC's queue
 *	disabled); the other queues go on.  Only models whose queues share
 *	no ring and lend no buffer have it (the queue management API's
 *	single-queue restart).
 * @umem_bufs: zero-copy AF_XDP: a queue's buffers may come from a umem
 *	(an xsk buffer pool, bound to that one queue): every buffer the
 *	model takes from queue q's pool (rxb_drv_ops.alloc_buf) is handed up
 *	by queue q's poll alone, as one packet (not @multi_pkt_bufs), never
 *	by another queue's poll, and never given back with buf_cookie() by
 *	another queue (the driver returns a umem buffer only from its own
 *	queue's context).  Not the shRing models, COREC or dshRing (a shared
 *	ring hands one queue's buffers to every queue of its group), Ensō
 *	(no buffers: streaming pipes) nor CEIO (buffers it keeps references
 *	on, fragments, and its slow path's fetches).
 * @umem_check: optional, with @umem_bufs: may queue @q of configuration
 *	@cfg take its buffers from a umem?  Returns 0, or an error with
 *	*@msg set to a static explanation (rxBisect: unless no other queue
 *	borrows from the Ax ring linked to @q).
 * @xstats_count: optional: number of model-specific counters of @m.
 * @xstats_names: fill @names with their names, one every RXB_STAT_NAME_LEN
 *	bytes (NUL included).  A model whose NIC takes a shared ring's
 *	descriptors in list order (RxList) names its count of the takes that
 *	are not the array successor of the ring's previous take
 *	ringG_out_of_order (ring G): each is a miss of the NIC's contiguous
 *	descriptor prefetch, which tools/rxbisect-sim charges as a read;
 *	array rings have no such counter.
 * @xstats_values: fill @vals with their current values.
 * @hw_flow_free: optional: hardware half: the NIC freed flow table entry
 *	@flow (struct rxb_frame.flow), idle for flow_idle_ms; release any
 *	per-flow state the model keeps for it (e.g. credits).  Called from
 *	the NIC's sweep (process context, bottom halves disabled) after every
 *	frame that carried @flow has left hw_rx, and before the index is
 *	reused; never concurrently with itself, but concurrently with hw_rx
 *	of other flows.  Not called at teardown: @destroy frees everything.
 */
struct rxb_model_ops {
	const char *name;
	bool multi_pkt_bufs;
	bool contig_bufs;
	bool stream;
	struct rxb_model *(*create)(const struct rxb_model_cfg *cfg);
	void (*destroy)(struct rxb_model *m);
	int (*hw_rx)(struct rxb_model *m, unsigned int q,
		     const struct rxb_frame *frame);
	int (*poll)(struct rxb_model *m, unsigned int q, struct rxb_pkt *pkts,
		    int budget);
	bool (*refill)(struct rxb_model *m, unsigned int q);
	bool (*rx_pending)(struct rxb_model *m, unsigned int q);
	void (*hw_timer)(struct rxb_model *m);
	u64 (*ctl_tick)(struct rxb_model *m, u64 now);
	int (*validate)(const struct rxb_model_cfg *cfg, const char **msg);
	const char *(*advise)(const struct rxb_model_cfg *cfg);
	bool (*buf_refs)(const struct rxb_model_cfg *cfg);
	unsigned int (*bufs_per_queue)(const struct rxb_model_cfg *cfg);
	void (*ring_state)(struct rxb_model *m, unsigned int q,
			   struct rxb_ring_state *st);
	void (*hw_debug)(struct rxb_model *m, unsigned int q,
			 struct rxb_hw_debug *dbg);
	void (*queue_reset)(struct rxb_model *m, unsigned int q);
	bool umem_bufs;
	int (*umem_check)(const struct rxb_model_cfg *cfg, unsigned int q,
			  const char **msg);
	unsigned int (*xstats_count)(struct rxb_model *m);
	void (*xstats_names)(struct rxb_model *m, char *names);
	void (*xstats_values)(struct rxb_model *m, u64 *vals);
	void (*hw_flow_free)(struct rxb_model *m, u32 flow);
};

/**
 * struct rxb_model - common head of every ring-model instance.
 * @ops: the model.
 * @cfg: configuration the instance was created with.
 * @qstats: per-queue counters, @cfg.nqueues entries.
 */
struct rxb_model {
	const struct rxb_model_ops *ops;
	struct rxb_model_cfg cfg;
	struct rxb_qstats *qstats;
};

/**
 * rxb_stat_add() - add to a counter that has a single writer.
 * @ctr: the counter; only the caller's context ever writes it.
 * @n: amount.
 *
 * Readers on other CPUs use READ_ONCE(); no atomic RMW is needed.
 */
static inline void rxb_stat_add(u64 *ctr, u64 n)
{
	WRITE_ONCE(*ctr, *ctr + n);
}

static inline void rxb_stat_inc(u64 *ctr)
{
	rxb_stat_add(ctr, 1);
}

/* A model's calls into its environment: the driver's services to the
 * driver half, the NIC's to the hardware half (struct rxb_drv_ops, struct
 * rxb_hw_ops).
 */
static inline int rxb_drv_alloc_buf(const struct rxb_model *m, unsigned int q,
				    struct rxb_buf *buf)
{
	return m->cfg.drv_ops->alloc_buf(m->cfg.drv, q, buf);
}

static inline void rxb_drv_free_buf(const struct rxb_model *m, unsigned int q,
				    void *cookie)
{
	m->cfg.drv_ops->free_buf(m->cfg.drv, q, cookie);
}

static inline void rxb_drv_ref_buf(const struct rxb_model *m, unsigned int q,
				   void *cookie)
{
	m->cfg.drv_ops->ref_buf(m->cfg.drv, q, cookie);
}

static inline bool rxb_drv_buf_idle(const struct rxb_model *m, unsigned int q,
				    void *cookie)
{
	return m->cfg.drv_ops->buf_idle(m->cfg.drv, q, cookie);
}

static inline void *rxb_drv_buf_cookie(const struct rxb_model *m, u64 addr)
{
	return m->cfg.drv_ops->buf_cookie(m->cfg.drv, addr);
}

static inline u64 rxb_drv_now_ns(const struct rxb_model *m)
{
	return m->cfg.drv_ops->now_ns(m->cfg.drv);
}

static inline void *rxb_drv_map_ring(const struct rxb_model *m, unsigned int q,
				     size_t size, u64 *addr)
{
	return m->cfg.drv_ops->ring->map(m->cfg.drv, q, size, addr);
}

static inline void rxb_drv_unmap_ring(const struct rxb_model *m,
				      unsigned int q, void *va, size_t size)
{
	m->cfg.drv_ops->ring->unmap(m->cfg.drv, q, va, size);
}

static inline void rxb_hw_raise_irq(const struct rxb_model *m, unsigned int q)
{
	m->cfg.hw_ops->raise_irq(m->cfg.hw, q);
}

static inline void rxb_hw_arm_timer(const struct rxb_model *m, u64 ns)
{
	m->cfg.hw_ops->arm_timer(m->cfg.hw, ns);
}

static inline u64 rxb_hw_now_ns(const struct rxb_model *m)
{
	return m->cfg.hw_ops->now_ns(m->cfg.hw);
}

static inline u8 rxb_hw_dma_write(const struct rxb_model *m,
				  const struct rxb_frame *f, u64 addr, u32 *csum)
{
	return m->cfg.hw_ops->dma_write(m->cfg.hw, f, addr, csum);
}

/**
 * rxb_hw_pcie() - hardware half: account interconnect bytes.
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
static inline void rxb_hw_pcie(const struct rxb_model *m, unsigned int q,
			       unsigned int kind, u32 bytes)
{
	if (m->cfg.hw_ops->pcie)
		m->cfg.hw_ops->pcie(m->cfg.hw, q, kind, bytes);
}

/**
 * rxb_drv_reg_write() - driver half: account a register write.
 * @m: the model instance.
 * @q: the queue whose register it is (or the ring's first queue).
 * @bytes: bytes written.
 *
 * Called by rxb_db_ring(); see rxb_drv_ops.reg_write.
 */
static inline void rxb_drv_reg_write(const struct rxb_model *m, unsigned int q,
				     u32 bytes)
{
	if (m->cfg.drv_ops->reg_write)
		m->cfg.drv_ops->reg_write(m->cfg.drv, q, bytes);
}

/**
 * rxb_hw_nicmem() - hardware half: the on-NIC memory tier.
 * @m: the model instance.
 *
 * Return: the tier (include/rxbisect/rxb_nicmem.h) or NULL.
 */
static inline struct rxb_nicmem *rxb_hw_nicmem(const struct rxb_model *m)
{
	return m->cfg.hw_ops->nicmem ? m->cfg.hw_ops->nicmem(m->cfg.hw) : NULL;
}

static inline void *rxb_hw_dma_ptr(const struct rxb_model *m, u64 addr,
				   u32 len)
{
	return m->cfg.hw_ops->dma_ptr(m->cfg.hw, addr, len);
}

static inline u8 rxb_hw_dma_write_ring(const struct rxb_model *m,
				       const struct rxb_frame *f, u64 addr,
				       u32 size, u32 off, u32 *csum)
{
	return m->cfg.hw_ops->ring->dma_write(m->cfg.hw, f, addr, size, off,
					      csum);
}

static inline void rxb_hw_dma_put(const struct rxb_model *m, const void *src,
				  u32 len, u64 addr)
{
	m->cfg.hw_ops->ring->dma_put(m->cfg.hw, src, len, addr);
}

extern const struct rxb_model_ops rxb_privring_ops;
extern const struct rxb_model_ops rxb_rxbisect_ops;
extern const struct rxb_model_ops rxb_shring_ops;
extern const struct rxb_model_ops rxb_shring_list_ops;
extern const struct rxb_model_ops rxb_shring_batched_ops;
extern const struct rxb_model_ops rxb_dshring_ops;
extern const struct rxb_model_ops rxb_corec_ops;
extern const struct rxb_model_ops rxb_enso_ops;
extern const struct rxb_model_ops rxb_ceio_ops;

const struct rxb_model_ops *rxb_model_find(const char *name);
const struct rxb_model_ops *rxb_model_get(unsigned int i);
int rxb_rxbisect_topo_check(const struct rxb_model_cfg *cfg, const char **msg);
int rxb_model_validate(const struct rxb_model_ops *ops,
		       const struct rxb_model_cfg *cfg, const char **msg);

#endif /* _RXB_MODEL_H */
