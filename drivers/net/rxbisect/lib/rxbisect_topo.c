// SPDX-License-Identifier: GPL-2.0
/*
 * rxBisect's topology strings (include/rxbisect/rxb_topo.h,
 * Documentation/rxbisect.rst).  Neither side's: the NIC's half and the
 * driver's half of rxBisect each parse the configuration they were given.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <rxbisect/rxb_topo.h>

/* A decimal number below 256 at *@s; advances *@s past it. */
static bool rxbisect_num(const char **s, unsigned int *v)
{
	const char *p = *s;
	unsigned int n = 0;

	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9') {
		n = n * 10 + (*p++ - '0');
		if (n > 255)
			return false;
	}
	*v = n;
	*s = p;
	return true;
}

/* "N" or "N-M" with N <= M at *@s. */
static bool rxbisect_range(const char **s, unsigned int *lo, unsigned int *hi)
{
	if (!rxbisect_num(s, lo))
		return false;
	*hi = *lo;
	if (**s != '-')
		return true;
	(*s)++;
	return rxbisect_num(s, hi) && *hi >= *lo;
}

#define RXBISECT_MAP_SYNTAX \
	"ax_assoc_map: expected sets of Ax rings, e.g. 0-3;2-5 or +0-1 or *"

/* Bits @lo..@hi, @hi < 64. */
static u64 rxbisect_bits(unsigned int lo, unsigned int hi)
{
	return (~0ULL >> (63 - hi)) & (~0ULL << lo);
}

/* ax_link: "Q[-Q],...": Ax ring k is linked to the k-th queue listed. */
static int rxbisect_parse_link(const struct rxb_model_cfg *cfg,
			       struct rxbisect_topo *t, const char **msg)
{
	const char *s = cfg->ax_link;
	unsigned int lo, hi, qi;

	memset(t->own, -1, sizeof(t->own));
	t->nax = 0;
	if (!*s) {
		for (qi = 0; qi < cfg->nqueues; qi++) {
			t->own[qi] = qi;
			t->link[t->nax++] = qi;
		}
		return 0;
	}
	for (;;) {
		if (!rxbisect_range(&s, &lo, &hi)) {
			*msg = "ax_link: expected queues and ranges, e.g. 6-7 or 0,3";
			return -EINVAL;
		}
		if (hi >= cfg->nqueues) {
			*msg = "ax_link: a queue number is not below the queue count";
			return -EINVAL;
		}
		for (qi = lo; qi <= hi; qi++) {
			if (t->own[qi] >= 0) {
				*msg = "ax_link: a queue is linked to two Ax rings";
				return -EINVAL;
			}
			t->own[qi] = t->nax;
			t->link[t->nax++] = qi;
		}
		if (!*s)
			return 0;
		if (*s++ != ',') {
			*msg = "ax_link: expected queues and ranges, e.g. 6-7 or 0,3";
			return -EINVAL;
		}
	}
}

/* One set of ax_assoc_map, "*" or "[+]N[-M],...", for the queues b with
 * b % @nsets == @set; advances *@s to its end.
 */
static int rxbisect_parse_set(const struct rxb_model_cfg *cfg,
			      struct rxbisect_topo *t, const char **s,
			      unsigned int set, unsigned int nsets,
			      const char **msg)
{
	unsigned int lo, hi, k, b;
	u64 abs = 0, rel = 0;

	for (;;) {
		bool plus = **s == '+';

		if (**s == '*') {
			(*s)++;
			abs |= rxbisect_bits(0, t->nax - 1);
		} else {
			*s += plus;
			if (!rxbisect_range(s, &lo, &hi)) {
				*msg = RXBISECT_MAP_SYNTAX;
				return -EINVAL;
			}
			if (hi >= t->nax) {
				*msg = "ax_assoc_map: no such Ax ring (see ax_link)";
				return -EINVAL;
			}
			if (plus)
				rel |= rxbisect_bits(lo, hi);
			else
				abs |= rxbisect_bits(lo, hi);
		}
		if (**s != ',')
			break;
		(*s)++;
	}
	for (b = set; b < cfg->nqueues; b += nsets) {
		t->assoc[b] = abs;
		/* "+K": the Ax ring K after the queue's own (or after b). */
		for (k = 0; k < t->nax; k++)
			if (rel & BIT_ULL(k))
				t->assoc[b] |= BIT_ULL(((t->own[b] >= 0 ?
							 t->own[b] : b) + k) %
						       t->nax);
	}
	return 0;
}

/* ax_assoc_map, or the groups of ax_assoc when it is empty. */
static int rxbisect_parse_map(const struct rxb_model_cfg *cfg,
			      struct rxbisect_topo *t, const char **msg)
{
	unsigned int n = cfg->nqueues, nsets = 1, set, a, b, g;
	const char *s = cfg->ax_assoc_map;
	int err;

	memset(t->assoc, 0, sizeof(t->assoc));
	if (!*s) {
		/* Groups of consecutive queues; an Ax ring is in the group
		 * of the queue it is linked to.
		 */
		g = cfg->ax_assoc && cfg->ax_assoc < n ? cfg->ax_assoc : n;
		for (b = 0; b < n; b++)
			for (a = 0; a < t->nax; a++)
				if (t->link[a] / g == b / g)
					t->assoc[b] |= BIT_ULL(a);
		goto check;
	}
	for (; *s; s++)
		nsets += *s == ';';
	if (nsets > n) {
		*msg = "ax_assoc_map: more sets than queues";
		return -EINVAL;
	}
	s = cfg->ax_assoc_map;
	for (set = 0; set < nsets; set++) {
		err = rxbisect_parse_set(cfg, t, &s, set, nsets, msg);
		if (err)
			return err;
		if (*s && *s++ != ';') {
			*msg = RXBISECT_MAP_SYNTAX;
			return -EINVAL;
		}
	}
check:
	for (b = 0; b < n; b++)
		if (t->own[b] < 0 && !t->assoc[b]) {
			*msg = "a queue has no Ax ring to take buffers from (ax_link, ax_assoc)";
			return -EINVAL;
		}
	return 0;
}

/**
 * rxbisect_topo() - parse rxBisect's ax_link and ax_assoc_map.
 * @cfg: configuration; @cfg->nqueues, @cfg->ax_assoc and the two strings
 *	are used.
 * @t: filled.
 * @msg: set to a static explanation on error.
 *
 * Return: 0 or -EINVAL.
 */
int rxbisect_topo(const struct rxb_model_cfg *cfg, struct rxbisect_topo *t,
		  const char **msg)
{
	return rxbisect_parse_link(cfg, t, msg) ?:
	       rxbisect_parse_map(cfg, t, msg);
}

/**
 * rxb_rxbisect_topo_check() - check rxBisect's ax_link and ax_assoc_map.
 * @cfg: configuration, as for rxbisect_topo().
 * @msg: set to a static explanation on error.
 *
 * Return: 0 or -EINVAL.
 */
int rxb_rxbisect_topo_check(const struct rxb_model_cfg *cfg, const char **msg)
{
	struct rxbisect_topo t;

	return rxbisect_topo(cfg, &t, msg);
}
