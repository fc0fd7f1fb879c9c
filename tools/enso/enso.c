// SPDX-License-Identifier: GPL-2.0
/*
 * libenso: Ensō pipes in userspace (enso.h, enso.rst).
 *
 * Orderings, as the NIC's half expects them (rxb_desc.h, "Ensō user
 * pipes"): a notification's signal is read with acquire (then its fields
 * and the frames below its tail are written); its signal is cleared
 * before NotificationHead_SW moves past it (release store); Head_SW is
 * written with release, after the reads of the bytes it frees.  TX: a
 * frame and its TX notification are written before the tail register
 * that covers them (release store); a completion's signal is read with
 * acquire (then its status; the NIC is done with the frame's bytes).
 */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <endian.h>
#include <rxbisect/rxb_enso_user.h>
#include "enso.h"

#define ENSO_PAGE	4096

static void store_release(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

void enso_dev_init(struct enso_dev *dev, int fd, void *regs, void *notif,
		   void *txnotif, uint32_t entries)
{
	memset(dev, 0, sizeof(*dev));
	dev->fd = fd;
	dev->regs = regs;
	dev->notif = notif;
	dev->txn = txnotif;
	dev->entries = entries;
	/* The NIC starts its counts where the registers stand. */
	dev->nhead = __atomic_load_n(&dev->regs->head, __ATOMIC_RELAXED);
	dev->tx_post = __atomic_load_n(&dev->regs->tx.tx_tail,
				       __ATOMIC_RELAXED);
	dev->tx_done = dev->tx_post;
}

void enso_rx_pipe_init(struct enso_rx_pipe *p, struct enso_dev *dev,
		       uint32_t id, void *va, void *regs, uint32_t size)
{
	memset(p, 0, sizeof(*p));
	p->dev = dev;
	p->id = id;
	p->va = va;
	p->regs = regs;
	p->size = size;
	p->mask = size / ENSO_FLIT - 1;
	if (id < ENSO_MAX_PIPES)
		dev->pipes[id] = p;
}

struct enso_dev *enso_dev_open(const char *ifname, unsigned int queue,
			       unsigned int entries)
{
	struct rxb_enso_attach a = { .queue = queue, .entries = entries };
	struct enso_dev *dev;
	void *regs, *notif, *txn;
	size_t nlen;
	int fd, err;

	a.ifindex = if_nametoindex(ifname);
	if (!a.ifindex)
		return NULL;
	dev = malloc(sizeof(*dev));
	if (!dev)
		return NULL;
	fd = open(RXB_ENSO_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		goto err_free;
	if (ioctl(fd, RXB_ENSO_IOC_ATTACH, &a))
		goto err_close;
	regs = mmap(NULL, ENSO_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    RXB_ENSO_MMAP_NOTIF_REGS);
	if (regs == MAP_FAILED)
		goto err_close;
	nlen = (size_t)entries * sizeof(struct enso_notif);
	notif = mmap(NULL, nlen, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		     RXB_ENSO_MMAP_NOTIF);
	txn = notif == MAP_FAILED ? MAP_FAILED :
	      mmap(NULL, nlen, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   RXB_ENSO_MMAP_TXNOTIF);
	if (txn == MAP_FAILED) {
		err = errno;
		if (notif != MAP_FAILED)
			munmap(notif, nlen);
		munmap(regs, ENSO_PAGE);
		errno = err;
		goto err_close;
	}
	enso_dev_init(dev, fd, regs, notif, txn, entries);
	return dev;
err_close:
	err = errno;
	close(fd);
	errno = err;
err_free:
	err = errno;
	free(dev);
	errno = err;
	return NULL;
}

static void enso_rx_pipe_unmap(struct enso_rx_pipe *p)
{
	munmap(p->va, 2 * (size_t)p->size);
	munmap(p->regs, ENSO_PAGE);
}

void enso_dev_close(struct enso_dev *dev)
{
	unsigned int i;

	if (!dev)
		return;
	for (i = 0; i < ENSO_MAX_PIPES; i++) {
		if (dev->pipes[i]) {
			enso_rx_pipe_unmap(dev->pipes[i]);
			free(dev->pipes[i]);
		}
	}
	munmap(dev->notif, (size_t)dev->entries * sizeof(struct enso_notif));
	munmap(dev->txn, (size_t)dev->entries * sizeof(*dev->txn));
	munmap(dev->regs, ENSO_PAGE);
	/* The last reference: the kernel disables, then frees. */
	close(dev->fd);
	free(dev);
}

struct enso_rx_pipe *enso_rx_pipe_alloc(struct enso_dev *dev, uint32_t size)
{
	struct rxb_enso_pipe req = { .size = size };
	struct enso_rx_pipe *p;
	void *va, *regs;
	int err;

	if (ioctl(dev->fd, RXB_ENSO_IOC_PIPE, &req))
		return NULL;
	p = malloc(sizeof(*p));
	if (!p)
		goto err_free_pipe;
	regs = mmap(NULL, ENSO_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
		    dev->fd, RXB_ENSO_MMAP_PIPE_REGS(req.id));
	if (regs == MAP_FAILED)
		goto err_free;
	/* Twice the size: the same pages twice in a row. */
	va = mmap(NULL, 2 * (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED,
		  dev->fd, RXB_ENSO_MMAP_PIPE(req.id));
	if (va == MAP_FAILED) {
		err = errno;
		munmap(regs, ENSO_PAGE);
		errno = err;
		goto err_free;
	}
	enso_rx_pipe_init(p, dev, req.id, va, regs, size);
	return p;
err_free:
	err = errno;
	free(p);
	errno = err;
err_free_pipe:
	err = errno;
	ioctl(dev->fd, RXB_ENSO_IOC_FREE, &req.id);
	errno = err;
	return NULL;
}

int enso_rx_pipe_bind(struct enso_rx_pipe *p, const struct enso_flow *f)
{
	struct rxb_enso_bind b = {
		.id = p->id, .family = f->family, .proto = f->proto,
		.sport = f->sport, .dport = f->dport,
	};

	memcpy(b.src, f->src, sizeof(b.src));
	memcpy(b.dst, f->dst, sizeof(b.dst));
	if (ioctl(p->dev->fd, RXB_ENSO_IOC_BIND, &b))
		return -errno;
	p->bound = 1;
	return 0;
}

struct enso_rx_pipe *enso_tx_pipe_alloc(struct enso_dev *dev, uint32_t size)
{
	/* Every pipe may send; one never bound receives nothing. */
	return enso_rx_pipe_alloc(dev, size);
}

/* Post TX notification (@pipe, @offset, @len) holding @flits of a TX
 * pipe; the doorbell: a plain store of the count posted.
 */
static int enso_tx_post_flits(struct enso_dev *dev, uint32_t pipe,
			      uint32_t offset, uint32_t len, uint32_t flits)
{
	struct rxb_enso_txnotif *t;

	if (dev->tx_post - dev->tx_done >= dev->entries)
		enso_tx_poll(dev);
	if (dev->tx_post - dev->tx_done >= dev->entries)
		return -EAGAIN;
	t = &dev->txn[dev->tx_post & (dev->entries - 1)];
	memset(t, 0, sizeof(*t));
	t->pipe = pipe;
	t->offset = offset;
	t->len = len;
	t->signal = 1;
	dev->txflits[dev->tx_post & (dev->entries - 1)] = (uint16_t)flits;
	dev->tx_post++;
	/* Release: the entry (and the frame) before the tail that covers
	 * it; the NIC reads the tail with acquire.
	 */
	store_release(&dev->regs->tx.tx_tail, dev->tx_post);
	return 0;
}

int enso_tx_post(struct enso_dev *dev, uint32_t pipe, uint32_t offset,
		 uint32_t len)
{
	return enso_tx_post_flits(dev, pipe, offset, len, 0);
}

int enso_send(struct enso_rx_pipe *p, const void *frame, uint32_t len)
{
	uint32_t f = (len + ENSO_FLIT - 1) / ENSO_FLIT, nflits = p->mask + 1;
	uint32_t off = (p->tx_tail & p->mask) * ENSO_FLIT;
	int err;

	if (p->bound || len < RXB_ENSO_TX_MIN || f >= nflits)
		return -EINVAL;
	if (nflits - (p->tx_tail - p->tx_head) < f)
		enso_tx_poll(p->dev);
	if (nflits - (p->tx_tail - p->tx_head) < f)
		return -EAGAIN;
	/* Through the second mapping past the end: one copy. */
	memcpy(p->va + off, frame, len);
	err = enso_tx_post_flits(p->dev, p->id, off, len, f);
	if (!err)
		p->tx_tail += f;
	return err;
}

int enso_send_zc(struct enso_rx_pipe *p, const void *frame, uint32_t len)
{
	const uint8_t *b = frame;

	if (!p->bound || b < p->va || b >= p->va + p->size ||
	    len < RXB_ENSO_TX_MIN || len > p->size)
		return -EINVAL;
	return enso_tx_post_flits(p->dev, p->id, (uint32_t)(b - p->va), len,
				  0);
}

unsigned int enso_tx_poll(struct enso_dev *dev)
{
	uint32_t mask = dev->entries - 1;
	unsigned int n = 0;

	while (dev->tx_done != dev->tx_post) {
		const struct rxb_enso_txnotif *t = &dev->txn[dev->tx_done & mask];
		struct enso_rx_pipe *p;

		/* Acquire: the NIC is done with the entry and the frame. */
		if (__atomic_load_n(&t->signal, __ATOMIC_ACQUIRE))
			break;
		if (t->status) {
			dev->tx_errors++;
			dev->tx_last_status = t->status;
		} else {
			dev->tx_sent++;
		}
		p = t->pipe < ENSO_MAX_PIPES ? dev->pipes[t->pipe] : NULL;
		if (p)
			p->tx_head += dev->txflits[dev->tx_done & mask];
		dev->tx_done++;
		n++;
	}
	return n;
}

uint32_t enso_tx_pending(const struct enso_dev *dev)
{
	return dev->tx_post - dev->tx_done;
}

int enso_rx_pipe_free(struct enso_rx_pipe *p)
{
	struct enso_dev *dev = p->dev;
	uint32_t id = p->id;

	enso_rx_pipe_unmap(p);
	dev->pipes[id] = NULL;
	free(p);
	return ioctl(dev->fd, RXB_ENSO_IOC_FREE, &id) ? -errno : 0;
}

unsigned int enso_poll_notifs(struct enso_dev *dev)
{
	uint32_t mask = dev->entries - 1;
	unsigned int n = 0;

	for (;;) {
		struct enso_notif *e = &dev->notif[dev->nhead & mask];
		struct enso_rx_pipe *p;
		uint64_t id, tail;

		/* Acquire: the fields and the frames below the tail. */
		if (!__atomic_load_n(&e->signal, __ATOMIC_ACQUIRE))
			break;
		id = le64toh(e->pipe);
		tail = le64toh(e->tail);
		__atomic_store_n(&e->signal, 0, __ATOMIC_RELAXED);
		dev->nhead++;
		n++;
		p = id < ENSO_MAX_PIPES ? dev->pipes[id] : NULL;
		if (!p || tail > p->mask) {
			dev->bad_notifs++;
			continue;
		}
		p->tail = (uint32_t)tail;
	}
	/* Release: the signals cleared before the NIC reuses the entries. */
	if (n)
		store_release(&dev->regs->head, dev->nhead);
	return n;
}

struct enso_rx_pipe *enso_next_rx_pipe(struct enso_dev *dev)
{
	unsigned int i;

	enso_poll_notifs(dev);
	for (i = 0; i < ENSO_MAX_PIPES; i++) {
		unsigned int k = (dev->next + i) % ENSO_MAX_PIPES;
		struct enso_rx_pipe *p = dev->pipes[k];

		if (p && p->read != p->tail) {
			dev->next = k + 1;
			return p;
		}
	}
	return NULL;
}

/* Flits frame @h takes, or 0 when its header is malformed. */
static uint32_t enso_frame_flits(const struct enso_hdr *h)
{
	uint32_t len = le16toh(h->len);

	return len ? (ENSO_HDR_LEN + len + ENSO_FLIT - 1) / ENSO_FLIT : 0;
}

uint32_t enso_peek(struct enso_rx_pipe *p, uint8_t **buf, uint32_t max)
{
	uint32_t avail = (p->tail - p->read) & p->mask, n = 0;

	*buf = p->va + (size_t)p->read * ENSO_FLIT;
	/* Whole frames only: walk the headers up to @max. */
	while (n < avail) {
		const struct enso_hdr *h = (const void *)(*buf + (size_t)n *
							  ENSO_FLIT);
		uint32_t f = enso_frame_flits(h);

		if (!f || f > avail - n) {
			/* Malformed: what is left is skipped. */
			p->bad_frames++;
			if (!n) {
				p->read = p->tail;
				return 0;
			}
			break;
		}
		if (max && (n + f) * ENSO_FLIT > max)
			break;
		n += f;
	}
	return n * ENSO_FLIT;
}

void enso_confirm_bytes(struct enso_rx_pipe *p, uint32_t n)
{
	uint32_t f = n / ENSO_FLIT, avail = (p->tail - p->read) & p->mask;

	if (f > avail)
		f = avail;
	p->read = (p->read + f) & p->mask;
}

uint32_t enso_recv(struct enso_rx_pipe *p, uint8_t **buf, uint32_t max)
{
	uint32_t n = enso_peek(p, buf, max);

	enso_confirm_bytes(p, n);
	return n;
}

void enso_free(struct enso_rx_pipe *p, uint32_t n)
{
	uint32_t f = n / ENSO_FLIT, conf = (p->read - p->head) & p->mask;

	if (f > conf)
		f = conf;
	if (!f)
		return;
	p->head = (p->head + f) & p->mask;
	/* Release: the reads of the freed bytes are done. */
	store_release(&p->regs->rx_head, p->head);
}

void enso_clear(struct enso_rx_pipe *p)
{
	enso_free(p, ((p->read - p->head) & p->mask) * ENSO_FLIT);
}

void enso_prefetch(struct enso_rx_pipe *p)
{
	store_release(&p->regs->prefetch, ++p->pf);
}

const uint8_t *enso_next_frame(const uint8_t *chunk, uint32_t chunk_len,
			       uint32_t *off, uint32_t *len)
{
	const struct enso_hdr *h;
	uint32_t f;

	if (*off + ENSO_FLIT > chunk_len)
		return NULL;
	h = (const void *)(chunk + *off);
	f = enso_frame_flits(h);
	if (!f || *off + f * ENSO_FLIT > chunk_len)
		return NULL;
	*len = le16toh(h->len);
	*off += f * ENSO_FLIT;
	return (const uint8_t *)(h + 1);
}
