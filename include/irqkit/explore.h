/* SPDX-License-Identifier: MIT */
/*
 * Exploration: run a test body again and again, making an interrupt arrive
 * at a different point each time, until every point has been tried; then at
 * points chosen by seeds.  The first run that fails is reported with the
 * schedule that made it fail and the number that replays it.
 *
 * The body runs the runtime in deterministic mode (it starts and stops it
 * itself, as a test does), so the thread that calls irqkit_start() plays
 * CPU 0 and the interrupt is delivered on that thread, where it arrives.
 * The points are the kernel-API calls at which a real CPU could take an
 * interrupt, made with interrupts on outside hardirq context: a spinlock,
 * reader-writer lock or mutex taken or released, local_irq_save/restore
 * (and _disable/_enable) turning interrupts off or on, local_bh_enable
 * (all but mutexes in code compiled with -DIRQKIT_LOCKDEP, whose hooks
 * announce them, the validator on or off at run time: irqkit's own
 * locking is not explored), queue_work, tasklet_schedule,
 * mod_timer, wake_up, complete, free_irq, the end of request_irq and of
 * enable_irq, and irqkit_sim_point().
 *
 * Each run is a child process (fork): a crash, an abort, a sanitizer report
 * (its non-zero exit), a cmocka assertion (the child sets
 * CMOCKA_TEST_ABORT=1, so it aborts), a report of the lock validator, a
 * non-zero return of the body, or a run that does not end within the
 * time limit (a deadlock, an endless loop) is a failure, and ends the
 * exploration.
 *
 * Runs are numbered: run 0 is the body undisturbed, which counts the points
 * (P); runs 1..P deliver one interrupt at point 0..P-1 in turn (systematic);
 * runs P+1.. deliver @depth interrupts at points that a seed derived from
 * @seed and the run number chooses (random).  IRQKIT_SEED=N in the
 * environment makes irqkit_explore() run only run N, in the calling process
 * (a debugger sees it), saying where each interrupt comes.
 */
#ifndef IRQKIT_EXPLORE_H
#define IRQKIT_EXPLORE_H

#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IRQKIT_EXPLORE_MAX_DEPTH	16

struct irqkit_explore_cfg {
	/*
	 * What happens at a chosen point: @interrupt(@interrupt_arg) if set
	 * (a device model sets its status and raises its line), else
	 * irqkit_sw_raise(@irq) (a software line).
	 */
	unsigned int	irq;
	void		(*interrupt)(void *arg);
	void		*interrupt_arg;
	/*
	 * After the systematic ones; 0: none.  A body that starts the
	 * simulator (IRQKIT_MODE_SIM) has no systematic runs: each run is the
	 * schedule of a seed, and there are @random_runs of them (0: 100).
	 */
	unsigned int	random_runs;
	/* interrupts per random run, 1..16, 0: 2; simulator: its sim_depth */
	unsigned int	depth;
	uint64_t	seed;		/* of the random runs (and the simulator's seeds) */
	unsigned int	timeout_ms;	/* a run longer than this fails; 0: 10000 */
	unsigned int	max_points;	/* systematic runs at most (0: every point) */
};

struct irqkit_explore_result {
	unsigned long	runs;		/* runs made, the counting run included */
	unsigned long	points;		/* points the undisturbed run reached (simulator: switch points) */
	unsigned long	failed_run;	/* when 1 was returned: the run (IRQKIT_SEED replays it) */
	char		why[96];	/* how it failed: "exit status 1", "SIGSEGV", ... */
	char		schedule[384];	/* where its interrupts came; simulator: seed, last switches */
};

/**
 * irqkit_explore - run @body(@arg) under every interrupt schedule of @cfg
 * @res: filled in (may be NULL)
 *
 * Context: process context, with the runtime not started in the caller.
 * Return: 0 when every run passed; 1 when one failed (reported on stderr
 * with its replay command, and in @res); -EINVAL for a bad @cfg or a body
 * that reached no point (it must run the runtime in deterministic mode),
 * -EBUSY when the runtime runs in the caller (a child would inherit it
 * without its threads), -ENOMEM, or the errno of a failed fork.  A failed
 * counting run (run 0) is a failure like any other.
 */
IRQKIT_API int irqkit_explore(const struct irqkit_explore_cfg *cfg, int (*body)(void *arg),
			      void *arg, struct irqkit_explore_result *res);

/**
 * irqkit_sim_point - an interrupt point the program places itself
 *
 * Where a test wants an interrupt to be able to arrive (between two plain
 * stores the handler also reads, say).  Outside an exploration: nothing.
 */
IRQKIT_API void irqkit_sim_point(void);

/*
 * The simulator (IRQKIT_MODE_SIM in <irqkit/runtime.h>).
 *
 * Every thread of the run (the starting one, bound to CPU 0; each CPU's
 * dispatcher; ksoftirqd, kworkers, irq threads, the timer thread; threads of
 * irqkit_thread_start()) runs one at a time, and gives way only at a
 * kernel-API point: the interrupt points above (a lock taken or released in
 * code built with -DIRQKIT_LOCKDEP, interrupts or bottom halves turned back
 * on, queue_work, tasklet_schedule, mod_timer, wake_up, complete, free_irq,
 * mutex_lock, irqkit_sim_point(), ...), a wake-up, a wait, a sleep, a spin.
 * Which thread runs next is PCT's choice: random priorities from the seed,
 * and @sim_depth points where the running thread drops below the others.
 * A thread bound to CPU k does not run while another context of k cannot be
 * preempted (interrupts off, a spinlock held, bottom halves off, in a
 * softirq or a handler): a handler on k interrupts k's task, which waits.
 * Time is virtual (a spin step is a microsecond; when no thread can run the
 * clock jumps to the next timed wait).  The same seed and program give the
 * same interleaving: IRQKIT_SIM_LOG=FILE writes each switch, one per line,
 * and the file is the same byte for byte.  A run where no thread can run and
 * no wait ends within a virtual minute (a deadlock), or where only spinning
 * threads can run for two virtual seconds (a livelock), is reported with each
 * thread's state and stack and the last switches, and aborts.
 *
 * Not in this mode: lines bound to file descriptors (they are not
 * serialised; a recording of their arrivals replays here, <irqkit/record.h>),
 * published tables, a program's own pthreads (reported once,
 * and not serialised), the watchdog.  Log lines that print an address (%p)
 * differ between processes, as the addresses do.
 *
 * irqkit_explore() runs a body that starts the runtime in this mode with
 * @random_runs seeds (0: 100), each a schedule; IRQKIT_SEED=N replays run N
 * with every switch on stderr.
 */
struct irqkit_sim_stats {
	uint64_t	seed;
	uint64_t	steps;		/* switch points reached */
	uint64_t	switches;	/* of them, where another thread went on */
	uint64_t	virtual_ns;	/* the virtual time the run took */
	uint64_t	hash;		/* of the schedule: equal for equal interleavings */
	unsigned int	threads;	/* made in the run, the starting one included */
};

/**
 * irqkit_sim_stats - the simulated run in progress, or the last one
 * @out: filled in
 *
 * Return: 0; -EINVAL for NULL or a thread that is not the simulator's;
 * -ENODATA when no simulated run has been.
 */
IRQKIT_API int irqkit_sim_stats(struct irqkit_sim_stats *out);

/*
 * For cmocka tests: fail the test, naming the failed run and its replay,
 * unless every run of the exploration passes.
 */
#define assert_explore_passes(cfg, body, arg)						\
	do {										\
		struct irqkit_explore_result irqkit__r;					\
		int irqkit__rc = irqkit_explore((cfg), (body), (arg), &irqkit__r);	\
		if (irqkit__rc)								\
			fail_msg("exploration: %s (run %lu: %s; %s); replay with IRQKIT_SEED=%lu", \
				 irqkit__rc < 0 ? "refused" : "a run failed",		\
				 irqkit__r.failed_run, irqkit__r.why, irqkit__r.schedule, \
				 irqkit__r.failed_run);					\
	} while (0)

#ifdef __cplusplus
}
#endif

#endif /* IRQKIT_EXPLORE_H */
