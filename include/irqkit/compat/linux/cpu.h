/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/cpu.h> over irqkit: CPU hotplug of the virtual CPUs
 * (<irqkit/cpu.h> says what offline means).
 */
#ifndef IRQKIT_COMPAT_LINUX_CPU_H
#define IRQKIT_COMPAT_LINUX_CPU_H

#include <linux/cpumask.h>
#include <linux/cpuhotplug.h>

struct device;

/* The CPU's device, as something to test against NULL: one per virtual CPU. */
static inline struct device *get_cpu_device(unsigned int cpu)
{
	static char devices[64];

	if (cpu >= irqkit_nr_cpus() || cpu >= 64)
		return (struct device *)0;
	return (struct device *)(void *)&devices[cpu];
}

#define remove_cpu(cpu)			irqkit_remove_cpu(cpu)
#define add_cpu(cpu)			irqkit_add_cpu(cpu)
/* every virtual CPU may go offline, while another stays online */
#define cpu_is_hotpluggable(cpu)	((unsigned int)(cpu) < irqkit_nr_cpus())

#endif
