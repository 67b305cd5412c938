/* SPDX-License-Identifier: MIT */
/*
 * Sleeping and waking, as Linux's scheduler offers them to drivers: the
 * calling thread's task state, schedule(), schedule_timeout(),
 * wake_up_process(), and the delays of <linux/delay.h>.
 *
 * A thread sleeps when it calls irqkit_schedule() with its state set to
 * IRQKIT_TASK_INTERRUPTIBLE or _UNINTERRUPTIBLE, until a wake-up sets it back
 * to IRQKIT_TASK_RUNNING.  The state is set before the sleeper tests its
 * condition, and a wake-up sets it after the waker made the condition true,
 * so no wake-up is lost (Linux's rule; see <irqkit/wait.h>).  Wake-ups work
 * from any context.  A signal (<irqkit/signal.h>) ends an interruptible
 * sleep, and a fatal one (SIGKILL) a killable sleep, as on Linux: the sleep
 * does not begin, or ends, with the state RUNNING.
 *
 * Deterministic mode: a sleep with a timeout moves the virtual clock (timers
 * that expire meanwhile run on the sleeper, as msleep does); a sleep without
 * one waits for a wake-up from another thread (a kworker, an irq thread, the
 * test's own).
 */
#ifndef IRQKIT_SCHED_H
#define IRQKIT_SCHED_H

#include <irqkit/task.h>
#include <irqkit/timer.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Task states (a wake-up mode is a mask of them), with Linux's values. */
#define IRQKIT_TASK_RUNNING		0x0000u
#define IRQKIT_TASK_INTERRUPTIBLE	0x0001u
#define IRQKIT_TASK_UNINTERRUPTIBLE	0x0002u
#define IRQKIT_TASK_NORMAL		(IRQKIT_TASK_INTERRUPTIBLE | IRQKIT_TASK_UNINTERRUPTIBLE)
#define IRQKIT_TASK_PARKED		0x0040u	/* a kthread in kthread_parkme() */
#define IRQKIT_TASK_DEAD		0x0080u	/* a kthread whose function returned */
#define IRQKIT_TASK_WAKEKILL		0x0100u	/* a fatal signal wakes it */
#define IRQKIT_TASK_NOLOAD		0x0400u	/* the hung-task watchdog ignores it */
#define IRQKIT_TASK_KILLABLE		(IRQKIT_TASK_WAKEKILL | IRQKIT_TASK_UNINTERRUPTIBLE)
#define IRQKIT_TASK_IDLE		(IRQKIT_TASK_UNINTERRUPTIBLE | IRQKIT_TASK_NOLOAD)

/* schedule_timeout() without a limit */
#define IRQKIT_MAX_SCHEDULE_TIMEOUT	((long)(~0ul >> 1))

/**
 * irqkit_current - the calling thread's task (Linux's current): its pid (the
 * thread id) and comm (the thread name) are filled in at the first call.
 * Context: any.
 */
IRQKIT_API struct irqkit_task *irqkit_current(void);

/** irqkit_set_current_state - set the state, with a full barrier (set_current_state). */
IRQKIT_API void irqkit_set_current_state(unsigned int state);
/** irqkit___set_current_state - set the state, no barrier (__set_current_state). */
IRQKIT_API void irqkit___set_current_state(unsigned int state);

/**
 * irqkit_schedule - sleep until woken if the state is not RUNNING; yield the
 * host CPU if it is.  Context: process context.  From atomic context Linux's
 * "BUG: scheduling while atomic" is reported, and the call goes on as there.
 */
IRQKIT_API void irqkit_schedule(void);

/**
 * irqkit_schedule_timeout - schedule() for at most @timeout jiffies
 * Return: the jiffies left when woken, 0 when the time ran out.  A negative
 * @timeout is reported and returns 0 at once (Linux: "schedule_timeout: wrong
 * timeout value").  The state is RUNNING on return.
 */
IRQKIT_API long irqkit_schedule_timeout(long timeout);
IRQKIT_API long irqkit_schedule_timeout_interruptible(long timeout);
IRQKIT_API long irqkit_schedule_timeout_uninterruptible(long timeout);
IRQKIT_API long irqkit_schedule_timeout_killable(long timeout);

/**
 * irqkit_wake_up_state - wake @p if its state is in @mode (try_to_wake_up)
 * Context: any.  Return: 1 if it was woken, 0 if it was not sleeping in @mode.
 */
IRQKIT_API int irqkit_wake_up_state(struct irqkit_task *p, unsigned int mode);
/** irqkit_wake_up_process - wake @p from either sleep.  Context: any. */
IRQKIT_API int irqkit_wake_up_process(struct irqkit_task *p);

/**
 * irqkit_might_sleep - Linux's might_sleep(): reports "BUG: sleeping function
 * called from invalid context at @file:@line" from atomic context (at most
 * once a second, as Linux).  Context: any.
 */
IRQKIT_API void irqkit_might_sleep(const char *file, int line);

/*
 * Delays.  ndelay/udelay/mdelay busy-wait, any context (in deterministic mode
 * they move the virtual clock instead).  msleep_interruptible and ssleep
 * sleep, process context; msleep_interruptible returns the milliseconds left
 * when a signal ended it, else 0.
 */
IRQKIT_API void irqkit_ndelay(unsigned long ns);
IRQKIT_API void irqkit_udelay(unsigned long us);
IRQKIT_API void irqkit_mdelay(unsigned long ms);
IRQKIT_API unsigned long irqkit_msleep_interruptible(unsigned int ms);
IRQKIT_API void irqkit_usleep_range(unsigned long min_us, unsigned long max_us);

/**
 * irqkit_cpu_relax - one step of a busy-wait: a pause for the host CPU, and
 * the jiffies objects brought up to date, so that a loop spinning on them
 * ends.  Context: any.
 */
IRQKIT_API void irqkit_cpu_relax(void);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_SCHED_H */
