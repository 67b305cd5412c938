// SPDX-License-Identifier: MIT
/* Tests of src/core/irq/spurious.c: note_interrupt, "nobody cared", the poll, and the ways back. */
#include "../../harness.h"
#include "../../testchip.h"

#include <stdatomic.h>
#include <stdlib.h>
#if T_CPUS_ARE_THREADS
#include <sched.h>
#endif
#include <unistd.h>

#define MS	1000000ull

static struct tdev a, b;

static int setup(void **state)
{
	tdev_init(&a);
	tdev_init(&b);
	return det_setup(state);
}

static int level_of(const char *needle)
{
	int i = log_find(needle, 0);

	return i < 0 ? -1 : logcap.levels[i];
}

/* ---- 3.2 bogus return values ----------------------------------------------------------- */

static void test_bogus_return_value_is_reported_and_not_counted(void **state)
{
	(void)state;
	a.ret = 7;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_fixed_handler, 0, "a", &a), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_log_contains("irq event 1: bogus return value 7");
	assert_log_contains("handlers:");
	assert_log_contains("] tdev_fixed_handler");
	assert_log_contains("Call Trace:");
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 0);
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 0);
	/* 3 (HANDLED | WAKE_THREAD) is the largest value that is not bogus */
	a.ret = 4;
	irqkit_sw_raise(T_EDGE(1));
	assert_log_contains("irq event 1: bogus return value 4");
}

static void test_bogus_reports_are_capped_at_100_in_all(void **state)
{
	(void)state;
	a.ret = 0x10;
	b.ret = 0x20;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_fixed_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_fixed_handler, 0, "b", &b), 0);
	for (int i = 0; i < 60; i++) {
		irqkit_sw_raise(T_EDGE(1));
		irqkit_sw_raise(T_EDGE(2));
	}
	assert_int_equal(atomic_load(&a.calls) + atomic_load(&b.calls), 120);
	assert_int_equal(log_count("bogus return value"), 100);
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 0);
}

/* ---- 3.3 deferral of WAKE_THREAD ----------------------------------------------------------- */

static void test_pure_wake_thread_verdict_is_deferred_to_next_interrupt(void **state)
{
	(void)state;
	a.ret = IRQKIT_WAKE_THREAD;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_fixed_handler, 0, "a", &a), 0);
	irqkit_sw_raise(T_EDGE(1));
	/* first: deferred, not counted */
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 0);
	irqkit_sw_raise(T_EDGE(1));
	/* second: no thread handled anything since: unhandled */
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 1);
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 1);
	/* WAKE_THREAD | HANDLED: handled, deferral cleared */
	a.ret = IRQKIT_WAKE_THREAD | IRQKIT_HANDLED;
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 2);
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 1);
	a.ret = IRQKIT_WAKE_THREAD;
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 2);	/* deferred again */
}

#if T_CPUS_ARE_THREADS
/*
 * A thread woken by this interrupt that is done before the interrupt's
 * accounting (on a CPU it runs only after the hardirq; here it runs at
 * once on a thread of its own) does not count for the interrupt that woke
 * it: the verdict is on what the threads did before.  The second action of
 * the shared line waits in its handler until the first one's thread is
 * done, which makes that order certain.
 */
static atomic_int thread_calls;
static const enum irqkit_irqreturn thread_script[] = {
	IRQKIT_HANDLED, IRQKIT_HANDLED, IRQKIT_NONE, IRQKIT_HANDLED,
};

static enum irqkit_irqreturn wake_primary(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQKIT_WAKE_THREAD;
}

static enum irqkit_irqreturn scripted_thread(int irq, void *dev_id)
{
	int n = atomic_fetch_add(&thread_calls, 1);

	(void)irq;
	(void)dev_id;
	return thread_script[n % 4];
}

static enum irqkit_irqreturn wait_for_thread(int irq, void *dev_id)
{
	struct irqkit_desc *desc = irqkit_irq_to_desc((unsigned int)irq);

	(void)dev_id;
	for (int i = 0; i < 10000000 && __atomic_load_n(&desc->threads_active, __ATOMIC_ACQUIRE); i++)
		sched_yield();
	return IRQKIT_NONE;
}

static void test_thread_done_before_the_accounting_counts_for_the_next(void **state)
{
	unsigned int irq = T_EDGE(1);
	struct irqkit_desc *desc = irqkit_irq_to_desc(irq);

	(void)state;
	atomic_store(&thread_calls, 0);
	assert_int_equal(irqkit_request_threaded_irq(irq, wake_primary, scripted_thread,
						     IRQKIT_F_SHARED, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(irq, wait_for_thread, IRQKIT_F_SHARED, "b", &b), 0);
	irqkit_sw_raise(irq);		/* deferred; its thread handles */
	irqkit_synchronize_irq(irq);
	assert_int_equal(__atomic_load_n(&desc->threads_handled, __ATOMIC_ACQUIRE), 1);
	irqkit_sw_raise(irq);		/* the first thread handled: handled; its own handles */
	irqkit_synchronize_irq(irq);
	assert_int_equal(info_of(irq).irqs_unhandled, 0);
	irqkit_sw_raise(irq);		/* the second handled: handled; its own does not */
	irqkit_synchronize_irq(irq);
	assert_int_equal(info_of(irq).irqs_unhandled, 0);
	irqkit_sw_raise(irq);		/* the third did not: unhandled */
	irqkit_synchronize_irq(irq);
	assert_int_equal(atomic_load(&thread_calls), 4);
	assert_int_equal(info_of(irq).irqs_unhandled, 1);
	irqkit_free_irq(irq, &b);
	irqkit_free_irq(irq, &a);
}
#endif

/* ---- 3.4 the 100 ms reset ------------------------------------------------------------------ */

static void test_unhandled_count_restarts_at_1_after_100ms(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_fixed_handler, 0, "a", &a), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 1);
	irqkit_clock_advance(100 * MS);		/* exactly HZ/10 later: not after */
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 2);
	irqkit_clock_advance(101 * MS);		/* more than HZ/10: restart at 1 */
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 1);
	assert_int_equal(info_of(T_EDGE(1)).last_unhandled, IRQKIT_INITIAL_JIFFIES(irqkit_hz()) + 201);
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 3);
}

/* ---- 3.6 / 3.7 window and threshold ------------------------------------------------------------ */

/* NONE for the first @unhandled interrupts, HANDLED after. */
static int unhandled_quota;

static void quota_hook(struct tdev *dev, int irq)
{
	(void)irq;
	dev->ret = atomic_load(&dev->calls) <= unhandled_quota ? IRQKIT_NONE : IRQKIT_HANDLED;
}

static void run_window(int unhandled)
{
	unhandled_quota = unhandled;
	a.hook = quota_hook;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_fixed_handler, IRQKIT_F_SHARED, "a", &a),
			 0);
	for (int i = 0; i < 100000; i++)
		irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.calls), 100000);
}

static void test_99900_unhandled_in_100000_is_not_stuck(void **state)
{
	struct irqkit_irq_info info;

	(void)state;
	run_window(99900);
	info = info_of(T_EDGE(1));
	assert_false(info.spurious_disabled);
	assert_false(info.disabled);
	assert_int_equal(info.irq_count, 0);		/* the window restarted */
	assert_int_equal(info.irqs_unhandled, 0);
	assert_log_lacks("nobody cared");
	atomic_store(&a.status, 1);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.calls), 100001);
}

static void test_99901_unhandled_in_100000_disables_the_line(void **state)
{
	struct irqkit_irq_info info;

	(void)state;
	run_window(99901);
	info = info_of(T_EDGE(1));
	assert_true(info.spurious_disabled);
	assert_true(info.disabled);
	assert_int_equal(info.depth, 1);
	assert_int_equal(info.irqs_unhandled, 0);
	assert_log_contains("irq 1: nobody cared (try booting with the \"irqpoll\" option)");
	assert_int_equal(level_of("nobody cared"), IRQKIT_LOG_ERR);
	assert_true(log_find("handlers:", log_find("nobody cared", 0)) > 0);
	assert_log_contains("] tdev_fixed_handler");
	assert_log_contains("Disabling IRQ #1");
	assert_int_equal(level_of("Disabling IRQ #1"), IRQKIT_LOG_EMERG);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.calls), 100000);
	assert_true(info_of(T_EDGE(1)).pending);
}

static void test_window_counts_handled_interrupts_too(void **state)
{
	(void)state;
	/* 1 unhandled then 99,999 handled: every interrupt moves the window */
	run_window(1);
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 0);
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 1);
}

/* HANDLED for the first 100 interrupts, NONE for the next 99,901, HANDLED after. */
static void late_storm_hook(struct tdev *dev, int irq)
{
	int calls = atomic_load(&dev->calls);

	(void)irq;
	dev->ret = calls > 100 && calls <= 100 + 99901 ? IRQKIT_NONE : IRQKIT_HANDLED;
}

/* 100 handled, 99,901 unhandled, 99 handled: 100,100 interrupts in all. */
static void run_late_storm(void)
{
	a.hook = late_storm_hook;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_fixed_handler, 0, "a", &a), 0);
	for (int i = 0; i < 100100; i++)
		irqkit_sw_raise(T_EDGE(1));
}

static void test_window_counts_every_interrupt_by_default(void **state)
{
	(void)state;
	/* the window closes at the 100,000th interrupt with 99,900 unhandled in it */
	run_late_storm();
	assert_false(info_of(T_EDGE(1)).spurious_disabled);
	assert_int_equal(atomic_load(&a.calls), 100100);
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 100);
	assert_log_lacks("nobody cared");
}

static void test_window_from_unhandled_starts_at_the_first_unhandled(void **state)
{
	(void)state;
	det_teardown(NULL);
	assert_int_equal(det_setup_flags(IRQKIT_CFG_WINDOW_FROM_UNHANDLED), 0);
	a.ret = IRQKIT_HANDLED;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_fixed_handler, 0, "a", &a), 0);
	for (int i = 0; i < 5; i++)
		irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 0);
	a.ret = IRQKIT_NONE;
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 1);
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 1);
	a.ret = IRQKIT_HANDLED;
	irqkit_sw_raise(T_EDGE(1));
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 3);
}

static void test_window_from_unhandled_catches_a_late_storm(void **state)
{
	(void)state;
	det_teardown(NULL);
	assert_int_equal(det_setup_flags(IRQKIT_CFG_WINDOW_FROM_UNHANDLED), 0);
	/* the window opens at interrupt 101 and closes at the last, 99,901 unhandled in it */
	run_late_storm();
	assert_true(info_of(T_EDGE(1)).spurious_disabled);
	assert_int_equal(atomic_load(&a.calls), 100100);
	assert_log_contains("irq 1: nobody cared");
	assert_log_contains("Disabling IRQ #1");
}

static void test_stuck_level_line_is_disabled_and_others_still_served(void **state)
{
	(void)state;
	/* the device holds its level line asserted; nobody claims it */
	assert_int_equal(irqkit_request_irq(T_LEVEL(1), tdev_fixed_handler, 0, "stuck", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, 0, "good", &b), 0);
	irqkit_sw_set_level(T_LEVEL(1), true);
	assert_int_equal(atomic_load(&a.calls), 100000);
	assert_true(info_of(T_LEVEL(1)).spurious_disabled);
	assert_true(info_of(T_LEVEL(1)).masked);
	assert_log_contains("irq 17: nobody cared");
	assert_log_contains("Disabling IRQ #17");
	atomic_store(&b.status, 1);
	irqkit_sw_raise(T_EDGE(2));
	assert_int_equal(atomic_load(&b.handled), 1);
}

/* ---- 3.8 the poll ----------------------------------------------------------------------------------- */

static void note_context(struct tdev *dev, int irq)
{
	(void)irq;
	if (irqkit_in_serving_softirq())
		dev->arg = (void *)1;
}

static void disable_as_spurious(unsigned int irq, struct tdev *dev, unsigned long flags)
{
	assert_int_equal(irqkit_request_irq(irq, tdev_fixed_handler, flags, "a", dev), 0);
	for (int i = 0; i < 100000; i++)
		irqkit_sw_raise(irq);
	assert_true(info_of(irq).spurious_disabled);
}

static void test_poll_runs_spurious_disabled_shared_line_every_100ms(void **state)
{
	int calls, bcalls;

	(void)state;
	b.hook = note_context;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_fixed_handler, IRQKIT_F_SHARED, "b", &b),
			 0);
	disable_as_spurious(T_EDGE(1), &a, IRQKIT_F_SHARED);
	b.ret = IRQKIT_HANDLED;		/* the poll finds b's device: still not counted */
	calls = atomic_load(&a.calls);
	bcalls = atomic_load(&b.calls);
	irqkit_clock_advance(99 * MS);
	assert_int_equal(atomic_load(&a.calls), calls);
	irqkit_clock_advance(1 * MS);
	assert_int_equal(atomic_load(&a.calls), calls + 1);
	assert_int_equal(atomic_load(&b.calls), bcalls + 1);
	assert_ptr_equal(b.arg, (void *)1);		/* from the timer: softirq context */
	/* it re-arms itself and never re-enables the line */
	irqkit_clock_advance(300 * MS);
	assert_int_equal(atomic_load(&a.calls), calls + 4);
	assert_true(info_of(T_EDGE(1)).disabled);
	assert_true(info_of(T_EDGE(1)).spurious_disabled);
	/* polling does not count toward the window */
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 0);
}

static void test_poll_skips_lines_that_are_not_shared(void **state)
{
	int calls;

	(void)state;
	disable_as_spurious(T_EDGE(1), &a, 0);
	calls = atomic_load(&a.calls);
	irqkit_clock_advance(500 * MS);
	assert_int_equal(atomic_load(&a.calls), calls);
}

/*
 * 2.2: a flow that finds the line in progress because the poll runs it waits
 * for the poll (irq_wait_for_poll), then finds the line disabled and leaves
 * it pending.
 */
static atomic_int helper_done;
static atomic_int poll_returned;

static void *cpu1_takes_the_line(void *arg)
{
	(void)arg;
	assert_int_equal(irqkit_cpu_run(1), 0);
	atomic_store(&helper_done, atomic_load(&poll_returned) ? 1 : 2);
	return NULL;
}

static pthread_t helper;

static void signal_cpu1_during_poll(struct tdev *dev, int irq)
{
	if (!irqkit_in_serving_softirq() || dev->arg)
		return;
	dev->arg = (void *)1;
	irqkit_cpu_signal(1, (unsigned int)irq);
	pthread_create(&helper, NULL, cpu1_takes_the_line, NULL);
	usleep(50000);
	/* CPU 1 found the line in progress: it must still be waiting */
	assert_int_equal(atomic_load(&helper_done), 0);
	atomic_store(&poll_returned, 1);	/* from here on CPU 1 may go */
}

static void test_flow_waits_for_a_running_poll(void **state)
{
	(void)state;
	atomic_store(&helper_done, 0);
	atomic_store(&poll_returned, 0);
	/* a chip without a claim: CPU 1 runs the flow whatever the line's state */
	testchip_attach(T_NOCHIP, &tchip_plain, irqkit_handle_edge_irq);
	b.hook = signal_cpu1_during_poll;
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_fixed_handler, IRQKIT_F_SHARED, "b", &b),
			 0);
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_fixed_handler, IRQKIT_F_SHARED, "a", &a),
			 0);
	for (int i = 0; i < 100000; i++)
		testchip_fire(T_NOCHIP);
	assert_true(info_of(T_NOCHIP).spurious_disabled);
	irqkit_clock_advance(100 * MS);
	pthread_join(helper, NULL);
	assert_int_equal(atomic_load(&helper_done), 1);
	assert_true(info_of(T_NOCHIP).pending);	/* disabled: left pending */
}

/* ---- 3.9 the three ways back -------------------------------------------------------------------------- */

static void test_back_a_another_shared_request_reenables(void **state)
{
	struct irqkit_irq_info info;

	(void)state;
	disable_as_spurious(T_EDGE(1), &a, IRQKIT_F_SHARED);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "b", &b), 0);
	info = info_of(T_EDGE(1));
	assert_false(info.spurious_disabled);
	assert_false(info.disabled);
	assert_int_equal(info.depth, 0);
	atomic_store(&b.status, 1);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&b.handled), 1);
}

static void test_back_b_free_all_and_request_again(void **state)
{
	struct irqkit_irq_info info;

	(void)state;
	disable_as_spurious(T_EDGE(1), &a, 0);
	irqkit_free_irq(T_EDGE(1), &a);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "b", &b), 0);
	info = info_of(T_EDGE(1));
	assert_false(info.spurious_disabled);
	assert_int_equal(info.depth, 0);
	atomic_store(&b.status, 1);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&b.handled), 1);
}

static void test_back_c_enable_irq_reenables_but_keeps_the_flag(void **state)
{
	struct irqkit_irq_info info;
	int calls;

	(void)state;
	disable_as_spurious(T_EDGE(1), &a, 0);
	calls = atomic_load(&a.calls);
	irqkit_enable_irq(T_EDGE(1));
	info = info_of(T_EDGE(1));
	assert_int_equal(info.depth, 0);
	assert_false(info.disabled);
	assert_true(info.spurious_disabled);
	irqkit_sw_raise(T_EDGE(1));
	assert_true(atomic_load(&a.calls) > calls);
}

/* ---- 3.1 lines that are not accounted, 3.10 ----------------------------------------------------------- */

static void test_noirqdebug_turns_detection_off(void **state)
{
	(void)state;
	det_teardown(NULL);
	assert_int_equal(det_setup_flags(IRQKIT_CFG_NOIRQDEBUG), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_fixed_handler, 0, "a", &a), 0);
	for (int i = 0; i < 100001; i++)
		irqkit_sw_raise(T_EDGE(1));
	assert_false(info_of(T_EDGE(1)).spurious_disabled);
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 0);
	assert_int_equal(atomic_load(&a.calls), 100001);
}

static void test_polled_line_is_not_accounted(void **state)
{
	(void)state;
	irqkit_irq_modify_status(T_EDGE(1), 0, IRQKIT_IRQ_IS_POLLED);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_fixed_handler, 0, "a", &a), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 0);
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 0);
}

static void test_no_debug_percpu_line_is_not_accounted(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_fixed_handler,
					    IRQKIT_F_PERCPU | IRQKIT_F_NO_DEBUG, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_fixed_handler, IRQKIT_F_NO_DEBUG, "b",
					    &b), 0);
	irqkit_sw_raise(T_EDGE(1));
	irqkit_sw_raise(T_EDGE(2));
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 0);
	/* NO_DEBUG only counts on a per-CPU line */
	assert_int_equal(info_of(T_EDGE(2)).irq_count, 1);
}

static void test_spurious_file_format(void **state)
{
	char buf[128], want[128];

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_fixed_handler, 0, "a", &a), 0);
	irqkit_clock_advance(250 * MS);
	irqkit_sw_raise(T_EDGE(1));
	irqkit_sw_raise(T_EDGE(1));
	assert_true(irqkit_show_spurious_buf(T_EDGE(1), buf, sizeof(buf)) > 0);
	/* as Linux: jiffies_to_msecs() of the jiffies value, INITIAL_JIFFIES included */
	snprintf(want, sizeof(want), "count 2\nunhandled 2\nlast_unhandled %u ms\n",
		 irqkit_jiffies_to_msecs(IRQKIT_INITIAL_JIFFIES(irqkit_hz()) + 250));
	assert_string_equal(buf, want);
	assert_int_equal(irqkit_show_spurious_buf(T_NR_IRQS, buf, sizeof(buf)), -IRQKIT_EINVAL);
}

/* ---- 3.5 irqfixup and irqpoll ------------------------------------------------------------- */

/*
 * Device b sits on line 2 but its interrupts come on line 1 (wired to the
 * wrong line), where device a's handler finds nothing to do.
 */
static void wire_b_to_the_wrong_line(unsigned int flags_a, unsigned int flags_b)
{
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, flags_a, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, flags_b, "b", &b), 0);
}

static void b_interrupts_on_line_1(int n)
{
	for (int i = 0; i < n; i++) {
		atomic_store(&b.status, 1);
		irqkit_sw_raise(T_EDGE(1));
	}
}

static void test_misrouted_device_is_nobody_cared_without_irqfixup(void **state)
{
	(void)state;
	wire_b_to_the_wrong_line(IRQKIT_F_SHARED, IRQKIT_F_SHARED);
	b_interrupts_on_line_1(100000);
	assert_int_equal(atomic_load(&b.handled), 0);
	assert_log_contains("irq 1: nobody cared (try booting with the \"irqpoll\" option)");
	assert_true(info_of(T_EDGE(1)).spurious_disabled);
	assert_log_lacks("Misrouted IRQ fixup");
}

static void test_irqfixup_serves_a_misrouted_device(void **state)
{
	(void)state;
	det_teardown(NULL);
	assert_int_equal(det_setup_flags(IRQKIT_CFG_IRQFIXUP), 0);
	assert_log_contains("Misrouted IRQ fixup support enabled.");
	assert_log_contains("This may impact system performance.");
	assert_int_equal(level_of("Misrouted IRQ fixup support enabled."), IRQKIT_LOG_WARNING);
	wire_b_to_the_wrong_line(IRQKIT_F_SHARED, IRQKIT_F_SHARED);
	b_interrupts_on_line_1(100000);
	/* every interrupt found its device on line 2: handled, so the line stays */
	assert_int_equal(atomic_load(&b.handled), 100000);
	assert_int_equal(atomic_load(&a.handled), 0);
	assert_false(info_of(T_EDGE(1)).spurious_disabled);
	assert_log_lacks("nobody cared");
	/* b's own line saw no interrupt of its own: its window did not move */
	assert_int_equal(info_of(T_EDGE(2)).irq_count, 0);
}

/* Only shared lines are tried (their handlers must check their device); not disabled ones. */
static void test_irqfixup_tries_only_enabled_shared_lines(void **state)
{
	(void)state;
	det_teardown(NULL);
	assert_int_equal(det_setup_flags(IRQKIT_CFG_IRQFIXUP), 0);
	wire_b_to_the_wrong_line(IRQKIT_F_SHARED, 0);
	b_interrupts_on_line_1(3);
	assert_int_equal(atomic_load(&b.calls), 0);
	irqkit_free_irq(T_EDGE(2), &b);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, IRQKIT_F_SHARED, "b", &b), 0);
	irqkit_disable_irq(T_EDGE(2));
	b_interrupts_on_line_1(3);
	assert_int_equal(atomic_load(&b.calls), 0);
	irqkit_enable_irq(T_EDGE(2));
	b_interrupts_on_line_1(1);
	assert_int_equal(atomic_load(&b.handled), 1);
}

/*
 * irqfixup tries the other lines only after an unhandled interrupt; irqpoll
 * also after a handled one of an IRQF_IRQPOLL line (and of line 0).
 */
static void both_devices_interrupt_on_line_1(int n)
{
	for (int i = 0; i < n; i++) {
		atomic_store(&a.status, 1);
		atomic_store(&b.status, 1);
		irqkit_sw_raise(T_EDGE(1));
	}
}

static void test_irqfixup_leaves_handled_interrupts_alone(void **state)
{
	(void)state;
	det_teardown(NULL);
	assert_int_equal(det_setup_flags(IRQKIT_CFG_IRQFIXUP), 0);
	wire_b_to_the_wrong_line(IRQKIT_F_SHARED | IRQKIT_F_IRQPOLL, IRQKIT_F_SHARED);
	both_devices_interrupt_on_line_1(5);
	assert_int_equal(atomic_load(&a.handled), 5);
	assert_int_equal(atomic_load(&b.calls), 0);
}

static void test_irqpoll_polls_at_each_irqpoll_line_interrupt(void **state)
{
	(void)state;
	det_teardown(NULL);
	assert_int_equal(det_setup_flags(IRQKIT_CFG_IRQPOLL), 0);
	assert_log_contains("Misrouted IRQ fixup and polling support enabled");
	assert_log_contains("This may significantly impact system performance");
	wire_b_to_the_wrong_line(IRQKIT_F_SHARED | IRQKIT_F_IRQPOLL, IRQKIT_F_SHARED);
	both_devices_interrupt_on_line_1(5);
	assert_int_equal(atomic_load(&a.handled), 5);
	assert_int_equal(atomic_load(&b.handled), 5);
	/* a line without IRQF_IRQPOLL polls only when nobody handled */
	irqkit_free_irq(T_EDGE(1), &a);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "a", &a), 0);
	both_devices_interrupt_on_line_1(5);
	assert_int_equal(atomic_load(&b.handled), 5);
}

static void test_irqpoll_polls_at_each_line_0_interrupt(void **state)
{
	(void)state;
	det_teardown(NULL);
	assert_int_equal(det_setup_flags(IRQKIT_CFG_IRQPOLL), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(0), tdev_handler, 0, "timer", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, IRQKIT_F_SHARED, "b", &b), 0);
	atomic_store(&a.status, 1);
	atomic_store(&b.status, 1);
	irqkit_sw_raise(T_EDGE(0));
	assert_int_equal(atomic_load(&a.handled), 1);
	assert_int_equal(atomic_load(&b.handled), 1);
}

#if __STDC_HOSTED__	/* an environment: not on bare metal */
/* Named as the boot options: IRQKIT_IRQFIXUP=1, IRQKIT_IRQPOLL=1; 0 is off. */
static void test_irqfixup_and_irqpoll_from_the_environment(void **state)
{
	(void)state;
	det_teardown(NULL);
	setenv("IRQKIT_IRQFIXUP", "0", 1);
	assert_int_equal(det_setup(NULL), 0);
	assert_log_lacks("Misrouted IRQ fixup");
	det_teardown(NULL);
	setenv("IRQKIT_IRQFIXUP", "1", 1);
	assert_int_equal(det_setup(NULL), 0);
	unsetenv("IRQKIT_IRQFIXUP");
	assert_log_contains("Misrouted IRQ fixup support enabled.");
	wire_b_to_the_wrong_line(IRQKIT_F_SHARED, IRQKIT_F_SHARED);
	b_interrupts_on_line_1(2);
	assert_int_equal(atomic_load(&b.handled), 2);
	det_teardown(NULL);
	setenv("IRQKIT_IRQPOLL", "1", 1);
	assert_int_equal(det_setup(NULL), 0);
	unsetenv("IRQKIT_IRQPOLL");
	assert_log_contains("Misrouted IRQ fixup and polling support enabled");
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_bogus_return_value_is_reported_and_not_counted),
		T(test_bogus_reports_are_capped_at_100_in_all),
		T(test_pure_wake_thread_verdict_is_deferred_to_next_interrupt),
#if T_CPUS_ARE_THREADS
		T(test_thread_done_before_the_accounting_counts_for_the_next),
#endif
		T(test_unhandled_count_restarts_at_1_after_100ms),
		T(test_99900_unhandled_in_100000_is_not_stuck),
		T(test_99901_unhandled_in_100000_disables_the_line),
		T(test_window_counts_handled_interrupts_too),
		T(test_window_counts_every_interrupt_by_default),
		T(test_window_from_unhandled_starts_at_the_first_unhandled),
		T(test_window_from_unhandled_catches_a_late_storm),
		T(test_stuck_level_line_is_disabled_and_others_still_served),
		T(test_poll_runs_spurious_disabled_shared_line_every_100ms),
		T(test_poll_skips_lines_that_are_not_shared),
		T(test_flow_waits_for_a_running_poll),
		T(test_back_a_another_shared_request_reenables),
		T(test_back_b_free_all_and_request_again),
		T(test_back_c_enable_irq_reenables_but_keeps_the_flag),
		T(test_noirqdebug_turns_detection_off),
		T(test_polled_line_is_not_accounted),
		T(test_no_debug_percpu_line_is_not_accounted),
		T(test_spurious_file_format),
		T(test_misrouted_device_is_nobody_cared_without_irqfixup),
		T(test_irqfixup_serves_a_misrouted_device),
		T(test_irqfixup_tries_only_enabled_shared_lines),
		T(test_irqfixup_leaves_handled_interrupts_alone),
		T(test_irqpoll_polls_at_each_irqpoll_line_interrupt),
		T(test_irqpoll_polls_at_each_line_0_interrupt),
#if __STDC_HOSTED__
		T(test_irqfixup_and_irqpoll_from_the_environment),
#endif
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
