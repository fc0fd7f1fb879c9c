/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What enso_tool, enso_echo and enso_lb share on their command lines: a
 * number in a range (else the including program's bad_usage(), exit 2)
 * and a clock.
 * The includer defines CLI_PROG (its name, for messages) and declares
 * bad_usage() first.  Not part of libenso.
 */
#ifndef ENSO_CLI_H
#define ENSO_CLI_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* A number in [lo, hi], or usage. */
static unsigned long num(const char *s, unsigned long lo, unsigned long hi)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v < lo || v > hi) {
		fprintf(stderr, CLI_PROG ": %s: not a number in %lu..%lu\n", s,
			lo, hi);
		bad_usage();
	}
	return v;
}

/* CLOCK_MONOTONIC, seconds. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
