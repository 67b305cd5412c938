// SPDX-License-Identifier: MIT
/* Tests of the threaded-interrupt part of src/core/irq/manage.c, nested lines included. */
#define _GNU_SOURCE
#include "../../harness.h"
#include "../../testchip.h"

#include <unistd.h>

struct tdevice {
	atomic_int	status;
	atomic_int	primary_calls;
	atomic_int	thread_runs;
	atomic_int	gate;		/* the thread_fn waits while 0, if gated */
	bool		gated;
	atomic_int	in_thread;
	bool		thread_none;	/* the thread says IRQ_NONE (else IRQ_HANDLED) */
	unsigned int	lower_irq;	/* deassert this level line in the thread */
	char		thread_name[16];
	bool		task_ctx, bh_off, irqs_off;
	bool		masked_in_thread;
	void		(*hook)(struct tdevice *dev, int irq);
};

static struct tdevice d1, d2;

static enum irqkit_irqreturn primary(int irq, void *dev_id)
{
	struct tdevice *d = dev_id;

	(void)irq;
	atomic_fetch_add(&d->primary_calls, 1);
	return IRQKIT_WAKE_THREAD;
}

static enum irqkit_irqreturn thread_fn(int irq, void *dev_id)
{
	struct tdevice *d = dev_id;
	struct irqkit_irq_info info;

	atomic_fetch_add(&d->in_thread, 1);
	pthread_getname_np(pthread_self(), d->thread_name, sizeof(d->thread_name));
	d->task_ctx = irqkit_in_task();
	d->bh_off = irqkit_in_softirq();
	d->irqs_off = irqkit_irqs_disabled();
	irqkit_irq_get_info((unsigned int)irq, &info);
	d->masked_in_thread = info.masked;
	if (d->hook)
		d->hook(d, irq);
	while (d->gated && !atomic_load(&d->gate))
		usleep(100);
	if (d->lower_irq)
		irqkit_sw_set_level(d->lower_irq, false);
	atomic_fetch_sub(&d->in_thread, 1);
	atomic_fetch_add(&d->thread_runs, 1);
	return d->thread_none ? IRQKIT_NONE : IRQKIT_HANDLED;
}

static int setup(void **state)
{
	memset(&d1, 0, sizeof(d1));
	memset(&d2, 0, sizeof(d2));
	return det_setup(state);
}

static void test_thread_runs_in_its_own_process_context_thread(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), primary, thread_fn, 0, "mydev", &d1),
			 0);
	irqkit_sw_raise(T_EDGE(1));
	irqkit_synchronize_irq(T_EDGE(1));	/* waits for the thread too */
	assert_int_equal(atomic_load(&d1.primary_calls), 1);
	assert_int_equal(atomic_load(&d1.thread_runs), 1);
	assert_string_equal(d1.thread_name, "irq/1-mydev");
	assert_true(d1.task_ctx);
	assert_false(d1.irqs_off);
	assert_string_equal(irqkit_free_irq(T_EDGE(1), &d1), "mydev");
}

static void test_null_handler_needs_oneshot(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), NULL, NULL, 0, "x", &d1),
			 -IRQKIT_EINVAL);
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), NULL, thread_fn, 0, "x", &d1),
			 -IRQKIT_EINVAL);
	assert_log_contains("Threaded irq requested with handler=NULL and !ONESHOT for x (irq 1)");
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), NULL, thread_fn, IRQKIT_F_ONESHOT,
						     "x", &d1), 0);
	irqkit_sw_raise(T_EDGE(1));
	irqkit_synchronize_irq(T_EDGE(1));
	assert_int_equal(atomic_load(&d1.thread_runs), 1);	/* the default primary woke it */
}

extern int irqkit__plat_alloc_fail;

/* 1.4 step 5: the thread cannot be created -> that error, and nothing is installed */
static void test_thread_creation_failure_fails_the_request(void **state)
{
	(void)state;
	irqkit__plat_alloc_fail = 2;		/* the action, then the thread: the thread fails */
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), primary, thread_fn, 0, "x", &d1),
			 -IRQKIT_ENOMEM);
	assert_int_equal(irqkit__plat_alloc_fail, 0);
	assert_false(irqkit_irq_has_action(T_EDGE(1)));
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), primary, thread_fn, 0, "x", &d1),
			 0);
	irqkit_sw_raise(T_EDGE(1));
	irqkit_synchronize_irq(T_EDGE(1));
	assert_int_equal(atomic_load(&d1.thread_runs), 1);
}

static void test_oneshot_level_line_stays_masked_until_the_thread_is_done(void **state)
{
	(void)state;
	d1.lower_irq = T_LEVEL(1);
	assert_int_equal(irqkit_request_threaded_irq(T_LEVEL(1), NULL, thread_fn, IRQKIT_F_ONESHOT,
						     "lvl", &d1), 0);
	irqkit_sw_set_level(T_LEVEL(1), true);		/* the device asserts */
	irqkit_synchronize_irq(T_LEVEL(1));
	/* one hardirq, one thread run, even though the line stayed asserted until the thread */
	assert_int_equal(atomic_load(&d1.thread_runs), 1);
	assert_true(d1.masked_in_thread);
	assert_false(info_of(T_LEVEL(1)).masked);
	assert_int_equal(info_of(T_LEVEL(1)).count, 1);
}

/*
 * 1.12 on a fasteoi line: the line stays masked while the thread runs; a chip
 * with IRQCHIP_EOI_THREADED gets its EOI only when the thread is done, the
 * others at the end of the hardirq.
 */
static void check_fasteoi_oneshot(struct irqkit_chip *chip, int eoi_during_thread)
{
	int eoi_during;

	memset(&d1, 0, sizeof(d1));
	d1.gated = true;
	testchip_attach(T_NOCHIP, chip, irqkit_handle_fasteoi_irq);
	assert_int_equal(irqkit_request_threaded_irq(T_NOCHIP, NULL, thread_fn, IRQKIT_F_ONESHOT,
						     "eoi", &d1), 0);
	testchip_fire(T_NOCHIP);
	assert_true(wait_until(atomic_load(&d1.in_thread) == 1, 5000));
	eoi_during = tchip.eoi;
	assert_true(tchip.masked);
	atomic_store(&d1.gate, 1);
	irqkit_synchronize_irq(T_NOCHIP);
	assert_int_equal(eoi_during, eoi_during_thread);
	assert_int_equal(tchip.eoi, 1);
	assert_false(tchip.masked);
	irqkit_free_irq(T_NOCHIP, &d1);
}

static void test_fasteoi_oneshot_eoi_waits_for_the_thread_on_eoi_threaded_chips(void **state)
{
	(void)state;
	check_fasteoi_oneshot(&tchip_plain, 1);
	check_fasteoi_oneshot(&tchip_eoi_threaded, 0);
}

static void test_wakes_while_the_thread_runs_give_one_more_run(void **state)
{
	(void)state;
	d1.gated = true;
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), primary, thread_fn, 0, "x", &d1), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_true(wait_until(atomic_load(&d1.in_thread) == 1, 5000));
	for (int i = 0; i < 5; i++)
		irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&d1.primary_calls), 6);
	assert_false(irqkit_disable_hardirq(T_EDGE(1)));	/* a thread is active */
	irqkit_enable_irq(T_EDGE(1));
	atomic_store(&d1.gate, 1);
	irqkit_synchronize_irq(T_EDGE(1));
	assert_int_equal(atomic_load(&d1.thread_runs), 2);
	assert_true(irqkit_synchronize_hardirq(T_EDGE(1)));
}

static void *sync_in_thread(void *arg)
{
	irqkit_synchronize_irq((unsigned int)(uintptr_t)arg);
	return (void *)1;
}

static void test_synchronize_irq_waits_for_a_running_thread(void **state)
{
	pthread_t th;
	void *ret = NULL;

	(void)state;
	d1.gated = true;
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), primary, thread_fn, 0, "x", &d1), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_true(wait_until(atomic_load(&d1.in_thread) == 1, 5000));
	pthread_create(&th, NULL, sync_in_thread, (void *)(uintptr_t)T_EDGE(1));
	usleep(30000);
	assert_int_equal(atomic_load(&d1.thread_runs), 0);
	atomic_store(&d1.gate, 1);
	pthread_join(th, &ret);
	assert_int_equal(atomic_load(&d1.thread_runs), 1);	/* it returned after the run */
}

/*
 * One interrupt whose thread finishes only after the hardirq, note_interrupt
 * included, has returned: the thread is a real thread and, unbound from the
 * CPU as on another CPU in Linux, could otherwise finish first.
 */
static void raise_then_let_thread_run(unsigned int irq)
{
	atomic_store(&d1.gate, 0);
	irqkit_sw_raise(irq);
	atomic_store(&d1.gate, 1);
	irqkit_synchronize_irq(irq);
}

static void test_thread_results_feed_spurious_detection(void **state)
{
	(void)state;
	d1.gated = true;
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), primary, thread_fn, 0, "x", &d1), 0);
	raise_then_let_thread_run(T_EDGE(1));
	raise_then_let_thread_run(T_EDGE(1));	/* the thread handled the first: counted handled */
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 1);
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 0);
	d1.thread_none = true;
	raise_then_let_thread_run(T_EDGE(1));
	raise_then_let_thread_run(T_EDGE(1));	/* nothing handled since: unhandled */
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 1);
}

static void test_irq_wake_thread_runs_it_without_an_interrupt(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), primary, thread_fn, IRQKIT_F_SHARED,
						     "a", &d1), 0);
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), primary, thread_fn, IRQKIT_F_SHARED,
						     "b", &d2), 0);
	irqkit_irq_wake_thread(T_EDGE(1), &d2);
	irqkit_synchronize_irq(T_EDGE(1));
	assert_int_equal(atomic_load(&d1.thread_runs), 0);
	assert_int_equal(atomic_load(&d2.thread_runs), 1);
	assert_int_equal(atomic_load(&d2.primary_calls), 0);
}

static void test_oneshot_bits_run_out_at_bits_per_long(void **state)
{
	static struct tdevice many[sizeof(unsigned long) * 8 + 1];
	const int n = (int)(sizeof(unsigned long) * 8);

	(void)state;
	for (int i = 0; i < n; i++)
		assert_int_equal(irqkit_request_threaded_irq(T_EDGE(2), NULL, thread_fn,
							     IRQKIT_F_SHARED | IRQKIT_F_ONESHOT,
							     "m", &many[i]), 0);
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(2), NULL, thread_fn,
						     IRQKIT_F_SHARED | IRQKIT_F_ONESHOT, "m",
						     &many[n]), -IRQKIT_EBUSY);
	irqkit_sw_raise(T_EDGE(2));
	irqkit_synchronize_irq(T_EDGE(2));
	for (int i = 0; i < n; i++)
		assert_int_equal(atomic_load(&many[i].thread_runs), 1);
	for (int i = 0; i < n; i++)
		irqkit_free_irq(T_EDGE(2), &many[i]);
}

static void test_forced_threading_moves_the_handler_into_a_thread(void **state)
{
	(void)state;
	det_teardown(NULL);
	assert_int_equal(det_setup_flags(IRQKIT_CFG_THREADIRQS), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), thread_fn, 0, "forced", &d1), 0);
	irqkit_sw_raise(T_EDGE(1));
	irqkit_synchronize_irq(T_EDGE(1));
	assert_int_equal(atomic_load(&d1.thread_runs), 1);
	assert_string_equal(d1.thread_name, "irq/1-forced");
	assert_true(d1.bh_off);		/* 1.13: bottom halves and interrupts off */
	assert_true(d1.irqs_off);
	/* NO_THREAD keeps a handler in hardirq context */
	assert_int_equal(irqkit_request_irq(T_EDGE(2), thread_fn, IRQKIT_F_NO_THREAD, "hard", &d2),
			 0);
	irqkit_sw_raise(T_EDGE(2));
	assert_int_equal(atomic_load(&d2.thread_runs), 1);
	assert_false(d2.task_ctx);
}

static bool thread_named(const char *name);

/* What a forced primary saw of its context, in its thread. */
static char forced_primary_thread[16];
static bool forced_primary_task, forced_primary_irqs_off, forced_primary_bh_off;

static enum irqkit_irqreturn primary_noting(int irq, void *dev_id)
{
	pthread_getname_np(pthread_self(), forced_primary_thread, sizeof(forced_primary_thread));
	forced_primary_task = !irqkit_in_hardirq();
	forced_primary_irqs_off = irqkit_irqs_disabled();
	forced_primary_bh_off = irqkit_in_softirq();
	return primary(irq, dev_id);
}

/*
 * Linux's irq_setup_forced_threading for an action with a primary handler
 * and a thread function: the primary runs in irq/N-name (bottom halves and
 * interrupts off), the driver's thread function in a secondary thread
 * irq/N-s-name, woken when the primary returns IRQ_WAKE_THREAD; the line
 * stays masked until the primary's thread is done (ONESHOT); synchronize_irq
 * waits for the secondary too; free_irq ends both threads.  ONESHOT and
 * NO_THREAD actions are not split.
 */
static void test_forced_threading_splits_primary_and_thread_fn(void **state)
{
	(void)state;
	det_teardown(NULL);
	assert_int_equal(det_setup_flags(IRQKIT_CFG_THREADIRQS), 0);
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), primary_noting, thread_fn, 0,
						     "split", &d1), 0);
	/* each thread names itself as it starts */
	assert_true(wait_until(thread_named("irq/1-split") && thread_named("irq/1-s-split"), 5000));
	for (int i = 1; i <= 3; i++) {
		irqkit_sw_raise(T_EDGE(1));
		irqkit_synchronize_irq(T_EDGE(1));	/* the secondary's run too */
		assert_int_equal(atomic_load(&d1.primary_calls), i);
		assert_int_equal(atomic_load(&d1.thread_runs), i);
	}
	assert_string_equal(forced_primary_thread, "irq/1-split");
	assert_true(forced_primary_task);
	assert_true(forced_primary_irqs_off);
	assert_true(forced_primary_bh_off);
	assert_string_equal(d1.thread_name, "irq/1-s-split");
	{
		char tasks[4096];

		/* the task listing shows both threads, as ps shows Linux's */
		assert_true(irqkit_show_tasks_buf(tasks, sizeof(tasks)) > 0);
		assert_non_null(strstr(tasks, "[irq/1-split]"));
		assert_non_null(strstr(tasks, "[irq/1-s-split]"));
	}
	assert_true(d1.task_ctx);		/* the driver's thread function: as ever */
	assert_false(d1.irqs_off);
	assert_string_equal(irqkit_free_irq(T_EDGE(1), &d1), "split");
	assert_true(wait_until(!thread_named("irq/1-split") && !thread_named("irq/1-s-split"), 2000));
	/* ONESHOT: one thread, as requested; NO_THREAD: the primary stays in hardirq */
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(2), primary, thread_fn,
						     IRQKIT_F_ONESHOT, "one", &d2), 0);
	irqkit_sw_raise(T_EDGE(2));
	irqkit_synchronize_irq(T_EDGE(2));
	assert_string_equal(d2.thread_name, "irq/2-one");	/* not a secondary's */
	irqkit_free_irq(T_EDGE(2), &d2);
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(2), primary, thread_fn,
						     IRQKIT_F_NO_THREAD, "hard", &d2), 0);
	irqkit_sw_raise(T_EDGE(2));
	irqkit_synchronize_irq(T_EDGE(2));
	assert_string_equal(d2.thread_name, "irq/2-hard");
	assert_false(thread_named("irq/2-s-hard"));
	irqkit_free_irq(T_EDGE(2), &d2);
}

static void free_from_secondary(struct tdevice *d, int irq)
{
	(void)d;
	assert_string_equal(irqkit_free_irq((unsigned int)irq, d), "sfree");
}

/* free_irq from the driver's thread function, in the secondary thread: no hang, both end. */
static void test_free_irq_from_the_secondary_thread(void **state)
{
	(void)state;
	det_teardown(NULL);
	assert_int_equal(det_setup_flags(IRQKIT_CFG_THREADIRQS), 0);
	d1.hook = free_from_secondary;
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), primary, thread_fn, 0, "sfree",
						     &d1), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_true(wait_until(atomic_load(&d1.thread_runs) == 1, 5000));
	assert_false(irqkit_irq_has_action(T_EDGE(1)));
	assert_true(wait_until(!thread_named("irq/1-sfree") && !thread_named("irq/1-s-sfree"), 5000));
}

static void test_nested_line_runs_thread_fns_in_the_parent_thread(void **state)
{
	(void)state;
	irqkit_irq_modify_status(T_EDGE(3), 0, IRQKIT_IRQ_NESTED_THREAD);
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(3), primary, thread_fn, 0, "child", &d1),
			 0);
	irqkit_handle_nested_irq(T_EDGE(3));	/* the parent's thread, here: this one */
	assert_int_equal(atomic_load(&d1.thread_runs), 1);
	assert_true(d1.task_ctx);
	assert_int_equal(atomic_load(&d1.primary_calls), 0);
	irqkit_sw_raise(T_EDGE(3));		/* a primary call is a mistake here */
	assert_log_contains("Primary handler called for nested irq 3");
}

static void free_from_thread(struct tdevice *d, int irq)
{
	irqkit_synchronize_irq((unsigned int)irq);
	assert_string_equal(irqkit_free_irq((unsigned int)irq, d), "self");
}

static void test_free_irq_from_its_own_thread_does_not_hang(void **state)
{
	(void)state;
	d1.hook = free_from_thread;
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), primary, thread_fn, 0, "self", &d1),
			 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_true(wait_until(atomic_load(&d1.thread_runs) == 1, 5000));
	assert_log_contains("waiting for the threads of irq 1 from its own thread");
	assert_false(irqkit_irq_has_action(T_EDGE(1)));
	/* the thread ends and frees the action; stop joins it (ASan checks) */
}

static atomic_int freed;

static void *free_in_thread(void *arg)
{
	(void)arg;
	irqkit_free_irq(T_EDGE(1), &d1);
	atomic_store(&freed, 1);
	return NULL;
}

static bool thread_named(const char *name)
{
	return nr_threads_named(name, NULL) > 0;
}

static void test_free_irq_waits_for_the_thread_and_stops_it(void **state)
{
	pthread_t th;

	(void)state;
	atomic_store(&freed, 0);
	d1.gated = true;
	assert_int_equal(irqkit_request_threaded_irq(T_EDGE(1), primary, thread_fn, 0, "gone", &d1),
			 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_true(wait_until(atomic_load(&d1.in_thread) == 1, 5000));
	assert_true(thread_named("irq/1-gone"));
	pthread_create(&th, NULL, free_in_thread, NULL);
	usleep(30000);
	assert_int_equal(atomic_load(&freed), 0);		/* waiting for the run */
	atomic_store(&d1.gate, 1);
	pthread_join(th, NULL);
	assert_int_equal(atomic_load(&d1.thread_runs), 1);
	assert_true(wait_until(!thread_named("irq/1-gone"), 2000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_thread_runs_in_its_own_process_context_thread),
		T(test_forced_threading_splits_primary_and_thread_fn),
		T(test_free_irq_from_the_secondary_thread),
		T(test_null_handler_needs_oneshot),
		T(test_thread_creation_failure_fails_the_request),
		T(test_oneshot_level_line_stays_masked_until_the_thread_is_done),
		T(test_fasteoi_oneshot_eoi_waits_for_the_thread_on_eoi_threaded_chips),
		T(test_wakes_while_the_thread_runs_give_one_more_run),
		T(test_synchronize_irq_waits_for_a_running_thread),
		T(test_thread_results_feed_spurious_detection),
		T(test_irq_wake_thread_runs_it_without_an_interrupt),
		T(test_oneshot_bits_run_out_at_bits_per_long),
		T(test_forced_threading_moves_the_handler_into_a_thread),
		T(test_nested_line_runs_thread_fns_in_the_parent_thread),
		T(test_free_irq_from_its_own_thread_does_not_hang),
		T(test_free_irq_waits_for_the_thread_and_stops_it),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
