/* SPDX-License-Identifier: MIT */
/* Linux's <linux/smp.h> over irqkit: the calling thread's virtual CPU. */
#ifndef IRQKIT_COMPAT_LINUX_SMP_H
#define IRQKIT_COMPAT_LINUX_SMP_H

#include <linux/preempt.h>
#include <irqkit/cpu.h>
#include <irqkit/runtime.h>
#include <irqkit/smp.h>
#include <linux/cpumask.h>

/* get_cpu: preemption off (a bound thread stays on its CPU anyway), then the CPU */
#define get_cpu()		({ preempt_disable(); smp_processor_id(); })
#define put_cpu()		preempt_enable()
#define num_online_cpus()	irqkit_num_online_cpus()
#define num_possible_cpus()	irqkit_nr_cpus()
#define nr_cpu_ids		irqkit_nr_cpus()

/* Cross-CPU calls (kernel/smp.c) */
#define smp_call_func_t			irqkit_smp_call_func_t
#define smp_cond_func_t			irqkit_smp_cond_func_t
#define call_single_data		irqkit_call_single_data
typedef struct irqkit_call_single_data call_single_data_t;
#define CSD_INIT(_func, _info)		{ .func = (_func), .info = (_info) }
#define INIT_CSD(_csd, _func, _info) \
	(*(_csd) = (struct irqkit_call_single_data)CSD_INIT(_func, _info))
#define smp_call_function_single(cpu, func, info, wait) \
	irqkit_smp_call_function_single((cpu), (func), (info), (wait))
#define smp_call_function_single_async(cpu, csd) \
	irqkit_smp_call_function_single_async((cpu), (csd))
#define smp_call_function_any(mask, func, info, wait) \
	irqkit_smp_call_function_any(irqkit_cpus_mask(mask), (func), (info), (wait))
#define smp_call_function_many(mask, func, info, wait) \
	irqkit_smp_call_function_many(irqkit_cpus_mask(mask), (func), (info), (wait))
#define smp_call_function(func, info, wait)	irqkit_smp_call_function((func), (info), (wait))
#define on_each_cpu(func, info, wait)		irqkit_on_each_cpu((func), (info), (wait))
#define on_each_cpu_mask(mask, func, info, wait) \
	irqkit_on_each_cpu_mask(irqkit_cpus_mask(mask), (func), (info), (wait))
#define on_each_cpu_cond_mask(cond, func, info, wait, mask) \
	irqkit_on_each_cpu_cond_mask((cond), (func), (info), (wait), irqkit_cpus_mask(mask))
#define on_each_cpu_cond(cond, func, info, wait) \
	irqkit_on_each_cpu_cond_mask((cond), (func), (info), (wait), ~(irqkit_cpumask)0)

#endif
