/* SPDX-License-Identifier: MIT */
/*
 * Signals to tasks, as Linux's kernel code sees them: a signal sent to a
 * task is pending on it until taken; while one is pending, an interruptible
 * sleep of that task does not begin, or ends, and its call returns
 * -ERESTARTSYS (the wait_event_interruptible family,
 * wait_for_completion_interruptible) or -EINTR (down_interruptible,
 * mutex_lock_interruptible), and schedule_timeout_interruptible and
 * msleep_interruptible return the time left.  A killable sleep
 * (TASK_KILLABLE) sees only SIGKILL; an uninterruptible one sees none.
 *
 * A kernel thread (a kthread, or a thread of the runtime) ignores every
 * signal it has not allowed with allow_signal(), as Linux's kthreads do;
 * other tasks (a program's threads) take every signal.  Signal numbers are
 * Linux's, 1 to 64.
 *
 * The program's side: irqkit_send_sig() signals one task by its task
 * pointer; irqkit_signal_all_tasks() signals every task that is not a
 * kernel thread, as a terminal's Ctrl-C reaches the foreground processes;
 * irqkit_route_signal() makes a real POSIX signal sent to the process do
 * that.  A program thread that got -ERESTARTSYS back from a driver takes the
 * signal with irqkit_dequeue_signal(), as Linux does on its way back to user
 * space; until then every interruptible sleep of that thread ends at once.
 */
#ifndef IRQKIT_SIGNAL_H
#define IRQKIT_SIGNAL_H

#include <irqkit/task.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IRQKIT_NSIG	64	/* Linux's _NSIG */
#define IRQKIT_SIGKILL	9

/**
 * irqkit_send_sig - send signal @sig to task @p (Linux's send_sig)
 * @priv: Linux's "sent by the kernel" flag; recorded nowhere
 *
 * Context: any.  Return: 0 (also when @p is a kernel thread that has not
 * allowed @sig: the signal is dropped, as Linux ignores it), -EINVAL for a
 * number outside 1..64, -ESRCH when @p is not a live task (a thread that
 * ended, or a pointer that is not a task irqkit knows).
 */
IRQKIT_API int irqkit_send_sig(int sig, struct irqkit_task *p, int priv);
/** irqkit_force_sig - send_sig() that a kernel thread cannot ignore (force_sig). */
IRQKIT_API int irqkit_force_sig(int sig, struct irqkit_task *p);

/** irqkit_allow_signal - the calling kernel thread takes @sig from now on.  Process context. */
IRQKIT_API void irqkit_allow_signal(int sig);
/** irqkit_disallow_signal - ignore @sig again, dropping one that is pending. */
IRQKIT_API void irqkit_disallow_signal(int sig);

/** irqkit_signal_pending - does @p have a signal pending?  Context: any. */
static inline bool irqkit_signal_pending(const struct irqkit_task *p)
{
	return __atomic_load_n(&p->sig_pending, __ATOMIC_SEQ_CST) ||
	       __atomic_load_n(&p->sig_notify, __ATOMIC_SEQ_CST);
}

/** irqkit_fatal_signal_pending - is SIGKILL pending on @p?  Context: any. */
static inline bool irqkit_fatal_signal_pending(const struct irqkit_task *p)
{
	return __atomic_load_n(&p->sig_pending, __ATOMIC_SEQ_CST) &
	       (1ull << (IRQKIT_SIGKILL - 1));
}

/** irqkit_flush_signals - drop every signal pending on @p (flush_signals).  Context: any. */
IRQKIT_API void irqkit_flush_signals(struct irqkit_task *p);

/**
 * irqkit_dequeue_signal - take the lowest signal pending on the calling
 * task (Linux's kernel_dequeue_signal()).  Return: its number, 0 if none.
 */
IRQKIT_API int irqkit_dequeue_signal(void);

/**
 * irqkit_signal_all_tasks - send @sig to every live task that is not a
 * kernel thread.  Context: any.  Return: how many tasks got it, or -EINVAL.
 */
IRQKIT_API int irqkit_signal_all_tasks(int sig);

/**
 * irqkit_route_signal - a real POSIX signal @signo sent to the process
 * becomes irqkit_signal_all_tasks(@signo) (posix platform)
 *
 * The program chooses the signals; nothing is taken otherwise.  The
 * signal's handler is replaced (irqkit_unroute_signal() puts the old one
 * back); a thread of the platform's delivers it, so it works whichever
 * thread the host interrupts.  Context: process context.
 * Return: 0, -EINVAL (a number outside 1..64, SIGKILL or SIGSTOP), -EBUSY
 * when a line's signalfd takes @signo already (logged, naming the line),
 * -EALREADY when it is routed already, -ENOMEM.
 */
IRQKIT_API int irqkit_route_signal(int signo);
/** irqkit_unroute_signal - stop routing @signo.  Return: 0 or -ENOENT (not routed). */
IRQKIT_API int irqkit_unroute_signal(int signo);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_SIGNAL_H */
