/* SPDX-License-Identifier: MIT */
/*
 * CPU hotplug (Linux's kernel/cpu.c as drivers see it): virtual CPUs go
 * offline and come back while the runtime runs.
 *
 * Offline means what it means on Linux.  Before a CPU goes, the teardown
 * callbacks of the hotplug states run on it (in the reverse order of
 * setup); its dispatcher stops once its handler, if any, returns; it
 * leaves the online mask, so nothing new is routed to it; each line whose
 * effective CPU it was moves to an online CPU of its affinity, or, when
 * none of its affinity is online, to the first online CPU (the affinity is
 * broken: "IRQ N: no longer affine to CPUk" at debug level, as Linux
 * prints it); an arrival still pending for it is signalled to the line's
 * new CPU; its tasklets and armed timers move to the first online CPU.
 * So no handler of the runtime's starts on a CPU that is offline.  Coming back, its dispatcher starts, it joins the online mask and
 * the startup callbacks run on it.  Lines do not move back by themselves.
 *
 * What stays the offline CPU's (irqkit differs from Linux here, each said
 * in docs/conformance.md): its kworkers and ksoftirqd keep running for it,
 * so work queued on it and softirqs raised by its kworkers still run; a
 * program thread bound to it stays bound.
 */
#ifndef IRQKIT_CPU_H
#define IRQKIT_CPU_H

#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * irqkit_remove_cpu - take CPU @cpu offline (Linux's remove_cpu)
 * Return: 0; 1 when it is offline already (as Linux's device_offline);
 * -EINVAL (no such CPU, runtime not started); -EBUSY (the last online CPU,
 * a CPU a program's loop plays, or the calling thread's own CPU);
 * -EOPNOTSUPP (a platform without hotplug); a teardown callback's error,
 * the CPU then left online with the callbacks run again.
 * Context: process context, not a thread of the runtime; may sleep.
 */
IRQKIT_API int irqkit_remove_cpu(unsigned int cpu);

/**
 * irqkit_add_cpu - bring CPU @cpu back online (Linux's add_cpu)
 * Return: 0; 1 when it is online already; -EINVAL; the platform's or a
 * startup callback's error, the CPU then left offline.
 * Context: process context, not a thread of the runtime; may sleep.
 */
IRQKIT_API int irqkit_add_cpu(unsigned int cpu);

/** irqkit_cpu_online - is @cpu online?  Context: any. */
IRQKIT_API bool irqkit_cpu_online(unsigned int cpu);
/** irqkit_cpu_online_mask - the online CPUs, a bit each.  Context: any. */
IRQKIT_API irqkit_cpumask irqkit_cpu_online_mask(void);
/**
 * irqkit_cpu_online_cpus - the online CPUs as Linux's cpu_online_mask: a
 * set that changes as CPUs go and come, read with relaxed loads.  Read it
 * while a run lasts.  Context: any.
 */
IRQKIT_API const struct irqkit_cpus *irqkit_cpu_online_cpus(void);
/** irqkit_cpu_possible_cpus - every CPU of the run, Linux's cpu_possible_mask. */
IRQKIT_API const struct irqkit_cpus *irqkit_cpu_possible_cpus(void);
/** irqkit_cpus_bit - CPU @n alone, at [@n]: Linux's cpumask_of(n). */
IRQKIT_API extern const struct irqkit_cpus irqkit_cpus_bit[IRQKIT_NR_CPUS_MAX];

/** irqkit_num_online_cpus - how many are online.  Context: any. */
IRQKIT_API unsigned int irqkit_num_online_cpus(void);

/* The dynamic state of the online section (Linux's CPUHP_AP_ONLINE_DYN). */
#define IRQKIT_CPUHP_AP_ONLINE_DYN	(-1)

/**
 * irqkit_cpuhp_setup_state - a hotplug state with @startup and @teardown
 * (either may be NULL), each called with the CPU's number, on that CPU, in
 * process context (a kworker of it), as Linux runs them on the CPU's
 * hotplug thread.  @startup runs now on every online CPU and later on each
 * CPU that comes up; @teardown on each CPU before it goes down.  A startup
 * that fails here undoes the CPUs done (their teardown) and the state is
 * not kept.  @state must be IRQKIT_CPUHP_AP_ONLINE_DYN.
 * Return: the state's number (> 0, for irqkit_cpuhp_remove_state);
 * -EINVAL; -ENOSPC (all dynamic states used); a startup's error.
 * Context: process context; may sleep.
 */
IRQKIT_API int irqkit_cpuhp_setup_state(int state, const char *name,
					int (*startup)(unsigned int cpu),
					int (*teardown)(unsigned int cpu));
/** irqkit_cpuhp_setup_state_nocalls - the same, calling nothing now. */
IRQKIT_API int irqkit_cpuhp_setup_state_nocalls(int state, const char *name,
						int (*startup)(unsigned int cpu),
						int (*teardown)(unsigned int cpu));
/** irqkit_cpuhp_remove_state - run @state's teardown on every online CPU and forget it. */
IRQKIT_API void irqkit_cpuhp_remove_state(int state);
/** irqkit_cpuhp_remove_state_nocalls - forget @state, calling nothing. */
IRQKIT_API void irqkit_cpuhp_remove_state_nocalls(int state);

#ifdef __cplusplus
}
#endif

#endif
