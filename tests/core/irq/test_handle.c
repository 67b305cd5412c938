// SPDX-License-Identifier: MIT
/* Tests of src/core/irq/handle.c: the action chain, its warnings, and bad (unhandleable) interrupts. */
#define _GNU_SOURCE
#include "../../harness.h"
#include "../../testchip.h"

static struct tdev a, b;

static int setup(void **state)
{
	tdev_init(&a);
	tdev_init(&b);
	return det_setup(state);
}

/* ---- 2.1: the action chain ---------------------------------------------------------- */

static void test_results_of_shared_handlers_are_ored(void **state)
{
	(void)state;
	a.ret = IRQKIT_NONE;
	b.ret = IRQKIT_HANDLED;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "b", &b), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 0);
	assert_int_equal(info_of(T_EDGE(1)).irq_count, 1);
	b.ret = IRQKIT_NONE;
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 1);
	/* WAKE_THREAD | HANDLED (3) is not bogus; NONE | HANDLED is HANDLED */
	a.ret = IRQKIT_WAKE_THREAD;
	b.ret = IRQKIT_HANDLED;
	irqkit_sw_raise(T_EDGE(1));
	assert_log_lacks("bogus return value");
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 1);
}

static void test_handlers_run_in_hardirq_with_interrupts_off(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_false(irqkit_irqs_disabled());
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_true(a.saw_irqs_off);
	assert_true(a.saw_hardirq);
	assert_false(irqkit_irqs_disabled());
	assert_false(irqkit_in_interrupt());
}

static void enable_inside(struct tdev *dev, int irq)
{
	(void)dev;
	(void)irq;
	irqkit_local_irq_enable();
}

static void test_handler_that_enables_interrupts_is_warned_once(void **state)
{
	(void)state;
	a.hook = enable_inside;
	b.hook = NULL;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "b", &b), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(log_count("handler tdev_handler"), 1);
	assert_log_contains("irq 1 handler tdev_handler");
	assert_log_contains("enabled interrupts");
	/* interrupts were turned off again before the next handler */
	assert_true(b.saw_irqs_off);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(log_count("enabled interrupts"), 1);
}

static struct irqkit_spinlock kept_lock;

static enum irqkit_irqreturn keeps_a_lock(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	irqkit_spin_lock(&kept_lock);	/* and never unlocks it */
	return IRQKIT_HANDLED;
}

static void test_handler_that_returns_with_a_lock_held_is_reported(void **state)
{
	(void)state;
	irqkit_spin_lock_init(&kept_lock);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), keeps_a_lock, 0, "a", NULL), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_log_contains("BUG: irq 1 handler");
	assert_log_contains("returned with preempt_count 00010001, entered with 00010000 (a lock still held?)");
	/* the count is put back: process context is not atomic */
	assert_false(irqkit_in_atomic());
	__atomic_store_n(&kept_lock.locked, 0, __ATOMIC_RELAXED);
}

static void test_wake_thread_without_thread_fn_warns_once(void **state)
{
	(void)state;
	a.ret = IRQKIT_WAKE_THREAD;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "devA", &a), 0);
	irqkit_sw_raise(T_EDGE(1));
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(log_count("IRQ 1 device devA returned IRQ_WAKE_THREAD but no thread "
				   "function available."), 1);
}


/* ---- 2.2: preconditions ---------------------------------------------------------------- */

/* ---- 2.8: bad ----------------------------------------------------------------------------------- */

static void test_interrupt_on_line_without_flow_is_reported_and_counted_in_err(void **state)
{
	(void)state;
	assert_int_equal(irqkit_irq_err_count(), 0);
	irqkit_cpu_raise(0, T_NOCHIP);
	assert_int_equal(irqkit_irq_err_count(), 1);
	assert_log_contains("unexpected IRQ trap at vector 28");
	assert_log_contains("irq 40, desc:");
	assert_log_contains("->handle_irq():");
	assert_int_equal(irqkit_kstat_irqs_cpu(T_NOCHIP, 0), 1);
	/* a vector with no descriptor at all */
	irqkit_cpu_signal(0, T_NR_IRQS + 3);
	assert_int_equal(irqkit_irq_err_count(), 2);
	assert_log_contains("unexpected IRQ trap at vector 43");
}

/* ---- the 2.6 handler form ------------------------------------------------------------------------- */

static struct pt_regs *seen_regs = (struct pt_regs *)1;

static enum irqkit_irqreturn old_style_handler(int irq, void *dev_id, struct pt_regs *regs)
{
	(void)irq;
	seen_regs = regs;
	atomic_fetch_add(&((struct tdev *)dev_id)->calls, 1);
	return IRQKIT_HANDLED;
}

static void test_pt_regs_handler_receives_null_regs(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq_regs(T_EDGE(1), old_style_handler, 0, "old", &a), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_null(seen_regs);
	assert_string_equal(irqkit_free_irq(T_EDGE(1), &a), "old");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_results_of_shared_handlers_are_ored),
		T(test_handlers_run_in_hardirq_with_interrupts_off),
		T(test_handler_that_enables_interrupts_is_warned_once),
		T(test_wake_thread_without_thread_fn_warns_once),
		T(test_handler_that_returns_with_a_lock_held_is_reported),
		T(test_pt_regs_handler_receives_null_regs),
		T(test_interrupt_on_line_without_flow_is_reported_and_counted_in_err),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
