/* SPDX-License-Identifier: MIT */
/*
 * The work-queue test driver: a work item that re-queues itself, delayed
 * work (a work_struct with its own timer before 2.6.20, a delayed_work
 * after), cancelling a pending delayed item, a private single-thread queue
 * guarded by a semaphore, and a timer that wakes a sleeping reader.
 */
#ifndef DRV_WORKQ_H
#define DRV_WORKQ_H

struct workq_sample {
	unsigned long	j;		/* jiffies when it ran */
	int		in_interrupt;
	int		preempt;	/* preempt_count() */
	char		comm[16];
};

#define WORKQ_LOOPS	4
/* Run the item @WORKQ_LOOPS times, each @delay jiffies after the last (0: at once). */
void workq_run(int delay, struct workq_sample *out /* [WORKQ_LOOPS + 1] */);
/* Queue delayed work @delay jiffies ahead, cancel it; return 1 if it was pending and never ran. */
int workq_cancel_pending(int delay);
/* A private queue: @n items, each adding 1 under a semaphore, waited for with a completion. */
int workq_private_queue(int n);
/* Sleep until a timer @delay jiffies ahead wakes the caller; jiffies slept. */
unsigned long workq_timer_wakes_sleeper(int delay);

#endif
