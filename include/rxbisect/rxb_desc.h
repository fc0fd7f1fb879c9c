/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rxbisect emulated NIC: descriptor, completion and register layouts
 * ("datasheet").
 *
 * Everything the emulated NIC and the driver exchange is in this file:
 * the in-memory ring entries, the register space and each ring model's
 * registers (a section per model).  The NIC never looks at driver state
 * and the driver never looks at NIC state; both only read and write these
 * structures.
 *
 * Conventions (as in the seeds, rxbisect paper section 2, thesis 4.1):
 *  - Ring indices are free-running 32-bit counters; a slot is index & (size-1).
 *    Ring sizes are powers of two.
 *  - Completion entries carry a "done" bit that the NIC writes with its
 *    generation (sense-reverse) bit: 1 on the first pass through the ring,
 *    0 on the second, and so on.  Software compares it with its own
 *    generation to find new entries without ever writing to the ring.
 *  - All multi-byte fields are little endian.
 */
#ifndef _RXB_DESC_H
#define _RXB_DESC_H

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <rxbisect/rxb_enso_user.h>

/**
 * rxb_gen() - generation bit of the pass through a ring that @idx is in.
 * @idx: free-running ring index.
 * @order: log2 of the ring size.
 *
 * 1 on the first pass, 0 on the second, ... (thesis 4.1: the NIC fills the
 * done bit with its generation; software compares with its own).  Ring
 * memory starts zeroed, so no entry looks done before the NIC writes it.
 *
 * Return: the generation bit.
 */
static inline u8 rxb_gen(u32 idx, unsigned int order)
{
	return ((idx >> order) & 1) ^ 1;
}

/*
 * Timestamps (RXB_TSTAMP).  The NIC has a clock, one per port, a
 * free-running 64-bit count of nanoseconds that the driver reads, writes,
 * steps and trims through the NIC's time registers and exposes as a PTP
 * hardware clock.
 *
 * Receive stamps are off at power-on and cost nothing then: no record
 * changes, and the NIC writes not one byte more.  The driver turns them on
 * with the port's receive-stamp register (rxb_nic_set_rx_tstamp()), and
 * builds its rings again with a stamp ring behind each ring of records
 * that report frames (struct rxb_model_cfg.rx_tstamp; a queue restart, as
 * mlx5 and ice change their completion format for stamps).  While the
 * register is set, the timestamp unit reads the clock when a frame reaches
 * the NIC, before the ingress FIFO and any ring work, and the NIC writes
 * that time, little-endian, into the stamp ring's slot of the same index
 * as the record that reports the frame, before the record's done bit or
 * tail (the record's release orders it): RXB_TSTAMP_LEN bytes more per
 * frame on the bus, counted as metadata written (RXB_PCIE_META_WR), the
 * same for every model.  A stamp ring is __le64 per slot, as many slots as
 * its ring has records; except Ensō's, it follows the records in the
 * ring's memory, at the base register's address plus the records' bytes:
 *
 *   struct rxb_cqe           slot i: completion entry i (privRing, shRing,
 *                            batched RxList, dynamic shRing, COREC, CEIO's
 *                            fast path)
 *   struct rxb_bxe           slot i: Bx entry i (rxBisect; packet entries
 *                            only, notifications are not stamped)
 *   struct rxb_enso_hdr      slot i: the pipe's flit i, where the frame's
 *                            header starts (Ensō: one slot per flit of the
 *                            pipe, in memory of its own whose address is
 *                            the pipe's @ts_mem register, as the pipe is
 *                            mapped twice; the header, in the pipe, is
 *                            unchanged)
 *   struct rxb_ceio_fetch    slot i: fetch record i (CEIO's slow path)
 *
 * A slot the NIC did not write since the ring was built reads 0: no stamp.
 *
 * Transmit: a frame posted with a stamp request carries a nonzero tag;
 * when it has left the port the NIC writes the clock's time and then the
 * tag into the transmit timestamp record (struct rxb_tx_tstamp) whose bus
 * address the driver wrote into the NIC's write-back register.
 */
#define RXB_TSTAMP_LEN	8	/* bytes of a stamp ring's slot */

/**
 * rxb_tstamp_ring_bytes() - bytes of the stamp ring behind a ring of
 *	records, zero without receive stamps.
 * @nrec: the ring's records (Ensō: the pipe's flits).
 * @on: the ring was built with receive stamps (rxb_model_cfg.rx_tstamp).
 *
 * Return: bytes.
 */
static inline size_t rxb_tstamp_ring_bytes(u32 nrec, bool on)
{
	return on ? (size_t)nrec * RXB_TSTAMP_LEN : 0;
}

/**
 * struct rxb_tx_tstamp - the transmit timestamp write-back record, in host
 * memory, written by the NIC, read by the driver.
 *
 * The NIC writes @ns, then @tag with release; the driver reads @tag with
 * acquire and, when it is the tag it posted the frame with, @ns.
 */
struct rxb_tx_tstamp {
	/** @ns: [0] The NIC clock's time when the frame left. */
	__le64 ns;
	/** @tag: [8] The stamp request's tag (nonzero). */
	__le32 tag;
	/** @reserved: [12] Zero. */
	__le32 reserved;
} __packed;
static_assert(sizeof(struct rxb_tx_tstamp) == 16);

/*
 * The register space (BAR) of a receive context.
 *
 * The NIC exposes each receive context's registers as pages of
 * RXB_BAR_PAGE bytes: page 0 holds the context's global registers, then
 * come the queues' pages (queue q's at page qpage + q of the model's view,
 * struct rxb_bar), then the pages a model declares beyond them (Ensō's
 * per-pipe register blocks).  A model's datasheet section below gives the
 * layout of its registers within those pages.
 *
 * The driver writes registers with plain stores (an MMIO write on
 * hardware: posted, it does not wait for the NIC); the NIC acts on a write
 * later, in its own context.  The emulation's address decoder is in the
 * global page (struct rxb_bar_global): the driver's register write
 * accessor marks the page it wrote, and the NIC, when it next runs, hands
 * every marked page to the model's hardware half, which reads the
 * registers there (rxb_hw_model_ops.doorbell).
 *
 * The NIC writes its statistics and debug registers into the queues'
 * pages (struct rxb_hw_qstats, struct rxb_qdebug_regs and the model's own
 * statistics block); the driver reads them there, as it would read a
 * device's statistics registers, without calling into the NIC.
 *
 * Registers are native-endian u32 (u64 for statistics), written with
 * WRITE_ONCE()/release and read with READ_ONCE()/acquire, each written by
 * one side only.
 */
#define RXB_BAR_PAGE		4096
#define RXB_BAR_MAX_PAGES	2048	/* global + queues + model pages */

/**
 * struct rxb_bar_global - the start of a context's page 0.
 *
 * Not registers software reads: the emulation's address decoder.  The
 * driver's write accessor sets bit p of @written for a write into page p
 * and @pending when it was clear (then it wakes the NIC); the NIC clears
 * @pending, then takes @written word by word, and acts on each page.
 */
struct rxb_bar_global {
	/** @written: [0] Pages written since the NIC last looked. */
	unsigned long written[RXB_BAR_MAX_PAGES / BITS_PER_LONG];
	/** @pending: [256] Some bit of @written may be set. */
	u32 pending;
	/** @reserved: [260] Zero. */
	u32 reserved;
};

static_assert(sizeof(struct rxb_bar_global) == 264);

/* Offsets in page 0: the model's context-wide registers and statistics. */
#define RXB_GPAGE_REGS		512	/* the model's context-wide registers */
#define RXB_GPAGE_MSTATS	2048	/* u64 statistics, RXB_MSTATS_MAX */

/* Offsets in a queue's page. */
#define RXB_QPAGE_REGS		0	/* the model's queue registers */
#define RXB_QPAGE_MSTATS	1024	/* the model's u64 statistics */
#define RXB_QPAGE_STATS		3072	/* struct rxb_hw_qstats */
#define RXB_QPAGE_DEBUG		3584	/* struct rxb_qdebug_regs */
#define RXB_MSTATS_MAX		128	/* u64 statistics of a model block */

/**
 * struct rxb_hw_qstats - a queue's statistics registers, which every
 * model's hardware half keeps alike (queue page, RXB_QPAGE_STATS).
 *
 * Written by the NIC only, under the serialisation of the queue's writers
 * in the model; read by the driver with READ_ONCE().
 */
struct rxb_hw_qstats {
	/** @hw_packets: [0] Frames written to a buffer (or pipe). */
	u64 hw_packets;
	/** @hw_bytes: [8] Bytes of those frames. */
	u64 hw_bytes;
	/** @nobuf_drops: [16] Frames dropped: no buffer posted. */
	u64 nobuf_drops;
	/** @ring_full_drops: [24] Frames dropped: completion ring full. */
	u64 ring_full_drops;
	/** @oversize_drops: [32] Frames longer than the posted buffer. */
	u64 oversize_drops;
};

static_assert(sizeof(struct rxb_hw_qstats) == 40);

/**
 * struct rxb_qdebug_regs - a queue's debug registers (queue page,
 * RXB_QPAGE_DEBUG): internal indices of the NIC, for diagnosis only.
 *
 * Written by the NIC as it advances them; the driver reads them for
 * health dumps and counters, never to run the rings.
 */
struct rxb_qdebug_regs {
	/**
	 * @cq_tail: [0] Index of the next completion entry the NIC writes
	 * for the queue (its CR, Bx ring or notification ring).
	 */
	u32 cq_tail;
	/**
	 * @taken: [4] Descriptors the NIC has taken from the ring that
	 * supplies the queue's buffers, free-running (its Rx head; a
	 * shared ring's for every queue of the group; the linked Ax ring's
	 * for rxBisect, 0 if none).  Ensō: frames written to its pipes.
	 */
	u32 taken;
	/**
	 * @free: [8] Ensō: free flits of the queue's pipes; others: 0 (the
	 * driver counts what it posted beyond @taken).
	 */
	u32 free;
	/** @reserved: [12] Zero. */
	u32 reserved;
};

static_assert(sizeof(struct rxb_qdebug_regs) == 16);

/**
 * struct rxb_base_reg - a ring base address register pair: the bus address
 * of ring memory the driver allocated, written before the context (or the
 * queue) is enabled; the NIC reads it when it is.
 */
struct rxb_base_reg {
	/** @lo: [0] Low 32 bits. */
	u32 lo;
	/** @hi: [4] High 32 bits. */
	u32 hi;
};

static_assert(sizeof(struct rxb_base_reg) == 8);

/**
 * struct rxb_bar - a mapping of a context's register space, as a model's
 * half sees it: not a register layout, the view both halves compute the
 * address of a register from.
 * @base: page 0.
 * @qpage: page of queue 0's registers.
 * @xpage: first of the model's own pages beyond the queues'.
 * @npages: pages mapped from @base.
 *
 * A model composed of others (dshRing) hands each a view whose @qpage and
 * @xpage name pages of its own.
 */
struct rxb_bar {
	u8 *base;
	u32 qpage;
	u32 xpage;
	u32 npages;
};

/* Page @page of the register space. */
static inline void *rxb_bar_page(const struct rxb_bar *bar, u32 page)
{
	return bar->base + (size_t)page * RXB_BAR_PAGE;
}

/* The registers of queue @q, at @off of its page. */
static inline void *rxb_bar_q(const struct rxb_bar *bar, unsigned int q,
			      u32 off)
{
	return (u8 *)rxb_bar_page(bar, bar->qpage + q) + off;
}

/* The statistics registers of queue @q (struct rxb_hw_qstats). */
static inline struct rxb_hw_qstats *rxb_bar_qstats(const struct rxb_bar *bar,
						   unsigned int q)
{
	return rxb_bar_q(bar, q, RXB_QPAGE_STATS);
}

/* The debug registers of queue @q. */
static inline struct rxb_qdebug_regs *rxb_bar_qdebug(const struct rxb_bar *bar,
						     unsigned int q)
{
	return rxb_bar_q(bar, q, RXB_QPAGE_DEBUG);
}

/**
 * struct rxb_rx_desc - Rx descriptor: one empty buffer posted to the NIC.
 *
 * Written by the driver, read by the NIC.  Used by the privRing Rx ring.
 */
struct rxb_rx_desc {
	/** @buf_addr: [0] Bus address of the first byte the NIC may write. */
	__le64 buf_addr;
	/** @buf_len: [8] Number of bytes the NIC may write at buf_addr. */
	__le32 buf_len;
	/** @reserved: [12] Must be zero. */
	__le32 reserved;
} __packed;
static_assert(sizeof(struct rxb_rx_desc) == 16);

/*
 * Scatter buffers (multi-buffer receive, as a real NIC's non-linear
 * receive queue: mlx5's legacy RQ with several data segments per WQE,
 * virtio's indirect descriptors).  A receive context is created with a
 * scatter count (rxb_nic_ctx_create(): RXB_RX_SGE_MAX at most); with a
 * count above 1, every buffer address the ring model hands the DMA engine
 * (the buf_addr of its descriptors) is the bus address of a scatter list,
 * not of packet data.  The NIC reads the list's first count entries with
 * each frame, before writing it, and fills the segments in order; the
 * completion entry's length is the whole frame's.  A list too short for
 * the frame, or an entry of length 0 before the frame ends, fails the
 * write as a DMA error (RXB_CQE_F_DMA_ERR).  Ring models see none of
 * this: to them a scatter buffer is a buffer of the posted length.
 */
#define RXB_RX_SGE_MAX	4	/* most segments of a scatter buffer */

/**
 * struct rxb_rx_sge - scatter list entry: one segment of a buffer.
 *
 * Written by the driver before it posts the buffer, read by the NIC.
 */
struct rxb_rx_sge {
	/** @addr: [0] Bus address of the segment's first byte. */
	__le64 addr;
	/** @len: [8] Bytes the NIC may write there; 0 ends the list. */
	__le32 len;
	/** @reserved: [12] Must be zero. */
	__le32 reserved;
} __packed;
static_assert(sizeof(struct rxb_rx_sge) == 16);

/**
 * struct rxb_rx_sgl - scatter list of one buffer, at the bus address the
 * buffer is posted with (8-byte aligned).
 */
struct rxb_rx_sgl {
	/** @sge: [0] The segments, in the order the frame fills them. */
	struct rxb_rx_sge sge[RXB_RX_SGE_MAX];
} __packed;
static_assert(sizeof(struct rxb_rx_sgl) == 16 * RXB_RX_SGE_MAX);

/* Completion entry flags (rxb_cqe.flags). */
#define RXB_CQE_F_DONE		0x01	/* done bit: equals the NIC's generation */
#define RXB_CQE_F_L4_HASH	0x02	/* rss_hash covers the L4 4-tuple */
#define RXB_CQE_F_L3_HASH	0x04	/* rss_hash covers the L3 addresses only */
#define RXB_CQE_F_CSUM		0x08	/* csum is valid */
/*
 * The DMA write of the packet failed (a bus or IOMMU error): the buffer's
 * content is undefined.  The NIC still consumed the buffer and reports it
 * here, so that software gets it back; software drops the packet.
 */
#define RXB_CQE_F_DMA_ERR	0x40

/**
 * struct rxb_cqe - completion ring (CR) entry: one received packet.
 *
 * Written by the NIC, read by the driver.  The NIC writes every other field
 * first and @flags last, with release semantics; the driver reads @flags with
 * acquire semantics and only then the other fields.  Every field is at an
 * offset that is a multiple of its size (byte offsets in brackets).
 *
 * The batched RxList model (shring-batched) uses the same entry with
 * @buf_off in place of @ring_id: its descriptors' buffers hold several
 * packets (thesis section 5.1.4, "Prefetching Solution", Figure 5.2b).
 * The NIC keeps one current descriptor per CR (its "mini hwHead") and
 * places that CR's packets in it back to back, each at the next
 * RXB_MCQE_ALIGN-aligned offset, until the next packet does not fit; then
 * it takes the next descriptor from the list and sets RXB_MCQE_F_CLOSE on
 * the first entry it writes for the new one.
 */
struct rxb_cqe {
	/**
	 * @rss_hash: [0] Toeplitz RSS hash of the packet (see
	 * RXB_CQE_F_*_HASH).
	 */
	__le32 rss_hash;
	/**
	 * @csum: [4] 32-bit ones' complement sum of the bytes after the
	 * Ethernet header (what Linux calls CHECKSUM_COMPLETE), valid with
	 * RXB_CQE_F_CSUM.
	 */
	__le32 csum;
	/**
	 * @desc_idx: [8] Index (slot) of the Rx descriptor whose buffer holds
	 * the packet.
	 */
	__le16 desc_idx;
	/**
	 * @pkt_len: [10] Bytes written to the buffer, from the Ethernet header
	 * on.
	 */
	__le16 pkt_len;
	union {
		/** @ring_id: [12] Rx ring that desc_idx refers to. */
		__le16 ring_id;
		/**
		 * @buf_off: [12] batched RxList: byte offset of the packet in
		 * the descriptor's buffer, a multiple of RXB_MCQE_ALIGN.
		 */
		__le16 buf_off;
	};
	/** @reserved: [14] Must be zero. */
	u8 reserved;
	/**
	 * @flags: [15] RXB_CQE_F_* (and RXB_MCQE_F_CLOSE); the done bit is
	 * what software polls.
	 */
	u8 flags;
} __packed;
static_assert(sizeof(struct rxb_cqe) == 16);
static_assert(offsetof(struct rxb_cqe, csum) % 4 == 0);
static_assert(offsetof(struct rxb_cqe, buf_off) == 12);

/* rxBisect reception (Bx) entry flags (rxb_bxe.flags), besides DONE, hash,
 * CSUM and DMA_ERR bits shared with rxb_cqe.flags.
 */
#define RXB_BXE_F_PKT		0x10	/* the entry carries a packet */
#define RXB_BXE_F_NOTIFY	0x20	/* the entry reports that the NIC
					 * consumed Ax slot ax_idx of ax_ring
					 */

/**
 * struct rxb_bxe - rxBisect bisected reception (Bx) ring entry.
 *
 * Written by the NIC, read by the driver, with the same release/acquire
 * protocol on @flags as struct rxb_cqe (rxbisect paper section 4.1).  One
 * entry is a packet (RXB_BXE_F_PKT), a buffer-consumed notification for
 * the Ax ring linked to this Bx ring (RXB_BXE_F_NOTIFY), or both (the
 * common case: the buffer came from the receiving queue's own Ax ring).
 * The Ax ring of an allocation ring is used in ring order, and all its
 * notifications go to its one linked Bx ring in that order.
 */
struct rxb_bxe {
	/** @buf_addr: [0] Bus address of the packet's buffer (RXB_BXE_F_PKT). */
	__le64 buf_addr;
	/**
	 * @rss_hash: [8] Toeplitz RSS hash (with RXB_CQE_F_L4_HASH or _L3_HASH).
	 */
	__le32 rss_hash;
	/** @csum: [12] Checksum, as in struct rxb_cqe (with RXB_CQE_F_CSUM). */
	__le32 csum;
	/** @pkt_len: [16] Packet length (RXB_BXE_F_PKT). */
	__le16 pkt_len;
	/** @ax_idx: [18] Slot of the Ax descriptor whose buffer the NIC consumed. */
	__le16 ax_idx;
	/** @ax_ring: [20] Ax ring of ax_idx. */
	__le16 ax_ring;
	/** @reserved0: [22] Must be zero. */
	u8 reserved0;
	/**
	 * @flags: [23] RXB_CQE_F_DONE (generation), RXB_BXE_F_*, hash, CSUM,
	 * DMA_ERR.
	 */
	u8 flags;
	/** @reserved1: [24] Must be zero: pads the entry to half a cache line. */
	__le64 reserved1;
} __packed;
static_assert(sizeof(struct rxb_bxe) == 32);
static_assert(offsetof(struct rxb_bxe, csum) % 4 == 0);
static_assert(offsetof(struct rxb_bxe, reserved1) % 8 == 0);

/*
 * rxBisect's registers (hw/models/rxbisect.c, drv/models/rxbisect.c;
 * rxbisect paper section 4).  Per queue, in its page: struct
 * rxb_axbx_regs (RXB_QPAGE_REGS) and struct rxb_rxbisect_qstats_regs
 * (RXB_QPAGE_MSTATS).  The queue's debug registers (struct
 * rxb_qdebug_regs) hold the NIC's head of the Ax ring linked to the queue
 * (@taken; 0 if none) and its tail of the queue's Bx ring (@cq_tail).
 * The driver reads @taken for diagnosis (ethtool -S ax_outstanding), and
 * once at teardown, with the context disabled: the Ax slots below it are
 * the buffers the NIC took, whose reports may still be held in the NIC
 * (notif_compress).
 *
 * The topology (ax_link, ax_assoc_map) is a parameter of the "create
 * receive context" command (struct rxb_model_cfg): both halves parse it
 * (include/rxbisect/rxb_topo.h).
 */

/**
 * struct rxb_axbx_regs - rxBisect: a queue's registers.
 *
 * Written by the driver, read by the NIC, as struct rxb_rxq_regs: the NIC
 * reads @ax_tail and @bx_head (acquire) when it next needs them, for a
 * frame, so a write asks nothing more of it.  The base registers are
 * written before the context is enabled.
 */
struct rxb_axbx_regs {
	/**
	 * @ax_tail: [0] Producer index of the Ax ring linked to the queue:
	 * empty buffers posted up to here.  Written with release after the
	 * descriptors.
	 */
	u32 ax_tail;
	/**
	 * @bx_head: [4] Bx ring consumer index: entries consumed up to here,
	 * so the NIC may overwrite them.  Written with release.
	 */
	u32 bx_head;
	/**
	 * @ax_base: [8] Bus address of the Ax ring linked to the queue
	 * (ax_ring_size struct rxb_rx_desc); zero when none is (ax_link).
	 */
	struct rxb_base_reg ax_base;
	/**
	 * @bx_base: [16] Bus address of the queue's Bx ring (ring_size
	 * struct rxb_bxe).
	 */
	struct rxb_base_reg bx_base;
};

static_assert(sizeof(struct rxb_axbx_regs) == 24);

/**
 * struct rxb_rxbisect_qstats_regs - rxBisect: a queue's own statistics
 * registers (queue page, RXB_QPAGE_MSTATS), beyond struct rxb_hw_qstats.
 *
 * Written by the NIC only, in its ring-assignment stage; read by the
 * driver with READ_ONCE() (ethtool -S rx<q>_<name>).
 */
struct rxb_rxbisect_qstats_regs {
	/**
	 * @borrowed: [0] Packets to this queue's Bx ring in a buffer of
	 * another Ax ring.
	 */
	u64 borrowed;
	/**
	 * @lent: [8] Buffers of the Ax ring linked to this queue that went
	 * to another Bx ring.
	 */
	u64 lent;
	/** @notif_entries: [16] Notification-only entries written here. */
	u64 notif_entries;
	/**
	 * @notif_compressed: [24] Of those, the ones held back before being
	 * written, with notif_compress on.
	 */
	u64 notif_compressed;
	/** @ax_empty: [32] Packets that found this queue's own Ax empty. */
	u64 ax_empty;
};

static_assert(sizeof(struct rxb_rxbisect_qstats_regs) == 40);

/**
 * struct rxb_rxq_regs - per-queue doorbell registers of the emulated NIC.
 *
 * The driver writes them (an MMIO write on real hardware), the NIC reads
 * them.  Each register is written by one side only.
 */
struct rxb_rxq_regs {
	/**
	 * @rx_tail: [0] Rx ring producer (tail) index: the driver has posted
	 * descriptors up to, not including, this index. Written with release by
	 * the driver after the descriptors; read with acquire by the NIC.
	 */
	u32 rx_tail;
	/**
	 * @cq_head: [4] CR consumer index: the driver has consumed completions
	 * up to, not including, this index, so the NIC may overwrite those
	 * entries.
	 */
	u32 cq_head;
	/** @rx_base: [8] Bus address of the Rx ring (struct rxb_rx_desc). */
	struct rxb_base_reg rx_base;
	/** @cq_base: [16] Bus address of the CR (struct rxb_cqe). */
	struct rxb_base_reg cq_base;
};

static_assert(sizeof(struct rxb_rxq_regs) == 24);

/**
 * struct rxb_rx_ldesc - Rx descriptor of a linked-list shared ring (RxList).
 *
 * Written by the driver, read by the NIC.  The empty-buffer list of an
 * RxList ring (thesis section 5.1.4, Listing 5.2) is overlaid on the
 * descriptor array: each posted descriptor names the next one.  The NIC
 * takes descriptors in list order and never takes the list's last one
 * (hwTail): that one only marks the end, so the driver can always link a
 * new chain after it without racing the NIC.
 */
struct rxb_rx_ldesc {
	/** @buf_addr: [0] Bus address of the first byte the NIC may write. */
	__le64 buf_addr;
	/** @buf_len: [8] Number of bytes the NIC may write at buf_addr. */
	__le32 buf_len;
	/**
	 * @next: [12] Slot of the next descriptor in the list; valid while this one
	 * is posted and is not the list's last.
	 */
	__le32 next;
} __packed;
static_assert(sizeof(struct rxb_rx_ldesc) == 16);

/* Batched RxList completion entry flags (rxb_cqe.flags), besides DONE,
 * hash, CSUM and DMA_ERR.
 */
#define RXB_MCQE_F_CLOSE	0x10	/* the CR's previous descriptor is
					 * closed: the NIC writes no more
					 * packets into it, and every packet
					 * it holds has an entry before this
					 * one
					 */

#define RXB_MCQE_F_NOPKT	0x20	/* with RXB_MCQE_F_CLOSE: the entry
					 * carries no packet; the NIC closed
					 * the CR's current descriptor,
					 * desc_idx, after its idle timeout
					 */

/* Batched RxList: each packet starts at a multiple of this in its buffer. */
#define RXB_MCQE_ALIGN		64

/*
 * shRing (hw/models/shring*.c and drv/models/shring*.c; thesis chapter 5):
 * queues grouped by the share factor share Rx descriptor rings, each
 * queue keeps its own completion ring (include/rxbisect/rxb_shring.h:
 * the groups).  The register space of a context:
 *
 *  - queue q's page: struct rxb_cq_regs at RXB_QPAGE_REGS, struct
 *    rxb_shring_qstats_regs at RXB_QPAGE_MSTATS, the common statistics and
 *    struct rxb_qdebug_regs (cq_tail: the queue's CR; taken: 0, the
 *    queue's buffers come from its group's ring, whose page has it);
 *  - shared ring g's page, page xpage + g (rxb_shring_ring_page()):
 *    struct rxb_shring_regs at RXB_QPAGE_REGS, struct
 *    rxb_shring_rstats_regs at RXB_QPAGE_MSTATS and struct
 *    rxb_qdebug_regs at RXB_QPAGE_DEBUG (taken: descriptors the NIC took
 *    from the ring, free-running; cq_tail 0).
 *
 * The NIC reads the doorbells when it next needs them (its next frame for
 * the group), so a write needs no action of its own.
 */

/**
 * struct rxb_shring_regs - registers of one shared Rx ring (shRing), at
 * RXB_QPAGE_REGS of the ring's page.
 *
 * Written by the driver (any queue sharing the ring, under the ring's
 * lock), read by the NIC, with the protocol of struct rxb_rxq_regs.
 */
struct rxb_shring_regs {
	/**
	 * @rx_tail: [0] RxArr: producer (tail) index, descriptors posted up
	 * to here.  RxList: descriptors appended to the empty-buffer list so
	 * far.  Release by the driver, acquire by the NIC.
	 */
	u32 rx_tail;
	/** @reserved: [4] Zero. */
	u32 reserved;
	/**
	 * @rx_base: [8] Bus address of the descriptor array (RxArr: struct
	 * rxb_rx_desc; RxList: struct rxb_rx_ldesc), ring_size entries.
	 */
	struct rxb_base_reg rx_base;
};

static_assert(sizeof(struct rxb_shring_regs) == 16);

/**
 * struct rxb_cq_regs - registers of one completion ring of a shared ring,
 * at RXB_QPAGE_REGS of its queue's page.
 *
 * Written by the queue's driver, read by the NIC.
 */
struct rxb_cq_regs {
	/** @cq_head: [0] CR consumer index, as rxb_rxq_regs.cq_head. */
	u32 cq_head;
	/** @reserved: [4] Zero. */
	u32 reserved;
	/** @cq_base: [8] Bus address of the CR (struct rxb_cqe). */
	struct rxb_base_reg cq_base;
};

static_assert(sizeof(struct rxb_cq_regs) == 16);

/**
 * struct rxb_shring_qstats_regs - shRing statistics registers of a queue,
 * at RXB_QPAGE_MSTATS of its page.
 *
 * Written by the NIC under the pipeline stage of the queue's ring, read by
 * the driver with READ_ONCE() (ethtool -S rxN_nobuf_victim_drops).
 */
struct rxb_shring_qstats_regs {
	/**
	 * @nobuf_victim_drops: [0] No-buffer drops while the queue's CR held
	 * fewer than its fair share of the shared ring (ring size / queues
	 * of its group, rxb_shring_fair_share()): the other queues' packets
	 * held the ring (thesis section 5.1.1).
	 */
	u64 nobuf_victim_drops;
};

static_assert(sizeof(struct rxb_shring_qstats_regs) == 8);

/**
 * struct rxb_shring_rstats_regs - statistics registers of one RxList
 * shared ring (shring-list, shring-batched), at RXB_QPAGE_MSTATS of the
 * ring's page.  RxArr leaves them zero.
 *
 * Written by the NIC under the ring's pipeline stage, read by the driver
 * with READ_ONCE() (ethtool -S ringG_out_of_order, ringG_idle_closes).
 */
struct rxb_shring_rstats_regs {
	/**
	 * @out_of_order: [0] Descriptors taken that were not the slot after
	 * the one taken before: each would miss a contiguous descriptor
	 * prefetch (thesis Figure 5.3).
	 */
	u64 out_of_order;
	/**
	 * @idle_closes: [8] Batched RxList: descriptors the NIC's idle timer
	 * closed (RXB_MCQE_F_NOPKT entries).
	 */
	u64 idle_closes;
};

static_assert(sizeof(struct rxb_shring_rstats_regs) == 16);

/*
 * Dynamic shRing (dshring; thesis sections 5.1.5-5.1.6): a privRing ring
 * set and an RxArr ring set side by side, each programmed as its model
 * programs a context, in pages of its own (rxb_dsh_set_bar()): after page
 * 0 and dshRing's queue pages come the privRing set's queue pages, then the
 * RxArr set's queue pages and its shared rings' pages.  dshRing's queue
 * page holds struct rxb_dsh_regs at RXB_QPAGE_REGS and the queue's common
 * statistics (every frame of the queue, whichever set took it).
 */

/**
 * struct rxb_dsh_regs - dshRing's steering registers of one queue, at
 * RXB_QPAGE_REGS of dshRing's page of the queue.
 */
struct rxb_dsh_regs {
	/**
	 * @select: [0] Driver: the ring set the NIC delivers the queue's
	 * frames to (RXB_DSH_PRIV or RXB_DSH_SH): which of the two
	 * pre-programmed RSS table sets steers the queue.  The NIC reads it
	 * (acquire) at each frame of the queue and latches a change there.
	 */
	u32 select;
	/** @reserved: [4] Zero. */
	u32 reserved;
	/**
	 * @status_base: [8] Driver: bus address of the queue's struct
	 * rxb_dsh_status in host memory, where the NIC reports the set it
	 * delivers to.
	 */
	struct rxb_base_reg status_base;
};

static_assert(sizeof(struct rxb_dsh_regs) == 16);

/**
 * struct rxb_dsh_status - dshRing: a queue's steering status, written back
 * by the NIC into host memory (struct rxb_dsh_regs.status_base), as a
 * NIC writes back a completion, so that the driver's poll reads host
 * memory only.
 */
struct rxb_dsh_status {
	/**
	 * @active: [0] The ring-set changes the NIC latched for the queue,
	 * free-running; bit 0 is the set it delivers to.  The NIC writes it
	 * with release before its first delivery to the new set, after
	 * every delivery to the old one; the driver reads it with acquire
	 * and drains the old set first.  A count rather than the set, so a
	 * driver that missed a change and its reversal still drains.
	 */
	__le32 active;
	/** @reserved: [4] Zero. */
	__le32 reserved;
};

static_assert(sizeof(struct rxb_dsh_status) == 8);

/* dshRing's ring sets (struct rxb_dsh_regs.select). */
#define RXB_DSH_PRIV	0
#define RXB_DSH_SH	1
#define RXB_DSH_NSETS	2

/*
 * COREC (hw/models/corec.c, drv/models/corec.c; Faltelli et al., "COREC:
 * Concurrent Non-Blocking Single-Queue Receive Driver for Low Latency
 * Networking", section 3.4).  The NIC is unmodified: per shared queue (a
 * group of consecutive queues, include/rxbisect/rxb_corec.h), privRing's
 * Rx ring of struct rxb_rx_desc, completion ring of struct rxb_cqe
 * (@ring_id: the shared queue) and struct rxb_rxq_regs, at
 * RXB_QPAGE_REGS of the page of the group's first queue.  That page's
 * debug registers (struct rxb_qdebug_regs) are the shared queue's indices;
 * the other queues of the group have none.  The indices of both rings
 * start at RXB_COREC_ID0.  When the NIC writes a completion it raises the
 * vector of the group's next queue, round-robin, or of every queue of the
 * group (corec_irq_policy).  The driver's consumers of the group
 * coordinate among themselves in host memory; the NIC sees one in-order
 * consumer of each shared queue.
 */

/**
 * struct rxb_corec_qstats_regs - COREC: a shared queue's own statistics
 * registers, at RXB_QPAGE_MSTATS of the page of the group's first queue.
 *
 * Written by the NIC, under the shared queue's serialisation; read by the
 * driver with READ_ONCE() (ethtool -S ring<r>_*).
 */
struct rxb_corec_qstats_regs {
	/**
	 * @nobuf_drops: [0] Frames dropped at the shared queue: no
	 * descriptor posted.  Each is also counted in the nobuf_drops of
	 * the queue RSS chose (struct rxb_hw_qstats).
	 */
	u64 nobuf_drops;
};

static_assert(sizeof(struct rxb_corec_qstats_regs) == 8);

/*
 * Ensō (drivers/net/rxbisect/{hw,drv}/models/enso.c; Sadok et al., OSDI
 * '23, sections 3-5).  No descriptors: per receive queue one or more pipes,
 * contiguous data rings the NIC appends frames to back to back, and per
 * interrupt vector (queue) one notification ring shared by that queue's
 * pipes.  Where the paper is silent, Ensō's public library
 * (github.com/crossroadsfpga/enso, consts.h and internals.h) fixes the
 * choice, marked "(library)" below; "(ours)" marks what neither fixes.
 *
 * Pipe framing (ours): each frame starts at a multiple of RXB_ENSO_FLIT
 * bytes from the pipe's start with a struct rxb_enso_hdr, the frame's bytes
 * follow at once, and the next frame starts at the next flit boundary after
 * them.  The library instead finds the next packet from the IPv4 total
 * length (raw IPv4 only); the header carries the length of any frame plus
 * what a completion entry reports (hash, checksum), so no model's packets
 * lose an offload: 16 bytes of metadata per frame, in the pipe.
 *
 * Head and tail of a pipe are flit offsets in 0..size/RXB_ENSO_FLIT - 1
 * (library); the NIC keeps one flit free, so head == tail means empty.  A
 * frame may straddle the pipe's end: the driver maps the pipe twice in a
 * row (rxb_drv_ring_ops.map) and reads it in one piece.  A frame that does
 * not fit the free space is dropped whole (library), counted in
 * rxb_hw_qstats.ring_full_drops.
 *
 * Register space (section 4.1.2: "each queue's MMIO pointer register pair
 * is kept in its own dedicated page-aligned block", so that the kernel can
 * map a queue's registers into the application that owns it):
 *  - queue q's page: the notification ring's registers (struct
 *    rxb_enso_notif_regs at RXB_QPAGE_REGS) and the NIC's Ensō statistics
 *    (struct rxb_enso_qstats_regs at RXB_QPAGE_MSTATS); its debug registers
 *    (struct rxb_qdebug_regs) hold the notification ring's tail (cq_tail),
 *    the frames written to the queue's pipes (taken) and their free flits
 *    (free);
 *  - pipe p of queue q: page xpage + q * pipes per queue + p of the model's
 *    view (struct rxb_bar), holding struct rxb_enso_pipe_regs at offset 0
 *    and nothing else (rxb_enso_pipe_page()).
 * The NIC acts on a write into a pipe's page (Fig. 5, onRxUpdate) and on
 * a write of a queue's notification head (it frees entries, so the NIC
 * sends the notifications it dropped), later, in its own context
 * (rxb_hw_model_ops.doorbell).
 */
#define RXB_ENSO_FLIT		64	/* pipe unit: alignment, head, tail */
#define RXB_ENSO_PIPE_MIN	4096	/* smallest pipe, bytes */
#define RXB_ENSO_PIPE_MAX	(2U << 20)	/* largest, (library) 32768 flits */
#define RXB_ENSO_MAX_PIPES	1024	/* pipes of all queues the NIC holds */
#define RXB_ENSO_MAX_PIPES_Q	512	/* pipes of one queue (vector) */
#define RXB_ENSO_NOTIF_BATCH	64	/* (library) most notifications the
					 * driver consumes per head write
					 */

/**
 * struct rxb_enso_hdr - Ensō: the NIC's header in front of each frame in a
 * pipe (our framing, see above).
 *
 * Written by the NIC with the frame, before the notification that covers
 * it; read by the driver after that notification.
 */
struct rxb_enso_hdr {
	/** @len: [0] Frame length in bytes, from the Ethernet header on. */
	__le16 len;
	/** @flags: [2] RXB_CQE_F_* hash, CSUM and DMA_ERR bits. */
	u8 flags;
	/** @reserved0: [3] Zero. */
	u8 reserved0;
	/** @rss_hash: [4] Toeplitz RSS hash, as rxb_cqe.rss_hash. */
	__le32 rss_hash;
	/** @csum: [8] Checksum of the frame, as rxb_cqe.csum. */
	__le32 csum;
	/** @reserved1: [12] Zero. */
	__le32 reserved1;
} __packed;
static_assert(sizeof(struct rxb_enso_hdr) == 16);

/**
 * struct rxb_enso_pipe_regs - Ensō: a pipe's register block (library: the
 * per-queue block of internals.h, the Tx half unused here), alone on its
 * own page of the register space.
 *
 * @rx_head is Head_SW: the driver writes it (an MMIO write on hardware)
 * and the NIC's pipe manager acts on the write (Fig. 5, onRxUpdate), when
 * its doorbell service next runs.  Every write into the page is an event,
 * so writing the value @rx_head already holds is the prefetch doorbell
 * (section 4.2, "notification prefetching": "notify this pipe now"): the
 * NIC then notifies whatever Tail_NIC holds beyond it.  Writes the NIC has
 * not served yet coalesce into one event, handled with the last value
 * written.  @rx_tail is Tail_NIC as a debug register: the driver learns
 * the tail from notifications only (reading it would be an MMIO read,
 * which Appendix A rejects); the NIC keeps its own copy and only mirrors
 * it here, so a write into the page (an application's, once pages are
 * mapped into one) cannot move the NIC's tail.
 */
struct rxb_enso_pipe_regs {
	/** @rx_tail: [0] Tail_NIC, flits; written by the NIC, debug only. */
	u32 rx_tail;
	/** @rx_head: [4] Head_SW, flits; written by the driver, read by the NIC. */
	u32 rx_head;
	/**
	 * @rx_mem: [8] Bus address of the pipe (library: rx_mem_low, then
	 * rx_mem_high), aligned to RXB_ENSO_PIPE_MIN; written by the driver
	 * before the context is enabled, read by the NIC once, when it is
	 * (later writes do not move the pipe).
	 */
	struct rxb_base_reg rx_mem;
	/** @tx_reserved: [16] The library's Tx registers; unused. */
	u32 tx_reserved[4];
	/**
	 * @ts_mem: [32] With receive stamps (rxb_model_cfg.rx_tstamp): bus
	 * address of the pipe's stamp ring, one __le64 per flit of the pipe
	 * (RXB_TSTAMP); written by the driver before the context is enabled,
	 * read by the NIC once, when it is; unused without.
	 */
	struct rxb_base_reg ts_mem;
	/** @pad: [40] Up to 64 bytes. */
	u32 pad[6];
};

static_assert(sizeof(struct rxb_enso_pipe_regs) == 64);
static_assert(offsetof(struct rxb_enso_pipe_regs, rx_mem) == 8);
static_assert(offsetof(struct rxb_enso_pipe_regs, ts_mem) == 32);

/**
 * struct rxb_enso_notif_regs - Ensō: a notification ring's registers, at
 * RXB_QPAGE_REGS of its queue's page.
 */
struct rxb_enso_notif_regs {
	/**
	 * @head: [0] NotificationHead_SW: entries the driver consumed, a
	 * free-running count; written by the driver with release after it
	 * cleared their signals, up to RXB_ENSO_NOTIF_BATCH at a time; read
	 * by the NIC before it writes an entry, and when the write is served
	 * (the notifications it dropped for want of room go out then).
	 */
	u32 head;
	/** @reserved: [4] Zero. */
	u32 reserved;
	/**
	 * @base: [8] Bus address of the ring (struct rxb_enso_notif, rx
	 * ring size entries); written by the driver before the context is
	 * enabled, read by the NIC when it is.
	 */
	struct rxb_base_reg base;
	/** @pad: [16] Up to 64 bytes. */
	u32 pad[12];
};

static_assert(sizeof(struct rxb_enso_notif_regs) == 64);

/**
 * struct rxb_enso_qstats_regs - Ensō: the NIC's statistics of a queue
 * (queue page, RXB_QPAGE_MSTATS), as ethtool -S names them.
 *
 * Written by the NIC only, under its lock of the queue; read by the driver
 * with READ_ONCE().
 */
struct rxb_enso_qstats_regs {
	/** @notifs: [0] Notifications written. */
	u64 notifs;
	/** @notif_drops: [8] Notifications dropped: the ring was full. */
	u64 notif_drops;
	/** @suppressed: [16] Frames not notified (status bit set). */
	u64 suppressed;
	/** @notif_retries: [24] Dropped notifications sent again. */
	u64 notif_retries;
	/** @flow_binds: [32] Flows bound to a pipe of the queue. */
	u64 flow_binds;
	/** @flow_moves: [40] Of them, flows bound on another queue before. */
	u64 flow_moves;
};

static_assert(sizeof(struct rxb_enso_qstats_regs) <= 8 * RXB_MSTATS_MAX);

/**
 * struct rxb_enso_notif - Ensō: a notification (library: 64 bytes,
 * {signal, queue_id, tail, pad}).
 *
 * The NIC writes @pipe and @tail, then @signal = 1 with release (after a
 * write barrier on hardware); the driver reads @signal with acquire, then
 * the rest, then clears @signal before it gives the entry back through
 * rxb_enso_notif_regs.head.
 */
struct rxb_enso_notif {
	/** @signal: [0] 1: the entry holds a notification. */
	u64 signal;
	/** @pipe: [8] Pipe (library: queue_id), numbered across queues. */
	__le64 pipe;
	/** @tail: [16] Tail_NIC of that pipe when notified, flits. */
	__le64 tail;
	/** @pad: [24] Up to 64 bytes. */
	__le64 pad[5];
};

static_assert(sizeof(struct rxb_enso_notif) == 64);

/**
 * rxb_enso_frame_flits() - Ensō: flits a frame takes in a pipe.
 * @len: the frame's length in bytes.
 *
 * Return: flits of its header and bytes (our framing, see above).
 */
static inline u32 rxb_enso_frame_flits(u32 len)
{
	return (sizeof(struct rxb_enso_hdr) + len + RXB_ENSO_FLIT - 1) /
	       RXB_ENSO_FLIT;
}

#define RXB_ENSO_GAP_MAX	15	/* Chaotic Ensō: longest gap, flits */

/**
 * rxb_enso_gap() - Chaotic Ensō (section 7.2.3): flits the NIC leaves free
 *	after a frame, "computed deterministically based on the message's
 *	current position" (ours: 0..RXB_ENSO_GAP_MAX flits from a
 *	multiplicative hash of the frame's first flit), so that the driver
 *	finds the next frame without being told.
 * @chaotic: the context's enso_chaotic; false: frames back to back.
 * @pos: the frame's first flit in its pipe.
 *
 * Return: the gap in flits.
 */
static inline u32 rxb_enso_gap(bool chaotic, u32 pos)
{
	return chaotic ? (pos * 0x9e3779b1U) >> 28 : 0;
}

/**
 * rxb_enso_pipe_page() - Ensō: the page of a pipe's registers.
 * @bar: the model's view of the register space.
 * @pipes: pipes per queue (enso_pipes).
 * @q: the queue.
 * @p: the pipe, below @pipes.
 *
 * Return: the page index, in @bar.
 */
static inline u32 rxb_enso_pipe_page(const struct rxb_bar *bar, u32 pipes,
				     unsigned int q, unsigned int p)
{
	return bar->xpage + q * pipes + p;
}

/**
 * rxb_enso_pipe_regs() - Ensō: a pipe's registers (struct
 *	rxb_enso_pipe_regs at the start of its page).
 * @bar: the model's view of the register space.
 * @pipes: pipes per queue.
 * @q: the queue.
 * @p: the pipe.
 *
 * Return: the registers.
 */
static inline struct rxb_enso_pipe_regs *
rxb_enso_pipe_regs(const struct rxb_bar *bar, u32 pipes, unsigned int q,
		   unsigned int p)
{
	return rxb_bar_page(bar, rxb_enso_pipe_page(bar, pipes, q, p));
}

/*
 * Ensō user pipes (section 4.1.2, "the kernel can map a queue's registers
 * into the application that owns it"): beyond the kernel's pipes, the NIC
 * of an Ensō context holds RXB_ENSO_UCTX notification rings and
 * RXB_ENSO_UPIPES pipes that the driver lends to applications
 * (drv/enso_user.c).  Pages from rxb_enso_user_page(bar, pipes, nqueues)
 * on, in this order:
 *  - RXB_ENSO_UCTX pages, one per user notification ring, with struct
 *    rxb_enso_unotif_regs at offset 0;
 *  - RXB_ENSO_UPIPES pages, one per user pipe, with struct
 *    rxb_enso_upipe_regs at offset 0;
 *  - RXB_ENSO_UCFG_PAGES configuration pages the driver alone writes:
 *    struct rxb_enso_upipe_cfg[RXB_ENSO_UPIPES], then struct
 *    rxb_enso_uctx_cfg[RXB_ENSO_UCTX].
 * The driver maps a ring's and its pipes' pages (the first two kinds) into
 * the owning process, never a configuration page: what the process can
 * write is its Head_SW, its NotificationHead_SW and a prefetch counter.
 *
 * The process's stores reach no address decoder (rxb_bar_global marks
 * only the driver's writes): the NIC scans the registers of its enabled
 * user rings and pipes itself, in its own context: before it writes a
 * frame into a user pipe, and from its timer every RXB_ENSO_USCAN_NS while
 * any user ring is enabled.  A register whose value changed since the NIC
 * last read it is a write; a write of @rx_head or @prefetch is Figure 5's
 * onRxUpdate.  A value the NIC cannot take is not applied and counts in
 * the register block's @bad_writes: a Head_SW that is not a flit of the
 * pipe or lies beyond Tail_NIC (not in (Head_SW, Tail_NIC] as the NIC last
 * read it), a NotificationHead_SW beyond the entries the NIC wrote or
 * behind the last one it read.
 *
 * Enable and disable go through the configuration page (driver writes,
 * rxb_reg_write(), served by the doorbell service): the NIC latches a
 * ring's or pipe's configuration when @ctl turns nonzero and answers in
 * @state (@ctl's value, or RXB_ENSO_USTATE_REFUSED); once @state reads 0
 * after @ctl turned 0 the NIC reads and writes the ring or pipe no more
 * (the driver frees it then).  A pipe's @ctl is RXB_ENSO_UCTL_ON when it
 * is created (the NIC may read it for TX notifications), with
 * RXB_ENSO_UCTL_RX too once it is bound (its key latched then): a user
 * pipe takes the frames of the flow its key matches (the NIC's flow
 * table, as Ensō binds 5-tuples) on whatever queue RSS or an ntuple rule
 * chose, before the kernel's pipes; no stamps.  A user notification's
 * @pipe is the pipe's @tag.
 *
 * Transmit (rxb_enso_user.h, struct rxb_enso_txnotif): each user ring has
 * a TX notification ring of as many entries (@tx_base) and TX registers
 * (rxb_enso_unotif_regs.tx).  The NIC reads @tx.tx_tail in the same scans
 * as the rest (never in the driver's call); for each entry posted it
 * reads the entry (a descriptor read on the interconnect), checks it
 * (the pipe an enabled pipe of the ring with that @tag, the offset below
 * its size, the length a frame's that fits the pipe), reads the frame
 * from the pipe (a data read) and sends it on the port's wire from the
 * ring's @queue, then writes the completion over the entry (status,
 * then signal 0) and @tx.tx_head.  A refused entry is completed with its
 * status and counted in @tx.bad_notifs; nothing of the pipes is read for
 * it.
 */
#define RXB_ENSO_UCTL_ON	1	/* pipe enabled (TX may name it) */
#define RXB_ENSO_UCTL_RX	2	/* and it takes its flow */
#define RXB_ENSO_USTATE_REFUSED	2	/* the NIC's answer: refused */
#define RXB_ENSO_UCTX		8	/* user notification rings per port */
#define RXB_ENSO_UPIPES		64	/* user pipes per port */
#define RXB_ENSO_UCFG_PAGES	3	/* configuration pages */
#define RXB_ENSO_USER_PAGES	(RXB_ENSO_UCTX + RXB_ENSO_UPIPES + \
				 RXB_ENSO_UCFG_PAGES)
#define RXB_ENSO_USCAN_NS	50000	/* the NIC's scan of user registers */

/**
 * struct rxb_enso_unotif_regs - Ensō: a user notification ring's registers
 * (mapped into the owning process).
 */
struct rxb_enso_unotif_regs {
	/** @head: [0] NotificationHead_SW: entries consumed, free-running. */
	u32 head;
	/** @tail: [4] Entries the NIC wrote, free-running; NIC, debug. */
	u32 tail;
	/** @notifs: [8] Notifications written (NIC). */
	u64 notifs;
	/** @drops: [16] Notifications dropped, ring full (NIC). */
	u64 drops;
	/** @bad_writes: [24] @head values refused (NIC). */
	u64 bad_writes;
	/** @pad: [32] Zero. */
	u64 pad[4];
	/** @tx: [64] Transmit (rxb_enso_user.h, RXB_ENSO_UTX_REGS_OFF). */
	struct rxb_enso_utx_regs tx;
};

static_assert(offsetof(struct rxb_enso_unotif_regs, tx) ==
	      RXB_ENSO_UTX_REGS_OFF);

/**
 * struct rxb_enso_upipe_regs - Ensō: a user pipe's registers (mapped into
 * the owning process).
 */
struct rxb_enso_upipe_regs {
	/** @rx_tail: [0] Tail_NIC, flits; NIC, debug. */
	u32 rx_tail;
	/** @rx_head: [4] Head_SW, flits; the process writes it. */
	u32 rx_head;
	/** @prefetch: [8] Any new value asks for a notification now. */
	u32 prefetch;
	/** @reserved: [12] Zero. */
	u32 reserved;
	/** @packets: [16] Frames written (NIC). */
	u64 packets;
	/** @bytes: [24] Their bytes (NIC). */
	u64 bytes;
	/** @drops: [32] Frames dropped, pipe full (NIC). */
	u64 drops;
	/** @bad_writes: [40] @rx_head values refused (NIC). */
	u64 bad_writes;
};

/**
 * struct rxb_enso_ukey - Ensō: the flow a user pipe takes (the NIC's flow
 * table entry): fields equal to the frame's, a zero field matches any.
 *
 * Its fields are those of the parser's key (struct rxb_nic_tuple in
 * rxb_hw_model.h) but it is a type of its own: it is the datasheet's
 * layout in host memory, which the driver writes, with wildcards; the
 * parser's key is the NIC's internal result, exact, which the driver
 * never sees.  enso_ukey_hit() compares the two field by field.
 */
struct rxb_enso_ukey {
	/** @src: [0] Source address (IPv4: @src[0]). */
	__be32 src[4];
	/** @dst: [16] Destination address. */
	__be32 dst[4];
	/** @sport: [32] TCP/UDP source port. */
	__be16 sport;
	/** @dport: [34] Destination port; nonzero. */
	__be16 dport;
	/** @family: [36] 4 or 6. */
	u8 family;
	/** @proto: [37] IPPROTO_TCP or IPPROTO_UDP. */
	u8 proto;
	/** @pad: [38] Zero. */
	u8 pad[2];
};

static_assert(sizeof(struct rxb_enso_ukey) == 40);

/**
 * struct rxb_enso_upipe_cfg - Ensō: a user pipe's configuration (driver
 * only), read by the NIC when @ctl turns 1.
 */
struct rxb_enso_upipe_cfg {
	/**
	 * @ctl: [0] RXB_ENSO_UCTL_ON, with RXB_ENSO_UCTL_RX once bound; 0:
	 * disabled (driver).
	 */
	u32 ctl;
	/** @state: [4] The NIC's answer: @ctl as it last served it. */
	u32 state;
	/** @mem: [8] Bus address of the pipe, physically contiguous. */
	struct rxb_base_reg mem;
	/** @size: [16] Bytes, a power of two in 4 KiB..2 MiB. */
	u32 size;
	/** @uctx: [20] Its notification ring, below RXB_ENSO_UCTX. */
	u32 uctx;
	/** @tag: [24] The pipe id its notifications carry. */
	u32 tag;
	/** @reserved: [28] Zero. */
	u32 reserved;
	/** @key: [32] The flow it takes. */
	struct rxb_enso_ukey key;
};

static_assert(sizeof(struct rxb_enso_upipe_cfg) == 72);

/**
 * struct rxb_enso_uctx_cfg - Ensō: a user notification ring's
 * configuration (driver only), read by the NIC when @ctl turns 1.
 */
struct rxb_enso_uctx_cfg {
	/** @ctl: [0] 1: enabled; 0: disabled (driver). */
	u32 ctl;
	/** @state: [4] The NIC's answer: @ctl as it last served it. */
	u32 state;
	/** @base: [8] Bus address of the ring (struct rxb_enso_notif). */
	struct rxb_base_reg base;
	/** @size: [16] Entries, a power of two. */
	u32 size;
	/** @queue: [20] The queue its frames leave from (counters, wire). */
	u32 queue;
	/**
	 * @tx_base: [24] Bus address of its TX notification ring (struct
	 * rxb_enso_txnotif, @size entries).
	 */
	struct rxb_base_reg tx_base;
};

/**
 * rxb_enso_user_page() - Ensō: the first page of the user rings and pipes.
 * @bar: the model's view of the register space.
 * @pipes: the kernel's pipes per queue (enso_pipes).
 * @nqueues: queues.
 *
 * Return: the page index, in @bar.
 */
static inline u32 rxb_enso_user_page(const struct rxb_bar *bar, u32 pipes,
				     u32 nqueues)
{
	return bar->xpage + nqueues * pipes;
}

/**
 * rxb_enso_upipe_cfgs() - Ensō: the user pipes' configuration array.
 * @bar: the model's view of the register space.
 * @pipes: the kernel's pipes per queue.
 * @nqueues: queues.
 *
 * Return: RXB_ENSO_UPIPES entries, then the RXB_ENSO_UCTX rings' (struct
 * rxb_enso_uctx_cfg, at rxb_enso_uctx_cfgs()).
 */
static inline struct rxb_enso_upipe_cfg *
rxb_enso_upipe_cfgs(const struct rxb_bar *bar, u32 pipes, u32 nqueues)
{
	return rxb_bar_page(bar, rxb_enso_user_page(bar, pipes, nqueues) +
			    RXB_ENSO_UCTX + RXB_ENSO_UPIPES);
}

/**
 * rxb_enso_uctx_cfgs() - Ensō: the user rings' configuration array.
 * @bar: the model's view of the register space.
 * @pipes: the kernel's pipes per queue.
 * @nqueues: queues.
 *
 * Return: RXB_ENSO_UCTX entries.
 */
static inline struct rxb_enso_uctx_cfg *
rxb_enso_uctx_cfgs(const struct rxb_bar *bar, u32 pipes, u32 nqueues)
{
	return (void *)(rxb_enso_upipe_cfgs(bar, pipes, nqueues) +
			RXB_ENSO_UPIPES);
}

static_assert(RXB_ENSO_UPIPES * sizeof(struct rxb_enso_upipe_cfg) +
	      RXB_ENSO_UCTX * sizeof(struct rxb_enso_uctx_cfg) <=
	      RXB_ENSO_UCFG_PAGES * RXB_BAR_PAGE);

/*
 * CEIO (hw/models/ceio.c, drv/models/ceio.c; Liu et al., SIGCOMM '25,
 * sections 3-4).  Per queue, privRing's Rx ring and completion ring (the
 * fast path: struct rxb_ceio_qregs.fast, struct rxb_rxq_regs), and for the
 * slow path:
 *
 *  - the slow ring, in NIC memory: one entry per frame the NIC kept in its
 *    memory tier, RXB_CEIO_SLOW_MULT * ring_size entries (at most
 *    RXB_CEIO_SLOW_MAX).  The NIC's own: the driver learns what it holds
 *    from the slow_tail register, which it reads across the bus (the
 *    paper's "on-NIC buffer ring registers" that the driver polls, §4.2:
 *    an MMIO read, counted in pcie_mmio_reads), and from the fast
 *    completions, each of which carries slow_tail as the NIC wrote it
 *    then (ours: so that the driver needs no read while fast entries
 *    flow, and keeps the NIC's arrival order);
 *  - the fetch ring, in host memory, as many entries of struct
 *    rxb_ceio_fetch: entry i goes with slow entry i.  To have slow frame
 *    i copied into the host, the driver writes a host buffer's address
 *    into entry i (flags zero), then the fetch_tail register; the NIC's
 *    fetch engine copies the frame from its tier into the buffer once the
 *    tier's latency has passed (a DMA write across the bus), writes the
 *    frame's length and hash back into the entry, sets
 *    RXB_CEIO_FETCH_DONE and raises the queue's interrupt.  Fetches
 *    complete in ring order.
 */
#define RXB_CEIO_SLOW_MULT	8	/* slow ring entries per Rx ring entry */
#define RXB_CEIO_SLOW_MAX	32768	/* slow ring entries at most: the
					 * fast completions' 16-bit copy of
					 * slow_tail tells "none" from "all"
					 */

/* Fetch entry flags (rxb_ceio_fetch.flags). */
#define RXB_CEIO_FETCH_DONE	0x01	/* the frame is in the buffer */
#define RXB_CEIO_FETCH_ERR	0x40	/* the frame did not fit: not copied */

/**
 * struct rxb_ceio_fetch - CEIO: fetch ring entry, a host buffer for the
 * slow ring entry of the same index, and the NIC's write-back.
 *
 * The driver writes @buf_addr and @buf_len, and @flags as zero, before
 * the fetch_tail write (release) that posts the entry; the NIC reads the
 * entry after reading that register (acquire), copies the frame, writes
 * @pkt_len, @hash_flags, @rss_hash and @flow, and @flags last with
 * release; the driver reads @flags with acquire and only then the rest
 * and the buffer.
 */
struct rxb_ceio_fetch {
	/** @buf_addr: [0] Bus address of the host buffer (driver). */
	__le64 buf_addr;
	/** @buf_len: [8] Bytes the NIC may write there (driver). */
	__le32 buf_len;
	/** @pkt_len: [12] NIC: the frame's length. */
	__le16 pkt_len;
	/**
	 * @hash_flags: [14] NIC: RXB_CQE_F_*_HASH; never RXB_CQE_F_CSUM:
	 * the checksum unit sits on the DMA path from the wire to the host,
	 * and the frame went to NIC memory.
	 */
	u8 hash_flags;
	/** @flags: [15] NIC: RXB_CEIO_FETCH_*: zero while in flight. */
	u8 flags;
	/** @rss_hash: [16] NIC: Toeplitz RSS hash, as rxb_cqe.rss_hash. */
	__le32 rss_hash;
	/** @flow: [20] NIC: flow table entry of the frame (diagnostics). */
	__le32 flow;
	/** @reserved: [24] Zero. */
	__le64 reserved;
} __packed;
static_assert(sizeof(struct rxb_ceio_fetch) == 32);

/**
 * struct rxb_ceio_regs - CEIO: a queue's slow-path registers.
 *
 * Each is written by one side only, with release, and read by the other
 * with acquire.  Indices are free-running.
 */
struct rxb_ceio_regs {
	/**
	 * @slow_tail: [0] NIC: slow entries written up to here; the driver
	 * reads it across the bus (rxb_reg_read(), an MMIO read).
	 */
	u32 slow_tail;
	/**
	 * @credit_ci: [4] Driver: fast entries whose credit the driver
	 * released, counted in completion ring order; the NIC returns each
	 * one's credit to its flow when it next looks (a frame, its worker's
	 * tick).  When the driver writes it is its release policy
	 * (ceio_release): at the end of a poll batch, or when the buffers
	 * come back to the driver's pool.
	 */
	u32 credit_ci;
	/**
	 * @fetch_tail: [8] Driver: fetch entries posted up to here; the NIC
	 * acts on the write (its doorbell service): it starts the fetches.
	 */
	u32 fetch_tail;
	/** @reserved: [12] Zero. */
	u32 reserved;
	/** @fetch_base: [16] Bus address of the fetch ring (driver). */
	struct rxb_base_reg fetch_base;
};

static_assert(sizeof(struct rxb_ceio_regs) == 24);

/**
 * struct rxb_ceio_qregs - CEIO: a queue's registers (its page).
 * @fast: the fast path's, as privRing's.
 * @slow: the slow path's.
 */
struct rxb_ceio_qregs {
	struct rxb_rxq_regs fast;
	struct rxb_ceio_regs slow;
};

static_assert(sizeof(struct rxb_ceio_qregs) == 48);

/* CEIO's fast completion entries carry slow_tail & RXB_CEIO_TAIL_MASK in
 * rxb_cqe.ring_id, the value of the register when the NIC wrote them.
 */
#define RXB_CEIO_TAIL_MASK	0xffff

/**
 * struct rxb_ceio_qstats_regs - CEIO: a queue's statistics registers (its
 * page, RXB_QPAGE_MSTATS), written by the NIC.
 */
struct rxb_ceio_qstats_regs {
	/** @fast: [0] Frames that took the fast path (a credit). */
	u64 fast;
	/** @slow: [8] Frames that went to the slow ring. */
	u64 slow;
	/** @to_slow: [16] Switches of a flow to the slow path. */
	u64 to_slow;
	/** @to_fast: [24] Switches back to the fast path. */
	u64 to_fast;
	/** @tier_drops: [32] Frames the memory tier had no room for. */
	u64 tier_drops;
	/** @slow_full: [40] Frames that found the slow ring full. */
	u64 slow_full;
	/** @congestion: [48] Ticks with slow arrivals beyond the drain. */
	u64 congestion;
	/**
	 * @credit_seen: [56] Fast entries whose credit came back (the
	 * credit_ci value the NIC has acted on).
	 */
	u64 credit_seen;
};

static_assert(sizeof(struct rxb_ceio_qstats_regs) == 64);

/**
 * struct rxb_ceio_gstats_regs - CEIO: the context's statistics registers
 * (page 0, RXB_GPAGE_MSTATS): the credit controller's state, kept by the
 * NIC with atomic updates (any CPU running the NIC writes them).
 */
struct rxb_ceio_gstats_regs {
	/** @credits_total: [0] C_total: llc_budget / buffer size. */
	atomic64_t credits_total;
	/** @pool: [8] Credits no flow holds. */
	atomic64_t pool;
	/** @flow_credits: [16] Unused credits the flows hold. */
	atomic64_t flow_credits;
	/** @flows_active: [24] Flows holding a share. */
	atomic64_t flows_active;
	/** @unconsumed_max: [32] Most credits seen in flight at a tick. */
	atomic64_t unconsumed_max;
	/** @realloc: [40] Runs of Algorithm 1 that took from donors. */
	atomic64_t realloc;
	/** @inactive: [48] Flows made inactive (no frame for a while). */
	atomic64_t inactive;
	/** @reactivated: [56] Inactive flows that came back. */
	atomic64_t reactivated;
	/** @tier_held: [64] Bytes of the memory tier the slow ring holds. */
	atomic64_t tier_held;
	/**
	 * @borrowed: [72] Fast frames of the untracked aggregates on a
	 * credit borrowed from the pool.
	 */
	atomic64_t borrowed;
};

static_assert(sizeof(struct rxb_ceio_gstats_regs) == 80);

/*
 * Header/data split into NIC memory (nicmem, thesis chapter 2; nic_hds.c,
 * Documentation/rxbisect-nicmem.rst).  A NIC mode, not a ring model: with
 * it on, the DMA engine writes only the headers of a TCP or UDP frame
 * (Ethernet, IP and L4 headers) into the host buffer the ring model chose
 * and keeps the payload in its on-NIC memory tier.  The completion entry
 * of any model carries RXB_CQE_F_SPLIT, its length the whole frame's; the
 * NIC writes a struct rxb_hds_rec into the RXB_HDS_REC_ROOM bytes right
 * before the buffer's first byte (split mode requires the driver to post
 * buffers with that much headroom).  The payload reaches the host or the
 * wire only through the queue's nicmem command ring below.
 */
#define RXB_CQE_F_SPLIT		0x80	/* headers only in the buffer, the
					 * payload in NIC memory (struct
					 * rxb_hds_rec before the buffer)
					 */
#define RXB_HDS_REC_ROOM	16	/* bytes before buf_addr the NIC
					 * writes in split mode
					 */

/**
 * struct rxb_hds_rec - split record: where a split frame's payload is.
 *
 * Written by the NIC at buf_addr - RXB_HDS_REC_ROOM with the headers,
 * before the completion entry that carries RXB_CQE_F_SPLIT; read by the
 * driver after that entry (the entry's acquire covers it).
 */
struct rxb_hds_rec {
	/**
	 * @handle: [0] NIC memory handle of the payload: named in nicmem
	 * commands (struct rxb_nmc_desc).
	 */
	__le32 handle;
	/** @hdr_len: [4] Bytes written at buf_addr: the frame's headers. */
	__le16 hdr_len;
	/** @pay_len: [6] Payload bytes kept in NIC memory. */
	__le16 pay_len;
	/**
	 * @bar: [8] The CPU's address of the payload through the NIC's
	 * memory window (a PCI BAR mapping device memory, as nicmem's
	 * prototype exposed it): reading it is an MMIO read.
	 */
	__le64 bar;
} __packed;
static_assert(sizeof(struct rxb_hds_rec) == RXB_HDS_REC_ROOM);

/* nicmem command opcodes (rxb_nmc_desc.op). */
#define RXB_NMC_FETCH	1	/* copy payload bytes into host memory */
#define RXB_NMC_TX	2	/* send inline headers + payload to the wire */
#define RXB_NMC_FREE	3	/* release the payload */

/* nicmem command flags (rxb_nmc_desc.flags). */
#define RXB_NMC_F_RELEASE	0x01	/* FETCH, TX: release the payload
					 * after the command (driver-set)
					 */
#define RXB_NMC_F_DONE		0x40	/* NIC: the command completed; the
					 * entry is the driver's again
					 */
#define RXB_NMC_F_ERR		0x80	/* NIC: unknown handle, or out of
					 * range: nothing moved (the handle
					 * is still released if asked)
					 */

/* Header bytes a TX command carries inline (Ethernet, VLAN, IPv6, TCP
 * with options fit): the NIC takes them from the command, so the driver's
 * buffer is free as soon as the command is written.
 */
#define RXB_NMC_INLINE		224

/**
 * struct rxb_nmc_desc - nicmem command ring entry (one per command).
 *
 * A per-queue ring in host memory, a power of two of entries, whose bus
 * address and size the driver writes into the queue's struct
 * rxb_nmc_regs before the context is loaded.  The driver writes an entry
 * with @flags holding only driver bits, then the ring's tail register (a
 * posted write); the NIC executes the entries up to the tail in its own
 * context, later, in order: FREE and TX at once, FETCH once the memory
 * tier's latency has passed.  It writes @flags last, with release, with
 * RXB_NMC_F_DONE (and _ERR), and raises the queue's interrupt for a
 * FETCH.  An entry is the driver's again once done.
 */
struct rxb_nmc_desc {
	/** @op: [0] RXB_NMC_*. */
	u8 op;
	/** @flags: [1] RXB_NMC_F_*: driver bits in, NIC bits out. */
	u8 flags;
	/** @len: [2] Payload bytes to move (FETCH, TX), from the first. */
	__le16 len;
	/** @handle: [4] NIC memory handle (struct rxb_hds_rec.handle). */
	__le32 handle;
	/** @buf_addr: [8] FETCH: bus address the payload goes to. */
	__le64 buf_addr;
	/** @hdr_len: [16] TX: header bytes in @hdr. */
	__le16 hdr_len;
	/** @reserved: [18] Zero. */
	u8 reserved[14];
	/** @hdr: [32] TX: the headers the NIC sends before the payload. */
	u8 hdr[RXB_NMC_INLINE];
} __packed;
static_assert(sizeof(struct rxb_nmc_desc) == 256);

/**
 * struct rxb_nmc_regs - a queue's nicmem command ring registers (its page,
 * RXB_QPAGE_NMC), written by the driver.
 */
struct rxb_nmc_regs {
	/** @base: [0] Bus address of the ring, before the context loads. */
	struct rxb_base_reg base;
	/** @entries: [8] Its entries, a power of two, RXB_NMC_RING_MAX most. */
	u32 entries;
	/** @tail: [12] Commands written, free-running: the doorbell. */
	u32 tail;
};

static_assert(sizeof(struct rxb_nmc_regs) == 16);

#define RXB_QPAGE_NMC		3712	/* struct rxb_nmc_regs */
#define RXB_NMC_RING_MAX	4096	/* entries of a command ring, at most */

/*
 * The on-NIC memory tier's statistics registers (nic_mem.c; ethtool -S
 * nicmem_*), read by the driver through the NIC's register interface.
 */
/**
 * struct rxb_nicmem_counters - the tier's counters (ethtool -S nicmem_*).
 * @capacity: bytes the tier holds at most.
 * @held: bytes allocated now.
 * @peak: the largest @held seen.
 * @fetched: bytes the host fetched.
 * @fetches: fetches completed.
 * @allocs: allocations that succeeded.
 * @alloc_fails: allocations refused because the tier was full.
 * @fetch_ns: the fetch latency.
 */
struct rxb_nicmem_counters {
	u64 capacity;
	u64 held;
	u64 peak;
	u64 fetched;
	u64 fetches;
	u64 allocs;
	u64 alloc_fails;
	u64 fetch_ns;
};

/*
 * The kTLS offload (hw/nic_tls.c, drv/tls.c; Documentation/rxbisect-tls.rst).
 *
 * Receive: a frame of a flow with an RX crypto context reports what the
 * NIC did in its completion, whatever the ring model, through the RSS
 * fields every completion has: both hash bits set (RXB_CQE_F_TLS_META, a
 * combination RSS never reports) mean that the 32-bit hash field carries
 * an offload word instead of a hash, and the frame has no RSS hash.
 */
#define RXB_CQE_F_TLS_META	(RXB_CQE_F_L4_HASH | RXB_CQE_F_L3_HASH)
#define RXB_TLS_META_DECRYPTED	BIT(31)	/* decrypted in place, every tag
					 * ending in it verified; its TCP
					 * checksum was verified before
					 */
#define RXB_TLS_META_RESYNC	BIT(30)	/* the NIC asks software to confirm
					 * a record header: the context's
					 * struct rxb_tls_rx_mbox says which
					 */
#define RXB_TLS_META_PROGRESS	BIT(29)	/* async resync: the NIC answers the
					 * driver's progress query
					 * (rxb_nic_tls_rx_progress()): the
					 * mailbox's @prog_seq and
					 * @prog_state say where it is
					 */
#define RXB_TLS_META_ID		GENMASK(23, 0)	/* the crypto context */
#define RXB_TLS_PROG_TRACKING	1	/* @prog_state: tracking from the
					 * candidate header @prog_seq, not
					 * yet confirmed
					 */

/**
 * struct rxb_tls_rx_mbox - where the NIC posts a resync request of an RX
 * crypto context, in host memory (its bus address given at the context's
 * creation).  The NIC writes the fields, then @gen, then the completion
 * of the frame that carries RXB_TLS_META_RESYNC or RXB_TLS_META_PROGRESS
 * (release); the driver reads the completion (acquire), then the fields.
 * A context in the sync mode posts @hdr_seq; one in the async mode
 * (rxb_nic_tls_params.async) posts @pkt_seq and @pkt_len with a request, and
 * @prog_seq and @prog_state when it answers a progress query.
 */
struct rxb_tls_rx_mbox {
	/** @hdr_seq: [0] Sync: TCP sequence number of the candidate header. */
	__le32 hdr_seq;
	/** @gen: [4] Requests and answers posted so far. */
	__le32 gen;
	/**
	 * @pkt_seq: [8] Async: TCP sequence number of the first payload byte
	 * of the frame the NIC found a candidate header in.
	 */
	__le32 pkt_seq;
	/** @pkt_len: [12] Async: that frame's TCP payload bytes. */
	__le32 pkt_len;
	/** @prog_seq: [16] Async: the candidate header the NIC tracks from. */
	__le32 prog_seq;
	/** @prog_state: [20] Async: RXB_TLS_PROG_TRACKING, or 0: not tracking. */
	__le32 prog_state;
} __packed;
static_assert(sizeof(struct rxb_tls_rx_mbox) == 24);

/*
 * Transmit: a frame of a flow with a TX crypto context goes to the NIC's
 * TLS engine with this descriptor (in the frame's control block): the
 * engine encrypts its TCP payload in place of the plaintext and puts it on
 * the wire, in the order the descriptors were posted.
 */
#define RXB_TLS_TXD_DUMP	0x01	/* not sent: the bytes, from @seq on,
					 * are the record's plaintext before
					 * a retransmission; the engine
					 * restarts at the record (@seq,
					 * @rec_seq) and rebuilds its state
					 */
#define RXB_TLS_TXD_PLAIN	0x02	/* send as it is (bytes sent before
					 * the offload started, no payload)
					 */

/**
 * struct rxb_tls_txd - a TLS transmit descriptor.
 */
struct rxb_tls_txd {
	/** @id: [0] The TX crypto context. */
	__le32 id;
	/** @flags: [4] RXB_TLS_TXD_*. */
	__le32 flags;
	/** @seq: [8] DUMP: TCP sequence number of the record's header. */
	__le32 seq;
	/** @pad: [12] Zero. */
	__le32 pad;
	/** @rec_seq: [16] DUMP: the record's sequence number. */
	__le64 rec_seq;
} __packed;
static_assert(sizeof(struct rxb_tls_txd) == 24);

/**
 * struct rxb_xdp_txd - descriptor of an XDP Tx ring (one per Tx queue).
 *
 * Written by the driver, read by the NIC's Tx engine: the frames of
 * XDP_TX, ndo_xdp_xmit and a zero-copy AF_XDP socket's Tx ring, which the
 * engine reads from host memory (a gather: a frame of several buffers
 * takes one descriptor each, all but the last with RXB_XDP_TXD_F_MORE)
 * and puts on the wire.  The driver posts descriptors up to the ring's
 * tail register (its doorbell); the NIC writes back how many it completed
 * (a free-running head index in host memory) and signals the queue's
 * vector.  A descriptor the NIC cannot send (a frame shorter than an
 * Ethernet header, or longer than the largest frame) is completed all the
 * same and dropped, counted.
 */
struct rxb_xdp_txd {
	/** @buf_addr: [0] Bus address of the buffer's first byte. */
	__le64 buf_addr;
	/** @len: [8] Bytes of the frame in the buffer. */
	__le32 len;
	/** @flags: [12] RXB_XDP_TXD_F_*. */
	__le32 flags;
} __packed;
static_assert(sizeof(struct rxb_xdp_txd) == 16);

#define RXB_XDP_TXD_F_MORE	0x01	/* the frame goes on in the next one */

/* Largest and smallest ring the NIC supports (Rx, CR, Ax, Bx). */
#define RXB_RING_MIN	64
#define RXB_RING_MAX	8192

#endif /* _RXB_DESC_H */
