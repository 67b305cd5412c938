/* SPDX-License-Identifier: MIT */
/* Linux's <linux/preempt.h> over irqkit: preempt_count and the context predicates. */
#ifndef IRQKIT_COMPAT_LINUX_PREEMPT_H
#define IRQKIT_COMPAT_LINUX_PREEMPT_H

#include <irqkit/task.h>

#define PREEMPT_MASK		IRQKIT_PREEMPT_MASK
#define SOFTIRQ_MASK		IRQKIT_SOFTIRQ_MASK
#define HARDIRQ_MASK		IRQKIT_HARDIRQ_MASK
#define NMI_MASK		IRQKIT_NMI_MASK
#define PREEMPT_OFFSET		IRQKIT_PREEMPT_OFFSET
#define SOFTIRQ_OFFSET		IRQKIT_SOFTIRQ_OFFSET
#define SOFTIRQ_DISABLE_OFFSET	IRQKIT_SOFTIRQ_DISABLE_OFFSET
#define HARDIRQ_OFFSET		IRQKIT_HARDIRQ_OFFSET
#define NMI_OFFSET		IRQKIT_NMI_OFFSET

#define preempt_count()		irqkit_preempt_count()
#define hardirq_count()		(preempt_count() & HARDIRQ_MASK)
#define softirq_count()		(preempt_count() & SOFTIRQ_MASK)
#define irq_count()		(preempt_count() & (HARDIRQ_MASK | SOFTIRQ_MASK | NMI_MASK))
#define preempt_disable()	irqkit_preempt_disable()
#define preempt_enable()	irqkit_preempt_enable()

#define in_nmi()		irqkit_in_nmi()
#define in_hardirq()		irqkit_in_hardirq()
#define in_irq()		irqkit_in_hardirq()
#define in_softirq()		irqkit_in_softirq()
#define in_serving_softirq()	irqkit_in_serving_softirq()
#define in_interrupt()		irqkit_in_interrupt()
#define in_task()		irqkit_in_task()
#define in_atomic()		irqkit_in_atomic()

#define smp_processor_id()	irqkit_smp_processor_id()
#define raw_smp_processor_id()	irqkit_smp_processor_id()

#endif
