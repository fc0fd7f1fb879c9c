// SPDX-License-Identifier: GPL-2.0
/*
 * Ensō pipes in userspace: the character device /dev/rxbisect-enso
 * (include/rxbisect/rxb_enso_user.h; Sadok et al., OSDI '23, sections
 * 4.1-4.2 and 5.1).
 *
 * Why a character device: Ensō hands an application pinned memory the
 * NIC writes, and a page of the NIC's registers, both mapped into the
 * application's address space; the kernel's way to hand device queues to
 * userspace is a file whose mmap() maps them (VFIO, UIO, RDMA's uverbs),
 * and a module cannot add a socket family.  A misc device needs no major
 * number of its own.  Its mode is 0600: root's, as VFIO's or the Ensō
 * library's hugepages and BAR mappings are.
 *
 * One open file is one Ensō context: one user notification ring of one
 * port and its TX notification ring (RXB_ENSO_IOC_ATTACH) and up to
 * RXB_ENSO_FD_PIPES pipes (RXB_ENSO_IOC_PIPE), each enabled on the NIC
 * for TX at once (a TX notification may name it) and taking one flow
 * once bound (RXB_ENSO_IOC_BIND): pipes are unified RX/TX pipes.  The
 * NIC's user rings and pipes (rxb_desc.h, "Ensō user pipes") are lent to
 * files first come first served; a file sees the pages of its own ring
 * and pipes only, never a configuration page.  The memory (the rings'
 * entries, the pipes) is allocated here, physically contiguous as the
 * NIC's bus addresses need, zeroed, and charged to the opener's locked
 * memory (account_locked_vm(): RLIMIT_MEMLOCK unless CAP_IPC_LOCK, as
 * VFIO charges pinned pages), at most enso_user_kb per file.  A pipe is
 * mapped twice in a row: its pages, then the same pages again, so a
 * frame across its end reads in one piece.
 *
 * The driver programs the NIC through the configuration page with its
 * register writes (rxb_reg_write()), and waits for the NIC's answer:
 * after a disable is answered the NIC writes the ring or pipe no more,
 * and only then is its memory freed (the file's release: every mapping
 * is gone by then, a process killed included).  When the port's
 * receive configuration is torn down (ring model change, ethtool -L/-G,
 * port removal) the NIC context is disabled first; its files are then
 * detached (rxb_enso_user_detach()): their calls fail with ENODEV, their
 * memory is freed at release.
 *
 * Locking: RTNL for what concerns the port (attach, the NIC's
 * programming, detach), then the file's mutex for its pages; mmap()
 * takes the mutex alone; account_locked_vm() (the mm's lock) is called
 * under neither.
 */
#include <linux/capability.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <rxbisect/rxb_enso_user.h>
#include "rxbisect.h"

static unsigned int enso_user_kb = 16384;

/* A refused value is logged, as every parameter's (main.c). */
static int rxb_enso_user_kb_set(const char *val, const struct kernel_param *kp)
{
	int err = param_set_uint(val, kp);

	if (err)
		pr_err("rxbisect: enso_user_kb '%.*s': not a number of KiB in the range 0..%u\n",
		       (int)strcspn(val, "\n"), val, UINT_MAX);
	return err;
}

static const struct kernel_param_ops rxb_enso_user_kb_ops = {
	.set = rxb_enso_user_kb_set,
	.get = param_get_uint,
};

module_param_cb(enso_user_kb, &rxb_enso_user_kb_ops, &enso_user_kb, 0644);
__MODULE_PARM_TYPE(enso_user_kb, "uint");
MODULE_PARM_DESC(enso_user_kb, "enso: most memory (KiB) one open /dev/rxbisect-enso may pin for its notification ring and pipes, charged to its locked memory as well (default 16384); writable");

/* The NIC's answer to a configuration write takes at most this long. */
#define RXB_ENSO_USER_WAIT_MS	1000

/* A pipe of an open file. */
struct rxb_enso_upipe {
	struct page *page;	/* first of 1 << order split pages */
	unsigned int order;
	u32 size;
	int slot;		/* the NIC's user pipe, or -1 */
	bool on;		/* enabled on the NIC (TX may name it) */
	bool bound;		/* and takes its flow */
	struct page *regs;	/* its register page (a reference) */
};

/* An open file: an Ensō context. */
struct rxb_enso_uctx {
	struct list_head node;	/* rxb_enso_users, RTNL */
	struct rxb_rx *rx;	/* attached to; NULL: never or detached */
	bool attached;
	int slot;		/* the NIC's user ring */
	struct mutex lock;	/* the pages below */
	struct mm_struct *mm;	/* charged */
	unsigned long charged;	/* pages */
	struct page *notif;	/* first of 1 << notif_order split pages */
	struct page *txnotif;	/* TX notifications, as many */
	unsigned int notif_order;
	struct page *notif_regs;
	struct rxb_enso_upipe pipe[RXB_ENSO_FD_PIPES];
};

static LIST_HEAD(rxb_enso_users);	/* RTNL */
static atomic64_t rxb_enso_leaks;	/* memory kept: the NIC did not answer */

static struct rxb_model *rxb_enso_model(struct rxb_enso_uctx *u)
{
	return u->rx->model;
}

static struct rxb_enso_upipe_cfg *rxb_enso_pcfg(struct rxb_model *m, int slot)
{
	return rxb_enso_upipe_cfgs(&m->bar, m->cfg.enso_pipes,
				   m->cfg.nqueues) + slot;
}

static struct rxb_enso_uctx_cfg *rxb_enso_ccfg(struct rxb_model *m, int slot)
{
	return rxb_enso_uctx_cfgs(&m->bar, m->cfg.enso_pipes,
				  m->cfg.nqueues) + slot;
}

/* Register page @idx of the user pages (rings', then pipes'). */
static void *rxb_enso_upage(struct rxb_model *m, unsigned int idx)
{
	return rxb_bar_page(&m->bar, rxb_enso_user_page(&m->bar,
							m->cfg.enso_pipes,
							m->cfg.nqueues) + idx);
}

/* Wait for the NIC to answer @want in @state.  Returns its answer. */
static u32 rxb_enso_wait(const u32 *state, u32 want)
{
	unsigned long end = jiffies + msecs_to_jiffies(RXB_ENSO_USER_WAIT_MS);
	u32 v;

	/* Acquire: pairs with the NIC's release of its answer. */
	while ((v = smp_load_acquire(state)) != want &&
	       !(want && v == RXB_ENSO_USTATE_REFUSED) &&
	       time_before(jiffies, end))
		usleep_range(20, 100);
	return v;
}

/* Memory of 1 << @order pages, zeroed, each page refcounted on its own
 * (mapped page by page into the process).
 */
static struct page *rxb_enso_alloc(unsigned int order)
{
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_ZERO |
					__GFP_NOWARN, order);

	if (page)
		split_page(page, order);
	return page;
}

static void rxb_enso_free(struct page *page, unsigned int order)
{
	unsigned int i;

	for (i = 0; page && i < 1U << order; i++)
		__free_page(page + i);
}

/* Charge @pages to the file's locked memory, within enso_user_kb. */
static int rxb_enso_charge(struct rxb_enso_uctx *u, unsigned long pages)
{
	unsigned long max = READ_ONCE(enso_user_kb) / (PAGE_SIZE / 1024);
	int err;

	mutex_lock(&u->lock);
	err = u->charged + pages > max ? -ENOBUFS : 0;
	if (!err)
		u->charged += pages;
	mutex_unlock(&u->lock);
	if (err)
		return err;
	err = account_locked_vm(u->mm, pages, true);
	if (err) {
		mutex_lock(&u->lock);
		u->charged -= pages;
		mutex_unlock(&u->lock);
	}
	return err;
}

static void rxb_enso_uncharge(struct rxb_enso_uctx *u, unsigned long pages)
{
	account_locked_vm(u->mm, pages, false);
	mutex_lock(&u->lock);
	u->charged -= pages;
	mutex_unlock(&u->lock);
}

/* Memory of 1 << @order pages for the file, charged.  An ERR_PTR() when
 * over a bound or out of memory.
 */
static struct page *rxb_enso_get_mem(struct rxb_enso_uctx *u,
				     unsigned int order)
{
	struct page *page;
	int err;

	err = rxb_enso_charge(u, 1UL << order);
	if (err)
		return ERR_PTR(err);
	page = rxb_enso_alloc(order);
	if (!page) {
		rxb_enso_uncharge(u, 1UL << order);
		return ERR_PTR(-ENOMEM);
	}
	return page;
}

/* Disable pipe @p on the NIC; RTNL held.  Returns false when the NIC did
 * not answer (its memory must be kept).
 */
static bool rxb_enso_pipe_off(struct rxb_enso_uctx *u,
			      struct rxb_enso_upipe *p)
{
	struct rxb_enso_upipe_cfg *c;
	struct rxb_model *m;

	if (!u->rx || p->slot < 0)
		return true;
	m = rxb_enso_model(u);
	c = rxb_enso_pcfg(m, p->slot);
	if (p->on) {
		rxb_reg_write(m, 0, &c->ctl, 0);
		if (rxb_enso_wait(&c->state, 0))
			return false;
	}
	p->on = false;
	p->bound = false;
	p->slot = -1;
	return true;
}

/* Free pipe @p: off the NIC first, then its memory.  RTNL held. */
static void rxb_enso_pipe_free(struct rxb_enso_uctx *u,
			       struct rxb_enso_upipe *p)
{
	struct page *page, *regs;
	unsigned int order;

	if (!p->page)
		return;
	if (!rxb_enso_pipe_off(u, p)) {
		pr_warn_ratelimited("rxbisect: enso: the NIC did not disable a user pipe; its memory is kept (%lld so far)\n",
				    atomic64_inc_return(&rxb_enso_leaks));
		return;
	}
	mutex_lock(&u->lock);
	page = p->page;
	order = p->order;
	regs = p->regs;
	p->page = NULL;
	p->regs = NULL;
	mutex_unlock(&u->lock);
	if (regs)
		put_page(regs);
	rxb_enso_free(page, order);
	rxb_enso_uncharge(u, 1UL << order);
}

static int rxb_enso_open(struct inode *inode, struct file *file)
{
	struct rxb_enso_uctx *u;
	unsigned int i;

	if (!capable(CAP_NET_ADMIN))
		return -EPERM;
	u = kzalloc(sizeof(*u), GFP_KERNEL);
	if (!u)
		return -ENOMEM;
	mutex_init(&u->lock);
	u->slot = -1;
	for (i = 0; i < RXB_ENSO_FD_PIPES; i++)
		u->pipe[i].slot = -1;
	u->mm = current->mm;
	mmgrab(u->mm);
	INIT_LIST_HEAD(&u->node);
	file->private_data = u;
	return 0;
}

/* The last mapping is gone: the NIC stops, then everything is freed. */
static int rxb_enso_release(struct inode *inode, struct file *file)
{
	struct rxb_enso_uctx *u = file->private_data;
	bool kept = false;
	unsigned int i;

	rtnl_lock();
	for (i = 0; i < RXB_ENSO_FD_PIPES; i++) {
		rxb_enso_pipe_free(u, &u->pipe[i]);
		kept |= !!u->pipe[i].page;
	}
	if (u->rx && u->slot >= 0) {
		struct rxb_model *m = rxb_enso_model(u);
		struct rxb_enso_uctx_cfg *c = rxb_enso_ccfg(m, u->slot);

		rxb_reg_write(m, 0, &c->ctl, 0);
		if (rxb_enso_wait(&c->state, 0))
			kept = true;
	}
	list_del(&u->node);
	rtnl_unlock();
	if (u->notif_regs)
		put_page(u->notif_regs);
	if (kept) {
		/* The NIC may still write: its memory stays allocated. */
		pr_warn_ratelimited("rxbisect: enso: the NIC did not disable a user ring; its memory is kept (%lld so far)\n",
				    atomic64_inc_return(&rxb_enso_leaks));
	} else if (u->notif) {
		rxb_enso_free(u->notif, u->notif_order);
		rxb_enso_free(u->txnotif, u->notif_order);
		rxb_enso_uncharge(u, 2UL << u->notif_order);
	}
	mmdrop(u->mm);
	kfree(u);
	return 0;
}

/* The port of @ifindex in the caller's namespace; RTNL held. */
static struct rxb_port *rxb_enso_port(int ifindex)
{
	struct rxb_port *port;

	list_for_each_entry(port, &rxb_ports, list)
		if (port->dev->ifindex == ifindex &&
		    net_eq(dev_net(port->dev), current->nsproxy->net_ns))
			return port;
	return NULL;
}

/* Is user ring @slot of @rx lent to a file?  RTNL held. */
static bool rxb_enso_ring_taken(struct rxb_rx *rx, int slot)
{
	struct rxb_enso_uctx *o;

	list_for_each_entry(o, &rxb_enso_users, node)
		if (o->rx == rx && o->slot == slot)
			return true;
	return false;
}

static bool rxb_enso_pipe_taken(struct rxb_rx *rx, int slot)
{
	struct rxb_enso_uctx *o;
	unsigned int i;

	list_for_each_entry(o, &rxb_enso_users, node)
		for (i = 0; o->rx == rx && i < RXB_ENSO_FD_PIPES; i++)
			if (o->pipe[i].slot == slot)
				return true;
	return false;
}

static long rxb_enso_attach(struct rxb_enso_uctx *u, void __user *arg)
{
	struct rxb_enso_attach a;
	struct page *page, *txpage = NULL;
	struct rxb_enso_uctx_cfg *c;
	unsigned int order, i;
	struct rxb_port *port;
	struct rxb_model *m;
	struct rxb_rx *rx;
	void *regs;
	long err;

	if (copy_from_user(&a, arg, sizeof(a)))
		return -EFAULT;
	if (a.reserved || !is_power_of_2(a.entries) ||
	    a.entries < RXB_RING_MIN || a.entries > RXB_RING_MAX)
		return -EINVAL;
	if (u->attached)
		return -EBUSY;
	order = get_order((size_t)a.entries * sizeof(struct rxb_enso_notif));
	page = rxb_enso_get_mem(u, order);
	if (IS_ERR(page))
		return PTR_ERR(page);
	txpage = rxb_enso_get_mem(u, order);
	if (IS_ERR(txpage)) {
		rxb_enso_free(page, order);
		rxb_enso_uncharge(u, 1UL << order);
		return PTR_ERR(txpage);
	}
	rtnl_lock();
	err = -ENODEV;
	port = rxb_enso_port(a.ifindex);
	rx = port ? rtnl_dereference(port->rx) : NULL;
	if (!port || u->attached)
		goto err;
	err = -ENETDOWN;
	if (!rx)
		goto err;
	err = -EOPNOTSUPP;
	m = rx->model;
	if (m->ops != &rxb_enso_ops)
		goto err;
	err = -EINVAL;
	if (a.queue >= rx->nqueues)
		goto err;
	err = -EBUSY;
	for (i = 0; i < RXB_ENSO_UCTX && rxb_enso_ring_taken(rx, i); i++)
		;
	if (i == RXB_ENSO_UCTX)
		goto err;
	regs = rxb_enso_upage(m, i);
	memset(regs, 0, RXB_BAR_PAGE);
	c = rxb_enso_ccfg(m, i);
	/* Ring memory's bus address is the driver's (rxb_rx_dma_alloc()). */
	WRITE_ONCE(c->base.hi, (u32)((uintptr_t)page_address(page) >> 32));
	WRITE_ONCE(c->base.lo, (u32)(uintptr_t)page_address(page));
	WRITE_ONCE(c->tx_base.hi,
		   (u32)((uintptr_t)page_address(txpage) >> 32));
	WRITE_ONCE(c->tx_base.lo, (u32)(uintptr_t)page_address(txpage));
	WRITE_ONCE(c->size, a.entries);
	WRITE_ONCE(c->queue, a.queue);
	rxb_reg_write(m, a.queue, &c->ctl, 1);
	if (rxb_enso_wait(&c->state, 1) != 1) {
		rxb_reg_write(m, a.queue, &c->ctl, 0);
		err = rxb_enso_wait(&c->state, 0) ? -ETIMEDOUT : -EIO;
		if (err == -ETIMEDOUT) {
			/* Not answered: the memory stays the NIC's. */
			pr_warn_ratelimited("rxbisect: enso: the NIC did not answer; a user ring's memory is kept (%lld so far)\n",
					    atomic64_inc_return(&rxb_enso_leaks));
			page = NULL;
			txpage = NULL;
		}
		goto err;
	}
	mutex_lock(&u->lock);
	u->notif = page;
	u->txnotif = txpage;
	u->notif_order = order;
	u->notif_regs = vmalloc_to_page(regs);
	get_page(u->notif_regs);
	mutex_unlock(&u->lock);
	u->rx = rx;
	u->slot = i;
	u->attached = true;
	list_add(&u->node, &rxb_enso_users);
	rtnl_unlock();
	return 0;
err:
	rtnl_unlock();
	rxb_enso_free(page, order);
	rxb_enso_free(txpage, order);
	if (page)
		rxb_enso_uncharge(u, 2UL << order);
	return err;
}

static long rxb_enso_new_pipe(struct rxb_enso_uctx *u, void __user *arg)
{
	struct rxb_enso_upipe_cfg *c;
	struct rxb_enso_pipe req;
	struct rxb_enso_upipe *p;
	unsigned int order, id;
	struct rxb_model *m;
	struct page *page;
	void *regs;
	int slot;
	long err;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	if (!is_power_of_2(req.size) || req.size < RXB_ENSO_PIPE_MIN ||
	    req.size > RXB_ENSO_PIPE_MAX)
		return -EINVAL;
	order = get_order(req.size);
	page = rxb_enso_get_mem(u, order);
	if (IS_ERR(page))
		return PTR_ERR(page);
	rtnl_lock();
	err = u->attached ? -ENODEV : -EINVAL;
	if (!u->rx)
		goto err;
	m = rxb_enso_model(u);
	err = -ENOSPC;
	for (id = 0; id < RXB_ENSO_FD_PIPES && u->pipe[id].page; id++)
		;
	if (id == RXB_ENSO_FD_PIPES)
		goto err;
	err = -EBUSY;
	for (slot = 0; slot < RXB_ENSO_UPIPES &&
	     rxb_enso_pipe_taken(u->rx, slot); slot++)
		;
	if (slot == RXB_ENSO_UPIPES)
		goto err;
	regs = rxb_enso_upage(m, RXB_ENSO_UCTX + slot);
	memset(regs, 0, RXB_BAR_PAGE);
	c = rxb_enso_pcfg(m, slot);
	memset(c, 0, sizeof(*c));
	c->mem.hi = (u32)(page_to_phys(page) >> 32);
	c->mem.lo = (u32)page_to_phys(page);
	c->size = req.size;
	c->uctx = u->slot;
	c->tag = id;
	p = &u->pipe[id];
	mutex_lock(&u->lock);
	p->page = page;
	p->order = order;
	p->size = req.size;
	p->slot = slot;
	p->on = true;	/* until the NIC says otherwise: disabled then */
	p->bound = false;
	p->regs = vmalloc_to_page(regs);
	get_page(p->regs);
	mutex_unlock(&u->lock);
	/* Enabled for TX notifications at once; bound later. */
	rxb_reg_write(m, 0, &c->ctl, RXB_ENSO_UCTL_ON);
	if (rxb_enso_wait(&c->state, RXB_ENSO_UCTL_ON) != RXB_ENSO_UCTL_ON) {
		rxb_enso_pipe_free(u, p);
		rtnl_unlock();
		return -EIO;
	}
	rtnl_unlock();
	req.id = id;
	if (copy_to_user(arg, &req, sizeof(req)))
		return -EFAULT;	/* the pipe stays; freed at release */
	return 0;
err:
	rtnl_unlock();
	rxb_enso_free(page, order);
	rxb_enso_uncharge(u, 1UL << order);
	return err;
}

/* Is the flow of @k taken by an enabled pipe of @rx?  RTNL held. */
static bool rxb_enso_key_taken(struct rxb_rx *rx, const struct rxb_enso_ukey *k)
{
	struct rxb_model *m = rx->model;
	unsigned int i;

	for (i = 0; i < RXB_ENSO_UPIPES; i++) {
		const struct rxb_enso_upipe_cfg *c = rxb_enso_pcfg(m, i);

		if ((READ_ONCE(c->ctl) & RXB_ENSO_UCTL_RX) &&
		    !memcmp(&c->key, k, sizeof(*k)))
			return true;
	}
	return false;
}

static long rxb_enso_bind(struct rxb_enso_uctx *u, void __user *arg)
{
	struct rxb_enso_upipe_cfg *c;
	struct rxb_enso_ukey key = {};
	struct rxb_enso_upipe *p;
	struct rxb_enso_bind b;
	struct rxb_model *m;
	long err;

	if (copy_from_user(&b, arg, sizeof(b)))
		return -EFAULT;
	if (b.id >= RXB_ENSO_FD_PIPES || b.reserved || !b.dport ||
	    (b.family != 4 && b.family != 6) ||
	    (b.proto != IPPROTO_UDP && b.proto != IPPROTO_TCP))
		return -EINVAL;
	memcpy(key.src, b.src, sizeof(key.src));
	memcpy(key.dst, b.dst, sizeof(key.dst));
	key.sport = (__force __be16)b.sport;
	key.dport = (__force __be16)b.dport;
	key.family = b.family;
	key.proto = b.proto;
	rtnl_lock();
	err = u->attached ? -ENODEV : -EINVAL;
	if (!u->rx)
		goto out;
	p = &u->pipe[b.id];
	err = -EINVAL;
	if (!p->page || !p->on)
		goto out;
	err = -EBUSY;
	if (p->bound)
		goto out;
	err = -EADDRINUSE;
	if (rxb_enso_key_taken(u->rx, &key))
		goto out;
	m = rxb_enso_model(u);
	c = rxb_enso_pcfg(m, p->slot);
	memcpy(&c->key, &key, sizeof(key));
	rxb_reg_write(m, 0, &c->ctl, RXB_ENSO_UCTL_ON | RXB_ENSO_UCTL_RX);
	err = 0;
	if (rxb_enso_wait(&c->state, RXB_ENSO_UCTL_ON | RXB_ENSO_UCTL_RX) !=
	    (RXB_ENSO_UCTL_ON | RXB_ENSO_UCTL_RX)) {
		/* Off the NIC: the pipe takes nothing and sends nothing. */
		rxb_reg_write(m, 0, &c->ctl, 0);
		err = rxb_enso_wait(&c->state, 0) ? -ETIMEDOUT : -EIO;
		p->on = err == -ETIMEDOUT;	/* freed only once answered */
		goto out;
	}
	p->bound = true;
out:
	rtnl_unlock();
	return err;
}

static long rxb_enso_free_pipe(struct rxb_enso_uctx *u, u32 __user *arg)
{
	u32 id;

	if (get_user(id, arg))
		return -EFAULT;
	if (id >= RXB_ENSO_FD_PIPES)
		return -EINVAL;
	rtnl_lock();
	if (!u->pipe[id].page) {
		rtnl_unlock();
		return -EINVAL;
	}
	rxb_enso_pipe_free(u, &u->pipe[id]);
	rtnl_unlock();
	return u->pipe[id].page ? -ETIMEDOUT : 0;
}

static long rxb_enso_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	struct rxb_enso_uctx *u = file->private_data;
	void __user *uarg = (void __user *)arg;

	if (current->mm != u->mm)
		return -EPERM;	/* charged to the opener's mm */
	switch (cmd) {
	case RXB_ENSO_IOC_ATTACH:
		return rxb_enso_attach(u, uarg);
	case RXB_ENSO_IOC_PIPE:
		return rxb_enso_new_pipe(u, uarg);
	case RXB_ENSO_IOC_BIND:
		return rxb_enso_bind(u, uarg);
	case RXB_ENSO_IOC_FREE:
		return rxb_enso_free_pipe(u, uarg);
	}
	return -ENOTTY;
}

/* Map @n pages from @pages[0] (@twice: then the same again) at @vma. */
static int rxb_enso_insert(struct vm_area_struct *vma, struct page *page,
			   unsigned long n, bool twice)
{
	unsigned long i;
	int err;

	for (i = 0; i < (twice ? 2 * n : n); i++) {
		err = vm_insert_page(vma, vma->vm_start + i * PAGE_SIZE,
				     page + i % n);
		if (err)
			return err;
	}
	return 0;
}

static int rxb_enso_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct rxb_enso_uctx *u = file->private_data;
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	unsigned long len = vma->vm_end - vma->vm_start;
	struct rxb_enso_upipe *p;
	int err = -EINVAL;
	u64 id;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	mutex_lock(&u->lock);
	if (off == RXB_ENSO_MMAP_NOTIF_REGS) {
		if (u->notif_regs && len == PAGE_SIZE)
			err = rxb_enso_insert(vma, u->notif_regs, 1, false);
	} else if (off == RXB_ENSO_MMAP_NOTIF) {
		if (u->notif && len == PAGE_SIZE << u->notif_order)
			err = rxb_enso_insert(vma, u->notif,
					      1UL << u->notif_order, false);
	} else if (off == RXB_ENSO_MMAP_TXNOTIF) {
		if (u->txnotif && len == PAGE_SIZE << u->notif_order)
			err = rxb_enso_insert(vma, u->txnotif,
					      1UL << u->notif_order, false);
	} else if (off >= RXB_ENSO_MMAP_PIPE(0)) {
		id = (off - RXB_ENSO_MMAP_PIPE(0)) / RXB_ENSO_MMAP_PIPE_STRIDE;
		p = id < RXB_ENSO_FD_PIPES ? &u->pipe[id] : NULL;
		if (p && p->page && off == RXB_ENSO_MMAP_PIPE(id) &&
		    len == 2 * (unsigned long)p->size)
			err = rxb_enso_insert(vma, p->page, p->size >> PAGE_SHIFT,
					      true);
	} else if (off >= RXB_ENSO_MMAP_PIPE_REGS(0) &&
		   off < RXB_ENSO_MMAP_PIPE_REGS(RXB_ENSO_FD_PIPES)) {
		p = &u->pipe[(off - RXB_ENSO_MMAP_PIPE_REGS(0)) >> PAGE_SHIFT];
		if (p->regs && len == PAGE_SIZE)
			err = rxb_enso_insert(vma, p->regs, 1, false);
	}
	mutex_unlock(&u->lock);
	return err;
}

static const struct file_operations rxb_enso_fops = {
	.owner		= THIS_MODULE,
	.open		= rxb_enso_open,
	.release	= rxb_enso_release,
	.unlocked_ioctl	= rxb_enso_ioctl,
	.mmap		= rxb_enso_mmap,
	.llseek		= noop_llseek,
};

static bool rxb_enso_misc_on;

static struct miscdevice rxb_enso_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "rxbisect-enso",
	.fops	= &rxb_enso_fops,
	.mode	= 0600,
};

/**
 * rxb_enso_user_detach() - a receive configuration is being freed: its
 *	NIC context is disabled (nothing writes the files' memory any
 *	more); the files attached to it are detached.
 * @rx: the configuration.  RTNL held.
 */
void rxb_enso_user_detach(struct rxb_rx *rx)
{
	struct rxb_enso_uctx *u;
	unsigned int i;

	ASSERT_RTNL();
	list_for_each_entry(u, &rxb_enso_users, node) {
		if (u->rx != rx)
			continue;
		u->rx = NULL;
		for (i = 0; i < RXB_ENSO_FD_PIPES; i++) {
			u->pipe[i].slot = -1;
			u->pipe[i].on = false;
			u->pipe[i].bound = false;
		}
	}
}

/**
 * rxb_enso_user_init() - register /dev/rxbisect-enso.
 *
 * Return: 0 or a negative error.
 */
int rxb_enso_user_init(void)
{
	/* Register pages are mapped one to one. */
	if (PAGE_SIZE != RXB_BAR_PAGE)
		return 0;
	rxb_enso_misc_on = !misc_register(&rxb_enso_misc);
	return rxb_enso_misc_on ? 0 : -ENODEV;
}

/**
 * rxb_enso_user_exit() - unregister it (no file is open: each holds the
 *	module).
 */
void rxb_enso_user_exit(void)
{
	if (rxb_enso_misc_on)
		misc_deregister(&rxb_enso_misc);
	rxb_enso_misc_on = false;
}
