/* SPDX-License-Identifier: MIT */
/*
 * The current task and CPU of the Linux user-space port (Linux's
 * <asm/current.h> and raw_smp_processor_id()): each thread's struct
 * irqkit_task is a thread-local object, reached at a fixed offset from the
 * thread pointer.  Included by <irqkit/task.h> after struct irqkit_task.
 */
#ifndef IRQKIT_ARCH_CURRENT_H
#define IRQKIT_ARCH_CURRENT_H

#ifndef IRQKIT_TASK_H
#error "include <irqkit/task.h>, not <irqkit/arch/current.h>"
#endif

#ifdef __cplusplus
#define IRQKIT_THREAD_LOCAL	thread_local
#else
#define IRQKIT_THREAD_LOCAL	_Thread_local
#endif
/* private: defined by the port (src/platform/posix/arch.c) */
IRQKIT_API extern IRQKIT_THREAD_LOCAL struct irqkit_task irqkit_task_self
	__attribute__((tls_model("initial-exec")));

/** irqkit_arch_current - the calling thread's task.  Context: any. */
static inline struct irqkit_task *irqkit_arch_current(void)
{
	return &irqkit_task_self;
}

/*
 * irqkit_arch_smp_processor_id - the CPU the calling thread is bound to or
 * acts for, 0 for an unbound thread.  Context: any.
 */
static inline int irqkit_arch_smp_processor_id(void)
{
	return irqkit_task_self.cpu_id;
}

#endif /* IRQKIT_ARCH_CURRENT_H */
