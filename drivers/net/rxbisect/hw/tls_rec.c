// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated NIC's TLS record engine (include/rxbisect/rxb_tls.h).
 *
 * One walk over a packet's TCP payload serves every use: it follows the
 * record boundaries (header, TLS 1.2's explicit nonce, data, tag) and does
 * at each part what the pass asks.  TX encrypts the data and GHASHes the
 * ciphertext, then writes the tag; a dump does the same into a scratch
 * buffer, to rebuild the state; RX verifies (GHASH and tag compare) in a
 * first pass and decrypts in a second, so that a packet is decrypted only
 * when every tag that ends in it verifies (an unverified record must reach
 * software as it came, which then finds the error itself).
 *
 * Search (Fig. 3.6): a candidate header is a content type of alert,
 * handshake or application data, version 0x0303 and a length the cipher
 * allows; when the next header after it lies in the same packet it must
 * pass too.  Records in step, and those tracked from a candidate, may be of
 * any content type (kTLS sends whatever type an application names).  Where
 * the paper is silent, these are our choices: candidates are looked for
 * within one packet only (a header split by a packet boundary waits for
 * the next candidate), and in a partly old packet only among headers that
 * end in its new bytes (software may have parsed an older one, and would
 * never confirm it); a tracked header that fails sends the engine back to
 * searching; a confirmation that names another header than the current
 * candidate is stale and ignored.
 *
 * A gap inside a record whose length the engine knows does not lose it
 * (Fig. 3.7 (b)): that record can no longer be verified, but its length
 * says where the next header is; the engine follows to it (broken) and is
 * in step again there, with no request to software.  The packet with that
 * header is not decrypted unless it starts with it; the next one is.  A
 * gap that takes a header, or the bytes before a length is known, loses
 * the engine (searching, Fig. 3.6).  Tracking, the same holds (the paper
 * is silent; our choice): tracking needs only the headers' positions, so
 * a gap that ends before the next tracked header, none of which was seen
 * yet, leaves the candidate and its request standing.  Under loss the
 * request would otherwise be replaced at each gap before software, which
 * parses in order and so only after the retransmission, could answer it.
 */
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <rxbisect/rxb_tls.h>

enum rxb_tls_pass {
	RXB_TLS_ENCRYPT,	/* TX */
	RXB_TLS_DUMP,		/* TX, rebuilding the state: no output */
	RXB_TLS_VERIFY,		/* RX first pass */
	RXB_TLS_DECRYPT,	/* RX second pass */
};

#define RXB_TLS_CT_ALERT	21
#define RXB_TLS_CT_HANDSHAKE	22
#define RXB_TLS_CT_DATA		23

static bool seq_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
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

/* Bytes before the data: the header, and TLS 1.2's explicit nonce. */
static u32 rec_pre(const struct rxb_tls_rec *r)
{
	return RXB_TLS_HDR_LEN + (r->tls13 ? 0 : RXB_TLS12_NONCE_LEN);
}

/* Is a record length field possible for this cipher? */
static bool rec_len_ok(const struct rxb_tls_rec *r, u32 l)
{
	u32 min = RXB_TLS_TAG_LEN + (r->tls13 ? 1 : RXB_TLS12_NONCE_LEN);

	return l >= min && l <= RXB_TLS_MAX_LEN;
}

/* A header the engine can walk: version 0x0303 and a length the cipher
 * allows, any content type.  kTLS sends records of any type an application
 * names (TLS_SET_RECORD_TYPE: the kernel's tls selftest sends type 100),
 * and tls_device hands them all to the NIC, so records in step, and records
 * followed from a candidate, are taken whatever their type.
 */
static bool hdr_ok(const struct rxb_tls_rec *r, const u8 *h)
{
	return h[1] == RXB_TLS_VERSION >> 8 &&
	       h[2] == (RXB_TLS_VERSION & 0xff) &&
	       rec_len_ok(r, h[3] << 8 | h[4]);
}

/* The magic pattern a search takes as a candidate (Fig. 3.6): a header of
 * alert, handshake or application data.
 */
static bool hdr_magic(const struct rxb_tls_rec *r, const u8 *h)
{
	return h[0] >= RXB_TLS_CT_ALERT && h[0] <= RXB_TLS_CT_DATA &&
	       hdr_ok(r, h);
}

/**
 * rxb_tls_rec_init() - set up a record engine, in step at a record start.
 * @r: the engine.
 * @ops: its crypto units.
 * @c: their state, keyed.
 * @tls13: TLS 1.3 (else 1.2).
 * @salt: RXB_TLS_SALT_LEN bytes.
 * @iv: TLS 1.3: RXB_TLS_IV_LEN bytes after the salt; TLS 1.2: unused
 *	(the explicit nonce is in each record).
 * @rec_seq: sequence number of the first record.
 * @tcp_seq: TCP sequence number of its first byte.
 */
void rxb_tls_rec_init(struct rxb_tls_rec *r,
		      const struct rxb_tls_crypto_ops *ops,
		      struct rxb_tls_cipher *c, bool tls13, const u8 *salt,
		      const u8 *iv, u64 rec_seq, u32 tcp_seq)
{
	memset(r, 0, sizeof(*r));
	r->ops = ops;
	r->c = c;
	r->tls13 = tls13;
	r->mode = RXB_TLS_SYNC;
	memcpy(r->iv, salt, RXB_TLS_SALT_LEN);
	if (tls13)
		memcpy(r->iv + RXB_TLS_SALT_LEN, iv, RXB_TLS_IV_LEN);
	r->rec_seq = rec_seq;
	r->next_seq = tcp_seq;
}

/* The header (and explicit nonce) is complete: the record's nonce, its
 * counter block 1, and the GHASH of its additional data.
 */
static void rec_start(struct rxb_tls_rec *r, enum rxb_tls_pass pass)
{
	u8 aad[13];
	u32 alen;
	int i;

	memcpy(r->j0, r->iv, RXB_TLS_SALT_LEN);
	if (r->tls13) {
		memcpy(r->j0 + RXB_TLS_SALT_LEN, r->iv + RXB_TLS_SALT_LEN,
		       RXB_TLS_IV_LEN);
		put_be64(aad, r->rec_seq);
		for (i = 0; i < 8; i++)
			r->j0[4 + i] ^= aad[i];
		memcpy(aad, r->hdr, RXB_TLS_HDR_LEN);
		alen = RXB_TLS_HDR_LEN;
	} else {
		u32 plen = r->len - rec_pre(r) - RXB_TLS_TAG_LEN;

		memcpy(r->j0 + RXB_TLS_SALT_LEN, r->hdr + RXB_TLS_HDR_LEN,
		       RXB_TLS12_NONCE_LEN);
		put_be64(aad, r->rec_seq);
		aad[8] = r->hdr[0];
		aad[9] = r->hdr[1];
		aad[10] = r->hdr[2];
		aad[11] = plen >> 8;
		aad[12] = plen;
		alen = 13;
	}
	put_be32(r->j0 + 12, 1);
	r->tag_ok = true;
	if (pass == RXB_TLS_DECRYPT)
		return;
	r->ops->ghash_init(r->c);
	r->ops->ghash_update(r->c, aad, alen);
	/* GCM pads the additional data to a block; ghash_update() joins
	 * partial blocks, so the zeros are hashed here.
	 */
	memset(aad, 0, sizeof(aad));
	r->ops->ghash_update(r->c, aad, (16 - alen % 16) % 16);
}

/* The record's tag: GHASH(A, C) closed with the lengths, XOR AES_K(J0). */
static void rec_tag(struct rxb_tls_rec *r)
{
	u32 clen = r->len - rec_pre(r) - RXB_TLS_TAG_LEN;
	u32 alen = r->tls13 ? RXB_TLS_HDR_LEN : 13;
	u8 blk[16] = {};
	int i;

	r->ops->ghash_update(r->c, blk, (16 - clen % 16) % 16);
	put_be64(blk, (u64)alen * 8);
	put_be64(blk + 8, (u64)clen * 8);
	r->ops->ghash_update(r->c, blk, 16);
	r->ops->ghash_final(r->c, r->tag);
	memset(blk, 0, sizeof(blk));
	r->ops->ctr(r->c, r->j0, blk, 16);
	for (i = 0; i < RXB_TLS_TAG_LEN; i++)
		r->tag[i] ^= blk[i];
}

/* XOR the keystream of data bytes @o..@o + @n of the current record. */
static void rec_ctr(struct rxb_tls_rec *r, u32 o, u8 *buf, u32 n)
{
	u8 ctr[16], ks[16];
	u32 head = o % 16, i, k;

	memcpy(ctr, r->j0, 12);
	put_be32(ctr + 12, 2 + o / 16);
	if (head) {
		k = min(n, 16 - head);
		memset(ks, 0, sizeof(ks));
		r->ops->ctr(r->c, ctr, ks, 16);
		for (i = 0; i < k; i++)
			buf[i] ^= ks[head + i];
		buf += k;
		n -= k;
		put_be32(ctr + 12, 2 + o / 16 + 1);
	}
	if (n)
		r->ops->ctr(r->c, ctr, buf, n);
}

/* The data bytes @o..@o + @n of the record, as the pass wants them. */
static void rec_data(struct rxb_tls_rec *r, enum rxb_tls_pass pass, u32 o,
		     u8 *buf, u32 n)
{
	u8 scratch[64];
	u32 k;

	switch (pass) {
	case RXB_TLS_ENCRYPT:
		rec_ctr(r, o, buf, n);
		r->ops->ghash_update(r->c, buf, n);
		break;
	case RXB_TLS_DUMP:
		for (; n; n -= k, o += k, buf += k) {
			k = min_t(u32, n, sizeof(scratch));
			memcpy(scratch, buf, k);
			rec_ctr(r, o, scratch, k);
			r->ops->ghash_update(r->c, scratch, k);
		}
		break;
	case RXB_TLS_VERIFY:
		r->ops->ghash_update(r->c, buf, n);
		break;
	case RXB_TLS_DECRYPT:
		rec_ctr(r, o, buf, n);
		break;
	}
}

/* The current record ended: the engine is at the next one's boundary. */
static void rec_next(struct rxb_tls_rec *r)
{
	r->rec_seq++;
	r->off = 0;
	r->len = 0;
	r->broken = false;
}

/**
 * rec_walk() - run a pass over @len bytes of the flow, in step.
 * @r: the engine; @r->next_seq is the first byte's.
 * @pass: what to do.
 * @buf: the bytes (DUMP: only read).
 * @len: their number.
 * @done: incremented per record finished: tag written (ENCRYPT) or
 *	verified (VERIFY).
 * @bad: incremented per record whose tag did not verify (VERIFY).
 *
 * Return: the bytes walked: @len, or fewer where a header is impossible
 * (the engine is then out of step).
 */
static u32 rec_walk(struct rxb_tls_rec *r, enum rxb_tls_pass pass, u8 *buf,
		    u32 len, u32 *done, u32 *bad)
{
	u32 pre = rec_pre(r), walked = 0, n, end;

	while (walked < len) {
		u8 *p = buf + walked;

		n = len - walked;
		if (r->off < pre) {
			n = min(n, pre - r->off);
			memcpy(r->hdr + r->off, p, n);
			if (r->off < RXB_TLS_HDR_LEN &&
			    r->off + n >= RXB_TLS_HDR_LEN) {
				if (!hdr_ok(r, r->hdr))
					return walked + RXB_TLS_HDR_LEN - r->off;
				r->len = RXB_TLS_HDR_LEN +
					 (r->hdr[3] << 8 | r->hdr[4]);
			}
			r->off += n;
			walked += n;
			if (r->off == pre)
				rec_start(r, pass);
			continue;
		}
		end = r->len - RXB_TLS_TAG_LEN;
		if (r->off < end) {
			n = min(n, end - r->off);
			rec_data(r, pass, r->off - pre, p, n);
			r->off += n;
			walked += n;
			continue;
		}
		if (r->off == end && pass != RXB_TLS_DECRYPT)
			rec_tag(r);
		n = min(n, r->len - r->off);
		if (pass == RXB_TLS_ENCRYPT)
			memcpy(p, r->tag + r->off - end, n);
		else if (pass == RXB_TLS_VERIFY &&
			 memcmp(p, r->tag + r->off - end, n))
			r->tag_ok = false;
		r->off += n;
		walked += n;
		if (r->off < r->len)
			continue;
		if (pass == RXB_TLS_ENCRYPT || r->tag_ok)
			(*done)++;
		else if (pass == RXB_TLS_VERIFY)
			(*bad)++;
		rec_next(r);
	}
	return walked;
}

/**
 * rxb_tls_tx() - encrypt one packet's TCP payload in place.
 * @r: the engine.
 * @seq: TCP sequence number of @buf[0].
 * @buf: the payload: plaintext records with room for their tags.
 * @len: its length.
 * @res: set to what was done.
 *
 * Return: 0; -EPROTO when @seq is not the next byte the engine expects
 * (the driver must dump the record first), -EBADMSG on an impossible
 * record header (the engine is out of step until the next dump).  On
 * error the packet must not be sent: it holds plaintext.
 */
int rxb_tls_tx(struct rxb_tls_rec *r, u32 seq, u8 *buf, u32 len,
	       struct rxb_tls_tx_res *res)
{
	u32 bad = 0;

	res->records = 0;
	if (seq != r->next_seq)
		return -EPROTO;
	if (r->mode != RXB_TLS_SYNC)
		return -EBADMSG;
	if (rec_walk(r, RXB_TLS_ENCRYPT, buf, len, &res->records, &bad) <
	    len) {
		r->mode = RXB_TLS_SEARCH;
		return -EBADMSG;
	}
	r->next_seq += len;
	return 0;
}

/**
 * rxb_tls_tx_resync() - move a TX engine to the start of a record, for a
 *	retransmission: the driver then dumps the record's bytes before the
 *	packet (rxb_tls_tx_dump()).
 * @r: the engine.
 * @rec_start: TCP sequence number of the record's header.
 * @rec_seq: the record's sequence number.
 */
void rxb_tls_tx_resync(struct rxb_tls_rec *r, u32 rec_start, u64 rec_seq)
{
	r->mode = RXB_TLS_SYNC;
	r->next_seq = rec_start;
	r->rec_seq = rec_seq;
	r->off = 0;
	r->len = 0;
}

/**
 * rxb_tls_tx_dump() - rebuild a TX engine's state from bytes already sent.
 * @r: the engine.
 * @seq: TCP sequence number of @buf[0].
 * @buf: plaintext of the flow, only read.
 * @len: its length.
 *
 * Return: 0, -EPROTO when @seq is not the next byte, -EBADMSG on an
 * impossible record header.
 */
int rxb_tls_tx_dump(struct rxb_tls_rec *r, u32 seq, const u8 *buf, u32 len)
{
	u32 done = 0, bad = 0;

	if (seq != r->next_seq)
		return -EPROTO;
	if (r->mode != RXB_TLS_SYNC)
		return -EBADMSG;
	/* DUMP only reads @buf. */
	if (rec_walk(r, RXB_TLS_DUMP, (u8 *)buf, len, &done, &bad) < len) {
		r->mode = RXB_TLS_SEARCH;
		return -EBADMSG;
	}
	r->next_seq += len;
	return 0;
}

/* Search @buf (at TCP sequence number @seq) for a candidate header; on one
 * start tracking at it and ask software to confirm it.  Return: its offset
 * in @buf, or @len when there is none.
 */
static u32 rx_search(struct rxb_tls_rec *r, u32 seq, const u8 *buf, u32 len,
		     struct rxb_tls_rx_res *res)
{
	u32 i, l;

	for (i = 0; i + RXB_TLS_HDR_LEN <= len; i++) {
		if (!hdr_magic(r, buf + i))
			continue;
		l = RXB_TLS_HDR_LEN + (buf[i + 3] << 8 | buf[i + 4]);
		if (i + l + RXB_TLS_HDR_LEN <= len && !hdr_magic(r, buf + i + l))
			continue;
		r->mode = RXB_TLS_TRACK;
		r->cand_seq = seq + i;
		r->track_seq = r->cand_seq;
		r->track_off = 0;
		r->track_recs = 0;
		r->confirmed = false;
		res->resync = true;
		res->resync_seq = r->cand_seq;
		return i;
	}
	return len;
}

/* Follow the record headers from @pos of @buf (at @seq) while tracking;
 * resume in step at the first boundary after a confirmation.  Return:
 * where the walk stopped: that boundary (RXB_TLS_SYNC), a bad header's
 * first byte in @buf (RXB_TLS_SEARCH), or @len.
 */
static u32 rx_track(struct rxb_tls_rec *r, u32 seq, const u8 *buf, u32 pos,
		    u32 len, struct rxb_tls_rx_res *res)
{
	u32 at, n;

	while (seq_before(r->track_seq + r->track_off, seq + len)) {
		at = r->track_seq + r->track_off - seq;
		if (!r->track_off && r->confirmed) {
			/* The first boundary after software's answer: the
			 * record here is the candidate's plus the headers
			 * tracked since, the candidate's included.
			 */
			r->mode = RXB_TLS_SYNC;
			r->rec_seq = r->cand_sn + r->track_recs;
			r->off = 0;
			r->len = 0;
			return at;
		}
		n = min_t(u32, len - at, RXB_TLS_HDR_LEN - r->track_off);
		memcpy(r->track_hdr + r->track_off, buf + at, n);
		r->track_off += n;
		if (r->track_off < RXB_TLS_HDR_LEN)
			break;
		if (!hdr_ok(r, r->track_hdr)) {
			r->mode = RXB_TLS_SEARCH;
			res->lost = true;
			/* Search again from after the bad header's start: from
			 * the packet's first byte when it began before it.
			 */
			at += n;
			if (at < RXB_TLS_HDR_LEN)
				return pos;
			return max(pos, at - RXB_TLS_HDR_LEN + 1);
		}
		r->track_seq += RXB_TLS_HDR_LEN +
				(r->track_hdr[3] << 8 | r->track_hdr[4]);
		r->track_off = 0;
		r->track_recs++;
	}
	return len;
}

/* A gap: the packet at @seq comes after bytes the engine never saw.  Keep
 * the engine's place if the gap lies inside a record whose header gave its
 * length: in step, inside the current record, whose bytes lost are counted
 * as seen and which is broken (see above); tracking, before the next
 * tracked header, which it then finds in this packet or a later one.
 * Return: false when the engine is lost.
 */
static bool rx_gap_in_record(struct rxb_tls_rec *r, u32 seq)
{
	if (r->mode == RXB_TLS_TRACK)
		return !r->track_off && !seq_before(r->track_seq, seq);
	if (r->mode != RXB_TLS_SYNC || r->off < RXB_TLS_HDR_LEN ||
	    seq_before(r->next_seq - r->off + r->len, seq))
		return false;
	r->off += seq - r->next_seq;
	r->broken = true;
	if (r->off == r->len)	/* the packet starts with the next header */
		rec_next(r);
	return true;
}

/**
 * rxb_tls_rx() - the NIC's TLS stage on one received packet's payload.
 * @r: the engine.
 * @seq: TCP sequence number of @buf[0].
 * @buf: the payload, decrypted in place when @res->decrypted.
 * @len: its length, more than 0.
 * @res: set to what was done.
 *
 * The packet is decrypted only when the engine was in step at its first
 * byte and every tag that ends in it verifies.
 */
void rxb_tls_rx(struct rxb_tls_rec *r, u32 seq, u8 *buf, u32 len,
		struct rxb_tls_rx_res *res)
{
	u32 pos = 0, end = seq + len, w, unused;
	struct rxb_tls_rec v;

	memset(res, 0, sizeof(*res));
	if (!seq_before(r->next_seq, end))
		return;		/* old bytes again: they go up as they are */
	if (seq_before(r->next_seq, seq)) {
		if (rx_gap_in_record(r, seq)) {
			res->skipped = true;
		} else {
			if (r->mode != RXB_TLS_SEARCH)
				res->lost = true;	/* bytes were lost */
			r->mode = RXB_TLS_SEARCH;
			r->broken = false;
		}
	} else {
		pos = r->next_seq - seq;	/* partly old: the rest only */
		/* Searching, only headers that end in the new bytes: software
		 * may have parsed one in the old bytes already, and would
		 * never confirm it.
		 */
		if (r->mode == RXB_TLS_SEARCH)
			pos = pos < RXB_TLS_HDR_LEN ? 0 :
			      pos - (RXB_TLS_HDR_LEN - 1);
	}
	r->next_seq = end;
	while (pos < len) {
		switch (r->mode) {
		case RXB_TLS_SEARCH:
			pos += rx_search(r, seq + pos, buf + pos, len - pos,
					 res);
			break;
		case RXB_TLS_TRACK:
			pos = rx_track(r, seq, buf, pos, len, res);
			break;
		default:
			if (r->broken) {
				/* The rest of a record with a gap: followed by
				 * its length, neither verified nor decrypted.
				 */
				w = min(len - pos, r->len - r->off);
				r->off += w;
				pos += w;
				if (r->off == r->len)
					rec_next(r);
				break;
			}
			if (!pos) {
				/* In step from the first byte: verify, then
				 * decrypt if every tag held.
				 */
				v = *r;
				w = rec_walk(&v, RXB_TLS_VERIFY, buf, len,
					     &res->records, &res->auth_fail);
				if (w == len && !res->auth_fail) {
					rec_walk(r, RXB_TLS_DECRYPT, buf, len,
						 &unused, &unused);
					res->decrypted = true;
				}
			} else {
				/* In step from mid-packet: follow the
				 * records, the packet stays as it came.
				 */
				v = *r;
				w = pos + rec_walk(&v, RXB_TLS_VERIFY,
						   buf + pos, len - pos,
						   &res->records,
						   &res->auth_fail);
			}
			*r = v;
			if (w < len) {
				r->mode = RXB_TLS_SEARCH;
				res->lost = true;
				res->decrypted = false;
			}
			pos = w;
			if (r->mode == RXB_TLS_SYNC)
				return;
			break;
		}
	}
}

/**
 * rxb_tls_rx_confirm() - software's answer to a resync request: the record
 *	whose header's last byte is @hdr_seq + RXB_TLS_HDR_LEN - 1 has
 *	sequence number @rec_seq.
 * @r: the engine.
 * @hdr_seq: TCP sequence number of the confirmed header.
 * @rec_seq: its record's sequence number.
 *
 * Return: true when it confirms the current candidate; the engine resumes
 * at the next record boundary it sees.
 */
bool rxb_tls_rx_confirm(struct rxb_tls_rec *r, u32 hdr_seq, u64 rec_seq)
{
	if (r->mode != RXB_TLS_TRACK || hdr_seq != r->cand_seq)
		return false;
	r->confirmed = true;
	r->cand_sn = rec_seq;
	return true;
}

/**
 * rxb_tls_rx_candidate() - the header an RX engine waits for software to
 *	confirm, if any (the async resync's progress query).
 * @r: the engine.
 * @hdr_seq: set to the candidate header's TCP sequence number.
 *
 * Return: true when the engine tracks from a candidate not yet confirmed.
 */
bool rxb_tls_rx_candidate(const struct rxb_tls_rec *r, u32 *hdr_seq)
{
	if (r->mode != RXB_TLS_TRACK || r->confirmed)
		return false;
	*hdr_seq = r->cand_seq;
	return true;
}
