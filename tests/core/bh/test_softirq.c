// SPDX-License-Identifier: MIT
/* Tests of src/core/bh/softirq.c: softirq vectors, where they run, the restart limit, tasklets. */
#define _GNU_SOURCE
#include "../../harness.h"

#include <unistd.h>

static char order[64];
static int runs[IRQKIT_NR_SOFTIRQS];
static struct tdev a;

static void note(char ch)
{
	size_t n = strlen(order);

	if (n + 1 < sizeof(order)) {
		order[n] = ch;
		order[n + 1] = '\0';
	}
}

static unsigned int seen_pc;
static bool seen_serving, seen_softirq, seen_interrupt, seen_task;

static void record_context(void)
{
	seen_pc = irqkit_preempt_count();
	seen_serving = irqkit_in_serving_softirq();
	seen_softirq = irqkit_in_softirq();
	seen_interrupt = irqkit_in_interrupt();
	seen_task = irqkit_in_task();
}

static void net_tx(void) { runs[IRQKIT_NET_TX_SOFTIRQ]++; note('t'); record_context(); }
static void block(void) { runs[IRQKIT_BLOCK_SOFTIRQ]++; note('b'); }
static void sched_action(void) { runs[IRQKIT_SCHED_SOFTIRQ]++; note('s'); }

static int setup(void **state)
{
	memset(order, 0, sizeof(order));
	memset(runs, 0, sizeof(runs));
	tdev_init(&a);
	a.ret = IRQKIT_HANDLED;
	if (det_setup(state))
		return -1;
	irqkit_open_softirq(IRQKIT_NET_TX_SOFTIRQ, net_tx);
	irqkit_open_softirq(IRQKIT_BLOCK_SOFTIRQ, block);
	irqkit_open_softirq(IRQKIT_SCHED_SOFTIRQ, sched_action);
	return 0;
}

/* ---- softirqs: 6.1, 6.2, 6.3, 6.5 ---------------------------------------------------------- */

static void raise_three(struct tdev *dev, int irq)
{
	(void)dev;
	(void)irq;
	irqkit_raise_softirq(IRQKIT_SCHED_SOFTIRQ);
	irqkit_raise_softirq(IRQKIT_BLOCK_SOFTIRQ);
	irqkit_raise_softirq(IRQKIT_NET_TX_SOFTIRQ);
	note('h');
}

static void test_softirqs_run_at_irq_exit_lowest_vector_first(void **state)
{
	(void)state;
	a.hook = raise_three;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_string_equal(order, "htbs");
	assert_int_equal(irqkit_softirq_pending(0), 0);
	/* inside: serving softirq, interrupts on, not a task */
	assert_int_equal(seen_pc, IRQKIT_SOFTIRQ_OFFSET);
	assert_true(seen_serving && seen_softirq && seen_interrupt);
	assert_false(seen_task);
}

static void test_raise_from_process_context_waits_for_a_delivery_point(void **state)
{
	(void)state;
	irqkit_raise_softirq(IRQKIT_BLOCK_SOFTIRQ);
	/* deterministic mode has no ksoftirqd: the raise stays pending */
	assert_int_equal(irqkit_softirq_pending(0), 1u << IRQKIT_BLOCK_SOFTIRQ);
	assert_int_equal(runs[IRQKIT_BLOCK_SOFTIRQ], 0);
	irqkit_local_irq_disable();
	irqkit_local_irq_enable();	/* turning interrupts on does not run softirqs */
	assert_int_equal(runs[IRQKIT_BLOCK_SOFTIRQ], 0);
	irqkit_deliver_pending();
	assert_int_equal(runs[IRQKIT_BLOCK_SOFTIRQ], 1);
}

static void test_local_bh_enable_runs_pending_softirqs(void **state)
{
	(void)state;
	irqkit_local_bh_disable();
	irqkit_raise_softirq(IRQKIT_NET_TX_SOFTIRQ);
	irqkit_local_bh_disable();
	irqkit_local_bh_enable();			/* not the outermost */
	assert_int_equal(runs[IRQKIT_NET_TX_SOFTIRQ], 0);
	irqkit_local_bh_enable();
	assert_int_equal(runs[IRQKIT_NET_TX_SOFTIRQ], 1);
}

static void test_irq_exit_inside_bh_section_leaves_softirqs_to_bh_enable(void **state)
{
	(void)state;
	a.hook = raise_three;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	irqkit_local_bh_disable();
	irqkit_sw_raise(T_EDGE(1));		/* a hardirq may interrupt the section */
	assert_string_equal(order, "h");
	irqkit_local_bh_enable();
	assert_string_equal(order, "htbs");
}

static void *run_cpu0_from_helper(void *arg)
{
	(void)arg;
	irqkit_cpu_run(0);
	return NULL;
}

static void test_bh_off_keeps_softirqs_off_the_cpu(void **state)
{
	pthread_t helper;

	(void)state;
	irqkit_local_bh_disable();
	irqkit_raise_softirq(IRQKIT_BLOCK_SOFTIRQ);
	/* another thread playing CPU 0 may not run them either */
	pthread_create(&helper, NULL, run_cpu0_from_helper, NULL);
	pthread_join(helper, NULL);
	assert_int_equal(runs[IRQKIT_BLOCK_SOFTIRQ], 0);
	irqkit_local_bh_enable();
	assert_int_equal(runs[IRQKIT_BLOCK_SOFTIRQ], 1);
}

static int rearms;

static void rearm_forever(void)
{
	rearms++;
	irqkit_raise_softirq(IRQKIT_SCHED_SOFTIRQ);
}

static void test_restart_limit_is_ten_passes(void **state)
{
	(void)state;
	rearms = 0;
	irqkit_open_softirq(IRQKIT_SCHED_SOFTIRQ, rearm_forever);
	irqkit_raise_softirq(IRQKIT_SCHED_SOFTIRQ);
	irqkit_deliver_pending();
	/* 10 passes, then the rest is ksoftirqd's (there is none here) */
	assert_int_equal(rearms, 10);
	assert_int_equal(irqkit_softirq_pending(0), 1u << IRQKIT_SCHED_SOFTIRQ);
	irqkit_open_softirq(IRQKIT_SCHED_SOFTIRQ, NULL);
	irqkit_deliver_pending();
	assert_int_equal(irqkit_softirq_pending(0), 0);
}

static void leave_preemption_off(void)
{
	irqkit_preempt_disable();
}

static void test_action_that_changes_preempt_count_is_reported_and_repaired(void **state)
{
	(void)state;
	irqkit_open_softirq(IRQKIT_SCHED_SOFTIRQ, leave_preemption_off);
	irqkit_raise_softirq(IRQKIT_SCHED_SOFTIRQ);
	irqkit_deliver_pending();
	assert_log_contains("huh, entered softirq 7 SCHED");
	assert_log_contains("with preempt_count 00000100, exited with 00000101?");
	assert_int_equal(irqkit_preempt_count(), 0);
}

static void test_softirq_raised_on_another_cpu_runs_there(void **state)
{
	(void)state;
	assert_int_equal(irqkit_thread_bind(1), 0);
	irqkit_raise_softirq(IRQKIT_NET_TX_SOFTIRQ);
	assert_int_equal(irqkit_thread_bind(0), 0);
	assert_int_equal(irqkit_softirq_pending(1), 1u << IRQKIT_NET_TX_SOFTIRQ);
	irqkit_deliver_pending();
	assert_int_equal(runs[IRQKIT_NET_TX_SOFTIRQ], 0);	/* pending per CPU */
	assert_int_equal(irqkit_cpu_run(1), 0);
	assert_int_equal(runs[IRQKIT_NET_TX_SOFTIRQ], 1);
}

/* ---- tasklets: 6.6-6.11 ---------------------------------------------------------------------- */

struct ttest {
	struct irqkit_tasklet	t;
	atomic_int		runs;
	int			cpu;
	char			tag;
	int			resched;	/* schedule again from inside, this many times */
};

static void tt_callback(struct irqkit_tasklet *t)
{
	struct ttest *tt = container_of(t, struct ttest, t);

	atomic_fetch_add(&tt->runs, 1);
	tt->cpu = irqkit_smp_processor_id();
	note(tt->tag);
	assert_true(irqkit_in_serving_softirq());
	assert_false(irqkit_irqs_disabled());
	if (tt->resched > 0) {
		tt->resched--;
		irqkit_tasklet_schedule(t);
	}
}

static void tt_init(struct ttest *tt, char tag)
{
	memset(tt, 0, sizeof(*tt));
	irqkit_tasklet_setup(&tt->t, tt_callback);
	tt->tag = tag;
}

static void test_tasklet_runs_once_for_many_schedules(void **state)
{
	struct ttest x;

	(void)state;
	tt_init(&x, 'x');
	irqkit_local_bh_disable();
	for (int i = 0; i < 5; i++)
		irqkit_tasklet_schedule(&x.t);
	assert_true(__atomic_load_n(&x.t.state, __ATOMIC_SEQ_CST) & IRQKIT_TASKLET_STATE_SCHED);
	irqkit_local_bh_enable();
	assert_int_equal(atomic_load(&x.runs), 1);
	assert_int_equal(__atomic_load_n(&x.t.state, __ATOMIC_SEQ_CST), 0);
}

static void test_tasklets_run_fifo_and_hi_first(void **state)
{
	struct ttest x, y, z, h;

	(void)state;
	tt_init(&x, 'x');
	tt_init(&y, 'y');
	tt_init(&z, 'z');
	tt_init(&h, 'H');
	irqkit_local_bh_disable();
	irqkit_tasklet_schedule(&x.t);
	irqkit_tasklet_schedule(&y.t);
	irqkit_tasklet_hi_schedule(&h.t);
	irqkit_tasklet_schedule(&z.t);
	irqkit_local_bh_enable();
	assert_string_equal(order, "Hxyz");
}

static void test_tasklet_rescheduled_from_itself_runs_exactly_once_more(void **state)
{
	struct ttest x;

	(void)state;
	tt_init(&x, 'x');
	x.resched = 1;
	irqkit_tasklet_schedule(&x.t);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&x.runs), 2);
}

static struct ttest *sched_from_irq;

static void schedule_in_handler(struct tdev *dev, int irq)
{
	(void)dev;
	(void)irq;
	irqkit_tasklet_schedule(&sched_from_irq->t);
}

static void test_tasklet_runs_on_the_cpu_that_scheduled_it(void **state)
{
	struct ttest x;

	(void)state;
	tt_init(&x, 'x');
	x.cpu = -1;
	sched_from_irq = &x;
	a.hook = schedule_in_handler;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 1u << 1), 0);
	irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(irqkit_cpu_run(1), 0);	/* the handler and, at irq_exit, the tasklet */
	assert_int_equal(atomic_load(&x.runs), 1);
	assert_int_equal(x.cpu, 1);
}

static void test_disabled_tasklet_waits_for_enable(void **state)
{
	struct ttest x;

	(void)state;
	tt_init(&x, 'x');
	irqkit_tasklet_disable(&x.t);
	irqkit_tasklet_disable_nosync(&x.t);		/* nests */
	irqkit_tasklet_schedule(&x.t);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&x.runs), 0);
	/* it stays scheduled and keeps its softirq raised */
	assert_true(__atomic_load_n(&x.t.state, __ATOMIC_SEQ_CST) & IRQKIT_TASKLET_STATE_SCHED);
	assert_true(irqkit_softirq_pending(0) & (1u << IRQKIT_TASKLET_SOFTIRQ));
	irqkit_tasklet_enable(&x.t);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&x.runs), 0);
	irqkit_tasklet_enable(&x.t);
	assert_int_equal(atomic_load(&x.runs), 0);	/* enable itself runs nothing */
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&x.runs), 1);
	irqkit_tasklet_enable(&x.t);			/* unbalanced */
	assert_log_contains("tasklet_enable() of a tasklet that is not disabled");
}

static int legacy_seen;

static void legacy_func(unsigned long data)
{
	legacy_seen = (int)data;
}

static void test_tasklet_init_2_6_form_passes_data(void **state)
{
	struct irqkit_tasklet t;

	(void)state;
	irqkit_tasklet_init(&t, legacy_func, 42);
	irqkit_tasklet_schedule(&t);
	irqkit_deliver_pending();
	assert_int_equal(legacy_seen, 42);
}

static void test_uninitialised_tasklet_is_refused(void **state)
{
	struct irqkit_tasklet t;

	(void)state;
	memset(&t, 0, sizeof(t));
	irqkit_tasklet_schedule(&t);
	irqkit_deliver_pending();
	assert_log_contains("scheduled before tasklet_init()/tasklet_setup(): ignored");
	assert_int_equal(__atomic_load_n(&t.state, __ATOMIC_SEQ_CST), 0);
	assert_int_equal(irqkit_softirq_pending(0), 0);
}

/* A tasklet found on its list without SCHED (its state written behind irqkit's back) is not run: Linux BUG()s. */
static void test_tasklet_queued_without_sched_is_reported_not_run(void **state)
{
	struct ttest x;

	(void)state;
	tt_init(&x, 'x');
	irqkit_local_bh_disable();
	irqkit_tasklet_schedule(&x.t);
	__atomic_store_n(&x.t.state, 0, __ATOMIC_SEQ_CST);
	irqkit_local_bh_enable();
	assert_log_contains("tasklet SCHED state not set");
	assert_int_equal(atomic_load(&x.runs), 0);
	assert_int_equal(__atomic_load_n(&x.t.state, __ATOMIC_SEQ_CST), 0);
	irqkit_tasklet_schedule(&x.t);		/* and it can be scheduled again */
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&x.runs), 1);
}

static void test_tasklet_kill_of_idle_tasklet_and_reuse(void **state)
{
	struct ttest x;

	(void)state;
	tt_init(&x, 'x');
	irqkit_tasklet_kill(&x.t);
	assert_int_equal(__atomic_load_n(&x.t.state, __ATOMIC_SEQ_CST), 0);
	/* Linux lets a killed tasklet be scheduled again: it runs */
	irqkit_tasklet_schedule(&x.t);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&x.runs), 1);
}

static void kill_self(struct irqkit_tasklet *t)
{
	irqkit_tasklet_kill(t);
	irqkit_tasklet_disable(t);
	irqkit_tasklet_enable(t);
}

static void test_tasklet_kill_from_itself_reports_instead_of_hanging(void **state)
{
	struct irqkit_tasklet t;

	(void)state;
	irqkit_tasklet_setup(&t, kill_self);
	irqkit_tasklet_schedule(&t);
	irqkit_deliver_pending();
	assert_log_contains("Attempt to kill tasklet from interrupt");
	assert_log_contains("tasklet_kill() called from the tasklet itself");
	assert_log_contains("tasklet_disable() called from the tasklet itself");
	assert_int_equal(__atomic_load_n(&t.state, __ATOMIC_SEQ_CST), 0);
}

static void test_tasklet_kill_of_disabled_scheduled_tasklet_reports(void **state)
{
	struct ttest x;

	(void)state;
	tt_init(&x, 'x');
	irqkit_tasklet_disable_nosync(&x.t);
	irqkit_tasklet_schedule(&x.t);
	irqkit_tasklet_kill(&x.t);
	assert_log_contains("tasklet_kill() of a tasklet that is disabled and scheduled never returns");
	irqkit_tasklet_enable(&x.t);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&x.runs), 1);
}

static void test_tasklet_kill_in_deterministic_mode_runs_it(void **state)
{
	struct ttest x, y;

	(void)state;
	tt_init(&x, 'x');
	tt_init(&y, 'y');
	irqkit_tasklet_schedule(&x.t);		/* from process context: ksoftirqd's in Linux */
	/* the caller plays the CPUs: it runs the tasklet instead of spinning for ever */
	irqkit_tasklet_kill(&x.t);
	assert_int_equal(atomic_load(&x.runs), 1);
	assert_int_equal(__atomic_load_n(&x.t.state, __ATOMIC_SEQ_CST), 0);
	/* with bottom halves off nothing can run it: reported, not a hang */
	irqkit_tasklet_schedule(&y.t);
	irqkit_local_bh_disable();
	irqkit_tasklet_kill(&y.t);
	irqkit_local_bh_enable();
	assert_log_contains("tasklet_kill() in deterministic mode from a section that keeps softirqs out");
	assert_int_equal(atomic_load(&y.runs), 1);	/* it ran at local_bh_enable */
}

/*
 * A sequence found from outside that spun for ever: the player, interrupts
 * off under a spin lock, kills a tasklet it has just scheduled.  Nothing can
 * run it there (irqkit_cpu_run delivers nothing with interrupts off): the
 * wait is reported and returns, and the tasklet runs once interrupts are on.
 */
static void test_tasklet_kill_with_interrupts_off_in_deterministic_mode_reports(void **state)
{
	static struct irqkit_spinlock lock = IRQKIT_SPINLOCK_INIT;
	struct irqkit_workqueue *wq = irqkit_alloc_workqueue("w", 0, 0);
	unsigned long flags;
	struct ttest x;

	(void)state;
	assert_non_null(wq);
	tt_init(&x, 'x');
	flags = irqkit_spin_lock_irqsave(&lock);
	irqkit_flush_workqueue(wq);		/* might_sleep reports it, rightly */
	assert_int_equal(irqkit_cpu_run(0), 0);
	irqkit_tasklet_hi_schedule(&x.t);
	irqkit_tasklet_kill(&x.t);
	irqkit_spin_unlock_irqrestore(&lock, flags);
	assert_log_contains("sleeping function called from invalid context");
	assert_log_contains("tasklet_kill() in deterministic mode from a section that keeps softirqs out");
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&x.runs), 1);
	irqkit_destroy_workqueue(wq);
}

/*
 * A softirq raised from process context with no hardirq to end is
 * ksoftirqd's on Linux, which cannot run on a CPU whose thread holds a
 * spin lock (preemption off): a delivery point inside the lock leaves it,
 * the first one after runs it.
 */
static void test_process_context_softirq_waits_for_the_lock_to_go(void **state)
{
	static struct irqkit_spinlock lock = IRQKIT_SPINLOCK_INIT;
	struct ttest x;

	(void)state;
	tt_init(&x, 'x');
	irqkit_spin_lock(&lock);
	irqkit_tasklet_schedule(&x.t);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&x.runs), 0);
	irqkit_spin_unlock(&lock);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&x.runs), 1);
}

/*
 * A level line still asserted after its handler fires again at the unmask;
 * Linux's CPU takes that interrupt as soon as __do_softirq turns interrupts
 * on, before the first vector, so the handler's three runs come before the
 * tasklet each of them scheduled, which runs once.
 */
static struct ttest refire_tasklet;

static void refire_hook(struct tdev *dev, int irq)
{
	note('h');
	irqkit_tasklet_schedule(&refire_tasklet.t);
	if (atomic_load(&dev->calls) == 3)
		irqkit_sw_set_level((unsigned int)irq, false);	/* the device lets go */
}

static void test_level_refire_runs_before_the_softirqs_of_irq_exit(void **state)
{
	(void)state;
	tt_init(&refire_tasklet, 'x');
	a.hook = refire_hook;
	assert_int_equal(irqkit_request_irq(T_LEVEL(1), tdev_fixed_handler, 0, "refire", &a), 0);
	assert_int_equal(irqkit_sw_set_level(T_LEVEL(1), true), 0);
	assert_int_equal(atomic_load(&a.calls), 3);
	assert_int_equal(atomic_load(&refire_tasklet.runs), 1);
	assert_string_equal(order, "hhhx");
	irqkit_free_irq(T_LEVEL(1), &a);
}

/*
 * A level line stuck asserted, whose handler claims every interrupt (so no
 * "nobody cared" ends it), keeps its CPU taking hardirqs for ever; as in
 * Linux, each irq_exit still runs the CPU's pending softirqs (one round,
 * bounded by MAX_SOFTIRQ_RESTART, the rest to ksoftirqd), so a tasklet
 * scheduled on that CPU runs during the storm, from process context or
 * from the storm's own handler.
 */
static struct ttest storm_tasklet;
static atomic_int storm_calls;

static void storm_hook(struct tdev *dev, int irq)
{
	(void)dev;
	(void)irq;
	/* the handler schedules it once, mid-storm */
	if (atomic_fetch_add(&storm_calls, 1) == 1000)
		irqkit_tasklet_schedule(&storm_tasklet.t);
}

static int storm_setup(void **state)
{
	memset(order, 0, sizeof(order));
	tdev_init(&a);
	a.ret = IRQKIT_HANDLED;
	atomic_store(&storm_calls, 0);
	return thr_setup_cpus(2, T_NR_IRQS) ? -1 : 0 * (intptr_t)state;
}

static void test_tasklets_run_during_a_level_storm(void **state)
{
	struct ttest from_task;

	(void)state;
	tt_init(&storm_tasklet, 's');
	tt_init(&from_task, 'p');
	a.hook = storm_hook;
	assert_int_equal(irqkit_request_irq(T_LEVEL(1), tdev_handler, 0, "storm", &a), 0);
	assert_int_equal(irqkit_irq_set_affinity(T_LEVEL(1), 1u << 1), 0);
	assert_int_equal(irqkit_sw_set_level(T_LEVEL(1), true), 0);	/* and never lowered */
	assert_true(wait_until(atomic_load(&storm_calls) > 2000, 10000));
	assert_true(wait_until(atomic_load(&storm_tasklet.runs) == 1, 10000));
	assert_int_equal(storm_tasklet.cpu, 1);
#if T_CPUS_ARE_THREADS
	/* one scheduled from process context on the storming CPU runs too */
	assert_int_equal(irqkit_thread_bind(1), 0);
	irqkit_tasklet_schedule(&from_task.t);
	assert_int_equal(irqkit_thread_unbind(), 0);
	assert_true(wait_until(atomic_load(&from_task.runs) == 1, 10000));
	assert_int_equal(from_task.cpu, 1);
	/* and the storm went on meanwhile: nothing disabled the line */
	{
		int calls = atomic_load(&storm_calls);

		assert_true(wait_until(atomic_load(&storm_calls) > calls + 1000, 10000));
	}
#endif
	assert_int_equal(irqkit_sw_set_level(T_LEVEL(1), false), 0);
	irqkit_free_irq(T_LEVEL(1), &a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_softirqs_run_at_irq_exit_lowest_vector_first),
		T(test_raise_from_process_context_waits_for_a_delivery_point),
		T(test_local_bh_enable_runs_pending_softirqs),
		T(test_irq_exit_inside_bh_section_leaves_softirqs_to_bh_enable),
		T(test_bh_off_keeps_softirqs_off_the_cpu),
		T(test_restart_limit_is_ten_passes),
		T(test_action_that_changes_preempt_count_is_reported_and_repaired),
		T(test_softirq_raised_on_another_cpu_runs_there),
		T(test_tasklet_runs_once_for_many_schedules),
		T(test_tasklets_run_fifo_and_hi_first),
		T(test_tasklet_rescheduled_from_itself_runs_exactly_once_more),
		T(test_tasklet_runs_on_the_cpu_that_scheduled_it),
		T(test_disabled_tasklet_waits_for_enable),
		T(test_tasklet_init_2_6_form_passes_data),
		T(test_uninitialised_tasklet_is_refused),
		T(test_tasklet_queued_without_sched_is_reported_not_run),
		T(test_tasklet_kill_of_idle_tasklet_and_reuse),
		T(test_tasklet_kill_in_deterministic_mode_runs_it),
		T(test_tasklet_kill_with_interrupts_off_in_deterministic_mode_reports),
		T(test_tasklet_kill_from_itself_reports_instead_of_hanging),
		T(test_tasklet_kill_of_disabled_scheduled_tasklet_reports),
		T(test_level_refire_runs_before_the_softirqs_of_irq_exit),
		T(test_process_context_softirq_waits_for_the_lock_to_go),
#undef T
		cmocka_unit_test_setup_teardown(test_tasklets_run_during_a_level_storm, storm_setup,
						thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
