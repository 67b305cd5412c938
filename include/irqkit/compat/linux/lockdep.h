/* SPDX-License-Identifier: MIT */
/*
 * <linux/lockdep.h>: the assertions of the lock validator.  With
 * -DIRQKIT_LOCKDEP (Linux's CONFIG_LOCKDEP) they check and warn; without it
 * they compile to nothing, as in a kernel without lockdep.
 */
#ifndef IRQKIT_COMPAT_LINUX_LOCKDEP_H
#define IRQKIT_COMPAT_LINUX_LOCKDEP_H

#include <irqkit/spinlock.h>

#ifdef IRQKIT_LOCKDEP
#define lockdep_assert_held(l)		irqkit_lockdep_assert_held(l)
#define lockdep_is_held(l)		irqkit_lockdep_is_held(l)
#define lockdep_assert_irqs_disabled()	irqkit_lockdep_assert_irqs_disabled()
#define debug_locks			irqkit_lockdep_enabled()
#define debug_locks_off()		irqkit_lockdep_off()
#else
#define lockdep_assert_held(l)		do { (void)(l); } while (0)
#define lockdep_is_held(l)		((void)(l), 1)
#define lockdep_assert_irqs_disabled()	do { } while (0)
#define debug_locks			0
#define debug_locks_off()		do { } while (0)
#endif

#endif /* IRQKIT_COMPAT_LINUX_LOCKDEP_H */
