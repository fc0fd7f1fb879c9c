// SPDX-License-Identifier: GPL-2.0
/*
 * test_maglev: the Maglev lookup table of enso_lb (maglev.h): every slot
 * filled; each backend holds M / N slots or one more (Pseudocode 1's
 * turns); the table is the same for the same backends (built twice) and
 * a backend's removal moves little besides its own slots (Maglev's
 * minimal disruption, section 3.4: the paper's figure is a few per cent);
 * bad sizes refused; flows spread evenly.  KTAP.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "maglev.h"

static int fails, n;

static void ok(int cond, const char *what)
{
	n++;
	if (!cond)
		fails++;
	printf("%sok %d %s\n", cond ? "" : "not ", n, what);
}

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char * const names[] = {
	"10.9.0.1@02:00:00:00:00:01", "10.9.0.2@02:00:00:00:00:02",
	"10.9.0.3@02:00:00:00:00:03", "10.9.0.4@02:00:00:00:00:04",
	"10.9.0.5@02:00:00:00:00:05", "10.9.0.6@02:00:00:00:00:06",
	"10.9.0.7@02:00:00:00:00:07",
};

#define NB	((uint32_t)ARRAY_SIZE(names))

int main(void)
{
	static const uint32_t sizes[] = { 7, 251, 4099, 65537 };
	uint32_t cnt[MAGLEV_MAX_BACKENDS], i, k, moved, own;
	struct maglev a, b, c;
	int good;

	printf("TAP version 13\n1..9\n");
	good = 1;
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		uint32_t m = sizes[k], nb = m < NB ? m : NB, lo, hi;

		if (maglev_build(&a, m, names, nb)) {
			good = 0;
			continue;
		}
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < m; i++) {
			if (a.table[i] >= nb)
				good = 0;
			else
				cnt[a.table[i]]++;
		}
		lo = cnt[0];
		hi = cnt[0];
		for (i = 1; i < nb; i++) {
			lo = cnt[i] < lo ? cnt[i] : lo;
			hi = cnt[i] > hi ? cnt[i] : hi;
		}
		if (hi - lo > 1 || lo != m / nb)
			good = 0;
		printf("# M %u: %u..%u slots per backend\n", m, lo, hi);
		maglev_free(&a);
	}
	ok(good, "every slot filled, M / N or M / N + 1 slots per backend");

	ok(!maglev_build(&a, 65537, names, NB) &&
	   !maglev_build(&b, 65537, names, NB) &&
	   !memcmp(a.table, b.table, 65537 * sizeof(*a.table)),
	   "the same backends: the same table");
	maglev_free(&b);

	/* Remove backend 3 (the others keep their names, not their order). */
	{
		const char *rest[NB - 1];
		uint32_t j = 0;

		for (i = 0; i < NB; i++)
			if (i != 3)
				rest[j++] = names[i];
		good = !maglev_build(&c, 65537, rest, NB - 1);
	}
	moved = 0;
	own = 0;
	for (i = 0; good && i < 65537; i++) {
		uint32_t before = a.table[i], after = c.table[i];

		after += after >= 3;	/* back to the old numbering */
		if (before == 3)
			own++;
		else if (before != after)
			moved++;
	}
	printf("# removing 1 of %u: its %u slots moved, %u others (%.2f%%)\n",
	       NB, own, moved, 100.0 * moved / 65537);
	ok(good && moved < 65537 / 20,
	   "removing a backend moves under 5% of the other slots");
	maglev_free(&c);

	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < 70000; i++)
		cnt[maglev_lookup(&a, maglev_flow_hash(0x0a000001 + i, 0x0a000002,
						       (uint16_t)(i * 7),
						       9000, 17))]++;
	good = 1;
	for (i = 0; i < NB; i++)
		if (cnt[i] < 70000 / NB * 9 / 10 || cnt[i] > 70000 / NB * 11 / 10)
			good = 0;
	ok(good, "70000 flows: every backend within 10% of its share");
	ok(maglev_lookup(&a, maglev_flow_hash(1, 2, 3, 4, 17)) ==
	   maglev_lookup(&a, maglev_flow_hash(1, 2, 3, 4, 17)),
	   "a flow's backend is stable");
	maglev_free(&a);

	ok(maglev_build(&a, 65536, names, NB) == -EINVAL,
	   "a table size not prime: refused");
	ok(maglev_build(&a, 65539, names, NB) == -EINVAL,
	   "a table size over 65537: refused");
	ok(maglev_build(&a, 5, names, NB) == -EINVAL,
	   "fewer slots than backends: refused");
	ok(maglev_build(&a, 7, names, 0) == -EINVAL, "no backend: refused");
	printf("# Totals: pass:%d fail:%d\n", n - fails, fails);
	return fails ? 1 : 0;
}
