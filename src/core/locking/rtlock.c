// SPDX-License-Identifier: MIT
/*
 * PREEMPT_RT mode's sleeping spinlock_t and rwlock_t (Linux's
 * kernel/locking/spinlock_rt.c over rtmutex.c and rwbase_rt.c).
 *
 * A spinlock_t's word holds 0 or its owner's thread id, with
 * IRQKIT__PI_WAITERS when someone waits: the layout of a Linux PI futex,
 * so where the platform has priority inheritance (posix in real time:
 * FUTEX_LOCK_PI) the kernel boosts the owner while a higher-priority thread
 * waits, as an rtmutex does.  Elsewhere (virtual time, bare metal) a waiter
 * parks on the word with the platform's wait.  The fast paths are one
 * compare-and-swap.  Taking one may sleep, so it is checked as might_sleep()
 * is, without the softirq count (on RT bottom halves are preemptible task
 * context): in hardirq context, with interrupts off or under a raw spinlock
 * it is Linux's "BUG: sleeping function called from invalid context".  It
 * turns neither preemption nor interrupts off (RT's migrate_disable() is
 * what a bound thread already has).
 */
#include "core.h"
#include "locking.h"

#define IRQKIT__PI_WAITERS	0x80000000u	/* FUTEX_WAITERS */

bool irqkit__preempt_rt;

static unsigned int self_id(void)
{
	return (unsigned int)irqkit_plat_thread_id();
}

static void rt_lock_slow(unsigned int *word, unsigned int me)
{
	bool waited = false;
	unsigned int c;

	if (irqkit_plat_pi_lock(word))
		return;
	for (;;) {
		/* once it waited, it takes the lock as contended: others may sleep still */
		c = 0;
		if (a_cas(word, &c, me | (waited ? IRQKIT__PI_WAITERS : 0)))
			return;
		if (!(c & IRQKIT__PI_WAITERS)) {
			if (!a_cas(word, &c, c | IRQKIT__PI_WAITERS))
				continue;
			c |= IRQKIT__PI_WAITERS;
		}
		irqkit_plat_wait(word, c);
		waited = true;
	}
}

static void rt_unlock_slow(unsigned int *word)
{
	if (irqkit_plat_pi_unlock(word))
		return;
	a_store_seq(word, 0);
	irqkit_plat_wake(word);
}

/* Take @word for the caller; a recursive take is reported and not waited for. */
static bool rt_lock(unsigned int *word, const char *what)
{
	unsigned int me = self_id();
	unsigned int c = 0;

	if (likely(a_cas(word, &c, me)))
		return true;
	if ((c & ~IRQKIT__PI_WAITERS) == me) {
		/* RT's rtmutex would sleep for ever: say so, and go on */
		WARN(1, "%s %p taken again by its owner: a deadlock on PREEMPT_RT; not waiting",
		     what, (void *)word);
		return false;
	}
	rt_lock_slow(word, me);
	return true;
}

static void rt_unlock(unsigned int *word, const char *what)
{
	unsigned int me = self_id();
	unsigned int c = me;

	if (likely(a_cas(word, &c, 0)))
		return;
	if ((c & ~IRQKIT__PI_WAITERS) != me) {
		WARN(1, "%s %p released by a thread that does not hold it", what, (void *)word);
		return;
	}
	rt_unlock_slow(word);
}

void irqkit__rt_word_lock(unsigned int *word)
{
	rt_lock(word, "lock");
}

void irqkit__rt_word_unlock(unsigned int *word)
{
	rt_unlock(word, "lock");
}

void irqkit_rt_spin_lock(struct irqkit_spinlock *lock)
{
	irqkit__might_sleep(__FILE__, __LINE__);
	rt_lock(&lock->locked, "spinlock_t");
}

bool irqkit_rt_spin_trylock(struct irqkit_spinlock *lock)
{
	unsigned int c = 0;

	return a_cas(&lock->locked, &c, self_id());
}

void irqkit_rt_spin_unlock(struct irqkit_spinlock *lock)
{
	rt_unlock(&lock->locked, "spinlock_t");
}

/*
 * rwlock_t: readers count in cnts as in the spinning form; a writer holds
 * the wait lock (a sleeping lock as above) for its whole section, so a
 * reader that finds a writer in or waiting sleeps on the wait lock with the
 * writer's priority boosted, as rwbase_rt's readers block on its rtmutex.
 * The writer waits for the readers in on cnts; the last one wakes it.
 */
void irqkit_rt_read_lock(struct irqkit_rwlock *lock)
{
	unsigned int c;

	irqkit__might_sleep(__FILE__, __LINE__);
	for (;;) {
		c = READ_ONCE(lock->cnts);
		if (c & (IRQKIT_RW_WLOCKED | IRQKIT_RW_WAITING))
			break;
		if (a_cas(&lock->cnts, &c, c + IRQKIT_RW_BIAS))
			return;
	}
	if (!rt_lock(&lock->wait_lock.locked, "rwlock_t")) {
		a_fetch_add(&lock->cnts, IRQKIT_RW_BIAS);	/* its own writer: counted, reported */
		return;
	}
	a_fetch_add(&lock->cnts, IRQKIT_RW_BIAS);
	rt_unlock(&lock->wait_lock.locked, "rwlock_t");
}

bool irqkit_rt_read_trylock(struct irqkit_rwlock *lock)
{
	unsigned int c = READ_ONCE(lock->cnts);

	while (!(c & (IRQKIT_RW_WLOCKED | IRQKIT_RW_WAITING)))
		if (a_cas(&lock->cnts, &c, c + IRQKIT_RW_BIAS))
			return true;
	return false;
}

void irqkit_rt_read_unlock(struct irqkit_rwlock *lock)
{
	/* the last reader out wakes a writer that waits for it */
	if (a_fetch_sub(&lock->cnts, IRQKIT_RW_BIAS) - IRQKIT_RW_BIAS == IRQKIT_RW_WAITING)
		irqkit_plat_wake(&lock->cnts);
}

void irqkit_rt_write_lock(struct irqkit_rwlock *lock)
{
	unsigned int c;

	irqkit__might_sleep(__FILE__, __LINE__);
	if (!rt_lock(&lock->wait_lock.locked, "rwlock_t"))
		return;
	c = 0;
	if (a_cas(&lock->cnts, &c, IRQKIT_RW_WLOCKED))
		return;
	a_fetch_or(&lock->cnts, IRQKIT_RW_WAITING);
	for (;;) {
		c = IRQKIT_RW_WAITING;
		if (a_cas(&lock->cnts, &c, IRQKIT_RW_WLOCKED))
			return;
		irqkit_plat_wait(&lock->cnts, c);
	}
}

bool irqkit_rt_write_trylock(struct irqkit_rwlock *lock)
{
	unsigned int c = 0;

	if (!a_cas(&lock->wait_lock.locked, &c, self_id()))
		return false;
	c = 0;
	if (a_cas(&lock->cnts, &c, IRQKIT_RW_WLOCKED))
		return true;
	rt_unlock(&lock->wait_lock.locked, "rwlock_t");
	return false;
}

void irqkit_rt_write_unlock(struct irqkit_rwlock *lock)
{
	if (WARN(!(READ_ONCE(lock->cnts) & IRQKIT_RW_WLOCKED),
		 "rwlock_t %p write-released while no writer holds it", (void *)lock))
		return;
	a_fetch_sub(&lock->cnts, IRQKIT_RW_WLOCKED);
	rt_unlock(&lock->wait_lock.locked, "rwlock_t");
}
