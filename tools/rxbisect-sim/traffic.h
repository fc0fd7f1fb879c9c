/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Traffic of one port: flows, RSS, and the arrival process (constant
 * rate, Poisson, bursts, or a replayed trace).
 *
 * Flows are random TCP 4-tuples; the NIC's Toeplitz hash (Microsoft's
 * default key) and a 128-entry indirection table (entry i -> queue
 * i mod queues) pick the queue, as ethtool -x shows on most NICs.
 *
 * Trace files: one packet per line, "TIME_NS FLOW [LEN [PORT]]", sorted
 * by time or not; '#' starts a comment.  LEN defaults to --pkt-size,
 * PORT to FLOW mod ports.
 */
#ifndef _RXB_SIM_TRAFFIC_H
#define _RXB_SIM_TRAFFIC_H

#include <linux/types.h>

#include "sim.h"

/* splitmix64 */
static inline u64 rxb_sim_mix64(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

struct tr_pkt {
	u64 t;		/* arrival (ps) */
	u32 flow;
	u32 hash;
	u32 len;
	u16 queue;
};

struct tr_rec {
	u64 t;		/* ps */
	u32 flow;
	u32 len;
};

struct traffic {
	const struct sim_cfg *c;
	unsigned int port, nq;
	u64 rng;
	double wire_ps;		/* one packet at line rate */
	double mean_ps;		/* mean interarrival */
	double t;		/* next arrival, exact */
	unsigned int burst_left;
	u32 burst_flow;
	/* flows: RSS hash and queue of flow i */
	u32 nflows;
	u32 *hash;
	u16 *queue;
	u32 *tgt, ntgt;	/* flows to the target queue */
	u32 *oth, noth;	/* the others */
	/* trace */
	struct tr_rec *rec;
	u64 nrec, pos;
	u64 loop_off, period;
};

u32 rxb_sim_toeplitz(const u8 *in, unsigned int len);
/* The RSS hash of flow @flow of port @port. */
u32 traffic_flow_hash(u64 seed, unsigned int port, u32 flow);
/*
 * Is --trace a trace: readable, every line TIME_NS FLOW [LEN [PORT]] (or
 * blank, or a comment), at least one packet?  0, or a negative errno with
 * the reason, naming the file and line, in @err.
 */
int traffic_check_trace(const struct sim_cfg *c, char *err, size_t len);
int traffic_init(struct traffic *tr, const struct sim_cfg *c,
		 unsigned int port, unsigned int nq);
void traffic_fini(struct traffic *tr);
/* The configuration's rate changed. */
void traffic_retune(struct traffic *tr);
/* Time of the first arrival (ps), UINT64_MAX if none. */
u64 traffic_first(struct traffic *tr);
/* The packet arriving at @now; returns the next arrival's time. */
u64 traffic_next(struct traffic *tr, u64 now, struct tr_pkt *pkt);

#endif /* _RXB_SIM_TRAFFIC_H */
