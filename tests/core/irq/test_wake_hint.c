// SPDX-License-Identifier: MIT
/*
 * The small parts of the request family, in Linux's names: wake-up sources
 * (enable_irq_wake nesting, the chip told on the first and the last, an
 * unbalanced disable warned, a chip's refusal, IRQCHIP_SKIP_SET_WAKE, apart
 * from disable_irq), the affinity hint (update, set-and-route, cleared and
 * warned at free_irq), request_any_context_irq on a plain and on a
 * nested-thread line, managed too, and request_nmi's checks (then -EINVAL:
 * no chip here delivers NMIs).
 */
#include "../../harness.h"
#include "../../testchip.h"

#include <linux/device.h>
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/irq.h>

static struct tdev a;

static int setup(void **state)
{
	tdev_init(&a);
	return thr_setup(state);
}

static void test_wake_nests_and_tells_the_chip_at_the_ends(void **state)
{
	unsigned int irq = T_NOCHIP;

	(void)state;
	testchip_attach(irq, &tchip_wake, irqkit_handle_edge_irq);
	assert_int_equal(enable_irq_wake(irq), 0);
	assert_int_equal(tchip.set_wake, 1);
	assert_int_equal(tchip.wake_on, 1);
	assert_int_equal(enable_irq_wake(irq), 0);		/* nested: the chip is not told */
	assert_int_equal(tchip.set_wake, 1);
	assert_true(irqd_is_wakeup_set(irq_get_irq_data(irq)));
	assert_int_equal(info_of(irq).wake_depth, 2);
	/* the disable depth is another count */
	disable_irq(irq);
	assert_int_equal(info_of(irq).wake_depth, 2);
	enable_irq(irq);
	assert_int_equal(disable_irq_wake(irq), 0);
	assert_int_equal(tchip.set_wake, 1);
	assert_int_equal(disable_irq_wake(irq), 0);		/* the last: told */
	assert_int_equal(tchip.set_wake, 2);
	assert_int_equal(tchip.wake_on, 0);
	assert_false(irqd_is_wakeup_set(irq_get_irq_data(irq)));
	log_clear();
	assert_int_equal(disable_irq_wake(irq), 0);		/* one too many */
	assert_log_contains("Unbalanced IRQ 40 wake disable");
	assert_int_equal(info_of(irq).wake_depth, 0);
}

static void test_wake_refused_by_the_chip_leaves_the_count(void **state)
{
	unsigned int irq = T_NOCHIP;

	(void)state;
	testchip_attach(irq, &tchip_wake, irqkit_handle_edge_irq);
	tchip.wake_ret = -EIO;
	assert_int_equal(irq_set_irq_wake(irq, 1), -EIO);
	assert_int_equal(info_of(irq).wake_depth, 0);
	assert_false(info_of(irq).wakeup);
	tchip.wake_ret = 0;
	assert_int_equal(irq_set_irq_wake(irq, 1), 0);
	tchip.wake_ret = -EIO;
	assert_int_equal(irq_set_irq_wake(irq, 0), -EIO);	/* stays armed */
	assert_int_equal(info_of(irq).wake_depth, 1);
	assert_true(info_of(irq).wakeup);
	tchip.wake_ret = 0;
	assert_int_equal(irq_set_irq_wake(irq, 0), 0);
	/* a chip that can do neither: -ENXIO; one that skips: 0; no such line: -EINVAL */
	testchip_attach(irq, &tchip_plain, irqkit_handle_edge_irq);
	assert_int_equal(enable_irq_wake(irq), -ENXIO);
	assert_int_equal(info_of(irq).wake_depth, 0);
	assert_int_equal(enable_irq_wake(T_EDGE(1)), 0);	/* software chip: SKIP_SET_WAKE */
	assert_int_equal(disable_irq_wake(T_EDGE(1)), 0);
	assert_int_equal(enable_irq_wake(T_NR_IRQS + 5), -EINVAL);
}

static void test_affinity_hint(void **state)
{
	static struct cpumask one;
	unsigned int irq = T_EDGE(2);

	(void)state;
	cpumask_clear(&one);
	cpumask_set_cpu(1, &one);
	assert_int_equal(request_irq(irq, tdev_handler, 0, "hinted", &a), 0);
	assert_int_equal(info_of(irq).cpu, 0);
	assert_int_equal(irq_update_affinity_hint(irq, &one), 0);	/* a hint only */
	assert_int_equal(irqkit_irq_get_affinity_hint(irq), 2);
	assert_int_equal(info_of(irq).cpu, 0);
	assert_int_equal(irq_set_affinity_and_hint(irq, &one), 0);	/* and routed there */
	assert_int_equal(info_of(irq).cpu, 1);
	assert_int_equal(irq_update_affinity_hint(irq, NULL), 0);
	assert_int_equal(irqkit_irq_get_affinity_hint(irq), 0);
	free_irq(irq, &a);
	assert_log_lacks("affinity hint");
	/* left set at free_irq: warned and cleared, as Linux */
	assert_int_equal(request_irq(irq, tdev_handler, 0, "hinted", &a), 0);
	assert_int_equal(irq_set_affinity_hint(irq, &one), 0);
	free_irq(irq, &a);
	assert_log_contains("WARNING");
	assert_log_contains("freed with its affinity hint still set");
	assert_int_equal(irqkit_irq_get_affinity_hint(irq), 0);
	assert_int_equal(irq_update_affinity_hint(T_NR_IRQS + 5, &one), -EINVAL);
}

static irqreturn_t any_handler(int irq, void *dev_id)
{
	struct tdev *d = dev_id;

	(void)irq;
	atomic_store(&d->saw_hardirq, irqkit_in_hardirq());
	atomic_fetch_add(&d->calls, 1);
	return IRQ_HANDLED;
}

static void test_request_any_context_irq(void **state)
{
	struct device dev;

	(void)state;
	/* a plain line: the handler runs in hardirq context */
	assert_int_equal(request_any_context_irq(T_EDGE(3), any_handler, 0, "any", &a),
			 IRQC_IS_HARDIRQ);
	assert_int_equal(irqkit_sw_raise(T_EDGE(3)), 0);
	assert_int_equal(irqkit_wait_delivered(T_EDGE(3), 5000), 0);
	assert_true(wait_until(atomic_load(&a.calls) == 1, 5000));
	assert_true(atomic_load(&a.saw_hardirq));
	free_irq(T_EDGE(3), &a);
	/* a nested-thread line: the handler is its thread function */
	irq_set_status_flags(T_EDGE(4), IRQ_NESTED_THREAD);
	assert_int_equal(request_any_context_irq(T_EDGE(4), any_handler, IRQF_ONESHOT, "nested", &a),
			 IRQC_IS_NESTED);
	free_irq(T_EDGE(4), &a);
	/* refused as the request is: a busy line */
	assert_int_equal(request_irq(T_EDGE(5), any_handler, 0, "first", &a), 0);
	assert_int_equal(request_any_context_irq(T_EDGE(5), any_handler, 0, "second", &dev),
			 -EBUSY);
	free_irq(T_EDGE(5), &a);
	/* managed */
	device_initialize(&dev);
	dev_set_name(&dev, "anydev");
	assert_int_equal(devm_request_any_context_irq(&dev, T_EDGE(6), any_handler, 0, NULL, &dev),
			 IRQC_IS_HARDIRQ);
	assert_true(irqkit_irq_has_action(T_EDGE(6)));
	assert_int_equal(devres_release_all(&dev), 1);
	assert_false(irqkit_irq_has_action(T_EDGE(6)));
}

static void test_request_nmi_checks_then_refuses(void **state)
{
	(void)state;
	assert_int_equal(request_nmi(IRQ_NOTCONNECTED, any_handler, IRQF_PERCPU, "n", &a),
			 -ENOTCONN);
	assert_int_equal(request_nmi(T_EDGE(7), any_handler, IRQF_PERCPU | IRQF_SHARED, "n", &a),
			 -EINVAL);
	assert_int_equal(request_nmi(T_EDGE(7), any_handler, IRQF_PERCPU | IRQF_IRQPOLL, "n", &a),
			 -EINVAL);
	assert_int_equal(request_nmi(T_EDGE(7), any_handler, 0, "n", &a), -EINVAL);	/* not PERCPU */
	assert_int_equal(request_nmi(T_EDGE(7), NULL, IRQF_PERCPU | IRQF_NO_AUTOEN, "n", &a),
			 -EINVAL);
	assert_int_equal(request_nmi(T_NR_IRQS + 5, any_handler, IRQF_PERCPU | IRQF_NO_AUTOEN,
				     "n", &a), -EINVAL);
	assert_int_equal(request_nmi(T_EDGE(7), any_handler, IRQF_PERCPU, "n", &a), -EINVAL);
	/* right in every way Linux checks: still no chip here delivers NMIs */
	log_clear();
	assert_int_equal(request_nmi(T_EDGE(7), any_handler, IRQF_PERCPU | IRQF_NO_AUTOEN, "n", &a),
			 -EINVAL);
	assert_log_lacks("WARNING");
	assert_false(irqkit_irq_has_action(T_EDGE(7)));
	/* a per-CPU-devid line: Linux's WARN_ON */
	irq_set_status_flags(T_EDGE(8), IRQ_PER_CPU_DEVID);
	assert_int_equal(request_nmi(T_EDGE(8), any_handler, IRQF_PERCPU | IRQF_NO_AUTOEN, "n", &a),
			 -EINVAL);
	assert_log_contains("WARNING");
	/* free_nmi of a line that is no NMI line */
	log_clear();
	assert_null(free_nmi(T_EDGE(7), &a));
	assert_log_contains("free_nmi: irq 7 is not an NMI line");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_wake_nests_and_tells_the_chip_at_the_ends, setup,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_wake_refused_by_the_chip_leaves_the_count, setup,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_affinity_hint, setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_request_any_context_irq, setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_request_nmi_checks_then_refuses, setup,
						thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
