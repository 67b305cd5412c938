// SPDX-License-Identifier: MIT
/*
 * Tests of src/core/bh/workqueue.c.  Workers are real threads in every mode; the
 * tests use the deterministic world (its virtual clock drives delayed work)
 * and synchronise with the workers through gates, never through sleeps.
 */
#define _GNU_SOURCE
#include "../../harness.h"

#include <unistd.h>

#define MS	1000000ull

struct witem {
	struct irqkit_work	work;
	atomic_int		runs;
	atomic_int		in;		/* running now */
	atomic_int		max_in;		/* most ever running at once (this item) */
	atomic_int		gate;		/* the run waits while gate == 0, if gated */
	bool			gated;
	atomic_int		requeue;	/* queue itself again this many times */
	struct irqkit_workqueue	*wq;
	char			thread[16];
	int			cpu;
	bool			task_ctx;
	char			tag;
};

static char order[64];
static atomic_int order_len;
static atomic_int running_now, running_max;

static void note_order(char tag)
{
	int n = atomic_fetch_add(&order_len, 1);

	if (n + 1 < (int)sizeof(order))
		order[n] = tag;
}

/*
 * Counts its run before it returns: a test that waits for `runs` must flush
 * the item before its stack frame (holding the item) goes.
 */
static void witem_fn(struct irqkit_work *work)
{
	struct witem *w = container_of(work, struct witem, work);
	int in = atomic_fetch_add(&w->in, 1) + 1;
	int all = atomic_fetch_add(&running_now, 1) + 1;

	if (in > atomic_load(&w->max_in))
		atomic_store(&w->max_in, in);
	if (all > atomic_load(&running_max))
		atomic_store(&running_max, all);
	pthread_getname_np(pthread_self(), w->thread, sizeof(w->thread));
	w->cpu = irqkit_smp_processor_id();
	w->task_ctx = irqkit_in_task() && !irqkit_irqs_disabled() && !irqkit_in_atomic();
	if (w->tag)
		note_order(w->tag);
	while (w->gated && !atomic_load(&w->gate))
		usleep(100);
	atomic_fetch_sub(&running_now, 1);
	atomic_fetch_sub(&w->in, 1);
	atomic_fetch_add(&w->runs, 1);
	if (atomic_load(&w->requeue) > 0) {
		atomic_fetch_sub(&w->requeue, 1);
		irqkit_queue_work(w->wq, work);
	}
}

static void witem_init(struct witem *w, struct irqkit_workqueue *wq, char tag)
{
	memset(w, 0, sizeof(*w));
	irqkit_init_work(&w->work, witem_fn);
	w->wq = wq;
	w->tag = tag;
}

static int setup(void **state)
{
	memset(order, 0, sizeof(order));
	atomic_store(&order_len, 0);
	atomic_store(&running_now, 0);
	atomic_store(&running_max, 0);
	return det_setup(state);
}

static void test_work_runs_in_process_context_on_a_cpu_worker(void **state)
{
	struct witem a, b;

	(void)state;
	witem_init(&a, irqkit_system_wq(), 0);
	witem_init(&b, irqkit_system_wq(), 0);
	assert_true(irqkit_schedule_work(&a.work));
	assert_true(irqkit_queue_work_on(1, irqkit_system_wq(), &b.work));
	assert_true(irqkit_flush_work(&a.work) || atomic_load(&a.runs) == 1);
	irqkit_flush_work(&b.work);
	assert_int_equal(atomic_load(&a.runs), 1);
	assert_true(a.task_ctx);
	assert_int_equal(a.cpu, 0);
	assert_memory_equal(a.thread, "kworker/0:", 10);
	assert_int_equal(b.cpu, 1);
	assert_memory_equal(b.thread, "kworker/1:", 10);
	assert_false(irqkit_work_pending(&a.work));
	assert_false(irqkit_flush_work(&a.work));	/* idle: nothing to wait for */
}

static void test_queue_work_returns_false_while_pending(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_ordered_workqueue("ord", 0);
	struct witem a, x;

	(void)state;
	assert_non_null(wq);
	witem_init(&a, wq, 'a');
	witem_init(&x, wq, 'x');
	a.gated = true;
	assert_true(irqkit_queue_work(wq, &a.work));
	assert_true(irqkit_queue_work(wq, &x.work));	/* behind a: pending */
	assert_false(irqkit_queue_work(wq, &x.work));
	assert_true(irqkit_work_pending(&x.work));
	atomic_store(&a.gate, 1);
	irqkit_flush_workqueue(wq);
	assert_int_equal(atomic_load(&x.runs), 1);
	assert_string_equal(order, "ax");
	irqkit_destroy_workqueue(wq);
}

static void test_item_queued_while_running_elsewhere_runs_after_on_the_same_pool(void **state)
{
	struct witem a;

	(void)state;
	witem_init(&a, irqkit_system_wq(), 0);
	a.gated = true;
	assert_true(irqkit_queue_work_on(0, irqkit_system_wq(), &a.work));
	assert_true(wait_until(atomic_load(&a.in) == 1, 5000));
	/* running on CPU 0, pending cleared: queueing again on CPU 1 is allowed */
	assert_true(irqkit_queue_work_on(1, irqkit_system_wq(), &a.work));
	usleep(20000);
	assert_int_equal(atomic_load(&a.in), 1);		/* not a second run beside it */
	atomic_store(&a.gate, 1);
	assert_true(wait_until(atomic_load(&a.runs) == 2, 5000));
	irqkit_flush_work(&a.work);	/* witem_fn may still be returning: a lives on this stack */
	assert_int_equal(atomic_load(&a.max_in), 1);
	assert_int_equal(a.cpu, 0);				/* where it ran: never on two at once */
}

/* An item that is done with its memory while it still runs (then blocks on a gate of its own). */
static atomic_int recycled_gate, recycled_old_runs, recycled_new_runs, recycled_old_in;

static void recycled_old_fn(struct irqkit_work *work)
{
	(void)work;			/* not touched again: the memory is reused below */
	atomic_store(&recycled_old_in, 1);
	while (!atomic_load(&recycled_gate))
		usleep(100);
	atomic_fetch_add(&recycled_old_runs, 1);
}

static void recycled_new_fn(struct irqkit_work *work)
{
	(void)work;
	atomic_fetch_add(&recycled_new_runs, 1);
}

/*
 * Linux's find_worker_executing_work matches the item's address and its
 * function: memory set up again as an item with another function while the
 * old item still runs is a new item, and runs beside it instead of behind it.
 */
static void test_recycled_item_with_another_function_is_a_new_item(void **state)
{
	static struct irqkit_work mem;
	bool ran_beside;
	int old_then;

	(void)state;
	atomic_store(&recycled_gate, 0);
	atomic_store(&recycled_old_runs, 0);
	atomic_store(&recycled_new_runs, 0);
	atomic_store(&recycled_old_in, 0);
	irqkit_init_work(&mem, recycled_old_fn);
	assert_true(irqkit_queue_work_on(0, irqkit_system_wq(), &mem));
	/* in its function, which owns the memory from its call on */
	assert_true(wait_until(atomic_load(&recycled_old_in), 5000));
	irqkit_init_work(&mem, recycled_new_fn);
	assert_true(irqkit_queue_work_on(0, irqkit_system_wq(), &mem));
	/* without the function in the match it would wait behind the old run */
	ran_beside = wait_until(atomic_load(&recycled_new_runs) == 1, 5000);
	old_then = atomic_load(&recycled_old_runs);
	atomic_store(&recycled_gate, 1);	/* before any assert: stop must not wait on it */
	irqkit_flush_workqueue(irqkit_system_wq());
	assert_true(ran_beside);
	assert_int_equal(old_then, 0);
	assert_int_equal(atomic_load(&recycled_old_runs), 1);
	assert_int_equal(atomic_load(&recycled_new_runs), 1);
}

static void test_item_may_queue_itself(void **state)
{
	struct witem a;

	(void)state;
	witem_init(&a, irqkit_system_wq(), 0);
	atomic_store(&a.requeue, 5);
	irqkit_schedule_work(&a.work);
	assert_true(wait_until(atomic_load(&a.runs) == 6, 5000));
	irqkit_flush_work(&a.work);
	assert_int_equal(atomic_load(&a.runs), 6);
}

static void test_flush_work_waits_for_the_queued_instance(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_ordered_workqueue("ord", 0);
	struct witem a, b;

	(void)state;
	witem_init(&a, wq, 'a');
	witem_init(&b, wq, 'b');
	a.gated = true;
	irqkit_queue_work(wq, &a.work);
	irqkit_queue_work(wq, &b.work);
	atomic_store(&a.gate, 1);
	assert_true(irqkit_flush_work(&b.work));
	assert_int_equal(atomic_load(&b.runs), 1);
	assert_int_equal(atomic_load(&a.runs), 1);
	irqkit_destroy_workqueue(wq);
}

struct flusher {
	struct irqkit_workqueue	*wq;
	atomic_int		done;
};

static int flush_in_kthread(void *arg)
{
	struct flusher *f = arg;

	irqkit_flush_workqueue(f->wq);
	atomic_store(&f->done, 1);
	return 0;
}

static void test_flush_workqueue_is_not_held_up_by_later_items(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_workqueue("fq", 0, 4);
	struct witem a, late;
	struct flusher f = { .wq = wq };
	struct irqkit_task *k;

	(void)state;
	witem_init(&a, wq, 'a');
	witem_init(&late, wq, 'l');
	a.gated = late.gated = true;
	irqkit_queue_work(wq, &a.work);
	/*
	 * The flusher is a kthread, so the test can see it asleep in the flush
	 * ("D", as Linux's flush_workqueue sleeps): only then has the flush
	 * begun, and an item queued now is a later one.  Slept for a fixed
	 * time instead, a loaded machine queued "late" before the flush began
	 * (it was then rightly waited for, and the test's frame went while
	 * the item still ran).
	 */
	k = irqkit_kthread_create(flush_in_kthread, &f, "flusher");
	assert_false(irqkit_is_err(k));
	irqkit_wake_up_process(k);
	assert_true(wait_until(__atomic_load_n(&k->state, __ATOMIC_ACQUIRE) == IRQKIT_TASK_UNINTERRUPTIBLE, 5000));
	assert_int_equal(atomic_load(&f.done), 0);		/* a is before the flush */
	irqkit_queue_work(wq, &late.work);			/* after the flush began */
	atomic_store(&a.gate, 1);
	assert_true(wait_until(atomic_load(&f.done), 5000));	/* late still blocks */
	assert_int_equal(atomic_load(&late.runs), 0);
	assert_int_equal(irqkit_kthread_stop(k), 0);
	atomic_store(&late.gate, 1);
	irqkit_destroy_workqueue(wq);
	assert_int_equal(atomic_load(&late.runs), 1);
}

static void test_max_active_and_ordered_queues(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_workqueue("two", IRQKIT_WQ_UNBOUND, 2);
	struct irqkit_workqueue *ord = irqkit_alloc_ordered_workqueue("ord", 0);
	struct witem it[5];

	(void)state;
	for (int i = 0; i < 5; i++) {
		witem_init(&it[i], wq, 0);
		it[i].gated = true;
		irqkit_queue_work(wq, &it[i].work);
	}
	assert_true(wait_until(atomic_load(&running_now) == 2, 5000));
	usleep(20000);
	assert_int_equal(atomic_load(&running_now), 2);		/* max_active */
	for (int i = 0; i < 5; i++)
		atomic_store(&it[i].gate, 1);
	irqkit_flush_workqueue(wq);
	assert_int_equal(atomic_load(&running_max), 2);

	atomic_store(&running_max, 0);
	for (int i = 0; i < 5; i++) {
		witem_init(&it[i], ord, (char)('0' + i));
		irqkit_queue_work(ord, &it[i].work);
	}
	irqkit_flush_workqueue(ord);
	assert_string_equal(order, "01234");
	assert_int_equal(atomic_load(&running_max), 1);
	irqkit_destroy_workqueue(wq);
	irqkit_destroy_workqueue(ord);
}

extern unsigned int irqkit__plat_alloc_delay_us;

/*
 * An item queued while the pool's one awake worker starts a spare (no lock
 * held, no worker idle: the push wakes nobody and counts on that worker) runs
 * beside the long item that worker then takes: a worker takes in every push
 * before it takes an item and hands the rest to the spare.  The spare's
 * allocation is made slow (100 ms) to hold that window open.
 */
static void test_item_queued_while_a_spare_starts_is_not_left_behind(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_workqueue("spare", IRQKIT_WQ_UNBOUND, 2);
	struct witem a, b;
	bool ran;

	(void)state;
	witem_init(&a, wq, 'a');
	witem_init(&b, wq, 'b');
	a.gated = true;
	__atomic_store_n(&irqkit__plat_alloc_delay_us, 100000, __ATOMIC_RELAXED);
	irqkit_queue_work(wq, &a.work);
	usleep(30000);				/* a's worker is starting its spare */
	irqkit_queue_work(wq, &b.work);
	ran = wait_until(atomic_load(&b.runs) == 1, 3000);
	atomic_store(&a.gate, 1);		/* before any assertion: this frame holds a */
	irqkit_flush_workqueue(wq);
	assert_true(ran);			/* while a still ran */
	assert_int_equal(atomic_load(&a.runs), 1);
	irqkit_destroy_workqueue(wq);
}

static void test_cancel_work_sync(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_ordered_workqueue("ord", 0);
	struct witem a, b, self;

	(void)state;
	witem_init(&a, wq, 'a');
	witem_init(&b, wq, 'b');
	a.gated = true;
	irqkit_queue_work(wq, &a.work);
	irqkit_queue_work(wq, &b.work);
	assert_true(irqkit_cancel_work_sync(&b.work));		/* pending: dropped */
	assert_false(irqkit_work_pending(&b.work));
	assert_false(irqkit_cancel_work_sync(&b.work));		/* idle */
	atomic_store(&a.gate, 1);
	irqkit_flush_workqueue(wq);
	assert_int_equal(atomic_load(&b.runs), 0);

	/* an item that queues itself forever stops */
	witem_init(&self, irqkit_system_wq(), 0);
	atomic_store(&self.requeue, 1 << 30);
	irqkit_schedule_work(&self.work);
	assert_true(wait_until(atomic_load(&self.runs) > 20, 5000));
	irqkit_cancel_work_sync(&self.work);
	{
		int runs = atomic_load(&self.runs);

		usleep(20000);
		assert_int_equal(atomic_load(&self.runs), runs);
		assert_int_equal(atomic_load(&self.in), 0);
	}
	irqkit_destroy_workqueue(wq);
}

/* ---- delayed work, on the virtual clock ----------------------------------------------------- */

struct ditem {
	struct irqkit_delayed_work	dwork;
	atomic_int			runs;
	unsigned long			at;
};

static void ditem_fn(struct irqkit_work *work)
{
	struct ditem *d = container_of(work, struct ditem, dwork.work);

	d->at = irqkit_jiffies();
	atomic_fetch_add(&d->runs, 1);
}

static void test_delayed_work_runs_after_its_delay(void **state)
{
	struct ditem d;

	(void)state;
	irqkit_init_delayed_work(&d.dwork, ditem_fn);
	atomic_store(&d.runs, 0);
	assert_true(irqkit_schedule_delayed_work(&d.dwork, 100));
	assert_false(irqkit_schedule_delayed_work(&d.dwork, 5));	/* pending */
	assert_true(irqkit_delayed_work_pending(&d.dwork));
	irqkit_clock_advance(99 * MS);
	irqkit_flush_scheduled_work();
	assert_int_equal(atomic_load(&d.runs), 0);
	irqkit_clock_advance(1 * MS);
	irqkit_flush_work(&d.dwork.work);
	assert_int_equal(atomic_load(&d.runs), 1);
	assert_int_equal(d.at, IRQKIT_INITIAL_JIFFIES(irqkit_hz()) + 100);
	/* zero delay: at once */
	assert_true(irqkit_schedule_delayed_work(&d.dwork, 0));
	irqkit_flush_work(&d.dwork.work);
	assert_int_equal(atomic_load(&d.runs), 2);
}

static void test_mod_and_cancel_delayed_work(void **state)
{
	struct ditem d;
	struct irqkit_workqueue *wq = irqkit_system_wq();

	(void)state;
	irqkit_init_delayed_work(&d.dwork, ditem_fn);
	atomic_store(&d.runs, 0);
	assert_false(irqkit_mod_delayed_work(wq, &d.dwork, 50));	/* idle: queued */
	assert_true(irqkit_mod_delayed_work(wq, &d.dwork, 200));	/* pending: moved */
	irqkit_clock_advance(150 * MS);
	irqkit_flush_scheduled_work();
	assert_int_equal(atomic_load(&d.runs), 0);
	assert_true(irqkit_cancel_delayed_work(&d.dwork));
	assert_false(irqkit_cancel_delayed_work(&d.dwork));
	irqkit_clock_advance(500 * MS);
	irqkit_flush_scheduled_work();
	assert_int_equal(atomic_load(&d.runs), 0);
	/* flush_delayed_work queues it at once */
	irqkit_queue_delayed_work(wq, &d.dwork, 1000);
	irqkit_flush_delayed_work(&d.dwork);	/* true or false: the worker may win the race */
	assert_int_equal(atomic_load(&d.runs), 1);
	/* cancel_delayed_work_sync, and cancel_work_sync misused on delayed work */
	irqkit_queue_delayed_work(wq, &d.dwork, 1000);
	assert_true(irqkit_cancel_delayed_work_sync(&d.dwork));
	irqkit_queue_delayed_work(wq, &d.dwork, 1000);
	assert_true(irqkit_cancel_work_sync(&d.dwork.work));
	assert_log_contains("cancel_work_sync() on delayed work");
	assert_false(irqkit_timer_pending(&d.dwork.timer));
	irqkit_clock_advance(2000 * MS);
	irqkit_flush_scheduled_work();
	assert_int_equal(atomic_load(&d.runs), 1);
}

/* ---- queues and bad input ------------------------------------------------------------------- */

static void test_alloc_workqueue_flags_names_and_limits(void **state)
{
	struct irqkit_workqueue *hi, *ub, *big;
	struct witem a, b;

	(void)state;
	assert_null(irqkit_alloc_workqueue("bh", IRQKIT_WQ_BH | IRQKIT_WQ_FREEZABLE, 0));
	assert_log_contains("WARNING:");	/* WQ_BH takes no other flag: test_bh_workqueue.c */
	big = irqkit_alloc_workqueue("big%d", 0, 100000, 7);
	assert_non_null(big);
	assert_log_contains("workqueue: max_active 100000 requested for big7 is out of range, clamping between 1 and 512");
	hi = irqkit_alloc_workqueue("hi", IRQKIT_WQ_HIGHPRI, 0);
	ub = irqkit_alloc_workqueue("ub", IRQKIT_WQ_UNBOUND, 0);
	witem_init(&a, hi, 0);
	witem_init(&b, ub, 0);
	irqkit_queue_work_on(1, hi, &a.work);
	irqkit_queue_work(ub, &b.work);
	irqkit_flush_work(&a.work);
	irqkit_flush_work(&b.work);
	assert_memory_equal(a.thread, "kworker/1:", 10);
	assert_int_equal(a.thread[strlen(a.thread) - 1], 'H');
	assert_memory_equal(b.thread, "kworker/u", 9);
	irqkit_destroy_workqueue(hi);
	irqkit_destroy_workqueue(ub);
	irqkit_destroy_workqueue(big);
}

static void test_queue_on_destroyed_workqueue_is_refused(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_workqueue("gone", 0, 0);
	struct witem a;
	struct ditem d;

	(void)state;
	witem_init(&a, wq, 0);
	irqkit_queue_work(wq, &a.work);
	irqkit_destroy_workqueue(wq);		/* drains first */
	assert_int_equal(atomic_load(&a.runs), 1);
	assert_false(irqkit_queue_work(wq, &a.work));
	assert_log_contains("workqueue gone: queue_work() on a destroyed workqueue: refused");
	assert_false(irqkit_work_pending(&a.work));
	irqkit_init_delayed_work(&d.dwork, ditem_fn);
	assert_false(irqkit_queue_delayed_work(wq, &d.dwork, 10));
	irqkit_destroy_workqueue(wq);
	assert_log_contains("destroy_workqueue(gone) twice");
}

static void flush_self(struct irqkit_work *work)
{
	struct witem *w = container_of(work, struct witem, work);

	irqkit_flush_work(work);
	irqkit_cancel_work_sync(work);
	irqkit_flush_workqueue(w->wq);
	atomic_fetch_add(&w->runs, 1);
}

static void test_waiting_for_itself_is_reported_instead_of_hanging(void **state)
{
	struct irqkit_workqueue *ord = irqkit_alloc_ordered_workqueue("ord", 0);
	struct witem a;

	(void)state;
	witem_init(&a, ord, 0);
	irqkit_init_work(&a.work, flush_self);
	irqkit_queue_work(ord, &a.work);
	assert_true(wait_until(atomic_load(&a.runs) == 1, 5000));
	assert_log_contains("flush_work() called from the work item itself");
	assert_log_contains("cancel_work_sync() called from the work item itself");
	assert_log_contains("flush_workqueue(ord) called from one of its own items");
	irqkit_destroy_workqueue(ord);
}

/* ---- deterministic mode: interrupts come only where the test chooses ------------------ */

static struct tdev wdev;
static atomic_int sections_done;

static void irq_sections_work(struct irqkit_work *w)
{
	struct irqkit_spinlock lock = IRQKIT_SPINLOCK_INIT;
	unsigned long flags;

	(void)w;
	/* each of these is a delivery point of a thread bound to CPU 0 */
	flags = irqkit_local_irq_save();
	irqkit_local_irq_restore(flags);
	flags = irqkit_spin_lock_irqsave(&lock);
	irqkit_spin_unlock_irqrestore(&lock, flags);
	irqkit_local_bh_disable();
	irqkit_local_bh_enable();
	irqkit_deliver_pending();
	atomic_store(&sections_done, irqkit_smp_processor_id() == 0 ? 1 : -1);
}

static void *raise_from_unbound_thread(void *arg)
{
	(void)arg;
	irqkit_sw_raise(T_EDGE(1));	/* latched: this thread plays no CPU */
	return NULL;
}

static void test_workers_are_not_delivery_points_in_deterministic_mode(void **state)
{
	pthread_t th;
	struct irqkit_work w;

	(void)state;
	tdev_init(&wdev);
	wdev.ret = IRQKIT_HANDLED;
	atomic_store(&sections_done, 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "a", &wdev), 0);
	pthread_create(&th, NULL, raise_from_unbound_thread, NULL);
	pthread_join(th, NULL);			/* pending on CPU 0, not delivered yet */
	assert_int_equal(atomic_load(&wdev.calls), 0);
	irqkit_init_work(&w, irq_sections_work);
	assert_true(irqkit_queue_work_on(0, irqkit_system_wq(), &w));
	irqkit_flush_work(&w);
	assert_int_equal(atomic_load(&sections_done), 1);	/* it ran for CPU 0 */
	assert_int_equal(atomic_load(&wdev.calls), 0);		/* and took nothing */
	irqkit_deliver_pending();				/* the test's point */
	assert_int_equal(atomic_load(&wdev.calls), 1);
}

/* ---- uninitialised objects ------------------------------------------------------------- */

static void test_uninitialised_work_and_queues_are_refused(void **state)
{
	struct irqkit_work zero;
	struct irqkit_delayed_work dzero;

	(void)state;
	memset(&zero, 0, sizeof(zero));
	memset(&dzero, 0, sizeof(dzero));
	assert_false(irqkit_schedule_work(&zero));
	assert_log_contains("queue_work() of work");
	assert_log_contains("with no function (INIT_WORK() missing?): refused");
	assert_false(irqkit_work_pending(&zero));
	assert_false(irqkit_schedule_delayed_work(&dzero, 10));
	assert_false(irqkit_mod_delayed_work(irqkit_system_wq(), &dzero, 10));
	assert_false(irqkit_delayed_work_pending(&dzero));
	/* waiting for or cancelling an item never queued is fine */
	assert_false(irqkit_flush_work(&zero));
	assert_false(irqkit_cancel_work_sync(&zero));
	assert_false(irqkit_cancel_delayed_work(&dzero));
	assert_null(irqkit_alloc_workqueue(NULL, 0, 0));
	assert_log_contains("workqueue: alloc_workqueue() with no name: refused");
	assert_null(irqkit_alloc_ordered_workqueue(NULL, 0));
}

static void test_sleeping_calls_from_atomic_context_are_reported(void **state)
{
	struct witem a;
	unsigned long flags;

	(void)state;
	witem_init(&a, irqkit_system_wq(), 0);
	flags = irqkit_local_irq_save();
	irqkit_schedule_work(&a.work);		/* fine from any context */
	irqkit_flush_work(&a.work);		/* may sleep: reported */
	irqkit_local_irq_restore(flags);
	assert_log_contains("BUG: sleeping function called from invalid context");
	assert_int_equal(atomic_load(&a.runs), 1);
}

/* exported (not static): the report names it in a build without libdw too */
void leak_preemption(struct irqkit_work *work);
void leak_preemption(struct irqkit_work *work)
{
	(void)work;
	irqkit_preempt_disable();
}

static void test_item_that_leaks_atomic_context_is_reported(void **state)
{
	struct irqkit_work w;

	(void)state;
	irqkit_init_work(&w, leak_preemption);
	irqkit_schedule_work(&w);
	irqkit_flush_work(&w);
	assert_true(wait_until(log_contains("BUG: workqueue leaked lock or atomic: kworker/0:"), 5000));
	assert_log_contains("last function: leak_preemption");
}

static void chain_fn(struct irqkit_work *work)
{
	struct witem *w = container_of(work, struct witem, work);

	atomic_fetch_add(&w->runs, 1);
	if (atomic_load(&w->runs) < 50)
		irqkit_queue_work(w->wq, work);	/* chained: allowed while draining */
}

static int drain_in_kthread(void *wq)
{
	irqkit_drain_workqueue(wq);
	return 0;
}

static void test_drain_waits_for_chained_work_and_refuses_others(void **state)
{
	struct irqkit_workqueue *wq = irqkit_alloc_workqueue("dr", 0, 0);
	struct witem a, other;

	(void)state;
	witem_init(&a, wq, 0);
	witem_init(&other, wq, 0);
	irqkit_init_work(&a.work, chain_fn);
	irqkit_queue_work(wq, &a.work);
	irqkit_drain_workqueue(wq);
	assert_int_equal(atomic_load(&a.runs), 50);
	/* while draining, an outsider is refused: drain from a thread, queue here */
	a.gated = true;
	irqkit_init_work(&a.work, witem_fn);
	atomic_store(&a.runs, 0);
	irqkit_queue_work(wq, &a.work);
	{
		struct irqkit_task *k;

		assert_true(wait_until(atomic_load(&a.in) == 1, 5000));
		/*
		 * The drainer is a kthread, seen asleep in its flush ("D") before
		 * the outsider comes: only then is the drain surely under way.
		 * After a fixed sleep, a loaded machine let the outsider in first,
		 * the assertion left the test with "a" still running on its dead
		 * frame, and the stop hung on it.
		 */
		k = irqkit_kthread_create(drain_in_kthread, wq, "drainer");
		assert_false(irqkit_is_err(k));
		irqkit_wake_up_process(k);
		assert_true(wait_until(__atomic_load_n(&k->state, __ATOMIC_ACQUIRE) ==
				       IRQKIT_TASK_UNINTERRUPTIBLE, 5000));
		assert_false(irqkit_queue_work(wq, &other.work));
		atomic_store(&a.gate, 1);
		assert_int_equal(irqkit_kthread_stop(k), 0);
	}
	assert_log_contains("workqueue dr: queue_work() while draining");
	irqkit_destroy_workqueue(wq);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_work_runs_in_process_context_on_a_cpu_worker),
		T(test_queue_work_returns_false_while_pending),
		T(test_item_queued_while_running_elsewhere_runs_after_on_the_same_pool),
		T(test_recycled_item_with_another_function_is_a_new_item),
		T(test_item_may_queue_itself),
		T(test_flush_work_waits_for_the_queued_instance),
		T(test_flush_workqueue_is_not_held_up_by_later_items),
		T(test_max_active_and_ordered_queues),
		T(test_item_queued_while_a_spare_starts_is_not_left_behind),
		T(test_cancel_work_sync),
		T(test_delayed_work_runs_after_its_delay),
		T(test_mod_and_cancel_delayed_work),
		T(test_alloc_workqueue_flags_names_and_limits),
		T(test_queue_on_destroyed_workqueue_is_refused),
		T(test_waiting_for_itself_is_reported_instead_of_hanging),
		T(test_sleeping_calls_from_atomic_context_are_reported),
		T(test_item_that_leaks_atomic_context_is_reported),
		T(test_drain_waits_for_chained_work_and_refuses_others),
		T(test_workers_are_not_delivery_points_in_deterministic_mode),
		T(test_uninitialised_work_and_queues_are_refused),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
