/* SPDX-License-Identifier: MIT */
/*
 * Time (time/): the clock and jiffies, kernel timers (timer.c) and
 * high-resolution timers (hrtimer.c), as the other rooms reach them: the
 * timer interrupt, the idle sleep to the next expiry, start, stop and
 * hotplug.  Each CPU's timer bases are part of its state (core.h).
 */
#ifndef IRQKIT_CORE_TIME_TIME_H
#define IRQKIT_CORE_TIME_TIME_H

#include "core.h"
#include "cpu.h"

/* timer.c: an offline CPU's timers go to @to */
HIDDEN void irqkit__timers_dead_cpu(unsigned int cpu, unsigned int to);

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

/* timer.c: timer duty, an idle kworker as its CPU's timer (bh/worker.c) */
HIDDEN struct irqkit_cpu *irqkit__timer_duty_take(unsigned int cpu);
HIDDEN void irqkit__timer_duty_release(struct irqkit_cpu *c);
HIDDEN uint64_t irqkit__timer_duty_due(struct irqkit_cpu *c);
HIDDEN void irqkit__timer_duty_run(struct irqkit_cpu *c);

#endif /* IRQKIT_CORE_TIME_TIME_H */
