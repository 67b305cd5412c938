// SPDX-License-Identifier: MIT
/*
 * Bad input: a handler that faults (a store to an address nothing answers).
 * The trap is reported with its cause, PC and context, and the image ends
 * with a verdict (status 99), not a hang.
 */
#include <irqkit/swchip.h>

#include "rvtest.h"

static enum irqkit_irqreturn faulting(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	*(volatile unsigned long *)0x90000 = 1;		/* nothing is mapped there on virt */
	return IRQKIT_HANDLED;
}

int irqkit_main(void)
{
	int dev;

	CHECK_EQ(irqkit_start(NULL), 0);
	CHECK_EQ(irqkit_swchip_add(40, 1, IRQKIT_TYPE_EDGE_RISING), 0);
	CHECK_EQ(irqkit_request_irq(40, faulting, 0, "faulting", &dev), 0);
	CHECK_EQ(irqkit_sw_raise(40), 0);
	irqkit_msleep(1000);
	rv_printf("still here: the fault was not taken\n");
	return 1;
}
