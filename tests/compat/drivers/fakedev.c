// SPDX-License-Identifier: MIT
#include "fakedev.h"

#include <stdatomic.h>
#include <irqkit/irqkit.h>

static unsigned int wire;
static atomic_uint status;

void fakedev_wire(unsigned int irq)
{
	wire = irq;
}

unsigned int fakedev_status(void)
{
	return atomic_load(&status);
}

void fakedev_ack(void)
{
	atomic_store(&status, 0);
}

void fakedev_trigger(void)
{
	atomic_store(&status, 1);
	irqkit_sw_raise(wire);
}
