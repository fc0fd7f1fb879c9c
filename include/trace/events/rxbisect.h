/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rxbisect trace events: what the emulated NIC delivered or dropped, and
 * what each queue's consumer polled.  Examples (bpftrace):
 *
 *   # drops by cause and queue
 *   bpftrace -e 'tracepoint:rxbisect:rxb_drop { @[str(args->dev), args->queue, args->cause] = count(); }'
 *   # packets per poll, by queue
 *   bpftrace -e 'tracepoint:rxbisect:rxb_poll { @[args->queue] = hist(args->packets); }'
 *   # deliver-to-poll latency per queue (ns)
 *   bpftrace -e 'tracepoint:rxbisect:rxb_deliver { @t[args->dev_ifindex, args->queue] = nsecs; }
 *                tracepoint:rxbisect:rxb_poll /@t[args->dev_ifindex, args->queue]/ {
 *                  @lat[args->queue] = hist(nsecs - @t[args->dev_ifindex, args->queue]);
 *                  delete(@t[args->dev_ifindex, args->queue]); }'
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rxbisect

#if !defined(_TRACE_RXBISECT_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_RXBISECT_H

#include <linux/netdevice.h>
#include <linux/tracepoint.h>
#include "compat.h"

TRACE_EVENT(rxb_deliver,
	TP_PROTO(const struct net_device *dev, const char *model,
		 unsigned int queue, unsigned int len, u32 hash),
	TP_ARGS(dev, model, queue, len, hash),
	TP_STRUCT__entry(
		__string(dev, netdev_name(dev))
		__string(model, model)
		__field(int, dev_ifindex)
		__field(unsigned int, queue)
		__field(unsigned int, len)
		__field(u32, hash)
	),
	TP_fast_assign(
		rxb_assign_str(dev, netdev_name(dev));
		rxb_assign_str(model, model);
		__entry->dev_ifindex = dev->ifindex;
		__entry->queue = queue;
		__entry->len = len;
		__entry->hash = hash;
	),
	TP_printk("dev=%s model=%s queue=%u len=%u hash=0x%08x",
		  __get_str(dev), __get_str(model), __entry->queue,
		  __entry->len, __entry->hash)
);

TRACE_EVENT(rxb_drop,
	TP_PROTO(const struct net_device *dev, const char *model,
		 unsigned int queue, const char *cause),
	TP_ARGS(dev, model, queue, cause),
	TP_STRUCT__entry(
		__string(dev, netdev_name(dev))
		__string(model, model)
		__string(cause, cause)
		__field(unsigned int, queue)
	),
	TP_fast_assign(
		rxb_assign_str(dev, netdev_name(dev));
		rxb_assign_str(model, model);
		rxb_assign_str(cause, cause);
		__entry->queue = queue;
	),
	TP_printk("dev=%s model=%s queue=%u cause=%s", __get_str(dev),
		  __get_str(model), __entry->queue, __get_str(cause))
);

TRACE_EVENT(rxb_poll,
	TP_PROTO(const struct net_device *dev, const char *model,
		 unsigned int queue, int packets, int budget, bool refilled),
	TP_ARGS(dev, model, queue, packets, budget, refilled),
	TP_STRUCT__entry(
		__string(dev, netdev_name(dev))
		__string(model, model)
		__field(int, dev_ifindex)
		__field(unsigned int, queue)
		__field(int, packets)
		__field(int, budget)
		__field(bool, refilled)
	),
	TP_fast_assign(
		rxb_assign_str(dev, netdev_name(dev));
		rxb_assign_str(model, model);
		__entry->dev_ifindex = dev->ifindex;
		__entry->queue = queue;
		__entry->packets = packets;
		__entry->budget = budget;
		__entry->refilled = refilled;
	),
	TP_printk("dev=%s model=%s queue=%u packets=%d budget=%d refilled=%d",
		  __get_str(dev), __get_str(model), __entry->queue,
		  __entry->packets, __entry->budget, __entry->refilled)
);

#endif /* _TRACE_RXBISECT_H */

/* Found as <trace/events/rxbisect.h> through the module's -I include. */
#include <trace/define_trace.h>
