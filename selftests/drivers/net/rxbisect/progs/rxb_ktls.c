// SPDX-License-Identifier: GPL-2.0
/*
 * rxb_ktls: a kTLS client and server for tls.sh, in plain C (no TLS
 * library, no handshake): both ends derive the same keys, IVs, salts and
 * initial record sequence numbers from --seed and hand them to the kernel
 * with setsockopt(SOL_TCP, TCP_ULP, "tls") and setsockopt(SOL_TLS,
 * TLS_TX/TLS_RX, struct tls12_crypto_info_aes_gcm_128/256).  Whether the
 * kernel encrypts in software or a NIC does it (tls_device) is the
 * kernel's business: the program is the same unmodified kTLS application
 * either way.
 *
 *   rxb_ktls server --port P --seed S [--addr A] [--tls 1.2|1.3]
 *		     [--cipher 128|256] [--sendfile FILE] [--timeout SECS]
 *	Accept one client session (its --conns connections) on A:P (default
 *	0.0.0.0), serve it as the client's first record (the hello) asks,
 *	and exit.
 *   rxb_ktls client --addr A --port P --seed S [--tls 1.2|1.3]
 *		     [--cipher 128|256] (--bytes N | --sendfile FILE)
 *		     [--rec-min A] [--rec-max B] [--dir tx|rx|both]
 *		     [--conns K] [--serial] [--toggle-cmd CMD] [--zerocopy]
 *		     [--timeout SECS]
 *	Open K connections (default 1) to A:P, all at once (the transfers
 *	then run one connection after the other, all of them open), or with
 *	--serial one at a time (open, transfer, close).  On each connection
 *	N bytes (or the file's bytes) go client -> server (--dir tx, the
 *	default), server -> client (rx), or both ways at once (both: a
 *	sending thread beside the receiving one).  The sender writes them in
 *	send() calls (sendfile() calls with --sendfile) whose sizes are drawn
 *	from the seed between A and B bytes (1 to 16384, default 1 to
 *	16384): without MSG_MORE, each call of at most 16384 bytes makes one
 *	TLS record.  With --toggle-cmd, CMD (sh -c) runs once per connection
 *	when half of its bytes went out (or came in, for --dir rx) and must
 *	exit 0.  --zerocopy (with --sendfile) sets TLS_TX_ZEROCOPY_RO on the
 *	sending sockets (both ends'), so that a device offload may send the
 *	file's page-cache pages as they are.  --corrupt OFFSET flips the
 *	byte at that offset of each connection's client -> server payload
 *	before it is sent (a check of the receiver's check).
 *
 * The payload of connection c in direction d is a pattern of the seed:
 * byte i is byte (i % 8) of splitmix64(seed, c, d, i / 8); with --sendfile
 * it is the file (both ends need it).  The receiver checks every byte, the
 * total and the end of the stream, and stops at the first difference with
 * its offset, the byte expected and the byte received.
 *
 * Each connection: the server sets up kTLS RX, sends one clear-text byte,
 * then sets up kTLS TX; the client reads that byte, sets up kTLS TX and RX,
 * and sends the hello (a 64-byte record: the session's parameters).  So
 * no byte reaches a socket before its kTLS receive side is in place.
 * Keys differ per connection and direction.
 *
 * A connection ends with each end sending a one-byte record (its
 * confirmation that it sent and received everything, checked) and a FIN,
 * and reading the peer's: so each end's exit status covers the other's
 * checks too.
 *
 * On success each end prints one line: "rxb_ktls ROLE: ok" and key=value
 * pairs: tx_bytes, tx_records (send() or sendfile() calls: the records
 * this end sent, the hellos and confirmations included; a call that the socket took only in
 * part, counted in tx_partial, may merge into the next record), rx_bytes,
 * conns, toggles, ns (from the first connection to the last close), and
 * tx_sizes (records/bytes per record size: 1-15, 16-255, 256-4095,
 * 4096-16383, 16384).
 *
 * Exit status: 0 success, 1 a failure (the reason on stderr: a byte or a
 * length that differs, a timeout, a refused setsockopt, ...), 2 bad
 * arguments (with the usage).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/tls.h>
#include <linux/types.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SOL_TLS
#define SOL_TLS		282
#endif
#ifndef TCP_ULP
#define TCP_ULP		31
#endif

#define REC_MAX		16384		/* TLS_MAX_PAYLOAD_SIZE */
#define HELLO_LEN	64
#define HELLO_MAGIC	"RXBKTLS1"
#define MAX_CONNS	64
#define MAX_BYTES	0x10000000000ULL
#define MAX_FILE	0x40000000ULL
#define RX_BUF		65536
#define NBUCKETS	5
#define GO_BYTE		'G'
#define ACK_BYTE	'K'

#define F_SERIAL	1u
#define F_SENDFILE	2u
#define F_ZEROCOPY	4u

enum dir { DIR_TX = 1, DIR_RX = 2, DIR_BOTH = 3 };

struct opts {
	int server;
	const char *addr, *file, *toggle;
	unsigned int port, tls, cipher, rec_min, rec_max, conns, timeout;
	unsigned int dir, flags;
	__u64 seed, bytes, corrupt;
	int have_seed, have_port, have_bytes, have_corrupt;
};

/* One end's view of a connection's transfer. */
struct xfer {
	const struct opts *o;
	int fd;
	unsigned int conn;
	unsigned int tx_stream, rx_stream;
	__u64 bytes;
	const unsigned char *file;	/* the file's bytes, or NULL */
	int file_fd;
	int run_toggle;
	int corrupt;		/* flip the byte at o->corrupt (--corrupt) */
	/* results */
	__u64 tx_bytes, tx_records, tx_partial, rx_bytes, toggles;
	__u64 bucket_rec[NBUCKETS], bucket_bytes[NBUCKETS];
	int err;
};

struct totals {
	__u64 tx_bytes, tx_records, tx_partial, rx_bytes, toggles;
	__u64 bucket_rec[NBUCKETS], bucket_bytes[NBUCKETS];
};

static const char *prog = "rxb_ktls";
static const char *role = "?";

static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: ", prog, role);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static __u64 splitmix64(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The seed of stream (connection, direction) for purpose tag. */
static __u64 stream_seed(__u64 seed, unsigned int stream, __u64 tag)
{
	__u64 s = seed ^ (tag << 32) ^ stream;

	return splitmix64(&s);
}

/* Byte i of stream's payload pattern, 8 at a time. */
static void pattern(__u64 seed, unsigned int stream, __u64 off,
		    unsigned char *buf, size_t len)
{
	__u64 base = stream_seed(seed, stream, 0x50415454);	/* "PATT" */
	__u64 blk = off / 8, s, v;
	size_t i = 0;
	unsigned int b = off % 8;

	while (i < len) {
		s = base ^ (blk * 0xd1b54a32d192ed03ULL);
		v = splitmix64(&s);
		for (; b < 8 && i < len; b++)
			buf[i++] = v >> (8 * b);
		b = 0;
		blk++;
	}
}

/* ---- kTLS set-up ---------------------------------------------------- */

union crypto_info {
	struct tls_crypto_info info;
	struct tls12_crypto_info_aes_gcm_128 g128;
	struct tls12_crypto_info_aes_gcm_256 g256;
};

static void derive(__u64 seed, unsigned int stream, __u64 tag,
		   unsigned char *out, size_t len)
{
	__u64 s = stream_seed(seed, stream, tag), v = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (i % 8 == 0)
			v = splitmix64(&s);
		out[i] = v >> (8 * (i % 8));
	}
}

/*
 * The crypto state of one direction of one connection: key, IV, salt and
 * a first record sequence number (its top 16 bits clear, far from the
 * wrap), all from the seed.
 */
static socklen_t crypto_info(const struct opts *o, unsigned int stream,
			     union crypto_info *ci)
{
	unsigned char *iv, *key, *salt, *seq;
	size_t klen;
	socklen_t len;

	memset(ci, 0, sizeof(*ci));
	ci->info.version = o->tls == 13 ? TLS_1_3_VERSION : TLS_1_2_VERSION;
	if (o->cipher == 256) {
		ci->info.cipher_type = TLS_CIPHER_AES_GCM_256;
		iv = ci->g256.iv;
		key = ci->g256.key;
		salt = ci->g256.salt;
		seq = ci->g256.rec_seq;
		klen = sizeof(ci->g256.key);
		len = sizeof(ci->g256);
	} else {
		ci->info.cipher_type = TLS_CIPHER_AES_GCM_128;
		iv = ci->g128.iv;
		key = ci->g128.key;
		salt = ci->g128.salt;
		seq = ci->g128.rec_seq;
		klen = sizeof(ci->g128.key);
		len = sizeof(ci->g128);
	}
	derive(o->seed, stream, 0x4b4559, key, klen);			/* KEY */
	derive(o->seed, stream, 0x4956, iv, TLS_CIPHER_AES_GCM_128_IV_SIZE);
	derive(o->seed, stream, 0x53414c54, salt, TLS_CIPHER_AES_GCM_128_SALT_SIZE);
	derive(o->seed, stream, 0x534551, seq, TLS_CIPHER_AES_GCM_128_REC_SEQ_SIZE);
	seq[0] = 0;
	seq[1] = 0;
	return len;
}

static int set_ulp(int fd)
{
	if (setsockopt(fd, SOL_TCP, TCP_ULP, "tls", sizeof("tls")) < 0) {
		fail("setsockopt(TCP_ULP, \"tls\"): %s%s", strerror(errno),
		     errno == ENOENT ? " (is the tls module available?)" : "");
		return -1;
	}
	return 0;
}

static int set_crypto(const struct opts *o, int fd, int optname,
		      unsigned int stream)
{
	union crypto_info ci;
	socklen_t len = crypto_info(o, stream, &ci);

	if (setsockopt(fd, SOL_TLS, optname, &ci, len) < 0) {
		fail("setsockopt(SOL_TLS, %s, TLS %s AES-GCM-%u): %s",
		     optname == TLS_TX ? "TLS_TX" : "TLS_RX",
		     o->tls == 13 ? "1.3" : "1.2", o->cipher, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * TLS_TX_ZEROCOPY_RO: sendfile() may hand the page-cache pages to the
 * device unencrypted (the file must not change meanwhile); only a device
 * offload (tls_device) acts on it, software kTLS accepts and ignores it.
 */
static int set_zerocopy(int fd)
{
	unsigned int one = 1;

	if (setsockopt(fd, SOL_TLS, TLS_TX_ZEROCOPY_RO, &one, sizeof(one)) < 0) {
		fail("setsockopt(SOL_TLS, TLS_TX_ZEROCOPY_RO): %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Client -> server is stream 2c, server -> client 2c + 1. */
static unsigned int c2s(unsigned int conn) { return 2 * conn; }
static unsigned int s2c(unsigned int conn) { return 2 * conn + 1; }

/* ---- I/O -------------------------------------------------------------- */

static int set_timeouts(int fd, unsigned int secs)
{
	struct timeval tv = { .tv_sec = secs };

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0) {
		fail("setsockopt(SO_RCVTIMEO/SO_SNDTIMEO): %s", strerror(errno));
		return -1;
	}
	return 0;
}

static const char *rx_errno_hint(int err)
{
	switch (err) {
	case EAGAIN:
		return " (receive timed out: --timeout)";
	case EBADMSG:
		return " (bad TLS record MAC: --seed, --tls or --cipher differ, or data corrupted)";
	case EMSGSIZE:
		return " (a TLS record longer than the protocol allows)";
	case EIO:
		return " (a TLS record that is not application data)";
	default:
		return "";
	}
}

/* Receive exactly len bytes (the hello, the go byte). */
static int recv_exact(int fd, void *buf, size_t len, const char *what)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = recv(fd, (char *)buf + got, len - got, MSG_WAITALL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail("receiving the %s: %s%s", what, strerror(errno),
			     rx_errno_hint(errno));
			return -1;
		}
		if (n == 0) {
			fail("receiving the %s: the peer closed after %zu of %zu bytes",
			     what, got, len);
			return -1;
		}
		got += n;
	}
	return 0;
}

/* One send() of the whole buffer, more calls if the socket took a part. */
static int send_record(struct xfer *x, const unsigned char *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = send(x->fd, buf + done, len - done, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail("conn %u: send of %zu bytes at offset %llu: %s%s",
			     x->conn, len - done, x->tx_bytes + done, strerror(errno),
			     errno == EAGAIN ? " (send timed out: --timeout)" : "");
			return -1;
		}
		x->tx_records++;
		done += n;
		if (done < len)
			x->tx_partial++;
	}
	return 0;
}

/* sendfile() of the file's bytes [off, off + len). */
static int sendfile_record(struct xfer *x, __u64 off, size_t len)
{
	off_t pos = off;
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = sendfile(x->fd, x->file_fd, &pos, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fail("conn %u: sendfile of %zu bytes at offset %llu: %s",
			     x->conn, len - done, off + done,
			     n == 0 ? "the file ended" : strerror(errno));
			return -1;
		}
		x->tx_records++;
		done += n;
		if (done < len)
			x->tx_partial++;
	}
	return 0;
}

static int run_toggle(struct xfer *x)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fail("fork for --toggle-cmd: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", x->o->toggle, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			fail("waitpid for --toggle-cmd: %s", strerror(errno));
			return -1;
		}
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fail("conn %u: --toggle-cmd '%s' failed (status %d)", x->conn,
		     x->o->toggle, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return -1;
	}
	x->toggles++;
	return 0;
}

static unsigned int bucket(size_t len)
{
	if (len < 16)
		return 0;
	if (len < 256)
		return 1;
	if (len < 4096)
		return 2;
	if (len < REC_MAX)
		return 3;
	return 4;
}

static void *sender(void *arg)
{
	struct xfer *x = arg;
	const struct opts *o = x->o;
	__u64 rs = stream_seed(o->seed, x->tx_stream, 0x52454353);	/* RECS */
	__u64 span = o->rec_max - o->rec_min + 1;
	unsigned char *buf = NULL;
	size_t k;
	int rc;

	if (!x->file) {
		buf = malloc(REC_MAX);
		if (!buf) {
			fail("out of memory");
			x->err = 1;
			return NULL;
		}
	}
	while (x->tx_bytes < x->bytes) {
		k = o->rec_min + splitmix64(&rs) % span;
		if (k > x->bytes - x->tx_bytes)
			k = x->bytes - x->tx_bytes;
		if (x->file) {
			rc = sendfile_record(x, x->tx_bytes, k);
		} else {
			pattern(o->seed, x->tx_stream, x->tx_bytes, buf, k);
			if (x->corrupt && o->corrupt >= x->tx_bytes &&
			    o->corrupt < x->tx_bytes + k)
				buf[o->corrupt - x->tx_bytes] ^= 0x5a;
			rc = send_record(x, buf, k);
		}
		if (rc)
			goto err;
		x->bucket_rec[bucket(k)]++;
		x->bucket_bytes[bucket(k)] += k;
		x->tx_bytes += k;
		if (x->run_toggle && !x->toggles && x->tx_bytes >= x->bytes / 2 &&
		    run_toggle(x))
			goto err;
	}
	free(buf);
	return NULL;
err:
	free(buf);
	x->err = 1;
	return NULL;
}

/* Compare len received bytes at stream offset off; 0 when they match. */
static int check(struct xfer *x, const unsigned char *got, __u64 off,
		 size_t len, unsigned char *exp)
{
	size_t i;

	if (x->file)
		exp = (unsigned char *)x->file + off;
	else
		pattern(x->o->seed, x->rx_stream, off, exp, len);
	if (!memcmp(got, exp, len))
		return 0;
	for (i = 0; i < len && got[i] == exp[i]; i++)
		;
	fail("conn %u: data differs at offset %llu: expected 0x%02x, got 0x%02x",
	     x->conn, off + i, exp[i], got[i]);
	return -1;
}

static int receiver(struct xfer *x)
{
	unsigned char *buf, *exp;
	ssize_t n;
	int rc = -1;

	buf = malloc(RX_BUF);
	exp = malloc(RX_BUF);
	if (!buf || !exp) {
		fail("out of memory");
		goto out;
	}
	while (x->rx_bytes < x->bytes) {
		n = recv(x->fd, buf, x->bytes - x->rx_bytes < RX_BUF ?
			 x->bytes - x->rx_bytes : RX_BUF, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail("conn %u: recv after %llu of %llu bytes: %s%s",
			     x->conn, x->rx_bytes, x->bytes, strerror(errno),
			     rx_errno_hint(errno));
			goto out;
		}
		if (n == 0) {
			fail("conn %u: the stream ended after %llu of %llu bytes",
			     x->conn, x->rx_bytes, x->bytes);
			goto out;
		}
		if (check(x, buf, x->rx_bytes, n, exp))
			goto out;
		x->rx_bytes += n;
		if (x->run_toggle && !(x->o->dir & DIR_TX) && !x->toggles &&
		    x->rx_bytes >= x->bytes / 2 && run_toggle(x))
			goto out;
	}
	rc = 0;
out:
	free(buf);
	free(exp);
	return rc;
}

/*
 * The end of a connection: this end confirms that it sent and received
 * everything with one record of ACK_BYTE and a FIN, and expects the same
 * from the peer: its ACK_BYTE, then the end of the stream.
 */
static int finish(struct xfer *x)
{
	unsigned char ack = ACK_BYTE;
	ssize_t n;

	if (send_record(x, &ack, 1))
		return -1;
	if (shutdown(x->fd, SHUT_WR) < 0) {
		fail("conn %u: shutdown(SHUT_WR): %s", x->conn, strerror(errno));
		return -1;
	}
	do {
		n = recv(x->fd, &ack, 1, 0);
	} while (n < 0 && errno == EINTR);
	if (n == 1 && ack == ACK_BYTE) {
		do {
			n = recv(x->fd, &ack, 1, 0);
		} while (n < 0 && errno == EINTR);
		if (n == 0)
			return 0;
		if (n > 0)
			fail("conn %u: data after the peer's confirmation", x->conn);
	} else if (n > 0) {
		fail("conn %u: 0x%02x, not the peer's confirmation: more than %llu bytes?",
		     x->conn, ack, x->rx_bytes);
	} else if (n == 0) {
		fail("conn %u: the peer closed without confirming (its error above?)",
		     x->conn);
	}
	if (n < 0)
		fail("conn %u: waiting for the peer's confirmation: %s%s", x->conn,
		     strerror(errno), rx_errno_hint(errno));
	return -1;
}

/*
 * Send and/or receive on one connection, as dir (this end's view) says,
 * then finish it.
 */
static int transfer(struct xfer *x, unsigned int dir)
{
	pthread_t th;
	int rc = 0, err;

	if (dir == DIR_BOTH) {
		err = pthread_create(&th, NULL, sender, x);
		if (err) {
			fail("pthread_create: %s", strerror(err));
			return -1;
		}
	} else if (dir == DIR_TX) {
		sender(x);
	}
	if ((dir & DIR_RX) && receiver(x))
		rc = -1;
	if (dir == DIR_BOTH) {
		/* a failed receiver must not leave the sender blocked */
		if (rc)
			shutdown(x->fd, SHUT_RDWR);
		pthread_join(th, NULL);
	}
	if (rc || x->err)
		return -1;
	return finish(x);
}

static void add_totals(struct totals *t, const struct xfer *x)
{
	int i;

	t->tx_bytes += x->tx_bytes;
	t->tx_records += x->tx_records;
	t->tx_partial += x->tx_partial;
	t->rx_bytes += x->rx_bytes;
	t->toggles += x->toggles;
	for (i = 0; i < NBUCKETS; i++) {
		t->bucket_rec[i] += x->bucket_rec[i];
		t->bucket_bytes[i] += x->bucket_bytes[i];
	}
}

static void print_totals(const struct totals *t, unsigned int conns, __u64 ns)
{
	static const char * const names[NBUCKETS] = {
		"1-15", "16-255", "256-4095", "4096-16383", "16384"
	};
	int i;

	printf("%s %s: ok tx_bytes=%llu tx_records=%llu tx_partial=%llu", prog,
	       role, t->tx_bytes, t->tx_records, t->tx_partial);
	printf(" rx_bytes=%llu conns=%u toggles=%llu ns=%llu tx_sizes=", t->rx_bytes,
	       conns, t->toggles, ns);
	for (i = 0; i < NBUCKETS; i++)
		printf("%s%s:%llu/%llu", i ? "," : "", names[i],
		       t->bucket_rec[i], t->bucket_bytes[i]);
	putchar('\n');
	fflush(stdout);
}

/* ---- the hello -------------------------------------------------------- */

struct hello {
	__u32 conn, conns, flags, dir, rec_min, rec_max;
	__u64 bytes, seed;
};

static void put32(unsigned char *p, __u32 v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = v >> (8 * i);
}

static void put64(unsigned char *p, __u64 v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = v >> (8 * i);
}

static __u32 get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (__u32)p[3] << 24;
}

static __u64 get64(const unsigned char *p)
{
	return get32(p) | (__u64)get32(p + 4) << 32;
}

static void hello_pack(const struct hello *h, unsigned char *p)
{
	memset(p, 0, HELLO_LEN);
	memcpy(p, HELLO_MAGIC, 8);
	put32(p + 8, h->conn);
	put32(p + 12, h->conns);
	put32(p + 16, h->flags);
	put32(p + 20, h->dir);
	put32(p + 24, h->rec_min);
	put32(p + 28, h->rec_max);
	put64(p + 32, h->bytes);
	put64(p + 40, h->seed);
}

static int hello_unpack(struct hello *h, const unsigned char *p)
{
	if (memcmp(p, HELLO_MAGIC, 8)) {
		fail("the first record is not an rxb_ktls hello");
		return -1;
	}
	h->conn = get32(p + 8);
	h->conns = get32(p + 12);
	h->flags = get32(p + 16);
	h->dir = get32(p + 20);
	h->rec_min = get32(p + 24);
	h->rec_max = get32(p + 28);
	h->bytes = get64(p + 32);
	h->seed = get64(p + 40);
	if (!h->conns || h->conns > MAX_CONNS || h->conn >= h->conns ||
	    h->dir < DIR_TX || h->dir > DIR_BOTH || !h->rec_min ||
	    h->rec_min > h->rec_max || h->rec_max > REC_MAX ||
	    h->bytes > MAX_BYTES || (h->flags & ~(F_SERIAL | F_SENDFILE | F_ZEROCOPY))) {
		fail("the hello's parameters are out of range");
		return -1;
	}
	return 0;
}

/* ---- files ------------------------------------------------------------ */

struct file {
	int fd;
	unsigned char *data;
	__u64 size;
};

static int file_load(const char *path, struct file *f)
{
	struct stat st;
	size_t got = 0;
	ssize_t n;

	f->data = NULL;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		fail("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(f->fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (__u64)st.st_size > MAX_FILE || !st.st_size) {
		fail("%s: not a regular file of 1 byte to 1 GiB", path);
		goto err;
	}
	f->size = st.st_size;
	f->data = malloc(f->size);
	if (!f->data) {
		fail("out of memory for %s", path);
		goto err;
	}
	while (got < f->size) {
		n = pread(f->fd, f->data + got, f->size - got, got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fail("%s: read: %s", path, n ? strerror(errno) : "short file");
			goto err;
		}
		got += n;
	}
	return 0;
err:
	free(f->data);
	f->data = NULL;
	close(f->fd);
	f->fd = -1;
	return -1;
}

static void file_free(struct file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	free(f->data);
}

/* ---- server ----------------------------------------------------------- */

struct sconn {
	int fd;
	struct hello h;
};

static int server_setup(const struct opts *o, int lfd, unsigned int i,
			struct sconn *c)
{
	unsigned char hb[HELLO_LEN];
	char go = GO_BYTE;

	c->fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (c->fd < 0) {
		fail("accept of connection %u: %s%s", i, strerror(errno),
		     errno == EAGAIN ? " (no client within --timeout)" : "");
		return -1;
	}
	if (set_timeouts(c->fd, o->timeout) || set_ulp(c->fd) ||
	    set_crypto(o, c->fd, TLS_RX, c2s(i)))
		return -1;
	/* still clear text: TX is not set up yet */
	if (send(c->fd, &go, 1, MSG_NOSIGNAL) != 1) {
		fail("sending the go byte: %s", strerror(errno));
		return -1;
	}
	if (set_crypto(o, c->fd, TLS_TX, s2c(i)) ||
	    recv_exact(c->fd, hb, sizeof(hb), "hello") || hello_unpack(&c->h, hb))
		return -1;
	if (c->h.seed != o->seed || c->h.conn != i) {
		fail("hello of connection %u: seed %llu conn %u", i,
		     c->h.seed, c->h.conn);
		return -1;
	}
	if ((c->h.flags & F_ZEROCOPY) && set_zerocopy(c->fd))
		return -1;
	return 0;
}

static int server_xfer(const struct opts *o, struct sconn *c, unsigned int i,
		       struct file *f, struct totals *t)
{
	struct opts so = *o;
	struct xfer x = {
		.o = &so, .fd = c->fd, .conn = i, .tx_stream = s2c(i),
		.rx_stream = c2s(i), .bytes = c->h.bytes, .file_fd = -1,
	};
	unsigned int dir = 0;
	int rc;

	/* this end's sends follow the hello's record sizes */
	so.rec_min = c->h.rec_min;
	so.rec_max = c->h.rec_max;
	so.dir = c->h.dir;

	if (c->h.flags & F_SENDFILE) {
		if (!f->data) {
			fail("the client sends a file: give the server --sendfile FILE too");
			return -1;
		}
		if (f->size != c->h.bytes) {
			fail("the client's file has %llu bytes, %s %llu",
			     c->h.bytes, o->file, f->size);
			return -1;
		}
		x.file = f->data;
		x.file_fd = f->fd;
	}
	/* the server's view: the client's tx is its rx */
	if (c->h.dir & DIR_TX)
		dir |= DIR_RX;
	if (c->h.dir & DIR_RX)
		dir |= DIR_TX;
	rc = transfer(&x, dir);
	add_totals(t, &x);
	return rc;
}

static int run_server(const struct opts *o)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(o->port) };
	struct sconn c[MAX_CONNS];
	struct file f = { .fd = -1 };
	struct totals t = { 0 };
	unsigned int i, conns = 1, serial = 0;
	struct timeval tv = { .tv_sec = o->timeout };
	__u64 t0 = 0;
	int lfd, one = 1, rc = 1;

	for (i = 0; i < MAX_CONNS; i++)
		c[i].fd = -1;
	inet_pton(AF_INET, o->addr ? o->addr : "0.0.0.0", &sa.sin_addr);
	if (o->file && file_load(o->file, &f))
		return 1;
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0) {
		fail("socket: %s", strerror(errno));
		goto out_file;
	}
	if (setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    setsockopt(lfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(lfd, MAX_CONNS) < 0) {
		fail("listening on %s:%u: %s", o->addr ? o->addr : "0.0.0.0",
		     o->port, strerror(errno));
		goto out_lfd;
	}
	/* all connections open first (or, --serial, each in turn) */
	for (i = 0; i < conns; i++) {
		if (server_setup(o, lfd, i, &c[i]))
			goto out_conns;
		if (i == 0) {
			t0 = now_ns();
			conns = c[0].h.conns;
			serial = c[0].h.flags & F_SERIAL;
		} else if (c[i].h.conns != conns) {
			fail("hello of connection %u: %u connections, the first said %u",
			     i, c[i].h.conns, conns);
			goto out_conns;
		}
		if (!serial)
			continue;
		if (server_xfer(o, &c[i], i, &f, &t))
			goto out_conns;
		close(c[i].fd);
		c[i].fd = -1;
	}
	for (i = 0; i < conns && !serial; i++)
		if (server_xfer(o, &c[i], i, &f, &t))
			goto out_conns;
	for (i = 0; i < conns; i++) {
		if (c[i].fd >= 0)
			close(c[i].fd);
		c[i].fd = -1;
	}
	print_totals(&t, conns, now_ns() - t0);
	rc = 0;
out_conns:
	for (i = 0; i < MAX_CONNS; i++)
		if (c[i].fd >= 0)
			close(c[i].fd);
out_lfd:
	close(lfd);
out_file:
	file_free(&f);
	return rc;
}

/* ---- client ----------------------------------------------------------- */

static int client_open(const struct opts *o, unsigned int i, __u64 bytes)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(o->port) };
	__u64 deadline = now_ns() + o->timeout * 1000000000ULL;
	unsigned char hb[HELLO_LEN];
	struct hello h = {
		.conn = i, .conns = o->conns, .flags = o->flags, .dir = o->dir,
		.rec_min = o->rec_min, .rec_max = o->rec_max, .bytes = bytes,
		.seed = o->seed,
	};
	struct xfer x = { .o = o, .conn = i };
	char go;
	int fd;

	inet_pton(AF_INET, o->addr, &sa.sin_addr);
	for (;;) {
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			fail("socket: %s", strerror(errno));
			return -1;
		}
		if (set_timeouts(fd, o->timeout))
			goto err;
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			break;
		/* the server may not listen yet: retry until --timeout */
		if ((errno != ECONNREFUSED && errno != EINTR) || now_ns() > deadline) {
			fail("connect to %s:%u (connection %u): %s", o->addr, o->port,
			     i, strerror(errno));
			goto err;
		}
		close(fd);
		usleep(20000);
	}
	if (recv_exact(fd, &go, 1, "go byte") || set_ulp(fd) ||
	    set_crypto(o, fd, TLS_TX, c2s(i)) || set_crypto(o, fd, TLS_RX, s2c(i)) ||
	    ((o->flags & F_ZEROCOPY) && set_zerocopy(fd)))
		goto err;
	if (go != GO_BYTE) {
		fail("connection %u: the server's first byte is 0x%02x", i,
		     (unsigned char)go);
		goto err;
	}
	hello_pack(&h, hb);
	x.fd = fd;
	if (send_record(&x, hb, sizeof(hb)))
		goto err;
	return fd;
err:
	close(fd);
	return -1;
}

static int client_xfer(const struct opts *o, int fd, unsigned int i,
		       struct file *f, __u64 bytes, struct totals *t)
{
	struct xfer x = {
		.o = o, .fd = fd, .conn = i, .tx_stream = c2s(i),
		.rx_stream = s2c(i), .bytes = bytes, .file_fd = -1,
		.run_toggle = !!o->toggle, .corrupt = o->have_corrupt,
	};
	int rc;

	if (f->data) {
		x.file = f->data;
		x.file_fd = f->fd;
	}
	rc = transfer(&x, o->dir);
	add_totals(t, &x);
	return rc;
}

static int run_client(const struct opts *o)
{
	struct file f = { .fd = -1 };
	struct totals t = { 0 };
	int fds[MAX_CONNS];
	unsigned int i, serial = o->flags & F_SERIAL;
	__u64 t0, bytes = o->bytes;
	int rc = 1;

	for (i = 0; i < MAX_CONNS; i++)
		fds[i] = -1;
	if (o->file) {
		if (file_load(o->file, &f))
			return 1;
		bytes = f.size;
	}
	t0 = now_ns();
	/* all connections open first (or, --serial, each in turn) */
	for (i = 0; i < o->conns; i++) {
		fds[i] = client_open(o, i, bytes);
		if (fds[i] < 0)
			goto out;
		t.tx_records++;		/* the hello */
		if (!serial)
			continue;
		if (client_xfer(o, fds[i], i, &f, bytes, &t))
			goto out;
		close(fds[i]);
		fds[i] = -1;
	}
	for (i = 0; i < o->conns && !serial; i++)
		if (client_xfer(o, fds[i], i, &f, bytes, &t))
			goto out;
	for (i = 0; i < o->conns; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
	print_totals(&t, o->conns, now_ns() - t0);
	rc = 0;
out:
	for (i = 0; i < MAX_CONNS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	file_free(&f);
	return rc;
}

/* ---- arguments -------------------------------------------------------- */

static void bad_usage(const char *why, ...)
{
	va_list ap;

	if (why) {
		fprintf(stderr, "%s: ", prog);
		va_start(ap, why);
		vfprintf(stderr, why, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
	fprintf(stderr,
		"usage: %s server --port P --seed S [--addr A] [--tls 1.2|1.3] [--cipher 128|256]\n"
		"                [--sendfile FILE] [--timeout SECS]\n"
		"       %s client --addr A --port P --seed S [--tls 1.2|1.3] [--cipher 128|256]\n"
		"                (--bytes N | --sendfile FILE) [--rec-min A] [--rec-max B]\n"
		"                [--dir tx|rx|both] [--conns K] [--serial] [--toggle-cmd CMD]\n"
		"                [--zerocopy]\n"
		"                [--timeout SECS] [--corrupt OFFSET]\n"
		"  record sizes 1..%u bytes, --bytes 1..%llu, --conns 1..%u, --timeout 1..3600\n",
		prog, prog, REC_MAX, MAX_BYTES, MAX_CONNS);
	exit(2);
}

/* A decimal number in [min, max], all of the argument. */
static __u64 parse_num(const char *opt, const char *s, __u64 min, __u64 max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (!s || *s < '0' || *s > '9')
		bad_usage("%s '%s': not a number", opt, s ? s : "");
	v = strtoull(s, &end, 10);
	if (*end)
		bad_usage("%s '%s': not a number", opt, s);
	if (errno)
		bad_usage("%s %s: out of range %llu..%llu", opt, s, min, max);
	if (v < min || v > max)
		bad_usage("%s %llu: out of range %llu..%llu", opt, v, min, max);
	return v;
}

enum {
	O_ADDR = 1, O_PORT, O_TLS, O_CIPHER, O_SEED, O_BYTES, O_RMIN, O_RMAX,
	O_DIR, O_FILE, O_CONNS, O_SERIAL, O_TOGGLE, O_TIMEOUT, O_CORRUPT,
	O_ZEROCOPY,
};

static void parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "addr", required_argument, NULL, O_ADDR },
		{ "port", required_argument, NULL, O_PORT },
		{ "tls", required_argument, NULL, O_TLS },
		{ "cipher", required_argument, NULL, O_CIPHER },
		{ "seed", required_argument, NULL, O_SEED },
		{ "bytes", required_argument, NULL, O_BYTES },
		{ "rec-min", required_argument, NULL, O_RMIN },
		{ "rec-max", required_argument, NULL, O_RMAX },
		{ "dir", required_argument, NULL, O_DIR },
		{ "sendfile", required_argument, NULL, O_FILE },
		{ "conns", required_argument, NULL, O_CONNS },
		{ "serial", no_argument, NULL, O_SERIAL },
		{ "toggle-cmd", required_argument, NULL, O_TOGGLE },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "corrupt", required_argument, NULL, O_CORRUPT },
		{ "zerocopy", no_argument, NULL, O_ZEROCOPY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *client_only = NULL;
	struct in_addr in;
	int ch;

	if (argc < 2)
		bad_usage("no mode (server or client)");
	if (!strcmp(argv[1], "server"))
		o->server = 1;
	else if (strcmp(argv[1], "client"))
		bad_usage("unknown mode '%s' (server or client)", argv[1]);
	role = argv[1];
	o->tls = 12;
	o->cipher = 128;
	o->rec_min = 1;
	o->rec_max = REC_MAX;
	o->dir = DIR_TX;
	o->conns = 1;
	o->timeout = 20;
	optind = 2;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (ch) {
		case O_ADDR:
			if (inet_pton(AF_INET, optarg, &in) != 1)
				bad_usage("--addr '%s': not an IPv4 address", optarg);
			o->addr = optarg;
			break;
		case O_PORT:
			o->port = parse_num("--port", optarg, 1, 65535);
			o->have_port = 1;
			break;
		case O_TLS:
			if (!strcmp(optarg, "1.2"))
				o->tls = 12;
			else if (!strcmp(optarg, "1.3"))
				o->tls = 13;
			else
				bad_usage("--tls '%s': 1.2 or 1.3", optarg);
			break;
		case O_CIPHER:
			if (!strcmp(optarg, "128"))
				o->cipher = 128;
			else if (!strcmp(optarg, "256"))
				o->cipher = 256;
			else
				bad_usage("--cipher '%s': 128 or 256 (AES-GCM)", optarg);
			break;
		case O_SEED:
			o->seed = parse_num("--seed", optarg, 0, ~0ULL);
			o->have_seed = 1;
			break;
		case O_BYTES:
			o->bytes = parse_num("--bytes", optarg, 1, MAX_BYTES);
			o->have_bytes = 1;
			client_only = "--bytes";
			break;
		case O_RMIN:
			o->rec_min = parse_num("--rec-min", optarg, 1, REC_MAX);
			client_only = "--rec-min";
			break;
		case O_RMAX:
			o->rec_max = parse_num("--rec-max", optarg, 1, REC_MAX);
			client_only = "--rec-max";
			break;
		case O_DIR:
			if (!strcmp(optarg, "tx"))
				o->dir = DIR_TX;
			else if (!strcmp(optarg, "rx"))
				o->dir = DIR_RX;
			else if (!strcmp(optarg, "both"))
				o->dir = DIR_BOTH;
			else
				bad_usage("--dir '%s': tx, rx or both", optarg);
			client_only = "--dir";
			break;
		case O_FILE:
			o->file = optarg;
			break;
		case O_CONNS:
			o->conns = parse_num("--conns", optarg, 1, MAX_CONNS);
			client_only = "--conns";
			break;
		case O_SERIAL:
			o->flags |= F_SERIAL;
			client_only = "--serial";
			break;
		case O_TOGGLE:
			if (!*optarg)
				bad_usage("--toggle-cmd: an empty command");
			o->toggle = optarg;
			client_only = "--toggle-cmd";
			break;
		case O_TIMEOUT:
			o->timeout = parse_num("--timeout", optarg, 1, 3600);
			break;
		case O_ZEROCOPY:
			o->flags |= F_ZEROCOPY;
			client_only = "--zerocopy";
			break;
		case O_CORRUPT:
			o->corrupt = parse_num("--corrupt", optarg, 0, MAX_BYTES - 1);
			o->have_corrupt = 1;
			client_only = "--corrupt";
			break;
		case 'h':
			bad_usage(NULL);
			break;
		default:
			bad_usage("unknown option or missing value: '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		bad_usage("unexpected argument '%s'", argv[optind]);
	if (!o->have_port)
		bad_usage("--port is required");
	if (!o->have_seed)
		bad_usage("--seed is required");
	if (o->server) {
		if (client_only)
			bad_usage("%s is a client option (the client's hello tells the server)",
				  client_only);
		return;
	}
	if (!o->addr)
		bad_usage("--addr is required for the client");
	if (o->file) {
		if (o->have_bytes)
			bad_usage("--bytes and --sendfile: the file's size is the byte count");
		o->flags |= F_SENDFILE;
	} else if (!o->have_bytes) {
		bad_usage("--bytes or --sendfile is required for the client");
	}
	if ((o->flags & F_ZEROCOPY) && !o->file)
		bad_usage("--zerocopy is for --sendfile");
	if (o->rec_min > o->rec_max)
		bad_usage("--rec-min %u is above --rec-max %u", o->rec_min, o->rec_max);
	if (o->have_corrupt && (o->file || o->corrupt >= o->bytes))
		bad_usage("--corrupt %llu: an offset below --bytes, without --sendfile",
			  o->corrupt);
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };

	signal(SIGPIPE, SIG_IGN);
	parse(argc, argv, &o);
	return o.server ? run_server(&o) : run_client(&o);
}
