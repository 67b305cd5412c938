// SPDX-License-Identifier: MIT
/*
 * Tests of src/core/debug/observe.c: the latency histograms.  Deterministic mode
 * gives exact delays: the virtual clock moves only when the test moves it.
 */
#include "../../harness.h"

#include <unistd.h>


static struct tdev dev;

static int setup(void **state)
{
	tdev_init(&dev);
	return det_setup(state);
}

/* Line 3 raised with interrupts off, taken @ns of virtual time later. */
static void raise_taken_after(uint64_t ns)
{
	unsigned long flags = irqkit_local_irq_save();
	int handled = atomic_load(&dev.handled);

	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_sw_raise(T_EDGE(3)), 0);
	assert_int_equal(irqkit_clock_advance(ns), 0);
	assert_int_equal(atomic_load(&dev.handled), handled);
	irqkit_local_irq_restore(flags);
	assert_int_equal(atomic_load(&dev.handled), handled + 1);
}

static struct irqkit_hist_data read_hist(enum irqkit_hist_kind kind, unsigned int key)
{
	struct irqkit_hist_data d;

	assert_int_equal(irqkit_hist_read(kind, key, &d), 0);
	return d;
}

/* The bucket of @ns: its number of significant bits. */
static unsigned int bucket_of(uint64_t ns)
{
	return ns ? 64 - (unsigned int)__builtin_clzll(ns) : 0;
}

static void assert_one_sample(const struct irqkit_hist_data *d, uint64_t ns)
{
	assert_int_equal(d->count, 1);
	assert_int_equal(d->bucket[bucket_of(ns)], 1);
	assert_int_equal(d->sum_ns, ns);
	assert_int_equal(d->max_ns, ns);
}

static void test_off_until_started_and_refused_without_a_runtime(void **state)
{
	struct irqkit_hist_data d;

	(void)state;
	assert_false(irqkit_hist_enabled());
	assert_int_equal(irqkit_hist_read(IRQKIT_HIST_IRQ_LATENCY, 3, &d), -IRQKIT_ENODATA);
	assert_int_equal(irqkit_hist_read(IRQKIT_HIST_IRQ_LATENCY, T_NR_IRQS, &d), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_hist_read(IRQKIT_HIST_TASKLET_DELAY, IRQKIT_TIMER_SOFTIRQ, &d),
			 -IRQKIT_EINVAL);
	assert_int_equal(irqkit_hist_read(IRQKIT_HIST_WORK_DELAY, 0, &d), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_hist_read(IRQKIT_HIST_NR, 0, &d), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_hist_read_wq(IRQKIT_HIST_IRQ_LATENCY, irqkit_system_wq(), &d),
			 -IRQKIT_EINVAL);
	/* a raise with the histograms off leaves nothing behind */
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "histdev", &dev), 0);
	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_sw_raise(T_EDGE(3)), 0);
	assert_int_equal(atomic_load(&dev.handled), 1);
	assert_int_equal(irqkit_hist_enable(true), 0);
	assert_true(irqkit_hist_enabled());
	d = read_hist(IRQKIT_HIST_IRQ_LATENCY, 3);
	assert_int_equal(d.count, 0);
	irqkit_stop();
	assert_false(irqkit_hist_enabled());
	assert_int_equal(irqkit_hist_enable(true), -IRQKIT_ENODEV);
	assert_int_equal(irqkit_hist_enable(false), 0);
}

/* Raised with interrupts off, taken 5 us of virtual time later: one sample of exactly 5000 ns. */
static void test_raise_to_handler_is_measured(void **state)
{
	unsigned long flags;
	struct irqkit_hist_data d;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "histdev", &dev), 0);
	assert_int_equal(irqkit_hist_enable(true), 0);
	raise_taken_after(5000);
	assert_int_equal(atomic_load(&dev.handled), 1);
	d = read_hist(IRQKIT_HIST_IRQ_LATENCY, 3);
	assert_one_sample(&d, 5000);
	assert_int_equal(d.bucket[13], 1);		/* 4096 .. 8191 */
	/* the virtual clock did not move inside the handler */
	d = read_hist(IRQKIT_HIST_IRQ_DURATION, 3);
	assert_one_sample(&d, 0);

	/* a raise taken at once: 0; raises folded into one delivery count from the first */
	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_sw_raise(T_EDGE(3)), 0);
	flags = irqkit_local_irq_save();
	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_sw_raise(T_EDGE(3)), 0);
	assert_int_equal(irqkit_clock_advance(1000), 0);
	assert_int_equal(irqkit_sw_raise(T_EDGE(3)), 0);	/* coalesced */
	assert_int_equal(irqkit_clock_advance(1000), 0);
	irqkit_local_irq_restore(flags);
	d = read_hist(IRQKIT_HIST_IRQ_LATENCY, 3);
	assert_int_equal(d.count, 3);
	assert_int_equal(d.bucket[0], 1);
	assert_int_equal(d.bucket[bucket_of(2000)], 1);
	assert_int_equal(d.max_ns, 5000);
	assert_int_equal(d.sum_ns, 7000);
}

/* Switched off, nothing more is counted; switched on again, it starts from zero. */
static void test_disable_stops_and_enable_clears(void **state)
{
	struct irqkit_hist_data d;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "histdev", &dev), 0);
	assert_int_equal(irqkit_hist_enable(true), 0);
	for (int i = 0; i < 5; i++) {
		atomic_store(&dev.status, 1);
		assert_int_equal(irqkit_sw_raise(T_EDGE(3)), 0);
	}
	assert_int_equal(read_hist(IRQKIT_HIST_IRQ_DURATION, 3).count, 5);
	assert_int_equal(irqkit_hist_enable(false), 0);
	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_sw_raise(T_EDGE(3)), 0);
	assert_int_equal(atomic_load(&dev.handled), 6);
	d = read_hist(IRQKIT_HIST_IRQ_DURATION, 3);
	assert_int_equal(d.count, 5);			/* still readable, unchanged */
	assert_int_equal(irqkit_hist_enable(true), 0);
	assert_int_equal(read_hist(IRQKIT_HIST_IRQ_DURATION, 3).count, 0);
}

static void count_tasklet(unsigned long data)
{
	(*(int *)data)++;
}

/* A tasklet scheduled with bottom halves off runs 3 us later: the tasklet's and its vector's delay. */
static void test_tasklet_and_softirq_delay(void **state)
{
	int runs = 0;
	struct irqkit_tasklet t;
	struct irqkit_hist_data d;

	(void)state;
	irqkit_tasklet_init(&t, count_tasklet, (unsigned long)&runs);
	assert_int_equal(irqkit_hist_enable(true), 0);
	irqkit_local_bh_disable();
	irqkit_tasklet_schedule(&t);
	assert_int_equal(irqkit_clock_advance(3000), 0);
	irqkit_local_bh_enable();
	assert_int_equal(runs, 1);
	d = read_hist(IRQKIT_HIST_TASKLET_DELAY, IRQKIT_TASKLET_SOFTIRQ);
	assert_one_sample(&d, 3000);
	d = read_hist(IRQKIT_HIST_SOFTIRQ_DELAY, IRQKIT_TASKLET_SOFTIRQ);
	assert_one_sample(&d, 3000);
	assert_int_equal(read_hist(IRQKIT_HIST_TASKLET_DURATION, IRQKIT_TASKLET_SOFTIRQ).count, 1);
	assert_int_equal(read_hist(IRQKIT_HIST_SOFTIRQ_DURATION, IRQKIT_TASKLET_SOFTIRQ).count, 1);
	assert_int_equal(read_hist(IRQKIT_HIST_TASKLET_DELAY, IRQKIT_HI_SOFTIRQ).count, 0);
	irqkit_tasklet_kill(&t);
}

static atomic_int work_runs;
static atomic_bool gate_started, gate_open;

static void count_work(struct irqkit_work *w)
{
	(void)w;
	atomic_fetch_add(&work_runs, 1);
}

/* Holds its queue's one active slot until the test opens it. */
static void gate_work(struct irqkit_work *w)
{
	(void)w;
	atomic_store(&gate_started, true);
	while (!atomic_load(&gate_open))
		usleep(100);
}

/*
 * A delayed item due in 2 jiffies, the clock moved 7 us past that: it is 7 us
 * late when it starts after the clock stopped there.  The virtual clock
 * stands at the due time while its timer runs, and a worker is a real
 * thread: so a gate item holds the queue's one active slot until the clock
 * has stopped, and the delayed item starts at due + 7 us exactly.  A plain
 * item's delay goes to its queue's WORK_DELAY.
 */
static void test_work_delay_and_delayed_work_lateness(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_workqueue("histwq", 0, 1);
	struct irqkit_delayed_work dw;
	struct irqkit_work w, gate;
	struct irqkit_hist_data d;

	(void)state;
	assert_non_null(wq);
	atomic_store(&work_runs, 0);
	atomic_store(&gate_started, false);
	atomic_store(&gate_open, false);
	irqkit_init_delayed_work(&dw, count_work);
	irqkit_init_work(&w, count_work);
	irqkit_init_work(&gate, gate_work);
	assert_int_equal(irqkit_hist_enable(true), 0);
	assert_true(irqkit_queue_work(wq, &gate));
	assert_true(wait_until(atomic_load(&gate_started), 5000));
	assert_true(irqkit_queue_delayed_work(wq, &dw, 2));
	assert_int_equal(irqkit_clock_advance(2 * (1000000000ull / IRQKIT_HZ) + 7000), 0);
	atomic_store(&gate_open, true);
	irqkit_flush_workqueue(wq);
	assert_int_equal(atomic_load(&work_runs), 1);
	assert_int_equal(irqkit_hist_read_wq(IRQKIT_HIST_DWORK_LATENESS, wq, &d), 0);
	assert_one_sample(&d, 7000);

	assert_true(irqkit_queue_work(wq, &w));
	irqkit_flush_workqueue(wq);
	assert_int_equal(irqkit_hist_read_wq(IRQKIT_HIST_WORK_DELAY, wq, &d), 0);
	assert_int_equal(d.count, 2);			/* the gate's and this one's */
	assert_int_equal(d.bucket[0], 2);		/* the clock did not move */
	assert_int_equal(irqkit_hist_read_wq(IRQKIT_HIST_WORK_DURATION, wq, &d), 0);
	assert_int_equal(d.count, 3);
	irqkit_destroy_workqueue(wq);
}

/* The text: a title per histogram with samples, bcc's slot table with a bar. */
static void test_text_shows_each_histogram_with_samples(void **state)
{
	static char buf[65536];
	int n;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "histdev", &dev), 0);
	assert_int_equal(irqkit_hist_enable(true), 0);
	raise_taken_after(5000);
	n = irqkit_show_hist_buf(buf, sizeof(buf));
	assert_true(n > 0 && n < (int)sizeof(buf));
	assert_non_null(strstr(buf, "irq 3 (histdev): raise to handler: 1 samples, mean 5000 ns, max 5000 ns\n"));
	assert_non_null(strstr(buf, "nsecs : count     distribution\n"));
	assert_non_null(strstr(buf, "4096 -> 8191            : 1        |****************************************|\n"));
	assert_non_null(strstr(buf, "irq 3 (histdev): handlers: 1 samples"));
	assert_null(strstr(buf, "irq 4 "));		/* no samples, not shown */
	/* cut as snprintf cuts */
	assert_int_equal(irqkit_show_hist_buf(buf, 10), n);
	assert_int_equal(strlen(buf), 9);
	assert_int_equal(irqkit_show_hist_buf(NULL, 0), n);
	assert_int_equal(irqkit_show_hist_buf(NULL, 5), -IRQKIT_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_off_until_started_and_refused_without_a_runtime,
						setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_raise_to_handler_is_measured, setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_disable_stops_and_enable_clears, setup,
						det_teardown),
		cmocka_unit_test_setup_teardown(test_tasklet_and_softirq_delay, setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_work_delay_and_delayed_work_lateness, setup,
						det_teardown),
		cmocka_unit_test_setup_teardown(test_text_shows_each_histogram_with_samples, setup,
						det_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
