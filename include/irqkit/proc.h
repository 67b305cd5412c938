/* SPDX-License-Identifier: MIT */
/* The /proc/interrupts table and /proc/irq/N/spurious, written in Linux's format. */
#ifndef IRQKIT_PROC_H
#define IRQKIT_PROC_H

#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* irqkit_show_interrupts*() @flags */
#define IRQKIT_SHOW_IRQKIT	(1u << 1)	/* add irqkit's own section */
#define IRQKIT_SHOW_LINUX_ONLY	(1u << 0)	/* Linux's table only: the default; wins over SHOW_IRQKIT */

/*
 * The table is Linux's /proc/interrupts (the 4.x-6.x format
 * with GENERIC_IRQ_SHOW_LEVEL): a header of CPU columns, one row per
 * line that has a handler or a nonzero count, the ERR row; lsirq and irqtop
 * parse it.  Then, with IRQKIT_SHOW_IRQKIT, a section that Linux does not
 * have (which those tools would read as more rows), opened by a line
 * "irqkit:", with each shown line's unhandled count, whether it was
 * disabled as spurious, and its arrivals coalesced and lost
 * (irqkit_irq_get_event_totals()).
 */

/**
 * irqkit_show_interrupts_buf - write the table into @buf
 * Return: the length of the whole table (as snprintf: the output is cut, and
 * NUL-terminated, when it is @size or more), or -EINVAL.
 * Context: process context.
 */
IRQKIT_API int irqkit_show_interrupts_buf(char *buf, size_t size, unsigned int flags);

/**
 * irqkit_show_softirqs_buf - Linux's /proc/softirqs: a header of CPU columns,
 * then a row per vector (HI, TIMER, NET_TX, NET_RX, BLOCK, IRQ_POLL,
 * TASKLET, SCHED, HRTIMER, RCU) with how many times it ran on each CPU.
 * Return: as irqkit_show_interrupts_buf().  Context: process context.
 */
IRQKIT_API int irqkit_show_softirqs_buf(char *buf, size_t size);

/** irqkit_kstat_softirqs_cpu - runs of softirq @nr on @cpu (kstat_softirqs_cpu).  Context: any. */
IRQKIT_API unsigned int irqkit_kstat_softirqs_cpu(unsigned int nr, unsigned int cpu);

/**
 * irqkit_show_spurious_buf - /proc/irq/N/spurious: "count", "unhandled",
 * "last_unhandled N ms".  Return: as above.
 */
IRQKIT_API int irqkit_show_spurious_buf(unsigned int irq, char *buf, size_t size);

/* irqkit_show_irq_affinity_buf @which: the files of /proc/irq/N/ */
#define IRQKIT_PROC_SMP_AFFINITY		0	/* smp_affinity: hex, "3" */
#define IRQKIT_PROC_SMP_AFFINITY_LIST		1	/* smp_affinity_list: "0-1" */
#define IRQKIT_PROC_EFFECTIVE_AFFINITY		2	/* effective_affinity: the CPU it targets */
#define IRQKIT_PROC_EFFECTIVE_AFFINITY_LIST	3	/* effective_affinity_list */

/**
 * irqkit_show_irq_affinity_buf - /proc/irq/N/smp_affinity(_list) (the CPUs
 * the line may target: a managed vector's mask, every CPU when unset) and
 * effective_affinity(_list) (the one it targets), as Linux prints them: a
 * hex mask in 32-bit chunks, or a list of ranges.
 * Return: as irqkit_show_interrupts_buf(); -EINVAL for a bad @irq or @which.
 */
IRQKIT_API int irqkit_show_irq_affinity_buf(unsigned int irq, unsigned int which, char *buf,
					    size_t size);

/**
 * irqkit_show_counters_json - every counter as one JSON object: "cpus",
 * "err", "irqs" (each shown line: "irq", "per_cpu" handled counts, "count",
 * "actions", "chip", "type", "depth", "disabled", "spurious_disabled",
 * "irq_count" and "unhandled" of the spurious window, "last_unhandled_ms"
 * after start, "threads_handled", "events", "coalesced", "lost", and
 * "faults" injected when fault injection looked at the line), "softirqs"
 * (per vector, runs per CPU), "histograms" (whether they record).
 * Return: as irqkit_show_interrupts_buf().  Context: process context.
 */
IRQKIT_API int irqkit_show_counters_json(char *buf, size_t size);

/**
 * irqkit_show_tasks_buf - the kthreads and irq threads, as ps lists them: a
 * header "    PID S COMMAND", then a row per kthread not yet joined with its
 * thread id, its state (R running, S sleeping, D uninterruptible, P parked,
 * Z its function returned and nobody joined it yet) and its name in
 * brackets, then a row per running irq thread ("irq/N-name", and a forced
 * action's secondary "irq/N-s-name").
 * Return: as irqkit_show_interrupts_buf().  Context: any but hardirq.
 */
IRQKIT_API int irqkit_show_tasks_buf(char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_PROC_H */
