/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Maglev consistent hashing (Eisenbud et al., NSDI '16, section 3.4):
 * each backend's preference list is a permutation of the lookup table's
 * M slots (M prime), offset = h1(name) mod M, skip = h2(name) mod (M - 1)
 * + 1; the table is filled by the backends in turn, each taking the next
 * slot of its list that is still free (Pseudocode 1), so every backend
 * holds M / N slots or one more.  A flow's backend is the slot its hash
 * picks.  Used by enso_lb; tested by test_maglev.
 */
#ifndef ENSO_MAGLEV_H
#define ENSO_MAGLEV_H

#include <stdint.h>

#define MAGLEV_MAX_BACKENDS	64
#define MAGLEV_MAX_M		65537

struct maglev {
	uint32_t m;		/* table size, prime */
	uint32_t n;		/* backends */
	uint16_t *table;	/* m slots: a backend each */
};

/* Is @v prime? */
int maglev_prime(uint32_t v);
/* Fill @mg's table of @m slots (a prime, up to MAGLEV_MAX_M) for the
 * backends named @names[0..@n-1] (1..MAGLEV_MAX_BACKENDS, distinct).
 * 0 or -errno.
 */
int maglev_build(struct maglev *mg, uint32_t m, const char *const *names,
		 uint32_t n);
void maglev_free(struct maglev *mg);

/* The backend of a flow whose hash is @hash. */
static inline uint32_t maglev_lookup(const struct maglev *mg, uint64_t hash)
{
	return mg->table[hash % mg->m];
}

/* A flow's hash: its IPv4 addresses, ports (network order) and protocol. */
uint64_t maglev_flow_hash(uint32_t src, uint32_t dst, uint16_t sport,
			  uint16_t dport, uint8_t proto);

#endif
