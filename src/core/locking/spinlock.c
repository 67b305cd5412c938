// SPDX-License-Identifier: MIT
/* Contended paths of the spinlocks and reader-writer locks. */
#include "core.h"

/* Spin on a read until the lock looks free, then try again; yield when long. */
void irqkit_spin_lock_slow(struct irqkit_spinlock *lock)
{
	unsigned int spins = 0;

	do {
		while (READ_ONCE(lock->locked))
			spin_step(&spins);
	} while (a_xchg_acquire(&lock->locked, 1));
}

/* Wait until no writer holds the lock (readers that got in stay in). */
static void wait_writer_gone(struct irqkit_rwlock *lock)
{
	unsigned int spins = 0;

	while (a_load_acquire(&lock->cnts) & IRQKIT_RW_WLOCKED)
		spin_step(&spins);
}

/*
 * queued_read_lock_slowpath: a reader in interrupt context only waits for a
 * writer that holds the lock; any other reader backs out and queues behind
 * waiting writers on the wait lock.  Called with the reader bias added.
 */
void irqkit_read_lock_slow(struct irqkit_rwlock *lock)
{
	if (irqkit_in_interrupt()) {
		wait_writer_gone(lock);
		return;
	}
	a_fetch_sub_relaxed(&lock->cnts, IRQKIT_RW_BIAS);
	irqkit_spin_lock(&lock->wait_lock);
	a_fetch_add_acquire(&lock->cnts, IRQKIT_RW_BIAS);
	wait_writer_gone(lock);
	irqkit_spin_unlock(&lock->wait_lock);
}

/* queued_write_lock_slowpath: queue on the wait lock, announce, wait for readers to drain. */
void irqkit_write_lock_slow(struct irqkit_rwlock *lock)
{
	unsigned int spins = 0;
	unsigned int c;

	irqkit_spin_lock(&lock->wait_lock);
	c = 0;
	if (a_cas(&lock->cnts, &c, IRQKIT_RW_WLOCKED))
		goto unlock;
	a_fetch_or_relaxed(&lock->cnts, IRQKIT_RW_WAITING);
	for (;;) {
		c = IRQKIT_RW_WAITING;
		if (a_cas(&lock->cnts, &c, IRQKIT_RW_WLOCKED))
			break;
		spin_step(&spins);
	}
unlock:
	irqkit_spin_unlock(&lock->wait_lock);
}
