// SPDX-License-Identifier: MIT
/*
 * The simulator (IRQKIT_MODE_SIM): a seed gives one interleaving and the
 * same log byte for byte; a virtual CPU runs one context at a time; time is
 * virtual; and, through irqkit_explore(), the races it is for: free_irq
 * against a handler on another CPU, a device interrupt enabled before what
 * its handler uses, a work item that drains a ring the
 * handler fills, two locks taken in both orders (a deadlock), a lock taken
 * without irqsave that the handler takes (a livelock), each found within
 * the runs and its fixed version passing them all.  Built with
 * IRQKIT_LOCKDEP, so the spinlocks are switch points.
 */
#include "../harness.h"

#include <irqkit/explore.h>
#include <irqkit/fd.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/completion.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define IRQ	T_EDGE(5)

static bool fixed;

/* A simulated world of @cpus CPUs with the harness's lines (routed to CPU 0). */
static int sim_world(unsigned int cpus, uint64_t seed)
{
	return start_world_cfg((struct irqkit_config){
		.nr_irqs = T_NR_IRQS, .nr_cpus = cpus, .mode = IRQKIT_MODE_SIM, .sim_seed = seed });
}

/* ---- a device that interrupts from its own thread ------------------------------ */

static int device_raises;

static int device_main(void *arg)
{
	(void)arg;
	for (int i = 0; i < device_raises; i++) {
		(void)irqkit_sw_raise(IRQ);
		irqkit_sim_point();
	}
	return 0;
}

/* ---- one seed, one interleaving, one log ------------------------------------- */

static atomic_int handled, worked;

static irqreturn_t count_interrupt(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	atomic_fetch_add(&handled, 1);
	irqkit_sim_point();
	return IRQ_HANDLED;
}

static void count_work(struct work_struct *w)
{
	(void)w;
	atomic_fetch_add(&worked, 1);
}

static DECLARE_WORK(counted, count_work);

/* CPU 1's device raises CPU 0's line five times while CPU 0 queues work and sleeps. */
static void run_counted(uint64_t seed, const char *log, struct irqkit_sim_stats *st)
{
	struct irqkit_thread *dev;

	if (log)
		setenv("IRQKIT_SIM_LOG", log, 1);
	assert_int_equal(sim_world(2, seed), 0);
	unsetenv("IRQKIT_SIM_LOG");
	atomic_store(&handled, 0);
	atomic_store(&worked, 0);
	device_raises = 5;
	assert_int_equal(request_irq(IRQ, count_interrupt, 0, "counted", NULL), 0);
	assert_int_equal(irqkit_thread_start(&dev, 1, "device", device_main, NULL), 0);
	schedule_work(&counted);
	msleep(10);
	assert_int_equal(irqkit_thread_join(dev), 0);
	flush_work(&counted);
	free_irq(IRQ, NULL);
	irqkit_stop();
	assert_int_equal(irqkit_sim_stats(st), 0);
	assert_int_equal(st->seed, seed);
	assert_true(atomic_load(&handled) >= 1);	/* edges raised while latched fold */
	assert_int_equal(atomic_load(&worked), 1);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void test_same_seed_same_log(void **state)
{
	char a[] = "/tmp/irqkit-sim-a-XXXXXX", b[] = "/tmp/irqkit-sim-b-XXXXXX";
	struct irqkit_sim_stats s1, s2, s;
	uint64_t hashes[8];
	unsigned int distinct = 0;
	size_t la, lb;
	char *ta, *tb;

	(void)state;
	close(mkstemp(a));
	close(mkstemp(b));
	run_counted(42, a, &s1);
	run_counted(42, b, &s2);
	ta = slurp(a, &la);
	tb = slurp(b, &lb);
	assert_true(la > 200);
	assert_int_equal(la, lb);
	assert_memory_equal(ta, tb, la);
	assert_non_null(strstr(ta, "seed 42 depth 2\n"));
	assert_non_null(strstr(ta, ": device: "));		/* the program's thread, named */
	assert_non_null(strstr(ta, "-> vcpu/0"));		/* CPU 0 took the device's interrupt */
	assert_true(s1.hash == s2.hash && s1.steps == s2.steps && s1.switches == s2.switches &&
		    s1.virtual_ns == s2.virtual_ns);
	assert_true(s1.switches > 10);
	assert_true(s1.virtual_ns >= 10 * 1000000ull);		/* the msleep, in virtual time */
	free(ta);
	free(tb);
	unlink(a);
	unlink(b);

	/* other seeds, other interleavings */
	for (unsigned int i = 0; i < 8; i++) {
		bool seen = false;

		run_counted(1000 + i, NULL, &s);
		for (unsigned int j = 0; j < i; j++)
			seen |= hashes[j] == s.hash;
		hashes[i] = s.hash;
		distinct += !seen;
	}
	assert_true(distinct >= 4);
}

/* ---- a CPU runs one context at a time ---------------------------------------- */

static atomic_bool in_handler;		/* CPU 0's handler is between its points */
static atomic_int cpu1_saw;

static irqreturn_t long_interrupt(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	atomic_store(&in_handler, true);
	irqkit_sim_point();
	irqkit_sim_point();
	atomic_store(&in_handler, false);
	return IRQ_HANDLED;
}

static int cpu1_task(void *arg)
{
	(void)arg;
	for (int i = 0; i < 40; i++) {
		if (atomic_load(&in_handler))
			atomic_fetch_add(&cpu1_saw, 1);
		irqkit_sim_point();
	}
	return 0;
}

static void test_cpu_runs_one_context_at_a_time(void **state)
{
	int cpu0_saw = 0;

	(void)state;
	atomic_store(&cpu1_saw, 0);
	for (uint64_t seed = 1; seed <= 30; seed++) {
		struct irqkit_thread *dev, *other;

		assert_int_equal(sim_world(2, seed), 0);
		atomic_store(&in_handler, false);
		device_raises = 6;
		assert_int_equal(request_irq(IRQ, long_interrupt, 0, "long", NULL), 0);
		assert_int_equal(irqkit_thread_start(&dev, 1, "device", device_main, NULL), 0);
		assert_int_equal(irqkit_thread_start(&other, 1, "cpu1", cpu1_task, NULL), 0);
		for (int i = 0; i < 40; i++) {
			/* CPU 0's own task: its handler interrupted it, so it never sees one */
			cpu0_saw += atomic_load(&in_handler);
			irqkit_sim_point();
		}
		assert_int_equal(irqkit_thread_join(dev), 0);
		assert_int_equal(irqkit_thread_join(other), 0);
		free_irq(IRQ, NULL);
		irqkit_stop();
	}
	assert_int_equal(cpu0_saw, 0);
	assert_true(atomic_load(&cpu1_saw) > 0);	/* another CPU runs meanwhile */
}

/* ---- the rest of the API, unchanged ------------------------------------------ */

static DECLARE_COMPLETION(api_done);
static DECLARE_WAIT_QUEUE_HEAD(api_wq);
static atomic_int api_top, api_thread, api_tasklet;
static int api_flag;

static void api_tasklet_fn(struct tasklet_struct *t)
{
	(void)t;
	atomic_fetch_add(&api_tasklet, 1);
}

static DECLARE_TASKLET(api_bh, api_tasklet_fn);

static void api_timer_fn(struct timer_list *t)
{
	(void)t;
	fail_msg("a timer deleted with del_timer_sync ran");
}

static irqreturn_t api_top_half(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	atomic_fetch_add(&api_top, 1);
	tasklet_schedule(&api_bh);
	return IRQ_WAKE_THREAD;
}

static irqreturn_t api_thread_fn(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	if (atomic_fetch_add(&api_thread, 1) == 0) {
		complete(&api_done);
		WRITE_ONCE(api_flag, 1);
		wake_up(&api_wq);
	}
	return IRQ_HANDLED;
}

/*
 * A threaded handler on CPU 1 with a tasklet, raised from CPU 0; a completion
 * and a wait queue woken from the irq thread; disable_irq/enable_irq,
 * irqkit_wait_delivered and synchronize_irq; a timer deleted synchronously;
 * over twenty seeds.
 */
static void test_the_api_works_unchanged(void **state)
{
	(void)state;
	for (uint64_t seed = 100; seed < 120; seed++) {
		struct timer_list t;

		assert_int_equal(sim_world(2, seed), 0);
		atomic_store(&api_top, 0);
		atomic_store(&api_thread, 0);
		atomic_store(&api_tasklet, 0);
		api_flag = 0;
		reinit_completion(&api_done);
		assert_int_equal(irqkit_irq_set_affinity(IRQ, 2), 0);
		assert_int_equal(request_threaded_irq(IRQ, api_top_half, api_thread_fn, IRQF_ONESHOT,
						      "api", NULL), 0);
		assert_int_equal(irqkit_sw_raise(IRQ), 0);
		wait_for_completion(&api_done);
		assert_true(wait_event_timeout(api_wq, READ_ONCE(api_flag), HZ) > 0);
		disable_irq(IRQ);		/* waits for the handler and its thread */
		assert_int_equal(irqkit_sw_raise(IRQ), 0);
		msleep(5);
		assert_int_equal(atomic_load(&api_top), 1);	/* disabled: kept pending */
		enable_irq(IRQ);			/* replayed */
		assert_int_equal(irqkit_wait_delivered(IRQ, 1000), 0);
		synchronize_irq(IRQ);
		timer_setup(&t, api_timer_fn, 0);
		mod_timer(&t, jiffies + 10);
		assert_int_equal(del_timer_sync(&t), 1);
		msleep(5);
		assert_int_equal(atomic_load(&api_top), 2);
		assert_int_equal(atomic_load(&api_thread), 2);
		assert_true(atomic_load(&api_tasklet) >= 1);	/* two schedules may fold */
		free_irq(IRQ, NULL);
		irqkit_stop();
	}
}

/* ---- cross-CPU calls both ways, every seed: no deadlock, none lost ------------- */

#include <linux/smp.h>

static atomic_int xcalls[2];

static void xcall_fn(void *info)
{
	if (in_hardirq() && irqs_disabled())
		atomic_fetch_add(&xcalls[smp_processor_id()], 1);
	(void)info;
}

static int xcall_thread(void *arg)
{
	(void)arg;
	for (int i = 0; i < 30; i++)
		assert_int_equal(smp_call_function_single(0, xcall_fn, NULL, i % 2), 0);
	return 0;
}

static void test_cross_cpu_calls_both_ways(void **state)
{
	(void)state;
	for (uint64_t seed = 200; seed < 230; seed++) {
		struct irqkit_thread *t;

		assert_int_equal(sim_world(2, seed), 0);
		atomic_store(&xcalls[0], 0);
		atomic_store(&xcalls[1], 0);
		assert_int_equal(irqkit_thread_start(&t, 1, "caller1", xcall_thread, NULL), 0);
		for (int i = 0; i < 30; i++)
			assert_int_equal(smp_call_function_single(1, xcall_fn, NULL, i % 2), 0);
		on_each_cpu(xcall_fn, NULL, 1);
		irqkit_thread_join(t);
		msleep(5);		/* virtual time: the calls not waited for have run */
		assert_int_equal(atomic_load(&xcalls[1]), 31);
		assert_int_equal(atomic_load(&xcalls[0]), 30);	/* on_each_cpu's own ran at once, not in hardirq */
		irqkit_stop();
	}
}

/* ---- time is virtual --------------------------------------------------------- */

static uint64_t fired_at, worked_at;

static void vt_timer(struct timer_list *t)
{
	(void)t;
	fired_at = irqkit_sim_stats(&(struct irqkit_sim_stats){ 0 }) ? 0 : get_jiffies_64();
}

static void vt_work(struct work_struct *w)
{
	(void)w;
	worked_at = get_jiffies_64();
}

static DEFINE_TIMER(vt_timer_obj, vt_timer);
static DECLARE_DELAYED_WORK(vt_dwork, vt_work);

static void test_time_is_virtual(void **state)
{
	struct irqkit_sim_stats st;
	uint64_t start;

	(void)state;
	assert_int_equal(sim_world(2, 7), 0);
	start = get_jiffies_64();
	fired_at = worked_at = 0;
	mod_timer(&vt_timer_obj, jiffies + msecs_to_jiffies(500));
	schedule_delayed_work(&vt_dwork, msecs_to_jiffies(1200));
	msleep(3000);		/* three virtual seconds: no time on the host */
	assert_true(get_jiffies_64() - start >= msecs_to_jiffies(3000));
	assert_int_equal(irqkit_sim_stats(&st), 0);
	assert_true(st.virtual_ns >= 3000 * 1000000ull);
	irqkit_stop();
	assert_in_range(fired_at - start, msecs_to_jiffies(500), msecs_to_jiffies(501));
	assert_in_range(worked_at - start, msecs_to_jiffies(1200), msecs_to_jiffies(1201));
}

/* ---- explorations: the races ---------------------------------------------------- */

/*
 * The buggy version of @body fails a run of @runs seeds (from @seed) for
 * @why (a prefix), named with its seed in @res; the fixed one passes them all.
 */
static void found_then_fixed(int (*body)(void *), unsigned int runs, uint64_t seed, const char *why,
			     struct irqkit_explore_result *res)
{
	struct irqkit_explore_cfg cfg = { .random_runs = runs, .seed = seed, .timeout_ms = 20000 };

	fixed = false;
	assert_int_equal(irqkit_explore(&cfg, body, NULL, res), 1);
	if (strncmp(res->why, why, strlen(why)))
		fail_msg("the run failed for \"%s\", not \"%s\"", res->why, why);
	assert_non_null(strstr(res->schedule, "seed "));
	fixed = true;
	assert_explore_passes(&cfg, body, NULL);
	fixed = false;
}

/* 1: free_irq after freeing what the handler, running on another CPU, uses */

struct rxdev {
	int	*buf;
	bool	bad;		/* the handler found it freed */
};

static struct rxdev rx;

static irqreturn_t rx_interrupt(int irq, void *dev_id)
{
	struct rxdev *d = dev_id;
	int *buf;

	(void)irq;
	irqkit_sim_point();		/* reading the device's status */
	buf = READ_ONCE(d->buf);
	if (!buf)
		d->bad = true;		/* a use after free, on real hardware */
	else
		buf[0]++;
	return IRQ_HANDLED;
}

static int rx_remove_body(void *arg)
{
	static int storage[1];
	struct irqkit_thread *dev;

	(void)arg;
	if (sim_world(2, 0))
		return -1;
	rx = (struct rxdev){ .buf = storage };
	device_raises = 3;
	if (irqkit_irq_set_affinity(IRQ, 2) || request_irq(IRQ, rx_interrupt, 0, "rxdev", &rx) ||
	    irqkit_thread_start(&dev, 0, "device", device_main, NULL))
		return -1;
	irqkit_sim_point();
	if (fixed) {
		free_irq(IRQ, &rx);		/* waits for a handler running on CPU 1 */
		WRITE_ONCE(rx.buf, NULL);
	} else {
		WRITE_ONCE(rx.buf, NULL);	/* the bug: the handler may run on CPU 1 */
		free_irq(IRQ, &rx);
	}
	irqkit_thread_join(dev);
	irqkit_stop();
	return rx.bad;
}

static void test_free_irq_race_is_found(void **state)
{
	struct irqkit_explore_cfg cfg = { .random_runs = 200, .seed = 11, .timeout_ms = 20000 };
	struct irqkit_explore_result res;

	(void)state;
	found_then_fixed(rx_remove_body, 200, 11, "the body returned 1", &res);
	fixed = true;
	assert_int_equal(irqkit_explore(&cfg, rx_remove_body, NULL, &res), 0);
	assert_int_equal(res.runs, 201);
	assert_true(res.points > 20);		/* the switch points of the first run */
}

/* 2: the device's interrupt enabled before what the handler uses is set up */

struct probedev {
	int	*buf;
	bool	int_enabled;	/* the device's interrupt-enable register */
	bool	bad;		/* the handler found no buffer */
};

static struct probedev pd;

static irqreturn_t probe_interrupt(int irq, void *dev_id)
{
	struct probedev *d = dev_id;
	int *buf = READ_ONCE(d->buf);

	(void)irq;
	if (!buf)
		d->bad = true;	/* a NULL dereference, on real hardware */
	else
		buf[0]++;
	return IRQ_HANDLED;
}

/* The device on CPU 1: it interrupts whenever its register lets it. */
static int probe_device(void *arg)
{
	(void)arg;
	for (int i = 0; i < 4; i++) {
		if (READ_ONCE(pd.int_enabled))
			(void)irqkit_sw_raise(IRQ);
		irqkit_sim_point();
	}
	return 0;
}

static int probe_body(void *arg)
{
	static int storage[1];
	struct irqkit_thread *dev;

	(void)arg;
	if (sim_world(2, 0))
		return -1;
	pd = (struct probedev){ 0 };
	if (irqkit_thread_start(&dev, 1, "device", probe_device, NULL) ||
	    request_irq(IRQ, probe_interrupt, 0, "probedev", &pd))
		return -1;
	if (fixed)
		WRITE_ONCE(pd.buf, storage);
	WRITE_ONCE(pd.int_enabled, true);	/* the bug: before the buffer */
	irqkit_sim_point();
	WRITE_ONCE(pd.buf, storage);
	irqkit_thread_join(dev);
	free_irq(IRQ, &pd);
	irqkit_stop();
	return pd.bad;
}

static void test_enable_before_init_is_found(void **state)
{
	struct irqkit_explore_result res;

	(void)state;
	found_then_fixed(probe_body, 200, 21, "the body returned 1", &res);
}

/* 3: a work item that drains the ring its handler fills, and runs once more */

#define RING	8

struct ringdev {
	spinlock_t		lock;
	unsigned int		head, tail;	/* produced, consumed */
	int			ring[RING];
	struct work_struct	drain;
	bool			bad;		/* consumed an entry never produced */
};

static struct ringdev rd;

static irqreturn_t ring_interrupt(int irq, void *dev_id)
{
	struct ringdev *d = dev_id;

	(void)irq;
	spin_lock(&d->lock);
	d->ring[d->head++ % RING] = 1;
	spin_unlock(&d->lock);
	schedule_work(&d->drain);
	return IRQ_HANDLED;
}

static void ring_drain(struct work_struct *w)
{
	struct ringdev *d = container_of(w, struct ringdev, drain);
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	if (fixed) {
		while (d->tail != d->head)
			d->ring[d->tail++ % RING] = 0;
	} else {
		/* the bug: takes one entry before looking whether there is any */
		do {
			if (d->tail == d->head)
				d->bad = true;
			d->ring[d->tail++ % RING] = 0;
		} while ((int)(d->head - d->tail) > 0);
	}
	spin_unlock_irqrestore(&d->lock, flags);
}

static int ring_body(void *arg)
{
	struct irqkit_thread *dev;

	(void)arg;
	if (sim_world(2, 0))
		return -1;
	memset(&rd, 0, sizeof(rd));
	spin_lock_init(&rd.lock);
	INIT_WORK(&rd.drain, ring_drain);
	device_raises = 3;
	if (request_irq(IRQ, ring_interrupt, 0, "ringdev", &rd) ||
	    irqkit_thread_start(&dev, 1, "device", device_main, NULL))
		return -1;
	irqkit_thread_join(dev);
	free_irq(IRQ, &rd);
	flush_work(&rd.drain);
	irqkit_stop();
	return rd.bad;
}

static void test_ring_drain_race_is_found(void **state)
{
	struct irqkit_explore_result res;

	(void)state;
	found_then_fixed(ring_body, 200, 3, "the body returned 1", &res);
}

/* 4: two mutexes taken in both orders on two CPUs: a deadlock, reported */

static DEFINE_MUTEX(ma);
static DEFINE_MUTEX(mb);

static int ba_task(void *arg)
{
	(void)arg;
	mutex_lock(fixed ? &ma : &mb);
	irqkit_sim_point();
	mutex_lock(fixed ? &mb : &ma);
	mutex_unlock(fixed ? &mb : &ma);
	mutex_unlock(fixed ? &ma : &mb);
	return 0;
}

static int abba_body(void *arg)
{
	struct irqkit_thread *t;

	(void)arg;
	if (sim_world(2, 0))
		return -1;
	irqkit_lockdep_off();	/* the validator would say it first: the simulator's report here */
	if (irqkit_thread_start(&t, 1, "ba", ba_task, NULL))
		return -1;
	mutex_lock(&ma);
	irqkit_sim_point();
	mutex_lock(&mb);
	mutex_unlock(&mb);
	mutex_unlock(&ma);
	irqkit_thread_join(t);
	irqkit_stop();
	return 0;
}

static void test_deadlock_is_reported_and_replayed(void **state)
{
	struct irqkit_explore_cfg cfg = { .random_runs = 100, .seed = 5, .timeout_ms = 20000 };
	struct irqkit_explore_result res, again;
	char seed[32];
	pid_t pid;
	int status;

	(void)state;
	fixed = false;
	assert_int_equal(irqkit_explore(&cfg, abba_body, NULL, &res), 1);
	assert_string_equal(res.why, "deadlock: no thread can run (test_sim, ba wait)");
	/* the same exploration fails the same way at the same run */
	assert_int_equal(irqkit_explore(&cfg, abba_body, NULL, &again), 1);
	assert_int_equal(again.failed_run, res.failed_run);
	assert_string_equal(again.schedule, res.schedule);

	/* IRQKIT_SEED replays that run in the calling process: the same deadlock */
	snprintf(seed, sizeof(seed), "%lu", res.failed_run);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		setenv("IRQKIT_SEED", seed, 1);
		(void)irqkit_explore(&cfg, abba_body, NULL, NULL);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);

	fixed = true;
	assert_explore_passes(&cfg, abba_body, NULL);
}

/* 5: a flag under spin_lock without irqsave, the handler on the same CPU: a livelock */

static DEFINE_SPINLOCK(flag_lock);
static unsigned int flags_word;

static irqreturn_t flag_interrupt(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	spin_lock(&flag_lock);
	flags_word |= 1;
	spin_unlock(&flag_lock);
	return IRQ_HANDLED;
}

static int flag_body(void *arg)
{
	struct irqkit_thread *dev;
	unsigned long flags;

	(void)arg;
	if (sim_world(2, 0))
		return -1;
	irqkit_lockdep_off();	/* without the validator: what the hang looks like */
	device_raises = 2;
	if (request_irq(IRQ, flag_interrupt, 0, "flagdev", NULL) ||
	    irqkit_thread_start(&dev, 1, "device", device_main, NULL))
		return -1;
	for (int i = 0; i < 3; i++) {
		if (fixed) {
			spin_lock_irqsave(&flag_lock, flags);
			flags_word &= ~2u;
			spin_unlock_irqrestore(&flag_lock, flags);
		} else {
			spin_lock(&flag_lock);	/* the bug: CPU 0's handler may come here */
			irqkit_sim_point();
			flags_word &= ~2u;
			spin_unlock(&flag_lock);
		}
	}
	irqkit_thread_join(dev);
	free_irq(IRQ, NULL);
	irqkit_stop();
	return 0;
}

static void test_irq_unsafe_lock_livelock_is_reported(void **state)
{
	struct irqkit_explore_result res;

	(void)state;
	/* CPU 0 spins in its handler on the lock its interrupted task holds */
	found_then_fixed(flag_body, 100, 9, "livelock: only spinning threads can run (vcpu/0 spin)",
			 &res);
}

/*
 * 6: an item that waits for a later item of its own queue (max_active 2):
 * Linux runs the later one on another worker, so no schedule deadlocks.  (The
 * schedules the simulator picks here never met the window where a push
 * went unseen while a worker started its spare; test_workqueue holds that
 * one open with a slow allocation.)
 */
static struct completion later_ran;
static struct work_struct waiting_item, later_item;

static void waiting_fn(struct work_struct *work)
{
	(void)work;
	wait_for_completion(&later_ran);
}

static void later_fn(struct work_struct *work)
{
	(void)work;
	complete(&later_ran);
}

static int waits_for_later_body(void *arg)
{
	struct workqueue_struct *wq;

	(void)arg;
	if (sim_world(1, 0))
		return -1;
	wq = alloc_workqueue("pair", WQ_UNBOUND, 2);
	if (!wq)
		return -1;
	init_completion(&later_ran);
	INIT_WORK(&waiting_item, waiting_fn);
	INIT_WORK(&later_item, later_fn);
	queue_work(wq, &waiting_item);
	irqkit_sim_point();
	queue_work(wq, &later_item);
	flush_workqueue(wq);
	destroy_workqueue(wq);
	irqkit_stop();
	return 0;
}

static void test_item_waiting_for_a_later_item_is_not_deadlocked(void **state)
{
	struct irqkit_explore_cfg cfg = { .random_runs = 100, .seed = 3, .timeout_ms = 20000 };

	(void)state;
	assert_explore_passes(&cfg, waits_for_later_body, NULL);
}

/* ---- bad input --------------------------------------------------------------- */

static void *foreign_main(void *arg)
{
	(void)arg;
	msleep(1);		/* a wait the simulator would have to serialise */
	return NULL;
}

static void test_bad_input(void **state)
{
	struct irqkit_config cfg = { .nr_cpus = 2, .mode = IRQKIT_MODE_SIM, .sim_depth = 17 };
	struct irqkit_thread *t;
	int efd;

	(void)state;
	assert_int_equal(irqkit_sim_stats(NULL), -EINVAL);
	assert_int_equal(irqkit_start(&cfg), -EINVAL);
	assert_false(irqkit_started());
	cfg.sim_depth = 0;
	setenv("IRQKIT_SIM_SEED", "twelve", 1);
	assert_int_equal(irqkit_start(&cfg), -EINVAL);
	unsetenv("IRQKIT_SIM_SEED");
	assert_false(irqkit_started());

	assert_int_equal(sim_world(2, 1), 0);
	assert_int_equal(irqkit_thread_start(&t, 2, "nowhere", NULL, NULL), -EINVAL);
	assert_int_equal(irqkit_thread_start(NULL, 0, "x", NULL, NULL), -EINVAL);
	/* a descriptor is not the simulator's to wait on */
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	assert_true(efd >= 0);
	assert_int_equal(irqkit_fd_bind(40, efd, IRQKIT_TYPE_EDGE_RISING), -EOPNOTSUPP);
	close(efd);
	/* a thread the program made itself is told of, once */
	{
		pthread_t th;

		assert_int_equal(pthread_create(&th, NULL, foreign_main, NULL), 0);
		assert_int_equal(pthread_join(th, NULL), 0);
		assert_log_contains("is not the simulator's: its calls are not serialised");
	}
	irqkit_stop();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_seed_same_log),
		cmocka_unit_test(test_cpu_runs_one_context_at_a_time),
		cmocka_unit_test(test_the_api_works_unchanged),
		cmocka_unit_test(test_cross_cpu_calls_both_ways),
		cmocka_unit_test(test_time_is_virtual),
		cmocka_unit_test(test_free_irq_race_is_found),
		cmocka_unit_test(test_enable_before_init_is_found),
		cmocka_unit_test(test_ring_drain_race_is_found),
		cmocka_unit_test(test_deadlock_is_reported_and_replayed),
		cmocka_unit_test(test_irq_unsafe_lock_livelock_is_reported),
		cmocka_unit_test(test_item_waiting_for_a_later_item_is_not_deadlocked),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
