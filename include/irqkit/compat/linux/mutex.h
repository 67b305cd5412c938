/* SPDX-License-Identifier: MIT */
/* Linux's <linux/mutex.h> over irqkit (struct mutex since 2.6.16): sleeping, one owner. */
#ifndef IRQKIT_COMPAT_LINUX_MUTEX_H
#define IRQKIT_COMPAT_LINUX_MUTEX_H

#include <irqkit/wait.h>
#include <linux/cleanup.h>

#define mutex				irqkit_mutex
#define __MUTEX_INITIALIZER(name)	IRQKIT_MUTEX_INITIALIZER(name)
#define DEFINE_MUTEX(name)		struct mutex name = IRQKIT_MUTEX_INITIALIZER(name)
#define mutex_init(lock)		irqkit_mutex_init(lock)
#define mutex_lock(lock)		irqkit_mutex_lock(lock)
#define mutex_lock_interruptible(lock)	irqkit_mutex_lock_interruptible(lock)
#define mutex_lock_killable(lock)	irqkit_mutex_lock_killable(lock)
#define mutex_trylock(lock)		irqkit_mutex_trylock(lock)
#define mutex_unlock(lock)		irqkit_mutex_unlock(lock)
#define mutex_is_locked(lock)		irqkit_mutex_is_locked(lock)
#define mutex_destroy(lock)		((void)(lock))

/* guard(mutex)(&lock), scoped_guard(mutex, &lock) { } (<linux/cleanup.h>) */
DEFINE_GUARD(mutex, struct mutex *, mutex_lock(_T), mutex_unlock(_T))

#endif
