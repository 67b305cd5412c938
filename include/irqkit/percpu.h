/* SPDX-License-Identifier: MIT */
/*
 * Per-CPU variables (Linux's <linux/percpu.h>), what per-CPU interrupts
 * hand their handlers: one copy of an object per CPU, reached from a
 * per-CPU pointer (the address of CPU 0's copy) with
 * irqkit_per_cpu_ptr(p, cpu).
 *
 * Two kinds, as in Linux.  Dynamic: irqkit_alloc_percpu() takes the object
 * from a per-CPU area of IRQKIT_PERCPU_UNIT bytes per CPU, each CPU's copy
 * at the same offset in its unit, zeroed.  Static: the Linux-name layer's
 * DEFINE_PER_CPU() puts the variable (CPU 0's copy) in a section of the
 * program, which registers itself before main (irqkit_percpu_register):
 * the other CPUs' copies start as copies of its initial image.  A pointer
 * into either, to an object or inside one, finds the same place in another
 * CPU's copy.  Copies exist for IRQKIT_NR_CPUS_MAX CPUs whatever the run's
 * count, so per-CPU data outlives runs and CPU hotplug, as Linux's does.
 */
#ifndef IRQKIT_PERCPU_H
#define IRQKIT_PERCPU_H

#include <irqkit/types.h>
#include <irqkit/config.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of dynamic per-CPU memory per CPU (Linux's reserve is of this order). */
#define IRQKIT_PERCPU_UNIT	(64u * 1024u)

/**
 * irqkit_alloc_percpu - a zeroed object of @size bytes aligned to @align
 * (a power of two up to 64) for every CPU.  Context: process context.
 * Return: the per-CPU pointer, or NULL (@size 0, or no room: a log line).
 */
IRQKIT_API void *irqkit_alloc_percpu(size_t size, size_t align);

/** irqkit_free_percpu - give it back (NULL: nothing).  Context: process context. */
IRQKIT_API void irqkit_free_percpu(void *p);

/**
 * irqkit_per_cpu_ptr - CPU @cpu's copy of what per-CPU pointer @p points
 * to.  A pointer that is not per-CPU, or a CPU past IRQKIT_NR_CPUS_MAX, is
 * a warning and NULL.  Context: any.
 */
IRQKIT_API void *irqkit_per_cpu_ptr(const void *p, unsigned int cpu);

/**
 * irqkit_percpu_register - make [@start, @end) a section of static per-CPU
 * variables: CPU 0's copies; the others are made now from its contents.
 * The same section again is a no-op.  Called by the Linux-name layer's
 * constructor; at most 16 sections.  Context: before threads, or process
 * context.  Return: 0, -ENOMEM, -ENOSPC.
 */
IRQKIT_API int irqkit_percpu_register(void *start, void *end);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_PERCPU_H */
