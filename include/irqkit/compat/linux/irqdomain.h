/* SPDX-License-Identifier: MIT */
/* Linux's <linux/irqdomain.h> over irqkit: hwirq-to-line maps of controllers. */
#ifndef IRQKIT_COMPAT_LINUX_IRQDOMAIN_H
#define IRQKIT_COMPAT_LINUX_IRQDOMAIN_H

#include <irqkit/irqdomain.h>
#include <linux/irq.h>
#include <linux/nodemask.h>

typedef irqkit_hwirq_t irq_hw_number_t;

/* node: one memory node here */
#define irq_domain_alloc_descs(virq, cnt, hwirq, node, affinity) \
	((void)(node), irqkit_irq_domain_alloc_descs((virq), (cnt), (hwirq), (affinity)))

#endif
