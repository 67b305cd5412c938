// SPDX-License-Identifier: MIT
/*
 * Kernel threads (src/core/sched/kthread.c), through Linux's names:
 * kthread_create/kthread_run/kthread_stop, parking, binding, the kthread
 * worker, and what happens to kthreads at irqkit_stop().
 */
#define _GNU_SOURCE
#include "../../harness.h"

#include <linux/kthread.h>
#include <linux/interrupt.h>
#include <linux/wait.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/err.h>
#include <linux/cpumask.h>

#include <unistd.h>

static char listing[4096];

/* The task listing's row for @comm, or NULL. */
static const char *row_of(const char *comm)
{
	char needle[32];

	assert_true(irqkit_show_tasks_buf(listing, sizeof(listing)) > 0);
	snprintf(needle, sizeof(needle), "[%s]", comm);
	return strstr(listing, needle);
}

/* The state letter of @comm's row, or 0 when it has none. */
static char state_of(const char *comm)
{
	const char *row = row_of(comm);

	return row ? row[-2] : 0;
}

/* ---- create, run, stop ------------------------------------------------------------ */

struct loop {
	atomic_int		runs;		/* the function started */
	atomic_int		rounds;
	atomic_int		cpu;
	char			comm[TASK_COMM_LEN];
	struct task_struct	*self;
	int			ret;
};

static int loop_fn(void *data)
{
	struct loop *l = data;

	atomic_fetch_add(&l->runs, 1);
	l->self = current;
	memcpy(l->comm, current->comm, sizeof(l->comm));
	atomic_store(&l->cpu, smp_processor_id());
	while (!kthread_should_stop()) {
		atomic_fetch_add(&l->rounds, 1);
		schedule_timeout_interruptible(1);
	}
	return l->ret;
}

static void test_kthread_create_is_stopped_until_woken(void **state)
{
	struct loop l = { .ret = 42 };
	struct task_struct *k;

	(void)state;
	k = kthread_create(loop_fn, &l, "loop/%d", 7);
	assert_false(IS_ERR(k));
	assert_true(is_kthread(k));
	assert_ptr_equal(kthread_data(k), &l);
	assert_string_equal(k->comm, "loop/7");
	usleep(20000);
	assert_int_equal(atomic_load(&l.runs), 0);	/* created stopped */
	assert_int_equal(state_of("loop/7"), 'D');
	assert_int_equal(wake_up_process(k), 1);
	assert_true(wait_until(atomic_load(&l.rounds) > 2, 5000));
	assert_ptr_equal(l.self, k);			/* current is the task returned */
	assert_string_equal(l.comm, "loop/7");
	assert_int_equal(kthread_stop(k), 42);		/* the function's value */
	assert_int_equal(atomic_load(&l.runs), 1);
	assert_null(row_of("loop/7"));			/* joined: gone from the listing */
	assert_log_lacks("WARNING");
}

static void test_kthread_stop_before_wake_does_not_run_it(void **state)
{
	struct loop l = { .ret = 5 };
	struct task_struct *k;

	(void)state;
	k = kthread_create(loop_fn, &l, "never");
	assert_false(IS_ERR(k));
	assert_int_equal(kthread_stop(k), -EINTR);
	assert_int_equal(atomic_load(&l.runs), 0);
}

static void test_kthread_run_and_its_comm_cut_at_15(void **state)
{
	struct loop l = { .ret = 0 };
	struct task_struct *k;

	(void)state;
	k = kthread_run(loop_fn, &l, "a-very-long-kthread-name-%d", 1);
	assert_false(IS_ERR(k));
	assert_true(wait_until(atomic_load(&l.runs) == 1, 5000));
	assert_int_equal(strlen(k->comm), TASK_COMM_LEN - 1);
	assert_int_equal(strncmp(k->comm, "a-very-long-kth", TASK_COMM_LEN - 1), 0);
	assert_int_equal(kthread_stop(k), 0);
}

/* ---- bad input ---------------------------------------------------------------------- */

static int quick_fn(void *data)
{
	return (int)(intptr_t)data;
}

static void test_kthread_stop_twice_reports_and_gives_the_result_again(void **state)
{
	struct task_struct *k;

	(void)state;
	k = kthread_run(quick_fn, (void *)(intptr_t)17, "quick");
	assert_false(IS_ERR(k));
	/* a stop right after the wake-up may come before the function (-EINTR, as Linux) */
	assert_true(wait_until(state_of("quick") == 'Z', 5000));
	assert_int_equal(kthread_stop(k), 17);
	log_clear();
	assert_int_equal(kthread_stop(k), 17);
	assert_log_contains("kthread_stop(quick) on a kthread already stopped");
}

static void test_kthread_that_returned_by_itself_is_stopped_cleanly(void **state)
{
	struct task_struct *k;

	(void)state;
	k = kthread_run(quick_fn, (void *)(intptr_t)3, "selfexit");
	assert_false(IS_ERR(k));
	assert_true(wait_until(state_of("selfexit") == 'Z', 5000));
	assert_int_equal(kthread_stop(k), 3);
	assert_log_lacks("WARNING");
}

static void test_kthread_calls_on_a_task_that_is_not_a_kthread(void **state)
{
	(void)state;
	assert_false(is_kthread(current));
	assert_int_equal(kthread_stop(current), -EINVAL);
	assert_log_contains("not a kthread");
	log_clear();
	assert_false(kthread_should_stop());
	assert_log_contains("kthread_should_stop() called from a task that is not a kthread");
	assert_int_equal(kthread_park(current), -EINVAL);
	assert_null(kthread_data(current));
	assert_int_equal(kthread_stop(ERR_PTR(-ENOMEM)), -EINVAL);
}

static void test_kthread_create_needs_a_started_runtime(void **state)
{
	struct task_struct *k;

	(void)state;
	assert_int_equal(PTR_ERR_OR_ZERO(NULL), 0);
	irqkit_stop();
	k = kthread_create(quick_fn, NULL, "late");
	assert_true(IS_ERR(k));
	assert_int_equal(PTR_ERR(k), -EINVAL);
	assert_int_equal(PTR_ERR_OR_ZERO(k), -EINVAL);
	assert_log_contains("kthread_create(late): the runtime is not started");
}

/* ---- parking ------------------------------------------------------------------------ */

static int parking_fn(void *data)
{
	struct loop *l = data;

	atomic_fetch_add(&l->runs, 1);
	while (!kthread_should_stop()) {
		if (kthread_should_park())
			kthread_parkme();
		atomic_fetch_add(&l->rounds, 1);
		schedule_timeout_interruptible(1);
	}
	return 0;
}

static void test_kthread_park_and_unpark(void **state)
{
	struct loop l = { 0 };
	struct task_struct *k;
	int rounds;

	(void)state;
	k = kthread_run(parking_fn, &l, "parker");
	assert_false(IS_ERR(k));
	assert_true(wait_until(atomic_load(&l.rounds) > 0, 5000));
	assert_int_equal(kthread_park(k), 0);
	assert_int_equal(state_of("parker"), 'P');
	rounds = atomic_load(&l.rounds);
	usleep(20000);
	assert_int_equal(atomic_load(&l.rounds), rounds);	/* parked: no round */
	assert_int_equal(wake_up_process(k), 0);		/* TASK_PARKED is not TASK_NORMAL */
	assert_int_equal(kthread_park(k), -EBUSY);		/* asked already */
	kthread_unpark(k);
	assert_true(wait_until(atomic_load(&l.rounds) > rounds, 5000));
	assert_int_equal(kthread_park(k), 0);			/* stop unparks it */
	assert_int_equal(kthread_stop(k), 0);
	assert_int_equal(kthread_park(k), -EINVAL);		/* gone */
}

static void test_kthread_parked_before_its_first_wake_parks_before_its_function(void **state)
{
	struct loop l = { 0 };
	struct task_struct *k;

	(void)state;
	k = kthread_create(parking_fn, &l, "earlypark");
	assert_false(IS_ERR(k));
	assert_int_equal(kthread_park(k), 0);
	usleep(20000);
	assert_int_equal(atomic_load(&l.runs), 0);
	kthread_unpark(k);
	assert_true(wait_until(atomic_load(&l.runs) == 1, 5000));
	assert_int_equal(kthread_stop(k), 0);
}

static void test_kthread_park_of_an_exited_kthread(void **state)
{
	struct task_struct *k;

	(void)state;
	k = kthread_run(quick_fn, NULL, "gone");
	assert_true(wait_until(state_of("gone") == 'Z', 5000));
	assert_int_equal(kthread_park(k), -ENOSYS);
	assert_int_equal(kthread_stop(k), 0);
}

/* ---- binding ------------------------------------------------------------------------ */

static void test_kthread_create_on_cpu_runs_there(void **state)
{
	struct loop l = { 0 };
	struct task_struct *k;

	(void)state;
	atomic_store(&l.cpu, -1);
	k = kthread_create_on_cpu(loop_fn, &l, 1, "percpu/%u");
	assert_false(IS_ERR(k));
	assert_string_equal(k->comm, "percpu/1");
	wake_up_process(k);
	assert_true(wait_until(atomic_load(&l.rounds) > 0, 5000));
	assert_int_equal(atomic_load(&l.cpu), 1);
	log_clear();
	kthread_bind(k, 0);					/* too late: it runs */
	assert_log_contains("kthread_bind(percpu/1, 0): the kthread runs already");
	assert_int_equal(kthread_stop(k), 0);

	assert_true(IS_ERR(kthread_create_on_cpu(loop_fn, &l, 9, "bad/%u")));
}

static void test_kthread_bind_before_wake(void **state)
{
	struct loop l = { 0 };
	struct task_struct *k;

	(void)state;
	atomic_store(&l.cpu, -1);
	k = kthread_create(loop_fn, &l, "bindme");
	kthread_bind(k, 1);
	wake_up_process(k);
	assert_true(wait_until(atomic_load(&l.rounds) > 0, 5000));
	assert_int_equal(atomic_load(&l.cpu), 1);
	assert_int_equal(kthread_stop(k), 0);
	assert_log_lacks("WARNING");
}

/* ---- woken by an interrupt ---------------------------------------------------------- */

static DECLARE_WAIT_QUEUE_HEAD(evq);
static atomic_int events, seen;

static irqreturn_t event_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	atomic_fetch_add(&events, 1);
	wake_up_interruptible(&evq);
	return IRQ_HANDLED;
}

static int event_fn(void *data)
{
	(void)data;
	while (!kthread_should_stop()) {
		wait_event_interruptible(evq, atomic_load(&seen) != atomic_load(&events) ||
					      kthread_should_stop());
		atomic_store(&seen, atomic_load(&events));
	}
	return 0;
}

static void test_kthread_woken_by_a_handler(void **state)
{
	struct task_struct *k;

	(void)state;
	atomic_store(&events, 0);
	atomic_store(&seen, 0);
	assert_int_equal(request_irq(T_EDGE(2), event_handler, 0, "ev", &events), 0);
	k = kthread_run(event_fn, NULL, "evthread");
	assert_false(IS_ERR(k));
	for (int i = 1; i <= 20; i++) {
		irqkit_sw_raise(T_EDGE(2));
		assert_true(wait_until(atomic_load(&seen) == i, 5000));
		/* between events it sleeps interruptibly on the queue */
		assert_true(wait_until(state_of("evthread") == 'S', 5000));
	}
	assert_int_equal(kthread_stop(k), 0);
	free_irq(T_EDGE(2), &events);
}

/* ---- kthread workers ------------------------------------------------------------------ */

struct kw_item {
	struct kthread_work	work;
	int			id;
	useconds_t		delay;
};

static char kw_order[64];
static atomic_int kw_n;

static void kw_fn(struct kthread_work *work)
{
	struct kw_item *it = container_of(work, struct kw_item, work);

	if (it->delay)
		usleep(it->delay);
	kw_order[atomic_fetch_add(&kw_n, 1)] = (char)('a' + it->id);
}

static void test_kthread_worker_runs_items_in_order(void **state)
{
	struct kthread_worker *w;
	struct kw_item it[4];

	(void)state;
	memset(kw_order, 0, sizeof(kw_order));
	atomic_store(&kw_n, 0);
	w = kthread_create_worker(0, "kworker-%s", "test");
	assert_false(IS_ERR(w));
	assert_non_null(row_of("kworker-test"));
	for (int i = 0; i < 4; i++) {
		kthread_init_work(&it[i].work, kw_fn);
		it[i].id = i;
		it[i].delay = i == 0 ? 20000 : 0;
	}
	for (int i = 0; i < 4; i++)
		assert_true(kthread_queue_work(w, &it[i].work));
	assert_false(kthread_queue_work(w, &it[3].work));	/* pending already */
	kthread_flush_work(&it[1].work);
	assert_true(atomic_load(&kw_n) >= 2);
	kthread_flush_worker(w);
	assert_string_equal(kw_order, "abcd");
	/* cancel: a queued item is taken off; one that is not gives false */
	it[0].delay = 50000;
	assert_true(kthread_queue_work(w, &it[0].work));
	assert_true(kthread_queue_work(w, &it[2].work));
	assert_true(kthread_cancel_work_sync(&it[2].work));
	assert_false(kthread_cancel_work_sync(&it[2].work));
	kthread_flush_worker(w);
	assert_string_equal(kw_order, "abcda");
	kthread_destroy_worker(w);
	assert_null(row_of("kworker-test"));
	assert_log_lacks("WARNING");
}

static atomic_int own_runs;

static void own_fn(struct kthread_work *work)
{
	(void)work;
	atomic_fetch_add(&own_runs, 1);
}

static void test_kthread_worker_fn_with_a_worker_of_ones_own(void **state)
{
	static DEFINE_KTHREAD_WORKER(own);
	static DEFINE_KTHREAD_WORK(item, own_fn);
	struct task_struct *k;

	(void)state;
	atomic_store(&own_runs, 0);
	k = kthread_run(kthread_worker_fn, &own, "own-worker");
	assert_false(IS_ERR(k));
	assert_true(kthread_queue_work(&own, &item));
	kthread_flush_work(&item);
	assert_int_equal(atomic_load(&own_runs), 1);
	assert_int_equal(kthread_stop(k), 0);
	assert_null(READ_ONCE(own.task));
}

/* ---- the runtime's stop ---------------------------------------------------------------- */

static void test_irqkit_stop_stops_the_kthreads_left(void **state)
{
	struct loop l = { .ret = 9 };
	struct task_struct *k, *never;

	(void)state;
	k = kthread_run(loop_fn, &l, "leftover");
	never = kthread_create(quick_fn, NULL, "unwoken");
	assert_false(IS_ERR(k));
	assert_false(IS_ERR(never));
	assert_true(wait_until(atomic_load(&l.rounds) > 0, 5000));
	irqkit_stop();
	assert_log_contains("irqkit_stop(): kthread leftover/");
	assert_log_contains("still running: stopping it");
	assert_null(row_of("leftover"));
	assert_null(row_of("unwoken"));
	/* the driver's teardown after the stop: a defined answer, not a freed thread */
	log_clear();
	assert_int_equal(kthread_stop(k), 9);
	assert_log_contains("already stopped");
	assert_int_equal(kthread_stop(never), -EINTR);
}

/* ---- stress: stops racing wake-ups from handlers on two CPUs ---------------------------- */

static DECLARE_WAIT_QUEUE_HEAD(stq);
static atomic_int st_events;

static irqreturn_t stress_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	atomic_fetch_add(&st_events, 1);
	wake_up_interruptible_all(&stq);
	return IRQ_HANDLED;
}

static int stress_fn(void *data)
{
	atomic_int *rounds = data;

	while (!kthread_should_stop()) {
		int e = atomic_load(&st_events);

		wait_event_interruptible(stq, atomic_load(&st_events) != e || kthread_should_stop());
		atomic_fetch_add(rounds, 1);
	}
	return 7;
}

static atomic_bool raising;

static void *raiser(void *arg)
{
	unsigned int irq = (unsigned int)(uintptr_t)arg;

	while (atomic_load(&raising)) {
		irqkit_sw_raise(irq);
		usleep(50);
	}
	return NULL;
}

static void test_stress_kthread_stop_races_handler_wakeups(void **state)
{
	pthread_t th[2];
	atomic_int rounds;

	(void)state;
	atomic_store(&rounds, 0);
	assert_int_equal(request_irq(T_EDGE(3), stress_handler, 0, "st0", &st_events), 0);
	assert_int_equal(request_irq(T_EDGE(4), stress_handler, 0, "st1", &rounds), 0);
	assert_int_equal(irq_set_affinity(T_EDGE(4), cpumask_of(1)), 0);
	atomic_store(&raising, true);
	pthread_create(&th[0], NULL, raiser, (void *)(uintptr_t)T_EDGE(3));
	pthread_create(&th[1], NULL, raiser, (void *)(uintptr_t)T_EDGE(4));
	for (int i = 0; i < 200; i++) {
		struct task_struct *k[3];

		for (int j = 0; j < 3; j++) {
			k[j] = j == 2 ? kthread_create_on_cpu(stress_fn, &rounds, (unsigned int)(i & 1),
							      "st/%u")
				      : kthread_run(stress_fn, &rounds, "st%d-%d", i, j);
			assert_false(IS_ERR(k[j]));
		}
		if (i & 2)
			wake_up_process(k[2]);
		if (i & 4)
			usleep(100);
		for (int j = 0; j < 3; j++) {
			int ret = kthread_stop(k[j]);

			/* woken: its value, or -EINTR when the stop came before it ran (Linux's race) */
			if (j == 2 && !(i & 2))
				assert_int_equal(ret, -EINTR);
			else
				assert_true(ret == 7 || ret == -EINTR);
		}
	}
	atomic_store(&raising, false);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	free_irq(T_EDGE(3), &st_events);
	free_irq(T_EDGE(4), &rounds);
	assert_true(atomic_load(&rounds) > 0);
	assert_log_lacks("WARNING");
	assert_log_lacks("BUG");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_kthread_create_is_stopped_until_woken,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_stop_before_wake_does_not_run_it,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_run_and_its_comm_cut_at_15,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_stop_twice_reports_and_gives_the_result_again,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_that_returned_by_itself_is_stopped_cleanly,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_calls_on_a_task_that_is_not_a_kthread,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_create_needs_a_started_runtime,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_park_and_unpark, thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_parked_before_its_first_wake_parks_before_its_function,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_park_of_an_exited_kthread, thr_setup,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_create_on_cpu_runs_there, thr_setup,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_bind_before_wake, thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_woken_by_a_handler, thr_setup,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_worker_runs_items_in_order, thr_setup,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_worker_fn_with_a_worker_of_ones_own,
						thr_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_irqkit_stop_stops_the_kthreads_left, thr_setup,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_stress_kthread_stop_races_handler_wakeups,
						thr_setup, thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
