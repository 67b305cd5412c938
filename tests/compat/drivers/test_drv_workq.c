// SPDX-License-Identifier: MIT
/*
 * Runs the work-queue driver (drv_workq.c, built for 2.6.10 and for current
 * Linux): work items run in process context on kworkers, delayed work no
 * earlier than its delay, a cancelled delayed item never runs, a private
 * queue's items all run once, and a timer wakes a sleeper.
 */
#include "../../harness.h"
#include "drv_workq.h"

static int setup(void **state)
{
	(void)state;
	return thr_setup_cpus(2, T_NR_IRQS);
}

static void check_run(int delay)
{
	struct workq_sample s[WORKQ_LOOPS + 1];

	memset(s, 0, sizeof(s));
	workq_run(delay, s);
	for (int i = 1; i <= WORKQ_LOOPS; i++) {
		assert_int_equal(s[i].in_interrupt, 0);		/* process context */
		assert_int_equal(s[i].preempt, 0);
		assert_true(strncmp(s[i].comm, "kworker", 7) == 0);
		assert_true((long)(s[i].j - (s[i - 1].j + (unsigned long)delay)) >= 0);
	}
}

static void test_work_requeues_itself_in_process_context(void **state)
{
	(void)state;
	check_run(0);
}

static void test_delayed_work_runs_after_its_delay(void **state)
{
	(void)state;
	check_run(5);
}

static void test_cancelled_delayed_work_never_runs(void **state)
{
	(void)state;
	assert_int_equal(workq_cancel_pending(irqkit_hz()), 1);
}

static void test_private_queue_runs_every_item_once(void **state)
{
	(void)state;
	assert_int_equal(workq_private_queue(stress_scale(500)), stress_scale(500));
}

static void test_timer_wakes_a_sleeper(void **state)
{
	unsigned long slept;

	(void)state;
	slept = workq_timer_wakes_sleeper(20);
	assert_true(slept >= 20);
	assert_true(slept < 20ul * irqkit_hz());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, thr_teardown)
		T(test_work_requeues_itself_in_process_context),
		T(test_delayed_work_runs_after_its_delay),
		T(test_cancelled_delayed_work_never_runs),
		T(test_private_queue_runs_every_item_once),
		T(test_timer_wakes_a_sleeper),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
