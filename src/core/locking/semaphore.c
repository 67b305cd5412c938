// SPDX-License-Identifier: MIT
/*
 * Counting semaphores (Linux's kernel/locking/semaphore.c) and the sleeping
 * mutex drivers use (struct mutex), built on them.  An up() with waiters
 * hands the unit to the first of them, in arrival order.
 */
/*
 * A mutex is checked under its own address, which is its semaphore's wait
 * lock's: that lock is not checked (in a build with IRQKIT_LOCKDEP_CORE).
 */
#undef IRQKIT_LOCKDEP
#include "core.h"
#include "sched/sched.h"
#include "locking.h"
#include "debug/debug.h"

struct sem_waiter {
	struct irqkit_list_head	list;
	struct irqkit_task	*task;
	bool			up;
};

void irqkit_sema_init(struct irqkit_semaphore *sem, int val)
{
	irqkit_spin_lock_init(&sem->lock);
	sem->count = (unsigned int)val;
	ilist_init(&sem->wait_list);
}

/* A semaphore never initialised (all zero) is reported and set up with count 0. */
static void sem_check(struct irqkit_semaphore *sem, const char *what)
{
	if (likely(READ_ONCE(sem->wait_list.next)))
		return;
	irqkit__warn(__FILE__, __LINE__, "%s() on a semaphore %p that was never initialised "
		     "(sema_init); initialising it now with count %u", what, (void *)sem, sem->count);
	ilist_init(&sem->wait_list);
}

/*
 * __down_common: queue, sleep until an up() hands over, the time runs out
 * (-ETIME) or a signal that @state lets through comes (-EINTR).
 */
static int down_common(struct irqkit_semaphore *sem, unsigned int state, long timeout)
{
	unsigned long flags = irqkit_spin_lock_irqsave(&sem->lock);
	struct sem_waiter waiter = { .task = irqkit_current() };

	if (likely(sem->count > 0)) {
		sem->count--;
		irqkit_spin_unlock_irqrestore(&sem->lock, flags);
		return 0;
	}
	ilist_add_tail(&waiter.list, &sem->wait_list);
	for (;;) {
		if (irqkit__signal_pending_state(state, waiter.task)) {
			ilist_del_init(&waiter.list);
			irqkit_spin_unlock_irqrestore(&sem->lock, flags);
			return -IRQKIT_EINTR;
		}
		if (timeout <= 0) {
			ilist_del_init(&waiter.list);
			irqkit_spin_unlock_irqrestore(&sem->lock, flags);
			return -IRQKIT_ETIME;
		}
		irqkit_set_current_state(state);
		irqkit_spin_unlock_irqrestore(&sem->lock, flags);
		timeout = irqkit_schedule_timeout(timeout);
		flags = irqkit_spin_lock_irqsave(&sem->lock);
		if (waiter.up) {
			irqkit_spin_unlock_irqrestore(&sem->lock, flags);
			return 0;
		}
	}
}

void irqkit_down(struct irqkit_semaphore *sem)
{
	might_sleep();
	sem_check(sem, "down");
	down_common(sem, IRQKIT_TASK_UNINTERRUPTIBLE, IRQKIT_MAX_SCHEDULE_TIMEOUT);
}

int irqkit_down_interruptible(struct irqkit_semaphore *sem)
{
	might_sleep();
	sem_check(sem, "down_interruptible");
	return down_common(sem, IRQKIT_TASK_INTERRUPTIBLE, IRQKIT_MAX_SCHEDULE_TIMEOUT);
}

int irqkit_down_killable(struct irqkit_semaphore *sem)
{
	might_sleep();
	sem_check(sem, "down_killable");
	return down_common(sem, IRQKIT_TASK_KILLABLE, IRQKIT_MAX_SCHEDULE_TIMEOUT);
}

int irqkit_down_timeout(struct irqkit_semaphore *sem, long timeout)
{
	might_sleep();
	sem_check(sem, "down_timeout");
	return down_common(sem, IRQKIT_TASK_UNINTERRUPTIBLE, timeout);
}

int irqkit_down_trylock(struct irqkit_semaphore *sem)
{
	unsigned long flags;
	int ret = 1;

	sem_check(sem, "down_trylock");
	flags = irqkit_spin_lock_irqsave(&sem->lock);
	if (sem->count > 0) {
		sem->count--;
		ret = 0;
	}
	irqkit_spin_unlock_irqrestore(&sem->lock, flags);
	return ret;
}

void irqkit_up(struct irqkit_semaphore *sem)
{
	unsigned long flags;

	sem_check(sem, "up");
	flags = irqkit_spin_lock_irqsave(&sem->lock);
	if (ilist_empty(&sem->wait_list)) {
		sem->count++;
	} else {
		struct sem_waiter *w = container_of(sem->wait_list.next, struct sem_waiter, list);

		ilist_del_init(&w->list);
		w->up = true;
		irqkit_wake_up_process(w->task);
	}
	irqkit_spin_unlock_irqrestore(&sem->lock, flags);
}

/* ---- struct mutex ------------------------------------------------------------------ */

void irqkit_mutex_init(struct irqkit_mutex *lock)
{
	irqkit_sema_init(&lock->sem, 1);
	lock->owner = NULL;
	if (unlikely(READ_ONCE(irqkit__lockdep_active)))
		irqkit__lockdep_mutex_init(lock, __builtin_return_address(0));
}

/* A mutex never initialised (all zero) would start taken: report it and start it free. */
static void mutex_check(struct irqkit_mutex *lock, const char *what)
{
	if (likely(READ_ONCE(lock->sem.wait_list.next)))
		return;
	irqkit__warn(__FILE__, __LINE__, "%s() on a mutex %p that was never initialised "
		     "(mutex_init, DEFINE_MUTEX); initialising it now", what, (void *)lock);
	irqkit_mutex_init(lock);
}

/* Taking a mutex this task holds would sleep for ever: report it, do not take it. */
static bool mutex_self_deadlock(struct irqkit_mutex *lock, const char *what)
{
	if (READ_ONCE(lock->owner) != irqkit_current())
		return false;
	irqkit__warn(__FILE__, __LINE__, "%s(): this task (%s/%d) already holds mutex %p: "
		     "it would wait for itself for ever; not taken", what,
		     irqkit_arch_current()->comm, irqkit_arch_current()->pid, (void *)lock);
	return true;
}

/* The mutex_lock family: 0 once taken; -EINTR, not taken, when a signal @state sees came first. */
static int mutex_lock_common(struct irqkit_mutex *lock, unsigned int state, const char *what,
			     const void *ip)
{
	int ret;

	irqkit__point("mutex_lock", ip);
	might_sleep();
	mutex_check(lock, what);
	if (mutex_self_deadlock(lock, what))
		return 0;
	if (unlikely(READ_ONCE(irqkit__lockdep_active)))	/* before it waits: a report, not a hang */
		irqkit__lockdep_mutex_acquire(lock, false, ip);
	ret = down_common(&lock->sem, state, IRQKIT_MAX_SCHEDULE_TIMEOUT);
	if (ret) {
		if (unlikely(READ_ONCE(irqkit__lockdep_active)))
			irqkit__lockdep_mutex_release(lock, ip);
		return ret;
	}
	WRITE_ONCE(lock->owner, irqkit_current());
	return 0;
}

void irqkit_mutex_lock(struct irqkit_mutex *lock)
{
	mutex_lock_common(lock, IRQKIT_TASK_UNINTERRUPTIBLE, "mutex_lock",
			  __builtin_return_address(0));
}

int irqkit_mutex_lock_interruptible(struct irqkit_mutex *lock)
{
	return mutex_lock_common(lock, IRQKIT_TASK_INTERRUPTIBLE, "mutex_lock_interruptible",
				 __builtin_return_address(0));
}

int irqkit_mutex_lock_killable(struct irqkit_mutex *lock)
{
	return mutex_lock_common(lock, IRQKIT_TASK_KILLABLE, "mutex_lock_killable",
				 __builtin_return_address(0));
}

int irqkit_mutex_trylock(struct irqkit_mutex *lock)
{
	mutex_check(lock, "mutex_trylock");
	if (irqkit_down_trylock(&lock->sem))
		return 0;
	WRITE_ONCE(lock->owner, irqkit_current());
	if (unlikely(READ_ONCE(irqkit__lockdep_active)))
		irqkit__lockdep_mutex_acquire(lock, true, __builtin_return_address(0));
	return 1;
}

void irqkit_mutex_unlock(struct irqkit_mutex *lock)
{
	irqkit__point("mutex_unlock", __builtin_return_address(0));
	mutex_check(lock, "mutex_unlock");
	if (READ_ONCE(lock->owner) != irqkit_current()) {
		/* CONFIG_DEBUG_MUTEXES' check, in its words */
		irqkit__warn(__FILE__, __LINE__, "DEBUG_LOCKS_WARN_ON(__owner_task(owner) != current)");
		if (!READ_ONCE(lock->owner))
			return;		/* not locked at all: an up() would let two in */
	}
	if (unlikely(READ_ONCE(irqkit__lockdep_active)))
		irqkit__lockdep_mutex_release(lock, __builtin_return_address(0));
	WRITE_ONCE(lock->owner, NULL);
	irqkit_up(&lock->sem);
}

bool irqkit_mutex_is_locked(struct irqkit_mutex *lock)
{
	return READ_ONCE(lock->owner) != NULL;
}
