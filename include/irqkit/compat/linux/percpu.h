/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/percpu.h> over irqkit (<irqkit/percpu.h>): per-CPU
 * variables, static (DEFINE_PER_CPU) and dynamic (alloc_percpu), and the
 * accessors.  A static per-CPU variable lives in the program's section
 * "irqkit_percpu" (CPU 0's copy); a constructor registers the section
 * before main, and the other CPUs' copies start from its initial image.
 * The this_cpu read-modify-writes are atomic (relaxed): a CPU here is
 * several threads, and Linux's are safe against the CPU's own interrupts.
 */
#ifndef IRQKIT_COMPAT_LINUX_PERCPU_H
#define IRQKIT_COMPAT_LINUX_PERCPU_H

#include <irqkit/percpu.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/gfp.h>

#define __percpu

#define DEFINE_PER_CPU(type, name)						\
	__attribute__((section("irqkit_percpu"), aligned(16))) __typeof__(type) name
#define DEFINE_PER_CPU_ALIGNED(type, name)					\
	__attribute__((section("irqkit_percpu"), aligned(64))) __typeof__(type) name
#define DEFINE_PER_CPU_SHARED_ALIGNED(type, name)	DEFINE_PER_CPU_ALIGNED(type, name)
#define DECLARE_PER_CPU(type, name)		extern __typeof__(type) name
#define DECLARE_PER_CPU_ALIGNED(type, name)	extern __typeof__(type) name
#define DECLARE_PER_CPU_SHARED_ALIGNED(type, name) extern __typeof__(type) name

/* The program's section, registered once whichever file's constructor runs first. */
extern char __start_irqkit_percpu[] __attribute__((weak, visibility("hidden")));
extern char __stop_irqkit_percpu[] __attribute__((weak, visibility("hidden")));
__attribute__((constructor, used)) static void irqkit__percpu_section(void)
{
	if ((void *)__start_irqkit_percpu != (void *)__stop_irqkit_percpu)
		(void)irqkit_percpu_register(__start_irqkit_percpu, __stop_irqkit_percpu);
}

#define alloc_percpu(type)							\
	((type *)irqkit_alloc_percpu(sizeof(type), __alignof__(type)))
#define alloc_percpu_gfp(type, gfp)	alloc_percpu(type)
#define __alloc_percpu(size, align)	irqkit_alloc_percpu((size), (align))
#define free_percpu(p)			irqkit_free_percpu(p)

#define per_cpu_ptr(ptr, cpu)	((__typeof__(ptr))irqkit_per_cpu_ptr((ptr), (unsigned int)(cpu)))
#define raw_cpu_ptr(ptr)	per_cpu_ptr((ptr), smp_processor_id())
#define this_cpu_ptr(ptr)	raw_cpu_ptr(ptr)
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), (cpu)))
#define get_cpu_ptr(ptr)	({ preempt_disable(); this_cpu_ptr(ptr); })
#define put_cpu_ptr(ptr)	do { (void)(ptr); preempt_enable(); } while (0)
#define get_cpu_var(var)	(*({ preempt_disable(); this_cpu_ptr(&(var)); }))
#define put_cpu_var(var)	do { (void)&(var); preempt_enable(); } while (0)

/* The operations on this CPU's copy of a scalar per-CPU variable */
#define this_cpu_read(var)	__atomic_load_n(this_cpu_ptr(&(var)), __ATOMIC_RELAXED)
#define this_cpu_write(var, v)	__atomic_store_n(this_cpu_ptr(&(var)), (v), __ATOMIC_RELAXED)
#define this_cpu_add(var, v)	((void)__atomic_fetch_add(this_cpu_ptr(&(var)), (v), __ATOMIC_RELAXED))
#define this_cpu_sub(var, v)	((void)__atomic_fetch_sub(this_cpu_ptr(&(var)), (v), __ATOMIC_RELAXED))
#define this_cpu_inc(var)	this_cpu_add(var, 1)
#define this_cpu_dec(var)	this_cpu_sub(var, 1)
#define this_cpu_add_return(var, v)						\
	__atomic_add_fetch(this_cpu_ptr(&(var)), (v), __ATOMIC_RELAXED)
#define this_cpu_xchg(var, v)	__atomic_exchange_n(this_cpu_ptr(&(var)), (v), __ATOMIC_RELAXED)
#define __this_cpu_read(var)		this_cpu_read(var)
#define __this_cpu_write(var, v)	this_cpu_write(var, v)
#define __this_cpu_add(var, v)		this_cpu_add(var, v)
#define __this_cpu_sub(var, v)		this_cpu_sub(var, v)
#define __this_cpu_inc(var)		this_cpu_inc(var)
#define __this_cpu_dec(var)		this_cpu_dec(var)
#define raw_cpu_read(var)		this_cpu_read(var)
#define raw_cpu_write(var, v)		this_cpu_write(var, v)
#define raw_cpu_inc(var)		this_cpu_inc(var)

#endif
