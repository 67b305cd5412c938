/* SPDX-License-Identifier: MIT */
/*
 * Interrupt-to-poll switching for a device with many completions (Linux's
 * lib/irq_poll.c, the block layer's NAPI): the interrupt handler masks its
 * device's interrupt and schedules an instance; the IRQ_POLL softirq then
 * calls its poll function with the instance's weight.  A poll that used
 * the whole weight is polled again (moved to the end of its CPU's list);
 * one that used less calls irqkit_irq_poll_complete() and unmasks the
 * device.  One run of the softirq stops at a budget of 256 completions, or
 * when a jiffy has passed, and raises itself again: the rest runs later,
 * in ksoftirqd if it keeps coming.  An offline CPU's instances move to a
 * live one.
 */
#ifndef IRQKIT_IRQ_POLL_H
#define IRQKIT_IRQ_POLL_H

#include <irqkit/wait.h>

#ifdef __cplusplus
extern "C" {
#endif

struct irqkit_irq_poll;
typedef int (irqkit_irq_poll_fn)(struct irqkit_irq_poll *iop, int budget);

/* Linux's struct irq_poll; @state's bits are IRQKIT_IRQ_POLL_F_*. */
struct irqkit_irq_poll {
	struct irqkit_list_head	list;
	unsigned long		state;
	int			weight;
	irqkit_irq_poll_fn	*poll;
};

#define IRQKIT_IRQ_POLL_F_SCHED		0	/* on a CPU's list (or held by a disable) */
#define IRQKIT_IRQ_POLL_F_DISABLE	1

/* The completions one run of the IRQ_POLL softirq takes at most (Linux's irq_poll_budget). */
#define IRQKIT_IRQ_POLL_BUDGET		256

/** irqkit_irq_poll_init - an instance, enabled, not scheduled, polled by @poll with @weight. */
IRQKIT_API void irqkit_irq_poll_init(struct irqkit_irq_poll *iop, int weight,
				     irqkit_irq_poll_fn *poll);
/**
 * irqkit_irq_poll_sched - poll @iop on this CPU: queued at the end of its
 * list and IRQ_POLL raised; nothing when it is scheduled already or
 * disabled.  Context: any (an interrupt handler, usually).
 */
IRQKIT_API void irqkit_irq_poll_sched(struct irqkit_irq_poll *iop);
/**
 * irqkit_irq_poll_complete - @iop leaves polled mode: off the list, not
 * scheduled; its poll function calls it when it used less than its weight.
 */
IRQKIT_API void irqkit_irq_poll_complete(struct irqkit_irq_poll *iop);
/**
 * irqkit_irq_poll_disable - no more polls of @iop: waits for a scheduled
 * or running one to finish, and leaves it held (scheduled, off every
 * list) until irqkit_irq_poll_enable().  Context: process context.
 */
IRQKIT_API void irqkit_irq_poll_disable(struct irqkit_irq_poll *iop);
/** irqkit_irq_poll_enable - after a disable: @iop can be scheduled again (not scheduled now). */
IRQKIT_API void irqkit_irq_poll_enable(struct irqkit_irq_poll *iop);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_IRQ_POLL_H */
