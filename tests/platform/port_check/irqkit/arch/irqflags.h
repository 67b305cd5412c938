/* SPDX-License-Identifier: MIT */
/*
 * A port's <irqkit/arch/irqflags.h> for the contract's compile test: every
 * hook with the contract's signature, or, with -DWRONG_<hook>, that one hook
 * with another.  Never run.
 */
#ifndef IRQKIT_ARCH_IRQFLAGS_H
#define IRQKIT_ARCH_IRQFLAGS_H

#ifdef WRONG_local_irq_save
static inline unsigned int irqkit_arch_local_irq_save(void)
#else
static inline unsigned long irqkit_arch_local_irq_save(void)
#endif
{
	return 0;
}

#ifdef WRONG_local_irq_restore
static inline void irqkit_arch_local_irq_restore(unsigned int flags)
#else
static inline void irqkit_arch_local_irq_restore(unsigned long flags)
#endif
{
	(void)flags;
}

#ifdef WRONG_local_save_flags
static inline bool irqkit_arch_local_save_flags(void)
#else
static inline unsigned long irqkit_arch_local_save_flags(void)
#endif
{
	return 0;
}

#ifdef WRONG_irqs_disabled_flags
static inline int irqkit_arch_irqs_disabled_flags(unsigned long flags)
#else
static inline bool irqkit_arch_irqs_disabled_flags(unsigned long flags)
#endif
{
	return flags != 0;
}

#ifdef WRONG_irq_flag_sync
static inline void irqkit_arch_irq_flag_sync(struct irqkit_task *t)
#else
static inline void irqkit_arch_irq_flag_sync(struct irqkit_task *t, bool off)
#endif
{
	(void)t;
#ifndef WRONG_irq_flag_sync
	(void)off;
#endif
}

#ifdef WRONG_hold_begin
static inline unsigned int irqkit_arch_hold_begin(void)
#else
static inline unsigned long irqkit_arch_hold_begin(void)
#endif
{
	return 0;
}

#ifdef WRONG_hold_end
static inline void irqkit_arch_hold_end(void)
{
}
#else
static inline void irqkit_arch_hold_end(unsigned long f)
{
	(void)f;
}
#endif

#ifdef IRQKIT_BUILD
#ifdef WRONG_lock_irq_save
static inline int irqkit_arch_lock_irq_save(void)
#else
static inline unsigned long irqkit_arch_lock_irq_save(void)
#endif
{
	return 0;
}

#ifdef WRONG_lock_irq_restore
static inline void irqkit_arch_lock_irq_restore(long flags)
#else
static inline void irqkit_arch_lock_irq_restore(unsigned long flags)
#endif
{
	(void)flags;
}
#endif

#endif
