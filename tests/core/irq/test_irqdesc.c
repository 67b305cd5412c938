// SPDX-License-Identifier: MIT
/*
 * Tests of src/core/irq/irqdesc.c: the descriptor table's accessors, per-CPU
 * interrupt counts, generic_handle_irq (a chained handler running a child
 * line's flow) and their bad input.
 */
#include "../../harness.h"

static struct tdev dev;

static int setup(void **state)
{
	tdev_init(&dev);
	return det_setup(state);
}

static void test_descriptor_accessors_and_bad_lines(void **state)
{
	(void)state;
	assert_non_null(irqkit_irq_get_irq_data(T_EDGE(1)));
	assert_int_equal(irqkit_irq_get_irq_data(T_EDGE(1))->irq, T_EDGE(1));
	assert_null(irqkit_irq_get_irq_data(T_NR_IRQS));
	assert_false(irqkit_irq_has_action(T_EDGE(1)));
	assert_false(irqkit_irq_has_action(T_NR_IRQS));
	assert_int_equal(irqkit_irq_set_default_type(T_NR_IRQS, IRQKIT_TYPE_EDGE_RISING), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_irqd_get_trigger_type(irqkit_irq_get_irq_data(T_EDGE(1))),
			 IRQKIT_TYPE_EDGE_RISING);
	assert_int_equal(irqkit_irqd_get_trigger_type(irqkit_irq_get_irq_data(T_LEVEL(1))),
			 IRQKIT_TYPE_LEVEL_HIGH);
	assert_int_equal(irqkit_generic_handle_irq(T_NR_IRQS), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_kstat_irqs_cpu(T_NR_IRQS, 0), 0);
	assert_int_equal(irqkit_kstat_irqs_cpu(T_EDGE(1), 7), 0);	/* no CPU 7 */
}

static void test_counts_are_per_line_and_cpu(void **state)
{
	(void)state;
	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, 0, "d", &dev), 0);
	assert_true(irqkit_irq_has_action(T_EDGE(2)));
	for (int i = 0; i < 3; i++) {
		atomic_store(&dev.status, 1);
		irqkit_sw_raise(T_EDGE(2));
	}
	assert_int_equal(irqkit_kstat_irqs_cpu(T_EDGE(2), 0), 3);
	assert_int_equal(irqkit_kstat_irqs_cpu(T_EDGE(3), 0), 0);
	irqkit_free_irq(T_EDGE(2), &dev);
	assert_false(irqkit_irq_has_action(T_EDGE(2)));
	assert_int_equal(irqkit_kstat_irqs_cpu(T_EDGE(2), 0), 3);	/* counts survive the free */
}

/* A chained handler (a demultiplexer) runs its child line's flow in its own hardirq. */
static enum irqkit_irqreturn demux_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	irqkit_generic_handle_irq(T_EDGE(5));
	return IRQKIT_HANDLED;
}

static void test_generic_handle_irq_runs_the_child_flow(void **state)
{
	(void)state;
	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_request_irq(T_EDGE(5), tdev_handler, 0, "child", &dev), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(4), demux_handler, 0, "demux", NULL), 0);
	irqkit_sw_raise(T_EDGE(4));
	assert_int_equal(atomic_load(&dev.handled), 1);
	assert_true(atomic_load(&dev.saw_hardirq));
	assert_int_equal(irqkit_kstat_irqs_cpu(T_EDGE(5), 0), 1);
	irqkit_free_irq(T_EDGE(4), NULL);
	irqkit_free_irq(T_EDGE(5), &dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_descriptor_accessors_and_bad_lines),
		T(test_counts_are_per_line_and_cpu),
		T(test_generic_handle_irq_runs_the_child_flow),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
