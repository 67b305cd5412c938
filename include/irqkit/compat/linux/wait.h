/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/wait.h> over irqkit: wait queues.  In versions before
 * 3.15, 2.6's sleep_on() family too (it races: prefer wait_event()).
 *
 * Unlike <linux/kernel.h> and friends, this does not include the system's
 * <linux/wait.h>: no libc header needs it, and its P_ALL macros break
 * libc's <sys/wait.h> when both are included.
 */
#ifndef IRQKIT_COMPAT_LINUX_WAIT_H
#define IRQKIT_COMPAT_LINUX_WAIT_H
#include <irqkit/wait.h>
#include <linux/version.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

#define wait_queue_head			irqkit_wait_queue_head
#define wait_queue_entry		irqkit_wait_queue_entry
typedef struct irqkit_wait_queue_head	wait_queue_head_t;
typedef struct irqkit_wait_queue_entry	wait_queue_entry_t;
typedef struct irqkit_wait_queue_entry	wait_queue_t;		/* before 4.13 */
typedef irqkit_wait_queue_func_t	wait_queue_func_t;
#define WQ_FLAG_EXCLUSIVE		IRQKIT_WQ_FLAG_EXCLUSIVE

#define __WAIT_QUEUE_HEAD_INITIALIZER(name)	IRQKIT_WAIT_QUEUE_HEAD_INIT(name)
#define DECLARE_WAIT_QUEUE_HEAD(name)						\
	wait_queue_head_t name = IRQKIT_WAIT_QUEUE_HEAD_INIT(name)
#define init_waitqueue_head(wq)		irqkit_init_waitqueue_head(wq)

#define __WAITQUEUE_INITIALIZER(name, tsk) {						\
	.private = (tsk), .func = irqkit_default_wake_function,			\
	.entry = IRQKIT_LIST_HEAD_INIT((name).entry) }
#define DECLARE_WAITQUEUE(name, tsk)							\
	wait_queue_entry_t name = __WAITQUEUE_INITIALIZER(name, tsk)
#define DEFINE_WAIT_FUNC(name, function)						\
	wait_queue_entry_t name = { .private = irqkit_current(), .func = (function),	\
				    .entry = IRQKIT_LIST_HEAD_INIT((name).entry) }
#define DEFINE_WAIT(name)		DEFINE_WAIT_FUNC(name, irqkit_autoremove_wake_function)
#define init_wait(wait)			irqkit_init_wait_entry((wait), 0)
#define autoremove_wake_function	irqkit_autoremove_wake_function
#define default_wake_function		irqkit_default_wake_function

#define add_wait_queue(wq, w)		irqkit_add_wait_queue((wq), (w))
#define add_wait_queue_exclusive(wq, w)	irqkit_add_wait_queue_exclusive((wq), (w))
#define remove_wait_queue(wq, w)	irqkit_remove_wait_queue((wq), (w))
#define waitqueue_active(wq)		irqkit_waitqueue_active(wq)
#define prepare_to_wait(wq, w, s)	irqkit_prepare_to_wait((wq), (w), (s))
#define prepare_to_wait_exclusive(wq, w, s) irqkit_prepare_to_wait_exclusive((wq), (w), (s))
#define finish_wait(wq, w)		irqkit_finish_wait((wq), (w))

#define wake_up(x)			irqkit_wake_up(x)
#define wake_up_nr(x, nr)		irqkit_wake_up_nr((x), (nr))
#define wake_up_all(x)			irqkit_wake_up_all(x)
#define wake_up_interruptible(x)	irqkit_wake_up_interruptible(x)
#define wake_up_interruptible_all(x)	irqkit_wake_up_interruptible_all(x)
#define wake_up_interruptible_nr(x, nr)	irqkit___wake_up((x), TASK_INTERRUPTIBLE, (nr), NULL)

#define wait_event(wq, condition)	irqkit_wait_event(wq, condition)
#define wait_event_interruptible(wq, condition)	irqkit_wait_event_interruptible(wq, condition)
#define wait_event_interruptible_exclusive(wq, condition)				\
	irqkit_wait_event_interruptible_exclusive(wq, condition)
#define wait_event_killable(wq, condition)	irqkit_wait_event_killable(wq, condition)
#define wait_event_timeout(wq, condition, timeout)					\
	irqkit_wait_event_timeout(wq, condition, timeout)
#define wait_event_interruptible_timeout(wq, condition, timeout)			\
	irqkit_wait_event_interruptible_timeout(wq, condition, timeout)

#if !IRQKIT_LINUX_AT_LEAST(3, 15, 0)
#define sleep_on(wq)							\
	((void)irqkit_sleep_on_common((wq), TASK_UNINTERRUPTIBLE, MAX_SCHEDULE_TIMEOUT))
#define interruptible_sleep_on(wq)					\
	((void)irqkit_sleep_on_common((wq), TASK_INTERRUPTIBLE, MAX_SCHEDULE_TIMEOUT))
#define sleep_on_timeout(wq, t)		irqkit_sleep_on_common((wq), TASK_UNINTERRUPTIBLE, (t))
#define interruptible_sleep_on_timeout(wq, t)	irqkit_sleep_on_common((wq), TASK_INTERRUPTIBLE, (t))
#else
#define IRQKIT__SLEEP_ON_GONE(what)							\
	IRQKIT_ERA_ERROR(what "() is gone since Linux 3.15 (it races with the wake-up): "	\
			 "use wait_event(), or build with IRQKIT_LINUX_VERSION_CODE < "	\
			 "KERNEL_VERSION(3,15,0)")
#define sleep_on(wq)					IRQKIT__SLEEP_ON_GONE("sleep_on")
#define interruptible_sleep_on(wq)			IRQKIT__SLEEP_ON_GONE("interruptible_sleep_on")
#define sleep_on_timeout(wq, t)				IRQKIT__SLEEP_ON_GONE("sleep_on_timeout")
#define interruptible_sleep_on_timeout(wq, t)		IRQKIT__SLEEP_ON_GONE("interruptible_sleep_on_timeout")
#endif

#endif
