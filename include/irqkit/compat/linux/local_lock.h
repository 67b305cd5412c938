/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/local_lock.h> over irqkit (Linux 5.8; local_lock_nested_bh
 * 6.11): a lock of the calling CPU's instance of per-CPU data.  As on a
 * kernel without PREEMPT_RT, local_lock() turns preemption off,
 * local_lock_irq()/_irqsave() interrupts, and local_lock_nested_bh() only
 * says that bottom halves are already off; nothing is taken.  In PREEMPT_RT
 * mode (IRQKIT_CFG_PREEMPT_RT) each is what it is on an RT kernel: the
 * CPU's instance is a sleeping spinlock_t, taken, with interrupts left on
 * (flags 0).  To the lock validator (code built with IRQKIT_LOCKDEP) it is
 * that per-CPU spinlock_t in both modes: checked for order, recursion and
 * wait context (a local_lock in a hardirq handler that cannot be threaded
 * is "Invalid wait context"), one class per local_lock_init() site, or per
 * instance for a static one.
 */
#ifndef IRQKIT_COMPAT_LINUX_LOCAL_LOCK_H
#define IRQKIT_COMPAT_LINUX_LOCAL_LOCK_H

#include <linux/version.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <linux/bottom_half.h>
#include <linux/bug.h>
#include <irqkit/spinlock.h>

typedef struct {
	struct irqkit_spinlock	irqkit__lock;	/* private: RT's lock; its address the validator's */
} local_lock_t;

#define INIT_LOCAL_LOCK(lockname)	{ IRQKIT_SPINLOCK_INIT }

#ifdef IRQKIT_LOCKDEP
#define irqkit__local_acquire(l)							\
	irqkit_lockdep_acquire_wait((l), false, IRQKIT_LD_WAIT_CONFIG)
#define irqkit__local_release(l)	irqkit_lockdep_release((l), true)
#define local_lock_init(lock)								\
	do {										\
		static const char irqkit__local_key_ = 0;				\
		irqkit_lockdep_init((lock), &irqkit__local_key_, #lock);		\
	} while (0)
#else
#define irqkit__local_acquire(l)	((void)(l))
#define irqkit__local_release(l)	((void)(l))
#define local_lock_init(lock)		((void)(lock))
#endif

/*
 * Every form is one of these two: on PREEMPT_RT the CPU's instance is taken
 * (@rt first: flags 0 for the _irqsave form), else @off (preemption or
 * interrupts, what the plain kernel turns off) and the validator's note;
 * the unlock undoes it in the other order.
 */
#define irqkit__local_lock_as(lock, off, rt)						\
	do {										\
		if (irqkit_preempt_rt()) {						\
			rt;								\
			irqkit_spin_lock(&this_cpu_ptr(lock)->irqkit__lock);		\
			break;								\
		}									\
		off;									\
		irqkit__local_acquire(this_cpu_ptr(lock));				\
	} while (0)
#define irqkit__local_unlock_as(lock, on)						\
	do {										\
		if (irqkit_preempt_rt()) {						\
			irqkit_spin_unlock(&this_cpu_ptr(lock)->irqkit__lock);	\
			break;								\
		}									\
		irqkit__local_release(this_cpu_ptr(lock));				\
		on;									\
	} while (0)

#define local_lock(lock)		irqkit__local_lock_as(lock, preempt_disable(), (void)0)
#define local_unlock(lock)		irqkit__local_unlock_as(lock, preempt_enable())
#define local_lock_irq(lock)		irqkit__local_lock_as(lock, local_irq_disable(), (void)0)
#define local_unlock_irq(lock)		irqkit__local_unlock_as(lock, local_irq_enable())
#define local_lock_irqsave(lock, flags)							\
	irqkit__local_lock_as(lock, local_irq_save(flags), (flags) = 0)
#define local_unlock_irqrestore(lock, flags)						\
	irqkit__local_unlock_as(lock, local_irq_restore(flags))

/* Bottom halves are off already (a softirq, or local_bh_disable): RT takes the lock. */
#define local_lock_nested_bh(lock)							\
	do {										\
		WARN_ON_ONCE(!in_softirq() || in_hardirq() || in_nmi());		\
		irqkit__local_lock_as(lock, (void)0, (void)0);				\
	} while (0)
#define local_unlock_nested_bh(lock)	irqkit__local_unlock_as(lock, (void)0)

#endif
