/* SPDX-License-Identifier: MIT */
/*
 * The current task and CPU of the RISC-V bare-metal port (Linux's
 * <asm/current.h>): the thread pointer register (tp) holds the running
 * task's struct irqkit_task; the context switch sets it.  Included by
 * <irqkit/task.h> after struct irqkit_task.
 */
#ifndef IRQKIT_ARCH_CURRENT_H
#define IRQKIT_ARCH_CURRENT_H

#ifndef IRQKIT_TASK_H
#error "include <irqkit/task.h>, not <irqkit/arch/current.h>"
#endif

/** irqkit_arch_current - the running task.  Context: any. */
static inline struct irqkit_task *irqkit_arch_current(void)
{
	struct irqkit_task *t;

	__asm__("mv %0, tp" : "=r"(t));
	return t;
}

/*
 * irqkit_arch_smp_processor_id - the CPU the task is bound to: every task
 * of the runtime is bound to the hart it runs on (a task moves when it is
 * bound elsewhere).  Context: any.
 */
static inline int irqkit_arch_smp_processor_id(void)
{
	return irqkit_arch_current()->cpu_id;
}

#endif /* IRQKIT_ARCH_CURRENT_H */
