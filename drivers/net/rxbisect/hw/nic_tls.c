// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated NIC's kTLS offload: its crypto context table and the TLS
 * engine on both paths (thesis chapter 3, "autonomous offloads": the NIC
 * does TLS's AES-GCM, TCP stays in software).  The record work is
 * tls_rec.c's; this file gives it the kernel crypto API, frames and the
 * NIC's contexts.  Documentation/rxbisect-tls.rst is the datasheet.
 *
 * The context table holds at most its size (module parameter
 * tls_contexts, the thesis's 4 MiB / 208 B by default): a creation beyond
 * it is refused and counted, and the socket stays in software.  A context
 * is one direction of one flow: RX contexts are found by the flow's
 * 5-tuple as the NIC receives it, TX contexts by the id the driver's TX
 * descriptor names (struct rxb_tls_txd).  Creating and deleting one is a
 * command the driver waits for, in process context (the NIC's firmware
 * keys the crypto units then); everything else is the NIC's data path.
 *
 * RX is a stage of the receive pipeline, the same for every ring model:
 * the NIC checks the TCP checksum of what came on the wire, runs the
 * record engine over the payload (decrypting it in place when in step)
 * and reports the result in the completion's RSS fields
 * (RXB_CQE_F_TLS_META).  A resync request goes to the context's mailbox
 * in host memory; software's confirmation is a posted register write the
 * NIC reads on the flow's next frame.  A context in the async mode (as
 * mlx5's) names in its request only the frame it found the candidate
 * header in; the driver then asks where the NIC is (a posted write to the
 * context's progress register), and the NIC answers on the flow's next
 * frame, in the mailbox: the candidate it tracks from, or that it tracks
 * none.
 *
 * TX: the driver posts every frame of an offloaded socket here, in order.
 * The NIC segments it (its TSO), copies each segment out of host memory
 * into its own buffer, encrypts the payload there and sends it: the
 * plaintext the socket keeps for retransmission is never written.  With
 * an engine thread (engine=cpuN) this runs on the NIC's core, its crypto
 * cost included; inline, in the sender's context, as inline reception.
 */
#include <crypto/skcipher.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <linux/scatterlist.h>
#include <linux/sched/task_stack.h>
#include <net/checksum.h>
#include <net/ip6_checksum.h>
#include <rxbisect/rxb_tls.h>
#include "nic_hw.h"

#define RXB_TLS_BUCKETS	1024

/**
 * struct rxb_tls_cipher - a context's crypto units (the kernel crypto
 *	API's, as crypto/gcm.c composes AES-GCM).
 * @ctr: AES-CTR, keyed.
 * @ghash: GHASH, keyed with H = AES_K(0), and its running sum.
 * @bounce: CTR input that was on the stack (a scatterlist cannot point
 *	there).
 */
struct rxb_tls_cipher {
	struct crypto_sync_skcipher *ctr;
	struct rxb_ghash ghash;
	u8 bounce[64];
};

/**
 * struct rxb_tls_ctx - one entry of the context table.
 * @node: RX: its hash chain (RCU).
 * @id: its id (RXB_TLS_META_ID).
 * @rx: receive direction.
 * @key: RX: the flow as the NIC receives it.
 * @lock: the record engine: frames of one flow may be run by several CPUs
 *	(inline engine).
 * @rec: the record engine.
 * @c: its crypto units.
 * @mbox: RX: the resync mailbox in host memory.
 * @mbox_gen: requests posted to it.
 * @async: RX: the async resync (struct rxb_nic_tls_params).
 * @progress: RX, async: the progress register: set (release) by the
 *	driver to ask where the NIC is.
 * @confirm_seq: RX: the confirmation register: header sequence number.
 * @confirm_sn: and record sequence number.
 * @confirm: set (release) by the driver once the two above are written.
 */
struct rxb_tls_ctx {
	struct hlist_node node;
	u32 id;
	bool rx;
	struct rxb_nic_tuple key;
	spinlock_t lock;	/* the record engine */
	struct rxb_tls_rec rec;
	struct rxb_tls_cipher c;
	struct rxb_tls_rx_mbox *mbox;
	u32 mbox_gen;
	bool async;
	unsigned long progress;
	u32 confirm_seq;
	u64 confirm_sn;
	unsigned long confirm;
};

enum {
	RXB_TLS_Q_TX_RECORDS, RXB_TLS_Q_TX_PACKETS, RXB_TLS_Q_TX_DUMPS,
	RXB_TLS_Q_TX_DROPS, RXB_TLS_Q_RX_DECRYPTED, RXB_TLS_Q_RX_RECORDS,
	RXB_TLS_Q_RX_ENCRYPTED, RXB_TLS_Q_RX_RESYNC, RXB_TLS_Q_RX_AUTH_FAIL,
	RXB_TLS_Q_RX_PROGRESS, RXB_TLS_Q_NUM
};

static_assert(sizeof(struct rxb_nic_tls_qcounters) ==
	      RXB_TLS_Q_NUM * sizeof(u64));

/**
 * struct rxb_tls_table - the NIC's crypto context table.
 * @size: entries at most.
 * @lock: creation and deletion.
 * @ids: id -> context (RCU readers).
 * @nrx: RX contexts: the pipeline's stage is skipped while 0.
 * @bkt: RX contexts by 5-tuple.
 * @active: counter (struct rxb_nic_tls_counters), as are the four below.
 * @added: counter.
 * @refused: counter.
 * @deleted: counter.
 * @confirmed: counter.
 * @q: per-queue counters, a cache line each.
 */
struct rxb_tls_table {
	u32 size;
	struct mutex lock;	/* creation and deletion */
	struct xarray ids;
	atomic_t nrx;
	struct hlist_head bkt[RXB_TLS_BUCKETS];
	atomic64_t active;
	atomic64_t added;
	atomic64_t refused;
	atomic64_t deleted;
	atomic64_t confirmed;
	struct {
		atomic64_t v[RXB_TLS_Q_NUM];
	} ____cacheline_aligned_in_smp q[RXB_MAX_QUEUES];
};

static void rxb_tls_count(struct rxb_tls_table *t, unsigned int q,
			  unsigned int which, u64 n)
{
	if (n)
		atomic64_add(n, &t->q[q % RXB_MAX_QUEUES].v[which]);
}

/* The crypto units, in the NIC's context (softirq or its engine thread). */
static void rxb_tls_ctr(struct rxb_tls_cipher *c, const u8 ctr[16], u8 *buf,
			u32 len)
{
	SYNC_SKCIPHER_REQUEST_ON_STACK(req, c->ctr);
	struct scatterlist sg;
	u8 iv[16], *p = buf;

	if (object_is_on_stack(buf)) {
		if (WARN_ON_ONCE(len > sizeof(c->bounce)))
			return;
		p = c->bounce;
		memcpy(p, buf, len);
	}
	memcpy(iv, ctr, sizeof(iv));
	sg_init_one(&sg, p, len);
	skcipher_request_set_sync_tfm(req, c->ctr);
	skcipher_request_set_callback(req, 0, NULL, NULL);
	skcipher_request_set_crypt(req, &sg, &sg, len, iv);
	crypto_skcipher_encrypt(req);
	skcipher_request_zero(req);
	if (p != buf)
		memcpy(buf, p, len);
}

static void rxb_tls_ghash_init(struct rxb_tls_cipher *c)
{
	rxb_ghash_init(&c->ghash);
}

static void rxb_tls_ghash_update(struct rxb_tls_cipher *c, const u8 *p,
				 u32 len)
{
	if (len)
		rxb_ghash_update(&c->ghash, p, len);
}

static void rxb_tls_ghash_final(struct rxb_tls_cipher *c, u8 out[16])
{
	rxb_ghash_final(&c->ghash, out);
}

static const struct rxb_tls_crypto_ops rxb_tls_crypto = {
	.ctr		= rxb_tls_ctr,
	.ghash_init	= rxb_tls_ghash_init,
	.ghash_update	= rxb_tls_ghash_update,
	.ghash_final	= rxb_tls_ghash_final,
};

static void rxb_tls_cipher_free(struct rxb_tls_cipher *c)
{
	rxb_ghash_free(&c->ghash);
	if (!IS_ERR_OR_NULL(c->ctr))
		crypto_free_sync_skcipher(c->ctr);
}

/* Key the units: CTR with the key, GHASH with H = AES_K(0^128). */
static int rxb_tls_cipher_init(struct rxb_tls_cipher *c, const u8 *key,
			       unsigned int key_len)
{
	u8 zero[16] = {};
	int err;

	c->ctr = crypto_alloc_sync_skcipher("ctr(aes)", 0, 0);
	if (IS_ERR(c->ctr))
		return PTR_ERR(c->ctr);
	err = crypto_sync_skcipher_setkey(c->ctr, key, key_len);
	if (err)
		return err;
	memset(c->bounce, 0, 16);
	rxb_tls_ctr(c, zero, c->bounce, 16);
	err = rxb_ghash_setkey(&c->ghash, c->bounce);
	memzero_explicit(c->bounce, sizeof(c->bounce));
	return err;
}

static u32 rxb_tls_hash(const struct rxb_nic_tuple *t)
{
	return jhash2((const u32 *)t, sizeof(*t) / sizeof(u32), 0) %
	       RXB_TLS_BUCKETS;
}

/**
 * rxb_nic_tls_init() - power on the TLS engine, its table empty.
 * @nic: the NIC.
 * @size: entries of the context table, RXB_TLS_CTX_MIN..MAX.
 *
 * Return: 0 or -ENOMEM.
 */
int rxb_nic_tls_init(struct rxb_nic *nic, u32 size)
{
	struct rxb_tls_table *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return -ENOMEM;
	t->size = clamp(size, RXB_TLS_CTX_MIN, RXB_TLS_CTX_MAX);
	mutex_init(&t->lock);
	xa_init_flags(&t->ids, XA_FLAGS_ALLOC);
	nic->tls = t;
	return 0;
}

/**
 * rxb_nic_tls_set_size() - the context table's size register: creations
 *	are refused while the table holds @size contexts or more (those it
 *	holds stay).
 * @nic: the NIC.
 * @size: entries, RXB_TLS_CTX_MIN..MAX.
 */
void rxb_nic_tls_set_size(struct rxb_nic *nic, u32 size)
{
	mutex_lock(&nic->tls->lock);
	nic->tls->size = clamp(size, RXB_TLS_CTX_MIN, RXB_TLS_CTX_MAX);
	mutex_unlock(&nic->tls->lock);
}

static void rxb_tls_ctx_free(struct rxb_tls_ctx *ctx)
{
	rxb_tls_cipher_free(&ctx->c);
	kfree_sensitive(ctx);
}

/**
 * rxb_nic_tls_fini() - power off the TLS engine.
 * @nic: the NIC; nothing runs in it any more.
 *
 * The driver deletes its contexts before (the stack's NETDEV_DOWN does);
 * any left are freed here, with a warning.
 */
void rxb_nic_tls_fini(struct rxb_nic *nic)
{
	struct rxb_tls_table *t = nic->tls;
	struct rxb_tls_ctx *ctx;
	unsigned long id;

	if (!t)
		return;
	xa_for_each(&t->ids, id, ctx) {
		WARN_ONCE(1, "rxbisect: TLS context %lu left at power-off", id);
		rxb_tls_ctx_free(ctx);
	}
	xa_destroy(&t->ids);
	kfree(t);
}

/**
 * rxb_nic_tls_add() - ADD_CTX command: create a crypto context.
 * @nic: the NIC.
 * @p: what the context is for.
 * @id: set to its id.
 *
 * Process context; the driver waits for the command.
 *
 * Return: 0; -ENOSPC when the table is full (counted in ctx_refused),
 * -EINVAL for a key length the engine lacks, or the crypto API's error.
 */
int rxb_nic_tls_add(struct rxb_nic *nic, const struct rxb_nic_tls_params *p,
		    u32 *id)
{
	struct rxb_tls_table *t = nic->tls;
	struct rxb_tls_ctx *ctx;
	int err;

	if (p->key_len != 16 && p->key_len != 32)
		return -EINVAL;
	if (p->rx && p->family != 4 && p->family != 6)
		return -EINVAL;
	mutex_lock(&t->lock);
	if (atomic64_read(&t->active) >= t->size) {
		atomic64_inc(&t->refused);
		err = -ENOSPC;
		goto out;
	}
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx) {
		err = -ENOMEM;
		goto out;
	}
	err = rxb_tls_cipher_init(&ctx->c, p->key, p->key_len);
	if (err)
		goto free;
	spin_lock_init(&ctx->lock);
	ctx->rx = p->rx;
	rxb_tls_rec_init(&ctx->rec, &rxb_tls_crypto, &ctx->c, false, p->salt,
			 NULL, p->rec_seq, p->tcp_seq);
	err = xa_alloc(&t->ids, &ctx->id, ctx, XA_LIMIT(0, RXB_TLS_META_ID),
		       GFP_KERNEL);
	if (err)
		goto free;
	if (p->rx) {
		ctx->mbox = phys_to_virt(p->mbox);
		ctx->async = p->async;
		ctx->key.family = p->family;
		ctx->key.proto = IPPROTO_TCP;
		memcpy(ctx->key.src, p->saddr, p->family == 4 ? 4 : 16);
		memcpy(ctx->key.dst, p->daddr, p->family == 4 ? 4 : 16);
		ctx->key.sport = p->sport;
		ctx->key.dport = p->dport;
		hlist_add_head_rcu(&ctx->node, &t->bkt[rxb_tls_hash(&ctx->key)]);
		atomic_inc(&t->nrx);
	}
	atomic64_inc(&t->active);
	atomic64_inc(&t->added);
	*id = ctx->id;
	mutex_unlock(&t->lock);
	return 0;
free:
	rxb_tls_ctx_free(ctx);
out:
	mutex_unlock(&t->lock);
	return err;
}

/**
 * rxb_nic_tls_del() - DEL_CTX command: delete a crypto context.
 * @nic: the NIC.
 * @id: the context.
 *
 * Process context; returns once the NIC no longer uses the context (its
 * mailbox may go).  Frames still posted for it are dropped, counted.
 */
void rxb_nic_tls_del(struct rxb_nic *nic, u32 id)
{
	struct rxb_tls_table *t = nic->tls;
	struct rxb_tls_ctx *ctx;

	mutex_lock(&t->lock);
	ctx = xa_erase(&t->ids, id);
	if (ctx && ctx->rx) {
		hlist_del_rcu(&ctx->node);
		atomic_dec(&t->nrx);
	}
	if (ctx) {
		atomic64_dec(&t->active);
		atomic64_inc(&t->deleted);
	}
	mutex_unlock(&t->lock);
	if (!ctx)
		return;
	/* The pipeline and the engine read contexts under RCU. */
	synchronize_net();
	rxb_tls_ctx_free(ctx);
}

/**
 * rxb_nic_tls_rx_resync() - the resync confirmation register of an RX
 *	context: a posted write, which the NIC takes on the flow's next
 *	frame.
 * @nic: the NIC.
 * @id: the context.
 * @hdr_seq: TCP sequence number of the record header software confirms.
 * @rec_seq: its record's sequence number.
 */
void rxb_nic_tls_rx_resync(struct rxb_nic *nic, u32 id, u32 hdr_seq,
			   u64 rec_seq)
{
	struct rxb_tls_ctx *ctx;

	rcu_read_lock();
	ctx = xa_load(&nic->tls->ids, id);
	if (ctx && ctx->rx) {
		WRITE_ONCE(ctx->confirm_seq, hdr_seq);
		WRITE_ONCE(ctx->confirm_sn, rec_seq);
		/* Pairs with xchg() in rxb_nic_tls_rx(). */
		smp_store_release(&ctx->confirm, 1);
	}
	rcu_read_unlock();
}

/**
 * rxb_nic_tls_rx_progress() - the progress register of an RX context in
 *	the async mode: a posted write, which the NIC answers on the flow's
 *	next frame (RXB_TLS_META_PROGRESS).
 * @nic: the NIC.
 * @id: the context.
 */
void rxb_nic_tls_rx_progress(struct rxb_nic *nic, u32 id)
{
	struct rxb_tls_ctx *ctx;

	rcu_read_lock();
	ctx = xa_load(&nic->tls->ids, id);
	if (ctx && ctx->rx && ctx->async) {
		/* Pairs with xchg() in rxb_nic_tls_rx(). */
		smp_store_release(&ctx->progress, 1);
	}
	rcu_read_unlock();
}

/* Find the TCP payload of frame @skb: @s, its length in *@len. */
static bool rxb_tls_parse(const struct sk_buff *skb, struct rxb_nic_l4 *s,
			  u32 *len)
{
	if (!rxb_nic_parse_l4(skb, s) || s->proto != IPPROTO_TCP ||
	    s->end > skb->len || s->data > s->end)
		return false;
	*len = s->end - s->data;
	return true;
}

/* Is the TCP checksum of linear frame @skb right? */
static bool rxb_tls_csum_ok(struct sk_buff *skb, const struct rxb_nic_l4 *s)
{
	u32 len = s->end - s->l4;
	__wsum sum = skb_checksum(skb, s->l4, len, 0);

	if (s->family == 4) {
		const struct iphdr *ip = (void *)(skb->data + s->l3);

		return !csum_tcpudp_magic(ip->saddr, ip->daddr, len,
					  IPPROTO_TCP, sum);
	}
	return !csum_ipv6_magic(&((struct ipv6hdr *)(skb->data + s->l3))->saddr,
				&((struct ipv6hdr *)(skb->data + s->l3))->daddr,
				len, IPPROTO_TCP, sum);
}

static struct rxb_tls_ctx *rxb_tls_lookup(struct rxb_tls_table *t,
					  const struct rxb_nic_tuple *key)
{
	struct rxb_tls_ctx *ctx;

	hlist_for_each_entry_rcu(ctx, &t->bkt[rxb_tls_hash(key)], node)
		if (!memcmp(&ctx->key, key, sizeof(*key)))
			return ctx;
	return NULL;
}

/**
 * rxb_nic_tls_rx() - the TLS stage of the receive pipeline.
 * @nic: the NIC.
 * @skb: the frame; its data may be made private and decrypted.
 * @key: its flow, as the parser found it.
 * @f: what the ring model will report: the offload word replaces the
 *	hash when there is something to report.
 * @q: the queue it goes to.
 *
 * The NIC's context, RCU read lock held.
 */
void rxb_nic_tls_rx(struct rxb_nic *nic, struct sk_buff *skb,
		    const struct rxb_nic_tuple *key, struct rxb_frame *f,
		    unsigned int q)
{
	struct rxb_tls_table *t = nic->tls;
	struct rxb_tls_rx_res res;
	struct rxb_tls_ctx *ctx;
	bool prog = false;
	struct rxb_nic_l4 s;
	u32 meta, len, hdr;

	if (!atomic_read(&t->nrx) || key->proto != IPPROTO_TCP)
		return;
	ctx = rxb_tls_lookup(t, key);
	if (!ctx || !rxb_tls_parse(skb, &s, &len) || !len)
		return;
	/* The NIC's own copy of the frame, linear, to decrypt in. */
	if (skb_ensure_writable(skb, skb->len))
		goto encrypted;
	/* A sender's checksum offload is done on the ciphertext, as by its
	 * NIC; a received checksum is checked before anything changes.
	 */
	if (skb->ip_summed == CHECKSUM_PARTIAL) {
		if (skb_checksum_help(skb))
			goto encrypted;
	} else if (!rxb_tls_csum_ok(skb, &s)) {
		goto encrypted;
	}
	spin_lock(&ctx->lock);
	/* Pairs with smp_store_release() in rxb_nic_tls_rx_resync(). */
	if (READ_ONCE(ctx->confirm) && xchg(&ctx->confirm, 0) &&
	    rxb_tls_rx_confirm(&ctx->rec, READ_ONCE(ctx->confirm_seq),
			       READ_ONCE(ctx->confirm_sn)))
		atomic64_inc(&t->confirmed);
	/* The mailbox is read by the driver after this frame's completion
	 * (whose release write orders these before it).  A progress query
	 * is answered with the state before this frame: a request this
	 * frame makes follows the answer.
	 */
	if (READ_ONCE(ctx->progress) && xchg(&ctx->progress, 0)) {
		prog = true;
		hdr = 0;
		WRITE_ONCE(ctx->mbox->prog_state,
			   cpu_to_le32(rxb_tls_rx_candidate(&ctx->rec, &hdr) ?
				       RXB_TLS_PROG_TRACKING : 0));
		WRITE_ONCE(ctx->mbox->prog_seq, cpu_to_le32(hdr));
	}
	rxb_tls_rx(&ctx->rec, s.seq, skb->data + s.data, len, &res);
	if (res.resync && ctx->async) {
		WRITE_ONCE(ctx->mbox->pkt_seq, cpu_to_le32(s.seq));
		WRITE_ONCE(ctx->mbox->pkt_len, cpu_to_le32(len));
	} else if (res.resync) {
		WRITE_ONCE(ctx->mbox->hdr_seq, cpu_to_le32(res.resync_seq));
	}
	if (res.resync || prog) {
		WRITE_ONCE(ctx->mbox->gen, cpu_to_le32(++ctx->mbox_gen));
		atomic64_add(sizeof(*ctx->mbox), &nic->pcie[q].to_host_meta);
	}
	spin_unlock(&ctx->lock);
	rxb_tls_count(t, q, RXB_TLS_Q_RX_RECORDS, res.records);
	rxb_tls_count(t, q, RXB_TLS_Q_RX_AUTH_FAIL, res.auth_fail);
	rxb_tls_count(t, q, RXB_TLS_Q_RX_RESYNC, res.resync);
	rxb_tls_count(t, q, RXB_TLS_Q_RX_PROGRESS, prog);
	rxb_tls_count(t, q, res.decrypted ? RXB_TLS_Q_RX_DECRYPTED :
			    RXB_TLS_Q_RX_ENCRYPTED, 1);
	if (!res.decrypted && !res.resync && !prog)
		return;
	meta = ctx->id;
	if (res.decrypted)
		meta |= RXB_TLS_META_DECRYPTED;
	if (res.resync)
		meta |= RXB_TLS_META_RESYNC;
	if (prog)
		meta |= RXB_TLS_META_PROGRESS;
	f->hash = meta;
	f->hash_flags = RXB_CQE_F_TLS_META;
	return;
encrypted:
	rxb_tls_count(t, q, RXB_TLS_Q_RX_ENCRYPTED, 1);
}

/* Encrypt one segment of a TX context's flow into a copy the NIC sends;
 * @seg is consumed.
 */
static void rxb_tls_tx_seg(struct rxb_tls_table *t, struct rxb_tls_ctx *ctx,
			   unsigned int q, struct sk_buff *seg,
			   struct sk_buff_head *out)
{
	struct rxb_tls_tx_res res;
	struct rxb_nic_l4 s;
	struct sk_buff *nskb;
	u32 len;
	int err;

	if (!rxb_tls_parse(seg, &s, &len)) {
		kfree_skb(seg);
		rxb_tls_count(t, q, RXB_TLS_Q_TX_DROPS, 1);
		return;
	}
	if (!len) {
		__skb_queue_tail(out, seg);
		return;
	}
	/* The NIC reads the frame out of host memory into its own buffer. */
	nskb = skb_copy(seg, GFP_ATOMIC);
	consume_skb(seg);
	if (!nskb) {
		rxb_tls_count(t, q, RXB_TLS_Q_TX_DROPS, 1);
		return;
	}
	rxb_skb_set_decrypted(nskb, false);
	spin_lock(&ctx->lock);
	err = rxb_tls_tx(&ctx->rec, s.seq, nskb->data + s.data, len, &res);
	spin_unlock(&ctx->lock);
	if (err) {
		/* It holds plaintext: it must not leave. */
		kfree_skb(nskb);
		rxb_tls_count(t, q, RXB_TLS_Q_TX_DROPS, 1);
		return;
	}
	rxb_tls_count(t, q, RXB_TLS_Q_TX_PACKETS, 1);
	rxb_tls_count(t, q, RXB_TLS_Q_TX_RECORDS, res.records);
	__skb_queue_tail(out, nskb);
}

/* A DUMP descriptor: restart the context at the record and run its
 * earlier bytes through the engine; nothing is sent.
 */
static void rxb_tls_tx_dump_skb(struct rxb_tls_table *t,
				struct rxb_tls_ctx *ctx, unsigned int q,
				const struct rxb_tls_txd *d,
				struct sk_buff *skb)
{
	u32 seq = le32_to_cpu(d->seq);
	int i, err = 0;

	spin_lock(&ctx->lock);
	rxb_tls_tx_resync(&ctx->rec, seq, le64_to_cpu(d->rec_seq));
	for (i = 0; i < skb_shinfo(skb)->nr_frags && !err; i++) {
		const skb_frag_t *fr = &skb_shinfo(skb)->frags[i];
		u8 *va = kmap_local_page(skb_frag_page(fr));

		err = rxb_tls_tx_dump(&ctx->rec, seq, va + skb_frag_off(fr),
				      skb_frag_size(fr));
		kunmap_local(va);
		seq += skb_frag_size(fr);
	}
	spin_unlock(&ctx->lock);
	rxb_tls_count(t, q, err ? RXB_TLS_Q_TX_DROPS : RXB_TLS_Q_TX_DUMPS, 1);
	consume_skb(skb);
}

/**
 * rxb_nic_tls_tx() - the TLS engine on one TX descriptor.
 * @nic: the NIC.
 * @skb: the frame, its struct rxb_tls_txd in @skb->cb; consumed.
 * @out: the frames to send, appended.
 *
 * In the NIC's context: inline from rxb_nic_tls_xmit(), or the Tx engine
 * (rxb_nic_tx_run()).
 */
void rxb_nic_tls_tx(struct rxb_nic *nic, struct sk_buff *skb,
		    struct sk_buff_head *out)
{
	const struct rxb_tls_txd *d = (const void *)skb->cb;
	unsigned int q = skb_get_queue_mapping(skb);
	struct rxb_tls_table *t = nic->tls;
	struct sk_buff *segs, *seg, *next;
	struct rxb_tls_ctx *ctx;
	u32 fl = le32_to_cpu(d->flags);

	if (fl & RXB_TLS_TXD_PLAIN) {
		__skb_queue_tail(out, skb);
		return;
	}
	ctx = xa_load(&t->ids, le32_to_cpu(d->id));
	if (unlikely(!ctx || ctx->rx)) {
		kfree_skb(skb);
		rxb_tls_count(t, q, RXB_TLS_Q_TX_DROPS, 1);
		return;
	}
	if (fl & RXB_TLS_TXD_DUMP) {
		rxb_tls_tx_dump_skb(t, ctx, q, d, skb);
		return;
	}
	if (!skb_is_gso(skb)) {
		rxb_tls_tx_seg(t, ctx, q, skb, out);
		return;
	}
	/* The NIC's TSO, then each segment through the engine in order. */
	segs = skb_gso_segment(skb, NETIF_F_SG | NETIF_F_HW_CSUM);
	consume_skb(skb);
	if (IS_ERR_OR_NULL(segs)) {
		rxb_tls_count(t, q, RXB_TLS_Q_TX_DROPS, 1);
		return;
	}
	skb_list_walk_safe(segs, seg, next) {
		skb_mark_not_on_list(seg);
		skb_set_queue_mapping(seg, q);
		rxb_tls_tx_seg(t, ctx, q, seg, out);
	}
}

/**
 * rxb_nic_tls_xmit() - post a frame of an offloaded socket to the TLS
 *	engine, its struct rxb_tls_txd in @skb->cb.
 * @nic: the NIC.
 * @q: the Tx queue; its xmit lock held.
 * @skb: the frame; consumed.
 * @bytes: what its completion reports, if posted (rxb_nic_tx_post()).
 * @out: inline engine: the frames to put on the wire now, appended (the
 *	caller sends them, its Tx queue lock held).
 *
 * With an engine thread the frame goes through the transmit doorbell
 * (rxb_nic_tx_post()): the Tx engine runs the TLS engine on it, then puts
 * it on the wire, in posting order with the queue's other frames.
 *
 * Return: true when the frames are in @out (inline), false when the
 * frame was posted: the NIC sends its frames itself.
 */
bool rxb_nic_tls_xmit(struct rxb_nic *nic, unsigned int q,
		      struct sk_buff *skb, u32 bytes, struct sk_buff_head *out)
{
	skb_set_queue_mapping(skb, q);
	if (rxb_nic_tx_post(nic, q, skb, true, bytes, 0))
		return false;
	rcu_read_lock();
	rxb_nic_ctx_enter();
	rxb_nic_tls_tx(nic, skb, out);
	rxb_nic_ctx_exit();
	rcu_read_unlock();
	return true;
}

/**
 * rxb_nic_tls_read() - the TLS engine's device-wide counters.
 * @nic: the NIC.
 * @c: filled in.
 */
void rxb_nic_tls_read(struct rxb_nic *nic, struct rxb_nic_tls_counters *c)
{
	struct rxb_tls_table *t = nic->tls;

	c->ctx_active = atomic64_read(&t->active);
	c->ctx_added = atomic64_read(&t->added);
	c->ctx_refused = atomic64_read(&t->refused);
	c->ctx_deleted = atomic64_read(&t->deleted);
	c->resync_confirmed = atomic64_read(&t->confirmed);
}

/**
 * rxb_nic_tls_read_q() - the TLS engine's counters of queue @q.
 * @nic: the NIC.
 * @q: the queue, below RXB_MAX_QUEUES.
 * @c: filled in.
 */
void rxb_nic_tls_read_q(struct rxb_nic *nic, unsigned int q,
			struct rxb_nic_tls_qcounters *c)
{
	u64 *v = (u64 *)c;
	int i;

	for (i = 0; i < RXB_TLS_Q_NUM; i++)
		v[i] = atomic64_read(&nic->tls->q[q].v[i]);
}
