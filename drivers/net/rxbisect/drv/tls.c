// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's half of the kTLS device offload (ethtool -K rxbN
 * tls-hw-tx-offload on tls-hw-rx-offload on; Documentation/rxbisect-tls.rst):
 * struct tlsdev_ops over the NIC's crypto context commands, the transmit
 * descriptors of offloaded sockets, and the receive completions' offload
 * word.  The crypto is the NIC's (hw/nic_tls.c); the driver only tells it
 * where records are, as Linux's interface (Documentation/networking/
 * tls-offload.rst) expects of a driver:
 *
 * - TX: each frame of an offloaded socket is posted with its context.  A
 *   frame that is not the next the NIC expects (a retransmission) is
 *   preceded by a dump of its record's earlier bytes, found with
 *   tls_get_record() (the pages the record holds, referenced, not copied),
 *   as mlx5 posts them; data from before the offload started goes out as
 *   it is.
 * - RX: a completion's offload word marks the skb decrypted, or carries
 *   the NIC's resync request, which goes to the stack; the stack's answer
 *   (tls_dev_resync) is written to the context's confirmation register.
 *   Two modes (module parameter tls_resync, taken by a socket when its
 *   offload starts): sync, the request names the candidate header
 *   (tls_offload_rx_resync_request(), TLS_OFFLOAD_SYNC_TYPE_DRIVER_REQ);
 *   async, as mlx5: the request names the frame the header is in
 *   (tls_offload_rx_resync_async_request_start(): the stack logs the
 *   headers it parses there), the driver asks the NIC which header
 *   (a posted write to its progress register), and the NIC's answer,
 *   on a later completion, goes to the stack
 *   (tls_offload_rx_resync_async_request_end(), or _cancel() when the
 *   NIC tracks none; TLS_OFFLOAD_SYNC_TYPE_DRIVER_REQ_ASYNC).
 *
 * Only TLS 1.2 with AES-GCM-128/256 is offloaded: what tls_device offers.
 */
#include <linux/skbuff.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/tcp.h>
#include <net/tls.h>
#include "rxbisect.h"

#if IS_ENABLED(CONFIG_TLS_DEVICE)

/**
 * struct rxb_tls_drv - the driver's state of one crypto context, hung
 *	from the socket's TLS context (tls_driver_ctx()).
 * @id: the NIC's context.
 * @rx: receive direction.
 * @expected_seq: TX: TCP sequence number of the next byte the NIC's engine
 *	expects (written under the Tx queue's lock).
 * @sk: RX: the socket, for the NIC's resync requests.
 * @async: RX: the async resync.
 * @mbox: RX: where the NIC posts them (host memory it writes).
 * @ra: RX, async: the stack's log of record headers
 *	(tls_offload_context_rx's resync_async).
 */
struct rxb_tls_drv {
	u32 id;
	bool rx;
	u32 expected_seq;
	struct sock *sk;
	bool async;
	struct rxb_tls_rx_mbox mbox;
	struct tls_offload_resync_async ra;
};

static struct rxb_tls_drv **rxb_tls_slot(struct tls_context *tc,
					 enum tls_offload_ctx_dir dir)
{
	static_assert(sizeof(struct rxb_tls_drv *) <= TLS_DRIVER_STATE_SIZE_RX);
	return __tls_driver_ctx(tc, dir);
}

/* The flow as the NIC receives it: from the peer to us. */
static int rxb_tls_flow(struct sock *sk, struct rxb_nic_tls_params *p)
{
	const struct inet_sock *inet = inet_sk(sk);

	p->sport = inet->inet_dport;
	p->dport = inet->inet_sport;
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6 &&
	    !ipv6_addr_v4mapped(&sk->sk_v6_daddr)) {
		p->family = 6;
		memcpy(p->saddr, &sk->sk_v6_daddr, 16);
		memcpy(p->daddr, &sk->sk_v6_rcv_saddr, 16);
		return 0;
	}
#endif
	p->family = 4;
	p->saddr[0] = inet->inet_daddr;
	p->daddr[0] = inet->inet_rcv_saddr;
	return 0;
}

/* A cipher's @key_len bytes of @key, @salt_len of @salt, its big-endian
 * record sequence number @rec_seq -> @p.
 */
static void rxb_tls_key_set(struct rxb_nic_tls_params *p, const u8 *key,
			    unsigned int key_len, const u8 *salt,
			    unsigned int salt_len, const u8 *rec_seq)
{
	p->key_len = key_len;
	memcpy(p->key, key, key_len);
	memcpy(p->salt, salt, salt_len);
	p->rec_seq = get_unaligned_be64(rec_seq);
}

static int rxb_tls_key(const struct tls_crypto_info *ci,
		       struct rxb_nic_tls_params *p)
{
	const struct tls12_crypto_info_aes_gcm_128 *c128 = (const void *)ci;
	const struct tls12_crypto_info_aes_gcm_256 *c256 = (const void *)ci;

	if (ci->version != TLS_1_2_VERSION)
		return -EOPNOTSUPP;
	switch (ci->cipher_type) {
	case TLS_CIPHER_AES_GCM_128:
		rxb_tls_key_set(p, c128->key, TLS_CIPHER_AES_GCM_128_KEY_SIZE,
				c128->salt, TLS_CIPHER_AES_GCM_128_SALT_SIZE,
				c128->rec_seq);
		return 0;
	case TLS_CIPHER_AES_GCM_256:
		rxb_tls_key_set(p, c256->key, TLS_CIPHER_AES_GCM_256_KEY_SIZE,
				c256->salt, TLS_CIPHER_AES_GCM_256_SALT_SIZE,
				c256->rec_seq);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static int rxb_tls_dev_add(struct net_device *dev, struct sock *sk,
			   enum tls_offload_ctx_dir dir,
			   struct tls_crypto_info *ci, u32 start_tcp_sn)
{
	struct rxb_port *port = netdev_priv(dev);
	struct rxb_nic_tls_params p = {};
	struct rxb_tls_drv *d;
	int err;

	err = rxb_tls_key(ci, &p);
	if (err)
		return err;
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d) {
		err = -ENOMEM;
		goto out;
	}
	p.rx = dir == TLS_OFFLOAD_CTX_DIR_RX;
	p.tcp_seq = start_tcp_sn;
	if (p.rx) {
		rxb_tls_flow(sk, &p);
		p.mbox = virt_to_phys(&d->mbox);
		p.async = port->cfg.mp.tls_resync == RXB_TLS_RESYNC_ASYNC;
		d->sk = sk;
		d->async = p.async;
	}
	/* The NIC's ADD_CTX command: a full table refuses (-ENOSPC), and
	 * the stack keeps the socket in software.
	 */
	err = rxb_nic_tls_add(port->nic, &p, &d->id);
	if (err)
		goto free;
	d->rx = p.rx;
	d->expected_seq = start_tcp_sn;
	if (p.rx) {
		err = xa_err(xa_store(&port->tls_rx, d->id, d, GFP_KERNEL));
		if (err) {
			rxb_nic_tls_del(port->nic, d->id);
			goto free;
		}
	}
	*rxb_tls_slot(tls_get_ctx(sk), dir) = d;
	if (d->async) {
		/* Before the stack parses a record with this context. */
		tls_offload_ctx_rx(tls_get_ctx(sk))->resync_async = &d->ra;
		tls_offload_rx_resync_set_type(sk,
					       TLS_OFFLOAD_SYNC_TYPE_DRIVER_REQ_ASYNC);
	}
	goto out;
free:
	kfree(d);
out:
	memzero_explicit(&p, sizeof(p));
	return err;
}

static void rxb_tls_dev_del(struct net_device *dev, struct tls_context *tc,
			    enum tls_offload_ctx_dir dir)
{
	struct rxb_port *port = netdev_priv(dev);
	struct rxb_tls_drv **slot = rxb_tls_slot(tc, dir), *d = *slot;

	if (!d)
		return;
	if (d->rx)
		xa_erase(&port->tls_rx, d->id);
	/* Returns once neither the NIC nor a poll (RCU) uses @d. */
	rxb_nic_tls_del(port->nic, d->id);
	*slot = NULL;
	kfree(d);
}

static int rxb_tls_dev_resync(struct net_device *dev, struct sock *sk,
			      u32 seq, u8 *rcd_sn,
			      enum tls_offload_ctx_dir dir)
{
	struct rxb_port *port = netdev_priv(dev);
	struct rxb_tls_drv *d;

	/* TX never asks (tls_offload_tx_resync_request()): retransmissions
	 * are recovered with dumps.
	 */
	if (dir != TLS_OFFLOAD_CTX_DIR_RX)
		return -EOPNOTSUPP;
	d = *rxb_tls_slot(tls_get_ctx(sk), dir);
	if (!d)
		return -ENOENT;
	/* @seq is the header's first byte in the async mode, its last
	 * (TLS_OFFLOAD_SYNC_TYPE_DRIVER_REQ) in the sync one.
	 */
	if (!d->async)
		seq -= TLS_HEADER_SIZE - 1;
	rxb_nic_tls_rx_resync(port->nic, d->id, seq, get_unaligned_be64(rcd_sn));
	return 0;
}

static const struct tlsdev_ops rxb_tlsdev_ops = {
	.tls_dev_add	= rxb_tls_dev_add,
	.tls_dev_del	= rxb_tls_dev_del,
	.tls_dev_resync	= rxb_tls_dev_resync,
};

/* Post @skb, its descriptor written, to the NIC's TLS engine. */
static void rxb_tls_post(struct rxb_port *port, unsigned int q,
			 struct sk_buff *skb, struct sk_buff_head *out)
{
	u32 bytes = rxb_tx_bql_bytes(port, q, skb);

	if (!rxb_nic_tls_xmit(port->nic, q, skb, bytes, out))
		rxb_tx_posted(port, q, bytes);
}

/* Post a DUMP of the bytes of @seq's record before @seq (the record's
 * pages, referenced).  Return: 0, RXB_TLS_TXD_PLAIN when the frame's
 * bytes all come before the offload started, or -EINVAL (drop it).
 */
static int rxb_tls_dump(struct rxb_port *port, struct rxb_tls_drv *d,
			struct tls_offload_context_tx *otx, unsigned int q,
			u32 seq, u32 len, struct sk_buff_head *out)
{
	struct tls_record_info *rec;
	struct rxb_tls_txd *txd;
	struct sk_buff *dump;
	unsigned long flags;
	u32 start, left;
	int i, n = 0;
	u64 rcd_sn;

	dump = alloc_skb(0, GFP_ATOMIC);
	if (!dump)
		return -ENOMEM;
	spin_lock_irqsave(&otx->lock, flags);
	rec = tls_get_record(otx, seq, &rcd_sn);
	if (!rec || tls_record_is_start_marker(rec)) {
		bool before_start = rec && before(seq + len - 1,
						  tls_record_start_seq(rec));

		spin_unlock_irqrestore(&otx->lock, flags);
		kfree_skb(dump);
		return before_start ? RXB_TLS_TXD_PLAIN : -EINVAL;
	}
	start = tls_record_start_seq(rec);
	left = seq - start;
	for (i = 0; left && i < rec->num_frags; i++) {
		const skb_frag_t *fr = &rec->frags[i];
		u32 k = min_t(u32, left, skb_frag_size(fr));

		get_page(skb_frag_page(fr));
		skb_fill_page_desc(dump, n++, skb_frag_page(fr),
				   skb_frag_off(fr), k);
		dump->len += k;
		dump->data_len += k;
		left -= k;
	}
	spin_unlock_irqrestore(&otx->lock, flags);
	txd = (void *)dump->cb;
	memset(txd, 0, sizeof(*txd));
	txd->id = cpu_to_le32(d->id);
	txd->flags = cpu_to_le32(RXB_TLS_TXD_DUMP);
	txd->seq = cpu_to_le32(start);
	txd->rec_seq = cpu_to_le64(rcd_sn);
	rxb_tls_post(port, q, dump, out);
	return 0;
}

/**
 * rxb_tls_xmit() - transmit a frame of a socket with TX offload: post it
 *	to the NIC's TLS engine with its descriptor.
 * @port: the port.
 * @skb: the frame; consumed.
 * @out: inline NIC: the frames to put on the wire, appended.
 *
 * Called from ndo_start_xmit, its Tx queue's lock held.
 */
void rxb_tls_xmit(struct rxb_port *port, struct sk_buff *skb,
		  struct sk_buff_head *out)
{
	struct tls_context *tc = tls_get_ctx(skb->sk);
	struct rxb_tls_drv *d = *rxb_tls_slot(tc, TLS_OFFLOAD_CTX_DIR_TX);
	unsigned int q = skb_get_queue_mapping(skb);
	struct rxb_tls_txd *txd = (void *)skb->cb;
	u32 seq, len, flags = 0;
	int ret;

	if (unlikely(!d || rcu_access_pointer(tc->netdev) != port->dev)) {
		/* Not ours to encrypt, and plaintext must not leave. */
		rxb_txq_drop(&port->txs[q]);
		kfree_skb(skb);
		return;
	}
	seq = ntohl(tcp_hdr(skb)->seq);
	len = skb->len - skb_transport_offset(skb) - tcp_hdrlen(skb);
	if (!len) {
		flags = RXB_TLS_TXD_PLAIN;
	} else if (seq != d->expected_seq) {
		ret = rxb_tls_dump(port, d, tls_offload_ctx_tx(tc), q, seq,
				   len, out);
		if (ret < 0) {
			rxb_txq_drop(&port->txs[q]);
			kfree_skb(skb);
			return;
		}
		flags = ret;
	}
	if (len && !flags)
		d->expected_seq = seq + len;
	memset(txd, 0, sizeof(*txd));
	txd->id = cpu_to_le32(d->id);
	txd->flags = cpu_to_le32(flags);
	rxb_tls_post(port, q, skb, out);
}

/* The NIC's answer to a progress query: the candidate header it tracks
 * from goes to the stack, which resyncs once it has parsed that header
 * (logged since the request's start, or when it parses it next); when it
 * tracks none (the candidate failed, or was confirmed), the request ends.
 */
static void rxb_tls_rx_progress(struct rxb_port *port, struct rxb_tls_drv *d)
{
	u32 hdr = le32_to_cpu(READ_ONCE(d->mbox.prog_seq));

	if (le32_to_cpu(READ_ONCE(d->mbox.prog_state)) & RXB_TLS_PROG_TRACKING) {
		rxb_tls_resync_async_end(d->sk, &d->ra, cpu_to_be32(hdr));
		atomic64_inc(&port->tls_async[RXB_TLS_ASYNC_END]);
	} else {
		tls_offload_rx_resync_async_request_cancel(&d->ra);
		atomic64_inc(&port->tls_async[RXB_TLS_ASYNC_SKIP]);
	}
}

/**
 * rxb_tls_rx_meta() - what the NIC reported of a received frame in its
 *	offload word (RXB_CQE_F_TLS_META).
 * @port: the port.
 * @skb: the frame's skb.
 * @meta: the word.
 *
 * NAPI context.
 */
void rxb_tls_rx_meta(struct rxb_port *port, struct sk_buff *skb, u32 meta)
{
	struct rxb_tls_drv *d;
	u32 seq;

	if (meta & RXB_TLS_META_DECRYPTED) {
		rxb_skb_set_decrypted(skb, true);
		/* The NIC checked the checksum of the ciphertext. */
		skb->ip_summed = CHECKSUM_UNNECESSARY;
		skb->csum_level = 0;
	}
	if (!(meta & (RXB_TLS_META_RESYNC | RXB_TLS_META_PROGRESS)))
		return;
	rcu_read_lock();
	d = xa_load(&port->tls_rx, meta & RXB_TLS_META_ID);
	/* The completion was read with acquire: the mailbox is written. */
	if (!d) {
		rcu_read_unlock();
		return;
	}
	if (!d->async) {
		/* The stack names a header by its last byte. */
		seq = le32_to_cpu(READ_ONCE(d->mbox.hdr_seq)) +
		      TLS_HEADER_SIZE - 1;
		if (meta & RXB_TLS_META_RESYNC)
			tls_offload_rx_resync_request(d->sk, cpu_to_be32(seq));
		rcu_read_unlock();
		return;
	}
	/* Async: the answer to an earlier query first, then a new request. */
	if (meta & RXB_TLS_META_PROGRESS)
		rxb_tls_rx_progress(port, d);
	if (meta & RXB_TLS_META_RESYNC) {
		rxb_tls_resync_async_start(d->sk, &d->ra,
					   cpu_to_be32(le32_to_cpu(READ_ONCE(d->mbox.pkt_seq))),
					   min_t(u32, le32_to_cpu(READ_ONCE(d->mbox.pkt_len)),
						 U16_MAX));
		atomic64_inc(&port->tls_async[RXB_TLS_ASYNC_START]);
		/* Which header: the NIC answers on the flow's next frame. */
		rxb_nic_tls_rx_progress(port->nic, d->id);
	}
	rcu_read_unlock();
}

/**
 * rxb_tls_init() - offer the offload on a port: its features (off, as on
 *	real NICs) and tlsdev_ops.
 * @port: the port, not registered yet.
 */
void rxb_tls_init(struct rxb_port *port)
{
	struct net_device *dev = port->dev;

	xa_init(&port->tls_rx);
	dev->hw_features |= NETIF_F_HW_TLS_TX | NETIF_F_HW_TLS_RX;
	dev->tlsdev_ops = &rxb_tlsdev_ops;
}

#else /* !CONFIG_TLS_DEVICE */

void rxb_tls_init(struct rxb_port *port)
{
}

void rxb_tls_xmit(struct rxb_port *port, struct sk_buff *skb,
		  struct sk_buff_head *out)
{
	__skb_queue_tail(out, skb);
}

void rxb_tls_rx_meta(struct rxb_port *port, struct sk_buff *skb, u32 meta)
{
}

#endif
