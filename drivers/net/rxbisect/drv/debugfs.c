// SPDX-License-Identifier: GPL-2.0
/*
 * rxbisect debug knobs, under /sys/kernel/debug/rxbisect/<ifname>/q<N>/:
 *
 *   stall    1: the queue's consumer stops consuming; 0: it resumes.
 *   work     extra random cache-line touches per received packet, in a
 *            4 MiB buffer per port (the seeds' slowed-down core);
 *            0..262144 (RXB_WORK_MAX).
 *   complete_delay
 *            microseconds (0..5000, RXB_COMPLETE_DELAY_MAX) the queue's
 *            poll busy-waits after completing NAPI, before it unmasks the
 *            vector and rechecks the rings: makes a stop that overlaps a
 *            poll's tail likely (busypoll_switch.sh).  Costs every ring
 *            model the same.
 *
 *            Both run in the poll, bottom halves off: the bounds keep one
 *            poll (64 packets, NAPI's budget) far below the soft-lockup
 *            watchdog's 20 s even on a slow emulated guest (see
 *            RXB_WORK_MAX).
 *   irq_cpu  CPU the queue's interrupt vector targets; -1: the default
 *            spread (queue i -> i-th online CPU).
 *   restart  write-only: writing 1 restarts the receive queue alone with a
 *            new page_pool through the queue management API, as
 *            netdevsim's queue_reset file does in later kernels (rx.c:
 *            rxb_rx_queue_restart()); the other queues keep receiving.
 *            EOPNOTSUPP for ring models whose queues share rings or lend
 *            buffers (all but privRing), ENETDOWN for a port that is down.
 *
 * and per port, under /sys/kernel/debug/rxbisect/<ifname>/:
 *
 *   inject              write-only: each write() is one frame arriving at
 *                       the port's NIC from the wire, 0..16384 bytes, as
 *                       is (runts and zero-length frames included).
 *   fault/alloc_fail    per mille of the driver's buffer allocations that
 *                       fail (0..1000), as page_pool's would under memory
 *                       pressure: counted in rxN_alloc_fails.
 *   fault/dma_fail      per mille of the NIC's DMA writes that fail
 *                       (0..1000): the completion carries the DMA error
 *                       bit, the driver drops the packet and recycles the
 *                       buffer: rx_dma_faults (NIC), rx_dma_errors (driver).
 *   fault/engine_stall  1: the NIC's receive engine freezes; arriving
 *                       frames wait in its ingress FIFO (rx_stall_frames),
 *                       up to 4096, then are dropped (rx_fifo_drops).  0: it
 *                       resumes with the frames held, in order.
 *   nic/max_bh_batch    most frames the NIC's engine (or the end of an
 *                       engine stall) processed in one section with
 *                       bottom halves disabled; at most 64.  Write 0 to
 *                       reset it.
 *   fault/reconfig_fail every reconfiguration of the port (ethtool -L/-G,
 *                       devlink and module parameters) fails at this step
 *                       until reset to 0: 1 the new rings as a whole, 2 the
 *                       page_pool of the last new queue, 3 the ring model's
 *                       create, 4 growing the stack's queue count, 5 the
 *                       engine thread, 6 the XDP memory model of a queue's
 *                       buffers (every new queue's; a restart's, before
 *                       the queue stops) (enum rxb_reconfig_step).
 *
 * /sys/kernel/debug/rxbisect/models lists the ring models, one a line.
 *
 * The directory is named after the port and follows its renames; when the
 * name is taken (ports of the same name in two namespaces) it is
 * <ifname>-<ifindex>.
 */
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/rtnetlink.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include "rxbisect.h"

static struct dentry *rxb_dbg_root;

/* The most cache-line touches the work knob adds to a packet.  A poll
 * handles at most NAPI's budget of 64 packets with bottom halves off, so
 * at most 64 * 2^18 = 2^24 touches: one such poll took 0.12 s on 6.1
 * under QEMU/TCG on a loaded host (7 ns a touch), which leaves a factor
 * over 150 to the soft-lockup watchdog (2 * watchdog_thresh = 20 s) for a
 * slower guest or a KASAN kernel.  The largest value the benchmarks use
 * (demo.sh, bench_all.sh's sweeps).  A busy poller that raises its budget
 * above 64 (SO_BUSY_POLL_BUDGET, CAP_NET_ADMIN) scales a poll's work.
 */
#define RXB_WORK_MAX		BIT(18)
/* The longest busy-wait of complete_delay, once per poll, microseconds:
 * MAX_UDELAY_MS, the longest one step of the kernel's own mdelay().
 */
#define RXB_COMPLETE_DELAY_MAX	(MAX_UDELAY_MS * USEC_PER_MSEC)

/* The u32 knobs: each file's data is the knob itself. */
static int rxb_knob_get(void *data, u64 *val)
{
	*val = READ_ONCE(*(u32 *)data);
	return 0;
}

static int rxb_stall_set(void *data, u64 val)
{
	struct rxb_qknobs *k = container_of(data, struct rxb_qknobs, stall);

	if (val > 1)
		return -EINVAL;
	WRITE_ONCE(k->stall, val);
	if (!val)
		rxb_queue_kick(k->port, k->q);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(rxb_stall_fops, rxb_knob_get, rxb_stall_set,
			 "%llu\n");

static int rxb_work_set(void *data, u64 val)
{
	struct rxb_qknobs *k = container_of(data, struct rxb_qknobs, work);
	struct rxb_port *port = k->port;

	if (val > RXB_WORK_MAX)
		return -EINVAL;
	if (val && !READ_ONCE(port->work_buf)) {
		u8 *buf = vzalloc(RXB_WORK_BUF_SIZE);

		if (!buf)
			return -ENOMEM;
		/* Release: the zeroed buffer before its pointer. */
		if (cmpxchg_release(&port->work_buf, NULL, buf))
			vfree(buf);
	}
	WRITE_ONCE(k->work, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(rxb_work_fops, rxb_knob_get, rxb_work_set, "%llu\n");

static int rxb_complete_delay_set(void *data, u64 val)
{
	if (val > RXB_COMPLETE_DELAY_MAX)
		return -EINVAL;
	WRITE_ONCE(*(u32 *)data, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(rxb_complete_delay_fops, rxb_knob_get,
			 rxb_complete_delay_set, "%llu\n");

static int rxb_irq_cpu_get(void *data, u64 *val)
{
	struct rxb_qknobs *k = data;

	*val = (u64)(s64)rxb_queue_cpu(k->port, k->q);
	return 0;
}

static int rxb_irq_cpu_set(void *data, u64 val)
{
	struct rxb_qknobs *k = data;
	s64 cpu = (s64)val;

	if (cpu != -1 && (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu)))
		return -EINVAL;
	WRITE_ONCE(k->irq_cpu, (int)cpu);
	rxb_queue_kick(k->port, k->q);
	return 0;
}

static int rxb_restart_set(void *data, u64 val)
{
	struct rxb_qknobs *k = data;
	int err;

	if (val != 1)
		return -EINVAL;
	/* Not rtnl_lock(): RTNL holders remove these files and wait for
	 * their writers (a reconfiguration that drops the queue).
	 */
	if (!rtnl_trylock())
		return restart_syscall();
	err = rxb_rx_queue_restart(k->port->dev, k->q);
	rtnl_unlock();
	return err;
}
DEFINE_DEBUGFS_ATTRIBUTE(rxb_restart_fops, NULL, rxb_restart_set, "%llu\n");

/* Signed: -1 restores the default spread. */
DEFINE_DEBUGFS_ATTRIBUTE_SIGNED(rxb_irq_cpu_fops, rxb_irq_cpu_get,
				rxb_irq_cpu_set, "%lld\n");

static int rxb_alloc_fail_set(void *data, u64 val)
{
	struct rxb_port *port = container_of(data, struct rxb_port,
					     fault.alloc_fail);
	unsigned int q;

	if (val > RXB_FAULT_SCALE)
		return -EINVAL;
	WRITE_ONCE(port->fault.alloc_fail, val);
	/* NAPI retries short rings by itself; a kick makes sure. */
	if (!val)
		for (q = 0; q < RXB_MAX_QUEUES; q++)
			rxb_queue_kick(port, q);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(rxb_alloc_fail_fops, rxb_knob_get,
			 rxb_alloc_fail_set, "%llu\n");

/* The NIC's knobs, through its registers (data: the port). */
static int rxb_dma_fail_get(void *data, u64 *val)
{
	*val = rxb_nic_get_dma_fail(((struct rxb_port *)data)->nic);
	return 0;
}

static int rxb_dma_fail_set(void *data, u64 val)
{
	if (val > RXB_FAULT_SCALE)
		return -EINVAL;
	return rxb_nic_set_dma_fail(((struct rxb_port *)data)->nic, val);
}
DEFINE_DEBUGFS_ATTRIBUTE(rxb_dma_fail_fops, rxb_dma_fail_get,
			 rxb_dma_fail_set, "%llu\n");

static int rxb_engine_stall_get(void *data, u64 *val)
{
	*val = rxb_nic_stalled(((struct rxb_port *)data)->nic);
	return 0;
}

static int rxb_engine_stall_set(void *data, u64 val)
{
	if (val > 1)
		return -EINVAL;
	rxb_nic_stall(((struct rxb_port *)data)->nic, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(rxb_engine_stall_fops, rxb_engine_stall_get,
			 rxb_engine_stall_set, "%llu\n");

/* nic/max_bh_batch: reads the NIC's statistic; writing 0 resets it. */
static int rxb_max_bh_batch_get(void *data, u64 *val)
{
	struct rxb_nic_counters nc;

	rxb_nic_read_counters(((struct rxb_port *)data)->nic, &nc);
	*val = nc.max_bh_batch;
	return 0;
}

static int rxb_max_bh_batch_set(void *data, u64 val)
{
	if (val)
		return -EINVAL;
	rxb_nic_reset_max_bh_batch(((struct rxb_port *)data)->nic);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(rxb_max_bh_batch_fops, rxb_max_bh_batch_get,
			 rxb_max_bh_batch_set, "%llu\n");

/* Largest frame the inject file takes: jumbo, past any MTU of ours. */
#define RXB_INJECT_MAX	16384

static ssize_t rxb_inject_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	struct rxb_port *port = file->private_data;
	struct sk_buff *skb;

	if (len > RXB_INJECT_MAX)
		return -EINVAL;
	skb = alloc_skb(len, GFP_KERNEL);
	if (!skb)
		return -ENOMEM;
	if (copy_from_user(skb_put(skb, len), ubuf, len)) {
		kfree_skb(skb);
		return -EFAULT;
	}
	/* As from the transmit path of the peer. */
	local_bh_disable();
	rcu_read_lock();
	rxb_nic_ingress(port->nic, skb);
	rcu_read_unlock();
	local_bh_enable();
	return len;
}

static const struct file_operations rxb_inject_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= rxb_inject_write,
};

static int rxb_models_show(struct seq_file *s, void *unused)
{
	const struct rxb_model_ops *ops;
	unsigned int i;

	for (i = 0; (ops = rxb_model_get(i)); i++)
		seq_printf(s, "%s\n", ops->name);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rxb_models);

/**
 * rxb_debugfs_queues_update() - one q<N> directory per queue in use.
 * @port: the port; RTNL held.
 */
void rxb_debugfs_queues_update(struct rxb_port *port)
{
	unsigned int q;
	char name[16];

	if (IS_ERR_OR_NULL(port->dbg_dir))
		return;
	for (q = 0; q < RXB_MAX_QUEUES; q++) {
		struct rxb_qknobs *k = &port->knobs[q];

		if (q >= port->cfg.nqueues) {
			/* A removed queue's faults go with it: a queue added
			 * again starts without them, as its directory does.
			 */
			debugfs_remove_recursive(k->dir);
			k->dir = NULL;
			WRITE_ONCE(k->stall, 0);
			WRITE_ONCE(k->work, 0);
			WRITE_ONCE(k->complete_delay, 0);
			continue;
		}
		if (k->dir)
			continue;
		snprintf(name, sizeof(name), "q%u", q);
		k->dir = debugfs_create_dir(name, port->dbg_dir);
		debugfs_create_file_unsafe("stall", 0600, k->dir, &k->stall,
					   &rxb_stall_fops);
		debugfs_create_file_unsafe("work", 0600, k->dir, &k->work,
					   &rxb_work_fops);
		debugfs_create_file_unsafe("complete_delay", 0600, k->dir,
					   &k->complete_delay,
					   &rxb_complete_delay_fops);
		debugfs_create_file_unsafe("irq_cpu", 0600, k->dir, k,
					   &rxb_irq_cpu_fops);
		debugfs_create_file_unsafe("restart", 0200, k->dir, k,
					   &rxb_restart_fops);
		debugfs_create_u64("xsk_held", 0400, k->dir, &k->xsk_held);
	}
}

/* The directory name for @port: its name, or <name>-<ifindex> if taken. */
static void rxb_debugfs_name(struct rxb_port *port, char *buf, size_t len)
{
	struct dentry *d;

	strscpy(buf, netdev_name(port->dev), len);
	d = debugfs_lookup(buf, rxb_dbg_root);
	if (d) {
		if (d != port->dbg_dir)
			snprintf(buf, len, "%s-%d", netdev_name(port->dev),
				 port->dev->ifindex);
		dput(d);
	}
}

/**
 * rxb_debugfs_port_add() - create rxbisect/<ifname>/ for a new port.
 * @port: the port, registered.
 */
void rxb_debugfs_port_add(struct rxb_port *port)
{
	char name[IFNAMSIZ + 12];
	struct dentry *fault, *nic;

	rxb_debugfs_name(port, name, sizeof(name));
	port->dbg_dir = debugfs_create_dir(name, rxb_dbg_root);
	debugfs_create_file("inject", 0200, port->dbg_dir, port,
			    &rxb_inject_fops);
	fault = debugfs_create_dir("fault", port->dbg_dir);
	debugfs_create_file_unsafe("alloc_fail", 0600, fault,
				   &port->fault.alloc_fail,
				   &rxb_alloc_fail_fops);
	debugfs_create_file_unsafe("dma_fail", 0600, fault, port,
				   &rxb_dma_fail_fops);
	debugfs_create_file_unsafe("engine_stall", 0600, fault, port,
				   &rxb_engine_stall_fops);
	nic = debugfs_create_dir("nic", port->dbg_dir);
	debugfs_create_file_unsafe("max_bh_batch", 0600, nic, port,
				   &rxb_max_bh_batch_fops);
	debugfs_create_u32("reconfig_fail", 0600, fault, &port->fault.reconfig_fail);
	rxb_debugfs_queues_update(port);
}

/**
 * rxb_debugfs_port_rename() - follow a port's new name.
 * @port: the port; RTNL held.
 */
void rxb_debugfs_port_rename(struct rxb_port *port)
{
	char name[IFNAMSIZ + 12];

	if (IS_ERR_OR_NULL(port->dbg_dir))
		return;
	rxb_debugfs_name(port, name, sizeof(name));
	rxb_debugfs_rename(port->dbg_dir, name);
}

/**
 * rxb_debugfs_port_del() - remove a port's directory.
 * @port: the port.
 */
void rxb_debugfs_port_del(struct rxb_port *port)
{
	unsigned int q;

	debugfs_remove_recursive(port->dbg_dir);
	port->dbg_dir = NULL;
	for (q = 0; q < RXB_MAX_QUEUES; q++)
		port->knobs[q].dir = NULL;
}

void rxb_debugfs_init(void)
{
	rxb_dbg_root = debugfs_create_dir(RXB_DRV_NAME, NULL);
	debugfs_create_file("models", 0444, rxb_dbg_root, NULL,
			    &rxb_models_fops);
}

void rxb_debugfs_exit(void)
{
	debugfs_remove_recursive(rxb_dbg_root);
}
