// SPDX-License-Identifier: MIT
/*
 * irq_work in Linux's names (<linux/irq_work.h>): an item queued with
 * interrupts off runs in hardirq context at the next point where they are
 * on, on the queueing CPU or the one named; a pending item is not queued
 * twice, one queued again while it runs runs again; items of a CPU run
 * newest first; irq_work_sync waits for a running callback; the "IWI" row
 * of /proc/interrupts counts; an offline CPU's items move; and the
 * misuses (no function, a CPU that does not exist, irq_work_sync from the
 * callback) are warnings, never a hang.  Threaded mode and a stress of
 * queueing from every CPU: every queueing that succeeded runs once (an item
 * queued on another CPU while it runs may run there at the same time, as in
 * Linux: only PENDING keeps a queueing out).
 */
#include "../../harness.h"

#include <linux/irq_work.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/delay.h>
#include <linux/cpu.h>
#include <linux/smp.h>
#include <irqkit/proc.h>

#include <stdatomic.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

struct item {
	struct irq_work	w;
	atomic_int	runs, cpu, hardirq, in, overlap;
	atomic_int	order;		/* when it first ran, among all items */
	int		requeue;	/* queue itself again this many times */
	int		delay_ms;
	bool		sync_self;
	atomic_bool	pending_seen, busy_seen;
};

static atomic_int order_seq;

static void item_fn(struct irq_work *w)
{
	struct item *it = container_of(w, struct item, w);

	if (atomic_fetch_add(&it->in, 1))
		atomic_fetch_add(&it->overlap, 1);
	if (!atomic_load(&it->runs))
		atomic_store(&it->order, atomic_fetch_add(&order_seq, 1));	/* its first run */
	atomic_store(&it->cpu, smp_processor_id());
	atomic_store(&it->hardirq, in_hardirq() ? 1 : 0);
	atomic_store(&it->pending_seen, irq_work_is_pending(w));
	atomic_store(&it->busy_seen, irq_work_is_busy(w));
	if (it->delay_ms)
		mdelay(it->delay_ms);
	if (it->sync_self)
		irq_work_sync(w);
	atomic_fetch_add(&it->runs, 1);
	atomic_fetch_sub(&it->in, 1);
	if (it->requeue > 0) {
		it->requeue--;
		irq_work_queue(w);	/* from its own callback: runs again */
	}
}

static void item_init(struct item *it)
{
	memset(it, 0, sizeof(*it));
	atomic_store(&it->cpu, -1);
	init_irq_work(&it->w, item_fn);
}

static unsigned int iwi_count(unsigned int cpu)
{
	static char buf[16384];
	unsigned int v[2] = { 0, 0 };
	char *end;
	const char *row;

	assert_true(irqkit_show_interrupts_buf(buf, sizeof(buf), 0) > 0);
	row = strstr(buf, "IWI:");
	assert_non_null(row);
	v[0] = (unsigned int)strtoul(row + 4, &end, 10);
	v[1] = (unsigned int)strtoul(end, &end, 10);
	assert_non_null(strstr(row, "IRQ work interrupts"));
	return v[cpu];
}

static void test_queued_with_interrupts_off_runs_when_they_go_on(void **state)
{
	struct item a;
	unsigned long flags;
	unsigned int iwi0 = iwi_count(0);

	(void)state;
	item_init(&a);
	local_irq_save(flags);
	assert_true(irq_work_queue(&a.w));
	assert_true(irq_work_is_pending(&a.w));
	assert_true(irq_work_is_busy(&a.w));
	assert_false(irq_work_queue(&a.w));	/* pending: not queued twice */
	assert_int_equal(atomic_load(&a.runs), 0);
	local_irq_restore(flags);
	assert_int_equal(atomic_load(&a.runs), 1);
	assert_int_equal(atomic_load(&a.hardirq), 1);
	assert_int_equal(atomic_load(&a.cpu), 0);
	/* in its callback: no longer pending, still busy */
	assert_false(a.pending_seen);
	assert_true(a.busy_seen);
	assert_false(irq_work_is_busy(&a.w));
	assert_int_equal(iwi_count(0), iwi0 + 1);
}

static void test_newest_first_and_requeue_from_the_callback(void **state)
{
	struct item a, b, c;
	unsigned long flags;

	(void)state;
	item_init(&a);
	item_init(&b);
	item_init(&c);
	c.requeue = 2;
	local_irq_save(flags);
	irq_work_queue(&a.w);
	irq_work_queue(&b.w);
	irq_work_queue(&c.w);
	local_irq_restore(flags);
	/* Linux's list gives them newest first */
	assert_true(atomic_load(&c.order) < atomic_load(&b.order) &&
		    atomic_load(&b.order) < atomic_load(&a.order));
	assert_int_equal(atomic_load(&c.runs), 3);
	assert_false(irq_work_is_busy(&c.w));
}

static void test_queue_on_another_cpu_and_hotplug(void **state)
{
	struct item a, b;

	(void)state;
	item_init(&a);
	item_init(&b);
	assert_true(irq_work_queue_on(&a.w, 1));
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&a.runs), 0);	/* CPU 1's, until CPU 1 runs */
	assert_int_equal(irqkit_cpu_run(1), 0);
	assert_int_equal(atomic_load(&a.runs), 1);
	assert_int_equal(atomic_load(&a.cpu), 1);
	/* queued on CPU 1, which goes before running it: it moves to CPU 0 */
	assert_true(irq_work_queue_on(&b.w, 1));
	assert_int_equal(remove_cpu(1), 0);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&b.runs), 1);
	assert_int_equal(atomic_load(&b.cpu), 0);
	/* to the offline CPU: a warning, and it runs once the CPU is back */
	log_clear();
	item_init(&a);
	assert_true(irq_work_queue_on(&a.w, 1));
	assert_log_contains("irq_work_queue_on() to offline CPU 1");
	assert_int_equal(add_cpu(1), 0);
	assert_int_equal(irqkit_cpu_run(1), 0);
	assert_int_equal(atomic_load(&a.runs), 1);
	assert_int_equal(atomic_load(&a.cpu), 1);
}

static void test_misuse_is_reported(void **state)
{
	struct irq_work none;
	struct item a;

	(void)state;
	memset(&none, 0, sizeof(none));
	log_clear();
	assert_false(irq_work_queue(&none));
	assert_log_contains("with no function");
	assert_false(irq_work_is_pending(&none));
	item_init(&a);
	log_clear();
	assert_false(irq_work_queue_on(&a.w, 7));
	assert_log_contains("irq_work_queue_on() to CPU 7 of 2: refused");
	/* irq_work_sync from its own callback: Linux waits for ever; reported */
	log_clear();
	a.sync_self = true;
	assert_true(irq_work_queue(&a.w));
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&a.runs), 1);
	assert_log_contains("irq_work_sync() called from the irq_work's own callback");
}

static atomic_int static_runs;

static void static_fn(struct irq_work *w)
{
	(void)w;
	atomic_fetch_add(&static_runs, 1);
}

static DEFINE_IRQ_WORK(static_work, static_fn);

static void test_define_irq_work(void **state)
{
	(void)state;
	assert_true(irq_work_queue(&static_work));
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&static_runs), 1);
	assert_false(irq_work_is_busy(&static_work));
}

/* ---- threaded mode ------------------------------------------------------------------- */

static void test_threaded_sync_waits_for_the_running_callback(void **state)
{
	struct item a;

	(void)state;
	item_init(&a);
	a.delay_ms = 30;
	assert_true(irq_work_queue_on(&a.w, 1));
	assert_true(wait_until(atomic_load(&a.in) == 1, 5000));
	/* while it runs it can be queued again: it runs again */
	assert_true(irq_work_queue_on(&a.w, 1));
	assert_false(irq_work_queue_on(&a.w, 1));
	irq_work_sync(&a.w);
	assert_false(irq_work_is_busy(&a.w));
	assert_int_equal(atomic_load(&a.runs), 2);
	assert_int_equal(atomic_load(&a.in), 0);
	assert_int_equal(atomic_load(&a.overlap), 0);
}

#define NITEMS	6
static struct item items[NITEMS];
static atomic_long queued_ok;

/* a small generator of its own: rand_r is not in every libc the suite builds with */
static unsigned int next_rand(unsigned int *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 16;
}

static void *queuer(void *arg)
{
	int cpu = (int)(intptr_t)arg;
	unsigned int seed = (unsigned int)cpu + 3;

	if (cpu >= 0)
		assert_int_equal(irqkit_thread_bind((unsigned int)cpu), 0);
	for (int i = 0; i < stress_scale(20000); i++) {
		struct item *it = &items[next_rand(&seed) % NITEMS];
		bool ok;

		if (i % 3)
			ok = irq_work_queue(&it->w);
		else
			ok = irq_work_queue_on(&it->w, (unsigned int)(next_rand(&seed) % 2));
		if (ok)
			atomic_fetch_add(&queued_ok, 1);
		if (i % 16 == 0)
			usleep(5);
	}
	if (cpu >= 0)
		irqkit_thread_unbind();
	return NULL;
}

static void test_stress_queue_from_every_cpu(void **state)
{
	pthread_t th[3];
	long runs = 0;

	(void)state;
	atomic_store(&queued_ok, 0);
	for (int i = 0; i < NITEMS; i++)
		item_init(&items[i]);
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, queuer, (void *)(intptr_t)(i < 2 ? i : -1));
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < NITEMS; i++) {
		irq_work_sync(&items[i].w);
		runs += atomic_load(&items[i].runs);
	}
	/* every successful queueing ran exactly once */
	test_printf("irq_work stress: %ld queued, %ld ran\n", atomic_load(&queued_ok), runs);
	assert_int_equal(runs, atomic_load(&queued_ok));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_queued_with_interrupts_off_runs_when_they_go_on,
						det_setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_newest_first_and_requeue_from_the_callback,
						det_setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_queue_on_another_cpu_and_hotplug,
						det_setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_misuse_is_reported, det_setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_define_irq_work, det_setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_threaded_sync_waits_for_the_running_callback,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_stress_queue_from_every_cpu,
						thr_setup, thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
