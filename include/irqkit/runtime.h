/* SPDX-License-Identifier: MIT */
/* Starting and stopping the runtime: virtual CPUs, delivery mode, time, logging. */
#ifndef IRQKIT_RUNTIME_H
#define IRQKIT_RUNTIME_H

#include <irqkit/types.h>
#include <irqkit/timer.h>

#ifdef __cplusplus
extern "C" {
#endif

enum irqkit_mode {
	/*
	 * Each virtual CPU has a dispatcher thread that takes the interrupts
	 * routed to it; threads bound to a CPU also take them at delivery points.
	 */
	IRQKIT_MODE_THREADED = 0,
	/*
	 * For tests: no dispatcher threads and a virtual clock.  The thread that
	 * calls irqkit_start() is bound to CPU 0 and plays it; interrupts are
	 * delivered only at the points the test chooses: a raise with interrupts
	 * on, local_irq_restore/enable, spin_unlock_irqrestore, local_bh_enable,
	 * enable_irq, irqkit_deliver_pending() and irqkit_cpu_run().  Timers fire
	 * only in irqkit_clock_advance().
	 */
	IRQKIT_MODE_DETERMINISTIC = 1,
	/*
	 * The simulator, for finding races: threaded mode's threads (a
	 * dispatcher per CPU, ksoftirqd, kworkers, irq threads, the program's
	 * own through irqkit_thread_start()) run one at a time, switching only at
	 * kernel-API points, in an order that @sim_seed decides; a virtual CPU
	 * runs one context at a time (see <irqkit/explore.h>).  Time is virtual.
	 * The thread that calls irqkit_start() is bound to CPU 0.
	 */
	IRQKIT_MODE_SIM = 2,
};

/* irqkit_config.flags */
#define IRQKIT_CFG_NOIRQDEBUG	(1u << 0)	/* Linux's noirqdebug: no spurious detection */
#define IRQKIT_CFG_DEBUG_SHIRQ	(1u << 1)	/* CONFIG_DEBUG_SHIRQ: call a freed shared handler once more */
#define IRQKIT_CFG_PIN_CPUS	(1u << 2)	/* pin dispatcher k to host CPU k mod online CPUs */
#define IRQKIT_CFG_THREADIRQS	(1u << 3)	/* Linux's threadirqs: force handlers into threads */
/*
 * A periodic tick: jiffies_value is brought up to date HZ times a second
 * while the runtime runs (threaded mode), for code that busy-waits on the
 * jiffies object with nothing in the loop.  Without it nothing wakes up while
 * the runtime is idle.
 */
#define IRQKIT_CFG_PERIODIC_TICK (1u << 4)
/*
 * Publish the tables for other processes (irqkit-top, lsirq): once a second
 * a thread rewrites interrupts (Linux's /proc/interrupts), softirqs, irqkit
 * (the table's irqkit section) and comm in a directory named by the pid,
 * under $IRQKIT_PUBLISH_DIR, else $XDG_RUNTIME_DIR/irqkit, else
 * /tmp/irqkit-UID; removed at stop.  IRQKIT_PUBLISH=1 (or an interval in
 * ms) in the environment does the same without the flag; IRQKIT_PUBLISH=0
 * turns it off.
 */
#define IRQKIT_CFG_PUBLISH	(1u << 5)
/*
 * Linux's irqfixup boot option: an interrupt that no handler of its line
 * handled makes the CPU try the handlers of every other shared line (a
 * device wired to the wrong line, or a controller that delivers on the
 * wrong one, gets served), and counts as handled if one of them handled
 * it.  IRQKIT_IRQFIXUP=1 in the environment does the same.
 */
#define IRQKIT_CFG_IRQFIXUP	(1u << 6)
/*
 * Linux's irqpoll: irqfixup, and the same try of every other shared line
 * also at each handled interrupt of line 0 (the PC's timer line) and of a
 * line requested with IRQKIT_F_IRQPOLL.  IRQKIT_IRQPOLL=1 does the same.
 */
#define IRQKIT_CFG_IRQPOLL	(1u << 7)
/*
 * The spurious window of Linux 5.13 on ("genirq: reduce irqdebug bouncing
 * cachelines"): a line's irq_count, the window of 100,000 interrupts that
 * decides whether it is stuck, starts at its first unhandled interrupt
 * and does not move while none is unhandled, so /proc/irq/N/spurious
 * says "count 0" for a line whose interrupts were all handled.  Without
 * the flag every interrupt moves it, as Linux 2.6 to 5.12 do.
 */
#define IRQKIT_CFG_WINDOW_FROM_UNHANDLED (1u << 8)
/*
 * PREEMPT_RT mode, Linux's CONFIG_PREEMPT_RT: every handler that can be
 * threaded is (threadirqs, and a forced thread keeps interrupts on); a
 * program's spinlock_t and rwlock_t are sleeping locks with priority
 * inheritance where the platform has it (a PI futex on Linux user space in
 * threaded mode), and their _irq and _irqsave forms leave interrupts on
 * (flags 0); raw_spinlock_t still spins; might_sleep() does not count
 * bottom halves as atomic.  Taking a spinlock_t where an RT kernel could
 * not sleep (hardirq context, interrupts off, under a raw lock) is "BUG:
 * sleeping function called from invalid context", as there.  Softirqs
 * raised in hardirq context run in ksoftirqd, not at irq_exit; a thread's
 * local_bh_enable runs what is pending; local_bh_disable on a thread bound
 * to a CPU takes that CPU's sleeping bh lock; an hrtimer not set up with
 * HRTIMER_MODE_HARD expires in softirq context, and an irq_work not marked
 * IRQ_WORK_HARD_IRQ runs in the CPU's irq_work/N thread.
 * IRQKIT_PREEMPT_RT=1 in the environment does the same.  A program's
 * `#ifdef CONFIG_PREEMPT_RT` is its own: irqkit_preempt_rt()
 * (<irqkit/spinlock.h>) says which mode runs.
 */
#define IRQKIT_CFG_PREEMPT_RT	(1u << 9)

struct irqkit_config {
	unsigned int		nr_irqs;	/* lines, 1..258048; 0 means 256 */
	unsigned int		nr_cpus;	/* virtual CPUs, 1..64; 0 means 1 */
	enum irqkit_mode	mode;
	unsigned int		hz;		/* jiffies per second; 0 means IRQKIT_HZ */
	unsigned int		flags;		/* IRQKIT_CFG_* */
	irqkit_log_fn		log;		/* NULL: lines go to stderr */
	void			*log_arg;
	/*
	 * Threaded mode's watchdog: a handler, softirq or tasklet that has not
	 * returned ("soft lockup"), a wait that has not ended ("blocked for
	 * more than"), a work pool that makes no progress ("workqueue
	 * lockup"), each reported after this long.  0 means 5000 ms;
	 * IRQKIT_WATCHDOG_OFF switches it off.  Deterministic mode has none.
	 */
	unsigned int		watchdog_ms;
	/*
	 * Idle kworkers beyond the one spare per pool end after this long
	 * (Linux's IDLE_WORKER_TIMEOUT).  0 means 300000 ms (5 minutes).
	 */
	unsigned int		worker_idle_ms;
	/*
	 * CPUs that a program's own event loop plays (threaded mode): they get
	 * no dispatcher thread; see irqkit_loop_fd() in <irqkit/fd.h>.
	 */
	irqkit_cpumask		loop_cpus;
	/*
	 * IRQKIT_MODE_SIM: the seed of the schedule (IRQKIT_SIM_SEED in the
	 * environment overrides it) and its depth: how many times the order of
	 * the threads' priorities changes in a run (PCT's d - 1; 0 means 2).
	 */
	uint64_t		sim_seed;
	unsigned int		sim_depth;
};

#define IRQKIT_WATCHDOG_OFF	(~0u)

/**
 * irqkit_start - build the descriptor table and start the virtual CPUs
 *
 * Every line starts with no chip (irqkit_no_irq_chip); attach lines to a chip,
 * for example with irqkit_swchip_add(), before requesting them.
 * Context: process context, one runtime per process.
 * Return: 0; -EINVAL for a bad config; -EBUSY when already started; -ENOMEM.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_start(const struct irqkit_config *cfg);

/**
 * irqkit_stop - stop every thread of the runtime and free all its memory
 *
 * Handlers still registered are freed first.  After it, every object of the
 * run (work items, timers, tasklets, threads that were bound to a CPU) may
 * still be used: each call on it is a clean no-op, as after a restart.
 *
 * A handler, softirq action, tasklet or timer callback that never returns:
 * with the watchdog on, stop waits twice its threshold for each CPU's
 * threads, reports the one it leaves ("irqkit_stop: vcpu/N did not stop:
 * CPU#N is stuck in FUNCTION" or "ksoftirqd/N ...") and returns with the
 * runtime as it is: that thread still runs the callback, the CPU threads
 * that ended are joined, the kworkers, irq threads, ksoftirqd threads and
 * the watchdog are still there (idle), and the memory stays (the callback
 * uses it).  irqkit_started() is then false and irqkit_start() returns
 * -EBUSY with a log line; a later irqkit_stop() finishes the stop once the
 * callback has returned.  With the watchdog off, stop waits as long as
 * the callback runs.
 *
 * Context: process context, not a thread of the runtime.
 */
IRQKIT_API void irqkit_stop(void);

IRQKIT_API bool irqkit_started(void);
IRQKIT_API unsigned int irqkit_nr_irqs(void);
IRQKIT_API unsigned int irqkit_nr_cpus(void);
IRQKIT_API enum irqkit_mode irqkit_mode(void);

/**
 * irqkit_thread_bind - make the calling thread run on virtual CPU @cpu
 *
 * A bound thread shares the CPU with its dispatcher: while it has interrupts
 * off, no hardirq handler runs on that CPU, and it takes the CPU's pending
 * interrupts at its delivery points.
 * Context: process context, interrupts on.  Return: 0 or -EINVAL.
 */
IRQKIT_API int irqkit_thread_bind(unsigned int cpu);
/** irqkit_thread_unbind - the calling thread belongs to no CPU again.  Return: 0 or -EINVAL. */
IRQKIT_API int irqkit_thread_unbind(void);

struct irqkit_thread;

/**
 * irqkit_thread_start - a thread of the program's own, bound to virtual CPU @cpu
 * @out: the handle for irqkit_thread_join()
 * @cpu: the CPU it is bound to for its whole life
 * @name: its name (cut at 15 characters)
 * @fn: what it runs, in process context; its return value is join's
 * @arg: passed to @fn
 *
 * In simulator mode (IRQKIT_MODE_SIM) the only way to have process context
 * besides the starting thread: a thread the program makes itself is not one
 * of the simulator's, and runs unserialised (it is reported once).
 * Context: process context, runtime started.
 * Return: 0, -EINVAL for a bad CPU or no runtime, -ENOMEM.
 */
IRQKIT_API int irqkit_thread_start(struct irqkit_thread **out, unsigned int cpu, const char *name,
				   int (*fn)(void *arg), void *arg);
/**
 * irqkit_thread_join - wait until the thread of irqkit_thread_start() returns, and free it
 * Context: process context, not that thread.
 * Return: what its function returned.
 */
IRQKIT_API int irqkit_thread_join(struct irqkit_thread *th);

/**
 * irqkit_cpu_run - deliver the pending interrupts of @cpu on the calling thread
 *
 * The caller plays @cpu for the call (in deterministic mode, the way to serve
 * a CPU other than the caller's).  Context: process context, interrupts on.
 * Return: 0, -EINVAL for a bad CPU, -EBUSY when the caller is bound elsewhere
 * with interrupts off or in interrupt context.
 */
IRQKIT_API int irqkit_cpu_run(unsigned int cpu);

/* irqkit_jiffies() and irqkit_hz() are declared in <irqkit/timer.h>. */

/**
 * irqkit_clock_advance - move the virtual clock of deterministic mode forward
 *
 * Timers that expire run on the calling thread, in softirq context.
 * Return: 0, -EINVAL outside deterministic mode.
 */
IRQKIT_API int irqkit_clock_advance(uint64_t ns);

/** irqkit_set_log - replace the log hook at run time (NULL: stderr).  Context: process. */
IRQKIT_API void irqkit_set_log(irqkit_log_fn fn, void *arg);

/**
 * irqkit_version - the library's version, IRQKIT_VERSION's encoding
 * ((major << 16) | (minor << 8) | patch), to compare with the headers'.
 */
IRQKIT_API unsigned int irqkit_version(void);
IRQKIT_API const char *irqkit_version_string(void);

/** irqkit_printk - log one line in kernel style through the hook.  Context: any. */
IRQKIT_API void irqkit_printk(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_RUNTIME_H */
