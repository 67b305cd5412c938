/* SPDX-License-Identifier: MIT */
/*
 * The interrupt descriptor (Linux's struct irq_desc, <linux/irqdesc.h>):
 * one per line, and the allocation of lines for chips that do not number
 * their own.
 */
#ifndef IRQKIT_IRQDESC_H
#define IRQKIT_IRQDESC_H

#include <irqkit/chip.h>
#include <irqkit/irq.h>
#include <irqkit/spinlock.h>

#ifdef __cplusplus
extern "C" {
#endif

struct irqkit_action;
struct irqkit__fault;

/*
 * struct irqkit_desc - one per line.  Public as Linux's is, for what code
 * of Linux's shape reads in it: @lock (the descriptor lock, Linux's raw
 * spinlock, taken with interrupts off), @irq_data, and @depth (the disable
 * nesting; stable under the lock).  Every other field is the core's: read
 * them through the functions of <irqkit/irq.h>, never write them.  The
 * fields touched by every interrupt come first and fit one cache line.
 */
struct irqkit_desc {
	struct irqkit_spinlock	lock;		/* the descriptor lock */
	unsigned int		istate;		/* IRQS_*, lock */
	union {				/* .state IRQD_*, lock */
		struct irqkit_irq_data	irq_data;
		/* the same, for Linux-name code, where irq_data is irqkit_irq_data */
		struct irqkit_irq_data	irqkit_irq_data;
	};
	irqkit_flow_fn		handle_irq;	/* lock to change */
	struct irqkit_action	*action;	/* lock to change, READ_ONCE to walk */
	unsigned int		depth;		/* disable nesting, lock */
	unsigned int		irq_count;	/* spurious window, handler CPU */
	unsigned int		irqs_unhandled;	/* spurious window, handler CPU */
	unsigned long		last_unhandled;	/* jiffies, handler CPU */
	/* cold */
	unsigned int		settings;	/* IRQKIT_IRQ_*, lock */
	unsigned int		request_mutex;	/* serialises request and free */
	const char		*name;		/* flow name for /proc, or NULL */
	struct irqkit_desc	*resend_next;	/* on the software resend list */
	bool			resend_queued;	/* resend lock */
	bool			allocated;	/* by irqkit_irq_alloc_descs(), lock */
	struct irqkit_action	*deferred_free;	/* freed by its own handler */
	void			*handler_data;	/* the flow's (a chained handler's), public */
	unsigned int		pending_merged;	/* arrivals folded into a PENDING one, lock */
	unsigned int		edge_turns;	/* the edge flow's later turns, lock */
	unsigned int		threads_handled;	/* thread_fn returned HANDLED */
	unsigned long		threads_oneshot;	/* ONESHOT threads still to run, atomic */
	unsigned int		threads_active;		/* woken threads not yet done, atomic */
	unsigned int		wait_for_threads;	/* synchronize_irq sleeps on it */
	unsigned int		threads_handled_last;	/* spurious deferral (3.3) */
	unsigned int		threads_handled_seen;	/* threads_handled as the hardirq woke them */
	struct irqkit__fault	*fault;		/* fault injection (fault.c), lock */
	uint64_t		raised_ns;	/* first raise not yet handled, histograms (observe.c) */
	uint64_t		flow;		/* that raise's link, recorder (observe.c) */
	unsigned int		wake_depth;	/* irq_set_irq_wake nesting, lock */
	const struct irqkit_cpus *affinity_hint; /* a driver's hint for user space, lock */
	irqkit_cpumask		percpu_enabled;	/* per-CPU devid line: where enabled, atomic */
	unsigned int		percpu_active;	/* its flows running now, atomic */
} __attribute__((aligned(64)));

/** irqkit_irq_to_desc - line @irq's descriptor, or NULL past the last line.  Context: any. */
IRQKIT_API struct irqkit_desc *irqkit_irq_to_desc(unsigned int irq);

/**
 * irqkit_irq_alloc_descs - reserve @cnt consecutive lines (Linux's
 * irq_alloc_descs): the lines a chip or an irq domain numbers for itself.
 * @irq: the first line wanted, or -1 for the first free range at or after @from
 * @affd: NULL, or one affinity descriptor per line (irqkit_irq_set_affinity_desc)
 *
 * A line is free when nothing reserved it and nobody gave it a chip by its
 * number (a software or fd line, irqkit_irq_set_chip_and_handler).  The
 * lines come out as the runtime starts them: no chip, the bad flow,
 * disabled with depth 1, requestable.
 * Return: the first line; -EINVAL (@cnt 0, @irq below @from or past the
 * lines); -EEXIST (@irq is taken); -ENOMEM (no free range that long).
 * Context: process context.
 */
IRQKIT_API int irqkit_irq_alloc_descs(int irq, unsigned int from, unsigned int cnt,
				      const struct irqkit_irq_affinity_desc *affd);

/**
 * irqkit_irq_free_descs - give back lines of irqkit_irq_alloc_descs()
 * (Linux's irq_free_descs): each goes back to the state it was
 * allocated in.  A line with a handler still requested is not freed
 * (logged); a line not allocated is left alone.
 * Context: process context.
 */
IRQKIT_API void irqkit_irq_free_descs(unsigned int irq, unsigned int cnt);

/**
 * irqkit_chained_irq_enter - what a chained handler does with its parent
 * line @desc, of chip @chip, before it runs its children's lines (Linux's
 * chained_irq_enter): nothing for a chip with an eoi, else mask and ack
 * (the chip's mask_ack where it has one).  Context: the parent's chained flow.
 */
static inline void irqkit_chained_irq_enter(struct irqkit_chip *chip, struct irqkit_desc *desc)
{
	struct irqkit_irq_data *d = &desc->irq_data;

	if (chip->irq_eoi)
		return;
	if (chip->irq_mask_ack) {
		chip->irq_mask_ack(d);
	} else {
		if (chip->irq_mask)
			chip->irq_mask(d);
		if (chip->irq_ack)
			chip->irq_ack(d);
	}
}

/**
 * irqkit_chained_irq_exit - what a chained handler does with its parent line
 * @desc, of chip @chip, after its children's lines (Linux's
 * chained_irq_exit): the eoi, or the unmask.  Context: the parent's chained flow.
 */
static inline void irqkit_chained_irq_exit(struct irqkit_chip *chip, struct irqkit_desc *desc)
{
	struct irqkit_irq_data *d = &desc->irq_data;

	if (chip->irq_eoi)
		chip->irq_eoi(d);
	else if (chip->irq_unmask)
		chip->irq_unmask(d);
}

/*
 * The steps of a line's life that Linux keeps in kernel/irq/internals.h,
 * for tests written against those (the Linux-name layer's "internals.h").
 * irqkit_irq_shutdown_and_deactivate() wants the descriptor lock held, as
 * Linux's; the other two take it when the caller does not hold it (the
 * kernel's own tests call them without), and may be called with it held.
 */
/** Shut the line down (depth + 1, masked, its resend dropped) and release its activation. */
IRQKIT_API void irqkit_irq_shutdown_and_deactivate(struct irqkit_desc *desc);
/** Activate the line (its chip resources set up).  Return: 0. */
IRQKIT_API int irqkit_irq_activate(struct irqkit_desc *desc);
/** A CPU of a managed line's mask is back: depth - 1, the line started at 0. */
IRQKIT_API void irqkit_irq_startup_managed(struct irqkit_desc *desc);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_IRQDESC_H */
