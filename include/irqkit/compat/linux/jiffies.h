/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/jiffies.h> over irqkit.  HZ is an integer constant, fixed
 * when irqkit was built (IRQKIT_HZ, 1000 by default as the 2.6 kernels of
 * 2.6.0-2.6.12); jiffies and jiffies_64 are objects, starting at
 * INITIAL_JIFFIES (see <irqkit/timer.h> for when they move).
 */
#ifndef IRQKIT_COMPAT_LINUX_JIFFIES_H
#define IRQKIT_COMPAT_LINUX_JIFFIES_H

#include <irqkit/timer.h>
#include <irqkit/sched.h>

/* <sys/param.h> (through asm/param.h) defines HZ 100, user space's tick: ours wins */
#ifdef HZ
#undef HZ
#endif
#define HZ			IRQKIT_HZ
#define USER_HZ			100
#define INITIAL_JIFFIES		IRQKIT_INITIAL_JIFFIES(HZ)

/* a program that reads the objects gets the tick that moves them (see <irqkit/timer.h>) */
static void __attribute__((constructor, used)) irqkit__jiffies_object_user(void)
{
	irqkit_jiffies_object_used();
}

#define jiffies			irqkit_jiffies_value
#define jiffies_64		irqkit_jiffies_64_value
#define get_jiffies_64()	irqkit_get_jiffies_64()
#define MAX_JIFFY_OFFSET	((unsigned long)(~0ul >> 1) - 1)

#define msecs_to_jiffies(m)	irqkit_msecs_to_jiffies(m)
#define usecs_to_jiffies(u)	irqkit_usecs_to_jiffies(u)
#define jiffies_to_msecs(j)	irqkit_jiffies_to_msecs(j)
#define jiffies_to_usecs(j)	irqkit_jiffies_to_usecs(j)

#define time_after(a, b)	irqkit_time_after(a, b)
#define time_before(a, b)	irqkit_time_before(a, b)
#define time_after_eq(a, b)	irqkit_time_after_eq(a, b)
#define time_before_eq(a, b)	irqkit_time_before_eq(a, b)
#define time_in_range(a, b, c)	irqkit_time_in_range(a, b, c)
#define time_in_range_open(a, b, c) (time_after_eq(a, b) && time_before(a, c))
#define time_after64(a, b)	((int64_t)((b) - (a)) < 0)
#define time_before64(a, b)	time_after64(b, a)
#define time_after_eq64(a, b)	((int64_t)((a) - (b)) >= 0)
#define time_before_eq64(a, b)	time_after_eq64(b, a)
#define time_is_after_jiffies(a)	time_before(irqkit_jiffies(), a)
#define time_is_before_jiffies(a)	time_after(irqkit_jiffies(), a)
#define time_is_after_eq_jiffies(a)	time_before_eq(irqkit_jiffies(), a)
#define time_is_before_eq_jiffies(a)	time_after_eq(irqkit_jiffies(), a)

#endif
