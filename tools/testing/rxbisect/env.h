/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace environment for rxbisect ring models: the driver's services to
 * a model's driver half (struct rxb_drv_ops), the NIC's to its hardware
 * half (struct rxb_hw_ops), the register space between them, and helpers
 * shared by the model tests.
 *
 * The NIC's context: the environment runs a hardware half only inside
 * rxb_nic_ctx_enter()/exit() (per thread): rxb_env_nic_rx() (a frame,
 * after the doorbells posted since the NIC last ran, as the kernel's
 * receive engine), rxb_env_nic_run() (the doorbell service alone), the
 * timer and rxb_env_flow_free().  Every NIC service (dma_write, raise_irq,
 * pcie, ...) and every hardware-half entry point checks it: a driver half
 * that does the NIC's work in its own call fails the running case.  A
 * register write (rxb_reg_write()) is posted: the NIC sees it when a test
 * or a NIC thread next runs it; kick only counts.
 *
 * Buffers: RXB_ENV_BUF_SIZE-byte chunks aligned to their size; the bus
 * address is the chunk's address, the cookie a tracking record.  Every
 * buffer is in one state: FREE (in its queue's pool), POSTED (handed to
 * the model by alloc_buf), HELD (handed to the test in a struct rxb_pkt).
 * A buffer counts references: the model's while POSTED, and one per
 * fragment packet (struct rxb_pkt.frag, batched RxList) the model handed
 * up with ref_buf.  free_buf drops the model's (POSTED -> HELD), putting a
 * packet drops its; the last one returns the buffer to its pool.  Every
 * transition is checked; a wrong one (a cookie that is not a buffer, a
 * double free, a packet in a buffer the model does not own, a DMA into a
 * buffer that is not posted, ...) fails the running KTAP case.
 *
 * DMA: dma_write copies the frame (rxb_frame.data points to its bytes) to
 * the bus address, which must be that of a POSTED buffer.  With fault
 * injection (rxb_env_dma_fail_rate) it writes garbage instead and reports
 * RXB_CQE_F_DMA_ERR.
 *
 * A model may keep a reference of its own on a whole buffer it hands up
 * (ref_buf before the handover, CEIO's release=page): the buffer then
 * stays POSTED until the model's free_buf; buf_idle tells it when the
 * packet's reference is gone.
 *
 * buf_cookie maps the bus address of a POSTED buffer back to its cookie.
 *
 * Timer: arm_timer records a deadline (unless one is pending).  It fires
 * (ops->hw_timer of the attached model) from the thread started by
 * rxb_env_timer_start(), or when a test calls rxb_env_run_timer().
 * now_ns is CLOCK_MONOTONIC, or a clock the test sets (rxb_env_fake_clock).
 *
 * Controller: the driver's periodic task (ops->ctl_tick of the attached
 * model), apart from the NIC's timer: run from the thread started by
 * rxb_env_ctl_start(), as the kernel driver's delayed work does, or when a
 * test calls rxb_env_run_ctl().
 *
 * Interrupts: raise_irq increments a per-queue counter; consumers wait for
 * it to change (spinning, then yielding).
 *
 * Threading: alloc_buf/free_buf/raise_irq/dma_write and the rxb_env_pkt_*
 * calls may run concurrently from any threads.  Configuration calls
 * (rxb_env_fail_*) are for before the threads start.
 */
#ifndef _RXB_TEST_ENV_H
#define _RXB_TEST_ENV_H

#include <linux/types.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_hw_model.h>
#include "model_pair.h"

#define RXB_ENV_BUF_SIZE	2048

/* Per-queue counters (read them after the threads are joined). */
struct rxb_env_qstats {
	long allocs;		/* successful alloc_buf */
	long alloc_calls;	/* all alloc_buf calls */
	long injected_fails;	/* alloc_buf failed by injection */
	long frees;		/* free_buf (posted buffer returned unused) */
	long takes;		/* buffers received in a packet */
	long borrows;		/* fragment packets taken (struct rxb_pkt.frag) */
	long refs;		/* ref_buf: references handed out with them */
	long puts;		/* received buffers returned by the test */
	long recycles;		/* dropped buffers a model kept (recycle) */
	long irqs;		/* raise_irq calls */
	long dma_errs;		/* dma_write failed by injection, by pool */
};

struct rxb_env;

extern const struct rxb_drv_ops rxb_env_test_drv_ops;
extern const struct rxb_hw_ops rxb_env_test_hw_ops;

/*
 * Create an environment for @nqueues queues able to track @max_bufs
 * buffers (0: a default large enough for any sane model configuration).
 */
struct rxb_env *rxb_env_create(unsigned int nqueues, unsigned int max_bufs);
/* Free the environment and all its buffers. */
void rxb_env_destroy(struct rxb_env *env);
/*
 * Fill @cfg for this environment.  Model-specific fields get defaults
 * every model accepts (rxBisect: Ax rings as large as the Bx rings).
 */
void rxb_env_model_cfg(struct rxb_env *env, struct rxb_model_cfg *cfg,
		       unsigned int nqueues, unsigned int ring_size,
		       unsigned int buf_len);
/*
 * The on-NIC memory tier (rxb_hw_ops.nicmem): @capacity bytes, host
 * fetches taking @fetch_ns (CLOCK_MONOTONIC); default 64 MiB, 0 ns.
 * Before creating a model.  Destroy fails the case if bytes are held.
 */
#define RXB_ENV_NICMEM_DEF	(64ULL << 20)
void rxb_env_nicmem(struct rxb_env *env, u64 capacity, u64 fetch_ns);
struct rxb_nicmem *rxb_env_nicmem_get(struct rxb_env *env);
/* The model's halves: the driver's (ctl_tick), the NIC's (its timer and
 * doorbells).  rxb_env_models_create() attaches them.
 */
void rxb_env_attach(struct rxb_env *env, struct rxb_model *m,
		    struct rxb_hw_model *hw);
/*
 * rxb_models_create() with this environment's services (@drv_ops and
 * @hw_ops get the environment as their argument), the halves attached,
 * then the doorbell service once.
 */
int rxb_env_models_create(struct rxb_env *env, const struct rxb_model_ops *ops,
			  const struct rxb_model_cfg *cfg,
			  const struct rxb_drv_ops *drv_ops,
			  const struct rxb_hw_ops *hw_ops,
			  struct rxb_model **mp, struct rxb_hw_model **hwp,
			  void **barp);
void rxb_env_models_destroy(struct rxb_env *env, struct rxb_model *m,
			    struct rxb_hw_model *hw, void *bar);
/* The NIC receives @f on queue @q (its context; doorbells first). */
int rxb_env_nic_rx(struct rxb_env *env, unsigned int q,
		   const struct rxb_frame *f);
/* The NIC's doorbell service; true if doorbells were pending. */
bool rxb_env_nic_run(struct rxb_env *env);
/* The NIC frees flow table entry @flow (its context). */
void rxb_env_flow_free(struct rxb_env *env, u32 flow);
/* Are doorbells pending (written since the NIC last ran)? */
bool rxb_env_doorbells_pending(struct rxb_env *env);
/*
 * The NIC has acted on every register write made before the call: none
 * pending, no doorbell service running (another thread's, the timer
 * thread's); what it wrote for them is visible.
 */
bool rxb_env_nic_idle(struct rxb_env *env);
/* kick calls: register writes that found nothing pending. */
long rxb_env_kicks(struct rxb_env *env);
/* Bytes the driver halves read from the NIC (rxb_drv_ops.reg_read). */
u64 rxb_env_mmio_read(struct rxb_env *env);

/* Timer: a thread that fires it when due, until rxb_env_timer_stop(). */
void rxb_env_timer_start(struct rxb_env *env);
void rxb_env_timer_stop(struct rxb_env *env);
/* Controller: a thread that runs ops->ctl_tick when due, until stopped. */
void rxb_env_ctl_start(struct rxb_env *env);
void rxb_env_ctl_stop(struct rxb_env *env);
/*
 * Controller: wait until ops->ctl_tick is due (advance a fake clock; the
 * first run is due at once), run it; false if the model has none.
 */
bool rxb_env_run_ctl(struct rxb_env *env);
/* Timer: is one armed? */
bool rxb_env_timer_pending(struct rxb_env *env);
/* The fetch engine of the on-NIC memory tier: wait until its timer is
 * due (advance a fake clock), run it; false if no fetch is in flight.
 */
bool rxb_env_run_fetches(struct rxb_env *env);
/* Timer: wait until the armed one is due (advance a fake clock), fire it
 * (the NIC's timer, or its fetch engine's if that is due first).
 */
bool rxb_env_run_timer(struct rxb_env *env);
/* Clock: from now on now_ns returns @ns, moved by rxb_env_advance(). */
void rxb_env_fake_clock(struct rxb_env *env, u64 ns);
void rxb_env_advance(struct rxb_env *env, u64 ns);
/*
 * Clock: run @fn(@arg) once, from inside the model's next now_ns call.
 * The model reads the clock in the middle of its NIC-side work, so a
 * single-threaded test can run the driver side at that point, as another
 * core would.  Not for use with threads.
 */
void rxb_env_on_clock_read(struct rxb_env *env, void (*fn)(void *arg),
			   void *arg);

/* Fault injection: after @after more successful allocs, fail @count on @q. */
void rxb_env_fail_allocs(struct rxb_env *env, unsigned int q,
			 unsigned int after, unsigned int count);
/* Fault injection: fail about one alloc_buf in @one_in (0: never). */
void rxb_env_fail_rate(struct rxb_env *env, unsigned int one_in);
/* Fault injection: fail about one dma_write in @one_in (0: never). */
void rxb_env_dma_fail_rate(struct rxb_env *env, unsigned int one_in);
/*
 * Checksum unit of the DMA engine (on by default): dma_write reports
 * rxb_env_csum() of each frame, as the kernel environment reports
 * CHECKSUM_COMPLETE.  Off: dma_write reports no checksum.
 */
void rxb_env_set_csum(struct rxb_env *env, bool on);
bool rxb_env_csum_on(struct rxb_env *env);
/*
 * Record every DMA write into @w (NULL: stop), as the kernel NIC records
 * its writes (hw/nic_hw.h: rxb_nic_ws_write()); a buffer is one
 * RXB_ENV_BUF_SIZE chunk, a ring's bytes count in the chunk a write
 * starts in.  Before the NIC runs; @w outlives the recording.
 */
struct rxb_wss;
void rxb_env_wss(struct rxb_env *env, struct rxb_wss *w);
/*
 * The checksum dma_write reports for a @len-byte frame: the 32-bit ones'
 * complement sum of the bytes after the Ethernet header, as 16-bit
 * host-order words (csum_partial() style, not folded to 16 bits).
 */
#define RXB_ENV_ETH_HLEN	14
u32 rxb_env_csum(const void *frame, unsigned int len);

/*
 * A packet polled from queue @q: check its buffer (a posted buffer of the
 * queue named by pkt->pool_q, len within the buffer), mark it HELD (a
 * fragment: check its reference) and return the packet's data, or NULL
 * (failure recorded) if the check fails.
 */
void *rxb_env_pkt_take(struct rxb_env *env, unsigned int q,
		       const struct rxb_pkt *pkt);
/* Drop a packet's reference on its buffer (the cookie): a whole buffer
 * returns to its pool, a fragment's once its last reference goes.
 */
void rxb_env_pkt_put(struct rxb_env *env, void *cookie);
/*
 * The driver's drop of a packet queue @q polled (drv/rx.c
 * rxb_rx_put_pkt()): a whole buffer of a pool @q shares goes back to the
 * model if it has rxb_model_ops.recycle and takes it (POSTED again, its
 * reference the model's); else as rxb_env_pkt_put().  True if recycled.
 */
bool rxb_env_pkt_drop(struct rxb_env *env, struct rxb_model *m,
		      unsigned int q, const struct rxb_pkt *pkt);

/* The ring map_ring made that @p points into (either mapping): its index
 * in mapping order (no ring unmapped since), or -1.
 */
int rxb_env_ring_index(struct rxb_env *env, const void *p);

/*
 * Interconnect bytes the models accounted: rxb_hw_ops.pcie by kind
 * (enum rxb_pcie_kind), or with RXB_ENV_PCIE_KINDS the register bytes the
 * driver half wrote (rxb_drv_ops.reg_write).  Summed over queues.
 */
#define RXB_ENV_PCIE_KINDS	4
u64 rxb_env_pcie(struct rxb_env *env, unsigned int kind);

/*
 * The wire (rxb_hw_ops.tx_read, tx_send): frames a model reads to
 * transmit (of 14..RXB_ENV_MAX_FRAME bytes, at most RXB_ENV_TX_MAX
 * buffered) are copied; tx_send puts them on the wire, kept here in order
 * (the first RXB_ENV_TX_KEEP of them) until the environment is destroyed.
 */
#define RXB_ENV_MAX_FRAME	1518
#define RXB_ENV_TX_MAX		256
#define RXB_ENV_TX_KEEP		4096
/* Frames on the wire so far (acquire), and a copy of the @i-th, or NULL. */
unsigned int rxb_env_tx_frames(struct rxb_env *env);
const u8 *rxb_env_tx_frame(struct rxb_env *env, unsigned int i, u32 *len);
/* Its queue. */
unsigned int rxb_env_tx_queue(struct rxb_env *env, unsigned int i);

/* raise_irq count of @q, with acquire (pairs with the model's release). */
u64 rxb_env_irqs(struct rxb_env *env, unsigned int q);
/* Wait until rxb_env_irqs(@q) != @seen or *@stop (acquire) is non-zero. */
void rxb_env_wait_irq(struct rxb_env *env, unsigned int q, u64 seen,
		      const int *stop);

/* Buffers of @q's pool (-1: all) that are POSTED, HELD, or either. */
long rxb_env_posted(struct rxb_env *env, int q);
long rxb_env_held(struct rxb_env *env, int q);
long rxb_env_outstanding(struct rxb_env *env, int q);
/* Snapshot of @q's counters. */
struct rxb_env_qstats rxb_env_qstats(struct rxb_env *env, unsigned int q);
/* Consistency failures detected so far (each also failed the KTAP case). */
long rxb_env_errors(struct rxb_env *env);

/*
 * Test frames: a header (magic, producer, queue, sequence number) and a
 * pattern derived from (producer, seq) filling the rest.  @len >= 16.
 */
#define RXB_TFRAME_MIN_LEN	16
struct rxb_tframe_id {
	u32 producer;
	u32 q;
	u64 seq;
};

void rxb_tframe_fill(void *buf, unsigned int len, const struct rxb_tframe_id *id);
/* Check magic and pattern of a received frame; on success fill @id. */
bool rxb_tframe_check(const void *data, unsigned int len, struct rxb_tframe_id *id);

/* splitmix64: cheap, well-mixed 64-bit hash. */
static inline u64 rxb_mix64(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/*
 * Test harness: an environment plus a model instance.  rxb_th_init() looks
 * the model up and creates the environment and configuration (to be
 * adjusted, or fault injection set up, before the model is created);
 * rxb_th_start() creates the model's halves (rxb_env_models_create(), with
 * t->drv_ops and t->hw_ops, which a test may replace before);
 * rxb_th_create() does both.  They return
 * false (failure recorded) if the model is unknown or create fails.
 * rxb_th_destroy() destroys the model, fails the case if any buffer is
 * still outstanding or the environment saw errors, and frees everything.
 */
struct rxb_th {
	struct rxb_env *env;
	const struct rxb_model_ops *ops;
	struct rxb_model *m;
	struct rxb_hw_model *hw;
	void *bar;
	struct rxb_model_cfg cfg;
	const struct rxb_drv_ops *drv_ops;
	const struct rxb_hw_ops *hw_ops;
};

bool rxb_th_init(struct rxb_th *t, const char *model, unsigned int nqueues,
		 unsigned int ring_size, unsigned int buf_len);
bool rxb_th_start(struct rxb_th *t);
bool rxb_th_create(struct rxb_th *t, const char *model, unsigned int nqueues,
		   unsigned int ring_size, unsigned int buf_len);
void rxb_th_destroy(struct rxb_th *t);
/* The NIC receives @f on queue @q: rxb_env_nic_rx(). */
int rxb_th_hw_rx(struct rxb_th *t, unsigned int q, const struct rxb_frame *f);
/* The NIC's doorbell service: rxb_env_nic_run(). */
bool rxb_th_nic_run(struct rxb_th *t);
/* Queue @q back to power-on: the driver's half, then the NIC's command. */
void rxb_th_queue_reset(struct rxb_th *t, unsigned int q);
/* Queue @q's counters: the NIC's statistics registers and the driver's. */
void rxb_th_qstats(struct rxb_th *t, unsigned int q, struct rxb_qstats *st);
/*
 * A model-specific counter by name, as ethtool -S shows it (rx0_borrowed,
 * ring0_posted, ...); fails the case and returns 0 if there is none.
 */
u64 rxb_th_xstat(struct rxb_th *t, const char *name);

#endif /* _RXB_TEST_ENV_H */
