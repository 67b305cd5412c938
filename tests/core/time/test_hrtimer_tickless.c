// SPDX-License-Identifier: MIT
/*
 * hrtimers in a program that does not read the jiffies objects: no tick
 * runs, so nothing but the hrtimer machinery itself may wake a CPU for an
 * expiry (with the Linux-name headers the tick would cover a missed one
 * within a jiffy).  Native names only, for that reason.
 */
#include "../../harness.h"

#include <irqkit/hrtimer.h>

#include <stdatomic.h>

static atomic_int runs;
static _Atomic int64_t first_at, second_at;
static pthread_t tester;
static atomic_bool second_by_tester;

#define RESTART_NS	5000000		/* the callback's second expiry: 5 ms after its first */

static enum irqkit_hrtimer_restart restart_once(struct irqkit_hrtimer *t)
{
	int n = atomic_fetch_add(&runs, 1) + 1;

	if (n == 1) {
		atomic_store(&first_at, (int64_t)irqkit_ktime_get_ns());
		irqkit_hrtimer_forward(t, irqkit_hrtimer_now(t), RESTART_NS);
		return IRQKIT_HRTIMER_RESTART;
	}
	atomic_store(&second_by_tester, pthread_equal(pthread_self(), tester));
	atomic_store(&second_at, (int64_t)irqkit_ktime_get_ns());
	return IRQKIT_HRTIMER_NORESTART;
}

/*
 * One try: the timer, due at once, is started with interrupts off on a thread
 * bound to CPU 1 (nobody is woken for it), taken at the restore, and restarts
 * itself RESTART_NS on; the thread lets go of the CPU.  Return: whether the
 * second expiry was taken by someone other than the test's thread.
 */
static bool restart_once_from_a_bound_thread(void)
{
	struct irqkit_hrtimer t;
	unsigned long flags;
	bool ran;

	atomic_store(&runs, 0);
	atomic_store(&second_by_tester, false);
	irqkit_hrtimer_setup(&t, restart_once, IRQKIT_CLOCK_MONOTONIC, IRQKIT_HRTIMER_MODE_ABS);
	assert_int_equal(irqkit_thread_bind(1), 0);
	flags = irqkit_local_irq_save();
	irqkit_hrtimer_start_range_ns(&t, 0, 0, IRQKIT_HRTIMER_MODE_ABS);	/* due: nobody woken */
	irqkit_local_irq_restore(flags);		/* taken here, on this thread */
	/*
	 * At least the first run by now; the second too if the machine let
	 * more than RESTART_NS pass since (then this thread took it, and the
	 * try proves nothing of the dispatcher).
	 */
	assert_true(atomic_load(&runs) >= 1);
	assert_int_equal(irqkit_thread_unbind(), 0);
	ran = wait_until(atomic_load(&runs) == 2, 2000);
	irqkit_hrtimer_cancel(&t);	/* off the queue before anything can fail: it is on this stack */
	assert_true(ran);
	assert_true(atomic_load(&second_at) - atomic_load(&first_at) < 500000000);
	return !atomic_load(&second_by_tester);
}

/*
 * A callback that restarts itself earlier than anything its CPU's idle
 * dispatcher waits for (here: nothing), run by a thread bound to the CPU
 * (it was due while that thread had interrupts off, so no kick woke the
 * dispatcher): the dispatcher must be told of the new earliest expiry, or
 * the second expiry never comes.  A try where this thread, slowed down,
 * took the second expiry itself before it let go of the CPU is tried again.
 */
static void test_restart_from_a_bound_thread_reaches_the_idle_dispatcher(void **state)
{
	bool by_dispatcher = false;

	(void)state;
	tester = pthread_self();
	for (int try = 0; try < 20 && !by_dispatcher; try++)
		by_dispatcher = restart_once_from_a_bound_thread();
	assert_true(by_dispatcher);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_restart_from_a_bound_thread_reaches_the_idle_dispatcher,
			thr_setup, thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
