// SPDX-License-Identifier: MIT
/*
 * Tests of BH work queues (WQ_BH, Linux 6.9): items that run in the softirq
 * context of the CPU that queued them, on the TASKLET vector (HI for the
 * high-priority queue), in queueing order, ten at most per softirq run;
 * Linux's rules for the flags; flush, cancel and delayed work as for any
 * item; a CPU that goes offline; a stop with items still queued.
 */
#define _GNU_SOURCE
#include "../../harness.h"

#include <irqkit/cpu.h>
#include <irqkit/proc.h>

struct bitem {
	struct irqkit_work	work;
	atomic_int		runs;
	int			cpu;
	bool			serving_softirq;
	bool			task;
	bool			hardirq;
	bool			try_sleep;	/* calls msleep(): might_sleep reports it */
	char			tag;
};

static char order[64];
static atomic_int order_len;

static void bitem_fn(struct irqkit_work *work)
{
	struct bitem *b = container_of(work, struct bitem, work);

	b->cpu = irqkit_smp_processor_id();
	b->serving_softirq = irqkit_in_serving_softirq();
	b->task = irqkit_in_task();
	b->hardirq = irqkit_in_hardirq();
	if (b->tag) {
		int n = atomic_fetch_add(&order_len, 1);

		if (n + 1 < (int)sizeof(order))
			order[n] = b->tag;
	}
	if (b->try_sleep)
		irqkit_msleep(1);
	atomic_fetch_add(&b->runs, 1);
}

static void bitem_init(struct bitem *b, char tag)
{
	memset(b, 0, sizeof(*b));
	irqkit_init_work(&b->work, bitem_fn);
	b->tag = tag;
}

static int setup_thr(void **state)
{
	(void)state;
	memset(order, 0, sizeof(order));
	atomic_store(&order_len, 0);
	return thr_setup_cpus(2, T_NR_IRQS);
}

static int setup_det(void **state)
{
	memset(order, 0, sizeof(order));
	atomic_store(&order_len, 0);
	return det_setup(state);
}

/* Linux's __WQ_BH_ALLOWS: WQ_HIGHPRI and WQ_PERCPU, and no max_active; WARN and NULL else. */
static void test_bh_queue_flags_follow_linux(void **state)
{
	struct irqkit_workqueue *wq;

	(void)state;
	wq = irqkit_alloc_workqueue("bh_ok", IRQKIT_WQ_BH | IRQKIT_WQ_HIGHPRI | IRQKIT_WQ_PERCPU, 0);
	assert_non_null(wq);
	irqkit_destroy_workqueue(wq);
	log_clear();
	assert_null(irqkit_alloc_workqueue("bh_unbound", IRQKIT_WQ_BH | IRQKIT_WQ_UNBOUND, 0));
	assert_log_contains("WARNING:");
	log_clear();
	assert_null(irqkit_alloc_workqueue("bh_active", IRQKIT_WQ_BH, 4));
	assert_log_contains("WARNING:");
	assert_null(irqkit_alloc_ordered_workqueue("bh_ordered", IRQKIT_WQ_BH));
	assert_non_null(irqkit_system_bh_wq());
	assert_non_null(irqkit_system_bh_highpri_wq());
}

/* Each item runs in softirq context, on the CPU that queued it, once. */
static void test_bh_items_run_in_softirq_on_the_queueing_cpu(void **state)
{
	struct bitem a, b;
	unsigned int tasklets = irqkit_kstat_softirqs_cpu(IRQKIT_TASKLET_SOFTIRQ, 1);
	unsigned int hi = irqkit_kstat_softirqs_cpu(IRQKIT_HI_SOFTIRQ, 1);

	(void)state;
	bitem_init(&a, 0);
	bitem_init(&b, 0);
	assert_int_equal(irqkit_thread_bind(1), 0);
	assert_true(irqkit_queue_work(irqkit_system_bh_wq(), &a.work));
	assert_true(irqkit_queue_work(irqkit_system_bh_highpri_wq(), &b.work));
	irqkit_flush_work(&a.work);
	irqkit_flush_work(&b.work);
	irqkit_thread_unbind();
	assert_int_equal(atomic_load(&a.runs), 1);
	assert_int_equal(atomic_load(&b.runs), 1);
	assert_int_equal(a.cpu, 1);
	assert_int_equal(b.cpu, 1);
	assert_true(a.serving_softirq);
	assert_true(b.serving_softirq);
	assert_false(a.task || a.hardirq);
	/* /proc/softirqs counts them where Linux does: TASKLET, and HI for highpri */
	assert_true(irqkit_kstat_softirqs_cpu(IRQKIT_TASKLET_SOFTIRQ, 1) > tasklets);
	assert_true(irqkit_kstat_softirqs_cpu(IRQKIT_HI_SOFTIRQ, 1) > hi);
}

/* queue_work_on another CPU runs the item there (an irq_work kicks that CPU). */
static void test_bh_queue_work_on_another_cpu_runs_there(void **state)
{
	struct bitem a;

	(void)state;
	bitem_init(&a, 0);
	assert_int_equal(irqkit_thread_bind(0), 0);
	assert_true(irqkit_queue_work_on(1, irqkit_system_bh_wq(), &a.work));
	irqkit_thread_unbind();
	irqkit_flush_work(&a.work);
	assert_int_equal(atomic_load(&a.runs), 1);
	assert_int_equal(a.cpu, 1);
	assert_true(a.serving_softirq);
}

/*
 * In queueing order; at most ten a softirq run (BH_WORKER_RESTARTS): 25 items
 * queued with bottom halves off take at least three runs of the vector.
 */
static void test_bh_items_run_in_order_ten_a_run(void **state)
{
	struct bitem it[25];
	unsigned int before;

	(void)state;
	assert_int_equal(irqkit_thread_bind(1), 0);
	before = irqkit_kstat_softirqs_cpu(IRQKIT_TASKLET_SOFTIRQ, 1);
	irqkit_local_bh_disable();
	for (int i = 0; i < 25; i++) {
		bitem_init(&it[i], (char)('a' + i));
		assert_true(irqkit_queue_work(irqkit_system_bh_wq(), &it[i].work));
	}
	irqkit_local_bh_enable();	/* the softirqs run here, or in ksoftirqd */
	for (int i = 0; i < 25; i++)
		irqkit_flush_work(&it[i].work);
	irqkit_thread_unbind();
	assert_string_equal(order, "abcdefghijklmnopqrstuvwxy");
	for (int i = 0; i < 25; i++) {
		assert_int_equal(atomic_load(&it[i].runs), 1);
		assert_int_equal(it[i].cpu, 1);
	}
	assert_true(irqkit_kstat_softirqs_cpu(IRQKIT_TASKLET_SOFTIRQ, 1) - before >= 3);
}

/* A BH item must not sleep: might_sleep reports it in Linux's words. */
static void test_bh_item_that_sleeps_is_reported(void **state)
{
	struct bitem a;

	(void)state;
	bitem_init(&a, 0);
	a.try_sleep = true;
	log_clear();
	assert_true(irqkit_queue_work(irqkit_system_bh_wq(), &a.work));
	irqkit_flush_work(&a.work);
	assert_int_equal(atomic_load(&a.runs), 1);
	assert_log_contains("BUG: sleeping function called from invalid context");
}

/* A delayed BH item: what its run saw. */
static atomic_int dw_runs;
static bool dw_softirq;

static void dw_fn(struct irqkit_work *work)
{
	(void)work;
	dw_softirq = irqkit_in_serving_softirq();
	atomic_fetch_add(&dw_runs, 1);
}

/* Delayed BH work runs in softirq context once its timer fires; cancel and flush work. */
static void test_bh_delayed_work_cancel_and_flush(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_workqueue("bh_own", IRQKIT_WQ_BH, 0);
	struct irqkit_delayed_work dw;
	struct bitem a;

	(void)state;
	assert_non_null(wq);
	atomic_store(&dw_runs, 0);
	bitem_init(&a, 0);
	irqkit_init_delayed_work(&dw, dw_fn);
	/* far away: cancelled before it runs */
	assert_true(irqkit_queue_delayed_work(wq, &dw, 100000));
	assert_true(irqkit_cancel_delayed_work_sync(&dw));
	assert_false(irqkit_delayed_work_pending(&dw));
	assert_int_equal(atomic_load(&dw_runs), 0);
	/* due in a jiffy, and a plain item; the flushes wait for both */
	assert_true(irqkit_queue_delayed_work(wq, &dw, 1));
	assert_true(irqkit_queue_work(wq, &a.work));
	(void)irqkit_flush_delayed_work(&dw);	/* false when it ran already: a jiffy is short */
	irqkit_flush_workqueue(wq);
	assert_int_equal(atomic_load(&dw_runs), 1);
	assert_true(dw_softirq);
	assert_int_equal(atomic_load(&a.runs), 1);
	assert_true(a.serving_softirq);
	assert_false(irqkit_work_pending(&a.work));
	assert_false(irqkit_cancel_work_sync(&a.work));	/* idle: nothing to cancel */
	irqkit_destroy_workqueue(wq);
}

/*
 * Deterministic mode, where nothing plays CPU 1: an item queued on CPU 1's
 * BH pool waits there; CPU 1 goes offline, and the item runs on CPU 0, in
 * softirq context, at the player's next delivery point.
 */
static void test_bh_items_of_an_offline_cpu_run_elsewhere(void **state)
{
	struct bitem a;

	(void)state;
	bitem_init(&a, 0);
	assert_true(irqkit_queue_work_on(1, irqkit_system_bh_wq(), &a.work));
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&a.runs), 0);	/* CPU 1's, and CPU 1 did not run */
	assert_int_equal(irqkit_remove_cpu(1), 0);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&a.runs), 1);
	assert_int_equal(a.cpu, 0);
	assert_true(a.serving_softirq);
	assert_int_equal(irqkit_add_cpu(1), 0);
}

/* Deterministic mode: the player's CPU runs them at its next delivery point. */
static void test_bh_items_in_deterministic_mode(void **state)
{
	struct bitem a;

	(void)state;
	bitem_init(&a, 0);
	irqkit_local_bh_disable();
	assert_true(irqkit_queue_work(irqkit_system_bh_wq(), &a.work));
	assert_int_equal(atomic_load(&a.runs), 0);
	irqkit_local_bh_enable();	/* a delivery point: the softirq runs here */
	assert_int_equal(atomic_load(&a.runs), 1);
	assert_int_equal(a.cpu, 0);
	assert_true(a.serving_softirq);
}

/*
 * Deterministic mode has no ksoftirqd: the player that flushes or cancels a
 * BH item runs the softirqs itself; where none can run (bottom halves off),
 * the flush reports and returns instead of waiting for ever.
 */
static void test_bh_waits_in_deterministic_mode_run_or_report(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_workqueue("bhdet", IRQKIT_WQ_BH, 0);
	struct bitem a, b, c;

	(void)state;
	assert_non_null(wq);
	bitem_init(&a, 0);
	bitem_init(&b, 0);
	bitem_init(&c, 0);
	/* queued with bottom halves off: pending until a softirq runs */
	irqkit_local_bh_disable();
	assert_true(irqkit_queue_work(wq, &a.work));
	assert_true(irqkit_queue_work(wq, &b.work));
	assert_true(irqkit_queue_work(wq, &c.work));
	log_clear();
	assert_true(irqkit_flush_work(&a.work));	/* nothing can run it: reported */
	assert_log_contains("flush_work() in deterministic mode from a section that keeps softirqs out");
	irqkit_flush_workqueue(wq);
	assert_log_contains("flush_workqueue() in deterministic mode from a section that keeps softirqs out");
	irqkit_drain_workqueue(wq);		/* reported once more, and returns */
	assert_int_equal(atomic_load(&a.runs), 0);
	irqkit_local_bh_enable();		/* they run here */
	assert_int_equal(atomic_load(&a.runs) + atomic_load(&b.runs) + atomic_load(&c.runs), 3);
	/* queued and flushed with everything on: the player runs it in the flush */
	bitem_init(&a, 0);
	assert_true(irqkit_queue_work_on(1, wq, &a.work));
	assert_true(irqkit_flush_work(&a.work));
	assert_int_equal(atomic_load(&a.runs), 1);
	assert_int_equal(a.cpu, 1);
	assert_true(irqkit_queue_work(wq, &b.work));
	irqkit_flush_workqueue(wq);
	assert_int_equal(atomic_load(&b.runs), 2);
	irqkit_destroy_workqueue(wq);
}

/*
 * Stop with a BH item queued on a CPU that never ran it (its pool's kick is
 * on that CPU's irq_work list, the pool's memory under it): the item is
 * dropped idle, and the next run queues and runs it.
 */
static void test_bh_items_queued_at_stop_are_dropped(void **state)
{
	struct bitem a;

	bitem_init(&a, 0);
	assert_true(irqkit_queue_work_on(1, irqkit_system_bh_wq(), &a.work));
	irqkit_stop();
	assert_false(irqkit_work_pending(&a.work));
	assert_int_equal(atomic_load(&a.runs), 0);
	assert_int_equal(det_setup(state), 0);
	assert_true(irqkit_queue_work(irqkit_system_bh_wq(), &a.work));
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&a.runs), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bh_queue_flags_follow_linux, setup_thr,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_bh_items_run_in_softirq_on_the_queueing_cpu,
						setup_thr, thr_teardown),
		cmocka_unit_test_setup_teardown(test_bh_queue_work_on_another_cpu_runs_there,
						setup_thr, thr_teardown),
		cmocka_unit_test_setup_teardown(test_bh_items_run_in_order_ten_a_run, setup_thr,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_bh_item_that_sleeps_is_reported, setup_thr,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_bh_delayed_work_cancel_and_flush, setup_thr,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_bh_items_of_an_offline_cpu_run_elsewhere,
						setup_det, det_teardown),
		cmocka_unit_test_setup_teardown(test_bh_items_in_deterministic_mode, setup_det,
						det_teardown),
		cmocka_unit_test_setup_teardown(test_bh_waits_in_deterministic_mode_run_or_report,
						setup_det, det_teardown),
		cmocka_unit_test_setup_teardown(test_bh_items_queued_at_stop_are_dropped, setup_det,
						det_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
