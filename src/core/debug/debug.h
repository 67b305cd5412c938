/* SPDX-License-Identifier: MIT */
/*
 * The debugging rooms (debug/): race windows of the checking build
 * (window.c), injected faults (fault.c), the watchdog and the waits it
 * watches (watchdog.c), the interrupt points of an exploration (point.c),
 * and the latency histograms and timeline recorder (observe.c).
 */
#ifndef IRQKIT_CORE_DEBUG_DEBUG_H
#define IRQKIT_CORE_DEBUG_DEBUG_H

#include "core.h"
#include "cpu.h"

/*
 * Race windows (the checking build): a place between two steps of the core
 * where another thread's work can fall, which a test may widen
 * (irqkit__core_window_set(), IRQKIT_RACE_WINDOW) so that a race it guards
 * against happens every run.  Nothing in other builds.
 */
enum irqkit__window {
	WINDOW_WAKE_WORKER,	/* a worker taken off the idle list, not yet woken */
	WINDOW_NR
};
/* Close every window: each run starts with none widened (irqkit__core_init). */
HIDDEN void irqkit__windows_close(void);
#ifdef IRQKIT_DEBUG
HIDDEN void irqkit__window_slow(enum irqkit__window which);
HIDDEN extern uint64_t irqkit__window_ns[WINDOW_NR];
static inline void irqkit__window(enum irqkit__window which)
{
	if (READ_ONCE(irqkit__window_ns[which]))
		irqkit__window_slow(which);
}
#else
static inline void irqkit__window(enum irqkit__window which)
{
	(void)which;
}
#endif

/* fault.c: arrivals on lines with IRQS_FAULT; the end of a run */
struct irqkit__fault;
/* A signalled line with IRQS_FAULT on @c: the claim and the flow, or a held arrival's point. */
HIDDEN void irqkit__fault_signalled(struct irqkit_cpu *c, struct irqkit_desc *desc);
/* At the end of a delivery point of @c with held arrivals: they are pending again. */
HIDDEN void irqkit__fault_rearm(struct irqkit_cpu *c);
HIDDEN bool irqkit__fault_holding(struct irqkit_desc *desc, unsigned int *released);

HIDDEN void irqkit__fault_resent(struct irqkit_desc *desc);
HIDDEN void irqkit__faults_exit(void);

/* watchdog.c: a wait that may not end, registered while it lasts */
enum irqkit__wait_kind {
	WAIT_IRQ,		/* @num: the line */
	WAIT_WORK,		/* @obj: the work item */
	WAIT_WORKQUEUE,		/* @obj: the queue's name */
	WAIT_TASKLET,		/* @obj: the tasklet */
	WAIT_TIMER,		/* @obj: the timer */
	WAIT_KTHREAD,		/* @obj: the kthread's name */
	WAIT_SLEEP,		/* an uninterruptible sleep (schedule()) */
};

struct irqkit__wait {
	const char		*what;		/* the waiting call: "synchronize_irq" */
	enum irqkit__wait_kind	kind;
	const void		*obj;
	unsigned long		num;
	/*
	 * The object's function, read by the waiter when it begins, while the
	 * object is surely alive (a running work item may free itself: the
	 * watchdog must not read it later); NULL: read it from @obj.
	 */
	const void		*fn;
	uint64_t		since;
	int			tid;
	bool			registered;	/* its owner's: on the list */
	bool			reported;	/* wait_lock */
	struct irqkit__wait	*next, **pprev;	/* wait_lock */
};

/* A wait not begun yet: only what the checks read is set (cheap on the no-wait path). */
static inline void irqkit__wait_init(struct irqkit__wait *w)
{
	w->what = NULL;
	w->fn = NULL;
	w->registered = false;
}

HIDDEN void irqkit__wait_begin_slow(struct irqkit__wait *w, const char *what,
				    enum irqkit__wait_kind kind, const void *obj, unsigned long num);
/* The caller is about to sleep, maybe again: the first call records the wait. */
static inline void irqkit__wait_begin(struct irqkit__wait *w, const char *what,
				      enum irqkit__wait_kind kind, const void *obj, unsigned long num)
{
	if (!w->what)
		irqkit__wait_begin_slow(w, what, kind, obj, num);
}
HIDDEN void irqkit__wait_end_slow(struct irqkit__wait *w);
static inline void irqkit__wait_end(struct irqkit__wait *w)
{
	if (unlikely(w->registered))
		irqkit__wait_end_slow(w);
}


HIDDEN void irqkit__watchdog_config(const struct irqkit_config *c);
HIDDEN int irqkit__watchdog_init(void);
HIDDEN void irqkit__watchdog_quiesce(void);
HIDDEN void irqkit__watchdog_exit(void);

/* watchdog.c: see struct irqkit__stall */
HIDDEN bool irqkit__stall_check(struct irqkit__stall *st, bool busy, unsigned long gen,
				uint64_t now, uint64_t thresh, uint64_t *stuck);
/* Whole seconds, rounded up, as the reports print a duration. */
static inline unsigned long long irqkit__secs_up(uint64_t ns)
{
	return (unsigned long long)((ns + 999999999ull) / 1000000000ull);
}

/* point.c: the interrupt points of an exploration (platform.h) */
HIDDEN extern irqkit__core_point_fn irqkit__point_hook;
HIDDEN void irqkit__point_slow(const char *what, const void *ip);
HIDDEN void irqkit__point_switch(const char *what, const void *ip);
static inline void irqkit__point(const char *what, const void *ip)
{
	if (unlikely(READ_ONCE(irqkit__point_hook)))
		irqkit__point_slow(what, ip);
}

/* observe.c: latency histograms and the timeline recorder (<irqkit/observe.h>) */
#define IRQKIT__OBS_HIST	(1u << 0)
#define IRQKIT__OBS_TRACE	(1u << 1)
extern HIDDEN unsigned int irqkit__obs;

/* What the hot paths test first: is anything watching?  One load and a branch. */
static __always_inline unsigned int irqkit__observing(void)
{
	return READ_ONCE(irqkit__obs);
}

struct irqkit__hist {
	uint64_t		bucket[40];	/* IRQKIT_HIST_BUCKETS */
	uint64_t		sum;
	uint64_t		max;
};

struct irqkit_hist_data;
struct irqkit_work;
struct irqkit_workqueue;
HIDDEN void irqkit__hist_add(struct irqkit__hist *h, uint64_t ns);
HIDDEN void irqkit__hist_clear(struct irqkit__hist *h, size_t n);
HIDDEN void irqkit__hist_copy(const struct irqkit__hist *h, struct irqkit_hist_data *out);
HIDDEN const struct irqkit__hist *irqkit__obs_hist(int kind, unsigned int key);
HIDDEN void irqkit__trace_event(unsigned int kind, uint64_t ts, uint64_t end, const void *what,
				uint64_t flow, uint32_t arg);
HIDDEN uint64_t irqkit__trace_flow(void);
HIDDEN void irqkit__obs_exit(void);
HIDDEN void irqkit__obs_raise(unsigned int irq);
HIDDEN uint64_t irqkit__obs_irq_begin(struct irqkit_desc *desc, uint64_t *flow);
HIDDEN uint64_t irqkit__obs_handler(struct irqkit_desc *desc, const struct irqkit_action *action,
				    unsigned int res, uint64_t start, uint64_t *flow);
HIDDEN void irqkit__obs_irq_end(struct irqkit_desc *desc, uint64_t start, uint64_t end);
HIDDEN void irqkit__obs_softirq_raise(struct irqkit_cpu *c, unsigned int nr);
HIDDEN uint64_t irqkit__obs_softirq_begin(struct irqkit_cpu *c, unsigned int nr);
HIDDEN void irqkit__obs_softirq_end(unsigned int nr, uint64_t start);
HIDDEN void irqkit__obs_tasklet_sched(struct irqkit_tasklet *t);
HIDDEN uint64_t irqkit__obs_tasklet_begin(struct irqkit_tasklet *t, unsigned int nr);
HIDDEN void irqkit__obs_tasklet_end(const void *fn, unsigned int nr, uint64_t start);
/* @timed: its timer expired, it was due at @due (else: queued now) */
HIDDEN void irqkit__obs_work_queued(struct irqkit_work *work, bool timed, uint64_t due);
HIDDEN uint64_t irqkit__obs_work_begin(struct irqkit_work *work, struct irqkit__hist *wq_hist,
				       uint64_t *flow);
HIDDEN void irqkit__obs_work_end(const void *fn, struct irqkit__hist *wq_hist, uint64_t start,
				 uint64_t flow);
HIDDEN void irqkit__obs_slice(unsigned int kind, const void *what, uint64_t start, uint32_t arg);

#endif /* IRQKIT_CORE_DEBUG_DEBUG_H */
