/* SPDX-License-Identifier: MIT */
/*
 * The one part of POSIX threads the test harness uses on bare metal: a mutex
 * over the captured log.  The log is written from any context, a handler
 * included, so the mutex is an irqkit spinlock taken with interrupts saved.
 */
#ifndef IRQKIT_RV_PTHREAD_H
#define IRQKIT_RV_PTHREAD_H

#include <irqkit/spinlock.h>

typedef struct {
	struct irqkit_spinlock	lock;
	unsigned long		flags;		/* the holder's */
} pthread_mutex_t;

#define PTHREAD_MUTEX_INITIALIZER	{ IRQKIT_SPINLOCK_INIT, 0 }

static inline int pthread_mutex_lock(pthread_mutex_t *m)
{
	unsigned long flags = irqkit_spin_lock_irqsave(&m->lock);

	m->flags = flags;
	return 0;
}

static inline int pthread_mutex_unlock(pthread_mutex_t *m)
{
	irqkit_spin_unlock_irqrestore(&m->lock, m->flags);
	return 0;
}

#endif /* IRQKIT_RV_PTHREAD_H */
