/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/jiffies.h> over irqkit.  HZ is set at start-up
 * (irqkit_config.hz, default 1000), so here it is a value read at run time,
 * not a constant: `#if HZ > 100` cannot work.
 */
#ifndef IRQKIT_COMPAT_LINUX_JIFFIES_H
#define IRQKIT_COMPAT_LINUX_JIFFIES_H

#include <irqkit/timer.h>

#define jiffies			irqkit_jiffies()
#define HZ			irqkit_hz()
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
#define time_is_after_jiffies(a)	time_before(jiffies, a)
#define time_is_before_jiffies(a)	time_after(jiffies, a)

#endif
