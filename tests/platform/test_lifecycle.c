// SPDX-License-Identifier: MIT
/*
 * Tests of the runtime's whole life (src/core/runtime.c, src/platform/posix/runtime.c):
 * stop with work in flight, every call after stop, objects and bound threads
 * that outlive a run, a screaming line at stop, stop from the runtime's own
 * threads, racing starts.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <irqkit/workqueue.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static struct tdev a;

static int setup(void **state)
{
	(void)state;
	tdev_init(&a);
	log_clear();
	/* a stop that hangs fails the test instead of holding the suite */
	alarm(60);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	irqkit_stop();
	alarm(0);
	return 0;
}

/* ---- stop with work in flight ------------------------------------------------- */

static atomic_int slept;

static void sleepy_work(struct irqkit_work *w)
{
	(void)w;
	usleep(300);
	atomic_fetch_add(&slept, 1);
}

/*
 * Every worker that takes an item while none is idle starts another: with
 * items that sleep, stop meets workers in the middle of starting workers.
 */
static void test_stop_while_workers_start_workers(void **state)
{
	static struct irqkit_work items[24];

	(void)state;
	for (int round = 0; round < 30; round++) {
		assert_int_equal(thr_setup_cpus(2, 64), 0);
		for (unsigned int i = 0; i < 24; i++) {
			irqkit_init_work(&items[i], sleepy_work);
			assert_true(irqkit_queue_work_on((int)(i % 2), irqkit_system_wq(), &items[i]));
		}
		usleep((useconds_t)(round % 5) * 200);
		irqkit_stop();
	}
}

/* ---- every call after stop ------------------------------------------------------ */

static void softirq_fn(void)
{
}

static void tasklet_fn(unsigned long data)
{
	(void)data;
}

static void timer_fn(struct irqkit_timer_list *t)
{
	(void)t;
}

static void check_every_call_fails_cleanly(void)
{
	struct irqkit_irq_info info;
	struct irqkit_sw_stats st;
	struct irqkit_tasklet tl;
	struct irqkit_timer_list tm;
	struct irqkit_work w;
	char buf[256];
	unsigned long flags;

	assert_false(irqkit_started());
	assert_int_equal(irqkit_nr_irqs(), 0);
	assert_int_equal(irqkit_nr_cpus(), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), NULL, tdev_handler, 0, "a", &a),
			 -IRQKIT_EINVAL);
	assert_null(irqkit_free_irq(T_EDGE(1), &a));
	assert_false(irqkit_can_request_irq(T_EDGE(1), 0));
	irqkit_disable_irq(T_EDGE(1));
	irqkit_disable_irq_nosync(T_EDGE(1));
	irqkit_enable_irq(T_EDGE(1));
	irqkit_synchronize_irq(T_EDGE(1));
	(void)irqkit_synchronize_hardirq(T_EDGE(1));
	(void)irqkit_disable_hardirq(T_EDGE(1));
	assert_int_equal(irqkit_irq_get_info(T_EDGE(1), &info), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_kstat_irqs_cpu(T_EDGE(1), 0), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 1), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_irq_set_irq_type(T_EDGE(1), IRQKIT_TYPE_EDGE_RISING), -IRQKIT_EINVAL);
	irqkit_irq_modify_status(T_EDGE(1), 0, 0);
	assert_null(irqkit_irq_get_irq_data(T_EDGE(1)));
	assert_false(irqkit_irq_has_action(T_EDGE(1)));
	irqkit_irq_wake_thread(T_EDGE(1), &a);
	assert_int_equal(irqkit_generic_handle_irq(T_EDGE(1)), -IRQKIT_EINVAL);
	irqkit_cpu_signal(0, T_EDGE(1));
	irqkit_cpu_raise(0, T_EDGE(1));
	assert_false(irqkit_cpu_handle_now(0, T_EDGE(1)));
	irqkit_deliver_pending();
	assert_true(irqkit_show_interrupts_buf(buf, sizeof(buf), 0) <= 0);
	assert_int_equal(irqkit_sw_raise(T_EDGE(1)), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_sw_set_level(T_LEVEL(1), true), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_sw_get_stats(T_EDGE(1), &st), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_swchip_add(0, 1, IRQKIT_TYPE_EDGE_RISING), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_thread_bind(0), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_cpu_run(0), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_clock_advance(1000), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_softirq_pending(0), 0);
	irqkit_open_softirq(IRQKIT_NET_RX_SOFTIRQ, softirq_fn);
	irqkit_raise_softirq(IRQKIT_NET_RX_SOFTIRQ);
	irqkit_tasklet_init(&tl, tasklet_fn, 0);
	irqkit_tasklet_schedule(&tl);
	irqkit_tasklet_hi_schedule(&tl);
	irqkit_tasklet_kill(&tl);
	irqkit_timer_setup(&tm, timer_fn, 0);
	assert_int_equal(irqkit_mod_timer(&tm, 10), 0);
	assert_false(irqkit_timer_pending(&tm));
	assert_int_equal(irqkit_del_timer_sync(&tm), 0);
	irqkit_init_work(&w, sleepy_work);
	assert_null(irqkit_system_wq());
	assert_false(irqkit_schedule_work(&w));
	assert_false(irqkit_flush_work(&w));
	assert_false(irqkit_cancel_work_sync(&w));
	assert_null(irqkit_alloc_workqueue("late", 0, 0));
	flags = irqkit_local_irq_save();
	irqkit_local_irq_restore(flags);
	irqkit_local_bh_disable();
	irqkit_local_bh_enable();
	assert_int_equal(irqkit_preempt_count(), 0);
	(void)irqkit_jiffies();
	assert_int_equal(irqkit_jiffies_to_msecs(1000), 1000);	/* the default HZ */
}

static void test_every_call_after_stop_is_a_clean_error(void **state)
{
	(void)state;
	check_every_call_fails_cleanly();		/* before any start */
	assert_int_equal(det_setup(NULL), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_stop();
	check_every_call_fails_cleanly();		/* after a deterministic run */
	assert_int_equal(thr_setup_cpus(2, 64), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_stop();
	check_every_call_fails_cleanly();		/* after a threaded run */
}

/* ---- work items, tasklets and timers across stop and start ------------------------ */

static atomic_int ran_a, ran_b, ran_d;

static void work_a(struct irqkit_work *w)
{
	(void)w;
	atomic_fetch_add(&ran_a, 1);
}

static void work_b(struct irqkit_work *w)
{
	(void)w;
	atomic_fetch_add(&ran_b, 1);
}

static void work_d(struct irqkit_work *w)
{
	(void)w;
	atomic_fetch_add(&ran_d, 1);
}

static void slow_work(struct irqkit_work *w)
{
	(void)w;
	usleep(50000);
}

static void test_work_items_outlive_a_run(void **state)
{
	static struct irqkit_work item_a, item_b, blocker;
	static struct irqkit_delayed_work item_d;
	struct irqkit_workqueue *wq;

	(void)state;
	atomic_store(&ran_a, 0);
	atomic_store(&ran_b, 0);
	atomic_store(&ran_d, 0);
	irqkit_init_work(&item_a, work_a);
	irqkit_init_work(&item_b, work_b);
	irqkit_init_work(&blocker, slow_work);
	irqkit_init_delayed_work(&item_d, work_d);

	assert_int_equal(thr_setup_cpus(2, 64), 0);
	assert_true(irqkit_schedule_work(&item_a));
	irqkit_flush_work(&item_a);
	assert_int_equal(atomic_load(&ran_a), 1);
	/* b waits behind a slow item of an ordered queue; d's timer is far away */
	wq = irqkit_alloc_ordered_workqueue("ordered", 0);
	assert_non_null(wq);
	assert_true(irqkit_queue_work(wq, &blocker));
	assert_true(irqkit_queue_work(wq, &item_b));
	assert_true(irqkit_schedule_delayed_work(&item_d, 100000));
	irqkit_stop();
	assert_int_equal(atomic_load(&ran_b), 0);
	/* what was queued at stop is idle now, as a tasklet or a timer is */
	assert_false(irqkit_work_pending(&item_b));
	assert_false(irqkit_delayed_work_pending(&item_d));

	assert_int_equal(thr_setup_cpus(2, 64), 0);
	/* a ran in the last run: nothing to wait for, nothing to cancel */
	assert_false(irqkit_flush_work(&item_a));
	assert_false(irqkit_cancel_work_sync(&item_a));
	assert_false(irqkit_cancel_delayed_work_sync(&item_d));
	/* b and d were queued at stop: they queue and run again */
	assert_true(irqkit_schedule_work(&item_b));
	assert_true(irqkit_schedule_delayed_work(&item_d, 1));
	assert_true(irqkit_schedule_work(&item_a));
	irqkit_flush_work(&item_b);
	irqkit_flush_delayed_work(&item_d);
	irqkit_flush_work(&item_a);
	assert_int_equal(atomic_load(&ran_b), 1);
	assert_int_equal(atomic_load(&ran_d), 1);
	assert_int_equal(atomic_load(&ran_a), 2);
}

/*
 * After the last stop, with no start after it, a driver's teardown still
 * calls into its objects: every call on a work item, delayed work, timer or
 * tasklet of the stopped run is a clean no-op (under ASan, no read of the
 * run's freed memory), in both modes.
 */
static struct irqkit_work after_item;
static struct irqkit_delayed_work after_dwork;
static struct irqkit_timer_list after_timer;
static struct irqkit_tasklet after_tasklet;
static atomic_int after_ran;

static void after_work_fn(struct irqkit_work *w)
{
	(void)w;
	atomic_fetch_add(&after_ran, 1);
}

static void after_timer_fn(struct irqkit_timer_list *t)
{
	(void)t;
	atomic_fetch_add(&after_ran, 1);
}

static void after_tasklet_fn(unsigned long data)
{
	(void)data;
	atomic_fetch_add(&after_ran, 1);
}

static void objects_used_then_stopped(bool deterministic)
{
	atomic_store(&after_ran, 0);
	irqkit_init_work(&after_item, after_work_fn);
	irqkit_init_delayed_work(&after_dwork, after_work_fn);
	irqkit_timer_setup(&after_timer, after_timer_fn, 0);
	irqkit_tasklet_init(&after_tasklet, after_tasklet_fn, 0);
	if (deterministic)
		assert_int_equal(det_setup(NULL), 0);
	else
		assert_int_equal(thr_setup_cpus(2, 64), 0);
	/* each object has been used in the run: each points into its memory */
	assert_true(irqkit_schedule_work(&after_item));
	irqkit_flush_work(&after_item);		/* false if it ran already */
	assert_int_equal(atomic_load(&after_ran), 1);
	assert_true(irqkit_schedule_delayed_work(&after_dwork, 100000));
	irqkit_mod_timer(&after_timer, irqkit_jiffies() + 100000);
	irqkit_tasklet_schedule(&after_tasklet);
	irqkit_deliver_pending();
	irqkit_stop();
}

static void every_call_after_the_last_stop_is_clean(void)
{
	assert_false(irqkit_flush_work(&after_item));
	assert_false(irqkit_cancel_work_sync(&after_item));
	assert_false(irqkit_work_pending(&after_item));
	assert_false(irqkit_flush_delayed_work(&after_dwork));
	assert_false(irqkit_cancel_delayed_work_sync(&after_dwork));
	assert_false(irqkit_cancel_delayed_work(&after_dwork));
	assert_false(irqkit_delayed_work_pending(&after_dwork));
	assert_int_equal(irqkit_del_timer_sync(&after_timer), 0);
	assert_int_equal(irqkit_del_timer(&after_timer), 0);
	assert_false(irqkit_timer_pending(&after_timer));
	irqkit_tasklet_kill(&after_tasklet);
	irqkit_tasklet_disable(&after_tasklet);
	irqkit_tasklet_enable(&after_tasklet);
	irqkit_tasklet_kill(&after_tasklet);
	irqkit_flush_scheduled_work();
}

static void test_objects_after_the_last_stop_threaded(void **state)
{
	(void)state;
	objects_used_then_stopped(false);
	every_call_after_the_last_stop_is_clean();
	assert_false(irqkit_started());
}

static void test_objects_after_the_last_stop_deterministic(void **state)
{
	(void)state;
	objects_used_then_stopped(true);
	every_call_after_the_last_stop_is_clean();
	assert_false(irqkit_started());
}

/*
 * Deterministic mode, stopped by another thread: the starting thread played
 * CPU 0 of the stopped run, and finds out at its next call, as a thread of
 * any earlier run does.
 */
static void *stopper(void *arg)
{
	(void)arg;
	irqkit_stop();
	return NULL;
}

static void player_after_another_thread_stopped(void)
{
	unsigned long flags;
	pthread_t th;

	assert_int_equal(pthread_create(&th, NULL, stopper, NULL), 0);
	pthread_join(th, NULL);
	assert_false(irqkit_started());
	flags = irqkit_local_irq_save();
	assert_true(irqkit_irqs_disabled());
	irqkit_local_irq_restore(flags);
	assert_false(irqkit_irqs_disabled());
	irqkit_local_irq_disable();
	irqkit_local_irq_enable();
	irqkit_local_bh_disable();
	irqkit_local_bh_enable();
	irqkit_deliver_pending();
	assert_int_equal(irqkit_smp_processor_id(), 0);
	assert_int_equal(irqkit_cpu_run(0), -IRQKIT_EINVAL);
}

static void test_player_of_a_run_another_thread_stopped_deterministic(void **state)
{
	(void)state;
	assert_int_equal(det_setup(NULL), 0);
	player_after_another_thread_stopped();
	/* and a new run starts clean from here */
	assert_int_equal(det_setup(NULL), 0);
	assert_int_equal(irqkit_smp_processor_id(), 0);
}

static void test_bound_thread_of_a_run_another_thread_stopped_threaded(void **state)
{
	(void)state;
	assert_int_equal(thr_setup_cpus(2, 64), 0);
	assert_int_equal(irqkit_thread_bind(1), 0);
	player_after_another_thread_stopped();
}

/* ---- bound threads and open sections across stop and start ------------------------- */

static atomic_int helper_step;

static void *bound_helper(void *arg)
{
	unsigned long flags;

	(void)arg;
	assert_int_equal(irqkit_thread_bind(1), 0);
	atomic_store(&helper_step, 1);
	while (atomic_load(&helper_step) != 2)
		usleep(100);
	/* the runtime was stopped and started again: the old CPU is gone */
	flags = irqkit_local_irq_save();
	irqkit_local_irq_restore(flags);
	irqkit_local_bh_disable();
	irqkit_local_bh_enable();
	irqkit_deliver_pending();
	assert_int_equal(irqkit_smp_processor_id(), 0);
	/* and it can bind again, to the new one */
	assert_int_equal(irqkit_thread_bind(1), 0);
	flags = irqkit_local_irq_save();
	irqkit_local_irq_restore(flags);
	assert_int_equal(irqkit_thread_unbind(), 0);
	atomic_store(&helper_step, 3);
	return NULL;
}

static void test_bound_thread_outlives_a_run(void **state)
{
	pthread_t th;

	(void)state;
	atomic_store(&helper_step, 0);
	assert_int_equal(thr_setup_cpus(2, 64), 0);
	pthread_create(&th, NULL, bound_helper, NULL);
	while (atomic_load(&helper_step) != 1)
		usleep(100);
	irqkit_stop();
	assert_int_equal(thr_setup_cpus(2, 64), 0);
	atomic_store(&helper_step, 2);
	pthread_join(th, NULL);
	assert_int_equal(atomic_load(&helper_step), 3);
}

static void test_stop_with_sections_open_starts_clean(void **state)
{
	struct irqkit_spinlock lock = IRQKIT_SPINLOCK_INIT;

	(void)state;
	assert_int_equal(det_setup(NULL), 0);
	irqkit_local_bh_disable();
	irqkit_stop();
	assert_log_contains("irqkit_stop() with preempt_count 00000200");
	assert_int_equal(irqkit_preempt_count(), 0);
	assert_int_equal(det_setup(NULL), 0);
	assert_true(irqkit_started());
	log_clear();
	irqkit_msleep(1);
	assert_log_lacks("BUG: sleeping function called from invalid context");

	(void)irqkit_spin_lock_irqsave(&lock);
	irqkit_stop();
	assert_false(irqkit_irqs_disabled());
	assert_int_equal(irqkit_preempt_count(), 0);
	assert_int_equal(thr_setup_cpus(2, 64), 0);
	log_clear();
	irqkit_msleep(1);
	assert_log_lacks("BUG: sleeping function called from invalid context");
}

/* ---- a screaming level line at stop -------------------------------------------------- */

static enum irqkit_irqreturn always_handled(int irq, void *dev_id)
{
	struct tdev *dev = dev_id;

	(void)irq;
	atomic_fetch_add(&dev->calls, 1);
	return IRQKIT_HANDLED;		/* but the device never lets go of the line */
}

static void test_stop_returns_while_a_level_line_screams(void **state)
{
	(void)state;
	for (int cpu = 0; cpu < 2; cpu++) {
		assert_int_equal(thr_setup_cpus(2, 64), 0);
		assert_int_equal(irqkit_request_irq(T_LEVEL(1), always_handled, 0, "stuck", &a), 0);
		assert_int_equal(irqkit_irq_set_affinity(T_LEVEL(1), 1u << cpu), 0);
		atomic_store(&a.calls, 0);
		assert_int_equal(irqkit_sw_set_level(T_LEVEL(1), true), 0);
		assert_true(wait_until(atomic_load(&a.calls) > 1000, 5000));
		irqkit_stop();		/* the alarm of setup() fails a hang */
		assert_false(irqkit_started());
	}
}

/* ---- stop from the runtime's own threads and contexts ---------------------------------- */

static atomic_int stop_calls;

static void try_stop(void)
{
	irqkit_stop();
	atomic_fetch_add(&stop_calls, 1);
}

static enum irqkit_irqreturn stopping_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	try_stop();
	return IRQKIT_HANDLED;
}

static enum irqkit_irqreturn stopping_thread_fn(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	try_stop();
	return IRQKIT_HANDLED;
}

static void stopping_work(struct irqkit_work *w)
{
	(void)w;
	try_stop();
}

static void stopping_timer(struct irqkit_timer_list *t)
{
	(void)t;
	try_stop();
}

static void stopping_tasklet(unsigned long data)
{
	(void)data;
	try_stop();
}

static void check_refused(int calls)
{
	assert_true(wait_until(atomic_load(&stop_calls) == calls, 5000));
	assert_true(irqkit_started());
	assert_log_contains("irqkit_stop() called from");
	log_clear();
}

static void test_stop_from_the_runtime_is_refused(void **state)
{
	static struct irqkit_work w;
	static struct irqkit_timer_list tm;
	static struct irqkit_tasklet tl;

	(void)state;
	atomic_store(&stop_calls, 0);
	for (int mode = 0; mode < 2; mode++) {
		int base = atomic_load(&stop_calls);

		assert_int_equal(mode ? thr_setup_cpus(2, 64) : det_setup(NULL), 0);
		log_clear();
		assert_int_equal(irqkit_request_irq(T_EDGE(1), stopping_handler, 0, "h", &a), 0);
		irqkit_sw_raise(T_EDGE(1));
		check_refused(base + 1);
		assert_int_equal(irqkit_request_threaded_irq(T_EDGE(2), NULL, stopping_thread_fn,
							     IRQKIT_F_ONESHOT, "t", &a), 0);
		irqkit_sw_raise(T_EDGE(2));
		check_refused(base + 2);
		irqkit_init_work(&w, stopping_work);
		irqkit_schedule_work(&w);
		check_refused(base + 3);
		irqkit_timer_setup(&tm, stopping_timer, 0);
		irqkit_mod_timer(&tm, irqkit_jiffies() + 1);
		if (!mode)
			irqkit_clock_advance(10000000);
		check_refused(base + 4);
		irqkit_tasklet_init(&tl, stopping_tasklet, 0);
		irqkit_tasklet_schedule(&tl);
		if (!mode)
			irqkit_deliver_pending();	/* ksoftirqd's part */
		check_refused(base + 5);
		irqkit_stop();
		assert_false(irqkit_started());
	}
}

/* ---- racing starts ------------------------------------------------------------------------ */

static pthread_barrier_t start_barrier;
static atomic_int start_wins, start_busy;

static void *racing_start(void *arg)
{
	struct irqkit_config cfg = { .nr_cpus = 2, .mode = (enum irqkit_mode)(uintptr_t)arg };
	int ret;

	pthread_barrier_wait(&start_barrier);
	ret = irqkit_start(&cfg);
	if (ret == 0)
		atomic_fetch_add(&start_wins, 1);
	else if (ret == -IRQKIT_EBUSY)
		atomic_fetch_add(&start_busy, 1);
	return NULL;
}

static void *racing_stop(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start_barrier);
	irqkit_stop();
	return NULL;
}

static void test_racing_starts_have_one_winner(void **state)
{
	(void)state;
	pthread_barrier_init(&start_barrier, NULL, 3);
	for (int i = 0; i < 100; i++) {
		pthread_t th[3];

		atomic_store(&start_wins, 0);
		atomic_store(&start_busy, 0);
		for (int k = 0; k < 3; k++)
			pthread_create(&th[k], NULL, racing_start,
				       (void *)(uintptr_t)IRQKIT_MODE_THREADED);
		for (int k = 0; k < 3; k++)
			pthread_join(th[k], NULL);
		assert_int_equal(atomic_load(&start_wins), 1);
		assert_int_equal(atomic_load(&start_busy), 2);
		assert_true(irqkit_started());
		/* and racing stops: one stops, the others return */
		for (int k = 0; k < 3; k++)
			pthread_create(&th[k], NULL, racing_stop, NULL);
		for (int k = 0; k < 3; k++)
			pthread_join(th[k], NULL);
		assert_false(irqkit_started());
	}
	pthread_barrier_destroy(&start_barrier);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_stop_while_workers_start_workers),
		T(test_every_call_after_stop_is_a_clean_error),
		T(test_work_items_outlive_a_run),
		T(test_bound_thread_outlives_a_run),
		T(test_objects_after_the_last_stop_threaded),
		T(test_objects_after_the_last_stop_deterministic),
		T(test_player_of_a_run_another_thread_stopped_deterministic),
		T(test_bound_thread_of_a_run_another_thread_stopped_threaded),
		T(test_stop_with_sections_open_starts_clean),
		T(test_stop_returns_while_a_level_line_screams),
		T(test_stop_from_the_runtime_is_refused),
		T(test_racing_starts_have_one_winner),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
