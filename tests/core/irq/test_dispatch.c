// SPDX-License-Identifier: MIT
/*
 * Tests of src/core/irq/dispatch.c: binding threads to virtual CPUs, taking a CPU's
 * interrupts on the calling thread (irqkit_cpu_run, irqkit_deliver_pending,
 * irqkit_cpu_handle_now), and a request to a CPU or line that does not exist.
 */
#include "../../harness.h"

#include <irqkit-core/arch.h>	/* the trap entry a port calls */

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

/* ---- the trap entry (arch.h): what a port's interrupt trap calls ---- */

static struct {
	unsigned int	irq;
	int		root_calls;
	bool		root_in_hardirq, root_irqs_off;
	int		tasklet_runs;
	bool		tasklet_in_softirq, tasklet_in_hardirq;
	int		nested_ret;
} trap;
static struct irqkit_tasklet trap_tasklet;

static void trap_tasklet_fn(unsigned long data)
{
	(void)data;
	trap.tasklet_runs++;
	trap.tasklet_in_softirq = irqkit_in_serving_softirq();
	trap.tasklet_in_hardirq = irqkit_in_hardirq();
}

static void nop_root(void *arg)
{
	(void)arg;
}

/* The root controller's handler: it finds trap.irq pending and hands it on. */
static void trap_root(void *arg)
{
	(void)arg;
	trap.root_calls++;
	trap.root_in_hardirq = irqkit_in_hardirq();
	trap.root_irqs_off = irqkit_irqs_disabled();
	trap.nested_ret = irqkit__core_handle_arch_irq(nop_root, NULL);
	assert_int_equal(irqkit_generic_handle_irq(trap.irq), 0);
	irqkit_tasklet_schedule(&trap_tasklet);
}

static void trap_setup(unsigned int irq)
{
	memset(&trap, 0, sizeof(trap));
	trap.irq = irq;
	irqkit_tasklet_init(&trap_tasklet, trap_tasklet_fn, 0);
	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_request_irq(irq, tdev_handler, 0, "trap", &dev), 0);
}

/* The trap runs the root handler and the flow in hardirq context, then irq_exit's softirqs. */
static void test_trap_entry_runs_root_in_hardirq_then_softirqs(void **state)
{
	(void)state;
	trap_setup(T_EDGE(8));
	assert_int_equal(irqkit__core_handle_arch_irq(trap_root, NULL), 0);
	assert_int_equal(trap.root_calls, 1);
	assert_true(trap.root_in_hardirq);
	assert_true(trap.root_irqs_off);
	assert_int_equal(trap.nested_ret, -IRQKIT_EBUSY);	/* no trap inside a trap */
	assert_int_equal(atomic_load(&dev.handled), 1);
	assert_true(atomic_load(&dev.saw_hardirq));
	assert_int_equal(atomic_load(&dev.cpu), 0);
	/* the tasklet the handler scheduled ran at irq_exit, in softirq context */
	assert_int_equal(trap.tasklet_runs, 1);
	assert_true(trap.tasklet_in_softirq);
	assert_false(trap.tasklet_in_hardirq);
	/* and the caller is back in process context with interrupts on */
	assert_false(irqkit_in_interrupt());
	assert_false(irqkit_irqs_disabled());
	irqkit_free_irq(T_EDGE(8), &dev);
}

/* Inside a bottom-half-off section irq_exit leaves the softirqs for local_bh_enable. */
static void test_trap_entry_in_bh_off_section_defers_softirqs(void **state)
{
	(void)state;
	trap_setup(T_EDGE(9));
	irqkit_local_bh_disable();
	assert_int_equal(irqkit__core_handle_arch_irq(trap_root, NULL), 0);
	assert_int_equal(atomic_load(&dev.handled), 1);
	assert_int_equal(trap.tasklet_runs, 0);
	irqkit_local_bh_enable();
	assert_int_equal(trap.tasklet_runs, 1);
	irqkit_free_irq(T_EDGE(9), &dev);
}

/* Where a CPU would not take an interrupt, nothing runs and the caller is told why. */
static void test_trap_entry_refused_where_no_interrupt_is_taken(void **state)
{
	(void)state;
	trap_setup(T_EDGE(10));
	irqkit_local_irq_disable();
	assert_int_equal(irqkit__core_handle_arch_irq(trap_root, NULL), -IRQKIT_EBUSY);
	irqkit_local_irq_enable();
	assert_int_equal(irqkit_thread_unbind(), 0);
	assert_int_equal(irqkit__core_handle_arch_irq(trap_root, NULL), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_thread_bind(0), 0);
	assert_int_equal(trap.root_calls, 0);
	assert_int_equal(atomic_load(&dev.calls), 0);
	irqkit_free_irq(T_EDGE(10), &dev);
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
		T(test_trap_entry_runs_root_in_hardirq_then_softirqs),
		T(test_trap_entry_in_bh_off_section_defers_softirqs),
		T(test_trap_entry_refused_where_no_interrupt_is_taken),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
