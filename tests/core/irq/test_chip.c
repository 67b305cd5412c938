// SPDX-License-Identifier: MIT
/* Tests of src/core/irq/chip.c: the flow handlers, lazy disable, the chip calls. */
#define _GNU_SOURCE
#include "../../harness.h"
#include "../../testchip.h"

#include <unistd.h>

static struct tdev a, b;

static int setup(void **state)
{
	tdev_init(&a);
	tdev_init(&b);
	return det_setup(state);
}

static void test_count_only_when_actions_run(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_disable_irq(T_EDGE(1));
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).count, 0);
	assert_true(info_of(T_EDGE(1)).pending);
	irqkit_enable_irq(T_EDGE(1));
	assert_int_equal(info_of(T_EDGE(1)).count, 1);
	assert_int_equal(atomic_load(&a.calls), 1);
}

/* ---- 2.3: level ---------------------------------------------------------------------------- */

static void check_masked(struct tdev *dev, int irq)
{
	struct irqkit_irq_info info;

	irqkit_irq_get_info((unsigned int)irq, &info);
	dev->arg = (void *)(uintptr_t)(info.masked ? 1 : 2);
}

static void test_level_line_is_masked_while_handlers_run_and_unmasked_after(void **state)
{
	(void)state;
	a.lower_irq = T_LEVEL(1);
	a.hook = check_masked;
	assert_int_equal(irqkit_request_irq(T_LEVEL(1), tdev_handler, 0, "a", &a), 0);
	atomic_store(&a.status, 1);
	irqkit_sw_set_level(T_LEVEL(1), true);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_ptr_equal(a.arg, (void *)1);
	assert_false(info_of(T_LEVEL(1)).masked);
}

static void lower_after_three(struct tdev *dev, int irq)
{
	if (atomic_load(&dev->calls) >= 3)
		irqkit_sw_set_level((unsigned int)irq, false);
}

static void test_level_line_still_asserted_interrupts_again(void **state)
{
	(void)state;
	a.ret = IRQKIT_HANDLED;
	a.hook = lower_after_three;
	assert_int_equal(irqkit_request_irq(T_LEVEL(1), tdev_handler, 0, "a", &a), 0);
	irqkit_sw_set_level(T_LEVEL(1), true);
	assert_int_equal(atomic_load(&a.calls), 3);
	assert_int_equal(info_of(T_LEVEL(1)).count, 3);
}

static void test_level_line_disabled_stays_masked_and_is_not_replayed(void **state)
{
	struct irqkit_irq_info info;

	(void)state;
	a.lower_irq = T_LEVEL(1);
	assert_int_equal(irqkit_request_irq(T_LEVEL(1), tdev_handler, 0, "a", &a), 0);
	irqkit_disable_irq(T_LEVEL(1));
	atomic_store(&a.status, 1);
	irqkit_sw_set_level(T_LEVEL(1), true);
	info = info_of(T_LEVEL(1));
	assert_true(info.masked);	/* lazily: masked when the interrupt came */
	assert_true(info.pending);
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_enable_irq(T_LEVEL(1));
	/* no replay for level lines; the line asserts again by itself once unmasked */
	info = info_of(T_LEVEL(1));
	assert_false(info.pending);
	assert_false(info.replay);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_int_equal(atomic_load(&a.handled), 1);
}

/* ---- 2.4: edge ------------------------------------------------------------------------------- */

struct other_cpu {
	pthread_t	thread;
	atomic_int	go, done;
};

static struct other_cpu other;

static void *play_cpu1(void *arg)
{
	(void)arg;
	while (!atomic_load(&other.go))
		usleep(50);
	assert_int_equal(irqkit_cpu_run(1), 0);
	atomic_store(&other.done, 1);
	return NULL;
}

/*
 * While CPU 0 runs the handler, the line moves to CPU 1 and fires there; CPU 1
 * finds it in progress, marks it PENDING and masks; CPU 0 loops and runs it.
 */
static void edge_again_elsewhere(struct tdev *dev, int irq)
{
	if (atomic_load(&dev->calls) != 1)
		return;
	assert_int_equal(irqkit_irq_set_affinity((unsigned int)irq, 1u << 1), 0);
	irqkit_sw_raise((unsigned int)irq);
	atomic_store(&other.go, 1);
	while (!atomic_load(&other.done))
		usleep(50);
	dev->arg = (void *)(uintptr_t)(info_of((unsigned int)irq).pending ? 1 : 2);
}

static void test_edge_while_in_progress_elsewhere_is_run_by_the_running_cpu(void **state)
{
	(void)state;
	memset(&other, 0, sizeof(other));
	a.ret = IRQKIT_HANDLED;
	a.hook = edge_again_elsewhere;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	pthread_create(&other.thread, NULL, play_cpu1, NULL);
	irqkit_sw_raise(T_EDGE(1));
	pthread_join(other.thread, NULL);
	assert_ptr_equal(a.arg, (void *)1);		/* CPU 1 marked it pending */
	assert_int_equal(atomic_load(&a.calls), 2);	/* CPU 0 ran it again */
	assert_int_equal(a.cpu, 0);
	assert_int_equal(irqkit_kstat_irqs_cpu(T_EDGE(1), 0), 1);
	assert_int_equal(irqkit_kstat_irqs_cpu(T_EDGE(1), 1), 0);
	assert_false(info_of(T_EDGE(1)).masked);
	assert_false(info_of(T_EDGE(1)).pending);
}

static void test_edge_on_lazily_disabled_line_is_pending_masked_and_replayed(void **state)
{
	struct irqkit_irq_info info;
	struct irqkit_sw_stats st;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_disable_irq(T_EDGE(1));
	info = info_of(T_EDGE(1));
	assert_true(info.disabled);
	assert_false(info.masked);		/* lazy: not masked yet */
	atomic_store(&a.status, 1);
	irqkit_sw_raise(T_EDGE(1));
	info = info_of(T_EDGE(1));
	assert_true(info.pending);
	assert_true(info.masked);
	irqkit_sw_raise(T_EDGE(1));		/* latched at the masked chip */
	irqkit_enable_irq(T_EDGE(1));
	assert_int_equal(irqkit_sw_get_stats(T_EDGE(1), &st), 0);
	assert_int_equal(st.resent, 1);
	/* the pending edge and the latched one coalesce into one run */
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_int_equal(st.coalesced, 1);	/* two raises: one run, one coalesced */
	assert_false(info_of(T_EDGE(1)).pending);
}

static void test_raise_on_line_without_handler_is_latched_and_reported(void **state)
{
	struct irqkit_sw_stats st;

	(void)state;
	assert_int_equal(irqkit_sw_raise(T_EDGE(2)), 0);
	assert_log_contains("irq 2: raised with no handler installed");
	assert_int_equal(irqkit_sw_get_stats(T_EDGE(2), &st), 0);
	assert_true(st.latched);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, 0, "a", &a), 0);
	/* delivered once when the line starts, as a controller does */
	assert_int_equal(atomic_load(&a.calls), 1);
	/* raising a line that is not a software edge line is an error */
	assert_int_equal(irqkit_sw_raise(T_LEVEL(2)), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_sw_raise(T_NOCHIP), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_sw_raise(T_NR_IRQS + 9), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_sw_set_level(T_EDGE(2), true), -IRQKIT_EINVAL);
}

/* ---- 2.5: fasteoi ---------------------------------------------------------------------------- */

static void test_fasteoi_sends_one_eoi_per_interrupt(void **state)
{
	(void)state;
	testchip_attach(T_NOCHIP, &tchip_plain, irqkit_handle_fasteoi_irq);
	a.ret = IRQKIT_HANDLED;
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, 0, "a", &a), 0);
	testchip_fire(T_NOCHIP);
	testchip_fire(T_NOCHIP);
	assert_int_equal(atomic_load(&a.calls), 2);
	assert_int_equal(tchip.eoi, 2);
	assert_int_equal(tchip.ack, 0);
	assert_int_equal(tchip.mask, 0);
}

static void test_fasteoi_disabled_line_is_masked_and_eoied(void **state)
{
	(void)state;
	testchip_attach(T_NOCHIP, &tchip_plain, irqkit_handle_fasteoi_irq);
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, 0, "a", &a), 0);
	irqkit_disable_irq(T_NOCHIP);
	testchip_fire(T_NOCHIP);
	assert_int_equal(atomic_load(&a.calls), 0);
	assert_true(tchip.masked);
	assert_int_equal(tchip.eoi, 1);
	assert_true(info_of(T_NOCHIP).pending);
	irqkit_enable_irq(T_NOCHIP);
	/* replayed through the chip's retrigger */
	assert_int_equal(tchip.retrigger, 1);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_false(tchip.masked);
}

static void test_fasteoi_oneshot_line_masked_during_handler(void **state)
{
	(void)state;
	testchip_attach(T_NOCHIP, &tchip_plain, irqkit_handle_fasteoi_irq);
	a.ret = IRQKIT_HANDLED;
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, IRQKIT_F_ONESHOT, "a", &a), 0);
	testchip_fire(T_NOCHIP);
	assert_int_equal(tchip.mask, 1);
	assert_int_equal(tchip.unmask, 2);	/* startup, then after the handler */
	assert_int_equal(tchip.eoi, 1);
	assert_false(tchip.masked);
}

static void test_fasteoi_eoi_if_handled_chip_skips_eoi_on_disabled_line(void **state)
{
	(void)state;
	testchip_attach(T_NOCHIP, &tchip_eoi_if_handled, irqkit_handle_fasteoi_irq);
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, 0, "a", &a), 0);
	irqkit_disable_irq(T_NOCHIP);
	testchip_fire(T_NOCHIP);
	assert_int_equal(tchip.eoi, 0);
	assert_true(tchip.masked);
}

/* ---- 2.6 / 2.7: simple, per-CPU, untracked ------------------------------------------------------ */

static void test_simple_flow_makes_no_chip_calls(void **state)
{
	(void)state;
	testchip_attach(T_NOCHIP, &tchip_plain, irqkit_handle_simple_irq);
	a.ret = IRQKIT_HANDLED;
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, 0, "a", &a), 0);
	memset(&tchip, 0, sizeof(tchip));
	testchip_fire(T_NOCHIP);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_int_equal(tchip.ack + tchip.eoi + tchip.mask + tchip.unmask, 0);
	assert_int_equal(info_of(T_NOCHIP).count, 1);
	irqkit_disable_irq_nosync(T_NOCHIP);
	testchip_fire(T_NOCHIP);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_true(info_of(T_NOCHIP).pending);
	assert_int_equal(tchip.mask, 0);	/* simple: mark only */
}

static void test_percpu_flow_acks_counts_and_eois(void **state)
{
	(void)state;
	testchip_attach(T_NOCHIP, &tchip_plain, irqkit_handle_percpu_irq);
	a.ret = IRQKIT_HANDLED;
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, IRQKIT_F_PERCPU, "a", &a), 0);
	memset(&tchip, 0, sizeof(tchip));
	testchip_fire(T_NOCHIP);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_int_equal(tchip.ack, 1);
	assert_int_equal(tchip.eoi, 1);
	assert_int_equal(irqkit_kstat_irqs_cpu(T_NOCHIP, 0), 1);
	assert_int_equal(info_of(T_NOCHIP).irq_count, 1);
}

static void test_untracked_flow_neither_counts_nor_accounts(void **state)
{
	(void)state;
	testchip_attach(T_NOCHIP, &tchip_plain, irqkit_handle_untracked_irq);
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, 0, "a", &a), 0);
	testchip_fire(T_NOCHIP);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_int_equal(info_of(T_NOCHIP).count, 0);
	assert_int_equal(info_of(T_NOCHIP).irq_count, 0);
	assert_int_equal(info_of(T_NOCHIP).irqs_unhandled, 0);
}

/* ---- 2.9: lazy disable ---------------------------------------------------------------------------- */

static void test_chip_with_irq_disable_masks_at_once(void **state)
{
	(void)state;
	testchip_attach(T_NOCHIP, &tchip_with_disable, irqkit_handle_edge_irq);
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, 0, "a", &a), 0);
	assert_int_equal(tchip.enable, 1);	/* no irq_startup: started by irq_enable */
	irqkit_disable_irq(T_NOCHIP);
	assert_int_equal(tchip.disable, 1);
	assert_true(info_of(T_NOCHIP).masked);
	irqkit_enable_irq(T_NOCHIP);
	assert_int_equal(tchip.enable, 2);
	assert_false(info_of(T_NOCHIP).masked);
}

static void test_disable_unlazy_masks_at_once(void **state)
{
	(void)state;
	irqkit_irq_modify_status(T_EDGE(1), 0, IRQKIT_IRQ_DISABLE_UNLAZY);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_disable_irq(T_EDGE(1));
	assert_true(info_of(T_EDGE(1)).masked);
	irqkit_enable_irq(T_EDGE(1));
	assert_false(info_of(T_EDGE(1)).masked);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_count_only_when_actions_run),
		T(test_level_line_is_masked_while_handlers_run_and_unmasked_after),
		T(test_level_line_still_asserted_interrupts_again),
		T(test_level_line_disabled_stays_masked_and_is_not_replayed),
		T(test_edge_while_in_progress_elsewhere_is_run_by_the_running_cpu),
		T(test_edge_on_lazily_disabled_line_is_pending_masked_and_replayed),
		T(test_raise_on_line_without_handler_is_latched_and_reported),
		T(test_fasteoi_sends_one_eoi_per_interrupt),
		T(test_fasteoi_disabled_line_is_masked_and_eoied),
		T(test_fasteoi_oneshot_line_masked_during_handler),
		T(test_fasteoi_eoi_if_handled_chip_skips_eoi_on_disabled_line),
		T(test_simple_flow_makes_no_chip_calls),
		T(test_percpu_flow_acks_counts_and_eois),
		T(test_untracked_flow_neither_counts_nor_accounts),
		T(test_chip_with_irq_disable_masks_at_once),
		T(test_disable_unlazy_masks_at_once),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
