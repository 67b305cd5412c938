/* SPDX-License-Identifier: MIT */
/* Linux's <linux/smp.h> over irqkit: the calling thread's virtual CPU. */
#ifndef IRQKIT_COMPAT_LINUX_SMP_H
#define IRQKIT_COMPAT_LINUX_SMP_H

#include <linux/preempt.h>
#include <irqkit/cpu.h>
#include <irqkit/runtime.h>

/* get_cpu: preemption off (a bound thread stays on its CPU anyway), then the CPU */
#define get_cpu()		({ preempt_disable(); smp_processor_id(); })
#define put_cpu()		preempt_enable()
#define num_online_cpus()	irqkit_num_online_cpus()
#define num_possible_cpus()	irqkit_nr_cpus()
#define nr_cpu_ids		irqkit_nr_cpus()

#endif
