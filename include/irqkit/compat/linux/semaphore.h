/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/semaphore.h> over irqkit: counting semaphores.  Before
 * 2.6.37 a semaphore used as a lock was declared with DECLARE_MUTEX and
 * init_MUTEX (then DEFINE_SEMAPHORE); those follow LINUX_VERSION_CODE,
 * since DEFINE_MUTEX and mutex_init name struct mutex today.
 */
#ifndef IRQKIT_COMPAT_LINUX_SEMAPHORE_H
#define IRQKIT_COMPAT_LINUX_SEMAPHORE_H

#include <irqkit/wait.h>
#include <linux/version.h>

#define semaphore			irqkit_semaphore
#define __SEMAPHORE_INITIALIZER(name, n)	IRQKIT_SEMAPHORE_INITIALIZER(name, n)
#define IRQKIT__DEFINE_SEMAPHORE1(name)	struct semaphore name = IRQKIT_SEMAPHORE_INITIALIZER(name, 1)
#define IRQKIT__DEFINE_SEMAPHORE2(name, n) struct semaphore name = IRQKIT_SEMAPHORE_INITIALIZER(name, n)
#define DEFINE_SEMAPHORE(...)		IRQKIT__BY_NARGS(IRQKIT__DEFINE_SEMAPHORE, __VA_ARGS__)
#define sema_init(sem, val)		irqkit_sema_init((sem), (val))
#define down(sem)			irqkit_down(sem)
#define down_interruptible(sem)		irqkit_down_interruptible(sem)
#define down_killable(sem)		irqkit_down_killable(sem)
#define down_timeout(sem, t)		irqkit_down_timeout((sem), (t))
#define down_trylock(sem)		irqkit_down_trylock(sem)
#define up(sem)				irqkit_up(sem)

#include <linux/irqkit_args.h>

#if !IRQKIT_LINUX_AT_LEAST(2, 6, 37)
#define DECLARE_MUTEX(name)		struct semaphore name = IRQKIT_SEMAPHORE_INITIALIZER(name, 1)
#define DECLARE_MUTEX_LOCKED(name)	struct semaphore name = IRQKIT_SEMAPHORE_INITIALIZER(name, 0)
#define init_MUTEX(sem)			irqkit_sema_init((sem), 1)
#define init_MUTEX_LOCKED(sem)		irqkit_sema_init((sem), 0)
#else
#define IRQKIT__NO_SEM_MUTEX(what)							\
	what " is gone since Linux 2.6.37: use DEFINE_SEMAPHORE/sema_init (or a struct mutex), " \
	"or build with IRQKIT_LINUX_VERSION_CODE < KERNEL_VERSION(2,6,37)"
#define DECLARE_MUTEX(name)		IRQKIT_ERA_ERROR_DECL(IRQKIT__NO_SEM_MUTEX("DECLARE_MUTEX"))
#define DECLARE_MUTEX_LOCKED(name)	IRQKIT_ERA_ERROR_DECL(IRQKIT__NO_SEM_MUTEX("DECLARE_MUTEX_LOCKED"))
#define init_MUTEX(sem)			IRQKIT_ERA_ERROR(IRQKIT__NO_SEM_MUTEX("init_MUTEX"))
#define init_MUTEX_LOCKED(sem)		IRQKIT_ERA_ERROR(IRQKIT__NO_SEM_MUTEX("init_MUTEX_LOCKED"))
#endif

#endif
