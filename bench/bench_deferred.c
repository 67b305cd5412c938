// SPDX-License-Identifier: MIT
/*
 * Benchmarks of deferred work (issue 3), each paired with a peer in the same
 * run:
 *   - queue_work to one worker, one producer: time per item against libuv's
 *     uv_queue_work, GLib's g_thread_pool_push and a plain mutex+condvar queue,
 *     each with one worker thread;
 *   - tasklet_schedule to run on the same CPU against an indirect call, and
 *     from a thread off the CPU (ksoftirqd runs it) against a futex wake;
 *   - delayed-work lateness (run time minus due time) at 100 us, 1 ms and
 *     10 ms against a timerfd wait of the same length, from a thread with the
 *     default timer slack (50 us) and from one with 1 ns of slack, and (1 ms)
 *     a clock_nanosleep with 1 ns of slack;
 *   - irq_work_queue with interrupts off, run at local_irq_enable on the same
 *     CPU, against a tasklet scheduled in a bottom-half-off section and run
 *     at local_bh_enable;
 *   - hrtimer lateness (callback time minus expiry) at 50 us, 1 ms and 10 ms
 *     against the same timerfd waits (1 ns of slack: the platform timer's);
 *   - wake of a sleeping worker (queue_work to the item's start) against a
 *     futex wake of a sleeping thread.
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>
#include <irqkit/hrtimer.h>
#include <irqkit/irq_work.h>

#include <glib.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "bench.h"

#define BENCH_HZ	10000		/* a jiffy of 100 us, so 100 us is one jiffy */

static long items_done;			/* every side's item function counts here */

static int start_runtime(unsigned int hz)
{
	struct irqkit_config cfg = { .nr_irqs = 64, .nr_cpus = 1, .hz = hz };

	return irqkit_start(&cfg);
}

/* ---- queue_work throughput ------------------------------------------------------------- */

static struct irqkit_workqueue *wq;
static struct bench_buf works;		/* of struct irqkit_work */

static void count_item(struct irqkit_work *w)
{
	(void)w;
	__atomic_fetch_add(&items_done, 1, __ATOMIC_RELAXED);
}

static struct irqkit_work *ensure_works(long n)
{
	long old = works.cap;
	struct irqkit_work *w = bench_reserve(&works, n, sizeof(*w));

	for (long i = old; i < works.cap; i++)
		irqkit_init_work(&w[i], count_item);
	return w;
}

static void queue_work_items(long n)
{
	struct irqkit_work *w = ensure_works(n);
	uint64_t t0 = bench_now_ns();

	for (long i = 0; i < n; i++)
		irqkit_queue_work(wq, &w[i]);
	irqkit_flush_workqueue(wq);
	bench_report_ns((double)(bench_now_ns() - t0) / (double)n);
}

static int setup_wq(void)
{
	if (start_runtime(0))
		return -1;
	wq = irqkit_alloc_workqueue("bench", 0, 1);	/* one item at a time: one worker */
	return wq ? 0 : -1;
}

static void teardown_wq(void)
{
	irqkit_destroy_workqueue(wq);
	irqkit_stop();
	bench_buf_free(&works);
}

/* libuv: uv_queue_work on a pool of one thread, completions collected by uv_run */
static uv_loop_t uvloop;
static struct bench_buf uvreqs;		/* of uv_work_t */

static void uv_item(uv_work_t *req)
{
	(void)req;
	__atomic_fetch_add(&items_done, 1, __ATOMIC_RELAXED);
}

static void uv_after(uv_work_t *req, int status)
{
	(void)req;
	(void)status;
}

static void uv_queue_work_items(long n)
{
	uv_work_t *reqs = bench_reserve(&uvreqs, n, sizeof(*reqs));
	uint64_t t0 = bench_now_ns();

	for (long i = 0; i < n; i++)
		uv_queue_work(&uvloop, &reqs[i], uv_item, uv_after);
	uv_run(&uvloop, UV_RUN_DEFAULT);
	bench_report_ns((double)(bench_now_ns() - t0) / (double)n);
}

static int setup_wq_uv(void)
{
	setenv("UV_THREADPOOL_SIZE", "1", 1);	/* read once, at the pool's first use */
	return uv_loop_init(&uvloop) || setup_wq() ? -1 : 0;
}

static void teardown_wq_uv(void)
{
	teardown_wq();
	uv_loop_close(&uvloop);
	bench_buf_free(&uvreqs);
}

/* GLib: g_thread_pool_push to a pool of one exclusive thread */
static GThreadPool *gpool;
static GMutex gdone_lock;
static GCond gdone_cond;
static long gtarget;

static void glib_item(gpointer data, gpointer user)
{
	(void)data;
	(void)user;
	if (__atomic_add_fetch(&items_done, 1, __ATOMIC_RELAXED) == __atomic_load_n(&gtarget, __ATOMIC_RELAXED)) {
		g_mutex_lock(&gdone_lock);
		g_cond_signal(&gdone_cond);
		g_mutex_unlock(&gdone_lock);
	}
}

static void glib_push_items(long n)
{
	static int token;
	uint64_t t0 = bench_now_ns();

	__atomic_store_n(&gtarget, __atomic_load_n(&items_done, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
	for (long i = 0; i < n; i++)
		g_thread_pool_push(gpool, &token, NULL);
	g_mutex_lock(&gdone_lock);
	while (__atomic_load_n(&items_done, __ATOMIC_RELAXED) < gtarget)
		g_cond_wait(&gdone_cond, &gdone_lock);
	g_mutex_unlock(&gdone_lock);
	bench_report_ns((double)(bench_now_ns() - t0) / (double)n);
}

static int setup_wq_glib(void)
{
	gpool = g_thread_pool_new(glib_item, NULL, 1, TRUE, NULL);
	return gpool && !setup_wq() ? 0 : -1;
}

static void teardown_wq_glib(void)
{
	teardown_wq();
	g_thread_pool_free(gpool, FALSE, TRUE);
}

/* A plain queue: a list under a mutex, one worker sleeping on a condition variable */
struct cq_node {
	struct cq_node	*next;
};

static pthread_mutex_t cq_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cq_cond = PTHREAD_COND_INITIALIZER;
static pthread_cond_t cq_done_cond = PTHREAD_COND_INITIALIZER;
static struct cq_node *cq_head, **cq_tail = &cq_head;
static struct bench_buf cq_nodes;	/* of struct cq_node */
static long cq_target;
static bool cq_sleeping, cq_stop;
static pthread_t cq_thread;

static void *cq_worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&cq_lock);
	for (;;) {
		struct cq_node *node;

		while (!cq_head && !cq_stop) {
			cq_sleeping = true;
			pthread_cond_wait(&cq_cond, &cq_lock);
			cq_sleeping = false;
		}
		if (!cq_head)
			break;
		node = cq_head;
		cq_head = node->next;
		if (!cq_head)
			cq_tail = &cq_head;
		pthread_mutex_unlock(&cq_lock);
		if (__atomic_add_fetch(&items_done, 1, __ATOMIC_RELAXED) == cq_target) {
			pthread_mutex_lock(&cq_lock);
			pthread_cond_signal(&cq_done_cond);
			pthread_mutex_unlock(&cq_lock);
		}
		pthread_mutex_lock(&cq_lock);
	}
	pthread_mutex_unlock(&cq_lock);
	return NULL;
}

static void cq_queue_items(long n)
{
	struct cq_node *nodes = bench_reserve(&cq_nodes, n, sizeof(*nodes));
	uint64_t t0 = bench_now_ns();

	pthread_mutex_lock(&cq_lock);
	cq_target = __atomic_load_n(&items_done, __ATOMIC_RELAXED) + n;
	pthread_mutex_unlock(&cq_lock);
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&cq_lock);
		nodes[i].next = NULL;
		*cq_tail = &nodes[i];
		cq_tail = &nodes[i].next;
		if (cq_sleeping)
			pthread_cond_signal(&cq_cond);
		pthread_mutex_unlock(&cq_lock);
	}
	pthread_mutex_lock(&cq_lock);
	while (__atomic_load_n(&items_done, __ATOMIC_RELAXED) < cq_target)
		pthread_cond_wait(&cq_done_cond, &cq_lock);
	pthread_mutex_unlock(&cq_lock);
	bench_report_ns((double)(bench_now_ns() - t0) / (double)n);
}

static int setup_wq_cq(void)
{
	cq_stop = false;
	if (pthread_create(&cq_thread, NULL, cq_worker, NULL))
		return -1;
	return setup_wq();
}

static void teardown_wq_cq(void)
{
	teardown_wq();
	pthread_mutex_lock(&cq_lock);
	cq_stop = true;
	pthread_cond_signal(&cq_cond);
	pthread_mutex_unlock(&cq_lock);
	pthread_join(cq_thread, NULL);
	bench_buf_free(&cq_nodes);
}

/* ---- tasklet schedule to run, same CPU ------------------------------------------------------ */

static unsigned long tasklet_runs;

static void tasklet_cb(struct irqkit_tasklet *t)
{
	(void)t;
	__atomic_fetch_add(&tasklet_runs, 1, __ATOMIC_RELAXED);
}

static struct irqkit_tasklet bench_tasklet;
static void (*volatile tasklet_cb_ptr)(struct irqkit_tasklet *) = tasklet_cb;

static void tasklet_schedule_run(long n)
{
	for (long i = 0; i < n; i++) {
		irqkit_local_bh_disable();
		irqkit_tasklet_schedule(&bench_tasklet);
		irqkit_local_bh_enable();		/* runs it here, on this CPU */
	}
}

static void floor_indirect_call(long n)
{
	for (long i = 0; i < n; i++)
		tasklet_cb_ptr(&bench_tasklet);
}

static int setup_tasklet(void)
{
	if (start_runtime(0) || irqkit_thread_bind(0))
		return -1;
	irqkit_tasklet_setup(&bench_tasklet, tasklet_cb);
	return 0;
}

static void teardown_tasklet(void)
{
	irqkit_tasklet_kill(&bench_tasklet);
	irqkit_thread_unbind();
	irqkit_stop();
}

static struct irqkit_irq_work bench_iw;
static long iw_runs;

static void iw_cb(struct irqkit_irq_work *w)
{
	(void)w;
	iw_runs++;
}

static void irq_work_queue_run(long n)
{
	for (long i = 0; i < n; i++) {
		unsigned long flags = irqkit_local_irq_save();

		irqkit_irq_work_queue(&bench_iw);
		irqkit_local_irq_restore(flags);	/* runs it here, in hardirq context */
	}
}

static int setup_irq_work(void)
{
	if (setup_tasklet())
		return -1;
	irqkit_init_irq_work(&bench_iw, iw_cb);
	return 0;
}

/*
 * Tasklet scheduled from a thread that is not the CPU's (an unbound thread
 * acts for CPU 0): ksoftirqd/0, asleep, is woken and runs it.  Against a
 * futex wake of a sleeping thread; schedule to callback start.
 */
static struct irqkit_tasklet remote_tasklet;

static void remote_tasklet_cb(struct irqkit_tasklet *t)
{
	(void)t;
	bench_woke_at = bench_now_ns();
	bench_futex_set_wake(&bench_woke, 1);
}

static void kick_remote_tasklet(void)
{
	irqkit_tasklet_schedule(&remote_tasklet);
}

static void tasklet_remote(long n)
{
	bench_wake_samples(n, kick_remote_tasklet, 200, false);	/* ksoftirqd sleeps again */
}

static int setup_tasklet_remote(void)
{
	if (start_runtime(0))
		return -1;
	irqkit_tasklet_setup(&remote_tasklet, remote_tasklet_cb);
	return bench_futex_peer_start();
}

static void teardown_tasklet_remote(void)
{
	bench_futex_peer_stop();
	irqkit_tasklet_kill(&remote_tasklet);
	irqkit_stop();
}

/* ---- delayed-work lateness ------------------------------------------------------------------- */

static struct irqkit_delayed_work dwork;
static int dwork_ran;
static uint64_t dwork_ran_at;

static void dwork_fn(struct irqkit_work *w)
{
	(void)w;
	dwork_ran_at = bench_now_ns();
	bench_futex_set_wake(&dwork_ran, 1);
}

static struct bench_buf samples_buf;	/* of double: the lateness samples */

static void delayed_work_lateness(long n, unsigned int us)
{
	unsigned long d = irqkit_usecs_to_jiffies(us);
	double jiffy_ns = 1e9 / irqkit_hz();
	double *samples = bench_reserve(&samples_buf, n, sizeof(*samples));

	for (long i = 0; i < n; i++) {
		unsigned long j0 = irqkit_jiffies();
		uint64_t boundary;

		while (irqkit_jiffies() == j0)	/* start on a jiffy boundary */
			;
		boundary = bench_now_ns();
		__atomic_store_n(&dwork_ran, 0, __ATOMIC_RELAXED);
		irqkit_queue_delayed_work(wq, &dwork, d);
		bench_futex_wait(&dwork_ran, 0);
		samples[i] = (double)dwork_ran_at - ((double)boundary + (double)d * jiffy_ns);
	}
	bench_report_samples(samples, (int)n);
}

/*
 * The peers of delayed work: a plain wait until an absolute deadline, in a
 * timerfd read (@timerfd) or in clock_nanosleep, from this thread with
 * @slack_ns of timer slack (0: the default 50 us).
 */
static void sleep_lateness(long n, unsigned int us, unsigned long slack_ns, bool timerfd)
{
	int fd = timerfd ? timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC) : -1;
	unsigned long old_slack = (unsigned long)prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL);
	double *samples = bench_reserve(&samples_buf, n, sizeof(*samples));

	if (timerfd && fd < 0)
		abort();
	if (slack_ns)
		prctl(PR_SET_TIMERSLACK, slack_ns, 0UL, 0UL, 0UL);
	for (long i = 0; i < n; i++) {
		uint64_t due = bench_now_ns() + (uint64_t)us * 1000, expirations;
		struct timespec ts = { .tv_sec = (time_t)(due / 1000000000ull),
				       .tv_nsec = (long)(due % 1000000000ull) };

		if (timerfd) {
			struct itimerspec its = { .it_value = ts };

			timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL);
			if (read(fd, &expirations, sizeof(expirations)) != sizeof(expirations))
				abort();
		} else {
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
				;
		}
		samples[i] = (double)(bench_now_ns() - due);
	}
	if (timerfd)
		close(fd);
	prctl(PR_SET_TIMERSLACK, old_slack, 0UL, 0UL, 0UL);
	bench_report_samples(samples, (int)n);
}

static void delayed_100us(long n) { delayed_work_lateness(n, 100); }
static void delayed_1ms(long n) { delayed_work_lateness(n, 1000); }
static void delayed_10ms(long n) { delayed_work_lateness(n, 10000); }
static void timerfd_100us(long n) { sleep_lateness(n, 100, 0, true); }
static void timerfd_1ms(long n) { sleep_lateness(n, 1000, 0, true); }
static void timerfd_10ms(long n) { sleep_lateness(n, 10000, 0, true); }
static void timerfd_100us_1ns(long n) { sleep_lateness(n, 100, 1, true); }
static void timerfd_1ms_1ns(long n) { sleep_lateness(n, 1000, 1, true); }
static void timerfd_10ms_1ns(long n) { sleep_lateness(n, 10000, 1, true); }
static void nanosleep_1ms_1ns(long n) { sleep_lateness(n, 1000, 1, false); }

static int setup_delayed(void)
{
	if (start_runtime(BENCH_HZ))
		return -1;
	wq = irqkit_system_wq();
	irqkit_init_delayed_work(&dwork, dwork_fn);
	return 0;
}

static void teardown_delayed(void)
{
	irqkit_cancel_delayed_work_sync(&dwork);
	irqkit_stop();
	bench_buf_free(&samples_buf);
}

/* ---- hrtimer lateness ------------------------------------------------------------------------ */

static struct irqkit_hrtimer bench_hrt;
static int hrt_fired;
static uint64_t hrt_fired_at;

static enum irqkit_hrtimer_restart hrt_fn(struct irqkit_hrtimer *t)
{
	(void)t;
	hrt_fired_at = bench_now_ns();
	bench_futex_set_wake(&hrt_fired, 1);
	return IRQKIT_HRTIMER_NORESTART;
}

/*
 * An absolute expiry @us from now on irqkit's clock; the lateness is the
 * callback's time (in hardirq context on CPU 0) minus that expiry read on
 * the bench's clock, both the host's monotonic clock.
 */
static void hrtimer_lateness(long n, unsigned int us)
{
	double *samples = bench_reserve(&samples_buf, n, sizeof(*samples));

	for (long i = 0; i < n; i++) {
		int64_t k = (int64_t)irqkit_ktime_get_ns();
		uint64_t due = bench_now_ns() + (uint64_t)us * 1000;

		__atomic_store_n(&hrt_fired, 0, __ATOMIC_RELAXED);
		irqkit_hrtimer_start_range_ns(&bench_hrt, k + (int64_t)us * 1000, 0,
					      IRQKIT_HRTIMER_MODE_ABS);
		bench_futex_wait(&hrt_fired, 0);
		samples[i] = (double)hrt_fired_at - (double)due;
	}
	bench_report_samples(samples, (int)n);
}

static void hrtimer_50us(long n) { hrtimer_lateness(n, 50); }
static void hrtimer_1ms(long n) { hrtimer_lateness(n, 1000); }
static void hrtimer_10ms(long n) { hrtimer_lateness(n, 10000); }
static void timerfd_50us_1ns(long n) { sleep_lateness(n, 50, 1, true); }

static int setup_hrtimer(void)
{
	if (start_runtime(0))
		return -1;
	irqkit_hrtimer_setup(&bench_hrt, hrt_fn, IRQKIT_CLOCK_MONOTONIC, IRQKIT_HRTIMER_MODE_ABS);
	return 0;
}

static void teardown_hrtimer(void)
{
	irqkit_hrtimer_cancel(&bench_hrt);
	irqkit_stop();
	bench_buf_free(&samples_buf);
}

/* ---- wake of a sleeping worker ----------------------------------------------------------------- */

static struct irqkit_work wake_work;

static void wake_fn(struct irqkit_work *w)
{
	(void)w;
	bench_woke_at = bench_now_ns();
	bench_futex_set_wake(&bench_woke, 1);
}

static void kick_worker(void)
{
	irqkit_queue_work(wq, &wake_work);
}

static void worker_wake(long n)
{
	bench_wake_samples(n, kick_worker, 200, false);		/* the worker sleeps again */
}

static int setup_wake(void)
{
	if (start_runtime(0))
		return -1;
	wq = irqkit_system_wq();
	irqkit_init_work(&wake_work, wake_fn);
	return bench_futex_peer_start();
}

static void teardown_wake(void)
{
	bench_futex_peer_stop();
	irqkit_flush_work(&wake_work);
	irqkit_stop();
}

static const struct bench benches[] = {
	{ .name = "queue_work", .floor_name = "uv_queue_work", .subject = queue_work_items,
	  .floor = uv_queue_work_items, .target = 0.5, .setup = setup_wq_uv,
	  .teardown = teardown_wq_uv, .flags = BENCH_UNPINNED, .unit = "ns/item" },
	{ .name = "queue_work", .floor_name = "g_thread_pool_push",
	  .subject = queue_work_items, .floor = glib_push_items, .target = 0.5,
	  .setup = setup_wq_glib, .teardown = teardown_wq_glib, .flags = BENCH_UNPINNED,
	  .unit = "ns/item" },
	{ .name = "queue_work", .floor_name = "mutex_condvar_queue",
	  .subject = queue_work_items, .floor = cq_queue_items, .target = 1.0,
	  .setup = setup_wq_cq, .teardown = teardown_wq_cq, .flags = BENCH_UNPINNED,
	  .unit = "ns/item" },
	{ .name = "tasklet_schedule_run", .floor_name = "indirect_call",
	  .subject = tasklet_schedule_run, .floor = floor_indirect_call, .target = 6.0,
	  .setup = setup_tasklet, .teardown = teardown_tasklet },
	{ .name = "irq_work_queue_run", .floor_name = "tasklet_schedule_run",
	  .subject = irq_work_queue_run, .floor = tasklet_schedule_run, .target = 1.0,
	  .setup = setup_irq_work, .teardown = teardown_tasklet },
	{ .name = "tasklet_remote_wake", .floor_name = "futex_wake", .subject = tasklet_remote,
	  .floor = bench_futex_wake_thread, .setup = setup_tasklet_remote,
	  .teardown = teardown_tasklet_remote, .flags = BENCH_UNPINNED | BENCH_LATENCY,
	  .fixed_n = 101, .unit = "ns" },
	{ .name = "delayed_work_late_100us", .floor_name = "timerfd_late_100us",
	  .subject = delayed_100us, .floor = timerfd_100us, .target = 1.25,
	  .setup = setup_delayed, .teardown = teardown_delayed,
	  .flags = BENCH_UNPINNED | BENCH_LATENCY, .fixed_n = 41, .unit = "ns late" },
	{ .name = "delayed_work_late_100us", .floor_name = "timerfd_1ns_slack_100us",
	  .subject = delayed_100us, .floor = timerfd_100us_1ns, .target = 1.25,
	  .setup = setup_delayed, .teardown = teardown_delayed,
	  .flags = BENCH_UNPINNED | BENCH_LATENCY, .fixed_n = 41, .unit = "ns late" },
	{ .name = "delayed_work_late_1ms", .floor_name = "timerfd_late_1ms",
	  .subject = delayed_1ms, .floor = timerfd_1ms, .target = 1.25, .setup = setup_delayed,
	  .teardown = teardown_delayed, .flags = BENCH_UNPINNED | BENCH_LATENCY, .fixed_n = 21,
	  .unit = "ns late" },
	{ .name = "delayed_work_late_1ms", .floor_name = "timerfd_1ns_slack_1ms",
	  .subject = delayed_1ms, .floor = timerfd_1ms_1ns, .target = 1.25,
	  .setup = setup_delayed, .teardown = teardown_delayed,
	  .flags = BENCH_UNPINNED | BENCH_LATENCY, .fixed_n = 21, .unit = "ns late" },
	{ .name = "delayed_work_late_10ms", .floor_name = "timerfd_late_10ms",
	  .subject = delayed_10ms, .floor = timerfd_10ms, .target = 1.25,
	  .setup = setup_delayed, .teardown = teardown_delayed,
	  .flags = BENCH_UNPINNED | BENCH_LATENCY, .fixed_n = 9, .unit = "ns late" },
	{ .name = "delayed_work_late_10ms", .floor_name = "timerfd_1ns_slack_10ms",
	  .subject = delayed_10ms, .floor = timerfd_10ms_1ns, .target = 1.25,
	  .setup = setup_delayed, .teardown = teardown_delayed,
	  .flags = BENCH_UNPINNED | BENCH_LATENCY, .fixed_n = 9, .unit = "ns late" },
	{ .name = "delayed_work_late_1ms", .floor_name = "clock_nanosleep_1ns_slack_1ms",
	  .subject = delayed_1ms, .floor = nanosleep_1ms_1ns, .target = 1.25,
	  .setup = setup_delayed, .teardown = teardown_delayed,
	  .flags = BENCH_UNPINNED | BENCH_LATENCY, .fixed_n = 21, .unit = "ns late" },
	{ .name = "hrtimer_late_50us", .floor_name = "timerfd_1ns_slack_50us",
	  .subject = hrtimer_50us, .floor = timerfd_50us_1ns, .target = 1.10,
	  .setup = setup_hrtimer, .teardown = teardown_hrtimer,
	  .flags = BENCH_UNPINNED | BENCH_LATENCY, .fixed_n = 101, .unit = "ns late" },
	{ .name = "hrtimer_late_1ms", .floor_name = "timerfd_1ns_slack_1ms",
	  .subject = hrtimer_1ms, .floor = timerfd_1ms_1ns, .target = 1.10,
	  .setup = setup_hrtimer, .teardown = teardown_hrtimer,
	  .flags = BENCH_UNPINNED | BENCH_LATENCY, .fixed_n = 41, .unit = "ns late" },
	{ .name = "hrtimer_late_10ms", .floor_name = "timerfd_1ns_slack_10ms",
	  .subject = hrtimer_10ms, .floor = timerfd_10ms_1ns, .target = 1.10,
	  .setup = setup_hrtimer, .teardown = teardown_hrtimer,
	  .flags = BENCH_UNPINNED | BENCH_LATENCY, .fixed_n = 9, .unit = "ns late" },
	{ .name = "worker_wake", .floor_name = "futex_wake", .subject = worker_wake,
	  .floor = bench_futex_wake_thread, .target = 1.10, .setup = setup_wake,
	  .teardown = teardown_wake, .flags = BENCH_UNPINNED | BENCH_LATENCY, .fixed_n = 101,
	  .unit = "ns" },
};

const struct bench_set bench_deferred_set = { benches, sizeof(benches) / sizeof(benches[0]) };
