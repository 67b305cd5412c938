// SPDX-License-Identifier: MIT
/*
 * Work queues (Linux's kernel/workqueue.c as drivers see it): the items'
 * API (queue, delay, cancel, flush, drain) and the queues themselves.
 *
 * The pools of worker threads that run the items are worker.c's.  A
 * workqueue reaches a pool through a pool_workqueue (pwq), which counts its
 * active items against max_active and parks the rest on its inactive list.
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
#include "workqueue_internal.h"

HIDDEN struct irqkit__wq_rt irqkit__wq;

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

/* ---- completion of instances -------------------------------------------------------------- */

/*
 * Instance @seq of @work has finished (run, or dropped by a cancel): release
 * the flush_work requests it satisfies.  Pool lock held.  @work is only
 * compared, never read: it may be gone.
 */
void irqkit__complete_instance(const struct irqkit_work *work, unsigned long seq)
{
	struct flush_req **pp;

	assert_a_lock_held();	/* the pool lock of the instance's worker */
	if (!a_load_seq(&irqkit__wq.nr_reqs))
		return;
	irqkit_spin_lock(&irqkit__wq.flush_lock);
	pp = &irqkit__wq.reqs;
	while (*pp) {
		struct flush_req *req = *pp;

		if (req->work == work && seq >= req->target) {
			*pp = req->next;
			a_fetch_sub(&irqkit__wq.nr_reqs, 1);
			a_store_seq(&req->done, 1);
			irqkit_plat_wake(&req->done);
			continue;
		}
		pp = &req->next;
	}
	irqkit_spin_unlock(&irqkit__wq.flush_lock);
}

/* Register @req.  Pool lock of the pool that will finish the instance held. */
static void add_req(struct flush_req *req)
{
	irqkit_spin_lock(&irqkit__wq.flush_lock);
	req->next = irqkit__wq.reqs;
	irqkit__wq.reqs = req;
	a_fetch_add(&irqkit__wq.nr_reqs, 1);
	irqkit_spin_unlock(&irqkit__wq.flush_lock);
}

/* Sleep until @req is done; the watchdog knows it as @what waiting for the item. */
/* Take @req off the list if it is still there (a wait given up).  Pool lock not held. */
static void del_req(struct flush_req *req)
{
	irqkit_spin_lock(&irqkit__wq.flush_lock);
	for (struct flush_req **pp = &irqkit__wq.reqs; *pp; pp = &(*pp)->next) {
		if (*pp == req) {
			*pp = req->next;
			a_fetch_sub(&irqkit__wq.nr_reqs, 1);
			break;
		}
	}
	irqkit_spin_unlock(&irqkit__wq.flush_lock);
}

/*
 * Deterministic mode: nothing but the player runs a CPU's softirqs, so the
 * player that waits for a BH item runs them itself; when none can run (its
 * interrupts or bottom halves off, a lock held), the wait could never end:
 * reported, not waited.  Return: whether @cond came true.
 */
#define player_waits_for_bh(cond, what) ({						\
	bool __ok = true;								\
	while (!(cond)) {								\
		if (irqkit__det_run_softirqs())						\
			continue;							\
		irqkit__warn(__FILE__, __LINE__,					\
			     "%s() in deterministic mode from a section that keeps softirqs out: nothing would run the BH work; not waiting", \
			     (what));							\
		__ok = false;								\
		break;									\
	}										\
	__ok;										\
})

/* Sleep until @req is done (@bh: its item is a BH queue's); the watchdog knows it as @what. */
static void wait_req(struct flush_req *req, const char *what, bool bh)
{
	struct irqkit__wait w;

	if (a_load_seq(&req->done))
		return;
	if (bh && irqkit__det_player()) {
		if (!player_waits_for_bh(a_load_seq(&req->done), what))
			del_req(req);
		return;
	}
	irqkit__wait_init(&w);
	irqkit__wait_begin(&w, what, WAIT_WORK, req->work, 0);
	while (!a_load_seq(&req->done))
		irqkit_plat_wait(&req->done, 0);
	irqkit__wait_end(&w);
}

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
		irqkit__incoming_splice(pwq->pool);
		n += pwq->nr_in_flight[color];
		irqkit_spin_unlock_irq(&pwq->pool->lock);
	}
	return n;
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

		if (irqkit__find_worker_executing(last->pool, work))
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
		irqkit__queue_work_wake(pool);
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
	    test_and_set_pending(work) || clear_pending_if_disabled(work))
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
	return queue_work_at(IRQKIT_WORK_CPU_UNBOUND, irqkit__wq.system_wq, work,
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
	    test_and_set_pending(&dwork->work) || clear_pending_if_disabled(&dwork->work))
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
	return irqkit_queue_delayed_work(irqkit__wq.system_wq, dwork, delay);
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
			irqkit__incoming_splice(pool);
			if (READ_ONCE(work->pwq) == pwq && work->where != WORK_ON_NONE) {
				bool found = false;

				if (work->where == WORK_ON_WORKLIST) {
					found = list_remove(&pool->head, &pool->tail, work);
					if (found)
						irqkit__pwq_dec_active(pwq, true);
				} else if (work->where == WORK_ON_INACTIVE) {
					found = list_remove(&pwq->inactive_head,
							    &pwq->inactive_tail, work);
				} else {
					struct irqkit_worker *w = irqkit__find_worker_executing(pool, work);

					found = w && list_remove(&w->sched_head, &w->sched_tail, work);
					if (found)
						irqkit__pwq_dec_active(pwq, true);
				}
				if (found) {
					work->where = WORK_ON_NONE;
					irqkit__complete_instance(work, READ_ONCE(work->queued));
					irqkit__pwq_dec_in_flight(pwq, work->color);
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
static bool wait_running(struct irqkit_work *work, const char *what)
{
	struct irqkit_pwq *pwq = work_pwq(work);
	struct flush_req req = { .work = work };
	struct irqkit_worker *w;
	unsigned long flags;
	bool bh;

	if (!pwq)
		return false;
	bh = pwq->pool->bh;
	flags = irqkit_spin_lock_irqsave(&pwq->pool->lock);
	w = irqkit__find_worker_executing(pwq->pool, work);
	if (w) {
		req.target = w->current_seq;
		add_req(&req);
	}
	irqkit_spin_unlock_irqrestore(&pwq->pool->lock, flags);
	if (!w)
		return false;
	if (bh && (irqkit_in_atomic() || irqkit_irqs_disabled())) {
		/* a BH item runs in a softirq of its own CPU: wait by spinning, as Linux */
		for (unsigned int spins = 0; !a_load_seq(&req.done);)
			spin_step(&spins);
		return true;
	}
	wait_req(&req, what, bh);
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

static bool work_is_bh(const struct irqkit_work *work);

static bool __cancel_work_sync(struct irqkit_work *work, struct irqkit_delayed_work *dwork)
{
	bool ret;

	/* a BH item's may be waited for from atomic context, not from hardirq (Linux 6.10) */
	if (work_is_bh(work))
		WARN_ON_ONCE(irqkit_in_hardirq());
	else
		might_sleep();
	ret = grab_pending(work, dwork);		/* now ours: new queueing fails */
	if (!waits_for_itself(work, dwork ? "cancel_delayed_work_sync" : "cancel_work_sync"))
		wait_running(work, "cancel_work_sync");
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
	if (!clear_pending_if_disabled(&dwork->work))
		__queue_delayed_work(cpu, wq, dwork, delay);
	return ret;
}

bool irqkit_mod_delayed_work(struct irqkit_workqueue *wq, struct irqkit_delayed_work *dwork,
			     unsigned long delay)
{
	return irqkit_mod_delayed_work_on(IRQKIT_WORK_CPU_UNBOUND, wq, dwork, delay);
}

/* ---- disabling (Linux 6.10) ------------------------------------------------------------------ */

/*
 * Cancel a pending instance and move the disable count by @delta (+1, -1),
 * PENDING held meanwhile, so that a queue_work that takes PENDING after
 * sees the new count.  Any context.  Return: whether an instance was
 * pending; *@count the count after.
 */
static bool cancel_and_count(struct irqkit_work *work, struct irqkit_delayed_work *dwork,
			     int delta, unsigned long *count)
{
	bool ret = grab_pending(work, dwork);
	unsigned long n = (work_data(work) & IRQKIT_WORK_DISABLE_MASK) >> IRQKIT_WORK_DISABLE_SHIFT;

	if (delta > 0 && !WARN_ONCE(n == IRQKIT_WORK_DISABLE_MAX,
				    "workqueue: work disable count overflowed")) {
		a_fetch_add(&work->data, IRQKIT_WORK_DISABLE_ONE);
		n++;
	} else if (delta < 0 && !WARN_ONCE(n == 0, "workqueue: work disable count underflowed")) {
		a_fetch_sub(&work->data, IRQKIT_WORK_DISABLE_ONE);
		n--;
	}
	clear_pending(work);
	*count = n;
	return ret;
}

/* Did @work last run, or is it queued, on a BH queue (in this run)? */
static bool work_is_bh(const struct irqkit_work *work)
{
	const struct irqkit_pwq *pwq = work_pwq(work);

	return pwq && pwq->pool->bh;
}

static bool disable_sync(struct irqkit_work *work, struct irqkit_delayed_work *dwork,
			 const char *what)
{
	unsigned long count;
	bool ret;

	if (work_is_bh(work))
		WARN_ON_ONCE(irqkit_in_hardirq());
	else
		might_sleep();
	ret = cancel_and_count(work, dwork, 1, &count);
	if (!waits_for_itself(work, what))
		wait_running(work, what);
	return ret;
}

bool irqkit_disable_work(struct irqkit_work *work)
{
	unsigned long count;

	return cancel_and_count(work, NULL, 1, &count);
}

bool irqkit_disable_work_sync(struct irqkit_work *work)
{
	return disable_sync(work, NULL, "disable_work_sync");
}

bool irqkit_enable_work(struct irqkit_work *work)
{
	unsigned long count;

	(void)cancel_and_count(work, NULL, -1, &count);
	return count == 0;
}

bool irqkit_disable_delayed_work(struct irqkit_delayed_work *dwork)
{
	unsigned long count;

	return cancel_and_count(&dwork->work, dwork, 1, &count);
}

bool irqkit_disable_delayed_work_sync(struct irqkit_delayed_work *dwork)
{
	return disable_sync(&dwork->work, dwork, "disable_delayed_work_sync");
}

bool irqkit_enable_delayed_work(struct irqkit_delayed_work *dwork)
{
	return irqkit_enable_work(&dwork->work);
}

bool irqkit_enable_and_queue_work(struct irqkit_workqueue *wq, struct irqkit_work *work)
{
	if (!irqkit_enable_work(work))
		return false;
	(void)queue_work_at(IRQKIT_WORK_CPU_UNBOUND, wq, work, __builtin_return_address(0));
	return true;
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
		irqkit__incoming_splice(pwq->pool);
		if (READ_ONCE(work->pwq) != pwq) {	/* moved meanwhile: again */
			irqkit_spin_unlock_irq(&pwq->pool->lock);
			continue;
		}
		queued = work->where != WORK_ON_NONE;
		if (!queued)
			w = irqkit__find_worker_executing(pwq->pool, work);
		if (queued || w) {
			req.target = queued ? READ_ONCE(work->queued) : w->current_seq;
			add_req(&req);
		}
		irqkit_spin_unlock_irq(&pwq->pool->lock);
		if (!queued && !w)
			return false;
		wait_req(&req, "flush_work", pwq->pool->bh);
		return true;
	}
}

bool irqkit_flush_delayed_work(struct irqkit_delayed_work *dwork)
{
	if (irqkit_del_timer(&dwork->timer))
		__queue_work(dwork->cpu, dwork->wq, &dwork->work);
	return irqkit_flush_work(&dwork->work);
}

/* flush_workqueue.  Return: false if it gave up (a BH queue the player cannot run). */
static bool flush_wq(struct irqkit_workqueue *wq)
{
	unsigned int old;
	bool self, done = true;

	might_sleep();
	if (!wq)
		return true;
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
			return true;
	}
	irqkit__mutex_lock(&wq->flush_mutex);
	/* items queued before this call take the old colour, then the flip */
	wq_in_flight(wq, 0);
	old = a_load_seq(&wq->color);
	a_store_seq(&wq->flushing, 1);
	a_store_seq(&wq->color, old ^ 1);
	if ((wq->flags & IRQKIT_WQ_BH) && irqkit__det_player()) {
		/* a BH queue's items, in deterministic mode: the player runs them */
		done = player_waits_for_bh(wq_in_flight(wq, old) <= 0, "flush_workqueue");
	} else {
		/* the caller's own item, of the old colour, is not waited for */
		irqkit__seq_wait_event(&wq->flush_seq,
				       wq_in_flight(wq, old) -
				       (self && current_wq_worker()->current->color == old) <= 0,
				       "flush_workqueue", WAIT_WORKQUEUE, wq->name, 0);
	}
	a_store_seq(&wq->flushing, 0);
	irqkit__mutex_unlock(&wq->flush_mutex);
	return done;
}

void irqkit_flush_workqueue(struct irqkit_workqueue *wq)
{
	(void)flush_wq(wq);
}

void irqkit_drain_workqueue(struct irqkit_workqueue *wq)
{
	unsigned int tries = 0;

	might_sleep();
	if (!wq)
		return;
	WRITE_ONCE(wq->draining, true);
	for (;;) {
		if (!flush_wq(wq))
			break;		/* reported: nothing can run its BH items */
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
	irqkit_flush_workqueue(irqkit__wq.system_wq);
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
	bool bh = flags & IRQKIT_WQ_BH;

	if (!irqkit__wq.pools)
		return NULL;
	wq = irqkit_plat_alloc(sizeof(*wq));
	if (!wq)
		return NULL;
	irqkit__snprintf(wq->name, sizeof(wq->name), "%s", name);
	wq->flags = flags;
	/* a BH queue shares its CPU's one softirq context: no max_active to keep */
	wq->max_active = bh ? __INT_MAX__ : clamp_max_active(max_active, wq->name);
	wq->nr_pwqs = unbound ? 1 : irqkit__rt.nr_cpus;
	wq->pwqs = irqkit_plat_alloc(sizeof(*wq->pwqs) * wq->nr_pwqs);
	if (!wq->pwqs) {
		irqkit_plat_free(wq, sizeof(*wq));
		return NULL;
	}
	for (unsigned int i = 0; i < wq->nr_pwqs; i++) {
		struct irqkit_pwq *pwq = &wq->pwqs[i];

		pwq->pool = unbound ? irqkit__unbound_pool(highpri) :
			    bh ? irqkit__bh_pool(i, highpri) : irqkit__cpu_pool(i, highpri);
		pwq->wq = wq;
		pwq->max_active = wq->max_active;
		pwq->inactive_tail = &pwq->inactive_head;
		if (irqkit__pool_ensure_worker(pwq->pool)) {
			irqkit_plat_free(wq->pwqs, sizeof(*wq->pwqs) * wq->nr_pwqs);
			irqkit_plat_free(wq, sizeof(*wq));
			return NULL;
		}
	}
	irqkit__mutex_lock(&irqkit__wq.all_lock);
	wq->next = irqkit__wq.all;
	irqkit__wq.all = wq;
	irqkit__mutex_unlock(&irqkit__wq.all_lock);
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
	/* Linux's rules for WQ_BH, with its warnings */
	if (flags & IRQKIT_WQ_BH) {
		if (WARN_ON_ONCE(flags & ~IRQKIT__WQ_BH_ALLOWS))
			return NULL;
		if (WARN_ON_ONCE(max_active))
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
	flags |= IRQKIT_WQ_UNBOUND | IRQKIT__WQ_ORDERED;
	if ((flags & IRQKIT_WQ_BH) && WARN_ON_ONCE(flags & ~IRQKIT__WQ_BH_ALLOWS))
		return NULL;
	va_start(ap, flags);
	irqkit__vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	return alloc_wq(name, flags, 1);
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
	irqkit__mutex_lock(&irqkit__wq.all_lock);
	for (struct irqkit_workqueue *wq = irqkit__wq.all; wq; wq = wq->next)
		fn(wq, wq->name, arg);
	irqkit__mutex_unlock(&irqkit__wq.all_lock);
}

void irqkit__wq_hist_clear(void)
{
	irqkit__mutex_lock(&irqkit__wq.all_lock);
	for (struct irqkit_workqueue *wq = irqkit__wq.all; wq; wq = wq->next)
		irqkit__hist_clear(wq->hist, 3);
	irqkit__mutex_unlock(&irqkit__wq.all_lock);
}

struct irqkit_workqueue *irqkit_system_wq(void)
{
	return irqkit__wq.system_wq;
}

struct irqkit_workqueue *irqkit_system_highpri_wq(void)
{
	return irqkit__wq.system_highpri_wq;
}

struct irqkit_workqueue *irqkit_system_unbound_wq(void)
{
	return irqkit__wq.system_unbound_wq;
}

struct irqkit_workqueue *irqkit_system_bh_wq(void)
{
	return irqkit__wq.system_bh_wq;
}

struct irqkit_workqueue *irqkit_system_bh_highpri_wq(void)
{
	return irqkit__wq.system_bh_highpri_wq;
}

/* ---- start and stop ------------------------------------------------------------------------- */

int irqkit__workqueue_init(void)
{
	int ret = irqkit__pools_init();

	if (ret)
		return ret;
	irqkit__wq.system_wq = alloc_wq("events", 0, 0);
	irqkit__wq.system_highpri_wq = alloc_wq("events_highpri", IRQKIT_WQ_HIGHPRI, 0);
	irqkit__wq.system_unbound_wq = alloc_wq("events_unbound", IRQKIT_WQ_UNBOUND, 0);
	irqkit__wq.system_bh_wq = alloc_wq("events_bh", IRQKIT_WQ_BH, 0);
	irqkit__wq.system_bh_highpri_wq = alloc_wq("events_bh_highpri",
						   IRQKIT_WQ_BH | IRQKIT_WQ_HIGHPRI, 0);
	if (!irqkit__wq.system_wq || !irqkit__wq.system_highpri_wq || !irqkit__wq.system_unbound_wq ||
	    !irqkit__wq.system_bh_wq || !irqkit__wq.system_bh_highpri_wq) {
		irqkit__workqueue_exit();
		return -IRQKIT_ENOMEM;
	}
	return 0;
}

/* An item still queued when the runtime stops: idle again, as tasklets and timers are. */
void irqkit__drop_at_stop(struct irqkit_work *work)
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

/*
 * The first half of stop, while softirqs still run: every kworker finishes
 * the item it runs and ends (a worker being started is waited for and
 * joined too).  BH items go on running until the softirqs stop.
 */
void irqkit__workqueue_stop(void)
{
	if (!irqkit__wq.pools || irqkit__wq.stopped)
		return;
	irqkit__pools_stop();
	irqkit__wq.stopped = true;
}

/*
 * The second half, once no softirq runs and the CPUs' tasklet and irq_work
 * lists are dropped (a BH pool's tasklet is on them): drop what is still
 * queued, free pools and queues.
 */
void irqkit__workqueue_exit(void)
{
	if (!irqkit__wq.pools)
		return;
	irqkit__workqueue_stop();
	irqkit__pools_free();		/* the pools' items first: their pwqs are the queues' */
	while (irqkit__wq.all) {
		struct irqkit_workqueue *wq = irqkit__wq.all;

		irqkit__wq.all = wq->next;
		for (unsigned int i = 0; i < wq->nr_pwqs; i++)
			irqkit__drop_at_stop(wq->pwqs[i].inactive_head);
		irqkit_plat_free(wq->pwqs, sizeof(*wq->pwqs) * wq->nr_pwqs);
		irqkit_plat_free(wq, sizeof(*wq));
	}
	irqkit__wq = (struct irqkit__wq_rt){ 0 };
}

