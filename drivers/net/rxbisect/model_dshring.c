// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic shRing (dshRing): a privRing ring set and an shRing (RxArr) ring
 * set side by side, switched at run time by a controller (thesis sections
 * 5.1.5 and 5.1.6).
 *
 * Both ring sets are full instances of their models (model_privring.c,
 * model_shring.c), created with this instance's configuration and driven
 * through their ops.  The NIC steers each queue's packets to one set: the
 * two pre-programmed RSS table sets of the thesis.  Every sample period
 * (10 ms) the controller, run by the NIC's timer like the thesis's thread
 * on a separate core, samples
 *  - device throughput: bytes the NIC wrote;
 *  - memory pressure: the privRing I/O working set of the period, the
 *    distinct buffers privRing would have had the NIC write (a queue that
 *    received k packets cycles through min(k, ring size) buffers of its
 *    ring), in bytes, against the cache capacity DMA writes may use (we
 *    have no PCM to read the PCIe memory bandwidth the thesis samples, and
 *    unlike that bandwidth this does not drop once shRing is on);
 *  - each queue's interval between receive calls: period / calls, or the
 *    time since its last call if packets wait for it.  A queue is
 *    overloaded when packets wait for it and its interval exceeds
 *    dsh_overload_ratio (32, the thesis's largest Rx batch) times the
 *    median interval of the queues that had traffic;
 * into a sliding window of 16 samples.  privRing -> shRing when more than
 * half the throughput samples and more than half the pressure samples are
 * high and no sample saw an overloaded queue; shRing -> privRing when 7/8
 * of the samples are not all that (a sample with low throughput, low
 * pressure or an overloaded queue).  The window restarts after a switch.
 *
 * A switch redirects steering first, queue by queue under the queue's
 * steering lock; each queue's driver drains the old set before it polls
 * the new one.  The controller switches again only once every queue has
 * drained, so a queue never has two old sets to drain.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_model.h>
#include "rxb_ring.h"
#include "shring.h"

#define DSH_PRIV		0
#define DSH_SH			1
#define DSH_NSETS		2

#define DSH_DEF_PERIOD_NS	10000000ULL	/* thesis: every 10 ms */
#define DSH_DEF_WINDOW		16
#define DSH_DEF_TPUT_MBPS	1000
#define DSH_DEF_CACHE_BYTES	(4ULL << 20)	/* 2 DDIO ways of 2 MiB */
#define DSH_DEF_RATIO		32

#define DSH_XSTATS		7

/* Driver-side counters of the ring sets folded into this instance's. */
static const unsigned int dsh_drv_off[] = {
	offsetof(struct rxb_qstats, packets),
	offsetof(struct rxb_qstats, bytes),
	offsetof(struct rxb_qstats, refills),
	offsetof(struct rxb_qstats, alloc_fails),
	offsetof(struct rxb_qstats, doorbells),
};

#define DSH_NDRV	ARRAY_SIZE(dsh_drv_off)

struct dsh_q {
	/* NIC: steering of this queue. */
	struct {
		spinlock_t lock;	/* one delivery or switch at a time */
		u8 set;			/* ring set the NIC delivers to */
	} hw ____cacheline_aligned;

	/* Driver state. */
	struct {
		u8 cur;			/* ring set being polled */
		u64 seen[DSH_NSETS][DSH_NDRV];	/* ring set counters folded */
		u64 calls;		/* receive calls */
		u64 full;		/* of those, ended with a full budget */
		u64 last_call_ns;
	} sw ____cacheline_aligned;

	/* Controller: readings of the previous sample. */
	struct {
		u64 hw_packets;
		u64 hw_bytes;
		u64 calls;
		u64 full;
	} ctl;
};

/* Controller counters, written by the timer, read by xstats. */
struct dsh_cstats {
	u64 switches;		/* ring set switches */
	u64 samples;		/* samples taken */
	u64 tput_high;		/* samples with high throughput */
	u64 pressure_high;	/* samples with high memory pressure */
	u64 overloaded;		/* samples with an overloaded queue */
	u64 deferred;		/* decisions put off: a queue still draining */
};

struct dshring {
	struct rxb_model m;
	struct rxb_model *set[DSH_NSETS];
	struct dsh_q *q;
	u64 period_ns;
	u64 cache_bytes;
	u64 wmask;		/* the window's bits */
	unsigned int window;
	unsigned int tput_mbps;
	unsigned int ratio;
	bool ticking;		/* the sample timer is armed or running */

	/* Controller state; only the timer touches it. */
	struct {
		u8 target;		/* ring set steered to */
		bool started;
		u64 last_ns;
		unsigned int nsamples;	/* in the window since the last switch */
		u64 tput, press, over;	/* window, bit 0: the latest sample */
		u64 idle;		/* samples without traffic, same order */
		u64 *iv;		/* per queue: receive-call interval */
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

static struct dshring *to_dsh(struct rxb_model *m)
{
	return container_of(m, struct dshring, m);
}

static u64 *dsh_ctr(struct rxb_qstats *st, unsigned int off)
{
	return (u64 *)((char *)st + off);
}

/* ---- NIC side ------------------------------------------------------- */

static int dsh_hw_rx(struct rxb_model *m, unsigned int qi,
		     const struct rxb_frame *f)
{
	struct dshring *d = to_dsh(m);
	struct dsh_q *q = &d->q[qi];
	struct rxb_qstats *st = &m->qstats[qi];
	struct rxb_model *s;
	int err;

	/* The controller samples while there is traffic. */
	if (!READ_ONCE(d->ticking)) {
		WRITE_ONCE(d->ticking, true);
		m->cfg.env_ops->arm_timer(m->cfg.env, d->period_ns);
	}
	spin_lock(&q->hw.lock);
	s = d->set[q->hw.set];
	err = s->ops->hw_rx(s, qi, f);
	switch (err) {
	case 0:
		rxb_stat_inc(&st->hw_packets);
		rxb_stat_add(&st->hw_bytes, f->len);
		break;
	case -ENOBUFS:
		rxb_stat_inc(&st->nobuf_drops);
		break;
	case -ENOSPC:
		rxb_stat_inc(&st->ring_full_drops);
		break;
	default:
		rxb_stat_inc(&st->oversize_drops);
		break;
	}
	spin_unlock(&q->hw.lock);
	return err;
}

/* Point every queue's steering at ring set @target (section 5.1.5). */
static void dsh_steer(struct dshring *d, u8 target)
{
	unsigned int qi;

	for (qi = 0; qi < d->m.cfg.nqueues; qi++) {
		struct dsh_q *q = &d->q[qi];

		spin_lock(&q->hw.lock);
		/* Release: every delivery to the old set, each in an earlier
		 * critical section, is visible to a driver that sees the new
		 * set.  Pairs with the acquire in dsh_poll() and
		 * dsh_rx_pending().
		 */
		smp_store_release(&q->hw.set, target);
		spin_unlock(&q->hw.lock);
	}
	/* Let every queue drain its old set now. */
	for (qi = 0; qi < d->m.cfg.nqueues; qi++)
		d->m.cfg.env_ops->raise_irq(d->m.cfg.env, qi);
}

/* Is a queue overloaded (section 5.1.5)?  It calls receive rarely compared
 * to the others: per queue that had traffic in the sample, the interval
 * between receive calls is the period over the calls, or the time since
 * the last call if packets wait and that is longer.  A queue with packets
 * waiting, or whose calls took a full budget, is overloaded when its
 * interval exceeds ratio times the (lower) median.
 */
static bool dsh_overloaded(struct dshring *d, const u64 *pkts, u64 now, u64 dt)
{
	unsigned int nq = d->m.cfg.nqueues, qi, n = 0, i, j;
	u64 med, busy = 0;

	for (qi = 0; qi < nq; qi++) {
		struct dsh_q *q = &d->q[qi];
		const struct rxb_qstats *st = &d->m.qstats[qi];
		u64 calls = READ_ONCE(q->sw.calls), full = READ_ONCE(q->sw.full);
		u64 dc = calls - q->ctl.calls, df = full - q->ctl.full, iv;
		s64 backlog = READ_ONCE(st->hw_packets) - READ_ONCE(st->packets);

		q->ctl.calls = calls;
		q->ctl.full = full;
		d->ctl.iv[qi] = 0;
		if (!pkts[qi] && backlog <= 0)
			continue;
		iv = dc ? div64_u64(dt, dc) : dt;
		if (backlog > 0) {
			u64 open = calls ? now - READ_ONCE(q->sw.last_call_ns) : dt;

			iv = max(iv, open);
		}
		if (backlog > 0 || df)
			busy |= 1ULL << qi;
		d->ctl.iv[qi] = iv;
		/* Insertion sort of the intervals with traffic. */
		for (j = n++; j && d->ctl.sorted[j - 1] > iv; j--)
			d->ctl.sorted[j] = d->ctl.sorted[j - 1];
		d->ctl.sorted[j] = iv;
	}
	if (n < 2)
		return false;
	med = max_t(u64, d->ctl.sorted[(n - 1) / 2], 1);
	for (i = 0; i < nq; i++)
		if ((busy & (1ULL << i)) && d->ctl.iv[i] > d->ratio * med)
			return true;
	return false;
}

/* Take one sample and decide (section 5.1.5 "Heuristic"). */
static void dsh_sample(struct dshring *d, u64 now)
{
	unsigned int nq = d->m.cfg.nqueues, qi, good, w = d->window;
	u64 dt = now - d->ctl.last_ns, bytes = 0, ws = 0, pk, total = 0;
	u64 pkts[RXB_MAX_MODEL_QUEUES];
	bool tput, press, over;

	d->ctl.last_ns = now;
	for (qi = 0; qi < nq; qi++) {
		struct dsh_q *q = &d->q[qi];
		const struct rxb_qstats *st = &d->m.qstats[qi];
		u64 hp = READ_ONCE(st->hw_packets), hb = READ_ONCE(st->hw_bytes);

		pk = hp - q->ctl.hw_packets;
		bytes += hb - q->ctl.hw_bytes;
		q->ctl.hw_packets = hp;
		q->ctl.hw_bytes = hb;
		pkts[qi] = pk;
		total += pk;
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
	d->ctl.idle = ((d->ctl.idle << 1) | (total ? 0 : 1)) & d->wmask;
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
	if (d->ctl.target == DSH_PRIV) {
		if (hweight64(d->ctl.tput) * 2 <= w ||
		    hweight64(d->ctl.press) * 2 <= w || d->ctl.over)
			return;
	} else if ((w - good) * 8 < w * 7) {
		return;
	}
	/* A queue still draining the previous switch's old set. */
	for (qi = 0; qi < nq; qi++)
		if (READ_ONCE(d->q[qi].sw.cur) != d->ctl.target) {
			rxb_stat_inc(&d->ctl.st.deferred);
			return;
		}
	d->ctl.target ^= 1;
	d->ctl.nsamples = 0;
	d->ctl.tput = 0;
	d->ctl.press = 0;
	d->ctl.over = 0;
	d->ctl.idle = 0;
	rxb_stat_inc(&d->ctl.st.switches);
	dsh_steer(d, d->ctl.target);
}

static void dsh_hw_timer(struct rxb_model *m)
{
	struct dshring *d = to_dsh(m);
	u64 now = m->cfg.env_ops->now_ns(m->cfg.env);
	unsigned int qi;

	if (!d->ctl.started) {
		/* The first tick only takes the readings to compare with. */
		d->ctl.started = true;
		d->ctl.last_ns = now;
		for (qi = 0; qi < m->cfg.nqueues; qi++) {
			d->q[qi].ctl.hw_packets = READ_ONCE(m->qstats[qi].hw_packets);
			d->q[qi].ctl.hw_bytes = READ_ONCE(m->qstats[qi].hw_bytes);
			d->q[qi].ctl.calls = READ_ONCE(d->q[qi].sw.calls);
			d->q[qi].ctl.full = READ_ONCE(d->q[qi].sw.full);
		}
	} else {
		dsh_sample(d, now);
	}
	/* Sleep once a whole window saw no traffic on privRing; the next
	 * packet wakes the controller up.
	 */
	if (d->ctl.target == DSH_PRIV && d->ctl.nsamples == d->window &&
	    d->ctl.idle == d->wmask) {
		d->ctl.started = false;
		d->ctl.nsamples = 0;
		WRITE_ONCE(d->ticking, false);
		return;
	}
	m->cfg.env_ops->arm_timer(m->cfg.env, d->period_ns);
}

/* ---- driver side ---------------------------------------------------- */

/* Add what the ring sets' driver halves counted for @qi since last time. */
static void dsh_fold(struct dshring *d, unsigned int qi)
{
	struct dsh_q *q = &d->q[qi];
	unsigned int s, i;

	for (s = 0; s < DSH_NSETS; s++)
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
	u8 set;
	int n = 0;

	rxb_stat_inc(&m->qstats[qi].polls);
	/* For the controller: this queue's receive calls. */
	WRITE_ONCE(q->sw.last_call_ns, m->cfg.env_ops->now_ns(m->cfg.env));
	WRITE_ONCE(q->sw.calls, q->sw.calls + 1);
	/* Acquire: pairs with the release in dsh_steer(). */
	set = smp_load_acquire(&q->hw.set);
	if (q->sw.cur != set) {
		/* Drain the old set before polling the new (section 5.1.5):
		 * nothing more arrives there, and all it got is visible.
		 */
		old = d->set[q->sw.cur];
		n = old->ops->poll(old, qi, pkts, budget);
		if (n == budget || old->ops->rx_pending(old, qi))
			goto out;
		/* Read by the controller before it switches again. */
		WRITE_ONCE(q->sw.cur, set);
	}
	s = d->set[set];
	n += s->ops->poll(s, qi, pkts + n, budget - n);
out:
	if (n == budget)
		WRITE_ONCE(q->sw.full, q->sw.full + 1);
	dsh_fold(d, qi);
	return n;
}

static bool dsh_refill(struct rxb_model *m, unsigned int qi)
{
	struct dshring *d = to_dsh(m);
	bool priv = d->set[DSH_PRIV]->ops->refill(d->set[DSH_PRIV], qi);
	bool sh = d->set[DSH_SH]->ops->refill(d->set[DSH_SH], qi);

	dsh_fold(d, qi);
	return priv && sh;
}

static bool dsh_rx_pending(struct rxb_model *m, unsigned int qi)
{
	struct dshring *d = to_dsh(m);
	struct dsh_q *q = &d->q[qi];
	/* Acquire: pairs with the release in dsh_steer(). */
	u8 set = smp_load_acquire(&q->hw.set);
	struct rxb_model *old = d->set[q->sw.cur];

	if (q->sw.cur != set && old->ops->rx_pending(old, qi))
		return true;
	return d->set[set]->ops->rx_pending(d->set[set], qi);
}

static void dsh_ring_state(struct rxb_model *m, unsigned int qi,
			   struct rxb_ring_state *st)
{
	struct dshring *d = to_dsh(m);
	struct rxb_model *s = d->set[READ_ONCE(d->q[qi].sw.cur)];

	/* The ring set the queue polls now. */
	s->ops->ring_state(s, qi, st);
}

/* ---- setup ---------------------------------------------------------- */

static int dsh_validate(const struct rxb_model_cfg *cfg, const char **msg)
{
	int err = shring_validate_share(cfg, msg);

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

static void dsh_destroy(struct rxb_model *m)
{
	struct dshring *d = to_dsh(m);
	unsigned int s;

	for (s = 0; s < DSH_NSETS; s++)
		if (d->set[s])
			d->set[s]->ops->destroy(d->set[s]);
	rxb_model_free(m, &dsh_layout);
}

static struct rxb_model *dsh_create(const struct rxb_model_cfg *cfg)
{
	/* Both sets keep their rings posted: the switch needs no refill. */
	static const struct rxb_model_ops *const set_ops[DSH_NSETS] = {
		[DSH_PRIV] = &rxb_privring_ops,
		[DSH_SH] = &rxb_shring_ops,
	};
	unsigned int qi, s;
	struct dshring *d;
	struct rxb_model *m = rxb_model_alloc(&rxb_dshring_ops, cfg,
					      &dsh_layout);

	if (IS_ERR(m))
		return m;
	for (s = 0; s < DSH_NSETS; s++) {
		struct rxb_model *set = set_ops[s]->create(cfg);

		if (IS_ERR(set)) {
			dsh_destroy(m);
			return set;
		}
		to_dsh(m)->set[s] = set;
	}
	d = to_dsh(m);
	d->period_ns = cfg->dsh_period_ns ?: DSH_DEF_PERIOD_NS;
	d->window = cfg->dsh_window ?: DSH_DEF_WINDOW;
	d->wmask = d->window == 64 ? ~0ULL : (1ULL << d->window) - 1;
	d->tput_mbps = cfg->dsh_tput_mbps ?: DSH_DEF_TPUT_MBPS;
	d->cache_bytes = cfg->cache_bytes ?: DSH_DEF_CACHE_BYTES;
	d->ratio = cfg->dsh_overload_ratio ?: DSH_DEF_RATIO;
	for (qi = 0; qi < cfg->nqueues; qi++)
		spin_lock_init(&d->q[qi].hw.lock);
	for (qi = 0; qi < cfg->nqueues; qi++)
		dsh_fold(d, qi);
	return m;
}

/* ---- counters ------------------------------------------------------- */

static const char * const dsh_xstat_names[DSH_XSTATS] = {
	"dsh_shared", "dsh_switches", "dsh_samples", "dsh_tput_high",
	"dsh_pressure_high", "dsh_overloaded", "dsh_deferred",
};

static unsigned int dsh_xstats_count(struct rxb_model *m)
{
	struct rxb_model *sh = to_dsh(m)->set[DSH_SH];

	return DSH_XSTATS + sh->ops->xstats_count(sh);
}

static void dsh_xstats_names(struct rxb_model *m, char *names)
{
	struct rxb_model *sh = to_dsh(m)->set[DSH_SH];
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
	struct rxb_model *sh = d->set[DSH_SH];

	/* The set the NIC delivers to; queues may still be draining. */
	*vals++ = READ_ONCE(d->q[0].hw.set);
	*vals++ = READ_ONCE(d->ctl.st.switches);
	*vals++ = READ_ONCE(d->ctl.st.samples);
	*vals++ = READ_ONCE(d->ctl.st.tput_high);
	*vals++ = READ_ONCE(d->ctl.st.pressure_high);
	*vals++ = READ_ONCE(d->ctl.st.overloaded);
	*vals++ = READ_ONCE(d->ctl.st.deferred);
	sh->ops->xstats_values(sh, vals);
}

const struct rxb_model_ops rxb_dshring_ops = {
	RXB_MODEL_OPS("dshring", dsh),
	.destroy	= dsh_destroy,
	.rx_pending	= dsh_rx_pending,
	.hw_timer	= dsh_hw_timer,
	.validate	= dsh_validate,
	RXB_XSTATS_OPS(dsh),
	.bufs_per_queue	= dsh_bufs_per_queue,
	.ring_state	= dsh_ring_state,
};
