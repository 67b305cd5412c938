/* SPDX-License-Identifier: MIT */
/*
 * Between the fd chip (fdchip.c) and the routing of the host's signals
 * (fdsignal.c): a signal goes one way, to a line's signalfd or to the
 * tasks, never both.
 */
#ifndef IRQKIT_CHIPS_FDCHIP_H
#define IRQKIT_CHIPS_FDCHIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The signals routed to tasks now (bit n - 1 for signal n).  Any thread. */
uint64_t irqkit__fd_routed_signals(void);
/*
 * The line whose signalfd takes @sig, or -1.  Reads the lines under the
 * chip's bind lock, so a bind that raced a route either saw the route or
 * is seen here.  Process context.
 */
int irqkit__fd_signalfd_taker(int sig);

/*
 * Recording and replay (fdrecord.c), between it and the chip.  A line's
 * source as a recording describes it: the kind's name ("gpio", "uio", ...),
 * its flow, and what the chip knew of its sequence when recording began.
 */
struct irqkit__fd_source {
	const char	*kind;
	bool		edge;
	bool		seen;		/* last_seq is known */
	uint32_t	last_seq;	/* UIO count or GPIO seqno of the last read */
};
/*
 * Start (@on) or stop recording what bound line @irq reads, and describe its
 * source in @src (may be NULL).  Return: 0; -EINVAL (not bound);
 * -EOPNOTSUPP (its handler reads the descriptor).  Process context.
 */
int irqkit__fd_record(unsigned int irq, bool on, struct irqkit__fd_source *src);
/*
 * Bind line @irq to no descriptor: what it reads comes from
 * irqkit__replay_read().  Return: as the binds of <irqkit/fd.h>, and
 * -EINVAL for a kind that cannot be replayed.  Process context.
 */
int irqkit__fd_bind_replay(unsigned int irq, const struct irqkit__fd_source *src);
/* The replay made something readable on @irq: report it as epoll would.  Any thread. */
void irqkit__fd_replay_ready(unsigned int irq);

/* fdrecord.c: what line @irq read on @cpu, for the recording.  Any thread of the runtime. */
void irqkit__record_note(unsigned int irq, unsigned int cpu, const void *buf, size_t len);
/* fdrecord.c: read replayed line @irq as its descriptor would be read (-1 and errno EAGAIN: empty). */
ssize_t irqkit__replay_read(unsigned int irq, void *buf, size_t len);
/* fdrecord.c: something of @irq's is readable. */
bool irqkit__replay_unread(unsigned int irq);

#endif
