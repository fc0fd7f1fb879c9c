// SPDX-License-Identifier: GPL-2.0
/*
 * Ensō user pipes (rxb_desc.h, "Ensō user pipes"): the NIC's half
 * (drivers/net/rxbisect/hw/models/enso.c) driven through its registers as
 * the character device programs them (drv/enso_user.c), read by the
 * userspace library (tools/enso/enso.c) on the same memory: the library's
 * operations, Figure 5 on user pipes (the NIC sees the application's
 * plain stores only when it scans: before a frame for the pipe, and from
 * its timer), wrap-around at every pipe size, full pipes and rings, every
 * bad register write, two contexts kept apart, a disabled pipe left
 * alone, and a threaded run (NIC, its timer and the application on three
 * threads: exactly once, in order).  Transmit (section 2.2): frames sent
 * through TX pipes reach the wire intact, in order, from the ring's
 * queue, wrapping, with completions that free the pipe; in place from a
 * bound pipe (unified pipes); every bad TX notification and tail write
 * refused, counted, nothing read; a pipe or ring disabled with
 * notifications posted sends nothing; TX against the NIC's timer thread.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_hw_model.h>

#include "env.h"
#include "ktap.h"
#include "../../enso/enso.h"

/* The library's view of the registers and entries is rxb_desc.h's. */
static_assert(sizeof(struct enso_notif_regs) ==
	      sizeof(struct rxb_enso_unotif_regs));
static_assert(offsetof(struct enso_notif_regs, bad_writes) ==
	      offsetof(struct rxb_enso_unotif_regs, bad_writes));
static_assert(sizeof(struct enso_pipe_regs) ==
	      sizeof(struct rxb_enso_upipe_regs));
static_assert(offsetof(struct enso_pipe_regs, prefetch) ==
	      offsetof(struct rxb_enso_upipe_regs, prefetch));
static_assert(offsetof(struct enso_pipe_regs, bad_writes) ==
	      offsetof(struct rxb_enso_upipe_regs, bad_writes));
static_assert(sizeof(struct enso_notif) == sizeof(struct rxb_enso_notif));
static_assert(offsetof(struct enso_notif, tail) ==
	      offsetof(struct rxb_enso_notif, tail));
static_assert(sizeof(struct enso_hdr) == sizeof(struct rxb_enso_hdr));
static_assert(ENSO_FLIT == RXB_ENSO_FLIT);
static_assert(offsetof(struct enso_notif_regs, tx) ==
	      offsetof(struct rxb_enso_unotif_regs, tx));
static_assert(ENSO_MAX_ENTRIES == RXB_RING_MAX);

#define NQ	2
#define PORT0	0x1f90		/* 8080, network order on little-endian */

/* A user ring and its pipes, as the character device sets them up. */
struct uctx {
	unsigned int slot;
	struct rxb_enso_uctx_cfg *cfg;
	void *notif;
	u64 notif_addr;
	void *txn;
	u64 txn_addr;
	u32 entries;
	struct enso_dev dev;
	struct upipe {
		unsigned int slot;
		struct rxb_enso_upipe_cfg *cfg;
		void *va;
		u32 size;
		struct enso_rx_pipe p;
	} pipe[4];
	unsigned int npipes;
};

static void *upage(struct rxb_th *t, unsigned int idx)
{
	return rxb_bar_page(&t->m->bar,
			    rxb_enso_user_page(&t->m->bar, t->cfg.enso_pipes,
					       NQ) + idx);
}

static bool uctx_on(struct rxb_th *t, struct uctx *u, unsigned int slot,
		    u32 entries)
{
	memset(u, 0, sizeof(*u));
	u->slot = slot;
	u->entries = entries;
	u->cfg = rxb_enso_uctx_cfgs(&t->m->bar, t->cfg.enso_pipes, NQ) + slot;
	u->notif = t->m->env->dma_alloc(t->m->drv, entries * 64,
					&u->notif_addr);
	u->txn = t->m->env->dma_alloc(t->m->drv, entries * 64, &u->txn_addr);
	if (!EXPECT(u->notif) || !EXPECT(u->txn))
		return false;
	u->cfg->base.hi = u->notif_addr >> 32;
	u->cfg->base.lo = (u32)u->notif_addr;
	u->cfg->tx_base.hi = u->txn_addr >> 32;
	u->cfg->tx_base.lo = (u32)u->txn_addr;
	u->cfg->size = entries;
	u->cfg->queue = slot % NQ;
	rxb_reg_write(t->m, 0, &u->cfg->ctl, 1);
	rxb_th_nic_run(t);
	if (!EXPECT_EQ(u->cfg->state, 1))
		return false;
	enso_dev_init(&u->dev, -1, upage(t, slot), u->notif, u->txn, entries);
	return true;
}

/* Pipe of @size bytes in user pipe slot @slot taking UDP port @port
 * (0: none, a TX pipe).
 */
static struct enso_rx_pipe *upipe_on(struct rxb_th *t, struct uctx *u,
				     unsigned int slot, u32 size, u16 port)
{
	u32 ctl = RXB_ENSO_UCTL_ON | (port ? RXB_ENSO_UCTL_RX : 0);
	struct upipe *p = &u->pipe[u->npipes];
	u64 addr;

	p->slot = slot;
	p->size = size;
	p->cfg = rxb_enso_upipe_cfgs(&t->m->bar, t->cfg.enso_pipes, NQ) +
		 slot;
	p->va = rxb_drv_map_ring(t->m, 0, size, &addr);
	if (!EXPECT(p->va))
		return NULL;
	memset(upage(t, RXB_ENSO_UCTX + slot), 0, RXB_BAR_PAGE);
	memset(p->cfg, 0, sizeof(*p->cfg));
	p->cfg->mem.hi = addr >> 32;
	p->cfg->mem.lo = (u32)addr;
	p->cfg->size = size;
	p->cfg->uctx = u->slot;
	p->cfg->tag = u->npipes;
	p->cfg->key.family = 4;
	p->cfg->key.proto = 17;
	p->cfg->key.dport = (__force __be16)port;
	/* As the character device: enabled at creation, bound after. */
	rxb_reg_write(t->m, 0, &p->cfg->ctl, RXB_ENSO_UCTL_ON);
	rxb_th_nic_run(t);
	if (!EXPECT_EQ(p->cfg->state, RXB_ENSO_UCTL_ON))
		return NULL;
	rxb_reg_write(t->m, 0, &p->cfg->ctl, ctl);
	rxb_th_nic_run(t);
	if (!EXPECT_EQ(p->cfg->state, ctl))
		return NULL;
	enso_rx_pipe_init(&p->p, &u->dev, u->npipes, p->va,
			  upage(t, RXB_ENSO_UCTX + slot), size);
	p->p.bound = !!port;
	u->npipes++;
	return &p->p;
}

static void uctx_off(struct rxb_th *t, struct uctx *u)
{
	unsigned int i;

	for (i = 0; i < u->npipes; i++) {
		rxb_reg_write(t->m, 0, &u->pipe[i].cfg->ctl, 0);
		rxb_th_nic_run(t);
		EXPECT_EQ(u->pipe[i].cfg->state, 0);
		rxb_drv_unmap_ring(t->m, 0, u->pipe[i].va, u->pipe[i].size);
	}
	if (u->cfg) {
		rxb_reg_write(t->m, 0, &u->cfg->ctl, 0);
		rxb_th_nic_run(t);
		EXPECT_EQ(u->cfg->state, 0);
	}
	if (u->notif)
		t->m->env->dma_free(t->m->drv, u->notif, u->entries * 64);
	if (u->txn)
		t->m->env->dma_free(t->m->drv, u->txn, u->entries * 64);
	memset(u, 0, sizeof(*u));
}

static u8 frame[RXB_ENV_BUF_SIZE];

/* A UDP frame to @port, carrying @seq, of @len bytes, on queue @q. */
static int send_to(struct rxb_th *t, unsigned int q, u16 port, u64 seq,
		   unsigned int len)
{
	struct rxb_tframe_id id = { .producer = port, .q = 0, .seq = seq };
	struct rxb_nic_tuple key = {
		.family = 4, .proto = 17, .dport = (__force __be16)port,
		.sport = (__force __be16)0x3412,
	};
	struct rxb_frame f = {
		.data = frame, .key = &key, .len = len, .hash = (u32)seq,
	};

	rxb_tframe_fill(frame, len, &id);
	return rxb_th_hw_rx(t, q, &f);
}

/* Receive what pipe @p's notifications announce; check the frames are
 * @port's @next, @next + 1, ...; free them if @free.  How many.
 */
static unsigned int take(struct enso_rx_pipe *p, u16 port, u64 *next,
			 bool free)
{
	unsigned int n = 0;
	uint8_t *buf;
	uint32_t len, off = 0, flen;
	const uint8_t *d;

	enso_poll_notifs(p->dev);
	len = enso_recv(p, &buf, 0);
	while ((d = enso_next_frame(buf, len, &off, &flen))) {
		struct rxb_tframe_id id;

		if (EXPECT(rxb_tframe_check(d, flen, &id), "seq %llu: bad frame",
			   (unsigned long long)*next)) {
			EXPECT_EQ(id.producer, port);
			EXPECT_EQ(id.seq, *next);
		}
		(*next)++;
		n++;
	}
	EXPECT_EQ(off, len);
	if (free)
		enso_clear(p);
	return n;
}

/* Queue 0's frames the NIC dropped for want of room. */
static u64 ring_full_drops(struct rxb_th *t)
{
	struct rxb_qstats st;

	rxb_th_qstats(t, 0, &st);
	return st.ring_full_drops;
}

/* Read the kernel's pipes empty.  How many packets. */
static unsigned int kdrain(struct rxb_th *t)
{
	unsigned int q, n = 0, idle = 0;
	struct rxb_pkt pkts[8];
	int i, k;

	while (idle < 100) {
		k = 0;
		for (q = 0; q < NQ; q++) {
			int got = rxb_model_poll(t->m, q, pkts, 8);

			for (i = 0; i < got; i++)
				rxb_env_pkt_take(t->env, q, &pkts[i]);
			k += got;
			t->ops->refill(t->m, q);
		}
		n += k;
		if (!k && !rxb_th_nic_run(t))
			idle++;
	}
	return n;
}

/* Fire the NIC's timer: its scan of the user registers. */
static void scan(struct rxb_th *t)
{
	EXPECT(rxb_env_run_timer(t->env));
}

static bool setup(struct rxb_th *t)
{
	if (!rxb_th_init(t, "enso", NQ, 64, RXB_ENV_BUF_SIZE))
		return false;
	t->cfg.enso_pipes = 2;
	t->cfg.flow_table_size = 0;
	rxb_env_fake_clock(t->env, 1);
	return rxb_th_start(t);
}

/*
 * The library's operations and Figure 5 on a user pipe: one notification
 * for three frames, the rest notified when the NIC sees Head_SW (its
 * scan), status cleared at the tail; prefetch; frames of other flows go
 * to the kernel's pipes.
 */
static void test_ops(const void *arg __always_unused)
{
	struct enso_rx_pipe *p;
	u64 next = 0, seq = 0;
	struct rxb_pkt pkts[8];
	struct rxb_th t;
	struct uctx u = {};
	uint8_t *buf;

	if (!setup(&t) || !uctx_on(&t, &u, 0, 64))
		goto out;
	p = upipe_on(&t, &u, 0, 8192, PORT0);
	if (!p)
		goto out;
	EXPECT(rxb_env_timer_pending(t.env));
	EXPECT_EQ(send_to(&t, 0, PORT0, seq++, 100), 0);
	EXPECT_EQ(send_to(&t, 1, PORT0, seq++, 200), 0);
	EXPECT_EQ(send_to(&t, 0, PORT0, seq++, 300), 0);
	EXPECT_EQ(u.dev.regs->notifs, 1);
	EXPECT_EQ(p->regs->packets, 3);
	/* Not the driver's: no interrupt, nothing in the kernel's pipes. */
	EXPECT_EQ(rxb_env_irqs(t.env, 0), 0);
	EXPECT_EQ(rxb_model_poll(t.m, 0, pkts, 8), 0);
	EXPECT(enso_next_rx_pipe(&u.dev) == p);
	/* Peek leaves the chunk unread; at most max bytes, whole frames. */
	EXPECT_EQ(enso_peek(p, &buf, 0), 128);
	EXPECT_EQ(enso_peek(p, &buf, 127), 0);
	EXPECT_EQ(take(p, PORT0, &next, false), 1);
	EXPECT(!enso_next_rx_pipe(&u.dev));
	/* Confirmed, not freed: the NIC has seen nothing. */
	scan(&t);
	EXPECT_EQ(u.dev.regs->notifs, 1);
	enso_free(p, 64);
	scan(&t);
	/* Head_SW short of the tail: the tail is notified. */
	EXPECT_EQ(u.dev.regs->notifs, 2);
	enso_clear(p);
	EXPECT_EQ(take(p, PORT0, &next, true), 2);
	scan(&t);
	EXPECT_EQ(u.dev.regs->notifs, 2);
	/* Status 0 again: the next frame is notified on arrival. */
	EXPECT_EQ(send_to(&t, 0, PORT0, seq++, 64), 0);
	EXPECT_EQ(u.dev.regs->notifs, 3);
	EXPECT_EQ(send_to(&t, 0, PORT0, seq++, 64), 0);
	EXPECT_EQ(u.dev.regs->notifs, 3);
	/* Prefetch with data unread beyond the notified tail. */
	EXPECT_EQ(take(p, PORT0, &next, false), 1);
	enso_prefetch(p);
	scan(&t);
	EXPECT_EQ(u.dev.regs->notifs, 4);
	EXPECT_EQ(take(p, PORT0, &next, true), 1);
	EXPECT_EQ(next, seq);
	/* Another flow: the kernel's pipes, with an interrupt. */
	EXPECT_EQ(send_to(&t, 0, PORT0 + 1, 0, 64), 0);
	EXPECT_EQ(p->regs->packets, seq);
	EXPECT_EQ(rxb_env_irqs(t.env, 0), 1);
	EXPECT_EQ(kdrain(&t), 1);
	EXPECT_EQ(u.dev.bad_notifs, 0);
	EXPECT_EQ(p->bad_frames, 0);
out:
	uctx_off(&t, &u);
	rxb_th_destroy(&t);
}

/*
 * Wrap-around at every pipe size: frames of 64..1500 bytes, some across
 * the end, read in one piece through the double mapping, many times round.
 */
static void test_wrap(const void *arg __always_unused)
{
	u32 size;

	for (size = RXB_ENSO_PIPE_MIN; size <= RXB_ENSO_PIPE_MAX; size *= 2) {
		struct enso_rx_pipe *p;
		u64 next = 0, seq = 0, sent = 0, target;
		struct uctx u = {};
		struct rxb_th t;

		if (!setup(&t) || !uctx_on(&t, &u, 1, 256))
			goto out;
		p = upipe_on(&t, &u, 5, size, PORT0);
		if (!p)
			goto out;
		/* Three times round, at least 200 frames. */
		target = max_t(u64, 200, 3ULL * size / 700);
		while (sent < target) {
			unsigned int len = 64 + (sent * 397) % 1437;

			EXPECT_EQ(send_to(&t, sent & 1, PORT0, seq++, len), 0);
			sent++;
			if (enso_next_rx_pipe(&u.dev))
				take(p, PORT0, &next, true);
			scan(&t);
		}
		while (next < seq && enso_next_rx_pipe(&u.dev)) {
			take(p, PORT0, &next, true);
			scan(&t);
		}
		EXPECT(next == seq, "pipe of %u bytes: %llu of %llu", size,
		       (unsigned long long)next, (unsigned long long)seq);
		EXPECT_EQ(p->regs->drops, 0);
		EXPECT_EQ(p->bad_frames, 0);
		ktap_diag("pipe of %u bytes: %llu frames, %llu notifications",
			  size, (unsigned long long)next,
			  (unsigned long long)u.dev.regs->notifs);
out:
		uctx_off(&t, &u);
		rxb_th_destroy(&t);
	}
}

/* A full pipe drops whole frames; a full ring drops notifications and
 * sends them once the application gives entries back.
 */
static void test_full(const void *arg __always_unused)
{
	struct enso_rx_pipe *p[2];
	u64 next[2] = {}, seq[2] = {};
	unsigned int i, k;
	struct uctx u = {};
	struct rxb_th t;

	if (!setup(&t) || !uctx_on(&t, &u, 0, 64))
		goto out;
	p[0] = upipe_on(&t, &u, 0, 4096, PORT0);
	p[1] = p[0] ? upipe_on(&t, &u, 1, 16384, PORT0 + 0x100) : NULL;
	if (!p[1])
		goto out;
	/* 4096 bytes = 64 flits, one kept free: 21 frames of 3 flits. */
	for (i = 0; i < 30; i++)
		send_to(&t, 0, PORT0, seq[0]++, 150);
	EXPECT_EQ(p[0]->regs->packets, 21);
	EXPECT_EQ(p[0]->regs->drops, 9);
	/* The pipe's drops, not the queue's (the kernel's counters). */
	EXPECT_EQ(ring_full_drops(&t), 0);
	/* Reactive: the first frame's notification, the rest once the NIC
	 * sees Head_SW.
	 */
	EXPECT_EQ(take(p[0], PORT0, &next[0], true), 1);
	scan(&t);
	EXPECT_EQ(take(p[0], PORT0, &next[0], true), 20);
	scan(&t);
	/* The ring: 64 entries; fill it with notifications of pipe 1 (a
	 * prefetch each, with data unread), unread.
	 */
	for (k = 0; k < 70; k++) {
		send_to(&t, 1, PORT0 + 0x100, seq[1]++, 64);
		enso_prefetch(p[1]);
		scan(&t);
	}
	EXPECT(u.dev.regs->drops > 0);
	/* Read them all: the NIC sends the dropped one again. */
	for (k = 0; k < 1000; k++) {
		struct enso_rx_pipe *r = enso_next_rx_pipe(&u.dev);

		if (!r)
			break;
		EXPECT(r == p[1]);
		take(r, PORT0 + 0x100, &next[1], true);
		scan(&t);
	}
	EXPECT_EQ(next[1], seq[1]);
out:
	uctx_off(&t, &u);
	rxb_th_destroy(&t);
}

/*
 * Every bad register write is refused and counted, and changes nothing
 * else: Head_SW beyond Tail_NIC, Head_SW not a flit of the pipe, a
 * NotificationHead_SW beyond the entries written; and a pipe with a bad
 * configuration is refused.
 */
static void test_bad_writes(const void *arg __always_unused)
{
	struct enso_rx_pipe *p, *q;
	u64 next = 0, seq = 0, nextq = 0;
	struct uctx u = {}, v = {};
	struct rxb_enso_upipe_cfg *c;
	struct rxb_th t;

	if (!setup(&t) || !uctx_on(&t, &u, 0, 64) || !uctx_on(&t, &v, 1, 64))
		goto out;
	p = upipe_on(&t, &u, 0, 4096, PORT0);
	q = p ? upipe_on(&t, &v, 1, 4096, PORT0 + 0x100) : NULL;
	if (!q)
		goto out;
	send_to(&t, 0, PORT0, seq++, 64);
	send_to(&t, 0, PORT0 + 0x100, 0, 64);
	/* Head_SW beyond the tail (2 flits written). */
	p->regs->rx_head = 5;
	scan(&t);
	EXPECT_EQ(p->regs->bad_writes, 1);
	/* Not a flit of the pipe. */
	p->regs->rx_head = 1u << 20;
	scan(&t);
	EXPECT_EQ(p->regs->bad_writes, 2);
	/* The NIC's head did not move: a frame still fits, and is read. */
	p->regs->rx_head = 0;
	scan(&t);
	EXPECT_EQ(p->regs->bad_writes, 2);
	send_to(&t, 0, PORT0, seq++, 64);
	while (take(p, PORT0, &next, true))
		scan(&t);
	EXPECT_EQ(next, seq);
	/* NotificationHead_SW beyond what the NIC wrote. */
	u.dev.regs->head = u.dev.nhead + 10;
	scan(&t);
	EXPECT_EQ(u.dev.regs->bad_writes, 1);
	u.dev.regs->head = u.dev.nhead;
	/* The other context saw none of it. */
	EXPECT_EQ(q->regs->bad_writes, 0);
	EXPECT_EQ(v.dev.regs->bad_writes, 0);
	EXPECT_EQ(take(q, PORT0 + 0x100, &nextq, true), 1);
	EXPECT_EQ(v.dev.bad_notifs, 0);
	EXPECT_EQ(u.dev.bad_notifs, 0);
	/* Bad configurations: refused (state 2), nothing enabled. */
	c = rxb_enso_upipe_cfgs(&t.m->bar, t.cfg.enso_pipes, NQ) + 7;
	c->mem.lo = 4096 * 3;
	c->size = 5000;
	c->uctx = 0;
	c->key.dport = 1;
	c->key.proto = 17;
	rxb_reg_write(t.m, 0, &c->ctl, 1);
	rxb_th_nic_run(&t);
	EXPECT_EQ(c->state, 2);
	rxb_reg_write(t.m, 0, &c->ctl, 0);
	rxb_th_nic_run(&t);
	EXPECT_EQ(c->state, 0);
	c->size = 4096;
	c->uctx = RXB_ENSO_UCTX;
	rxb_reg_write(t.m, 0, &c->ctl, 1);
	rxb_th_nic_run(&t);
	EXPECT_EQ(c->state, 2);
	rxb_reg_write(t.m, 0, &c->ctl, 0);
	rxb_th_nic_run(&t);
out:
	uctx_off(&t, &u);
	uctx_off(&t, &v);
	rxb_th_destroy(&t);
}

/* A disabled pipe is written no more: its flow goes to the kernel. */
static void test_disable(const void *arg __always_unused)
{
	struct enso_rx_pipe *p;
	struct uctx u = {};
	struct rxb_th t;
	u64 next = 0;
	u8 *copy;

	if (!setup(&t) || !uctx_on(&t, &u, 0, 64))
		goto out;
	p = upipe_on(&t, &u, 0, 4096, PORT0);
	if (!p)
		goto out;
	send_to(&t, 0, PORT0, 0, 64);
	rxb_reg_write(t.m, 0, &u.pipe[0].cfg->ctl, 0);
	rxb_th_nic_run(&t);
	EXPECT_EQ(u.pipe[0].cfg->state, 0);
	copy = malloc(4096);
	if (!EXPECT(copy))
		goto out;
	memcpy(copy, p->va, 4096);
	send_to(&t, 0, PORT0, 1, 64);
	EXPECT_EQ(p->regs->packets, 1);
	EXPECT(!memcmp(copy, p->va, 4096));
	free(copy);
	EXPECT_EQ(take(p, PORT0, &next, true), 1);
	kdrain(&t);
	/* Enabled again, from an empty pipe. */
	rxb_reg_write(t.m, 0, &u.pipe[0].cfg->ctl, 1);
	rxb_th_nic_run(&t);
	EXPECT_EQ(u.pipe[0].cfg->state, 1);
out:
	uctx_off(&t, &u);
	rxb_th_destroy(&t);
}

/* ---- transmit -------------------------------------------------------- */

static u8 txbuf[16384];

/* Send frame @seq of @len bytes (a test frame of producer @prod) through
 * @p.  Returns enso_send()'s answer.
 */
static int tx_one(struct enso_rx_pipe *p, u16 prod, u64 seq, u32 len)
{
	struct rxb_tframe_id id = { .producer = prod, .q = 0, .seq = seq };

	rxb_tframe_fill(txbuf, len, &id);
	return enso_send(p, txbuf, len);
}

/* Check the wire's frames from @from on: producer @prod's @*next, ...
 * Returns how many.
 */
static unsigned int wire_check(struct rxb_th *t, unsigned int from, u16 prod,
			       u64 *next, unsigned int q)
{
	unsigned int i, n = rxb_env_tx_frames(t->env);
	const u8 *d;
	u32 len;

	for (i = from; i < n; i++) {
		struct rxb_tframe_id id;

		d = rxb_env_tx_frame(t->env, i, &len);
		if (EXPECT(d && rxb_tframe_check(d, len, &id), "wire frame %u",
			   i)) {
			EXPECT_EQ(id.producer, prod);
			EXPECT_EQ(id.seq, *next);
		}
		EXPECT_EQ(rxb_env_tx_queue(t->env, i), q);
		(*next)++;
	}
	return n - from;
}

/*
 * Section 2.2: frames copied into a TX pipe and notified leave on the
 * wire when the NIC scans (not before: the doorbell is a plain store),
 * intact and in order, from the ring's queue; completions come back and
 * free the pipe's space, many times round the pipe (frames across its
 * end); every byte read and every notification counted on the bus.
 */
static void test_tx(const void *arg __always_unused)
{
	u64 seq = 0, next = 0, bytes = 0, rd0, desc0, meta0;
	struct enso_rx_pipe *p;
	unsigned int n = 0, k;
	struct uctx u = {};
	struct rxb_th t;

	if (!setup(&t) || !uctx_on(&t, &u, 1, 64))
		goto out;
	p = upipe_on(&t, &u, 3, 8192, 0);
	if (!p)
		goto out;
	rd0 = rxb_env_pcie(t.env, RXB_PCIE_DATA_RD);
	desc0 = rxb_env_pcie(t.env, RXB_PCIE_DESC_RD);
	meta0 = rxb_env_pcie(t.env, RXB_PCIE_META_WR);
	EXPECT_EQ(tx_one(p, 7, seq++, 60), 0);
	EXPECT_EQ(tx_one(p, 7, seq++, 1514), 0);
	bytes = 60 + 1514;
	EXPECT_EQ(enso_tx_pending(&u.dev), 2);
	/* Posted, not seen: nothing on the wire, no completion. */
	EXPECT_EQ(rxb_env_tx_frames(t.env), 0);
	EXPECT_EQ(enso_tx_poll(&u.dev), 0);
	scan(&t);
	EXPECT_EQ(rxb_env_tx_frames(t.env), 2);
	EXPECT_EQ(enso_tx_poll(&u.dev), 2);
	EXPECT_EQ(enso_tx_pending(&u.dev), 0);
	EXPECT_EQ(u.dev.regs->tx.tx_head, u.dev.tx_post);
	EXPECT_EQ(p->tx_head, p->tx_tail);
	/* Three times round an 8 KiB pipe, frames of 60..1514 bytes; a
	 * full pipe says -EAGAIN until the completions come.
	 */
	for (k = 0; k < 60; k++) {
		u32 len = 60 + (k * 397) % 1455;
		int err = tx_one(p, 7, seq, len);

		if (err == -EAGAIN) {
			n++;
			scan(&t);
			EXPECT(enso_tx_poll(&u.dev) > 0);
			err = tx_one(p, 7, seq, len);
		}
		EXPECT_EQ(err, 0);
		seq++;
		bytes += len;
	}
	scan(&t);
	enso_tx_poll(&u.dev);
	EXPECT(n > 0, "the pipe never filled");
	EXPECT_EQ(enso_tx_pending(&u.dev), 0);
	EXPECT_EQ(wire_check(&t, 0, 7, &next, 1), seq);
	EXPECT_EQ(next, seq);
	EXPECT_EQ(u.dev.tx_sent, seq);
	EXPECT_EQ(u.dev.tx_errors, 0);
	EXPECT_EQ(u.dev.regs->tx.frames, seq);
	EXPECT_EQ(u.dev.regs->tx.bytes, bytes);
	EXPECT_EQ(u.dev.regs->tx.bad_notifs, 0);
	EXPECT_EQ(rxb_env_pcie(t.env, RXB_PCIE_DATA_RD) - rd0, bytes);
	EXPECT_EQ(rxb_env_pcie(t.env, RXB_PCIE_DESC_RD) - desc0, 64 * seq);
	EXPECT_EQ(rxb_env_pcie(t.env, RXB_PCIE_META_WR) - meta0, 64 * seq);
	/* Bound pipes do not take copies; bad lengths are the caller's. */
	EXPECT_EQ(tx_one(p, 7, seq, 13), -EINVAL);
	EXPECT_EQ(tx_one(p, 7, seq, 8192), -EINVAL);
	ktap_diag("%llu frames sent, %u waits for completions",
		  (unsigned long long)seq, n);
out:
	uctx_off(&t, &u);
	rxb_th_destroy(&t);
}

/*
 * Unified pipes: a frame received into a bound pipe is sent back in
 * place (no copy) and reaches the wire byte for byte; the RX side goes on.
 */
static void test_tx_zc(const void *arg __always_unused)
{
	struct enso_rx_pipe *p;
	u64 seq = 0, next = 0;
	struct uctx u = {};
	struct rxb_th t;
	const u8 *w;
	uint8_t *buf;
	uint32_t len, off = 0, flen;
	const uint8_t *d;
	unsigned int n = 0;

	if (!setup(&t) || !uctx_on(&t, &u, 0, 64))
		goto out;
	p = upipe_on(&t, &u, 0, 4096, PORT0);
	if (!p)
		goto out;
	EXPECT_EQ(send_to(&t, 0, PORT0, seq++, 300), 0);
	EXPECT_EQ(send_to(&t, 1, PORT0, seq++, 1000), 0);
	/* The second frame was not notified (status 1): ask for it. */
	enso_prefetch(p);
	scan(&t);
	enso_poll_notifs(&u.dev);
	len = enso_recv(p, &buf, 0);
	while ((d = enso_next_frame(buf, len, &off, &flen)))
		EXPECT_EQ(enso_send_zc(p, d, flen), 0);
	EXPECT_EQ(enso_send_zc(p, txbuf, 100), -EINVAL);	/* not in it */
	scan(&t);
	EXPECT_EQ(enso_tx_poll(&u.dev), 2);
	EXPECT_EQ(wire_check(&t, 0, PORT0, &next, 0), 2);
	off = 0;
	while ((d = enso_next_frame(buf, len, &off, &flen))) {
		u32 wlen = 0;

		w = rxb_env_tx_frame(t.env, n++, &wlen);
		EXPECT(w && wlen == flen && !memcmp(w, d, flen));
	}
	enso_clear(p);
	EXPECT_EQ(send_to(&t, 0, PORT0, seq++, 64), 0);
	next = 2;
	scan(&t);
	EXPECT_EQ(take(p, PORT0, &next, true), 1);
out:
	uctx_off(&t, &u);
	rxb_th_destroy(&t);
}

/*
 * Every bad TX notification is completed with its status, counted, and
 * sends nothing (nothing of any pipe read): an unknown pipe, another
 * context's pipe, an offset beyond the pipe, lengths 0, 13, over the
 * pipe and over the port's frame, a reserved field set; a tail beyond
 * the ring or behind the completions is refused.  Good ones still go.
 */
static void test_tx_bad(const void *arg __always_unused)
{
	static const struct { u32 pipe, off, len, status; } bad[] = {
		{ 9, 0, 64, RXB_ENSO_TX_EPIPE },
		{ 1, 0, 64, RXB_ENSO_TX_EPIPE },	/* v's */
		{ 0, 4096, 64, RXB_ENSO_TX_ERANGE },
		{ 0, 1u << 31, 64, RXB_ENSO_TX_ERANGE },
		{ 0, 0, 0, RXB_ENSO_TX_ELEN },
		{ 0, 0, 13, RXB_ENSO_TX_ELEN },
		{ 0, 64, 4097, RXB_ENSO_TX_ELEN },
		{ 0, 0, RXB_ENV_MAX_FRAME + 1, RXB_ENSO_TX_ELEN },
		{ 0, 0, 64, RXB_ENSO_TX_EINVAL },	/* reserved set */
	};
	struct enso_rx_pipe *p, *q;
	struct uctx u = {}, v = {};
	u64 rd0, seq = 0, next = 0;
	struct rxb_th t_bad;
	unsigned int i;
	u32 tail;

	if (!setup(&t_bad) || !uctx_on(&t_bad, &u, 0, 64) ||
	    !uctx_on(&t_bad, &v, 1, 64))
		goto out;
	p = upipe_on(&t_bad, &u, 0, 4096, 0);
	q = p ? upipe_on(&t_bad, &v, 1, 4096, 0) : NULL;
	if (!q)
		goto out;
	/* v's only pipe is its pipe 0; u has no pipe 1. */
	rd0 = rxb_env_pcie(t_bad.env, RXB_PCIE_DATA_RD);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(enso_tx_post(&u.dev, bad[i].pipe, bad[i].off,
				       bad[i].len), 0);
		if (bad[i].status == RXB_ENSO_TX_EINVAL)
			u.dev.txn[(u.dev.tx_post - 1) & 63].reserved[3] = 1;
	}
	scan(&t_bad);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const struct rxb_enso_txnotif *n = &u.dev.txn[i];

		EXPECT_EQ(n->signal, 0);
		EXPECT(n->status == bad[i].status, "entry %u: status %u, not %u",
		       i, n->status, bad[i].status);
	}
	EXPECT_EQ(enso_tx_poll(&u.dev), ARRAY_SIZE(bad));
	EXPECT_EQ(u.dev.tx_errors, ARRAY_SIZE(bad));
	EXPECT_EQ(u.dev.regs->tx.bad_notifs, ARRAY_SIZE(bad));
	EXPECT_EQ(u.dev.regs->tx.frames, 0);
	EXPECT_EQ(rxb_env_tx_frames(t_bad.env), 0);
	EXPECT_EQ(rxb_env_pcie(t_bad.env, RXB_PCIE_DATA_RD), rd0);
	/* Tail beyond the ring, then behind the completions: refused. */
	tail = u.dev.tx_post;
	u.dev.regs->tx.tx_tail = tail + 65;
	scan(&t_bad);
	EXPECT_EQ(u.dev.regs->tx.bad_writes, 1);
	u.dev.regs->tx.tx_tail = tail - 1;
	scan(&t_bad);
	EXPECT_EQ(u.dev.regs->tx.bad_writes, 2);
	EXPECT_EQ(u.dev.regs->tx.tx_head, tail);
	u.dev.regs->tx.tx_tail = tail;
	scan(&t_bad);
	EXPECT_EQ(u.dev.regs->tx.bad_writes, 2);
	EXPECT_EQ(rxb_env_tx_frames(t_bad.env), 0);
	/* The other context saw none of it; good frames go from both. */
	EXPECT_EQ(v.dev.regs->tx.bad_notifs, 0);
	EXPECT_EQ(v.dev.regs->tx.bad_writes, 0);
	EXPECT_EQ(tx_one(p, 1, seq++, 100), 0);
	scan(&t_bad);
	EXPECT_EQ(wire_check(&t_bad, 0, 1, &next, 0), 1);
	EXPECT_EQ(tx_one(q, 1, seq++, 100), 0);
	scan(&t_bad);
	EXPECT_EQ(wire_check(&t_bad, 1, 1, &next, 1), 1);
	EXPECT_EQ(enso_tx_poll(&u.dev), 1);
	EXPECT_EQ(enso_tx_poll(&v.dev), 1);
out:
	uctx_off(&t_bad, &u);
	uctx_off(&t_bad, &v);
	rxb_th_destroy(&t_bad);
}

/*
 * Teardown with TX in flight: notifications posted to a pipe that is
 * disabled before the NIC sees them complete as unknown pipe, nothing
 * read; a ring disabled with notifications posted reads none of them.
 */
static void test_tx_teardown(const void *arg __always_unused)
{
	struct enso_rx_pipe *p;
	struct uctx u = {};
	struct rxb_th t;
	u64 rd0;

	if (!setup(&t) || !uctx_on(&t, &u, 0, 64))
		goto out;
	p = upipe_on(&t, &u, 0, 4096, 0);
	if (!p)
		goto out;
	rd0 = rxb_env_pcie(t.env, RXB_PCIE_DATA_RD);
	EXPECT_EQ(tx_one(p, 2, 0, 200), 0);
	EXPECT_EQ(tx_one(p, 2, 1, 200), 0);
	rxb_reg_write(t.m, 0, &u.pipe[0].cfg->ctl, 0);
	rxb_th_nic_run(&t);
	EXPECT_EQ(u.pipe[0].cfg->state, 0);
	scan(&t);
	EXPECT_EQ(enso_tx_poll(&u.dev), 2);
	EXPECT_EQ(u.dev.tx_last_status, RXB_ENSO_TX_EPIPE);
	EXPECT_EQ(rxb_env_tx_frames(t.env), 0);
	EXPECT_EQ(rxb_env_pcie(t.env, RXB_PCIE_DATA_RD), rd0);
	/* Enabled again; posted, then the ring goes off first. */
	rxb_reg_write(t.m, 0, &u.pipe[0].cfg->ctl, RXB_ENSO_UCTL_ON);
	rxb_th_nic_run(&t);
	EXPECT_EQ(u.pipe[0].cfg->state, RXB_ENSO_UCTL_ON);
	EXPECT_EQ(tx_one(p, 2, 2, 200), 0);
	rxb_reg_write(t.m, 0, &u.pipe[0].cfg->ctl, 0);
	rxb_reg_write(t.m, 0, &u.cfg->ctl, 0);
	rxb_th_nic_run(&t);
	EXPECT_EQ(u.cfg->state, 0);
	rxb_env_run_timer(t.env);
	EXPECT_EQ(rxb_env_tx_frames(t.env), 0);
	EXPECT_EQ(enso_tx_pending(&u.dev), 1);
	u.cfg = NULL;	/* off already */
out:
	uctx_off(&t, &u);
	rxb_th_destroy(&t);
}

struct mt {
	struct rxb_th *t;
	u64 frames;
	int stop;
};

static void *mt_nic(void *arg)
{
	struct mt *mt = arg;
	u64 i;

	for (i = 0; i < mt->frames; i++) {
		while (send_to(mt->t, i & 1, PORT0, i, 64 + i % 300) == -ENOSPC)
			sched_yield();
	}
	return NULL;
}

/*
 * Threads: the NIC receives on one, its timer scans on another, the
 * application reads on this one; every frame arrives once, in order (the
 * sender retries a frame the full pipe dropped).
 */
static void test_threads(const void *arg __always_unused)
{
	struct enso_rx_pipe *p;
	struct uctx u = {};
	struct mt mt = {};
	struct rxb_th t;
	pthread_t nic;
	u64 next = 0;
	double end;

	if (!rxb_th_init(&t, "enso", NQ, 64, RXB_ENV_BUF_SIZE))
		goto out;
	t.cfg.enso_pipes = 2;
	t.cfg.flow_table_size = 0;
	if (!rxb_th_start(&t) || !uctx_on(&t, &u, 0, 64))
		goto out;
	p = upipe_on(&t, &u, 0, 16384, PORT0);
	if (!p)
		goto out;
	mt.t = &t;
	mt.frames = 20000;
	rxb_env_timer_start(t.env);
	if (!EXPECT(!pthread_create(&nic, NULL, mt_nic, &mt)))
		goto stop;
	end = ktap_now() + 60;
	while (next < mt.frames && ktap_now() < end) {
		if (enso_next_rx_pipe(&u.dev))
			take(p, PORT0, &next, true);
		else
			sched_yield();
	}
	pthread_join(nic, NULL);
	EXPECT_EQ(next, mt.frames);
	rxb_env_timer_stop(t.env);
	ktap_diag("%llu frames, %llu notifications, %llu dropped (sent again)",
		  (unsigned long long)next,
		  (unsigned long long)u.dev.regs->notifs,
		  (unsigned long long)p->regs->drops);
	goto out;
stop:
	rxb_env_timer_stop(t.env);
out:
	uctx_off(&t, &u);
	rxb_th_destroy(&t);
}

/*
 * TX against the NIC's timer on its own thread: the application sends
 * (waiting for completions when the pipe or ring is full) while the NIC
 * scans; every frame leaves once, in order.
 */
static void test_tx_threads(const void *arg __always_unused)
{
	const u64 frames = 20000;
	struct enso_rx_pipe *p;
	unsigned int kept;
	struct uctx u = {};
	struct rxb_th t;
	u64 seq = 0, next = 0;
	double end;

	if (!rxb_th_init(&t, "enso", NQ, 64, RXB_ENV_BUF_SIZE))
		goto out;
	t.cfg.enso_pipes = 2;
	t.cfg.flow_table_size = 0;
	if (!rxb_th_start(&t) || !uctx_on(&t, &u, 0, 64))
		goto out;
	p = upipe_on(&t, &u, 0, 16384, 0);
	if (!p)
		goto out;
	rxb_env_timer_start(t.env);
	end = ktap_now() + 60;
	while (seq < frames && ktap_now() < end) {
		int err = tx_one(p, 3, seq, 60 + seq % 500);

		if (err == -EAGAIN) {
			sched_yield();
			continue;
		}
		if (!EXPECT_EQ(err, 0))
			break;
		seq++;
	}
	while (enso_tx_pending(&u.dev) && ktap_now() < end) {
		enso_tx_poll(&u.dev);
		sched_yield();
	}
	rxb_env_timer_stop(t.env);
	EXPECT_EQ(seq, frames);
	EXPECT_EQ(enso_tx_pending(&u.dev), 0);
	EXPECT_EQ(u.dev.tx_sent, frames);
	EXPECT_EQ(u.dev.regs->tx.frames, frames);
	kept = rxb_env_tx_frames(t.env);
	EXPECT_EQ(kept, RXB_ENV_TX_KEEP);
	EXPECT_EQ(wire_check(&t, 0, 3, &next, 0), kept);
	ktap_diag("%llu frames sent against the timer thread",
		  (unsigned long long)seq);
out:
	uctx_off(&t, &u);
	rxb_th_destroy(&t);
}

int main(void)
{
	struct ktap_case cases[] = {
		{ "ops", test_ops, NULL },
		{ "wrap", test_wrap, NULL },
		{ "full", test_full, NULL },
		{ "bad_writes", test_bad_writes, NULL },
		{ "disable", test_disable, NULL },
		{ "threads", test_threads, NULL },
		{ "tx", test_tx, NULL },
		{ "tx_zc", test_tx_zc, NULL },
		{ "tx_bad", test_tx_bad, NULL },
		{ "tx_teardown", test_tx_teardown, NULL },
		{ "tx_threads", test_tx_threads, NULL },
	};

	return ktap_main(cases, ARRAY_SIZE(cases));
}
