/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libenso: Ensō pipes of an rxbisect port in ring model enso, in
 * userspace (/dev/rxbisect-enso; Sadok et al., OSDI '23).  See enso.rst
 * in this folder for the operations.
 */
#ifndef _RXB_LIBENSO_H
#define _RXB_LIBENSO_H

#include <stdint.h>
#include <rxbisect/rxb_enso_user.h>	/* TX notifications, TX registers */

#define ENSO_FLIT		64	/* pipe unit: frames start on flits */
#define ENSO_HDR_LEN		16	/* the NIC's header before each frame */
#define ENSO_MAX_PIPES		16	/* pipes of one device handle */
#define ENSO_MAX_ENTRIES	8192	/* notification ring entries, most */

/* The register pages and entries, as rxb_desc.h lays them out (the unit
 * test checks that they match).
 */
struct enso_notif_regs {
	uint32_t head;		/* NotificationHead_SW, written here */
	uint32_t tail;		/* the NIC's, debug */
	uint64_t notifs;
	uint64_t drops;
	uint64_t bad_writes;
	uint64_t pad[4];
	struct rxb_enso_utx_regs tx;	/* at RXB_ENSO_UTX_REGS_OFF */
};

struct enso_pipe_regs {
	uint32_t rx_tail;	/* the NIC's, debug */
	uint32_t rx_head;	/* Head_SW, written here */
	uint32_t prefetch;	/* a new value: notify now */
	uint32_t reserved;
	uint64_t packets;
	uint64_t bytes;
	uint64_t drops;
	uint64_t bad_writes;
};

struct enso_notif {
	uint64_t signal;
	uint64_t pipe;		/* little-endian */
	uint64_t tail;		/* little-endian, flits */
	uint64_t pad[5];
};

struct enso_hdr {
	uint16_t len;		/* little-endian */
	uint8_t flags;
	uint8_t reserved0;
	uint32_t rss_hash;
	uint32_t csum;
	uint32_t reserved1;
};

/* The flow a pipe takes; ports and addresses in network order, a zero
 * address or source port matches any.
 */
struct enso_flow {
	uint8_t family;		/* 4 or 6 */
	uint8_t proto;		/* IPPROTO_UDP or IPPROTO_TCP */
	uint16_t sport;
	uint16_t dport;		/* nonzero */
	uint32_t src[4];
	uint32_t dst[4];
};

struct enso_dev;

struct enso_rx_pipe {
	struct enso_dev *dev;
	uint32_t id;
	uint8_t *va;		/* the pipe, mapped twice in a row */
	struct enso_pipe_regs *regs;	/* __atomic accesses */
	uint32_t size;		/* bytes */
	uint32_t mask;		/* flits - 1 */
	uint32_t head;		/* freed up to (Head_SW), flits */
	uint32_t read;		/* confirmed up to, flits */
	uint32_t tail;		/* notified Tail_NIC, flits */
	uint32_t pf;		/* prefetch counter */
	uint64_t bad_frames;	/* malformed headers: skipped to the tail */
	int bound;		/* takes a flow: RX (zero-copy TX only) */
	uint32_t tx_tail;	/* TX: flits written (Tail_SW), free-running */
	uint32_t tx_head;	/* TX: flits completed (Head_NIC) */
};

struct enso_dev {
	int fd;
	struct enso_notif_regs *regs;	/* __atomic accesses */
	struct enso_notif *notif;
	uint32_t entries;
	uint32_t nhead;		/* next entry to read */
	uint32_t next;		/* enso_next_rx_pipe()'s round robin */
	uint64_t bad_notifs;	/* unknown pipe or tail: ignored */
	struct enso_rx_pipe *pipes[ENSO_MAX_PIPES];
	struct rxb_enso_txnotif *txn;	/* the TX notification ring */
	uint32_t tx_post;	/* TX notifications posted, free-running */
	uint32_t tx_done;	/* completions read */
	uint64_t tx_sent;	/* completions: sent */
	uint64_t tx_errors;	/* completions: refused (status not OK) */
	uint32_t tx_last_status;	/* of the last refused one */
	uint16_t txflits[ENSO_MAX_ENTRIES];	/* pipe flits each entry holds */
};

/* Open an Ensō context on port @ifname, queue @queue, with a notification
 * ring of @entries (a power of two, 64..8192).  NULL and errno on error.
 */
struct enso_dev *enso_dev_open(const char *ifname, unsigned int queue,
			       unsigned int entries);
/* Close it: its pipes and ring are freed (the NIC stops first). */
void enso_dev_close(struct enso_dev *dev);

/* A new RX pipe of @size bytes (a power of two, 4 KiB..2 MiB). */
struct enso_rx_pipe *enso_rx_pipe_alloc(struct enso_dev *dev, uint32_t size);
/* Bind a flow to it; 0 or -errno. */
int enso_rx_pipe_bind(struct enso_rx_pipe *p, const struct enso_flow *f);
/* Free it; 0 or -errno. */
int enso_rx_pipe_free(struct enso_rx_pipe *p);

/* Notification polling: read the notifications written, advance the pipes'
 * tails and NotificationHead_SW.  Returns how many were read.
 */
unsigned int enso_poll_notifs(struct enso_dev *dev);
/* Poll, then the next pipe (round robin) with data, or NULL. */
struct enso_rx_pipe *enso_next_rx_pipe(struct enso_dev *dev);

/* Receive chunk: *@buf = the unread bytes, whole frames, at most @max
 * (0: all), contiguous across the pipe's end.  Returns their length.
 * enso_peek() leaves them unread, enso_recv() confirms them.
 */
uint32_t enso_peek(struct enso_rx_pipe *p, uint8_t **buf, uint32_t max);
uint32_t enso_recv(struct enso_rx_pipe *p, uint8_t **buf, uint32_t max);
/* Confirm @n bytes (a multiple of ENSO_FLIT) read. */
void enso_confirm_bytes(struct enso_rx_pipe *p, uint32_t n);
/* Free @n confirmed bytes: the NIC may write there again (Head_SW). */
void enso_free(struct enso_rx_pipe *p, uint32_t n);
/* Free every confirmed byte. */
void enso_clear(struct enso_rx_pipe *p);
/* Notification prefetch: ask the NIC to notify the pipe's tail now. */
void enso_prefetch(struct enso_rx_pipe *p);

/*
 * Transmit (Ensō section 2.2).  A TX pipe is a pipe not bound to a flow
 * (enso_tx_pipe_alloc()); enso_send() copies a whole Ethernet frame (the
 * application built it, from its destination MAC on, no FCS) into it and
 * posts a TX notification; the NIC sends it on the port's wire and writes
 * a completion, which enso_tx_poll() reads to free the pipe's space.
 * Pipes are unified: enso_send_zc() sends bytes of a bound pipe in
 * place (received, not yet freed: keep them until the completion).
 */
/* A TX pipe of @size bytes (a power of two, 4 KiB..2 MiB). */
struct enso_rx_pipe *enso_tx_pipe_alloc(struct enso_dev *dev, uint32_t size);
/* Send frame @frame of @len bytes (14..the port's MTU + 18) through TX
 * pipe @p: 0, -EAGAIN (no room in the pipe or the ring: poll and try
 * again), -EINVAL (@p is bound, @len not a frame or over the pipe).
 */
int enso_send(struct enso_rx_pipe *p, const void *frame, uint32_t len);
/* Send @len bytes at @frame, inside bound pipe @p's mapping, in place:
 * 0, -EAGAIN (ring full), -EINVAL.
 */
int enso_send_zc(struct enso_rx_pipe *p, const void *frame, uint32_t len);
/* Post a TX notification as given (no check; the NIC checks): 0 or
 * -EAGAIN.  For tools that test the NIC's checks.
 */
int enso_tx_post(struct enso_dev *dev, uint32_t pipe, uint32_t offset,
		 uint32_t len);
/* TX completion polling: read the completions written; free the TX
 * pipes' space.  Returns how many were read.
 */
unsigned int enso_tx_poll(struct enso_dev *dev);
/* TX notifications posted and not completed yet. */
uint32_t enso_tx_pending(const struct enso_dev *dev);

/* Frames in a chunk: the frame at *@off (its bytes, length in *@len), *@off
 * moved to the next; NULL at the end or on a malformed header.
 */
const uint8_t *enso_next_frame(const uint8_t *chunk, uint32_t chunk_len,
			       uint32_t *off, uint32_t *len);

/* Set up a handle on memory mapped elsewhere (enso_dev_open() and the
 * unit test): registers, ring entries, pipes.
 */
void enso_dev_init(struct enso_dev *dev, int fd, void *regs, void *notif,
		   void *txnotif, uint32_t entries);
void enso_rx_pipe_init(struct enso_rx_pipe *p, struct enso_dev *dev,
		       uint32_t id, void *va, void *regs, uint32_t size);

#endif /* _RXB_LIBENSO_H */
