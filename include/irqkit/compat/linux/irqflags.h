/* SPDX-License-Identifier: MIT */
/* Linux's <linux/irqflags.h> over irqkit: local interrupt control; no global cli()/sti(). */
#ifndef IRQKIT_COMPAT_LINUX_IRQFLAGS_H
#define IRQKIT_COMPAT_LINUX_IRQFLAGS_H

#include <irqkit/task.h>
#include <linux/cleanup.h>

/* Linux's typecheck(): flags must be unsigned long. */
#define irqkit__typecheck(type, x) ({				\
	type __irqkit_dummy;					\
	__typeof__(x) __irqkit_dummy2;				\
	(void)(&__irqkit_dummy == &__irqkit_dummy2);		\
	1;							\
})

#define local_irq_save(flags)						\
	do {								\
		irqkit__typecheck(unsigned long, flags);		\
		(flags) = irqkit_local_irq_save();			\
	} while (0)
#define local_irq_restore(flags)					\
	do {								\
		irqkit__typecheck(unsigned long, flags);		\
		irqkit_local_irq_restore(flags);			\
	} while (0)
#define local_save_flags(flags)						\
	do {								\
		irqkit__typecheck(unsigned long, flags);		\
		(flags) = irqkit_local_save_flags();			\
	} while (0)
#define local_irq_disable()		irqkit_local_irq_disable()
#define local_irq_enable()		irqkit_local_irq_enable()
#define irqs_disabled()			irqkit_irqs_disabled()
#define irqs_disabled_flags(flags)	((flags) != 0)

#define raw_local_irq_save(flags)	local_irq_save(flags)
#define raw_local_irq_restore(flags)	local_irq_restore(flags)
#define raw_local_irq_disable()		local_irq_disable()
#define raw_local_irq_enable()		local_irq_enable()
#define raw_local_save_flags(flags)	local_save_flags(flags)

/*
 * Removed in Linux 2.6: the global interrupt lock.  Code that still uses these
 * fails to compile with the replacement in the message.
 */
__attribute__((unavailable("cli() is gone since Linux 2.6 (no global interrupt lock): "
	"use local_irq_disable()/local_irq_save() for this CPU, or spin_lock_irqsave() "
	"to exclude a handler on any CPU")))
void cli(void);
__attribute__((unavailable("sti() is gone since Linux 2.6: use local_irq_enable()/"
	"local_irq_restore(), or spin_unlock_irqrestore() to end a spin_lock_irqsave() section")))
void sti(void);
__attribute__((unavailable("save_flags() is gone since Linux 2.6: use "
	"local_irq_save(flags) or spin_lock_irqsave(lock, flags)")))
void irqkit__removed_save_flags(void);
__attribute__((unavailable("restore_flags() is gone since Linux 2.6: use "
	"local_irq_restore(flags) or spin_unlock_irqrestore(lock, flags)")))
void irqkit__removed_restore_flags(void);
#define save_flags(flags)	irqkit__removed_save_flags()
#define restore_flags(flags)	irqkit__removed_restore_flags()

/* guard(irqsave)(), guard(irq)() (<linux/cleanup.h>): interrupts off for the scope */
DEFINE_LOCK_GUARD_0(irq, local_irq_disable(), local_irq_enable())
DEFINE_LOCK_GUARD_0(irqsave, local_irq_save(_T->flags), local_irq_restore(_T->flags),
		    unsigned long flags)

#endif
