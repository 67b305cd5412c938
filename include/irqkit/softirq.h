/* SPDX-License-Identifier: MIT */
/* Softirqs and tasklets: the bottom halves of 2.6. */
#ifndef IRQKIT_SOFTIRQ_H
#define IRQKIT_SOFTIRQ_H

#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Softirq vectors, lowest runs first (Linux's modern numbering). */
enum irqkit_softirq {
	IRQKIT_HI_SOFTIRQ = 0,
	IRQKIT_TIMER_SOFTIRQ,
	IRQKIT_NET_TX_SOFTIRQ,
	IRQKIT_NET_RX_SOFTIRQ,
	IRQKIT_BLOCK_SOFTIRQ,
	IRQKIT_IRQ_POLL_SOFTIRQ,
	IRQKIT_TASKLET_SOFTIRQ,
	IRQKIT_SCHED_SOFTIRQ,
	IRQKIT_HRTIMER_SOFTIRQ,
	IRQKIT_RCU_SOFTIRQ,
	IRQKIT_NR_SOFTIRQS
};

/* A softirq action: runs in softirq context, interrupts on, bottom halves off. */
typedef void (*irqkit_softirq_fn)(void);

/**
 * irqkit_open_softirq - set the action of vector @nr (HI and TASKLET run the
 * tasklets, TIMER the kernel timers; the others are free for the application)
 * Context: process context, before raising it.
 */
IRQKIT_API void irqkit_open_softirq(unsigned int nr, irqkit_softirq_fn action);

/**
 * irqkit_raise_softirq - mark vector @nr pending on the caller's CPU
 *
 * From hardirq or softirq context it runs when that context ends; from
 * process context the CPU's ksoftirqd/N thread is woken.
 * Context: any.
 */
IRQKIT_API void irqkit_raise_softirq(unsigned int nr);

/** irqkit_raise_softirq_irqoff - the same, for a caller with interrupts off. */
IRQKIT_API void irqkit_raise_softirq_irqoff(unsigned int nr);

/* Pending softirq vectors of @cpu, a bit per vector (local_softirq_pending()). */
IRQKIT_API unsigned int irqkit_softirq_pending(unsigned int cpu);

/*
 * struct irqkit_tasklet - Linux's struct tasklet_struct.
 *
 *   state bit   set by                      cleared by
 *   SCHED       tasklet_schedule            the softirq, just before the call;
 *                                           tasklet_kill
 *   RUN         the softirq, while running  the softirq, after the call
 *
 * count > 0 means disabled (nesting).  A tasklet runs on the CPU that
 * scheduled it, never concurrently with itself, and N schedules before it
 * runs give one run.  The bits of state from IRQKIT__TASKLET_STATE_OFF_ONE
 * up hold the disable depth again (irqkit's, not Linux's): the softirq takes
 * a tasklet to run (SCHED set, RUN clear, not disabled: RUN set and SCHED
 * cleared) in one compare-and-swap.  Test state's bits with the two masks.
 */
struct irqkit_tasklet {
	struct irqkit_tasklet	*next;		/* private */
	unsigned long		state;		/* read-only: IRQKIT_TASKLET_STATE_* */
	unsigned int		count;		/* read-only: disable depth */
	bool			use_callback;	/* private */
	union {
		void		(*func)(unsigned long data);		/* 2.6 form */
		void		(*callback)(struct irqkit_tasklet *t);	/* modern form */
	};
	unsigned long		data;		/* public: the 2.6 form's argument */
	uint64_t		stamp;		/* private: when scheduled, while histograms record */
};

#define IRQKIT_TASKLET_STATE_SCHED	(1ul << 0)
#define IRQKIT_TASKLET_STATE_RUN	(1ul << 1)
#define IRQKIT__TASKLET_STATE_OFF_ONE	(1ul << 8)	/* private: one level of disable */

#define IRQKIT_TASKLET_INIT(cb, disabled)					\
	{ .state = (unsigned long)(disabled) * IRQKIT__TASKLET_STATE_OFF_ONE,	\
	  .count = (disabled), .use_callback = true, .callback = (cb) }
#define IRQKIT_TASKLET_INIT_26(fn, d, disabled)					\
	{ .state = (unsigned long)(disabled) * IRQKIT__TASKLET_STATE_OFF_ONE,	\
	  .count = (disabled), .use_callback = false, .func = (fn), .data = (d) }

/** irqkit_tasklet_init - the 2.6 form: @func(@data).  Context: any. */
IRQKIT_API void irqkit_tasklet_init(struct irqkit_tasklet *t, void (*func)(unsigned long),
				    unsigned long data);
/** irqkit_tasklet_setup - the modern form: @callback(t); find your object with container_of. */
IRQKIT_API void irqkit_tasklet_setup(struct irqkit_tasklet *t,
				     void (*callback)(struct irqkit_tasklet *));

/**
 * irqkit_tasklet_schedule - queue @t on the caller's CPU unless already scheduled
 *
 * An unbound thread counts as CPU 0.  Scheduling an uninitialised tasklet (no
 * function) is refused with a warning.
 * Context: any.
 */
IRQKIT_API void irqkit_tasklet_schedule(struct irqkit_tasklet *t);
/** irqkit_tasklet_hi_schedule - the same on the HI list, which runs before every vector. */
IRQKIT_API void irqkit_tasklet_hi_schedule(struct irqkit_tasklet *t);

/** irqkit_tasklet_disable_nosync - count++, no wait.  Context: any. */
IRQKIT_API void irqkit_tasklet_disable_nosync(struct irqkit_tasklet *t);
/**
 * irqkit_tasklet_disable - count++ and wait until @t is not running
 * Context: process context (may sleep); from the tasklet itself it reports
 * the deadlock instead of waiting.
 */
IRQKIT_API void irqkit_tasklet_disable(struct irqkit_tasklet *t);
/** irqkit_tasklet_enable - count--; runs nothing by itself. */
IRQKIT_API void irqkit_tasklet_enable(struct irqkit_tasklet *t);

/**
 * irqkit_tasklet_kill - wait until @t is neither scheduled nor running
 *
 * Context: process context (may sleep).  From interrupt context Linux says
 * "Attempt to kill tasklet from interrupt"; from the tasklet itself, or on a
 * tasklet that is disabled and scheduled (Linux never returns), irqkit
 * reports the deadlock and returns.
 */
IRQKIT_API void irqkit_tasklet_kill(struct irqkit_tasklet *t);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_SOFTIRQ_H */
