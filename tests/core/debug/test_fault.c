// SPDX-License-Identifier: MIT
/* Tests of src/core/debug/fault.c: dropped, duplicated, spurious and late interrupts. */
#define _GNU_SOURCE
#include "../../harness.h"

#include <stdlib.h>
#if __STDC_HOSTED__
#include <sys/eventfd.h>
#endif
#include <time.h>
#include <unistd.h>

static struct tdev a, b;

static int setup(void **state)
{
	tdev_init(&a);
	tdev_init(&b);
	a.ret = IRQKIT_HANDLED;
	return det_setup(state);
}

static struct irqkit_fault_stats stats_of(unsigned int irq)
{
	struct irqkit_fault_stats st;

	assert_int_equal(irqkit_fault_get_stats(irq, &st), 0);
	return st;
}

static int inject(unsigned int irq, enum irqkit_fault_kind kind, unsigned int probability, int times)
{
	struct irqkit_fault_attr attr = { .kind = kind, .probability = probability,
					  .interval = 1, .times = times, .seed = 1 };

	return irqkit_fault_inject(irq, &attr);
}

static void test_dropped_interrupts_run_no_handler_and_are_counted(void **state)
{
	struct irqkit_sw_stats sw;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(inject(T_EDGE(1), IRQKIT_FAULT_DROP, 100, 3), 0);
	assert_log_contains("irq 1: injecting faults: drop, probability 100%, interval 1, times 3");
	for (int i = 0; i < 5; i++)
		irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(atomic_load(&a.calls), 2);
	assert_int_equal(stats_of(T_EDGE(1)).dropped, 3);
	assert_int_equal(stats_of(T_EDGE(1)).considered, 5);
	/* every raise accounted: handler runs + coalesced + dropped */
	assert_int_equal(irqkit_sw_get_stats(T_EDGE(1), &sw), 0);
	assert_false(sw.latched);
	assert_int_equal(2 + sw.coalesced + 3, 5);
	/* a signalled edge (interrupts off at the raise) is dropped at the chip too */
	assert_int_equal(inject(T_EDGE(1), IRQKIT_FAULT_DROP, 100, 1), 0);
	irqkit_local_irq_disable();
	irqkit_sw_raise(T_EDGE(1));
	irqkit_local_irq_enable();
	assert_int_equal(atomic_load(&a.calls), 2);
	irqkit_sw_raise(T_EDGE(1));			/* times used up: delivered */
	assert_int_equal(atomic_load(&a.calls), 3);
	assert_int_equal(stats_of(T_EDGE(1)).dropped, 4);
	irqkit_stop();
	assert_log_contains("irq 1: fault injection: 7 interrupts, 4 dropped, 0 duplicated");
}

static void test_a_dropped_level_interrupt_requests_again(void **state)
{
	(void)state;
	a.ret = -1;
	a.lower_irq = T_LEVEL(1);
	assert_int_equal(irqkit_request_irq(T_LEVEL(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(inject(T_LEVEL(1), IRQKIT_FAULT_DROP, 100, 1), 0);
	atomic_store(&a.status, 1);
	irqkit_sw_set_level(T_LEVEL(1), true);
	irqkit_deliver_pending();
	/* the device still asserts it: taken again, and served */
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_int_equal(atomic_load(&a.handled), 1);
	assert_int_equal(stats_of(T_LEVEL(1)).dropped, 1);
}

static void test_duplicated_interrupts_run_the_handlers_twice(void **state)
{
	struct irqkit_sw_stats sw;

	(void)state;
	a.ret = -1;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(inject(T_EDGE(1), IRQKIT_FAULT_DUPLICATE, 100, 2), 0);
	for (int i = 0; i < 3; i++) {
		atomic_store(&a.status, 1);
		irqkit_sw_raise(T_EDGE(1));
	}
	/* the second run of each finds the device quiet: IRQ_NONE, as a driver answers it */
	assert_int_equal(atomic_load(&a.calls), 5);
	assert_int_equal(atomic_load(&a.handled), 3);
	assert_int_equal(stats_of(T_EDGE(1)).duplicated, 2);
	assert_int_equal(irqkit_sw_get_stats(T_EDGE(1), &sw), 0);
	assert_int_equal(sw.resent, 2);			/* replayed through the chip */
	assert_int_equal(info_of(T_EDGE(1)).irqs_unhandled, 2);
}

static void test_a_spurious_interrupt_on_a_shared_line_is_claimed_by_nobody(void **state)
{
	(void)state;
	a.ret = -1;
	b.ret = -1;
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, IRQKIT_F_SHARED, "a", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, IRQKIT_F_SHARED, "b", &b), 0);
	assert_int_equal(inject(T_EDGE(2), IRQKIT_FAULT_SPURIOUS, 100, 1), 0);
	atomic_store(&a.status, 1);
	irqkit_sw_raise(T_EDGE(2));
	assert_int_equal(atomic_load(&a.handled), 1);
	assert_int_equal(atomic_load(&a.calls), 2);
	assert_int_equal(atomic_load(&b.calls), 2);
	assert_int_equal(atomic_load(&b.handled), 0);
	assert_int_equal(info_of(T_EDGE(2)).irqs_unhandled, 1);
	assert_int_equal(stats_of(T_EDGE(2)).spurious, 1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void test_a_delayed_interrupt_is_taken_late(void **state)
{
	struct irqkit_fault_attr attr = { .kind = IRQKIT_FAULT_DELAY, .probability = 100,
					  .times = 1, .delay_us = 3000 };
	uint64_t t0;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_fault_inject(T_EDGE(1), &attr), 0);
	t0 = now_ns();
	irqkit_sw_raise(T_EDGE(1));
	/* a lower bound only: the fault is the lateness itself */
	assert_true(now_ns() - t0 >= 3000000);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_int_equal(stats_of(T_EDGE(1)).delayed, 1);
}

/*
 * A delay counted in delivery points: the raise is one, the handler runs at
 * the third after it; an arrival meanwhile waits in the chip and runs after
 * it; irqkit_wait_delivered() knows it is not delivered; the accounts hold.
 */
static void test_a_delay_in_delivery_points(void **state)
{
	struct irqkit_fault_attr attr = { .kind = IRQKIT_FAULT_DELAY, .probability = 100,
					  .times = 1, .delay_points = 3 };
	struct irqkit_sw_stats sw;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_fault_inject(T_EDGE(1), &attr), 0);
	/*
	 * Between the points below nothing else may look for interrupts: every
	 * local_irq_restore is a delivery point, the core's own included (a
	 * statistics call takes a descriptor lock with interrupts saved).
	 */
	irqkit_sw_raise(T_EDGE(1));		/* taken here, held back */
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_deliver_pending();		/* point 1 */
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_sw_raise(T_EDGE(1));		/* point 2, and a new arrival: it waits in the chip */
	assert_int_equal(atomic_load(&a.calls), 0);
	irqkit_deliver_pending();		/* point 3: the held one, then the new one */
	assert_int_equal(atomic_load(&a.calls), 2);
	assert_int_equal(stats_of(T_EDGE(1)).delayed, 1);
	assert_int_equal(irqkit_wait_delivered(T_EDGE(1), 0), 0);
	assert_int_equal(irqkit_sw_get_stats(T_EDGE(1), &sw), 0);
	assert_false(sw.latched);
	assert_int_equal(sw.coalesced, 0);	/* every raise ran the handler */

	/* irqkit_wait_delivered() sees a held arrival (its own points are a few of 1000) */
	attr.delay_points = 1000;
	attr.times = 1;
	assert_int_equal(irqkit_fault_inject(T_EDGE(1), &attr), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(irqkit_wait_delivered(T_EDGE(1), 0), -IRQKIT_EAGAIN);
	for (int i = 0; i < 1000 && atomic_load(&a.calls) == 2; i++)
		irqkit_deliver_pending();
	assert_int_equal(atomic_load(&a.calls), 3);
	assert_int_equal(irqkit_wait_delivered(T_EDGE(1), 0), 0);

	/* a point with interrupts off does not count: local_irq_restore does */
	assert_int_equal(irqkit_fault_inject(T_EDGE(1), &(struct irqkit_fault_attr){
		.kind = IRQKIT_FAULT_DELAY, .probability = 100, .times = 1, .delay_points = 1 }), 0);
	irqkit_sw_raise(T_EDGE(1));
	irqkit_local_irq_disable();
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&a.calls), 3);
	irqkit_local_irq_enable();		/* the next point */
	assert_int_equal(atomic_load(&a.calls), 4);

	/* switched off while one is held: the held one still comes */
	assert_int_equal(irqkit_fault_inject(T_EDGE(1), &(struct irqkit_fault_attr){
		.kind = IRQKIT_FAULT_DELAY, .probability = 100, .times = 1, .delay_points = 2 }), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(irqkit_fault_inject(T_EDGE(1), NULL), 0);
	for (int i = 0; i < 2 && atomic_load(&a.calls) == 4; i++)
		irqkit_deliver_pending();
	assert_int_equal(atomic_load(&a.calls), 5);
	irqkit_sw_raise(T_EDGE(1));		/* and then no fault */
	assert_int_equal(atomic_load(&a.calls), 6);
}

/*
 * Threaded: the dispatcher's passes are the points; the wait sees the held
 * arrival.  On CPU 1, where nothing else happens: a point that ends with an
 * arrival held makes the next one come (bare metal: an IPI to itself).
 */
static void test_a_delay_in_points_on_a_dispatcher(void **state)
{
	struct irqkit_fault_attr attr = { .kind = IRQKIT_FAULT_DELAY, .probability = 100,
					  .times = -1, .delay_points = 50 };
	struct tdev d;

	(void)state;
	tdev_init(&d);
	d.ret = IRQKIT_HANDLED;
	assert_int_equal(thr_setup_cpus(2, T_NR_IRQS), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, 0, "d", &d), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(2), 1u << 1), 0);
	assert_int_equal(irqkit_fault_inject(T_EDGE(2), &attr), 0);
	for (int i = 0; i < 20; i++) {
		irqkit_sw_raise(T_EDGE(2));
		assert_int_equal(irqkit_wait_delivered(T_EDGE(2), 10000), 0);
		assert_int_equal(atomic_load(&d.calls), i + 1);
	}
	assert_int_equal(stats_of(T_EDGE(2)).delayed, 20);
	irqkit_stop();
}

/* Probability and interval choose as Linux's should_fail(), reproducibly by seed. */
static int dropped_of_1000(unsigned int probability, unsigned int interval, unsigned int seed)
{
	struct irqkit_fault_attr attr = { .kind = IRQKIT_FAULT_DROP, .probability = probability,
					  .interval = interval, .times = -1, .seed = seed };
	uint64_t before = stats_of(T_EDGE(3)).dropped;

	assert_int_equal(irqkit_fault_inject(T_EDGE(3), &attr), 0);
	for (int i = 0; i < 1000; i++)
		irqkit_sw_raise(T_EDGE(3));
	return (int)(stats_of(T_EDGE(3)).dropped - before);
}

static void test_probability_and_interval_choose_as_should_fail(void **state)
{
	int first, again;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "a", &a), 0);
	first = dropped_of_1000(30, 1, 42);
	again = dropped_of_1000(30, 1, 42);
	assert_int_equal(first, again);			/* the same seed, the same choices */
	assert_in_range(first, 200, 400);
	assert_int_equal(dropped_of_1000(100, 10, 7), 100);	/* every tenth */
	assert_int_equal(dropped_of_1000(0, 1, 7), 0);
	assert_int_equal(irqkit_fault_inject(T_EDGE(3), NULL), 0);	/* off */
	assert_int_equal(dropped_of_1000(0, 1, 7), 0);
	assert_int_equal(atomic_load(&a.calls), 5000 - first - again - 100);
}

static void test_bad_attributes_are_refused(void **state)
{
	struct irqkit_fault_attr attr = { .kind = (enum irqkit_fault_kind)99, .probability = 10 };

	(void)state;
	assert_int_equal(irqkit_fault_inject(T_EDGE(1), &attr), -IRQKIT_EINVAL);
	assert_log_contains("irqkit_fault_inject: irq 1: bad attribute (kind 99");
	attr.kind = IRQKIT_FAULT_DROP;
	attr.probability = 101;
	assert_int_equal(irqkit_fault_inject(T_EDGE(1), &attr), -IRQKIT_EINVAL);
	attr.probability = 10;
	attr.times = -2;
	assert_int_equal(irqkit_fault_inject(T_EDGE(1), &attr), -IRQKIT_EINVAL);
	attr.times = 1;
	attr.delay_us = 2000000;
	assert_int_equal(irqkit_fault_inject(T_EDGE(1), &attr), -IRQKIT_EINVAL);
	attr.delay_us = 0;
	attr.delay_points = 1001;
	assert_int_equal(irqkit_fault_inject(T_EDGE(1), &attr), -IRQKIT_EINVAL);
	attr.delay_points = 2;
	attr.delay_us = 5;			/* one kind of delay at a time */
	assert_int_equal(irqkit_fault_inject(T_EDGE(1), &attr), -IRQKIT_EINVAL);
	assert_log_contains("delay_us 5, delay_points 2");
	attr.delay_us = 0;
	attr.delay_points = 0;
	assert_int_equal(irqkit_fault_inject(T_NR_IRQS, &attr), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_fault_get_stats(T_NR_IRQS, &(struct irqkit_fault_stats){ 0 }),
			 -IRQKIT_EINVAL);
	assert_int_equal(irqkit_fault_get_stats(T_EDGE(1), NULL), -IRQKIT_EINVAL);
}

static void test_the_specification_string(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_fault_parse("1:drop:probability=100,times=2;2:duplicate"), 0);
	irqkit_sw_raise(T_EDGE(1));
	irqkit_sw_raise(T_EDGE(1));
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(stats_of(T_EDGE(1)).dropped, 2);
	assert_int_equal(atomic_load(&a.calls), 1);
	assert_log_contains("irq 2: injecting faults: duplicate, probability 100%, interval 1, times -1");
	assert_int_equal(irqkit_fault_parse("3:delay:delay_us=10,seed=5,interval=2,times=-1"), 0);
	assert_int_equal(irqkit_fault_parse("17:stuck:stuck_ms=5,times=1"), 0);
	assert_int_equal(irqkit_fault_parse("4:delay:delay_points=2"), 0);
	assert_log_contains("irq 4: injecting faults: delay");
	assert_int_equal(irqkit_fault_parse("4:delay:delay_points=5000"), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_fault_parse("17:stuck:stuck_ms=70000"), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_fault_parse("1:explode"), -IRQKIT_EINVAL);
	assert_log_contains("fault specification: bad entry at \"1:explode\"");
	assert_int_equal(irqkit_fault_parse("1:drop:probability=abc"), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_fault_parse("1:drop:probability=200"), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_fault_parse("x"), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_fault_parse("1:drop:times=-3"), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_fault_parse("1:drop:color=red"), -IRQKIT_EINVAL);
	assert_int_equal(irqkit_fault_parse(NULL), -IRQKIT_EINVAL);
}

#if __STDC_HOSTED__	/* bare metal has no environment */
static void test_the_environment_variable_applies_at_start(void **state)
{
	(void)state;
	tdev_init(&a);
	a.ret = IRQKIT_HANDLED;
	setenv("IRQKIT_FAULT_IRQ", "4:drop:times=1", 1);
	assert_int_equal(det_setup(NULL), 0);
	unsetenv("IRQKIT_FAULT_IRQ");
	assert_int_equal(irqkit_request_irq(T_EDGE(4), tdev_handler, 0, "a", &a), 0);
	irqkit_sw_raise(T_EDGE(4));
	irqkit_sw_raise(T_EDGE(4));
	assert_int_equal(stats_of(T_EDGE(4)).dropped, 1);
	assert_int_equal(atomic_load(&a.calls), 1);
	irqkit_stop();
}
#endif

/* A level line held stuck: the handlers find nothing, and Linux's detector disables it. */
static void test_a_stuck_level_line_ends_in_nobody_cared(void **state)
{
	struct irqkit_fault_attr attr = { .kind = IRQKIT_FAULT_STUCK, .probability = 100,
					  .times = 1, .stuck_ms = 20000 };

	(void)state;
	tdev_init(&a);
	a.lower_irq = T_LEVEL(3);
	assert_int_equal(thr_setup(NULL), 0);
	assert_int_equal(irqkit_request_irq(T_LEVEL(3), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_fault_inject(T_LEVEL(3), &attr), 0);
	atomic_store(&a.status, 1);
	assert_int_equal(irqkit_sw_set_level(T_LEVEL(3), true), 0);
	assert_true(wait_until(info_of(T_LEVEL(3)).spurious_disabled, 20000));
	assert_log_contains("irq 19: nobody cared");
	assert_int_equal(atomic_load(&a.handled), 1);		/* the one real interrupt */
	assert_true(stats_of(T_LEVEL(3)).stuck >= 99900);
	{
		uint64_t stuck = stats_of(T_LEVEL(3)).stuck;

		usleep(20000);				/* disabled: the storm is over */
		assert_true(stats_of(T_LEVEL(3)).stuck <= stuck + 1);
	}
	/* an edge line is not held */
	attr.times = -1;
	assert_int_equal(irqkit_request_irq(T_EDGE(6), tdev_handler, 0, "b", &b), 0);
	assert_int_equal(irqkit_fault_inject(T_EDGE(6), &attr), 0);
	atomic_store(&b.status, 1);
	irqkit_sw_raise(T_EDGE(6));
	assert_true(wait_until(atomic_load(&b.calls) == 1, 5000));
	usleep(10000);
	assert_int_equal(atomic_load(&b.calls), 1);
	assert_int_equal(stats_of(T_EDGE(6)).stuck, 0);
	irqkit_stop();
	assert_log_contains("irq 19: fault injection: 1 interrupts, 0 dropped");
}

/*
 * A line bound to an eventfd, threaded mode: written = handler runs + coalesced + dropped.
 * Host only: bare metal has no file descriptors.
 */
#if __STDC_HOSTED__
static atomic_int efd_runs;
static atomic_ullong efd_coalesced;

static enum irqkit_irqreturn efd_handler(int irq, void *dev)
{
	struct irqkit_irq_events ev;

	(void)dev;
	irqkit_irq_get_events((unsigned int)irq, &ev);
	atomic_fetch_add(&efd_coalesced, ev.coalesced);
	atomic_fetch_add(&efd_runs, 1);
	return IRQKIT_HANDLED;
}

static void test_faults_on_a_descriptor_line_keep_the_accounts(void **state)
{
	int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	uint64_t one = 1;

	(void)state;
	assert_true(fd >= 0);
	atomic_store(&efd_runs, 0);
	atomic_store(&efd_coalesced, 0);
	assert_int_equal(thr_setup(NULL), 0);
	assert_int_equal(irqkit_fd_bind_eventfd(40, fd), 0);
	assert_int_equal(irqkit_request_irq(40, efd_handler, 0, "efd", NULL), 0);
	assert_int_equal(inject(40, IRQKIT_FAULT_DROP, 100, 2), 0);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(write(fd, &one, sizeof(one)), (ssize_t)sizeof(one));
		assert_true(wait_until(atomic_load(&efd_runs) + (int)atomic_load(&efd_coalesced) +
				       (int)stats_of(40).dropped == i + 1, 5000));
	}
	assert_true(wait_until(atomic_load(&efd_runs) + (int)atomic_load(&efd_coalesced) +
			       (int)stats_of(40).dropped == 6, 5000));
	assert_int_equal(stats_of(40).dropped, 2);
	irqkit_free_irq(40, NULL);
	irqkit_stop();
	close(fd);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_dropped_interrupts_run_no_handler_and_are_counted),
		T(test_a_dropped_level_interrupt_requests_again),
		T(test_duplicated_interrupts_run_the_handlers_twice),
		T(test_a_spurious_interrupt_on_a_shared_line_is_claimed_by_nobody),
		T(test_a_delayed_interrupt_is_taken_late),
		T(test_a_delay_in_delivery_points),
		T(test_probability_and_interval_choose_as_should_fail),
		T(test_bad_attributes_are_refused),
		T(test_the_specification_string),
#undef T
#if __STDC_HOSTED__
		cmocka_unit_test(test_the_environment_variable_applies_at_start),
		cmocka_unit_test(test_faults_on_a_descriptor_line_keep_the_accounts),
#endif
		cmocka_unit_test(test_a_delay_in_points_on_a_dispatcher),
		cmocka_unit_test(test_a_stuck_level_line_ends_in_nobody_cared),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
