// SPDX-License-Identifier: MIT
/*
 * Per-CPU variables and per-CPU interrupts with a per-CPU dev_id, in Linux's
 * names: alloc_percpu and DEFINE_PER_CPU copies per CPU; request_percpu_irq
 * on a line of the banked software chip, each CPU enabling it for itself,
 * its handler given that CPU's copy of the dev_id; an edge raised while a
 * CPU has the line disabled waits for that CPU's enable; /proc/interrupts;
 * Linux's refusals and warnings (free with the wrong dev_id or while still
 * enabled, enable of a line that is not per-CPU, a spurious per-CPU
 * interrupt); and, threaded, both CPUs taking their own copies at once.
 */
#include "../../harness.h"

#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/errno.h>
#include <irqkit/swchip.h>
#include <irqkit/proc.h>

#include <stdatomic.h>
#include <pthread.h>
#include <string.h>

#define PCPU_IRQ	50
#define PCPU_IRQ2	51

struct evt {
	int		cpu;		/* the CPU whose copy this is, set by the test */
	atomic_int	runs;
	atomic_int	ran_on;		/* smp_processor_id() in the handler */
	atomic_int	in_hardirq;
	long		pad[3];
};

static DEFINE_PER_CPU(int, static_counter) = 7;
static DEFINE_PER_CPU(struct evt, static_evt);

static irqreturn_t evt_handler(int irq, void *dev)
{
	struct evt *e = dev;

	(void)irq;
	atomic_fetch_add(&e->runs, 1);
	atomic_store(&e->ran_on, smp_processor_id());
	atomic_store(&e->in_hardirq, in_hardirq() ? 1 : 0);
	this_cpu_inc(static_counter);
	return IRQ_HANDLED;
}

static void test_percpu_variables(void **state)
{
	struct pair { long a, b; } *p = alloc_percpu(struct pair), *q;

	(void)state;
	assert_non_null(p);
	assert_ptr_not_equal(per_cpu_ptr(p, 0), per_cpu_ptr(p, 1));
	assert_ptr_equal(per_cpu_ptr(p, 0), p);
	assert_int_equal(per_cpu_ptr(p, 1)->a, 0);	/* zeroed, every copy */
	per_cpu_ptr(p, 0)->a = 10;
	per_cpu_ptr(p, 1)->a = 11;
	assert_int_equal(per_cpu_ptr(p, 0)->a, 10);
	assert_int_equal(per_cpu_ptr(p, 1)->a, 11);
	/* a pointer inside the object finds the same place in another copy */
	assert_ptr_equal(per_cpu_ptr(&p->b, 1), &per_cpu_ptr(p, 1)->b);
	/* this_cpu_ptr: the caller's CPU (an unbound thread acts for CPU 0) */
	assert_ptr_equal(this_cpu_ptr(p), per_cpu_ptr(p, 0));
	assert_int_equal(irqkit_thread_bind(1), 0);
	assert_ptr_equal(this_cpu_ptr(p), per_cpu_ptr(p, 1));
	this_cpu_inc(static_counter);
	assert_int_equal(irqkit_thread_bind(0), 0);
	/* static: every CPU's copy started from the initial value */
	assert_int_equal(per_cpu(static_counter, 0), 7);
	assert_int_equal(per_cpu(static_counter, 1), 8);
	assert_int_equal(this_cpu_read(static_counter), 7);
	per_cpu(static_counter, 1) = 7;
	free_percpu(p);
	q = alloc_percpu(struct pair);
	assert_ptr_equal(q, p);			/* its room came back */
	assert_int_equal(per_cpu_ptr(q, 1)->a, 0);
	free_percpu(q);
	/* misuse: a pointer that is not per-CPU */
	log_clear();
	assert_null(per_cpu_ptr(&state, 1));
	assert_log_contains("not a per-CPU pointer");
	free_percpu(&state);
	assert_log_contains("not a per-CPU allocation");
}

static void test_each_cpu_enables_its_own_and_gets_its_own_dev_id(void **state)
{
	static char buf[16384];
	struct evt *dev = alloc_percpu(struct evt);
	const char *row;

	(void)state;
	assert_non_null(dev);
	for (int cpu = 0; cpu < 2; cpu++)
		per_cpu_ptr(dev, cpu)->cpu = cpu;
	assert_false(irq_is_percpu_devid(PCPU_IRQ));
	assert_int_equal(irqkit_swchip_add_percpu(PCPU_IRQ, 1), 0);
	assert_true(irq_is_percpu_devid(PCPU_IRQ));
	assert_false(irq_is_percpu_devid(PCPU_IRQ + 1));
	assert_false(irq_is_percpu_devid(100000));
	assert_int_equal(request_percpu_irq(PCPU_IRQ, evt_handler, "local-timer", dev), 0);
	/* requested, enabled nowhere: an edge for CPU 0 waits in CPU 0's bank */
	assert_false(irq_percpu_is_enabled(PCPU_IRQ));
	assert_int_equal(irqkit_sw_raise_on(PCPU_IRQ, 0), 0);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&per_cpu_ptr(dev, 0)->runs), 0);
	enable_percpu_irq(PCPU_IRQ, IRQ_TYPE_NONE);
	assert_true(irq_percpu_is_enabled(PCPU_IRQ));
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&per_cpu_ptr(dev, 0)->runs), 1);
	assert_int_equal(atomic_load(&per_cpu_ptr(dev, 0)->ran_on), 0);
	assert_int_equal(atomic_load(&per_cpu_ptr(dev, 0)->in_hardirq), 1);
	/* CPU 1 has not enabled it: its edge waits, CPU 0's enable is not CPU 1's */
	assert_int_equal(irqkit_sw_raise_on(PCPU_IRQ, 1), 0);
	assert_int_equal(irqkit_cpu_run(1), 0);
	assert_int_equal(atomic_load(&per_cpu_ptr(dev, 1)->runs), 0);
	assert_int_equal(irqkit_thread_bind(1), 0);
	assert_false(irq_percpu_is_enabled(PCPU_IRQ));
	enable_percpu_irq(PCPU_IRQ, IRQ_TYPE_NONE);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&per_cpu_ptr(dev, 1)->runs), 1);
	assert_int_equal(atomic_load(&per_cpu_ptr(dev, 1)->ran_on), 1);
	assert_int_equal(per_cpu(static_counter, 1), 8);
	/* disabled on CPU 1 only: CPU 0 still takes its own */
	disable_percpu_irq(PCPU_IRQ);
	assert_int_equal(irqkit_thread_bind(0), 0);
	assert_int_equal(irqkit_sw_raise_on(PCPU_IRQ, 0), 0);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&per_cpu_ptr(dev, 0)->runs), 2);
	/* /proc/interrupts: the per-CPU counts, the chip, the flow */
	assert_true(irqkit_show_interrupts_buf(buf, sizeof(buf), 0) > 0);
	row = strstr(buf, " 50:");
	assert_non_null(row);
	assert_int_equal(strtoul(row + 4, (char **)&row, 10), 2);
	assert_int_equal(strtoul(row, (char **)&row, 10), 1);
	assert_non_null(strstr(row, "SW-PERCPU"));
	assert_non_null(strstr(row, "percpu_devid"));
	assert_non_null(strstr(row, "local-timer"));
	/* free while CPU 0 still has it enabled: Linux's warning, nothing freed */
	log_clear();
	free_percpu_irq(PCPU_IRQ, dev);
	assert_log_contains("percpu IRQ 50 still enabled on CPU0!");
	assert_int_equal(irqkit_sw_raise_on(PCPU_IRQ, 0), 0);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&per_cpu_ptr(dev, 0)->runs), 3);
	/* the wrong dev_id */
	log_clear();
	disable_percpu_irq(PCPU_IRQ);
	free_percpu_irq(PCPU_IRQ, &static_evt);
	assert_log_contains("Trying to free already-free IRQ 50");
	free_percpu_irq(PCPU_IRQ, dev);
	assert_false(irqkit_irq_has_action(PCPU_IRQ));
	free_percpu(dev);
}

static void test_linux_refusals(void **state)
{
	static int one;
	struct evt *dev = alloc_percpu(struct evt);

	(void)state;
	assert_int_equal(irqkit_swchip_add_percpu(PCPU_IRQ, 2), 0);
	assert_int_equal(irq_set_percpu_devid(PCPU_IRQ), -EINVAL);	/* one already */
	assert_int_equal(request_percpu_irq(PCPU_IRQ, evt_handler, "x", NULL), -EINVAL);
	assert_int_equal(request_percpu_irq(T_EDGE(1), evt_handler, "x", dev), -EINVAL);
	/* a per-CPU line refuses request_irq, with Linux's warning */
	log_clear();
	assert_int_equal(request_irq(PCPU_IRQ, evt_handler, 0, "x", &one), -EINVAL);
	assert_log_contains("WARNING");
	assert_int_equal(request_percpu_irq(PCPU_IRQ, evt_handler, "x", dev), 0);
	assert_int_equal(request_percpu_irq(PCPU_IRQ, evt_handler, "y", dev), -EBUSY);
	/* enable_percpu_irq of a line that is not per-CPU: refused, said */
	log_clear();
	enable_percpu_irq(T_EDGE(1), IRQ_TYPE_NONE);
	assert_log_contains("enable_percpu_irq(1): not a per-CPU line");
	free_percpu_irq(PCPU_IRQ, dev);
	/* a spurious per-CPU interrupt: said once, the line disabled on that CPU */
	log_clear();
	enable_percpu_irq(PCPU_IRQ2, IRQ_TYPE_NONE);
	assert_int_equal(irqkit_sw_raise_on(PCPU_IRQ2, 0), 0);
	irqkit_deliver_pending();
	assert_log_contains("Spurious and unmasked percpu IRQ51 on CPU0");
	assert_false(irq_percpu_is_enabled(PCPU_IRQ2));
	assert_int_equal(irqkit_sw_raise_on(PCPU_IRQ2, 0), 0);
	irqkit_deliver_pending();
	assert_int_equal(log_count("Spurious"), 1);
	free_percpu(dev);
}

/* ---- threaded: both CPUs at once ---------------------------------------------------- */

static struct evt *tdev;

static void *raiser(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;

	for (int i = 0; i < stress_scale(20000); i++) {
		irqkit_sw_raise_on(PCPU_IRQ, cpu);
		if (i % 64 == 0)
			usleep_100();
	}
	return NULL;
}

static void *enabler(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;

	assert_int_equal(irqkit_thread_bind(cpu), 0);
	enable_percpu_irq(PCPU_IRQ, IRQ_TYPE_NONE);
	irqkit_thread_unbind();
	return NULL;
}

static void *disabler(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;

	assert_int_equal(irqkit_thread_bind(cpu), 0);
	disable_percpu_irq(PCPU_IRQ);
	irqkit_thread_unbind();
	return NULL;
}

static void on_each_cpu_thread(void *(*fn)(void *))
{
	pthread_t th[2];

	for (uintptr_t cpu = 0; cpu < 2; cpu++)
		pthread_create(&th[cpu], NULL, fn, (void *)cpu);
	for (int cpu = 0; cpu < 2; cpu++)
		pthread_join(th[cpu], NULL);
}

static void test_threaded_cpus_take_their_own_copies(void **state)
{
	struct irqkit_irq_events ev;

	(void)state;
	tdev = alloc_percpu(struct evt);
	assert_non_null(tdev);
	for (int cpu = 0; cpu < 2; cpu++)
		per_cpu_ptr(tdev, cpu)->cpu = cpu;
	assert_int_equal(irqkit_swchip_add_percpu(PCPU_IRQ, 1), 0);
	assert_int_equal(request_percpu_irq(PCPU_IRQ, evt_handler, "ipi", tdev), 0);
	on_each_cpu_thread(enabler);
	on_each_cpu_thread(raiser);
	for (int cpu = 0; cpu < 2; cpu++) {
		struct evt *e = per_cpu_ptr(tdev, cpu);

		assert_true(wait_until(atomic_load(&e->runs) > 0, 5000));
		assert_int_equal(atomic_load(&e->ran_on), cpu);
	}
	(void)ev;
	on_each_cpu_thread(disabler);
	free_percpu_irq(PCPU_IRQ, tdev);
	assert_false(irqkit_irq_has_action(PCPU_IRQ));
	test_printf("per-CPU line: CPU0 %d runs, CPU1 %d runs\n",
		    atomic_load(&per_cpu_ptr(tdev, 0)->runs), atomic_load(&per_cpu_ptr(tdev, 1)->runs));
	free_percpu(tdev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_percpu_variables, det_setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_each_cpu_enables_its_own_and_gets_its_own_dev_id,
						det_setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_linux_refusals, det_setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_threaded_cpus_take_their_own_copies,
						thr_setup, thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
