// SPDX-License-Identifier: GPL-2.0
/*
 * Maglev lookup table (maglev.h; Eisenbud et al., NSDI '16, Pseudocode 1).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "maglev.h"

int maglev_prime(uint32_t v)
{
	uint32_t d;

	if (v < 2)
		return 0;
	for (d = 2; d * d <= v; d++)
		if (v % d == 0)
			return 0;
	return 1;
}

/* FNV-1a of @s, then a 64-bit finaliser (splitmix64's), seeded. */
static uint64_t hash_str(const char *s, uint64_t seed)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ seed;

	while (*s) {
		h ^= (uint8_t)*s++;
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

int maglev_build(struct maglev *mg, uint32_t m, const char *const *names,
		 uint32_t n)
{
	uint32_t *offset, *skip, *next, filled = 0, i;

	memset(mg, 0, sizeof(*mg));
	if (!n || n > MAGLEV_MAX_BACKENDS || m > MAGLEV_MAX_M || m < n ||
	    !maglev_prime(m))
		return -EINVAL;
	mg->table = malloc(m * sizeof(*mg->table));
	offset = calloc(3 * n, sizeof(*offset));
	if (!mg->table || !offset) {
		free(mg->table);
		free(offset);
		mg->table = NULL;
		return -ENOMEM;
	}
	skip = offset + n;
	next = skip + n;
	for (i = 0; i < n; i++) {
		offset[i] = hash_str(names[i], 0) % m;
		skip[i] = hash_str(names[i], 0x9e3779b97f4a7c15ULL) % (m - 1) + 1;
	}
	memset(mg->table, 0xff, m * sizeof(*mg->table));
	/* Pseudocode 1: the backends in turn, each its next free slot. */
	while (filled < m) {
		for (i = 0; i < n && filled < m; i++) {
			uint32_t c;

			do {
				c = (uint32_t)((offset[i] +
						(uint64_t)next[i] * skip[i]) % m);
				next[i]++;
			} while (mg->table[c] != 0xffff);
			mg->table[c] = (uint16_t)i;
			filled++;
		}
	}
	free(offset);
	mg->m = m;
	mg->n = n;
	return 0;
}

void maglev_free(struct maglev *mg)
{
	free(mg->table);
	mg->table = NULL;
}

uint64_t maglev_flow_hash(uint32_t src, uint32_t dst, uint16_t sport,
			  uint16_t dport, uint8_t proto)
{
	uint64_t h = (uint64_t)src << 32 | dst;

	h ^= ((uint64_t)sport << 24 | (uint64_t)dport << 8 | proto) *
	     0x9e3779b97f4a7c15ULL;
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}
