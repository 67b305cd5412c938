// SPDX-License-Identifier: MIT
/*
 * Stress tests of the bottom halves with real threads: guarantee 5 (a tasklet
 * runs on the CPU that scheduled it, never concurrently with itself, N
 * schedules give one run), the bottom-half part of guarantee 3, ksoftirqd
 * taking over, tasklet_kill, and del_timer_sync against a running callback.
 * IRQKIT_STRESS_SCALE multiplies the iteration counts.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <stdlib.h>
#include <unistd.h>

#define NCPU	3

static int scale(int n)
{
	const char *s = getenv("IRQKIT_STRESS_SCALE");
	int k = s ? atoi(s) : 1;

	return n * (k > 0 ? k : 1);
}

static void burn(int n)
{
	for (volatile int i = 0; i < n; i++)
		;
}

static atomic_int violations;
static atomic_bool stop_flag;

static int setup(void **state)
{
	(void)state;
	atomic_store(&violations, 0);
	atomic_store(&stop_flag, false);
	return thr_setup_cpus(NCPU, 64);
}

/* ---- a tasklet never runs concurrently with itself; it runs where scheduled ------------- */

struct ctask {
	struct irqkit_tasklet	t;
	atomic_int		in;
	atomic_long		runs;
	atomic_int		last_scheduler_cpu;	/* -1: several, checked only when single */
};

static struct ctask shared_task;

static void shared_cb(struct irqkit_tasklet *t)
{
	struct ctask *ct = container_of(t, struct ctask, t);

	if (atomic_fetch_add(&ct->in, 1) != 0)
		atomic_fetch_add(&violations, 1);
	burn(20000);
	atomic_fetch_sub(&ct->in, 1);
	atomic_fetch_add(&ct->runs, 1);
}

struct sched_thread {
	pthread_t	thread;
	int		cpu;
	struct ctask	*task;
	int		iters;
};

static void *scheduler(void *arg)
{
	struct sched_thread *st = arg;

	if (st->cpu >= 0)
		assert_int_equal(irqkit_thread_bind((unsigned int)st->cpu), 0);
	for (int i = 0; i < st->iters; i++) {
		irqkit_tasklet_schedule(&st->task->t);
		if (i % 8 == 7)
			usleep(20);
	}
	if (st->cpu >= 0)
		irqkit_thread_unbind();
	return NULL;
}

static void test_tasklet_never_runs_concurrently_with_itself(void **state)
{
	struct sched_thread th[4];

	(void)state;
	memset(&shared_task, 0, sizeof(shared_task));
	irqkit_tasklet_setup(&shared_task.t, shared_cb);
	for (int i = 0; i < 4; i++) {
		th[i] = (struct sched_thread){ .cpu = i < NCPU ? i : -1, .task = &shared_task,
					       .iters = scale(3000) };
		pthread_create(&th[i].thread, NULL, scheduler, &th[i]);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(th[i].thread, NULL);
	assert_true(wait_until(!(__atomic_load_n(&shared_task.t.state, __ATOMIC_SEQ_CST) & IRQKIT_TASKLET_STATE_SCHED), 10000));
	irqkit_tasklet_kill(&shared_task.t);
	fprintf(stderr, "  runs %ld, violations %d\n", atomic_load(&shared_task.runs),
		atomic_load(&violations));
	assert_int_equal(atomic_load(&violations), 0);
	assert_true(atomic_load(&shared_task.runs) > 0);
}

struct where_task {
	struct irqkit_tasklet	t;
	int			cpu;		/* the CPU its scheduler is bound to */
	atomic_long		runs;
};

static void where_cb(struct irqkit_tasklet *t)
{
	struct where_task *wt = container_of(t, struct where_task, t);

	if (irqkit_smp_processor_id() != wt->cpu)
		atomic_fetch_add(&violations, 1);
	atomic_fetch_add(&wt->runs, 1);
}

static void *schedule_own(void *arg)
{
	struct where_task *wt = arg;

	assert_int_equal(irqkit_thread_bind((unsigned int)wt->cpu), 0);
	for (int i = 0; i < scale(2000); i++) {
		irqkit_tasklet_schedule(&wt->t);
		if (i % 4 == 3)
			usleep(10);
	}
	irqkit_thread_unbind();
	return NULL;
}

static void test_tasklet_runs_on_the_scheduling_cpu(void **state)
{
	struct where_task wt[NCPU];
	pthread_t th[NCPU];

	(void)state;
	for (int i = 0; i < NCPU; i++) {
		memset(&wt[i], 0, sizeof(wt[i]));
		wt[i].cpu = i;
		irqkit_tasklet_setup(&wt[i].t, where_cb);
		pthread_create(&th[i], NULL, schedule_own, &wt[i]);
	}
	for (int i = 0; i < NCPU; i++) {
		pthread_join(th[i], NULL);
		assert_true(wait_until(!__atomic_load_n(&wt[i].t.state, __ATOMIC_SEQ_CST), 10000));
		assert_true(atomic_load(&wt[i].runs) > 0);
	}
	assert_int_equal(atomic_load(&violations), 0);
}

/* ---- N schedules before it runs give one run ---------------------------------------------- */

static void test_n_schedules_give_one_run(void **state)
{
	struct ctask ct;

	(void)state;
	memset(&ct, 0, sizeof(ct));
	irqkit_tasklet_setup(&ct.t, shared_cb);
	for (int round = 0; round < scale(40); round++) {
		struct sched_thread th[3];
		long before = atomic_load(&ct.runs);

		irqkit_tasklet_disable(&ct.t);
		for (int i = 0; i < 3; i++) {
			th[i] = (struct sched_thread){ .cpu = i, .task = &ct, .iters = 100 };
			pthread_create(&th[i].thread, NULL, scheduler, &th[i]);
		}
		for (int i = 0; i < 3; i++)
			pthread_join(th[i].thread, NULL);
		assert_int_equal(atomic_load(&ct.runs), before);
		irqkit_tasklet_enable(&ct.t);
		assert_true(wait_until(atomic_load(&ct.runs) == before + 1 && !__atomic_load_n(&ct.t.state, __ATOMIC_SEQ_CST), 10000));
		usleep(2000);
		assert_int_equal(atomic_load(&ct.runs), before + 1);
	}
	irqkit_tasklet_kill(&ct.t);
}

/* ---- guarantee 3, bottom halves: bh-off and irq-off sections keep tasklets out ------------- */

static atomic_int section_on[NCPU];

struct guard_task {
	struct irqkit_tasklet	t;
	int			cpu;
	atomic_long		runs;
};

static void guard_cb(struct irqkit_tasklet *t)
{
	struct guard_task *gt = container_of(t, struct guard_task, t);

	if (atomic_load(&section_on[irqkit_smp_processor_id()]))
		atomic_fetch_add(&violations, 1);
	burn(500);
	atomic_fetch_add(&gt->runs, 1);
}

static void *section_thread(void *arg)
{
	struct guard_task *gt = arg;
	int cpu = gt->cpu;

	assert_int_equal(irqkit_thread_bind((unsigned int)cpu), 0);
	for (int i = 0; !atomic_load(&stop_flag); i++) {
		if (i & 1) {
			irqkit_local_bh_disable();
			atomic_fetch_add(&section_on[cpu], 1);
			irqkit_tasklet_schedule(&gt->t);	/* runs at the bh_enable below */
			burn(1500);
			atomic_fetch_sub(&section_on[cpu], 1);
			irqkit_local_bh_enable();
		} else {
			unsigned long flags = irqkit_local_irq_save();

			atomic_fetch_add(&section_on[cpu], 1);
			burn(1500);
			atomic_fetch_sub(&section_on[cpu], 1);
			irqkit_local_irq_restore(flags);
		}
		if (i % 16 == 15)
			usleep(20);
	}
	irqkit_thread_unbind();
	return NULL;
}

static void *schedule_from_elsewhere(void *arg)
{
	struct guard_task *gt = arg;

	/* an unbound thread schedules on CPU 0; ksoftirqd/0 runs it */
	while (!atomic_load(&stop_flag)) {
		irqkit_tasklet_schedule(&gt[0].t);
		usleep(30);
	}
	return NULL;
}

static void test_bh_and_irq_off_sections_keep_tasklets_off_their_cpu(void **state)
{
	struct guard_task gt[NCPU];
	pthread_t th[NCPU], other;
	long total = 0;

	(void)state;
	for (int i = 0; i < NCPU; i++) {
		memset(&gt[i], 0, sizeof(gt[i]));
		gt[i].cpu = i;
		irqkit_tasklet_setup(&gt[i].t, guard_cb);
		pthread_create(&th[i], NULL, section_thread, &gt[i]);
	}
	pthread_create(&other, NULL, schedule_from_elsewhere, gt);
	wait_until(atomic_load(&gt[0].runs) > scale(2000), 20000);
	atomic_store(&stop_flag, true);
	for (int i = 0; i < NCPU; i++)
		pthread_join(th[i], NULL);
	pthread_join(other, NULL);
	for (int i = 0; i < NCPU; i++) {
		irqkit_tasklet_kill(&gt[i].t);
		total += atomic_load(&gt[i].runs);
	}
	fprintf(stderr, "  tasklet runs %ld, violations %d\n", total, atomic_load(&violations));
	assert_int_equal(atomic_load(&violations), 0);
	assert_true(total > scale(2000));
}

/* ---- ksoftirqd takes over after the restart limit ------------------------------------------ */

static atomic_int storm_left;
static atomic_int storm_in_ksoftirqd;

static void storm_action(void)
{
	char name[32];

	pthread_getname_np(pthread_self(), name, sizeof(name));
	if (!strncmp(name, "ksoftirqd/", 10))
		atomic_fetch_add(&storm_in_ksoftirqd, 1);
	if (atomic_fetch_sub(&storm_left, 1) > 1)
		irqkit_raise_softirq(IRQKIT_SCHED_SOFTIRQ);
}

static void test_softirq_storm_is_finished_by_ksoftirqd(void **state)
{
	(void)state;
	atomic_store(&storm_left, 500);
	atomic_store(&storm_in_ksoftirqd, 0);
	irqkit_open_softirq(IRQKIT_SCHED_SOFTIRQ, storm_action);
	irqkit_raise_softirq(IRQKIT_SCHED_SOFTIRQ);	/* process context: ksoftirqd/0 */
	assert_true(wait_until(atomic_load(&storm_left) == 0, 10000));
	assert_true(atomic_load(&storm_in_ksoftirqd) > 0);
	irqkit_open_softirq(IRQKIT_SCHED_SOFTIRQ, NULL);
}

/*
 * MAX_SOFTIRQ_TIME (6.3): an action that takes 1 ms and raises itself again is
 * run inline at local_bh_enable for at most 2 passes (the loop restarts only
 * while less than 2 ms have gone by), not the 10 the pass limit alone allows;
 * ksoftirqd does the rest.
 */
static atomic_int slow_left, slow_inline, slow_in_ksoftirqd;
static pthread_t slow_caller;

static void slow_action(void)
{
	struct timespec a, b;
	char name[32];

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 1000000L);
	pthread_getname_np(pthread_self(), name, sizeof(name));
	if (pthread_equal(pthread_self(), slow_caller))
		atomic_fetch_add(&slow_inline, 1);
	else if (!strncmp(name, "ksoftirqd/", 10))
		atomic_fetch_add(&slow_in_ksoftirqd, 1);
	if (atomic_fetch_sub(&slow_left, 1) > 1)
		irqkit_raise_softirq(IRQKIT_SCHED_SOFTIRQ);
}

static void test_softirq_loop_stops_after_2_ms(void **state)
{
	(void)state;
	atomic_store(&slow_left, 20);
	atomic_store(&slow_inline, 0);
	atomic_store(&slow_in_ksoftirqd, 0);
	slow_caller = pthread_self();
	irqkit_open_softirq(IRQKIT_SCHED_SOFTIRQ, slow_action);
	assert_int_equal(irqkit_thread_bind(0), 0);
	irqkit_local_bh_disable();
	irqkit_raise_softirq(IRQKIT_SCHED_SOFTIRQ);
	irqkit_local_bh_enable();		/* runs them here, until the time limit */
	irqkit_thread_unbind();
	assert_true(wait_until(atomic_load(&slow_left) == 0, 10000));
	fprintf(stderr, "  inline passes %d, in ksoftirqd %d\n", atomic_load(&slow_inline),
		atomic_load(&slow_in_ksoftirqd));
	assert_in_range(atomic_load(&slow_inline), 1, 2);
	assert_true(atomic_load(&slow_in_ksoftirqd) > 0);
	irqkit_open_softirq(IRQKIT_SCHED_SOFTIRQ, NULL);
}

/* ---- tasklet_disable waits for a running callback (6.10) ---------------------------------- */

static atomic_int gate_open, gated_in, gated_runs, disable_returned;

static void gated_cb(struct irqkit_tasklet *t)
{
	(void)t;
	atomic_store(&gated_in, 1);
	while (!atomic_load(&gate_open))
		usleep(100);
	atomic_fetch_add(&gated_runs, 1);
	atomic_store(&gated_in, 0);
}

static void *disable_in_thread(void *t)
{
	irqkit_tasklet_disable(t);
	atomic_store(&disable_returned, atomic_load(&gated_runs) + 1);	/* runs seen, plus one */
	return NULL;
}

static void test_tasklet_disable_waits_for_a_running_callback(void **state)
{
	struct ctask ct;
	struct sched_thread st;
	pthread_t th;
	int early;

	(void)state;
	memset(&ct, 0, sizeof(ct));
	for (int round = 0; round < scale(5); round++) {
		atomic_store(&gate_open, 0);
		atomic_store(&gated_runs, 0);
		atomic_store(&disable_returned, 0);
		irqkit_tasklet_setup(&ct.t, gated_cb);
		st = (struct sched_thread){ .cpu = 1, .task = &ct, .iters = 1 };
		pthread_create(&st.thread, NULL, scheduler, &st);	/* runs in ksoftirqd/1 */
		pthread_join(st.thread, NULL);
		assert_true(wait_until(atomic_load(&gated_in) == 1, 10000));
		pthread_create(&th, NULL, disable_in_thread, &ct.t);
		usleep(20000);
		early = atomic_load(&disable_returned);	/* 0: still waiting for RUN */
		atomic_store(&gate_open, 1);
		pthread_join(th, NULL);
		assert_int_equal(early, 0);
		assert_int_equal(atomic_load(&disable_returned), 2);	/* returned after the run */
		irqkit_tasklet_enable(&ct.t);
		irqkit_tasklet_kill(&ct.t);
	}
}

/* ---- tasklet_kill: on return neither queued nor running ------------------------------------- */

static void *schedule_until_stopped(void *arg)
{
	struct ctask *ct = arg;

	assert_int_equal(irqkit_thread_bind(1), 0);
	while (!atomic_load(&stop_flag))
		irqkit_tasklet_schedule(&ct->t);
	irqkit_thread_unbind();
	return NULL;
}

static void test_tasklet_kill_leaves_it_idle(void **state)
{
	struct ctask ct;

	(void)state;
	memset(&ct, 0, sizeof(ct));
	irqkit_tasklet_setup(&ct.t, shared_cb);
	for (int round = 0; round < scale(30); round++) {
		pthread_t th;

		atomic_store(&stop_flag, false);
		pthread_create(&th, NULL, schedule_until_stopped, &ct);
		usleep(1000);
		atomic_store(&stop_flag, true);
		pthread_join(th, NULL);
		irqkit_tasklet_kill(&ct.t);
		if (__atomic_load_n(&ct.t.state, __ATOMIC_SEQ_CST) || atomic_load(&ct.in))
			atomic_fetch_add(&violations, 1);
	}
	assert_int_equal(atomic_load(&violations), 0);
	assert_true(atomic_load(&ct.runs) > 0);
}

/* ---- del_timer_sync against a running callback ------------------------------------------------- */

struct stimer {
	struct irqkit_timer_list timer;
	atomic_int		running;
	atomic_long		fired;
};

static void slow_timer(struct irqkit_timer_list *t)
{
	struct stimer *st = container_of(t, struct stimer, timer);

	atomic_store(&st->running, 1);
	burn(300000);
	atomic_store(&st->running, 0);
	atomic_fetch_add(&st->fired, 1);
}

static void test_del_timer_sync_waits_for_a_running_callback(void **state)
{
	struct stimer st;
	unsigned int seed = test_seed();
	int caught_running = 0;

	(void)state;
	memset(&st, 0, sizeof(st));
	irqkit_timer_setup(&st.timer, slow_timer, 0);
	for (int i = 0; i < scale(200); i++) {
		long fired;

		irqkit_mod_timer(&st.timer, irqkit_jiffies());		/* due now */
		seed = seed * 1103515245u + 12345u;
		usleep((seed >> 16) % 600);
		caught_running += atomic_load(&st.running);
		irqkit_del_timer_sync(&st.timer);
		if (atomic_load(&st.running))
			atomic_fetch_add(&violations, 1);
		fired = atomic_load(&st.fired);
		usleep(200);
		if (atomic_load(&st.fired) != fired || irqkit_timer_pending(&st.timer))
			atomic_fetch_add(&violations, 1);	/* ran again after del_timer_sync */
	}
	fprintf(stderr, "  fired %ld, caught running %d, violations %d\n",
		atomic_load(&st.fired), caught_running, atomic_load(&violations));
	assert_int_equal(atomic_load(&violations), 0);
	assert_true(atomic_load(&st.fired) > 0);
	assert_true(caught_running > 0);	/* the race it is about did happen */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, thr_teardown)
		T(test_tasklet_never_runs_concurrently_with_itself),
		T(test_tasklet_runs_on_the_scheduling_cpu),
		T(test_n_schedules_give_one_run),
		T(test_bh_and_irq_off_sections_keep_tasklets_off_their_cpu),
		T(test_softirq_storm_is_finished_by_ksoftirqd),
		T(test_softirq_loop_stops_after_2_ms),
		T(test_tasklet_disable_waits_for_a_running_callback),
		T(test_tasklet_kill_leaves_it_idle),
		T(test_del_timer_sync_waits_for_a_running_callback),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
