// SPDX-License-Identifier: MIT
/*
 * Tests of src/core/debug/watchdog.c (threaded mode): soft lockups of handlers and
 * tasklets, blocked waits, workqueue lockups, idle workers reaped, and a
 * stop that returns past a handler that never does.
 */
#define _GNU_SOURCE
#include "../../harness.h"

#include <irqkit/workqueue.h>
#include <pthread.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WD_MS	300

static atomic_int release;		/* a stuck callback spins until this is set */
static atomic_int entered;
static struct tdev a, b;

static int setup_wd(unsigned int watchdog_ms, unsigned int idle_ms)
{
	atomic_store(&release, 0);
	atomic_store(&entered, 0);
	tdev_init(&a);
	tdev_init(&b);
	return start_world_cfg((struct irqkit_config){ .nr_irqs = T_NR_IRQS, .nr_cpus = 2,
						       .watchdog_ms = watchdog_ms,
						       .worker_idle_ms = idle_ms });
}

static int setup(void **state)
{
	(void)state;
	alarm(60);
	return setup_wd(WD_MS, 0);
}

static int teardown(void **state)
{
	(void)state;
	atomic_store(&release, 1);
	irqkit_stop();
	irqkit_stop();		/* a second time, in case the first left a CPU stuck */
	alarm(0);
	return 0;
}

/* exported, as the other functions the reports must name (a build without libdw) */
void spin_until_released(void);
__attribute__((noinline)) void spin_until_released(void)
{
	atomic_fetch_add(&entered, 1);
	while (!atomic_load(&release))
		usleep(200);
}

/* exported (not static): the reports name it in a build without libdw too */
enum irqkit_irqreturn stuck_handler(int irq, void *dev_id);
enum irqkit_irqreturn stuck_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	spin_until_released();
	return IRQKIT_HANDLED;
}

static void test_soft_lockup_in_a_handler_is_reported(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), stuck_handler, 0, "stuck", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 1u << 1), 0);
	a.ret = IRQKIT_HANDLED;
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, 0, "fine", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(2), 1u << 0), 0);
	irqkit_sw_raise(T_EDGE(1));
	/* the report's lines come one by one: wait for the one after the title */
	assert_true(wait_until(log_contains("in hardirq: irq 1 handler stuck_handler"), 5000));
	assert_log_contains("watchdog: BUG: soft lockup - CPU#1 stuck for");
	assert_log_contains("[vcpu/1:");
	/* with the stuck thread's own stack, taken from that thread */
	assert_true(wait_until(log_contains(" spin_until_released+0x"), 5000));
	assert_log_contains("Call Trace:");
	/* the other CPU still serves its lines */
	irqkit_sw_raise(T_EDGE(2));
	assert_true(wait_until(atomic_load(&a.calls) == 1, 5000));
	atomic_store(&release, 1);
}

/*
 * A program that owns SIGURG (Go's runtime preempts with it) keeps it: the
 * watchdog takes another thread's stack with a real-time signal the program
 * left at its default, or IRQKIT_BACKTRACE_SIGNAL's.
 */
static atomic_int program_sigurg;

static void program_sigurg_handler(int sig)
{
	(void)sig;
	atomic_fetch_add(&program_sigurg, 1);
}

static void test_stack_of_another_thread_leaves_the_programs_sigurg_alone(void **state)
{
	struct sigaction sa = { .sa_handler = program_sigurg_handler }, now;
	const char *env = getenv("IRQKIT_BACKTRACE_SIGNAL");
	int asked_with = env ? atoi(env) : SIGRTMAX;

	(void)state;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGURG, &sa, NULL), 0);
	atomic_store(&program_sigurg, 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), stuck_handler, 0, "stuck", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 1u << 1), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_true(wait_until(log_contains("watchdog: BUG: soft lockup - CPU#1 stuck for"), 5000));
	/* the stuck thread's own stack, taken without SIGURG */
	assert_true(wait_until(log_contains(" spin_until_released+0x"), 5000));
	assert_int_equal(atomic_load(&program_sigurg), 0);
	assert_int_equal(sigaction(SIGURG, NULL, &now), 0);
	assert_ptr_equal(now.sa_handler, program_sigurg_handler);
	/* the signal it asked with has its handler now */
	assert_int_equal(sigaction(asked_with, NULL, &now), 0);
	assert_true(now.sa_handler != SIG_DFL && now.sa_handler != SIG_IGN);
	/* and the program's SIGURG still reaches the program */
	raise(SIGURG);
	assert_int_equal(atomic_load(&program_sigurg), 1);
	atomic_store(&release, 1);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGURG, &sa, NULL);
}

void stuck_tasklet_fn(unsigned long data);
void stuck_tasklet_fn(unsigned long data)
{
	(void)data;
	spin_until_released();
}

/* A tasklet that spins until released, scheduled on CPU 1 from process context (ksoftirqd/1). */
static void schedule_stuck_tasklet_on_cpu1(struct irqkit_tasklet *t)
{
	irqkit_tasklet_init(t, stuck_tasklet_fn, 0);
	assert_int_equal(irqkit_thread_bind(1), 0);
	irqkit_tasklet_schedule(t);
	assert_int_equal(irqkit_thread_unbind(), 0);
}

static void test_soft_lockup_in_a_tasklet_is_reported(void **state)
{
	static struct irqkit_tasklet t;

	(void)state;
	schedule_stuck_tasklet_on_cpu1(&t);
	assert_true(wait_until(log_contains("in softirq: stuck_tasklet_fn"), 5000));
	assert_log_contains("watchdog: BUG: soft lockup - CPU#1 stuck for");
	assert_log_contains("[ksoftirqd/1:");
	atomic_store(&release, 1);
	irqkit_tasklet_kill(&t);
}

/* Sets release once the log has a line with @arg in it. */
static void *release_after_report(void *arg)
{
	const char *needle = arg;

	for (int i = 0; i < 50000 && !log_contains(needle); i++)
		usleep(100);
	atomic_store(&release, 1);
	return NULL;
}

static void test_blocked_synchronize_irq_is_reported(void **state)
{
	pthread_t th;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), stuck_handler, 0, "stuck", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 1u << 1), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_true(wait_until(atomic_load(&entered) == 1, 5000));
	log_clear();
	pthread_create(&th, NULL, release_after_report, "waits for handler");
	irqkit_synchronize_irq(T_EDGE(1));
	pthread_join(th, NULL);
	assert_log_contains("blocked for more than 1 seconds.");
	assert_log_contains("synchronize_irq(1) waits for handler stuck_handler running on vcpu/1:");
	assert_log_contains("finished after all");
}

void stuck_work(struct irqkit_work *w);
void stuck_work(struct irqkit_work *w)
{
	(void)w;
	spin_until_released();
}

/* A work item that spins until released, running on a kworker when this returns. */
static void run_stuck_work(struct irqkit_work *w)
{
	irqkit_init_work(w, stuck_work);
	assert_true(irqkit_schedule_work(w));
	assert_true(wait_until(atomic_load(&entered) == 1, 5000));
}

static void test_blocked_flush_work_is_reported(void **state)
{
	static struct irqkit_work w;
	pthread_t th;

	(void)state;
	run_stuck_work(&w);
	pthread_create(&th, NULL, release_after_report, "waits for work");
	assert_true(irqkit_flush_work(&w));
	pthread_join(th, NULL);
	assert_log_contains("blocked for more than 1 seconds.");
	assert_log_contains("flush_work() waits for work");
	assert_log_contains("(stuck_work)");
}

/* Linux's hung-task check: an uninterruptible sleep is reported, an interruptible one is not. */
static struct irqkit_wait_queue_head sleep_wq;

static void *wake_after_report(void *arg)
{
	const char *needle = arg;

	for (int i = 0; i < 50000 && !log_contains(needle); i++)
		usleep(100);
	atomic_store(&release, 1);
	irqkit_wake_up_all(&sleep_wq);
	return NULL;
}

static void *wake_after(void *arg)
{
	usleep((useconds_t)(uintptr_t)arg);
	atomic_store(&release, 1);
	irqkit_wake_up_all(&sleep_wq);
	return NULL;
}

static void test_hung_task_watches_only_uninterruptible_sleeps(void **state)
{
	pthread_t th;

	(void)state;
	irqkit_init_waitqueue_head(&sleep_wq);
	log_clear();
	pthread_create(&th, NULL, wake_after, (void *)(uintptr_t)(4 * WD_MS * 1000));
	assert_int_equal(irqkit_wait_event_interruptible(sleep_wq, atomic_load(&release)), 0);
	pthread_join(th, NULL);
	assert_log_lacks("blocked for more than");

	atomic_store(&release, 0);
	pthread_create(&th, NULL, wake_after_report, "in an uninterruptible sleep (schedule())");
	irqkit_wait_event(sleep_wq, atomic_load(&release));
	pthread_join(th, NULL);
	assert_log_contains("blocked for more than 1 seconds.");
	assert_log_contains("in an uninterruptible sleep (schedule())");
}

static int deaf_kthread(void *arg)
{
	(void)arg;
	spin_until_released();
	return 0;
}

static void test_blocked_kthread_stop_is_reported(void **state)
{
	struct irqkit_task *k;
	pthread_t th;

	(void)state;
	k = irqkit_kthread_create(deaf_kthread, NULL, "deafkt");
	assert_false(irqkit_is_err(k));
	irqkit_wake_up_process(k);
	assert_true(wait_until(atomic_load(&entered) == 1, 5000));
	pthread_create(&th, NULL, release_after_report, "kthread_stop() waits for kthread deafkt");
	assert_int_equal(irqkit_kthread_stop(k), 0);
	pthread_join(th, NULL);
	assert_log_contains("blocked for more than 1 seconds.");
}

static void *stopper(void *arg)
{
	(void)arg;
	irqkit_stop();
	return NULL;
}

static void test_stop_waiting_for_a_work_item_is_reported(void **state)
{
	static struct irqkit_work w;
	pthread_t th;

	(void)state;
	run_stuck_work(&w);
	pthread_create(&th, NULL, stopper, NULL);
	assert_true(wait_until(log_contains("irqkit_stop() waits for work"), 5000));
	assert_log_contains("(stuck_work)");
	atomic_store(&release, 1);
	pthread_join(th, NULL);
	assert_false(irqkit_started());
}

/* exported: the report names it in a build without libdw too */
void self_freeing_work(struct irqkit_work *w);
void self_freeing_work(struct irqkit_work *w)
{
	memset(w, 0xa5, sizeof(*w));	/* what an allocator may leave there */
	free(w);
	spin_until_released();
}

/*
 * A running item may free itself (Linux allows it): the report of a stop
 * waiting for it names the function recorded when the item started, and
 * never reads the item (ASan would see a use after free, and the name would
 * be garbage).
 */
static void test_stop_waiting_for_an_item_that_freed_itself(void **state)
{
	struct irqkit_work *w = malloc(sizeof(*w));
	pthread_t th;

	(void)state;
	irqkit_init_work(w, self_freeing_work);
	assert_true(irqkit_schedule_work(w));
	assert_true(wait_until(atomic_load(&entered) == 1, 5000));
	pthread_create(&th, NULL, stopper, NULL);
	assert_true(wait_until(log_contains("irqkit_stop() waits for work"), 5000));
	assert_log_contains("(self_freeing_work)");
	atomic_store(&release, 1);
	pthread_join(th, NULL);
	assert_false(irqkit_started());
}

/* Every worker of CPU 0's pool blocked, one more item waiting: the pool is stuck. */
static void test_workqueue_lockup_is_reported(void **state)
{
	static struct irqkit_work items[40];

	(void)state;
	for (int i = 0; i < 40; i++) {
		irqkit_init_work(&items[i], stuck_work);
		assert_true(irqkit_queue_work_on(0, irqkit_system_wq(), &items[i]));
	}
	assert_true(wait_until(log_contains("pending: stuck_work"), 10000));
	assert_log_contains("BUG: workqueue lockup - pool cpus=0 node=0 flags=0x0 nice=0 stuck for");
	assert_log_contains("in-flight: ");
	atomic_store(&release, 1);
	for (int i = 0; i < 40; i++)
		irqkit_flush_work(&items[i]);
}

/* kworker/0:N, not the high-priority kworker/0:NH */
static int kworkers_of_cpu0(void)
{
	return nr_threads_named("kworker/0:", "H");
}

static atomic_int slept;

static void short_sleep_work(struct irqkit_work *w)
{
	(void)w;
	usleep(20000);
	atomic_fetch_add(&slept, 1);
}

static void test_idle_workers_beyond_the_spare_are_reaped(void **state)
{
	static struct irqkit_work items[8];

	(void)state;
	irqkit_stop();
	assert_int_equal(setup_wd(WD_MS, 100), 0);
	atomic_store(&slept, 0);
	for (int i = 0; i < 8; i++) {
		irqkit_init_work(&items[i], short_sleep_work);
		assert_true(irqkit_queue_work_on(0, irqkit_system_wq(), &items[i]));
	}
	assert_true(wait_until(atomic_load(&slept) == 8, 5000));
	assert_true(kworkers_of_cpu0() > 2);		/* the burst grew the pool */
	/* 100 ms idle each, then reaped; the watchdog joins them; one spare stays */
	assert_true(wait_until(kworkers_of_cpu0() == 1, 5000));
	/* and the pool still works */
	atomic_store(&slept, 0);
	assert_true(irqkit_queue_work_on(0, irqkit_system_wq(), &items[0]));
	assert_true(wait_until(atomic_load(&slept) == 1, 5000));
}

static void test_stop_returns_past_a_handler_that_never_returns(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), stuck_handler, 0, "stuck", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 1u << 1), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_true(wait_until(atomic_load(&entered) == 1, 5000));
	irqkit_stop();				/* returns after twice the threshold */
	assert_log_contains("irqkit_stop: vcpu/1 did not stop: CPU#1 is stuck in stuck_handler");
	assert_false(irqkit_started());
	assert_int_equal(irqkit_start(NULL), -IRQKIT_EBUSY);
	assert_log_contains("irqkit_start: the last irqkit_stop() left a CPU stuck");
	atomic_store(&release, 1);
	irqkit_stop();				/* now it finishes */
	assert_int_equal(setup_wd(WD_MS, 0), 0);
	assert_true(irqkit_started());
}

/*
 * A callback stuck on CPU 1: stop returns, refused with @report and the
 * runtime left as it is; once the callback returns, stop finishes.
 */
static void stop_is_refused_until_released(const char *report)
{
	assert_true(wait_until(atomic_load(&entered) == 1, 5000));
	irqkit_stop();
	assert_log_contains(report);
	assert_false(irqkit_started());
	atomic_store(&release, 1);
	irqkit_stop();
	assert_int_equal(setup_wd(WD_MS, 0), 0);
}

static void test_stop_returns_past_a_tasklet_that_never_returns(void **state)
{
	static struct irqkit_tasklet t;

	(void)state;
	schedule_stuck_tasklet_on_cpu1(&t);
	stop_is_refused_until_released("irqkit_stop: ksoftirqd/1 did not stop: CPU#1 is stuck in stuck_tasklet_fn");
}

/* exported: the report names it in a build without libdw too */
void stuck_timer_fn(struct irqkit_timer_list *t);
void stuck_timer_fn(struct irqkit_timer_list *t)
{
	(void)t;
	spin_until_released();
}

static void noop_item(struct irqkit_work *w)
{
	(void)w;
}

/*
 * A timer callback that never returns, run by an idle kworker that is its
 * CPU's timer: stop returns, as past a stuck ksoftirqd, instead of waiting
 * for ever to join that worker.
 */
static void test_stop_returns_past_a_timer_that_never_returns_on_a_kworker(void **state)
{
	static struct irqkit_timer_list t;
	struct irqkit_work w;

	(void)state;
	irqkit_init_work(&w, noop_item);
	assert_true(irqkit_queue_work_on(1, irqkit_system_wq(), &w));
	irqkit_flush_work(&w);
	usleep(20000);			/* the worker asleep: CPU 1's timer */
	irqkit_timer_setup(&t, stuck_timer_fn, 0);
	assert_int_equal(irqkit_thread_bind(1), 0);
	irqkit_mod_timer(&t, irqkit_jiffies() + irqkit_msecs_to_jiffies(5));
	assert_int_equal(irqkit_thread_unbind(), 0);
	stop_is_refused_until_released("irqkit_stop: CPU#1 is stuck in stuck_timer_fn in softirq context");
}

static void test_watchdog_off_reports_nothing(void **state)
{
	(void)state;
	irqkit_stop();
	assert_int_equal(setup_wd(IRQKIT_WATCHDOG_OFF, 0), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), stuck_handler, 0, "stuck", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 1u << 1), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_true(wait_until(atomic_load(&entered) == 1, 5000));
	usleep(3 * WD_MS * 1000);
	assert_log_lacks("soft lockup");
	atomic_store(&release, 1);
}

/* ---- hard lockup: interrupts off with interrupts waiting ------------------------- */

/* Interrupts off on a thread bound to CPU 0 while line 1 waits for it: named. */
static void hard_lockup_of_the_caller(void)
{
	unsigned long flags;
	char who[64];

	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "waiting", &a), 0);
	a.ret = IRQKIT_HANDLED;
	flags = irqkit_local_irq_save();
	irqkit_sw_raise(T_EDGE(1));		/* latched: interrupts are off */
	assert_int_equal(atomic_load(&a.calls), 0);
	/* a driver that waits with interrupts off for what its handler would do */
	assert_true(wait_until(log_contains("watchdog: Watchdog detected hard LOCKUP on cpu 0"),
			       5000));
	assert_true(wait_until(log_contains("interrupts off for"), 5000));
	snprintf(who, sizeof(who), ":%d]", (int)gettid());
	assert_log_contains(who);
	irqkit_local_irq_restore(flags);	/* the line is taken here */
	assert_int_equal(atomic_load(&a.calls), 1);
	irqkit_free_irq(T_EDGE(1), &a);
}

static void test_hard_lockup_is_reported(void **state)
{
	(void)state;
	assert_int_equal(irqkit_thread_bind(0), 0);
	hard_lockup_of_the_caller();
	assert_int_equal(irqkit_thread_unbind(), 0);
}

/* Interrupts off with nothing waiting, or briefly: not a lockup. */
static void test_interrupts_off_with_nothing_waiting_is_no_lockup(void **state)
{
	unsigned long flags;

	(void)state;
	assert_int_equal(irqkit_thread_bind(0), 0);
	flags = irqkit_local_irq_save();
	usleep(3 * WD_MS * 1000);
	irqkit_local_irq_restore(flags);
	assert_int_equal(irqkit_thread_unbind(), 0);
	assert_log_lacks("hard LOCKUP");
}

/* Deterministic mode has the watchdog too: the thread that plays CPU 0 is named. */
static int setup_det(void **state)
{
	(void)state;
	alarm(60);
	atomic_store(&release, 0);
	atomic_store(&entered, 0);
	tdev_init(&a);
	return start_world_cfg((struct irqkit_config){ .nr_irqs = T_NR_IRQS, .nr_cpus = 2,
						       .mode = IRQKIT_MODE_DETERMINISTIC,
						       .watchdog_ms = WD_MS });
}

static void test_hard_lockup_in_deterministic_mode(void **state)
{
	(void)state;
	hard_lockup_of_the_caller();
}

static void *release_on_report(void *arg)
{
	(void)arg;
	if (wait_until(log_contains("in hardirq: irq 1 handler"), 5000))
		atomic_store(&release, 1);
	return NULL;
}

static void test_soft_lockup_in_deterministic_mode(void **state)
{
	pthread_t th;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), stuck_handler, 0, "stuck", &a), 0);
	assert_int_equal(pthread_create(&th, NULL, release_on_report, NULL), 0);
	irqkit_sw_raise(T_EDGE(1));		/* this thread runs the handler: it spins */
	pthread_join(th, NULL);
	assert_log_contains("watchdog: BUG: soft lockup - CPU#0 stuck for");
	assert_log_contains("in hardirq: irq 1 handler stuck_handler");
	irqkit_free_irq(T_EDGE(1), &a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_soft_lockup_in_a_handler_is_reported),
		T(test_stack_of_another_thread_leaves_the_programs_sigurg_alone),
		T(test_soft_lockup_in_a_tasklet_is_reported),
		T(test_blocked_synchronize_irq_is_reported),
		T(test_blocked_flush_work_is_reported),
		T(test_hung_task_watches_only_uninterruptible_sleeps),
		T(test_blocked_kthread_stop_is_reported),
		T(test_stop_waiting_for_a_work_item_is_reported),
		T(test_stop_waiting_for_an_item_that_freed_itself),
		T(test_workqueue_lockup_is_reported),
		T(test_idle_workers_beyond_the_spare_are_reaped),
		T(test_stop_returns_past_a_handler_that_never_returns),
		T(test_stop_returns_past_a_tasklet_that_never_returns),
		T(test_stop_returns_past_a_timer_that_never_returns_on_a_kworker),
		T(test_watchdog_off_reports_nothing),
		T(test_hard_lockup_is_reported),
		T(test_interrupts_off_with_nothing_waiting_is_no_lockup),
		cmocka_unit_test_setup_teardown(test_hard_lockup_in_deterministic_mode, setup_det,
						teardown),
		cmocka_unit_test_setup_teardown(test_soft_lockup_in_deterministic_mode, setup_det,
						teardown),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
