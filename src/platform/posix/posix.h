/* SPDX-License-Identifier: MIT */
/* Internals of the Linux user-space platform shared by its files. */
#ifndef IRQKIT_POSIX_H
#define IRQKIT_POSIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* timer.c: the thread behind irqkit_arch_timer_program(). */
int irqkit__posix_timer_start(void);
void irqkit__posix_timer_stop(void);

/* platform.c: fault injection for tests; see irqkit_plat_alloc(). */
extern int irqkit__plat_alloc_fail;
extern unsigned int irqkit__plat_alloc_delay_us;
/* platform.c: "@who: message" on stderr, one line (the reports of a layer stacked on this one). */
void irqkit__posix_say(const char *who, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* symbols.c: drop the symbol cache. */
void irqkit__posix_symbols_exit(void);

/*
 * idle.c: each virtual CPU's epoll set, where its dispatcher waits once a
 * descriptor is bound to it (see there).
 */
int irqkit__posix_cpus_init(unsigned int nr);
void irqkit__posix_cpus_exit(void);
void irqkit__posix_cpu_loop(unsigned int cpu);

/* publish.c: the tables for other processes (IRQKIT_CFG_PUBLISH, IRQKIT_PUBLISH). */
void irqkit__posix_publish_start(bool flag);
void irqkit__posix_publish_stop(void);

/* tracefile.c: IRQKIT_HIST and IRQKIT_TRACE, at start and at stop. */
void irqkit__posix_observe_start(void);
void irqkit__posix_observe_stop(void);

/*
 * The scheduler the platform's threads run under (platform.c).  The host's
 * own, irqkit__posix_host (futexes, CLOCK_MONOTONIC, the kernel's
 * scheduler), unless a scheduler stacked on this platform takes over for a
 * run of the mode it serves (one that runs the same threads one at a time,
 * in virtual time, say).  The platform's hooks call the scheduler in use
 * and never ask which it is.  A stacked scheduler passes a thread it does
 * not run (a program's thread it did not make) to the host's operations.
 */
struct irqkit_config;
struct sched_thread;
struct irqkit__posix_sched {
	const char	*name;
	unsigned int	mode;		/* the run mode it serves (enum irqkit_mode) */
	/*
	 * Its threads run in virtual time, one at a time: nothing of the run
	 * may run beside them in real time (the publisher's thread), and the
	 * thread that starts the run plays CPU 0, as in deterministic mode.
	 */
	bool		virtual_time;
	/*
	 * A run starts, on the thread that calls irqkit_start() and before the
	 * core makes a thread (it installs the scheduler), and ends, every
	 * thread of the runtime joined (it gives way to the host's).
	 */
	int		(*begin)(const struct irqkit_config *cfg);
	void		(*end)(void);
	uint64_t	(*now_ns)(void);
	/* A spin step (@yield: of a long spin), from the code at @ip. */
	void		(*spin)(bool yield, const void *ip);
	/* Park while *@addr == @val (no @addr: a sleep), at most @ns (UINT64_MAX: no limit). */
	void		(*wait)(const unsigned int *addr, unsigned int val, uint64_t ns, const void *ip);
	void		(*wake)(const unsigned int *addr, const void *ip);
	/* The calling thread's number in reports. */
	int		(*thread_id)(void);
	/*
	 * The caller makes a thread: its record (*@out, NULL when this
	 * scheduler does not run it) or a negative errno.  With a record, the
	 * thread enters first and exits last, the record is abandoned when the
	 * thread could not be made after all, and a join waits through it.
	 */
	int		(*thread_new)(struct sched_thread **out, const char *name);
	void		(*thread_enter)(struct sched_thread *t);
	void		(*thread_exit)(struct sched_thread *t);
	void		(*thread_abandon)(struct sched_thread *t);
	void		(*thread_join)(struct sched_thread *t, const void *ip);
};
extern const struct irqkit__posix_sched irqkit__posix_host;
/*
 * The schedulers stacked on this platform, NULL-terminated: defined by the
 * layer that stacks them, as a board defines the hooks its architecture
 * calls.  irqkit_start() begins the one whose mode the run asks for.
 */
extern const struct irqkit__posix_sched *const irqkit__posix_stacked[];
/* The scheduler in use (the host's between runs). */
const struct irqkit__posix_sched *irqkit__posix_sched_current(void);
/* Install @s for the run (NULL: the host's again); the scheduler's begin and end call it. */
void irqkit__posix_sched_install(const struct irqkit__posix_sched *s);
/* The run ends: the scheduler in use ends it (the host's: nothing to do). */
void irqkit__posix_sched_end(void);

#endif /* IRQKIT_POSIX_H */
