// SPDX-License-Identifier: MIT
/* Tests of src/core/irq/manage.c: request_irq, free_irq, can_request_irq, disable/enable, synchronize. */
#include "../../harness.h"
#include "../../testchip.h"

static struct tdev a, b, c;

static int setup(void **state)
{
	tdev_init(&a);
	tdev_init(&b);
	tdev_init(&c);
	return det_setup(state);
}

/* ---- 1.1 ---------------------------------------------------------------------- */

static void test_irqreturn_values_are_linux_values(void **state)
{
	(void)state;
	assert_int_equal(IRQKIT_NONE, 0);
	assert_int_equal(IRQKIT_HANDLED, 1);
	assert_int_equal(IRQKIT_WAKE_THREAD, 2);
	assert_int_equal(IRQKIT_RETVAL(7), IRQKIT_HANDLED);
	assert_int_equal(IRQKIT_RETVAL(0), IRQKIT_NONE);
}

/* ---- 1.3: argument checks, in order -------------------------------------------- */

static void test_request_notconnected_gives_enotconn(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(IRQKIT_NOTCONNECTED, tdev_handler, 0, "a", &a),
			 -IRQKIT_ENOTCONN);
	/* checked before the flags: bad flags still give -ENOTCONN */
	assert_int_equal(irqkit_request_irq(IRQKIT_NOTCONNECTED, tdev_handler, IRQKIT_F_SHARED,
					    "a", NULL), -IRQKIT_ENOTCONN);
}

static void test_request_bad_flag_combinations_give_einval(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "a", NULL),
			 -IRQKIT_EINVAL);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_NO_AUTOEN, "a", &a),
			 -IRQKIT_EINVAL);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_COND_SUSPEND, "a", &a),
			 -IRQKIT_EINVAL);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_NO_SUSPEND |
					    IRQKIT_F_COND_SUSPEND, "a", &a), -IRQKIT_EINVAL);
	/* SHARED with COND_SUSPEND is fine */
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_COND_SUSPEND, "a", &a), 0);
	assert_false(irqkit_irq_has_action(T_EDGE(2)));
}

static void test_request_out_of_range_gives_einval(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_NR_IRQS, tdev_handler, 0, "a", &a), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_request_irq(T_NR_IRQS + 1000, tdev_handler, 0, "a", &a),
			 -IRQKIT_EINVAL);
	assert_int_equal(irqkit_request_irq(0x7fffffff, tdev_handler, 0, "a", &a), -IRQKIT_EINVAL);
}

static void test_request_norequest_line_gives_einval(void **state)
{
	(void)state;
	irqkit_irq_modify_status(T_EDGE(3), 0, IRQKIT_IRQ_NOREQUEST);
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "a", &a), -IRQKIT_EINVAL);
	irqkit_irq_modify_status(T_EDGE(3), IRQKIT_IRQ_NOREQUEST, 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "a", &a), 0);
}

static void test_request_per_cpu_devid_line_gives_einval_and_warns(void **state)
{
	(void)state;
	irqkit_irq_modify_status(T_EDGE(3), 0, IRQKIT_IRQ_PER_CPU_DEVID);
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "a", &a), -IRQKIT_EINVAL);
	assert_log_contains("WARNING: CPU: 0 PID:");
	assert_log_contains("cut here");
}

static void test_request_null_handler_gives_einval(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), NULL, 0, "a", &a), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_request_irq_regs(T_EDGE(1), NULL, 0, "a", &a), -IRQKIT_EINVAL);
	/* the handler check comes before the chip check (-ENOSYS) */
	assert_int_equal(irqkit_request_irq(T_NOCHIP, NULL, 0, "a", &a), -IRQKIT_EINVAL);
	assert_false(irqkit_irq_has_action(T_EDGE(1)));
}

extern int irqkit__plat_alloc_fail;

static void test_request_allocation_failure_gives_enomem(void **state)
{
	(void)state;
	irqkit__plat_alloc_fail = 1;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), -IRQKIT_ENOMEM);
	assert_int_equal(irqkit__plat_alloc_fail, 0);
	assert_false(irqkit_irq_has_action(T_EDGE(1)));
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
}

/* ---- 1.4: __setup_irq ---------------------------------------------------------- */

static void test_request_line_without_chip_gives_enosys(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, 0, "a", &a), -IRQKIT_ENOSYS);
	assert_false(irqkit_irq_has_action(T_NOCHIP));
}

static void test_request_without_trigger_inherits_line_trigger(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_LEVEL(1), tdev_handler, IRQKIT_F_SHARED, "a", &a), 0);
	assert_int_equal(info_of(T_LEVEL(1)).trigger, IRQKIT_TYPE_LEVEL_HIGH);
	/* the newcomer gives none either: it inherits LEVEL_HIGH and matches */
	assert_int_equal(irqkit_request_irq(T_LEVEL(1), tdev_handler, IRQKIT_F_SHARED, "b", &b), 0);
	/* one that names a different trigger does not */
	assert_int_equal(irqkit_request_irq(T_LEVEL(1), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_TRIGGER_RISING, "c", &c),
			 -IRQKIT_EBUSY);
	assert_log_contains("Flags mismatch irq 17.");
}

static void test_request_nested_thread_line_without_thread_fn_gives_einval(void **state)
{
	(void)state;
	irqkit_irq_modify_status(T_EDGE(4), 0, IRQKIT_IRQ_NESTED_THREAD);
	assert_int_equal(irqkit_request_irq(T_EDGE(4), tdev_handler, 0, "a", &a), -IRQKIT_EINVAL);
}

static void test_oneshot_safe_chip_drops_oneshot(void **state)
{
	(void)state;
	testchip_attach(T_NOCHIP, &tchip_oneshot_safe, irqkit_handle_simple_irq);
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, IRQKIT_F_SHARED, "a", &a), 0);
	/* ONESHOT is cleared from the newcomer, so it matches the plain action */
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_ONESHOT, "b", &b), 0);
	/* on the software chip (not ONESHOT_SAFE) the same pair mismatches */
	assert_int_equal(irqkit_request_irq(T_EDGE(5), tdev_handler, IRQKIT_F_SHARED, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(5), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_ONESHOT, "b", &b),
			 -IRQKIT_EBUSY);
}

static void test_sharing_needs_shared_in_both(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "b", &b),
			 -IRQKIT_EBUSY);
	assert_log_contains("Flags mismatch irq 1. 00200081 (b) vs. 00200001 (a)");
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, IRQKIT_F_SHARED, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, 0, "b", &b), -IRQKIT_EBUSY);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, IRQKIT_F_SHARED, "c", &c), 0);
	assert_int_equal(info_of(T_EDGE(2)).nr_actions, 2);
	assert_int_equal(info_of(T_EDGE(1)).nr_actions, 1);
}

static void test_sharing_needs_identical_trigger(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_TRIGGER_FALLING, "a", &a), 0);
	assert_int_equal(info_of(T_EDGE(1)).trigger, IRQKIT_TYPE_EDGE_FALLING);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_TRIGGER_RISING, "b", &b),
			 -IRQKIT_EBUSY);
	assert_log_contains("Flags mismatch irq 1.");
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_TRIGGER_FALLING, "b", &b), 0);
}

static void test_probe_shared_mismatch_is_silent(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_PROBE_SHARED, "b", &b),
			 -IRQKIT_EBUSY);
	assert_log_lacks("Flags mismatch");
}

static void test_oneshot_sharing_rules(void **state)
{
	(void)state;
	/* existing ONESHOT + newcomer COND_ONESHOT (request_irq adds it): accepted */
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_ONESHOT, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "b", &b), 0);
	/* existing plain + newcomer ONESHOT: mismatch */
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, IRQKIT_F_SHARED, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_ONESHOT, "b", &b),
			 -IRQKIT_EBUSY);
	assert_log_contains("Flags mismatch irq 2.");
}

static void test_percpu_must_match_on_shared_line(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_PERCPU, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "b", &b),
			 -IRQKIT_EBUSY);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_PERCPU, "b", &b), 0);
}

static void test_trigger_set_failure_fails_first_request(void **state)
{
	(void)state;
	testchip_attach(T_NOCHIP, &tchip_bad_type, irqkit_handle_simple_irq);
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, IRQKIT_F_TRIGGER_HIGH, "a", &a),
			 -IRQKIT_EINVAL);
	assert_log_contains("Setting trigger mode 4 for irq 40 failed");
	assert_false(irqkit_irq_has_action(T_NOCHIP));
	/* without a trigger the chip is not asked */
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, 0, "a", &a), 0);
}

static void test_shared_request_on_line_without_default_trigger_takes_newcomers(void **state)
{
	(void)state;
	/*
	 * No default trigger was ever recorded for the line (only the first
	 * request programmed one): Linux takes the newcomer's type as the line's
	 * and lets it share.
	 */
	testchip_attach(T_NOCHIP, &tchip_plain, irqkit_handle_simple_irq);
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_TRIGGER_RISING, "a", &a), 0);
	assert_int_equal(tchip.last_type, IRQKIT_TYPE_EDGE_RISING);
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_TRIGGER_FALLING, "b", &b), 0);
	assert_int_equal(info_of(T_NOCHIP).trigger, IRQKIT_TYPE_EDGE_FALLING);
	assert_log_lacks("Flags mismatch");
}

/* ---- 1.6 / 1.7 ------------------------------------------------------------------ */

static void test_shared_line_handlers_run_in_registration_order(void **state)
{
	(void)state;
	a.order = "a";
	b.order = "b";
	c.order = "c";
	assert_int_equal(irqkit_request_irq(T_EDGE(6), tdev_handler, IRQKIT_F_SHARED, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(6), tdev_handler, IRQKIT_F_SHARED, "b", &b), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(6), tdev_handler, IRQKIT_F_SHARED, "c", &c), 0);
	assert_int_equal(irqkit_sw_raise(T_EDGE(6)), 0);
	assert_string_equal(order_buf, "abc");
	irqkit_free_irq(T_EDGE(6), &b);
	assert_int_equal(irqkit_request_irq(T_EDGE(6), tdev_handler, IRQKIT_F_SHARED, "b", &b), 0);
	order_buf[0] = '\0';
	assert_int_equal(irqkit_sw_raise(T_EDGE(6)), 0);
	assert_string_equal(order_buf, "acb");
}

static void test_first_request_starts_line_at_depth_0(void **state)
{
	struct irqkit_irq_info info;

	(void)state;
	info = info_of(T_EDGE(1));
	assert_int_equal(info.depth, 1);
	assert_true(info.masked);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	info = info_of(T_EDGE(1));
	assert_int_equal(info.depth, 0);
	assert_true(info.started);
	assert_false(info.disabled);
	assert_false(info.masked);
}

static void test_no_autoen_request_leaves_line_off_until_enable(void **state)
{
	struct irqkit_irq_info info;

	(void)state;
	atomic_store(&a.status, 1);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_NO_AUTOEN, "a", &a),
			 0);
	info = info_of(T_EDGE(1));
	assert_int_equal(info.depth, 1);
	assert_false(info.started);
	assert_int_equal(irqkit_sw_raise(T_EDGE(1)), 0);
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_enable_irq(T_EDGE(1));
	/* the edge latched while the line was off is delivered once */
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_int_equal(info_of(T_EDGE(1)).depth, 0);
}

static void test_noautoen_setting_leaves_line_off(void **state)
{
	(void)state;
	irqkit_irq_modify_status(T_EDGE(1), 0, IRQKIT_IRQ_NOAUTOEN);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(info_of(T_EDGE(1)).depth, 1);
	irqkit_enable_irq(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).depth, 0);
}

static void test_every_install_resets_spurious_counters(void **state)
{
	struct irqkit_irq_info info;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "a", &a), 0);
	for (int i = 0; i < 5; i++)
		irqkit_sw_raise(T_EDGE(1));	/* nobody's status set: unhandled */
	info = info_of(T_EDGE(1));
	assert_int_equal(info.irq_count, 5);
	assert_int_equal(info.irqs_unhandled, 5);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "b", &b), 0);
	info = info_of(T_EDGE(1));
	assert_int_equal(info.irq_count, 0);
	assert_int_equal(info.irqs_unhandled, 0);
}

/* ---- 1.8 / 1.9: free_irq -------------------------------------------------------- */

static void test_free_irq_returns_the_requested_name(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "mydev", &a), 0);
	assert_string_equal(irqkit_free_irq(T_EDGE(1), &a), "mydev");
	assert_false(irqkit_irq_has_action(T_EDGE(1)));
}

static void test_free_irq_unknown_dev_id_warns_and_returns_null(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "a", &a), 0);
	assert_null(irqkit_free_irq(T_EDGE(1), &b));
	assert_log_contains("Trying to free already-free IRQ 1");
	assert_int_equal(info_of(T_EDGE(1)).nr_actions, 1);
}

static void test_free_irq_twice_warns(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_non_null(irqkit_free_irq(T_EDGE(1), &a));
	assert_log_lacks("already-free");
	assert_null(irqkit_free_irq(T_EDGE(1), &a));
	assert_log_contains("Trying to free already-free IRQ 1");
	assert_null(irqkit_free_irq(T_NR_IRQS + 5, &a));
}

static void test_free_irq_removes_first_action_with_that_dev_id(void **state)
{
	(void)state;
	a.order = "a";
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "first", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "second", &a),
			 0);
	assert_string_equal(irqkit_free_irq(T_EDGE(1), &a), "first");
	assert_string_equal(irqkit_free_irq(T_EDGE(1), &a), "second");
}

static void test_free_last_action_shuts_line_down(void **state)
{
	struct irqkit_irq_info info;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "b", &b), 0);
	irqkit_free_irq(T_EDGE(1), &a);
	info = info_of(T_EDGE(1));
	assert_true(info.started);
	assert_int_equal(info.depth, 0);
	irqkit_free_irq(T_EDGE(1), &b);
	info = info_of(T_EDGE(1));
	assert_false(info.started);
	assert_true(info.masked);
	assert_true(info.disabled);
	assert_int_equal(info.depth, 1);
	/* raised now, nothing runs */
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.calls) + atomic_load(&b.calls), 0);
}

static void test_free_of_disabled_line_keeps_depth_and_request_restarts(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_disable_irq(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).depth, 1);
	irqkit_free_irq(T_EDGE(1), &a);
	assert_true(info_of(T_EDGE(1)).depth >= 1);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(info_of(T_EDGE(1)).depth, 0);
	atomic_store(&a.status, 1);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.handled), 1);
}

static void free_other_line(struct tdev *dev, int irq)
{
	(void)irq;
	assert_string_equal(irqkit_free_irq(T_EDGE(2), dev->arg), "b");
}

static void test_free_irq_from_interrupt_context_warns(void **state)
{
	(void)state;
	a.hook = free_other_line;
	a.arg = &b;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, 0, "b", &b), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_log_contains("Trying to free IRQ 2 from IRQ context!");
	assert_false(irqkit_irq_has_action(T_EDGE(2)));
}

static void free_own_line(struct tdev *dev, int irq)
{
	assert_string_equal(irqkit_free_irq((unsigned int)irq, dev), "a");
}

static void test_free_irq_from_its_own_handler_defers_the_free(void **state)
{
	(void)state;
	a.hook = free_own_line;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_log_contains("Trying to free IRQ 1 from IRQ context!");
	assert_false(irqkit_irq_has_action(T_EDGE(1)));
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.calls), 1);
	/* the action memory was released when the handler returned (ASan checks) */
}

static void test_debug_shirq_calls_freed_shared_handler_once_more(void **state)
{
	(void)state;
	det_teardown(NULL);
	assert_int_equal(det_setup_flags(IRQKIT_CFG_DEBUG_SHIRQ), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, 0, "b", &b), 0);
	irqkit_free_irq(T_EDGE(1), &a);
	irqkit_free_irq(T_EDGE(2), &b);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_true(a.saw_irqs_off);
	assert_int_equal(atomic_load(&b.calls), 0);
}

/* ---- 1.10 can_request_irq ----------------------------------------------------------- */

static void test_can_request_irq(void **state)
{
	(void)state;
	assert_true(irqkit_can_request_irq(T_EDGE(1), 0));
	assert_true(irqkit_can_request_irq(T_NOCHIP, 0));	/* exists, no action */
	assert_false(irqkit_can_request_irq(T_NR_IRQS, 0));
	assert_false(irqkit_can_request_irq(IRQKIT_NOTCONNECTED, 0));
	irqkit_irq_modify_status(T_EDGE(3), 0, IRQKIT_IRQ_NOREQUEST);
	assert_false(irqkit_can_request_irq(T_EDGE(3), IRQKIT_F_SHARED));

	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_false(irqkit_can_request_irq(T_EDGE(1), IRQKIT_F_SHARED));
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_TRIGGER_FALLING, "a", &a), 0);
	assert_true(irqkit_can_request_irq(T_EDGE(2), IRQKIT_F_SHARED));
	assert_false(irqkit_can_request_irq(T_EDGE(2), 0));
	/* advisory only: trigger compatibility is not checked, nothing reserved */
	assert_true(irqkit_can_request_irq(T_EDGE(2), IRQKIT_F_SHARED | IRQKIT_F_TRIGGER_RISING));
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler,
					    IRQKIT_F_SHARED | IRQKIT_F_TRIGGER_RISING, "b", &b),
			 -IRQKIT_EBUSY);
}

/* ---- section 4 ------------------------------------------------------------------------ */

static void test_disable_nests_and_needs_as_many_enables(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_disable_irq(T_EDGE(1));
	irqkit_disable_irq_nosync(T_EDGE(1));
	irqkit_disable_irq(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).depth, 3);
	atomic_store(&a.status, 1);
	irqkit_sw_raise(T_EDGE(1));
	irqkit_enable_irq(T_EDGE(1));
	irqkit_enable_irq(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).depth, 1);
	assert_true(info_of(T_EDGE(1)).disabled);
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_enable_irq(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).depth, 0);
	assert_false(info_of(T_EDGE(1)).disabled);
	/* the edge that came while disabled is replayed once, at the last enable */
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_int_equal(atomic_load(&a.handled), 1);
}

static void test_disable_irq_depth_0_1_0(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(info_of(T_EDGE(1)).depth, 0);
	irqkit_disable_irq(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).depth, 1);
	irqkit_enable_irq(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).depth, 0);
}

static void test_unbalanced_enable_warns_and_changes_nothing(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_enable_irq(T_EDGE(1));
	assert_log_contains("Unbalanced enable for IRQ 1");
	assert_log_contains("------------[ cut here ]------------");
	assert_int_equal(info_of(T_EDGE(1)).depth, 0);
	atomic_store(&a.status, 1);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.handled), 1);
}

static void test_enable_irq_on_line_without_chip_warns(void **state)
{
	(void)state;
	irqkit_enable_irq(T_NOCHIP);
	assert_log_contains("enable_irq before setup/request_irq: irq 40");
	/* out of range: nothing, no crash */
	irqkit_enable_irq(T_NR_IRQS + 1);
	irqkit_disable_irq(T_NR_IRQS + 1);
	irqkit_disable_irq_nosync(T_NR_IRQS + 1);
	irqkit_synchronize_irq(T_NR_IRQS + 1);
	assert_false(irqkit_disable_hardirq(T_NR_IRQS + 1));
	assert_false(irqkit_synchronize_hardirq(T_NR_IRQS + 1));
}

static void disable_own_line(struct tdev *dev, int irq)
{
	(void)dev;
	irqkit_disable_irq((unsigned int)irq);
}

static void test_disable_irq_from_own_handler_reports_instead_of_hanging(void **state)
{
	(void)state;
	a.hook = disable_own_line;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_log_contains("BUG: sleeping function called from invalid context");
	assert_log_contains("disable_irq(1) called from a handler of irq 1");
	assert_int_equal(info_of(T_EDGE(1)).depth, 1);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.calls), 1);
}

static void sync_own_line(struct tdev *dev, int irq)
{
	(void)dev;
	irqkit_synchronize_irq((unsigned int)irq);
	irqkit_disable_irq_nosync((unsigned int)irq);	/* the right call here */
}

static void test_synchronize_irq_from_own_handler_reports_instead_of_hanging(void **state)
{
	(void)state;
	a.hook = sync_own_line;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_log_contains("synchronize_irq(1) called from a handler of irq 1");
	assert_int_equal(info_of(T_EDGE(1)).depth, 1);
	assert_int_equal(log_count("disable_irq("), 0);
}

static void test_disable_hardirq_and_synchronize_when_idle(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_synchronize_irq(T_EDGE(1));
	assert_true(irqkit_synchronize_hardirq(T_EDGE(1)));
	assert_true(irqkit_disable_hardirq(T_EDGE(1)));
	assert_int_equal(info_of(T_EDGE(1)).depth, 1);
	assert_log_lacks("BUG:");
}

static void test_disable_irq_with_interrupts_off_reports_sleeping_in_atomic(void **state)
{
	unsigned long flags;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	flags = irqkit_local_irq_save();
	irqkit_disable_irq(T_EDGE(1));
	irqkit_local_irq_restore(flags);
	assert_log_contains("BUG: sleeping function called from invalid context at");
	assert_log_contains("in_atomic(): 0, irqs_disabled(): 1, non_block: 0");
	irqkit_enable_irq(T_EDGE(1));
}

/* 4.6 step 2: synchronize_irq also waits while the chip says the interrupt is in flight. */
static int active_reports;

static int report_active(struct irqkit_irq_data *d, int which, bool *state)
{
	(void)d;
	if (which != IRQKIT_CHIPSTATE_ACTIVE)
		return -IRQKIT_EINVAL;
	*state = active_reports > 0;
	if (active_reports > 0)
		active_reports--;
	return 0;
}

static void test_synchronize_irq_waits_for_chip_active_state(void **state)
{
	static struct irqkit_chip chip = { .name = "ACT", .irq_get_irqchip_state = report_active };

	(void)state;
	testchip_attach(T_NOCHIP, &chip, irqkit_handle_simple_irq);
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, 0, "a", &a), 0);
	active_reports = 3;
	irqkit_synchronize_irq(T_NOCHIP);
	assert_int_equal(active_reports, 0);	/* asked until the chip said idle */
}

/* ---- affinity (1.15, the parts irqkit has) ------------------------------------------------- */

static void test_set_affinity_routes_line_to_cpu(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 1u << 1), 0);
	assert_int_equal(info_of(T_EDGE(1)).cpu, 1);
	atomic_store(&a.status, 1);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.calls), 0);	/* CPU 1 has not run yet */
	assert_int_equal(irqkit_cpu_run(1), 0);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_int_equal(a.cpu, 1);
	assert_int_equal(irqkit_kstat_irqs_cpu(T_EDGE(1), 1), 1);
	assert_int_equal(irqkit_kstat_irqs_cpu(T_EDGE(1), 0), 0);
}

static void test_set_affinity_errors(void **state)
{
	(void)state;
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 1u << 5), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 0), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_irq_set_affinity(T_NOCHIP, 1), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_irq_set_affinity(T_NR_IRQS, 1), -IRQKIT_EINVAL);
	/* a mask with one online CPU among offline ones is fine */
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), (1u << 5) | (1u << 1)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_irqreturn_values_are_linux_values),
		T(test_request_notconnected_gives_enotconn),
		T(test_request_bad_flag_combinations_give_einval),
		T(test_request_out_of_range_gives_einval),
		T(test_request_norequest_line_gives_einval),
		T(test_request_per_cpu_devid_line_gives_einval_and_warns),
		T(test_request_null_handler_gives_einval),
		T(test_request_allocation_failure_gives_enomem),
		T(test_request_line_without_chip_gives_enosys),
		T(test_request_without_trigger_inherits_line_trigger),
		T(test_request_nested_thread_line_without_thread_fn_gives_einval),
		T(test_oneshot_safe_chip_drops_oneshot),
		T(test_sharing_needs_shared_in_both),
		T(test_sharing_needs_identical_trigger),
		T(test_probe_shared_mismatch_is_silent),
		T(test_oneshot_sharing_rules),
		T(test_percpu_must_match_on_shared_line),
		T(test_trigger_set_failure_fails_first_request),
		T(test_shared_request_on_line_without_default_trigger_takes_newcomers),
		T(test_shared_line_handlers_run_in_registration_order),
		T(test_first_request_starts_line_at_depth_0),
		T(test_no_autoen_request_leaves_line_off_until_enable),
		T(test_noautoen_setting_leaves_line_off),
		T(test_every_install_resets_spurious_counters),
		T(test_free_irq_returns_the_requested_name),
		T(test_free_irq_unknown_dev_id_warns_and_returns_null),
		T(test_free_irq_twice_warns),
		T(test_free_irq_removes_first_action_with_that_dev_id),
		T(test_free_last_action_shuts_line_down),
		T(test_free_of_disabled_line_keeps_depth_and_request_restarts),
		T(test_free_irq_from_interrupt_context_warns),
		T(test_free_irq_from_its_own_handler_defers_the_free),
		T(test_debug_shirq_calls_freed_shared_handler_once_more),
		T(test_can_request_irq),
		T(test_disable_nests_and_needs_as_many_enables),
		T(test_disable_irq_depth_0_1_0),
		T(test_unbalanced_enable_warns_and_changes_nothing),
		T(test_enable_irq_on_line_without_chip_warns),
		T(test_disable_irq_from_own_handler_reports_instead_of_hanging),
		T(test_synchronize_irq_from_own_handler_reports_instead_of_hanging),
		T(test_disable_hardirq_and_synchronize_when_idle),
		T(test_disable_irq_with_interrupts_off_reports_sleeping_in_atomic),
		T(test_synchronize_irq_waits_for_chip_active_state),
		T(test_set_affinity_routes_line_to_cpu),
		T(test_set_affinity_errors),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
