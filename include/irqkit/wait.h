/* SPDX-License-Identifier: MIT */
/*
 * The waits a driver pairs with its interrupt, as Linux has them: wait
 * queues (include/linux/wait.h, kernel/sched/wait.c), completions, counting
 * semaphores and sleeping mutexes.  A wake-up works from any context
 * (hardirq, softirq, process); a wait sleeps, so it is for process context,
 * and says so ("BUG: sleeping function called from invalid context") when
 * called from anywhere else.
 */
#ifndef IRQKIT_WAIT_H
#define IRQKIT_WAIT_H

#include <irqkit/sched.h>
#include <irqkit/spinlock.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A doubly linked list, as Linux's list_head (an empty one points at itself). */
struct irqkit_list_head {
	struct irqkit_list_head	*next, *prev;
};
#define IRQKIT_LIST_HEAD_INIT(name)	{ &(name), &(name) }

/* ---- wait queues -------------------------------------------------------------- */

struct irqkit_wait_queue_entry;
typedef int (*irqkit_wait_queue_func_t)(struct irqkit_wait_queue_entry *wq_entry,
					unsigned int mode, int flags, void *key);

#define IRQKIT_WQ_FLAG_EXCLUSIVE	0x01u

struct irqkit_wait_queue_entry {
	unsigned int			flags;		/* IRQKIT_WQ_FLAG_* */
#ifndef __cplusplus
	void				*private;	/* the sleeping task */
#else
	void				*private_;	/* "private" is C++'s keyword */
#endif
	irqkit_wait_queue_func_t	func;		/* how to wake it */
	struct irqkit_list_head		entry;
};

struct irqkit_wait_queue_head {
	struct irqkit_spinlock		lock;
	struct irqkit_list_head		head;
};

#define IRQKIT_WAIT_QUEUE_HEAD_INIT(name)						\
	{ .lock = IRQKIT_SPINLOCK_INIT, .head = IRQKIT_LIST_HEAD_INIT((name).head) }

IRQKIT_API void irqkit_init_waitqueue_head(struct irqkit_wait_queue_head *wq_head);
/** irqkit_init_wait_entry - an entry for the calling task, woken by autoremove. */
IRQKIT_API void irqkit_init_wait_entry(struct irqkit_wait_queue_entry *wq_entry, unsigned int flags);

/* The wake functions of Linux: wake the task; the autoremove one also unlinks the entry. */
IRQKIT_API int irqkit_default_wake_function(struct irqkit_wait_queue_entry *wq_entry,
					    unsigned int mode, int flags, void *key);
IRQKIT_API int irqkit_autoremove_wake_function(struct irqkit_wait_queue_entry *wq_entry,
					       unsigned int mode, int flags, void *key);

IRQKIT_API void irqkit_add_wait_queue(struct irqkit_wait_queue_head *wq_head,
				      struct irqkit_wait_queue_entry *wq_entry);
IRQKIT_API void irqkit_add_wait_queue_exclusive(struct irqkit_wait_queue_head *wq_head,
						struct irqkit_wait_queue_entry *wq_entry);
IRQKIT_API void irqkit_remove_wait_queue(struct irqkit_wait_queue_head *wq_head,
					 struct irqkit_wait_queue_entry *wq_entry);

/*
 * prepare_to_wait: queue the entry if it is not queued yet and set the
 * task's state, under the queue's lock; the caller then tests its condition
 * and calls schedule() if it is false.  finish_wait: state RUNNING, entry
 * off the queue.
 */
IRQKIT_API void irqkit_prepare_to_wait(struct irqkit_wait_queue_head *wq_head,
				       struct irqkit_wait_queue_entry *wq_entry, unsigned int state);
IRQKIT_API void irqkit_prepare_to_wait_exclusive(struct irqkit_wait_queue_head *wq_head,
						 struct irqkit_wait_queue_entry *wq_entry,
						 unsigned int state);
IRQKIT_API void irqkit_finish_wait(struct irqkit_wait_queue_head *wq_head,
				   struct irqkit_wait_queue_entry *wq_entry);

/**
 * irqkit___wake_up - wake the sleepers of @wq_head whose state is in @mode:
 * every non-exclusive one, and @nr_exclusive exclusive ones (0: all).
 * Context: any.
 */
IRQKIT_API void irqkit___wake_up(struct irqkit_wait_queue_head *wq_head, unsigned int mode,
				 int nr_exclusive, void *key);
/** irqkit___wake_up_locked - the same with @wq_head's lock held by the caller. */
IRQKIT_API void irqkit___wake_up_locked(struct irqkit_wait_queue_head *wq_head, unsigned int mode,
					int nr_exclusive);
/** irqkit_waitqueue_active - does anyone wait?  (Linux's lockless test: see its rules.) */
IRQKIT_API bool irqkit_waitqueue_active(struct irqkit_wait_queue_head *wq_head);

/*
 * Linux 2.6's sleep_on family (removed in 3.15 because the condition test
 * before it races with the wake-up): queue, sleep once, unqueue.
 */
IRQKIT_API long irqkit_sleep_on_common(struct irqkit_wait_queue_head *wq_head,
				       unsigned int state, long timeout);

/*
 * The wait_event family (statement expressions, as Linux's macros).  Each
 * may sleep: process context.  The interruptible forms return -ERESTARTSYS
 * when a signal is pending on the caller (and the condition is false), the
 * killable forms when SIGKILL is.  The _timeout forms return 0 if the
 * condition is still false when the time ran out, else the jiffies left
 * (at least 1).
 */
#define irqkit___wait_event(wq_head, condition, state, exclusive, ret, cmd) ({		\
	struct irqkit_wait_queue_entry __wq_entry;					\
	long __ret = (ret);								\
											\
	irqkit_init_wait_entry(&__wq_entry, (exclusive) ? IRQKIT_WQ_FLAG_EXCLUSIVE : 0);\
	for (;;) {									\
		long __int = irqkit_prepare_to_wait_event(&(wq_head), &__wq_entry, (state));\
		if (condition)								\
			break;								\
		if (__int) {								\
			__ret = __int;							\
			break;								\
		}									\
		cmd;									\
	}										\
	irqkit_finish_wait(&(wq_head), &__wq_entry);					\
	__ret;										\
})

/*
 * prepare_to_wait that keeps the entry's exclusive flag (Linux's
 * prepare_to_wait_event).  Return: 0, or -ERESTARTSYS when a signal that
 * @state lets through is pending (the entry is then off the queue and the
 * state unchanged).
 */
IRQKIT_API long irqkit_prepare_to_wait_event(struct irqkit_wait_queue_head *wq_head,
					     struct irqkit_wait_queue_entry *wq_entry,
					     unsigned int state);

/* The condition of a timed wait: true, or no time left (then __ret is 0 or becomes 1). */
#define irqkit___wait_cond_timeout(condition) ({					\
	bool __cond = (condition);							\
	if (__cond && !__ret)								\
		__ret = 1;								\
	__cond || !__ret;								\
})

#define irqkit_wait_event(wq_head, condition) do {					\
	irqkit_might_sleep(__FILE__, __LINE__);						\
	if (condition)									\
		break;									\
	(void)irqkit___wait_event(wq_head, condition, IRQKIT_TASK_UNINTERRUPTIBLE, 0, 0,\
				  irqkit_schedule());					\
} while (0)

#define irqkit_wait_event_interruptible(wq_head, condition) ({				\
	irqkit_might_sleep(__FILE__, __LINE__);						\
	(condition) ? 0 :								\
	(int)irqkit___wait_event(wq_head, condition, IRQKIT_TASK_INTERRUPTIBLE, 0, 0,	\
				 irqkit_schedule());					\
})

#define irqkit_wait_event_interruptible_exclusive(wq_head, condition) ({		\
	irqkit_might_sleep(__FILE__, __LINE__);						\
	(condition) ? 0 :								\
	(int)irqkit___wait_event(wq_head, condition, IRQKIT_TASK_INTERRUPTIBLE, 1, 0,	\
				 irqkit_schedule());					\
})

#define irqkit___wait_event_timeout(wq_head, condition, state, timeout)		\
	irqkit___wait_event(wq_head, irqkit___wait_cond_timeout(condition), state, 0,	\
			    (timeout), __ret = irqkit_schedule_timeout(__ret))

#define irqkit_wait_event_killable(wq_head, condition) ({				\
	irqkit_might_sleep(__FILE__, __LINE__);						\
	(condition) ? 0 :								\
	(int)irqkit___wait_event(wq_head, condition, IRQKIT_TASK_KILLABLE, 0, 0,		\
				 irqkit_schedule());					\
})

#define irqkit_wait_event_timeout(wq_head, condition, timeout) ({			\
	long __tmo = (timeout);								\
	irqkit_might_sleep(__FILE__, __LINE__);						\
	(condition) ? (__tmo ? __tmo : 1) :						\
	irqkit___wait_event_timeout(wq_head, condition, IRQKIT_TASK_UNINTERRUPTIBLE, __tmo);\
})

#define irqkit_wait_event_interruptible_timeout(wq_head, condition, timeout) ({	\
	long __tmo = (timeout);								\
	irqkit_might_sleep(__FILE__, __LINE__);						\
	(condition) ? (__tmo ? __tmo : 1) :						\
	irqkit___wait_event_timeout(wq_head, condition, IRQKIT_TASK_INTERRUPTIBLE, __tmo);\
})

#define irqkit_wake_up(x)		irqkit___wake_up((x), IRQKIT_TASK_NORMAL, 1, NULL)
#define irqkit_wake_up_nr(x, nr)	irqkit___wake_up((x), IRQKIT_TASK_NORMAL, (nr), NULL)
#define irqkit_wake_up_all(x)		irqkit___wake_up((x), IRQKIT_TASK_NORMAL, 0, NULL)
#define irqkit_wake_up_interruptible(x)	irqkit___wake_up((x), IRQKIT_TASK_INTERRUPTIBLE, 1, NULL)
#define irqkit_wake_up_interruptible_all(x) irqkit___wake_up((x), IRQKIT_TASK_INTERRUPTIBLE, 0, NULL)

/* ---- completions -------------------------------------------------------------- */

/*
 * struct irqkit_completion - a count of completions and the tasks waiting
 * for one.  complete() adds one and wakes one waiter; complete_all() lets
 * every present and future waiter through until reinit.  A completion that
 * was never initialised (all zero) is reported at its first use and
 * initialised then.
 */
struct irqkit_completion {
	unsigned int			done;
	struct irqkit_wait_queue_head	wait;
};

#define IRQKIT_COMPLETION_INITIALIZER(work)						\
	{ 0, IRQKIT_WAIT_QUEUE_HEAD_INIT((work).wait) }

IRQKIT_API void irqkit_init_completion(struct irqkit_completion *x);
IRQKIT_API void irqkit_reinit_completion(struct irqkit_completion *x);
IRQKIT_API void irqkit_complete(struct irqkit_completion *x);
IRQKIT_API void irqkit_complete_all(struct irqkit_completion *x);
IRQKIT_API void irqkit_wait_for_completion(struct irqkit_completion *x);
/* Return: 0 on timeout, else the jiffies left (at least 1). */
IRQKIT_API unsigned long irqkit_wait_for_completion_timeout(struct irqkit_completion *x,
							    unsigned long timeout);
/* Return: 0, or -ERESTARTSYS when a signal ended the wait (SIGKILL only, killable). */
IRQKIT_API int irqkit_wait_for_completion_interruptible(struct irqkit_completion *x);
IRQKIT_API int irqkit_wait_for_completion_killable(struct irqkit_completion *x);
/* Return: -ERESTARTSYS (signalled), 0 (timed out), or the jiffies left (at least 1). */
IRQKIT_API long irqkit_wait_for_completion_interruptible_timeout(struct irqkit_completion *x,
								 unsigned long timeout);
IRQKIT_API long irqkit_wait_for_completion_killable_timeout(struct irqkit_completion *x,
							    unsigned long timeout);
/** irqkit_try_wait_for_completion - take one completion without sleeping.  Return: taken? */
IRQKIT_API bool irqkit_try_wait_for_completion(struct irqkit_completion *x);
/** irqkit_completion_done - would a wait return at once?  Context: any. */
IRQKIT_API bool irqkit_completion_done(struct irqkit_completion *x);

/* ---- counting semaphores (kernel/locking/semaphore.c) --------------------------- */

struct irqkit_semaphore {
	struct irqkit_spinlock		lock;
	unsigned int			count;
	struct irqkit_list_head		wait_list;
};

#define IRQKIT_SEMAPHORE_INITIALIZER(name, n)						\
	{ .lock = IRQKIT_SPINLOCK_INIT, .count = (n),					\
	  .wait_list = IRQKIT_LIST_HEAD_INIT((name).wait_list) }

IRQKIT_API void irqkit_sema_init(struct irqkit_semaphore *sem, int val);
/* down may sleep (process context); up and down_trylock work from any context. */
IRQKIT_API void irqkit_down(struct irqkit_semaphore *sem);
/* Return: 0, or -EINTR when a signal came first (SIGKILL only, killable). */
IRQKIT_API int irqkit_down_interruptible(struct irqkit_semaphore *sem);
IRQKIT_API int irqkit_down_killable(struct irqkit_semaphore *sem);
/* Return: 0 when taken, -ETIME when @timeout jiffies passed first. */
IRQKIT_API int irqkit_down_timeout(struct irqkit_semaphore *sem, long timeout);
/* Return: 0 when taken, 1 when it would have had to sleep (the opposite of mutex_trylock). */
IRQKIT_API int irqkit_down_trylock(struct irqkit_semaphore *sem);
/* One up: a waiter gets it, or the count grows (past its initial value, as Linux allows). */
IRQKIT_API void irqkit_up(struct irqkit_semaphore *sem);

/* ---- sleeping mutexes ------------------------------------------------------------ */

/*
 * struct irqkit_mutex - one owner at a time, sleeping while taken.  As
 * CONFIG_DEBUG_MUTEXES, an unlock by a task that does not hold it, and a
 * lock by the task that holds it already (a sleep for ever), are reported;
 * the second returns without the lock instead of hanging.
 */
struct irqkit_mutex {
	struct irqkit_semaphore		sem;
	struct irqkit_task		*owner;
};

#define IRQKIT_MUTEX_INITIALIZER(name)							\
	{ .sem = IRQKIT_SEMAPHORE_INITIALIZER((name).sem, 1), .owner = NULL }

IRQKIT_API void irqkit_mutex_init(struct irqkit_mutex *lock);
IRQKIT_API void irqkit_mutex_lock(struct irqkit_mutex *lock);
/* Return: 0, or -EINTR when a signal came first (SIGKILL only, killable): not taken then. */
IRQKIT_API int irqkit_mutex_lock_interruptible(struct irqkit_mutex *lock);
IRQKIT_API int irqkit_mutex_lock_killable(struct irqkit_mutex *lock);
/* Return: 1 when taken, 0 when held by someone. */
IRQKIT_API int irqkit_mutex_trylock(struct irqkit_mutex *lock);
IRQKIT_API void irqkit_mutex_unlock(struct irqkit_mutex *lock);
IRQKIT_API bool irqkit_mutex_is_locked(struct irqkit_mutex *lock);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_WAIT_H */
