/* SPDX-License-Identifier: MIT */
/*
 * A virtual CPU as the rooms of the core share it: its state (the slot word
 * that says who holds it, its pending lines and softirqs, its timer bases),
 * how a task takes and lets go of it, the task's interrupt flag, and the
 * delivery of what is pending (irq/dispatch.c), per-CPU work and hotplug
 * (cpu.c).
 */
#ifndef IRQKIT_CORE_CPU_H
#define IRQKIT_CORE_CPU_H

#include "core.h"

#include <irqkit/smp.h>

/* ---- per-CPU state --------------------------------------------------------- */

/*
 * cpu->slot: who holds the virtual CPU.
 *
 *   SLOT_HARDIRQ   one thread runs hardirq handlers
 *   SLOT_SOFTIRQ   one thread runs softirqs (tasklets, timers)
 *   irqoff count   bound threads with interrupts off
 *   bhoff count    bound threads with bottom halves off
 *
 *   to take         it needs                                 as Linux, because
 *   HARDIRQ         no HARDIRQ, no irqoff holder             a hardirq may interrupt a
 *                                                            softirq or a bh-off section
 *   SOFTIRQ         nothing else at all                      softirqs start only at
 *                                                            irq_exit, bh_enable, ksoftirqd
 *   irqoff, bhoff   no HARDIRQ, no SOFTIRQ (but the SOFTIRQ  a task runs only when the CPU
 *                   holder may turn its own interrupts off)   is not in interrupt context
 *
 * Every change is a compare-and-swap or an atomic add, so the word always
 * tells the whole truth; threads that must wait sleep on the word itself
 * (slot_waiters counts them, and every release wakes them when nonzero).
 */
#define SLOT_HARDIRQ		0x80000000u
#define SLOT_SOFTIRQ		0x40000000u
#define SLOT_IRQOFF_ONE		0x00000001u
#define SLOT_IRQOFF_MASK	0x00007fffu
#define SLOT_BHOFF_ONE		0x00008000u
#define SLOT_BHOFF_MASK		0x3fff8000u

/* task->slot: the ways the thread holds its CPU (bits). */
#define TASK_SLOT_NONE		0u
#define TASK_SLOT_IRQOFF	IRQKIT__TASK_SLOT_IRQOFF
#define TASK_SLOT_HARDIRQ	(1u << 1)
#define TASK_SLOT_SOFTIRQ	(1u << 2)
#define TASK_SLOT_BHOFF		(1u << 3)
#define TASK_SLOT_BHLOCK	(1u << 4)	/* PREEMPT_RT: holds the CPU's bh_lock */

struct irqkit_timer_list;

/* A CPU's kernel timers: a pairing heap ordered by (expires, seq). */
struct irqkit__timer_base {
	struct irqkit_spinlock		lock;
	struct irqkit__heap_node	*root;		/* the queue (pheap.h) */
	struct irqkit_timer_list	*running;	/* callback being run now, or NULL */
	unsigned long			next;		/* root's expiry if root, READ_ONCE */
	bool				armed;		/* root != NULL, READ_ONCE */
};

/*
 * A CPU's high-resolution timers (hrtimer.c): a queue of hard and one of
 * soft timers, under hrtimer.c's lock.  told: the local timer vector is
 * raised and has not run; soft_told: HRTIMER_SOFTIRQ is raised and has not
 * run; a queue that was told is left out of @next until then.
 */
struct irqkit__hrtimer_base {
	struct irqkit__heap_node	*root[2];	/* [0] hard, [1] soft */
	struct irqkit_hrtimer		*running[2];	/* the callback running now, or NULL */
	struct irqkit_task		*running_task[2];	/* who runs it */
	uint64_t			next;		/* the earliest key not told, or UINT64_MAX: READ_ONCE */
	bool				told, soft_told;
};

struct irqkit_tasklet;
struct irqkit_plat_thread;
struct irqkit_irq_work;

/*
 * A watchdog check of one thing that should make progress: its generation
 * moves when it does.  irqkit__stall_check() returns true once per stall,
 * when the thing has been busy with its generation unchanged for the
 * threshold (the stall's length in *@stuck).  The watchdog's thread only.
 */
struct irqkit__stall {
	unsigned long		gen;
	uint64_t		since;
	bool			reported;
};

/* cpu->hold_task[] / hold_gen[]: the two interrupt holds of a CPU. */
#define HOLD_HARDIRQ	0
#define HOLD_SOFTIRQ	1

#define IRQKIT__FAULT_HELD	8	/* arrivals a CPU holds back at once (fault.c) */

struct irqkit_napi_struct;
struct irqkit_cpu {
	unsigned int		slot;		/* SLOT_*, see above */
	/*
	 * Who took each interrupt hold last, and how many times each was
	 * taken: written by the holder alone (beside slot, whose line the
	 * claim owns already), read racily by the watchdog.
	 */
	unsigned int		hold_gen[2];
	struct irqkit_task	*hold_task[2];
	unsigned int		slot_waiters;	/* threads sleeping on slot */
	unsigned int		kick_seq;	/* dispatcher eventcount */
	unsigned int		idle;		/* dispatcher sleeps on kick_seq */
	unsigned int		stop;		/* the dispatcher should exit */
	unsigned int		offline;	/* hotplug: the runtime's threads take no hardirq here */
	unsigned int		id;
	uint64_t		pend2;		/* pending lines: one bit per pend1 word */
	uint64_t		*pend1;		/* one bit per pend0 word */
	uint64_t		*pend0;		/* one bit per line */
	unsigned int		*kstat;		/* per-line handled counts on this CPU */
	unsigned int		taking;		/* 1 + the line being claimed and handled, or 0 */
	unsigned int		taking_word;	/* 1 + the pend0 word taken and not yet run, or 0 */
	/*
	 * Arrivals held back by a fault counted in delivery points (fault.c):
	 * 1 + their lines, written by the hardirq holder, read by anyone.
	 */
	unsigned int		fault_held[IRQKIT__FAULT_HELD];
	unsigned int		fault_nheld;
	unsigned int		fault_gen;	/* delivery points that ended with some held */
	/* softirqs (softirq.c) */
	unsigned int		softirq_pending;	/* a bit per vector */
	unsigned int		softirq_count[IRQKIT_NR_SOFTIRQS];	/* runs, /proc/softirqs */
	unsigned int		ksoftirqd_seq;		/* its eventcount */
	unsigned int		bh_lock;	/* PREEMPT_RT: local_bh_disable's lock (rtlock.c) */
	unsigned int		ksoftirqd_idle;
	unsigned int		ksoftirqd_stop;
	struct irqkit_plat_thread *ksoftirqd;
	/*
	 * 1 while an idle kworker of the CPU's normal pool is its timer (it
	 * sleeps until the earliest expiry; ksoftirqd then sleeps untimed);
	 * duty_seq wakes that worker (workqueue.c, timer.c).
	 */
	unsigned int		timer_duty;
	unsigned int		duty_seq;
	struct irqkit_tasklet	*tasklet_head[2];	/* [0] TASKLET, [1] HI; lock-free, newest first */
	struct irqkit_list_head	iopoll;		/* irq_poll instances scheduled, under iopoll_lock */
	struct irqkit_spinlock	iopoll_lock;
	/* NAPI (napi.c): instances scheduled here, under napi_lock, with the softnet counts */
	struct irqkit_list_head	napi_poll;
	struct irqkit_spinlock	napi_lock;
	bool			in_net_rx_action;	/* napi_lock */
	struct irqkit_napi_struct *napi_polling;	/* in its poll function now */
	/* cross-CPU calls (smp.c): queued to this CPU; this CPU's own descriptors */
	struct irqkit_call_single_data *call_list;
	struct irqkit_call_single_data csd_single;
	struct irqkit_call_single_data csd_many[IRQKIT_NR_CPUS_MAX];
	unsigned int		softnet_processed, softnet_time_squeeze;
	uint64_t		softirq_raised[IRQKIT_NR_SOFTIRQS];	/* histograms (observe.c) */
	/* timers (timer.c, hrtimer.c) */
	struct irqkit__timer_base timers;
	struct irqkit__hrtimer_base hrtimers;
	unsigned int		hr_self;	/* its dispatcher times its hrtimers (hrtimer.c) */
	/*
	 * The CPU's system vectors (SYSVEC_*) raised and not yet run, marked in
	 * pend2 by PEND2_SYSVEC; and how many times each ran (the arch rows of
	 * /proc/interrupts), written by the hardirq holder.
	 */
	unsigned int		sysvec;
	unsigned int		sysvec_count[3];
	/* irq_work (irq_work.c): queued items, newest first; the one running */
	struct irqkit_irq_work	*irq_work;
	struct irqkit_irq_work	*irq_work_running;
	/* PREEMPT_RT: items not marked hard, for the CPU's irq_work/N thread */
	struct irqkit_irq_work	*irq_work_lazy;
	struct irqkit_plat_thread *irq_workd;
	unsigned int		irq_workd_seq;	/* its eventcount */
	unsigned int		irq_workd_stop;
	/* the watchdog's view of each hold (watchdog.c, its thread only) */
	struct irqkit__stall	wd_hold[2];
	/* the last bound thread to turn interrupts off here (for the watchdog) */
	struct irqkit_task	*irqoff_task;
	struct irqkit__stall	wd_irqoff;	/* interrupts off, hardirqs waiting */
} __attribute__((aligned(64)));

/* A thread takes interrupt hold @which of @c (it holds the slot bit already). */
static inline void cpu_note_hold(struct irqkit_cpu *c, int which, struct irqkit_task *t)
{
	WRITE_ONCE(c->hold_task[which], t);
	WRITE_ONCE(c->hold_gen[which], c->hold_gen[which] + 1);
}

/* What the last holder of hold @which of @c runs (or ran), for reports: a function or NULL. */
static inline const void *cpu_hold_running_fn(const struct irqkit_cpu *c, int which)
{
	const struct irqkit_task *t = READ_ONCE(c->hold_task[which]);

	return t ? READ_ONCE(t->running_fn) : NULL;
}


/* Contracts of the holds (see "Contracts at entry" in core.h). */
/* The calling task holds CPU @c for hardirq handling (so it is in hardirq context). */
#define assert_hardirq_holder(c)					\
	IRQKIT_ASSERT((irqkit_arch_current()->slot & TASK_SLOT_HARDIRQ) &&	\
		      irqkit_arch_current()->cpu == (c))
/* The calling task holds CPU @c for softirq processing. */
#define assert_softirq_holder(c)					\
	IRQKIT_ASSERT((irqkit_arch_current()->slot & TASK_SLOT_SOFTIRQ) &&	\
		      irqkit_arch_current()->cpu == (c))

/*
 * A thread bound to a CPU in an earlier run of the runtime holds a pointer to
 * a CPU that stop freed.  Each path that follows t->cpu from a thread that
 * may be such a one (the slow paths of irqflags and bottom halves, binding,
 * delivery) checks the run first; a stale binding is dropped, and the thread
 * goes on as an unbound one, its interrupt flag and preempt_count kept.
 */
HIDDEN void irqkit__task_drop_stale(struct irqkit_task *t);
static inline bool task_stale(struct irqkit_task *t)
{
	if (likely(!t->cpu || t->run == READ_ONCE(irqkit__run)))
		return false;
	irqkit__task_drop_stale(t);
	return true;
}

/*
 * The slow paths of a port whose flag is a word of the task (posix's
 * <irqkit/arch/irqflags.h> calls them; a port with a real flag does not).
 */
IRQKIT_API void irqkit_local_irq_disable_slow(struct irqkit_task *t);
IRQKIT_API void irqkit_local_irq_enable_slow(struct irqkit_task *t);
IRQKIT_API void irqkit_local_irq_enabled_deliver(struct irqkit_task *t);

/* The calling thread's local interrupt flag (task->irqflags keeps BOUND beside it). */
static inline bool task_irqs_off(const struct irqkit_task *t)
{
	return t->irqflags & IRQKIT_TASK_IRQS_OFF;
}
/* The task's flag alone; where the flag is the CPU's own, irqkit_arch_irq_flag_sync() follows. */
static inline void task_set_irqs_flag(struct irqkit_task *t, bool off)
{
	t->irqflags = (t->irqflags & ~IRQKIT_TASK_IRQS_OFF) | (off ? IRQKIT_TASK_IRQS_OFF : 0);
}
static inline void task_set_irqs_off(struct irqkit_task *t, bool off)
{
	task_set_irqs_flag(t, off);
	irqkit_arch_irq_flag_sync(t, off);
}

/*
 * pend2's top bit stands for the CPU's system vectors, the interrupts that
 * are the CPU's own rather than a line's (x86's local APIC vectors): so the
 * one word a delivery point reads covers them too.  The lines use the
 * other 63 bits (at most 63 * 4096 lines).
 */
#define PEND2_SYSVEC		(1ull << 63)
enum {
	SYSVEC_LOC,		/* the local timer: hrtimers due ("LOC") */
	SYSVEC_IWI,		/* irq_work ("IWI") */
	SYSVEC_CAL,		/* cross-CPU function calls ("CAL") */
};
/* smp.c: SYSVEC_CAL's handler; an offline CPU's calls; the stop */
HIDDEN void irqkit__smp_call_run(struct irqkit_cpu *c);
HIDDEN void irqkit__smp_call_dead_cpu(unsigned int cpu, unsigned int to);
HIDDEN void irqkit__smp_call_exit(void);
/* dispatch.c: raise system vector @vec on @c, as a line is signalled */
HIDDEN void irqkit__cpu_sysvec(struct irqkit_cpu *c, unsigned int vec);

/* Hardirqs pending on @c (lines signalled, not yet taken); softirqs raised; either. */
static inline bool hardirq_pending(const struct irqkit_cpu *c)
{
	return a_load_seq(&c->pend2) != 0;
}
static inline bool irqkit__softirq_pending(const struct irqkit_cpu *c)
{
	return a_load_seq(&c->softirq_pending) != 0;
}
static inline bool irqkit__cpu_pending(const struct irqkit_cpu *c)
{
	return hardirq_pending(c) || irqkit__softirq_pending(c);
}

/* dispatch.c */
HIDDEN int irqkit__cpus_init(void);
HIDDEN void irqkit__cpus_exit(void);
HIDDEN bool irqkit__cpu_claim_hardirq(struct irqkit_task *t, struct irqkit_cpu *c);
HIDDEN void irqkit__cpu_release_hardirq(struct irqkit_task *t, struct irqkit_cpu *c);
HIDDEN void irqkit__cpu_deliver(struct irqkit_task *t, struct irqkit_cpu *c);
HIDDEN void irqkit__cpu_deliver_hardirqs(struct irqkit_task *t, struct irqkit_cpu *c);
HIDDEN void irqkit__deliver_pending_slow(struct irqkit_task *t);
HIDDEN void irqkit__cpu_kick(struct irqkit_cpu *c);
HIDDEN bool irqkit__may_deliver_here(const struct irqkit_task *t, unsigned int cpu);
HIDDEN void irqkit__slot_wait(struct irqkit_cpu *c, unsigned int seen, unsigned int *spins);

/* After any release of the slot: wake its sleepers (paired with slot_wait's recheck). */
static inline void irqkit__slot_wake(struct irqkit_cpu *c)
{
	if (unlikely(a_load_seq(&c->slot_waiters)))
		irqkit_plat_wake(&c->slot);
}
HIDDEN struct irqkit_cpu *irqkit__this_cpu_slow(struct irqkit_task *t);

/*
 * The caller's CPU for per-CPU work: the CPU it is bound to or acts for, CPU 0
 * for an unbound thread; NULL when the runtime is stopped.
 */
static inline struct irqkit_cpu *irqkit__this_cpu(void)
{
	struct irqkit_task *t = irqkit_arch_current();

	if (likely(t->cpu && t->run == READ_ONCE(irqkit__run)))
		return t->cpu;
	return irqkit__this_cpu_slow(t);
}

/* dispatch.c: @irq is pending on @c again (no arrival: nothing counted, no trace) */
HIDDEN void irqkit__cpu_repend(struct irqkit_cpu *c, unsigned int irq);

/* cpu.c: CPU hotplug */
HIDDEN void irqkit__cpuhp_init(void);
static inline irqkit_cpumask irqkit__online_mask(void)
{
	return a_load_acquire(&irqkit__rt.online);
}

#endif /* IRQKIT_CORE_CPU_H */
