// SPDX-License-Identifier: MIT
/* Tests of src/platform/posix: start and stop, dispatcher threads, the timer thread. */
#define _GNU_SOURCE
#include "../harness.h"

#include <dirent.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static struct tdev a, b;

static int setup(void **state)
{
	(void)state;
	tdev_init(&a);
	tdev_init(&b);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	irqkit_stop();
	return 0;
}

static int nr_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static void test_start_rejects_bad_configs(void **state)
{
	assert_int_equal(irqkit_version(), IRQKIT_VERSION);	/* the library is the headers' */
	assert_string_equal(irqkit_version_string(), IRQKIT_VERSION_STRING);
	struct irqkit_config cfg;

	(void)state;
	cfg = (struct irqkit_config){ .nr_cpus = 65 };
	assert_int_equal(irqkit_start(&cfg), -IRQKIT_EINVAL);
	cfg = (struct irqkit_config){ .nr_irqs = 262145 };
	assert_int_equal(irqkit_start(&cfg), -IRQKIT_EINVAL);
	cfg = (struct irqkit_config){ .hz = 100001 };
	assert_int_equal(irqkit_start(&cfg), -IRQKIT_EINVAL);
	cfg = (struct irqkit_config){ .mode = (enum irqkit_mode)7 };
	assert_int_equal(irqkit_start(&cfg), -IRQKIT_EINVAL);
	cfg = (struct irqkit_config){ .flags = 1u << 20 };
	assert_int_equal(irqkit_start(&cfg), -IRQKIT_EINVAL);
	assert_false(irqkit_started());
	assert_int_equal(irqkit_start(NULL), 0);	/* defaults: 256 lines, 1 CPU, HZ 1000 */
	assert_int_equal(irqkit_nr_irqs(), 256);
	assert_int_equal(irqkit_nr_cpus(), 1);
	assert_int_equal(irqkit_hz(), 1000);
	assert_int_equal(irqkit_start(NULL), -IRQKIT_EBUSY);
	assert_int_equal(irqkit_clock_advance(1), -IRQKIT_EINVAL);	/* not deterministic */
	irqkit_stop();
	irqkit_stop();	/* twice is harmless */
	assert_false(irqkit_started());
}

static void test_start_failing_allocation_leaves_nothing(void **state)
{
	extern int irqkit__plat_alloc_fail;
	struct irqkit_config cfg = { .nr_cpus = 2 };
	int before = nr_threads();

	(void)state;
	/* fail each allocation of start-up in turn, until start-up needs no more */
	for (int n = 1;; n++) {
		int ret;

		irqkit__plat_alloc_fail = n;
		ret = irqkit_start(&cfg);
		if (ret == 0) {
			assert_true(n > 8);
			break;
		}
		assert_int_equal(ret, -IRQKIT_ENOMEM);
		assert_false(irqkit_started());
		assert_true(wait_until(nr_threads() == before, 2000));
	}
	irqkit__plat_alloc_fail = 0;
}

static void test_dispatcher_runs_handlers_on_its_cpu(void **state)
{
	(void)state;
	assert_int_equal(thr_setup_cpus(2, 64), 0);
	a.ret = IRQKIT_HANDLED;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 1u << 1), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_true(wait_until(atomic_load(&a.calls) == 1, 5000));
	assert_int_equal(a.cpu, 1);
	assert_true(a.saw_hardirq);
	assert_true(a.saw_irqs_off);
	assert_int_equal(irqkit_kstat_irqs_cpu(T_EDGE(1), 1), 1);
}

static void test_stop_leaves_no_thread_behind(void **state)
{
	int before = nr_threads();

	(void)state;
	for (int i = 0; i < 20; i++) {
		assert_int_equal(thr_setup_cpus(3, 64), 0);
		/*
		 * a dispatcher, a ksoftirqd and two kworkers (normal, high
		 * priority) per CPU, an unbound kworker, the timer thread and
		 * the watchdog
		 */
		assert_int_equal(nr_threads(), before + 3 * 4 + 1 + 1 + 1);
		assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
		irqkit_sw_raise(T_EDGE(1));
		irqkit_stop();			/* the handler is still registered: freed */
		/* a joined thread leaves /proc a moment after pthread_join returns */
		assert_true(wait_until(nr_threads() == before, 2000));
	}
}

static void test_bound_thread_takes_interrupts_at_restore(void **state)
{
	unsigned long flags;

	(void)state;
	assert_int_equal(thr_setup_cpus(2, 64), 0);
	a.ret = IRQKIT_HANDLED;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_thread_bind(0), 0);
	flags = irqkit_local_irq_save();
	irqkit_sw_raise(T_EDGE(1));
	usleep(20000);
	/* CPU 0 is held with interrupts off: its dispatcher could not run it */
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_local_irq_restore(flags);
	assert_true(wait_until(atomic_load(&a.calls) == 1, 5000));
	assert_int_equal(irqkit_thread_unbind(), 0);
}

static void test_spurious_poll_runs_from_the_timer_softirq(void **state)
{
	int calls;

	(void)state;
	assert_int_equal(thr_setup_cpus(2, 64), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_fixed_handler, IRQKIT_F_SHARED, "a", &a),
			 0);
	assert_int_equal(irqkit_thread_bind(0), 0);
	for (int i = 0; i < 100000; i++)
		irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(irqkit_thread_unbind(), 0);
	assert_true(wait_until(log_contains("Disabling IRQ #1"), 5000));
	calls = atomic_load(&a.calls);
	/* HZ/10 = 100 ms: within a second the poll ran the shared line several times */
	assert_true(wait_until(atomic_load(&a.calls) >= calls + 3, 5000));
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_idle_runtime_does_not_spin(void **state)
{
	double before;

	(void)state;
	assert_int_equal(thr_setup_cpus(4, 64), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	usleep(20000);
	before = cpu_seconds();
	usleep(300000);
	/* process CPU time, not wall time: other load on the machine does not count */
	assert_true(cpu_seconds() - before < 0.030);
}

static void test_cpu_run_errors(void **state)
{
	(void)state;
	assert_int_equal(irqkit_cpu_run(0), -IRQKIT_EINVAL);	/* not started */
	assert_int_equal(det_setup(NULL), 0);
	assert_int_equal(irqkit_cpu_run(T_NR_CPUS), -IRQKIT_EINVAL);
	irqkit_local_irq_disable();
	assert_int_equal(irqkit_cpu_run(1), -IRQKIT_EBUSY);
	irqkit_local_irq_enable();
	assert_int_equal(irqkit_cpu_run(1), 0);
}

/*
 * IRQKIT_RACE_WINDOW (the checking build's race windows): a bad entry is
 * logged and the rest still read; a build without IRQKIT_DEBUG says the
 * windows are not in it.
 */
static void test_race_windows_from_the_environment_are_checked(void **state)
{
	(void)state;
	setenv("IRQKIT_RACE_WINDOW", "nosuch:5,wake_worker,wake_worker:x,wake_worker:0", 1);
	assert_int_equal(det_setup(NULL), 0);
	unsetenv("IRQKIT_RACE_WINDOW");
	assert_log_contains("IRQKIT_RACE_WINDOW: nosuch: no such window");
	assert_log_contains("IRQKIT_RACE_WINDOW: \"wake_worker\" is not NAME:MICROSECONDS");
	assert_log_contains("IRQKIT_RACE_WINDOW: \"wake_worker:x\" is not NAME:MICROSECONDS");
#ifdef IRQKIT_DEBUG
	assert_int_equal(log_count("IRQKIT_RACE_WINDOW"), 3);
#else
	assert_log_contains("IRQKIT_RACE_WINDOW: wake_worker: race windows are in the checking build only");
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_start_rejects_bad_configs),
		T(test_start_failing_allocation_leaves_nothing),
		T(test_dispatcher_runs_handlers_on_its_cpu),
		T(test_stop_leaves_no_thread_behind),
		T(test_bound_thread_takes_interrupts_at_restore),
		T(test_spurious_poll_runs_from_the_timer_softirq),
		T(test_idle_runtime_does_not_spin),
		T(test_cpu_run_errors),
		T(test_race_windows_from_the_environment_are_checked),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
