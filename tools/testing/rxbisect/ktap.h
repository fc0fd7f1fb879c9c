/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal KTAP test runner for the rxbisect userspace tests.
 *
 * A test program builds a table of struct ktap_case and calls ktap_main().
 * Each case is one KTAP subtest.  EXPECT*() record a failure, go on, and
 * evaluate to whether the check passed (to bail out: "if (!EXPECT(...))").
 * They may be used from any thread.  After each case the runner also fails it if
 * kmalloc-family allocations leaked or WARN_ON() fired during it.
 */
#ifndef _RXB_KTAP_H
#define _RXB_KTAP_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/compiler_types.h>

struct ktap_case {
	const char *name;
	void (*fn)(const void *arg);
	const void *arg;
};

/*
 * Run @cases, print KTAP on stdout, return the exit status (0: all passed).
 * RXB_TEST=substr in the environment runs only cases whose name contains it.
 */
int ktap_main(const struct ktap_case *cases, unsigned int ncases);

/* Record a failure of the running case; @fmt is printed as a diagnostic. */
__printf(3, 4)
void ktap_fail_at(const char *file, int line, const char *fmt, ...);
/* Print a "# " diagnostic line (thread-safe). */
__printf(1, 2)
void ktap_diag(const char *fmt, ...);
/* Failures recorded so far in the running case. */
long ktap_failures(void);
/* Seconds since an arbitrary epoch (monotonic). */
double ktap_now(void);

#define EXPECT(cond, ...) ({						\
	bool __ok = !!(cond);						\
	if (!__ok)							\
		ktap_fail_at(__FILE__, __LINE__, "EXPECT(" #cond ") " __VA_ARGS__); \
	__ok; })

#define EXPECT_EQ(a, b) ({						\
	long long __a = (long long)(a), __b = (long long)(b);		\
	if (__a != __b)							\
		ktap_fail_at(__FILE__, __LINE__, "EXPECT_EQ(%s, %s): %lld != %lld", \
			     #a, #b, __a, __b);				\
	__a == __b; })

#endif /* _RXB_KTAP_H */
