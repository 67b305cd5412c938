/* SPDX-License-Identifier: MIT */
/* Linux's <linux/hardirq.h> over irqkit: the context tests and synchronize_irq. */
#ifndef IRQKIT_COMPAT_LINUX_HARDIRQ_H
#define IRQKIT_COMPAT_LINUX_HARDIRQ_H

#include <linux/preempt.h>
#include <irqkit/irq.h>

#define synchronize_irq(irq)		irqkit_synchronize_irq(irq)
#define synchronize_hardirq(irq)	irqkit_synchronize_hardirq(irq)

#endif
