/* SPDX-License-Identifier: MIT */
/*
 * What every room of the core shares: the runtime and its mode, the
 * checking build's assertions, the log and WARN.  Each room has a face of
 * its own for what it offers the others, included by the files that use
 * it:
 *
 *   cpu.h              a virtual CPU: its state, its holds, delivery to it
 *   irq/internals.h    the generic interrupt layer (descriptors, actions)
 *   bh/bh.h            softirqs, tasklets, irq_work, work queues
 *   time/time.h        the clock, kernel timers, hrtimers
 *   sched/sched.h      tasks, signals, kthreads, wait lists, event counts
 *   locking/locking.h  the core's mutex, the lock validator's entry points
 *   debug/debug.h      race windows, faults, the watchdog, points, observing
 *   base/base.h        devices and managed resources
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

struct irqkit_desc;
struct irqkit_action;

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
/* Process context: no hardirq, NMI or softirq being served. */
#define assert_process_context()	IRQKIT_ASSERT(irqkit_in_task())

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

/* context.c */
HIDDEN void irqkit__might_sleep(const char *file, int line);
#define might_sleep()	irqkit__might_sleep(__FILE__, __LINE__)

#endif /* IRQKIT_CORE_CORE_H */
