/* SPDX-License-Identifier: MIT */
/*
 * The part of POSIX threads the core's tests use, on bare metal: a mutex over
 * the captured log, and helper threads.  The log is written from any
 * context, a handler included, so the mutex is an irqkit spinlock taken with
 * interrupts saved.  A thread is one of the port's (the platform contract's
 * irqkit_plat_thread_create), bound to no CPU, as a host thread is.
 */
#ifndef IRQKIT_RV_PTHREAD_H
#define IRQKIT_RV_PTHREAD_H

#include <irqkit-core/platform.h>
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

struct rv_pthread {
	struct irqkit_plat_thread	*th;
	void				*(*fn)(void *arg);
	void				*arg, *ret;
};
typedef struct rv_pthread *pthread_t;
typedef struct rv_pthread_attr pthread_attr_t;	/* never defined: only NULL is passed */

static inline void rv_pthread_main(void *arg)
{
	struct rv_pthread *t = arg;

	t->ret = t->fn(t->arg);
}

static inline int pthread_create(pthread_t *out, const pthread_attr_t *attr,
				 void *(*fn)(void *arg), void *arg)
{
	struct rv_pthread *t = irqkit_plat_alloc(sizeof(*t));

	(void)attr;
	*out = NULL;
	if (!t)
		return 11;	/* EAGAIN */
	t->fn = fn;
	t->arg = arg;
	if (irqkit_plat_thread_create(&t->th, "pthread", rv_pthread_main, t)) {
		irqkit_plat_free(t, sizeof(*t));
		return 11;
	}
	*out = t;
	return 0;
}

static inline int pthread_join(pthread_t t, void **ret)
{
	irqkit_plat_thread_join(t->th);
	if (ret)
		*ret = t->ret;
	irqkit_plat_free(t, sizeof(*t));
	return 0;
}

/*
 * The calling thread's name, the tests' only use of pthread_self(): the
 * handle pthread_self() returns means "the caller", whose name is the
 * port's thread name (ksoftirqd/0, kworker/0:1, ...), as the host thread's is.
 */
static inline pthread_t pthread_self(void)
{
	return NULL;
}

static inline int pthread_getname_np(pthread_t t, char *buf, size_t len)
{
	if (t || !len)
		return 22;	/* EINVAL: only the caller's */
	irqkit_plat_thread_name(buf, len);
	return 0;
}

#endif /* IRQKIT_RV_PTHREAD_H */
