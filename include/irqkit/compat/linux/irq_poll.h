/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/irq_poll.h> over irqkit (<irqkit/irq_poll.h>): the block
 * layer's interrupt-to-poll switch, from 4.5 (blk-iopoll before it).
 */
#ifndef IRQKIT_COMPAT_LINUX_IRQ_POLL_H
#define IRQKIT_COMPAT_LINUX_IRQ_POLL_H

#include <irqkit/irq_poll.h>
#include <linux/interrupt.h>

#define irq_poll			irqkit_irq_poll
#define irq_poll_fn			irqkit_irq_poll_fn
#define IRQ_POLL_F_SCHED		IRQKIT_IRQ_POLL_F_SCHED
#define IRQ_POLL_F_DISABLE		IRQKIT_IRQ_POLL_F_DISABLE

#define irq_poll_init(iop, weight, poll)	irqkit_irq_poll_init((iop), (weight), (poll))
#define irq_poll_sched(iop)			irqkit_irq_poll_sched(iop)
#define irq_poll_complete(iop)			irqkit_irq_poll_complete(iop)
#define irq_poll_disable(iop)			irqkit_irq_poll_disable(iop)
#define irq_poll_enable(iop)			irqkit_irq_poll_enable(iop)

#endif
