/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/delay.h> over irqkit: ndelay/udelay/mdelay busy-wait (any
 * context); msleep, msleep_interruptible, ssleep and usleep_range sleep
 * (process context).
 */
#ifndef IRQKIT_COMPAT_LINUX_DELAY_H
#define IRQKIT_COMPAT_LINUX_DELAY_H

#include <irqkit/timer.h>
#include <irqkit/sched.h>

#define ndelay(ns)		irqkit_ndelay(ns)
#define udelay(us)		irqkit_udelay(us)
#define mdelay(ms)		irqkit_mdelay(ms)
#define msleep(ms)		irqkit_msleep(ms)
#define msleep_interruptible(ms) irqkit_msleep_interruptible(ms)
#define ssleep(s)		irqkit_msleep((s) * 1000u)
#define usleep_range(lo, hi)	irqkit_usleep_range((lo), (hi))
#define fsleep(us)		irqkit_usleep_range((us), (us))

#endif
