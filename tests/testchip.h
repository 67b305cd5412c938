/* SPDX-License-Identifier: MIT */
/* Interrupt chips for tests: each operation counted, some variants missing an operation. */
#ifndef IRQKIT_TESTS_TESTCHIP_H
#define IRQKIT_TESTS_TESTCHIP_H

#include <irqkit/irqkit.h>

struct tchip_counts {
	int	startup, shutdown, enable, disable, ack, mask, unmask, mask_ack, eoi;
	int	retrigger, set_type, last_type;
	bool	masked;		/* the line's mask at the chip */
	bool	request;	/* the line requests an interrupt (edge latch / level) */
	int	set_wake;	/* irq_set_wake calls that succeeded */
	unsigned int wake_on;	/* the last one's @on */
	int	wake_ret;	/* nonzero: irq_set_wake fails with it */
};

extern struct tchip_counts tchip;

/* mask, unmask, ack, eoi; set_type succeeds; retrigger re-signals */
extern struct irqkit_chip tchip_plain;
/* as plain, without irq_retrigger: replays go through the software resend */
extern struct irqkit_chip tchip_no_retrigger;
/* as plain, with IRQCHIP_ONESHOT_SAFE */
extern struct irqkit_chip tchip_oneshot_safe;
/* set_type fails */
extern struct irqkit_chip tchip_bad_type;
/* has irq_disable/irq_enable: disable masks at once (not lazy) */
extern struct irqkit_chip tchip_with_disable;
/* as plain, with irq_set_wake (counted in tchip.set_wake; fails with tchip.wake_ret) */
extern struct irqkit_chip tchip_wake;
/* no operations at all: the simple flow's chip */
extern struct irqkit_chip tchip_none;
/* eoi only, and EOI_IF_HANDLED */
extern struct irqkit_chip tchip_eoi_if_handled;
/* as plain, with IRQCHIP_EOI_THREADED: a ONESHOT line's EOI waits for its threads */
extern struct irqkit_chip tchip_eoi_threaded;

/* Put @irq on @chip with @flow; resets the counters. */
void testchip_attach(unsigned int irq, struct irqkit_chip *chip, irqkit_flow_fn flow);

/* The device behind a test-chip line requests an interrupt, delivered on CPU 0 now. */
void testchip_fire(unsigned int irq);

#endif
