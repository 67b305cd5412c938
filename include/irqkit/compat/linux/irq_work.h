/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/irq_work.h> over irqkit (<irqkit/irq_work.h>): a callback
 * queued from any context that runs soon in hardirq context on the queueing
 * CPU (irq_work_queue) or a named one (irq_work_queue_on).  irq_work is
 * Linux 2.6.37 and later; IRQ_WORK_INIT*() and DEFINE_IRQ_WORK() 5.8 and
 * later (before, init_irq_work()); a name of another version stops the
 * build and names the version that has it.
 */
#ifndef IRQKIT_COMPAT_LINUX_IRQ_WORK_H
#define IRQKIT_COMPAT_LINUX_IRQ_WORK_H

#include <irqkit/irq_work.h>
#include <linux/version.h>

#if !IRQKIT_LINUX_AT_LEAST(2, 6, 37)
#error "<linux/irq_work.h>: irq_work is Linux 2.6.37 and later: build with IRQKIT_LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,37)"
#endif

#define irq_work		irqkit_irq_work

#define IRQ_WORK_PENDING	IRQKIT_IRQ_WORK_PENDING
#define IRQ_WORK_BUSY		IRQKIT_IRQ_WORK_BUSY
#define IRQ_WORK_CLAIMED	IRQKIT_IRQ_WORK_CLAIMED
#define IRQ_WORK_LAZY		IRQKIT_IRQ_WORK_LAZY
#define IRQ_WORK_HARD_IRQ	IRQKIT_IRQ_WORK_HARD_IRQ

#if IRQKIT_LINUX_AT_LEAST(5, 8, 0)
#define IRQ_WORK_INIT(fn)		IRQKIT_IRQ_WORK_INIT(fn)
#define IRQ_WORK_INIT_LAZY(fn)		IRQKIT_IRQ_WORK_INIT_LAZY(fn)
#define IRQ_WORK_INIT_HARD(fn)		IRQKIT_IRQ_WORK_INIT_HARD(fn)
#define DEFINE_IRQ_WORK(name, fn)	struct irq_work name = IRQ_WORK_INIT(fn)
#else
#define IRQKIT__IRQ_WORK_5_8(name)							\
	name " is Linux 5.8 and later: build with IRQKIT_LINUX_VERSION_CODE >= "	\
	"KERNEL_VERSION(5,8,0), or use init_irq_work()"
#define DEFINE_IRQ_WORK(name, fn)	IRQKIT_ERA_ERROR_DECL(IRQKIT__IRQ_WORK_5_8("DEFINE_IRQ_WORK"))
#define IRQ_WORK_INIT(fn)		IRQKIT_ERA_ERROR(IRQKIT__IRQ_WORK_5_8("IRQ_WORK_INIT"))
#endif

#define init_irq_work(work, fn)		irqkit_init_irq_work((work), (fn))
#define irq_work_queue(work)		irqkit_irq_work_queue(work)
#define irq_work_queue_on(work, cpu)	irqkit_irq_work_queue_on((work), (unsigned int)(cpu))
#define irq_work_sync(work)		irqkit_irq_work_sync(work)
#define irq_work_is_pending(work)	irqkit_irq_work_is_pending(work)
#define irq_work_is_busy(work)		irqkit_irq_work_is_busy(work)
#define irq_work_is_hard(work)		(!!(__atomic_load_n(&(work)->flags, __ATOMIC_RELAXED) &	\
					    IRQKIT_IRQ_WORK_HARD_IRQ))

#endif
