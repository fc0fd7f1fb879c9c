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
 * (struct rxb_nmc_desc): FETCH copies it into host memory (a DMA write,
 * counted as host bytes), TX sends headers read from host memory followed
 * by the payload to the wire, FREE releases it.
 *
 * A frame with nothing to split, or one the tier has no room for, is
 * written whole, as without the split (counted: whole, fallback).
 *
 * The BAR: rxb_nic_hds_bar() is the CPU's view of a payload in NIC memory
 * (on hardware a mapping of device memory through a PCI BAR, which
 * nicmem's prototype exposed to the kernel as device pages).  The driver
 * hands it to XDP programs as a read-mostly fragment; the emulation cannot
 * count the bytes a program reads there.
 */
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/ip.h>
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
	union {
		struct iphdr ip;
		struct ipv6hdr ip6;
		struct tcphdr tcp;
		struct vlan_hdr vlan;
		__be16 proto;
	} b;
	const void *h;
	u32 off = ETH_HLEN;
	__be16 proto;
	u8 l4;

	h = skb_header_pointer(skb, offsetof(struct ethhdr, h_proto),
			       sizeof(b.proto), &b);
	if (!h)
		return 0;
	proto = *(const __be16 *)h;
	if (proto == htons(ETH_P_8021Q)) {
		h = skb_header_pointer(skb, off, sizeof(b.vlan), &b);
		if (!h)
			return 0;
		proto = ((const struct vlan_hdr *)h)->h_vlan_encapsulated_proto;
		off += VLAN_HLEN;
	}
	if (proto == htons(ETH_P_IP)) {
		const struct iphdr *ip = skb_header_pointer(skb, off,
							    sizeof(b.ip), &b);

		if (!ip || ip->ihl < 5 || ip_is_fragment(ip))
			return 0;
		l4 = ip->protocol;
		off += ip->ihl * 4;
	} else if (proto == htons(ETH_P_IPV6)) {
		const struct ipv6hdr *ip6 = skb_header_pointer(skb, off,
							       sizeof(b.ip6),
							       &b);

		if (!ip6)
			return 0;
		l4 = ip6->nexthdr;
		off += sizeof(*ip6);
	} else {
		return 0;
	}
	if (l4 == IPPROTO_TCP) {
		const struct tcphdr *th = skb_header_pointer(skb, off,
							     sizeof(b.tcp), &b);

		if (!th || th->doff < 5)
			return 0;
		off += th->doff * 4;
	} else if (l4 == IPPROTO_UDP) {
		off += sizeof(struct udphdr);
	} else {
		return 0;
	}
	return off < len ? off : 0;
}

/**
 * rxb_nic_hds_init() - power on a context's split, empty.
 * @ctx: the context being created.
 * @on: split mode.
 */
void rxb_nic_hds_init(struct rxb_nic_ctx *ctx, bool on)
{
	ctx->hds.on = on;
	xa_init_flags(&ctx->hds.xa, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_BH);
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

	xa_for_each(&ctx->hds.xa, i, page) {
		rxb_hds_release(ctx, i, page);
		atomic64_inc(&ctx->hds.reclaimed);
	}
	xa_destroy(&ctx->hds.xa);
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
	rec->reserved = 0;
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
 * rxb_nic_nmc_setup() - write a queue's command ring base registers.
 * @ctx: the receive context, not enabled yet.
 * @q: the queue.
 * @ring: bus address of the ring (host memory, zeroed), or 0 for none.
 * @entries: its entries, a power of two up to RXB_NMC_RING_MAX.
 *
 * Return: 0, or -EINVAL.
 */
int rxb_nic_nmc_setup(struct rxb_nic_ctx *ctx, unsigned int q, u64 ring,
		      u32 entries)
{
	struct rxb_hds_q *hq;

	if (q >= RXB_MAX_QUEUES ||
	    (ring && (!is_power_of_2(entries) || entries > RXB_NMC_RING_MAX)))
		return -EINVAL;
	hq = &ctx->hds.q[q];
	hq->ring = ring ? phys_to_virt(ring) : NULL;
	hq->mask = entries - 1;
	hq->head = 0;
	return 0;
}

/* TX: headers from host memory, then @len payload bytes from NIC memory,
 * as one frame on @wire.  False when the NIC had no memory to build it.
 */
static bool rxb_hds_tx(struct rxb_nic_ctx *ctx, const struct rxb_nmc_desc *d,
		       struct page *page, u32 len, struct sk_buff_head *wire)
{
	u32 hlen = le16_to_cpu(d->hdr_len);
	unsigned long priv = page_private(page);
	struct sk_buff *skb;

	skb = alloc_skb(hlen + len, GFP_ATOMIC | __GFP_NOWARN);
	if (!skb)
		return false;
	skb_put_data(skb, phys_to_virt(le64_to_cpu(d->buf_addr)), hlen);
	skb_put_data(skb, (u8 *)page_address(page) + RXB_HDS_HDR(priv), len);
	__skb_queue_tail(wire, skb);
	atomic64_inc(&ctx->hds.tx_frames);
	atomic64_add(len, &ctx->hds.tx_nic_bytes);
	atomic64_add(hlen, &ctx->hds.tx_host_bytes);
	return true;
}

/**
 * rxb_nic_nmc_doorbell() - write a queue's command ring tail register:
 *	the NIC executes the commands up to @tail, in order.
 * @ctx: the receive context whose rings the queue polls.
 * @q: the queue; its poll context.
 * @tail: commands written up to here (free-running).
 * @wire: TX commands' frames, for the port's Tx engine to send in order.
 *
 * Each command completes within the write (RXB_NMC_F_DONE set with
 * release); a FETCH waits the tier's fetch latency first.
 */
void rxb_nic_nmc_doorbell(struct rxb_nic_ctx *ctx, unsigned int q, u32 tail,
			  struct sk_buff_head *wire)
{
	struct rxb_nic *nic = ctx->nic;
	struct rxb_hds_q *hq = &ctx->hds.q[q];

	rxb_nic_reg_write(nic, q, sizeof(tail));
	if (!hq->ring)
		return;
	for (; hq->head != tail; hq->head++) {
		struct rxb_nmc_desc *d = &hq->ring[hq->head & hq->mask];
		u32 handle = le32_to_cpu(d->handle), len = le16_to_cpu(d->len);
		u8 fl = RXB_NMC_F_DONE;
		struct page *page;
		u32 pay = 0, hlen = 0;

		atomic64_add(sizeof(*d), &nic->pcie[q].to_nic_desc);
		page = xa_load(&ctx->hds.xa, handle);
		if (page) {
			pay = RXB_HDS_PAY(page_private(page));
			hlen = RXB_HDS_HDR(page_private(page));
		}
		if (!page || len > pay) {
			fl |= RXB_NMC_F_ERR;
		} else if (d->op == RXB_NMC_FETCH) {
			u64 to = le64_to_cpu(d->buf_addr);

			rxb_nicmem_fetch_wait(&ctx->mem, len);
			/* A DMA write like any other: in the working set. */
			rxb_nic_ws_write(ctx, to, len);
			memcpy(phys_to_virt(to),
			       (u8 *)page_address(page) + hlen, len);
			atomic64_add(len, &nic->dma_bytes[q].v);
			atomic64_add(len, &ctx->hds.fetch_bytes);
			atomic64_add(len, &ctx->hds.host_bytes);
		} else if (d->op == RXB_NMC_TX) {
			if (!rxb_hds_tx(ctx, d, page, len, wire))
				fl |= RXB_NMC_F_ERR;
		} else if (d->op != RXB_NMC_FREE) {
			fl |= RXB_NMC_F_ERR;
		}
		if (page && (d->op == RXB_NMC_FREE ||
			     (d->flags & RXB_NMC_F_RELEASE)))
			rxb_hds_release(ctx, handle, page);
		if (fl & RXB_NMC_F_ERR)
			atomic64_inc(&ctx->hds.cmd_errors);
		/* Release: the data moved before the done mark. */
		smp_store_release(&d->flags, fl);
	}
}

/**
 * rxb_nic_hds_bar() - the CPU's view of a payload in NIC memory (a BAR
 *	mapping of device memory on hardware).
 * @ctx: the receive context.
 * @handle: the payload (struct rxb_hds_rec.handle), held.
 * @off: set to the payload's offset in the returned page.
 *
 * The page stays the NIC's: a user takes its own reference for as long
 * as it maps it, and the payload's bytes stay valid until its release.
 *
 * Return: the page, or NULL for an unknown handle.
 */
struct page *rxb_nic_hds_bar(struct rxb_nic_ctx *ctx, u32 handle, u32 *off)
{
	struct page *page = xa_load(&ctx->hds.xa, handle);

	if (page)
		*off = RXB_HDS_HDR(page_private(page));
	return page;
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
