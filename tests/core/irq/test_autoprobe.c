// SPDX-License-Identifier: MIT
/*
 * Tests of src/core/irq/autoprobe.c: probe_irq_on/off/mask as Linux's, in
 * deterministic mode (the settle sleeps move the virtual clock).
 */
#include "../../harness.h"

static void test_the_one_line_that_fired_is_found(void **state)
{
	unsigned long mask;

	(void)state;
	mask = irqkit_probe_irq_on();
	assert_true(mask & (1ul << T_EDGE(5)));		/* started, waiting */
	irqkit_sw_raise(T_EDGE(5));			/* the device interrupts */
	assert_int_equal(irqkit_probe_irq_off(mask), T_EDGE(5));
}

static void test_no_line_gives_0_and_several_a_negative_number(void **state)
{
	unsigned long mask;

	(void)state;
	mask = irqkit_probe_irq_on();
	assert_int_equal(irqkit_probe_irq_off(mask), 0);
	mask = irqkit_probe_irq_on();
	irqkit_sw_raise(T_EDGE(6));
	irqkit_sw_raise(T_EDGE(3));
	assert_int_equal(irqkit_probe_irq_off(mask), -T_EDGE(3));	/* the first of them */
	mask = irqkit_probe_irq_on();
	irqkit_sw_raise(T_EDGE(6));
	irqkit_sw_raise(T_EDGE(3));
	assert_int_equal(irqkit_probe_irq_mask(mask), (1u << T_EDGE(3)) | (1u << T_EDGE(6)));
}

/* A line raised before probing settles is spurious: it is left out of the mask. */
static void test_a_long_standing_interrupt_is_left_out(void **state)
{
	unsigned long mask;

	(void)state;
	irqkit_sw_set_level(T_LEVEL(2), true);		/* asserted all along */
	mask = irqkit_probe_irq_on();
	assert_false(mask & (1ul << T_LEVEL(2)));
	irqkit_sw_raise(T_EDGE(4));
	assert_int_equal(irqkit_probe_irq_off(mask), T_EDGE(4));
	irqkit_sw_set_level(T_LEVEL(2), false);
}

/* Lines in use take no part; after the probe the lines are shut down and requestable. */
static void test_lines_in_use_are_not_probed_and_probed_lines_are_shut_down(void **state)
{
	struct tdev dev;
	unsigned long mask;

	(void)state;
	tdev_init(&dev);
	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "busy", &dev), 0);
	mask = irqkit_probe_irq_on();
	assert_false(mask & (1ul << T_EDGE(1)));
	irqkit_sw_raise(T_EDGE(1));			/* its own handler takes it */
	assert_int_equal(atomic_load(&dev.handled), 1);
	assert_int_equal(irqkit_probe_irq_off(mask), 0);
	irqkit_free_irq(T_EDGE(1), &dev);

	/* a probed line is off again: a raise waits for its handler */
	tdev_init(&dev);
	atomic_store(&dev.status, 1);
	irqkit_sw_raise(T_EDGE(7));
	assert_int_equal(atomic_load(&dev.calls), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(7), tdev_handler, 0, "late", &dev), 0);
	assert_int_equal(atomic_load(&dev.handled), 1);	/* the latched edge, at startup */
	irqkit_free_irq(T_EDGE(7), &dev);
}

static void test_noprobe_lines_take_no_part(void **state)
{
	unsigned long mask;

	(void)state;
	irqkit_irq_modify_status(T_EDGE(5), 0, IRQKIT_IRQ_NOPROBE);
	mask = irqkit_probe_irq_on();
	assert_false(mask & (1ul << T_EDGE(5)));
	irqkit_sw_raise(T_EDGE(5));
	assert_int_equal(irqkit_probe_irq_off(mask), 0);
}

/*
 * Threaded: a raise that is still waiting for its CPU (busy in a 30 ms
 * handler) when probe_irq_off is called still counts, as on hardware the
 * CPU would have taken it at once.
 */
static void slow_hook(struct tdev *dev, int irq)
{
	(void)dev;
	(void)irq;
	stress_burn(1);
	irqkit_mdelay(30);
}

static void test_a_raise_waiting_for_its_cpu_counts(void **state)
{
	struct tdev slow;
	unsigned long mask;

	(void)state;
	det_teardown(NULL);
	assert_int_equal(thr_setup_cpus(1, T_NR_IRQS), 0);
	tdev_init(&slow);
	slow.hook = slow_hook;
	atomic_store(&slow.status, 1);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "slow", &slow), 0);
	mask = irqkit_probe_irq_on();
	irqkit_sw_raise(T_EDGE(1));			/* CPU 0 is busy for 30 ms */
	assert_true(wait_until(atomic_load(&slow.calls) == 1, 5000));
	irqkit_sw_raise(T_EDGE(6));			/* the device: waits for CPU 0 */
	assert_int_equal(irqkit_probe_irq_off(mask), T_EDGE(6));
	irqkit_free_irq(T_EDGE(1), &slow);
	thr_teardown(NULL);
	assert_int_equal(det_setup(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, det_setup, det_teardown)
		T(test_the_one_line_that_fired_is_found),
		T(test_no_line_gives_0_and_several_a_negative_number),
		T(test_a_long_standing_interrupt_is_left_out),
		T(test_lines_in_use_are_not_probed_and_probed_lines_are_shut_down),
		T(test_noprobe_lines_take_no_part),
		T(test_a_raise_waiting_for_its_cpu_counts),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
