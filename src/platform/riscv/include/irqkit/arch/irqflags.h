/* SPDX-License-Identifier: MIT */
/*
 * The interrupt flag of the RISC-V bare-metal port (Linux's
 * <asm/irqflags.h>): the hart's own mstatus.MIE (machine mode).  Turning it
 * off really masks the hart's interrupts; one that arrives meanwhile stays
 * pending in mip and traps as soon as the flag comes back.  The task's
 * IRQKIT_TASK_IRQS_OFF bit is the state a caller sees (what save returns,
 * what irqs_disabled() and the core's checks read), set after the hart's
 * flag goes off and cleared before it comes back on, so no trap ever finds
 * it set.  The hart's flag follows it, except inside a trap (see
 * irqkit_rv_may_enable).  Included by <irqkit/task.h>.
 */
#ifndef IRQKIT_ARCH_IRQFLAGS_H
#define IRQKIT_ARCH_IRQFLAGS_H

#ifndef IRQKIT_TASK_H
#error "include <irqkit/task.h>, not <irqkit/arch/irqflags.h>"
#endif

#define IRQKIT_RV_MSTATUS_MIE	8ul
#define IRQKIT_RV_MAX_HARTS	8

/* private: traps each hart is inside (src/platform/riscv/trap.c) */
extern unsigned int irqkit_rv_trap_depth[IRQKIT_RV_MAX_HARTS];
/*
 * private: the runtime runs in deterministic mode (runtime.c), where no
 * trap enters the core and a CPU's interrupts are delivered at its
 * thread's points: interrupts turned back on are one of them.
 */
extern bool irqkit_rv_deterministic;
void irqkit_local_irq_enabled_deliver(struct irqkit_task *t);	/* src/core/context.c */

/*
 * May the hart take interrupts again now?  Always outside a trap.  Inside
 * one, only in the softirqs that the first trap's irq_exit runs (Linux runs
 * them with interrupts on); a trap's own handlers and its way out keep them
 * off until mret, so that an interrupt storm nests at most two traps deep.
 */
static inline bool irqkit_rv_may_enable(const struct irqkit_task *t)
{
	unsigned long hart;
	unsigned int depth;

	__asm__("csrr %0, mhartid" : "=r"(hart));
	depth = irqkit_rv_trap_depth[hart];
	return !depth || (depth == 1 && (t->preempt_count & IRQKIT_SOFTIRQ_OFFSET) &&
			  !(t->preempt_count & IRQKIT_HARDIRQ_MASK));
}

/* Disable local interrupts, returning the old state (nonzero: were off).  Context: any. */
static inline unsigned long irqkit_arch_local_irq_save(void)
{
	struct irqkit_task *t = irqkit_arch_current();
	unsigned long old = t->irqflags & IRQKIT_TASK_IRQS_OFF;

	__asm__ __volatile__("csrci mstatus, 8" : : : "memory");
	t->irqflags |= IRQKIT_TASK_IRQS_OFF;
	return old;
}

/* The hart's flag and the task's to @flags; true when they went on. */
static inline bool irqkit_rv_irq_restore(struct irqkit_task *t, unsigned long flags)
{
	if (flags) {
		__asm__ __volatile__("csrci mstatus, 8" : : : "memory");
		t->irqflags |= IRQKIT_TASK_IRQS_OFF;
		return false;
	}
	t->irqflags &= ~IRQKIT_TASK_IRQS_OFF;
	if (__builtin_expect(irqkit_rv_may_enable(t), 1))
		__asm__ __volatile__("csrsi mstatus, 8" : : : "memory");
	return true;
}

/*
 * Put back the state @flags saved by irqkit_arch_local_irq_save().  In
 * deterministic mode a bound thread takes its CPU's pending hardirqs here.
 * Context: any.
 */
static inline void irqkit_arch_local_irq_restore(unsigned long flags)
{
	struct irqkit_task *t = irqkit_arch_current();

	if (irqkit_rv_irq_restore(t, flags) && __builtin_expect(irqkit_rv_deterministic, 0) &&
	    (t->irqflags & IRQKIT_TASK_BOUND))
		irqkit_local_irq_enabled_deliver(t);
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
/* irqkit's own irqsave locks: the hart's flag is the CPU's own, so the same. */
static inline unsigned long irqkit_arch_lock_irq_save(void)
{
	return irqkit_arch_local_irq_save();
}

/* (never a delivery point: irqkit's own sections are not the program's to pick) */
static inline void irqkit_arch_lock_irq_restore(unsigned long flags)
{
	(void)irqkit_rv_irq_restore(irqkit_arch_current(), flags);
}

#endif

/*
 * The core turned the task's flag itself (a hardirq hold taken or let go):
 * the hart's follows, with the same rule as a restore.
 */
static inline void irqkit_arch_irq_flag_sync(struct irqkit_task *t, bool off)
{
	if (off)
		__asm__ __volatile__("csrci mstatus, 8" : : : "memory");
	else if (irqkit_rv_may_enable(t))
		__asm__ __volatile__("csrsi mstatus, 8" : : : "memory");
}

/*
 * The core changes how the task holds its CPU (the CPU's slot word and the
 * task's own bits): a trap taken on this task in between would find them
 * apart, so the hart's interrupts are off across, then as they were.
 */
static inline unsigned long irqkit_arch_hold_begin(void)
{
	unsigned long old;

	__asm__ __volatile__("csrrci %0, mstatus, 8" : "=r"(old) : : "memory");
	return old & IRQKIT_RV_MSTATUS_MIE;
}

static inline void irqkit_arch_hold_end(unsigned long f)
{
	if (f)
		__asm__ __volatile__("csrsi mstatus, 8" : : : "memory");
}

#endif /* IRQKIT_ARCH_IRQFLAGS_H */
