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
/* platform.c: "@who: message" on stderr, one line (the simulator's and exploration's reports). */
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
 * sim.c: the simulator (IRQKIT_MODE_SIM).  While irqkit__sim_active, the
 * platform's waits, wakes, spins, clock and threads go through it; each
 * irqkit__sim_* hook returns false for a thread that is not the simulator's
 * (the caller then does the real thing).
 */
struct irqkit_config;
struct sim_thread;
extern bool irqkit__sim_active;
int irqkit__sim_begin(const struct irqkit_config *cfg);
void irqkit__sim_end(void);
/* A spin step (@yield: of a long spin), from thread @ip. */
bool irqkit__sim_spin(const void *ip, bool yield);
/* Park while *@addr == @val (no @addr: a sleep), at most @ns (UINT64_MAX: no limit). */
bool irqkit__sim_wait(const unsigned int *addr, unsigned int val, uint64_t ns, const void *ip);
bool irqkit__sim_wake(const unsigned int *addr, const void *ip);
uint64_t irqkit__sim_now(void);
int irqkit__sim_thread_id(void);
/* A thread is made (by a thread of the simulator: else NULL), starts, ends, is joined. */
struct sim_thread *irqkit__sim_thread_new(const char *name);
void irqkit__sim_thread_enter(struct sim_thread *t);
void irqkit__sim_thread_exit(struct sim_thread *t);
/* Its thread could not be made after all: it never runs. */
void irqkit__sim_thread_abandon(struct sim_thread *t);
void irqkit__sim_join(struct sim_thread *t, const void *ip);

/* A switch from one thread to another, as the simulator keeps the last ones. */
struct irqkit__sim_switch {
	uint64_t	step, now;
	char		from[16], to[16];
	const char	*what;		/* the switch point: a string of the program or library */
	const void	*ip;		/* its caller */
};
#define IRQKIT__SIM_TAIL	12
struct irqkit__sim_tail {
	bool				active;		/* a simulated run began */
	uint64_t			seed;		/* its seed */
	uint64_t			switches;	/* entry i is switch i mod IRQKIT__SIM_TAIL */
	struct irqkit__sim_switch	e[IRQKIT__SIM_TAIL];
};
/* "step 12 at 1.000002000: main: spin_unlock from f+0x1c -> vcpu/0" */
void irqkit__sim_switch_text(char *buf, size_t len, const struct irqkit__sim_switch *e);

/* What an exploration (explore.c) sets for the simulated run of its child. */
struct irqkit__sim_plan {
	bool		set;
	uint64_t	seed;
	unsigned int	depth;
	uint64_t	steps;		/* PCT's estimate of the run's length */
	bool		verbose;	/* each switch to stderr (a replay) */
	struct irqkit__sim_tail *tail;	/* where to keep the last switches (shared with the parent) */
	/* the run cannot go on: called with why, before abort() */
	void		(*fail)(const char *why);
};
extern struct irqkit__sim_plan irqkit__sim_plan;

#endif /* IRQKIT_POSIX_H */
