// SPDX-License-Identifier: MIT
/* Tests of src/core/timer.c: jiffies, timer_list in deterministic mode, msleep. */
#define _GNU_SOURCE
#include "../harness.h"

#include <unistd.h>

#define MS	1000000ull

struct ttimer {
	struct irqkit_timer_list timer;
	int			fired;
	int			cpu;
	bool			in_timer_softirq;
	unsigned long		at;		/* jiffies when it fired */
	unsigned long		period;		/* re-arm by this much, if set */
	int			limit;		/* stop re-arming after this many */
	char			tag;
};

static char order[32];

static void tt_fn(struct irqkit_timer_list *t)
{
	struct ttimer *tt = container_of(t, struct ttimer, timer);
	size_t n = strlen(order);

	tt->fired++;
	tt->cpu = irqkit_smp_processor_id();
	tt->in_timer_softirq = irqkit_in_serving_softirq() && !irqkit_irqs_disabled();
	tt->at = irqkit_jiffies();
	if (n + 1 < sizeof(order)) {
		order[n] = tt->tag;
		order[n + 1] = '\0';
	}
	if (tt->period && tt->fired < tt->limit)
		irqkit_mod_timer(t, t->expires + tt->period);
}

static void tt_init(struct ttimer *tt, char tag)
{
	memset(tt, 0, sizeof(*tt));
	irqkit_timer_setup(&tt->timer, tt_fn, 0);
	tt->tag = tag;
}

static int setup(void **state)
{
	order[0] = '\0';
	return det_setup(state);
}

static void test_jiffies_conversions_round_up(void **state)
{
	(void)state;
	assert_int_equal(irqkit_hz(), 1000);
	assert_int_equal(irqkit_msecs_to_jiffies(0), 0);
	assert_int_equal(irqkit_msecs_to_jiffies(1), 1);
	assert_int_equal(irqkit_msecs_to_jiffies(250), 250);
	assert_int_equal(irqkit_usecs_to_jiffies(1), 1);
	assert_int_equal(irqkit_usecs_to_jiffies(1001), 2);
	assert_int_equal(irqkit_jiffies_to_msecs(1500), 1500);
	assert_int_equal(irqkit_jiffies_to_usecs(3), 3000);
	det_teardown(NULL);
	{
		struct irqkit_config cfg = { .hz = 100, .mode = IRQKIT_MODE_DETERMINISTIC,
					     .log = logcap_hook };

		assert_int_equal(irqkit_start(&cfg), 0);
		assert_int_equal(irqkit_msecs_to_jiffies(1), 1);	/* a positive delay is a tick */
		assert_int_equal(irqkit_msecs_to_jiffies(15), 2);
		assert_int_equal(irqkit_jiffies_to_msecs(3), 30);
		assert_int_equal(irqkit_jiffies(), 0);
		irqkit_clock_advance(25 * MS);
		assert_int_equal(irqkit_jiffies(), 2);
	}
}

static void test_time_after_survives_wrap(void **state)
{
	unsigned long near_wrap = (unsigned long)-5;

	(void)state;
	assert_true(irqkit_time_after(near_wrap + 10, near_wrap));
	assert_true(irqkit_time_before(near_wrap, near_wrap + 10));
	assert_true(irqkit_time_after_eq(near_wrap, near_wrap));
	assert_false(irqkit_time_after(near_wrap, near_wrap));
	assert_true(irqkit_time_in_range(3ul, 1ul, 5ul));
}

static void test_timer_fires_at_its_expiry_in_timer_softirq(void **state)
{
	struct ttimer x;

	(void)state;
	tt_init(&x, 'x');
	x.timer.expires = irqkit_jiffies() + 10;
	irqkit_add_timer(&x.timer);
	assert_true(irqkit_timer_pending(&x.timer));
	irqkit_clock_advance(9 * MS);
	assert_int_equal(x.fired, 0);
	irqkit_clock_advance(1 * MS);
	assert_int_equal(x.fired, 1);
	assert_int_equal(x.at, 10);
	assert_true(x.in_timer_softirq);
	assert_int_equal(x.cpu, 0);
	assert_false(irqkit_timer_pending(&x.timer));
}

static void test_mod_del_and_add_timer_return_values(void **state)
{
	struct ttimer x;

	(void)state;
	tt_init(&x, 'x');
	assert_int_equal(irqkit_mod_timer(&x.timer, 5), 0);	/* was idle */
	assert_int_equal(irqkit_mod_timer(&x.timer, 20), 1);	/* was pending: moved */
	irqkit_clock_advance(10 * MS);
	assert_int_equal(x.fired, 0);
	x.timer.expires = 30;
	irqkit_add_timer(&x.timer);				/* already pending */
	assert_log_contains("WARNING: CPU: 0 PID:");
	assert_int_equal(irqkit_del_timer(&x.timer), 1);
	assert_int_equal(irqkit_del_timer(&x.timer), 0);
	irqkit_clock_advance(100 * MS);
	assert_int_equal(x.fired, 0);
}

static void test_timers_fire_in_expiry_order_ties_in_arming_order(void **state)
{
	struct ttimer t[6];
	const unsigned long when[6] = { 30, 10, 20, 10, 5, 20 };

	(void)state;
	for (int i = 0; i < 6; i++) {
		tt_init(&t[i], (char)('a' + i));
		irqkit_mod_timer(&t[i].timer, when[i]);
	}
	irqkit_del_timer(&t[2].timer);
	irqkit_clock_advance(50 * MS);
	assert_string_equal(order, "ebdfa");
}

static void test_many_timers_in_the_heap(void **state)
{
	static struct ttimer t[500];
	unsigned int seed = test_seed();
	int fired = 0;

	(void)state;
	for (int i = 0; i < 500; i++) {
		tt_init(&t[i], 'x');
		seed = seed * 1103515245u + 12345u;
		irqkit_mod_timer(&t[i].timer, 1 + (seed >> 16) % 400);
	}
	for (int i = 0; i < 500; i += 3)
		irqkit_del_timer(&t[i].timer);
	irqkit_clock_advance(500 * MS);
	for (int i = 0; i < 500; i++) {
		if (i % 3 == 0) {
			assert_int_equal(t[i].fired, 0);
		} else {
			assert_int_equal(t[i].fired, 1);
			assert_int_equal(t[i].at, t[i].timer.expires);	/* not early, not late */
			fired++;
		}
	}
	assert_int_equal(fired, 333);
}

static void test_periodic_timer_fires_every_period_within_one_advance(void **state)
{
	struct ttimer x;

	(void)state;
	tt_init(&x, 'x');
	x.period = 10;
	x.limit = 5;
	irqkit_mod_timer(&x.timer, 10);
	irqkit_clock_advance(1000 * MS);
	assert_int_equal(x.fired, 5);
	assert_int_equal(x.at, 50);
}

static void test_timer_runs_on_the_cpu_that_armed_it(void **state)
{
	struct ttimer x;

	(void)state;
	tt_init(&x, 'x');
	assert_int_equal(irqkit_thread_bind(1), 0);
	irqkit_mod_timer(&x.timer, 5);
	assert_int_equal(irqkit_thread_bind(0), 0);
	irqkit_clock_advance(10 * MS);
	assert_int_equal(x.fired, 0);		/* CPU 1 has not run */
	assert_true(irqkit_softirq_pending(1) & (1u << IRQKIT_TIMER_SOFTIRQ));
	assert_int_equal(irqkit_cpu_run(1), 0);
	assert_int_equal(x.fired, 1);
	assert_int_equal(x.cpu, 1);
}

static void del_sync_self(struct irqkit_timer_list *t)
{
	struct ttimer *tt = container_of(t, struct ttimer, timer);

	tt->fired++;
	irqkit_mod_timer(t, t->expires + 5);
	assert_int_equal(irqkit_del_timer_sync(t), 1);
}

static void test_del_timer_sync_from_own_callback_reports_instead_of_hanging(void **state)
{
	struct ttimer x;

	(void)state;
	memset(&x, 0, sizeof(x));
	irqkit_timer_setup(&x.timer, del_sync_self, 0);
	irqkit_mod_timer(&x.timer, 1);
	irqkit_clock_advance(20 * MS);
	assert_int_equal(x.fired, 1);
	assert_log_contains("del_timer_sync() called from the timer's own callback");
	assert_false(irqkit_timer_pending(&x.timer));
}

static void test_del_timer_sync_in_atomic_context_reports(void **state)
{
	struct ttimer x;
	unsigned long flags;

	(void)state;
	tt_init(&x, 'x');
	irqkit_mod_timer(&x.timer, 10);
	flags = irqkit_local_irq_save();
	assert_int_equal(irqkit_del_timer_sync(&x.timer), 1);
	irqkit_local_irq_restore(flags);
	assert_log_contains("BUG: sleeping function called from invalid context");
}

static void test_msleep_advances_the_virtual_clock(void **state)
{
	struct ttimer x;

	(void)state;
	tt_init(&x, 'x');
	irqkit_mod_timer(&x.timer, 30);
	irqkit_msleep(50);
	assert_int_equal(irqkit_jiffies(), 50);
	assert_int_equal(x.fired, 1);
}

static void test_stop_with_armed_timers_drops_them(void **state)
{
	static struct ttimer x;

	(void)state;
	tt_init(&x, 'x');
	irqkit_mod_timer(&x.timer, 1000);
	det_teardown(NULL);
	assert_int_equal(det_setup(NULL), 0);
	irqkit_clock_advance(2000 * MS);
	assert_int_equal(x.fired, 0);
}

static void test_uninitialised_timers_are_refused(void **state)
{
	struct irqkit_timer_list zero, nofn;

	(void)state;
	memset(&zero, 0, sizeof(zero));
	/* a zeroed timer is idle, as in Linux: nothing to delete, nothing pending */
	assert_false(irqkit_timer_pending(&zero));
	assert_int_equal(irqkit_del_timer(&zero), 0);
	assert_int_equal(irqkit_del_timer_sync(&zero), 0);
	/* arming one with no function is refused, never a NULL call at expiry */
	assert_int_equal(irqkit_mod_timer(&zero, 10), 0);
	assert_log_contains("with no function (timer_setup() missing?): refused");
	irqkit_timer_setup(&nofn, NULL, 0);
	nofn.expires = 10;
	irqkit_add_timer(&nofn);
	assert_false(irqkit_timer_pending(&nofn));
	irqkit_clock_advance(100 * MS);
}

static void test_clock_advance_refuses_to_wrap(void **state)
{
	unsigned long before;

	(void)state;
	irqkit_clock_advance(5 * MS);
	before = irqkit_jiffies();
	assert_int_equal(irqkit_clock_advance(UINT64_MAX), -IRQKIT_EINVAL);
	assert_log_contains("the virtual clock would wrap; refused");
	assert_int_equal(irqkit_jiffies(), before);
	assert_int_equal(irqkit_clock_advance(UINT64_MAX - 5 * MS), 0);	/* to the end, exactly */
	assert_true(irqkit_jiffies() >= before);
	assert_int_equal(irqkit_clock_advance(1), -IRQKIT_EINVAL);
}

static void test_jiffies_conversions_before_start_use_the_default_hz(void **state)
{
	(void)state;
	det_teardown(NULL);
	assert_int_equal(irqkit_hz(), 1000);
	assert_int_equal(irqkit_jiffies_to_msecs(1500), 1500);
	assert_int_equal(irqkit_jiffies_to_usecs(2), 2000);
	assert_int_equal(irqkit_msecs_to_jiffies(3), 3);
	assert_int_equal(det_setup(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_jiffies_conversions_round_up),
		T(test_time_after_survives_wrap),
		T(test_timer_fires_at_its_expiry_in_timer_softirq),
		T(test_mod_del_and_add_timer_return_values),
		T(test_timers_fire_in_expiry_order_ties_in_arming_order),
		T(test_many_timers_in_the_heap),
		T(test_periodic_timer_fires_every_period_within_one_advance),
		T(test_timer_runs_on_the_cpu_that_armed_it),
		T(test_del_timer_sync_from_own_callback_reports_instead_of_hanging),
		T(test_del_timer_sync_in_atomic_context_reports),
		T(test_msleep_advances_the_virtual_clock),
		T(test_stop_with_armed_timers_drops_them),
		T(test_uninitialised_timers_are_refused),
		T(test_clock_advance_refuses_to_wrap),
		T(test_jiffies_conversions_before_start_use_the_default_hz),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
