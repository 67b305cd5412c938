/* SPDX-License-Identifier: MIT */
/* Per-thread interrupt context: preempt_count, the local interrupt flag, bottom halves. */
#ifndef IRQKIT_TASK_H
#define IRQKIT_TASK_H

#include <irqkit/types.h>

struct irqkit__tbuf;
struct irqkit__kthread;

#ifdef __cplusplus
extern "C" {
#endif

/*
 * preempt_count layout, as Linux's include/linux/preempt.h:
 *
 *   PREEMPT  0x000000ff   spin_lock nesting
 *   SOFTIRQ  0x0000ff00   0x100 serving softirqs, 0x200 per local_bh_disable
 *   HARDIRQ  0x000f0000   hardirq nesting
 *   NMI      0x00f00000
 */
#define IRQKIT_PREEMPT_MASK		0x000000ffu
#define IRQKIT_SOFTIRQ_MASK		0x0000ff00u
#define IRQKIT_HARDIRQ_MASK		0x000f0000u
#define IRQKIT_NMI_MASK			0x00f00000u
#define IRQKIT_PREEMPT_OFFSET		0x00000001u
#define IRQKIT_SOFTIRQ_OFFSET		0x00000100u
#define IRQKIT_SOFTIRQ_DISABLE_OFFSET	0x00000200u
#define IRQKIT_HARDIRQ_OFFSET		0x00010000u
#define IRQKIT_NMI_OFFSET		0x00100000u

struct irqkit_cpu;

/* private: a lock the lock validator saw taken (Linux's struct held_lock) */
struct irqkit__held_lock {
	const void		*lock;
	unsigned int		cls;
	const void		*ip;
	bool			read;		/* a reader of a reader-writer lock */
	unsigned char		wait;		/* its wait type (IRQKIT_LD_WAIT_*) */
	unsigned char		ctx;		/* the context it was taken in: hardirq depth, softirq */
};
#define IRQKIT__LOCKDEP_DEPTH	48	/* held locks per task, Linux's MAX_LOCK_DEPTH */
struct irqkit__task_lockdep {
	const void		*entry_ip;	/* the validator's caller: stacks start there */
	int			depth;
	bool			inside;		/* the validator runs: no checks */
	struct irqkit__held_lock held[IRQKIT__LOCKDEP_DEPTH];
};

/*
 * struct irqkit_task - interrupt state of the calling thread.
 *
 * Interrupt state is per thread, as preempt_count is per task in Linux, so the
 * context predicates answer for the caller.  A thread bound to a virtual CPU
 * shares that CPU with its dispatcher: turning interrupts off there keeps the
 * CPU's hardirq handlers from running.  An unbound thread belongs to no CPU:
 * turning interrupts off records the state and excludes nothing.
 */
/* irqkit_task.irqflags bits */
#define IRQKIT_TASK_IRQS_OFF	1u	/* local interrupts are off */
#define IRQKIT_TASK_BOUND	2u	/* bound to a virtual CPU: the slow paths apply */
#define IRQKIT__TASK_SLOT_IRQOFF	1u	/* private: in irqkit_task.slot, holds its CPU's interrupts off */

struct irqkit_task {
	unsigned int		preempt_count;	/* read-only */
	unsigned int		irqflags;	/* read-only: IRQKIT_TASK_* */
	struct irqkit_cpu	*cpu;		/* private: bound virtual CPU or NULL */
	const void		*running;	/* private: descriptor being handled */
	const void		*running_bh;	/* private: tasklet, timer or work running */
	int			cpu_id;		/* read-only: bound CPU, or the CPU it acts for */
	unsigned int		slot;		/* private: how this thread holds its CPU */
	unsigned int		run;		/* private: the run of the runtime it is bound in */
	int			tid;		/* private: its thread id, once it is bound */
	const void		*running_fn;	/* private: handler or bottom half running, for reports */
	bool			kthread;	/* private: a thread of the runtime itself */
	bool			nodeliver;	/* private: never a delivery point (deterministic) */
	unsigned int		direct_irq;	/* private: irq + 1 while a chip's direct path delivers it */
	struct irqkit__tbuf	*trace;		/* private: its ring of the timeline recorder */
	unsigned int		trace_gen;	/* private: of that recording */
	/*
	 * Linux's task_struct fields that drivers read (see <irqkit/sched.h>).
	 * From here on a field lives as long as the thread: a run's end resets
	 * only the fields above.
	 */
	unsigned int		state;		/* IRQKIT_TASK_RUNNING, _INTERRUPTIBLE, ... */
	unsigned int		wake_seq;	/* private: bumped by each wake-up */
	int			pid;		/* read-only: thread id, once irqkit_current() ran */
	char			comm[16];	/* read-only: thread name, likewise */
	/* private: state of the core's that Linux keeps in task_struct too */
	void			*irq_thread_desc;	/* the line of the irq thread */
	void			*irq_thread_action;	/* and its action */
	void			*worker;	/* the kworker it is, or NULL */
	struct irqkit__kthread	*kthread_rec;	/* the kthread it is (<irqkit/kthread.h>), or NULL */
	bool			in_point;	/* an exploration's hook runs */
	unsigned int		chip_claimed;	/* irq + 1 a chip's claim took */
	/* private: signals (<irqkit/signal.h>), bit n - 1 for signal n */
	unsigned long long	sig_pending;
	unsigned long long	sig_allowed;	/* a kthread's allow_signal() */
	unsigned int		sig_notify;	/* kthread_stop()'s TIF_NOTIFY_SIGNAL */
	/* private: the task list (signals, the listing), kept until the thread ends */
	bool			registered;
	struct irqkit_task	*tasks_next, **tasks_pprev;
	struct irqkit__task_lockdep lockdep;	/* the lock validator's held locks */
};

/* Slow paths of the inline bottom-half functions below: a thread bound to a virtual CPU. */
IRQKIT_API void irqkit_local_bh_disable_slow(struct irqkit_task *t);
IRQKIT_API void irqkit_local_bh_enable_slow(struct irqkit_task *t);

/*
 * In code compiled with -DIRQKIT_LOCKDEP, interrupts turned off or back on
 * and bottom halves turned back on by a thread bound to a CPU are interrupt
 * points of an exploration (<irqkit/explore.h>); irqkit's own code, built
 * without it, is not.  These functions are then always inlined, so the
 * point names the caller's code.
 */
IRQKIT_API void irqkit_sim_point_irq(const char *what);
#if defined(IRQKIT_LOCKDEP) && !defined(IRQKIT_BUILD)
#define IRQKIT__IRQFN		static inline __attribute__((always_inline))
#define IRQKIT__IRQ_POINT(what)	irqkit_sim_point_irq(what)
#else
#define IRQKIT__IRQFN		static inline
#define IRQKIT__IRQ_POINT(what)	((void)0)
#endif

/*
 * The inline hooks of the port contract, declared with their signatures
 * before the port's headers define them, so that a port whose definition
 * differs fails to build ("conflicting types"); what each does and when the
 * core calls it is src/core/include/irqkit-core/arch.h.
 */
static inline struct irqkit_task *irqkit_arch_current(void);
static inline int irqkit_arch_smp_processor_id(void);
static inline unsigned long irqkit_arch_local_irq_save(void);
static inline void irqkit_arch_local_irq_restore(unsigned long flags);
static inline unsigned long irqkit_arch_local_save_flags(void);
static inline bool irqkit_arch_irqs_disabled_flags(unsigned long flags);
static inline void irqkit_arch_irq_flag_sync(struct irqkit_task *t, bool off);
static inline unsigned long irqkit_arch_hold_begin(void);
static inline void irqkit_arch_hold_end(unsigned long f);
#ifdef IRQKIT_BUILD
static inline unsigned long irqkit_arch_lock_irq_save(void);
static inline void irqkit_arch_lock_irq_restore(unsigned long flags);
#endif

/*
 * The port's current task and interrupt flag (Linux's <asm/current.h> and
 * <asm/irqflags.h>): the build installs its port's <irqkit/arch/...>.
 */
#include <irqkit/arch/current.h>
#include <irqkit/arch/irqflags.h>

/**
 * irqkit_local_irq_save - disable local interrupts, returning the old state
 *
 * Context: any.  On an unbound thread this is a thread-local store; on a thread
 * bound to CPU k it waits for a hardirq handler running on k to finish.
 * Return: the previous state, for irqkit_local_irq_restore().
 */
IRQKIT__IRQFN unsigned long irqkit_local_irq_save(void)
{
	return irqkit_arch_local_irq_save();
}

/**
 * irqkit_local_irq_restore - put back exactly the state saved by irqkit_local_irq_save()
 * @flags: the saved state
 *
 * Context: any.  On a bound thread, interrupts latched meanwhile for its CPU are
 * delivered here, on this thread, when the state goes back to enabled.
 */
IRQKIT__IRQFN void irqkit_local_irq_restore(unsigned long flags)
{
	irqkit_arch_local_irq_restore(flags);
}

/** irqkit_local_irq_disable - disable local interrupts unconditionally.  Context: any. */
IRQKIT__IRQFN void irqkit_local_irq_disable(void)
{
	(void)irqkit_local_irq_save();
}

/**
 * irqkit_local_irq_enable - enable local interrupts unconditionally
 *
 * Context: any.  Inside a save/restore region this breaks the outer section,
 * as in Linux.  Pending interrupts of a bound thread's CPU are delivered here.
 */
IRQKIT__IRQFN void irqkit_local_irq_enable(void)
{
	irqkit_local_irq_restore(0);
}

#ifdef IRQKIT_BUILD
/* irqkit's own irqsave locks: the flag alone (see <irqkit/arch/irqflags.h>). */
#define IRQKIT__LOCK_IRQ_SAVE()		irqkit_arch_lock_irq_save()
#define IRQKIT__LOCK_IRQ_RESTORE(f)	irqkit_arch_lock_irq_restore(f)
#else
#define IRQKIT__LOCK_IRQ_SAVE()		irqkit_local_irq_save()
#define IRQKIT__LOCK_IRQ_RESTORE(f)	irqkit_local_irq_restore(f)
#endif

/** irqkit_local_save_flags - the local interrupt state, unchanged.  Context: any. */
static inline unsigned long irqkit_local_save_flags(void)
{
	return irqkit_arch_local_save_flags();
}

/** irqkit_irqs_disabled - true when local interrupts are off.  Context: any. */
static inline bool irqkit_irqs_disabled(void)
{
	return irqkit_arch_irqs_disabled_flags(irqkit_arch_local_save_flags());
}

static inline unsigned int irqkit_preempt_count(void)
{
	return irqkit_arch_current()->preempt_count;
}

static inline void irqkit_preempt_disable(void)
{
	irqkit_arch_current()->preempt_count += IRQKIT_PREEMPT_OFFSET;
}

static inline void irqkit_preempt_enable(void)
{
	irqkit_arch_current()->preempt_count -= IRQKIT_PREEMPT_OFFSET;
}

/**
 * irqkit_local_bh_disable - disable bottom halves (softirqs, tasklets) on this thread
 *
 * Adds SOFTIRQ_DISABLE_OFFSET (0x200) to preempt_count, so
 * in_softirq() and in_interrupt() are true until the matching enable.  On a
 * thread bound to CPU k, no softirq or tasklet runs on k meanwhile.
 * Context: process or softirq.
 */
static inline void irqkit_local_bh_disable(void)
{
	struct irqkit_task *t = irqkit_arch_current();

	if (__builtin_expect(t->irqflags & IRQKIT_TASK_BOUND, 0))
		irqkit_local_bh_disable_slow(t);
	else
		t->preempt_count += IRQKIT_SOFTIRQ_DISABLE_OFFSET;
}

/**
 * irqkit_local_bh_enable - end a local_bh_disable section
 *
 * Context: process or softirq, interrupts on.  From hardirq context or with
 * interrupts off it warns as Linux does.  Reaching zero on a bound thread runs
 * the CPU's pending softirqs (and hardirqs) here.
 */
IRQKIT__IRQFN void irqkit_local_bh_enable(void)
{
	struct irqkit_task *t = irqkit_arch_current();
	unsigned int pc = t->preempt_count - IRQKIT_SOFTIRQ_DISABLE_OFFSET;

	if (__builtin_expect(t->irqflags || (pc & IRQKIT_HARDIRQ_MASK), 0)) {
		irqkit_local_bh_enable_slow(t);
		IRQKIT__IRQ_POINT("local_bh_enable");
		return;
	}
	t->preempt_count = pc;
}

/* Context predicates, for the calling thread. */
static inline bool irqkit_in_nmi(void)
{
	return irqkit_arch_current()->preempt_count & IRQKIT_NMI_MASK;
}
static inline bool irqkit_in_hardirq(void)
{
	return irqkit_arch_current()->preempt_count & IRQKIT_HARDIRQ_MASK;
}
static inline bool irqkit_in_softirq(void)
{
	return irqkit_arch_current()->preempt_count & IRQKIT_SOFTIRQ_MASK;
}
static inline bool irqkit_in_serving_softirq(void)
{
	return irqkit_arch_current()->preempt_count & IRQKIT_SOFTIRQ_OFFSET;
}
static inline bool irqkit_in_interrupt(void)
{
	return irqkit_arch_current()->preempt_count &
	       (IRQKIT_NMI_MASK | IRQKIT_HARDIRQ_MASK | IRQKIT_SOFTIRQ_MASK);
}
static inline bool irqkit_in_task(void)
{
	return !(irqkit_arch_current()->preempt_count &
		 (IRQKIT_NMI_MASK | IRQKIT_HARDIRQ_MASK | IRQKIT_SOFTIRQ_OFFSET));
}
static inline bool irqkit_in_atomic(void)
{
	return irqkit_arch_current()->preempt_count != 0;
}

/**
 * irqkit_smp_processor_id - the virtual CPU the calling thread is bound to
 *
 * Return: the CPU number, or 0 for an unbound thread (which belongs to no CPU;
 * Linux's raw_smp_processor_id() is as arbitrary in preemptible code).  In
 * deterministic mode a kworker or irq thread answers the CPU it acts for.
 */
static inline int irqkit_smp_processor_id(void)
{
	return irqkit_arch_smp_processor_id();
}

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_TASK_H */
