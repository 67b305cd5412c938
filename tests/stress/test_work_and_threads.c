// SPDX-License-Identifier: MIT
/*
 * Stress tests of work queues and threaded interrupts with real threads: a
 * work item never runs on two workers at once, flush_workqueue waits for
 * everything queued before it, every item runs without a flush (no lost
 * wake-up, also while idle workers are reaped), cancel_work_sync stops a
 * self-requeueing item, destroy_workqueue while others still queue, and
 * free_irq of a threaded action while its thread runs.  IRQKIT_STRESS_SCALE
 * multiplies the counts.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <stdlib.h>
#include <unistd.h>

#define NCPU	3

static unsigned int rnd(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
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

/* ---- a work item never runs on two workers at once ---------------------- */

struct nr_item {
	struct irqkit_work	work;
	atomic_int		in;
	atomic_long		runs;
};

static void nr_fn(struct irqkit_work *work)
{
	struct nr_item *it = container_of(work, struct nr_item, work);

	if (atomic_fetch_add(&it->in, 1) != 0)
		atomic_fetch_add(&violations, 1);
	stress_burn(5000);
	atomic_fetch_sub(&it->in, 1);
	atomic_fetch_add(&it->runs, 1);
}

struct queuer {
	pthread_t		thread;
	struct irqkit_workqueue	*wq;
	struct nr_item		*items;
	int			nr_items;
	unsigned int		seed;
	int			cpu;
};

static void *queue_randomly(void *arg)
{
	struct queuer *q = arg;

	if (q->cpu >= 0)
		assert_int_equal(irqkit_thread_bind((unsigned int)q->cpu), 0);
	for (int i = 0; i < stress_scale(4000) && !atomic_load(&stop_flag); i++) {
		struct nr_item *it = &q->items[rnd(&q->seed) % (unsigned int)q->nr_items];

		irqkit_queue_work_on((int)(rnd(&q->seed) % NCPU), q->wq, &it->work);
		if (i % 8 == 7)
			usleep(20);
	}
	if (q->cpu >= 0)
		irqkit_thread_unbind();
	return NULL;
}

static void test_work_item_never_runs_on_two_workers_at_once(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_workqueue("nr", 0, 16);
	struct nr_item items[4];
	struct queuer q[4];
	long runs = 0;

	(void)state;
	memset(items, 0, sizeof(items));
	for (int i = 0; i < 4; i++)
		irqkit_init_work(&items[i].work, nr_fn);
	for (int i = 0; i < 4; i++) {
		q[i] = (struct queuer){ .wq = wq, .items = items, .nr_items = 4,
					.seed = test_seed() * 11 + (unsigned int)i + 1,
					.cpu = i < NCPU ? i : -1 };
		pthread_create(&q[i].thread, NULL, queue_randomly, &q[i]);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(q[i].thread, NULL);
	irqkit_flush_workqueue(wq);
	for (int i = 0; i < 4; i++)
		runs += atomic_load(&items[i].runs);
	fprintf(stderr, "  runs %ld, violations %d\n", runs, atomic_load(&violations));
	assert_int_equal(atomic_load(&violations), 0);
	assert_true(runs > 0);
	irqkit_destroy_workqueue(wq);
}

/* ---- flush_workqueue waits for everything queued before it -------------------------------- */

#define NFLUSH	256

struct fl_item {
	struct irqkit_work	work;
	atomic_int		done;
};

static struct fl_item fl_items[NFLUSH];
static atomic_int published[NFLUSH];	/* queue_work returned true for this item */

static void fl_fn(struct irqkit_work *work)
{
	struct fl_item *it = container_of(work, struct fl_item, work);

	stress_burn(2000);
	atomic_store(&it->done, 1);
}

static void *produce(void *arg)
{
	struct irqkit_workqueue *wq = arg;

	for (int i = 0; i < NFLUSH; i++) {
		if (irqkit_queue_work_on(i % NCPU, wq, &fl_items[i].work))
			atomic_store(&published[i], 1);
		if (i % 4 == 3)
			usleep(50);
	}
	return NULL;
}

static void test_flush_workqueue_waits_for_everything_queued_before(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_workqueue("fl", 0, 8);
	int checked = 0;

	(void)state;
	for (int round = 0; round < stress_scale(20); round++) {
		pthread_t p;

		for (int i = 0; i < NFLUSH; i++) {
			irqkit_init_work(&fl_items[i].work, fl_fn);
			atomic_store(&fl_items[i].done, 0);
			atomic_store(&published[i], 0);
		}
		pthread_create(&p, NULL, produce, wq);
		for (int f = 0; f < 5; f++) {
			bool before[NFLUSH];

			usleep(200);
			for (int i = 0; i < NFLUSH; i++)
				before[i] = atomic_load(&published[i]);
			irqkit_flush_workqueue(wq);
			for (int i = 0; i < NFLUSH; i++) {
				if (before[i]) {
					checked++;
					if (!atomic_load(&fl_items[i].done))
						atomic_fetch_add(&violations, 1);
				}
			}
		}
		pthread_join(p, NULL);
		irqkit_flush_workqueue(wq);
	}
	fprintf(stderr, "  checked %d, violations %d\n", checked, atomic_load(&violations));
	assert_int_equal(atomic_load(&violations), 0);
	assert_true(checked > 0);
	irqkit_destroy_workqueue(wq);
}

/* ---- no wake-up is lost: each item runs without a flush ---------------------------------- */

/*
 * queue_work wakes a worker only when its push finds the pool's incoming list
 * empty and a worker idle; a worker about to sleep looks at the list after
 * putting itself on the idle list.  Producers that each queue one item and
 * wait for it to run make the pools fall idle between items, so pushes meet
 * workers going to sleep all the time.  No flush here: a flush splices the
 * list itself and would hide a lost wake-up.  Each wait is bounded (a lost
 * wake-up would otherwise hang the test): the item must run within 10 s.
 */
#define PING_PRODUCERS	3

struct ping {
	pthread_t		thread;
	struct irqkit_workqueue	*wq;
	struct irqkit_work	work;
	atomic_long		runs;
	long			queued;
	unsigned int		seed;
	bool			reaped;		/* gaps about the idle workers' timeout */
};

static void ping_fn(struct irqkit_work *work)
{
	atomic_fetch_add(&container_of(work, struct ping, work)->runs, 1);
}

static void *ping_pong(void *arg)
{
	struct ping *p = arg;

	for (int i = 0; i < stress_scale(1500); i++) {
		if (!irqkit_queue_work_on((int)(rnd(&p->seed) % NCPU), p->wq, &p->work)) {
			atomic_fetch_add(&violations, 1);	/* its last run had ended */
			break;
		}
		p->queued++;
		if (!wait_until(atomic_load(&p->runs) >= p->queued, 10000)) {
			atomic_fetch_add(&violations, 1);
			return NULL;
		}
		if (p->reaped)			/* about the idle timeout, 1 ms */
			usleep(500 + rnd(&p->seed) % 1000);
		else if (rnd(&p->seed) % 8)	/* mostly long enough for the worker to sleep */
			usleep(rnd(&p->seed) % 100);
	}
	return NULL;
}

/* PING_PRODUCERS producers on @wq until each has queued its items; every item must run. */
static void run_pingers(struct irqkit_workqueue *wq, unsigned int seed, bool reaped)
{
	struct ping p[PING_PRODUCERS];
	long queued = 0, runs = 0;

	for (int i = 0; i < PING_PRODUCERS; i++) {
		p[i] = (struct ping){ .wq = wq, .seed = seed + (unsigned int)i + 1, .reaped = reaped };
		irqkit_init_work(&p[i].work, ping_fn);
		pthread_create(&p[i].thread, NULL, ping_pong, &p[i]);
	}
	for (int i = 0; i < PING_PRODUCERS; i++) {
		pthread_join(p[i].thread, NULL);
		queued += p[i].queued;
		runs += atomic_load(&p[i].runs);
	}
	fprintf(stderr, "  queued %ld, ran %ld, violations %d\n", queued, runs,
		atomic_load(&violations));
	assert_int_equal(atomic_load(&violations), 0);
	assert_int_equal(runs, queued);
	assert_true(queued >= stress_scale(1500) * PING_PRODUCERS);
}

static void test_every_item_runs_without_a_flush(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_workqueue("ping", 0, 0);

	(void)state;
	run_pingers(wq, test_seed() * 7, false);
	irqkit_destroy_workqueue(wq);
}

/*
 * The same with idle workers reaped after 1 ms and gaps around that long: a
 * worker whose idle timeout passes as a producer wakes it must run the item,
 * not end (the wake-up was read before the pool lock, and a worker somebody
 * had just taken off the idle list was reaped with the item left behind).
 */
static void test_every_item_runs_while_idle_workers_are_reaped(void **state)
{
	struct irqkit_workqueue *wq;

	(void)state;
	irqkit_stop();
	assert_int_equal(start_world_cfg((struct irqkit_config){
		.nr_irqs = 64, .nr_cpus = NCPU, .mode = IRQKIT_MODE_THREADED,
		.worker_idle_ms = 1 }), 0);
	wq = irqkit_alloc_workqueue("reaped", 0, 0);
	run_pingers(wq, test_seed() * 11, true);
	irqkit_destroy_workqueue(wq);
}

#ifdef IRQKIT_DEBUG
/*
 * A waker takes an idle worker off the list, unlocks, and only then wakes
 * it.  Meanwhile the worker may see that it was taken at the end of its
 * timed sleep, run the item, go idle, time out beside another idle worker
 * and end; the next create_worker joins it and frees it: the waker must not
 * read freed memory when it comes to the wake.  The checking build's race
 * window holds every waker there for 100 ms, so the interleaving happens
 * whenever the worker that ran the item is the one reaped (tried again
 * otherwise); under AddressSanitizer a read of the freed worker fails it.
 */
struct win_item {
	struct irqkit_work	work;
	atomic_int		runs;
	char			thread[16];	/* who ran it */
};

static void win_fn(struct irqkit_work *work)
{
	struct win_item *it = container_of(work, struct win_item, work);

	pthread_getname_np(pthread_self(), it->thread, sizeof(it->thread));
	atomic_fetch_add(&it->runs, 1);
}

struct win_helper {
	pthread_t		thread;
	struct irqkit_workqueue	*wq;
	struct win_item		*first, second;
	bool			reaped;		/* the first item's worker ended before the second was queued */
};

/* Once the worker that ran the first item has ended, queue a second: its start reaps the first. */
static void *win_queue_second(void *arg)
{
	struct win_helper *h = arg;
	char name[24];

	if (!wait_until(atomic_load(&h->first->runs) == 1, 5000))
		return NULL;
	snprintf(name, sizeof(name), "%s\n", h->first->thread);	/* comm's line: the whole name */
	h->reaped = wait_until(nr_threads_named(name, NULL) == 0, 60);
	irqkit_init_work(&h->second.work, win_fn);
	irqkit_queue_work_on(1, h->wq, &h->second.work);
	return NULL;
}

static void test_a_reaped_worker_outlives_its_waker(void **state)
{
	struct irqkit_workqueue *wq;
	bool reaped = false;

	(void)state;
	irqkit_stop();
	setenv("IRQKIT_RACE_WINDOW", "wake_worker:100000", 1);
	assert_int_equal(start_world_cfg((struct irqkit_config){
		.nr_irqs = 64, .nr_cpus = NCPU, .mode = IRQKIT_MODE_THREADED,
		.worker_idle_ms = 1 }), 0);
	unsetenv("IRQKIT_RACE_WINDOW");
	wq = irqkit_alloc_workqueue("window", 0, 0);
	for (int try = 0; try < 10 && !reaped; try++) {
		struct win_item first = { 0 };
		struct win_helper h = { .wq = wq, .first = &first };

		irqkit_init_work(&first.work, win_fn);
		usleep(5000);				/* the pool down to its last idle worker */
		pthread_create(&h.thread, NULL, win_queue_second, &h);
		irqkit_queue_work_on(1, wq, &first.work);	/* held 100 ms in the window */
		pthread_join(h.thread, NULL);
		irqkit_flush_workqueue(wq);
		assert_int_equal(atomic_load(&first.runs), 1);
		assert_int_equal(atomic_load(&h.second.runs), 1);
		reaped = h.reaped;
	}
	irqkit_destroy_workqueue(wq);
	assert_true(reaped);
}
#endif

/* ---- cancel_work_sync on a self-requeueing item ---------------------------------------------- */

struct self_item {
	struct irqkit_work	work;
	struct irqkit_workqueue	*wq;
	atomic_int		in;
	atomic_long		runs;
};

static void self_fn(struct irqkit_work *work)
{
	struct self_item *it = container_of(work, struct self_item, work);

	atomic_fetch_add(&it->in, 1);
	stress_burn(1000);
	atomic_fetch_add(&it->runs, 1);
	irqkit_queue_work_on((int)(atomic_load(&it->runs) % NCPU), it->wq, work);
	atomic_fetch_sub(&it->in, 1);
}

static void test_cancel_work_sync_stops_a_self_requeueing_item(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_workqueue("self", 0, 4);
	struct self_item it = { .wq = wq };

	(void)state;
	irqkit_init_work(&it.work, self_fn);
	for (int round = 0; round < stress_scale(100); round++) {
		long runs;

		irqkit_queue_work(wq, &it.work);
		usleep(200 + (unsigned int)round % 300);
		irqkit_cancel_work_sync(&it.work);
		if (atomic_load(&it.in) || irqkit_work_pending(&it.work))
			atomic_fetch_add(&violations, 1);
		runs = atomic_load(&it.runs);
		usleep(100);
		if (atomic_load(&it.runs) != runs)
			atomic_fetch_add(&violations, 1);
	}
	fprintf(stderr, "  runs %ld, violations %d\n", atomic_load(&it.runs),
		atomic_load(&violations));
	assert_int_equal(atomic_load(&violations), 0);
	assert_true(atomic_load(&it.runs) > 0);
	irqkit_destroy_workqueue(wq);
}

/* ---- destroy_workqueue while others still queue ----------------------------------------------- */

static void quiet_log(void *arg, int level, const char *line)
{
	(void)arg;
	(void)level;
	if (strstr(line, "destroyed workqueue") || strstr(line, "while draining"))
		return;
	logcap_hook(arg, level, line);
}

static void *queue_until_stopped(void *arg)
{
	struct queuer *q = arg;

	while (!atomic_load(&stop_flag)) {
		struct nr_item *it = &q->items[rnd(&q->seed) % (unsigned int)q->nr_items];

		irqkit_queue_work(q->wq, &it->work);
		usleep(10);
	}
	return NULL;
}

static void test_destroy_workqueue_while_others_still_queue(void **state)
{
	(void)state;
	irqkit_set_log(quiet_log, NULL);
	for (int round = 0; round < stress_scale(20); round++) {
		struct irqkit_workqueue *wq = irqkit_alloc_workqueue("busy%d", 0, 0, round);
		struct nr_item items[3];
		struct queuer q[2];

		memset(items, 0, sizeof(items));
		for (int i = 0; i < 3; i++)
			irqkit_init_work(&items[i].work, nr_fn);
		atomic_store(&stop_flag, false);
		for (int i = 0; i < 2; i++) {
			q[i] = (struct queuer){ .wq = wq, .items = items, .nr_items = 3,
						.seed = test_seed() * 7 + (unsigned int)i + 1 };
			pthread_create(&q[i].thread, NULL, queue_until_stopped, &q[i]);
		}
		long ran = 0;

		usleep(2000);
		irqkit_destroy_workqueue(wq);	/* refuses them from now on, with a warning */
		/* nothing of the queue runs after destroy returned */
		for (int i = 0; i < 3; i++) {
			if (atomic_load(&items[i].in))
				atomic_fetch_add(&violations, 1);
			ran += atomic_load(&items[i].runs);
		}
		atomic_store(&stop_flag, true);
		for (int i = 0; i < 2; i++)
			pthread_join(q[i].thread, NULL);
		usleep(1000);			/* time for a late item to run, were there one */
		for (int i = 0; i < 3; i++) {
			if (atomic_load(&items[i].in) || irqkit_work_pending(&items[i].work))
				atomic_fetch_add(&violations, 1);
			ran -= atomic_load(&items[i].runs);
		}
		if (ran)
			atomic_fetch_add(&violations, 1);
	}
	irqkit_set_log(logcap_hook, NULL);
	assert_int_equal(atomic_load(&violations), 0);
}

/* ---- free_irq of a threaded action while its thread runs --------------------------------------- */

struct tdev_t {
	atomic_int	in;
	atomic_long	runs;
	atomic_bool	gone;
};

static enum irqkit_irqreturn tprimary(int irq, void *dev_id)
{
	struct tdev_t *d = dev_id;

	(void)irq;
	if (atomic_load(&d->gone))
		atomic_fetch_add(&violations, 1);
	return IRQKIT_WAKE_THREAD;
}

static enum irqkit_irqreturn tthread(int irq, void *dev_id)
{
	struct tdev_t *d = dev_id;

	(void)irq;
	atomic_fetch_add(&d->in, 1);
	if (atomic_load(&d->gone))
		atomic_fetch_add(&violations, 1);
	stress_burn(20000);
	atomic_fetch_add(&d->runs, 1);
	atomic_fetch_sub(&d->in, 1);
	return IRQKIT_HANDLED;
}

static void *raise_line0(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop_flag)) {
		irqkit_sw_raise(0);
		usleep(20);
	}
	return NULL;
}

static void test_free_irq_of_a_threaded_action_while_its_thread_runs(void **state)
{
	static struct tdev_t devs[16];
	pthread_t r;
	long runs = 0;
	int caught = 0;

	(void)state;
	pthread_create(&r, NULL, raise_line0, NULL);
	for (int round = 0; round < stress_scale(60); round++) {
		struct tdev_t *d = &devs[round % 16];
		unsigned long flags = round % 2 ? IRQKIT_F_ONESHOT : 0;

		atomic_store(&d->gone, false);
		assert_int_equal(irqkit_request_threaded_irq(0, tprimary, tthread, flags, "t", d), 0);
		irqkit_irq_set_affinity(0, 1ull << (round % NCPU));
		usleep(300 + (unsigned int)(round * 37) % 500);
		caught += atomic_load(&d->in);
		irqkit_free_irq(0, d);
		/* not running now and never called again */
		if (atomic_load(&d->in))
			atomic_fetch_add(&violations, 1);
		atomic_store(&d->gone, true);
		runs += atomic_load(&d->runs);
	}
	atomic_store(&stop_flag, true);
	pthread_join(r, NULL);
	usleep(1000);
	fprintf(stderr, "  thread runs %ld, freed while running %d, violations %d\n", runs, caught,
		atomic_load(&violations));
	assert_int_equal(atomic_load(&violations), 0);
	assert_true(runs > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, thr_teardown)
		T(test_work_item_never_runs_on_two_workers_at_once),
		T(test_flush_workqueue_waits_for_everything_queued_before),
		T(test_every_item_runs_without_a_flush),
		T(test_every_item_runs_while_idle_workers_are_reaped),
#ifdef IRQKIT_DEBUG
		T(test_a_reaped_worker_outlives_its_waker),
#endif
		T(test_cancel_work_sync_stops_a_self_requeueing_item),
		T(test_destroy_workqueue_while_others_still_queue),
		T(test_free_irq_of_a_threaded_action_while_its_thread_runs),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
