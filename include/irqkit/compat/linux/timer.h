/* SPDX-License-Identifier: MIT */
/* Linux's <linux/timer.h> over irqkit: timer_list, callbacks in TIMER softirq. */
#ifndef IRQKIT_COMPAT_LINUX_TIMER_H
#define IRQKIT_COMPAT_LINUX_TIMER_H

#include <stddef.h>
#include <irqkit/timer.h>
#include <linux/jiffies.h>
#include <linux/container_of.h>

#define timer_list		irqkit_timer_list
#define TIMER_IRQSAFE		IRQKIT_TIMER_IRQSAFE
#define TIMER_PINNED		IRQKIT_TIMER_PINNED

#define timer_setup(timer, callback, flags)	irqkit_timer_setup((timer), (callback), (flags))
#define add_timer(timer)			irqkit_add_timer(timer)
#define mod_timer(timer, expires)		irqkit_mod_timer((timer), (expires))
#define del_timer(timer)			irqkit_del_timer(timer)
#define del_timer_sync(timer)			irqkit_del_timer_sync(timer)
/*
 * Linux 6.2's timer_delete()/timer_delete_sync() are not provided: timer_delete
 * is POSIX's <time.h> function, and a macro of that name would rewrite libc's
 * prototype in any file that includes both.  Use del_timer/del_timer_sync.
 */
#define timer_pending(timer)			irqkit_timer_pending(timer)

/* from_timer(var, callback_timer, timer_fieldname): the object holding the timer */
#define from_timer(var, callback_timer, timer_fieldname)				\
	((__typeof__(var))((char *)(callback_timer) -					\
			   offsetof(__typeof__(*(var)), timer_fieldname)))
#define timer_container_of(var, callback_timer, timer_fieldname)			\
	from_timer(var, callback_timer, timer_fieldname)

#endif
