// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect driver receive path: queues, NAPI, page_pool, skb building.
 *
 * The ring model's driver half consumes completions and reposts buffers;
 * this file turns the packets it returns into skbs and feeds GRO: built
 * around the page_pool page the NIC wrote, or, for a buffer that holds
 * several packets (batched RxList), as a page_pool fragment of it; no
 * packet is copied.  A streaming model (Ensō) has no buffers: each packet
 * is copied out of its pipe into a fresh skb (rxb_rx_copy_skb()), the
 * paper's copy case, before the model returns the pipe's bytes to the NIC.
 */
#include <linux/delay.h>
#include <linux/cpumask.h>
#include <linux/vmalloc.h>
#include <linux/etherdevice.h>
#include <linux/prandom.h>
#include <net/xdp.h>
#include "rxbisect.h"
#include <trace/events/rxbisect.h>

/**
 * rxb_queue_cpu() - CPU of queue @q's interrupt vector.
 * @port: the port.
 * @q: queue.
 *
 * The debugfs irq_cpu knob if set and online, else queue i -> the i-th
 * online CPU (modulo), as drivers spread MSI-X affinity.
 */
int rxb_queue_cpu(const struct rxb_port *port, unsigned int q)
{
	int cpu = READ_ONCE(port->knobs[q].irq_cpu);

	if (cpu >= 0 && cpu < nr_cpu_ids && cpu_online(cpu))
		return cpu;
	return cpumask_local_spread(q, NUMA_NO_NODE);
}

/* A scatter buffer (rxb_desc.h): bl.segs pages of queue @q's pool, the
 * list of their data ranges in the first page's headroom, which the NIC
 * does not write (the frame starts after it, at RXB_RX_HEADROOM); the
 * other pages take data from their first byte.  Posted at the list's
 * address.
 */
static int rxb_rx_alloc_sgl(struct rxb_rx *rx, unsigned int q,
			    struct rxb_buf *buf)
{
	struct page_pool *pp = rx->rxq[q].pp;
	struct page *page[RXB_RX_SGE_MAX];
	struct rxb_rx_sgl *sgl;
	unsigned int i;

	for (i = 0; i < rx->bl.segs; i++) {
		page[i] = page_pool_dev_alloc_pages(pp);
		if (!page[i]) {
			while (i--)
				page_pool_put_full_page(pp, page[i],
							!rx->rxq[q].pp_shared);
			return -ENOMEM;
		}
		rxb_page_pool_frag_init(pp, page[i]);
	}
	sgl = page_address(page[0]);
	memset(sgl, 0, sizeof(*sgl));
	sgl->sge[0].addr = cpu_to_le64(page_to_phys(page[0]) +
				       rx->bl.headroom);
	sgl->sge[0].len = cpu_to_le32(RXB_RX_BUF_LEN);
	for (i = 1; i < rx->bl.segs; i++) {
		sgl->sge[i].addr = cpu_to_le64(page_to_phys(page[i]));
		sgl->sge[i].len = cpu_to_le32(PAGE_SIZE);
	}
	buf->addr = page_to_phys(page[0]);
	buf->cookie = sgl;
	return 0;
}

/* Page @i of the scatter buffer @cookie (its first page's address): the
 * driver's own list, which the NIC only reads.
 */
static struct page *rxb_sgl_page(void *cookie, unsigned int i)
{
	const struct rxb_rx_sgl *sgl = cookie;

	return virt_to_page(phys_to_virt(le64_to_cpu(sgl->sge[i].addr)));
}

static int rxb_rx_alloc_buf(void *env, unsigned int q, struct rxb_buf *buf)
{
	struct rxb_rx *rx = env;
	struct page_pool *pp;
	unsigned int off = 0;
	struct page *page;

	/* fault/alloc_fail: as page_pool under memory pressure. */
	if (rxb_fault_hit(&rx->port->fault.alloc_fail))
		goto fail;
	/* A zero-copy AF_XDP socket's umem (xsk.c): an empty fill ring is
	 * the application's, not an allocation failure.
	 */
	if (rx->rxq[q].xsk)
		return rxb_xsk_alloc_buf(&rx->rxq[q], buf);
	if (rx->bl.segs > 1) {
		if (!rxb_rx_alloc_sgl(rx, q, buf))
			return 0;
		goto fail;
	}
	pp = rx->rxq[q].pp;
	if (rx->bl.size < PAGE_SIZE) {
		/* Half a page: the pool hands out a page's fragments in
		 * turn, each holding one of its references.
		 */
		page = page_pool_dev_alloc_frag(pp, &off, rx->bl.size);
		if (!page)
			goto fail;
	} else {
		page = page_pool_dev_alloc_pages(pp);
		if (!page)
			goto fail;
		/* Fragment pools: the model's reference is the page's one
		 * fragment (see rxb_rx_ref_buf()).
		 */
		rxb_page_pool_frag_init(pp, page);
	}
	buf->addr = page_to_phys(page) + off + rx->bl.headroom;
	buf->cookie = page_address(page) + off;
	return 0;

fail:
	/* For the alloc_fail health reporter (health.c). */
	rxb_health_event(rx->port, RXB_HEALTH_ALLOC, q);
	return -ENOMEM;
}

/* Give back a whole buffer of queue @q's pool, written or not: a scatter
 * buffer's every page.  @direct: from @q's own poll (rxb_rx_direct()).
 */
static void rxb_rx_put_buf(struct rxb_rx *rx, unsigned int q,
			   void *cookie, bool direct)
{
	struct page_pool *pp = rx->rxq[q].pp;
	unsigned int i;

	for (i = 1; i < rx->bl.segs; i++)
		page_pool_put_full_page(pp, rxb_sgl_page(cookie, i), direct);
	/* A fragment: its reference only, the page goes back with the last. */
	page_pool_put_full_page(pp, rxb_buf_page(cookie), direct);
}

static void rxb_rx_free_buf(void *env, unsigned int q, void *cookie)
{
	struct rxb_rx *rx = env;

	if (rxb_xsk_cookie(cookie))
		rxb_xsk_free_buf(&rx->rxq[q], cookie);
	else
		rxb_rx_put_buf(rx, q, cookie, false);
}

/**
 * rxb_rx_shinfo() - the skb_shared_info at the end of a buffer (of its
 *	first page), where napi_build_skb() and XDP look for a packet's
 *	fragments.
 * @rx: the configuration.
 * @cookie: the buffer's handle (rxb_buf_va()).
 *
 * Return: the shared info.
 */
struct skb_shared_info *rxb_rx_shinfo(const struct rxb_rx *rx, void *cookie)
{
	return rxb_buf_va(cookie) + rxb_rx_buf_size(rx) - RXB_RX_TAILROOM;
}

/**
 * rxb_rx_put_pkt() - give back the pages of a packet dropped in poll.
 * @rxq: the queue whose poll handles it.
 * @p: the packet, in a page of queue p->pool_q's pool.
 * @nfrags: fragments it has in its shared info (rxb_rx_sgl_frags()).
 */
void rxb_rx_put_pkt(struct rxb_rxq *rxq, const struct rxb_pkt *p,
		    unsigned int nfrags)
{
	struct rxb_rx *rx = rxq->rx;
	struct page_pool *pp = rx->rxq[p->pool_q].pp;
	bool direct = rxb_rx_direct(rxq, p->pool_q);
	struct skb_shared_info *sh;
	unsigned int i;

	/* A shared pool's buffer, whole: the model's cache may keep it. */
	if (rxq->pp_shared && !p->frag && !nfrags && rx->bl.segs == 1 &&
	    rx->model->ops->recycle) {
		struct rxb_buf buf = {
			.addr	= virt_to_phys(p->cookie) + rx->bl.headroom,
			.cookie	= p->cookie,
		};

		if (rx->model->ops->recycle(rx->model, rxq->qid, &buf))
			return;
	}
	if (nfrags) {
		sh = rxb_rx_shinfo(rx, p->cookie);
		for (i = 0; i < nfrags; i++)
			page_pool_put_full_page(pp,
						skb_frag_page(&sh->frags[i]),
						direct);
	}
	page_pool_put_full_page(pp, rxb_buf_page(p->cookie), direct);
}

/* A frame in a scatter buffer: the pages past the first that hold some of
 * it become fragments in the first page's shared info (with their byte
 * count in xdp_frags_size, as XDP keeps it); those it did not reach go
 * back to the pool.  Returns the fragment count.
 */
static unsigned int rxb_rx_sgl_frags(struct rxb_rxq *rxq, struct rxb_pkt *p)
{
	struct rxb_rx *rx = rxq->rx;
	struct page_pool *pp = rx->rxq[p->pool_q].pp;
	bool direct = rxb_rx_direct(rxq, p->pool_q);
	struct skb_shared_info *sh = rxb_rx_shinfo(rx, p->cookie);
	u32 left = p->len - min_t(u32, p->len, RXB_RX_BUF_LEN);
	unsigned int i, n = 0;

	sh->xdp_frags_size = left;
	for (i = 1; i < rx->bl.segs; i++) {
		struct page *page = rxb_sgl_page(p->cookie, i);
		u32 len = min_t(u32, left, PAGE_SIZE);

		if (!len) {
			page_pool_put_full_page(pp, page, direct);
			continue;
		}
		rxb_skb_frag_fill(&sh->frags[n++], page, 0, len);
		left -= len;
	}
	sh->nr_frags = n;
	return n;
}

/* A packet handed up as a fragment of a page the model keeps (batched
 * RxList) holds one fragment reference of its own: the page returns to
 * its pool (page_pool_put_page() -> page_pool_defrag_page()) when the
 * model's reference and every packet's are gone.  The model holds one,
 * so the count cannot reach zero under page_pool_ref_page().
 */
static void rxb_rx_ref_buf(void *env, unsigned int q, void *cookie)
{
	page_pool_ref_page(rxb_buf_page(cookie));
}

/* The model's reference (rxb_rx_ref_buf()) is the page's last: the stack
 * freed every packet in it, and the model's page_pool_put_full_page()
 * would return it to the pool.  The pool counts references (a fragment
 * pool up to 6.5, rxb_pool_frags()).
 */
static bool rxb_rx_buf_idle(void *env, unsigned int q, void *cookie)
{
	return rxb_page_pool_refs(rxb_buf_page(cookie)) == 1;
}

/* The buffer a bus address the driver posted points into: buffers start
 * at multiples of their size (struct rxb_buf_layout.size).
 */
static void *rxb_rx_buf_cookie(void *env, u64 addr)
{
	const struct rxb_rx *rx = env;

	return (void *)ALIGN_DOWN((unsigned long)phys_to_virt(addr),
				  rxb_rx_buf_size(rx));
}

/* Extra per-packet work: random cache-line touches (the seeds' slow core). */
static void rxb_rx_work(struct rxb_rxq *rxq, u32 n)
{
	/* Acquire: pairs with cmpxchg_release() in rxb_work_set(). */
	u8 *buf = smp_load_acquire(&rxq->rx->port->work_buf);
	u32 x = rxq->work_seed;

	if (!buf)
		return;
	while (n--) {
		/* xorshift32 */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[(x % (RXB_WORK_BUF_SIZE / SMP_CACHE_BYTES)) * SMP_CACHE_BYTES]++;
	}
	rxq->work_seed = x;
}

/* Hash, checksum and queue the NIC reported, for either kind of skb. */
static void rxb_rx_meta(struct rxb_rxq *rxq, struct sk_buff *skb,
			const struct rxb_pkt *p)
{
	skb_record_rx_queue(skb, rxq->qid);
	if ((p->flags & RXB_CQE_F_TLS_META) == RXB_CQE_F_TLS_META)
		;	/* the hash field is the kTLS offload's word (below) */
	else if (!(rxq->rx->port->dev->features & NETIF_F_RXHASH))
		;	/* ethtool -K rxhash off: the NIC's hash is not reported */
	else if (p->flags & RXB_CQE_F_L4_HASH)
		skb_set_hash(skb, p->hash, PKT_HASH_TYPE_L4);
	else if (p->flags & RXB_CQE_F_L3_HASH)
		skb_set_hash(skb, p->hash, PKT_HASH_TYPE_L3);
	if (p->flags & RXB_CQE_F_CSUM) {
		skb->ip_summed = CHECKSUM_COMPLETE;
		skb->csum = (__force __wsum)p->csum;
	}
	rxb_ptp_rx(rxq->rx->port, skb, p->ts);
	if (unlikely((p->flags & RXB_CQE_F_TLS_META) == RXB_CQE_F_TLS_META))
		rxb_tls_rx_meta(rxq->rx->port, skb, p->hash);
	rxq->poll_pkts++;
	rxq->poll_bytes += p->len;
}

/* A packet in a page the model keeps (batched RxList): the page fragment
 * goes up as it is, with the packet's own page_pool fragment reference
 * (rxb_rx_ref_buf()), in napi's frags skb; GRO pulls the headers.  No
 * copy, as mlx5's striding RQ.
 */
static void rxb_rx_frag(struct rxb_rxq *rxq, const struct rxb_pkt *p)
{
	struct sk_buff *skb = napi_get_frags(&rxq->napi);
	struct page *page = rxb_buf_page(p->cookie);

	if (unlikely(!skb)) {
		rxb_rx_put_pkt(rxq, p, 0);
		rxq->poll_drops++;
		return;
	}
	skb_add_rx_frag(skb, skb_shinfo(skb)->nr_frags, page,
			rxb_buf_va(p->cookie) - page_address(page) +
			rxq->rx->bl.headroom + p->offset, p->len,
			ALIGN(p->len, RXB_MCQE_ALIGN));
	skb_mark_for_recycle(skb);
	rxb_rx_meta(rxq, skb, p);
	napi_gro_frags(&rxq->napi);
}

/* A packet alone in its buffer: the skb takes the buffer over (its head
 * a page_pool page or half of one), no copy.
 * @head: where the packet starts in the buffer; @meta: bytes of XDP
 * metadata before it; @nfrags: fragments in the buffer's shared info
 * (rxb_rx_sgl_frags()), holding its last xdp_frags_size bytes.
 */
static struct sk_buff *rxb_rx_build_skb(struct rxb_rxq *rxq,
					const struct rxb_pkt *p,
					unsigned int head, unsigned int meta,
					unsigned int nfrags)
{
	struct rxb_rx *rx = rxq->rx;
	u32 frags_len = 0;
	struct sk_buff *skb;

	if (nfrags)	/* napi_build_skb() clears the count, not the rest */
		frags_len = rxb_rx_shinfo(rx, p->cookie)->xdp_frags_size;
	skb = napi_build_skb(rxb_buf_va(p->cookie), rxb_rx_buf_size(rx));
	if (unlikely(!skb)) {
		rxb_rx_put_pkt(rxq, p, nfrags);
		return NULL;
	}
	skb_reserve(skb, head);
	__skb_put(skb, p->len - frags_len);
	if (nfrags)
		xdp_update_skb_frags_info(skb, nfrags, frags_len,
					  nfrags * PAGE_SIZE, 0);
	if (meta)
		skb_metadata_set(skb, meta);
	skb_mark_for_recycle(skb);
	return skb;
}

/* A packet in a streaming model's ring (struct rxb_pkt.data): copied into
 * a fresh skb, one copy per packet that the buffer models do not make
 * (Ensō's copy case, section 6: a socket application cannot read the pipe
 * in place).  The model reuses the ring bytes only after this returns
 * (rxb_model_ops.stream).
 */
static struct sk_buff *rxb_rx_copy_skb(struct rxb_rxq *rxq,
				       const struct rxb_pkt *p)
{
	struct sk_buff *skb;

	/* fault/alloc_fail: the driver's one allocation here, the skb's. */
	if (rxb_fault_hit(&rxq->rx->port->fault.alloc_fail))
		skb = NULL;
	else
		skb = napi_alloc_skb(&rxq->napi, p->len);
	if (unlikely(!skb)) {
		rxb_health_event(rxq->rx->port, RXB_HEALTH_ALLOC, rxq->qid);
		return NULL;
	}
	skb_put_data(skb, p->data, p->len);
	return skb;
}

/**
 * rxb_rx_whole() - a packet whole in its buffer to the stack, after the
 *	XDP program if there is one (@prog, xdp.c): the same path for every
 *	ring model.
 * @rxq: its queue, in its NAPI poll.
 * @p: the packet.
 * @prog: the XDP program, or NULL (none, or it ran already).
 * @head: where the packet starts in its page.
 * @meta: bytes of XDP metadata before it.
 */
void rxb_rx_whole(struct rxb_rxq *rxq, struct rxb_pkt *p,
		  struct bpf_prog *prog, unsigned int head, unsigned int meta)
{
	struct net_device *dev = rxq->rx->port->dev;
	unsigned int nfrags = 0;
	struct sk_buff *skb;

	/* A frame longer than a page, in a scatter buffer. */
	if (rxq->rx->bl.segs > 1)
		nfrags = rxb_rx_sgl_frags(rxq, p);
	if (prog && !rxb_xdp_run(rxq, prog, p, &nfrags, &head, &meta))
		return;
	if (p->frag) {
		rxb_rx_frag(rxq, p);
		return;
	}
	skb = p->cookie ? rxb_rx_build_skb(rxq, p, head, meta, nfrags) :
			  rxb_rx_copy_skb(rxq, p);
	if (unlikely(!skb)) {
		rxq->poll_drops++;
		return;
	}
	skb->protocol = eth_type_trans(skb, dev);
	rxb_rx_meta(rxq, skb, p);
	napi_gro_receive(&rxq->napi, skb);
}

/* A packet the model handed up, to the stack or XDP. */
static void rxb_rx_skb(struct rxb_rxq *rxq, struct rxb_pkt *p,
		       struct bpf_prog *prog)
{
	struct sk_buff *skb;

	if (rxb_xsk_cookie(p->cookie)) {
		/* A umem buffer (xsk.c): XDP in place, a copy to the stack. */
		skb = rxb_xsk_rx(rxq, prog, p);
		if (!skb)
			return;
		skb->protocol = eth_type_trans(skb, rxq->rx->port->dev);
		rxb_rx_meta(rxq, skb, p);
		napi_gro_receive(&rxq->napi, skb);
		return;
	}
	/* Headers here, payload in NIC memory, or packets parked before
	 * this one (hds.c): it goes up in order, later or now.
	 */
	if (unlikely(rxq->hds && ((p->flags & RXB_CQE_F_SPLIT) ||
				  rxb_hds_parked(rxq)))) {
		rxb_hds_rx(rxq, p, prog);
		return;
	}
	rxb_rx_whole(rxq, p, prog, rxq->rx->bl.headroom, 0);
}

/* The NIC could not write the packet: recycle its buffer (a fragment: drop
 * the packet's reference), count the drop.
 */
static void rxb_rx_dma_err(struct rxb_rxq *rxq, const struct rxb_pkt *p)
{
	struct rxb_rx *rx = rxq->rx;

	if (rxb_xsk_cookie(p->cookie))
		rxb_xsk_free_buf(rxq, p->cookie);
	else if (p->cookie)	/* else a packet in a streaming model's ring */
		rxb_rx_put_buf(rx, p->pool_q, p->cookie,
			       rxb_rx_direct(rxq, p->pool_q));
	u64_stats_update_begin(&rxq->stats.syncp);
	u64_stats_inc(&rxq->stats.dma_errors);
	u64_stats_update_end(&rxq->stats.syncp);
	trace_rxb_drop(rx->port->dev, rx->model->ops->name, rxq->qid,
		       "dma_err");
	/* Learnt from the completion: for the dma_fault reporter. */
	rxb_health_event(rx->port, RXB_HEALTH_DMA, rxq->qid);
}

/* A poll that cannot refill its ring (the pool, or the page allocator
 * behind it, is out of pages) does not keep NAPI scheduled to retry: that
 * would spin the softirq for as long as memory is short.  It completes
 * NAPI with the vector left masked and this timer fires the vector again
 * a jiffy later.
 */
#define RXB_REFILL_RETRY_JIFFIES	1

static void rxb_refill_retry(struct timer_list *t)
{
	struct rxb_rxq *rxq = timer_container_of(rxq, t, refill_timer);

	rxb_nic_vec_trigger(rxq->rx->port->nic, rxq->qid);
}

/* Fold the counts of one poll into the queue's counters: one update. */
static void rxb_poll_stats(struct rxb_rxq *rxq, bool off_cpu, bool backoff)
{
	struct rxb_rxq_stats *st = &rxq->stats;
	unsigned int i;

	u64_stats_update_begin(&st->syncp);
	u64_stats_add(&st->packets, rxq->poll_pkts);
	u64_stats_add(&st->bytes, rxq->poll_bytes);
	u64_stats_add(&st->skb_drops, rxq->poll_drops);
	u64_stats_add(&st->polls_off_cpu, off_cpu);
	u64_stats_add(&st->refill_backoffs, backoff);
	for (i = 0; i < RXB_XDP_NSTATS; i++)
		u64_stats_add(&st->xdp[i], rxq->poll_xdp[i]);
	u64_stats_update_end(&st->syncp);
	rxq->poll_pkts = 0;
	rxq->poll_bytes = 0;
	rxq->poll_drops = 0;
	memset(rxq->poll_xdp, 0, sizeof(rxq->poll_xdp));
}

static int rxb_napi_poll(struct napi_struct *napi, int budget)
{
	struct rxb_rxq *rxq = container_of(napi, struct rxb_rxq, napi);
	struct rxb_rx *rx = rxq->rx;
	struct rxb_port *port = rx->port;
	struct rxb_model *m = rx->model;
	unsigned int q = rxq->qid;
	u32 work = READ_ONCE(port->knobs[q].work);
	bool off_cpu = smp_processor_id() != READ_ONCE(rxq->irq_cpu);
	struct bpf_prog *prog;
	int done = 0, n, i;
	bool refilled, lent;

	if (READ_ONCE(port->knobs[q].stall)) {
		rxb_poll_stats(rxq, off_cpu, false);
		/* Leave the vector masked: the queue is not serviced until
		 * the knob is cleared, which triggers the vector again.
		 */
		napi_complete_done(napi, 0);
		return 0;
	}
	/* For the stall watchdog (health.c). */
	WRITE_ONCE(port->knobs[q].last_poll, jiffies);
	/* One program for the whole poll (xdp.c). */
	rcu_read_lock();
	prog = rcu_dereference(port->xdp_prog);
	/* Packets parked for their payload's fetch (hds.c), in order. */
	if (rxq->hds)
		done = rxb_hds_drain(rxq, prog, budget);
	while (done < budget) {
		int want = min(budget - done, RXB_NAPI_BUDGET);

		/* Room to park what this call hands up, if it must wait. */
		if (rxq->hds)
			want = min_t(int, want, rxb_hds_room(rxq));
		if (!want)
			break;
		n = rxb_model_poll(m, q, rxq->pkts, want);
		for (i = 0; i < n; i++) {
			if (unlikely(rxq->pkts[i].flags & RXB_CQE_F_DMA_ERR)) {
				rxb_rx_dma_err(rxq, &rxq->pkts[i]);
				continue;
			}
			if (work)
				rxb_rx_work(rxq, work);
			rxb_rx_skb(rxq, &rxq->pkts[i], prog);
		}
		if (prog)
			rxb_xdp_flush(rxq);
		done += n;
		if (n < want)
			break;
	}
	rcu_read_unlock();
	/* Payloads in NIC memory lent to redirected frames (hds.c). */
	lent = rxq->hds && rxb_hds_reclaim(rxq);
	/* The XDP Tx ring of the channel's Tx queue: what the NIC's engine
	 * thread completed goes back (xdp.c), before the socket's Tx ring
	 * posts more.
	 */
	rxb_xdpq_reclaim(port, q);
	/* A zero-copy AF_XDP socket's Tx ring (xsk.c): more left, poll on. */
	if (rxq->xsk && rxb_xsk_tx(rxq))
		done = budget;
	refilled = m->ops->refill(m, q);
	trace_rxb_poll(port->dev, m->ops->name, q, done, budget, refilled);
	if (unlikely(!refilled)) {
		/* Buffers could not be allocated: back off (see
		 * RXB_REFILL_RETRY_JIFFIES); a full budget polls on.  The
		 * timer is armed before NAPI completes: rxb_rx_stop() stops
		 * it after napi_disable().
		 */
		bool backoff = done < budget;

		/* Before NAPI completes: another poll may start after. */
		rxb_poll_stats(rxq, off_cpu, backoff);
		if (backoff) {
			mod_timer(&rxq->refill_timer,
				  jiffies + RXB_REFILL_RETRY_JIFFIES);
			napi_complete_done(napi, done);
		}
		return done;
	}
	rxb_poll_stats(rxq, off_cpu, false);
	/* From here napi_disable() may return: rxb_rx_stop() and
	 * rxb_queue_stop() wait a grace period for this tail.
	 */
	if (done < budget && napi_complete_done(napi, done)) {
		u32 delay = READ_ONCE(port->knobs[q].complete_delay);

		if (unlikely(delay))
			udelay(delay);
		rxb_nic_vec_unmask(port->nic, q);
		/* Completions written while the vector was masked, and
		 * fetches completed meanwhile (hds.c).
		 */
		if (m->ops->rx_pending(m, q) ||
		    (rxq->hds && rxb_hds_pending(rxq)) ||
		    rxb_xdpq_pending(port, q))
			napi_schedule(napi);
		else if (lent)
			mod_timer(&rxq->refill_timer,
				  jiffies + RXB_REFILL_RETRY_JIFFIES);
	}
	return done;
}

static u64 rxb_rx_now_ns(void *drv)
{
	return ktime_get_ns();
}

/* A model's driver half wrote a register: through the NIC's register path. */
static void rxb_rx_reg_write(void *drv, unsigned int q, u32 bytes)
{
	struct rxb_rx *rx = drv;

	rxb_nic_reg_write(rx->port->nic, q, bytes);
}

/* A model's driver half read the NIC's memory or registers (MMIO). */
static void rxb_rx_reg_read(void *drv, unsigned int q, u32 bytes)
{
	struct rxb_rx *rx = drv;

	rxb_nic_reg_read(rx->port->nic, q, bytes);
}

/* A register write found the NIC with nothing pending: wake it. */
static void rxb_rx_kick(void *drv)
{
	struct rxb_rx *rx = drv;

	rxb_nic_ctx_kick(rx->ctx);
}

/* Ring memory: the emulation's IOMMU maps it one to one at the driver's
 * address (rxb_nic_dma_map() on the NIC's side), so its bus address is
 * the driver's.  Zeroed, as dma_alloc_coherent() memory.
 */
static void *rxb_rx_dma_alloc(void *drv, size_t size, u64 *addr)
{
	void *va = kvzalloc(size, GFP_KERNEL);

	*addr = (uintptr_t)va;
	return va;
}

static void rxb_rx_dma_free(void *drv, void *va, size_t size)
{
	kvfree(va);
}

/* rxb_drv_ops.map_ring: physically contiguous pages (the NIC writes the
 * ring through its bus address, the DMA engine splitting a transfer at the
 * ring's end), mapped twice in a row by vmap() so that the driver reads a
 * frame across the end in one piece.
 */
static void *rxb_rx_map_ring(void *drv, unsigned int q, size_t size,
			     u64 *addr)
{
	unsigned int n = size >> PAGE_SHIFT, i;
	struct page *page, **pages;
	void *va;

	page = alloc_pages(GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN,
			   get_order(size));
	if (!page)
		return NULL;
	pages = kvmalloc_array(2 * n, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		goto free;
	for (i = 0; i < 2 * n; i++)
		pages[i] = page + i % n;
	va = vmap(pages, 2 * n, VM_MAP, PAGE_KERNEL);
	kvfree(pages);
	if (!va)
		goto free;
	*addr = page_to_phys(page);
	return va;
free:
	__free_pages(page, get_order(size));
	return NULL;
}

static void rxb_rx_unmap_ring(void *drv, unsigned int q, void *va,
			      size_t size)
{
	struct page *page = vmalloc_to_page(va);

	vunmap(va);
	__free_pages(page, get_order(size));
}

/* Pipes of a streaming model (Ensō). */
static const struct rxb_drv_ring_ops rxb_rx_ring_ops = {
	.map	= rxb_rx_map_ring,
	.unmap	= rxb_rx_unmap_ring,
};

/* The queue's interrupt handler: hard IRQ context on the vector's CPU. */
static void rxb_rx_isr(void *arg)
{
	struct rxb_rxq *rxq = arg;

	napi_schedule(&rxq->napi);
}

/* page_pool_create() caps its recycle ring at this many pages (6.1). */
#define RXB_PP_MAX_SIZE		16384

/**
 * rxb_rx_pool_size() - pages in each queue's page_pool.
 * @cfg: port configuration.
 * @mcfg: its ring-model configuration.
 * @bl: its buffer layout.
 *
 * One rule for every ring model: a queue's pool holds as many pages as the
 * model can have outstanding from it, so that no model's pages fall back
 * to the page allocator for want of room in the pool when they come home:
 *
 *   pages the rings can hold from this pool (posted to the NIC, or written
 *   and waiting in a completion or Bx ring): the model's bufs_per_queue,
 *   default one Rx ring (@ring_size);
 * + pages handed to the stack and not yet freed, for one completion (Bx)
 *   ring's worth of packets: @ring_size.
 *
 * privRing, shRing (a queue may refill the whole shared ring), shRing-list
 * and shRing-batched: 2 * |R|; dshRing: 3 * |R| (a private and a shared
 * ring); COREC: 2 * |R| + its stash; rxBisect: |Ax| + |Bx| (a lender's
 * pages reported in other Bx rings count in the second term).
 *
 * Times the pages of a buffer (@bl: a scatter buffer has several).  A pool
 * several queues share (rxb_model_ops.pool_of: COREC's) holds the sum of
 * what theirs would: the same pages, in one pool.
 *
 * Return: the pool size, at most what page_pool accepts.
 */
static unsigned int rxb_rx_pool_size(const struct rxb_cfg *cfg,
				     const struct rxb_model_cfg *mcfg,
				     const struct rxb_buf_layout *bl)
{
	const struct rxb_model_ops *ops = cfg->model;
	unsigned int rings = ops->bufs_per_queue ? ops->bufs_per_queue(mcfg) :
			     mcfg->ring_size;

	return min_t(unsigned int, (rings + mcfg->ring_size) * bl->segs,
		     RXB_PP_MAX_SIZE);
}

/* Must the pools count references per page: are the buffers page
 * fragments (@bl), does the model hand up packets as fragments, or keep
 * references on pages it hands up whole?
 */
static bool rxb_pool_frags(const struct rxb_model_ops *ops,
			   const struct rxb_model_cfg *mcfg,
			   const struct rxb_buf_layout *bl)
{
	return bl->size < PAGE_SIZE || ops->multi_pkt_bufs ||
	       (ops->buf_refs && ops->buf_refs(mcfg));
}

/* A page_pool for queue @rxq's buffers (its NAPI instance added), and for
 * the queues that share it (@rxq->pp_shared).
 */
static struct page_pool *rxb_pool_new(struct rxb_rxq *rxq, unsigned int size,
				      bool frags)
{
	struct page_pool_params pp = {
		/* Pages shared by several packets' skbs (rxb_rx_frag()), or
		 * by a packet and the model (rxb_rx_buf_idle()).
		 */
		.flags		= frags ? PP_FLAG_PAGE_FRAG : 0,
		.order		= rxq->rx->bl.order,
		.pool_size	= size,
		.nid		= NUMA_NO_NODE,
	};

	/* Listed by page-pool netlink with the port and the queue's NAPI;
	 * a shared pool with no NAPI: no CPU may recycle into its cache.
	 */
	rxb_pp_params_set_owner(&pp, rxq->rx->port->dev,
				rxq->pp_shared ? NULL : &rxq->napi);
	return page_pool_create(&pp);
}

/* The queue whose pool queue @q of @ops under @mcfg allocates from. */
static unsigned int rxb_pool_of(const struct rxb_model_ops *ops,
				const struct rxb_model_cfg *mcfg, unsigned int q)
{
	return ops->pool_of ? ops->pool_of(mcfg, q) : q;
}

/* Queue @rxq's page_pool under @cfg (@mcfg): a new one, or the one of the
 * queue below it whose pool it shares.  Fault pool_fail fails the last
 * pool created.
 */
static int rxb_rxq_pool_create(struct rxb_rxq *rxq, const struct rxb_cfg *cfg,
			       const struct rxb_model_cfg *mcfg)
{
	const struct rxb_model_ops *ops = cfg->model;
	struct rxb_rx *rx = rxq->rx;
	unsigned int owner = rxb_pool_of(ops, mcfg, rxq->qid);
	unsigned int users = rxb_pool_users(ops, mcfg, rxq->qid), size;

	rxq->pp_q = owner;
	rxq->pp_shared = users > 1;
	if (owner != rxq->qid) {
		rxq->pp = rx->rxq[owner].pp;
		return 0;
	}
	size = min_t(unsigned int, users * rxb_rx_pool_size(cfg, mcfg, &rx->bl),
		     RXB_PP_MAX_SIZE);
	rxq->pp = owner == rxb_pool_of(ops, mcfg, rx->nqueues - 1) &&
		  rxb_fault_step(&rx->port->fault, RXB_RF_POOL) ?
		  ERR_PTR(-ENOMEM) :
		  rxb_pool_new(rxq, size, rxb_pool_frags(ops, mcfg, &rx->bl));
	if (IS_ERR(rxq->pp)) {
		int err = PTR_ERR(rxq->pp);

		rxq->pp = NULL;
		return err;
	}
	rxq->pp_size = size;
	return 0;
}

/**
 * rxb_rxq_stats_add() - add queue @q's driver counters to @x.
 * @rx: a configuration that is live or being stopped.
 * @q: queue.
 * @x: the sums; its @pp_size is left alone.
 *
 * Any context; called with @rx kept alive (port->stats_lock).
 */
void rxb_rxq_stats_add(const struct rxb_rx *rx, unsigned int q,
		       struct rxb_qxstats *x)
{
	const struct rxb_rxq *rxq = &rx->rxq[q];
	const struct rxb_rxq_stats *st = &rxq->stats;
	u64 pkts, bytes, skb_drops, dma_errors, off_cpu, backoffs;
	u64 xdp[RXB_XDP_NSTATS];
	unsigned int start, i;

	do {
		start = u64_stats_fetch_begin(&st->syncp);
		pkts = u64_stats_read(&st->packets);
		bytes = u64_stats_read(&st->bytes);
		skb_drops = u64_stats_read(&st->skb_drops);
		dma_errors = u64_stats_read(&st->dma_errors);
		off_cpu = u64_stats_read(&st->polls_off_cpu);
		backoffs = u64_stats_read(&st->refill_backoffs);
		for (i = 0; i < RXB_XDP_NSTATS; i++)
			xdp[i] = u64_stats_read(&st->xdp[i]);
	} while (u64_stats_fetch_retry(&st->syncp, start));
	for (i = 0; i < RXB_XDP_NSTATS; i++)
		x->xdp[i] += xdp[i];
	x->packets += pkts;
	x->bytes += bytes;
	x->skb_drops += skb_drops;
	x->dma_errors += dma_errors;
	x->polls_off_cpu += off_cpu;
	x->refill_backoffs += backoffs;
	/* page_pool's own counts of pages from and back to the page
	 * allocator: its allocation side (hold) is the queue's poll, the
	 * release count is atomic.  A snapshot, one update old at most.  A
	 * shared pool counts at the queue that created it.
	 */
	if (rxq->pp_q != q)
		return;
	x->pp_fresh += READ_ONCE(rxq->pp->pages_state_hold_cnt);
	x->pp_released += atomic_read(&rxq->pp->pages_state_release_cnt);
}

/**
 * rxb_rx_destroy() - free a receive configuration that is not running.
 * @rx: configuration from rxb_rx_create(), stopped or never started.
 */
void rxb_rx_destroy(struct rxb_rx *rx)
{
	bool napis = false;
	unsigned int q;

	/* Packets parked for the NIC's fetches: the NIC runs no more. */
	for (q = 0; q < rx->nqueues; q++)
		rxb_hds_flush(&rx->rxq[q]);
	/* Ensō's user pipes: the NIC writes them no more either. */
	rxb_enso_user_detach(rx);
	if (rx->model)
		rxb_model_destroy(rx->model);
	for (q = 0; q < rx->nqueues; q++) {
		if (rx->rxq[q].napi.poll) {
			__netif_napi_del(&rx->rxq[q].napi);
			napis = true;
		}
	}
	/* One grace period for all queues (netif_napi_del() takes one per
	 * queue): no busy poller or netpoll still sees their NAPI contexts.
	 */
	if (napis)
		synchronize_net();
	/* Pages still in the stack return to the pools later. */
	for (q = 0; q < rx->nqueues; q++) {
		rxb_xdp_rxq_unreg(&rx->rxq[q]);
		if (rx->rxq[q].pp && rx->rxq[q].pp_q == q)
			page_pool_destroy(rx->rxq[q].pp);
	}
	rxb_nic_ctx_free(rx->ctx);
	/* The NIC no longer reads the command rings. */
	for (q = 0; q < rx->nqueues; q++)
		rxb_hds_rxq_fini(&rx->rxq[q]);
	kvfree(rx);
}

/**
 * rxb_queue_kick() - fire queue @q's vector so that its NAPI runs.
 * @port: the port.
 * @q: queue.
 *
 * Also moves the vector to the queue's current irq_cpu.  Any context.
 */
void rxb_queue_kick(struct rxb_port *port, unsigned int q)
{
	struct rxb_rx *rx;

	local_bh_disable();
	rcu_read_lock();
	rx = rcu_dereference(port->rx);
	if (rx && q < rx->nqueues) {
		int cpu = rxb_queue_cpu(port, q);

		WRITE_ONCE(rx->rxq[q].irq_cpu, cpu);
		rxb_nic_vec_set_cpu(port->nic, q, cpu);
		rxb_nic_vec_trigger(port->nic, q);
	}
	rcu_read_unlock();
	local_bh_enable();
}

/* The ring-model configuration of port configuration @cfg but for its
 * buffers' length, which depends on it (rxb_rx_whole_pages()).
 */
static void rxb_rx_model_cfg_nobuf(const struct rxb_cfg *cfg,
				   struct rxb_model_cfg *mcfg)
{
	*mcfg = (struct rxb_model_cfg) {
		.nqueues	= cfg->nqueues,
		.ring_size	= cfg->rx_ring_size,
		.share_factor	= min(cfg->mp.share_factor, cfg->nqueues),
		.ax_ring_size	= cfg->mp.ax_ring_size,
		.ax_policy	= cfg->mp.ax_policy,
		.ax_assoc	= cfg->mp.ax_assoc,
		.notif_compress	= cfg->mp.notif_compress,
		.notif_timeout_ns = (u64)cfg->mp.notif_timeout_us * NSEC_PER_USEC,
		.cache_bytes	= (u64)cfg->mp.cache_kb * 1024,
		.corec_consumers = cfg->mp.corec_consumers,
		.corec_irq_policy = cfg->mp.corec_irq_policy,
		.dsh_period_ns	= (u64)cfg->mp.dsh_period_us * NSEC_PER_USEC,
		.dsh_window	= cfg->mp.dsh_window,
		.dsh_tput_mbps	= cfg->mp.dsh_tput_mbps,
		.dsh_overload_ratio = cfg->mp.dsh_overload_ratio,
		.enso_pipes	= cfg->mp.enso_pipes,
		.enso_pipe_size	= cfg->mp.enso_pipe_kb * 1024,
		.enso_prefetch	= cfg->mp.enso_prefetch,
		.flow_table_size = cfg->mp.flow_table_size,
		.nicmem_bytes	= (u64)cfg->mp.nicmem_kb * 1024,
		.ceio_llc_budget = cfg->mp.llc_budget,
		.ceio_release	= cfg->mp.ceio_release,
		.ceio_fetch_async = cfg->mp.ceio_fetch,
		.ceio_force_slow = cfg->mp.ceio_force_slow,
		.nicmem_split	= cfg->mp.nicmem_split,
		.rx_tstamp	= cfg->rx_tstamp,
	};
	strscpy(mcfg->ax_assoc_map, cfg->mp.ax_assoc_map,
		sizeof(mcfg->ax_assoc_map));
	strscpy(mcfg->ax_link, cfg->mp.ax_link, sizeof(mcfg->ax_link));
}

/* Does the model keep whole pages of its own layout (struct
 * rxb_buf_layout): a buffer that packets fill back to back (shRing-batched's
 * RxList pages), a streaming model's pages (Ensō: its pipes are no pool
 * buffers; XDP's copies out of them are), or a page whose return to its
 * pool the model watches (CEIO's release=page, rxb_rx_buf_idle(): a
 * fragment's sibling would hold the page)?
 */
static bool rxb_rx_whole_pages(const struct rxb_cfg *cfg)
{
	const struct rxb_model_ops *ops = cfg->model;
	struct rxb_model_cfg mcfg;

	if (ops->multi_pkt_bufs || ops->stream)
		return true;
	if (!ops->buf_refs)
		return false;
	rxb_rx_model_cfg_nobuf(cfg, &mcfg);
	return ops->buf_refs(&mcfg);
}

/**
 * rxb_rx_buf_layout() - the receive buffers configuration @cfg needs.
 * @cfg: port configuration.
 * @bl: filled in.
 *
 * Half a page per buffer, a 2 KiB page_pool fragment, while the MTU's
 * frames fit one (RXB_HALF_MTU, 1518: MTU 1500 with a VLAN tag), on every
 * ring model that posts a buffer per packet, as ice, i40e, bnxt and
 * mlx5's legacy RQ do, and as the papers' 2 KiB mbufs; with or without an
 * XDP program (the headroom is 192 bytes: rxbisect.h), but on kernels
 * whose skbs built from XDP frames cannot return a fragment to its pool
 * (RXB_XDP_WHOLE_PAGES, up to 6.2), where a program takes whole pages.
 * The models that keep whole pages (rxb_rx_whole_pages()) keep them at
 * every MTU.  Above, one order-0 page
 * per buffer while the frames fit one (RXB_LINEAR_MTU).  Above that, as a
 * NIC's non-linear receive queue, scatter buffers of as many order-0
 * pages as the largest frame needs (3 at MTU 9000), the frame spanning
 * them (multi-buffer XDP and skb fragments); the costs are the same for
 * every ring model that takes them.  A model that writes into buffers at
 * offsets or fetches into them (rxb_model_ops.contig_bufs,
 * multi_pkt_bufs, stream: shRing-batched, CEIO, and Ensō's copies for
 * XDP) gets one page of the order the largest frame needs instead (16 KiB
 * at MTU 9000), as a striding RQ's larger buffers: a frame is never split
 * there.
 */
void rxb_rx_buf_layout(const struct rxb_cfg *cfg, struct rxb_buf_layout *bl)
{
	const struct rxb_model_ops *ops = cfg->model;
	u32 frame = cfg->mtu + ETH_HLEN + VLAN_HLEN;

	BUILD_BUG_ON(1 + DIV_ROUND_UP(RXB_MAX_FRAME - RXB_RX_BUF_LEN,
				      PAGE_SIZE) > RXB_RX_SGE_MAX);
	/* Room for the skb's head alignment and an xdp_frame's header. */
	BUILD_BUG_ON(NET_SKB_PAD + NET_IP_ALIGN > RXB_RX_HALF_HEADROOM);
	BUILD_BUG_ON(RXB_RX_HALF_SIZE > PAGE_SIZE);
	bl->order = 0;
	bl->segs = 1;
	if (frame <= RXB_RX_HALF_LEN && !rxb_rx_whole_pages(cfg) &&
	    !(cfg->xdp && RXB_XDP_WHOLE_PAGES)) {
		bl->len = RXB_RX_HALF_LEN;
		bl->size = RXB_RX_HALF_SIZE;
		bl->headroom = RXB_RX_HALF_HEADROOM;
		return;
	}
	bl->len = RXB_RX_BUF_LEN;
	bl->size = PAGE_SIZE;
	bl->headroom = RXB_RX_HEADROOM;
	if (frame <= RXB_RX_BUF_LEN)
		return;
	if (ops->contig_bufs || ops->multi_pkt_bufs || ops->stream) {
		bl->order = get_order(frame + RXB_RX_HEADROOM +
				      RXB_RX_TAILROOM);
		bl->len = (PAGE_SIZE << bl->order) - RXB_RX_HEADROOM -
			  RXB_RX_TAILROOM;
		bl->size = PAGE_SIZE << bl->order;
		return;
	}
	bl->segs = 1 + DIV_ROUND_UP(frame - RXB_RX_BUF_LEN, PAGE_SIZE);
	bl->len = RXB_RX_BUF_LEN + (bl->segs - 1) * PAGE_SIZE;
}

/**
 * rxb_rx_model_cfg() - the ring-model configuration of a port configuration.
 * @cfg: port configuration.
 * @mcfg: filled in.
 */
void rxb_rx_model_cfg(const struct rxb_cfg *cfg, struct rxb_model_cfg *mcfg)
{
	struct rxb_buf_layout bl;

	rxb_rx_buf_layout(cfg, &bl);
	rxb_rx_model_cfg_nobuf(cfg, mcfg);
	mcfg->buf_len = bl.len;
}

/**
 * rxb_rx_create() - build the rings and queues of a configuration.
 * @port: the port.
 * @cfg: configuration.
 *
 * Nothing is visible to the NIC or the stack until rxb_rx_start().
 *
 * Return: the configuration or an ERR_PTR().
 */
struct rxb_rx *rxb_rx_create(struct rxb_port *port, const struct rxb_cfg *cfg)
{
	struct rxb_model_cfg mcfg;
	struct rxb_model *m;
	struct rxb_bar bar;
	struct rxb_rx *rx;
	unsigned int q;
	int err;

	rxb_rx_model_cfg(cfg, &mcfg);
	rx = kvzalloc(struct_size(rx, rxq, cfg->nqueues), GFP_KERNEL);
	if (!rx)
		return ERR_PTR(-ENOMEM);
	rx->port = port;
	rx->nqueues = cfg->nqueues;
	rxb_rx_buf_layout(cfg, &rx->bl);
	rx->ctx = rxb_nic_ctx_create(port->nic, &(struct rxb_nic_ctx_cfg) {
		.ws_window	 = cfg->mp.ws_window,
		.flow_table_size = cfg->mp.flow_table_size,
		.flow_idle_ms	 = cfg->mp.flow_idle_ms,
		.nicmem_kb	 = cfg->mp.nicmem_kb,
		.nicmem_fetch_ns = cfg->mp.nicmem_fetch_ns,
		.nicmem_split	 = cfg->mp.nicmem_split,
		.rx_sge		 = rx->bl.segs,
		.rx_buf_size	 = rx->bl.size,
	}, cfg->model->hw, &mcfg);
	if (IS_ERR(rx->ctx)) {
		err = PTR_ERR(rx->ctx);
		rx->ctx = NULL;
		goto err;
	}
	for (q = 0; q < rx->nqueues; q++) {
		struct rxb_rxq *rxq = &rx->rxq[q];

		rxq->rx = rx;
		rxq->qid = q;
		rxq->work_seed = get_random_u32() | 1;
		u64_stats_init(&rxq->stats.syncp);
		timer_setup(&rxq->refill_timer, rxb_refill_retry, 0);
		/* NAPI first: the pool names it (and outlives it not). */
		netif_napi_add_config(port->dev, &rxq->napi, rxb_napi_poll, q);
		err = rxb_rxq_pool_create(rxq, cfg, &mcfg);
		if (err)
			goto err;
		/* Posted from at rxb_rx_start(), not by the create below. */
		rxq->xsk = rxb_xsk_pool(port, cfg->model, q);
		err = rxb_xdp_rxq_reg(rxq);
		if (err)
			goto err;
		if (cfg->mp.nicmem_split) {
			err = rxb_hds_rxq_init(rxq);
			if (err)
				goto err;
		}
	}
	/* The driver's half programs the rings in the context's registers,
	 * then the NIC loads them.
	 */
	rxb_nic_ctx_bar(rx->ctx, &bar);
	m = rxb_fault_step(&port->fault, RXB_RF_MODEL) ? ERR_PTR(-ENOMEM) :
	    rxb_model_create(cfg->model, &mcfg, &rxb_rx_drv_ops, rx, &bar);
	if (IS_ERR(m)) {
		err = PTR_ERR(m);
		goto err;
	}
	rx->model = m;
	err = rxb_nic_ctx_load(rx->ctx);
	if (err)
		goto err;
	return rx;
err:
	rxb_rx_destroy(rx);
	return ERR_PTR(err);
}

/**
 * rxb_rx_start() - make a configuration live: NAPI on, NIC sees the rings.
 * @port: the port; RTNL held.
 * @rx: configuration from rxb_rx_create().
 */
void rxb_rx_start(struct rxb_port *port, struct rxb_rx *rx)
{
	unsigned int q;

	for (q = 0; q < rx->nqueues; q++) {
		struct rxb_rxq *rxq = &rx->rxq[q];

		napi_enable(&rxq->napi);
		rxb_channel_set_napi(port->dev, q, &rxq->napi);
		rxq->irq_cpu = rxb_queue_cpu(port, q);
		rxb_nic_vec_program(port->nic, q, rxq->irq_cpu, rxb_rx_isr, rxq);
		rxb_xsk_start(rxq);
	}
	spin_lock_bh(&port->stats_lock);
	port->live = rx;
	spin_unlock_bh(&port->stats_lock);
	for (q = 0; q < rx->nqueues; q++)
		WRITE_ONCE(port->knobs[q].last_poll, jiffies);
	rxb_nic_ctx_enable(rx->ctx);
	rcu_assign_pointer(port->rx, rx);
	/* Let every queue poll once: tops up rings the create left short. */
	for (q = 0; q < rx->nqueues; q++)
		rxb_nic_vec_trigger(port->nic, q);
	rxb_ctl_start(rx);
}

/**
 * rxb_rx_stop() - quiesce and free the live configuration.
 * @port: the port; RTNL held.
 *
 * The NIC stops seeing the rings first, then pending interrupts drain,
 * then NAPI stops; the counters are folded into the port's totals.
 */
void rxb_rx_stop(struct rxb_port *port)
{
	struct rxb_rx *rx = rtnl_dereference(port->rx);
	unsigned int q;

	if (!rx)
		return;
	RCU_INIT_POINTER(port->rx, NULL);
	/* No delivery into the rings, no NIC timer; and (the same grace
	 * period) no knob writer still kicks a vector of @rx.
	 */
	rxb_nic_ctx_disable(rx->ctx);
	rxb_ctl_stop(rx);
	/* No poll starts after this.  napi_disable() returns as soon as
	 * a poll has called napi_complete_done(), whose tail may still
	 * read the model, unmask the vector and arm the refill timer:
	 * polls run with bottom halves disabled (softirq, threaded NAPI,
	 * busy poll), so one grace period waits for those tails.  A timer
	 * still pending fires a vector whose handler finds NAPI disabled.
	 */
	for (q = 0; q < rx->nqueues; q++) {
		rxb_channel_set_napi(port->dev, q, NULL);
		napi_disable(&rx->rxq[q].napi);
	}
	synchronize_net();
	for (q = 0; q < rx->nqueues; q++)
		timer_delete_sync(&rx->rxq[q].refill_timer);
	for (q = 0; q < rx->nqueues; q++)
		rxb_nic_vec_sync(port->nic, q);

	spin_lock_bh(&port->stats_lock);
	for (q = 0; q < rx->nqueues; q++) {
		struct rxb_qstats s;
		unsigned int i;

		rxb_model_qstats_read(rx->model, q, &s);
		for (i = 0; i < RXB_QSTATS_NUM; i++) {
			const struct rxb_stat_desc *d = &rxb_qstats_desc[i];

			*(u64 *)((char *)&port->qbase[q] + d->off) +=
				rxb_stat_get(&s, d);
		}
		rxb_rxq_stats_add(rx, q, &port->xbase[q]);
		/* Written by the NIC, never handed up: freed with the rings. */
		port->flushed += s.hw_packets - s.packets;
	}
	port->live = NULL;
	spin_unlock_bh(&port->stats_lock);

	rxb_rx_destroy(rx);
}

/* ---- the queue management API: one receive queue restarted alone ------
 *
 * A queue's memory, as netdev_queue_mgmt_ops sees it, is its page_pool: the
 * ring memory belongs to the ring model's instance and is reset in place
 * (rxb_model_ops.queue_reset), as a driver reprograms a stopped queue's
 * ring registers.  Stop disables the NIC's queue (its frames are dropped,
 * stopped_drops) and the queue's NAPI, and gives the rings' buffers back
 * to the old pool; start puts the new pool in, posts fresh buffers and
 * enables both again.  The other queues receive throughout.  Only ring
 * models with queue_reset can: privRing.  Not the shRing models, COREC or
 * dshRing, whose rings are shared by several queues (resetting one resets
 * the others' buffers, and a shared ring holds buffers of several queues'
 * pools), nor rxBisect, whose Ax rings lend their queue's buffers to every
 * associated Bx ring (the pool's pages sit in other queues' rings).
 */

/**
 * struct rxb_qmem - the memory of one receive queue (queue management API).
 * @pp: its page_pool.
 * @xsk: the xsk buffer pool it takes buffers from instead, or NULL.
 * @xdp_mem: the XDP memory model of those buffers, registered: all that
 *	could fail is done at ndo_queue_mem_alloc, so that ndo_queue_start
 *	cannot fail with the queue stopped.
 */
struct rxb_qmem {
	struct page_pool *pp;
	struct xsk_buff_pool *xsk;
	struct xdp_mem_info xdp_mem;
};

/* Live queue @idx, if it can restart alone.  RTNL held. */
static struct rxb_rxq *rxb_qmgmt_rxq(struct net_device *dev, int idx)
{
	struct rxb_port *port = netdev_priv(dev);
	struct rxb_rx *rx = rtnl_dereference(port->rx);

	if (!rx)
		return ERR_PTR(-ENETDOWN);
	if (idx < 0 || idx >= rx->nqueues)
		return ERR_PTR(-EINVAL);
	if (!rx->model->ops->queue_reset)
		return ERR_PTR(-EOPNOTSUPP);
	return &rx->rxq[idx];
}

static int rxb_queue_mem_alloc(struct net_device *dev,
			       struct netdev_queue_config *qcfg, void *qmem,
			       int idx)
{
	struct rxb_rxq *rxq = rxb_qmgmt_rxq(dev, idx);
	struct rxb_qmem *mem = qmem;
	int err;

	if (IS_ERR(rxq))
		return PTR_ERR(rxq);
	mem->pp = rxb_pool_new(rxq, rxq->pp_size,
			       rxb_pool_frags(rxq->rx->model->ops,
					      &rxq->rx->model->cfg,
					      &rxq->rx->bl));
	if (IS_ERR(mem->pp)) {
		err = PTR_ERR(mem->pp);
		mem->pp = NULL;
		return err;
	}
	/* A zero-copy AF_XDP socket bound or gone (xsk.c). */
	mem->xsk = rxb_xsk_pool(rxq->rx->port, rxq->rx->model->ops, idx);
	err = rxb_xdp_mem_reg(rxq->rx->port, &mem->xdp_mem, mem->pp, mem->xsk);
	if (err) {
		rxb_page_pool_discard(mem->pp);
		mem->pp = NULL;
		return err;
	}
	return 0;
}

static void rxb_queue_mem_free(struct net_device *dev, void *qmem)
{
	struct rxb_qmem *mem = qmem;

	/* XDP's reference on the pool first; pages still in the stack
	 * return to it later.
	 */
	xdp_unreg_mem_model(&mem->xdp_mem);
	if (mem->pp)
		page_pool_destroy(mem->pp);
}

/* Stop queue @idx: no delivery, no poll, its buffers back in its pool,
 * which goes to @qmem (freed by rxb_queue_mem_free() after the restart).
 */
static int rxb_queue_stop(struct net_device *dev, void *qmem, int idx)
{
	struct rxb_rxq *rxq = rxb_qmgmt_rxq(dev, idx);
	struct rxb_qmem *mem = qmem;
	struct rxb_nic *nic;

	if (IS_ERR(rxq))
		return PTR_ERR(rxq);
	nic = rxq->rx->port->nic;
	rxb_nic_queue_enable(nic, idx, false);
	rxb_channel_set_napi(dev, idx, NULL);
	napi_disable(&rxq->napi);
	/* The tail of a poll that completed NAPI (see rxb_rx_stop()). */
	synchronize_net();
	timer_delete_sync(&rxq->refill_timer);
	rxb_nic_vec_sync(nic, idx);
	/* The NIC completed the queue's fetches when it was disabled. */
	rxb_hds_flush(rxq);
	rxq->rx->model->ops->queue_reset(rxq->rx->model, idx);
	/* The NIC's half of the queue back to power-on (a command). */
	rxb_nic_queue_reset(rxq->rx->ctx, idx);
	/* The old pool's XDP memory model goes with it: unregistered by
	 * rxb_queue_mem_free(), or the queue's again if it starts with it.
	 */
	rxb_xdp_rxq_unreg_keep(rxq, &mem->xdp_mem);
	mem->xsk = rxq->xsk;
	/* The pool is destroyed with its NAPI instance running again. */
	rxb_page_pool_disable_direct_recycling(rxq->pp);
	mem->pp = rxq->pp;
	return 0;
}

/* Start queue @idx, stopped, with the pool of @qmem: the old pool's page
 * counts go to the queue's totals, fresh buffers are posted, the NIC's
 * queue and the NAPI instance run again.  Cannot fail once the queue is
 * stopped: what could is done by rxb_queue_mem_alloc().
 */
static int rxb_queue_start(struct net_device *dev,
			   struct netdev_queue_config *qcfg, void *qmem, int idx)
{
	struct rxb_rxq *rxq = rxb_qmgmt_rxq(dev, idx);
	struct rxb_qmem *mem = qmem;
	struct rxb_port *port;

	if (IS_ERR(rxq))
		return PTR_ERR(rxq);
	port = rxq->rx->port;
	if (mem->pp != rxq->pp) {
		struct rxb_qxstats *x = &port->xbase[idx];

		spin_lock_bh(&port->stats_lock);
		x->pp_fresh += READ_ONCE(rxq->pp->pages_state_hold_cnt);
		x->pp_released += atomic_read(&rxq->pp->pages_state_release_cnt);
		rxq->pp = mem->pp;
		spin_unlock_bh(&port->stats_lock);
		/* Now the queue's: rxb_queue_mem_free() leaves it. */
		mem->pp = NULL;
	}
	rxq->xsk = mem->xsk;
	rxq->xsk_live = false;
	rxb_xdp_rxq_set(rxq, &mem->xdp_mem);
	rxb_xsk_start(rxq);
	/* The poll's context: its NAPI instance is disabled. */
	local_bh_disable();
	rxq->rx->model->ops->refill(rxq->rx->model, idx);
	local_bh_enable();
	WRITE_ONCE(port->knobs[idx].last_poll, jiffies);
	rxb_nic_queue_enable(port->nic, idx, true);
	napi_enable(&rxq->napi);
	rxb_channel_set_napi(dev, idx, &rxq->napi);
	/* A poll tops up what the refill left short, unmasks the vector. */
	rxb_nic_vec_trigger(port->nic, idx);
	return 0;
}

RXB_QUEUE_MGMT_OPS_DEFINE(rxb_queue_mem_alloc, rxb_queue_start)

/* The queue management API (netdev_queue_mgmt_ops, from 6.10). */
const struct netdev_queue_mgmt_ops rxb_queue_mgmt_ops = {
	.ndo_queue_mem_size	= sizeof(struct rxb_qmem),
	RXB_QUEUE_MGMT_OPS(rxb_queue_mem_alloc, rxb_queue_mem_free,
			   rxb_queue_start, rxb_queue_stop),
};

/**
 * rxb_rx_queue_restart() - restart receive queue @q alone, with a new pool.
 * @dev: the port; RTNL held.
 * @q: the queue.
 *
 * The core's netdev_rx_queue_restart() (net/core/netdev_rx_queue.c), which
 * 6.12 does not export to modules (later kernels do, for netdevsim's
 * queue_reset file): the same sequence through the same callbacks, so
 * that 6.1, which has no queue management API, restarts queues the same
 * way.
 *
 * Return: 0, -ENETDOWN (port down), -EINVAL (no such queue), -EOPNOTSUPP
 * (the ring model's queues cannot restart alone) or -ENOMEM.
 */
int rxb_rx_queue_restart(struct net_device *dev, unsigned int q)
{
	struct rxb_qmem new = {}, old = {};
	int err;

	ASSERT_RTNL();
	err = rxb_queue_mem_alloc(dev, NULL, &new, q);
	if (err)
		return err;
	err = rxb_queue_stop(dev, &old, q);
	if (err) {
		rxb_queue_mem_free(dev, &new);
		return err;
	}
	/* Cannot fail once allocated and stopped. */
	WARN_ON(rxb_queue_start(dev, NULL, &new, q));
	rxb_queue_mem_free(dev, &old);
	return 0;
}

/* The driver's services to a ring model's driver half; drv: the rxb_rx. */
const struct rxb_drv_ops rxb_rx_drv_ops = {
	.alloc_buf	= rxb_rx_alloc_buf,
	.free_buf	= rxb_rx_free_buf,
	.ref_buf	= rxb_rx_ref_buf,
	.buf_idle	= rxb_rx_buf_idle,
	.buf_cookie	= rxb_rx_buf_cookie,
	.now_ns		= rxb_rx_now_ns,
	.dma_alloc	= rxb_rx_dma_alloc,
	.dma_free	= rxb_rx_dma_free,
	.reg_write	= rxb_rx_reg_write,
	.reg_read	= rxb_rx_reg_read,
	.kick		= rxb_rx_kick,
	.ring		= &rxb_rx_ring_ops,
};
