/* SPDX-License-Identifier: MIT */
/*
 * The parallel-port-style test driver: it finds its line by probing, a top
 * half stamps each interrupt into a ring, a bottom half (tasklet or work
 * item) turns stamps into text, and read() sleeps on a wait queue until
 * there is text.  Plain C entry points, so the test does not depend on the
 * Linux version the driver is built for.
 */
#ifndef DRV_PARPORT_H
#define DRV_PARPORT_H

#include <stddef.h>

enum parport_bh { PARPORT_BH_TASKLET, PARPORT_BH_WORK };

struct parport_stats {
	int	irq;			/* the probed line */
	int	top_halves;		/* interrupts handled */
	int	top_in_hardirq;		/* ... with in_irq() true */
	int	bottom_halves;
	int	bottom_in_softirq;	/* tasklet: in_softirq() && !in_irq() */
	int	bottom_in_process;	/* work: !in_interrupt(), on a kworker */
	int	reader_sleeps;		/* schedule() calls by readers */
	int	not_mine;		/* IRQ_NONE returns (shared line, device idle) */
	int	overruns;		/* stamps dropped: the ring was full */
};

int parport_init(enum parport_bh bh);
/* Blocks until text is there; returns the bytes copied. */
size_t parport_read(char *buf, size_t len);
void parport_stats(struct parport_stats *st);
/* Stamps the bottom half has not taken yet. */
size_t parport_backlog(void);
void parport_exit(void);

#endif
