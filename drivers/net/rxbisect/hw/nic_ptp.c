// SPDX-License-Identifier: GPL-2.0
/*
 * The NIC's clock: a free-running counter, one per port, that the timestamp
 * unit reads when a frame arrives (rxb_nic_ingress()) and when a frame a
 * transmit descriptor asked a stamp for leaves (the Tx engine), and that
 * the driver exposes as a PTP hardware clock (drv/ptp.c) through the time
 * registers below: read, write, step and trim.
 *
 * The counter runs off the host's raw monotonic clock (CLOCK_MONOTONIC_RAW:
 * an oscillator no one slews), scaled by a 32.32 fixed-point rate that the
 * frequency trim (adjfine) sets, from the last point at which the time or
 * the rate was written: time = base_ns + (raw - base_raw) * mult / 2^32.
 * At power-on it is set to the host's CLOCK_REALTIME, as drivers
 * initialise their PHC.  Readers are lockless (a seqcount); the time
 * registers are written under its lock.
 */
#include <linux/bits.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/timekeeping.h>
#include "nic_hw.h"

/* 1.0 in the rate's 32.32 fixed point. */
#define RXB_CLK_ONE	BIT_ULL(32)

/* The time at raw clock @raw, from a consistent snapshot. */
static u64 rxb_clk_at(const struct rxb_nic_clock *c, u64 raw)
{
	return c->base_ns + mul_u64_u64_shr(raw - c->base_raw, c->mult, 32);
}

/* Restart the counter from now at its time plus @delta, so that the rate
 * can change from here.  Under the clock's lock.
 */
static void rxb_clk_rebase(struct rxb_nic_clock *c, s64 delta)
{
	u64 raw = ktime_get_raw_ns();

	c->base_ns = rxb_clk_at(c, raw) + delta;
	c->base_raw = raw;
}

/**
 * rxb_nic_clock_init() - power on the clock: CLOCK_REALTIME, nominal rate.
 * @nic: the NIC being created.
 */
void rxb_nic_clock_init(struct rxb_nic *nic)
{
	struct rxb_nic_clock *c = &nic->clk;

	seqlock_init(&c->lock);
	c->base_raw = ktime_get_raw_ns();
	c->base_ns = ktime_get_real_ns();
	c->mult = RXB_CLK_ONE;
}

/**
 * rxb_nic_clock_read() - time register read (PTP gettime).
 * @nic: the NIC.
 * @raw: if not NULL, set to the raw clock's value the time was read at
 *	(CLOCK_MONOTONIC_RAW), for a cross-timestamp.
 *
 * The timestamp unit reads it the same way.  Any context.
 *
 * Return: nanoseconds.
 */
u64 rxb_nic_clock_read(struct rxb_nic *nic, u64 *raw)
{
	const struct rxb_nic_clock *c = &nic->clk;
	unsigned int seq;
	u64 ns, r;

	do {
		seq = read_seqbegin(&c->lock);
		r = ktime_get_raw_ns();
		ns = rxb_clk_at(c, r);
	} while (read_seqretry(&c->lock, seq));
	if (raw)
		*raw = r;
	return ns;
}

/**
 * rxb_nic_clock_write() - time register write (PTP settime).
 * @nic: the NIC.
 * @ns: the new time; the rate is kept.
 */
void rxb_nic_clock_write(struct rxb_nic *nic, u64 ns)
{
	struct rxb_nic_clock *c = &nic->clk;
	unsigned long flags;

	write_seqlock_irqsave(&c->lock, flags);
	c->base_raw = ktime_get_raw_ns();
	c->base_ns = ns;
	write_sequnlock_irqrestore(&c->lock, flags);
}

/**
 * rxb_nic_clock_step() - time offset register (PTP adjtime): step the
 *	clock by @delta nanoseconds.
 * @nic: the NIC.
 * @delta: signed step.
 */
void rxb_nic_clock_step(struct rxb_nic *nic, s64 delta)
{
	struct rxb_nic_clock *c = &nic->clk;
	unsigned long flags;

	write_seqlock_irqsave(&c->lock, flags);
	rxb_clk_rebase(c, delta);
	write_sequnlock_irqrestore(&c->lock, flags);
}

/**
 * rxb_nic_clock_trim() - frequency trim register (PTP adjfine).
 * @nic: the NIC.
 * @scaled_ppm: the rate's offset from nominal in parts per million with a
 *	16-bit binary fraction; the caller bounds it (RXB_CLK_MAX_PPB).
 */
void rxb_nic_clock_trim(struct rxb_nic *nic, long scaled_ppm)
{
	struct rxb_nic_clock *c = &nic->clk;
	unsigned long flags;
	s64 d;

	/* 2^32 * ppm / 10^6 = scaled_ppm * 2^16 / 10^6 */
	d = div_s64((s64)scaled_ppm << 16, 1000000);
	write_seqlock_irqsave(&c->lock, flags);
	rxb_clk_rebase(c, 0);
	c->mult = RXB_CLK_ONE + d;
	write_sequnlock_irqrestore(&c->lock, flags);
}

/**
 * rxb_nic_set_tx_tstamp() - transmit timestamp write-back register: where
 *	the NIC writes the stamp of a frame posted with a stamp request.
 * @nic: the NIC.
 * @addr: bus address of a struct rxb_tx_tstamp in host memory, or 0 (the
 *	NIC writes none).
 */
void rxb_nic_set_tx_tstamp(struct rxb_nic *nic, u64 addr)
{
	WRITE_ONCE(nic->tx_ts_addr, addr);
}

/**
 * rxb_nic_set_rx_tstamp() - receive-stamp register: the timestamp unit
 *	stamps arriving frames, and the ring models write the stamps into the
 *	stamp rings of rings built with them (rxb_desc.h, RXB_TSTAMP).
 * @nic: the NIC.
 * @on: stamp (hwtstamp rx_filter other than NONE) or not (power-on).
 */
void rxb_nic_set_rx_tstamp(struct rxb_nic *nic, bool on)
{
	WRITE_ONCE(nic->rx_tstamp, on);
}

/**
 * rxb_nic_tx_tstamp() - the timestamp unit on a frame that has just left
 *	the port with a stamp request: write the time and the request's tag
 *	into the write-back record (struct rxb_tx_tstamp).
 * @nic: the NIC.
 * @tag: the tag the driver posted the frame with.
 *
 * Called where the frame goes on the wire: the Tx engine, or the inline
 * transmit path that does its work in ndo_start_xmit.  Any context.
 */
void rxb_nic_tx_tstamp(struct rxb_nic *nic, u32 tag)
{
	u64 addr = READ_ONCE(nic->tx_ts_addr);
	struct rxb_tx_tstamp *r;

	if (!addr)
		return;
	r = phys_to_virt(addr);
	WRITE_ONCE(r->ns, cpu_to_le64(rxb_nic_clock_read(nic, NULL)));
	/* Release: the stamp before the tag the driver polls (acquire). */
	smp_store_release(&r->tag, cpu_to_le32(tag));
	atomic64_inc(&nic->tx_tstamps);
}
