/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/cpu.h> over irqkit: CPU hotplug of the virtual CPUs
 * (<irqkit/cpu.h> says what offline means).
 */
#ifndef IRQKIT_COMPAT_LINUX_CPU_H
#define IRQKIT_COMPAT_LINUX_CPU_H

#include <linux/cpumask.h>
#include <linux/cpuhotplug.h>

#define remove_cpu(cpu)			irqkit_remove_cpu(cpu)
#define add_cpu(cpu)			irqkit_add_cpu(cpu)
/* every virtual CPU may go offline, while another stays online */
#define cpu_is_hotpluggable(cpu)	((unsigned int)(cpu) < irqkit_nr_cpus())

#endif
