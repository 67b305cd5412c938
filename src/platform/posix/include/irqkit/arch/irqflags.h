/* SPDX-License-Identifier: MIT */
/*
 * The interrupt flag of the Linux user-space port (Linux's
 * <asm/irqflags.h>).  A virtual CPU is a set of threads, so the flag is a
 * word of the calling thread's task: an unbound thread's flag records the
 * state and excludes nothing (one load and one store); a thread bound to
 * virtual CPU k joins or leaves k's interrupts-off holders in the core's
 * slow paths (src/core/context.c), which keep k's hardirq handlers out and
 * deliver what was latched meanwhile when the flag comes back.  Included
 * by <irqkit/task.h>.
 */
#ifndef IRQKIT_ARCH_IRQFLAGS_H
#define IRQKIT_ARCH_IRQFLAGS_H

#ifndef IRQKIT_TASK_H
#error "include <irqkit/task.h>, not <irqkit/arch/irqflags.h>"
#endif

/* Slow paths of the inline functions below: a thread bound to a virtual CPU. */
IRQKIT_API void irqkit_local_irq_disable_slow(struct irqkit_task *t);
IRQKIT_API void irqkit_local_irq_enable_slow(struct irqkit_task *t);

/* Disable local interrupts, returning the old state.  Context: any. */
IRQKIT__IRQFN unsigned long irqkit_arch_local_irq_save(void)
{
	struct irqkit_task *t = irqkit_arch_current();
	unsigned int s = t->irqflags;

	/* unbound with interrupts on, the common case: one load, one store */
	if (__builtin_expect(s == 0, 1)) {
		t->irqflags = IRQKIT_TASK_IRQS_OFF;
		return 0;
	}
	if (s & IRQKIT_TASK_IRQS_OFF)
		return 1;
	IRQKIT__IRQ_POINT("local_irq_save");
	irqkit_local_irq_disable_slow(t);
	return 0;
}

/* Put back the state @flags saved by irqkit_arch_local_irq_save().  Context: any. */
IRQKIT__IRQFN void irqkit_arch_local_irq_restore(unsigned long flags)
{
	struct irqkit_task *t = irqkit_arch_current();
	unsigned int s = t->irqflags;
	unsigned int off = flags != 0;

	if (__builtin_expect(!(s & IRQKIT_TASK_BOUND), 1)) {
		t->irqflags = off;
		return;
	}
	if (off == (s & IRQKIT_TASK_IRQS_OFF))
		return;
	if (off) {
		irqkit_local_irq_disable_slow(t);
	} else {
		irqkit_local_irq_enable_slow(t);
		IRQKIT__IRQ_POINT("local_irq_restore");
	}
}

/* The state, unchanged: nonzero when interrupts are off.  Context: any. */
static inline unsigned long irqkit_arch_local_save_flags(void)
{
	return irqkit_arch_current()->irqflags & IRQKIT_TASK_IRQS_OFF;
}

/* Does @flags, as saved, say interrupts were off?  Context: any. */
static inline bool irqkit_arch_irqs_disabled_flags(unsigned long flags)
{
	return flags != 0;
}

#ifdef IRQKIT_BUILD
/*
 * The interrupt state of irqkit's own irqsave locks: the thread's flag only,
 * without holding its CPU, and no delivery point at the end.  Interrupts
 * off there means what a lock taken in interrupt context needs, that no
 * handler interrupts the holder: those sections reach no delivery point,
 * and a handler of the same CPU runs on another thread and waits for the
 * lock.  They need not keep that CPU's handlers out meanwhile (the lock
 * guards their data), so a kworker pays no atomic on its CPU's word per
 * item, and mod_timer or flush_work runs no handler on a deterministic
 * test's thread.  irqkit's explicit local_irq_save sections, which run
 * handlers (the poll, resends, forced threads), hold the CPU as a
 * program's do.  A port whose flag is the CPU's own uses its
 * irqkit_arch_local_irq_save/restore here.
 */
static inline unsigned long irqkit_arch_lock_irq_save(void)
{
	struct irqkit_task *t = irqkit_arch_current();

	if (t->irqflags & IRQKIT_TASK_IRQS_OFF)
		return 1;
	t->irqflags |= IRQKIT_TASK_IRQS_OFF;
	return 0;
}

static inline void irqkit_arch_lock_irq_restore(unsigned long flags)
{
	struct irqkit_task *t = irqkit_arch_current();

	if (flags)
		return;
	if (__builtin_expect(t->slot & IRQKIT__TASK_SLOT_IRQOFF, 0))
		irqkit_local_irq_enable_slow(t);	/* an unlock_irq inside a held section */
	else
		t->irqflags &= ~IRQKIT_TASK_IRQS_OFF;
}

#endif

/* The core turned the task's flag itself: the flag is all there is here. */
static inline void irqkit_arch_irq_flag_sync(struct irqkit_task *t, bool off)
{
	(void)t;
	(void)off;
}

/*
 * The core changes how the task holds its CPU (the CPU's slot word and the
 * task's own bits, which a trap on the same task would read together): here
 * no trap interrupts a thread, so nothing to do.
 */
static inline unsigned long irqkit_arch_hold_begin(void)
{
	return 0;
}

static inline void irqkit_arch_hold_end(unsigned long f)
{
	(void)f;
}

#endif /* IRQKIT_ARCH_IRQFLAGS_H */
