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
 */
#ifndef _RXB_ENSO_USER_H
#define _RXB_ENSO_USER_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define RXB_ENSO_DEVICE		"/dev/rxbisect-enso"
#define RXB_ENSO_FD_PIPES	16	/* pipes per open file */

/* mmap() offsets, bytes (multiples of 4 KiB pages). */
#define RXB_ENSO_MMAP_NOTIF_REGS	0x0ULL
#define RXB_ENSO_MMAP_NOTIF		0x100000ULL
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

#define RXB_ENSO_IOC_ATTACH	_IOW('x', 0x40, struct rxb_enso_attach)
#define RXB_ENSO_IOC_PIPE	_IOWR('x', 0x41, struct rxb_enso_pipe)
#define RXB_ENSO_IOC_BIND	_IOW('x', 0x42, struct rxb_enso_bind)
#define RXB_ENSO_IOC_FREE	_IOW('x', 0x43, __u32)

#endif /* _RXB_ENSO_USER_H */
