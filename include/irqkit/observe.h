/* SPDX-License-Identifier: MIT */
/*
 * Watching the interrupt path from inside: latency histograms (what bcc's
 * hardirqs, softirqs and wqlat show for a kernel) and a timeline recorder
 * (what ftrace and Perfetto show), both off by default and switched on at run
 * time.  Off, each costs the hot paths one load and a branch.
 *
 * Times are the runtime's clock: real nanoseconds, or in deterministic mode
 * the virtual clock that irqkit_clock_advance() moves (where most delays are
 * then 0).
 */
#ifndef IRQKIT_OBSERVE_H
#define IRQKIT_OBSERVE_H

#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct irqkit_workqueue;

/* ---- latency histograms ------------------------------------------------------------------ */

/*
 * What a histogram measures.  Keys: an interrupt number for the IRQ kinds, a
 * softirq vector (IRQKIT_*_SOFTIRQ) for the SOFTIRQ kinds, IRQKIT_HI_SOFTIRQ
 * or IRQKIT_TASKLET_SOFTIRQ for the TASKLET kinds; the WORK kinds are per
 * workqueue (irqkit_hist_read_wq()).
 */
enum irqkit_hist_kind {
	IRQKIT_HIST_IRQ_LATENCY,	/* a line's raise to its handlers' start */
	IRQKIT_HIST_IRQ_DURATION,	/* a line's handlers, all of its chain */
	IRQKIT_HIST_SOFTIRQ_DELAY,	/* raise_softirq to the vector's start */
	IRQKIT_HIST_SOFTIRQ_DURATION,	/* one run of the vector */
	IRQKIT_HIST_TASKLET_DELAY,	/* tasklet_schedule to the tasklet's start */
	IRQKIT_HIST_TASKLET_DURATION,	/* one run of a tasklet */
	IRQKIT_HIST_WORK_DELAY,		/* queue_work to the item's start */
	IRQKIT_HIST_WORK_DURATION,	/* one run of an item (delayed ones too) */
	IRQKIT_HIST_DWORK_LATENESS,	/* a delayed item's due time to its start */
	IRQKIT_HIST_NR
};

/*
 * bcc's log2 slots: bucket b counts values of b significant bits, in
 * nanoseconds: bucket 0 is 0, bucket b is 2^(b-1) to 2^b - 1; the last
 * bucket also counts everything longer (from about 4.6 minutes).
 */
#define IRQKIT_HIST_BUCKETS	40

struct irqkit_hist_data {
	uint64_t	bucket[IRQKIT_HIST_BUCKETS];
	uint64_t	count;		/* samples */
	uint64_t	sum_ns;
	uint64_t	max_ns;
};

/**
 * irqkit_hist_enable - start (@on) or stop the histograms.  Starting clears
 * them.  IRQKIT_HIST=1 in the environment starts them with the runtime.
 * Return: 0, or -ENODEV when the runtime is not running, -ENOMEM.
 * Context: process context.
 */
IRQKIT_API int irqkit_hist_enable(bool on);

/** irqkit_hist_enabled - whether the histograms are recording.  Context: any. */
IRQKIT_API bool irqkit_hist_enabled(void);

/**
 * irqkit_hist_read - a copy of histogram @kind for @key (see enum irqkit_hist_kind)
 * Return: 0; -EINVAL for an unknown kind or key (or a WORK kind: use
 * irqkit_hist_read_wq()), -ENODATA when the histograms were never started in
 * this run of the runtime.
 * Context: any; the copy is taken while samples may be added, bucket by bucket.
 */
IRQKIT_API int irqkit_hist_read(enum irqkit_hist_kind kind, unsigned int key,
				struct irqkit_hist_data *out);

/** irqkit_hist_read_wq - a WORK kind's histogram of workqueue @wq.  Return: as irqkit_hist_read(). */
IRQKIT_API int irqkit_hist_read_wq(enum irqkit_hist_kind kind, const struct irqkit_workqueue *wq,
				   struct irqkit_hist_data *out);

/**
 * irqkit_show_hist_buf - every histogram with samples, as text: a title
 * ("irq 5 (eth0): raise to handler") and bcc's table of log2 slots in
 * nanoseconds with a bar per slot.
 * Return: as snprintf (the length of the whole text; cut and NUL-terminated
 * when it is @size or more), -EINVAL.  Context: process context.
 */
IRQKIT_API int irqkit_show_hist_buf(char *buf, size_t size);

/* ---- timeline recorder ------------------------------------------------------------------- */

/**
 * irqkit_trace_start - record a timeline: each thread that runs interrupt
 * code writes its own ring of @events_per_thread events (0: 65536), the
 * oldest overwritten when it is full (the writer says how many).  What is
 * recorded: each handler and threaded handler, softirq vector, tasklet,
 * timer function and work item as a slice with its start and duration; each
 * raise of a line and each queue_work as an instant, linked to the handler
 * run or item run it led to.  Hardirqs, softirqs, tasklets and timers are
 * drawn on their virtual CPU's track, work items and threaded handlers on
 * their thread's.  A new start discards what was recorded.
 * IRQKIT_TRACE=FILE in the environment starts it with the runtime and
 * writes FILE when the runtime stops.
 * Return: 0, -ENODEV when the runtime is not running, -EINVAL for a size
 * over 2^24.  Context: process context.
 */
IRQKIT_API int irqkit_trace_start(unsigned int events_per_thread);

/** irqkit_trace_stop - stop recording; what was recorded stays until the next start or runtime stop. */
IRQKIT_API void irqkit_trace_stop(void);

/**
 * irqkit_trace_write - stop recording and write what was recorded to @path as
 * Chrome trace-event JSON (Perfetto's UI and chrome://tracing open it): a
 * process "virtual CPUs" with a track per CPU, a process "threads" with a
 * track per thread, flows from raises and queue_work calls to what they
 * led to.  Functions are named by their symbols where the platform can.
 * Return: the number of events written, -ENODATA if nothing was ever
 * recorded, or a negative errno from opening or writing the file.
 * Context: process context.
 */
IRQKIT_API long irqkit_trace_write(const char *path);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_OBSERVE_H */
