/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/sched.h> over irqkit, for driver code: current (pid, comm),
 * task states, schedule(), schedule_timeout(), wake_up_process(), and the
 * signal tests Linux kept here until 4.11 moved them to
 * <linux/sched/signal.h> (signal_pending(), fatal_signal_pending()).  The
 * system's <linux/sched.h> (clone flags, included by some libc headers)
 * comes first.
 */
#ifndef IRQKIT_COMPAT_LINUX_SCHED_H
#define IRQKIT_COMPAT_LINUX_SCHED_H

#include_next <linux/sched.h>
#include <irqkit/sched.h>
#include <irqkit/signal.h>
#include <linux/jiffies.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/barrier.h>
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/time.h>
#include <asm/page.h>

#define task_struct			irqkit_task
#define TASK_COMM_LEN			16
#define current				irqkit_current()

#define TASK_RUNNING			IRQKIT_TASK_RUNNING
#define TASK_INTERRUPTIBLE		IRQKIT_TASK_INTERRUPTIBLE
#define TASK_UNINTERRUPTIBLE		IRQKIT_TASK_UNINTERRUPTIBLE
#define TASK_NORMAL			IRQKIT_TASK_NORMAL
#define TASK_PARKED			IRQKIT_TASK_PARKED
#define TASK_DEAD			IRQKIT_TASK_DEAD
#define TASK_WAKEKILL			IRQKIT_TASK_WAKEKILL
#define TASK_NOLOAD			IRQKIT_TASK_NOLOAD
#define TASK_KILLABLE			IRQKIT_TASK_KILLABLE
#define TASK_IDLE			IRQKIT_TASK_IDLE
#define MAX_SCHEDULE_TIMEOUT		IRQKIT_MAX_SCHEDULE_TIMEOUT

#define set_current_state(s)		irqkit_set_current_state(s)
#define __set_current_state(s)		irqkit___set_current_state(s)
#define schedule()			irqkit_schedule()
#define schedule_timeout(t)		irqkit_schedule_timeout(t)
#define schedule_timeout_interruptible(t)	irqkit_schedule_timeout_interruptible(t)
#define schedule_timeout_uninterruptible(t)	irqkit_schedule_timeout_uninterruptible(t)
#define schedule_timeout_killable(t)	irqkit_schedule_timeout_killable(t)
#define wake_up_process(p)		irqkit_wake_up_process(p)
#define wake_up_state(p, s)		irqkit_wake_up_state((p), (s))
#define yield()				irqkit_schedule()
/* cond_resched: a pause where Linux would let another task run; its value, as Linux's, 0 */
static inline int irqkit__cond_resched(void)
{
	irqkit_cpu_relax();
	return 0;
}
#define cond_resched()			irqkit__cond_resched()
#define need_resched()			0
#define signal_pending(p)		irqkit_signal_pending(p)
#define fatal_signal_pending(p)		irqkit_fatal_signal_pending(p)
#define task_pid_nr(p)			((p)->pid)

#define might_sleep()			irqkit_might_sleep(__FILE__, __LINE__)
#define might_sleep_if(cond)		do { if (cond) might_sleep(); } while (0)

/* as Linux's <linux/sched.h> brings them: drivers count on it */
#include <linux/wait.h>

#endif
