/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/hardirq.h> over irqkit: the context tests and
 * synchronize_irq.  What 2.6 drivers reached through it (and so through
 * <linux/interrupt.h>), the version chooses: <asm/system.h> (xchg,
 * cmpxchg, barriers) before 3.4, when Linux split that header up; and
 * <linux/slab.h> (kmalloc, GFP_*) before 2.6.34, when <linux/percpu.h>
 * (reached through <linux/smp_lock.h> and <linux/sched.h>) stopped
 * including it.
 */
#ifndef IRQKIT_COMPAT_LINUX_HARDIRQ_H
#define IRQKIT_COMPAT_LINUX_HARDIRQ_H

#include <linux/version.h>
#include <linux/preempt.h>
#include <irqkit/irq.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(3, 4, 0)
#include <asm/system.h>
#endif
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 34)
#include <linux/slab.h>
#endif

#define synchronize_irq(irq)		irqkit_synchronize_irq(irq)
#define synchronize_hardirq(irq)	irqkit_synchronize_hardirq(irq)

#endif
