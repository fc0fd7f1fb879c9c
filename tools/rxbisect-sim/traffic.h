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

#include <stdint.h>

#include "sim.h"

/* splitmix64 */
static inline uint64_t rxb_sim_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

struct tr_pkt {
	uint64_t t;		/* arrival (ps) */
	uint32_t flow;
	uint32_t hash;
	uint32_t len;
	uint16_t queue;
};

struct tr_rec {
	uint64_t t;		/* ps */
	uint32_t flow;
	uint32_t len;
};

struct traffic {
	const struct sim_cfg *c;
	unsigned int port, nq;
	uint64_t rng;
	double wire_ps;		/* one packet at line rate */
	double mean_ps;		/* mean interarrival */
	double t;		/* next arrival, exact */
	unsigned int burst_left;
	uint32_t burst_flow;
	/* flows: RSS hash and queue of flow i */
	uint32_t nflows;
	uint32_t *hash;
	uint16_t *queue;
	uint32_t *tgt, ntgt;	/* flows to the target queue */
	uint32_t *oth, noth;	/* the others */
	/* trace */
	struct tr_rec *rec;
	uint64_t nrec, pos;
	uint64_t loop_off, period;
};

uint32_t rxb_sim_toeplitz(const uint8_t *in, unsigned int len);
/* The RSS hash of flow @flow of port @port. */
uint32_t traffic_flow_hash(uint64_t seed, unsigned int port, uint32_t flow);
int traffic_init(struct traffic *tr, const struct sim_cfg *c,
		 unsigned int port, unsigned int nq);
void traffic_fini(struct traffic *tr);
/* The configuration's rate changed. */
void traffic_retune(struct traffic *tr);
/* Time of the first arrival (ps), UINT64_MAX if none. */
uint64_t traffic_first(struct traffic *tr);
/* The packet arriving at @now; returns the next arrival's time. */
uint64_t traffic_next(struct traffic *tr, uint64_t now, struct tr_pkt *pkt);

#endif /* _RXB_SIM_TRAFFIC_H */
