// SPDX-License-Identifier: MIT
/*
 * Work queues (Linux's kernel/workqueue.c as drivers see it).
 *
 * Pools of worker threads: per CPU a normal and a high-priority pool (workers
 * bound to the CPU, "kworker/C:N" and "kworker/C:NH"), and two unbound pools
 * ("kworker/uP:N").  A workqueue reaches a pool through a pool_workqueue
 * (pwq), which counts its active items against max_active and parks the rest
 * on its inactive list.  A pool's first worker starts with the first queue
 * that uses it; a worker that takes an item while no other is idle starts
 * one more first (up to WORKERS_MAX), so a blocking item never holds up the
 * next one.
 *
 * Locking: pool->lock guards the pool's lists, its workers' `current`, and
 * the pwqs of the pool; flush_lock (inside pool->lock) guards the flush_work
 * requests.  The pool lock is taken in interrupt context (queue_work's wake
 * of an idle worker, cancel_work, a delayed work's timer), so it is taken
 * with interrupts off everywhere, as Linux's pool->lock: a handler of the
 * holder's CPU must never find it held by the context it interrupted.  A
 * bound worker's unlock is therefore a delivery point of its CPU, as a
 * kworker's spin_unlock_irq is on Linux.  queue_work takes no lock: it pushes the item on its pool's
 * incoming list with one compare-and-swap, and whoever next holds the pool
 * lock for the lists (a worker looking for work, flush, cancel) splices that
 * list in, which is when an item gets its flush colour and counts against
 * max_active.  So the producer and the worker share one cache line per item
 * (the incoming head), not the lock, the pwq and the list tails.  A work
 * item is never touched after its function returns: it may have freed
 * itself.  What flush_work and cancel_work_sync wait for is
 * therefore recorded on the worker (the instance it runs) and signalled
 * through requests, not through the item.
 */
#include "core.h"
#include "cpu.h"
#include "bh.h"
#include "time/time.h"
#include "sched/sched.h"
#include "locking/locking.h"
#include "debug/debug.h"
#include <irqkit/workqueue.h>

#define WORKERS_MAX	32	/* per pool; Linux has no fixed cap, memory is the cap */

#define WORK_ON_NONE		0
#define WORK_ON_WORKLIST	1
#define WORK_ON_INACTIVE	2
#define WORK_ON_SCHEDULED	3	/* behind the worker running the same item */

/* NOLINTNEXTLINE(clang-analyzer-optin.performance.Padding): the counts on a line of their own */
struct irqkit_pwq {
	struct irqkit_wq_pool	*pool;		/* read by queue_work: apart from the counts */
	struct irqkit_workqueue	*wq;
	int			max_active;
	int			nr_active __attribute__((aligned(64)));	/* pool lock */
	long			nr_in_flight[2];	/* pool lock: queued, not finished, per colour */
	struct irqkit_work	*inactive_head, **inactive_tail;
};

/* 64 chains of running workers per pool, as Linux's BUSY_WORKER_HASH_ORDER */
#define BUSY_HASH_ORDER	6

struct irqkit_worker {
	struct irqkit_wq_pool	*pool;
	struct irqkit_plat_thread *thread;
	struct irqkit_work	*current;	/* pool lock */
	const void		*current_fn;	/* its function, for reports (pool lock) */
	unsigned long		current_seq;	/* the instance it runs */
	struct irqkit_pwq	*current_pwq;
	unsigned int		current_color;	/* its flush generation */
	struct irqkit_work	*sched_head, **sched_tail;	/* items that met `current` */
	struct irqkit_worker	*next;
	struct irqkit_worker	*hash_next;	/* busy_hash chain while it runs an item (pool lock) */
	struct irqkit_worker	*idle_next;	/* pool lock */
	unsigned int		wake;		/* set by the waker; the worker sleeps on it */
	unsigned int		wakers;		/* takers still to finish wake_worker() on it */
	int			id;
	int			tid;		/* for the watchdog's report */
	unsigned int		duty;		/* 1: it is its CPU's timer while it sleeps (its own) */
	bool			dead;		/* reaped when idle too long: to be joined */
	/* the current item, watched (observe.c): 1 + its start, or 0 */
	uint64_t		obs_start, obs_flow;
	const void		*obs_fn;
};

struct irqkit_wq_pool {
	/* queue_work pushes here, LIFO, by compare-and-swap; spliced under the lock */
	struct irqkit_work	*incoming __attribute__((aligned(64)));
	int			cpu;		/* -1: unbound */
	bool			highpri;
	int			id;
	/* what the worker writes or reads per item, off the line queue_work writes */
	struct irqkit_spinlock	lock __attribute__((aligned(64)));
	struct irqkit_worker	*idle;		/* sleeping workers, last to sleep first;
						 * pool lock, read by queue_work_wake without it */
	struct irqkit_work	*head, **tail;	/* the worklist */
	struct irqkit_worker	*workers;
	/* the workers running an item, by the item's address (Linux's busy_hash; pool lock) */
	struct irqkit_worker	*busy_hash[1u << BUSY_HASH_ORDER];
	int			nr_workers, next_id;
	bool			stopping;
	int			creating;	/* create_worker calls under way */
	unsigned long		progress;	/* items taken, ever (pool lock) */
	struct irqkit__stall	wd;		/* the watchdog's view (its thread only) */
};

struct irqkit_workqueue {
	char			name[32];
	unsigned int		flags;
	int			max_active;
	struct irqkit_pwq	*pwqs;		/* one per CPU, or one for an unbound queue */
	unsigned int		nr_pwqs;
	unsigned int		color;		/* flush generation of new items */
	unsigned int		flushing;
	unsigned int		flush_seq;	/* flushers sleep on it */
	unsigned int		flush_mutex;
	bool			draining;
	bool			dead;
	unsigned int		queuers;	/* __queue_work calls past their check of dead */
	struct irqkit_workqueue	*next;		/* every queue, for stop */
	struct irqkit__hist	hist[3];	/* delay, duration, lateness (observe.c) */
};

/* A flush_work in progress: wait until (work, instance >= target) has finished. */
struct flush_req {
	const struct irqkit_work *work;
	unsigned long		target;
	unsigned int		done;
	struct flush_req	*next;
};

static struct {
	struct irqkit_wq_pool	*pools;		/* [cpu * 2 + highpri], then 2 unbound */
	unsigned int		nr_pools;
	struct irqkit_workqueue	*all;
	unsigned int		all_lock;	/* mutex over `all` */
	struct irqkit_spinlock	flush_lock;
	struct flush_req	*reqs;
	unsigned int		nr_reqs;
	struct irqkit_workqueue	*system_wq, *system_highpri_wq, *system_unbound_wq;
} wq_rt;

/* The kworker the calling thread is (Linux's current_wq_worker()), or NULL. */
static inline struct irqkit_worker *current_wq_worker(void)
{
	return irqkit_arch_current()->worker;
}

static inline unsigned long work_data(const struct irqkit_work *work)
{
	return a_load_acquire(&work->data);
}
static inline bool test_and_set_pending(struct irqkit_work *work)
{
	return a_fetch_or(&work->data, IRQKIT_WORK_PENDING) &
	       IRQKIT_WORK_PENDING;
}
static inline void clear_pending(struct irqkit_work *work)
{
	a_fetch_and(&work->data, ~IRQKIT_WORK_PENDING);
}

/*
 * The pool_workqueue @work was last queued on, or NULL.  An item outlives
 * runs of the runtime (it is the caller's memory), its pwq does not: the
 * pointer counts only in the run that wrote it.  Any context.
 */
static struct irqkit_pwq *work_pwq(const struct irqkit_work *work)
{
	if (a_load_acquire(&work->run) != READ_ONCE(irqkit__run))
		return NULL;
	return READ_ONCE(work->pwq);
}

/* The owner of PENDING, before the item is on a list: the pointer, then its run (release). */
static void set_work_pwq(struct irqkit_work *work, struct irqkit_pwq *pwq)
{
	WRITE_ONCE(work->pwq, pwq);
	a_store_release(&work->run, READ_ONCE(irqkit__run));
}

/* ---- initialisers ------------------------------------------------------------------ */

void irqkit_init_work(struct irqkit_work *work, irqkit_work_fn func)
{
	*work = (struct irqkit_work){ .func = func };
}

void irqkit_init_work_26(struct irqkit_work *work, irqkit_work_fn_26 func, void *data)
{
	*work = (struct irqkit_work){ .func26 = func, .data26 = data };
}

void irqkit_delayed_work_timer_fn(struct irqkit_timer_list *timer);

void irqkit_init_delayed_work(struct irqkit_delayed_work *dwork, irqkit_work_fn func)
{
	irqkit_init_work(&dwork->work, func);
	dwork->work.data = IRQKIT_WORK_DELAYED;
	irqkit_timer_setup(&dwork->timer, irqkit_delayed_work_timer_fn, 0);
	dwork->wq = NULL;
	dwork->cpu = IRQKIT_WORK_CPU_UNBOUND;
}

void irqkit_init_delayed_work_26(struct irqkit_delayed_work *dwork, irqkit_work_fn_26 func,
				 void *data)
{
	irqkit_init_delayed_work(dwork, NULL);
	dwork->work.func26 = func;
	dwork->work.data26 = data;
}

/* ---- lists -------------------------------------------------------------------------- */

static void list_append(struct irqkit_work ***tail, struct irqkit_work *work)
{
	work->next = NULL;
	**tail = work;
	*tail = &work->next;
}

/* Unlink @work from the list at @head/@tail.  Return: whether it was there. */
static bool list_remove(struct irqkit_work **head, struct irqkit_work ***tail,
			struct irqkit_work *work)
{
	struct irqkit_work **pp = head;

	while (*pp && *pp != work)
		pp = &(*pp)->next;
	if (!*pp)
		return false;
	*pp = work->next;
	if (*tail == &work->next)
		*tail = pp;
	work->next = NULL;
	return true;
}

static struct irqkit_work *list_pop(struct irqkit_work **head, struct irqkit_work ***tail)
{
	struct irqkit_work *work = *head;

	if (work) {
		*head = work->next;
		if (!*head)
			*tail = head;
		work->next = NULL;
	}
	return work;
}

/* ---- completion of instances -------------------------------------------------------------- */

/*
 * Instance @seq of @work has finished (run, or dropped by a cancel): release
 * the flush_work requests it satisfies.  Pool lock held.  @work is only
 * compared, never read: it may be gone.
 */
static void complete_instance(const struct irqkit_work *work, unsigned long seq)
{
	struct flush_req **pp;

	assert_a_lock_held();	/* the pool lock of the instance's worker */
	if (!a_load_seq(&wq_rt.nr_reqs))
		return;
	irqkit_spin_lock(&wq_rt.flush_lock);
	pp = &wq_rt.reqs;
	while (*pp) {
		struct flush_req *req = *pp;

		if (req->work == work && seq >= req->target) {
			*pp = req->next;
			a_fetch_sub(&wq_rt.nr_reqs, 1);
			a_store_seq(&req->done, 1);
			irqkit_plat_wake(&req->done);
			continue;
		}
		pp = &req->next;
	}
	irqkit_spin_unlock(&wq_rt.flush_lock);
}

/* Register @req.  Pool lock of the pool that will finish the instance held. */
static void add_req(struct flush_req *req)
{
	irqkit_spin_lock(&wq_rt.flush_lock);
	req->next = wq_rt.reqs;
	wq_rt.reqs = req;
	a_fetch_add(&wq_rt.nr_reqs, 1);
	irqkit_spin_unlock(&wq_rt.flush_lock);
}

/* Sleep until @req is done; the watchdog knows it as @what waiting for the item. */
static void wait_req(struct flush_req *req, const char *what)
{
	struct irqkit__wait w;

	if (a_load_seq(&req->done))
		return;
	irqkit__wait_init(&w);
	irqkit__wait_begin(&w, what, WAIT_WORK, req->work, 0);
	while (!a_load_seq(&req->done))
		irqkit_plat_wait(&req->done, 0);
	irqkit__wait_end(&w);
}

/*
 * An item of generation @color left @pwq (finished or dropped).  The counts
 * live under the pool lock, as Linux's pwq->nr_in_flight do: the lock's cache
 * line is the only one producer and worker share per item.  Pool lock held.
 */
static void pwq_dec_in_flight(struct irqkit_pwq *pwq, unsigned int color)
{
	struct irqkit_workqueue *wq = pwq->wq;

	spin_assert_locked(&pwq->pool->lock);
	if (--pwq->nr_in_flight[color] == 0 && a_load_seq(&wq->flushing)) {
		irqkit__seq_wake(&wq->flush_seq);
	}
}

static void incoming_splice(struct irqkit_wq_pool *pool);

/*
 * Items of generation @color still in flight on @wq, summed over its pwqs
 * under their locks, once each pool's incoming items are on its lists.
 */
static long wq_in_flight(struct irqkit_workqueue *wq, unsigned int color)
{
	long n = 0;

	for (unsigned int i = 0; i < wq->nr_pwqs; i++) {
		struct irqkit_pwq *pwq = &wq->pwqs[i];

		irqkit_spin_lock_irq(&pwq->pool->lock);
		incoming_splice(pwq->pool);
		n += pwq->nr_in_flight[color];
		irqkit_spin_unlock_irq(&pwq->pool->lock);
	}
	return n;
}

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
static void pwq_dec_active(struct irqkit_pwq *pwq, bool kick)
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
 * Push @work, whose PENDING the caller owns, on @pool's incoming list.  No
 * lock: @work is on no other list, and nobody else writes its link while it
 * is PENDING.  Any context.
 * Return: whether the list was empty, so the push must see that a worker
 * comes for it (queue_work_wake); a push on a non-empty list joins the items
 * someone already comes for.
 */
static bool incoming_push(struct irqkit_wq_pool *pool, struct irqkit_work *work)
{
	struct irqkit_work *head = READ_ONCE(pool->incoming);

	do
		work->next = head;
	while (!a_cas(&pool->incoming, &head, work));
	return !head;
}

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
static void incoming_splice(struct irqkit_wq_pool *pool)
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
static void queue_work_wake(struct irqkit_wq_pool *pool)
{
	struct irqkit_worker *woken;
	unsigned long flags;

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
static struct irqkit_worker *find_worker_executing(struct irqkit_wq_pool *pool,
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
		busy = find_worker_executing(pool, work);
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

/* Run the worker's current item, pool lock dropped; report what it leaked (Linux's words). */
static void worker_run(struct irqkit_worker *w, struct irqkit_work *work)
{
	struct irqkit_task *t = irqkit_arch_current();
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
	t->running_bh = NULL;
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
	pwq_dec_active(pwq, false);
	complete_instance(work, w->current_seq);	/* compares @work, never reads it */
	pwq_dec_in_flight(pwq, w->current_color);
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
 * Timer duty.  In threaded mode an idle kworker of a CPU's normal pool is
 * that CPU's timer while it sleeps: it sleeps until the CPU's earliest timer
 * and runs TIMER_SOFTIRQ itself, so the item a delayed work's timer queues
 * is taken by the thread that woke for the timer: one wake-up, as a timerfd
 * wait takes, where ksoftirqd and then a worker took two.  ksoftirqd sleeps
 * untimed while a worker has the duty (a timer armed as the new earliest
 * wakes the worker instead), and is the timer again when the worker leaves
 * its sleep (woken for work, reaped, stopping): the worker wakes it then if a
 * timer is armed.  Any worker of the pool may have it, one at a time.
 */
static struct irqkit_cpu *duty_take(struct irqkit_worker *w)
{
	struct irqkit_wq_pool *pool = w->pool;
	struct irqkit_cpu *c;

	spin_assert_locked(&pool->lock);
	if (!mode_timer_duty() || pool->cpu < 0 || pool->highpri ||
	    pool->stopping)
		return NULL;
	c = &irqkit__rt.cpus[pool->cpu];
	if (a_load_seq(&c->timer_duty))		/* another worker of this pool: the lock orders takers */
		return NULL;
	a_store_seq(&c->timer_duty, 1);
	a_store_release(&w->duty, 1);
	return c;
}

/* @w leaves its sleep: ksoftirqd is the timer again (Dekker with timer_armed and ksoftirqd's sleep). */
static void duty_release(struct irqkit_worker *w, struct irqkit_cpu *c)
{
	a_store_release(&w->duty, 0);
	a_store_seq(&c->timer_duty, 0);
	if (a_load_seq(&c->timers.armed))
		irqkit__wakeup_softirqd(c);
}

/*
 * The duty worker's look at the clock: the time until its CPU's earliest
 * timer (UINT64_MAX: none), or, when one is due, 0 after running
 * TIMER_SOFTIRQ here (with what else is pending then, as any local_bh_enable
 * does; a softirq raised while no timer is due stays ksoftirqd's).  It moves
 * to the head of the idle list first, so that an item the timers queue on
 * its pool wakes it (it is awake), not another worker.
 */
static uint64_t duty_due(struct irqkit_worker *w, struct irqkit_cpu *c)
{
	struct irqkit_wq_pool *pool = w->pool;
	uint64_t ns;

	if (READ_ONCE(irqkit__rt.stopping))
		return UINT64_MAX;	/* no timers once stop has begun: it wakes this worker */
	ns = irqkit__timers_sleep(c);	/* when due, raises TIMER_SOFTIRQ and returns 0 */
	if (ns)
		return ns;
	irqkit_spin_lock_irq(&pool->lock);
	if (!a_load_acquire(&w->wake) && pool->idle != w) {
		idle_list_remove(pool, w);
		worker_enter_idle(w);	/* again, at the head */
	}
	irqkit_spin_unlock_irq(&pool->lock);
	irqkit_local_bh_disable();
	irqkit_local_bh_enable();	/* runs what is pending, if it can take the CPU */
	if (irqkit__softirq_pending(c))
		irqkit__wakeup_softirqd(c);	/* it could not: as a raise from process context */
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
		incoming_splice(pool);
		if (!worker_has_work(w)) {
			worker_enter_idle(w);
			a_fence();	/* idle before the look; queue_work_wake: push before its look */
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

static int pool_ensure_worker(struct irqkit_wq_pool *pool)
{
	int have;

	irqkit_spin_lock_irq(&pool->lock);
	have = pool->nr_workers;
	irqkit_spin_unlock_irq(&pool->lock);
	return have ? 0 : create_worker(pool);
}

static struct irqkit_wq_pool *cpu_pool(unsigned int cpu, bool highpri)
{
	return &wq_rt.pools[cpu * 2 + (highpri ? 1 : 0)];
}

static struct irqkit_wq_pool *unbound_pool(bool highpri)
{
	return &wq_rt.pools[irqkit__rt.nr_cpus * 2 + (highpri ? 1 : 0)];
}

/* ---- queueing ------------------------------------------------------------------------------- */

/* Is the caller a worker running an item of @wq?  (Chained work may queue while draining.) */
static bool is_chained_work(const struct irqkit_workqueue *wq)
{
	struct irqkit_worker *w = current_wq_worker();

	return w && w->current_pwq && w->current_pwq->wq == wq;
}

/*
 * __queue_work: put @work, whose PENDING the caller owns, on @wq, on @cpu's
 * pool (or the caller's CPU).  A queue that is dead, or draining to a caller
 * that is not one of its own items, refuses it.  Any context.
 * Return: false if refused.
 */
static bool queue_work_in(int cpu, struct irqkit_workqueue *wq, struct irqkit_work *work)
{
	struct irqkit_pwq *pwq, *last;
	struct irqkit_wq_pool *pool;

	if (unlikely(a_load_seq(&wq->dead))) {
		WARN_ONCE(1, "workqueue %s: queue_work() on a destroyed workqueue: refused",
			  wq->name);
		clear_pending(work);
		return false;
	}
	if (unlikely(READ_ONCE(wq->draining)) && WARN_ONCE(!is_chained_work(wq),
		"workqueue %s: queue_work() while draining, not from one of its items: refused",
		wq->name)) {
		clear_pending(work);
		return false;
	}
	if (wq->flags & IRQKIT_WQ_UNBOUND)
		pwq = &wq->pwqs[0];
	else
		pwq = &wq->pwqs[cpu >= 0 && (unsigned int)cpu < wq->nr_pwqs ?
				(unsigned int)cpu : irqkit__this_cpu()->id];

	/* If it runs elsewhere now, queue it where it runs */
	last = work_pwq(work);
	if (last && last->wq == wq && last->pool != pwq->pool) {
		unsigned long flags = irqkit_spin_lock_irqsave(&last->pool->lock);

		if (find_worker_executing(last->pool, work))
			pwq = last;
		irqkit_spin_unlock_irqrestore(&last->pool->lock, flags);
	}
	pool = pwq->pool;
	set_work_pwq(work, pwq);
	/* one writer at a time: the owner of PENDING */
	a_store_release(&work->queued, READ_ONCE(work->queued) + 1);
	irqkit_trace(workqueue_queue_work, work, (const void *)irqkit__work_fn(work), wq->name,
		     pool->cpu);
	if (incoming_push(pool, work))
		queue_work_wake(pool);
	return true;
}

/*
 * The caller counts itself in before it looks at wq->dead and out once its
 * item is pushed; destroy_workqueue sets dead and then waits for the count
 * to reach 0 before its last flush (Dekker: one of the two sees the other),
 * so an item that passed the check is on the lists when that flush looks.
 */
static bool __queue_work(int cpu, struct irqkit_workqueue *wq, struct irqkit_work *work)
{
	bool queued;

	a_fetch_add(&wq->queuers, 1);
	queued = queue_work_in(cpu, wq, work);
	a_fetch_sub(&wq->queuers, 1);
	return queued;
}

/* An item never set up (all zero): Linux calls NULL from the worker; refuse it here. */
static bool work_has_no_function(const struct irqkit_work *work, const char *what)
{
	return WARN_ONCE(!work->func && !work->func26,
			 "%s() of work %p with no function (INIT_WORK() missing?): refused",
			 what, (const void *)work);
}

/* queue_work_on and its wrappers: the interrupt point names the caller, @ip. */
static __always_inline bool queue_work_at(int cpu, struct irqkit_workqueue *wq,
					  struct irqkit_work *work, const void *ip)
{
	irqkit__point("queue_work", ip);
	if (!wq || !work || work_has_no_function(work, "queue_work") ||
	    test_and_set_pending(work))
		return false;
	if (unlikely(irqkit__observing()))
		irqkit__obs_work_queued(work, false, 0);
	return __queue_work(cpu, wq, work);
}

bool irqkit_queue_work_on(int cpu, struct irqkit_workqueue *wq, struct irqkit_work *work)
{
	return queue_work_at(cpu, wq, work, __builtin_return_address(0));
}

bool irqkit_queue_work(struct irqkit_workqueue *wq, struct irqkit_work *work)
{
	return queue_work_at(IRQKIT_WORK_CPU_UNBOUND, wq, work, __builtin_return_address(0));
}

bool irqkit_schedule_work(struct irqkit_work *work)
{
	return queue_work_at(IRQKIT_WORK_CPU_UNBOUND, wq_rt.system_wq, work,
			     __builtin_return_address(0));
}

void irqkit_delayed_work_timer_fn(struct irqkit_timer_list *timer)
{
	struct irqkit_delayed_work *dwork = container_of(timer, struct irqkit_delayed_work, timer);

	/* its lateness is counted from when it was due */
	if (unlikely(irqkit__observing()))
		irqkit__obs_work_queued(&dwork->work, true, irqkit__jiffies_to_ns(timer->expires));
	/* On the CPU where the timer ran, unless a CPU was asked */
	__queue_work(dwork->cpu, dwork->wq, &dwork->work);
}

/* Return: false if refused (a dead queue). */
static bool __queue_delayed_work(int cpu, struct irqkit_workqueue *wq,
				 struct irqkit_delayed_work *dwork, unsigned long delay)
{
	dwork->wq = wq;
	dwork->cpu = cpu;
	if (!delay || unlikely(READ_ONCE(wq->dead))) {
		if (unlikely(irqkit__observing()))
			irqkit__obs_work_queued(&dwork->work, false, 0);
		return __queue_work(cpu, wq, &dwork->work);
	}
	if (dwork->timer.function != irqkit_delayed_work_timer_fn)
		irqkit_timer_setup(&dwork->timer, irqkit_delayed_work_timer_fn, 0);
	irqkit_mod_timer(&dwork->timer, irqkit_jiffies() + delay);
	return true;
}

bool irqkit_queue_delayed_work_on(int cpu, struct irqkit_workqueue *wq,
				  struct irqkit_delayed_work *dwork, unsigned long delay)
{
	if (!wq || !dwork || work_has_no_function(&dwork->work, "queue_delayed_work") ||
	    test_and_set_pending(&dwork->work))
		return false;
	return __queue_delayed_work(cpu, wq, dwork, delay);
}

bool irqkit_queue_delayed_work(struct irqkit_workqueue *wq, struct irqkit_delayed_work *dwork,
			       unsigned long delay)
{
	return irqkit_queue_delayed_work_on(IRQKIT_WORK_CPU_UNBOUND, wq, dwork, delay);
}

bool irqkit_schedule_delayed_work(struct irqkit_delayed_work *dwork, unsigned long delay)
{
	return irqkit_queue_delayed_work(wq_rt.system_wq, dwork, delay);
}

/* ---- grabbing a pending instance --------------------------------------------------------------- */

/*
 * try_to_grab_pending: make the caller the owner of @work's PENDING bit.  A
 * queued instance is taken off its list (and counts as finished); an armed
 * timer of a delayed work is disarmed.  Any context.
 * Return: true if an instance was pending, false if the item was idle.
 */
static bool grab_pending(struct irqkit_work *work, struct irqkit_delayed_work *dwork)
{
	unsigned int spins = 0;

	for (;;) {
		struct irqkit_pwq *pwq;
		struct irqkit_wq_pool *pool;
		unsigned long flags;

		if (dwork && irqkit_del_timer(&dwork->timer))
			return true;
		if (!test_and_set_pending(work))
			return false;
		pwq = work_pwq(work);
		if (pwq) {
			pool = pwq->pool;
			flags = irqkit_spin_lock_irqsave(&pool->lock);
			incoming_splice(pool);
			if (READ_ONCE(work->pwq) == pwq && work->where != WORK_ON_NONE) {
				bool found = false;

				if (work->where == WORK_ON_WORKLIST) {
					found = list_remove(&pool->head, &pool->tail, work);
					if (found)
						pwq_dec_active(pwq, true);
				} else if (work->where == WORK_ON_INACTIVE) {
					found = list_remove(&pwq->inactive_head,
							    &pwq->inactive_tail, work);
				} else {
					struct irqkit_worker *w = find_worker_executing(pool, work);

					found = w && list_remove(&w->sched_head, &w->sched_tail, work);
					if (found)
						pwq_dec_active(pwq, true);
				}
				if (found) {
					work->where = WORK_ON_NONE;
					complete_instance(work, READ_ONCE(work->queued));
					pwq_dec_in_flight(pwq, work->color);
					irqkit_spin_unlock_irqrestore(&pool->lock, flags);
					return true;
				}
			}
			irqkit_spin_unlock_irqrestore(&pool->lock, flags);
		}
		/* pending but on no list yet: being queued right now (a timer fired) */
		spin_step(&spins);
	}
}

/*
 * Wait until no worker runs @work (the running instance finishes).  Process
 * context.  Return: whether it waited.
 */
static bool wait_running(struct irqkit_work *work)
{
	struct irqkit_pwq *pwq = work_pwq(work);
	struct flush_req req = { .work = work };
	struct irqkit_worker *w;

	if (!pwq)
		return false;
	irqkit_spin_lock_irq(&pwq->pool->lock);
	w = find_worker_executing(pwq->pool, work);
	if (w) {
		req.target = w->current_seq;
		add_req(&req);
	}
	irqkit_spin_unlock_irq(&pwq->pool->lock);
	if (!w)
		return false;
	wait_req(&req, "cancel_work_sync");
	return true;
}

/* A wait on @work from @work itself never ends: report it. */
static bool waits_for_itself(const struct irqkit_work *work, const char *what)
{
	if (likely(irqkit_arch_current()->running_bh != work))
		return false;
	irqkit__warn(__FILE__, __LINE__,
		     "%s() called from the work item itself: it would wait for itself forever; not waiting",
		     what);
	return true;
}

static bool __cancel_work_sync(struct irqkit_work *work, struct irqkit_delayed_work *dwork)
{
	bool ret;

	might_sleep();
	ret = grab_pending(work, dwork);		/* now ours: new queueing fails */
	if (!waits_for_itself(work, dwork ? "cancel_delayed_work_sync" : "cancel_work_sync"))
		wait_running(work);
	clear_pending(work);
	return ret;
}

bool irqkit_cancel_work_sync(struct irqkit_work *work)
{
	if (WARN_ONCE(work_data(work) & IRQKIT_WORK_DELAYED,
		      "cancel_work_sync() on delayed work %p: use cancel_delayed_work_sync()",
		      (void *)work))
		return __cancel_work_sync(work, container_of(work, struct irqkit_delayed_work, work));
	return __cancel_work_sync(work, NULL);
}

bool irqkit_cancel_delayed_work(struct irqkit_delayed_work *dwork)
{
	bool ret = grab_pending(&dwork->work, dwork);

	clear_pending(&dwork->work);
	return ret;
}

bool irqkit_cancel_delayed_work_sync(struct irqkit_delayed_work *dwork)
{
	return __cancel_work_sync(&dwork->work, dwork);
}

bool irqkit_mod_delayed_work_on(int cpu, struct irqkit_workqueue *wq,
				struct irqkit_delayed_work *dwork, unsigned long delay)
{
	bool ret;

	if (!wq || !dwork || work_has_no_function(&dwork->work, "mod_delayed_work"))
		return false;
	ret = grab_pending(&dwork->work, dwork);	/* PENDING is ours either way */
	__queue_delayed_work(cpu, wq, dwork, delay);
	return ret;
}

bool irqkit_mod_delayed_work(struct irqkit_workqueue *wq, struct irqkit_delayed_work *dwork,
			     unsigned long delay)
{
	return irqkit_mod_delayed_work_on(IRQKIT_WORK_CPU_UNBOUND, wq, dwork, delay);
}

/* ---- flushing ---------------------------------------------------------------------------------- */

bool irqkit_flush_work(struct irqkit_work *work)
{
	struct flush_req req = { .work = work };
	struct irqkit_pwq *pwq;

	might_sleep();
	if (waits_for_itself(work, "flush_work"))
		return false;
	for (;;) {
		struct irqkit_worker *w = NULL;
		bool queued;

		pwq = work_pwq(work);
		if (!pwq)
			return false;
		irqkit_spin_lock_irq(&pwq->pool->lock);
		incoming_splice(pwq->pool);
		if (READ_ONCE(work->pwq) != pwq) {	/* moved meanwhile: again */
			irqkit_spin_unlock_irq(&pwq->pool->lock);
			continue;
		}
		queued = work->where != WORK_ON_NONE;
		if (!queued)
			w = find_worker_executing(pwq->pool, work);
		if (queued || w) {
			req.target = queued ? READ_ONCE(work->queued) : w->current_seq;
			add_req(&req);
		}
		irqkit_spin_unlock_irq(&pwq->pool->lock);
		if (!queued && !w)
			return false;
		wait_req(&req, "flush_work");
		return true;
	}
}

bool irqkit_flush_delayed_work(struct irqkit_delayed_work *dwork)
{
	if (irqkit_del_timer(&dwork->timer))
		__queue_work(dwork->cpu, dwork->wq, &dwork->work);
	return irqkit_flush_work(&dwork->work);
}

void irqkit_flush_workqueue(struct irqkit_workqueue *wq)
{
	unsigned int old;
	bool self;

	might_sleep();
	if (!wq)
		return;
	/*
	 * From one of the queue's own items, Linux waits for that item too and
	 * never returns.  irqkit reports it; on an ordered queue nothing else can
	 * run meanwhile, so it returns, otherwise it waits for the other items.
	 */
	self = is_chained_work(wq);
	if (self) {
		irqkit__warn(__FILE__, __LINE__,
			     "flush_workqueue(%s) called from one of its own items: it would wait for itself forever; %s",
			     wq->name, (wq->flags & IRQKIT__WQ_ORDERED) ? "not waiting" :
			     "waiting for the others only");
		if (wq->flags & IRQKIT__WQ_ORDERED)
			return;
	}
	irqkit__mutex_lock(&wq->flush_mutex);
	/* items queued before this call take the old colour, then the flip */
	wq_in_flight(wq, 0);
	old = a_load_seq(&wq->color);
	a_store_seq(&wq->flushing, 1);
	a_store_seq(&wq->color, old ^ 1);
	/* the caller's own item, of the old colour, is not waited for */
	irqkit__seq_wait_event(&wq->flush_seq,
			       wq_in_flight(wq, old) -
			       (self && current_wq_worker()->current->color == old) <= 0,
			       "flush_workqueue", WAIT_WORKQUEUE, wq->name, 0);
	a_store_seq(&wq->flushing, 0);
	irqkit__mutex_unlock(&wq->flush_mutex);
}

void irqkit_drain_workqueue(struct irqkit_workqueue *wq)
{
	unsigned int tries = 0;

	might_sleep();
	if (!wq)
		return;
	WRITE_ONCE(wq->draining, true);
	for (;;) {
		irqkit_flush_workqueue(wq);
		if (!wq_in_flight(wq, 0) && !wq_in_flight(wq, 1))
			break;
		if (++tries % 10 == 0)
			pr_warn("workqueue %s: drain_workqueue() isn't complete after %u tries",
				wq->name, tries);
	}
	WRITE_ONCE(wq->draining, false);
}

void irqkit_flush_scheduled_work(void)
{
	irqkit_flush_workqueue(wq_rt.system_wq);
}

/* ---- queues --------------------------------------------------------------------------------- */

/* wq_clamp_max_active: 0 is the default, the rest is kept in 1..512 with a warning. */
static int clamp_max_active(int max_active, const char *name)
{
	if (!max_active)
		return IRQKIT_WQ_DFL_ACTIVE;
	if (max_active < 1 || max_active > IRQKIT_WQ_MAX_ACTIVE) {
		int clamped = max_active < 1 ? 1 : IRQKIT_WQ_MAX_ACTIVE;

		pr_warn("workqueue: max_active %d requested for %s is out of range, clamping between %d and %d",
			max_active, name, 1, IRQKIT_WQ_MAX_ACTIVE);
		return clamped;
	}
	return max_active;
}

static struct irqkit_workqueue *alloc_wq(const char *name, unsigned int flags, int max_active)
{
	struct irqkit_workqueue *wq;
	bool unbound = flags & IRQKIT_WQ_UNBOUND;
	bool highpri = flags & IRQKIT_WQ_HIGHPRI;

	if (!wq_rt.pools)
		return NULL;
	if (flags & IRQKIT_WQ_BH) {
		pr_warn("workqueue: %s: WQ_BH is not supported by irqkit; use a tasklet", name);
		return NULL;
	}
	wq = irqkit_plat_alloc(sizeof(*wq));
	if (!wq)
		return NULL;
	irqkit__snprintf(wq->name, sizeof(wq->name), "%s", name);
	wq->flags = flags;
	wq->max_active = clamp_max_active(max_active, wq->name);
	wq->nr_pwqs = unbound ? 1 : irqkit__rt.nr_cpus;
	wq->pwqs = irqkit_plat_alloc(sizeof(*wq->pwqs) * wq->nr_pwqs);
	if (!wq->pwqs) {
		irqkit_plat_free(wq, sizeof(*wq));
		return NULL;
	}
	for (unsigned int i = 0; i < wq->nr_pwqs; i++) {
		struct irqkit_pwq *pwq = &wq->pwqs[i];

		pwq->pool = unbound ? unbound_pool(highpri) : cpu_pool(i, highpri);
		pwq->wq = wq;
		pwq->max_active = wq->max_active;
		pwq->inactive_tail = &pwq->inactive_head;
		if (pool_ensure_worker(pwq->pool)) {
			irqkit_plat_free(wq->pwqs, sizeof(*wq->pwqs) * wq->nr_pwqs);
			irqkit_plat_free(wq, sizeof(*wq));
			return NULL;
		}
	}
	irqkit__mutex_lock(&wq_rt.all_lock);
	wq->next = wq_rt.all;
	wq_rt.all = wq;
	irqkit__mutex_unlock(&wq_rt.all_lock);
	return wq;
}

struct irqkit_workqueue *irqkit_alloc_workqueue(const char *fmt, unsigned int flags,
						int max_active, ...)
{
	char name[32];
	va_list ap;

	might_sleep();
	if (!fmt) {
		pr_warn("workqueue: alloc_workqueue() with no name: refused");
		return NULL;
	}
	va_start(ap, max_active);
	irqkit__vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	return alloc_wq(name, flags, max_active);
}

struct irqkit_workqueue *irqkit_alloc_ordered_workqueue(const char *fmt, unsigned int flags, ...)
{
	char name[32];
	va_list ap;

	might_sleep();
	if (!fmt) {
		pr_warn("workqueue: alloc_ordered_workqueue() with no name: refused");
		return NULL;
	}
	va_start(ap, flags);
	irqkit__vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	return alloc_wq(name, flags | IRQKIT_WQ_UNBOUND | IRQKIT__WQ_ORDERED, 1);
}

void irqkit_destroy_workqueue(struct irqkit_workqueue *wq)
{
	might_sleep();
	if (!wq || WARN_ONCE(READ_ONCE(wq->dead), "destroy_workqueue(%s) twice", wq->name))
		return;
	irqkit_drain_workqueue(wq);
	a_store_seq(&wq->dead, true);
	/*
	 * A queue_work that raced with the flag is refused, or its item is on
	 * the lists once the count of callers past the check is 0: the last
	 * flush then waits for it.
	 */
	for (unsigned int spins = 0; a_load_seq(&wq->queuers);)
		spin_step(&spins);
	irqkit_flush_workqueue(wq);
}

/* ---- histograms (observe.c) ------------------------------------------------------------------- */

struct irqkit__hist *irqkit__wq_hist(const struct irqkit_workqueue *wq, unsigned int which)
{
	return (struct irqkit__hist *)&wq->hist[which];
}

void irqkit__wq_for_each(void (*fn)(const struct irqkit_workqueue *wq, const char *name, void *arg),
			 void *arg)
{
	irqkit__mutex_lock(&wq_rt.all_lock);
	for (struct irqkit_workqueue *wq = wq_rt.all; wq; wq = wq->next)
		fn(wq, wq->name, arg);
	irqkit__mutex_unlock(&wq_rt.all_lock);
}

void irqkit__wq_hist_clear(void)
{
	irqkit__mutex_lock(&wq_rt.all_lock);
	for (struct irqkit_workqueue *wq = wq_rt.all; wq; wq = wq->next)
		irqkit__hist_clear(wq->hist, 3);
	irqkit__mutex_unlock(&wq_rt.all_lock);
}

struct irqkit_workqueue *irqkit_system_wq(void)
{
	return wq_rt.system_wq;
}

struct irqkit_workqueue *irqkit_system_highpri_wq(void)
{
	return wq_rt.system_highpri_wq;
}

struct irqkit_workqueue *irqkit_system_unbound_wq(void)
{
	return wq_rt.system_unbound_wq;
}

/* ---- start and stop ------------------------------------------------------------------------- */

int irqkit__workqueue_init(void)
{
	unsigned int n = irqkit__rt.nr_cpus * 2 + 2;

	wq_rt.pools = irqkit_plat_alloc(sizeof(*wq_rt.pools) * n);
	if (!wq_rt.pools)
		return -IRQKIT_ENOMEM;
	wq_rt.nr_pools = n;
	for (unsigned int i = 0; i < n; i++) {
		struct irqkit_wq_pool *pool = &wq_rt.pools[i];

		pool->cpu = i < irqkit__rt.nr_cpus * 2 ? (int)(i / 2) : -1;
		pool->highpri = i % 2;
		pool->id = (int)i;
		pool->tail = &pool->head;
	}
	wq_rt.system_wq = alloc_wq("events", 0, 0);
	wq_rt.system_highpri_wq = alloc_wq("events_highpri", IRQKIT_WQ_HIGHPRI, 0);
	wq_rt.system_unbound_wq = alloc_wq("events_unbound", IRQKIT_WQ_UNBOUND, 0);
	if (!wq_rt.system_wq || !wq_rt.system_highpri_wq || !wq_rt.system_unbound_wq) {
		irqkit__workqueue_exit();
		return -IRQKIT_ENOMEM;
	}
	return 0;
}

/* An item still queued when the runtime stops: idle again, as tasklets and timers are. */
static void drop_at_stop(struct irqkit_work *work)
{
	while (work) {
		struct irqkit_work *next = work->next;

		work->next = NULL;
		work->where = WORK_ON_NONE;
		clear_pending(work);
		work = next;
	}
}

/*
 * A delayed work whose timer was still armed at stop (timer.c drops the timer
 * and calls this): its PENDING goes too, or it could never be queued again.
 */
void irqkit__delayed_work_dropped(struct irqkit_timer_list *timer)
{
	clear_pending(&container_of(timer, struct irqkit_delayed_work, timer)->work);
}

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
 * Stop every worker (each finishes the item it runs; a worker being started
 * is waited for and joined too), then drop what is still queued and free
 * pools and queues.
 */
void irqkit__workqueue_exit(void)
{
	if (!wq_rt.pools)
		return;
	for (unsigned int i = 0; i < wq_rt.nr_pools; i++) {
		struct irqkit_wq_pool *pool = &wq_rt.pools[i];
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
		for (struct irqkit_worker *w = pool->workers; w; w = w->next)
			if (w->thread)
				join_at_stop(w);
		irqkit_spin_lock_irq(&pool->lock);
		incoming_splice(pool);		/* onto the lists dropped below */
		irqkit_spin_unlock_irq(&pool->lock);
		while (pool->workers) {
			struct irqkit_worker *w = pool->workers;

			pool->workers = w->next;
			drop_at_stop(w->sched_head);
			worker_free(w);
		}
		drop_at_stop(pool->head);
	}
	while (wq_rt.all) {
		struct irqkit_workqueue *wq = wq_rt.all;

		wq_rt.all = wq->next;
		for (unsigned int i = 0; i < wq->nr_pwqs; i++)
			drop_at_stop(wq->pwqs[i].inactive_head);
		irqkit_plat_free(wq->pwqs, sizeof(*wq->pwqs) * wq->nr_pwqs);
		irqkit_plat_free(wq, sizeof(*wq));
	}
	irqkit_plat_free(wq_rt.pools, sizeof(*wq_rt.pools) * wq_rt.nr_pools);
	wq_rt = (typeof(wq_rt)){ 0 };
}

/* ---- the watchdog's part (watchdog.c calls these from its thread) ---------------------------- */

/* Join the workers that ended idle, in every pool. */
void irqkit__workqueue_reap(void)
{
	for (unsigned int i = 0; i < wq_rt.nr_pools; i++)
		pool_reap(&wq_rt.pools[i]);
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
	incoming_splice(pool);
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
	for (unsigned int i = 0; i < wq_rt.nr_pools; i++) {
		struct irqkit_wq_pool *pool = &wq_rt.pools[i];
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
