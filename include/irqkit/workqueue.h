/* SPDX-License-Identifier: MIT */
/* Work queues: deferred work in process context. */
#ifndef IRQKIT_WORKQUEUE_H
#define IRQKIT_WORKQUEUE_H

#include <irqkit/types.h>
#include <irqkit/timer.h>

#ifdef __cplusplus
extern "C" {
#endif

struct irqkit_work;
struct irqkit_workqueue;
struct irqkit_pwq;

typedef void (*irqkit_work_fn)(struct irqkit_work *work);
typedef void (*irqkit_work_fn_26)(void *data);	/* the 2.6.0-2.6.19 form */

/*
 * struct irqkit_work - Linux's struct work_struct.
 *
 *   state      set by                          cleared by
 *   PENDING    queue_work (0 -> 1 only)        the worker, before calling func
 *                                              (so the item may queue itself);
 *                                              cancel_*, which also drop it
 *   running    the worker, while func runs     the worker
 *
 * An item never runs on two workers at once: queued while running, it goes
 * to the pool where it runs and waits for that run.
 */
struct irqkit_work {
	unsigned long		data;		/* private: IRQKIT_WORK_* bits */
	irqkit_work_fn		func;		/* public */
	irqkit_work_fn_26	func26;		/* private: 2.6 form */
	void			*data26;	/* private: 2.6 form's argument */
	/* private */
	struct irqkit_work	*next;
	struct irqkit_pwq	*pwq;		/* where it is queued or last ran ... */
	unsigned int		run;		/* ... in this run of the runtime */
	unsigned long		queued;		/* instances queued, ever */
	unsigned long		done;		/* instances finished or dropped, ever */
	unsigned int		color;		/* flush_workqueue generation */
	unsigned int		where;		/* IRQKIT_WORK_ON_* */
	uint64_t		stamp;		/* when queued or due, while histograms record */
	uint64_t		flow;		/* the recorder's link from its queue_work */
};

#define IRQKIT_WORK_PENDING	(1ul << 0)
#define IRQKIT_WORK_DELAYED	(1ul << 1)	/* the work of a struct irqkit_delayed_work */
#define IRQKIT_WORK_CANCELING	(1ul << 2)
/* the disable count of disable_work (Linux 6.10: 16 bits, WORK_OFFQ_DISABLE_BITS) */
#define IRQKIT_WORK_DISABLE_SHIFT	16
#define IRQKIT_WORK_DISABLE_MAX		0xfffful
#define IRQKIT_WORK_DISABLE_ONE		(1ul << IRQKIT_WORK_DISABLE_SHIFT)
#define IRQKIT_WORK_DISABLE_MASK	(IRQKIT_WORK_DISABLE_MAX << IRQKIT_WORK_DISABLE_SHIFT)

#define IRQKIT_WORK_INIT(f)		{ .func = (f) }
#define IRQKIT_WORK_INIT_26(f, d)	{ .func26 = (f), .data26 = (d) }

struct irqkit_delayed_work {
	struct irqkit_work		work;		/* public */
	struct irqkit_timer_list	timer;		/* private */
	struct irqkit_workqueue		*wq;		/* private */
	int				cpu;		/* private */
};

IRQKIT_API void irqkit_init_work(struct irqkit_work *work, irqkit_work_fn func);
IRQKIT_API void irqkit_init_work_26(struct irqkit_work *work, irqkit_work_fn_26 func, void *data);
IRQKIT_API void irqkit_init_delayed_work(struct irqkit_delayed_work *dwork, irqkit_work_fn func);
/*
 * Linux 2.6.0-2.6.19: a struct work_struct carried its own timer, and
 * INIT_WORK(work, func, data) set both.  <linux/workqueue.h> in that mode
 * makes work_struct a delayed work set up by this.
 */
IRQKIT_API void irqkit_init_delayed_work_26(struct irqkit_delayed_work *dwork,
					    irqkit_work_fn_26 func, void *data);
/** The timer callback of a statically declared delayed work (DECLARE_DELAYED_WORK). */
IRQKIT_API void irqkit_delayed_work_timer_fn(struct irqkit_timer_list *timer);
#define IRQKIT_DELAYED_WORK_INIT(name, f) {						\
	.work = { .data = IRQKIT_WORK_DELAYED, .func = (f) },				\
	.timer = { .function = irqkit_delayed_work_timer_fn },			\
	.cpu = -1 }
#define IRQKIT_DELAYED_WORK_INIT_26(name, f, d) {					\
	.work = { .data = IRQKIT_WORK_DELAYED, .func26 = (f), .data26 = (d) },		\
	.timer = { .function = irqkit_delayed_work_timer_fn },			\
	.cpu = -1 }

/* alloc_workqueue flags: Linux's WQ_* values (include/linux/workqueue.h). */
#define IRQKIT_WQ_BH			(1u << 0)	/* items run in softirq context (6.9) */
#define IRQKIT_WQ_UNBOUND		(1u << 1)
#define IRQKIT_WQ_FREEZABLE		(1u << 2)	/* accepted; nothing freezes here */
#define IRQKIT_WQ_MEM_RECLAIM		(1u << 3)	/* accepted; no memory pressure here */
#define IRQKIT_WQ_HIGHPRI		(1u << 4)
#define IRQKIT_WQ_CPU_INTENSIVE		(1u << 5)	/* accepted */
#define IRQKIT_WQ_SYSFS			(1u << 6)	/* accepted */
#define IRQKIT_WQ_POWER_EFFICIENT	(1u << 7)	/* accepted */
#define IRQKIT_WQ_PERCPU		(1u << 8)	/* bound to a CPU: what a queue is without UNBOUND */
#define IRQKIT__WQ_ORDERED		(1u << 17)
#define IRQKIT__WQ_LEGACY		(1u << 18)
/* what a WQ_BH queue may add (Linux's __WQ_BH_ALLOWS) */
#define IRQKIT__WQ_BH_ALLOWS		(IRQKIT_WQ_BH | IRQKIT_WQ_HIGHPRI | IRQKIT_WQ_PERCPU)

#define IRQKIT_WQ_MAX_ACTIVE		512	/* Linux's WQ_MAX_ACTIVE */
#define IRQKIT_WQ_DFL_ACTIVE		256
#define IRQKIT_WORK_CPU_UNBOUND		(-1)

/**
 * irqkit_alloc_workqueue - create a work queue
 * @fmt: printf-style name
 * @flags: IRQKIT_WQ_*
 * @max_active: items of this queue running at once per CPU (per pool for an
 *              unbound queue); 0 means 256; clamped to 1..512 with a warning
 *
 * A WQ_BH queue (Linux 6.9) runs its items in the softirq context of the
 * CPU that queued them, in queueing order: the TASKLET vector, HI with
 * WQ_HIGHPRI.  They must not sleep.  WQ_HIGHPRI and WQ_PERCPU are the only
 * flags it takes, and @max_active must be 0: anything else is refused with
 * Linux's warning (NULL).
 * Context: process context.  Return: the queue, or NULL.
 */
IRQKIT_API struct irqkit_workqueue *irqkit_alloc_workqueue(const char *fmt, unsigned int flags,
							   int max_active, ...)
	__attribute__((format(printf, 1, 4)));
/** irqkit_alloc_ordered_workqueue - one item at a time, in queueing order. */
IRQKIT_API struct irqkit_workqueue *irqkit_alloc_ordered_workqueue(const char *fmt,
								   unsigned int flags, ...)
	__attribute__((format(printf, 1, 3)));
/**
 * irqkit_destroy_workqueue - drain, then retire @wq
 *
 * Items queued on it afterwards are refused with a warning (the queue's
 * record is kept until irqkit_stop() so that a late queue_work is caught).
 * Context: process context (may sleep).
 */
IRQKIT_API void irqkit_destroy_workqueue(struct irqkit_workqueue *wq);

/*
 * The system queues: "events", "events_highpri", "events_unbound", and the
 * BH ones (Linux 6.9), "events_bh" and "events_bh_highpri".
 */
IRQKIT_API struct irqkit_workqueue *irqkit_system_wq(void);
IRQKIT_API struct irqkit_workqueue *irqkit_system_highpri_wq(void);
IRQKIT_API struct irqkit_workqueue *irqkit_system_unbound_wq(void);
IRQKIT_API struct irqkit_workqueue *irqkit_system_bh_wq(void);
IRQKIT_API struct irqkit_workqueue *irqkit_system_bh_highpri_wq(void);

/**
 * irqkit_queue_work_on - queue @work on @wq, on @cpu's pool (or the caller's
 * CPU when @cpu is IRQKIT_WORK_CPU_UNBOUND; an unbound caller counts as CPU 0)
 * Context: any.  Return: false if @work was already pending, true if queued.
 */
IRQKIT_API bool irqkit_queue_work_on(int cpu, struct irqkit_workqueue *wq,
				     struct irqkit_work *work);
IRQKIT_API bool irqkit_queue_work(struct irqkit_workqueue *wq, struct irqkit_work *work);
IRQKIT_API bool irqkit_schedule_work(struct irqkit_work *work);

/** Queue after @delay jiffies (0: at once).  Context: any.  Return: false if already pending. */
IRQKIT_API bool irqkit_queue_delayed_work_on(int cpu, struct irqkit_workqueue *wq,
					     struct irqkit_delayed_work *dwork, unsigned long delay);
IRQKIT_API bool irqkit_queue_delayed_work(struct irqkit_workqueue *wq,
					  struct irqkit_delayed_work *dwork, unsigned long delay);
IRQKIT_API bool irqkit_schedule_delayed_work(struct irqkit_delayed_work *dwork,
					     unsigned long delay);
/**
 * irqkit_mod_delayed_work_on - queue, or move the timer of a pending one, to @delay
 * Context: any.  Return: true if it was pending and has been modified, false if
 * it was idle and has been queued.
 */
IRQKIT_API bool irqkit_mod_delayed_work_on(int cpu, struct irqkit_workqueue *wq,
					   struct irqkit_delayed_work *dwork, unsigned long delay);
IRQKIT_API bool irqkit_mod_delayed_work(struct irqkit_workqueue *wq,
					struct irqkit_delayed_work *dwork, unsigned long delay);

/**
 * irqkit_flush_work - wait until the last queued instance of @work has finished
 * Context: process context (may sleep); from @work itself it reports the
 * deadlock instead of waiting.  Return: true if it had to wait.
 */
IRQKIT_API bool irqkit_flush_work(struct irqkit_work *work);
IRQKIT_API bool irqkit_flush_delayed_work(struct irqkit_delayed_work *dwork);
/**
 * irqkit_flush_workqueue - wait for everything queued on @wq before the call;
 * later arrivals do not hold it up.  Context: process context (may sleep).
 */
IRQKIT_API void irqkit_flush_workqueue(struct irqkit_workqueue *wq);
/** irqkit_drain_workqueue - flush until @wq is empty; only its own items may queue meanwhile. */
IRQKIT_API void irqkit_drain_workqueue(struct irqkit_workqueue *wq);
IRQKIT_API void irqkit_flush_scheduled_work(void);

/**
 * irqkit_cancel_work_sync - drop a pending instance and wait for a running one
 *
 * Works on an item that re-queues itself.  On delayed work it warns (use
 * irqkit_cancel_delayed_work_sync) and cancels it properly anyway.
 * Context: process context (may sleep).  Return: true if @work was pending.
 */
IRQKIT_API bool irqkit_cancel_work_sync(struct irqkit_work *work);
/** irqkit_cancel_delayed_work - drop a pending instance, no wait.  Context: any.  Return: true if it was pending. */
IRQKIT_API bool irqkit_cancel_delayed_work(struct irqkit_delayed_work *dwork);
IRQKIT_API bool irqkit_cancel_delayed_work_sync(struct irqkit_delayed_work *dwork);

/**
 * irqkit_disable_work - disable @work and cancel a pending instance (Linux 6.10)
 *
 * Disabling nests (a count, at most 65,535; more is a warning): while it is
 * above zero, queue_work and queue_delayed_work of the item return false.
 * A running instance is not waited for.  Context: any.
 * Return: true if an instance was pending.
 */
IRQKIT_API bool irqkit_disable_work(struct irqkit_work *work);
/**
 * irqkit_disable_work_sync - the same, then wait for a running instance
 *
 * Context: process context; any but hardirq when @work last ran on a BH
 * queue (it then waits by spinning, as Linux does).  Return: as above.
 */
IRQKIT_API bool irqkit_disable_work_sync(struct irqkit_work *work);
/**
 * irqkit_enable_work - undo one disable; below zero is a warning
 * Context: any.  Return: true if the count reached zero (it may be queued).
 */
IRQKIT_API bool irqkit_enable_work(struct irqkit_work *work);
/** The same for delayed work: a disable also stops its timer. */
IRQKIT_API bool irqkit_disable_delayed_work(struct irqkit_delayed_work *dwork);
IRQKIT_API bool irqkit_disable_delayed_work_sync(struct irqkit_delayed_work *dwork);
IRQKIT_API bool irqkit_enable_delayed_work(struct irqkit_delayed_work *dwork);
/**
 * irqkit_enable_and_queue_work - enable @work and, if that made the count
 * zero, queue it on @wq.  Context: any.  Return: whether it queued.
 */
IRQKIT_API bool irqkit_enable_and_queue_work(struct irqkit_workqueue *wq, struct irqkit_work *work);

static inline bool irqkit_work_pending(const struct irqkit_work *work)
{
	return __atomic_load_n(&work->data, __ATOMIC_ACQUIRE) & IRQKIT_WORK_PENDING;
}
static inline bool irqkit_delayed_work_pending(const struct irqkit_delayed_work *dwork)
{
	return irqkit_work_pending(&dwork->work);
}

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_WORKQUEUE_H */
