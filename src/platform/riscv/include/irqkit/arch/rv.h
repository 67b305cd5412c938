/* SPDX-License-Identifier: MIT */
/* What the RISC-V bare-metal port offers a program beyond the generic API. */
#ifndef IRQKIT_ARCH_RV_H
#define IRQKIT_ARCH_RV_H

#include <stddef.h>

/*
 * irqkit_rv_stack_left - bytes of the calling thread's stack below its stack
 * pointer, above the guard (Linux's stack_not_used() seen from the other
 * side).  A thread that goes past them writes over the guard, and the next
 * switch away from it reports the overflow and ends the image.  Any context
 * of a thread (a trap runs on the interrupted thread's stack).
 */
size_t irqkit_rv_stack_left(void);

/*
 * irqkit_rv_ipi_irq, irqkit_rv_timer_irq - this run's per-CPU lines of the
 * hart's software and timer interrupts (the "RISC-V INTC" lines of
 * /proc/interrupts, per-CPU dev_id lines the port requests and each CPU
 * enables as it comes up), 0 when the runtime is stopped.
 * irqkit_rv_ext_irq - this run's per-CPU line of the hart's external
 * interrupt, requested by nobody: the parent a PLIC chains under
 * (irqkit_plic_config.parent_irq), 0 when the runtime is stopped.
 */
unsigned int irqkit_rv_ipi_irq(void);
unsigned int irqkit_rv_timer_irq(void);
unsigned int irqkit_rv_ext_irq(void);

#endif /* IRQKIT_ARCH_RV_H */
