// SPDX-License-Identifier: MIT
/*
 * Tests of disabling work items (Linux 6.10: disable_work, disable_work_sync,
 * enable_work, the delayed forms, enable_and_queue_work): the nesting count
 * and Linux's return values, queueing refused while disabled, the waits of
 * the _sync forms, and a BH item disabled from atomic context.
 */
#define _GNU_SOURCE
#include "../../harness.h"

#include <pthread.h>
#include <unistd.h>

struct ditem {
	struct irqkit_work	work;
	atomic_int		runs;
	atomic_int		running;
	atomic_int		gate;		/* a gated run waits while 0 */
	bool			gated;
	atomic_int		finished_at;	/* the order stamp of its end */
};

static atomic_int stamp;

static void ditem_fn(struct irqkit_work *work)
{
	struct ditem *d = container_of(work, struct ditem, work);

	atomic_store(&d->running, 1);
	while (d->gated && !atomic_load(&d->gate))
		usleep(100);
	atomic_fetch_add(&d->runs, 1);
	atomic_store(&d->finished_at, atomic_fetch_add(&stamp, 1) + 1);
	atomic_store(&d->running, 0);
}

static void ditem_init(struct ditem *d)
{
	memset(d, 0, sizeof(*d));
	irqkit_init_work(&d->work, ditem_fn);
}

static int setup_thr(void **state)
{
	(void)state;
	atomic_store(&stamp, 0);
	return thr_setup_cpus(2, T_NR_IRQS);
}

/* The count nests; queueing fails while it is above zero; enable says when it reached zero. */
static void test_disable_nests_and_refuses_queueing(void **state)
{
	struct ditem d;

	(void)state;
	ditem_init(&d);
	assert_false(irqkit_disable_work(&d.work));	/* idle: nothing was pending */
	assert_false(irqkit_queue_work(irqkit_system_wq(), &d.work));
	assert_false(irqkit_work_pending(&d.work));
	assert_false(irqkit_disable_work(&d.work));	/* 2 */
	assert_false(irqkit_enable_work(&d.work));	/* 1: still disabled */
	assert_false(irqkit_queue_work(irqkit_system_wq(), &d.work));
	assert_true(irqkit_enable_work(&d.work));	/* 0 */
	assert_true(irqkit_queue_work(irqkit_system_wq(), &d.work));
	irqkit_flush_work(&d.work);
	assert_int_equal(atomic_load(&d.runs), 1);
}

/* A pending instance is cancelled: true, and it never runs; enabling does not queue it. */
static void test_disable_cancels_a_pending_instance(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_ordered_workqueue("dis", 0);
	struct ditem a, b;

	(void)state;
	ditem_init(&a);
	ditem_init(&b);
	a.gated = true;
	assert_true(irqkit_queue_work(wq, &a.work));
	assert_true(irqkit_queue_work(wq, &b.work));	/* behind a: pending */
	assert_true(irqkit_disable_work(&b.work));
	assert_false(irqkit_work_pending(&b.work));
	atomic_store(&a.gate, 1);
	irqkit_flush_workqueue(wq);
	assert_int_equal(atomic_load(&b.runs), 0);
	assert_true(irqkit_enable_work(&b.work));
	assert_false(irqkit_work_pending(&b.work));
	irqkit_destroy_workqueue(wq);
}

struct disabler {
	struct ditem	*d;
	atomic_int	returned_at;
	bool		ret;
};

static void *disabler_main(void *arg)
{
	struct disabler *x = arg;

	x->ret = irqkit_disable_work_sync(&x->d->work);
	atomic_store(&x->returned_at, atomic_fetch_add(&stamp, 1) + 1);
	return NULL;
}

/* disable_work_sync waits for the running instance: it returns after the item has. */
static void test_disable_work_sync_waits_for_the_running_instance(void **state)
{
	struct disabler x = { 0 };
	struct ditem d;
	pthread_t th;

	(void)state;
	ditem_init(&d);
	d.gated = true;
	x.d = &d;
	assert_true(irqkit_queue_work(irqkit_system_wq(), &d.work));
	assert_true(wait_until(atomic_load(&d.running) == 1, 5000));
	assert_int_equal(pthread_create(&th, NULL, disabler_main, &x), 0);
	usleep(20000);		/* the disabler waits, or it returns before the gate opens */
	atomic_store(&d.gate, 1);
	pthread_join(th, NULL);
	assert_false(x.ret);	/* it ran, it was not pending */
	assert_int_equal(atomic_load(&d.runs), 1);
	assert_true(atomic_load(&x.returned_at) > atomic_load(&d.finished_at));
	assert_false(irqkit_queue_work(irqkit_system_wq(), &d.work));
	assert_true(irqkit_enable_work(&d.work));
}

/* Linux's warnings at the ends of the count; enable below zero still says zero. */
static void test_disable_count_limits_warn(void **state)
{
	struct ditem d;

	(void)state;
	ditem_init(&d);
	log_clear();
	assert_true(irqkit_enable_work(&d.work));
	assert_log_contains("workqueue: work disable count underflowed");
	for (unsigned long i = 0; i < IRQKIT_WORK_DISABLE_MAX; i++)
		(void)irqkit_disable_work(&d.work);
	log_clear();
	(void)irqkit_disable_work(&d.work);
	assert_log_contains("workqueue: work disable count overflowed");
	for (unsigned long i = 1; i < IRQKIT_WORK_DISABLE_MAX; i++)
		assert_false(irqkit_enable_work(&d.work));
	assert_true(irqkit_enable_work(&d.work));
	assert_true(irqkit_queue_work(irqkit_system_wq(), &d.work));
	irqkit_flush_work(&d.work);
}

static atomic_int dw_runs;

static void dw_fn(struct irqkit_work *work)
{
	(void)work;
	atomic_fetch_add(&dw_runs, 1);
}

/* Delayed work: a disable stops the timer; queue and mod refuse; enable_and_queue queues at zero. */
static void test_delayed_work_disable_and_enable_and_queue(void **state)
{
	struct irqkit_delayed_work dw;
	struct ditem d;

	(void)state;
	ditem_init(&d);
	atomic_store(&dw_runs, 0);
	irqkit_init_delayed_work(&dw, dw_fn);
	assert_true(irqkit_queue_delayed_work(irqkit_system_wq(), &dw, 100000));
	assert_true(irqkit_disable_delayed_work(&dw));
	assert_false(irqkit_delayed_work_pending(&dw));
	assert_false(irqkit_queue_delayed_work(irqkit_system_wq(), &dw, 1));
	assert_false(irqkit_mod_delayed_work(irqkit_system_wq(), &dw, 1));
	assert_false(irqkit_delayed_work_pending(&dw));
	assert_false(irqkit_disable_delayed_work_sync(&dw));	/* 2 */
	assert_false(irqkit_enable_delayed_work(&dw));		/* 1 */
	assert_true(irqkit_enable_delayed_work(&dw));		/* 0 */
	irqkit_msleep(5);
	assert_int_equal(atomic_load(&dw_runs), 0);	/* nothing was left queued or armed */
	/* a plain item disabled twice: the first enable_and_queue only counts down */
	assert_false(irqkit_disable_work(&d.work));
	assert_false(irqkit_disable_work(&d.work));
	assert_false(irqkit_enable_and_queue_work(irqkit_system_wq(), &d.work));
	assert_false(irqkit_work_pending(&d.work));
	assert_true(irqkit_enable_and_queue_work(irqkit_system_wq(), &d.work));
	irqkit_flush_work(&d.work);
	assert_int_equal(atomic_load(&d.runs), 1);
}

/*
 * A BH item may be disabled and waited for from atomic context (Linux 6.10):
 * no "sleeping function" report; from hardirq it is Linux's warning.
 */
static struct ditem bh_item;

static enum irqkit_irqreturn hardirq_disables(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	(void)irqkit_disable_work_sync(&bh_item.work);
	return IRQKIT_HANDLED;
}

static void test_bh_item_disable_sync_from_atomic_context(void **state)
{
	struct irqkit_spinlock lock = IRQKIT_SPINLOCK_INIT;
	unsigned long flags;
	int irq = T_EDGE(5);

	(void)state;
	ditem_init(&bh_item);
	assert_true(irqkit_queue_work(irqkit_system_bh_wq(), &bh_item.work));
	irqkit_flush_work(&bh_item.work);	/* it ran on a BH queue */
	log_clear();
	flags = irqkit_spin_lock_irqsave(&lock);
	assert_false(irqkit_disable_work_sync(&bh_item.work));
	irqkit_spin_unlock_irqrestore(&lock, flags);
	assert_log_lacks("sleeping function called from invalid context");
	assert_true(irqkit_enable_work(&bh_item.work));
	/* from hardirq: WARN_ON_ONCE(in_hardirq()) */
	assert_int_equal(irqkit_request_irq((unsigned int)irq, hardirq_disables, 0, "dis", &bh_item),
			 0);
	log_clear();
	assert_int_equal(irqkit_sw_raise((unsigned int)irq), 0);
	assert_int_equal(irqkit_wait_delivered((unsigned int)irq, 5000), 0);
	assert_log_contains("WARNING:");
	irqkit_free_irq((unsigned int)irq, &bh_item);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup_thr, thr_teardown)
		T(test_disable_nests_and_refuses_queueing),
		T(test_disable_cancels_a_pending_instance),
		T(test_disable_work_sync_waits_for_the_running_instance),
		T(test_disable_count_limits_warn),
		T(test_delayed_work_disable_and_enable_and_queue),
		T(test_bh_item_disable_sync_from_atomic_context),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
