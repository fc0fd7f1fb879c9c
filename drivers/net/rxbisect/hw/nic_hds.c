// SPDX-License-Identifier: GPL-2.0
/*
 * The NIC's header/data split into its own memory (nicmem, thesis chapter
 * 2; Documentation/rxbisect-nicmem.rst).  A mode of the DMA engine, the
 * same for every ring model that gives each frame a buffer of its own:
 * the engine parses the frame's headers, keeps the whole frame in a page
 * of NIC memory whose payload bytes are reserved in the context's on-NIC
 * memory tier (nic_mem.c, shared with CEIO: one capacity, one fetch
 * latency), and writes to the host buffer only the headers, plus a split
 * record (struct rxb_hds_rec) in the RXB_HDS_REC_ROOM bytes before the
 * buffer.  The ring model reports the frame as usual; the completion
 * carries RXB_CQE_F_SPLIT.
 *
 * The payload leaves NIC memory only through the queue's command ring
 * (struct rxb_nmc_desc), whose tail register is a doorbell: the NIC's
 * doorbell service executes the commands in its own context, later
 * (rxb_nic_hds_doorbell()): FETCH through the memory tier's fetch engine,
 * which copies the payload into host memory once the tier's latency has
 * passed, writes the done mark and raises the queue's interrupt; TX sends
 * the command's inline headers and the payload to the wire, FREE releases
 * it, both at once.
 *
 * A frame with nothing to split, or one the tier has no room for, is
 * written whole, as without the split (counted: whole, fallback).
 *
 * The memory window: the split record's bar field is the CPU's address of
 * the payload (on hardware a mapping of device memory through a PCI BAR,
 * which nicmem's prototype exposed to the kernel as device pages); the
 * driver hands it to XDP programs as a read-mostly fragment.
 */
#include <linux/skbuff.h>
#include "nic_hw.h"

#define RXB_HDS_PRIV(hdr, pay)	((unsigned long)(hdr) << 16 | (pay))
#define RXB_HDS_HDR(priv)	((u32)((priv) >> 16))
#define RXB_HDS_PAY(priv)	((u32)((priv) & 0xffff))

/* Bytes of Ethernet, IP and TCP/UDP headers at the start of @skb (a frame
 * of @len bytes), or 0 when there is nothing the split applies to: not
 * TCP or UDP over IPv4 or IPv6 (no extension header), an IP fragment, or
 * headers that do not fit the frame.
 */
static u32 rxb_hds_hdr_len(const struct sk_buff *skb, u32 len)
{
	struct rxb_nic_l4 s;

	return rxb_nic_parse_l4(skb, &s) && s.data < len ? s.data : 0;
}

static void rxb_hds_bh(struct tasklet_struct *t);

/**
 * rxb_nic_hds_init() - power on a context's split, empty.
 * @ctx: the context being created.
 * @on: split mode.
 */
void rxb_nic_hds_init(struct rxb_nic_ctx *ctx, bool on)
{
	unsigned int q;

	ctx->hds.on = on;
	xa_init_flags(&ctx->hds.xa, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_BH);
	tasklet_setup(&ctx->hds.bh, rxb_hds_bh);
	for (q = 0; q < RXB_MAX_QUEUES; q++)
		spin_lock_init(&ctx->hds.q[q].lock);
}

/* Free payload @handle held in @page: out of the table, the tier and the
 * NIC's memory.  The caller found it in the table.
 */
static void rxb_hds_release(struct rxb_nic_ctx *ctx, u32 handle,
			    struct page *page)
{
	if (xa_erase_bh(&ctx->hds.xa, handle) != page)
		return;		/* a release raced with another: not ours */
	rxb_nicmem_unreserve(&ctx->mem, RXB_HDS_PAY(page_private(page)));
	atomic64_dec(&ctx->hds.held);
	set_page_private(page, 0);
	put_page(page);
}

/**
 * rxb_nic_hds_fini() - power off a context's split: the NIC's memory is
 *	reset, every payload still held is freed (counted: reclaimed).
 * @ctx: the context, disabled; no command runs.
 */
void rxb_nic_hds_fini(struct rxb_nic_ctx *ctx)
{
	struct page *page;
	unsigned long i;

	tasklet_kill(&ctx->hds.bh);
	xa_for_each(&ctx->hds.xa, i, page) {
		rxb_hds_release(ctx, i, page);
		atomic64_inc(&ctx->hds.reclaimed);
	}
	xa_destroy(&ctx->hds.xa);
	for (i = 0; i < RXB_MAX_QUEUES; i++)
		kvfree(ctx->hds.q[i].req);
}

/**
 * rxb_nic_hds_write() - the DMA engine in split mode: headers of @f to
 *	host bus address @addr, its payload into NIC memory.
 * @ctx: the receive context.
 * @f: the frame.
 * @addr: bus address of the host buffer; the RXB_HDS_REC_ROOM bytes
 *	before it are the buffer's too (split mode's contract).
 * @csum: as for rxb_nic_dma_write(): the checksum unit sees the whole
 *	frame on its way into NIC memory.
 *
 * Return: the completion flags: RXB_CQE_F_SPLIT when split.
 */
u8 rxb_nic_hds_write(struct rxb_nic_ctx *ctx, const struct rxb_frame *f,
		     u64 addr, u32 *csum)
{
	const struct rxb_nic_frame *nf =
		container_of(f, const struct rxb_nic_frame, f);
	struct rxb_nic *nic = ctx->nic;
	struct rxb_hds *h = &ctx->hds;
	u32 hlen = rxb_hds_hdr_len(f->data, f->len), pay, id;
	struct rxb_hds_rec *rec;
	struct page *page;
	u8 *va, flags;

	if (!hlen || f->len > PAGE_SIZE) {
		atomic64_inc(&h->whole);
		goto whole;
	}
	pay = f->len - hlen;
	if (rxb_nicmem_reserve(&ctx->mem, pay))
		goto fallback;
	page = alloc_page(GFP_ATOMIC | __GFP_NOWARN);
	if (!page)
		goto unreserve;
	if (xa_alloc_bh(&h->xa, &id, page, xa_limit_31b,
			GFP_ATOMIC | __GFP_NOWARN))
		goto free_page;
	if (rxb_fault_hit(&nic->dma_fail)) {
		/* The header write failed: the payload goes with it. */
		atomic64_inc(&nic->dma_faults);
		xa_erase_bh(&h->xa, id);
		__free_page(page);
		rxb_nicmem_unreserve(&ctx->mem, pay);
		return RXB_CQE_F_DMA_ERR;
	}
	set_page_private(page, RXB_HDS_PRIV(hlen, pay));
	va = page_address(page);
	flags = rxb_nic_dma_xfer(nic, f, va, csum);

	/* The split record and the headers: the host's part of the frame. */
	rxb_nic_ws_write(ctx, addr - RXB_HDS_REC_ROOM, RXB_HDS_REC_ROOM + hlen);
	memcpy(phys_to_virt(addr), va, hlen);
	rec = phys_to_virt(addr - RXB_HDS_REC_ROOM);
	rec->handle = cpu_to_le32(id);
	rec->hdr_len = cpu_to_le16(hlen);
	rec->pay_len = cpu_to_le16(pay);
	/* The payload through the NIC's memory window. */
	rec->bar = cpu_to_le64((uintptr_t)(va + hlen));
	atomic64_add(hlen + sizeof(*rec), &nic->dma_bytes[nf->q].v);
	atomic64_add(hlen + sizeof(*rec), &h->host_bytes);
	atomic64_add(pay, &h->nic_bytes);
	atomic64_inc(&h->frames);
	atomic64_inc(&h->held);
	return flags | RXB_CQE_F_SPLIT;

free_page:
	__free_page(page);
unreserve:
	rxb_nicmem_unreserve(&ctx->mem, pay);
fallback:
	atomic64_inc(&h->fallback);
whole:
	flags = rxb_nic_dma_host(ctx, f, addr, csum);
	if (!(flags & RXB_CQE_F_DMA_ERR))
		atomic64_add(f->len, &h->host_bytes);
	return flags;
}

/**
 * rxb_nic_hds_load() - "load ring registers" for the split: map each
 *	queue's command ring the driver programmed (struct rxb_nmc_regs).
 * @ctx: a context not enabled, in split mode.
 *
 * Return: 0, -EINVAL for a ring register the NIC cannot use, -ENOMEM.
 */
int rxb_nic_hds_load(struct rxb_nic_ctx *ctx)
{
	unsigned int q;

	for (q = 0; q < ctx->nqueues; q++) {
		const struct rxb_nmc_regs *r = rxb_bar_q(&ctx->bar, q,
							 RXB_QPAGE_NMC);
		struct rxb_hds_q *hq = &ctx->hds.q[q];
		u32 n = READ_ONCE(r->entries);
		u64 addr = (u64)READ_ONCE(r->base.hi) << 32 |
			   READ_ONCE(r->base.lo);
		u32 i;

		if (!addr)
			continue;
		if (!is_power_of_2(n) || n > RXB_NMC_RING_MAX)
			return -EINVAL;
		/* The emulation's IOMMU: ring memory at the driver's address. */
		hq->ring = (struct rxb_nmc_desc *)(uintptr_t)addr;
		hq->mask = n - 1;
		hq->head = 0;
		hq->req = kvcalloc(n, sizeof(*hq->req), GFP_KERNEL);
		if (!hq->req)
			return -ENOMEM;
		for (i = 0; i < n; i++) {
			hq->req[i].ctx = ctx;
			hq->req[i].q = q;
		}
	}
	return 0;
}

/* TX: the command's inline headers, then @len payload bytes from NIC
 * memory, as one frame for the port's wire, queued on @wire (sent once
 * the ring's lock is dropped).  False when the NIC had no memory to
 * build it, or no wire.
 */
static bool rxb_hds_tx(struct rxb_nic_ctx *ctx, const struct rxb_nmc_desc *d,
		       struct page *page, u32 len, struct sk_buff_head *wire)
{
	u32 hlen = le16_to_cpu(d->hdr_len);
	unsigned long priv = page_private(page);
	struct sk_buff *skb;

	/* Acquire: pairs with the release in rxb_nic_set_wire(). */
	if (hlen > RXB_NMC_INLINE || !smp_load_acquire(&ctx->nic->wire_xmit))
		return false;
	skb = alloc_skb(hlen + len, GFP_ATOMIC | __GFP_NOWARN);
	if (!skb)
		return false;
	skb_put_data(skb, d->hdr, hlen);
	skb_put_data(skb, (u8 *)page_address(page) + RXB_HDS_HDR(priv), len);
	atomic64_inc(&ctx->hds.tx_frames);
	atomic64_add(len, &ctx->hds.tx_nic_bytes);
	atomic64_add(hlen, &ctx->hds.tx_host_bytes);
	__skb_queue_tail(wire, skb);
	return true;
}

/* The done mark of command @d, with release: the data moved before it.
 * Pairs with the acquire in rxb_hds_cmd_flags() (hds.c, the driver).
 */
static void rxb_hds_done(struct rxb_nic_ctx *ctx, struct rxb_nmc_desc *d,
			 u8 fl)
{
	if (fl & RXB_NMC_F_ERR)
		atomic64_inc(&ctx->hds.cmd_errors);
	/* Release: pairs with the acquire in rxb_hds_cmd_flags(). */
	smp_store_release(&d->flags, fl | RXB_NMC_F_DONE);
}

/* The fetch engine moved a FETCH command's payload (the NIC's context). */
static void rxb_hds_fetch_done(struct rxb_nicmem_fetch *f)
{
	struct rxb_hds_req *r = container_of(f, struct rxb_hds_req, f);
	struct rxb_nic_ctx *ctx = r->ctx;
	struct rxb_hds_q *hq = &ctx->hds.q[r->q];
	struct rxb_nmc_desc *d = &hq->ring[r - hq->req];

	atomic64_add(f->len, &ctx->nic->dma_bytes[r->q].v);
	atomic64_add(f->len, &ctx->hds.fetch_bytes);
	atomic64_add(f->len, &ctx->hds.host_bytes);
	if (r->release)
		rxb_hds_release(ctx, r->handle, r->page);
	rxb_hds_done(ctx, d, 0);
	rxb_nic_irq_event(ctx, r->q);
}

/* Execute queue @q's commands up to its tail, in order. */
static void rxb_hds_exec(struct rxb_nic_ctx *ctx, unsigned int q,
			 struct sk_buff_head *wire)
{
	const struct rxb_nmc_regs *r = rxb_bar_q(&ctx->bar, q, RXB_QPAGE_NMC);
	struct rxb_hds_q *hq = &ctx->hds.q[q];
	struct rxb_nic *nic = ctx->nic;
	u32 tail;

	spin_lock(&hq->lock);
	/* Acquire: pairs with the release of the driver's tail write. */
	tail = smp_load_acquire(&r->tail);
	for (; hq->head != tail; hq->head++) {
		u32 i = hq->head & hq->mask;
		struct rxb_nmc_desc *d = &hq->ring[i];
		struct rxb_hds_req *req = &hq->req[i];
		u32 handle = le32_to_cpu(d->handle), len = le16_to_cpu(d->len);
		u8 fl = 0;
		struct page *pg;
		u32 pay = 0, hlen = 0;

		atomic64_add(offsetof(struct rxb_nmc_desc, hdr) +
			     (d->op == RXB_NMC_TX ?
			      min_t(u32, le16_to_cpu(d->hdr_len),
				    RXB_NMC_INLINE) : 0),
			     &nic->pcie[q].to_nic_desc);
		pg = xa_load(&ctx->hds.xa, handle);
		if (pg) {
			pay = RXB_HDS_PAY(page_private(pg));
			hlen = RXB_HDS_HDR(page_private(pg));
		}
		if (!pg || len > pay) {
			fl |= RXB_NMC_F_ERR;
		} else if (d->op == RXB_NMC_FETCH) {
			u64 to = le64_to_cpu(d->buf_addr);

			/* A DMA write like any other: in the working set. */
			rxb_nic_ws_write(ctx, to, len);
			req->f.src = (u8 *)page_address(pg) + hlen;
			req->f.dst = phys_to_virt(to);
			req->f.len = len;
			req->f.done = rxb_hds_fetch_done;
			req->page = pg;
			req->handle = handle;
			req->release = d->flags & RXB_NMC_F_RELEASE;
			rxb_nicmem_fetch_submit(&ctx->mem, &req->f);
			continue;
		} else if (d->op == RXB_NMC_TX) {
			if (!rxb_hds_tx(ctx, d, pg, len, wire))
				fl |= RXB_NMC_F_ERR;
		} else if (d->op != RXB_NMC_FREE) {
			fl |= RXB_NMC_F_ERR;
		}
		if (pg && (d->op == RXB_NMC_FREE ||
			   (d->flags & RXB_NMC_F_RELEASE)))
			rxb_hds_release(ctx, handle, pg);
		rxb_hds_done(ctx, d, fl);
	}
	spin_unlock(&hq->lock);
}

/* The split's command processor: the NIC's own context (a bottom half of
 * the CPU that rang), with no lock held, so that its TX frames may go
 * straight to the wire.
 */
static void rxb_hds_bh(struct tasklet_struct *t)
{
	struct rxb_nic_ctx *ctx = from_tasklet(ctx, t, hds.bh);
	struct sk_buff_head wire;
	unsigned int q;

	if (!READ_ONCE(ctx->live))
		return;
	__skb_queue_head_init(&wire);
	rxb_nic_ctx_enter();
	for (q = 0; q < ctx->nqueues; q++) {
		if (!test_and_clear_bit(q, &ctx->hds.todo))
			continue;
		rxb_hds_exec(ctx, q, &wire);
		/* The frames were built only with a wire set (acquire in
		 * rxb_hds_tx()): the NIC's one transmit path to it.
		 */
		rxb_nic_tx_wire(ctx->nic, q, &wire);
	}
	rxb_nic_ctx_exit();
}

/**
 * rxb_nic_hds_doorbell() - the doorbell service of the split: the driver
 *	wrote registers in page @page; have the split's command processor
 *	execute that queue's commands.
 * @arg: the receive context.
 * @page: the page written.
 *
 * The NIC's context.  The processor runs in a context of its own
 * (rxb_hds_bh()): this one may be a receive engine inside another port's
 * transmit.  FREE and TX complete there; a FETCH once the memory tier's
 * latency has passed (rxb_hds_fetch_done()).
 */
void rxb_nic_hds_doorbell(void *arg, u32 page)
{
	struct rxb_nic_ctx *ctx = arg;
	unsigned int q = page - ctx->bar.qpage;

	if (page < ctx->bar.qpage || q >= ctx->nqueues || !ctx->hds.q[q].ring)
		return;
	if (!test_and_set_bit(q, &ctx->hds.todo))
		tasklet_schedule(&ctx->hds.bh);
}

/**
 * rxb_nic_set_wire() - the port's wire, where the NIC's TX commands send.
 * @nic: the NIC.
 * @xmit: put @frames on the wire from queue @q (the PHY), in order, in
 *	the NIC's context; consumes every frame of @frames.
 * @arg: its argument.
 */
void rxb_nic_set_wire(struct rxb_nic *nic,
		      void (*xmit)(void *arg, unsigned int q,
				   struct sk_buff_head *frames), void *arg)
{
	nic->wire_arg = arg;
	/* Release: @arg before the function that uses it. */
	smp_store_release(&nic->wire_xmit, xmit);
}

/**
 * rxb_nic_hds_counters() - read a context's split counters.
 * @ctx: the context.
 * @c: filled.
 */
void rxb_nic_hds_counters(struct rxb_nic_ctx *ctx,
			  struct rxb_nic_hds_counters *c)
{
	struct rxb_hds *h = &ctx->hds;

	c->frames = atomic64_read(&h->frames);
	c->host_bytes = atomic64_read(&h->host_bytes);
	c->nic_bytes = atomic64_read(&h->nic_bytes);
	c->fetch_bytes = atomic64_read(&h->fetch_bytes);
	c->tx_frames = atomic64_read(&h->tx_frames);
	c->tx_nic_bytes = atomic64_read(&h->tx_nic_bytes);
	c->tx_host_bytes = atomic64_read(&h->tx_host_bytes);
	c->fallback = atomic64_read(&h->fallback);
	c->whole = atomic64_read(&h->whole);
	c->held = atomic64_read(&h->held);
	c->cmd_errors = atomic64_read(&h->cmd_errors);
	c->reclaimed = atomic64_read(&h->reclaimed);
}
