// SPDX-License-Identifier: GPL-2.0
/*
 * The NIC's MSI-X vectors, one per queue, with interrupt moderation
 * (ethtool rx-usecs / rx-frames).
 *
 * A vector auto-masks when it fires and stays masked until the driver
 * re-arms it (rxb_nic_vec_unmask()) after its NAPI poll completed; the
 * interrupt travels to the vector's CPU as an inter-processor message and
 * runs the driver's handler there in hard-IRQ context.
 */
#include <linux/interrupt.h>
#include "nic_hw.h"

static void rxb_vec_ipi(void *arg)
{
	struct rxb_vector *vec = arg;

	/* The csd is free again once this runs (async csd unlocks first). */
	clear_bit(RXB_VEC_SENDING, &vec->flags);
	vec->isr(vec->isr_arg);
	/* Pairs with atomic_read_acquire() in rxb_nic_vec_sync(). */
	smp_mb__before_atomic();
	atomic_dec(&vec->in_flight);
}

/* Send the interrupt message to the vector's CPU. */
static void rxb_vec_send(struct rxb_vector *vec)
{
	/* One message in flight is enough: a sender that finds one already
	 * on its way knows its handler has not started yet, so the NAPI poll
	 * it schedules will see what this sender published.
	 */
	if (test_and_set_bit(RXB_VEC_SENDING, &vec->flags))
		return;
	atomic_inc(&vec->in_flight);
	rxb_stat_inc(&vec->irqs);
	if (smp_call_function_single_async(READ_ONCE(vec->cpu), &vec->csd)) {
		/* CPU went offline: take the interrupt here instead. */
		unsigned long irqflags;

		local_irq_save(irqflags);
		rxb_vec_ipi(vec);
		local_irq_restore(irqflags);
	}
}

/* Send the vector's interrupt now, unless masked. */
static void rxb_vec_raise(struct rxb_vector *vec)
{
	/* Fully ordered RMW: the completion written before this call is
	 * visible to a driver that then sees the vector unmasked.  Pairs
	 * with smp_mb__after_atomic() in rxb_nic_vec_unmask().
	 */
	if (test_and_set_bit(RXB_VEC_MASKED, &vec->flags))
		return;
	/* A timer still pending has nothing left to signal. */
	hrtimer_try_to_cancel(&vec->timer);
	rxb_vec_send(vec);
}

static enum hrtimer_restart rxb_vec_timer_fn(struct hrtimer *t)
{
	struct rxb_vector *vec = container_of(t, struct rxb_vector, timer);

	/* Nothing unsignalled: the interrupt went out on the frame count,
	 * or the driver re-armed the vector since this timer was started.
	 */
	if (atomic_read(&vec->events))
		rxb_vec_raise(vec);
	return HRTIMER_NORESTART;
}

/**
 * rxb_vec_init() - power-on state of a vector: masked, no handler.
 * @nic: its NIC.
 * @vec: the vector.
 */
void rxb_vec_init(struct rxb_nic *nic, struct rxb_vector *vec)
{
	vec->nic = nic;
	vec->flags = BIT(RXB_VEC_MASKED);
	vec->cpu = 0;
	atomic_set(&vec->in_flight, 0);
	atomic_set(&vec->events, 0);
	INIT_CSD(&vec->csd, rxb_vec_ipi, vec);
	hrtimer_setup(&vec->timer, rxb_vec_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL_HARD);
}

/**
 * rxb_vec_event() - an event (a completion written) on a vector, under
 * interrupt moderation.
 * @vec: the vector.
 * @frames: rx-frames: signal once this many events are unsignalled.
 * @usecs: rx-usecs: signal this long after the first unsignalled event.
 *
 * Whichever comes first sends the interrupt; @frames and @usecs both 0:
 * at once.  Events while the vector is masked are not counted: the
 * driver's poll finds them (rxb_nic_vec_unmask() and its pending check).
 */
void rxb_vec_event(struct rxb_vector *vec, u32 frames, u32 usecs)
{
	int n;

	if (!usecs && frames <= 1) {
		rxb_vec_raise(vec);
		return;
	}
	/* The completion before the mask test; pairs with
	 * smp_mb__after_atomic() in rxb_nic_vec_unmask().
	 */
	smp_mb();
	if (test_bit(RXB_VEC_MASKED, &vec->flags))
		return;
	n = atomic_inc_return(&vec->events);
	if (frames && n >= frames)
		rxb_vec_raise(vec);
	else if (n == 1 && usecs)
		hrtimer_start(&vec->timer, ns_to_ktime(usecs * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_HARD);
}

/**
 * rxb_nic_vec_program() - driver: write queue @q's MSI-X table entry.
 * @nic: the NIC.
 * @q: queue.
 * @cpu: the vector's affinity.
 * @isr: the driver's handler.
 * @arg: argument of @isr.
 *
 * The vector stays masked until the driver re-arms or triggers it.  Only
 * while no receive context is enabled and rxb_nic_vec_sync() has returned
 * for the vector's previous handler.
 */
void rxb_nic_vec_program(struct rxb_nic *nic, unsigned int q, int cpu,
			 void (*isr)(void *), void *arg)
{
	struct rxb_vector *vec = &nic->vec[q];

	vec->isr = isr;
	vec->isr_arg = arg;
	WRITE_ONCE(vec->cpu, cpu);
	atomic_set(&vec->events, 0);
	set_bit(RXB_VEC_MASKED, &vec->flags);
}

/**
 * rxb_nic_vec_set_cpu() - driver: move queue @q's vector to @cpu (its next
 * interrupt goes there).
 * @nic: the NIC.
 * @q: queue.
 * @cpu: an online CPU.
 */
void rxb_nic_vec_set_cpu(struct rxb_nic *nic, unsigned int q, int cpu)
{
	WRITE_ONCE(nic->vec[q].cpu, cpu);
}

/**
 * rxb_nic_vec_trigger() - driver: fire queue @q's vector by software
 * ("interrupt trigger" register), whether or not it is masked.
 * @nic: the NIC.
 * @q: queue.
 */
void rxb_nic_vec_trigger(struct rxb_nic *nic, unsigned int q)
{
	struct rxb_vector *vec = &nic->vec[q];

	set_bit(RXB_VEC_MASKED, &vec->flags);
	rxb_vec_send(vec);
}

/**
 * rxb_nic_vec_unmask() - driver: re-arm queue @q's vector after its NAPI
 * completed.
 * @nic: the NIC.
 * @q: queue.
 *
 * Re-arming also restarts interrupt moderation's count.  The caller must
 * then check for completions that arrived while masked.
 */
void rxb_nic_vec_unmask(struct rxb_nic *nic, unsigned int q)
{
	struct rxb_vector *vec = &nic->vec[q];

	/* Still masked: no event counts until the bit is clear. */
	atomic_set(&vec->events, 0);
	clear_bit(RXB_VEC_MASKED, &vec->flags);
	/* Pairs with the ordered test_and_set_bit() in rxb_vec_raise() and
	 * with smp_mb() in rxb_vec_event().
	 */
	smp_mb__after_atomic();
}

/**
 * rxb_nic_vec_sync() - driver: wait until no interrupt message of queue
 * @q's vector is in flight.
 * @nic: the NIC.
 * @q: queue; nothing may raise or trigger its vector any more.
 */
void rxb_nic_vec_sync(struct rxb_nic *nic, unsigned int q)
{
	struct rxb_vector *vec = &nic->vec[q];

	hrtimer_cancel(&vec->timer);
	/* Pairs with smp_mb__before_atomic() in rxb_vec_ipi(). */
	while (atomic_read_acquire(&vec->in_flight))
		cpu_relax();
}

/**
 * rxb_nic_vec_irqs() - statistics register: interrupt messages queue @q's
 * vector has sent.
 * @nic: the NIC.
 * @q: queue.
 *
 * Return: the count since the NIC was created.
 */
u64 rxb_nic_vec_irqs(struct rxb_nic *nic, unsigned int q)
{
	return READ_ONCE(nic->vec[q].irqs);
}
