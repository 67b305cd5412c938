// SPDX-License-Identifier: MIT
/*
 * The run modes, each as one set of helpers, as Linux's kernel/softirq.c
 * gives PREEMPT_RT and the other builds one small helper set each and a
 * shared loop that never asks which it is.  The threaded mode is the
 * default, all zero; each other mode is the list of its differences.  The
 * core's algorithms ask these helpers (core.h, mode_*()), never the mode.
 */
#include "core.h"

static const struct irqkit__mode modes[] = {
	/*
	 * Virtual CPUs are threads: a dispatcher and a ksoftirqd per CPU, the
	 * platform's timer, kworkers that take their CPU's timer while idle,
	 * the watchdog.
	 */
	[IRQKIT_MODE_THREADED] = { 0 },
	/*
	 * Nothing runs unless the test makes it: no dispatcher, ksoftirqd or
	 * platform timer; the thread that plays a CPU takes its interrupts and
	 * softirqs at its interrupt points; time is virtual.  Kworkers and irq
	 * threads are real threads that act for a CPU.
	 */
	[IRQKIT_MODE_DETERMINISTIC] = {
		.virtual_clock = true,
		.player_delivers = true,
		.timer_duty_off = true,
		.workers_kept = true,
		.loop_cpus_off = true,
	},
	/*
	 * The threaded mode's threads, run one at a time by the simulator (a
	 * service of the platform: its clock, waits and threads), which may
	 * switch threads at every interrupt point.
	 */
	[IRQKIT_MODE_SIM] = {
		.switch_at_points = true,
		.watchdog_off = true,
		.timer_duty_off = true,
		.loop_cpus_off = true,
	},
};

const struct irqkit__mode *irqkit__mode_of(unsigned int mode)
{
	return mode < ARRAY_SIZE(modes) ? &modes[mode] : NULL;
}
