/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/cpumask.h> over irqkit, the online and possible CPUs as
 * drivers read them: every virtual CPU is possible; the online ones change
 * with CPU hotplug (<linux/cpu.h>).
 */
#ifndef IRQKIT_COMPAT_LINUX_CPUMASK_H
#define IRQKIT_COMPAT_LINUX_CPUMASK_H

#include <linux/smp.h>

#define cpu_online(cpu)		irqkit_cpu_online(cpu)
#define cpu_possible(cpu)	((unsigned int)(cpu) < irqkit_nr_cpus())
#define cpu_present(cpu)	cpu_possible(cpu)
#define for_each_possible_cpu(cpu)							\
	for ((cpu) = 0; (unsigned int)(cpu) < irqkit_nr_cpus(); (cpu)++)
#define for_each_present_cpu(cpu)	for_each_possible_cpu(cpu)
#define for_each_online_cpu(cpu)							\
	for_each_possible_cpu(cpu)							\
		if (!irqkit_cpu_online(cpu)) {} else

#endif
