/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rxbisect ring models: what both halves of a model share.
 *
 * A ring model is one NIC receive architecture (privRing, shRing, rxBisect,
 * ...).  It is two objects that never see each other:
 *
 *  - its hardware half (include/rxbisect/rxb_hw_model.h, the files of
 *    drivers/net/rxbisect/hw/models/), created and owned by the emulated
 *    NIC's receive context and run only in the NIC's context (its engine,
 *    its timers): it takes the buffers the driver posted, "DMAs" frames
 *    into them, writes completions and raises interrupts, and acts on the
 *    doorbells the driver wrote;
 *  - its driver half (include/rxbisect/rxb_drv_model.h, the files of
 *    drivers/net/rxbisect/drv/models/), owned by the driver and run in its
 *    contexts (NAPI poll, its control task): it allocates the ring memory,
 *    programs the ring registers, consumes completions, hands buffers up
 *    and posts fresh ones.
 *
 * They share only ring memory in host RAM and the NIC's registers, whose
 * layouts the datasheet declares (include/rxbisect/rxb_desc.h), and this
 * header: the configuration both were created with (the "create context"
 * command's parameters) and the counter conventions.  Each half's header
 * refuses to be included by the other side's files (RXB_NIC_SIDE and
 * RXB_DRIVER_SIDE, set by the build for drivers/net/rxbisect/hw/ and
 * drivers/net/rxbisect/drv/), so the compiler keeps the halves apart.
 *
 * Model cores use no netdev, skb or page_pool API, so both halves build in
 * userspace (tools/testing/rxbisect, tools/rxbisect-sim) as well.
 */
#ifndef _RXB_MODEL_H
#define _RXB_MODEL_H

#include <linux/types.h>
#include <linux/cache.h>
#include <linux/compiler.h>

/* Version of the ring-model interface, reported by "devlink dev info":
 * 2 since the halves are separate objects behind posted doorbells.
 */
#define RXB_MODEL_API_VERSION	"2"

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
 * struct rxb_model_cfg - configuration of a ring-model instance: the
 *	parameters of the "create receive context" command, which the
 *	driver builds its half from and the NIC its half.  Plain values: no
 *	pointer into either side.
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
 * @flow_table_size: entries of the NIC's flow table (the hardware half's
 *	struct rxb_frame.flow is below it); 0: no flow table.
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
 *	memory tier) of the frames it writes with its DMA engine; needs
 *	@nicmem_bytes and a model whose buffers hold one packet each (not
 *	multi_pkt_bufs, not stream).  The model only reports the completion
 *	flags the DMA engine returns (RXB_CQE_F_SPLIT).
 * @rx_tstamp: receive stamps (hwtstamp rx_filter other than NONE): each
 *	ring of records that report frames has a stamp ring behind its
 *	records (rxb_desc.h, RXB_TSTAMP), which the NIC writes for each
 *	stamped frame and the driver reads; false: neither exists.
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
	bool rx_tstamp;
};

/* The flow table index of a frame the table does not track. */
#define RXB_FLOW_NONE	0xffffffffU

/**
 * rxb_stat_add() - add to a counter that has a single writer.
 * @ctr: the counter; only the caller's context ever writes it.
 * @n: amount.
 *
 * Readers on other CPUs, and the other half reading a statistics
 * register, use READ_ONCE(); no atomic RMW is needed.
 */
static inline void rxb_stat_add(u64 *ctr, u64 n)
{
	WRITE_ONCE(*ctr, *ctr + n);
}

static inline void rxb_stat_inc(u64 *ctr)
{
	rxb_stat_add(ctr, 1);
}

/* Longest counter name, NUL included (ethtool's ETH_GSTRING_LEN). */
#define RXB_STAT_NAME_LEN	32

/*
 * The registered ring models, in the order "ethtool -i", debugfs "models"
 * and the registry list them.  Adding a model is one line here: X(name)
 * stands for its hardware half rxb_<name>_hw_ops (hw/models/<name>.c) and
 * its driver half rxb_<name>_ops (drv/models/<name>.c); Kbuild and the
 * userspace builds pick the two files up by their folder.
 */
#define RXB_MODELS(X)							\
	X(privring) X(rxbisect) X(shring) X(shring_list)		\
	X(shring_batched) X(dshring) X(corec) X(enso) X(ceio)

/*
 * Each model's hardware half, by name: the NIC's object, opaque to the
 * driver, which names it in the "create receive context" command
 * (struct rxb_model_ops.hw).
 */
struct rxb_hw_model_ops;
#define RXB_HW_MODEL_DECL(name) \
	extern const struct rxb_hw_model_ops rxb_##name##_hw_ops;
RXB_MODELS(RXB_HW_MODEL_DECL)
#undef RXB_HW_MODEL_DECL

#endif /* _RXB_MODEL_H */
