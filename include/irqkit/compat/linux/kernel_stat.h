/* SPDX-License-Identifier: MIT */
/* Linux's <linux/kernel_stat.h>: a line's interrupt counts, per CPU and in all. */
#ifndef IRQKIT_COMPAT_LINUX_KERNEL_STAT_H
#define IRQKIT_COMPAT_LINUX_KERNEL_STAT_H

#include <irqkit/irq.h>
#include <irqkit/runtime.h>

#define kstat_irqs_cpu(irq, cpu)	irqkit_kstat_irqs_cpu((irq), (cpu))

static inline unsigned int kstat_irqs_usr(unsigned int irq)
{
	unsigned int sum = 0;

	for (unsigned int cpu = 0; cpu < irqkit_nr_cpus(); cpu++)
		sum += irqkit_kstat_irqs_cpu(irq, cpu);
	return sum;
}

#endif
