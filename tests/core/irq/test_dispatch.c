// SPDX-License-Identifier: MIT
/*
 * Tests of src/core/irq/dispatch.c: binding threads to virtual CPUs, taking a CPU's
 * interrupts on the calling thread (irqkit_cpu_run, irqkit_deliver_pending,
 * irqkit_cpu_handle_now), and a request to a CPU or line that does not exist.
 */
#include "../../harness.h"

static struct tdev dev;

static int setup(void **state)
{
	tdev_init(&dev);
	return det_setup(state);
}

static void test_bind_and_unbind_rules(void **state)
{
	(void)state;
	assert_int_equal(irqkit_thread_bind(T_NR_CPUS), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_thread_bind(1), 0);
	assert_int_equal(irqkit_smp_processor_id(), 1);
	irqkit_local_irq_disable();
	assert_int_equal(irqkit_thread_bind(0), -IRQKIT_EBUSY);	/* not with interrupts off */
	assert_int_equal(irqkit_thread_unbind(), -IRQKIT_EBUSY);
	irqkit_local_irq_enable();
	irqkit_local_bh_disable();
	assert_int_equal(irqkit_thread_bind(0), -IRQKIT_EBUSY);	/* nor inside a bh-off section */
	irqkit_local_bh_enable();
	assert_int_equal(irqkit_thread_bind(0), 0);
	assert_int_equal(irqkit_smp_processor_id(), 0);
}

/* Deterministic mode: CPU 1's interrupts wait until someone plays CPU 1. */
static void test_cpu_run_takes_another_cpus_interrupts(void **state)
{
	(void)state;
	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_request_irq(T_EDGE(6), tdev_handler, 0, "d", &dev), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(6), 1ull << 1), 0);
	irqkit_sw_raise(T_EDGE(6));
	assert_int_equal(atomic_load(&dev.calls), 0);		/* latched for CPU 1 */
	irqkit_deliver_pending();				/* ours is CPU 0: nothing */
	assert_int_equal(atomic_load(&dev.calls), 0);
	assert_int_equal(irqkit_cpu_run(1), 0);
	assert_int_equal(atomic_load(&dev.handled), 1);
	assert_int_equal(atomic_load(&dev.cpu), 1);
	assert_int_equal(irqkit_smp_processor_id(), 0);		/* back on CPU 0 */
	assert_int_equal(irqkit_cpu_run(T_NR_CPUS), -IRQKIT_EINVAL);
	irqkit_free_irq(T_EDGE(6), &dev);
}

static void test_handle_now_only_where_the_caller_may_take_it(void **state)
{
	(void)state;
	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_request_irq(T_EDGE(7), tdev_handler, 0, "d", &dev), 0);
	irqkit_local_irq_disable();
	assert_false(irqkit_cpu_handle_now(0, T_EDGE(7)));	/* interrupts off */
	irqkit_local_irq_enable();
	assert_false(irqkit_cpu_handle_now(1, T_EDGE(7)));	/* not the caller's CPU */
	assert_false(irqkit_cpu_handle_now(0, T_NR_IRQS));	/* no such line */
	assert_int_equal(atomic_load(&dev.calls), 0);
	assert_true(irqkit_cpu_handle_now(0, T_EDGE(7)));
	assert_int_equal(atomic_load(&dev.handled), 1);
	irqkit_free_irq(T_EDGE(7), &dev);
}

/* A request to a line or CPU that does not exist: x86's spurious-vector report, counted in ERR. */
static void test_stray_requests_are_counted_in_err(void **state)
{
	(void)state;
	irqkit_cpu_signal(T_NR_CPUS, T_EDGE(1));
	irqkit_cpu_raise(0, T_NR_IRQS + 1);
	assert_int_equal(irqkit_irq_err_count(), 2);
	assert_log_contains("unexpected IRQ trap at vector");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_bind_and_unbind_rules),
		T(test_cpu_run_takes_another_cpus_interrupts),
		T(test_handle_now_only_where_the_caller_may_take_it),
		T(test_stray_requests_are_counted_in_err),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
