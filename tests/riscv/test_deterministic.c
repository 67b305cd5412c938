// SPDX-License-Identifier: MIT
/*
 * Deterministic mode on bare metal, as the host's tests use it: the thread
 * that starts the runtime plays CPU 0 and takes its interrupts at its own
 * points, another CPU's lines wait until a thread plays that CPU
 * (irqkit_cpu_run), time is virtual (it moves only in
 * irqkit_clock_advance), and kworkers are real threads that act for a CPU.
 * No trap enters the core.
 */
#include <irqkit/swchip.h>

#include "rvtest.h"

#define LINE	40

static unsigned int runs[2], last_cpu, in_hardirq;
static unsigned long fired_at;
static unsigned int work_runs;

static enum irqkit_irqreturn handler(int irq, void *dev_id)
{
	(void)dev_id;
	last_cpu = (unsigned int)irqkit_smp_processor_id();
	in_hardirq += irqkit_in_hardirq();
	runs[irq - LINE]++;
	return IRQKIT_HANDLED;
}

static void test_raise_runs_on_the_player(void)
{
	int dev;

	CHECK_EQ(irqkit_request_irq(LINE, handler, 0, "det", &dev), 0);
	CHECK_EQ(irqkit_sw_raise(LINE), 0);
	CHECK_EQ(runs[0], 1);			/* before the raise returned */
	CHECK_EQ(last_cpu, 0);
	CHECK_EQ(in_hardirq, 1);
	irqkit_free_irq(LINE, &dev);
}

static void test_other_cpu_waits_for_its_player(void)
{
	int dev;

	CHECK_EQ(irqkit_request_irq(LINE + 1, handler, 0, "det1", &dev), 0);
	CHECK_EQ(irqkit_irq_set_affinity(LINE + 1, 2), 0);
	CHECK_EQ(irqkit_sw_raise(LINE + 1), 0);
	for (volatile int i = 0; i < 200000; i++)
		;
	CHECK_EQ(runs[1], 0);			/* nobody plays CPU 1 */
	CHECK_EQ(irqkit_cpu_run(1), 0);
	CHECK_EQ(runs[1], 1);
	CHECK_EQ(last_cpu, 1);
	CHECK_EQ(irqkit_smp_processor_id(), 0);	/* back to playing CPU 0 */
	irqkit_free_irq(LINE + 1, &dev);
}

static void timer_fn(struct irqkit_timer_list *t)
{
	(void)t;
	fired_at = irqkit_jiffies();
}

static void test_virtual_clock(void)
{
	static struct irqkit_timer_list timer;
	unsigned long j0 = irqkit_jiffies();
	uint64_t end;

	/* 20 ms of real time: the virtual clock does not move */
	__asm__ __volatile__("csrr %0, time" : "=r"(end));
	end += 200000;
	for (uint64_t now = 0; now < end;)
		__asm__ __volatile__("csrr %0, time" : "=r"(now));
	CHECK_EQ(irqkit_jiffies(), j0);
	irqkit_timer_setup(&timer, timer_fn, 0);
	irqkit_mod_timer(&timer, j0 + 10);
	CHECK_EQ(irqkit_clock_advance(5 * 1000000ull), 0);
	CHECK_EQ(fired_at, 0);
	CHECK_EQ(irqkit_clock_advance(5 * 1000000ull), 0);
	CHECK_EQ(fired_at, j0 + 10);		/* run at the advance, on time */
	irqkit_del_timer_sync(&timer);
}

static void work_fn(struct irqkit_work *w)
{
	(void)w;
	work_runs++;
}

static void test_work_on_a_kworker(void)
{
	static struct irqkit_work work;

	irqkit_init_work(&work, work_fn);
	CHECK(irqkit_schedule_work(&work));
	CHECK(irqkit_flush_work(&work));
	CHECK_EQ(work_runs, 1);
}

int irqkit_main(void)
{
	struct irqkit_config cfg = { .mode = IRQKIT_MODE_DETERMINISTIC, .nr_cpus = 2,
				     .log = rvtest_capture };

	CHECK_EQ(irqkit_start(&cfg), 0);
	CHECK_EQ(irqkit_swchip_add(LINE, 2, IRQKIT_TYPE_EDGE_RISING), 0);
	RUN(test_raise_runs_on_the_player);
	RUN(test_other_cpu_waits_for_its_player);
	RUN(test_virtual_clock);
	RUN(test_work_on_a_kworker);
	irqkit_stop();
	CHECK(!irqkit_started());
	/* and a threaded run after it, in the same image */
	CHECK_EQ(irqkit_start(NULL), 0);
	irqkit_stop();
	return rvtest_result();
}
