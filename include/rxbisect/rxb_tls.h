/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulated NIC's TLS record engine (drivers/net/rxbisect/hw/tls_rec.c):
 * the data work of the autonomous kTLS offload (thesis chapter 3, "Autonomous
 * NIC Offloads"; digest ../shared/notes/seed-thesis.md section 6), one
 * direction of one TCP flow, without TCP.
 *
 * The NIC sees a flow's bytes in TCP order, packet by packet, and follows
 * the TLS records in them by their length fields.  AES-GCM is streamed the
 * way crypto/gcm.c composes it: AES-CTR for the data (counter 2 onwards for
 * each record, seekable by the data's offset) and GHASH over the additional
 * data and the ciphertext, carried from packet to packet; the tag is GHASH
 * XOR the keystream of counter 1.  So a record split over several packets
 * is handled as the packets pass, holding nothing back (thesis section
 * 3.3.2: "in-sequence" processing).
 *
 * TX: in-sequence packets are encrypted in place and the tag written over
 * the placeholder the stack left.  Out of sequence (a retransmission) the
 * NIC cannot go on; the driver first hands it the record's earlier bytes
 * (a dump, as a real driver posts them from tls_get_record()), from which
 * it rebuilds the GHASH state (rxb_tls_tx_resync()).
 *
 * RX: an in-sequence packet is decrypted in place when it was in step from
 * its first byte and every tag that ends in it verifies; otherwise it is
 * left as it came ("encrypted") and software decrypts the record.  After
 * a gap the NIC searches the stream for a record header by its pattern,
 * tracks the records after it by their length fields, and asks software
 * to confirm the candidate; confirmed, it resumes at the next record
 * boundary (Fig. 3.6).  The record sequence number at the candidate is
 * software's answer; the NIC counts the records since.
 *
 * Only TLS 1.2 and 1.3 with AES-GCM (128 or 256): what tls_device offloads.
 * The crypto is the environment's (struct rxb_tls_crypto_ops): the kernel
 * crypto API in the module, a reference implementation in the userspace
 * tests.  This file and tls_rec.c are free of netdev and crypto plumbing.
 */
#ifndef _RXB_TLS_H
#define _RXB_TLS_H

#include <linux/types.h>

#define RXB_TLS_HDR_LEN		5	/* type, version, length */
#define RXB_TLS_TAG_LEN		16	/* AES-GCM tag */
#define RXB_TLS12_NONCE_LEN	8	/* TLS 1.2's explicit nonce */
#define RXB_TLS_SALT_LEN	4	/* the implicit part of the nonce */
#define RXB_TLS_IV_LEN		8	/* TLS 1.3: iv after the salt */
/* The largest record length field accepted: 2^14 + 256 (RFC 8446 5.2). */
#define RXB_TLS_MAX_LEN		(16384 + 256)
#define RXB_TLS_VERSION		0x0303	/* on the wire, for 1.2 and 1.3 */

struct rxb_tls_cipher;

/**
 * struct rxb_tls_crypto_ops - the crypto units one record engine uses.
 *	Each is given the engine's own cipher state, keyed at setup.
 * @ctr: XOR @len bytes of AES-CTR keystream into @buf, in place, starting
 *	with counter block @ctr (its low 32 bits big-endian, incremented per
 *	16 bytes, as GCM's inc32).
 * @ghash_init: start a GHASH (hash key H = AES_K(0^128)).
 * @ghash_update: hash @len bytes, any length: a partial block waits for
 *	the next call's bytes.
 * @ghash_final: the hash of everything since @ghash_init, padded with
 *	zeros to a whole block.
 */
struct rxb_tls_crypto_ops {
	void (*ctr)(struct rxb_tls_cipher *c, const u8 ctr[16], u8 *buf,
		    u32 len);
	void (*ghash_init)(struct rxb_tls_cipher *c);
	void (*ghash_update)(struct rxb_tls_cipher *c, const u8 *p, u32 len);
	void (*ghash_final)(struct rxb_tls_cipher *c, u8 out[16]);
};

/**
 * enum rxb_tls_mode - where an RX engine stands in the stream (Fig. 3.6).
 * @RXB_TLS_SYNC: in step: knows the current record and its sequence.
 * @RXB_TLS_SEARCH: lost: looks for a record header by its pattern.
 * @RXB_TLS_TRACK: found a candidate header and asked software to confirm
 *	it; follows the records after it by their length fields.
 */
enum rxb_tls_mode {
	RXB_TLS_SYNC,
	RXB_TLS_SEARCH,
	RXB_TLS_TRACK,
};

/**
 * struct rxb_tls_rec - the record engine of one direction of one flow.
 * @ops: its crypto units.
 * @c: their state.
 * @tls13: TLS 1.3 (else 1.2).
 * @mode: enum rxb_tls_mode (TX: RXB_TLS_SYNC, or RXB_TLS_SEARCH out of step
 *	after an impossible header until rxb_tls_tx_resync()).
 * @iv: the static part of the nonce: the salt, and TLS 1.3's iv after it.
 * @rec_seq: sequence number of the current record (of the next one at a
 *	record boundary).
 * @next_seq: TCP sequence number of the next byte the engine expects.
 * @off: bytes of the current record seen, header included; 0 at a
 *	boundary.
 * @len: the current record's length on the wire, header included, once
 *	its header is complete (0 before).
 * @hdr: the current record's header and (TLS 1.2) explicit nonce.
 * @j0: its counter block 1: nonce || 1.
 * @tag: its tag, once computed.
 * @tag_ok: RX: the tag bytes seen so far match @tag.
 * @cand_seq: RX, tracking: TCP sequence number of the candidate header.
 * @track_seq: RX, tracking: that of the next header expected.
 * @track_recs: RX, tracking: headers found valid, the candidate's
 *	included.
 * @track_hdr: RX, tracking: the bytes of the next header seen so far.
 * @track_off: their number.
 * @cand_sn: RX, tracking, confirmed: sequence number of the candidate's
 *	record (software's answer).
 * @confirmed: RX, tracking: software confirmed the candidate.
 * @broken: RX, in step: bytes of the current record were lost; the engine
 *	follows it by its length to the next header (Fig. 3.7 (b)).
 */
struct rxb_tls_rec {
	const struct rxb_tls_crypto_ops *ops;
	struct rxb_tls_cipher *c;
	bool tls13;
	u8 mode;
	u8 iv[RXB_TLS_SALT_LEN + RXB_TLS_IV_LEN];
	u64 rec_seq;
	u32 next_seq;
	u32 off;
	u32 len;
	u8 hdr[RXB_TLS_HDR_LEN + RXB_TLS12_NONCE_LEN];
	u8 j0[16];
	u8 tag[RXB_TLS_TAG_LEN];
	bool tag_ok;
	u32 cand_seq;
	u32 track_seq;
	u32 track_recs;
	u8 track_hdr[RXB_TLS_HDR_LEN];
	u8 track_off;
	u64 cand_sn;
	bool confirmed;
	bool broken;
};

/**
 * struct rxb_tls_tx_res - what encrypting one packet did.
 * @records: records whose tag the packet carried (completed by the NIC).
 */
struct rxb_tls_tx_res {
	u32 records;
};

/**
 * struct rxb_tls_rx_res - what the NIC did with one received packet.
 * @decrypted: the packet was decrypted in place: mark it.
 * @resync: the NIC found a candidate header and asks software to confirm
 *	it: @resync_seq is its TCP sequence number.
 * @resync_seq: see @resync.
 * @records: records whose tag ended in this packet and verified.
 * @auth_fail: records whose tag ended in this packet and did not.
 * @lost: the packet put the engine out of step (a gap, a bad header).
 * @skipped: the packet came after a gap inside the current record, or
 *	tracking, before the next tracked header: the engine keeps its place
 *	(in step: struct rxb_tls_rec.broken; tracking: its candidate).
 */
struct rxb_tls_rx_res {
	bool decrypted;
	bool resync;
	u32 resync_seq;
	u32 records;
	u32 auth_fail;
	bool lost;
	bool skipped;
};

void rxb_tls_rec_init(struct rxb_tls_rec *r,
		      const struct rxb_tls_crypto_ops *ops,
		      struct rxb_tls_cipher *c, bool tls13, const u8 *salt,
		      const u8 *iv, u64 rec_seq, u32 tcp_seq);
int rxb_tls_tx(struct rxb_tls_rec *r, u32 seq, u8 *buf, u32 len,
	       struct rxb_tls_tx_res *res);
void rxb_tls_tx_resync(struct rxb_tls_rec *r, u32 rec_start, u64 rec_seq);
int rxb_tls_tx_dump(struct rxb_tls_rec *r, u32 seq, const u8 *buf, u32 len);
void rxb_tls_rx(struct rxb_tls_rec *r, u32 seq, u8 *buf, u32 len,
		struct rxb_tls_rx_res *res);
bool rxb_tls_rx_confirm(struct rxb_tls_rec *r, u32 hdr_seq, u64 rec_seq);
bool rxb_tls_rx_candidate(const struct rxb_tls_rec *r, u32 *hdr_seq);

#endif /* _RXB_TLS_H */
