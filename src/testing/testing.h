/* SPDX-License-Identifier: MIT */
/*
 * The test machinery, a layer stacked on the posix platform: the
 * deterministic scheduler (sched_det.c: IRQKIT_MODE_SIM's threads run one at
 * a time, in virtual time, in an order a seed decides) and the schedule
 * explorer (explore.c: irqkit_explore() runs a body under many seeds in
 * child processes and replays a failing one).  What the two share.
 */
#ifndef IRQKIT_TESTING_H
#define IRQKIT_TESTING_H

#include "posix.h"

/* sched_det.c: the deterministic scheduler, IRQKIT_MODE_SIM's */
extern const struct irqkit__posix_sched irqkit__sched_det;

/* A switch from one thread to another, as the deterministic scheduler keeps the last ones. */
struct irqkit__det_switch {
	uint64_t	step, now;
	char		from[16], to[16];
	const char	*what;		/* the switch point: a string of the program or library */
	const void	*ip;		/* its caller */
};
#define IRQKIT__DET_TAIL	12
struct irqkit__det_tail {
	bool				active;		/* a simulated run began */
	uint64_t			seed;		/* its seed */
	uint64_t			switches;	/* entry i is switch i mod IRQKIT__DET_TAIL */
	struct irqkit__det_switch	e[IRQKIT__DET_TAIL];
};
/* "step 12 at 1.000002000: main: spin_unlock from f+0x1c -> vcpu/0" */
void irqkit__det_switch_text(char *buf, size_t len, const struct irqkit__det_switch *e);

/* What an exploration (explore.c) sets for the simulated run of its child (sched_det.c). */
struct irqkit__det_plan {
	bool		set;
	uint64_t	seed;
	unsigned int	depth;
	uint64_t	steps;		/* PCT's estimate of the run's length */
	bool		verbose;	/* each switch to stderr (a replay) */
	struct irqkit__det_tail *tail;	/* where to keep the last switches (shared with the parent) */
	/* the run cannot go on: called with why, before abort() */
	void		(*fail)(const char *why);
};
extern struct irqkit__det_plan irqkit__det_plan;

#endif /* IRQKIT_TESTING_H */
