// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the NIC's TLS record engine (drivers/net/rxbisect/hw/tls_rec.c,
 * include/rxbisect/rxb_tls.h) against OpenSSL's AES-GCM on whole records.
 *
 * The engine's crypto units (struct rxb_tls_crypto_ops) are made here:
 * AES-CTR from OpenSSL's AES-ECB keystream (inc32 counter blocks), GHASH
 * in plain C after NIST SP 800-38D (bitwise multiplication in GF(2^128))
 * with a partial-block buffer.  The reference is OpenSSL's EVP AES-GCM on
 * each whole record, built as the kernel's tls_sw builds it: TLS 1.2 with
 * the explicit nonce (the record sequence number) after the header and
 * AAD = seq || type || version || plaintext length; TLS 1.3 with nonce =
 * iv XOR seq, the inner content type after the data and AAD = the header.
 *
 * Every case runs TLS 1.2 and 1.3 with AES-GCM-128 and -256 over flows of
 * records of 1 B to 16 KiB whose TCP sequence numbers cross 2^32, cut into
 * packets of 1 B to 9000 B, from fixed seeds.  TX: in sequence,
 * retransmissions (resync + dump), errors.  RX: in sequence, a corrupted
 * record, loss, reordering and duplicates against a model of what the
 * engine must do (Fig. 3.6: search, track, confirm, resume at the next
 * boundary); every decrypted byte is checked against the plaintext and
 * every packet not decrypted must be left as it came.  The threads case
 * runs flows concurrently (the engine has no shared state; TSAN).  The
 * fuzz case (RXB_FUZZ_SECS, default 2) feeds rxb_tls_rx() and the TX
 * calls random bytes, sequence numbers and confirmations, and mutated
 * real flows, for ASan/UBSan.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include <linux/errno.h>
#include <linux/kernel.h>
#include <rxbisect/rxb_tls.h>

#include "ktap.h"
#include "shim/shim.h"

/* ---- random numbers (splitmix64: deterministic, per flow) ---- */

struct rng {
	u64 s;
};

static u64 rng_next(struct rng *g)
{
	u64 z = (g->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static u32 rng_range(struct rng *g, u32 lo, u32 hi)
{
	return lo + rng_next(g) % ((u64)hi - lo + 1);
}

static bool rng_pct(struct rng *g, u32 pct)
{
	return rng_next(g) % 100 < pct;
}

static void rng_bytes(struct rng *g, u8 *p, size_t n)
{
	while (n--)
		*p++ = rng_next(g);
}

static void put_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void put_be64(u8 *p, u64 v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, v);
}

static u32 get_be32(const u8 *p)
{
	return (u32)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static u64 get_be64(const u8 *p)
{
	return (u64)get_be32(p) << 32 | get_be32(p + 4);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		abort();
	return p;
}

/* ---- the crypto units given to the engine ---- */

struct rxb_tls_cipher {
	EVP_CIPHER_CTX *ecb;	/* AES-ECB: the counter blocks' keystream */
	u64 hh, hl;		/* the hash key H */
	u64 yh, yl;		/* the running GHASH */
	u8 part[16];		/* a partial block waiting for more bytes */
	u32 npart;
	bool ghash_on;		/* between ghash_init and ghash_final */
};

static void aes_ecb(struct rxb_tls_cipher *c, const u8 *in, u8 *out, u32 n)
{
	int outl = 0;

	if (!EVP_EncryptUpdate(c->ecb, out, &outl, in, n) || outl != (int)n)
		abort();
}

static void cipher_init(struct rxb_tls_cipher *c, const u8 *key, u32 keylen)
{
	u8 zero[16] = {}, h[16];

	memset(c, 0, sizeof(*c));
	c->ecb = EVP_CIPHER_CTX_new();
	if (!c->ecb ||
	    !EVP_EncryptInit_ex(c->ecb, keylen == 32 ? EVP_aes_256_ecb() :
				EVP_aes_128_ecb(), NULL, key, NULL) ||
	    !EVP_CIPHER_CTX_set_padding(c->ecb, 0))
		abort();
	aes_ecb(c, zero, h, 16);
	c->hh = get_be64(h);
	c->hl = get_be64(h + 8);
}

static void cipher_fini(struct rxb_tls_cipher *c)
{
	EVP_CIPHER_CTX_free(c->ecb);
}

/* @ops->ctr: GCM's CTR, the low 32 bits of the block counting (inc32). */
static void t_ctr(struct rxb_tls_cipher *c, const u8 ctr[16], u8 *buf,
		  u32 len)
{
	u8 cb[64 * 16], ks[64 * 16];
	u32 cnt = get_be32(ctr + 12), n, nb, i;

	while (len) {
		n = min_t(u32, len, sizeof(ks));
		nb = (n + 15) / 16;
		for (i = 0; i < nb; i++) {
			memcpy(cb + 16 * i, ctr, 12);
			put_be32(cb + 16 * i + 12, cnt++);
		}
		aes_ecb(c, cb, ks, nb * 16);
		for (i = 0; i < n; i++)
			buf[i] ^= ks[i];
		buf += n;
		len -= n;
	}
}

/* Y = (Y ^ X) * H in GF(2^128), SP 800-38D algorithm 1, bit by bit. */
static void ghash_block(struct rxb_tls_cipher *c, const u8 *x)
{
	u64 xh = c->yh ^ get_be64(x), xl = c->yl ^ get_be64(x + 8);
	u64 zh = 0, zl = 0, vh = c->hh, vl = c->hl, lsb;
	int i;

	for (i = 0; i < 128; i++) {
		u64 bit = i < 64 ? xh >> (63 - i) : xl >> (127 - i);

		if (bit & 1) {
			zh ^= vh;
			zl ^= vl;
		}
		lsb = vl & 1;
		vl = vl >> 1 | vh << 63;
		vh >>= 1;
		if (lsb)
			vh ^= 0xe100000000000000ULL;
	}
	c->yh = zh;
	c->yl = zl;
}

static void t_ghash_init(struct rxb_tls_cipher *c)
{
	c->yh = 0;
	c->yl = 0;
	c->npart = 0;
	c->ghash_on = true;
}

static void t_ghash_update(struct rxb_tls_cipher *c, const u8 *p, u32 len)
{
	u32 k;

	if (!EXPECT(c->ghash_on, "GHASH update without ghash_init"))
		return;
	if (c->npart) {
		k = min(len, 16 - c->npart);
		memcpy(c->part + c->npart, p, k);
		c->npart += k;
		p += k;
		len -= k;
		if (c->npart < 16)
			return;
		ghash_block(c, c->part);
		c->npart = 0;
	}
	for (; len >= 16; len -= 16, p += 16)
		ghash_block(c, p);
	memcpy(c->part, p, len);
	c->npart = len;
}

static void t_ghash_final(struct rxb_tls_cipher *c, u8 out[16])
{
	EXPECT(c->ghash_on, "GHASH final without ghash_init");
	if (c->npart) {
		memset(c->part + c->npart, 0, 16 - c->npart);
		ghash_block(c, c->part);
		c->npart = 0;
	}
	put_be64(out, c->yh);
	put_be64(out + 8, c->yl);
	c->ghash_on = false;
}

static const struct rxb_tls_crypto_ops t_ops = {
	.ctr = t_ctr,
	.ghash_init = t_ghash_init,
	.ghash_update = t_ghash_update,
	.ghash_final = t_ghash_final,
};

/* ---- flows: records laid out as tls_device and the wire has them ---- */

/* test_types: TLS 1.2 records of types outside alert, handshake and data. */
static bool odd_types;
static const u8 odd_type[] = { 20, 24, 100, 255 };

struct cfg {
	bool tls13;
	u32 keylen;
};

static const struct cfg cfgs[] = {
	{ false, 16 }, { false, 32 }, { true, 16 }, { true, 32 },
};

static const char *cfg_name(const struct cfg *k)
{
	static const char *const n[] = {
		"TLS1.2/AES-128", "TLS1.2/AES-256",
		"TLS1.3/AES-128", "TLS1.3/AES-256",
	};

	return n[k->tls13 * 2 + (k->keylen == 32)];
}

/*
 * One direction of one TCP flow: its records, from TCP sequence number
 * @seq0 (offsets below are from it), record sequence numbers from
 * @rec_seq0.  @plain is what the stack hands the NIC (tls_device: header,
 * TLS 1.2's explicit nonce, the data, zeros where the tag goes); @wire is
 * the reference (OpenSSL's records); @dec is what a decrypted packet must
 * hold (the wire with the data in plaintext: header, nonce and tag stay).
 */
struct flow {
	bool tls13;
	u32 keylen;
	u8 key[32], salt[RXB_TLS_SALT_LEN], iv[RXB_TLS_IV_LEN];
	u64 rec_seq0;
	u32 seq0;
	u32 nrec, total;
	u32 *rs;		/* record starts; rs[nrec] = total */
	u8 *plain, *wire, *dec;
};

static u32 rec_pre(bool tls13)
{
	return RXB_TLS_HDR_LEN + (tls13 ? 0 : RXB_TLS12_NONCE_LEN);
}

static u32 data_size(struct rng *g, u32 max)
{
	switch (rng_next(g) % 6) {
	case 0:
		return rng_range(g, 1, min(max, 64U));
	case 1:
		return rng_range(g, 1, min(max, 2000U));
	case 2:
		return max;
	default:
		return rng_range(g, 1, max);
	}
}

static void gcm_ref(const struct flow *f, const u8 *nonce, const u8 *aad,
		    u32 alen, const u8 *in, u8 *out, u32 len, u8 *tag)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int l;

	if (!x ||
	    !EVP_EncryptInit_ex(x, f->keylen == 32 ? EVP_aes_256_gcm() :
				EVP_aes_128_gcm(), NULL, NULL, NULL) ||
	    !EVP_EncryptInit_ex(x, NULL, NULL, f->key, nonce) ||
	    !EVP_EncryptUpdate(x, NULL, &l, aad, alen) ||
	    (len && !EVP_EncryptUpdate(x, out, &l, in, len)) ||
	    !EVP_EncryptFinal_ex(x, out + len, &l) ||
	    !EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_GCM_GET_TAG, 16, tag))
		abort();
	EVP_CIPHER_CTX_free(x);
}

/*
 * @nrec records of at most @max data bytes each (@fixed: exactly); with
 * @empty_pct, that share of them empty (the fuzz only).
 */
static void flow_make_sized(struct flow *f, const struct cfg *k, u64 seed,
			    u32 nrec, u32 max, bool fixed, u32 empty_pct)
{
	struct rng g = { seed };
	u32 pre = rec_pre(k->tls13), i, o, dlen, rlen, cap;
	u8 nonce[12], aad[13];

	memset(f, 0, sizeof(*f));
	f->tls13 = k->tls13;
	f->keylen = k->keylen;
	rng_bytes(&g, f->key, sizeof(f->key));
	rng_bytes(&g, f->salt, sizeof(f->salt));
	rng_bytes(&g, f->iv, sizeof(f->iv));
	/* Record numbers crossing 2^32 (the nonce's and AAD's high bytes);
	 * TCP sequence numbers crossing 2^32 within the flow.
	 */
	f->rec_seq0 = 0xfffffff0ULL + rng_range(&g, 0, 32);
	f->seq0 = 0xfff80000U + rng_range(&g, 0, 0x10000);
	f->nrec = nrec;
	f->rs = xmalloc((nrec + 1) * sizeof(*f->rs));
	cap = nrec * (pre + max + 1 + RXB_TLS_TAG_LEN);
	f->plain = xmalloc(cap);
	f->wire = xmalloc(cap);
	f->dec = xmalloc(cap);
	for (i = 0, o = 0; i < nrec; i++) {
		u64 sn = f->rec_seq0 + i;
		u8 *p = f->plain + o, *w = f->wire + o;
		u8 type = 23;

		f->rs[i] = o;
		dlen = fixed ? max : data_size(&g, max);
		if (empty_pct && rng_pct(&g, empty_pct))
			dlen = 0;
		if (f->tls13) {
			/* The inner content type ends the plaintext. */
			p[pre + dlen] = rng_pct(&g, 10) ? 22 : 23;
			dlen++;
		} else if (odd_types && rng_pct(&g, 30)) {
			type = odd_type[rng_range(&g, 0, ARRAY_SIZE(odd_type) - 1)];
		} else if (rng_pct(&g, 10)) {
			type = rng_pct(&g, 50) ? 22 : 21;
		}
		rlen = pre + dlen + RXB_TLS_TAG_LEN;
		p[0] = type;
		p[1] = 3;
		p[2] = 3;
		p[3] = (rlen - RXB_TLS_HDR_LEN) >> 8;
		p[4] = rlen - RXB_TLS_HDR_LEN;
		rng_bytes(&g, p + pre, f->tls13 ? dlen - 1 : dlen);
		memset(p + pre + dlen, 0, RXB_TLS_TAG_LEN);
		memcpy(nonce, f->salt, RXB_TLS_SALT_LEN);
		if (f->tls13) {
			int b;

			memcpy(nonce + 4, f->iv, 8);
			for (b = 0; b < 8; b++)
				nonce[4 + b] ^= sn >> (56 - 8 * b);
			memcpy(aad, p, RXB_TLS_HDR_LEN);
		} else {
			/* tls_device: the explicit nonce is the record's
			 * sequence number.
			 */
			put_be64(p + RXB_TLS_HDR_LEN, sn);
			memcpy(nonce + 4, p + RXB_TLS_HDR_LEN, 8);
			put_be64(aad, sn);
			memcpy(aad + 8, p, 3);
			aad[11] = dlen >> 8;
			aad[12] = dlen;
		}
		memcpy(w, p, pre);
		gcm_ref(f, nonce, aad, f->tls13 ? 5 : 13, p + pre, w + pre, dlen,
			w + pre + dlen);
		memcpy(f->dec + o, w, rlen);
		memcpy(f->dec + o + pre, p + pre, dlen);
		o += rlen;
	}
	f->rs[nrec] = o;
	f->total = o;
}

static void flow_make(struct flow *f, const struct cfg *k, u64 seed, u32 nrec,
		      u32 max)
{
	flow_make_sized(f, k, seed, nrec, max, false, 0);
}

static void flow_free(struct flow *f)
{
	free(f->rs);
	free(f->plain);
	free(f->wire);
	free(f->dec);
}

/* The record holding byte @off. */
static u32 rec_of(const struct flow *f, u32 off)
{
	u32 lo = 0, hi = f->nrec;	/* rs[lo] <= off < rs[hi] */

	while (hi - lo > 1) {
		u32 mid = (lo + hi) / 2;

		if (f->rs[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static bool is_hdr(const struct flow *f, u32 off)
{
	return off < f->total && f->rs[rec_of(f, off)] == off;
}

/* Records whose last byte lies in [@a, @b). */
static u32 ends_in(const struct flow *f, u32 a, u32 b)
{
	u32 n = 0, i;

	if (a >= b)
		return 0;
	for (i = rec_of(f, a); i < f->nrec && f->rs[i + 1] <= b; i++)
		if (f->rs[i + 1] > a)
			n++;
	return n;
}

/* Is @off inside a record header, past its first byte? */
static bool in_hdr(const struct flow *f, u32 off)
{
	u32 i = rec_of(f, off);

	return off < f->total && off != f->rs[i] &&
	       off - f->rs[i] < RXB_TLS_HDR_LEN;
}

/* The first record boundary at or after @off (f->total at the end). */
static u32 boundary_from(const struct flow *f, u32 off)
{
	u32 i;

	if (off >= f->total)
		return f->total;
	i = rec_of(f, off);
	return f->rs[i] == off ? off : f->rs[i + 1];
}

/* A packet size: 1 B to 9000 B, often tiny or full. */
static u32 pkt_size(struct rng *g)
{
	switch (rng_next(g) % 8) {
	case 0:
		return rng_range(g, 1, 24);
	case 1:
		return rng_range(g, 1, 300);
	case 2:
		return 9000;
	default:
		return rng_range(g, 1, 9000);
	}
}

/* Cut the flow into packets: offsets in *@offs, n + 1 of them. */
static u32 flow_cut(const struct flow *f, struct rng *g, u32 **offs)
{
	u32 n = 0, cap = f->total + 1, o = 0;
	u32 *v = xmalloc((cap + 1) * sizeof(*v));

	while (o < f->total) {
		v[n++] = o;
		o = min(o + pkt_size(g), f->total);
	}
	v[n] = f->total;
	*offs = v;
	return n;
}

static u8 *dup_bytes(const u8 *p, u32 n)
{
	u8 *q = xmalloc(n);

	memcpy(q, p, n);
	return q;
}

/* ---- TX ---- */

struct tx {
	struct flow f;
	struct rxb_tls_cipher c;
	struct rxb_tls_rec r;
	u32 *offs, npkts;
};

static void tx_setup(struct tx *t, const struct cfg *k, u64 seed, u32 nrec)
{
	struct rng g = { seed ^ 0x5a5a };

	flow_make(&t->f, k, seed, nrec, 16384);
	cipher_init(&t->c, t->f.key, t->f.keylen);
	rxb_tls_rec_init(&t->r, &t_ops, &t->c, t->f.tls13, t->f.salt,
			 t->f.iv, t->f.rec_seq0, t->f.seq0);
	t->npkts = flow_cut(&t->f, &g, &t->offs);
}

static void tx_teardown(struct tx *t)
{
	free(t->offs);
	cipher_fini(&t->c);
	flow_free(&t->f);
}

/* Encrypt [@a, @b) of the flow as one packet, in step: must give the wire. */
static bool tx_pkt(struct tx *t, u32 a, u32 b)
{
	struct rxb_tls_tx_res res;
	u8 *p = dup_bytes(t->f.plain + a, b - a);
	int ret = rxb_tls_tx(&t->r, t->f.seq0 + a, p, b - a, &res);
	bool ok;

	ok = EXPECT_EQ(ret, 0) &&
	     EXPECT(!memcmp(p, t->f.wire + a, b - a),
		    "ciphertext of [%u, %u) differs", a, b) &&
	     EXPECT_EQ(res.records, ends_in(&t->f, a, b));
	free(p);
	return ok;
}

/* The whole flow in sequence; returns the records the NIC completed. */
static u32 tx_stream(struct tx *t)
{
	struct rxb_tls_tx_res res;
	u32 i, recs = 0, bad = 0;

	for (i = 0; i < t->npkts; i++) {
		u32 a = t->offs[i], b = t->offs[i + 1];
		u8 *p = dup_bytes(t->f.plain + a, b - a);
		int ret = rxb_tls_tx(&t->r, t->f.seq0 + a, p, b - a, &res);

		if (!EXPECT_EQ(ret, 0) ||
		    !EXPECT(!memcmp(p, t->f.wire + a, b - a),
			    "packet %u [%u, %u) differs from the reference",
			    i, a, b) ||
		    !EXPECT_EQ(res.records, ends_in(&t->f, a, b)))
			bad++;
		recs += res.records;
		free(p);
	}
	EXPECT_EQ(bad, 0);
	return recs;
}

static void test_tx_seq(const void __always_unused *arg)
{
	u32 k;

	for (k = 0; k < ARRAY_SIZE(cfgs); k++) {
		struct tx t;
		u32 recs;

		tx_setup(&t, &cfgs[k], 0x7100 + k, 160);
		recs = tx_stream(&t);
		EXPECT_EQ(recs, t.f.nrec);
		ktap_diag("%s: %u records, %u bytes, %u packets encrypted in step",
			  cfg_name(&cfgs[k]), t.f.nrec, t.f.total, t.npkts);
		ktap_diag("%s: all equal to OpenSSL's records; %u tags written",
			  cfg_name(&cfgs[k]), recs);
		tx_teardown(&t);
	}
}

/*
 * Retransmit [@a, @b): back to the start of the record holding @a, the
 * record's bytes before @a dumped in up to three pieces, then the packet
 * from a fresh plaintext copy; with @cont, the next bytes in sequence too.
 */
static bool tx_retransmit(struct tx *t, struct rng *g, u32 a, u32 b,
			  bool cont)
{
	u32 i = rec_of(&t->f, a), s = t->f.rs[i], pieces, cut1, cut2;
	bool ok = true;

	rxb_tls_tx_resync(&t->r, t->f.seq0 + s, t->f.rec_seq0 + i);
	pieces = rng_range(g, 1, 3);
	cut1 = pieces > 1 ? rng_range(g, s, a) : a;
	cut2 = pieces > 2 ? rng_range(g, cut1, a) : a;
	if (cut1 > s || a == s)
		ok &= EXPECT_EQ(rxb_tls_tx_dump(&t->r, t->f.seq0 + s,
						t->f.plain + s, cut1 - s), 0);
	if (cut2 > cut1)
		ok &= EXPECT_EQ(rxb_tls_tx_dump(&t->r, t->f.seq0 + cut1,
						t->f.plain + cut1, cut2 - cut1),
				0);
	if (a > cut2)
		ok &= EXPECT_EQ(rxb_tls_tx_dump(&t->r, t->f.seq0 + cut2,
						t->f.plain + cut2, a - cut2), 0);
	ok &= tx_pkt(t, a, b);
	if (cont && b < t->f.total)
		ok &= tx_pkt(t, b, min(b + pkt_size(g), t->f.total));
	return ok;
}

static void test_tx_retx(const void __always_unused *arg)
{
	u32 k, n;

	for (k = 0; k < ARRAY_SIZE(cfgs); k++) {
		struct rng g = { 0x7200 + k };
		u32 pre = rec_pre(cfgs[k].tls13), kinds[4] = {}, bad = 0;
		struct tx t;

		tx_setup(&t, &cfgs[k], 0x7200 + k, 120);
		EXPECT_EQ(tx_stream(&t), t.f.nrec);
		for (n = 0; n < 200; n++) {
			u32 kind = n % 4, a, b, i = rng_range(&g, 0, t.f.nrec - 1);
			u32 rs = t.f.rs[i], re = t.f.rs[i + 1];

			switch (kind) {
			case 0:	/* one of the original packets */
				a = rng_range(&g, 0, t.npkts - 1);
				b = t.offs[a + 1];
				a = t.offs[a];
				break;
			case 1:	/* from a record's start */
				a = rs;
				b = min(a + pkt_size(&g), t.f.total);
				break;
			case 2:	/* from inside the header (or nonce) */
				a = rs + rng_range(&g, 1, pre - 1);
				b = min(a + pkt_size(&g), t.f.total);
				break;
			default: /* from inside the tag */
				a = re - rng_range(&g, 1, RXB_TLS_TAG_LEN - 1);
				b = min(a + pkt_size(&g), t.f.total);
				break;
			}
			kinds[kind]++;
			if (!tx_retransmit(&t, &g, a, b, rng_pct(&g, 50)))
				bad++;
		}
		EXPECT_EQ(bad, 0);
		ktap_diag("%s: %u retransmissions rebuilt from dumps: %u differ",
			  cfg_name(&cfgs[k]), n, bad);
		ktap_diag("%s: %u original packets, %u from a record start,",
			  cfg_name(&cfgs[k]), kinds[0], kinds[1]);
		ktap_diag("%s: %u from inside a header, %u from inside a tag",
			  cfg_name(&cfgs[k]), kinds[2], kinds[3]);
		tx_teardown(&t);
	}
}

/* A header made impossible, at record @i's start in a copy of @t's flow. */
static void tx_bad_hdr(struct tx *t, u32 i, u32 how, u8 *p)
{
	u32 min_len = RXB_TLS_TAG_LEN + (t->f.tls13 ? 1 : RXB_TLS12_NONCE_LEN);
	u8 *h = p + t->f.rs[i];

	/* Not the content type: records of any type are walked (test_types). */
	switch (how) {
	case 0:
		h[2] = 1;	/* version 0x0301 */
		break;
	case 1:
		h[1] = 2;
		break;
	case 2:
		h[3] = (RXB_TLS_MAX_LEN + 1) >> 8;
		h[4] = (RXB_TLS_MAX_LEN + 1) & 0xff;
		break;
	case 3:
		h[3] = (min_len - 1) >> 8;
		h[4] = min_len - 1;
		break;
	default:
		h[3] = 0;
		h[4] = 0;
		break;
	}
}

static void test_tx_errors(const void __always_unused *arg)
{
	u32 k, how, checks = 0;

	for (k = 0; k < ARRAY_SIZE(cfgs); k++) {
		struct rxb_tls_tx_res res;
		struct tx t;
		u8 *p, *q;
		u32 a, b, i;
		int ret;

		tx_setup(&t, &cfgs[k], 0x7300 + k, 12);
		/* Out of sequence: refused, the buffer untouched. */
		a = t.f.rs[1] + 3;
		b = a + 100;
		p = dup_bytes(t.f.plain, t.f.total);
		EXPECT_EQ(rxb_tls_tx(&t.r, t.f.seq0 + 1, p, 100, &res), -EPROTO);
		EXPECT_EQ(rxb_tls_tx(&t.r, t.f.seq0 - 1, p, 100, &res), -EPROTO);
		EXPECT_EQ(rxb_tls_tx(&t.r, t.f.seq0 + a, p + a, b - a, &res),
			  -EPROTO);
		EXPECT_EQ(res.records, 0);
		EXPECT(!memcmp(p, t.f.plain, t.f.total), "buffer touched");
		EXPECT_EQ(rxb_tls_tx_dump(&t.r, t.f.seq0 + 7, p + 7, 10),
			  -EPROTO);
		checks += 4;
		/* Still in step at the start. */
		EXPECT(tx_pkt(&t, 0, t.f.rs[1] + 2));
		EXPECT(tx_pkt(&t, t.f.rs[1] + 2, t.f.rs[2]));
		/* Impossible headers at record 2, whole or split. */
		for (how = 0; how < 5; how++) {
			bool split = how & 1;

			free(p);
			p = dup_bytes(t.f.plain, t.f.total);
			tx_bad_hdr(&t, 2, how, p);
			i = t.f.rs[2];
			rxb_tls_tx_resync(&t.r, t.f.seq0 + i, t.f.rec_seq0 + 2);
			if (split) {
				EXPECT_EQ(rxb_tls_tx(&t.r, t.f.seq0 + i, p + i, 2,
						     &res), 0);
				i += 2;
			}
			ret = rxb_tls_tx(&t.r, t.f.seq0 + i, p + i, 30, &res);
			EXPECT(ret == -EBADMSG, "bad header %u, split %d: %d",
			       how, split, ret);
			/* Out of step until the next resync. */
			q = dup_bytes(t.f.plain + t.f.rs[3], 40);
			EXPECT_EQ(rxb_tls_tx(&t.r, t.r.next_seq, q, 40, &res),
				  -EBADMSG);
			free(q);
			checks += 2;
		}
		/* A bad header after a good record in the same packet. */
		free(p);
		p = dup_bytes(t.f.plain, t.f.total);
		tx_bad_hdr(&t, 4, 0, p);
		rxb_tls_tx_resync(&t.r, t.f.seq0 + t.f.rs[3], t.f.rec_seq0 + 3);
		i = t.f.rs[3];
		EXPECT_EQ(rxb_tls_tx(&t.r, t.f.seq0 + i, p + i,
				     t.f.rs[4] + 10 - i, &res), -EBADMSG);
		checks++;
		/* And back in step after a resync. */
		rxb_tls_tx_resync(&t.r, t.f.seq0 + t.f.rs[4], t.f.rec_seq0 + 4);
		EXPECT(tx_pkt(&t, t.f.rs[4], t.f.total));
		free(p);
		tx_teardown(&t);
	}
	ktap_diag("%u refusals checked over 4 ciphers:", checks);
	ktap_diag("-EPROTO out of sequence, buffer untouched;");
	ktap_diag("-EBADMSG on 5 kinds of impossible header, whole and split,");
	ktap_diag("and after a good record; out of step until resync");
}

/* ---- RX ---- */

struct rx {
	struct flow f;
	struct rxb_tls_cipher c;
	struct rxb_tls_rec r;
	u32 *offs, npkts;
};

static void rx_setup(struct rx *x, const struct cfg *k, u64 seed, u32 nrec)
{
	struct rng g = { seed ^ 0xa5a5 };

	flow_make(&x->f, k, seed, nrec, 16384);
	cipher_init(&x->c, x->f.key, x->f.keylen);
	rxb_tls_rec_init(&x->r, &t_ops, &x->c, x->f.tls13, x->f.salt,
			 x->f.iv, x->f.rec_seq0, x->f.seq0);
	x->npkts = flow_cut(&x->f, &g, &x->offs);
}

static void rx_teardown(struct rx *x)
{
	free(x->offs);
	cipher_fini(&x->c);
	flow_free(&x->f);
}

/* Cipher @k's flow from @seed received in sequence: all decrypted. */
static void rx_in_seq(const struct cfg *k, u64 seed)
{
	u32 recs = 0, dec = 0, bad = 0, i;
	struct rxb_tls_rx_res res;
	struct rx x;

	rx_setup(&x, k, seed, 160);
	for (i = 0; i < x.npkts; i++) {
		u32 a = x.offs[i], b = x.offs[i + 1];
		u8 *p = dup_bytes(x.f.wire + a, b - a);

		rxb_tls_rx(&x.r, x.f.seq0 + a, p, b - a, &res);
		if (!EXPECT(res.decrypted, "packet %u [%u, %u)", i, a, b) ||
		    !EXPECT(!memcmp(p, x.f.dec + a, b - a),
			    "packet %u [%u, %u) decrypted wrong", i, a, b) ||
		    !EXPECT_EQ(res.records, ends_in(&x.f, a, b)) ||
		    !EXPECT_EQ(res.auth_fail, 0) ||
		    !EXPECT(!res.lost && !res.resync))
			bad++;
		dec += res.decrypted;
		recs += res.records;
		free(p);
	}
	EXPECT_EQ(recs, x.f.nrec);
	ktap_diag("%s: %u packets in sequence: %u decrypted equal to the plaintext",
		  cfg_name(k), x.npkts, dec);
	ktap_diag("%s: %u records verified of %u", cfg_name(k), recs, x.f.nrec);
	rx_teardown(&x);
}

static void test_rx_seq(const void __always_unused *arg)
{
	u32 k;

	for (k = 0; k < ARRAY_SIZE(cfgs); k++)
		rx_in_seq(&cfgs[k], 0x8100 + k);
}

/*
 * Records of content types kTLS sends when an application names them
 * (TLS_SET_RECORD_TYPE; the kernel's tls selftest sends type 100), among
 * data records: encrypted on TX and decrypted on RX in step, like any.
 * TLS 1.2 only: TLS 1.3's outer type is always application data.
 */
static void test_types(const void __always_unused *arg)
{
	u32 k;

	odd_types = true;
	for (k = 0; k < ARRAY_SIZE(cfgs); k++) {
		struct tx t;

		if (cfgs[k].tls13)
			continue;
		tx_setup(&t, &cfgs[k], 0x7a00 + k, 160);
		EXPECT_EQ(tx_stream(&t), t.f.nrec);
		ktap_diag("%s: %u records of types 20-24, 100, 255 encrypted in step",
			  cfg_name(&cfgs[k]), t.f.nrec);
		tx_teardown(&t);
		rx_in_seq(&cfgs[k], 0x8a00 + k);
	}
	odd_types = false;
}

/*
 * One record corrupted on the wire (@kind 0: a tag byte, 1: a data byte,
 * 2: the header's content type, in the AAD): the packet holding its last
 * byte stays encrypted with auth_fail 1, every other packet is decrypted
 * (those of the record before its tag too, as upstream expects: software
 * re-encrypts the partly decrypted record and finds the error).
 */
static void rx_corrupt_one(const struct cfg *k, u32 kind, u64 seed)
{
	static const char *const what[] = { "tag byte", "data byte",
					    "content type" };
	struct rng g = { seed };
	u32 i, ri, pos, last, recs = 0, fails = 0, dec = 0, at_pkt = ~0U;
	struct rxb_tls_rx_res res;
	u8 *wire, *dec_exp;
	struct rx x;

	rx_setup(&x, k, seed, 60);
	ri = rng_range(&g, x.f.nrec / 3, 2 * x.f.nrec / 3);
	last = x.f.rs[ri + 1] - 1;
	wire = dup_bytes(x.f.wire, x.f.total);
	dec_exp = dup_bytes(x.f.dec, x.f.total);
	switch (kind) {
	case 0:
		pos = x.f.rs[ri + 1] - rng_range(&g, 1, RXB_TLS_TAG_LEN);
		break;
	case 1:
		pos = rng_range(&g, x.f.rs[ri] + rec_pre(k->tls13),
				x.f.rs[ri + 1] - RXB_TLS_TAG_LEN - 1);
		break;
	default:
		pos = x.f.rs[ri];
		break;
	}
	if (kind == 2) {
		u8 t = wire[pos] == 23 ? 22 : 23;

		wire[pos] = t;
		dec_exp[pos] = t;
	} else {
		u8 d = rng_range(&g, 1, 255);

		wire[pos] ^= d;
		dec_exp[pos] ^= d;
	}
	for (i = 0; i < x.npkts; i++) {
		u32 a = x.offs[i], b = x.offs[i + 1];
		bool here = a <= last && last < b;
		u8 *p = dup_bytes(wire + a, b - a);

		rxb_tls_rx(&x.r, x.f.seq0 + a, p, b - a, &res);
		if (here) {
			at_pkt = i;
			EXPECT(!res.decrypted, "packet %u holds the bad tag", i);
			EXPECT(!memcmp(p, wire + a, b - a),
			       "packet %u not left as it came", i);
			EXPECT_EQ(res.auth_fail, 1);
			EXPECT_EQ(res.records, ends_in(&x.f, a, b) - 1);
		} else {
			EXPECT(res.decrypted, "packet %u [%u, %u)", i, a, b);
			EXPECT(!memcmp(p, dec_exp + a, b - a),
			       "packet %u [%u, %u) decrypted wrong", i, a, b);
			EXPECT_EQ(res.auth_fail, 0);
			EXPECT_EQ(res.records, ends_in(&x.f, a, b));
		}
		EXPECT(!res.lost && !res.resync);
		dec += res.decrypted;
		recs += res.records;
		fails += res.auth_fail;
		free(p);
	}
	EXPECT_EQ(fails, 1);
	EXPECT_EQ(recs, x.f.nrec - 1);
	ktap_diag("%s: %s of record %u (byte %u) corrupted:",
		  cfg_name(k), what[kind], ri, pos);
	ktap_diag("%s: packet %u of %u (its tag's end) left encrypted with auth_fail %u;",
		  cfg_name(k), at_pkt, x.npkts, fails);
	ktap_diag("%s: %u packets decrypted, %u records verified",
		  cfg_name(k), dec, recs);
	free(wire);
	free(dec_exp);
	rx_teardown(&x);
}

static void test_rx_corrupt(const void __always_unused *arg)
{
	u32 k, kind;

	for (k = 0; k < ARRAY_SIZE(cfgs); k++)
		for (kind = 0; kind < 3; kind++)
			rx_corrupt_one(&cfgs[k], kind, 0x8200 + 16 * k + kind);
}

/*
 * The RX simulation: packets [off, off + len) of a flow in arrival order
 * (gaps, reordering, duplicates, overlaps), software's confirmations, and
 * a model of what the engine must do with each.
 */
struct arrival {
	u32 off, len;
};

enum { M_SYNC, M_SEARCH, M_TRACK };

struct rx_stats {
	u32 pkts, decrypted, gaps, skips, old, overlaps, resyncs, false_cands;
	u32 confirms, stale_refused, false_refused, resumes, records;
};

/* Software's answer for the header at @hdr: its record's number. */
static bool sim_confirm(struct rx *x, u32 hdr)
{
	return rxb_tls_rx_confirm(&x->r, x->f.seq0 + hdr,
				  x->f.rec_seq0 + rec_of(&x->f, hdr));
}

/*
 * Run @n arrivals through @x's engine.  @max_delay: confirmations come
 * 0..@max_delay packets after the request.  @strict: check the model
 * (else only the invariants: decrypted bytes equal the plaintext, others
 * are untouched).
 */
static void rx_sim(struct rx *x, const struct arrival *arr, u32 n,
		   struct rng *g, u32 max_delay, struct rx_stats *st)
{
	const struct flow *f = &x->f;
	u32 next = 0, mode = M_SYNC, pend_seq = 0, pend_due = 0, i, brk_end = 0;
	bool confirmed = false, pend = false, fuzzy = false, brk = false;
	struct rxb_tls_rx_res res;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < n; i++) {
		u32 off = arr[i].off, len = arr[i].len, end = off + len;
		u32 newstart, sstart, sync_from = ~0U, b;
		bool gap, kept = false, exp_dec = false, searching;
		u8 *p = dup_bytes(f->wire + off, len);

		st->pkts++;
		rxb_tls_rx(&x->r, f->seq0 + off, p, len, &res);
		if (res.decrypted) {
			st->decrypted++;
			EXPECT(!memcmp(p, f->dec + off, len),
			       "arrival %u [%u, %u) decrypted wrong", i, off,
			       end);
		} else {
			EXPECT(!memcmp(p, f->wire + off, len),
			       "arrival %u [%u, %u) not decrypted but changed",
			       i, off, end);
		}
		free(p);
		EXPECT_EQ(res.auth_fail, 0);
		st->records += res.records;

		if (end <= next) {
			/* Old bytes: up as they are, nothing changes. */
			st->old++;
			EXPECT(!res.decrypted && !res.lost && !res.resync &&
			       !res.records, "arrival %u: old bytes", i);
			goto confirm;
		}
		gap = off > next;
		if (gap && mode == M_SYNC &&
		    next - f->rs[rec_of(f, next)] >= RXB_TLS_HDR_LEN &&
		    boundary_from(f, next) >= off) {
			/* Fig. 3.7 (b): inside a record whose header was
			 * seen: in step again at the next header.
			 */
			st->gaps++;
			st->skips++;
			if (!fuzzy)
				EXPECT(res.skipped && !res.lost,
				       "arrival %u: gap in a record", i);
			brk = true;
			brk_end = boundary_from(f, next);
			newstart = off;
		} else if (gap && mode == M_TRACK && !fuzzy &&
			   !in_hdr(f, next) && boundary_from(f, next) >= off) {
			/* Tracking, the gap ends before the next tracked
			 * header: the candidate stands.
			 */
			st->gaps++;
			st->skips++;
			EXPECT(res.skipped && !res.lost,
			       "arrival %u: gap in a tracked record", i);
			kept = true;
			newstart = off;
		} else if (gap) {
			st->gaps++;
			if (!fuzzy) {
				EXPECT_EQ(res.lost, mode != M_SEARCH);
				EXPECT(!res.skipped, "arrival %u: a lost gap", i);
			}
			mode = M_SEARCH;
			confirmed = false;
			brk = false;
			newstart = off;
		} else {
			if (off < next)
				st->overlaps++;
			newstart = next;
		}
		next = end;
		searching = mode == M_SEARCH;
		/* Searching, the first header that ends in the new bytes. */
		sstart = max(off, newstart < RXB_TLS_HDR_LEN - 1 ? 0 :
				  newstart - (RXB_TLS_HDR_LEN - 1));
		if (mode == M_SYNC) {
			/* The rest of a broken record is only followed. */
			sync_from = brk ? max(newstart, brk_end) : newstart;
			exp_dec = sync_from == off;
			if (brk && brk_end <= end)
				brk = false;
		} else if (mode == M_TRACK && confirmed) {
			b = boundary_from(f, newstart);
			if (b < end) {
				mode = M_SYNC;
				st->resumes++;
				sync_from = b;
				exp_dec = b == off;
			}
		}
		if (res.resync) {
			u32 cand = res.resync_seq - f->seq0;

			st->resyncs++;
			EXPECT(searching || fuzzy,
			       "arrival %u: resync request while not searching",
			       i);
			EXPECT(cand >= sstart && cand + RXB_TLS_HDR_LEN <= end,
			       "arrival %u: candidate %u outside [%u, %u)", i,
			       cand, sstart, end);
			if (!is_hdr(f, cand)) {
				/* The pattern matched ciphertext: software
				 * never confirms it.
				 */
				const u8 *h = f->wire + cand;

				st->false_cands++;
				fuzzy = true;
				EXPECT(h[0] >= 21 && h[0] <= 23 && h[1] == 3 &&
				       h[2] == 3, "arrival %u: candidate %u is no header",
				       i, cand);
				mode = M_TRACK;
				confirmed = false;
				pend = false;
			} else {
				/* The first header wholly in the packet and
				 * ending in its new bytes.
				 */
				b = boundary_from(f, sstart);
				EXPECT(fuzzy || cand == b,
				       "arrival %u: candidate %u, first header %u",
				       i, cand, b);
				if (pend) {
					EXPECT(!sim_confirm(x, pend_seq));
					st->stale_refused++;
				}
				mode = M_TRACK;
				confirmed = false;
				pend = true;
				pend_seq = cand;
				pend_due = rng_range(g, 0, max_delay);
				/* A wrong header is refused. */
				EXPECT(!rxb_tls_rx_confirm(&x->r,
							   res.resync_seq + rng_range(g, 1, 5),
							   f->rec_seq0 + rec_of(f, cand)));
				EXPECT(!rxb_tls_rx_confirm(&x->r,
							   res.resync_seq - rng_range(g, 1, 5),
							   f->rec_seq0 + rec_of(f, cand)));
				st->false_refused += 2;
			}
		} else if (searching && !fuzzy) {
			/* Liveness: a whole header in the packet, ending in
			 * its new bytes, is found.
			 */
			b = boundary_from(f, sstart);
			EXPECT(b + RXB_TLS_HDR_LEN > end,
			       "arrival %u [%u, %u): header at %u not found",
			       i, off, end, b);
		}
		if (gap && !kept && pend) {
			/* Asked before the gap: stale now. */
			if (!res.resync || pend_seq != res.resync_seq - f->seq0) {
				EXPECT(!sim_confirm(x, pend_seq));
				st->stale_refused++;
				pend = false;
			}
		}
		if (!fuzzy) {
			EXPECT_EQ(res.decrypted, exp_dec);
			if (!res.decrypted && exp_dec)
				ktap_diag("arrival %u [%u, %u) next %u", i, off,
					  end, newstart);
			EXPECT_EQ(res.records, sync_from == ~0U ? 0 :
				  ends_in(f, sync_from, end));
			if (!gap)
				EXPECT(!res.lost && !res.skipped,
				       "arrival %u: lost in step", i);
		}
confirm:
		if (pend) {
			if (!pend_due) {
				EXPECT(sim_confirm(x, pend_seq),
				       "arrival %u: confirmation of %u refused",
				       i, pend_seq);
				st->confirms++;
				confirmed = true;
				pend = false;
			} else {
				pend_due--;
			}
		}
		if (mode == M_SYNC && rng_pct(g, 2)) {
			/* Nothing to confirm in step. */
			EXPECT(!rxb_tls_rx_confirm(&x->r, f->seq0 + boundary_from(f, next),
						   f->rec_seq0));
			st->false_refused++;
		}
	}
}

static void rx_sim_diag(const struct cfg *k, const char *what,
			const struct rx *x, const struct rx_stats *st)
{
	ktap_diag("%s: %s: %u of %u packets arrived (%u gaps, %u in a record,",
		  cfg_name(k), what, st->pkts, x->npkts, st->gaps, st->skips);
	ktap_diag("%s: %s: %u old, %u overlapping);", cfg_name(k), what,
		  st->old, st->overlaps);
	ktap_diag("%s: %s: %u decrypted; %u resync requests (all true headers but %u),",
		  cfg_name(k), what, st->decrypted, st->resyncs,
		  st->false_cands);
	ktap_diag("%s: %s: %u confirmed, %u resumed; %u stale and %u false confirmations refused;",
		  cfg_name(k), what, st->confirms, st->resumes,
		  st->stale_refused, st->false_refused);
	ktap_diag("%s: %s: %u of %u records verified by the NIC",
		  cfg_name(k), what, st->records, x->f.nrec);
}

/* Drop 1-5 % of the packets. */
static u32 arrivals_loss(const struct rx *x, struct rng *g,
			 struct arrival *arr, u32 *pct)
{
	u32 i, n = 0;

	*pct = rng_range(g, 1, 5);
	for (i = 0; i < x->npkts; i++) {
		/* At least one gap, with most of the flow after it. */
		if (i == x->npkts / 3 || (i && rng_pct(g, *pct)))
			continue;
		arr[n].off = x->offs[i];
		arr[n].len = x->offs[i + 1] - x->offs[i];
		n++;
	}
	return n;
}

static void rx_loss_one(const struct cfg *k, u64 seed, u32 nrec, bool quiet)
{
	struct rng g = { seed * 31 };
	struct rx_stats st;
	struct arrival *arr;
	char what[32];
	struct rx x;
	u32 n, pct;

	rx_setup(&x, k, seed, nrec);
	arr = xmalloc(x.npkts * sizeof(*arr));
	n = arrivals_loss(&x, &g, arr, &pct);
	rx_sim(&x, arr, n, &g, 3, &st);
	/* A gap inside a record keeps the engine in step (Fig. 3.7 (b));
	 * any other is recovered through software's confirmation.
	 */
	EXPECT(st.gaps > 0 &&
	       (st.skips == st.gaps || (st.confirms > 0 && st.resumes > 0)),
	       "gaps %u (%u in a record) confirms %u resumes %u", st.gaps,
	       st.skips, st.confirms, st.resumes);
	if (!quiet) {
		snprintf(what, sizeof(what), "%u %% loss", pct);
		rx_sim_diag(k, what, &x, &st);
	}
	free(arr);
	rx_teardown(&x);
}

static void test_rx_loss(const void __always_unused *arg)
{
	u32 k;

	for (k = 0; k < ARRAY_SIZE(cfgs); k++)
		rx_loss_one(&cfgs[k], 0x8300 + k, 200, false);
}

/*
 * Neighbours swapped, packets repeated (at once or a few packets later)
 * and packets sent again with other boundaries (overlapping old bytes).
 */
static u32 arrivals_reorder(const struct rx *x, struct rng *g,
			    struct arrival *arr)
{
	u32 i, n = 0, m = x->npkts, back, more;

	for (i = 0; i < m; i++) {
		struct arrival a = { x->offs[i], x->offs[i + 1] - x->offs[i] };

		if (i + 1 < m && rng_pct(g, 3)) {
			arr[n].off = x->offs[i + 1];
			arr[n].len = x->offs[i + 2] - x->offs[i + 1];
			n++;
			arr[n++] = a;
			i++;
			continue;
		}
		arr[n++] = a;
		if (rng_pct(g, 2))
			arr[n++] = a;	/* at once */
		if (n > 3 && rng_pct(g, 2)) {
			arr[n] = arr[n - rng_range(g, 2, 3)];	/* later */
			n++;
		}
		if (!i || !rng_pct(g, 2))
			continue;
		/* Sent again from some bytes back, with some of the next
		 * packet's bytes; then the rest of the next packet.
		 */
		back = min(rng_range(g, 1, 3000), a.off);
		arr[n].off = a.off - back;
		arr[n].len = a.off + a.len - arr[n].off;
		if (i + 1 < m) {
			more = rng_range(g, 1, x->offs[i + 2] - x->offs[i + 1]);
			arr[n].len += more;
			n++;
			arr[n].off = x->offs[i + 1] + more;
			arr[n].len = x->offs[i + 2] - arr[n].off;
			if (arr[n].len)
				n++;
			i++;
		} else {
			n++;
		}
	}
	return n;
}

static void test_rx_reorder(const void __always_unused *arg)
{
	u32 k, n;

	for (k = 0; k < ARRAY_SIZE(cfgs); k++) {
		struct rng g = { 0x8400 + k };
		struct rx_stats st;
		struct arrival *arr;
		struct rx x;

		rx_setup(&x, &cfgs[k], 0x8400 + k, 200);
		arr = xmalloc(5 * x.npkts * sizeof(*arr));
		n = arrivals_reorder(&x, &g, arr);
		rx_sim(&x, arr, n, &g, 2, &st);
		EXPECT(st.gaps > 0 && st.old > 0 && st.overlaps > 0 &&
		       st.confirms > 0 && st.resumes > 0,
		       "gaps %u old %u overlaps %u confirms %u resumes %u",
		       st.gaps, st.old, st.overlaps, st.confirms, st.resumes);
		rx_sim_diag(&cfgs[k], "reordered, duplicated, overlapping", &x,
			    &st);
		free(arr);
		rx_teardown(&x);
	}
}

/*
 * The search's rules, on records of 200 data bytes (TLS 1.2, 229 bytes on
 * the wire) with fake headers planted in ciphertext: a candidate whose
 * next header lies in the same packet and fails is no candidate; after a
 * false candidate (never confirmed) the tracked lengths meet a bad header,
 * whole or split by a packet boundary, and the search goes on right after
 * it in the same packet; a confirmation while a tracked header is split
 * resumes only at the boundary after that header.
 */
struct srch {
	struct rx x;
	u8 *w;			/* the wire, with the planted bytes */
};

static void srch_setup(struct srch *s, u64 seed)
{
	memset(s, 0, sizeof(*s));
	flow_make_sized(&s->x.f, &cfgs[0], seed, 16, 200, true, 0);
	cipher_init(&s->x.c, s->x.f.key, s->x.f.keylen);
	rxb_tls_rec_init(&s->x.r, &t_ops, &s->x.c, false, s->x.f.salt,
			 s->x.f.iv, s->x.f.rec_seq0, s->x.f.seq0);
	s->w = dup_bytes(s->x.f.wire, s->x.f.total);
}

static void srch_teardown(struct srch *s)
{
	free(s->w);
	flow_free(&s->x.f);
	cipher_fini(&s->x.c);
}

/* A fake header at @o with length field @l; zeros where it says the next
 * one is (an impossible header).
 */
static void srch_plant(struct srch *s, u32 o, u32 l)
{
	u8 *h = s->w + o;

	h[0] = 23;
	h[1] = 3;
	h[2] = 3;
	h[3] = l >> 8;
	h[4] = l & 0xff;
	memset(s->w + o + RXB_TLS_HDR_LEN + l, 0, RXB_TLS_HDR_LEN);
}

/* Receive [@a, @b) of the planted wire; check it against @dec_exp. */
static void srch_rx(struct srch *s, u32 a, u32 b, bool dec_exp,
		    struct rxb_tls_rx_res *res)
{
	u8 *p = dup_bytes(s->w + a, b - a);

	rxb_tls_rx(&s->x.r, s->x.f.seq0 + a, p, b - a, res);
	EXPECT_EQ(res->decrypted, dec_exp);
	EXPECT(!memcmp(p, (res->decrypted ? s->x.f.dec : s->w) + a, b - a),
	       "[%u, %u)", a, b);
	EXPECT_EQ(res->auth_fail, 0);
	free(p);
}

static void test_rx_search(const void __always_unused *arg)
{
	struct rxb_tls_rx_res res;
	struct rx_stats st;
	struct srch s;
	const u32 *rs;
	u32 o, cand;

	/* The candidate's next header, in the packet, fails: no candidate;
	 * the true header between the two is found.  The async resync's
	 * progress answer (rxb_tls_rx_candidate()) names it until it is
	 * confirmed, and nothing once it is.
	 */
	srch_setup(&s, 0x8500);
	rs = s.x.f.rs;
	o = rs[5] - 30;
	srch_plant(&s, o, 40);
	EXPECT(!rxb_tls_rx_candidate(&s.x.r, &cand), "in step: no candidate");
	srch_rx(&s, o, rs[5] + 60, false, &res);
	EXPECT(res.lost && res.resync);
	EXPECT_EQ(res.resync_seq - s.x.f.seq0, rs[5]);
	EXPECT(rxb_tls_rx_candidate(&s.x.r, &cand) && cand == res.resync_seq,
	       "progress: the candidate");
	EXPECT(rxb_tls_rx_confirm(&s.x.r, s.x.f.seq0 + rs[5],
				  s.x.f.rec_seq0 + 5));
	EXPECT(!rxb_tls_rx_candidate(&s.x.r, &cand), "confirmed: no candidate");
	srch_rx(&s, rs[5] + 60, rs[7], false, &res);
	EXPECT_EQ(res.records, 1);
	srch_rx(&s, rs[7], rs[9] + 7, true, &res);
	EXPECT_EQ(res.records, 2);
	srch_teardown(&s);

	/* A false candidate whose next header lies in the next packet and
	 * fails there: lost, and the true header after it in that packet
	 * is found.
	 */
	srch_setup(&s, 0x8501);
	rs = s.x.f.rs;
	o = rs[5] - 100;
	srch_plant(&s, o, 200);
	srch_rx(&s, o, rs[5] + 60, false, &res);
	EXPECT(res.resync && res.resync_seq == s.x.f.seq0 + o,
	       "candidate %u, planted %u", res.resync_seq - s.x.f.seq0, o);
	srch_rx(&s, rs[5] + 60, rs[6] + 30, false, &res);
	EXPECT(res.lost, "the bad tracked header");
	EXPECT(res.resync && res.resync_seq == s.x.f.seq0 + rs[6],
	       "candidate %u, header %u", res.resync_seq - s.x.f.seq0, rs[6]);
	EXPECT(rxb_tls_rx_candidate(&s.x.r, &cand) &&
	       cand == s.x.f.seq0 + rs[6], "progress: the new candidate");
	EXPECT(!rxb_tls_rx_confirm(&s.x.r, s.x.f.seq0 + o, s.x.f.rec_seq0));
	EXPECT(rxb_tls_rx_confirm(&s.x.r, s.x.f.seq0 + rs[6],
				  s.x.f.rec_seq0 + 6));
	srch_rx(&s, rs[6] + 30, rs[8], false, &res);
	srch_rx(&s, rs[8], rs[9] + 100, true, &res);
	srch_teardown(&s);

	/* The same with the bad tracked header split by the packets'
	 * boundary (two bytes in the first): the search goes on in the
	 * second.
	 */
	srch_setup(&s, 0x8502);
	rs = s.x.f.rs;
	o = rs[5] - 100;
	srch_plant(&s, o, rs[5] - 22 - o - RXB_TLS_HDR_LEN);
	srch_rx(&s, o, rs[5] - 20, false, &res);
	EXPECT(res.resync && res.resync_seq == s.x.f.seq0 + o,
	       "candidate %u, planted %u", res.resync_seq - s.x.f.seq0, o);
	srch_rx(&s, rs[5] - 20, rs[5] + 100, false, &res);
	EXPECT(res.lost, "the bad tracked header");
	EXPECT(res.resync && res.resync_seq == s.x.f.seq0 + rs[5],
	       "split bad header: candidate %u (resync %d), header %u",
	       res.resync_seq - s.x.f.seq0, res.resync, rs[5]);
	srch_teardown(&s);

	/* Searching, a partly old packet (a spurious retransmission) holds
	 * a whole header in its old bytes, rs[5], split between two earlier
	 * packets: software has parsed it (the lost bytes before it came
	 * again), so it would never confirm it and the engine would track,
	 * unconfirmed, until the next loss.  The candidate must be the
	 * first header ending in the new bytes, rs[6].
	 */
	srch_setup(&s, 0x8504);
	rs = s.x.f.rs;
	srch_rx(&s, 0, rs[2], true, &res);
	srch_rx(&s, rs[4] + 10, rs[5] - 50, false, &res);	/* a gap */
	EXPECT(res.lost && !res.resync);
	srch_rx(&s, rs[5] - 50, rs[5] + 2, false, &res);
	EXPECT(!res.resync);
	srch_rx(&s, rs[5] + 2, rs[5] + 100, false, &res);
	EXPECT(!res.resync);
	srch_rx(&s, rs[2], rs[4] + 10, false, &res);		/* old */
	srch_rx(&s, rs[5] - 10, rs[6] + 50, false, &res);
	EXPECT(res.resync && res.resync_seq == s.x.f.seq0 + rs[6],
	       "old bytes searched: candidate %u (resync %d), want %u",
	       res.resync_seq - s.x.f.seq0, res.resync, rs[6]);
	EXPECT(rxb_tls_rx_confirm(&s.x.r, s.x.f.seq0 + rs[6],
				  s.x.f.rec_seq0 + 6));
	srch_rx(&s, rs[6] + 50, rs[7] + 20, false, &res);
	srch_rx(&s, rs[7] + 20, rs[9], true, &res);
	/* And a header that straddles the old and the new bytes is found
	 * (software cannot have parsed it yet).
	 */
	srch_rx(&s, rs[11] + 10, rs[12], false, &res);		/* a gap */
	EXPECT(res.lost && !res.resync);
	srch_rx(&s, rs[12], rs[12] + 2, false, &res);
	srch_rx(&s, rs[12] + 2, rs[13] + 2, false, &res);
	EXPECT(!res.resync);
	srch_rx(&s, rs[13] - 30, rs[13] + 40, false, &res);
	EXPECT(res.resync && res.resync_seq == s.x.f.seq0 + rs[13],
	       "straddling header: candidate %u (resync %d), want %u",
	       res.resync_seq - s.x.f.seq0, res.resync, rs[13]);
	srch_teardown(&s);

	/* Confirmed while the tracked header rs[5] is split (two bytes in
	 * the packet before): resume at rs[6], not inside rs[5]'s header.
	 */
	srch_setup(&s, 0x8503);
	rs = s.x.f.rs;
	{
		struct rng g = { 1 };
		const struct arrival arr[] = {
			{ 0, rs[2] },
			{ rs[3] + 50, rs[5] + 2 - rs[3] - 50 },
			{ rs[5] + 2, rs[6] + 10 - rs[5] - 2 },
			{ rs[6] + 10, rs[8] - rs[6] - 10 },
			{ rs[8], rs[9] - rs[8] },
			{ rs[9], RXB_TLS_HDR_LEN - 1 },
			{ rs[9] + RXB_TLS_HDR_LEN - 1, rs[12] - rs[9] -
			  RXB_TLS_HDR_LEN + 1 },
		};

		rx_sim(&s.x, arr, ARRAY_SIZE(arr), &g, 0, &st);
		EXPECT_EQ(st.confirms, 1);
		EXPECT_EQ(st.resumes, 1);
		EXPECT_EQ(st.decrypted, 5);
	}
	srch_teardown(&s);
	ktap_diag("planted headers: a candidate whose next header fails is skipped;");
	ktap_diag("after a false candidate the bad tracked header, whole or split,");
	ktap_diag("is followed by the true one in the same packet;");
	ktap_diag("a confirmation during a split header resumes after it");
}

/*
 * Fig. 3.7 (b), on records of 200 data bytes (229 on the wire): a gap
 * inside a record, whose length the engine knows, does not lose it: no
 * resync request; that record is neither verified nor decrypted, the
 * packet with the next header is not decrypted unless it starts with it,
 * and the records after are, with no word from software.  A gap that
 * takes a header loses the engine (Fig. 3.6).
 */
static void test_rx_gap(const void __always_unused *arg)
{
	struct rxb_tls_rx_res res;
	struct srch s;
	const u32 *rs;

	srch_setup(&s, 0x8600);
	rs = s.x.f.rs;
	/* Bytes 100-149 of record 0 lost; record 1's header mid-packet. */
	srch_rx(&s, 0, 100, true, &res);
	srch_rx(&s, 150, rs[1] + 50, false, &res);
	EXPECT(res.skipped && !res.lost && !res.resync);
	EXPECT_EQ(res.records, 0);
	srch_rx(&s, rs[1] + 50, rs[3], true, &res);
	EXPECT(!res.skipped && !res.lost);
	EXPECT_EQ(res.records, 2);
	/* A gap up to the next header: the packet starts in step. */
	srch_rx(&s, rs[3], rs[3] + 100, true, &res);
	srch_rx(&s, rs[4], rs[5], true, &res);
	EXPECT(res.skipped && !res.resync);
	EXPECT_EQ(res.records, 1);
	/* Two gaps in one record. */
	srch_rx(&s, rs[5], rs[5] + 50, true, &res);
	srch_rx(&s, rs[5] + 60, rs[5] + 100, false, &res);
	EXPECT(res.skipped && !res.resync);
	srch_rx(&s, rs[5] + 110, rs[6] + 40, false, &res);
	EXPECT(res.skipped && !res.resync);
	srch_rx(&s, rs[6] + 40, rs[8], true, &res);
	EXPECT_EQ(res.records, 2);
	/* A gap that takes record 9's header: lost, searching; the next
	 * header is a candidate.
	 */
	srch_rx(&s, rs[8], rs[8] + 100, true, &res);
	srch_rx(&s, rs[9] + 3, rs[10] + 50, false, &res);
	EXPECT(res.lost && !res.skipped && res.resync);
	EXPECT_EQ(res.resync_seq - s.x.f.seq0, rs[10]);
	/* Tracking from it, a gap inside a tracked record (and one up to
	 * the next tracked header) keeps the candidate: its confirmation
	 * is taken and the engine resumes at the next header.
	 */
	srch_rx(&s, rs[10] + 100, rs[11] + 20, false, &res);
	EXPECT(res.skipped && !res.lost && !res.resync);
	srch_rx(&s, rs[12], rs[12] + 30, false, &res);
	EXPECT(res.skipped && !res.lost && !res.resync);
	EXPECT(rxb_tls_rx_confirm(&s.x.r, s.x.f.seq0 + rs[10],
				  s.x.f.rec_seq0 + 10));
	srch_rx(&s, rs[12] + 30, rs[13] + 10, false, &res);
	EXPECT(!res.skipped && !res.lost);
	srch_rx(&s, rs[13] + 10, rs[14], true, &res);
	EXPECT_EQ(res.records, 1);
	srch_teardown(&s);

	/* Tracking, a gap that takes a byte of the next tracked header, or
	 * the rest of one split by a packet boundary: lost, searching.
	 */
	srch_setup(&s, 0x8601);
	rs = s.x.f.rs;
	srch_rx(&s, 0, 100, true, &res);
	srch_rx(&s, rs[1] + 3, rs[2] + 50, false, &res);
	EXPECT(res.lost && res.resync);
	EXPECT_EQ(res.resync_seq - s.x.f.seq0, rs[2]);
	srch_rx(&s, rs[3] + 1, rs[3] + 100, false, &res);
	EXPECT(res.lost && !res.skipped && !res.resync);
	srch_rx(&s, rs[3] + 100, rs[5] + 2, false, &res);
	EXPECT(!res.lost && res.resync);
	EXPECT_EQ(res.resync_seq - s.x.f.seq0, rs[4]);
	srch_rx(&s, rs[5] + 10, rs[6] + 50, false, &res);
	EXPECT(res.lost && !res.skipped && res.resync);
	EXPECT_EQ(res.resync_seq - s.x.f.seq0, rs[6]);
	srch_teardown(&s);
}

/* ---- threads: one engine per flow, flows on several threads ---- */

#define NTHREADS	4

static void *thread_fn(void *arg)
{
	u64 id = (uintptr_t)arg;
	u32 k, round;

	for (round = 0; round < 2; round++) {
		for (k = 0; k < ARRAY_SIZE(cfgs); k++) {
			u64 seed = 0x9000 + 64 * id + 8 * round + k;
			struct rng g = { seed };
			struct tx t;
			u32 n, a;

			tx_setup(&t, &cfgs[k], seed, 40);
			EXPECT_EQ(tx_stream(&t), t.f.nrec);
			for (n = 0; n < 10; n++) {
				a = rng_range(&g, 0, t.f.total - 1);
				EXPECT(tx_retransmit(&t, &g, a,
						     min(a + pkt_size(&g),
							 t.f.total), true));
			}
			tx_teardown(&t);
			rx_loss_one(&cfgs[k], 0x9800 + 64 * id + 8 * round + k,
				    60, true);
		}
	}
	return NULL;
}

static void test_threads(const void __always_unused *arg)
{
	pthread_t t[NTHREADS];
	uintptr_t i;

	for (i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, thread_fn, (void *)i);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	ktap_diag("%d threads, each 2 x 4 ciphers x (TX in sequence and 10 retransmissions,",
		  NTHREADS);
	ktap_diag("RX with loss) on its own flows' engines");
}

/* ---- fuzz ---- */

/* Random bytes, with plausible headers planted here and there. */
static void fuzz_bytes(struct rng *g, u8 *p, u32 len)
{
	u32 i, n;

	rng_bytes(g, p, len);
	n = rng_range(g, 0, 4);
	while (n-- && len >= RXB_TLS_HDR_LEN) {
		u32 l = rng_pct(g, 70) ? rng_range(g, 0, RXB_TLS_MAX_LEN + 10) :
					 rng_range(g, 0, 400);

		i = rng_range(g, 0, len - RXB_TLS_HDR_LEN);
		p[i] = rng_range(g, 20, 24);
		p[i + 1] = 3;
		p[i + 2] = rng_pct(g, 90) ? 3 : rng_range(g, 0, 4);
		p[i + 3] = l >> 8;
		p[i + 4] = l;
	}
}

static u32 fuzz_len(struct rng *g)
{
	switch (rng_next(g) % 6) {
	case 0:
		return rng_range(g, 0, 8);
	case 1:
		return rng_range(g, 0, 64);
	case 2:
		return rng_range(g, 0, 20000);
	default:
		return rng_range(g, 1, 2000);
	}
}

static u32 fuzz_seq(struct rng *g, u32 next)
{
	switch (rng_next(g) % 5) {
	case 0:
		return rng_next(g);
	case 1:
		return next + rng_range(g, 0, 40000) - 20000;
	default:
		return next;
	}
}

/* Engine invariants that must hold whatever it is fed. */
static bool fuzz_sane(const struct rxb_tls_rec *r)
{
	return EXPECT(r->mode <= RXB_TLS_TRACK) &&
	       EXPECT(r->track_off <= RXB_TLS_HDR_LEN) &&
	       EXPECT(r->len <= RXB_TLS_HDR_LEN + RXB_TLS_MAX_LEN) &&
	       EXPECT(r->off <= max_t(u32, r->len, RXB_TLS_HDR_LEN +
					    RXB_TLS12_NONCE_LEN));
}

struct fuzz_stats {
	u32 ops, decrypted, resyncs, confirmed, auth_fail, tx_pkts, retx;
	u32 modelled;
};

/* Random garbage into an RX and a TX engine. */
static void fuzz_garbage(struct rng *g, struct fuzz_stats *fs)
{
	const struct cfg *k = &cfgs[rng_range(g, 0, 3)];
	u8 key[32], salt[4], iv[8], *p, *q;
	struct rxb_tls_rec rx, tx;
	struct rxb_tls_cipher crx, ctx;
	struct rxb_tls_rx_res res;
	struct rxb_tls_tx_res tres;
	u32 i, len, seq, last_cand = 0;
	int ret;

	rng_bytes(g, key, sizeof(key));
	rng_bytes(g, salt, sizeof(salt));
	rng_bytes(g, iv, sizeof(iv));
	/* Each engine its own cipher state (the GHASH runs across calls). */
	cipher_init(&crx, key, k->keylen);
	cipher_init(&ctx, key, k->keylen);
	seq = rng_next(g);
	rxb_tls_rec_init(&rx, &t_ops, &crx, k->tls13, salt, iv, rng_next(g),
			 seq);
	rxb_tls_rec_init(&tx, &t_ops, &ctx, k->tls13, salt, iv, rng_next(g),
			 seq);
	for (i = 0; i < 100; i++, fs->ops++) {
		switch (rng_next(g) % 8) {
		case 0:
			fs->confirmed += rxb_tls_rx_confirm(&rx, rng_pct(g, 70) ?
							    last_cand : rng_next(g),
							    rng_next(g));
			break;
		case 1:
		case 2:
			len = fuzz_len(g);
			p = xmalloc(len);
			fuzz_bytes(g, p, len);
			q = dup_bytes(p, len);
			ret = rxb_tls_tx(&tx, fuzz_seq(g, tx.next_seq), p, len,
					 &tres);
			if (ret == -EPROTO)
				EXPECT(!memcmp(p, q, len));
			else
				EXPECT(!ret || ret == -EBADMSG, "%d", ret);
			free(p);
			free(q);
			break;
		case 3:
			if (rng_pct(g, 50)) {
				rxb_tls_tx_resync(&tx, fuzz_seq(g, tx.next_seq),
						  rng_next(g));
				break;
			}
			len = fuzz_len(g);
			p = xmalloc(len);
			fuzz_bytes(g, p, len);
			ret = rxb_tls_tx_dump(&tx, fuzz_seq(g, tx.next_seq), p,
					      len);
			EXPECT(!ret || ret == -EBADMSG || ret == -EPROTO);
			free(p);
			break;
		default:
			len = fuzz_len(g);
			p = xmalloc(len);
			fuzz_bytes(g, p, len);
			q = dup_bytes(p, len);
			rxb_tls_rx(&rx, fuzz_seq(g, rx.next_seq), p, len, &res);
			if (!res.decrypted)
				EXPECT(!memcmp(p, q, len),
				       "a packet not decrypted was changed");
			if (res.resync)
				last_cand = res.resync_seq;
			fs->decrypted += res.decrypted;
			fs->resyncs += res.resync;
			fs->auth_fail += res.auth_fail;
			free(p);
			free(q);
			break;
		}
		fuzz_sane(&rx);
		fuzz_sane(&tx);
	}
	cipher_fini(&crx);
	cipher_fini(&ctx);
}

/*
 * TX over @x's flow: in sequence in random packets, with retransmissions
 * (of any range, the dump in several pieces) now and then; every packet
 * must give the wire's bytes.
 */
static void fuzz_tx(struct rx *x, struct rng *g, struct fuzz_stats *fs)
{
	struct tx t = { .f = x->f };
	u32 o = 0, e, a;

	cipher_init(&t.c, t.f.key, t.f.keylen);
	rxb_tls_rec_init(&t.r, &t_ops, &t.c, t.f.tls13, t.f.salt, t.f.iv,
			 t.f.rec_seq0, t.f.seq0);
	while (o < t.f.total && ktap_failures() < 5) {
		e = min(o + (rng_pct(g, 50) ? rng_range(g, 1, 64) :
			     pkt_size(g)), t.f.total);
		if (rng_pct(g, 15)) {
			a = rng_range(g, 0, o);
			tx_retransmit(&t, g, a, min(a + pkt_size(g), t.f.total),
				      false);
			fs->retx++;
			/* Back to where the stream was. */
			tx_retransmit(&t, g, o, e, false);
		} else {
			tx_pkt(&t, o, e);
		}
		fs->tx_pkts++;
		o = e;
	}
	cipher_fini(&t.c);
}

/*
 * A real flow mutated: random cuts, loss, reordering, duplicates and
 * overlaps, random confirmations (true ones with the right record number,
 * false ones), sometimes flipped bytes.  Without flips every decrypted
 * packet must hold the plaintext and no tag may fail.
 */
static void fuzz_flow(struct rng *g, struct fuzz_stats *fs)
{
	const struct cfg *k = &cfgs[rng_range(g, 0, 3)];
	bool flips = rng_pct(g, 30);
	u32 i, n, cur, last_cand = 0, have_cand = 0;
	struct rxb_tls_rx_res res;
	struct arrival *arr;
	struct rx x;
	u8 *wire;

	/* Small records too: a random bound on the data's size. */
	flow_make_sized(&x.f, k, rng_next(g), rng_range(g, 2, 40),
			rng_pct(g, 50) ? rng_range(g, 1, 100) : 16384, false,
			rng_pct(g, 30) ? 20 : 0);
	cipher_init(&x.c, x.f.key, x.f.keylen);
	rxb_tls_rec_init(&x.r, &t_ops, &x.c, x.f.tls13, x.f.salt, x.f.iv,
			 x.f.rec_seq0, x.f.seq0);
	x.npkts = flow_cut(&x.f, g, &x.offs);
	wire = dup_bytes(x.f.wire, x.f.total);
	if (flips)
		for (i = rng_range(g, 1, 4); i--;)
			wire[rng_range(g, 0, x.f.total - 1)] ^= rng_range(g, 1, 255);
	/* Mostly in order; 5 % each lost, an old one again, a swap. */
	arr = xmalloc((2 * x.npkts + 2) * sizeof(*arr));
	for (n = 0, cur = 0; cur < x.npkts;) {
		u32 a = cur, r = rng_next(g) % 20;

		if (r == 0) {
			cur++;
			continue;
		}
		if (r == 1) {
			a = rng_range(g, 0, cur);
		} else if (r == 2 && cur + 1 < x.npkts) {
			arr[n].off = x.offs[cur + 1];
			arr[n].len = x.offs[cur + 2] - x.offs[cur + 1];
			n++;
			cur++;
		} else {
			cur++;
		}
		arr[n].off = x.offs[a];
		arr[n].len = x.offs[a + 1] - x.offs[a];
		if (rng_pct(g, 10)) {
			/* Sent again with other boundaries. */
			u32 e = min(arr[n].off + arr[n].len +
				    rng_range(g, 0, 3000), x.f.total);

			arr[n].off -= min(arr[n].off, rng_range(g, 0, 3000));
			arr[n].len = e - arr[n].off;
		}
		n++;
	}
	if (!flips && rng_pct(g, 50)) {
		/* The model's checks on random arrivals. */
		struct rx_stats st;

		rx_sim(&x, arr, n, g, rng_range(g, 0, 4), &st);
		fs->ops += st.pkts;
		fs->decrypted += st.decrypted;
		fs->resyncs += st.resyncs;
		fs->confirmed += st.confirms;
		fs->modelled++;
		n = 0;
	}
	for (i = 0; i < n; i++, fs->ops++) {
		u32 off = arr[i].off, len = arr[i].len;
		u8 *p = dup_bytes(wire + off, len);

		rxb_tls_rx(&x.r, x.f.seq0 + off, p, len, &res);
		if (!res.decrypted)
			EXPECT(!memcmp(p, wire + off, len),
			       "a packet not decrypted was changed");
		else if (!flips)
			EXPECT(!memcmp(p, x.f.dec + off, len),
			       "[%u, %u) decrypted wrong", off, off + len);
		if (!flips)
			EXPECT_EQ(res.auth_fail, 0);
		fs->decrypted += res.decrypted;
		fs->resyncs += res.resync;
		fs->auth_fail += res.auth_fail;
		if (res.resync) {
			last_cand = res.resync_seq - x.f.seq0;
			have_cand = 1;
		}
		if (have_cand && rng_pct(g, 40)) {
			u32 s = last_cand;

			if (rng_pct(g, 20))
				s += rng_range(g, 1, 30);
			if (is_hdr(&x.f, s))
				fs->confirmed +=
					rxb_tls_rx_confirm(&x.r, x.f.seq0 + s,
							   x.f.rec_seq0 +
							   rec_of(&x.f, s));
			else if (s != last_cand)
				EXPECT(!rxb_tls_rx_confirm(&x.r, x.f.seq0 + s,
							   rng_next(g)),
				       "a confirmation of %u, not the candidate %u, taken",
				       s, last_cand);
		}
		fuzz_sane(&x.r);
		free(p);
	}
	free(arr);
	free(wire);
	fuzz_tx(&x, g, fs);
	rx_teardown(&x);
}

static void test_fuzz(const void __always_unused *arg)
{
	const char *e = getenv("RXB_FUZZ_SECS");
	double secs = e ? atof(e) : 2, t0 = ktap_now();
	struct rng g = { 0xf022 };
	struct fuzz_stats fs = {};
	u32 iters = 0;

	while (ktap_now() - t0 < secs && ktap_failures() < 5) {
		if (iters % 2)
			fuzz_flow(&g, &fs);
		else
			fuzz_garbage(&g, &fs);
		iters++;
	}
	ktap_diag("%.0f s: %u runs (garbage and mutated flows, %u checked against the model),",
		  secs, iters, fs.modelled);
	ktap_diag("%u RX/TX calls: %u packets decrypted, %u resync requests,",
		  fs.ops, fs.decrypted, fs.resyncs);
	ktap_diag("%u confirmations taken,", fs.confirmed);
	ktap_diag("%u tags failed; %u TX packets (%u retransmissions) equal to the reference",
		  fs.auth_fail, fs.tx_pkts, fs.retx);
}

int main(void)
{
	static const struct ktap_case cases[] = {
		{ "tls:tx_seq", test_tx_seq, NULL },
		{ "tls:tx_retx", test_tx_retx, NULL },
		{ "tls:tx_errors", test_tx_errors, NULL },
		{ "tls:rx_seq", test_rx_seq, NULL },
		{ "tls:types", test_types, NULL },
		{ "tls:rx_corrupt", test_rx_corrupt, NULL },
		{ "tls:rx_loss", test_rx_loss, NULL },
		{ "tls:rx_reorder", test_rx_reorder, NULL },
		{ "tls:rx_gap", test_rx_gap, NULL },
		{ "tls:rx_search", test_rx_search, NULL },
		{ "tls:threads", test_threads, NULL },
		{ "tls:fuzz", test_fuzz, NULL },
	};

	return ktap_main(cases, ARRAY_SIZE(cases));
}
