// SPDX-License-Identifier: GPL-2.0
/* Userspace environment for rxbisect ring models; see env.h. */
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/errno.h>
#include <rxbisect/rxb_desc.h>
#include <rxbisect/rxb_drv_model.h>
#include <rxbisect/rxb_hw_model.h>
#include "../../../drivers/net/rxbisect/hw/models/hw_ring.h"

#include <rxbisect/rxb_nicmem.h>
#include <rxbisect/rxb_wss.h>
#include "env.h"
#include "shim.h"
#include "ktap.h"

enum { BUF_NEW, BUF_FREE, BUF_POSTED, BUF_HELD };
static const char *const buf_state_name[] = { "new", "free", "posted", "held" };

/* Tracking record of one buffer; its address is the buffer's cookie. */
struct env_buf {
	int state;		/* BUF_*, accessed atomically */
	unsigned int q;		/* queue whose pool it belongs to (fixed) */
	u8 *data;		/* the chunk; its address is the bus address */
	struct env_buf *next;	/* pool free list, under the pool's lock */
	/* References, atomic: the model's while POSTED (1), plus one per
	 * fragment packet handed up (ref_buf); a HELD buffer's are its
	 * packets'.  The last one returns it to the pool.
	 */
	int refs;
};

struct env_pool {
	pthread_mutex_t lock;
	struct env_buf *free;
	/* fault injection (see rxb_env_fail_allocs) */
	long fail_after;
	long fail_count;
	struct rxb_env_qstats st;	/* fields updated atomically */
	u64 irqs;			/* raise_irq count, atomic */
} ____cacheline_aligned;

/* A helper thread of the environment (timer, controller). */
struct env_thread {
	int stop;			/* atomic */
	bool running;
	pthread_t thr;
	struct rxb_env *env;
	bool (*poll)(struct rxb_env *env);	/* true if it did something */
};

#define ENV_MAX_RINGS	1024
#define ENV_MAX_DMA	4096	/* ring memory allocations tracked */

struct rxb_env {
	unsigned int nqueues;
	unsigned int max_bufs;
	unsigned int fail_one_in;
	unsigned int dma_fail_one_in;
	long dma_calls;			/* atomic */
	bool csum_off;
	struct rxb_wss *wss;		/* rxb_env_wss(), or NULL */
	struct env_buf *bufs;		/* max_bufs records */
	unsigned int nbufs;		/* records in use, atomic */
	/* bus address -> record: open addressing, insert-only, atomic keys */
	unsigned long *hkey;
	unsigned int *hval;
	unsigned int hmask;
	struct env_pool *pool;		/* nqueues */
	/* the model's halves: the driver's, and the NIC's (timer, doorbells) */
	struct rxb_model *drvm;
	struct rxb_hw_model *hwm;
	u64 deadline;			/* atomic; 0: no timer armed */
	u64 fe_deadline;		/* the fetch engine's timer, atomic */
	u64 fake_ns;			/* atomic; used when fake_clock */
	bool fake_clock;
	void (*clock_hook)(void *arg);	/* single-threaded tests only */
	void *clock_hook_arg;
	struct env_thread timer_thr;	/* fires the NIC's timer */
	/* the driver's periodic control task (ops->ctl_tick) */
	u64 ctl_due;			/* 0: not run yet; ctl thread or test */
	struct env_thread ctl_thr;
	pthread_mutex_t grow_lock;	/* serialises record creation */
	long errors;			/* atomic */
	long rings;			/* map_ring - unmap_ring, atomic */
	/* rings map_ring made, for the queue whose counters count a fault */
	struct env_ring { u64 addr; unsigned int q; size_t size; } ring[ENV_MAX_RINGS];
	unsigned int nring;		/* under grow_lock */
	struct rxb_nicmem nicmem;	/* the on-NIC memory tier */
	u64 pcie[RXB_ENV_PCIE_KINDS];	/* rxb_hw_ops.pcie bytes by kind */
	/* the wire: frames read (tx_read), then sent (tx_send); tx_lock */
	pthread_mutex_t tx_lock;
	struct env_txf { u8 *data; u32 len; unsigned int q; } *tx;
	unsigned int ntx_read;		/* read, not sent yet */
	unsigned int ntx;		/* sent, kept; atomic */
	u64 mmio;			/* rxb_drv_ops.reg_write bytes */
	u64 mmio_rd;			/* rxb_drv_ops.reg_read bytes */
	long kicks;			/* rxb_drv_ops.kick calls, atomic */
	int wake;			/* the NIC's helper thread's futex */
	long nic_busy;			/* doorbell services running, atomic */
	/* ring memory dma_alloc handed out, for dma_map's checks */
	struct env_dma { u64 addr; size_t size; } dma[ENV_MAX_DMA];
	unsigned int ndma;		/* under grow_lock */
};

/* ---- the NIC's context (model_pair.c) ----------------------------- */

void rxb_pair_ctx_fail(const char *what)
{
	ktap_fail_at(__FILE__, __LINE__,
		     "env: the NIC's %s ran outside the NIC's context", what);
}

static void env_fetch_arm(void *arg, u64 ns);
static void env_wake(struct rxb_env *env);
static u64 env_now_ns(void *envp);

void rxb_env_nicmem(struct rxb_env *env, u64 capacity, u64 fetch_ns)
{
	rxb_nicmem_init(&env->nicmem, capacity, fetch_ns, env_now_ns, env);
	rxb_nicmem_set_timer(&env->nicmem, env_fetch_arm, env);
}

struct rxb_nicmem *rxb_env_nicmem_get(struct rxb_env *env)
{
	return &env->nicmem;
}

#define env_err(env, fmt, ...) do {					\
	__atomic_add_fetch(&(env)->errors, 1, __ATOMIC_RELAXED);	\
	ktap_fail_at(__FILE__, __LINE__, "env: " fmt, ##__VA_ARGS__);	\
} while (0)

#define stat_inc(env, q, f)						\
	__atomic_add_fetch(&(env)->pool[q].st.f, 1, __ATOMIC_RELAXED)

struct rxb_env *rxb_env_create(unsigned int nqueues, unsigned int max_bufs)
{
	struct rxb_env *env = calloc(1, sizeof(*env));
	unsigned int i, hsize = 1;

	if (!env)
		abort();
	if (!max_bufs)
		max_bufs = 1u << 17;
	while (hsize < 2 * max_bufs)
		hsize <<= 1;
	env->nqueues = nqueues;
	env->max_bufs = max_bufs;
	env->bufs = calloc(max_bufs, sizeof(*env->bufs));
	env->hkey = calloc(hsize, sizeof(*env->hkey));
	env->hval = calloc(hsize, sizeof(*env->hval));
	env->hmask = hsize - 1;
	env->pool = calloc(nqueues ? nqueues : 1, sizeof(*env->pool));
	if (!env->bufs || !env->hkey || !env->hval || !env->pool)
		abort();
	pthread_mutex_init(&env->grow_lock, NULL);
	pthread_mutex_init(&env->tx_lock, NULL);
	rxb_env_nicmem(env, RXB_ENV_NICMEM_DEF, 0);
	for (i = 0; i < nqueues; i++) {
		pthread_mutex_init(&env->pool[i].lock, NULL);
		env->pool[i].fail_after = -1;
	}
	return env;
}

void rxb_env_destroy(struct rxb_env *env)
{
	unsigned int i, n;

	rxb_env_timer_stop(env);
	rxb_env_ctl_stop(env);
	if (atomic64_read(&env->nicmem.held))
		env_err(env, "%lld bytes still held in NIC memory",
			(long long)atomic64_read(&env->nicmem.held));
	if (__atomic_load_n(&env->rings, __ATOMIC_ACQUIRE))
		env_err(env, "%ld rings still mapped", env->rings);
	if (env->ndma)
		env_err(env, "%u ring memory allocations not freed", env->ndma);
	n = __atomic_load_n(&env->nbufs, __ATOMIC_ACQUIRE);
	if (n > env->max_bufs)
		n = env->max_bufs;
	for (i = 0; i < n; i++)
		free(env->bufs[i].data);
	for (i = 0; i < env->nqueues; i++)
		pthread_mutex_destroy(&env->pool[i].lock);
	pthread_mutex_destroy(&env->grow_lock);
	for (i = 0; env->tx && i < env->ntx + env->ntx_read; i++)
		free(env->tx[i].data);
	free(env->tx);
	pthread_mutex_destroy(&env->tx_lock);
	free(env->bufs);
	free(env->hkey);
	free(env->hval);
	free(env->pool);
	free(env);
}

void rxb_env_model_cfg(struct rxb_env *env, struct rxb_model_cfg *cfg,
		       unsigned int nqueues, unsigned int ring_size,
		       unsigned int buf_len)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->nqueues = nqueues;
	cfg->ring_size = ring_size;
	cfg->buf_len = buf_len;
	cfg->ax_ring_size = ring_size;
	cfg->share_factor = nqueues;
	cfg->ceio_llc_budget = RXB_CEIO_BUDGET_DEF;
	cfg->nicmem_bytes = env->nicmem.capacity;
	/* Ensō: one pipe of 256 bytes per ring entry: many wraps. */
	cfg->enso_pipes = 1;
	cfg->enso_pipe_size = RXB_ENSO_PIPE_MIN;
	while (cfg->enso_pipe_size < ring_size * 256 &&
	       cfg->enso_pipe_size < RXB_ENSO_PIPE_MAX)
		cfg->enso_pipe_size *= 2;
}

void rxb_env_attach(struct rxb_env *env, struct rxb_model *m,
		    struct rxb_hw_model *hw)
{
	env->drvm = m;
	env->hwm = hw;
}

/* The NIC's services, each an entry point: in the NIC's context only. */
#define env_nic_entry(what)	rxb_nic_ctx_assert(what)

int rxb_env_nic_rx(struct rxb_env *env, unsigned int q,
		   const struct rxb_frame *f)
{
	int err;

	/* Before the doorbell service looks (rxb_env_nic_idle()). */
	__atomic_add_fetch(&env->nic_busy, 1, __ATOMIC_SEQ_CST);
	rxb_nic_ctx_enter();
	/* As the kernel's receive engine: the posted doorbells first. */
	rxb_hw_doorbells(env->hwm, NULL, NULL);
	err = rxb_hwm_rx(env->hwm, q, f);
	rxb_nic_ctx_exit();
	__atomic_sub_fetch(&env->nic_busy, 1, __ATOMIC_SEQ_CST);
	return err;
}

bool rxb_env_nic_run(struct rxb_env *env)
{
	struct rxb_bar_global *g = (void *)env->hwm->bar.base;
	bool pending;

	__atomic_add_fetch(&env->nic_busy, 1, __ATOMIC_SEQ_CST);
	pending = __atomic_load_n(&g->pending, __ATOMIC_ACQUIRE);
	rxb_nic_ctx_enter();
	rxb_hw_doorbells(env->hwm, NULL, NULL);
	rxb_nic_ctx_exit();
	__atomic_sub_fetch(&env->nic_busy, 1, __ATOMIC_SEQ_CST);
	return pending;
}

/*
 * No doorbell pending and no service running: every register write made
 * before the call has been acted on, and what the NIC wrote for it is
 * visible.  A service marks itself busy before it takes the pending flag
 * (and the marks), so a caller that finds the flag clear and then no
 * service busy has seen the end of the service that took it.
 */
bool rxb_env_nic_idle(struct rxb_env *env)
{
	return !rxb_env_doorbells_pending(env) &&
	       !__atomic_load_n(&env->nic_busy, __ATOMIC_SEQ_CST);
}

void rxb_env_flow_free(struct rxb_env *env, u32 flow)
{
	rxb_nic_ctx_enter();
	rxb_hwm_flow_free(env->hwm, flow);
	rxb_nic_ctx_exit();
}

long rxb_env_kicks(struct rxb_env *env)
{
	return __atomic_load_n(&env->kicks, __ATOMIC_RELAXED);
}

bool rxb_env_doorbells_pending(struct rxb_env *env)
{
	struct rxb_bar_global *g = (void *)env->hwm->bar.base;

	return __atomic_load_n(&g->pending, __ATOMIC_ACQUIRE);
}

static u64 env_now_ns(void *envp)
{
	struct rxb_env *env = envp;
	void (*hook)(void *arg) = env->clock_hook;
	struct timespec ts;

	if (hook) {
		env->clock_hook = NULL;
		hook(env->clock_hook_arg);
	}
	if (env->fake_clock)
		return __atomic_load_n(&env->fake_ns, __ATOMIC_ACQUIRE);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void rxb_env_fake_clock(struct rxb_env *env, u64 ns)
{
	env->fake_clock = true;
	__atomic_store_n(&env->fake_ns, ns, __ATOMIC_RELEASE);
}

void rxb_env_advance(struct rxb_env *env, u64 ns)
{
	__atomic_add_fetch(&env->fake_ns, ns, __ATOMIC_ACQ_REL);
}

void rxb_env_on_clock_read(struct rxb_env *env, void (*fn)(void *arg),
			   void *arg)
{
	env->clock_hook_arg = arg;
	env->clock_hook = fn;
}

static void env_arm_timer(void *envp, u64 ns)
{
	struct rxb_env *env = envp;
	u64 none = 0, when = env_now_ns(env) + ns;

	/* As hrtimer_start() unless queued: an armed timer is left alone. */
	__atomic_compare_exchange_n(&env->deadline, &none, when ? when : 1, false,
				    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/* The on-NIC memory tier's fetch engine asks to run in @ns. */
static void env_fetch_arm(void *arg, u64 ns)
{
	struct rxb_env *env = arg;
	u64 when = env_now_ns(env) + ns;

	__atomic_store_n(&env->fe_deadline, when ? when : 1, __ATOMIC_RELEASE);
	if (!ns)
		env_wake(env);
}

/* Run the fetch engine if its timer is due (or @force); true if it ran. */
static bool env_fire_fetch(struct rxb_env *env, bool force)
{
	u64 when = __atomic_load_n(&env->fe_deadline, __ATOMIC_ACQUIRE);

	if (!when || (!force && env_now_ns(env) < when))
		return false;
	if (!__atomic_compare_exchange_n(&env->fe_deadline, &when, 0, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return false;
	rxb_nic_ctx_enter();
	rxb_nicmem_fetch_run(&env->nicmem);
	rxb_nic_ctx_exit();
	return true;
}

bool rxb_env_timer_pending(struct rxb_env *env)
{
	return __atomic_load_n(&env->deadline, __ATOMIC_ACQUIRE) != 0;
}

/* Fire the timer if it is armed and due (or @force); true if it fired. */
static bool env_fire_timer(struct rxb_env *env, bool force)
{
	u64 when = __atomic_load_n(&env->deadline, __ATOMIC_ACQUIRE);

	if (!when || (!force && env_now_ns(env) < when) || !env->hwm)
		return false;
	/* Disarm first: the callback may arm it again. */
	if (!__atomic_compare_exchange_n(&env->deadline, &when, 0, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return false;
	if (env->hwm && env->hwm->ops->timer) {
		rxb_nic_ctx_enter();
		rxb_hwm_timer(env->hwm);
		rxb_nic_ctx_exit();
	} else {
		env_err(env, "timer armed but the model has no timer");
	}
	return true;
}

/* Wait until now_ns reaches @when: advance a fake clock, or yield. */
static void env_wait_until(struct rxb_env *env, u64 when)
{
	u64 now = env_now_ns(env);

	if (now >= when)
		return;
	if (env->fake_clock)
		rxb_env_advance(env, when - now);
	else
		while (env_now_ns(env) < when)
			sched_yield();
}

bool rxb_env_run_timer(struct rxb_env *env)
{
	u64 when = __atomic_load_n(&env->deadline, __ATOMIC_ACQUIRE);
	u64 fe = __atomic_load_n(&env->fe_deadline, __ATOMIC_ACQUIRE);

	/* The earlier of the NIC's timer and its fetch engine's. */
	if (fe && (!when || fe <= when)) {
		env_wait_until(env, fe);
		return env_fire_fetch(env, true);
	}
	if (!when)
		return false;
	env_wait_until(env, when);
	return env_fire_timer(env, true);
}

bool rxb_env_run_fetches(struct rxb_env *env)
{
	u64 fe = __atomic_load_n(&env->fe_deadline, __ATOMIC_ACQUIRE);

	if (!fe)
		return false;
	env_wait_until(env, fe);
	return env_fire_fetch(env, true);
}

/* Run the model's ctl_tick once it is due (@wait: wait for it); true if run. */
static bool env_run_ctl(struct rxb_env *env, bool wait)
{
	u64 now;

	if (!env->drvm || !env->drvm->ops->ctl_tick) {
		env_err(env, "controller run but the model has no ctl_tick");
		return false;
	}
	if (env->ctl_due) {
		if (!wait && env_now_ns(env) < env->ctl_due)
			return false;
		env_wait_until(env, env->ctl_due);
	}
	now = env_now_ns(env);
	env->ctl_due = now + env->drvm->ops->ctl_tick(env->drvm, now);
	return true;
}

bool rxb_env_run_ctl(struct rxb_env *env)
{
	return env_run_ctl(env, true);
}

/* The NIC's helper thread: its timer, and its doorbell service while no
 * frame runs it.
 */
static bool env_timer_poll(struct rxb_env *env)
{
	bool busy = env->hwm && rxb_env_nic_run(env);

	busy |= env_fire_fetch(env, false);
	return env_fire_timer(env, false) || busy;
}

static bool env_ctl_poll(struct rxb_env *env)
{
	return env_run_ctl(env, false);
}

/* Wake the NIC's helper thread (a kick, a fetch to run). */
static void env_wake(struct rxb_env *env)
{
	__atomic_add_fetch(&env->wake, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &env->wake, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* A thread that calls @t->poll until stopped, napping when it did nothing
 * (20 us at most: its timers are polled; a kick ends the nap at once).
 */
static void *env_thread_fn(void *arg)
{
	struct env_thread *t = arg;
	struct timespec nap = { .tv_nsec = 20000 };

	while (!__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE)) {
		int w = __atomic_load_n(&t->env->wake, __ATOMIC_ACQUIRE);

		if (!t->poll(t->env))
			syscall(SYS_futex, &t->env->wake, FUTEX_WAIT_PRIVATE,
				w, &nap, NULL, 0);
	}
	return NULL;
}

static void env_thread_start(struct rxb_env *env, struct env_thread *t,
			     bool (*poll)(struct rxb_env *env))
{
	if (t->running)
		return;
	t->env = env;
	t->poll = poll;
	__atomic_store_n(&t->stop, 0, __ATOMIC_RELEASE);
	if (pthread_create(&t->thr, NULL, env_thread_fn, t))
		abort();
	t->running = true;
}

static void env_thread_stop(struct env_thread *t)
{
	if (!t->running)
		return;
	__atomic_store_n(&t->stop, 1, __ATOMIC_RELEASE);
	pthread_join(t->thr, NULL);
	t->running = false;
}

void rxb_env_timer_start(struct rxb_env *env)
{
	env_thread_start(env, &env->timer_thr, env_timer_poll);
}

void rxb_env_timer_stop(struct rxb_env *env)
{
	env_thread_stop(&env->timer_thr);
}

void rxb_env_ctl_start(struct rxb_env *env)
{
	env_thread_start(env, &env->ctl_thr, env_ctl_poll);
}

void rxb_env_ctl_stop(struct rxb_env *env)
{
	env_thread_stop(&env->ctl_thr);
}

void rxb_env_fail_allocs(struct rxb_env *env, unsigned int q,
			 unsigned int after, unsigned int count)
{
	env->pool[q].fail_after = count ? (long)after : -1;
	env->pool[q].fail_count = count;
}

void rxb_env_fail_rate(struct rxb_env *env, unsigned int one_in)
{
	env->fail_one_in = one_in;
}

void rxb_env_dma_fail_rate(struct rxb_env *env, unsigned int one_in)
{
	__atomic_store_n(&env->dma_fail_one_in, one_in, __ATOMIC_RELAXED);
}

void rxb_env_set_csum(struct rxb_env *env, bool on)
{
	env->csum_off = !on;
}

bool rxb_env_csum_on(struct rxb_env *env)
{
	return !env->csum_off;
}

void rxb_env_wss(struct rxb_env *env, struct rxb_wss *w)
{
	env->wss = w;
}

u32 rxb_env_csum(const void *frame, unsigned int len)
{
	const u8 *p = (const u8 *)frame + RXB_ENV_ETH_HLEN;
	u64 sum = 0;
	u16 w;

	if (len <= RXB_ENV_ETH_HLEN)
		return 0;
	len -= RXB_ENV_ETH_HLEN;
	for (; len >= 2; p += 2, len -= 2) {
		memcpy(&w, p, 2);
		sum += w;
	}
	if (len)
		sum += *p;
	while (sum >> 32)
		sum = (sum & 0xffffffff) + (sum >> 32);
	return (u32)sum;
}

static unsigned int addr_hash(unsigned long key)
{
	return (unsigned int)(rxb_mix64(key) >> 20);
}

/* Called under grow_lock: inserts are serialised, lookups are lock-free. */
static void addr_insert(struct rxb_env *env, unsigned long key, unsigned int idx)
{
	unsigned int h = addr_hash(key);

	for (;; h++) {
		h &= env->hmask;
		if (__atomic_load_n(&env->hkey[h], __ATOMIC_RELAXED))
			continue;
		/* The value is published by the release of the key. */
		env->hval[h] = idx;
		__atomic_store_n(&env->hkey[h], key, __ATOMIC_RELEASE);
		return;
	}
}

static struct env_buf *addr_lookup(struct rxb_env *env, u64 addr)
{
	unsigned int h = addr_hash(addr);
	unsigned long k;

	for (;; h++) {
		h &= env->hmask;
		k = __atomic_load_n(&env->hkey[h], __ATOMIC_ACQUIRE);
		if (!k)
			return NULL;
		if (k == addr)
			return &env->bufs[env->hval[h]];
	}
}

/* Cookie -> record, or NULL if @cookie is not one of our records. */
static struct env_buf *cookie_buf(struct rxb_env *env, const void *cookie)
{
	uintptr_t p = (uintptr_t)cookie, base = (uintptr_t)env->bufs;
	unsigned int n = __atomic_load_n(&env->nbufs, __ATOMIC_ACQUIRE);

	if (p < base || (p - base) % sizeof(struct env_buf) ||
	    (p - base) / sizeof(struct env_buf) >= n ||
	    (p - base) / sizeof(struct env_buf) >= env->max_bufs)
		return NULL;
	return (struct env_buf *)cookie;
}

/* Move @b from state @from to @to; false (and a failure) if it was not in @from. */
static bool buf_move(struct rxb_env *env, struct env_buf *b, int from, int to,
		     const char *what)
{
	int old = from;

	if (__atomic_compare_exchange_n(&b->state, &old, to, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return true;
	env_err(env, "%s: buffer %p (queue %u) is %s, expected %s", what,
		(void *)b, b->q, buf_state_name[old], buf_state_name[from]);
	return false;
}

static void pool_push(struct rxb_env *env, struct env_buf *b)
{
	struct env_pool *p = &env->pool[b->q];

	pthread_mutex_lock(&p->lock);
	b->next = p->free;
	p->free = b;
	pthread_mutex_unlock(&p->lock);
}

/* Drop a reference on a HELD or POSTED buffer; the last one frees it. */
static void buf_unref(struct rxb_env *env, struct env_buf *b, const char *what)
{
	int left = __atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL);

	if (left < 0) {
		env_err(env, "%s: buffer %p released more often than referenced",
			what, (void *)b);
		return;
	}
	if (left)
		return;
	/* The model's reference is gone too: free_buf moved it to HELD. */
	if (!buf_move(env, b, BUF_HELD, BUF_FREE, what))
		return;
	/* Poison it: a packet read after this is caught by its check. */
	memset(b->data, 0x6b, RXB_ENV_BUF_SIZE);
	pool_push(env, b);
}

static bool inject_fail(struct rxb_env *env, unsigned int q)
{
	struct env_pool *p = &env->pool[q];
	long n = __atomic_add_fetch(&p->st.alloc_calls, 1, __ATOMIC_RELAXED);
	bool fail = false;

	pthread_mutex_lock(&p->lock);
	if (p->fail_after > 0) {
		p->fail_after--;
	} else if (p->fail_after == 0) {
		fail = true;
		if (--p->fail_count <= 0)
			p->fail_after = -1;
	}
	pthread_mutex_unlock(&p->lock);
	if (!fail && env->fail_one_in &&
	    rxb_mix64(((u64)q << 48) ^ (u64)n) % env->fail_one_in == 0)
		fail = true;
	if (fail)
		stat_inc(env, q, injected_fails);
	return fail;
}

static int env_alloc_buf(void *envp, unsigned int q, struct rxb_buf *buf)
{
	struct rxb_env *env = envp;
	struct env_pool *p;
	struct env_buf *b;
	int from = BUF_FREE;

	if (q >= env->nqueues) {
		env_err(env, "alloc_buf: queue %u of %u", q, env->nqueues);
		return -ENOMEM;
	}
	if (inject_fail(env, q))
		return -ENOMEM;
	p = &env->pool[q];
	pthread_mutex_lock(&p->lock);
	b = p->free;
	if (b)
		p->free = b->next;
	pthread_mutex_unlock(&p->lock);
	if (!b) {
		unsigned int idx;

		pthread_mutex_lock(&env->grow_lock);
		idx = __atomic_load_n(&env->nbufs, __ATOMIC_RELAXED);
		if (idx >= env->max_bufs) {
			pthread_mutex_unlock(&env->grow_lock);
			env_err(env, "alloc_buf: more than %u buffers", env->max_bufs);
			return -ENOMEM;
		}
		b = &env->bufs[idx];
		b->q = q;
		/* Aligned: dma_write finds the buffer of any address in it. */
		b->data = aligned_alloc(RXB_ENV_BUF_SIZE, RXB_ENV_BUF_SIZE);
		if (!b->data)
			abort();
		addr_insert(env, (unsigned long)b->data, idx);
		__atomic_store_n(&env->nbufs, idx + 1, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&env->grow_lock);
		from = BUF_NEW;
	}
	if (!buf_move(env, b, from, BUF_POSTED, "alloc_buf"))
		return -ENOMEM;
	__atomic_store_n(&b->refs, 1, __ATOMIC_RELEASE);
	stat_inc(env, q, allocs);
	buf->addr = (u64)(uintptr_t)b->data;
	buf->cookie = b;
	return 0;
}

/* The buffer behind @cookie, which @op names as one of queue @q's pool;
 * NULL (an error counted) if it is no buffer.  A buffer of another pool
 * is counted as an error too, but returned.
 */
static struct env_buf *pool_buf(struct rxb_env *env, const char *op,
				unsigned int q, const void *cookie)
{
	struct env_buf *b = cookie_buf(env, cookie);

	if (!b) {
		env_err(env, "%s(q %u): %p is not a buffer", op, q, cookie);
		return NULL;
	}
	if (b->q != q)
		env_err(env, "%s(q %u): buffer %p is from pool %u", op, q, cookie, b->q);
	return b;
}

static void env_free_buf(void *envp, unsigned int q, void *cookie)
{
	struct rxb_env *env = envp;
	struct env_buf *b = pool_buf(env, "free_buf", q, cookie);

	if (!b)
		return;
	/* A double free finds it HELD or FREE. */
	if (!buf_move(env, b, BUF_POSTED, BUF_HELD, "free_buf"))
		return;
	stat_inc(env, b->q, frees);
	buf_unref(env, b, "free_buf");
}

/* The model's reference is the buffer's last: it is POSTED (the model
 * holds it) and no packet handed up in it is still held.
 */
static bool env_buf_idle(void *envp, unsigned int q, void *cookie)
{
	struct rxb_env *env = envp;
	struct env_buf *b = pool_buf(env, "buf_idle", q, cookie);

	if (!b)
		return false;
	if (__atomic_load_n(&b->state, __ATOMIC_ACQUIRE) != BUF_POSTED) {
		env_err(env, "buf_idle(q %u): buffer %p is not the model's", q,
			cookie);
		return false;
	}
	return __atomic_load_n(&b->refs, __ATOMIC_ACQUIRE) == 1;
}

static void env_reg_write(void *envp, unsigned int q __always_unused,
			  u32 bytes)
{
	struct rxb_env *env = envp;

	__atomic_add_fetch(&env->mmio, bytes, __ATOMIC_RELAXED);
}

static void env_reg_read(void *envp, unsigned int q __always_unused,
			 u32 bytes)
{
	struct rxb_env *env = envp;

	__atomic_add_fetch(&env->mmio_rd, bytes, __ATOMIC_RELAXED);
}

u64 rxb_env_mmio_read(struct rxb_env *env)
{
	return __atomic_load_n(&env->mmio_rd, __ATOMIC_RELAXED);
}

/* The NIC is woken: its threads (or the test) serve the doorbells. */
static void env_kick(void *envp)
{
	struct rxb_env *env = envp;

	__atomic_add_fetch(&env->kicks, 1, __ATOMIC_RELAXED);
	env_wake(env);
}

/* Ring memory: zeroed, its bus address its address, tracked so that the
 * NIC's dma_map finds only what the driver allocated.
 */
static void *env_dma_alloc(void *envp, size_t size, u64 *addr)
{
	struct rxb_env *env = envp;
	void *va;

	pthread_mutex_lock(&env->grow_lock);
	if (env->ndma == ENV_MAX_DMA) {
		pthread_mutex_unlock(&env->grow_lock);
		env_err(env, "dma_alloc: more than %u allocations", ENV_MAX_DMA);
		return NULL;
	}
	va = calloc(1, size);
	if (!va)
		abort();
	*addr = (uintptr_t)va;
	env->dma[env->ndma++] = (struct env_dma){ *addr, size };
	pthread_mutex_unlock(&env->grow_lock);
	return va;
}

static void env_dma_free(void *envp, void *va, size_t size)
{
	struct rxb_env *env = envp;
	unsigned int i;

	pthread_mutex_lock(&env->grow_lock);
	for (i = 0; i < env->ndma; i++)
		if (env->dma[i].addr == (uintptr_t)va)
			break;
	if (i == env->ndma || env->dma[i].size != size) {
		pthread_mutex_unlock(&env->grow_lock);
		env_err(env, "dma_free: %p (%zu bytes) was not allocated", va,
			size);
		return;
	}
	env->dma[i] = env->dma[--env->ndma];
	pthread_mutex_unlock(&env->grow_lock);
	free(va);
}

/* The NIC's view of ring memory: only what dma_alloc gave the driver. */
static void *env_dma_map(void *envp, u64 addr, size_t len)
{
	struct rxb_env *env = envp;
	unsigned int i;
	bool ok = false;

	pthread_mutex_lock(&env->grow_lock);
	for (i = 0; i < env->ndma && !ok; i++)
		ok = addr >= env->dma[i].addr &&
		     addr + len <= env->dma[i].addr + env->dma[i].size;
	pthread_mutex_unlock(&env->grow_lock);
	if (!ok) {
		env_err(env, "dma_map: 0x%llx (%zu bytes) is no ring memory",
			(unsigned long long)addr, len);
		return NULL;
	}
	return (void *)(uintptr_t)addr;
}

static void env_pcie(void *envp, unsigned int q __always_unused,
		     unsigned int kind, u32 bytes)
{
	struct rxb_env *env = envp;

	env_nic_entry("pcie");
	if (kind >= RXB_ENV_PCIE_KINDS) {
		env_err(env, "pcie: kind %u", kind);
		return;
	}
	__atomic_add_fetch(&env->pcie[kind], bytes, __ATOMIC_RELAXED);
}

u64 rxb_env_pcie(struct rxb_env *env, unsigned int kind)
{
	return kind == RXB_ENV_PCIE_KINDS ?
	       __atomic_load_n(&env->mmio, __ATOMIC_RELAXED) :
	       __atomic_load_n(&env->pcie[kind], __ATOMIC_RELAXED);
}

static void env_ref_buf(void *envp, unsigned int q, void *cookie)
{
	struct rxb_env *env = envp;
	struct env_buf *b = pool_buf(env, "ref_buf", q, cookie);

	if (!b)
		return;
	/* Only the model, which holds the buffer, hands out references. */
	if (__atomic_load_n(&b->state, __ATOMIC_ACQUIRE) != BUF_POSTED) {
		env_err(env, "ref_buf(q %u): buffer %p is not posted", q, cookie);
		return;
	}
	__atomic_add_fetch(&b->refs, 1, __ATOMIC_ACQ_REL);
	stat_inc(env, b->q, refs);
}

static void *env_buf_cookie(void *envp, u64 addr)
{
	struct rxb_env *env = envp;
	struct env_buf *b = addr_lookup(env, addr);
	int state;

	if (!b) {
		env_err(env, "buf_cookie: 0x%llx is not a buffer", (unsigned long long)addr);
		return NULL;
	}
	state = __atomic_load_n(&b->state, __ATOMIC_ACQUIRE);
	if (state != BUF_POSTED)
		env_err(env, "buf_cookie: buffer %p (queue %u) is %s", (void *)b,
			b->q, buf_state_name[state]);
	return b;
}

static void env_raise_irq(void *envp, unsigned int q)
{
	struct rxb_env *env = envp;

	env_nic_entry("raise_irq");
	if (q >= env->nqueues) {
		env_err(env, "raise_irq: queue %u of %u", q, env->nqueues);
		return;
	}
	__atomic_add_fetch(&env->pool[q].irqs, 1, __ATOMIC_SEQ_CST);
	stat_inc(env, q, irqs);
}

static u8 env_dma_write(void *envp, const struct rxb_frame *frame, u64 addr,
			u32 *csum)
{
	struct rxb_env *env = envp;
	u64 off = addr & (RXB_ENV_BUF_SIZE - 1);
	struct env_buf *b = addr_lookup(env, addr - off);
	unsigned int len = frame->len, one_in;
	int state;
	long n;

	env_nic_entry("dma_write");
	if (!b) {
		env_err(env, "dma_write: 0x%llx is not in a buffer", (unsigned long long)addr);
		return 0;
	}
	state = __atomic_load_n(&b->state, __ATOMIC_ACQUIRE);
	if (state != BUF_POSTED)
		env_err(env, "dma_write: buffer %p (queue %u) is %s", (void *)b,
			b->q, buf_state_name[state]);
	if (off + len > RXB_ENV_BUF_SIZE) {
		env_err(env, "dma_write: %u bytes at %llu into a %u-byte buffer",
			len, (unsigned long long)off, RXB_ENV_BUF_SIZE);
		len = RXB_ENV_BUF_SIZE - off;
	}
	one_in = __atomic_load_n(&env->dma_fail_one_in, __ATOMIC_RELAXED);
	n = __atomic_add_fetch(&env->dma_calls, 1, __ATOMIC_RELAXED);
	if (one_in && rxb_mix64(0xd3a0000000000000ULL ^ (u64)n) % one_in == 0) {
		/* A failed transfer leaves garbage: the reader must not look. */
		memset(b->data + off, 0x5a, len);
		stat_inc(env, b->q, dma_errs);
		return RXB_CQE_F_DMA_ERR;
	}
	memcpy(b->data + off, frame->data, len);
	if (env->wss)
		rxb_wss_record(env->wss, addr / RXB_ENV_BUF_SIZE, off, len);
	if (env->csum_off)
		return 0;
	*csum = rxb_env_csum(b->data + off, len);
	return RXB_CQE_F_CSUM;
}

/*
 * map_ring: a memfd mapped twice in a row (rxb_shim_map_double()); the bus
 * address is the first mapping's address.
 */
static void *env_map_ring(void *envp, unsigned int q, size_t size, u64 *addr)
{
	struct rxb_env *env = envp;
	void *va = rxb_shim_map_double(size);

	if (!va) {
		env_err(env, "map_ring(q %u): %zu bytes: cannot map", q, size);
		return NULL;
	}
	__atomic_add_fetch(&env->rings, 1, __ATOMIC_RELAXED);
	*addr = (uintptr_t)va;
	pthread_mutex_lock(&env->grow_lock);
	if (env->nring < ENV_MAX_RINGS)
		env->ring[env->nring++] = (struct env_ring){ *addr, q, size };
	pthread_mutex_unlock(&env->grow_lock);
	return va;
}

static void env_unmap_ring(void *envp, unsigned int q __always_unused,
			   void *va, size_t size)
{
	struct rxb_env *env = envp;
	unsigned int i;

	pthread_mutex_lock(&env->grow_lock);
	for (i = 0; i < env->nring; i++)
		if (env->ring[i].addr == (uintptr_t)va)
			env->ring[i] = env->ring[--env->nring];
	pthread_mutex_unlock(&env->grow_lock);
	rxb_shim_unmap_double(va, size);
	__atomic_sub_fetch(&env->rings, 1, __ATOMIC_RELAXED);
}

int rxb_env_ring_index(struct rxb_env *env, const void *p)
{
	uintptr_t a = (uintptr_t)p;
	unsigned int i;
	int ret = -1;

	pthread_mutex_lock(&env->grow_lock);
	for (i = 0; i < env->nring; i++)
		if (a >= env->ring[i].addr &&
		    a < env->ring[i].addr + 2 * env->ring[i].size)
			ret = i;
	pthread_mutex_unlock(&env->grow_lock);
	return ret;
}

/* dma_write_ring: into a ring map_ring made, split at its end. */
static u8 env_dma_write_ring(void *envp, const struct rxb_frame *frame,
			     u64 addr, u32 size, u32 off, u32 *csum)
{
	struct rxb_env *env = envp;
	unsigned int len = frame->len, n0 = size - off, one_in;
	u8 *ring = (u8 *)(uintptr_t)addr;
	long n;

	env_nic_entry("dma_write_ring");
	if (off >= size || len > size) {
		env_err(env, "dma_write_ring: %u bytes at %u of %u", len, off,
			size);
		return RXB_CQE_F_DMA_ERR;
	}
	if (n0 > len)
		n0 = len;
	one_in = __atomic_load_n(&env->dma_fail_one_in, __ATOMIC_RELAXED);
	n = __atomic_add_fetch(&env->dma_calls, 1, __ATOMIC_RELAXED);
	if (one_in && rxb_mix64(0xd3a0000000000000ULL ^ (u64)n) % one_in == 0) {
		unsigned int i;

		memset(ring + off, 0x5a, n0);
		memset(ring, 0x5a, len - n0);
		pthread_mutex_lock(&env->grow_lock);
		for (i = 0; i < env->nring && env->ring[i].addr != addr; i++)
			;
		if (i < env->nring)
			stat_inc(env, env->ring[i].q, dma_errs);
		pthread_mutex_unlock(&env->grow_lock);
		return RXB_CQE_F_DMA_ERR;
	}
	memcpy(ring + off, frame->data, n0);
	memcpy(ring, (const u8 *)frame->data + n0, len - n0);
	if (env->wss)
		rxb_wss_record(env->wss, (addr + off) / RXB_ENV_BUF_SIZE,
			       (addr + off) % RXB_ENV_BUF_SIZE, len);
	if (env->csum_off)
		return 0;
	*csum = rxb_env_csum(frame->data, len);
	return RXB_CQE_F_CSUM;
}

static void env_dma_put(void *envp __always_unused, const void *src, u32 len,
			u64 addr)
{
	memcpy((void *)(uintptr_t)addr, src, len);
}

static struct rxb_nicmem *env_nicmem(void *envp)
{
	return &((struct rxb_env *)envp)->nicmem;
}

static void env_nicmem_write(void *envp, const struct rxb_frame *frame,
			     u64 addr, u32 off)
{
	struct rxb_env *env = envp;

	env_nic_entry("nicmem_write");
	memcpy((u8 *)rxb_nicmem_ptr(&env->nicmem, addr) + off, frame->data,
	       frame->len);
}

/* A fetch's destination: a posted buffer (bus address = its address). */
static void *env_dma_ptr(void *envp, u64 addr, u32 len)
{
	struct rxb_env *env = envp;
	u64 off = addr & (RXB_ENV_BUF_SIZE - 1);
	struct env_buf *b = addr_lookup(env, addr - off);

	env_nic_entry("dma_ptr");
	if (!b || __atomic_load_n(&b->state, __ATOMIC_ACQUIRE) != BUF_POSTED)
		env_err(env, "dma_ptr: 0x%llx is not a posted buffer",
			(unsigned long long)addr);
	else if (off + len > RXB_ENV_BUF_SIZE)
		env_err(env, "dma_ptr: %u bytes at 0x%llx overrun the buffer",
			len, (unsigned long long)addr);
	return (void *)(uintptr_t)addr;
}

static const struct rxb_drv_ring_ops env_drv_ring_ops = {
	.map	= env_map_ring,
	.unmap	= env_unmap_ring,
};

static int env_tx_read(void *envp, unsigned int q, u64 addr, u32 size,
		       u32 off, u32 len)
{
	struct rxb_env *env = envp;
	const u8 *ring = (const u8 *)(uintptr_t)addr;
	u32 n0 = size - off;
	struct env_txf *f;
	int err = 0;

	env_nic_entry("tx_read");
	if (off >= size || len > size) {
		env_err(env, "tx_read: %u bytes at %u of %u", len, off, size);
		return -EMSGSIZE;
	}
	if (len < 14 || len > RXB_ENV_MAX_FRAME)
		return -EMSGSIZE;
	if (q >= env->nqueues)
		env_err(env, "tx_read: queue %u", q);
	if (n0 > len)
		n0 = len;
	pthread_mutex_lock(&env->tx_lock);
	if (!env->tx)
		env->tx = calloc(RXB_ENV_TX_KEEP + RXB_ENV_TX_MAX,
				 sizeof(*env->tx));
	if (!env->tx || env->ntx_read >= RXB_ENV_TX_MAX) {
		err = -ENOMEM;
		goto out;
	}
	f = &env->tx[env->ntx + env->ntx_read];
	f->data = malloc(len);
	if (!f->data) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(f->data, ring + off, n0);
	memcpy(f->data + n0, ring, len - n0);
	f->len = len;
	f->q = q;
	env->ntx_read++;
	__atomic_add_fetch(&env->pcie[RXB_PCIE_DATA_RD], len,
			   __ATOMIC_RELAXED);
out:
	pthread_mutex_unlock(&env->tx_lock);
	return err;
}

static void env_tx_send(void *envp)
{
	struct rxb_env *env = envp;
	unsigned int keep, i;

	env_nic_entry("tx_send");
	pthread_mutex_lock(&env->tx_lock);
	/* Beyond what is kept: on the wire, then gone. */
	keep = env->ntx + env->ntx_read;
	for (i = RXB_ENV_TX_KEEP; i < keep; i++)
		free(env->tx[i].data);
	if (keep > RXB_ENV_TX_KEEP)
		keep = RXB_ENV_TX_KEEP;
	env->ntx_read = 0;
	__atomic_store_n(&env->ntx, keep, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&env->tx_lock);
}

unsigned int rxb_env_tx_frames(struct rxb_env *env)
{
	return __atomic_load_n(&env->ntx, __ATOMIC_ACQUIRE);
}

const u8 *rxb_env_tx_frame(struct rxb_env *env, unsigned int i, u32 *len)
{
	if (i >= rxb_env_tx_frames(env))
		return NULL;
	*len = env->tx[i].len;
	return env->tx[i].data;
}

unsigned int rxb_env_tx_queue(struct rxb_env *env, unsigned int i)
{
	return i < rxb_env_tx_frames(env) ? env->tx[i].q : ~0U;
}

static const struct rxb_hw_ring_ops env_hw_ring_ops = {
	.dma_write	= env_dma_write_ring,
	.dma_put	= env_dma_put,
};

const struct rxb_drv_ops rxb_env_test_drv_ops = {
	.alloc_buf	= env_alloc_buf,
	.free_buf	= env_free_buf,
	.ref_buf	= env_ref_buf,
	.buf_idle	= env_buf_idle,
	.buf_cookie	= env_buf_cookie,
	.now_ns		= env_now_ns,
	.dma_alloc	= env_dma_alloc,
	.dma_free	= env_dma_free,
	.reg_write	= env_reg_write,
	.reg_read	= env_reg_read,
	.kick		= env_kick,
	.ring		= &env_drv_ring_ops,
};

const struct rxb_hw_ops rxb_env_test_hw_ops = {
	.raise_irq	= env_raise_irq,
	.arm_timer	= env_arm_timer,
	.now_ns		= env_now_ns,
	.dma_write	= env_dma_write,
	.pcie		= env_pcie,
	.nicmem		= env_nicmem,
	.nicmem_write	= env_nicmem_write,
	.dma_ptr	= env_dma_ptr,
	.dma_map	= env_dma_map,
	.ring		= &env_hw_ring_ops,
	.tx_read	= env_tx_read,
	.tx_send	= env_tx_send,
};

void *rxb_env_pkt_take(struct rxb_env *env, unsigned int q,
		       const struct rxb_pkt *pkt)
{
	struct env_buf *b;

	if (!pkt->cookie) {
		/* A streaming model's packet, in its ring (rxb_pkt.data). */
		if (!pkt->data || pkt->frag || pkt->offset)
			env_err(env, "poll(q %u): no buffer and no data", q);
		return (void *)pkt->data;
	}
	b = cookie_buf(env, pkt->cookie);
	if (!b) {
		env_err(env, "poll(q %u): packet cookie %p is not a buffer", q, pkt->cookie);
		return NULL;
	}
	if (pkt->frag) {
		/* The packet holds a reference: the model keeps the buffer
		 * posted, or released it already (HELD by its packets).
		 */
		int state = __atomic_load_n(&b->state, __ATOMIC_ACQUIRE);

		if (state != BUF_POSTED && state != BUF_HELD) {
			env_err(env, "poll(q %u): fragment in a %s buffer",
				q, buf_state_name[state]);
			return NULL;
		}
		if (__atomic_load_n(&b->refs, __ATOMIC_ACQUIRE) < 1) {
			env_err(env, "poll(q %u): fragment without a reference",
				q);
			return NULL;
		}
		if (pkt->offset + pkt->len > RXB_ENV_BUF_SIZE) {
			env_err(env, "poll(q %u): %u bytes at %u past the buffer",
				q, pkt->len, pkt->offset);
			return NULL;
		}
		stat_inc(env, b->q, borrows);
		if (pkt->pool_q != b->q)
			env_err(env, "poll(q %u): pool_q %u but buffer is from pool %u",
				q, pkt->pool_q, b->q);
		return b->data + pkt->offset;
	}
	if (pkt->offset)
		env_err(env, "poll(q %u): offset %u in a buffer handed over",
			q, pkt->offset);
	if (__atomic_load_n(&b->refs, __ATOMIC_ACQUIRE) > 1) {
		/* The model kept a reference (ref_buf) of its own: the
		 * buffer stays POSTED, the model's to free_buf.
		 */
		if (__atomic_load_n(&b->state, __ATOMIC_ACQUIRE) != BUF_POSTED) {
			env_err(env, "poll(q %u): buffer %p handed over twice",
				q, pkt->cookie);
			return NULL;
		}
	} else if (!buf_move(env, b, BUF_POSTED, BUF_HELD, "poll")) {
		return NULL;
	}
	stat_inc(env, b->q, takes);
	if (pkt->pool_q != b->q)
		env_err(env, "poll(q %u): pool_q %u but buffer is from pool %u",
			q, pkt->pool_q, b->q);
	if (pkt->len > RXB_ENV_BUF_SIZE) {
		env_err(env, "poll(q %u): len %u > buffer size", q, pkt->len);
		return NULL;
	}
	return b->data;
}

void rxb_env_pkt_put(struct rxb_env *env, void *cookie)
{
	struct env_buf *b;

	if (!cookie)
		return;		/* a streaming model's packet: nothing held */
	b = cookie_buf(env, cookie);
	if (!b) {
		env_err(env, "put: %p is not a buffer", cookie);
		return;
	}
	/* A whole buffer (HELD, its one reference the packet's) or a
	 * fragment's reference (the buffer POSTED or HELD).
	 */
	stat_inc(env, b->q, puts);
	buf_unref(env, b, "put");
}

bool rxb_env_pkt_drop(struct rxb_env *env, struct rxb_model *m,
		      unsigned int q, const struct rxb_pkt *pkt)
{
	const struct rxb_model_ops *ops = m->ops;
	struct env_buf *b = pkt->cookie ? cookie_buf(env, pkt->cookie) : NULL;
	struct rxb_buf buf;

	/* As the driver: a shared pool's whole buffer (rx.c's pp_shared). */
	if (!b || pkt->frag || !ops->recycle ||
	    rxb_pool_users(ops, &m->cfg, q) < 2)
		goto put;
	if (__atomic_load_n(&b->refs, __ATOMIC_ACQUIRE) != 1 ||
	    !buf_move(env, b, BUF_HELD, BUF_POSTED, "drop"))
		goto put;
	buf.addr = (u64)(uintptr_t)b->data;
	buf.cookie = b;
	if (ops->recycle(m, q, &buf)) {
		stat_inc(env, b->q, recycles);
		return true;
	}
	if (!buf_move(env, b, BUF_POSTED, BUF_HELD, "drop"))
		return false;
put:
	rxb_env_pkt_put(env, pkt->cookie);
	return false;
}

u64 rxb_env_irqs(struct rxb_env *env, unsigned int q)
{
	return __atomic_load_n(&env->pool[q].irqs, __ATOMIC_ACQUIRE);
}

void rxb_env_wait_irq(struct rxb_env *env, unsigned int q, u64 seen,
		      const int *stop)
{
	unsigned int spins;

	for (spins = 0;; spins++) {
		if (rxb_env_irqs(env, q) != seen ||
		    __atomic_load_n(stop, __ATOMIC_ACQUIRE))
			return;
		if (spins < 100)
			barrier();
		else
			sched_yield();
	}
}

static long count_state(struct rxb_env *env, int q, int s1, int s2)
{
	unsigned int i, n = __atomic_load_n(&env->nbufs, __ATOMIC_ACQUIRE);
	long cnt = 0;

	for (i = 0; i < n; i++) {
		int s = __atomic_load_n(&env->bufs[i].state, __ATOMIC_RELAXED);

		if ((q < 0 || env->bufs[i].q == (unsigned int)q) && (s == s1 || s == s2))
			cnt++;
	}
	return cnt;
}

long rxb_env_posted(struct rxb_env *env, int q)
{
	return count_state(env, q, BUF_POSTED, BUF_POSTED);
}

long rxb_env_held(struct rxb_env *env, int q)
{
	return count_state(env, q, BUF_HELD, BUF_HELD);
}

long rxb_env_outstanding(struct rxb_env *env, int q)
{
	return count_state(env, q, BUF_POSTED, BUF_HELD);
}

struct rxb_env_qstats rxb_env_qstats(struct rxb_env *env, unsigned int q)
{
	struct rxb_env_qstats *s = &env->pool[q].st, r;

	r.allocs = __atomic_load_n(&s->allocs, __ATOMIC_RELAXED);
	r.alloc_calls = __atomic_load_n(&s->alloc_calls, __ATOMIC_RELAXED);
	r.injected_fails = __atomic_load_n(&s->injected_fails, __ATOMIC_RELAXED);
	r.frees = __atomic_load_n(&s->frees, __ATOMIC_RELAXED);
	r.takes = __atomic_load_n(&s->takes, __ATOMIC_RELAXED);
	r.borrows = __atomic_load_n(&s->borrows, __ATOMIC_RELAXED);
	r.refs = __atomic_load_n(&s->refs, __ATOMIC_RELAXED);
	r.puts = __atomic_load_n(&s->puts, __ATOMIC_RELAXED);
	r.recycles = __atomic_load_n(&s->recycles, __ATOMIC_RELAXED);
	r.irqs = __atomic_load_n(&s->irqs, __ATOMIC_RELAXED);
	r.dma_errs = __atomic_load_n(&s->dma_errs, __ATOMIC_RELAXED);
	return r;
}

long rxb_env_errors(struct rxb_env *env)
{
	return __atomic_load_n(&env->errors, __ATOMIC_RELAXED);
}

/* ---- test frames ---- */

#define TFRAME_MAGIC	0x52584246u	/* "RXBF" */

struct tframe_hdr {
	u32 magic;
	u16 producer;
	u16 q;
	u64 seq;
};

static_assert(sizeof(struct tframe_hdr) == RXB_TFRAME_MIN_LEN);

static u64 tframe_word(u64 seed, unsigned int i)
{
	return seed ^ ((u64)(i + 1) * 0x9e3779b97f4a7c15ULL);
}

static u64 tframe_seed(u32 producer, u64 seq)
{
	return rxb_mix64(((u64)producer << 48) ^ seq);
}

void rxb_tframe_fill(void *buf, unsigned int len, const struct rxb_tframe_id *id)
{
	struct tframe_hdr h = {
		.magic = TFRAME_MAGIC, .producer = id->producer, .q = id->q,
		.seq = id->seq,
	};
	u64 seed = tframe_seed(id->producer, id->seq);
	u8 *p = buf;
	unsigned int off, i;

	memcpy(p, &h, sizeof(h));
	for (off = sizeof(h), i = 0; off + 8 <= len; off += 8, i++) {
		u64 w = tframe_word(seed, i);

		memcpy(p + off, &w, 8);
	}
	if (off < len) {
		u64 w = tframe_word(seed, i);

		memcpy(p + off, &w, len - off);
	}
}

bool rxb_tframe_check(const void *data, unsigned int len, struct rxb_tframe_id *id)
{
	const u8 *p = data;
	struct tframe_hdr h;
	unsigned int off, i;
	u64 seed;

	if (len < sizeof(h))
		return false;
	memcpy(&h, p, sizeof(h));
	if (h.magic != TFRAME_MAGIC)
		return false;
	seed = tframe_seed(h.producer, h.seq);
	for (off = sizeof(h), i = 0; off + 8 <= len; off += 8, i++) {
		u64 w = tframe_word(seed, i), got;

		memcpy(&got, p + off, 8);
		if (got != w)
			return false;
	}
	if (off < len) {
		u64 w = tframe_word(seed, i);

		if (memcmp(p + off, &w, len - off))
			return false;
	}
	id->producer = h.producer;
	id->q = h.q;
	id->seq = h.seq;
	return true;
}

/* ---- harness ---- */

bool rxb_th_init(struct rxb_th *t, const char *model, unsigned int nqueues,
		 unsigned int ring_size, unsigned int buf_len)
{
	memset(t, 0, sizeof(*t));
	t->ops = rxb_model_find(model);
	if (!EXPECT(t->ops, "model \"%s\" not registered", model))
		return false;
	t->env = rxb_env_create(nqueues, 0);
	rxb_env_model_cfg(t->env, &t->cfg, nqueues, ring_size, buf_len);
	t->drv_ops = &rxb_env_test_drv_ops;
	t->hw_ops = &rxb_env_test_hw_ops;
	return true;
}

int rxb_env_models_create(struct rxb_env *env, const struct rxb_model_ops *ops,
			  const struct rxb_model_cfg *cfg,
			  const struct rxb_drv_ops *drv_ops,
			  const struct rxb_hw_ops *hw_ops,
			  struct rxb_model **mp, struct rxb_hw_model **hwp,
			  void **barp)
{
	int err = rxb_models_create(ops, cfg, drv_ops, env, hw_ops, env, mp,
				    hwp, barp);

	if (err)
		return err;
	rxb_env_attach(env, *mp, *hwp);
	/* The register writes of the driver's create. */
	rxb_env_nic_run(env);
	return 0;
}

void rxb_env_models_destroy(struct rxb_env *env, struct rxb_model *m,
			    struct rxb_hw_model *hw, void *bar)
{
	rxb_models_destroy(m, hw, bar);
	rxb_env_attach(env, NULL, NULL);
}

bool rxb_th_start(struct rxb_th *t)
{
	int err = rxb_env_models_create(t->env, t->ops, &t->cfg, t->drv_ops,
					t->hw_ops, &t->m, &t->hw, &t->bar);

	return EXPECT(!err, "%s create(nq %u, ring %u, buf %u): %d",
		      t->ops->name, t->cfg.nqueues, t->cfg.ring_size,
		      t->cfg.buf_len, err);
}

bool rxb_th_create(struct rxb_th *t, const char *model, unsigned int nqueues,
		   unsigned int ring_size, unsigned int buf_len)
{
	return rxb_th_init(t, model, nqueues, ring_size, buf_len) && rxb_th_start(t);
}

void rxb_th_destroy(struct rxb_th *t)
{
	if (t->env) {
		rxb_env_timer_stop(t->env);
		rxb_env_ctl_stop(t->env);
		rxb_env_models_destroy(t->env, t->m, t->hw, t->bar);
	}
	t->m = NULL;
	t->hw = NULL;
	t->bar = NULL;
	if (t->env) {
		EXPECT_EQ(rxb_env_outstanding(t->env, -1), 0);
		rxb_env_destroy(t->env);
	}
	t->env = NULL;
}

int rxb_th_hw_rx(struct rxb_th *t, unsigned int q, const struct rxb_frame *f)
{
	return rxb_env_nic_rx(t->env, q, f);
}

bool rxb_th_nic_run(struct rxb_th *t)
{
	return rxb_env_nic_run(t->env);
}

void rxb_th_queue_reset(struct rxb_th *t, unsigned int q)
{
	t->ops->queue_reset(t->m, q);
	/* The NIC's "reset queue" command, the queue disabled. */
	rxb_nic_ctx_enter();
	t->hw->ops->queue_reset(t->hw, q);
	rxb_nic_ctx_exit();
}

void rxb_th_qstats(struct rxb_th *t, unsigned int q, struct rxb_qstats *st)
{
	rxb_model_qstats_read(t->m, q, st);
}

u64 rxb_th_xstat(struct rxb_th *t, const char *name)
{
	const struct rxb_model_ops *ops = t->ops;
	unsigned int n = ops->xstats_count(t->m), i;
	char *names = calloc(n, RXB_STAT_NAME_LEN);
	u64 *vals = calloc(n, sizeof(*vals)), v = 0;
	bool found = false;

	if (!names || !vals)
		abort();
	ops->xstats_names(t->m, names);
	ops->xstats_values(t->m, vals);
	for (i = 0; i < n && !found; i++)
		if (!strcmp(names + i * RXB_STAT_NAME_LEN, name)) {
			v = vals[i];
			found = true;
		}
	EXPECT(found, "no counter %s", name);
	free(names);
	free(vals);
	return v;
}
