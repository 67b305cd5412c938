// SPDX-License-Identifier: MIT
/*
 * Runs the time driver (drv_jit.c, built for 2.6.10 and for current
 * Linux): every kind of delay lasts at least its jiffies; the timer runs in
 * softirq context every tdelay jiffies; the tasklet runs in softirq context.
 */
#include "../../harness.h"
#include "drv_jit.h"

#include <time.h>
#include <unistd.h>

static int setup(void **state)
{
	(void)state;
	return thr_setup_cpus(2, T_NR_IRQS);
}

static void test_each_delay_lasts_its_jiffies(void **state)
{
	static const char *names[] = { "busy", "sched", "queue", "schedto", "mdelay", "msleep" };

	(void)state;
	assert_int_equal(jit_hz(), IRQKIT_HZ);
	for (int how = JIT_BUSY; how <= JIT_MSLEEP; how++) {
		unsigned long j0, j1;

		jit_delay((enum jit_how)how, &j0, &j1);
		print_message("%-8s %9lu %9lu (%lu jiffies)\n", names[how], j0, j1, j1 - j0);
		assert_true(j1 - j0 >= (unsigned long)jit_default_delay());
		assert_true(j1 - j0 < 20ul * (unsigned long)jit_default_delay());	/* it ended */
	}
}

/* The object moves by itself while the runtime is active, as Linux's tick moves it. */
static void test_jiffies_object_keeps_time(void **state)
{
	unsigned long j0, j1;
	struct timespec t0, t1;
	unsigned long ms;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	irqkit_jiffies();			/* activity; publishes a time after t0 */
	j0 = jit_jiffies();
	/*
	 * No irqkit call meanwhile: only the tick moves it.  On a loaded host
	 * the tick thread may run late, so wait for 40 ms worth of ticks (at
	 * most 5 s) rather than expect them after exactly 50 ms.
	 */
	do {
		usleep(50000);
		j1 = jit_jiffies();
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (unsigned long)((t1.tv_sec - t0.tv_sec) * 1000 +
				     (t1.tv_nsec - t0.tv_nsec) / 1000000);
	} while (j1 - j0 < 40ul * (unsigned long)jit_hz() / 1000 && ms < 5000);
	assert_true(j1 - j0 >= 40ul * (unsigned long)jit_hz() / 1000);
	/* never ahead of the clock: at most the time that passed, and a tick */
	assert_true(j1 - j0 <= (ms + 1) * (unsigned long)jit_hz() / 1000 + 1);
}

static void test_timer_rearms_in_softirq_context(void **state)
{
	struct jit_sample s[JIT_LOOPS + 1];

	(void)state;
	memset(s, 0, sizeof(s));
	jit_timer(10, s);
	assert_int_equal(s[0].in_interrupt, 0);		/* the process */
	for (int i = 1; i <= JIT_LOOPS; i++) {
		assert_int_equal(s[i].in_interrupt, 1);
		assert_int_equal(s[i].in_softirq, 1);
		/* expires += tdelay: each run at least 10 jiffies after the first's expiry */
		assert_true((long)(s[i].j - (s[0].j + 10ul * (unsigned long)i)) >= 0);
		/*
		 * current is whatever the CPU was running, as on Linux: the
		 * CPU's timer, ksoftirqd or (while one is idle) a kworker.
		 */
		assert_true(strncmp(s[i].comm, "ksoftirqd/", 10) == 0 ||
			    strncmp(s[i].comm, "kworker/", 8) == 0);
	}
}

static void test_tasklet_runs_in_softirq_context(void **state)
{
	(void)state;
	for (int hi = 0; hi <= 1; hi++) {
		struct jit_sample s[JIT_LOOPS + 1];

		memset(s, 0, sizeof(s));
		jit_tasklet(hi, s);
		assert_int_equal(s[0].in_interrupt, 0);
		for (int i = 1; i <= JIT_LOOPS; i++) {
			assert_int_equal(s[i].in_interrupt, 1);
			assert_int_equal(s[i].in_softirq, 1);
			assert_true(s[i].pid > 0);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_each_delay_lasts_its_jiffies, setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_jiffies_object_keeps_time, setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_timer_rearms_in_softirq_context, setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_tasklet_runs_in_softirq_context, setup, thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
