// SPDX-License-Identifier: MIT
/*
 * Cross-CPU function calls (<irqkit/smp.h>, Linux's kernel/smp.c): a call
 * runs on its CPU in hardirq context with interrupts off, from the
 * function-call vector (CAL in /proc/interrupts), or here at once with
 * interrupts off; a waiter returns after it ran; -ENXIO for a CPU that is
 * not online; an async descriptor still queued is -EBUSY; many and
 * on_each_cpu reach each online CPU of their mask once; a call with
 * interrupts off or from a handler is warned about; an offline CPU's
 * queued calls still run; thousands of calls both ways lose nothing.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <irqkit/smp.h>

#if T_CPUS_ARE_THREADS
#include <unistd.h>
#endif

struct where {
	atomic_int	calls;
	atomic_int	cpu;
	atomic_bool	hardirq, irqs_off;
	atomic_uint	on;		/* CPUs it ran on, a bit each */
};

static struct where w;

static void note(void *info)
{
	struct where *x = info;

	atomic_store(&x->cpu, irqkit_smp_processor_id());
	atomic_store(&x->hardirq, irqkit_in_hardirq());
	atomic_store(&x->irqs_off, irqkit_irqs_disabled());
	atomic_fetch_or(&x->on, 1u << irqkit_smp_processor_id());
	atomic_fetch_add(&x->calls, 1);
}

static int setup(void **state)
{
	memset(&w, 0, sizeof(w));
	return det_setup(state);
}

static unsigned int cal_count(unsigned int cpu)
{
	char buf[4096], *row, *p;
	unsigned int n[2] = { 0, 0 };

	assert_true(irqkit_show_interrupts_buf(buf, sizeof(buf), 0) > 0);
	row = strstr(buf, "CAL:");
	assert_non_null(row);
	p = row + 4;
	for (unsigned int c = 0; c <= cpu && c < 2; c++) {
		while (*p == ' ')
			p++;
		while (*p >= '0' && *p <= '9')
			n[c] = n[c] * 10 + (unsigned int)(*p++ - '0');
	}
	assert_non_null(strstr(row, "Function call interrupts"));
	return n[cpu];
}

static void test_a_call_runs_on_its_cpu_in_hardirq_context(void **state)
{
	unsigned int before = cal_count(1);

	(void)state;
	assert_true(irqkit_nr_cpus() >= 2);
	assert_int_equal(irqkit_smp_call_function_single(1, note, &w, 1), 0);
	assert_int_equal(atomic_load(&w.calls), 1);
	assert_int_equal(atomic_load(&w.cpu), 1);
	assert_true(atomic_load(&w.hardirq));
	assert_true(atomic_load(&w.irqs_off));
	assert_int_equal(cal_count(1), before + 1);
	/* to this CPU: at once, interrupts off, no interrupt */
	assert_int_equal(irqkit_smp_call_function_single(0, note, &w, 1), 0);
	assert_int_equal(atomic_load(&w.cpu), 0);
	assert_false(atomic_load(&w.hardirq));
	assert_true(atomic_load(&w.irqs_off));
	assert_false(irqkit_irqs_disabled());
	/* not waiting: it has run by the next delivery point */
	assert_int_equal(irqkit_smp_call_function_single(1, note, &w, 0), 0);
	(void)irqkit_cpu_run(1);	/* deterministic mode: CPU 1 takes its interrupts here */
	assert_int_equal(atomic_load(&w.calls), 3);
	/* no such CPU, or not online */
	assert_int_equal(irqkit_smp_call_function_single(64, note, &w, 1), -IRQKIT_ENXIO);
	assert_int_equal(irqkit_smp_call_function_single(-1, note, &w, 1), -IRQKIT_ENXIO);
	assert_int_equal(irqkit_remove_cpu(1), 0);
	assert_int_equal(irqkit_smp_call_function_single(1, note, &w, 1), -IRQKIT_ENXIO);
	assert_int_equal(irqkit_smp_call_function_any(1ull << 1, note, &w, 1), -IRQKIT_ENXIO);
	assert_int_equal(irqkit_add_cpu(1), 0);
	assert_int_equal(atomic_load(&w.calls), 3);
	/* any: this CPU if in the mask, else the first online */
	assert_int_equal(irqkit_smp_call_function_any(3, note, &w, 1), 0);
	assert_int_equal(atomic_load(&w.cpu), 0);
	assert_int_equal(irqkit_smp_call_function_any(2, note, &w, 1), 0);
	assert_int_equal(atomic_load(&w.cpu), 1);
}

static bool odd_only(int cpu, void *info)
{
	(void)info;
	return cpu % 2;
}

static void test_many_and_each_cpu(void **state)
{
	(void)state;
	irqkit_on_each_cpu(note, &w, 1);
	assert_int_equal(atomic_load(&w.calls), 2);
	assert_int_equal(atomic_load(&w.on), 3);
	/* many and smp_call_function: not this CPU */
	atomic_store(&w.on, 0);
	irqkit_smp_call_function_many(3, note, &w, true);
	assert_int_equal(atomic_load(&w.on), 2);
	irqkit_smp_call_function(note, &w, 1);
	assert_int_equal(atomic_load(&w.calls), 4);
	/* a condition picks; a mask limits */
	atomic_store(&w.on, 0);
	irqkit_on_each_cpu_cond_mask(odd_only, note, &w, true, ~0ull);
	assert_int_equal(atomic_load(&w.on), 2);
	atomic_store(&w.on, 0);
	irqkit_on_each_cpu_mask(1, note, &w, true);
	assert_int_equal(atomic_load(&w.on), 1);
	assert_int_equal(atomic_load(&w.calls), 6);
}

/* An async call from a handler: its descriptor is free again in its callback. */
static struct irqkit_call_single_data async_csd;
static atomic_int async_runs, async_requeue;

static void async_fn(void *info)
{
	(void)info;
	atomic_fetch_add(&async_runs, 1);
	if (atomic_fetch_sub(&async_requeue, 1) > 0)
		assert_int_equal(irqkit_smp_call_function_single_async(1, &async_csd), 0);
}

static enum irqkit_irqreturn async_from_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	assert_int_equal(irqkit_smp_call_function_single_async(1, &async_csd), 0);
	assert_int_equal(irqkit_smp_call_function_single_async(1, &async_csd), -IRQKIT_EBUSY);
	return IRQKIT_HANDLED;
}

static void test_async_from_a_handler_and_busy(void **state)
{
	(void)state;
	async_csd = (struct irqkit_call_single_data){ .func = async_fn };
	atomic_store(&async_runs, 0);
	atomic_store(&async_requeue, 2);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), async_from_handler, 0, "a", NULL), 0);
	irqkit_sw_raise(T_EDGE(1));
	for (int i = 0; i < 3; i++)
		(void)irqkit_cpu_run(1);	/* each run queues it again, to CPU 1 */
	assert_int_equal(atomic_load(&async_runs), 3);
	assert_false(async_csd.flags & IRQKIT_CSD_FLAG_LOCK);
	irqkit_free_irq(T_EDGE(1), NULL);
}

/* Linux's warnings: a waiting call with interrupts off, or from a handler. */
static enum irqkit_irqreturn call_from_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	assert_int_equal(irqkit_smp_call_function_single(0, note, &w, 0), 0);
	return IRQKIT_HANDLED;
}

static void test_bad_contexts_are_warned_about(void **state)
{
	unsigned long flags;

	(void)state;
	flags = irqkit_local_irq_save();
	assert_int_equal(irqkit_smp_call_function_single(0, note, &w, 1), 0);
	irqkit_local_irq_restore(flags);
	assert_log_contains("smp_call_function with interrupts off");
	log_clear();
	assert_int_equal(irqkit_request_irq(T_EDGE(2), call_from_handler, 0, "b", NULL), 0);
	irqkit_sw_raise(T_EDGE(2));
	assert_log_contains("smp_call_function outside task context");
	irqkit_free_irq(T_EDGE(2), NULL);
}

#if T_CPUS_ARE_THREADS
static int thr_setup_2(void **state)
{
	(void)state;
	memset(&w, 0, sizeof(w));
	return thr_setup_cpus(2, T_NR_IRQS);
}

/* Calls both ways between two CPUs' threads, waiting and not: every one runs, where it was sent. */
static atomic_int ran[2][2];		/* [from][wait] */
static atomic_int wrong_cpu;

struct pinger {
	unsigned int	cpu;
	int		n;
};

static void count_fn(void *info)
{
	uintptr_t v = (uintptr_t)info;

	if (irqkit_smp_processor_id() != (int)(v >> 2) || !irqkit_in_hardirq())
		atomic_fetch_add(&wrong_cpu, 1);
	atomic_fetch_add(&ran[v & 1][(v >> 1) & 1], 1);
}

static void *pinger_main(void *arg)
{
	struct pinger *p = arg;
	unsigned int to = 1 - p->cpu;

	assert_int_equal(irqkit_thread_bind(p->cpu), 0);
	for (int i = 0; i < p->n; i++) {
		int wait = i % 2;

		assert_int_equal(irqkit_smp_call_function_single((int)to, count_fn,
								 (void *)(uintptr_t)(to << 2 | (unsigned)wait << 1 | p->cpu),
								 wait),
				 0);
	}
	irqkit_thread_unbind();
	return NULL;
}

static void test_calls_both_ways_lose_nothing(void **state)
{
	struct pinger p[2] = { { 0, stress_scale(10000) }, { 1, stress_scale(10000) } };
	pthread_t th[2];

	(void)state;
	memset(ran, 0, sizeof(ran));
	atomic_store(&wrong_cpu, 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&th[i], NULL, pinger_main, &p[i]), 0);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (int from = 0; from < 2; from++)
		assert_true(wait_until(atomic_load(&ran[from][0]) == p[from].n / 2, 5000));
	for (int from = 0; from < 2; from++)
		assert_int_equal(atomic_load(&ran[from][1]), p[from].n / 2);
	assert_int_equal(atomic_load(&wrong_cpu), 0);
}

/* CSD lock debugging: a CPU that holds its interrupts off past the timeout is named. */
static struct cpu_hold csd_hold;

static void *release_later(void *arg)
{
	(void)arg;
	usleep(200000);
	cpu_hold_release(&csd_hold);
	return NULL;
}

static void test_a_cpu_that_does_not_take_its_call_is_named(void **state)
{
	pthread_t th;

	(void)state;
	irqkit_set_csd_lock_timeout(50);
	cpu_hold_start(&csd_hold, 1, NULL, NULL);
	assert_int_equal(pthread_create(&th, NULL, release_later, NULL), 0);
	assert_int_equal(irqkit_smp_call_function_single(1, note, &w, 1), 0);
	pthread_join(th, NULL);
	assert_int_equal(atomic_load(&w.calls), 1);
	assert_log_contains("csd: Detected non-responsive CSD lock (#");
	assert_log_contains(" ns for CPU#01 ");
	assert_log_contains("csd: Continued non-responsive CSD lock");
	assert_log_contains("got unstuck on CPU#00, CPU#01 released the lock.");
	irqkit_set_csd_lock_timeout(5000);
}

/* The calls' order: each appends its letter. */
static char order[8];
static atomic_int order_n, order_done;	/* slots taken; letters written (a release) */

static void append(void *info)
{
	int at = atomic_fetch_add(&order_n, 1);

	if (at < (int)sizeof(order) - 1)
		order[at] = *(const char *)info;
	atomic_fetch_add(&order_done, 1);
}

/* Calls queued to a CPU that goes offline before it can take them still run, once, in order. */
static void test_an_offline_cpus_calls_still_run(void **state)
{
	struct cpu_hold hold;
	struct irqkit_call_single_data csd = { .func = note, .info = &w };
	struct irqkit_call_single_data abc[3] = {
		{ .func = append, .info = "a" }, { .func = append, .info = "b" },
		{ .func = append, .info = "c" },
	};

	(void)state;
	memset(order, 0, sizeof(order));
	atomic_store(&order_n, 0);
	atomic_store(&order_done, 0);
	cpu_hold_start(&hold, 1, NULL, NULL);
	assert_int_equal(irqkit_smp_call_function_single_async(1, &csd), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(irqkit_smp_call_function_single_async(1, &abc[i]), 0);
	usleep(10000);
	assert_int_equal(atomic_load(&w.calls), 0);	/* CPU 1 holds its interrupts off */
	assert_int_equal(irqkit_remove_cpu(1), 0);
	assert_true(wait_until(atomic_load(&w.calls) == 1 && atomic_load(&order_done) == 3, 5000));
	assert_int_equal(atomic_load(&w.cpu), 0);
	assert_string_equal(order, "abc");		/* the order they were sent in */
	cpu_hold_release(&hold);
	usleep(10000);
	assert_int_equal(atomic_load(&w.calls), 1);
	assert_int_equal(irqkit_add_cpu(1), 0);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_call_runs_on_its_cpu_in_hardirq_context, setup,
						det_teardown),
		cmocka_unit_test_setup_teardown(test_many_and_each_cpu, setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_async_from_a_handler_and_busy, setup,
						det_teardown),
		cmocka_unit_test_setup_teardown(test_bad_contexts_are_warned_about, setup,
						det_teardown),
#if T_CPUS_ARE_THREADS
		cmocka_unit_test_setup_teardown(test_calls_both_ways_lose_nothing, thr_setup_2,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_an_offline_cpus_calls_still_run, thr_setup_2,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_a_cpu_that_does_not_take_its_call_is_named,
						thr_setup_2, thr_teardown),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
