/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/hrtimer.h> over irqkit (<irqkit/hrtimer.h>): high-resolution
 * timers, the callback in hardirq context on the starting CPU (softirq
 * context with HRTIMER_MODE_SOFT), restarting itself with
 * hrtimer_forward_now() and HRTIMER_RESTART.
 *
 * Names by LINUX_VERSION_CODE (<linux/version.h>): hrtimers are 2.6.16 and
 * later; HRTIMER_ABS/HRTIMER_REL until 2.6.20, HRTIMER_MODE_ABS/_REL from
 * 2.6.21; _PINNED from 2.6.31, _SOFT from 4.16, _HARD from 5.4;
 * hrtimer_init() until 6.14, hrtimer_setup() from 6.13.  A name of another
 * version stops the build and names the version that has it.  The callback
 * takes the struct hrtimer * (2.6.16's first form, a void *data, is not
 * provided).
 */
#ifndef IRQKIT_COMPAT_LINUX_HRTIMER_H
#define IRQKIT_COMPAT_LINUX_HRTIMER_H

#include <irqkit/hrtimer.h>
#include <linux/version.h>
#include <linux/ktime.h>
#include <linux/spinlock.h>	/* Linux's reaches it (and preempt.h) through seqlock.h */

#if !IRQKIT_LINUX_AT_LEAST(2, 6, 16)
#error "<linux/hrtimer.h>: high-resolution timers are Linux 2.6.16 and later: build with IRQKIT_LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,16)"
#endif

#define hrtimer			irqkit_hrtimer
#define hrtimer_restart		irqkit_hrtimer_restart
#define HRTIMER_NORESTART	IRQKIT_HRTIMER_NORESTART
#define HRTIMER_RESTART		IRQKIT_HRTIMER_RESTART

#define IRQKIT__HRTIMER_NEEDS(name, ver, how)						\
	IRQKIT_ERA_ERROR(name " is Linux " ver ": build with IRQKIT_LINUX_VERSION_CODE " how)

#if IRQKIT_LINUX_AT_LEAST(2, 6, 21)
enum hrtimer_mode {
	HRTIMER_MODE_ABS	= IRQKIT_HRTIMER_MODE_ABS,
	HRTIMER_MODE_REL	= IRQKIT_HRTIMER_MODE_REL,
};
#define HRTIMER_ABS	IRQKIT__HRTIMER_NEEDS("HRTIMER_ABS", "2.6.16 to 2.6.20 (then HRTIMER_MODE_ABS)", \
					      "< KERNEL_VERSION(2,6,21), or use HRTIMER_MODE_ABS")
#define HRTIMER_REL	IRQKIT__HRTIMER_NEEDS("HRTIMER_REL", "2.6.16 to 2.6.20 (then HRTIMER_MODE_REL)", \
					      "< KERNEL_VERSION(2,6,21), or use HRTIMER_MODE_REL")
#else
enum hrtimer_mode {
	HRTIMER_ABS		= IRQKIT_HRTIMER_MODE_ABS,
	HRTIMER_REL		= IRQKIT_HRTIMER_MODE_REL,
};
#define HRTIMER_MODE_ABS	IRQKIT__HRTIMER_NEEDS("HRTIMER_MODE_ABS", "2.6.21 and later",	\
						      ">= KERNEL_VERSION(2,6,21), or use HRTIMER_ABS")
#define HRTIMER_MODE_REL	IRQKIT__HRTIMER_NEEDS("HRTIMER_MODE_REL", "2.6.21 and later",	\
						      ">= KERNEL_VERSION(2,6,21), or use HRTIMER_REL")
#endif

/* The other mode bits, each from its version (an int: they combine with |). */
#if IRQKIT_LINUX_AT_LEAST(2, 6, 31)
#define HRTIMER_MODE_PINNED		IRQKIT_HRTIMER_MODE_PINNED
#else
#define HRTIMER_MODE_PINNED		IRQKIT__HRTIMER_NEEDS("HRTIMER_MODE_PINNED", "2.6.31 and later", \
								      ">= KERNEL_VERSION(2,6,31)")
#endif
#define HRTIMER_MODE_ABS_PINNED		(HRTIMER_MODE_ABS | HRTIMER_MODE_PINNED)
#define HRTIMER_MODE_REL_PINNED		(HRTIMER_MODE_REL | HRTIMER_MODE_PINNED)
#if IRQKIT_LINUX_AT_LEAST(4, 16, 0)
#define HRTIMER_MODE_SOFT		IRQKIT_HRTIMER_MODE_SOFT
#else
#define HRTIMER_MODE_SOFT		IRQKIT__HRTIMER_NEEDS("HRTIMER_MODE_SOFT", "4.16 and later", \
								      ">= KERNEL_VERSION(4,16,0)")
#endif
#define HRTIMER_MODE_ABS_SOFT		(HRTIMER_MODE_ABS | HRTIMER_MODE_SOFT)
#define HRTIMER_MODE_REL_SOFT		(HRTIMER_MODE_REL | HRTIMER_MODE_SOFT)
#define HRTIMER_MODE_ABS_PINNED_SOFT	(HRTIMER_MODE_ABS_PINNED | HRTIMER_MODE_SOFT)
#define HRTIMER_MODE_REL_PINNED_SOFT	(HRTIMER_MODE_REL_PINNED | HRTIMER_MODE_SOFT)
#if IRQKIT_LINUX_AT_LEAST(5, 4, 0)
#define HRTIMER_MODE_HARD		IRQKIT_HRTIMER_MODE_HARD
#else
#define HRTIMER_MODE_HARD		IRQKIT__HRTIMER_NEEDS("HRTIMER_MODE_HARD", "5.4 and later", \
								      ">= KERNEL_VERSION(5,4,0)")
#endif
#define HRTIMER_MODE_ABS_HARD		(HRTIMER_MODE_ABS | HRTIMER_MODE_HARD)
#define HRTIMER_MODE_REL_HARD		(HRTIMER_MODE_REL | HRTIMER_MODE_HARD)
#define HRTIMER_MODE_ABS_PINNED_HARD	(HRTIMER_MODE_ABS_PINNED | HRTIMER_MODE_HARD)
#define HRTIMER_MODE_REL_PINNED_HARD	(HRTIMER_MODE_REL_PINNED | HRTIMER_MODE_HARD)

/* Setting up: hrtimer_init (then ->function) until 6.14, hrtimer_setup from 6.13. */
#if !IRQKIT_LINUX_AT_LEAST(6, 15, 0)
#define hrtimer_init(timer, clock_id, mode)						\
	irqkit_hrtimer_setup((timer), NULL, (clock_id), (unsigned int)(mode))
#else
#define hrtimer_init(timer, clock_id, mode)						\
	IRQKIT__HRTIMER_NEEDS("hrtimer_init()", "2.6.16 to 6.14 (gone in 6.15)",		\
			      "< KERNEL_VERSION(6,15,0), or use hrtimer_setup()")
#endif
#if IRQKIT_LINUX_AT_LEAST(6, 13, 0)
#define hrtimer_setup(timer, function, clock_id, mode)					\
	irqkit_hrtimer_setup((timer), (function), (clock_id), (unsigned int)(mode))
#else
#define hrtimer_setup(timer, function, clock_id, mode)					\
	IRQKIT__HRTIMER_NEEDS("hrtimer_setup()", "6.13 and later",				\
			      ">= KERNEL_VERSION(6,13,0), or use hrtimer_init()")
#endif

/*
 * The on-stack forms: Linux tells its debug-objects checker that the timer
 * lives on the stack; irqkit has no such checker, so they are the plain
 * forms, and destroying one is nothing to do.
 */
#if IRQKIT_LINUX_AT_LEAST(6, 13, 0)
#define hrtimer_setup_on_stack(timer, function, clock_id, mode)			\
	hrtimer_setup((timer), (function), (clock_id), (mode))
#else
#define hrtimer_setup_on_stack(timer, function, clock_id, mode)			\
	IRQKIT__HRTIMER_NEEDS("hrtimer_setup_on_stack()", "6.13 and later",		\
			      ">= KERNEL_VERSION(6,13,0), or use hrtimer_init_on_stack()")
#endif
#if !IRQKIT_LINUX_AT_LEAST(6, 15, 0)
#define hrtimer_init_on_stack(timer, clock_id, mode)	hrtimer_init((timer), (clock_id), (mode))
#else
#define hrtimer_init_on_stack(timer, clock_id, mode)					\
	IRQKIT__HRTIMER_NEEDS("hrtimer_init_on_stack()", "2.6.30 to 6.14 (gone in 6.15)",	\
			      "< KERNEL_VERSION(6,15,0), or use hrtimer_setup_on_stack()")
#endif
#define destroy_hrtimer_on_stack(timer)	((void)(timer))

#define hrtimer_start_range_ns(timer, tim, delta_ns, mode)				\
	irqkit_hrtimer_start_range_ns((timer), (tim), (delta_ns), (unsigned int)(mode))
#define hrtimer_start(timer, tim, mode)	hrtimer_start_range_ns((timer), (tim), 0, (mode))
#define hrtimer_try_to_cancel(timer)	irqkit_hrtimer_try_to_cancel(timer)
#define hrtimer_cancel(timer)		irqkit_hrtimer_cancel(timer)
#define hrtimer_forward(timer, now, interval)	irqkit_hrtimer_forward((timer), (now), (interval))
#define hrtimer_forward_now(timer, interval)						\
	irqkit_hrtimer_forward((timer), irqkit_hrtimer_now(timer), (interval))
#define hrtimer_active(timer)		irqkit_hrtimer_active(timer)
#define hrtimer_is_queued(timer)	irqkit_hrtimer_is_queued(timer)
#define hrtimer_callback_running(timer)	irqkit_hrtimer_callback_running(timer)
#define hrtimer_get_remaining(timer)	irqkit_hrtimer_get_remaining(timer)
#define hrtimer_cb_get_time(timer)	irqkit_hrtimer_now(timer)

/* The expiry fields, through Linux's accessors */
static inline void hrtimer_set_expires(struct irqkit_hrtimer *timer, ktime_t time)
{
	timer->softexpires = timer->expires = time;
}
static inline void hrtimer_set_expires_range_ns(struct irqkit_hrtimer *timer, ktime_t time,
						uint64_t delta)
{
	timer->softexpires = time;
	timer->expires = time + (ktime_t)delta;
}
static inline ktime_t hrtimer_get_expires(const struct irqkit_hrtimer *timer)
{
	return timer->expires;
}
static inline ktime_t hrtimer_get_softexpires(const struct irqkit_hrtimer *timer)
{
	return timer->softexpires;
}
static inline int64_t hrtimer_get_expires_ns(const struct irqkit_hrtimer *timer)
{
	return timer->expires;
}
static inline ktime_t hrtimer_expires_remaining(const struct irqkit_hrtimer *timer)
{
	return irqkit_hrtimer_get_remaining(timer);
}
static inline void hrtimer_add_expires_ns(struct irqkit_hrtimer *timer, uint64_t ns)
{
	timer->expires += (ktime_t)ns;
	timer->softexpires += (ktime_t)ns;
}
/* Start again at the expiry it holds (after hrtimer_forward outside the callback). */
static inline void hrtimer_start_expires(struct irqkit_hrtimer *timer, unsigned int mode)
{
	irqkit_hrtimer_start_range_ns(timer, timer->softexpires,
				      (uint64_t)(timer->expires - timer->softexpires), mode);
}
static inline void hrtimer_restart(struct irqkit_hrtimer *timer)
{
	hrtimer_start_expires(timer, IRQKIT_HRTIMER_MODE_ABS);
}

#endif
