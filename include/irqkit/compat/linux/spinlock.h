/* SPDX-License-Identifier: MIT */
/* Linux's <linux/spinlock.h> over irqkit: spinlock_t, rwlock_t and every variant. */
#ifndef IRQKIT_COMPAT_LINUX_SPINLOCK_H
#define IRQKIT_COMPAT_LINUX_SPINLOCK_H

#include <irqkit/spinlock.h>
#include <linux/version.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/bottom_half.h>
#include <linux/cleanup.h>

typedef struct irqkit_spinlock spinlock_t;
typedef struct irqkit_spinlock raw_spinlock_t;
typedef struct irqkit_rwlock rwlock_t;

#define __SPIN_LOCK_UNLOCKED(name)	IRQKIT_SPINLOCK_INIT
#define DEFINE_SPINLOCK(x)		spinlock_t x = IRQKIT_SPINLOCK_INIT
#define DEFINE_RAW_SPINLOCK(x)		raw_spinlock_t x = IRQKIT_SPINLOCK_INIT
#define __RW_LOCK_UNLOCKED(name)	IRQKIT_RWLOCK_INIT
#define DEFINE_RWLOCK(x)		rwlock_t x = IRQKIT_RWLOCK_INIT
#if !IRQKIT_LINUX_AT_LEAST(2, 6, 39)
/* 2.6's static initialisers, before DEFINE_SPINLOCK (removed in 2.6.39) */
#define SPIN_LOCK_UNLOCKED		IRQKIT_SPINLOCK_INIT
#define RW_LOCK_UNLOCKED		IRQKIT_RWLOCK_INIT
#endif

#define spin_lock_init(l)		irqkit_spin_lock_init(l)
#define spin_is_locked(l)		irqkit_spin_is_locked(l)
#define spin_lock(l)			irqkit_spin_lock(l)
#define spin_unlock(l)			irqkit_spin_unlock(l)
#define spin_trylock(l)			irqkit_spin_trylock(l)
#define spin_lock_irq(l)		irqkit_spin_lock_irq(l)
#define spin_unlock_irq(l)		irqkit_spin_unlock_irq(l)
#define spin_lock_bh(l)			irqkit_spin_lock_bh(l)
#define spin_unlock_bh(l)		irqkit_spin_unlock_bh(l)
#define spin_trylock_irq(l)		irqkit_spin_trylock_irq(l)
#define spin_trylock_bh(l)		irqkit_spin_trylock_bh(l)
#define spin_lock_irqsave(l, flags)					\
	do {								\
		irqkit__typecheck(unsigned long, flags);		\
		(flags) = irqkit_spin_lock_irqsave(l);			\
	} while (0)
#define spin_unlock_irqrestore(l, flags)				\
	do {								\
		irqkit__typecheck(unsigned long, flags);		\
		irqkit_spin_unlock_irqrestore((l), (flags));		\
	} while (0)
#define spin_trylock_irqsave(l, flags)					\
	({ irqkit__typecheck(unsigned long, flags);			\
	   irqkit_spin_trylock_irqsave((l), &(flags)); })

/*
 * raw_spinlock_t is the same lock as spinlock_t here; its operations tell
 * the validator's wait check that it spins and keep it spinning in
 * PREEMPT_RT mode (IRQKIT_CFG_PREEMPT_RT), where a spinlock_t sleeps and
 * leaves interrupts on, as on an RT kernel.
 */
#define raw_spin_lock_init(l)		spin_lock_init(l)
#define raw_spin_lock(l)		irqkit_raw_spin_lock(l)
#define raw_spin_unlock(l)		irqkit_raw_spin_unlock(l)
#define raw_spin_trylock(l)		irqkit_raw_spin_trylock(l)
#define raw_spin_lock_irq(l)		irqkit_raw_spin_lock_irq(l)
#define raw_spin_unlock_irq(l)		irqkit_raw_spin_unlock_irq(l)
#define raw_spin_lock_irqsave(l, flags)					\
	do {								\
		irqkit__typecheck(unsigned long, flags);		\
		(flags) = irqkit_raw_spin_lock_irqsave(l);		\
	} while (0)
#define raw_spin_unlock_irqrestore(l, flags)				\
	do {								\
		irqkit__typecheck(unsigned long, flags);		\
		irqkit_raw_spin_unlock_irqrestore((l), (flags));	\
	} while (0)
#define raw_spin_trylock_irqsave(l, flags)				\
	({ irqkit__typecheck(unsigned long, flags);			\
	   irqkit_raw_spin_trylock_irqsave((l), &(flags)); })

#define rwlock_init(l)			irqkit_rwlock_init(l)
#define read_lock(l)			irqkit_read_lock(l)
#define read_unlock(l)			irqkit_read_unlock(l)
#define read_trylock(l)			irqkit_read_trylock(l)
#define read_lock_irq(l)		irqkit_read_lock_irq(l)
#define read_unlock_irq(l)		irqkit_read_unlock_irq(l)
#define read_lock_bh(l)			irqkit_read_lock_bh(l)
#define read_unlock_bh(l)		irqkit_read_unlock_bh(l)
#define read_lock_irqsave(l, flags)					\
	do {								\
		irqkit__typecheck(unsigned long, flags);		\
		(flags) = irqkit_read_lock_irqsave(l);			\
	} while (0)
#define read_unlock_irqrestore(l, flags)	irqkit_read_unlock_irqrestore((l), (flags))
#define write_lock(l)			irqkit_write_lock(l)
#define write_unlock(l)			irqkit_write_unlock(l)
#define write_trylock(l)		irqkit_write_trylock(l)
#define write_lock_irq(l)		irqkit_write_lock_irq(l)
#define write_unlock_irq(l)		irqkit_write_unlock_irq(l)
#define write_lock_bh(l)		irqkit_write_lock_bh(l)
#define write_unlock_bh(l)		irqkit_write_unlock_bh(l)
#define write_lock_irqsave(l, flags)					\
	do {								\
		irqkit__typecheck(unsigned long, flags);		\
		(flags) = irqkit_write_lock_irqsave(l);			\
	} while (0)
#define write_unlock_irqrestore(l, flags) irqkit_write_unlock_irqrestore((l), (flags))
#define write_trylock_irqsave(l, flags)					\
	({ irqkit__typecheck(unsigned long, flags);			\
	   if (irqkit_preempt_rt())					\
		(flags) = 0;						\
	   else								\
		local_irq_save(flags);					\
	   write_trylock(l) ? 1 :					\
		({ if (!irqkit_preempt_rt()) local_irq_restore(flags); 0; }); })

/* Guards (<linux/cleanup.h>): guard(spinlock_irqsave)(&lock), scoped_guard(...) { } */
DEFINE_LOCK_GUARD_1(spinlock, spinlock_t, spin_lock(_T->lock), spin_unlock(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_irq, spinlock_t, spin_lock_irq(_T->lock), spin_unlock_irq(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_bh, spinlock_t, spin_lock_bh(_T->lock), spin_unlock_bh(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_irqsave, spinlock_t, spin_lock_irqsave(_T->lock, _T->flags),
		    spin_unlock_irqrestore(_T->lock, _T->flags), unsigned long flags)
DEFINE_LOCK_GUARD_1(raw_spinlock, raw_spinlock_t, raw_spin_lock(_T->lock), raw_spin_unlock(_T->lock))
DEFINE_LOCK_GUARD_1(raw_spinlock_irq, raw_spinlock_t, raw_spin_lock_irq(_T->lock),
		    raw_spin_unlock_irq(_T->lock))
DEFINE_LOCK_GUARD_1(raw_spinlock_irqsave, raw_spinlock_t,
		    raw_spin_lock_irqsave(_T->lock, _T->flags),
		    raw_spin_unlock_irqrestore(_T->lock, _T->flags), unsigned long flags)

#endif
