// SPDX-License-Identifier: MIT
/*
 * The core on real harts: lines of the software chip raised for each CPU
 * run on that hart in hardirq context (an IPI carries the raise), a tasklet
 * they schedule runs there in softirq context, work they queue is flushed
 * from a thread, a completion signalled by a handler on another hart wakes a
 * thread, msleep and a kernel timer run on the CLINT timer, local_irq_save
 * really masks an interrupt raised meanwhile and a timer that expires
 * meanwhile, and a spinlock keeps a counter exact across harts.
 */
#include <unistd.h>

#include <irqkit/arch/rv.h>
#include <irqkit/hrtimer.h>
#include <irqkit/proc.h>
#include <irqkit/swchip.h>

#include "rvtest.h"

#define LINE0	32		/* software lines: one per CPU from here */
#define RAISES	50		/* edges raised on each before the last */

static unsigned int nr_cpus;

struct line_dev {
	unsigned int	cpu;		/* where its handler must run */
	unsigned int	hits, wrong_cpu, not_hardirq;
	bool		wake;		/* complete @done from the handler */
	struct irqkit_completion done;
	struct irqkit_tasklet tasklet;
	unsigned int	tasklet_runs, tasklet_wrong;
	struct irqkit_work work;
	unsigned int	work_runs;
};
static struct line_dev devs[8];

static void line_tasklet(unsigned long data)
{
	struct line_dev *d = (struct line_dev *)data;

	if ((unsigned int)irqkit_smp_processor_id() != d->cpu || !irqkit_in_serving_softirq())
		d->tasklet_wrong++;
	d->tasklet_runs++;
}

static void line_work(struct irqkit_work *w)
{
	struct line_dev *d = (struct line_dev *)((char *)w - __builtin_offsetof(struct line_dev, work));

	d->work_runs++;
}

static enum irqkit_irqreturn line_handler(int irq, void *dev_id)
{
	struct line_dev *d = dev_id;

	(void)irq;
	if ((unsigned int)irqkit_smp_processor_id() != d->cpu)
		d->wrong_cpu++;
	if (!irqkit_in_hardirq() || !irqkit_irqs_disabled())
		d->not_hardirq++;
	d->hits++;
	irqkit_tasklet_schedule(&d->tasklet);
	irqkit_schedule_work(&d->work);
	if (d->wake)
		irqkit_complete(&d->done);
	return IRQKIT_HANDLED;
}

static void test_lines_per_cpu(void)
{
	for (unsigned int c = 0; c < nr_cpus; c++) {
		struct line_dev *d = &devs[c];

		d->cpu = c;
		irqkit_init_completion(&d->done);
		irqkit_tasklet_init(&d->tasklet, line_tasklet, (unsigned long)d);
		irqkit_init_work(&d->work, line_work);
		CHECK_EQ(irqkit_request_irq(LINE0 + c, line_handler, 0, "rvline", d), 0);
		CHECK_EQ(irqkit_irq_set_affinity(LINE0 + c, 1ull << c), 0);
	}
	for (unsigned int round = 0; round < RAISES; round++)
		for (unsigned int c = 0; c < nr_cpus; c++)
			CHECK_EQ(irqkit_sw_raise(LINE0 + c), 0);
	for (unsigned int c = 0; c < nr_cpus; c++) {
		struct line_dev *d = &devs[c];
		struct irqkit_sw_stats st;

		/* the last raise of each: waited for through the completion */
		d->wake = true;
		CHECK_EQ(irqkit_sw_raise(LINE0 + c), 0);
		CHECK(irqkit_wait_for_completion_timeout(&d->done, 5 * irqkit_hz()) != 0);
		irqkit_synchronize_irq(LINE0 + c);
		irqkit_tasklet_kill(&d->tasklet);
		irqkit_flush_work(&d->work);
		/* every raise ran the handler or met a latched edge (coalesced) */
		CHECK_EQ(irqkit_sw_get_stats(LINE0 + c, &st), 0);
		CHECK_EQ(d->hits + st.coalesced, RAISES + 1);
		CHECK_EQ(d->wrong_cpu, 0);
		CHECK_EQ(d->not_hardirq, 0);
		CHECK(d->tasklet_runs >= 1);
		CHECK_EQ(d->tasklet_wrong, 0);
		CHECK(d->work_runs >= 1);
		CHECK_EQ(irqkit_kstat_irqs_cpu(LINE0 + c, c), d->hits);
		rv_printf("  cpu %u: %u interrupts, %llu raises coalesced, %u tasklet runs, %u work runs\n",
			  c, d->hits, (unsigned long long)st.coalesced, d->tasklet_runs, d->work_runs);
	}
	for (unsigned int c = 0; c < nr_cpus; c++)
		irqkit_free_irq(LINE0 + c, &devs[c]);
}

/*
 * The hart's timer and software interrupts are per-CPU lines of the core
 * with a per-CPU dev_id (each handler does the work of the hart its dev_id
 * names: a wrong one would leave the hart's own interrupt asserted), each
 * enabled on its CPU as the CPU came up, counted per CPU in
 * /proc/interrupts: the raises for the other CPUs came as IPIs, and a sleep
 * here ends on this hart's timer.  Disabled on one CPU, the timer line
 * counts nothing there while the hart's own sleeps still end (the port
 * serves them itself), and counts again once enabled.
 */
static void test_percpu_lines(void)
{
	unsigned int ipi = irqkit_rv_ipi_irq(), timer = irqkit_rv_timer_irq();
	unsigned int before = irqkit_kstat_irqs_cpu(timer, 0);
	unsigned int last = nr_cpus - 1;
	static char buf[4096];
	bool named = false;

	CHECK(ipi && timer && ipi != timer);
	for (unsigned int c = 0; c < nr_cpus; c++) {
		CHECK_EQ(irqkit_thread_bind(c), 0);
		CHECK(irqkit_irq_percpu_is_enabled(ipi));
		CHECK(irqkit_irq_percpu_is_enabled(timer));
	}
	CHECK_EQ(irqkit_thread_bind(0), 0);
	irqkit_msleep(5);
	CHECK(irqkit_kstat_irqs_cpu(timer, 0) > before);
	for (unsigned int c = 1; c < nr_cpus; c++)
		CHECK(irqkit_kstat_irqs_cpu(ipi, c) > 0);
	CHECK(irqkit_show_interrupts_buf(buf, sizeof(buf), 0) > 0);
	for (size_t i = 0; buf[i] && !named; i++)
		named = !__builtin_memcmp(buf + i, "RISC-V INTC", 11);
	CHECK(named);
	rv_puts(buf);

	CHECK_EQ(irqkit_thread_bind(last), 0);
	irqkit_disable_percpu_irq(timer);
	CHECK(!irqkit_irq_percpu_is_enabled(timer));
	before = irqkit_kstat_irqs_cpu(timer, last);
	for (int i = 0; i < 5; i++)
		usleep(1000);			/* each ends on this hart's timer */
	CHECK_EQ(irqkit_kstat_irqs_cpu(timer, last), before);
	irqkit_enable_percpu_irq(timer, 0);
	CHECK(irqkit_irq_percpu_is_enabled(timer));
	for (int i = 0; i < 5; i++)
		usleep(1000);
	CHECK(irqkit_kstat_irqs_cpu(timer, last) > before);
	rv_printf("  timer line on CPU %u: masked, then %u interrupts in five 1 ms sleeps\n", last,
		  irqkit_kstat_irqs_cpu(timer, last) - before);
	CHECK_EQ(irqkit_thread_bind(0), 0);
}

/* Raised for this hart with interrupts off: nothing runs until they are back on. */
static void test_irqsave_masks(void)
{
	struct line_dev *d = &devs[0];
	unsigned int before;
	unsigned long flags;

	*d = (struct line_dev){ .cpu = 0 };
	irqkit_tasklet_init(&d->tasklet, line_tasklet, (unsigned long)d);
	irqkit_init_work(&d->work, line_work);
	CHECK_EQ(irqkit_thread_bind(0), 0);
	CHECK_EQ(irqkit_request_irq(LINE0, line_handler, 0, "rvmask", d), 0);
	CHECK_EQ(irqkit_irq_set_affinity(LINE0, 1), 0);
	before = d->hits;
	flags = irqkit_local_irq_save();
	CHECK_EQ(irqkit_sw_raise(LINE0), 0);
	for (volatile int i = 0; i < 100000; i++)
		;
	CHECK_EQ(d->hits, before);		/* masked: still pending in the hart */
	irqkit_local_irq_restore(flags);
	CHECK_EQ(d->hits, before + 1);		/* taken at the restore, before it returned */
	irqkit_synchronize_irq(LINE0);
	irqkit_tasklet_kill(&d->tasklet);
	irqkit_flush_work(&d->work);
	irqkit_free_irq(LINE0, d);
}

/*
 * A timer that expires while the hart has interrupts off: its interrupt is
 * pending in the hart (mip.MTIP) and nothing runs, neither the timer line's
 * handler nor the hrtimer's callback, until interrupts are back on.
 */
static volatile unsigned int hr_runs, hr_cpu;

static enum irqkit_hrtimer_restart hr_fn(struct irqkit_hrtimer *t)
{
	(void)t;
	hr_cpu = (unsigned int)irqkit_smp_processor_id();
	hr_runs++;
	return IRQKIT_HRTIMER_NORESTART;
}

static void test_irqsave_masks_the_timer(void)
{
	static struct irqkit_hrtimer t;
	unsigned int timer = irqkit_rv_timer_irq(), before;
	unsigned long flags, mip;
	uint64_t end;

	CHECK_EQ(irqkit_thread_bind(0), 0);
	hr_runs = 0;
	irqkit_hrtimer_setup(&t, hr_fn, IRQKIT_CLOCK_MONOTONIC, IRQKIT_HRTIMER_MODE_REL);
	flags = irqkit_local_irq_save();
	before = irqkit_kstat_irqs_cpu(timer, 0);
	irqkit_hrtimer_start_range_ns(&t, 1000000, 0, IRQKIT_HRTIMER_MODE_REL);
	end = irqkit_ktime_get_ns() + 5000000;
	while (irqkit_ktime_get_ns() < end)
		;
	__asm__ __volatile__("csrr %0, mip" : "=r"(mip));
	CHECK(mip & (1ul << 7));			/* the timer's interrupt waits in the hart */
	CHECK_EQ(hr_runs, 0);
	CHECK_EQ(irqkit_kstat_irqs_cpu(timer, 0), before);
	irqkit_local_irq_restore(flags);
	for (int i = 0; i < 1000 && !hr_runs; i++)
		irqkit_msleep(1);
	CHECK_EQ(hr_runs, 1);
	CHECK_EQ(hr_cpu, 0);
	CHECK(irqkit_kstat_irqs_cpu(timer, 0) > before);
	(void)irqkit_hrtimer_cancel(&t);
}

static unsigned long sleep_fired;
static struct irqkit_completion timer_done;

static void timer_fn(struct irqkit_timer_list *t)
{
	(void)t;
	sleep_fired = irqkit_jiffies();
	irqkit_complete(&timer_done);
}

static void test_time(void)
{
	static struct irqkit_timer_list timer;
	unsigned long j0 = irqkit_jiffies();

	irqkit_msleep(20);
	CHECK(irqkit_jiffies() - j0 >= 20 * irqkit_hz() / 1000);
	irqkit_init_completion(&timer_done);
	irqkit_timer_setup(&timer, timer_fn, 0);
	j0 = irqkit_jiffies();
	irqkit_mod_timer(&timer, j0 + 10);
	CHECK(irqkit_wait_for_completion_timeout(&timer_done, 5 * irqkit_hz()) != 0);
	CHECK(sleep_fired - j0 >= 10);
	irqkit_del_timer_sync(&timer);
}

static struct irqkit_spinlock counter_lock;
static unsigned long counter;

static int count_up(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20000; i++) {
		unsigned long flags = irqkit_spin_lock_irqsave(&counter_lock);

		counter++;
		irqkit_spin_unlock_irqrestore(&counter_lock, flags);
	}
	return (int)irqkit_smp_processor_id();
}

static void test_spinlock_across_harts(void)
{
	struct irqkit_thread *th[8];

	irqkit_spin_lock_init(&counter_lock);
	for (unsigned int c = 0; c < nr_cpus; c++)
		CHECK_EQ(irqkit_thread_start(&th[c], c, "counter", count_up, NULL), 0);
	for (unsigned int c = 0; c < nr_cpus; c++)
		CHECK_EQ(irqkit_thread_join(th[c]), (int)c);
	CHECK_EQ(counter, 20000ul * nr_cpus);
}

/*
 * An IPI storm: a thread on the last hart raises a line of CPU 0 as fast as
 * it can while CPU 0's thread sleeps and wakes.  Every raise runs the
 * handler or meets a latched edge, and CPU 0 keeps its time.
 */
#define STORM_LINE	48
#define STORM		20000

static unsigned int storm_hits;

static enum irqkit_irqreturn storm_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	storm_hits++;
	return IRQKIT_HANDLED;
}

static int stormer(void *arg)
{
	(void)arg;
	for (int i = 0; i < STORM; i++)
		if (irqkit_sw_raise(STORM_LINE))
			return -1;
	return 0;
}

static void test_ipi_storm(void)
{
	struct irqkit_thread *th;
	struct irqkit_sw_stats st;
	unsigned long j0 = irqkit_jiffies();
	int dev;

	CHECK_EQ(irqkit_swchip_add(STORM_LINE, 1, IRQKIT_TYPE_EDGE_RISING), 0);
	CHECK_EQ(irqkit_request_irq(STORM_LINE, storm_handler, 0, "storm", &dev), 0);
	CHECK_EQ(irqkit_irq_set_affinity(STORM_LINE, 1), 0);
	CHECK_EQ(irqkit_thread_start(&th, nr_cpus - 1, "stormer", stormer, NULL), 0);
	for (int i = 0; i < 5; i++)
		irqkit_msleep(5);
	CHECK(irqkit_jiffies() - j0 >= 25 * irqkit_hz() / 1000);
	CHECK_EQ(irqkit_thread_join(th), 0);
	CHECK_EQ(irqkit_wait_delivered(STORM_LINE, 5000), 0);
	CHECK_EQ(irqkit_sw_get_stats(STORM_LINE, &st), 0);
	CHECK_EQ(storm_hits + st.coalesced, STORM);
	CHECK_EQ(irqkit_kstat_irqs_cpu(STORM_LINE, 0), storm_hits);
	rv_printf("  %u raises from cpu %u: %u handled on cpu 0, %llu coalesced\n", STORM,
		  nr_cpus - 1, storm_hits, (unsigned long long)st.coalesced);
	irqkit_free_irq(STORM_LINE, &dev);
}

/*
 * Affinity moved under load: a thread raises a line without pause while the
 * line is moved from hart to hart; every raise runs the handler once or
 * meets a latched edge, wherever the line was then.
 */
#define MOVE_LINE	49
#define MOVE_RAISES	4000

static unsigned int move_hits[8];
static volatile bool move_done;

static enum irqkit_irqreturn move_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	move_hits[irqkit_smp_processor_id()]++;
	return IRQKIT_HANDLED;
}

static int mover_raiser(void *arg)
{
	(void)arg;
	for (int i = 0; i < MOVE_RAISES; i++) {
		if (irqkit_sw_raise(MOVE_LINE))
			return -1;
		irqkit_udelay(50);	/* about 200 ms of raises: many moves meanwhile */
	}
	move_done = true;
	return 0;
}

static void test_affinity_under_load(void)
{
	struct irqkit_thread *th;
	struct irqkit_sw_stats st;
	unsigned int moves = 0, total = 0, kstat = 0;
	int dev;

	CHECK_EQ(irqkit_swchip_add(MOVE_LINE, 1, IRQKIT_TYPE_EDGE_RISING), 0);
	CHECK_EQ(irqkit_request_irq(MOVE_LINE, move_handler, 0, "mover", &dev), 0);
	move_done = false;
	CHECK_EQ(irqkit_thread_start(&th, nr_cpus - 1, "raiser", mover_raiser, NULL), 0);
	while (!move_done) {
		CHECK_EQ(irqkit_irq_set_affinity(MOVE_LINE, 1ull << (moves++ % nr_cpus)), 0);
		irqkit_msleep(1);
	}
	CHECK_EQ(irqkit_thread_join(th), 0);
	CHECK_EQ(irqkit_wait_delivered(MOVE_LINE, 5000), 0);	/* the last may still be on its way */
	CHECK_EQ(irqkit_sw_get_stats(MOVE_LINE, &st), 0);
	/*
	 * An edge that reaches a CPU while the handler runs on another is left
	 * PENDING there and run by that other CPU's flow in another turn, which
	 * Linux's handle_edge_irq does not count again: a CPU's count may be
	 * below its handler runs, never above.
	 */
	for (unsigned int c = 0; c < nr_cpus; c++) {
		total += move_hits[c];
		kstat += irqkit_kstat_irqs_cpu(MOVE_LINE, c);
		CHECK(irqkit_kstat_irqs_cpu(MOVE_LINE, c) <= move_hits[c]);
	}
	CHECK_EQ(total + st.coalesced, MOVE_RAISES);
	CHECK(kstat <= total && kstat > 0);
	rv_printf("  %u moves; %u handled, %llu coalesced; on cpu 0..%u:", moves, total,
		  (unsigned long long)st.coalesced, nr_cpus - 1);
	for (unsigned int c = 0; c < nr_cpus; c++)
		rv_printf(" %u", move_hits[c]);
	rv_printf("\n");
	irqkit_free_irq(MOVE_LINE, &dev);
}

int irqkit_main(void)
{
	CHECK_EQ(irqkit_start(NULL), 0);
	nr_cpus = irqkit_nr_cpus();
	CHECK_EQ(irqkit_swchip_add(LINE0, 8, IRQKIT_TYPE_EDGE_RISING), 0);
	RUN(test_lines_per_cpu);
	RUN(test_percpu_lines);
	RUN(test_irqsave_masks);
	RUN(test_irqsave_masks_the_timer);
	RUN(test_time);
	RUN(test_spinlock_across_harts);
	RUN(test_ipi_storm);
	RUN(test_affinity_under_load);
	irqkit_stop();
	CHECK(!irqkit_started());
	return rvtest_result();
}
