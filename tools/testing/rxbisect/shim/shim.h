/* SPDX-License-Identifier: GPL-2.0 */
/*
 * State of the userspace shims that tests inspect: allocation accounting
 * and fault injection (slab.h), WARN_ON() hits (bug.h), the CPUs of
 * per-CPU data (percpu.h).  Defined in shim.c.
 */
#ifndef _SHIM_SHIM_H
#define _SHIM_SHIM_H

/* kmalloc-family allocations not yet freed. */
extern long rxb_shim_live_allocs;
/*
 * Fault injection: when >= 0, that many more kmalloc-family calls succeed,
 * then all fail until it is set back to -1 (the default: never fail).
 */
extern long rxb_shim_alloc_fail_after;
/* kmalloc-family calls failed by injection. */
extern long rxb_shim_alloc_injected;
/* WARN_ON() conditions hit. */
extern long rxb_shim_warnings;
/* Target of the read-modify-write that stands in for fences under TSAN. */
extern unsigned long rxb_shim_fence_word;

/* Per-CPU data (linux/percpu.h): the CPUs threads run on. */
#define RXB_SHIM_NR_CPUS	8
/* The calling thread's CPU: given at its first use, round robin. */
int rxb_shim_cpu(void);
/* Run the calling thread on @cpu from now on (not between get/put_cpu). */
void rxb_shim_set_cpu(int cpu);
/* get_cpu()/put_cpu(): own the thread's CPU, as preemption disabled. */
int rxb_shim_get_cpu(void);
void rxb_shim_put_cpu(void);

/*
 * The double mapping the kernel makes with vmap() of a ring's pages twice
 * in a row (Ensō's pipes): @size bytes of a memfd mapped at va and again
 * at va + @size, so that a read across the ring's end is contiguous.
 * @size: a multiple of the page size.  Returns va or NULL.
 */
void *rxb_shim_map_double(size_t size);
/* Undo rxb_shim_map_double(). */
void rxb_shim_unmap_double(void *va, size_t size);

/*
 * Cost accounting for a simulator (tools/rxbisect-sim): the shims of
 * READ_ONCE/WRITE_ONCE, smp_load_acquire/smp_store_release, smp_mb, the
 * atomics and the spinlocks report each access to the calling thread's
 * sink, which charges the simulated core running the model code.
 *
 * Only a build with -DRXB_SHIM_COUNT has the hook: the simulator, and the
 * unit tests (test_ceio's steer case yields at a thread's atomics to widen
 * races); elsewhere (bench_models) rxb_shim_note() is empty and costs
 * nothing.  With the hook but no sink installed it is one thread-local
 * load and a predicted branch.
 */
enum rxb_shim_ev {
	RXB_SHIM_READ,		/* load of shared state */
	RXB_SHIM_WRITE,		/* plain or release store */
	RXB_SHIM_RMW,		/* locked read-modify-write (atomic, cmpxchg) */
	RXB_SHIM_LOCK,		/* spinlock acquired (one RMW on the lock) */
	RXB_SHIM_FENCE,		/* full fence (smp_mb) */
	RXB_SHIM_NR_EV,
};

struct rxb_shim_sink {
	void (*note)(struct rxb_shim_sink *sink, enum rxb_shim_ev ev,
		     const void *addr);
};

#ifdef RXB_SHIM_COUNT
/* The calling thread's sink, NULL: nothing reported. */
extern __thread struct rxb_shim_sink *rxb_shim_sink;

static inline void rxb_shim_note(enum rxb_shim_ev ev, const void *addr)
{
	struct rxb_shim_sink *k = rxb_shim_sink;

	if (__builtin_expect(!!k, 0))
		k->note(k, ev, addr);
}
#else
static inline void rxb_shim_note(enum rxb_shim_ev ev, const void *addr)
{
	(void)ev;
	(void)addr;
}
#endif

#endif /* _SHIM_SHIM_H */
