/* SPDX-License-Identifier: MIT */
/* Kernel timers and jiffies: timer_list callbacks run in TIMER softirq context. */
#ifndef IRQKIT_TIMER_H
#define IRQKIT_TIMER_H

#include <irqkit/types.h>
#include <irqkit/config.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Jiffies as Linux counts them: they start at INITIAL_JIFFIES, 300 seconds
 * before a 32-bit count wraps, so that code keeping jiffies in 32 bits, or
 * comparing them without time_after(), fails five minutes into a run rather
 * than after 49 days.  (With a 64-bit unsigned long, as in Linux, the count
 * itself only crosses 2^32 then.)
 */
#define IRQKIT_INITIAL_JIFFIES(hz)	((unsigned long)(unsigned int)(-300 * (int)(hz)))

/**
 * irqkit_jiffies - the jiffies count now.  Reading the clock, it also brings
 * irqkit_jiffies_value and irqkit_jiffies_64_value up to date.  Context: any.
 */
IRQKIT_API unsigned long irqkit_jiffies(void);
/** irqkit_get_jiffies_64 - the same, 64 bits wide.  Context: any. */
IRQKIT_API uint64_t irqkit_get_jiffies_64(void);
/**
 * irqkit_ktime_get_ns - irqkit's monotonic clock, in ns since the runtime
 * started (Linux's ktime_get_ns(), since boot): the clock jiffies and the
 * timers follow, virtual in deterministic mode (irqkit_clock_advance())
 * and in the simulator, the host's monotonic clock otherwise.
 * Context: any.
 */
IRQKIT_API uint64_t irqkit_ktime_get_ns(void);
/**
 * irqkit_ktime_get_real_ns - the real-time clock (Linux's ktime_get_real_ns()):
 * irqkit's clock plus the host's time of day at start, in ns since 1970, so
 * it moves with the virtual clock where that one is.  Context: any.
 */
IRQKIT_API int64_t irqkit_ktime_get_real_ns(void);
IRQKIT_API unsigned int irqkit_hz(void);

/*
 * Linux's jiffies and jiffies_64 as objects, for code that reads them as
 * variables.  irqkit_jiffies() and the other time calls, the timer interrupt
 * and TIMER_SOFTIRQ always bring them up to date.  A program that reads them
 * (it includes <linux/jiffies.h>, whose constructor calls
 * irqkit_jiffies_object_used() before main) also gets them brought up to
 * date at each wake-up of a dispatcher, ksoftirqd, worker or irq thread, in
 * the waits and delays (schedule(), wait_event(), udelay(), cpu_relax() ...),
 * and by a tick, NO_HZ-style: HZ times a second while the runtime is active,
 * stopping 10 seconds after the last of those points, so the objects are
 * exact to a tick while anything happens and an idle runtime sleeps.  A bare
 * spin on them that calls nothing sees them move for those 10 seconds;
 * IRQKIT_CFG_PERIODIC_TICK keeps the tick on for good.  Programs that do not
 * read them pay for none of this.
 */
IRQKIT_API extern volatile unsigned long irqkit_jiffies_value;
IRQKIT_API extern volatile uint64_t irqkit_jiffies_64_value;
IRQKIT_API void irqkit_jiffies_object_used(void);

/* Conversions, rounding up as Linux does: a positive delay is at least one tick. */
IRQKIT_API unsigned long irqkit_msecs_to_jiffies(unsigned int ms);
IRQKIT_API unsigned long irqkit_usecs_to_jiffies(unsigned int us);
IRQKIT_API unsigned int irqkit_jiffies_to_msecs(unsigned long j);
IRQKIT_API unsigned int irqkit_jiffies_to_usecs(unsigned long j);

/* Wrap-safe comparisons (include/linux/jiffies.h). */
#define irqkit_time_after(a, b)		((long)((b) - (a)) < 0)
#define irqkit_time_before(a, b)	irqkit_time_after(b, a)
#define irqkit_time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define irqkit_time_before_eq(a, b)	irqkit_time_after_eq(b, a)
#define irqkit_time_in_range(a, b, c)	(irqkit_time_after_eq(a, b) && irqkit_time_before_eq(a, c))

/*
 * struct irqkit_timer_list - Linux's struct timer_list.  Set up with
 * irqkit_timer_setup(); then set @expires (a jiffies value) and add_timer, or
 * use mod_timer.  The callback runs once, in TIMER softirq context, on the CPU
 * that armed the timer (an unbound thread arms on CPU 0).
 */
struct irqkit_timer_list {
	unsigned long		expires;	/* public: jiffies */
	void			(*function)(struct irqkit_timer_list *timer);	/* public */
	unsigned int		flags;		/* public: IRQKIT_TIMER_* */
	/* private */
	struct irqkit__heap_node	node;		/* in its CPU's queue */
	unsigned int		base;		/* armed on CPU base - 1; 0 if not (so a zeroed timer is idle) */
	unsigned long		seq;		/* arming order, to break ties */
};

#define IRQKIT_TIMER_IRQSAFE	0x00200000u	/* del_timer_sync allowed from hardirq */
#define IRQKIT_TIMER_PINNED	0x00400000u

IRQKIT_API void irqkit_timer_setup(struct irqkit_timer_list *timer,
				   void (*fn)(struct irqkit_timer_list *), unsigned int flags);

/** irqkit_timer_pending - is the timer armed?  Context: any. */
IRQKIT_API bool irqkit_timer_pending(const struct irqkit_timer_list *timer);

/**
 * irqkit_add_timer - arm at timer->expires.  Warns and does nothing if the
 * timer is already pending (modern Linux WARN_ON_ONCE).  Context: any.
 */
IRQKIT_API void irqkit_add_timer(struct irqkit_timer_list *timer);

/**
 * irqkit_mod_timer - (re)arm at @expires on the caller's CPU
 * Context: any.  Return: 1 if the timer was pending (modified), 0 if not.
 */
IRQKIT_API int irqkit_mod_timer(struct irqkit_timer_list *timer, unsigned long expires);

/** irqkit_del_timer - disarm.  Does not wait for a running callback.  Return: 1 if it was pending. */
IRQKIT_API int irqkit_del_timer(struct irqkit_timer_list *timer);

/**
 * irqkit_del_timer_sync - disarm and wait until the callback is not running
 *
 * Context: process context, or hardirq for an IRQSAFE timer.  From the
 * callback itself (Linux deadlocks) irqkit reports it and does not wait.
 * Return: 1 if the timer was pending.
 */
IRQKIT_API int irqkit_del_timer_sync(struct irqkit_timer_list *timer);

/** irqkit_msleep - sleep at least @ms milliseconds.  Context: process context (may sleep). */
IRQKIT_API void irqkit_msleep(unsigned int ms);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_TIMER_H */
