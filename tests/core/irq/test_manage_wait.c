// SPDX-License-Identifier: MIT
/*
 * Tests of irqkit_wait_delivered() (src/core/irq/manage.c): after it returns 0,
 * what the handlers did for every raise before it is visible, whichever CPU
 * took the line and whether a thread finished the work.
 */
#define _GNU_SOURCE
#include "../../harness.h"

#include <unistd.h>

static struct tdev dev;
static atomic_int thread_runs;

static int setup(void **state)
{
	tdev_init(&dev);
	atomic_store(&thread_runs, 0);
	return thr_setup(state);
}

/*
 * Raised from a thread that plays no CPU, the line is taken by CPU 0's
 * dispatcher some time later: each wait makes the count exact (a plain
 * read right after the raise sees the old count whenever the dispatcher is
 * slower than this thread).
 */
static void test_every_raise_is_handled_when_it_returns(void **state)
{
	int n = stress_scale(2000);

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "waitdev", &dev), 0);
	for (int i = 1; i <= n; i++) {
		atomic_store(&dev.status, 1);
		assert_int_equal(irqkit_sw_raise(T_EDGE(3)), 0);
		assert_int_equal(irqkit_wait_delivered(T_EDGE(3), 5000), 0);
		if (atomic_load(&dev.handled) != i)
			fail_msg("raise %d: %d handled after the wait", i, atomic_load(&dev.handled));
	}
	/* a quiet line: at once */
	assert_int_equal(irqkit_wait_delivered(T_EDGE(3), 0), 0);
}

static enum irqkit_irqreturn wake_thread(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQKIT_WAKE_THREAD;
}

static enum irqkit_irqreturn slow_thread_fn(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	usleep(2000);
	atomic_fetch_add(&thread_runs, 1);
	return IRQKIT_HANDLED;
}

/* A threaded handler's work counts: the wait ends after the thread's run. */
static void test_waits_for_the_threaded_handler(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(4), wake_thread, slow_thread_fn, 0,
						     "waitthr", &dev), 0);
	for (int i = 1; i <= 20; i++) {
		assert_int_equal(irqkit_sw_raise(T_EDGE(4)), 0);
		assert_int_equal(irqkit_wait_delivered(T_EDGE(4), 5000), 0);
		assert_int_equal(atomic_load(&thread_runs), i);
	}
}

/* An edge held back by disable_irq cannot be delivered: the wait ends at its limit. */
static void test_disabled_line_times_out_until_enabled(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "waitdev", &dev), 0);
	irqkit_disable_irq(T_EDGE(3));
	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_sw_raise(T_EDGE(3)), 0);
	assert_int_equal(irqkit_wait_delivered(T_EDGE(3), 30), -IRQKIT_ETIMEDOUT);
	assert_int_equal(atomic_load(&dev.handled), 0);
	irqkit_enable_irq(T_EDGE(3));
	assert_int_equal(irqkit_wait_delivered(T_EDGE(3), 5000), 0);
	assert_int_equal(atomic_load(&dev.handled), 1);
}

static atomic_int own_ret;

static void wait_from_handler(struct tdev *d, int irq)
{
	(void)d;
	atomic_store(&own_ret, irqkit_wait_delivered((unsigned int)irq, 1000));
}

static void test_bad_calls(void **state)
{
	(void)state;
	assert_int_equal(irqkit_wait_delivered(T_NR_IRQS, 10), -IRQKIT_EINVAL);
	dev.hook = wait_from_handler;
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "waitdev", &dev), 0);
	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_sw_raise(T_EDGE(3)), 0);
	assert_true(wait_until(atomic_load(&dev.handled) == 1, 5000));
	assert_int_equal(atomic_load(&own_ret), -IRQKIT_EDEADLK);
	assert_log_contains("irqkit_wait_delivered(3) called from a handler of irq 3");
}

/* Deterministic mode: it delivers what this CPU has; another CPU's lines wait for irqkit_cpu_run(). */
static void test_deterministic_mode_does_not_wait(void **state)
{
	struct irqkit_irq_info info;

	thr_teardown(state);
	assert_int_equal(det_setup(state), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "waitdev", &dev), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(3), 1u << 1), 0);
	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_sw_raise(T_EDGE(3)), 0);
	assert_int_equal(irqkit_wait_delivered(T_EDGE(3), 1000), -IRQKIT_EAGAIN);
	assert_int_equal(atomic_load(&dev.handled), 0);
	assert_int_equal(irqkit_cpu_run(1), 0);
	assert_int_equal(irqkit_wait_delivered(T_EDGE(3), 1000), 0);
	assert_int_equal(atomic_load(&dev.handled), 1);
	assert_int_equal(irqkit_irq_get_info(T_EDGE(3), &info), 0);
	det_teardown(state);
	assert_int_equal(thr_setup(state), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, thr_teardown)
		T(test_every_raise_is_handled_when_it_returns),
		T(test_waits_for_the_threaded_handler),
		T(test_disabled_line_times_out_until_enabled),
		T(test_bad_calls),
		T(test_deterministic_mode_does_not_wait),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
