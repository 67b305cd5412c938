// SPDX-License-Identifier: MIT
/*
 * The defaults of the optional hooks of the port contract (platform.h): weak
 * definitions that a port's own replace at link time, so that a port writes
 * only what its host has.  Each default is what the core does without the
 * service.
 */
#include "core.h"

/* No asymmetric barrier: the core keeps full barriers on the hot side. */
__attribute__((weak)) bool irqkit_plat_barrier_heavy_init(void)
{
	return false;
}

/* Never called while irqkit_plat_barrier_heavy_init() says false. */
__attribute__((weak)) void irqkit_plat_barrier_heavy(void)
{
}

/* Tasks never end: the task list keeps them. */
__attribute__((weak)) void irqkit_plat_task_track(struct irqkit_task *t)
{
	(void)t;
}

/* No stacks in reports. */
__attribute__((weak)) int irqkit_plat_backtrace(void **frames, int max)
{
	return 0;
}

/* No names for addresses: reports print them as numbers. */
__attribute__((weak)) unsigned long irqkit_plat_symbol(const void *addr, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	return 0;
}

/* Another thread's name and stack are unknown. */
__attribute__((weak)) void irqkit_plat_thread_name_of(int tid, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
}

__attribute__((weak)) int irqkit_plat_backtrace_of(int tid, void **frames, int max)
{
	return 0;
}

/* No CPU hotplug: irqkit_remove_cpu() and irqkit_add_cpu() return -EOPNOTSUPP. */
__attribute__((weak)) int irqkit_arch_cpu_up(unsigned int cpu)
{
	(void)cpu;
	return -IRQKIT_EOPNOTSUPP;
}

__attribute__((weak)) int irqkit_arch_cpu_down(unsigned int cpu)
{
	(void)cpu;
	return -IRQKIT_EOPNOTSUPP;
}

/* A virtual CPU is wherever its threads run: binding moves nothing. */
__attribute__((weak)) void irqkit_arch_task_bound(struct irqkit_task *t)
{
	(void)t;
}

/* No traps: a root controller's handler has nothing to be called from. */
__attribute__((weak)) int irqkit_arch_set_handle_irq(void (*root)(void *arg), void *arg)
{
	(void)root;
	(void)arg;
	return -IRQKIT_EOPNOTSUPP;
}

/* A host's kernel preempts its threads: nothing to give way to here. */
__attribute__((weak)) void irqkit_plat_cond_resched(void)
{
}

/* No clock of the day: real time starts at 1970 with the run. */
__attribute__((weak)) uint64_t irqkit_plat_realtime_ns(void)
{
	return 0;
}

/* No timer of the CPU's own: its hrtimers go through the one-shot timer. */
__attribute__((weak)) bool irqkit_arch_cpu_idle_until(unsigned int cpu, unsigned int *kick,
						      unsigned int seen, uint64_t deadline_ns)
{
	(void)cpu;
	(void)kick;
	(void)seen;
	(void)deadline_ns;
	return false;
}
