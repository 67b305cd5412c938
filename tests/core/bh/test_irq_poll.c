// SPDX-License-Identifier: MIT
/*
 * irq_poll (<irqkit/irq_poll.h>, Linux's lib/irq_poll.c): a poll that uses
 * its whole weight is polled again, one that uses less completes; the
 * softirq's budget of 256 ends a run and raises it again; a schedule of a
 * scheduled or disabled instance does nothing; disable waits for a
 * running poll and holds the instance until enable; an offline CPU's
 * instances run on a live one.
 */
#define _GNU_SOURCE
#include "../../harness.h"

#include <irqkit/irq_poll.h>

#if T_CPUS_ARE_THREADS
#include <unistd.h>
#endif

struct dev {
	struct irqkit_irq_poll	iop;
	atomic_int		backlog;	/* completions waiting in the device */
	atomic_int		polls, reaped;
	atomic_int		cpu;
	atomic_bool		in_poll, go;	/* the disable test's poll waits for go */
	bool			slow;
	char			name;
};

static char order[64];
static atomic_int order_n;

static int dev_poll(struct irqkit_irq_poll *iop, int budget)
{
	struct dev *d = container_of(iop, struct dev, iop);
	int n = atomic_load(&d->backlog), done = n < budget ? n : budget;
	int at = atomic_fetch_add(&order_n, 1);

	if (at < (int)sizeof(order) - 1)
		order[at] = d->name;
	atomic_fetch_add(&d->polls, 1);
	atomic_store(&d->cpu, irqkit_smp_processor_id());
	if (d->slow) {
		atomic_store(&d->in_poll, true);
		while (!atomic_load(&d->go))
			;
	}
	atomic_fetch_sub(&d->backlog, done);
	atomic_fetch_add(&d->reaped, done);
	if (d->slow)
		atomic_store(&d->in_poll, false);	/* its work done: what the disable waits for */
	if (done < budget)
		irqkit_irq_poll_complete(iop);
	return done;
}

static struct dev a, b;

static void dev_init(struct dev *d, char name, int weight, int backlog)
{
	memset(d, 0, sizeof(*d));
	d->name = name;
	atomic_store(&d->backlog, backlog);
	irqkit_irq_poll_init(&d->iop, weight, dev_poll);
}

static int setup(void **state)
{
	memset(order, 0, sizeof(order));
	atomic_store(&order_n, 0);
	return det_setup(state);
}

/* Schedule @d (several) from process context with bottom halves off; they run at the enable. */
static void sched_bh(struct dev *d1, struct dev *d2)
{
	irqkit_local_bh_disable();
	irqkit_irq_poll_sched(&d1->iop);
	if (d2)
		irqkit_irq_poll_sched(&d2->iop);
	irqkit_irq_poll_sched(&d1->iop);	/* scheduled already: nothing */
	irqkit_local_bh_enable();
}

static void test_weight_used_polls_again_less_completes(void **state)
{
	(void)state;
	dev_init(&a, 'a', 4, 10);		/* 4 + 4 + 2: three polls, the last completes */
	dev_init(&b, 'b', 4, 3);		/* 3: one poll, completes */
	sched_bh(&a, &b);
	assert_int_equal(atomic_load(&a.reaped), 10);
	assert_int_equal(atomic_load(&b.reaped), 3);
	/* round robin: a used its weight and went to the end, behind b */
	assert_string_equal(order, "abaa");
	assert_int_equal(a.iop.state & (1ul << IRQKIT_IRQ_POLL_F_SCHED), 0);
	assert_int_equal(b.iop.state & (1ul << IRQKIT_IRQ_POLL_F_SCHED), 0);
	/* completed: scheduled again, polled again */
	atomic_store(&a.backlog, 1);
	sched_bh(&a, NULL);
	assert_int_equal(atomic_load(&a.polls), 4);
	assert_int_equal(atomic_load(&a.reaped), 11);
}

static void test_budget_ends_a_run_and_raises_again(void **state)
{
	unsigned int runs_before;

	(void)state;
	/* 64 a poll, a backlog for 20 polls: 4 polls (256) a softirq run */
	dev_init(&a, 'a', 64, 64 * 20);
	irqkit_local_bh_disable();
	irqkit_irq_poll_sched(&a.iop);
	runs_before = irqkit_kstat_softirqs_cpu(IRQKIT_IRQ_POLL_SOFTIRQ, 0);
	irqkit_local_bh_enable();
	/* the runs at this enable: 4 polls each, re-raised until the backlog ran out */
	assert_true(wait_until(atomic_load(&a.reaped) == 64 * 20 ||
				       (irqkit_deliver_pending(), false), 5000));
	assert_int_equal(atomic_load(&a.polls), 21);	/* 20 full, one empty that completes */
	assert_true(irqkit_kstat_softirqs_cpu(IRQKIT_IRQ_POLL_SOFTIRQ, 0) - runs_before >= 6);
	assert_int_equal(irqkit_softirq_pending(0) & (1u << IRQKIT_IRQ_POLL_SOFTIRQ), 0);
}

static void test_disabled_instance_is_not_scheduled(void **state)
{
	(void)state;
	dev_init(&a, 'a', 8, 5);
	irqkit_irq_poll_disable(&a.iop);	/* not scheduled: returns at once, held */
	sched_bh(&a, NULL);
	assert_int_equal(atomic_load(&a.polls), 0);
	irqkit_irq_poll_enable(&a.iop);
	sched_bh(&a, NULL);
	assert_int_equal(atomic_load(&a.polls), 1);
	assert_int_equal(atomic_load(&a.reaped), 5);
}

/* A scheduled instance that a disable catches is taken off the list, never polled. */
static void test_disable_of_a_scheduled_instance(void **state)
{
	(void)state;
	dev_init(&a, 'a', 8, 100);
	dev_init(&b, 'b', 8, 5);
	irqkit_local_bh_disable();
	irqkit_irq_poll_sched(&a.iop);
	irqkit_irq_poll_sched(&b.iop);
	irqkit_local_bh_enable();		/* a polled 13 times (100 in 8s), b once */
	assert_int_equal(atomic_load(&a.reaped), 100);
	/* a polled with full weight while disabled: completed by the softirq, not moved */
	dev_init(&a, 'a', 8, 1000);
	irqkit_local_bh_disable();
	irqkit_irq_poll_sched(&a.iop);
	irqkit_local_bh_enable();
	irqkit_irq_poll_disable(&a.iop);
	assert_true(atomic_load(&a.polls) >= 1);
	irqkit_irq_poll_enable(&a.iop);
}

#if T_CPUS_ARE_THREADS
static int thr_setup_2(void **state)
{
	(void)state;
	memset(order, 0, sizeof(order));
	atomic_store(&order_n, 0);
	return thr_setup_cpus(2, T_NR_IRQS);
}

/* From process context on CPU 1: ksoftirqd/1 runs it. */
static void sched_iop(void *arg)
{
	irqkit_irq_poll_sched(&((struct dev *)arg)->iop);
}

/* irq_poll_disable waits for the poll that runs; stress, many rounds. */
static void test_disable_waits_for_a_running_poll(void **state)
{
	(void)state;
	for (int round = 0; round < stress_scale(200); round++) {
		dev_init(&a, 'a', 8, 3);
		a.slow = true;
		run_on_cpu(1, sched_iop, &a);
		assert_true(wait_until(atomic_load(&a.in_poll), 5000));
		atomic_store(&a.go, true);
		irqkit_irq_poll_disable(&a.iop);
		/*
		 * The poll's work is done and it completed before the disable
		 * took the instance (as Linux, the disable waits for the
		 * complete, not for the poll function's return).
		 */
		assert_false(atomic_load(&a.in_poll));
		assert_int_equal(atomic_load(&a.reaped), 3);
		assert_int_equal(atomic_load(&a.polls), 1);
		irqkit_irq_poll_enable(&a.iop);
	}
}

/* CPU 1 goes with an instance on its list: the instance is polled on CPU 0, once. */
static void test_offline_cpus_instances_move(void **state)
{
	struct cpu_hold hold;

	(void)state;
	dev_init(&a, 'a', 8, 5);
	cpu_hold_start(&hold, 1, sched_iop, &a);
	usleep(10000);
	assert_int_equal(atomic_load(&a.polls), 0);
	assert_int_equal(irqkit_remove_cpu(1), 0);
	assert_true(wait_until(atomic_load(&a.reaped) == 5, 5000));
	assert_int_equal(atomic_load(&a.cpu), 0);
	cpu_hold_release(&hold);
	usleep(10000);
	assert_int_equal(atomic_load(&a.polls), 1);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_weight_used_polls_again_less_completes, setup,
						det_teardown),
		cmocka_unit_test_setup_teardown(test_budget_ends_a_run_and_raises_again, setup,
						det_teardown),
		cmocka_unit_test_setup_teardown(test_disabled_instance_is_not_scheduled, setup,
						det_teardown),
		cmocka_unit_test_setup_teardown(test_disable_of_a_scheduled_instance, setup,
						det_teardown),
#if T_CPUS_ARE_THREADS
		cmocka_unit_test_setup_teardown(test_disable_waits_for_a_running_poll, thr_setup_2,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_offline_cpus_instances_move, thr_setup_2,
						thr_teardown),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
