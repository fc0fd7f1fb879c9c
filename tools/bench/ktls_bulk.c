// SPDX-License-Identifier: GPL-2.0
/*
 * ktls_bulk: one side of a bulk kTLS (or plain TCP) transfer, for
 * tools/bench/tls_bench.sh.
 *
 *   ktls_bulk send|recv -l PORT | -c ADDR:PORT [-n BYTES] [-r RECORD]
 *             [-w WRITE] [-m tls|plain] [-k 128|256] [-C CPU] [-P CPU]
 *             [-R RATE] [-V] [-t SECS]
 *
 * The sender writes BYTES in send() calls of WRITE bytes (default: the
 * record size; with 16 KiB records any multiple of 16 KiB, kTLS cutting
 * full records), so that every record but the last carries RECORD bytes;
 * the receiver reads them with recv() of 256 KiB.  With -m tls the sender
 * sets TLS_TX and the receiver TLS_RX (TLS 1.2, AES-GCM-128 or -256, a
 * fixed key: the two sides agree without a handshake); whether the kernel
 * then uses the device offload is the ports' ethtool -K setting.  The
 * receiver sets TLS_RX before it sends the sender one plain byte ("go"),
 * so no record arrives before its context exists.  The sender then ends
 * with shutdown(SHUT_WR) and waits for the receiver's close, so its window
 * holds the ACK processing of all it sent.
 *
 * -R RATE paces the sender at RATE bytes per second (SO_MAX_PACING_RATE,
 * TCP's own pacing).  -C CPU pins the process to CPU.  The measured window
 * runs from just before the first byte moves to the end of the transfer;
 * the program prints one line of key=value: bytes, records (written,
 * sender), the window's wall time, the process's CPU time (getrusage,
 * utime and stime, ns), its CPU's busy time (busy_ns: the window's wall
 * time less the CPU's idle time, which /proc/timer_list gives in ns; -1
 * when it does not) and the /proc/stat ticks of that CPU (busy = user +
 * nice + system + irq + softirq; softirq alone; idle + iowait; USER_HZ
 * units, sampled by the tick: a cross-check), and with
 * -P CPU the busy ticks of that other CPU over the same window.  -V fills
 * the data with a pattern of its absolute offset (sender) and checks every
 * byte (receiver): the first difference fails with its offset.
 *
 * Exit status: 0 done, 1 a failed transfer or check, 2 bad usage.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/tls.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef SOL_TLS
#define SOL_TLS 282
#endif
#ifndef TCP_ULP
#define TCP_ULP 31
#endif

#define RECV_BUF	(256 * 1024)
#define TLS_MAX_REC	16384

struct cpustat {
	unsigned long long busy, softirq, idle, idle_ns;
	int idle_ok;
};

static const char *prog = "ktls_bulk";

static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(1);
}

static void usage(const char *msg)
{
	if (msg)
		fprintf(stderr, "%s: %s\n", prog, msg);
	fprintf(stderr,
		"Usage: %s send|recv -l PORT | -c ADDR:PORT [-n BYTES] [-r RECORD]\n"
		"       [-w WRITE] [-m tls|plain] [-k 128|256] [-C CPU] [-P CPU] [-R RATE]\n"
		"       [-V] [-t SECS]\n",
		prog);
	exit(2);
}

static unsigned long long num(const char *s, const char *what,
			      unsigned long long lo, unsigned long long hi)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v < lo || v > hi) {
		fprintf(stderr, "%s: bad %s '%s' (%llu..%llu)\n", prog, what,
			s, lo, hi);
		exit(2);
	}
	return v;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static unsigned long long self_ns(unsigned long long *user,
				  unsigned long long *sys)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		die("getrusage");
	*user = ru.ru_utime.tv_sec * 1000000000ULL + ru.ru_utime.tv_usec * 1000ULL;
	*sys = ru.ru_stime.tv_sec * 1000000000ULL + ru.ru_stime.tv_usec * 1000ULL;
	return *user + *sys;
}

/* @cpu's idle time in ns, as the tick code keeps it (struct tick_sched's
 * idle_sleeptime + iowait_sleeptime, which /proc/stat rounds to USER_HZ):
 * precise for the CPU this process runs on, which is not idle while it
 * reads.  idle_ok stays 0 when /proc/timer_list does not show it.
 */
static void idle_ns(int cpu, struct cpustat *st)
{
	unsigned long long v;
	char line[512], *p;
	int cur = -1, seen = 0;
	FILE *f;

	f = fopen("/proc/timer_list", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu: %d", &cur) == 1)
			continue;
		if (cur != cpu)
			continue;
		p = strstr(line, ".idle_sleeptime");
		if (!p)
			p = strstr(line, ".iowait_sleeptime");
		if (!p)
			continue;
		p = strchr(p, ':');
		if (!p || sscanf(p + 1, "%llu", &v) != 1)
			continue;
		st->idle_ns += v;
		if (++seen == 2)
			break;
	}
	fclose(f);
	st->idle_ok = seen == 2;
}

/* The "cpuN" line of /proc/stat; all zero when cpu < 0. */
static void cpu_stat(int cpu, struct cpustat *st)
{
	unsigned long long v[8] = { 0 };
	char line[512], name[16];
	FILE *f;

	memset(st, 0, sizeof(*st));
	if (cpu < 0)
		return;
	f = fopen("/proc/stat", "r");
	if (!f)
		die("/proc/stat");
	snprintf(name, sizeof(name), "cpu%d ", cpu);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, name, strlen(name)))
			continue;
		/* user nice system idle iowait irq softirq steal */
		if (sscanf(line + strlen(name),
			   "%llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]) < 7) {
			errno = EINVAL;
			die("/proc/stat format");
		}
		st->busy = v[0] + v[1] + v[2] + v[5] + v[6];
		st->softirq = v[6];
		st->idle = v[3] + v[4];
		break;
	}
	fclose(f);
	idle_ns(cpu, st);
}

/* The pattern's byte at absolute offset @o: a 64-bit word per 8 bytes. */
static inline unsigned char pat(unsigned long long o)
{
	unsigned long long w = ((o >> 3) + 1) * 0x9e3779b97f4a7c15ULL;

	return w >> ((o & 7) * 8);
}

static void fill(unsigned char *b, size_t n, unsigned long long off)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = pat(off + i);
}

static void check(const unsigned char *b, size_t n, unsigned long long off)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != pat(off + i)) {
			fprintf(stderr,
				"%s: MISMATCH at byte %llu: got 0x%02x, want 0x%02x\n",
				prog, off + i, b[i], pat(off + i));
			exit(1);
		}
}

static void set_tls(int fd, int dir, int bits)
{
	struct tls12_crypto_info_aes_gcm_256 c256;
	struct tls12_crypto_info_aes_gcm_128 c128;
	unsigned int i;

	if (setsockopt(fd, IPPROTO_TCP, TCP_ULP, "tls", sizeof("tls")))
		die("setsockopt TCP_ULP tls (is the tls module there?)");
	if (bits == 128) {
		memset(&c128, 0, sizeof(c128));
		c128.info.version = TLS_1_2_VERSION;
		c128.info.cipher_type = TLS_CIPHER_AES_GCM_128;
		for (i = 0; i < sizeof(c128.key); i++)
			c128.key[i] = i;
		memcpy(c128.salt, "SALT", sizeof(c128.salt));
		if (setsockopt(fd, SOL_TLS, dir, &c128, sizeof(c128)))
			die(dir == TLS_TX ? "setsockopt TLS_TX" : "setsockopt TLS_RX");
	} else {
		memset(&c256, 0, sizeof(c256));
		c256.info.version = TLS_1_2_VERSION;
		c256.info.cipher_type = TLS_CIPHER_AES_GCM_256;
		for (i = 0; i < sizeof(c256.key); i++)
			c256.key[i] = i;
		memcpy(c256.salt, "SALT", sizeof(c256.salt));
		if (setsockopt(fd, SOL_TLS, dir, &c256, sizeof(c256)))
			die(dir == TLS_TX ? "setsockopt TLS_TX" : "setsockopt TLS_RX");
	}
}

static void on_alarm(int sig)
{
	static const char msg[] = "ktls_bulk: timed out\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(1);
}

int main(int argc, char **argv)
{
	unsigned long long n = 4 << 20, rec = TLS_MAX_REC, wr = 0, done = 0;
	unsigned long long t0, t1, s0, s1, u0, u1, k0, k1, records = 0, rate = 0;
	long long busy_ns;
	int send_side, opt, fd, lfd, cpu = -1, pcpu = -1, bits = 128, tls = 1;
	int verify = 0, port = 0, timeout = 120, one = 1;
	struct cpustat c0, c1, p0, p1;
	struct sockaddr_in sa;
	char *addr = NULL, *colon, go = 'g';
	unsigned char *buf;
	ssize_t r;

	if (argc < 2)
		usage(NULL);
	if (!strcmp(argv[1], "send"))
		send_side = 1;
	else if (!strcmp(argv[1], "recv"))
		send_side = 0;
	else if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		usage(NULL);
	else
		usage("the first argument is send or recv");
	optind = 2;
	while ((opt = getopt(argc, argv, "l:c:n:r:w:m:k:C:P:R:Vt:")) != -1) {
		switch (opt) {
		case 'l':
			port = num(optarg, "port", 1, 65535);
			break;
		case 'c':
			addr = optarg;
			colon = strrchr(addr, ':');
			if (!colon)
				usage("-c takes ADDR:PORT");
			*colon = 0;
			port = num(colon + 1, "port", 1, 65535);
			break;
		case 'n':
			n = num(optarg, "byte count", 1, 1ULL << 40);
			break;
		case 'r':
			rec = num(optarg, "record size", 1, TLS_MAX_REC);
			break;
		case 'w':
			wr = num(optarg, "write size", 1, 16 << 20);
			break;
		case 'm':
			if (!strcmp(optarg, "tls"))
				tls = 1;
			else if (!strcmp(optarg, "plain"))
				tls = 0;
			else
				usage("-m is tls or plain");
			break;
		case 'k':
			bits = num(optarg, "key size", 128, 256);
			if (bits != 128 && bits != 256)
				usage("-k is 128 or 256");
			break;
		case 'C':
			cpu = num(optarg, "CPU", 0, CPU_SETSIZE - 1);
			break;
		case 'P':
			pcpu = num(optarg, "CPU", 0, CPU_SETSIZE - 1);
			break;
		case 'R':
			rate = num(optarg, "rate", 1, ~0U);
			break;
		case 'V':
			verify = 1;
			break;
		case 't':
			timeout = num(optarg, "timeout", 1, 86400);
			break;
		default:
			usage(NULL);
		}
	}
	if (optind != argc)
		usage("unexpected arguments");
	if (!port)
		usage("give -l PORT or -c ADDR:PORT");
	if (!wr)
		wr = rec;
	if (rec < TLS_MAX_REC && wr != rec)
		usage("-w: with records below 16 KiB each write is one record");
	if (wr % rec)
		usage("-w must be a multiple of -r");

	signal(SIGALRM, on_alarm);
	alarm(timeout);
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			die("sched_setaffinity");
	}
	buf = malloc(wr > RECV_BUF ? wr : RECV_BUF);
	if (!buf)
		die("malloc");
	memset(buf, 'x', wr > RECV_BUF ? wr : RECV_BUF);

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(port);
	if (addr) {
		if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1)
			usage("-c: not an IPv4 address");
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			die("socket");
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			die("connect");
	} else {
		lfd = socket(AF_INET, SOCK_STREAM, 0);
		if (lfd < 0)
			die("socket");
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)))
			die("bind");
		if (listen(lfd, 1))
			die("listen");
		fd = accept(lfd, NULL, NULL);
		if (fd < 0)
			die("accept");
		close(lfd);
	}

	if (send_side) {
		if (tls)
			set_tls(fd, TLS_TX, bits);
		if (rate && setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE,
				       &rate, sizeof(rate)))
			die("setsockopt SO_MAX_PACING_RATE");
		if (recv(fd, &go, 1, MSG_WAITALL) != 1)
			die("waiting for the receiver's go");
		cpu_stat(pcpu, &p0);
		cpu_stat(cpu, &c0);
		s0 = self_ns(&u0, &k0);
		t0 = now_ns();
		while (done < n) {
			size_t len = n - done < wr ? n - done : wr;

			if (verify)
				fill(buf, len, done);
			r = send(fd, buf, len, 0);
			if (r < 0)
				die("send");
			done += r;
		}
		records = tls ? (n + rec - 1) / rec : 0;
		if (shutdown(fd, SHUT_WR))
			die("shutdown");
		r = recv(fd, &go, 1, 0);
		if (r != 0) {
			errno = r < 0 ? errno : EPROTO;
			die("waiting for the receiver's close");
		}
	} else {
		if (tls)
			set_tls(fd, TLS_RX, bits);
		cpu_stat(pcpu, &p0);
		cpu_stat(cpu, &c0);
		s0 = self_ns(&u0, &k0);
		t0 = now_ns();
		if (send(fd, &go, 1, 0) != 1)
			die("sending go");
		while (done < n) {
			r = recv(fd, buf, RECV_BUF, 0);
			if (r < 0)
				die("recv");
			if (!r)
				break;
			if (verify)
				check(buf, r, done);
			done += r;
		}
		if (done != n) {
			fprintf(stderr, "%s: received %llu of %llu bytes\n",
				prog, done, n);
			return 1;
		}
	}
	t1 = now_ns();
	s1 = self_ns(&u1, &k1);
	cpu_stat(cpu, &c1);
	cpu_stat(pcpu, &p1);
	close(fd);
	busy_ns = -1;
	if (c0.idle_ok && c1.idle_ok)
		busy_ns = (long long)(t1 - t0) - (long long)(c1.idle_ns - c0.idle_ns);
	printf("role=%s mode=%s bytes=%llu records=%llu wall_ns=%llu",
	       send_side ? "send" : "recv", tls ? "tls" : "plain", done,
	       records, t1 - t0);
	printf(" self_ns=%llu user_ns=%llu sys_ns=%llu", s1 - s0, u1 - u0,
	       k1 - k0);
	printf(" cpu=%d busy_ns=%lld busy_ticks=%llu softirq_ticks=%llu idle_ticks=%llu",
	       cpu, busy_ns, c1.busy - c0.busy, c1.softirq - c0.softirq,
	       c1.idle - c0.idle);
	printf(" peer_cpu=%d peer_busy_ticks=%llu hz=%ld rate=%llu verify=%s\n",
	       pcpu, p1.busy - p0.busy, sysconf(_SC_CLK_TCK), rate,
	       verify ? "ok" : "off");
	return 0;
}
