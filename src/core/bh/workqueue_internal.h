/* SPDX-License-Identifier: MIT */
/*
 * What the two halves of the work queues share (Linux keeps the same in
 * kernel/workqueue_internal.h): the pool_workqueue, the worker and the
 * pool, the queues' bookkeeping, the item's state word, and the calls
 * between workqueue.c (the items' API: queue, cancel, flush; the queues)
 * and worker.c (the pools and their kworkers).
 */
#ifndef IRQKIT_CORE_BH_WORKQUEUE_INTERNAL_H
#define IRQKIT_CORE_BH_WORKQUEUE_INTERNAL_H

#include "core.h"
#include "cpu.h"
#include "debug/debug.h"
#include <irqkit/workqueue.h>
#include <irqkit/softirq.h>
#include <irqkit/irq_work.h>

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
	/*
	 * A BH pool (WQ_BH): no threads; its items run in its CPU's softirq
	 * (TASKLET, or HI when highpri) from bh_tasklet, which a queue_work on
	 * the CPU schedules and bh_kick, an irq_work, schedules from another.
	 */
	bool			bh;
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
	struct irqkit_tasklet	bh_tasklet;
	struct irqkit_irq_work	bh_kick;
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

struct irqkit__wq_rt {
	struct irqkit_wq_pool	*pools;		/* [cpu * 2 + highpri], then 2 unbound */
	unsigned int		nr_pools;
	struct irqkit_workqueue	*all;
	unsigned int		all_lock;	/* mutex over `all` */
	struct irqkit_spinlock	flush_lock;
	struct flush_req	*reqs;
	unsigned int		nr_reqs;
	struct irqkit_workqueue	*system_wq, *system_highpri_wq, *system_unbound_wq;
	struct irqkit_workqueue	*system_bh_wq, *system_bh_highpri_wq;
	bool			stopped;	/* irqkit__workqueue_stop() ran */
};
HIDDEN extern struct irqkit__wq_rt irqkit__wq;


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
 * The caller owns PENDING: if the item is disabled, let it go (Linux's
 * clear_pending_if_disabled).  Return: whether it was disabled.
 */
static inline bool clear_pending_if_disabled(struct irqkit_work *work)
{
	if (likely(!(work_data(work) & IRQKIT_WORK_DISABLE_MASK)))
		return false;
	clear_pending(work);
	return true;
}

/*
 * The pool_workqueue @work was last queued on, or NULL.  An item outlives
 * runs of the runtime (it is the caller's memory), its pwq does not: the
 * pointer counts only in the run that wrote it.  Any context.
 */
static inline struct irqkit_pwq *work_pwq(const struct irqkit_work *work)
{
	if (a_load_acquire(&work->run) != READ_ONCE(irqkit__run))
		return NULL;
	return READ_ONCE(work->pwq);
}

/* The owner of PENDING, before the item is on a list: the pointer, then its run (release). */
static inline void set_work_pwq(struct irqkit_work *work, struct irqkit_pwq *pwq)
{
	WRITE_ONCE(work->pwq, pwq);
	a_store_release(&work->run, READ_ONCE(irqkit__run));
}

static inline void list_append(struct irqkit_work ***tail, struct irqkit_work *work)
{
	work->next = NULL;
	**tail = work;
	*tail = &work->next;
}

/* Unlink @work from the list at @head/@tail.  Return: whether it was there. */
static inline bool list_remove(struct irqkit_work **head, struct irqkit_work ***tail,
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

static inline struct irqkit_work *list_pop(struct irqkit_work **head, struct irqkit_work ***tail)
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

/*
 * Push @work, whose PENDING the caller owns, on @pool's incoming list.  No
 * lock: @work is on no other list, and nobody else writes its link while it
 * is PENDING.  Any context.
 * Return: whether the list was empty, so the push must see that a worker
 * comes for it (queue_work_wake); a push on a non-empty list joins the items
 * someone already comes for.
 */
static inline bool incoming_push(struct irqkit_wq_pool *pool, struct irqkit_work *work)
{
	struct irqkit_work *head = READ_ONCE(pool->incoming);

	do
		work->next = head;
	while (!a_cas(&pool->incoming, &head, work));
	return !head;
}

/* worker.c */
HIDDEN void irqkit__pwq_dec_in_flight(struct irqkit_pwq *pwq, unsigned int color);
HIDDEN void irqkit__pwq_dec_active(struct irqkit_pwq *pwq, bool kick);
HIDDEN void irqkit__incoming_splice(struct irqkit_wq_pool *pool);
HIDDEN void irqkit__queue_work_wake(struct irqkit_wq_pool *pool);
HIDDEN struct irqkit_worker *irqkit__find_worker_executing(struct irqkit_wq_pool *pool,
							   const struct irqkit_work *work);
HIDDEN int irqkit__pool_ensure_worker(struct irqkit_wq_pool *pool);
HIDDEN struct irqkit_wq_pool *irqkit__cpu_pool(unsigned int cpu, bool highpri);
HIDDEN struct irqkit_wq_pool *irqkit__unbound_pool(bool highpri);
HIDDEN struct irqkit_wq_pool *irqkit__bh_pool(unsigned int cpu, bool highpri);
HIDDEN int irqkit__pools_init(void);
HIDDEN void irqkit__pools_stop(void);
HIDDEN void irqkit__pools_free(void);

/* workqueue.c */
HIDDEN void irqkit__complete_instance(const struct irqkit_work *work, unsigned long seq);
HIDDEN void irqkit__drop_at_stop(struct irqkit_work *work);

#endif /* IRQKIT_CORE_BH_WORKQUEUE_INTERNAL_H */
