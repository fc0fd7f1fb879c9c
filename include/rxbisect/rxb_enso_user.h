/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Ensō user pipes: the character device's interface (drv/enso_user.c,
 * Documentation/rxbisect-enso.rst, "Pipes in userspace").
 *
 * A process opens RXB_ENSO_DEVICE, attaches the file to a port in ring
 * model enso (RXB_ENSO_IOC_ATTACH: one notification ring), maps the
 * ring's register page and entries, creates pipes (RXB_ENSO_IOC_PIPE),
 * maps each pipe's register page and its memory, twice in a row (one
 * mmap() of twice the pipe's size at RXB_ENSO_MMAP_PIPE(id)), and binds
 * a flow to each (RXB_ENSO_IOC_BIND).  Register layouts: struct
 * rxb_enso_unotif_regs and struct rxb_enso_upipe_regs; entries: struct
 * rxb_enso_notif; framing: struct rxb_enso_hdr (rxb_desc.h).
 *
 * Transmit (Ensō section 2.2): the context's TX notification ring
 * (RXB_ENSO_MMAP_TXNOTIF, as many entries as its notification ring, each
 * a struct rxb_enso_txnotif) and the TX registers of its register page
 * (struct rxb_enso_utx_regs at RXB_ENSO_UTX_REGS_OFF).  The process
 * writes a whole Ethernet frame into any pipe of its file (one it did not
 * bind, or bytes of a bound one it has received and not freed: pipes are
 * unified RX/TX), fills the next entry (pipe, offset, length), sets its
 * @signal to 1, and stores the count of entries posted into @tx_tail (a
 * plain store: a posted doorbell).  The NIC reads the entries in its own
 * context (its scan of the user registers), reads each frame (a DMA
 * read), puts it on the port's wire and overwrites the entry with its
 * completion: @status, then @signal 0.  Only then may the process reuse
 * the entry or the frame's bytes.
 */
#ifndef _RXB_ENSO_USER_H
#define _RXB_ENSO_USER_H

#include <linux/ioctl.h>
#include <linux/types.h>
#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/stddef.h>
#else
#include <stddef.h>
#ifndef static_assert	/* the tests' shims define the kernel's */
#include <assert.h>
#endif
#endif

#define RXB_ENSO_DEVICE		"/dev/rxbisect-enso"
#define RXB_ENSO_FD_PIPES	16	/* pipes per open file */

/* mmap() offsets, bytes (multiples of 4 KiB pages). */
#define RXB_ENSO_MMAP_NOTIF_REGS	0x0ULL
#define RXB_ENSO_MMAP_NOTIF		0x100000ULL
#define RXB_ENSO_MMAP_TXNOTIF		0x180000ULL
#define RXB_ENSO_MMAP_PIPE_REGS(id)	(0x200000ULL + (__u64)(id) * 0x1000)
#define RXB_ENSO_MMAP_PIPE_STRIDE	0x400000ULL	/* twice 2 MiB */
#define RXB_ENSO_MMAP_PIPE(id)		(0x100000000ULL + \
					 (__u64)(id) * RXB_ENSO_MMAP_PIPE_STRIDE)

/**
 * struct rxb_enso_attach - RXB_ENSO_IOC_ATTACH.
 * @ifindex: the port, in the caller's network namespace.
 * @queue: the queue (interrupt vector) the ring belongs to, below the
 *	port's queue count.
 * @entries: notification ring entries, a power of two in 64..8192.
 * @reserved: zero.
 */
struct rxb_enso_attach {
	__u32 ifindex;
	__u32 queue;
	__u32 entries;
	__u32 reserved;
};

/**
 * struct rxb_enso_pipe - RXB_ENSO_IOC_PIPE.
 * @size: in: bytes, a power of two in 4 KiB..2 MiB.
 * @id: out: the pipe's id in this file, below RXB_ENSO_FD_PIPES; the
 *	@pipe of its notifications.
 */
struct rxb_enso_pipe {
	__u32 size;
	__u32 id;
};

/**
 * struct rxb_enso_bind - RXB_ENSO_IOC_BIND: the flow a pipe takes.
 * @id: the pipe.
 * @family: 4 or 6.
 * @proto: IPPROTO_UDP or IPPROTO_TCP.
 * @sport: source port, network order; 0: any.
 * @dport: destination port, network order; nonzero.
 * @reserved: zero.
 * @src: source address, network order (IPv4: @src[0]); zero: any.
 * @dst: destination address; zero: any.
 */
struct rxb_enso_bind {
	__u32 id;
	__u8 family;
	__u8 proto;
	__u16 sport;
	__u16 dport;
	__u16 reserved;
	__u32 src[4];
	__u32 dst[4];
};

/* TX completion status (struct rxb_enso_txnotif.status). */
#define RXB_ENSO_TX_OK		0	/* on the wire */
#define RXB_ENSO_TX_EPIPE	1	/* no such pipe in the context */
#define RXB_ENSO_TX_ERANGE	2	/* offset not below the pipe's size */
#define RXB_ENSO_TX_ELEN	3	/* length: < 14, > the pipe or the port's frame */
#define RXB_ENSO_TX_EINVAL	4	/* a reserved field not zero */
#define RXB_ENSO_TX_ENOWIRE	5	/* the NIC could not send (no wire, memory) */

#define RXB_ENSO_TX_MIN		14	/* shortest frame: an Ethernet header */

/**
 * struct rxb_enso_txnotif - a TX notification and, once the NIC is done
 * with it, its completion (Ensō section 2.2: "overwrites the TX
 * notification with a completion"); one 64-byte line, as Ensō's.
 * @signal: the process: 1, last, when the entry is filled; the NIC: 0,
 *	last, when it completed the entry (release).
 * @status: the NIC: RXB_ENSO_TX_*; the process writes 0.
 * @pipe: the pipe, an id of RXB_ENSO_IOC_PIPE of this file.
 * @offset: the frame's first byte in the pipe, below its size.
 * @len: the frame's bytes, from its Ethernet header on; it may cross the
 *	pipe's end (the NIC continues at its start).
 * @reserved: zero.
 */
struct rxb_enso_txnotif {
	__u32 signal;
	__u32 status;
	__u32 pipe;
	__u32 offset;
	__u32 len;
	__u32 reserved[11];
};

/* Where the TX registers are, in the context's register page. */
#define RXB_ENSO_UTX_REGS_OFF	64

/**
 * struct rxb_enso_utx_regs - a context's TX registers (its register page,
 * at RXB_ENSO_UTX_REGS_OFF).
 * @tx_tail: the process: TX notifications posted, free-running
 *	(NotificationTail_SW; store with release after the entries).
 * @tx_head: the NIC: TX notifications completed, free-running (debug:
 *	the process reads the completions in the ring).
 * @frames: the NIC: frames put on the wire.
 * @bytes: the NIC: their bytes.
 * @bad_notifs: the NIC: TX notifications refused (status not OK);
 *	nothing was read for them beyond the entry.
 * @bad_writes: the NIC: @tx_tail values refused (more than the ring's
 *	entries ahead of @tx_head, or behind it).
 */
struct rxb_enso_utx_regs {
	__u32 tx_tail;
	__u32 tx_head;
	__u64 frames;
	__u64 bytes;
	__u64 bad_notifs;
	__u64 bad_writes;
};

/* Natural alignment, no padding: the layouts are the sizes below. */
static_assert(sizeof(struct rxb_enso_txnotif) == 64);
static_assert(offsetof(struct rxb_enso_txnotif, len) == 16);
static_assert(sizeof(struct rxb_enso_utx_regs) == 40);
static_assert(offsetof(struct rxb_enso_utx_regs, bad_writes) == 32);

#define RXB_ENSO_IOC_ATTACH	_IOW('x', 0x40, struct rxb_enso_attach)
#define RXB_ENSO_IOC_PIPE	_IOWR('x', 0x41, struct rxb_enso_pipe)
#define RXB_ENSO_IOC_BIND	_IOW('x', 0x42, struct rxb_enso_bind)
#define RXB_ENSO_IOC_FREE	_IOW('x', 0x43, __u32)

#endif /* _RXB_ENSO_USER_H */
