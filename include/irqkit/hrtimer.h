/* SPDX-License-Identifier: MIT */
/*
 * High-resolution timers (Linux's <linux/hrtimer.h>): a callback at a time
 * given in nanoseconds, in hardirq context on the CPU the timer was started
 * on (HRTIMER_MODE_SOFT: in HRTIMER_SOFTIRQ context there), that may
 * restart itself by forwarding its expiry and returning
 * IRQKIT_HRTIMER_RESTART.
 *
 * Each CPU has two queues, hard and soft.  The expiry of the earliest timer
 * of all is the platform's one-shot timer's deadline (the one that also
 * drives the jiffies tick); when it fires, each CPU with a timer due takes
 * its local timer interrupt (the "LOC" row of /proc/interrupts), which runs
 * the hard timers due and raises HRTIMER_SOFTIRQ for the soft ones.  In
 * deterministic mode irqkit_clock_advance() steps the virtual clock from
 * expiry to expiry, as it does for timer_list; in the simulator the timer
 * runs in virtual time.  Nothing is programmed while no timer is queued.
 *
 * A thread bound to no CPU starts a timer on CPU 0, as it arms a
 * timer_list there.  A timer whose callback runs on some CPU stays on that
 * CPU when started again (Linux does not move a running timer's base).
 * The clock bases are irqkit's clock (IRQKIT_CLOCK_MONOTONIC, and
 * BOOTTIME, the same clock: a run never suspends) and the real-time clock
 * (IRQKIT_CLOCK_REALTIME, and TAI, the same with an offset of 0), which is
 * irqkit's clock plus the host's real time at start: an absolute real-time
 * expiry is fixed against the monotonic clock when the timer starts, so a
 * change of the host's time of day later does not move it (Linux's
 * clock_was_set() would).
 */
#ifndef IRQKIT_HRTIMER_H
#define IRQKIT_HRTIMER_H

#include <irqkit/types.h>
#include <irqkit/config.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The callback's answer. */
enum irqkit_hrtimer_restart {
	IRQKIT_HRTIMER_NORESTART,	/* done */
	IRQKIT_HRTIMER_RESTART,		/* queue it again at its (forwarded) expiry */
};

/* Modes: Linux's enum hrtimer_mode bits. */
#define IRQKIT_HRTIMER_MODE_ABS		0x00u	/* the time is absolute, on the timer's clock */
#define IRQKIT_HRTIMER_MODE_REL		0x01u	/* the time is from now */
#define IRQKIT_HRTIMER_MODE_PINNED	0x02u	/* on the starting CPU (every timer is, here) */
#define IRQKIT_HRTIMER_MODE_SOFT	0x04u	/* the callback in HRTIMER_SOFTIRQ context */
#define IRQKIT_HRTIMER_MODE_HARD	0x08u	/* the callback in hardirq context (the default) */

/* Clocks: Linux's (and POSIX's) clockid_t numbers. */
#define IRQKIT_CLOCK_REALTIME		0
#define IRQKIT_CLOCK_MONOTONIC		1
#define IRQKIT_CLOCK_BOOTTIME		7
#define IRQKIT_CLOCK_TAI		11

/*
 * struct irqkit_hrtimer - Linux's struct hrtimer.  Set up with
 * irqkit_hrtimer_setup() (or _init, then set @function), then started.
 * Times are nanoseconds on the timer's clock.
 */
struct irqkit_hrtimer {
	int64_t			softexpires;	/* the earliest expiry: what was asked */
	int64_t			expires;	/* the latest: softexpires + the range's slack */
	enum irqkit_hrtimer_restart (*function)(struct irqkit_hrtimer *timer);	/* public */
	/* private */
	struct irqkit__heap_node node;		/* in its CPU's queue */
	uint64_t		key;		/* expires on irqkit's clock, the queue's order */
	unsigned long		seq;		/* starting order, to break ties */
	unsigned int		cpu;		/* 1 + the CPU of its queue or callback; 0: none yet */
	unsigned int		setup;		/* set by irqkit_hrtimer_setup: a timer never set up is refused */
	unsigned char		state;		/* queued */
	unsigned char		clock;		/* 0 monotonic, 1 real time */
	bool			is_rel, is_soft;
	bool			is_hard;	/* HRTIMER_MODE_HARD: spins on PREEMPT_RT too (the validator's) */
};

/**
 * irqkit_hrtimer_setup - set @timer up to call @function on @clock_id's
 * time, in hardirq context, or in softirq context if @mode has
 * IRQKIT_HRTIMER_MODE_SOFT.  An unknown clock is refused (a warning; the
 * timer stays unusable).  Context: any.
 */
IRQKIT_API void irqkit_hrtimer_setup(struct irqkit_hrtimer *timer,
				     enum irqkit_hrtimer_restart (*function)(struct irqkit_hrtimer *),
				     int clock_id, unsigned int mode);

/**
 * irqkit_hrtimer_start_range_ns - queue @timer at @tim (IRQKIT_HRTIMER_MODE_REL:
 * @tim from now), at most @range_ns later, on the caller's CPU.  A timer
 * queued already is moved.  An expiry in the past fires at once.  A timer
 * never set up is refused with a warning.  Context: any.
 */
IRQKIT_API void irqkit_hrtimer_start_range_ns(struct irqkit_hrtimer *timer, int64_t tim,
					      uint64_t range_ns, unsigned int mode);

/**
 * irqkit_hrtimer_try_to_cancel - take @timer out of its queue.
 * Context: any.  Return: 0 if it was not queued, 1 if it was (now not),
 * -1 if its callback runs now (then it is left as it is).
 */
IRQKIT_API int irqkit_hrtimer_try_to_cancel(struct irqkit_hrtimer *timer);

/**
 * irqkit_hrtimer_cancel - take @timer out of its queue and wait until its
 * callback does not run.  From the callback itself (where Linux waits for
 * ever) irqkit reports it and does not wait.  Context: where the callback
 * cannot run under the caller: process context, or another CPU's.
 * Return: 1 if it was active (queued or running), 0 if not.
 */
IRQKIT_API int irqkit_hrtimer_cancel(struct irqkit_hrtimer *timer);

/**
 * irqkit_hrtimer_forward - move @timer's expiry forward by whole @interval
 * steps (at least 1 ns) until it is after @now.  Context: the callback, or
 * wherever the timer is not queued (a queued timer: a warning, nothing
 * moved).  Return: the steps taken (the overruns), 0 if it was after @now.
 */
IRQKIT_API uint64_t irqkit_hrtimer_forward(struct irqkit_hrtimer *timer, int64_t now,
					   int64_t interval);

/** irqkit_hrtimer_now - the time now on @timer's clock.  Context: any. */
IRQKIT_API int64_t irqkit_hrtimer_now(const struct irqkit_hrtimer *timer);

/** irqkit_hrtimer_active - queued, or its callback running?  Context: any. */
IRQKIT_API bool irqkit_hrtimer_active(const struct irqkit_hrtimer *timer);

/** irqkit_hrtimer_is_queued - queued?  Context: any. */
IRQKIT_API bool irqkit_hrtimer_is_queued(const struct irqkit_hrtimer *timer);

/** irqkit_hrtimer_callback_running - does its callback run now?  Context: any. */
IRQKIT_API bool irqkit_hrtimer_callback_running(const struct irqkit_hrtimer *timer);

/** irqkit_hrtimer_get_remaining - its (latest) expiry minus now.  Context: any. */
IRQKIT_API int64_t irqkit_hrtimer_get_remaining(const struct irqkit_hrtimer *timer);

/**
 * irqkit_show_timer_list - a listing in the manner of /proc/timer_list: per
 * CPU, the queued high-resolution timers in expiry order (callback, soft or
 * hard, expiry and time left), then the jiffy timers' next expiry.
 * snprintf's contract.  Context: process context.
 * Return: the length, or -EINVAL when the runtime is stopped.
 */
IRQKIT_API int irqkit_show_timer_list(char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_HRTIMER_H */
