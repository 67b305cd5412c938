// SPDX-License-Identifier: MIT
/* Tests of src/chips/swchip.c: latching, coalescing, levels, masking, types. */
#include "../harness.h"

static struct tdev a;

static int setup(void **state)
{
	tdev_init(&a);
	a.ret = IRQKIT_HANDLED;
	return det_setup(state);
}

static struct irqkit_sw_stats stats_of(unsigned int irq)
{
	struct irqkit_sw_stats st;

	assert_int_equal(irqkit_sw_get_stats(irq, &st), 0);
	return st;
}

static void test_raises_while_latched_coalesce_and_are_counted(void **state)
{
	unsigned long flags;
	struct irqkit_sw_stats st;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	flags = irqkit_local_irq_save();
	for (int i = 0; i < 5; i++)
		irqkit_sw_raise(T_EDGE(1));
	st = stats_of(T_EDGE(1));
	assert_true(st.latched);
	assert_int_equal(st.coalesced, 4);
	irqkit_local_irq_restore(flags);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_false(stats_of(T_EDGE(1)).latched);
}

static void test_masked_edge_is_kept_and_requests_on_unmask(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_NO_AUTOEN, "a", &a), 0);
	assert_true(stats_of(T_EDGE(1)).masked);
	irqkit_sw_raise(T_EDGE(1));
	assert_true(stats_of(T_EDGE(1)).latched);
	irqkit_enable_irq(T_EDGE(1));
	assert_false(stats_of(T_EDGE(1)).masked);
	assert_int_equal(atomic_load(&a.calls), 1);
}

static void test_level_line_follows_its_input(void **state)
{
	(void)state;
	a.ret = -1;
	a.lower_irq = T_LEVEL(1);
	assert_int_equal(irqkit_request_irq(T_LEVEL(1), tdev_handler, 0, "a", &a), 0);
	irqkit_local_irq_disable();
	irqkit_sw_set_level(T_LEVEL(1), true);
	irqkit_sw_set_level(T_LEVEL(1), true);		/* already asserted: no new arrival */
	assert_true(stats_of(T_LEVEL(1)).level);
	irqkit_sw_set_level(T_LEVEL(1), false);		/* dropped before the CPU took it */
	irqkit_local_irq_enable();
	assert_int_equal(atomic_load(&a.calls), 0);	/* the claim found nothing */
	atomic_store(&a.status, 1);
	irqkit_sw_set_level(T_LEVEL(1), true);
	assert_int_equal(atomic_load(&a.handled), 1);
	assert_false(stats_of(T_LEVEL(1)).level);
}

static void test_set_type_switches_between_edge_and_level_flow(void **state)
{
	struct irqkit_irq_info info;

	(void)state;
	assert_int_equal(irqkit_irq_set_irq_type(T_EDGE(3), IRQKIT_TYPE_LEVEL_LOW), 0);
	irqkit_irq_get_info(T_EDGE(3), &info);
	assert_int_equal(info.trigger, IRQKIT_TYPE_LEVEL_LOW);
	assert_int_equal(irqkit_sw_raise(T_EDGE(3)), -IRQKIT_EINVAL);
	a.ret = -1;
	a.lower_irq = T_EDGE(3);
	atomic_store(&a.status, 1);
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_sw_set_level(T_EDGE(3), true), 0);
	assert_int_equal(atomic_load(&a.handled), 1);
	/* a request asking for an edge trigger turns a level line back to edge */
	assert_int_equal(irqkit_request_irq(T_LEVEL(3), tdev_handler, IRQKIT_F_TRIGGER_RISING, "b",
					    &a), 0);
	assert_int_equal(irqkit_sw_raise(T_LEVEL(3)), 0);
	assert_int_equal(irqkit_irq_set_irq_type(T_EDGE(4), 0x10), -IRQKIT_EINVAL);
	assert_log_contains("Setting trigger mode 0 for irq 4 failed");
}

static void test_swchip_add_checks(void **state)
{
	(void)state;
	assert_int_equal(irqkit_swchip_add(T_NR_IRQS - 1, 2, IRQKIT_TYPE_EDGE_RISING), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_swchip_add(T_NR_IRQS, 1, IRQKIT_TYPE_EDGE_RISING), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_swchip_add(50, 0, IRQKIT_TYPE_EDGE_RISING), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_swchip_add(50, 1, IRQKIT_TYPE_NONE), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_swchip_add(50, 1, IRQKIT_TYPE_LEVEL_HIGH | IRQKIT_TYPE_EDGE_RISING),
			 -IRQKIT_EINVAL);
	assert_int_equal(irqkit_swchip_add(50, 1, 0x100), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_swchip_add(T_EDGE(0), 2, IRQKIT_TYPE_EDGE_RISING), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_swchip_add(50, 4, IRQKIT_TYPE_EDGE_FALLING), 0);
	assert_int_equal(irqkit_sw_raise(52), 0);
	assert_int_equal(irqkit_sw_get_stats(T_NOCHIP, NULL), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_sw_get_stats(T_NR_IRQS, NULL), -IRQKIT_EINVAL);
}

/* The chip's irq_get_irqchip_state: pending and masked from its state word; no ACTIVE. */
static void test_chip_state_answers_pending_and_masked(void **state)
{
	struct irqkit_irq_data *d = irqkit_irq_get_irq_data(T_EDGE(1));
	bool st = true;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_NO_AUTOEN, "a", &a), 0);
	assert_int_equal(irqkit_sw_chip.irq_get_irqchip_state(d, IRQKIT_CHIPSTATE_PENDING, &st), 0);
	assert_false(st);
	assert_int_equal(irqkit_sw_chip.irq_get_irqchip_state(d, IRQKIT_CHIPSTATE_MASKED, &st), 0);
	assert_true(st);
	irqkit_sw_raise(T_EDGE(1));			/* masked: latched */
	assert_int_equal(irqkit_sw_chip.irq_get_irqchip_state(d, IRQKIT_CHIPSTATE_PENDING, &st), 0);
	assert_true(st);
	assert_int_equal(irqkit_sw_chip.irq_get_irqchip_state(d, IRQKIT_CHIPSTATE_ACTIVE, &st),
			 -IRQKIT_EINVAL);
	irqkit_enable_irq(T_EDGE(1));
	assert_int_equal(irqkit_sw_chip.irq_get_irqchip_state(d, IRQKIT_CHIPSTATE_MASKED, &st), 0);
	assert_false(st);
	assert_int_equal(irqkit_sw_chip.irq_get_irqchip_state(d, IRQKIT_CHIPSTATE_PENDING, &st), 0);
	assert_false(st);
}

static struct irqkit_irq_events last_ev;

static enum irqkit_irqreturn events_handler(int irq, void *dev_id)
{
	(void)dev_id;
	assert_int_equal(irqkit_irq_get_events((unsigned int)irq, &last_ev), 0);
	return IRQKIT_HANDLED;
}

static void test_a_delivery_says_how_many_raises_it_stands_for(void **state)
{
	struct irqkit_irq_events tot;
	unsigned long flags;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), events_handler, 0, "a", &a), 0);
	irqkit_sw_raise(T_EDGE(1));			/* the direct path: one raise */
	assert_int_equal(last_ev.events, 1);
	assert_int_equal(last_ev.coalesced, 0);
	flags = irqkit_local_irq_save();
	for (int i = 0; i < 5; i++)
		irqkit_sw_raise(T_EDGE(1));
	irqkit_local_irq_restore(flags);		/* one delivery for five raises */
	assert_int_equal(last_ev.events, 5);
	assert_int_equal(last_ev.coalesced, 4);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(last_ev.coalesced, 0);
	assert_int_equal(irqkit_irq_get_event_totals(T_EDGE(1), &tot), 0);
	assert_int_equal(tot.events, 7);
	assert_int_equal(tot.coalesced, 4);
	assert_int_equal(irqkit_irq_get_events(T_NR_IRQS, &tot), -IRQKIT_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_raises_while_latched_coalesce_and_are_counted),
		T(test_masked_edge_is_kept_and_requests_on_unmask),
		T(test_level_line_follows_its_input),
		T(test_set_type_switches_between_edge_and_level_flow),
		T(test_swchip_add_checks),
		T(test_a_delivery_says_how_many_raises_it_stands_for),
		T(test_chip_state_answers_pending_and_masked),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
