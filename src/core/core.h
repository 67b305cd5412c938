/* SPDX-License-Identifier: MIT */
/*
 * What the groups of the core share: the runtime, the virtual CPUs and how a
 * task holds one, the log and WARN, lists, waits the watchdog watches, and
 * each group's entry points for the others.  The generic interrupt layer's
 * own structures are in irq/internals.h.
 */
#ifndef IRQKIT_CORE_CORE_H
#define IRQKIT_CORE_CORE_H

#include <irqkit-core/irqchip.h>	/* what chips may use: the atomics, the log, the platform */
#include <irqkit-core/tracering.h>
#include <irqkit/softirq.h>
#include <irqkit/timer.h>
#include <irqkit/wait.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#ifndef __always_inline		/* as Linux spells it (glibc's cdefs.h has the same) */
#define __always_inline	inline __attribute__((always_inline))
#endif

/*
 * Checking build (IRQKIT_DEBUG): internal contracts become assertions (the
 * assert_*() macros below, at the entry of each helper that has one).
 */
#ifdef IRQKIT_DEBUG
#define IRQKIT_ASSERT(c) do { if (!(c)) irqkit_plat_fatal("assertion failed: " #c); } while (0)
#else
#define IRQKIT_ASSERT(c) ((void)0)
#endif
/*
 * NEVER(c) marks a defensive branch, as SQLite does: a condition the design
 * rules out, handled anyway in a release build; the checking build stops
 * the program there instead, so that a test that reaches it fails.
 */
#ifdef IRQKIT_DEBUG
#define NEVER(c)	((c) ? (irqkit_plat_fatal("NEVER failed: " #c), 1) : 0)
#else
#define NEVER(c)	(c)
#endif

/*
 * Race windows (the checking build): a place between two steps of the core
 * where another thread's work can fall, which a test may widen
 * (irqkit__core_window_set(), IRQKIT_RACE_WINDOW) so that a race it guards
 * against happens every run.  Nothing in other builds.
 */
enum irqkit__window {
	WINDOW_WAKE_WORKER,	/* a worker taken off the idle list, not yet woken */
	WINDOW_NR
};
/* Close every window: each run starts with none widened (irqkit__core_init). */
HIDDEN void irqkit__windows_close(void);
#ifdef IRQKIT_DEBUG
HIDDEN void irqkit__window_slow(enum irqkit__window which);
HIDDEN extern uint64_t irqkit__window_ns[WINDOW_NR];
static inline void irqkit__window(enum irqkit__window which)
{
	if (READ_ONCE(irqkit__window_ns[which]))
		irqkit__window_slow(which);
}
#else
static inline void irqkit__window(enum irqkit__window which)
{
	(void)which;
}
#endif

struct irqkit_desc;
struct irqkit_action;

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
	unsigned int		sysvec_count[2];
	/* irq_work (irq_work.c): queued items, newest first; the one running */
	struct irqkit_irq_work	*irq_work;
	struct irqkit_irq_work	*irq_work_running;
	/* the watchdog's view of each hold (watchdog.c, its thread only) */
	struct irqkit__stall	wd_hold[2];
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

/* ---- the runtime ----------------------------------------------------------- */

/* HZ when the config leaves it 0: what a 2.6 x86 kernel's CONFIG_HZ_1000 gave. */
#define IRQKIT__HZ_DEFAULT	((unsigned int)IRQKIT_HZ)


/*
 * A run mode as the core sees it (mode.c): how it differs from the threaded
 * mode, which is all zero.  Read through the mode_*() helpers below.
 */
struct irqkit__mode {
	bool		virtual_clock;		/* time moves in irqkit_clock_advance() */
	bool		player_delivers;	/* no CPU threads: the player delivers */
	bool		switch_at_points;	/* the simulator switches at points */
	bool		watchdog_off;		/* no watchdog thread */
	bool		timer_duty_off;		/* no idle kworker is a CPU's timer */
	bool		workers_kept;		/* idle kworkers never end */
	bool		loop_cpus_off;		/* no CPU played by a program's loop */
};

/* The helpers of mode @mode (enum irqkit_mode), or NULL for no such mode. */
HIDDEN const struct irqkit__mode *irqkit__mode_of(unsigned int mode);

struct irqkit__runtime {
	unsigned int		nr_irqs;	/* 0 when stopped */
	unsigned int		nr_cpus;	/* 0 when stopped */
	unsigned int		stopping;	/* irqkit_stop() has begun */
	enum irqkit_mode	mode;
	struct irqkit__mode	m;		/* its helpers (mode.c); threaded: zero */
	unsigned int		hz;
	unsigned int		flags;
	irqkit_cpumask		loop_cpus;	/* CPUs a program's loop plays: no dispatcher */
	union {					/* CPU hotplug (cpu.c): atomic */
		irqkit_cpumask		online;
		struct irqkit_cpus	online_cpus;	/* the same bits, as cpu_online_mask */
	};
	struct irqkit_cpus	possible_cpus;	/* every CPU of the run */
	bool			barrier_heavy;	/* the platform has irqkit_plat_barrier_heavy */
	irqkit_log_fn		log;
	void			*log_arg;
	struct irqkit_desc	*descs;
	struct irqkit_cpu	*cpus;
	unsigned int		pend0_words, pend1_words;
	unsigned int		irq_err_count;
	/* time */
	uint64_t		start_ns;
	uint64_t		virt_ns;	/* deterministic clock */
	unsigned long		timer_seq;	/* arming order */
	/* softirq actions */
	irqkit_softirq_fn	softirq_vec[IRQKIT_NR_SOFTIRQS];
	/* software resend */
	struct irqkit_spinlock	resend_lock;
	struct irqkit_desc	*resend_list;
	/* spurious poll */
	struct irqkit_timer_list poll_timer;
	unsigned int		poll_active;
	struct irqkit__core_exit_hook *exit_hooks;
	unsigned long		might_sleep_prev;	/* jiffies of the last report */
	/* bogus return values: at most 100 reports in all */
	int			bad_irq_reports;
	/* watchdog.c: thresholds in ns, 0 when off */
	uint64_t		watchdog_ns;
	uint64_t		worker_idle_ns;
};

HIDDEN extern struct irqkit__runtime irqkit__rt;
/* runtime.c: the number of the current run, from 1; moved on at each start and each stop's end */
HIDDEN extern unsigned int irqkit__run;

/*
 * What the run's mode does differently (mode.c).  Each answers for the run
 * being started, running, or last stopped.
 */
/* Time is virtual: it moves only in irqkit_clock_advance() and the player's sleeps. */
static inline bool mode_virtual_clock(void)
{
	return irqkit__rt.m.virtual_clock;
}
/*
 * No thread of its own delivers for a CPU (no dispatcher, ksoftirqd or
 * platform timer): the thread that plays the CPU takes its interrupts and
 * runs its softirqs at its interrupt points, and the runtime's threads act
 * for a CPU instead of binding to it.
 */
static inline bool mode_player_delivers(void)
{
	return irqkit__rt.m.player_delivers;
}
/* The simulator schedules: every interrupt point may switch to another thread. */
static inline bool mode_switch_at_points(void)
{
	return irqkit__rt.m.switch_at_points;
}
/* An idle kworker may be its CPU's timer (workqueue.c, timer.c). */
static inline bool mode_timer_duty(void)
{
	return !irqkit__rt.m.timer_duty_off;
}

/* One step of a wait loop: pause a while, then let the host run others. */
static inline void spin_step(unsigned int *spins)
{
	if (++*spins < 64)
		irqkit_arch_cpu_relax();
	else
		irqkit_plat_yield();
}

/*
 * Contracts at entry, checked in the checking build (IRQKIT_DEBUG) as
 * Linux's lockdep_assert_held() is: a helper whose comment says "Pool lock
 * held", "hardirq holder" or "process context" says it at its first line
 * too.
 *
 * spin_assert_locked(lock): @lock is held, and, where the lock validator
 * tracks the core's own locks (a build with IRQKIT_LOCKDEP_CORE), held by
 * the calling task; elsewhere the lock word can say only "by someone".
 */
HIDDEN bool irqkit__lockdep_holds(const void *lock);
#ifdef IRQKIT_LOCKDEP
#define spin_assert_locked(lock)					\
	IRQKIT_ASSERT(READ_ONCE((lock)->locked) != 0 && irqkit__lockdep_holds(lock))
#else
#define spin_assert_locked(lock)	IRQKIT_ASSERT(READ_ONCE((lock)->locked) != 0)
#endif
/* The calling task holds some spinlock (the caller's, not named here). */
#define assert_a_lock_held()						\
	IRQKIT_ASSERT(irqkit_arch_current()->preempt_count & IRQKIT_PREEMPT_MASK)
/* The calling task holds CPU @c for hardirq handling (so it is in hardirq context). */
#define assert_hardirq_holder(c)					\
	IRQKIT_ASSERT((irqkit_arch_current()->slot & TASK_SLOT_HARDIRQ) &&	\
		      irqkit_arch_current()->cpu == (c))
/* The calling task holds CPU @c for softirq processing. */
#define assert_softirq_holder(c)					\
	IRQKIT_ASSERT((irqkit_arch_current()->slot & TASK_SLOT_SOFTIRQ) &&	\
		      irqkit_arch_current()->cpu == (c))
/* Process context: no hardirq, NMI or softirq being served. */
#define assert_process_context()	IRQKIT_ASSERT(irqkit_in_task())

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
 * kstat_incr_irqs_this_cpu: count a handled interrupt on the caller's CPU (an
 * unbound caller, as the poll, counts on CPU 0).  Only the CPU's holder writes.
 */
static inline void irqkit__kstat_incr_on(struct irqkit_cpu *c, unsigned int irq)
{
	a_inc_single(&c->kstat[irq]);
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
};
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

/* ---- cross-file internals -------------------------------------------------- */

/* printk.c */
HIDDEN int irqkit__vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
/*
 * A table being written into a caller's buffer, snprintf's contract:
 * irqkit__sb_printf appends (cut at the end, the length still counted);
 * irqkit__sb_finish ends it with a NUL and returns the whole length.
 */
struct irqkit__sbuf {
	char	*buf;
	size_t	size;
	size_t	len;	/* the whole output's length, even past size */
};
HIDDEN void irqkit__sb_printf(struct irqkit__sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
HIDDEN int irqkit__sb_finish(struct irqkit__sbuf *sb);
struct irqkit_device;
/* Is @dev a device irqkit_device_initialize() made?  Reported if not (base/devres.c). */
HIDDEN bool irqkit__device_ok(struct irqkit_device *dev, const char *what);
HIDDEN int irqkit__snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
HIDDEN void irqkit__vprintk(int level, const char *fmt, va_list ap);
HIDDEN void irqkit__dump_stack(void);
HIDDEN void irqkit__warn(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* WARN(cond, fmt...): Linux's warning with "cut here" banner; never aborts. */
#define WARN(cond, ...) ({						\
	bool __c = !!(cond);						\
	if (unlikely(__c))						\
		irqkit__warn(__FILE__, __LINE__, __VA_ARGS__);		\
	unlikely(__c);							\
})
/* Once per run of the runtime (a run is a boot): the flag holds the run's number. */
#define WARN_ONCE(cond, ...) ({						\
	static unsigned int __warned_run;				\
	bool __c = !!(cond);						\
	if (unlikely(__c) && irqkit__once(&__warned_run))		\
		irqkit__warn(__FILE__, __LINE__, __VA_ARGS__);		\
	unlikely(__c);							\
})
#define WARN_ON(cond)		WARN(cond, NULL)
#define WARN_ON_ONCE(cond)	WARN_ONCE(cond, NULL)

static inline bool irqkit__once(unsigned int *flag)
{
	unsigned int run = READ_ONCE(irqkit__run);
	unsigned int seen = READ_ONCE(*flag);

	return seen != run && a_cas(flag, &seen, run);
}

/* Linux's list_head operations, for the wait queues and semaphores. */
static inline void ilist_init(struct irqkit_list_head *l)
{
	WRITE_ONCE(l->next, l);
	a_store_release(&l->prev, l);	/* last: see ilist_empty_careful */
}
static inline bool ilist_empty(const struct irqkit_list_head *l)
{
	return READ_ONCE(l->next) == l;
}
/* Empty, and not being unlinked by another thread right now (list_empty_careful). */
static inline bool ilist_empty_careful(const struct irqkit_list_head *l)
{
	return a_load_acquire(&l->prev) == l && READ_ONCE(l->next) == l;
}
static inline void ilist_insert(struct irqkit_list_head *n, struct irqkit_list_head *prev,
				struct irqkit_list_head *next)
{
	WRITE_ONCE(next->prev, n);
	WRITE_ONCE(n->next, next);
	WRITE_ONCE(n->prev, prev);
	WRITE_ONCE(prev->next, n);
}
static inline void ilist_add(struct irqkit_list_head *n, struct irqkit_list_head *head)
{
	ilist_insert(n, head, head->next);
}
static inline void ilist_add_tail(struct irqkit_list_head *n, struct irqkit_list_head *head)
{
	ilist_insert(n, head->prev, head);
}
static inline void ilist_del_init(struct irqkit_list_head *n)
{
	WRITE_ONCE(n->next->prev, n->prev);
	WRITE_ONCE(n->prev->next, n->next);
	ilist_init(n);
}

/* context.c */
HIDDEN void irqkit__might_sleep(const char *file, int line);
#define might_sleep()	irqkit__might_sleep(__FILE__, __LINE__)
/* irq_enter / irq_exit: the hardirq part of preempt_count, inline on the dispatch path. */
static inline void irqkit__irq_enter(struct irqkit_task *t)
{
	t->preempt_count += IRQKIT_HARDIRQ_OFFSET;
}
static inline void irqkit__irq_exit(struct irqkit_task *t)
{
	t->preempt_count -= IRQKIT_HARDIRQ_OFFSET;
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

/*
 * A delivery point inside softirq processing (between tasklets, between timer
 * callbacks): the softirq holder takes the hardirqs that came meanwhile.
 */
static inline void irqkit__softirq_preempt_point(struct irqkit_task *t, struct irqkit_cpu *c)
{
	if (unlikely(hardirq_pending(c)) && !task_irqs_off(t))
		irqkit__cpu_deliver_hardirqs(t, c);
}
HIDDEN int irqkit__kthread_bind(int cpu);
/* signal.c: the task list, signals */
HIDDEN void irqkit__task_register_slow(struct irqkit_task *t);
/* @t, the caller's task, joins the task list (once).  Context: any. */
static inline void irqkit__task_register(struct irqkit_task *t)
{
	if (unlikely(!READ_ONCE(t->registered)))
		irqkit__task_register_slow(t);
}
HIDDEN bool irqkit__signal_pending_state(unsigned int state, const struct irqkit_task *t);
HIDDEN void irqkit__signal_notify(struct irqkit_task *t);

/* A run's end for @t: the fields before `state` back to zero; the thread's own stay. */
static inline void irqkit__task_reset_run(struct irqkit_task *t)
{
	__builtin_memset(t, 0, __builtin_offsetof(struct irqkit_task, state));
}

/* kthread.c */
HIDDEN void irqkit__kthreads_stop_all(uint64_t limit_ns);

/* softirq.c */
HIDDEN int irqkit__softirq_init(void);
HIDDEN void irqkit__softirq_exit(void);
HIDDEN void irqkit__handle_softirqs(struct irqkit_task *t, struct irqkit_cpu *c);
HIDDEN void irqkit__raise_softirq_observed(struct irqkit_cpu *c, unsigned int nr);
HIDDEN void irqkit__wakeup_softirqd(struct irqkit_cpu *c);
HIDDEN void irqkit__tasklets_exit(void);

/* Let go of the softirq hold (a full barrier), waking whoever waits for the CPU. */
static inline void irqkit__release_softirq(struct irqkit_task *t, struct irqkit_cpu *c)
{
	unsigned long f = irqkit_arch_hold_begin();

	t->slot &= ~TASK_SLOT_SOFTIRQ;
	a_fetch_and(&c->slot, ~SLOT_SOFTIRQ);
	irqkit_arch_hold_end(f);
	irqkit__slot_wake(c);
}

/*
 * Take the CPU for softirqs when its slot word is exactly @from: 0 (nobody
 * holds it in any way), or the caller's own single hold that it turns into
 * the softirq hold in the same step (its bh-off hold at local_bh_enable, its
 * hardirq hold at irq_exit).
 */
static inline bool irqkit__claim_softirq(struct irqkit_task *t, struct irqkit_cpu *c, unsigned int from)
{
	unsigned long f = irqkit_arch_hold_begin();

	if (!a_cas(&c->slot, &from, SLOT_SOFTIRQ)) {
		irqkit_arch_hold_end(f);
		return false;
	}
	cpu_note_hold(c, HOLD_SOFTIRQ, t);
	t->slot |= TASK_SLOT_SOFTIRQ;
	irqkit_arch_hold_end(f);
	return true;
}

/*
 * The caller has just taken @c for softirqs: run them, let go, then take the
 * hardirqs that came meanwhile (the release is a full barrier).
 */
static inline void irqkit__run_softirqs_held(struct irqkit_task *t, struct irqkit_cpu *c)
{
	irqkit__handle_softirqs(t, c);
	irqkit__release_softirq(t, c);
	if (hardirq_pending(c))
		irqkit__cpu_deliver_hardirqs(t, c);
}

/*
 * irq/: the generic interrupt layer's life cycle, for the runtime (its own
 * structures are in irq/internals.h): the descriptors, the resend and
 * spurious machinery, every action freed and every irq thread reaped at
 * stop.
 */
HIDDEN int irqkit__descs_init(void);
HIDDEN void irqkit__descs_exit(void);
HIDDEN void irqkit__resend_init(void);
HIDDEN void irqkit__spurious_init(void);
HIDDEN void irqkit__free_all(void);
HIDDEN void irqkit__reap_irq_threads(void);

/* fault.c: arrivals on lines with IRQS_FAULT; the end of a run */
struct irqkit__fault;
/* A signalled line with IRQS_FAULT on @c: the claim and the flow, or a held arrival's point. */
HIDDEN void irqkit__fault_signalled(struct irqkit_cpu *c, struct irqkit_desc *desc);
/* At the end of a delivery point of @c with held arrivals: they are pending again. */
HIDDEN void irqkit__fault_rearm(struct irqkit_cpu *c);
HIDDEN bool irqkit__fault_holding(struct irqkit_desc *desc, unsigned int *released);
/* dispatch.c: @irq is pending on @c again (no arrival: nothing counted, no trace) */
HIDDEN void irqkit__cpu_repend(struct irqkit_cpu *c, unsigned int irq);
HIDDEN void irqkit__fault_resent(struct irqkit_desc *desc);
HIDDEN void irqkit__faults_exit(void);

/* softirq.c: a vector's name, as /proc/softirqs and the reports print it */
HIDDEN const char *irqkit__softirq_name(unsigned int nr);

/* lockdep.c: the core's struct mutex joins the validator once a program uses it */
HIDDEN extern bool irqkit__lockdep_active;
HIDDEN void irqkit__lockdep_mutex_init(const void *lock, const void *site);
HIDDEN void irqkit__lockdep_mutex_acquire(const void *lock, bool trylock, const void *ip);
HIDDEN void irqkit__lockdep_mutex_release(const void *lock, const void *ip);

/* mutex.c */
HIDDEN void irqkit__mutex_lock(unsigned int *m);
HIDDEN void irqkit__mutex_unlock(unsigned int *m);

/* watchdog.c: a wait that may not end, registered while it lasts */
enum irqkit__wait_kind {
	WAIT_IRQ,		/* @num: the line */
	WAIT_WORK,		/* @obj: the work item */
	WAIT_WORKQUEUE,		/* @obj: the queue's name */
	WAIT_TASKLET,		/* @obj: the tasklet */
	WAIT_TIMER,		/* @obj: the timer */
	WAIT_KTHREAD,		/* @obj: the kthread's name */
	WAIT_SLEEP,		/* an uninterruptible sleep (schedule()) */
};

struct irqkit__wait {
	const char		*what;		/* the waiting call: "synchronize_irq" */
	enum irqkit__wait_kind	kind;
	const void		*obj;
	unsigned long		num;
	/*
	 * The object's function, read by the waiter when it begins, while the
	 * object is surely alive (a running work item may free itself: the
	 * watchdog must not read it later); NULL: read it from @obj.
	 */
	const void		*fn;
	uint64_t		since;
	int			tid;
	bool			registered;	/* its owner's: on the list */
	bool			reported;	/* wait_lock */
	struct irqkit__wait	*next, **pprev;	/* wait_lock */
};

/* A wait not begun yet: only what the checks read is set (cheap on the no-wait path). */
static inline void irqkit__wait_init(struct irqkit__wait *w)
{
	w->what = NULL;
	w->fn = NULL;
	w->registered = false;
}

HIDDEN void irqkit__wait_begin_slow(struct irqkit__wait *w, const char *what,
				    enum irqkit__wait_kind kind, const void *obj, unsigned long num);
/* The caller is about to sleep, maybe again: the first call records the wait. */
static inline void irqkit__wait_begin(struct irqkit__wait *w, const char *what,
				      enum irqkit__wait_kind kind, const void *obj, unsigned long num)
{
	if (!w->what)
		irqkit__wait_begin_slow(w, what, kind, obj, num);
}
HIDDEN void irqkit__wait_end_slow(struct irqkit__wait *w);
static inline void irqkit__wait_end(struct irqkit__wait *w)
{
	if (unlikely(w->registered))
		irqkit__wait_end_slow(w);
}

/*
 * An event count: the core's threads sleep on a sequence word, as on a
 * Linux wait queue.  The waker changes the condition, then
 * irqkit__seq_wake(); the waiter reads the word before it tests the
 * condition and sleeps only while the word is unchanged, so a wake between
 * its test and its sleep is never lost.  Any context.
 */
static inline void irqkit__seq_wake(unsigned int *seq)
{
	a_fetch_add(seq, 1);
	irqkit_plat_wake(seq);
}

/*
 * wait_event on @seq: sleep until @cond holds, re-tested after each wake;
 * the first sleep records the wait (@what, @kind, @obj, @num) for the
 * watchdog's blocked-wait report.  Process context.
 */
#define irqkit__seq_wait_event(seq, cond, what, kind, obj, num)			\
	do {									\
		struct irqkit_task *__t = irqkit_arch_current();		\
		unsigned int __state = a_load_seq(&__t->state);			\
		struct irqkit__wait __w;					\
										\
		irqkit__wait_init(&__w);					\
		for (;;) {							\
			unsigned int __seen = a_load_seq(seq);			\
										\
			if (cond)						\
				break;						\
			irqkit__wait_begin(&__w, what, kind, obj, num);		\
			/* asleep as Linux's waits are: "D" in the task list */	\
			a_store_seq(&__t->state, IRQKIT_TASK_UNINTERRUPTIBLE);	\
			irqkit_plat_wait(seq, __seen);				\
			a_store_seq(&__t->state, __state);			\
		}								\
		irqkit__wait_end(&__w);						\
	} while (0)
HIDDEN void irqkit__watchdog_config(const struct irqkit_config *c);
HIDDEN int irqkit__watchdog_init(void);
HIDDEN void irqkit__watchdog_quiesce(void);
HIDDEN void irqkit__watchdog_exit(void);

/* watchdog.c: see struct irqkit__stall */
HIDDEN bool irqkit__stall_check(struct irqkit__stall *st, bool busy, unsigned long gen,
				uint64_t now, uint64_t thresh, uint64_t *stuck);
/* Whole seconds, rounded up, as the reports print a duration. */
static inline unsigned long long irqkit__secs_up(uint64_t ns)
{
	return (unsigned long long)((ns + 999999999ull) / 1000000000ull);
}

/* workqueue.c */
HIDDEN int irqkit__workqueue_init(void);
HIDDEN void irqkit__workqueue_exit(void);
HIDDEN void irqkit__delayed_work_dropped(struct irqkit_timer_list *timer);
HIDDEN void irqkit__workqueue_watchdog(uint64_t now, uint64_t thresh);
HIDDEN void irqkit__workqueue_reap(void);
struct irqkit_work;
HIDDEN const void *irqkit__work_fn(const struct irqkit_work *work);
IRQKIT_API void irqkit_delayed_work_timer_fn(struct irqkit_timer_list *timer);

/* irq/irqdomain.c: the run's lines are gone from every domain's map */
HIDDEN void irqkit__domains_exit(void);

/* cpu.c: CPU hotplug */
HIDDEN void irqkit__cpuhp_init(void);
static inline irqkit_cpumask irqkit__online_mask(void)
{
	return a_load_acquire(&irqkit__rt.online);
}
/* irq/cpuhotplug.c: a CPU's lines move off it; what was pending for it, after its dispatcher */
HIDDEN void irqkit__irq_migrate_all_off_cpu(unsigned int cpu);
HIDDEN void irqkit__irq_resignal_off_cpu(unsigned int cpu);
HIDDEN void irqkit__irq_affinity_online_cpu(unsigned int cpu);
/* softirq.c, timer.c: an offline CPU's tasklets and timers go to @to */
HIDDEN void irqkit__softirq_takeover(unsigned int cpu, unsigned int to);
HIDDEN void irqkit__timers_dead_cpu(unsigned int cpu, unsigned int to);

/* irq_work.c */
HIDDEN void irqkit__irq_work_run(struct irqkit_cpu *c);
HIDDEN void irqkit__irq_work_dead_cpu(unsigned int cpu, unsigned int to);
HIDDEN void irqkit__irq_work_exit(void);

/* hrtimer.c */
HIDDEN void irqkit__hrtimer_interrupt(struct irqkit_cpu *c);
HIDDEN uint64_t irqkit__hrtimer_earliest(void);
HIDDEN void irqkit__hrtimer_tell_due(uint64_t now);
HIDDEN void irqkit__hrtimers_init(void);
HIDDEN void irqkit__hrtimers_exit(void);
HIDDEN void irqkit__hrtimers_dead_cpu(unsigned int cpu, unsigned int to);
HIDDEN uint64_t irqkit__hrtimer_idle_deadline(struct irqkit_cpu *c);

/* timer.c */
HIDDEN void irqkit__timers_reprogram(void);
HIDDEN uint64_t irqkit__now_ns(void);
HIDDEN uint64_t irqkit__jiffies_to_ns(unsigned long j);
HIDDEN void irqkit__jiffies_reset(void);
HIDDEN void irqkit__timers_started(void);
HIDDEN uint64_t irqkit__timers_sleep(struct irqkit_cpu *c);
HIDDEN void irqkit__sleep_ns(uint64_t ns);
extern HIDDEN uint64_t irqkit__tick_idle_ns;
extern HIDDEN unsigned int irqkit__jiffies_readers;

/*
 * The publish points of the runtime's own threads (a wake-up, a softirq
 * round, a wait): only a program that reads the jiffies objects pays the
 * clock read (see <irqkit/timer.h>).
 */
static inline void irqkit__jiffies_touch(void)
{
	if (unlikely(READ_ONCE(irqkit__jiffies_readers)))
		irqkit_jiffies();
}
HIDDEN void irqkit__run_timers(void);
HIDDEN void irqkit__timers_init(void);
HIDDEN void irqkit__timers_exit(void);
#define time_after(a, b)	irqkit_time_after(a, b)

/* point.c: the interrupt points of an exploration (platform.h) */
HIDDEN extern irqkit__core_point_fn irqkit__point_hook;
HIDDEN void irqkit__point_slow(const char *what, const void *ip);
HIDDEN void irqkit__sim_switch(const char *what, const void *ip);
static inline void irqkit__point(const char *what, const void *ip)
{
	if (unlikely(READ_ONCE(irqkit__point_hook)))
		irqkit__point_slow(what, ip);
}

/* observe.c: latency histograms and the timeline recorder (<irqkit/observe.h>) */
#define IRQKIT__OBS_HIST	(1u << 0)
#define IRQKIT__OBS_TRACE	(1u << 1)
extern HIDDEN unsigned int irqkit__obs;

/* What the hot paths test first: is anything watching?  One load and a branch. */
static __always_inline unsigned int irqkit__observing(void)
{
	return READ_ONCE(irqkit__obs);
}

/* Mark softirq @nr pending on @c, @observed already tested by the caller; that form is out of line. */
static __always_inline void irqkit__raise_softirq_as(struct irqkit_cpu *c, unsigned int nr,
						     bool observed)
{
	irqkit_trace(softirq_raise, nr);
	if (unlikely(observed))
		irqkit__raise_softirq_observed(c, nr);
	else
		a_fetch_or(&c->softirq_pending, 1u << nr);
}

/* Mark softirq @nr pending on @c. */
static __always_inline void irqkit__raise_softirq_on(struct irqkit_cpu *c, unsigned int nr)
{
	irqkit__raise_softirq_as(c, nr, irqkit__observing());
}

struct irqkit__hist {
	uint64_t		bucket[40];	/* IRQKIT_HIST_BUCKETS */
	uint64_t		sum;
	uint64_t		max;
};

struct irqkit_hist_data;
struct irqkit_workqueue;
HIDDEN void irqkit__hist_add(struct irqkit__hist *h, uint64_t ns);
HIDDEN void irqkit__hist_clear(struct irqkit__hist *h, size_t n);
HIDDEN void irqkit__hist_copy(const struct irqkit__hist *h, struct irqkit_hist_data *out);
HIDDEN const struct irqkit__hist *irqkit__obs_hist(int kind, unsigned int key);
HIDDEN void irqkit__trace_event(unsigned int kind, uint64_t ts, uint64_t end, const void *what,
				uint64_t flow, uint32_t arg);
HIDDEN uint64_t irqkit__trace_flow(void);
HIDDEN void irqkit__obs_exit(void);
HIDDEN void irqkit__obs_raise(unsigned int irq);
HIDDEN uint64_t irqkit__obs_irq_begin(struct irqkit_desc *desc, uint64_t *flow);
HIDDEN uint64_t irqkit__obs_handler(struct irqkit_desc *desc, const struct irqkit_action *action,
				    unsigned int res, uint64_t start, uint64_t *flow);
HIDDEN void irqkit__obs_irq_end(struct irqkit_desc *desc, uint64_t start, uint64_t end);
HIDDEN void irqkit__obs_softirq_raise(struct irqkit_cpu *c, unsigned int nr);
HIDDEN uint64_t irqkit__obs_softirq_begin(struct irqkit_cpu *c, unsigned int nr);
HIDDEN void irqkit__obs_softirq_end(unsigned int nr, uint64_t start);
HIDDEN void irqkit__obs_tasklet_sched(struct irqkit_tasklet *t);
HIDDEN uint64_t irqkit__obs_tasklet_begin(struct irqkit_tasklet *t, unsigned int nr);
HIDDEN void irqkit__obs_tasklet_end(const void *fn, unsigned int nr, uint64_t start);
/* @timed: its timer expired, it was due at @due (else: queued now) */
HIDDEN void irqkit__obs_work_queued(struct irqkit_work *work, bool timed, uint64_t due);
HIDDEN uint64_t irqkit__obs_work_begin(struct irqkit_work *work, struct irqkit__hist *wq_hist,
				       uint64_t *flow);
HIDDEN void irqkit__obs_work_end(const void *fn, struct irqkit__hist *wq_hist, uint64_t start,
				 uint64_t flow);
HIDDEN void irqkit__obs_slice(unsigned int kind, const void *what, uint64_t start, uint32_t arg);
/* workqueue.c: each queue's WORK histograms (delay, duration, lateness) */
HIDDEN void irqkit__wq_hist_clear(void);
HIDDEN struct irqkit__hist *irqkit__wq_hist(const struct irqkit_workqueue *wq, unsigned int which);
HIDDEN void irqkit__wq_for_each(void (*fn)(const struct irqkit_workqueue *wq, const char *name,
					   void *arg), void *arg);

#endif /* IRQKIT_CORE_CORE_H */
