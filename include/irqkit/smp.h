/* SPDX-License-Identifier: MIT */
/*
 * Cross-CPU function calls (Linux's kernel/smp.c): run a function on
 * another CPU, in its interrupt context with interrupts off, from its
 * function-call interrupt (a system vector, "CAL" in /proc/interrupts), or
 * on this CPU with interrupts off.  A caller that waits spins until the
 * function has returned there.  Every call but _async must be made from
 * task context with interrupts on (a warning otherwise, as Linux's: two
 * CPUs waiting for each other's calls with interrupts off deadlock).
 */
#ifndef IRQKIT_SMP_H
#define IRQKIT_SMP_H

#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*irqkit_smp_call_func_t)(void *info);
typedef bool (*irqkit_smp_cond_func_t)(int cpu, void *info);

#define IRQKIT_CSD_FLAG_LOCK	0x01u	/* queued or running: not to be reused */
#define IRQKIT_CSD_TYPE_SYNC	0x10u	/* a waiter's: unlocked after the function */

/* Linux's call_single_data_t: what a call carries to its CPU. */
struct irqkit_call_single_data {
	struct irqkit_call_single_data	*next;		/* on the target's list */
	irqkit_smp_call_func_t		func;
	void				*info;
	unsigned int			flags;		/* IRQKIT_CSD_*, atomic */
};

/**
 * irqkit_smp_call_function_single - run @func(@info) on CPU @cpu
 * @wait: wait until it has returned there
 *
 * On this CPU: at once, interrupts off.  Return: 0; -ENXIO for a CPU that
 * is not online.  Context: task context, interrupts on.
 */
IRQKIT_API int irqkit_smp_call_function_single(int cpu, irqkit_smp_call_func_t func, void *info,
					       int wait);
/**
 * irqkit_smp_call_function_single_async - queue @csd (its func and info
 * set) to CPU @cpu and return; its callback unlocks it before running, so
 * it may queue it again.  Any context, interrupts off too.
 * Return: 0; -EBUSY while @csd is still queued; -ENXIO, offline.
 */
IRQKIT_API int irqkit_smp_call_function_single_async(int cpu, struct irqkit_call_single_data *csd);
/**
 * irqkit_smp_call_function_any - @func on one CPU of @mask: this one if it
 * is in it, else the first online.  Return: 0, or -ENXIO with none online.
 */
IRQKIT_API int irqkit_smp_call_function_any(irqkit_cpumask mask, irqkit_smp_call_func_t func,
					    void *info, int wait);
/** irqkit_smp_call_function_many - @func on each online CPU of @mask but this one. */
IRQKIT_API void irqkit_smp_call_function_many(irqkit_cpumask mask, irqkit_smp_call_func_t func,
					      void *info, bool wait);
/** irqkit_smp_call_function - @func on every other online CPU. */
IRQKIT_API void irqkit_smp_call_function(irqkit_smp_call_func_t func, void *info, int wait);
/**
 * irqkit_on_each_cpu_cond_mask - @func on each online CPU of @mask for
 * which @cond(cpu, @info) is true (@cond NULL: all), this one included
 * (interrupts off there).
 */
IRQKIT_API void irqkit_on_each_cpu_cond_mask(irqkit_smp_cond_func_t cond,
					     irqkit_smp_call_func_t func, void *info, bool wait,
					     irqkit_cpumask mask);
/** irqkit_on_each_cpu_mask - the same with no condition. */
IRQKIT_API void irqkit_on_each_cpu_mask(irqkit_cpumask mask, irqkit_smp_call_func_t func,
					void *info, bool wait);
/** irqkit_on_each_cpu - @func on every online CPU, this one included. */
IRQKIT_API void irqkit_on_each_cpu(irqkit_smp_call_func_t func, void *info, int wait);
/**
 * irqkit_set_csd_lock_timeout - Linux's smp.csd_lock_timeout= (ms, 5000 by
 * default, 0 off): a caller waiting that long for another CPU to take its
 * call says "csd: Detected non-responsive CSD lock ... for CPU#NN", again
 * at each further timeout, and "got unstuck" when it ends.
 */
IRQKIT_API void irqkit_set_csd_lock_timeout(unsigned int ms);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_SMP_H */
