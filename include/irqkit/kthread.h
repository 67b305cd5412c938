/* SPDX-License-Identifier: MIT */
/*
 * Kernel threads, as Linux's <linux/kthread.h> offers them to drivers: a
 * thread created stopped, woken to run its function, asked to stop (and
 * joined) by kthread_stop(), parked and unparked; and the kthread worker, a
 * kthread that runs queued work items one at a time.
 *
 * A kthread is a task in process context: the context checks, the lock
 * validator, the task listing (irqkit_show_tasks_buf()) and the watchdog
 * see it as they see any task.  Its pointer is its task, the `current` its
 * function sees, so wake_up_process() and the wait queues take it.  Errors
 * come back as Linux's error pointers (a negative errno in the last page of
 * the address space: irqkit_is_err(), irqkit_ptr_err()).
 *
 * Lifecycle: a kthread belongs to the run it was created in.
 * irqkit_stop() stops every kthread of the run that is still there
 * (kthread_stop() for each, with a warning naming it) before it stops the
 * CPUs; one that does not return within twice the watchdog's threshold
 * (when the watchdog is on) is reported and left running.  A kthread whose
 * function returned by itself is joined by kthread_stop() or by the stop.
 */
#ifndef IRQKIT_KTHREAD_H
#define IRQKIT_KTHREAD_H

#include <irqkit/sched.h>
#include <irqkit/wait.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Linux's error pointers: a negative errno in the last page of the address space. */
static inline bool irqkit_is_err(const void *ptr)
{
	return (unsigned long)ptr >= (unsigned long)-4095;
}
static inline long irqkit_ptr_err(const void *ptr)
{
	return (long)ptr;
}

/**
 * irqkit_kthread_create - a new kthread named by @namefmt, created stopped
 * @threadfn: what it runs once woken; its return value is kthread_stop()'s
 * @data: passed to @threadfn
 * @namefmt: printf-style format of its name (the task's comm, cut at 15
 *	characters, and the host thread's name)
 *
 * The thread exists and sleeps when this returns; wake_up_process() starts
 * @threadfn.  Context: process context, runtime started.
 * Return: its task, or an error pointer: -EINVAL (no @threadfn, runtime not
 * started), -ENOMEM.
 */
IRQKIT_API struct irqkit_task *irqkit_kthread_create(int (*threadfn)(void *data), void *data,
						     const char *namefmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * irqkit_kthread_create_on_cpu - kthread_create() bound to @cpu, named by
 * @namefmt with @cpu as its one argument ("mythread/%u").
 * A thread bound to a virtual CPU shares it with the CPU's dispatcher: with
 * interrupts off it keeps the CPU's handlers out, as on Linux.
 * Return: as irqkit_kthread_create(); -EINVAL for a CPU that is not online.
 */
IRQKIT_API struct irqkit_task *irqkit_kthread_create_on_cpu(int (*threadfn)(void *data),
							    void *data, unsigned int cpu,
							    const char *namefmt);

/**
 * irqkit_kthread_bind - bind a kthread that has not been woken yet to @cpu
 * Context: process context.  A kthread that already runs, a task that is
 * not a kthread or a CPU that is not online is reported, as Linux's
 * WARN_ON, and the call does nothing.
 */
IRQKIT_API void irqkit_kthread_bind(struct irqkit_task *k, unsigned int cpu);

/**
 * irqkit_kthread_stop - make kthread_should_stop() true for @k, wake it and
 * wait until its function returns
 *
 * A parked @k is unparked first.  An interruptible sleep of @k then sees a
 * signal pending (modern Linux's TIF_NOTIFY_SIGNAL), so a wait that does not
 * test kthread_should_stop() still ends, with -ERESTARTSYS.
 * Context: process context, not @k itself.
 * Return: @threadfn's return value, or -EINTR when @k was never woken (its
 * function did not run).  Bad input, where Linux has no clean answer: a
 * second stop of the same kthread is reported and returns the saved value
 * again; a task that is not a kthread is reported and gets -EINVAL; @k
 * stopping itself is reported and gets -EDEADLK.
 */
IRQKIT_API int irqkit_kthread_stop(struct irqkit_task *k);

/**
 * irqkit_kthread_should_stop - has kthread_stop() been called for the calling kthread?
 * Context: a kthread.  From a task that is not a kthread it is reported
 * (Linux: a WARN_ON, then a NULL dereference) and returns false.
 */
IRQKIT_API bool irqkit_kthread_should_stop(void);
/** irqkit_kthread_should_park - has kthread_park() been called for the calling kthread? */
IRQKIT_API bool irqkit_kthread_should_park(void);
/** irqkit_kthread_parkme - park here (TASK_PARKED) while kthread_should_park() holds. */
IRQKIT_API void irqkit_kthread_parkme(void);

/**
 * irqkit_kthread_park - ask @k to park, and wait until it has
 *
 * @k parks at its next kthread_parkme(); one that was never woken is woken
 * and parks before its function runs.  Context: process context.
 * Return: 0; -ENOSYS when @k has exited; -EBUSY when it is asked to park
 * already; -EINVAL (reported) for a task that is not a kthread.
 */
IRQKIT_API int irqkit_kthread_park(struct irqkit_task *k);
/** irqkit_kthread_unpark - end @k's parking: kthread_should_park() false, @k woken. */
IRQKIT_API void irqkit_kthread_unpark(struct irqkit_task *k);

/** irqkit_kthread_data - the @data @k was created with (NULL for a task that is not a kthread). */
IRQKIT_API void *irqkit_kthread_data(struct irqkit_task *k);
/** irqkit_is_kthread - is @k a kthread (Linux's PF_KTHREAD)?  Context: any. */
IRQKIT_API bool irqkit_is_kthread(const struct irqkit_task *k);

/* ---- kthread workers -------------------------------------------------------------- */

struct irqkit_kthread_work;
typedef void (*irqkit_kthread_work_func_t)(struct irqkit_kthread_work *work);

/*
 * struct irqkit_kthread_worker - a kthread that runs queued items in order,
 * one at a time, in process context.  Fields are private.
 */
struct irqkit_kthread_worker {
	unsigned int			flags;
	struct irqkit_spinlock		lock;
	struct irqkit_list_head		work_list;
	struct irqkit_task		*task;
	struct irqkit_kthread_work	*current_work;
};

struct irqkit_kthread_work {
	struct irqkit_list_head		node;
	irqkit_kthread_work_func_t	func;
	struct irqkit_kthread_worker	*worker;	/* the worker it was last queued on */
	int				canceling;
};

#define IRQKIT_KTHREAD_WORKER_INIT(worker) {						\
	.lock = IRQKIT_SPINLOCK_INIT,							\
	.work_list = IRQKIT_LIST_HEAD_INIT((worker).work_list) }
#define IRQKIT_KTHREAD_WORK_INIT(work, fn) {						\
	.node = IRQKIT_LIST_HEAD_INIT((work).node), .func = (fn) }

IRQKIT_API void irqkit_kthread_init_worker(struct irqkit_kthread_worker *worker);
IRQKIT_API void irqkit_kthread_init_work(struct irqkit_kthread_work *work,
					 irqkit_kthread_work_func_t fn);
/**
 * irqkit_kthread_worker_fn - the function of a worker's kthread: pass it to
 * kthread_run() with an initialised worker as @worker_ptr.
 */
IRQKIT_API int irqkit_kthread_worker_fn(void *worker_ptr);

/**
 * irqkit_kthread_create_worker - a worker and its running kthread, named by @namefmt
 * Context: process context, runtime started.
 * Return: the worker (kthread_destroy_worker() frees it) or an error pointer.
 */
IRQKIT_API struct irqkit_kthread_worker *irqkit_kthread_create_worker(unsigned int flags,
								      const char *namefmt, ...)
	__attribute__((format(printf, 2, 3)));
/** irqkit_kthread_create_worker_on_cpu - the same, its kthread bound to @cpu ("name/%u"). */
IRQKIT_API struct irqkit_kthread_worker *irqkit_kthread_create_worker_on_cpu(int cpu,
									     unsigned int flags,
									     const char *namefmt);

/**
 * irqkit_kthread_queue_work - queue @work on @worker.  Context: any.
 * Return: true, or false when it is queued already (or being cancelled).
 */
IRQKIT_API bool irqkit_kthread_queue_work(struct irqkit_kthread_worker *worker,
					  struct irqkit_kthread_work *work);
/** irqkit_kthread_flush_work - wait until @work, queued or running, has run.  Process context. */
IRQKIT_API void irqkit_kthread_flush_work(struct irqkit_kthread_work *work);
/** irqkit_kthread_flush_worker - wait until every item queued on @worker so far has run. */
IRQKIT_API void irqkit_kthread_flush_worker(struct irqkit_kthread_worker *worker);
/**
 * irqkit_kthread_cancel_work_sync - take @work off its queue and wait for a
 * run under way.  Return: true when it was queued.  Process context.
 */
IRQKIT_API bool irqkit_kthread_cancel_work_sync(struct irqkit_kthread_work *work);
/**
 * irqkit_kthread_destroy_worker - flush @worker, stop its kthread and free it
 * (a worker of kthread_create_worker()).  Process context.
 */
IRQKIT_API void irqkit_kthread_destroy_worker(struct irqkit_kthread_worker *worker);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_KTHREAD_H */
