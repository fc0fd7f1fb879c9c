// SPDX-License-Identifier: GPL-2.0
/* Growable FIFO and LIFO of buffer indices; the pool policy is in sim.c. */
#include <stdlib.h>

#include "pool.h"

bool fifo_push(struct u32_fifo *f, u32 v)
{
	if (fifo_len(f) == f->cap) {
		u32 ncap = f->cap ? 2 * f->cap : 256, i, n = fifo_len(f);
		u32 *nv = malloc(sizeof(*nv) * ncap);

		if (!nv)
			return false;
		for (i = 0; i < n; i++)
			nv[i] = f->v[(f->head + i) & (f->cap - 1)];
		free(f->v);
		f->v = nv;
		f->cap = ncap;
		f->head = 0;
		f->tail = n;
	}
	f->v[f->tail++ & (f->cap - 1)] = v;
	return true;
}

bool fifo_pop(struct u32_fifo *f, u32 *v)
{
	if (f->head == f->tail)
		return false;
	*v = f->v[f->head++ & (f->cap - 1)];
	return true;
}

void fifo_free(struct u32_fifo *f)
{
	free(f->v);
	f->v = NULL;
	f->cap = 0;
	f->head = 0;
	f->tail = 0;
}

bool stack_push(struct u32_stack *s, u32 v)
{
	if (s->n == s->cap) {
		u32 ncap = s->cap ? 2 * s->cap : 256;
		u32 *nv = realloc(s->v, sizeof(*nv) * ncap);

		if (!nv)
			return false;
		s->v = nv;
		s->cap = ncap;
	}
	s->v[s->n++] = v;
	return true;
}

void stack_free(struct u32_stack *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
	s->cap = 0;
}
