/* SPDX-License-Identifier: MIT */
/*
 * The time test driver: delays by busy-waiting on jiffies, by yielding, by
 * sleeping on a wait queue with a timeout and by schedule_timeout; a timer
 * and a tasklet that re-arm themselves and record where they ran.
 */
#ifndef DRV_JIT_H
#define DRV_JIT_H

enum jit_how { JIT_BUSY, JIT_SCHED, JIT_QUEUE, JIT_SCHEDTO, JIT_MDELAY, JIT_MSLEEP };

/* Delay @how for the driver's default delay (HZ/10 jiffies); j0/j1 the jiffies around it. */
void jit_delay(enum jit_how how, unsigned long *j0, unsigned long *j1);
int jit_default_delay(void);
/* jiffies, read as the object it is */
unsigned long jit_jiffies(void);
int jit_hz(void);

struct jit_sample {
	unsigned long	j;		/* jiffies at the call */
	int		in_interrupt;	/* in_interrupt() */
	int		in_softirq;	/* in_softirq() && !in_irq() */
	int		pid;
	char		comm[16];
};

#define JIT_LOOPS	5
/* Run the timer (tasklet: hi = 0/1) @loops times, each @tdelay jiffies after the last. */
void jit_timer(int tdelay, struct jit_sample *out /* [JIT_LOOPS + 1] */);
void jit_tasklet(int hi, struct jit_sample *out /* [JIT_LOOPS + 1] */);

#endif
