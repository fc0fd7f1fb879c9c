/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated NIC's own state: what sits behind the registers of nic.h.
 * Included by the NIC's files only (nic*.c); the driver never sees it.
 *
 * The NIC is built from components, one file each, shared by every ring
 * model: the parser, RSS and the receive contexts (nic.c, rss.c), the
 * interrupt vectors with their moderation (nic_irq.c), the DMA engine with
 * the I/O working set tracker (nic_dma.c, wss.c) and the engine that runs
 * the receive pipeline (nic_engine.c).
 */
#ifndef _RXB_NIC_HW_H
#define _RXB_NIC_HW_H

#include <linux/hrtimer.h>
#include <linux/llist.h>
#include <linux/skbuff.h>
#include <linux/smp.h>
#include <rxbisect/rxb_model.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_wss.h>
#include "nic.h"

/**
 * struct rxb_vector - one emulated MSI-X vector.
 * @flags: RXB_VEC_MASKED: raised and not yet re-armed by the driver;
 *	RXB_VEC_SENDING: an interrupt message is on its way to @cpu.
 * @cpu: affinity: the CPU the interrupt (and so the NAPI poll) runs on.
 * @in_flight: interrupt messages not yet fully handled (for teardown).
 * @events: interrupt moderation: events not yet signalled since the
 *	driver last re-armed the vector.
 * @irqs: interrupt messages sent; written by the sender holding
 *	RXB_VEC_SENDING.
 * @csd: the inter-processor message that carries the interrupt.
 * @isr: the driver's interrupt handler (the MSI-X table entry), run in
 *	hard-IRQ context on @cpu.
 * @isr_arg: argument of @isr.
 * @timer: interrupt moderation: fires rx-usecs after the first event
 *	not yet signalled.
 * @nic: owner.
 */
struct rxb_vector {
	unsigned long flags;
	int cpu;
	atomic_t in_flight;
	atomic_t events;
	u64 irqs;
	call_single_data_t csd;
	void (*isr)(void *arg);
	void *isr_arg;
	struct hrtimer timer;
	struct rxb_nic *nic;
};

#define RXB_VEC_MASKED	0
#define RXB_VEC_SENDING	1

/**
 * struct rxb_engine - the NIC's dedicated engine: a kernel thread pinned to
 * one CPU that takes arriving frames from a lock-free ingress queue and
 * runs the receive pipeline on them, like the seeds' emulator core.
 * @task: the thread.
 * @nic: its NIC.
 * @ingress: frames from the wire (multi-producer llist, lock-free).
 * @len: frames in @ingress.
 * @cpu: the CPU the thread is bound to.
 */
struct rxb_engine {
	struct task_struct *task;
	struct rxb_nic *nic;
	struct llist_head ingress;
	atomic_t len;
	int cpu;
};

/**
 * struct rxb_nic_ctx - a receive context: the NIC's state of one ring
 * configuration.
 * @nic: owner.
 * @m: the ring model instance whose hardware half the NIC runs; set at
 *	enable.
 * @nqueues: its queues.
 * @timer: the NIC's timer, for models that ask for one (arm_timer).
 * @wss: the I/O working set tracker of the DMA engine.
 */
struct rxb_nic_ctx {
	struct rxb_nic *nic;
	struct rxb_model *m;
	unsigned int nqueues;
	struct hrtimer timer;
	struct rxb_wss wss;
};

/**
 * struct rxb_nic - one port's emulated NIC.
 * @dev: the net device the NIC is wired to; names its trace events and
 *	its engine thread, nothing else.
 * @rss_indir: RSS indirection table register: hash & 127 -> queue.
 * @rss_key: Toeplitz key register.
 * @max_frame: largest frame accepted, in bytes (MTU plus L2 headers).
 * @rx_csum: the DMA engine reports each frame's checksum.
 * @coal_usecs: interrupt moderation register (ethtool rx-usecs): a vector
 *	signals at the latest this long after its first unsignalled event.
 * @coal_frames: interrupt moderation register (ethtool rx-frames): a
 *	vector signals once this many events are unsignalled.  Both 0:
 *	every event is signalled at once.
 * @dma_fail: fault knob: per mille of DMA writes that fail; the completion
 *	carries RXB_CQE_F_DMA_ERR.
 * @engine_stall: fault knob: the receive engine is frozen; arriving frames
 *	wait in its ingress FIFO (up to RXB_ENGINE_FIFO, then dropped).
 * @ctx: the enabled receive context, or NULL (RCU).
 * @engine: the dedicated engine thread, or NULL: inline (RCU).
 * @vec: interrupt vectors, one per queue.
 * @max_bh_batch: most frames the engine or a stall's end processed in one
 *	section with bottom halves disabled (at most RXB_NIC_BH_BATCH).
 * @runt_drops: see struct rxb_nic_counters.
 * @oversize_drops: see struct rxb_nic_counters.
 * @stopped_drops: see struct rxb_nic_counters.
 * @fifo_drops: see struct rxb_nic_counters.
 * @engine_frames: see struct rxb_nic_counters.
 * @stall_frames: see struct rxb_nic_counters.
 * @dma_faults: see struct rxb_nic_counters.
 * @held: inline engine: frames held while it is stalled, in order; its
 *	lock also orders the stall's end against arriving frames.
 * @dma_bytes: bytes the DMA engine wrote, per queue, a cache line each.
 */
struct rxb_nic {
	struct net_device *dev;
	u32 rss_indir[RXB_RSS_INDIR_SIZE];
	u8 rss_key[RXB_RSS_KEY_SIZE];
	u32 max_frame;
	bool rx_csum;
	u32 coal_usecs;
	u32 coal_frames;
	u32 dma_fail;
	u32 engine_stall;
	struct rxb_nic_ctx __rcu *ctx;
	struct rxb_engine __rcu *engine;
	struct rxb_vector vec[RXB_MAX_QUEUES];
	atomic_t max_bh_batch;
	atomic64_t runt_drops;
	atomic64_t oversize_drops;
	atomic64_t stopped_drops;
	atomic64_t fifo_drops;
	atomic64_t engine_frames;
	atomic64_t stall_frames;
	atomic64_t dma_faults;
	struct sk_buff_head held;
	struct {
		atomic64_t v;
	} ____cacheline_aligned_in_smp dma_bytes[RXB_MAX_QUEUES];
};

/**
 * struct rxb_nic_frame - a frame inside the NIC.
 * @f: what the parser found, as the ring model sees it.
 * @q: the queue RSS chose (the DMA engine counts its bytes per queue).
 */
struct rxb_nic_frame {
	struct rxb_frame f;
	unsigned int q;
};

/* nic.c */
void rxb_nic_receive(struct rxb_nic *nic, struct sk_buff *skb);
void rxb_nic_bh_batch(struct rxb_nic *nic, int n);

/* nic_irq.c */
void rxb_vec_init(struct rxb_nic *nic, struct rxb_vector *vec);
void rxb_vec_event(struct rxb_vector *vec, u32 frames, u32 usecs);

/* nic_dma.c */
u8 rxb_nic_dma_write(void *hw, const struct rxb_frame *f, u64 addr,
		     u32 *csum);
extern const struct rxb_hw_ring_ops rxb_nic_ring_ops;

/* nic_engine.c */
void rxb_nic_engine_fini(struct rxb_nic *nic);

/* rss.c */
u32 rxb_rss_hash(const u8 *key, const u8 *frame, unsigned int len,
		 u8 *hash_flags);

#endif /* _RXB_NIC_HW_H */
