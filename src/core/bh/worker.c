// SPDX-License-Identifier: MIT
/*
 * Worker pools and their kworkers (the engine under workqueue.c).
 *
 * Per CPU a normal and a high-priority pool of workers bound to the CPU
 * ("kworker/C:N", "kworker/C:NH"), and two unbound pools ("kworker/uP:N").
 * A pool's first worker starts with the first queue that uses it; a worker
 * that takes an item while no other is idle starts one more first (up to
 * WORKERS_MAX), so a blocking item never holds up the next one.  Idle
 * workers sleep on an idle list, last to sleep first; one that stays idle
 * past worker_idle_ns while another is idle too ends.  An idle worker of a
 * CPU's normal pool may be the CPU's timer while it sleeps (time/timer.c).
 * Here too: what queue_work pushed reaching the pool's lists
 * (irqkit__incoming_splice), max_active accounting per pool_workqueue, and the
 * watchdog's look at each pool.  Locking is workqueue.c's.
 */
#include "core.h"
#include "cpu.h"
#include "bh.h"
#include "workqueue_internal.h"
#include "time/time.h"
#include "sched/sched.h"
#include "debug/debug.h"

/* ---- items in flight (pool lock held) --------------------------------------------------------- */

/*
 * An item of generation @color left @pwq (finished or dropped).  The counts
 * live under the pool lock, as Linux's pwq->nr_in_flight do: the lock's cache
 * line is the only one producer and worker share per item.  Pool lock held.
 */
void irqkit__pwq_dec_in_flight(struct irqkit_pwq *pwq, unsigned int color)
{
	struct irqkit_workqueue *wq = pwq->wq;

	spin_assert_locked(&pwq->pool->lock);
	if (--pwq->nr_in_flight[color] == 0 && a_load_seq(&wq->flushing)) {
		irqkit__seq_wake(&wq->flush_seq);
	}
}

/* ---- idle workers ----------------------------------------------------------------------------- */

/*
 * Work arrived on @pool's worklist: take one idle worker off the idle list,
 * as Linux's kick_pool() picks one, and mark it woken.  Taking it here, under
 * the lock, makes a burst of queue_work calls cost one wake-up, not one per
 * item.  The caller wakes it with wake_worker(), after unlocking where it can,
 * so the worker does not wake into a held lock; until it has, @w counts it
 * among its wakers, and a reaped worker is not freed while it has one (the
 * worker may wake on its own, run, go idle, time out and be reaped before a
 * slow waker reads it).  Pool lock held.
 */
static struct irqkit_worker *take_idle_worker(struct irqkit_wq_pool *pool)
{
	struct irqkit_worker *w = pool->idle;

	spin_assert_locked(&pool->lock);
	if (w) {
		WRITE_ONCE(pool->idle, w->idle_next);
		a_fetch_add(&w->wakers, 1);
		a_store_release(&w->wake, 1);
	}
	return w;
}

/* Take @w off the idle list if it is there.  Pool lock held. */
static void idle_list_remove(struct irqkit_wq_pool *pool, struct irqkit_worker *w)
{
	spin_assert_locked(&pool->lock);
	for (struct irqkit_worker **pp = &pool->idle; *pp; pp = &(*pp)->idle_next) {
		if (*pp == w) {
			WRITE_ONCE(*pp, w->idle_next);
			return;
		}
	}
}

/*
 * Wake @w, which take_idle_worker() gave the caller: the worker's memory
 * stays until the caller lets go of it here (worker_free()).  A worker that
 * is its CPU's timer sleeps on the CPU's duty_seq, not its wake word.
 */
static void wake_worker(struct irqkit_worker *w)
{
	if (!w)
		return;
	irqkit__window(WINDOW_WAKE_WORKER);
	if (a_load_acquire(&w->duty))
		irqkit__seq_wake(&irqkit__rt.cpus[w->pool->cpu].duty_seq);
	else
		irqkit_plat_wake(&w->wake);
	a_fetch_sub(&w->wakers, 1);	/* the last touch of @w */
}

/* Free @w, joined or never started, once no waker still holds it.  Process context. */
static void worker_free(struct irqkit_worker *w)
{
	for (unsigned int spins = 0; a_load_acquire(&w->wakers);)
		spin_step(&spins);
	irqkit_plat_free(w, sizeof(*w));
}

static void wake_idle_worker(struct irqkit_wq_pool *pool)
{
	wake_worker(take_idle_worker(pool));
}

/* ---- active items (max_active, pool lock held) ---------------------------------------------- */

/* @work of @pwq becomes active: counted against max_active, on the worklist.  Pool lock held. */
static void pwq_activate(struct irqkit_pwq *pwq, struct irqkit_work *work)
{
	spin_assert_locked(&pwq->pool->lock);
	pwq->nr_active++;
	work->where = WORK_ON_WORKLIST;
	irqkit_trace(workqueue_activate_work, work);
	list_append(&pwq->pool->tail, work);
}

/*
 * An active item of @pwq is gone: let the first inactive one in.  @kick is
 * false when the caller is a worker of the pool about to look at the worklist
 * itself: it takes the item, no other worker needs waking.  Pool lock held.
 */
void irqkit__pwq_dec_active(struct irqkit_pwq *pwq, bool kick)
{
	struct irqkit_wq_pool *pool = pwq->pool;
	struct irqkit_work *next;

	spin_assert_locked(&pwq->pool->lock);
	pwq->nr_active--;
	if (pwq->nr_active < pwq->max_active &&
	    (next = list_pop(&pwq->inactive_head, &pwq->inactive_tail))) {
		pwq_activate(pwq, next);
		if (kick)
			wake_idle_worker(pool);
	}
}

/* ---- the incoming list ------------------------------------------------------------------ */

/*
 * An item reaches its pool's lists: its flush colour is the queue's colour
 * now (a flusher flips the colour and then counts under every pool lock, so
 * it either counts the item or the item gets the new colour), and it is
 * active, on the worklist, while its pwq is under max_active, else parked.
 * Pool lock held.
 */
static void pwq_accept(struct irqkit_work *work)
{
	struct irqkit_pwq *pwq = work->pwq;
	unsigned int color = a_load_seq(&pwq->wq->color);

	spin_assert_locked(&pwq->pool->lock);
	pwq->nr_in_flight[color]++;
	work->color = color;
	if (pwq->nr_active < pwq->max_active) {
		pwq_activate(pwq, work);
	} else {
		work->where = WORK_ON_INACTIVE;
		list_append(&pwq->inactive_tail, work);
	}
}

/*
 * Move what queue_work pushed onto the pool's lists, oldest first.  Before
 * any look at the lists that must see every item queued before it (a worker
 * about to sleep, flush, cancel, drain).  Pool lock held.
 */
void irqkit__incoming_splice(struct irqkit_wq_pool *pool)
{
	struct irqkit_work *work, *fifo = NULL;

	spin_assert_locked(&pool->lock);
	if (!READ_ONCE(pool->incoming))
		return;
	work = a_xchg_acquire(&pool->incoming, NULL);
	while (work) {				/* the stack is newest first */
		struct irqkit_work *next = work->next;

		work->next = fifo;
		fifo = work;
		work = next;
	}
	while (fifo) {
		struct irqkit_work *next = fifo->next;

		pwq_accept(fifo);
		fifo = next;
	}
}

/*
 * A push found the incoming list empty: wake an idle worker if there is one.
 * If none is idle, every worker is awake and looks at the incoming list
 * before it sleeps (worker_main publishes itself idle, then looks: one of the
 * two sees the other).  Any context.
 */
static void bh_pool_kick(struct irqkit_wq_pool *pool);

void irqkit__queue_work_wake(struct irqkit_wq_pool *pool)
{
	struct irqkit_worker *woken;
	unsigned long flags;

	if (pool->bh) {
		bh_pool_kick(pool);
		return;
	}

	/*
	 * The push (a seq_cst compare-and-swap) before the look: a seq_cst load
	 * orders after it in the single total order, which with the worker's
	 * fence between its publishing and its look is the Dekker pair; on x86
	 * it is a plain load where a fence was a full barrier more per push.
	 */
	if (!a_load_seq(&pool->idle))
		return;
	flags = irqkit_spin_lock_irqsave(&pool->lock);
	woken = take_idle_worker(pool);
	irqkit_spin_unlock_irqrestore(&pool->lock, flags);
	wake_worker(woken);
}

/* ---- workers --------------------------------------------------------------------------------- */

static int create_worker(struct irqkit_wq_pool *pool);

static struct irqkit_worker **busy_chain(struct irqkit_wq_pool *pool, const struct irqkit_work *work)
{
	uint64_t key = (uint64_t)(uintptr_t)work * 0x9e3779b97f4a7c15ull;	/* hash_ptr */

	return &pool->busy_hash[key >> (64 - BUSY_HASH_ORDER)];
}

/* @w has taken @work (w->current is set): it runs now.  Pool lock held. */
static void busy_add(struct irqkit_worker *w)
{
	struct irqkit_worker **chain = busy_chain(w->pool, w->current);

	spin_assert_locked(&w->pool->lock);
	w->hash_next = *chain;
	*chain = w;
}

/* @w's item has returned.  Pool lock held. */
static void busy_del(struct irqkit_worker *w)
{
	struct irqkit_worker **pp = busy_chain(w->pool, w->current);

	spin_assert_locked(&w->pool->lock);
	while (*pp != w)
		pp = &(*pp)->hash_next;
	*pp = w->hash_next;
	w->hash_next = NULL;
}

/*
 * Which worker of @pool runs @work now?  Pool lock held.  Found by the item's
 * address and its function, as Linux's find_worker_executing_work: memory
 * freed by a running item and set up again as an item with another function
 * is a new item, not the one running (it may run beside it).
 */
struct irqkit_worker *irqkit__find_worker_executing(struct irqkit_wq_pool *pool,
						   const struct irqkit_work *work)
{
	spin_assert_locked(&pool->lock);
	for (struct irqkit_worker *w = *busy_chain(pool, work); w; w = w->hash_next)
		if (w->current == work && w->current_fn == irqkit__work_fn(work))
			return w;
	return NULL;
}

/* The item's function, either form, for reports. */
const void *irqkit__work_fn(const struct irqkit_work *work)
{
	return work->func ? (const void *)work->func : (const void *)work->func26;
}

static void call_work(struct irqkit_work *work)
{
	if (work->func)
		work->func(work);
	else
		work->func26(work->data26);
}

/*
 * Does @w have an item to take now?  Its own scheduled items, or the pool's
 * worklist.  Pool lock held.
 */
static bool worker_has_work(const struct irqkit_worker *w)
{
	spin_assert_locked(&w->pool->lock);
	return w->sched_head || w->pool->head;
}

/*
 * Keep a worker idle, as Linux's concurrency management does: an item may
 * block for long, and the next one must not wait for it.  So a worker about
 * to take an item while no other is idle starts one more first, before it
 * takes the item: between clearing an item's PENDING and calling it nothing
 * slow happens (a window there lets an item be queued and drained twice).
 * Pool lock held; dropped and retaken when it starts one.
 * Return: whether it did (the caller looks at the lists again).
 */
static bool maybe_create_worker(struct irqkit_wq_pool *pool)
{
	spin_assert_locked(&pool->lock);
	if (pool->idle || pool->nr_workers >= WORKERS_MAX || pool->creating || pool->stopping)
		return false;
	irqkit_spin_unlock_irq(&pool->lock);
	create_worker(pool);
	irqkit_spin_lock_irq(&pool->lock);
	return true;
}

/*
 * Take the next item for @w and make it @w's current one, PENDING cleared (the
 * item may queue itself again, 7.4).  Pool lock held.
 * Return: the item, or NULL when there is none for @w now.
 */
static struct irqkit_work *worker_take(struct irqkit_worker *w)
{
	struct irqkit_wq_pool *pool = w->pool;
	struct irqkit_work *work;

	spin_assert_locked(&pool->lock);
	for (;;) {
		struct irqkit_worker *busy;

		work = list_pop(&w->sched_head, &w->sched_tail);
		if (work)
			break;
		work = list_pop(&pool->head, &pool->tail);
		if (!work)
			return NULL;
		/* 7.9: already running here: it runs after that run, on that worker */
		busy = irqkit__find_worker_executing(pool, work);
		if (!busy)
			break;
		work->where = WORK_ON_SCHEDULED;
		list_append(&busy->sched_tail, work);
	}
	work->where = WORK_ON_NONE;
	pool->progress++;
	w->current = work;
	w->current_fn = irqkit__work_fn(work);	/* the item may free itself while it runs */
	busy_add(w);
	w->current_seq = READ_ONCE(work->queued);
	w->current_pwq = work->pwq;
	w->current_color = work->color;
	if (unlikely(irqkit__observing())) {
		w->obs_start = irqkit__obs_work_begin(work, work->pwq->wq->hist, &w->obs_flow) + 1;
		w->obs_fn = irqkit__work_fn(work);
	}
	clear_pending(work);
	return work;
}

/*
 * Call @w's current item @work as the task's running bottom half (the one
 * it interrupted, if any, back after), traced and observed.  Pool lock
 * dropped.  Return: its function, for reports (@work may be gone).
 */
static irqkit_work_fn run_item(struct irqkit_worker *w, struct irqkit_work *work)
{
	struct irqkit_task *t = irqkit_arch_current();
	const void *outer = t->running_bh;
	irqkit_work_fn fn = work->func;

	t->running_bh = work;
	irqkit_trace(workqueue_execute_start, work, irqkit__work_fn(work));
	call_work(work);		/* @work may be freed from here on */
	irqkit_trace(workqueue_execute_end, work, (const void *)fn);
	if (unlikely(w->obs_start)) {
		irqkit__obs_work_end(w->obs_fn, w->current_pwq->wq->hist, w->obs_start - 1,
				     w->obs_flow);
		w->obs_start = 0;
	}
	t->running_bh = outer;
	return fn;
}

/* Run the worker's current item, pool lock dropped; report what it leaked (Linux's words). */
static void worker_run(struct irqkit_worker *w, struct irqkit_work *work)
{
	struct irqkit_task *t = irqkit_arch_current();
	irqkit_work_fn fn = run_item(w, work);

	if (unlikely(t->preempt_count || task_irqs_off(t))) {
		char comm[32];

		irqkit_plat_thread_name(comm, sizeof(comm));
		pr_err("BUG: workqueue leaked lock or atomic: %s/0x%08x/%d", comm,
		       t->preempt_count, irqkit_plat_thread_id());
		pr_err("    last function: %ps", (void *)fn);
		irqkit__dump_stack();
		t->preempt_count = 0;
		if (task_irqs_off(t))
			irqkit_local_irq_enable();
	}
	/*
	 * As Linux's process_one_work: give way after each item, so that an
	 * item that queues itself again and again does not keep everything
	 * else off the CPU where threads do not preempt each other.
	 */
	irqkit_plat_cond_resched();
}

/* The current item of @w has returned: account it.  Pool lock held. */
static void worker_finish(struct irqkit_worker *w, struct irqkit_work *work)
{
	struct irqkit_pwq *pwq = w->current_pwq;

	spin_assert_locked(&w->pool->lock);
	busy_del(w);
	w->current = NULL;
	w->current_pwq = NULL;
	irqkit__pwq_dec_active(pwq, false);
	irqkit__complete_instance(work, w->current_seq);	/* compares @work, never reads it */
	irqkit__pwq_dec_in_flight(pwq, w->current_color);
}

/* Put @w on the idle list, where wake_idle_worker() finds it.  Pool lock held. */
static void worker_enter_idle(struct irqkit_worker *w)
{
	struct irqkit_wq_pool *pool = w->pool;

	spin_assert_locked(&pool->lock);
	w->wake = 0;
	w->idle_next = pool->idle;
	WRITE_ONCE(pool->idle, w);
}

/*
 * Timer duty (time/timer.c): an idle kworker of a CPU's normal pool may be
 * that CPU's timer while it sleeps, one of the pool at a time (the pool lock
 * orders the takers).  Pool lock held.
 */
static struct irqkit_cpu *duty_take(struct irqkit_worker *w)
{
	struct irqkit_wq_pool *pool = w->pool;
	struct irqkit_cpu *c;

	spin_assert_locked(&pool->lock);
	if (pool->cpu < 0 || pool->highpri || pool->stopping)
		return NULL;
	c = irqkit__timer_duty_take((unsigned int)pool->cpu);
	if (c)
		a_store_release(&w->duty, 1);	/* its wakers wake the CPU's duty_seq */
	return c;
}

/* @w leaves its sleep: ksoftirqd is the timer again. */
static void duty_release(struct irqkit_worker *w, struct irqkit_cpu *c)
{
	a_store_release(&w->duty, 0);
	irqkit__timer_duty_release(c);
}

/*
 * The duty worker's look at the clock: the time until its CPU's earliest
 * timer (UINT64_MAX: none), or, when one is due, 0 after running the
 * timers here.  It moves to the head of the idle list first, so that an
 * item the timers queue on its pool wakes it (it is awake), not another
 * worker.
 */
static uint64_t duty_due(struct irqkit_worker *w, struct irqkit_cpu *c)
{
	struct irqkit_wq_pool *pool = w->pool;
	uint64_t ns = irqkit__timer_duty_due(c);

	if (ns)
		return ns;
	irqkit_spin_lock_irq(&pool->lock);
	if (!a_load_acquire(&w->wake) && pool->idle != w) {
		idle_list_remove(pool, w);
		worker_enter_idle(w);	/* again, at the head */
	}
	irqkit_spin_unlock_irq(&pool->lock);
	irqkit__timer_duty_run(c);
	return 0;
}

/*
 * Sleep until a waker takes @w off the idle list (true) or @end passes
 * (false; UINT64_MAX: no end), as its CPU's timer if it can have the duty.
 * Pool lock held; dropped meanwhile.
 */
static bool worker_sleep(struct irqkit_worker *w, uint64_t end)
{
	struct irqkit_cpu *c = duty_take(w);
	unsigned int *word = c ? &c->duty_seq : &w->wake;
	bool woken;

	spin_assert_locked(&w->pool->lock);
	irqkit_spin_unlock_irq(&w->pool->lock);
	for (;;) {
		unsigned int seen = c ? a_load_seq(&c->duty_seq) : 0;
		uint64_t now = 0, until = end;

		if (a_load_acquire(&w->wake))
			break;
		if (end != UINT64_MAX || c)
			now = irqkit_plat_now_ns();
		if (now >= end)
			break;
		if (c) {
			uint64_t ns = duty_due(w, c);

			if (!ns)
				continue;
			if (ns != UINT64_MAX && ns < until - now)
				until = now + ns;
		}
		if (until == UINT64_MAX)
			irqkit_plat_wait(word, seen);
		else
			irqkit_plat_wait_timeout(word, seen, until - now);
	}
	woken = a_load_acquire(&w->wake) != 0;
	if (c)
		duty_release(w, c);
	if (woken)
		irqkit__jiffies_touch();	/* a wake-up: the jiffies objects, for their readers */
	irqkit_spin_lock_irq(&w->pool->lock);
	/*
	 * Read again under the lock, where wakers set it: a waker that took @w
	 * off the idle list after the timed-out look above must not be lost
	 * (worker_idle would reap a worker somebody just woke).
	 */
	return a_load_acquire(&w->wake) != 0;
}

/* Sleep until wake_idle_worker() takes @w off the idle list.  Pool lock held; dropped meanwhile. */
static void worker_wait_woken(struct irqkit_worker *w)
{
	while (!worker_sleep(w, UINT64_MAX))
		;
}

/*
 * An idle worker that sleeps longer than worker_idle_ns while another worker
 * of its pool is idle too is not needed (Linux's idle_worker_timeout): it
 * leaves the idle list and ends, to be joined by the watchdog or the next
 * create_worker.  Pool lock held; dropped meanwhile.
 * Return: true if @w was woken, false if it is reaped and must exit.
 */
static bool worker_idle(struct irqkit_worker *w)
{
	struct irqkit_wq_pool *pool = w->pool;
	uint64_t timeout = irqkit__rt.worker_idle_ns;

	spin_assert_locked(&pool->lock);
	if (!timeout) {
		worker_wait_woken(w);
		return true;
	}
	for (;;) {
		if (worker_sleep(w, irqkit_plat_now_ns() + timeout))
			return true;
		/* @w is on the idle list: another one is idle when the list has two */
		if (!pool->stopping && pool->idle->idle_next) {
			idle_list_remove(pool, w);
			w->dead = true;
			pool->nr_workers--;
			return false;
		}
	}
}

static void worker_main(void *arg)
{
	struct irqkit_worker *w = arg;
	struct irqkit_wq_pool *pool = w->pool;

	if (irqkit__kthread_bind(pool->cpu))
		irqkit_plat_fatal("kworker cannot bind to its CPU");
	irqkit_arch_current()->worker = w;
	irqkit_spin_lock_irq(&pool->lock);
	w->tid = irqkit_arch_current()->tid;	/* pool lock: the watchdog reads it under it */
	if (!worker_idle(w)) {		/* create_worker() made it idle: the spare */
		irqkit_spin_unlock_irq(&pool->lock);
		goto out;
	}
	while (!pool->stopping) {
		struct irqkit_worker *next;
		struct irqkit_work *work;

		/*
		 * Every push so far onto the lists before an item is taken: a
		 * push that found no worker idle (this one was starting a spare,
		 * say) woke nobody and counts on the workers awake, and this one
		 * may now run for long; what it leaves goes to the spare (next).
		 */
		irqkit__incoming_splice(pool);
		if (!worker_has_work(w)) {
			worker_enter_idle(w);
			a_fence();	/* idle before the look; irqkit__queue_work_wake: push before its look */
			if (READ_ONCE(pool->incoming)) {
				idle_list_remove(pool, w);
				continue;
			}
			if (!worker_idle(w)) {
				irqkit_spin_unlock_irq(&pool->lock);
				goto out;
			}
			continue;
		}
		if (maybe_create_worker(pool))
			continue;
		work = worker_take(w);
		if (!work)
			continue;
		/* more waiting: chain to an idle worker (Linux's process_one_work kicks the pool) */
		next = pool->head ? take_idle_worker(pool) : NULL;
		irqkit_spin_unlock_irq(&pool->lock);
		wake_worker(next);
		worker_run(w, work);
		irqkit_spin_lock_irq(&pool->lock);
		worker_finish(w, work);
	}
	pool->nr_workers--;
	irqkit_spin_unlock_irq(&pool->lock);
out:
	irqkit_arch_current()->worker = NULL;
	if (pool->cpu >= 0)
		irqkit_thread_unbind();
}

/* Join and free the workers of @pool that ended idle.  Process context. */
static void pool_reap(struct irqkit_wq_pool *pool)
{
	struct irqkit_worker *dead = NULL;

	assert_process_context();
	irqkit_spin_lock_irq(&pool->lock);
	for (struct irqkit_worker **pp = &pool->workers; *pp;) {
		struct irqkit_worker *w = *pp;

		if (w->dead && w->thread) {
			*pp = w->next;
			w->next = dead;
			dead = w;
			continue;
		}
		pp = &w->next;
	}
	irqkit_spin_unlock_irq(&pool->lock);
	while (dead) {
		struct irqkit_worker *w = dead;

		dead = w->next;
		irqkit_plat_thread_join(w->thread);
		worker_free(w);
	}
}

/*
 * Start one more worker in @pool.  While it starts, pool->creating counts it,
 * so that stop, which refuses new workers once the pool is stopping, waits
 * for a start under way and then finds the new thread listed and joins it.
 * Process context.  Return: 0, -ENOMEM, or -ENODEV when the pool is stopping.
 */
static int create_worker(struct irqkit_wq_pool *pool)
{
	struct irqkit_worker *w = irqkit_plat_alloc(sizeof(*w));
	char name[24];
	int ret;

	assert_process_context();
	if (!w)
		return -IRQKIT_ENOMEM;
	pool_reap(pool);
	w->pool = pool;
	w->sched_tail = &w->sched_head;
	irqkit_spin_lock_irq(&pool->lock);
	if (pool->stopping) {
		irqkit_spin_unlock_irq(&pool->lock);
		irqkit_plat_free(w, sizeof(*w));
		return -IRQKIT_ENODEV;
	}
	w->id = pool->next_id++;
	w->next = pool->workers;
	pool->workers = w;
	pool->nr_workers++;
	pool->creating++;
	worker_enter_idle(w);	/* idle from the start, as Linux's create_worker */
	irqkit_spin_unlock_irq(&pool->lock);
	if (pool->cpu >= 0)
		irqkit__snprintf(name, sizeof(name), "kworker/%d:%d%s", pool->cpu, w->id,
				 pool->highpri ? "H" : "");
	else
		irqkit__snprintf(name, sizeof(name), "kworker/u%d:%d", pool->id, w->id);
	ret = irqkit_plat_thread_create(&w->thread, name, worker_main, w);
	irqkit_spin_lock_irq(&pool->lock);
	if (ret) {
		pool->nr_workers--;
		w->thread = NULL;	/* stays listed, never runs; freed at stop */
		idle_list_remove(pool, w);
	}
	pool->creating--;
	irqkit_spin_unlock_irq(&pool->lock);
	return ret ? -IRQKIT_ENOMEM : 0;
}

int irqkit__pool_ensure_worker(struct irqkit_wq_pool *pool)
{
	int have;

	irqkit_spin_lock_irq(&pool->lock);
	have = pool->nr_workers;
	irqkit_spin_unlock_irq(&pool->lock);
	return have ? 0 : create_worker(pool);
}

struct irqkit_wq_pool *irqkit__cpu_pool(unsigned int cpu, bool highpri)
{
	return &irqkit__wq.pools[cpu * 2 + (highpri ? 1 : 0)];
}

struct irqkit_wq_pool *irqkit__unbound_pool(bool highpri)
{
	return &irqkit__wq.pools[irqkit__rt.nr_cpus * 2 + (highpri ? 1 : 0)];
}

struct irqkit_wq_pool *irqkit__bh_pool(unsigned int cpu, bool highpri)
{
	return &irqkit__wq.pools[irqkit__rt.nr_cpus * 2 + 2 + cpu * 2 + (highpri ? 1 : 0)];
}

/* ---- BH pools ------------------------------------------------------------------------------- */

/*
 * A BH pool's items run in its CPU's softirq (Linux 6.9's BH workqueues):
 * the TASKLET vector, or HI for the high-priority pool, one pool per CPU and
 * priority with one pseudo worker, the CPU's one softirq context, so no
 * concurrency to manage and no max_active.  The pool runs from a tasklet of
 * its own on the vector, which the first item pushed on an empty incoming
 * list schedules: on the pool's CPU directly, from another CPU through an
 * irq_work there (as Linux's kick_bh_pool).  A run takes at most ten items
 * or two jiffies (Linux's BH_WORKER_RESTARTS and BH_WORKER_JIFFIES, so that
 * the softirq is not held long) and schedules itself again for the rest.
 * When the CPU goes offline its tasklets move to a live CPU, this one too:
 * its items then run there, in softirq context, as Linux drains a dead
 * CPU's BH pools from a live one.  Unlike Linux, which runs the BH items of
 * a round before its tasklets, they run in the order the two were
 * scheduled (the pool's tasklet is one of them): the tasklet path pays
 * nothing for BH work.
 */
#define BH_WORKER_RESTARTS	10
#define BH_WORKER_MS		2

/* Run @w's current item in softirq context, pool lock dropped. */
static void bh_worker_run(struct irqkit_worker *w, struct irqkit_work *work)
{
	struct irqkit_task *t = irqkit_arch_current();
	unsigned int count = t->preempt_count;
	irqkit_work_fn fn = run_item(w, work);	/* over a kworker's item its bh_enable interrupted */

	if (unlikely(t->preempt_count != count || task_irqs_off(t))) {
		pr_err("BUG: workqueue leaked lock or atomic: bh%s/0x%08x",
		       w->pool->highpri ? "-hi" : "", t->preempt_count);
		pr_err("    last function: %ps", (void *)fn);
		irqkit__dump_stack();
		t->preempt_count = count;
		if (task_irqs_off(t))
			irqkit_local_irq_enable();
	}
}

/* The pool's tasklet: Linux's bh_worker.  Softirq context, on any CPU that has the tasklet. */
static void bh_worker(struct irqkit_tasklet *tasklet)
{
	struct irqkit_wq_pool *pool = container_of(tasklet, struct irqkit_wq_pool, bh_tasklet);
	struct irqkit_worker *w = pool->workers;
	unsigned long end = irqkit_jiffies() + irqkit_msecs_to_jiffies(BH_WORKER_MS);
	int left = BH_WORKER_RESTARTS;
	bool more;

	irqkit_spin_lock_irq(&pool->lock);
	for (;;) {
		struct irqkit_work *work;

		irqkit__incoming_splice(pool);
		work = worker_take(w);
		if (!work)
			break;
		irqkit_spin_unlock_irq(&pool->lock);
		bh_worker_run(w, work);
		irqkit_spin_lock_irq(&pool->lock);
		worker_finish(w, work);
		if (!--left || time_after(irqkit_jiffies(), end))
			break;
	}
	more = worker_has_work(w) || READ_ONCE(pool->incoming);
	irqkit_spin_unlock_irq(&pool->lock);
	if (more)
		irqkit__tasklet_schedule_quiet(tasklet, pool->highpri);
}

/* bh_kick on the pool's CPU: schedule its tasklet there.  Hardirq context. */
static void bh_kick_fn(struct irqkit_irq_work *kick)
{
	struct irqkit_wq_pool *pool = container_of(kick, struct irqkit_wq_pool, bh_kick);

	irqkit__tasklet_schedule_quiet(&pool->bh_tasklet, pool->highpri);
}

/* An item reached @pool's empty incoming list: its CPU's softirq must run it.  Any context. */
static void bh_pool_kick(struct irqkit_wq_pool *pool)
{
	const struct irqkit_cpu *c = irqkit__this_cpu();

	if (c && (int)c->id == pool->cpu)
		irqkit__tasklet_schedule_quiet(&pool->bh_tasklet, pool->highpri);
	else
		(void)irqkit_irq_work_queue_on(&pool->bh_kick, (unsigned int)pool->cpu);
}

static int bh_pool_init(struct irqkit_wq_pool *pool, unsigned int cpu)
{
	struct irqkit_worker *w = irqkit_plat_alloc(sizeof(*w));

	if (!w)
		return -IRQKIT_ENOMEM;
	pool->cpu = (int)cpu;
	pool->bh = true;
	irqkit_tasklet_setup(&pool->bh_tasklet, bh_worker);
	irqkit_init_irq_work(&pool->bh_kick, bh_kick_fn);
	w->pool = pool;
	w->sched_tail = &w->sched_head;
	pool->workers = w;
	pool->nr_workers = 1;	/* never a thread to start */
	return 0;
}

/* ---- start and stop ------------------------------------------------------------------------- */

/* Join @w at stop; an item that does not return is a wait the watchdog reports. */
static void join_at_stop(struct irqkit_worker *w)
{
	struct irqkit__wait wait;
	struct irqkit_work *current;
	irqkit__wait_init(&wait);

	irqkit_spin_lock_irq(&w->pool->lock);
	current = w->current;
	wait.fn = w->current_fn;	/* not read from the item: it may have freed itself */
	if (current)
		irqkit__wait_begin(&wait, "irqkit_stop", WAIT_WORK, current, 0);
	irqkit_spin_unlock_irq(&w->pool->lock);
	irqkit_plat_thread_join(w->thread);
	irqkit__wait_end(&wait);
}

/*
 * The pools of a run: per CPU a normal and a high-priority one, two unbound,
 * then per CPU a normal and a high-priority BH pool, each with the one
 * pseudo worker that stands for its CPU's softirq (no thread).
 */
int irqkit__pools_init(void)
{
	unsigned int nr = irqkit__rt.nr_cpus, n = nr * 4 + 2;

	irqkit__wq.pools = irqkit_plat_alloc(sizeof(*irqkit__wq.pools) * n);
	if (!irqkit__wq.pools)
		return -IRQKIT_ENOMEM;
	irqkit__wq.nr_pools = n;
	for (unsigned int i = 0; i < n; i++) {
		struct irqkit_wq_pool *pool = &irqkit__wq.pools[i];

		pool->id = (int)i;
		pool->highpri = i % 2;
		pool->tail = &pool->head;
		if (i < nr * 2)
			pool->cpu = (int)(i / 2);
		else if (i < nr * 2 + 2)
			pool->cpu = -1;
		else if (bh_pool_init(pool, (i - nr * 2 - 2) / 2)) {
			irqkit__pools_free();
			irqkit__wq.pools = NULL;
			return -IRQKIT_ENOMEM;
		}
	}
	return 0;
}

/*
 * Stop every worker: each finishes the item it runs; a worker being started
 * is waited for and joined too.  The BH pools have no thread: their items
 * run until the softirqs stop, and what is left is dropped with the rest.
 */
void irqkit__pools_stop(void)
{
	for (unsigned int i = 0; i < irqkit__wq.nr_pools; i++) {
		struct irqkit_wq_pool *pool = &irqkit__wq.pools[i];
		unsigned int spins = 0;

		irqkit_spin_lock_irq(&pool->lock);
		pool->stopping = true;
		while (pool->creating) {
			irqkit_spin_unlock_irq(&pool->lock);
			spin_step(&spins);
			irqkit_spin_lock_irq(&pool->lock);
		}
		while (pool->idle)
			wake_idle_worker(pool);
		irqkit_spin_unlock_irq(&pool->lock);
		for (struct irqkit_worker *w = pool->workers; w; w = w->next) {
			if (w->thread) {
				join_at_stop(w);
				w->thread = NULL;
			}
		}
	}
}

/* Drop what is still on the pools' lists, free the workers and the pools.  No softirq runs. */
void irqkit__pools_free(void)
{
	for (unsigned int i = 0; i < irqkit__wq.nr_pools; i++) {
		struct irqkit_wq_pool *pool = &irqkit__wq.pools[i];

		irqkit_spin_lock_irq(&pool->lock);
		irqkit__incoming_splice(pool);		/* onto the lists dropped below */
		irqkit_spin_unlock_irq(&pool->lock);
		while (pool->workers) {
			struct irqkit_worker *w = pool->workers;

			pool->workers = w->next;
			irqkit__drop_at_stop(w->sched_head);
			worker_free(w);
		}
		irqkit__drop_at_stop(pool->head);
	}
	irqkit_plat_free(irqkit__wq.pools, sizeof(*irqkit__wq.pools) * irqkit__wq.nr_pools);
}

/* ---- the watchdog's part (watchdog.c calls these from its thread) ---------------------------- */

/* Join the workers that ended idle, in every pool. */
void irqkit__workqueue_reap(void)
{
	for (unsigned int i = 0; i < irqkit__wq.nr_pools; i++)
		pool_reap(&irqkit__wq.pools[i]);
}

static void report_pool_lockup(struct irqkit_wq_pool *pool, uint64_t stuck)
{
	char cpus[16];

	if (pool->cpu >= 0)
		irqkit__snprintf(cpus, sizeof(cpus), "%d", pool->cpu);
	else
		irqkit__snprintf(cpus, sizeof(cpus), "0-%u", irqkit__rt.nr_cpus - 1);
	pr_emerg("BUG: workqueue lockup - pool cpus=%s node=0 flags=0x0 nice=%d stuck for %llus!",
		 cpus, pool->highpri ? -20 : 0, irqkit__secs_up(stuck));
	irqkit_spin_lock_irq(&pool->lock);
	irqkit__incoming_splice(pool);
	for (struct irqkit_worker *w = pool->workers; w; w = w->next)
		if (w->current)
			pr_emerg("  in-flight: %d:%ps", w->tid, w->current_fn);
	for (struct irqkit_work *work = pool->head; work; work = work->next)
		pr_emerg("  pending: %ps", irqkit__work_fn(work));
	irqkit_spin_unlock_irq(&pool->lock);
}

/*
 * A pool with items waiting and none taken for @thresh is stuck (Linux's
 * wq_watchdog_timer_fn): every worker blocked and no new one possible.
 */
void irqkit__workqueue_watchdog(uint64_t now, uint64_t thresh)
{
	for (unsigned int i = 0; i < irqkit__wq.nr_pools; i++) {
		struct irqkit_wq_pool *pool = &irqkit__wq.pools[i];
		unsigned long progress;
		uint64_t stuck;
		bool waiting;

		irqkit_spin_lock_irq(&pool->lock);
		progress = pool->progress;
		waiting = pool->head || READ_ONCE(pool->incoming);
		irqkit_spin_unlock_irq(&pool->lock);
		if (irqkit__stall_check(&pool->wd, waiting, progress, now, thresh, &stuck))
			report_pool_lockup(pool, stuck);
	}
}
