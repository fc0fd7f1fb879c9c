// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic shRing (dshRing), the driver's half: a privRing ring set and an
 * shRing (RxArr) ring set side by side, switched at run time by a software
 * controller (thesis sections 5.1.5 and 5.1.6).  Registers: rxb_desc.h's
 * "Dynamic shRing" section; the pages each set sees,
 * include/rxbisect/rxb_shring.h (rxb_dsh_set_bar()).
 *
 * Both ring sets are full driver halves of their models (privring.c,
 * shring.c), created with this instance's configuration and their own
 * view of the register space, and driven through their ops; the NIC's
 * half (hw/models/dshring.c) holds the sets' hardware halves with the same
 * views.  The NIC steers each queue's packets to one set: the two
 * pre-programmed RSS table sets of the thesis, chosen by the queue's
 * select register.
 *
 * The controller is the driver's: rxb_model_ops.ctl_tick, run by the
 * driver's periodic task every sample period (10 ms), like the thesis's
 * thread on a separate core.  It reads
 *  - the NIC's per-queue packet and byte counters (struct rxb_hw_qstats in
 *    dshRing's queue pages: the NIC's statistics registers), for the
 *    device throughput;
 *  - memory pressure: the privRing I/O working set of the period, the
 *    distinct buffers privRing would have had the NIC write (a queue that
 *    received k packets cycles through min(k, ring size) buffers of its
 *    ring), in bytes, against the cache capacity DMA writes may use (we
 *    have no PCM to read the PCIe memory bandwidth the thesis samples, and
 *    unlike that bandwidth this does not drop once shRing is on);
 *  - the driver's own receive-call counts and timestamps per queue, for
 *    the time between receive calls; a sample sees an overloaded queue
 *    when the standard deviation of those times exceeds
 *    dsh_overload_ratio (32, the thesis's largest Rx batch) times their
 *    median (section 5.1.6; dsh_overloaded() says how the kernel's
 *    interrupt-driven polling maps to the thesis's busy-polling cores);
 * into a sliding window of 16 samples.  privRing -> shRing when more than
 * half the throughput samples and more than half the pressure samples are
 * high and no sample saw an overloaded queue; shRing -> privRing when 7/8
 * of the samples are not all that (a sample with low throughput, low
 * pressure or an overloaded queue).  The window restarts after a switch.
 *
 * A switch writes every queue's select register (a posted write).  The NIC
 * latches the new value at the queue's next frame and reports it in the
 * queue's status, which it writes back into host memory (struct
 * rxb_dsh_status), so each poll reads host memory only; each queue's
 * driver drains the set the NIC left before it polls the new one.  The
 * controller switches again only once every queue has drained.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_shring.h>
#include "drv_ring.h"
#include "shring.h"

#define DSH_DEF_PERIOD_NS	10000000ULL	/* thesis: every 10 ms */
#define DSH_DEF_WINDOW		16
#define DSH_DEF_TPUT_MBPS	1000
#define DSH_DEF_CACHE_BYTES	(4ULL << 20)	/* 2 DDIO ways of 2 MiB */
#define DSH_DEF_RATIO		32

#define DSH_XSTATS		8

/* Driver-side counters of the ring sets folded into this instance's. */
static const unsigned int dsh_drv_off[] = {
	offsetof(struct rxb_drv_qstats, packets),
	offsetof(struct rxb_drv_qstats, bytes),
	offsetof(struct rxb_drv_qstats, refills),
	offsetof(struct rxb_drv_qstats, alloc_fails),
	offsetof(struct rxb_drv_qstats, doorbells),
};

#define DSH_NDRV	ARRAY_SIZE(dsh_drv_off)

/**
 * struct dsh_q - the driver's state of one queue.
 * @regs: the queue's steering registers.
 * @status: the queue's status the NIC writes back, in host memory.
 * @sw: the queue's poll context's.
 * @sw.active: @status's active when the queue last drained.
 * @sw.seen: the ring sets' counters folded so far.
 * @sw.calls: receive calls.
 * @sw.full: of those, calls that ended with a full budget.
 * @sw.last_call_ns: when the last one began.
 * @ctl: the controller's readings of the previous sample.
 * @ctl.hw_packets: the NIC's packets register.
 * @ctl.hw_bytes: the NIC's bytes register.
 * @ctl.calls: @sw.calls.
 * @ctl.full: @sw.full.
 */
struct dsh_q {
	struct rxb_dsh_regs *regs;
	const struct rxb_dsh_status *status;

	struct {
		u32 active;
		u64 seen[RXB_DSH_NSETS][DSH_NDRV];
		u64 calls;
		u64 full;
		u64 last_call_ns;
	} sw ____cacheline_aligned;

	struct {
		u64 hw_packets;
		u64 hw_bytes;
		u64 calls;
		u64 full;
	} ctl;
};

/* Controller counters, written by the controller, read by xstats. */
struct dsh_cstats {
	u64 ticks;		/* runs of the driver's controller task */
	u64 switches;		/* ring set switches */
	u64 samples;		/* samples taken */
	u64 tput_high;		/* samples with high throughput */
	u64 pressure_high;	/* samples with high memory pressure */
	u64 overloaded;		/* samples with an overloaded queue */
	u64 deferred;		/* decisions put off: a queue still draining */
};

struct dshring {
	struct rxb_model m;
	struct rxb_model *set[RXB_DSH_NSETS];
	struct dsh_q *q;
	struct rxb_ring_mem status_mem;	/* the queues' struct rxb_dsh_status */
	u64 period_ns;
	u64 cache_bytes;
	u64 wmask;		/* the window's bits */
	unsigned int window;
	unsigned int tput_mbps;
	unsigned int ratio;

	/* Controller state; only ctl_tick writes it. */
	struct {
		u8 target;		/* ring set steered to */
		bool started;
		u64 last_ns;
		unsigned int nsamples;	/* in the window since the last switch */
		u64 tput, press, over;	/* window, bit 0: the latest sample */
		u64 *iv;		/* per queue with traffic: interval */
		u64 *sorted;		/* scratch for the median */
		struct dsh_cstats st;
	} ctl;
};

static const struct rxb_layout dsh_layout = {
	.size = sizeof(struct dshring),
	.tables = {
		{ .off = offsetof(struct dshring, q),
		  .size = sizeof(struct dsh_q) },
		{ .off = offsetof(struct dshring, ctl.iv), .size = sizeof(u64) },
		{ .off = offsetof(struct dshring, ctl.sorted),
		  .size = sizeof(u64) },
	},
};

#define to_dsh(mp)		container_of(mp, struct dshring, m)

static u64 *dsh_ctr(struct rxb_drv_qstats *st, unsigned int off)
{
	return (u64 *)((char *)st + off);
}

/* The status of @qi, as the NIC wrote it back into host memory. */
static u32 dsh_active(struct dshring *d, unsigned int qi)
{
	/* Acquire: pairs with the release in dsh_rx() (NIC); what the NIC
	 * delivered to the set it left is visible.
	 */
	return le32_to_cpu(smp_load_acquire(&d->q[qi].status->active));
}

/* ---- the controller --------------------------------------------------- */

/* Point every queue's steering at ring set @target (section 5.1.5): a
 * posted write of each select register.  The NIC latches it at the
 * queue's next frame and raises the queue's interrupt for that frame; the
 * queue's driver drains the old set then.
 */
static void dsh_steer(struct dshring *d, u8 target)
{
	unsigned int qi;

	for (qi = 0; qi < d->m.cfg.nqueues; qi++)
		rxb_reg_write(&d->m, qi, &d->q[qi].regs->select, target);
}

/**
 * dsh_spread_high() - is the spread of receive-call intervals high?
 * @v: the intervals, @n >= 1 of them (ns).
 * @n: their number.
 * @med: their median (ns).
 * @ratio: the overload ratio.
 *
 * Return: true when the population standard deviation of @v exceeds
 * @ratio times @med.  Computed in integers: the values are shifted right
 * until the largest is below 2^26, so that the sum of squared deviations
 * of up to 64 values fits 64 bits; the comparison is of the variance with
 * (@ratio * @med)^2.
 */
static bool dsh_spread_high(const u64 *v, unsigned int n, u64 med,
			    unsigned int ratio)
{
	u64 vmax = 0, sum = 0, var = 0, mean, lim;
	unsigned int i, sh;

	for (i = 0; i < n; i++)
		vmax = max(vmax, v[i]);
	sh = fls64(vmax) > 26 ? fls64(vmax) - 26 : 0;
	for (i = 0; i < n; i++)
		sum += v[i] >> sh;
	mean = div_u64(sum, n);
	for (i = 0; i < n; i++) {
		s64 dv = (s64)(v[i] >> sh) - (s64)mean;

		var += (u64)(dv * dv);
	}
	var = div_u64(var, n);
	lim = (u64)ratio * max_t(u64, med >> sh, 1);
	if (lim >= 1ULL << 32)
		return false;
	return var > lim * lim;
}

/* Does a queue call receive rarely compared to the others (section
 * 5.1.5)?  Section 5.1.6: the standard deviation of the times between
 * receive calls is at most ratio (32) times their median.  The times, one
 * per queue that had traffic in the sample (packets written for it, or
 * packets waiting for it): the period over the queue's receive calls, or
 * the time since its last call if packets wait and that is longer.
 *
 * The thesis's cores busy-poll, so a core that keeps up calls receive
 * often; here a queue that keeps up waits for its interrupt, and its
 * calls are as far apart as its packets.  So a queue counts as slow only
 * when it is busy: packets wait for it at the sample, or a call of the
 * sample ended with a full budget.  A queue that is not busy enters the
 * statistic at most at the median (which that leaves unchanged).  The
 * median is the lower one: with two queues, the mean of the two middle
 * values would keep the deviation below it whatever the intervals.
 */
static bool dsh_overloaded(struct dshring *d, const u64 *pkts, u64 now, u64 dt)
{
	unsigned int nq = d->m.cfg.nqueues, qi, n = 0, i, j;
	u64 med, busy = 0;

	for (qi = 0; qi < nq; qi++) {
		struct dsh_q *q = &d->q[qi];
		const struct rxb_hw_qstats *hs = rxb_bar_qstats(&d->m.bar, qi);
		u64 calls = READ_ONCE(q->sw.calls), full = READ_ONCE(q->sw.full);
		u64 dc = calls - q->ctl.calls, df = full - q->ctl.full, iv;
		/* hw_packets: the NIC's statistics register. */
		s64 backlog = READ_ONCE(hs->hw_packets) -
			      READ_ONCE(d->m.qstats[qi].packets);

		q->ctl.calls = calls;
		q->ctl.full = full;
		if (!pkts[qi] && backlog <= 0)
			continue;
		iv = dc ? div64_u64(dt, dc) : dt;
		if (backlog > 0) {
			u64 open = calls ? now - READ_ONCE(q->sw.last_call_ns) : dt;

			iv = max(iv, open);
		}
		if (backlog > 0 || df)
			busy |= 1ULL << n;
		d->ctl.iv[n++] = iv;
	}
	if (n < 2)
		return false;
	/* Insertion sort for the median. */
	for (i = 0; i < n; i++) {
		for (j = i; j && d->ctl.sorted[j - 1] > d->ctl.iv[i]; j--)
			d->ctl.sorted[j] = d->ctl.sorted[j - 1];
		d->ctl.sorted[j] = d->ctl.iv[i];
	}
	med = d->ctl.sorted[(n - 1) / 2];
	for (i = 0; i < n; i++)
		if (!(busy & (1ULL << i)))
			d->ctl.iv[i] = min(d->ctl.iv[i], med);
	return dsh_spread_high(d->ctl.iv, n, med, d->ratio);
}

/* Take one sample and decide (section 5.1.5 "Heuristic"). */
static void dsh_sample(struct dshring *d, u64 now)
{
	unsigned int nq = d->m.cfg.nqueues, qi, good, w = d->window;
	u64 dt = now - d->ctl.last_ns, bytes = 0, ws = 0, pk;
	u64 pkts[RXB_MAX_MODEL_QUEUES];
	bool tput, press, over;

	d->ctl.last_ns = now;
	for (qi = 0; qi < nq; qi++) {
		struct dsh_q *q = &d->q[qi];
		const struct rxb_hw_qstats *st = rxb_bar_qstats(&d->m.bar, qi);
		/* The NIC's statistics registers. */
		u64 hp = READ_ONCE(st->hw_packets), hb = READ_ONCE(st->hw_bytes);

		pk = hp - q->ctl.hw_packets;
		bytes += hb - q->ctl.hw_bytes;
		q->ctl.hw_packets = hp;
		q->ctl.hw_bytes = hb;
		pkts[qi] = pk;
		/* privRing cycles through its ring: min(k, size) buffers. */
		ws += min_t(u64, pk, d->m.cfg.ring_size) * d->m.cfg.buf_len;
	}
	if (!dt)
		dt = 1;
	/* bytes * 8 / dt is Gbit/s; * 1000 Mbit/s. */
	tput = bytes * 8000 > (u64)d->tput_mbps * dt;
	press = ws > d->cache_bytes;
	over = dsh_overloaded(d, pkts, now, dt);

	d->ctl.tput = ((d->ctl.tput << 1) | tput) & d->wmask;
	d->ctl.press = ((d->ctl.press << 1) | press) & d->wmask;
	d->ctl.over = ((d->ctl.over << 1) | over) & d->wmask;
	if (d->ctl.nsamples < w)
		d->ctl.nsamples++;
	rxb_stat_inc(&d->ctl.st.samples);
	if (tput)
		rxb_stat_inc(&d->ctl.st.tput_high);
	if (press)
		rxb_stat_inc(&d->ctl.st.pressure_high);
	if (over)
		rxb_stat_inc(&d->ctl.st.overloaded);
	if (d->ctl.nsamples < w)
		return;

	/* Samples in favour of shRing: high throughput and pressure, no
	 * overloaded queue.
	 */
	good = hweight64(d->ctl.tput & d->ctl.press & ~d->ctl.over);
	if (d->ctl.target == RXB_DSH_PRIV) {
		if (hweight64(d->ctl.tput) * 2 <= w ||
		    hweight64(d->ctl.press) * 2 <= w || d->ctl.over)
			return;
	} else if ((w - good) * 8 < w * 7) {
		return;
	}
	/* A queue still draining the previous switch's old set: the NIC
	 * changed sets more often than its driver has drained.
	 */
	for (qi = 0; qi < nq; qi++)
		if (READ_ONCE(d->q[qi].sw.active) != dsh_active(d, qi)) {
			rxb_stat_inc(&d->ctl.st.deferred);
			return;
		}
	/* Read by dsh_xstats_values(). */
	WRITE_ONCE(d->ctl.target, d->ctl.target ^ 1);
	d->ctl.nsamples = 0;
	d->ctl.tput = 0;
	d->ctl.press = 0;
	d->ctl.over = 0;
	rxb_stat_inc(&d->ctl.st.switches);
	dsh_steer(d, d->ctl.target);
}

/* The driver's periodic controller task (rxb_model_ops.ctl_tick). */
static u64 dsh_ctl_tick(struct rxb_model *m, u64 now)
{
	struct dshring *d = to_dsh(m);
	unsigned int qi;

	rxb_stat_inc(&d->ctl.st.ticks);
	if (d->ctl.started) {
		dsh_sample(d, now);
		return d->period_ns;
	}
	/* The first tick only takes the readings to compare with. */
	d->ctl.started = true;
	d->ctl.last_ns = now;
	for (qi = 0; qi < m->cfg.nqueues; qi++) {
		struct dsh_q *q = &d->q[qi];

		const struct rxb_hw_qstats *st = rxb_bar_qstats(&m->bar, qi);

		/* The NIC's statistics registers, as in dsh_sample(). */
		q->ctl.hw_packets = READ_ONCE(st->hw_packets);
		q->ctl.hw_bytes = READ_ONCE(st->hw_bytes);
		q->ctl.calls = READ_ONCE(q->sw.calls);
		q->ctl.full = READ_ONCE(q->sw.full);
	}
	return d->period_ns;
}

/* ---- receive ---------------------------------------------------------- */

/* Add what the ring sets' driver halves counted for @qi since last time. */
static void dsh_fold(struct dshring *d, unsigned int qi)
{
	struct dsh_q *q = &d->q[qi];
	unsigned int s, i;

	for (s = 0; s < RXB_DSH_NSETS; s++)
		for (i = 0; i < DSH_NDRV; i++) {
			u64 v = READ_ONCE(*dsh_ctr(&d->set[s]->qstats[qi],
						   dsh_drv_off[i]));

			rxb_stat_add(dsh_ctr(&d->m.qstats[qi], dsh_drv_off[i]),
				     v - q->sw.seen[s][i]);
			q->sw.seen[s][i] = v;
		}
}

static int dsh_poll(struct rxb_model *m, unsigned int qi,
		    struct rxb_pkt *pkts, int budget)
{
	struct dshring *d = to_dsh(m);
	struct dsh_q *q = &d->q[qi];
	struct rxb_model *old, *s;
	u32 act;
	int n = 0;

	/* For the controller: this queue's receive calls. */
	WRITE_ONCE(q->sw.last_call_ns, rxb_drv_now_ns(m));
	WRITE_ONCE(q->sw.calls, q->sw.calls + 1);
	act = dsh_active(d, qi);
	if (q->sw.active != act) {
		/* Drain the set the NIC left before polling the one it
		 * delivers to (section 5.1.5): nothing more arrives there,
		 * and all it got is visible.
		 */
		old = d->set[(act & 1) ^ 1];
		n = rxb_model_poll(old, qi, pkts, budget);
		if (n == budget || old->ops->rx_pending(old, qi))
			goto out;
		/* Read by the controller before it switches again. */
		WRITE_ONCE(q->sw.active, act);
	}
	s = d->set[act & 1];
	n += rxb_model_poll(s, qi, pkts + n, budget - n);
out:
	if (n == budget)
		WRITE_ONCE(q->sw.full, q->sw.full + 1);
	dsh_fold(d, qi);
	return n;
}

static bool dsh_refill(struct rxb_model *m, unsigned int qi)
{
	struct dshring *d = to_dsh(m);
	struct rxb_model *priv = d->set[RXB_DSH_PRIV], *sh = d->set[RXB_DSH_SH];
	bool full = priv->ops->refill(priv, qi);

	full = sh->ops->refill(sh, qi) && full;
	dsh_fold(d, qi);
	return full;
}

static bool dsh_rx_pending(struct rxb_model *m, unsigned int qi)
{
	struct dshring *d = to_dsh(m);
	u32 act = dsh_active(d, qi);
	struct rxb_model *old = d->set[(act & 1) ^ 1];

	if (d->q[qi].sw.active != act && old->ops->rx_pending(old, qi))
		return true;
	return d->set[act & 1]->ops->rx_pending(d->set[act & 1], qi);
}

static void dsh_ring_state(struct rxb_model *m, unsigned int qi,
			   struct rxb_ring_state *st)
{
	struct dshring *d = to_dsh(m);
	struct rxb_model *s = d->set[READ_ONCE(d->q[qi].sw.active) & 1];

	/* The ring set the queue polls now. */
	s->ops->ring_state(s, qi, st);
}

static void dsh_nic_debug(struct rxb_model *m, unsigned int qi,
			  struct rxb_hw_debug *dbg)
{
	struct dshring *d = to_dsh(m);
	struct rxb_model *s = d->set[dsh_active(d, qi) & 1];

	/* The ring set the NIC delivers the queue's frames to now. */
	s->ops->nic_debug(s, qi, dbg);
}

/* ---- setup ------------------------------------------------------------ */

static int dsh_validate(const struct rxb_model_cfg *cfg, const char **msg)
{
	int err = shring_validate(cfg, msg);

	if (err)
		return err;
	if (cfg->dsh_window && (cfg->dsh_window % 8 || cfg->dsh_window > 64)) {
		*msg = "dshRing window must be a multiple of 8 in 8..64";
		return -EINVAL;
	}
	if (cfg->dsh_period_ns && (cfg->dsh_period_ns < 100000ULL ||
				   cfg->dsh_period_ns > 10000000000ULL)) {
		*msg = "dshRing sample period must be 100 us..10 s";
		return -EINVAL;
	}
	if (cfg->dsh_overload_ratio == 1 || cfg->dsh_overload_ratio > 1024) {
		*msg = "dshRing overload ratio must be 2..1024";
		return -EINVAL;
	}
	return 0;
}

static unsigned int dsh_bufs_per_queue(const struct rxb_model_cfg *cfg)
{
	/* A privRing ring plus up to a whole shared ring. */
	return 2 * cfg->ring_size;
}

/* The NIC's context is disabled: nothing reads the rings any more. */
static void dsh_fini(struct rxb_model *m)
{
	struct dshring *d = to_dsh(m);
	unsigned int s;

	for (s = 0; s < RXB_DSH_NSETS; s++)
		rxb_model_destroy(d->set[s]);
	rxb_ring_mem_free(m, &d->status_mem);
}

static int dsh_init(struct rxb_model *m)
{
	/* Both sets keep their rings posted: the switch needs no refill. */
	static const struct rxb_model_ops *const set_ops[RXB_DSH_NSETS] = {
		[RXB_DSH_PRIV] = &rxb_privring_ops,
		[RXB_DSH_SH] = &rxb_shring_ops,
	};
	const struct rxb_model_cfg *cfg = &m->cfg;
	struct dshring *d = to_dsh(m);
	struct rxb_dsh_status *status;
	struct rxb_bar view;
	unsigned int qi, s;

	/* The NIC reports each queue's set here: it starts on privRing,
	 * as the select registers do (zero).
	 */
	if (rxb_ring_mem_alloc(m, &d->status_mem,
			       cfg->nqueues * sizeof(*status)))
		return -ENOMEM;
	status = d->status_mem.va;
	for (qi = 0; qi < cfg->nqueues; qi++) {
		struct dsh_q *q = &d->q[qi];

		q->regs = rxb_dsh_regs(&m->bar, qi);
		q->status = &status[qi];
		rxb_reg_base(m, qi, &q->regs->status_base,
			     d->status_mem.addr + qi * sizeof(*status));
	}
	for (s = 0; s < RXB_DSH_NSETS; s++) {
		rxb_dsh_set_bar(&m->bar, cfg->nqueues, s, &view);
		d->set[s] = rxb_model_create(set_ops[s], cfg, m->env, m->drv,
					     &view);
		if (IS_ERR(d->set[s]))
			return PTR_ERR(d->set[s]);
	}
	d->period_ns = cfg->dsh_period_ns ?: DSH_DEF_PERIOD_NS;
	d->window = cfg->dsh_window ?: DSH_DEF_WINDOW;
	d->wmask = d->window == 64 ? ~0ULL : (1ULL << d->window) - 1;
	d->tput_mbps = cfg->dsh_tput_mbps ?: DSH_DEF_TPUT_MBPS;
	d->cache_bytes = cfg->cache_bytes ?: DSH_DEF_CACHE_BYTES;
	d->ratio = cfg->dsh_overload_ratio ?: DSH_DEF_RATIO;
	for (qi = 0; qi < cfg->nqueues; qi++)
		dsh_fold(d, qi);
	return 0;
}

/* ---- counters --------------------------------------------------------- */

static const char * const dsh_xstat_names[DSH_XSTATS] = {
	"dsh_shared", "dsh_switches", "dsh_samples", "dsh_tput_high",
	"dsh_pressure_high", "dsh_overloaded", "dsh_deferred", "dsh_ctl_ticks",
};

static unsigned int dsh_xstats_count(struct rxb_model *m)
{
	struct rxb_model *sh = to_dsh(m)->set[RXB_DSH_SH];

	return DSH_XSTATS + sh->ops->xstats_count(sh);
}

static void dsh_xstats_names(struct rxb_model *m, char *names)
{
	struct rxb_model *sh = to_dsh(m)->set[RXB_DSH_SH];
	unsigned int i;

	for (i = 0; i < DSH_XSTATS; i++)
		snprintf(names + i * RXB_STAT_NAME_LEN, RXB_STAT_NAME_LEN, "%s",
			 dsh_xstat_names[i]);
	/* The shRing set's rings and victim drops, under their own names. */
	sh->ops->xstats_names(sh, names + DSH_XSTATS * RXB_STAT_NAME_LEN);
}

static void dsh_xstats_values(struct rxb_model *m, u64 *vals)
{
	struct dshring *d = to_dsh(m);
	struct rxb_model *sh = d->set[RXB_DSH_SH];

	/* The set the driver selected (every queue's select register);
	 * queues may still be draining.
	 */
	*vals++ = READ_ONCE(d->ctl.target);
	*vals++ = READ_ONCE(d->ctl.st.switches);
	*vals++ = READ_ONCE(d->ctl.st.samples);
	*vals++ = READ_ONCE(d->ctl.st.tput_high);
	*vals++ = READ_ONCE(d->ctl.st.pressure_high);
	*vals++ = READ_ONCE(d->ctl.st.overloaded);
	*vals++ = READ_ONCE(d->ctl.st.deferred);
	*vals++ = READ_ONCE(d->ctl.st.ticks);
	sh->ops->xstats_values(sh, vals);
}

const struct rxb_model_ops rxb_dshring_ops = {
	.name		= "dshring",
	.hw		= &rxb_dshring_hw_ops,
	.layout		= &dsh_layout,
	.init		= dsh_init,
	.fini		= dsh_fini,
	.poll		= dsh_poll,
	.refill		= dsh_refill,
	.rx_pending	= dsh_rx_pending,
	RXB_QUEUE_OPS(dsh),
	RXB_XSTATS_OPS(dsh),
	.ctl_tick	= dsh_ctl_tick,
	.validate	= dsh_validate,
	.bufs_per_queue	= dsh_bufs_per_queue,
};
