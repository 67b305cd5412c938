// SPDX-License-Identifier: MIT
/* The chips that do nothing (Linux's kernel/irq/dummychip.c): no_irq_chip and dummy_irq_chip. */
#include "internals.h"

static unsigned int noop_ret(struct irqkit_irq_data *d)
{
	(void)d;
	return 0;
}

static void noop(struct irqkit_irq_data *d)
{
	(void)d;
}

/* Linux's no_irq_chip: lines start with it; requesting them gives -ENOSYS. */
struct irqkit_chip irqkit_no_irq_chip = {
	.name		= "none",
	.irq_startup	= noop_ret,
	.irq_shutdown	= noop,
	.irq_enable	= noop,
	.irq_disable	= noop,
	.flags		= IRQKIT_CHIP_SKIP_SET_WAKE,
};

/* Linux's dummy_irq_chip: every operation does nothing. */
struct irqkit_chip irqkit_dummy_irq_chip = {
	.name		= "dummy",
	.irq_startup	= noop_ret,
	.irq_shutdown	= noop,
	.irq_enable	= noop,
	.irq_disable	= noop,
	.irq_ack	= noop,
	.irq_mask	= noop,
	.irq_unmask	= noop,
	.flags		= IRQKIT_CHIP_SET_TYPE_MASKED | IRQKIT_CHIP_SKIP_SET_WAKE,
};
