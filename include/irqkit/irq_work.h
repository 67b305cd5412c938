/* SPDX-License-Identifier: MIT */
/*
 * irq_work (Linux's <linux/irq_work.h>): a callback queued from any context,
 * interrupts off or a hardirq handler included, that runs soon after in
 * hardirq context on the CPU it was queued on (or the one named), through
 * that CPU's "IRQ work interrupt" (the "IWI" row of /proc/interrupts).
 *
 * An item is pending from its queueing until its callback starts, and busy
 * until its callback returns: queueing a pending item does nothing (false),
 * queueing a busy one that is no longer pending runs it again (on another
 * CPU, maybe at the same time: only PENDING keeps a queueing out).  Items of
 * one CPU run newest first, as Linux's lock-free list gives them.  A thread
 * bound to no CPU queues on CPU 0.  IRQKIT_IRQ_WORK_LAZY items do not make
 * Linux raise the interrupt while the CPU's tick runs; irqkit's CPUs have
 * no tick of their own (the jiffies tick is no interrupt of a CPU), so they
 * are raised at once, as Linux does with the tick stopped.
 * Every item runs in hardirq context, but in PREEMPT_RT mode
 * (IRQKIT_CFG_PREEMPT_RT), where an item not marked IRQKIT_IRQ_WORK_HARD_IRQ
 * runs in task context in its CPU's irq_work/N thread, as on an RT kernel.
 */
#ifndef IRQKIT_IRQ_WORK_H
#define IRQKIT_IRQ_WORK_H

#include <irqkit/types.h>
#include <irqkit/config.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IRQKIT_IRQ_WORK_PENDING		0x01u
#define IRQKIT_IRQ_WORK_BUSY		0x02u
#define IRQKIT_IRQ_WORK_CLAIMED		(IRQKIT_IRQ_WORK_PENDING | IRQKIT_IRQ_WORK_BUSY)
#define IRQKIT_IRQ_WORK_LAZY		0x04u
#define IRQKIT_IRQ_WORK_HARD_IRQ	0x08u

struct irqkit_irq_work {
	unsigned int		flags;		/* IRQKIT_IRQ_WORK_*, atomic */
	void			(*func)(struct irqkit_irq_work *work);	/* public */
	struct irqkit_irq_work	*next;		/* private: in a CPU's list */
};

#define IRQKIT_IRQ_WORK_INIT(fn)	{ .flags = 0, .func = (fn) }
#define IRQKIT_IRQ_WORK_INIT_LAZY(fn)	{ .flags = IRQKIT_IRQ_WORK_LAZY, .func = (fn) }
#define IRQKIT_IRQ_WORK_INIT_HARD(fn)	{ .flags = IRQKIT_IRQ_WORK_HARD_IRQ, .func = (fn) }

/** irqkit_init_irq_work - set @work up to call @fn.  Context: any. */
IRQKIT_API void irqkit_init_irq_work(struct irqkit_irq_work *work,
				     void (*fn)(struct irqkit_irq_work *));

/**
 * irqkit_irq_work_queue - run @work soon in hardirq context on the caller's CPU.
 * Context: any.  Return: true if queued, false if it was pending already
 * (or has no function: a warning).
 */
IRQKIT_API bool irqkit_irq_work_queue(struct irqkit_irq_work *work);

/**
 * irqkit_irq_work_queue_on - the same on CPU @cpu.  A CPU that is offline
 * keeps it until it comes back (a warning, as Linux gave one); a CPU that
 * does not exist refuses it (a warning, false).  Context: any.
 */
IRQKIT_API bool irqkit_irq_work_queue_on(struct irqkit_irq_work *work, unsigned int cpu);

/**
 * irqkit_irq_work_sync - wait until @work's callback does not run.  From
 * the callback itself (where Linux waits for ever) irqkit reports it and
 * does not wait.  Context: process context.
 */
IRQKIT_API void irqkit_irq_work_sync(struct irqkit_irq_work *work);

/** irqkit_irq_work_is_pending - queued and not yet started?  Context: any. */
static inline bool irqkit_irq_work_is_pending(const struct irqkit_irq_work *work)
{
	return __atomic_load_n(&work->flags, __ATOMIC_ACQUIRE) & IRQKIT_IRQ_WORK_PENDING;
}
/** irqkit_irq_work_is_busy - queued, or its callback running?  Context: any. */
static inline bool irqkit_irq_work_is_busy(const struct irqkit_irq_work *work)
{
	return __atomic_load_n(&work->flags, __ATOMIC_ACQUIRE) & IRQKIT_IRQ_WORK_BUSY;
}

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_IRQ_WORK_H */
