// SPDX-License-Identifier: MIT
/*
 * Stress of high-resolution timers with real threads: timers started,
 * started again with ranges, forwarded and cancelled from threads bound to
 * each CPU and from unbound ones, and from the callbacks of other timers,
 * while each restarts itself.  A callback never runs twice at once; after
 * hrtimer_cancel returns, its callback does not run until the timer is
 * started again; once every thread stopped and every timer is cancelled,
 * nothing runs.  IRQKIT_STRESS_SCALE multiplies the iteration counts.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <linux/hrtimer.h>

#include <stdlib.h>
#include <unistd.h>

#define NCPU	2
#define NTIMERS	8
#define NTHREADS 4

struct stimer {
	struct hrtimer	t;
	atomic_int	in;
	atomic_long	runs;
	atomic_int	period_us;	/* 0: do not restart */
	atomic_int	poke;		/* a timer the callback starts or cancels, -1: none */
};

static struct stimer timers[NTIMERS];
static atomic_int violations;
static atomic_bool quiet;		/* every thread stopped: no callback may run once cancelled */
static atomic_long late_runs;

static enum hrtimer_restart stress_fn(struct hrtimer *t)
{
	struct stimer *s = container_of(t, struct stimer, t);
	int poke = atomic_load(&s->poke), period = atomic_load(&s->period_us);

	if (atomic_fetch_add(&s->in, 1) != 0)
		atomic_fetch_add(&violations, 1);
	if (atomic_load(&quiet))
		atomic_fetch_add(&late_runs, 1);
	atomic_fetch_add(&s->runs, 1);
	if (poke >= 0 && poke != s - timers) {
		/* from hardirq context: another timer started or cancelled */
		if (atomic_load(&s->runs) & 1)
			hrtimer_start(&timers[poke].t, us_to_ktime(50 + poke * 7), HRTIMER_MODE_REL);
		else
			(void)hrtimer_try_to_cancel(&timers[poke].t);
	}
	atomic_fetch_sub(&s->in, 1);
	if (!period)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, us_to_ktime(period));
	return HRTIMER_RESTART;
}

struct worker {
	pthread_t	thread;
	int		cpu;		/* -1: unbound */
	unsigned int	seed;
	int		iters;
};

static void *work(void *arg)
{
	struct worker *w = arg;

	if (w->cpu >= 0)
		assert_int_equal(irqkit_thread_bind((unsigned int)w->cpu), 0);
	for (int i = 0; i < w->iters; i++) {
		struct stimer *s = &timers[rand_r(&w->seed) % NTIMERS];
		int op = rand_r(&w->seed) % 8;

		switch (op) {
		case 0:
		case 1:
			hrtimer_start(&s->t, us_to_ktime(20 + rand_r(&w->seed) % 300), HRTIMER_MODE_REL);
			break;
		case 2:
			hrtimer_start_range_ns(&s->t, us_to_ktime(rand_r(&w->seed) % 200),
					       rand_r(&w->seed) % 100000, HRTIMER_MODE_REL);
			break;
		case 3:
			(void)hrtimer_try_to_cancel(&s->t);
			break;
		case 4: {
			/* after cancel, not queued (unless someone started it again since) */
			int r = hrtimer_cancel(&s->t);

			if (r < 0 || r > 1)
				atomic_fetch_add(&violations, 1);
			break;
		}
		case 5:
			atomic_store(&s->period_us, rand_r(&w->seed) % 3 ? 30 + rand_r(&w->seed) % 200 : 0);
			break;
		case 6:
			usleep(20);	/* let the timers run between operations */
			(void)hrtimer_active(&s->t);
			(void)hrtimer_is_queued(&s->t);
			(void)hrtimer_get_remaining(&s->t);
			break;
		default:
			break;
		}
	}
	if (w->cpu >= 0)
		irqkit_thread_unbind();
	return NULL;
}

static void test_hrtimers_under_concurrent_start_forward_cancel(void **state)
{
	struct worker w[NTHREADS];
	long total = 0, after;

	(void)state;
	atomic_store(&violations, 0);
	atomic_store(&quiet, false);
	atomic_store(&late_runs, 0);
	for (int i = 0; i < NTIMERS; i++) {
		memset(&timers[i], 0, sizeof(timers[i]));
		hrtimer_setup(&timers[i].t, stress_fn, i % 3 ? CLOCK_MONOTONIC : CLOCK_REALTIME,
			      i % 2 ? HRTIMER_MODE_REL : HRTIMER_MODE_REL_SOFT);
		atomic_store(&timers[i].period_us, 40 + 10 * i);
		atomic_store(&timers[i].poke, i % 4 == 0 ? (i + 3) % NTIMERS : -1);
	}
	for (int i = 0; i < NTHREADS; i++) {
		w[i] = (struct worker){ .cpu = i < NCPU ? i : -1, .seed = 17u * (unsigned)i + 1,
					.iters = stress_scale(20000) };
		pthread_create(&w[i].thread, NULL, work, &w[i]);
	}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(w[i].thread, NULL);

	/* the callbacks start each other: stop that, then cancel every one */
	for (int i = 0; i < NTIMERS; i++) {
		atomic_store(&timers[i].poke, -1);
		atomic_store(&timers[i].period_us, 0);
	}
	for (int i = 0; i < NTIMERS; i++)
		(void)hrtimer_cancel(&timers[i].t);
	atomic_store(&quiet, true);
	for (int i = 0; i < NTIMERS; i++) {
		assert_false(hrtimer_active(&timers[i].t));
		total += atomic_load(&timers[i].runs);
	}
	usleep(20000);
	after = 0;
	for (int i = 0; i < NTIMERS; i++)
		after += atomic_load(&timers[i].runs);
	test_printf("hrtimer stress: %ld callbacks\n", total);
	assert_int_equal(atomic_load(&violations), 0);
	assert_int_equal(atomic_load(&late_runs), 0);
	assert_int_equal(after, total);
	assert_true(total > 0);
}

/* A periodic timer cancelled right as it restarts, over and over, from the other CPU. */
static struct stimer racer;

static void test_cancel_races_the_restart(void **state)
{
	(void)state;
	atomic_store(&violations, 0);
	atomic_store(&quiet, false);
	memset(&racer, 0, sizeof(racer));
	atomic_store(&racer.poke, -1);
	hrtimer_setup(&racer.t, stress_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	assert_int_equal(irqkit_thread_bind(1), 0);
	for (int i = 0; i < stress_scale(400); i++) {
		long before;

		atomic_store(&racer.period_us, 5);
		hrtimer_start(&racer.t, us_to_ktime(5), HRTIMER_MODE_REL_PINNED);
		for (int spin = 0; spin < 200 && atomic_load(&racer.runs) == 0; spin++)
			usleep(10);
		(void)hrtimer_cancel(&racer.t);
		before = atomic_load(&racer.runs);
		if (hrtimer_active(&racer.t))
			atomic_fetch_add(&violations, 1);
		usleep(30);
		if (atomic_load(&racer.runs) != before)
			atomic_fetch_add(&violations, 1);	/* it ran after the cancel */
		atomic_store(&racer.runs, 0);
	}
	irqkit_thread_unbind();
	assert_int_equal(atomic_load(&violations), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hrtimers_under_concurrent_start_forward_cancel),
		cmocka_unit_test(test_cancel_races_the_restart),
	};
	int ret;

	if (thr_setup_cpus(NCPU, 64))
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	thr_teardown(NULL);
	return ret;
}
