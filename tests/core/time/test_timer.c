// SPDX-License-Identifier: MIT
/* Tests of src/core/time/timer.c: jiffies, timer_list in deterministic mode, msleep. */
#define _GNU_SOURCE
#include "../../harness.h"

#include <time.h>
#include <unistd.h>

/* jiffies @n ticks after start: a run starts at INITIAL_JIFFIES, as Linux */
#define J(n)	(IRQKIT_INITIAL_JIFFIES(irqkit_hz()) + (unsigned long)(n))

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
		assert_int_equal(irqkit_jiffies(), J(0));
		irqkit_clock_advance(25 * MS);
		assert_int_equal(irqkit_jiffies(), J(2));
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
	assert_int_equal(x.at, J(10));
	assert_true(x.in_timer_softirq);
	assert_int_equal(x.cpu, 0);
	assert_false(irqkit_timer_pending(&x.timer));
}

static void test_mod_del_and_add_timer_return_values(void **state)
{
	struct ttimer x;

	(void)state;
	tt_init(&x, 'x');
	assert_int_equal(irqkit_mod_timer(&x.timer, J(5)), 0);	/* was idle */
	assert_int_equal(irqkit_mod_timer(&x.timer, J(20)), 1);	/* was pending: moved */
	irqkit_clock_advance(10 * MS);
	assert_int_equal(x.fired, 0);
	x.timer.expires = J(30);
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
		irqkit_mod_timer(&t[i].timer, J(1 + (seed >> 16) % 400));
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
	irqkit_mod_timer(&x.timer, J(10));
	irqkit_clock_advance(1000 * MS);
	assert_int_equal(x.fired, 5);
	assert_int_equal(x.at, J(50));
}

static void test_timer_runs_on_the_cpu_that_armed_it(void **state)
{
	struct ttimer x;

	(void)state;
	tt_init(&x, 'x');
	assert_int_equal(irqkit_thread_bind(1), 0);
	irqkit_mod_timer(&x.timer, J(5));
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
	irqkit_mod_timer(&x.timer, J(1));
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
	irqkit_mod_timer(&x.timer, J(10));
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
	irqkit_mod_timer(&x.timer, J(30));
	irqkit_msleep(50);
	assert_int_equal(irqkit_jiffies(), J(50));
	assert_int_equal(x.fired, 1);
}

static void test_stop_with_armed_timers_drops_them(void **state)
{
	static struct ttimer x;

	(void)state;
	tt_init(&x, 'x');
	irqkit_mod_timer(&x.timer, J(1000));
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
	assert_int_equal(irqkit_mod_timer(&zero, J(10)), 0);
	assert_log_contains("with no function (timer_setup() missing?): refused");
	irqkit_timer_setup(&nofn, NULL, 0);
	nofn.expires = J(10);
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

/* ---- jiffies as Linux counts them, and the jiffies objects ---------------------------- */

static void test_jiffies_start_at_initial_jiffies(void **state)
{
	(void)state;
	/* 300 s before a 32-bit count wraps, as Linux's INITIAL_JIFFIES */
	assert_int_equal(irqkit_jiffies(), (unsigned long)(0x100000000ull - 300ull * irqkit_hz()));
	assert_int_equal(irqkit_get_jiffies_64(), irqkit_jiffies());
	assert_int_equal(irqkit_jiffies_value, irqkit_jiffies());
	assert_int_equal(irqkit_jiffies_64_value, irqkit_jiffies());
	/* five minutes in, a 32-bit copy wraps and time_after() still orders them */
	irqkit_clock_advance(300ull * 1000 * MS - 1 * MS);
	{
		unsigned int before = (unsigned int)irqkit_jiffies();

		irqkit_clock_advance(2 * MS);
		assert_true((unsigned int)irqkit_jiffies() < before);
		assert_true(irqkit_time_after((unsigned long)irqkit_jiffies(), J(300 * 1000 - 1)));
	}
}

static void test_jiffies_objects_follow_the_virtual_clock(void **state)
{
	unsigned long j0 = irqkit_jiffies_value;

	(void)state;
	irqkit_clock_advance(7 * MS);			/* no call reads the clock: the advance publishes */
	assert_int_equal(irqkit_jiffies_value, j0 + 7);
	assert_int_equal(irqkit_jiffies_64_value, (uint64_t)j0 + 7);
	irqkit_msleep(3);
	assert_int_equal(irqkit_jiffies_value, j0 + 10);
}

static void test_timer_armed_before_the_start_of_jiffies_fires_at_once(void **state)
{
	struct ttimer x;

	(void)state;
	tt_init(&x, 'x');
	irqkit_mod_timer(&x.timer, 10);			/* a small absolute value: long past */
	irqkit_clock_advance(0);
	assert_int_equal(x.fired, 1);
}

/* Readers of the clock on several threads publish in any order; the objects never go back. */
static atomic_bool readers_stop;

static void *jiffies_reader(void *arg)
{
	(void)arg;
	while (!atomic_load(&readers_stop))
		irqkit_jiffies();
	return NULL;
}

static void test_jiffies_objects_never_go_back(void **state)
{
	pthread_t th[3];
	unsigned long prev, seen = 0;
	uint64_t prev64;

	(void)state;
	det_teardown(NULL);
	assert_int_equal(irqkit_start(&(struct irqkit_config){ .hz = 100000 }), 0);
	atomic_store(&readers_stop, false);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pthread_create(&th[i], NULL, jiffies_reader, NULL), 0);
	prev = irqkit_jiffies_value;
	prev64 = irqkit_jiffies_64_value;
	for (int i = 0; i < stress_scale(2000000); i++) {
		unsigned long j = irqkit_jiffies_value;
		uint64_t j64 = irqkit_jiffies_64_value;

#if !T_CPUS_ARE_THREADS
		/* a hart's threads do not preempt this loop: it publishes too, beside them */
		if (i % 1000 == 0)
			(void)irqkit_jiffies();
#endif
		assert_false(irqkit_time_before(j, prev));
		assert_true(j64 >= prev64);
		seen += j != prev;
		prev = j;
		prev64 = j64;
	}
	atomic_store(&readers_stop, true);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	irqkit_stop();
	assert_true(seen > 0);			/* 100,000 ticks a second: it moved */
	assert_int_equal(det_setup(NULL), 0);
}

/*
 * The tick of a program that reads the object (<linux/jiffies.h> asks for it):
 * on while the runtime is active, off after the idle time, on again at the
 * next activity.
 */
extern uint64_t irqkit__tick_idle_ns;

static void test_the_object_tick_stops_when_idle_and_restarts(void **state)
{
	unsigned long j;

	(void)state;
	det_teardown(NULL);
	irqkit_jiffies_object_used();
	irqkit__tick_idle_ns = 100 * MS;
	assert_int_equal(irqkit_start(&(struct irqkit_config){ .nr_cpus = 1 }), 0);
	j = irqkit_jiffies_value;
	usleep(30000);					/* no call: the tick moves it */
	assert_true(irqkit_jiffies_value - j >= 10);
	usleep(300000);					/* idle past 100 ms: the tick stops */
	j = irqkit_jiffies_value;
	usleep(50000);
	assert_true(irqkit_jiffies_value - j <= 1);
	irqkit_jiffies();				/* activity: on again */
	j = irqkit_jiffies_value;
	usleep(30000);
	assert_true(irqkit_jiffies_value - j >= 10);
	irqkit_stop();
	irqkit__tick_idle_ns = 10000 * MS;
	assert_int_equal(det_setup(NULL), 0);
}

/*
 * Threaded mode: each CPU's ksoftirqd sleeps until that CPU's earliest timer.
 * A timer armed earlier than the one it sleeps for wakes it to sleep again
 * for the new one, so the new timer is not late by the old one's wait.
 */
static atomic_ullong fired_at_ns;

static void record_fire(struct irqkit_timer_list *t)
{
	struct timespec ts;

	(void)t;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	atomic_store(&fired_at_ns, (unsigned long long)ts.tv_sec * 1000000000ull +
				   (unsigned long long)ts.tv_nsec);
}

static void noop_fire(struct irqkit_timer_list *t)
{
	(void)t;
}

static void test_an_earlier_timer_wakes_its_sleeping_cpu(void **state)
{
	struct irqkit_timer_list late, soon;
	struct timespec ts;
	unsigned long long armed;

	(void)state;
	det_teardown(NULL);
	assert_int_equal(irqkit_start(&(struct irqkit_config){ .nr_cpus = 2 }), 0);
	assert_int_equal(irqkit_thread_bind(1), 0);
	irqkit_timer_setup(&late, noop_fire, 0);
	irqkit_timer_setup(&soon, record_fire, 0);
	atomic_store(&fired_at_ns, 0);
	irqkit_mod_timer(&late, irqkit_jiffies() + irqkit_msecs_to_jiffies(2000));
	usleep(20000);				/* ksoftirqd/1 asleep until 2 s from now */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	armed = (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
	irqkit_mod_timer(&soon, irqkit_jiffies() + irqkit_msecs_to_jiffies(10));
	assert_true(wait_until(atomic_load(&fired_at_ns) != 0, 5000));
	assert_true(atomic_load(&fired_at_ns) - armed < 1000 * MS);	/* not at the 2 s one */
	irqkit_del_timer_sync(&late);
	irqkit_thread_unbind();
	irqkit_stop();
	assert_int_equal(det_setup(NULL), 0);
}

/*
 * Threaded mode: an idle kworker of a CPU's normal pool is that CPU's timer
 * while it sleeps (one wake-up for a delayed item: the worker that wakes
 * runs TIMER_SOFTIRQ and takes the item), and ksoftirqd is again when no
 * worker of the pool is idle.
 */
static char fired_thread[16];
static atomic_int fired_softirq, work_gate, works_in;

static void record_thread(struct irqkit_timer_list *t)
{
	(void)t;
	pthread_getname_np(pthread_self(), fired_thread, sizeof(fired_thread));
	atomic_store(&fired_softirq, irqkit_in_serving_softirq() ? 1 : 2);
}

static void noop_work(struct irqkit_work *w)
{
	(void)w;
}

static void gated_work(struct irqkit_work *w)
{
	(void)w;
	atomic_fetch_add(&works_in, 1);
	while (!atomic_load(&work_gate))
		usleep(200);
}

static void start_two_cpus_bound_to_1(void)
{
	det_teardown(NULL);
	assert_int_equal(irqkit_start(&(struct irqkit_config){ .nr_cpus = 2 }), 0);
	assert_int_equal(irqkit_thread_bind(1), 0);
	atomic_store(&fired_softirq, 0);
	atomic_store(&works_in, 0);
	atomic_store(&work_gate, 0);
	memset(fired_thread, 0, sizeof(fired_thread));
}

static void test_an_idle_kworker_is_its_cpus_timer(void **state)
{
	struct irqkit_work w;
	struct irqkit_timer_list t;

	(void)state;
	start_two_cpus_bound_to_1();
	irqkit_init_work(&w, noop_work);
	assert_true(irqkit_queue_work_on(1, irqkit_system_wq(), &w));
	irqkit_flush_work(&w);
	usleep(20000);				/* its worker asleep, idle: the timer of CPU 1 */
	irqkit_timer_setup(&t, record_thread, 0);
	irqkit_mod_timer(&t, irqkit_jiffies() + irqkit_msecs_to_jiffies(10));
	assert_true(wait_until(atomic_load(&fired_softirq) != 0, 5000));
	assert_int_equal(atomic_load(&fired_softirq), 1);	/* TIMER_SOFTIRQ, as always */
	if (strncmp(fired_thread, "kworker/1:", 10))
		fail_msg("the timer ran on %s, not on CPU 1's idle kworker", fired_thread);
	irqkit_thread_unbind();
	irqkit_stop();
	assert_int_equal(det_setup(NULL), 0);
}

static void test_timers_fire_while_every_kworker_of_the_cpu_is_busy(void **state)
{
	enum { N = 40 };	/* more than a pool's workers: none stays idle */
	static struct irqkit_work w[N];
	struct irqkit_timer_list t;
	bool fired;

	(void)state;
	start_two_cpus_bound_to_1();
	irqkit_init_work(&w[0], noop_work);
	assert_true(irqkit_queue_work_on(1, irqkit_system_wq(), &w[0]));
	irqkit_flush_work(&w[0]);
	usleep(20000);				/* an idle worker is CPU 1's timer */
	irqkit_timer_setup(&t, record_thread, 0);
	irqkit_mod_timer(&t, irqkit_jiffies() + irqkit_msecs_to_jiffies(300));
	for (int i = 0; i < N; i++) {
		irqkit_init_work(&w[i], gated_work);
		assert_true(irqkit_queue_work_on(1, irqkit_system_wq(), &w[i]));
	}
	/* every worker of the pool blocked: the last to leave its sleep handed the timer back */
	fired = wait_until(atomic_load(&fired_softirq) != 0, 5000);
	atomic_store(&work_gate, 1);		/* before any assert: stop waits for the items */
	for (int i = 0; i < N; i++)
		irqkit_flush_work(&w[i]);
	assert_true(fired);
	assert_true(atomic_load(&works_in) > 1);
	if (strncmp(fired_thread, "ksoftirqd/1", 11) && strncmp(fired_thread, "kworker/1:", 10))
		fail_msg("the timer ran on %s", fired_thread);
	irqkit_thread_unbind();
	irqkit_stop();
	assert_int_equal(det_setup(NULL), 0);
}

/* IRQKIT_CFG_PERIODIC_TICK: the object moves while a thread spins on it and calls nothing. */
static void test_periodic_tick_moves_the_object_of_a_bare_spin(void **state)
{
	unsigned long j0;
	int spins = 0;

	(void)state;
	det_teardown(NULL);
	assert_int_equal(irqkit_start(&(struct irqkit_config){ .flags = IRQKIT_CFG_PERIODIC_TICK }), 0);
	j0 = irqkit_jiffies();
	while (irqkit_jiffies_value - j0 < 20 && ++spins < 2000000000)
		;				/* volatile reads only: nothing else can publish */
	assert_true(irqkit_jiffies_value - j0 >= 20);
	irqkit_stop();
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
		T(test_jiffies_start_at_initial_jiffies),
		T(test_jiffies_objects_follow_the_virtual_clock),
		T(test_timer_armed_before_the_start_of_jiffies_fires_at_once),
		T(test_jiffies_objects_never_go_back),
		T(test_periodic_tick_moves_the_object_of_a_bare_spin),
		T(test_an_idle_kworker_is_its_cpus_timer),
		T(test_timers_fire_while_every_kworker_of_the_cpu_is_busy),
		T(test_the_object_tick_stops_when_idle_and_restarts),
		T(test_an_earlier_timer_wakes_its_sleeping_cpu),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
