/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receive loop enso_echo and enso_lb share: RX pipes bound to a range
 * of UDP ports, every frame handed to the program, TX completions
 * collected, and the options that set them.  Included after cli.h
 * (CLI_PROG, num(), now()).  Not part of libenso.
 */
#ifndef ENSO_SERVE_H
#define ENSO_SERVE_H

#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include "enso.h"

/**
 * struct serve - what serve() runs and what it counted.
 * @dev: the context, its TX pipe allocated.
 * @port: the first UDP port; @np pipes take @port .. @port + @np - 1.
 * @np: RX pipes.
 * @kb: each pipe's size in KiB.
 * @count: frames to receive (0: no limit).
 * @secs: seconds to run (0: no limit).
 * @frame: called for each frame received; returns 1 when it handled it
 *	(echoed, balanced), 0 otherwise.
 * @ctx: @frame's first argument.
 * @frames: frames received.
 * @handled: frames @frame handled.
 */
struct serve {
	struct enso_dev *dev;
	unsigned long port, np, kb, secs;
	unsigned long long count;
	int (*frame)(void *ctx, const uint8_t *f, uint32_t len);
	void *ctx;
	unsigned long long frames, handled;
};

/* The options both programs take, in getopt()'s form. */
#define SERVE_OPTS "i:p:n:s:c:t:"

/**
 * serve_opt() - take one of SERVE_OPTS into @s.
 * @s: filled field by field (its defaults set by the caller before).
 * @ifname: -i's interface.
 * @c: getopt()'s option.
 * @arg: its argument.
 *
 * Return: 1 when @c is one of SERVE_OPTS, else 0; a bad value ends the
 * program with bad_usage() (cli.h's num()).
 */
static int serve_opt(struct serve *s, const char **ifname, int c,
		     const char *arg)
{
	switch (c) {
	case 'i':
		*ifname = arg;
		return 1;
	case 'p':
		s->port = num(arg, 1, 65535);
		return 1;
	case 'n':
		s->np = num(arg, 1, ENSO_MAX_PIPES - 1);	/* + TX */
		return 1;
	case 's':
		s->kb = num(arg, 4, 2048);
		if (s->kb & (s->kb - 1))
			bad_usage();
		return 1;
	case 'c':
		s->count = num(arg, 1, 1UL << 40);
		return 1;
	case 't':
		s->secs = num(arg, 1, 86400);
		return 1;
	}
	return 0;
}

/* Bind @s's pipes, say "ready" on stdout, hand every frame to @s->frame
 * until @s->count frames or @s->secs seconds, then wait up to a second for
 * the last TX completions, so that nothing sent is left behind.  0, or 1
 * with a message on stderr.
 */
static int serve(struct serve *s)
{
	struct enso_rx_pipe *pipes[ENSO_MAX_PIPES];
	unsigned long i;
	double end;

	for (i = 0; i < s->np && i < ENSO_MAX_PIPES; i++) {
		struct enso_flow fl = {
			.family = 4, .proto = IPPROTO_UDP,
			.dport = htons(s->port + i),
		};
		int err;

		pipes[i] = enso_rx_pipe_alloc(s->dev, s->kb * 1024);
		if (!pipes[i]) {
			fprintf(stderr, CLI_PROG ": pipe: %s\n", strerror(errno));
			return 1;
		}
		err = enso_rx_pipe_bind(pipes[i], &fl);
		if (err) {
			fprintf(stderr, CLI_PROG ": port %lu: %s\n", s->port + i,
				strerror(-err));
			return 1;
		}
	}
	printf("ready\n");
	fflush(stdout);
	end = s->secs ? now() + s->secs : 0;
	while ((!s->count || s->frames < s->count) && (!end || now() < end)) {
		struct enso_rx_pipe *p = enso_next_rx_pipe(s->dev);
		uint32_t len, off = 0, flen;
		const uint8_t *f;
		uint8_t *buf;

		enso_tx_poll(s->dev);
		if (!p)
			continue;
		len = enso_recv(p, &buf, 0);
		while ((f = enso_next_frame(buf, len, &off, &flen))) {
			s->frames++;
			s->handled += s->frame(s->ctx, f, flen);
		}
		enso_clear(p);
	}
	end = now() + 1;
	while (enso_tx_pending(s->dev) && now() < end)
		enso_tx_poll(s->dev);
	return 0;
}

#endif
