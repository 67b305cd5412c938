/* SPDX-License-Identifier: MIT */
/*
 * The timeline recorder's ring format (debug/observe.c), shared with a
 * platform's writer of the trace file (posix: tracefile.c).  Not part of the
 * port contract: a port without a trace file never includes it.
 */
#ifndef IRQKIT_CORE_TRACERING_H
#define IRQKIT_CORE_TRACERING_H

#include <stddef.h>
#include <stdint.h>

/*
 * The timeline recorder's rings (observe.c), for the platform's writer of
 * the trace file: irqkit__core_trace_for_each() calls @fn for each ring
 * (each CPU context's, each thread's) of the last recording, which must be
 * stopped, with the events to read, [from, to) modulo its size.  The core
 * frees them at irqkit__core_exit().
 */
/* A recorded event: a slice [ts, ts + dur] or, dur 0, an instant. */
enum {
	IRQKIT__TEV_HANDLER,	/* what: action name; arg: irq | ret << 24 */
	IRQKIT__TEV_THREAD_FN,	/* what: action name; arg: irq */
	IRQKIT__TEV_SOFTIRQ,	/* what: vector name; arg: vector */
	IRQKIT__TEV_TASKLET,	/* what: function; arg: vector */
	IRQKIT__TEV_TIMER,	/* what: function */
	IRQKIT__TEV_WORK,	/* what: function */
	IRQKIT__TEV_RAISE,	/* instant; arg: irq */
	IRQKIT__TEV_QUEUE,	/* instant; what: the item's function */
};

struct irqkit__tev {
	uint64_t		ts;
	uint64_t		dur;
	const void		*what;
	uint64_t		flow;		/* 0, or the link from a raise or queue_work */
	uint32_t		kind;
	uint32_t		arg;
	int32_t			track;		/* CPU n's hardirq 2n, softirq 2n + 1; -1: the thread */
};

/* A CPU context's ring (tid -1) or a thread's; written by one thread at a time. */
struct irqkit__tbuf {
	struct irqkit__tbuf	*next;
	unsigned int		gen;		/* the recording its events belong to */
	uint64_t		head;		/* events ever written in it; release */
	size_t			size;
	int			tid;		/* the thread's, or -1 */
	char			name[32];
	struct irqkit__tev	ev[];
};
#define IRQKIT__TBUF_SLACK	4
void irqkit__core_trace_for_each(void (*fn)(const struct irqkit__tbuf *b, uint64_t from,
					    uint64_t to, void *arg),
				 void *arg);

#endif /* IRQKIT_CORE_TRACERING_H */
