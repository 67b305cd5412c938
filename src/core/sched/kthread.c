// SPDX-License-Identifier: MIT
/*
 * Kernel threads (Linux's kernel/kthread.c as drivers use it): a thread made
 * through the port's thread hook, created asleep; woken, it runs its
 * function; kthread_stop() asks it to end and joins it.  The record of a
 * kthread (Linux's struct kthread) hangs off its task, so the calls a
 * kthread makes about itself find it through the current task; the calls
 * about another kthread find it by its task pointer on a list, never by
 * reading the task, so a pointer to a thread that is gone is reported, not
 * followed.  Records of joined kthreads stay on a short list so that a
 * second kthread_stop() has an answer.
 */
#include "core.h"
#include "cpu.h"
#include "sched.h"
#include "debug/debug.h"
#include "irq/internals.h"
#include <irqkit/kthread.h>
#include <irqkit/proc.h>
#include <irqkit/cpu.h>

enum {
	KT_CREATED	= 1u << 0,	/* the thread runs and sleeps until its first wake-up */
	KT_WOKEN	= 1u << 1,	/* it passed that sleep: too late to bind */
	KT_SHOULD_STOP	= 1u << 2,
	KT_SHOULD_PARK	= 1u << 3,
	KT_PARKED	= 1u << 4,
	KT_EXITED	= 1u << 5,	/* the function returned, or never ran */
	KT_STOPPING	= 1u << 6,	/* a kthread_stop() (or the runtime's stop) owns the join */
	KT_JOINED	= 1u << 7,	/* joined: the task's memory is gone */
	KT_LEFT		= 1u << 8,	/* the runtime's stop gave up on it: never joined */
};

struct irqkit__kthread {
	struct irqkit_list_head		node;		/* kt_lock: on kt_live until joined */
	struct irqkit_task		*task;		/* the thread's task, until joined */
	struct irqkit_plat_thread	*thread;
	int				(*threadfn)(void *data);
	void				*data;
	int				result;		/* valid once KT_EXITED */
	int				cpu;		/* bound CPU, or -1 */
	int				pid;
	unsigned int			flags;		/* KT_* */
	unsigned int			seq;		/* event count of the flags' changes */
	unsigned int			users;		/* kt_lock: callers holding it (kt_get) */
	char				comm[16];
};

/* What a second kthread_stop() needs of a joined kthread (its record is freed). */
struct kt_done {
	const struct irqkit_task	*task;
	int				result;
	char				comm[16];
};
#define KT_DONE_KEPT	32

static struct irqkit_spinlock kt_lock = IRQKIT_SPINLOCK_INIT;
static struct irqkit_list_head kt_live = IRQKIT_LIST_HEAD_INIT(kt_live);	/* not joined */
static struct kt_done kt_done[KT_DONE_KEPT];	/* kt_lock: a ring, the newest at kt_done_next - 1 */
static unsigned int kt_done_next;
static unsigned int kt_creating;	/* kt_lock: creations under way */
static unsigned int kt_closed_run;	/* kt_lock: the run whose stop refuses new kthreads */
static unsigned int kt_seq;		/* event count: a creation ended, a user let go */

static void kt_set(struct irqkit__kthread *kt, unsigned int bits)
{
	a_fetch_or(&kt->flags, bits);
	irqkit__seq_wake(&kt->seq);
}

static bool kt_has(const struct irqkit__kthread *kt, unsigned int bits)
{
	return a_load_seq(&kt->flags) & bits;
}

/*
 * The record of live kthread @k, held (kt_put() lets go: it is freed only
 * once nobody holds it), or NULL.  @k is compared, never read.
 */
static struct irqkit__kthread *kt_get(const struct irqkit_task *k)
{
	struct irqkit__kthread *found = NULL;

	irqkit_spin_lock(&kt_lock);
	for (struct irqkit_list_head *pos = kt_live.next; pos != &kt_live; pos = pos->next) {
		struct irqkit__kthread *kt = container_of(pos, struct irqkit__kthread, node);

		if (kt->task == k) {
			found = kt;
			found->users++;
			break;
		}
	}
	irqkit_spin_unlock(&kt_lock);
	return found;
}

static void kt_put(struct irqkit__kthread *kt)
{
	irqkit_spin_lock(&kt_lock);
	kt->users--;
	irqkit_spin_unlock(&kt_lock);
	irqkit__seq_wake(&kt_seq);
}

/* A count kept under kt_lock (users, creations), read for a wait's condition. */
static unsigned int kt_count(const unsigned int *count)
{
	unsigned int n;

	irqkit_spin_lock(&kt_lock);
	n = *count;
	irqkit_spin_unlock(&kt_lock);
	return n;
}

/* A joined kthread @k, newest first: its result and name into @out.  Return: found? */
static bool kt_find_done(const struct irqkit_task *k, struct kt_done *out)
{
	bool found = false;

	irqkit_spin_lock(&kt_lock);
	for (unsigned int i = 1; i <= KT_DONE_KEPT && !found; i++) {
		const struct kt_done *d = &kt_done[(kt_done_next - i) % KT_DONE_KEPT];

		if (d->task && d->task == k) {
			*out = *d;
			found = true;
		}
	}
	irqkit_spin_unlock(&kt_lock);
	return found;
}

/* The calling task's record, or NULL with a report naming @what (once per thread). */
static struct irqkit__kthread *kt_self(const char *what)
{
	static int warned_tid;
	struct irqkit_task *t = irqkit_arch_current();
	int tid;

	if (likely(t->kthread_rec))
		return t->kthread_rec;
	tid = irqkit_plat_thread_id();
	if (READ_ONCE(warned_tid) != tid) {
		WRITE_ONCE(warned_tid, tid);
		irqkit__warn(__FILE__, __LINE__, "%s() called from a task that is not a kthread: false",
			     what);
	}
	return NULL;
}

/*
 * Wait until @kt has one of @bits, at most @limit_ns (0: no limit).  The
 * watchdog sees the wait.  Return: true when it came, false at the limit.
 */
static bool kt_wait(struct irqkit__kthread *kt, unsigned int bits, const char *what,
		    uint64_t limit_ns)
{
	uint64_t end = limit_ns ? irqkit_plat_now_ns() + limit_ns : 0;
	struct irqkit__wait w;

	irqkit__wait_init(&w);
	for (;;) {
		unsigned int seen = a_load_seq(&kt->seq);
		uint64_t now;

		if (kt_has(kt, bits))
			break;
		irqkit__wait_begin(&w, what, WAIT_KTHREAD, kt->comm, 0);
		if (!limit_ns) {
			irqkit_plat_wait(&kt->seq, seen);
			continue;
		}
		now = irqkit_plat_now_ns();
		if (now >= end)
			break;
		irqkit_plat_wait_timeout(&kt->seq, seen, end - now);
	}
	irqkit__wait_end(&w);
	return kt_has(kt, bits);
}

/* Linux's __kthread_parkme: sleep in TASK_PARKED while asked to park. */
static void kt_parkme(struct irqkit__kthread *kt)
{
	for (;;) {
		irqkit_set_current_state(IRQKIT_TASK_PARKED);
		if (!kt_has(kt, KT_SHOULD_PARK))
			break;
		if (!kt_has(kt, KT_PARKED))
			kt_set(kt, KT_PARKED);
		irqkit_schedule();
	}
	irqkit___set_current_state(IRQKIT_TASK_RUNNING);
}

static void kthread_main(void *arg)
{
	struct irqkit__kthread *kt = arg;
	struct irqkit_task *t = irqkit_arch_current();
	bool bound = false;
	int ret = -IRQKIT_EINTR;

	t->kthread_rec = kt;
	__builtin_memcpy(t->comm, kt->comm, sizeof(t->comm));
	kt->pid = irqkit_plat_thread_id();
	WRITE_ONCE(t->pid, kt->pid);
	irqkit__task_register(t);	/* signals find it; it leaves the list when the thread ends */
	WRITE_ONCE(kt->task, t);
	/* as Linux's kthread(): asleep, uninterruptibly, until the first wake-up */
	irqkit___set_current_state(IRQKIT_TASK_UNINTERRUPTIBLE);
	kt_set(kt, KT_CREATED);
	irqkit_schedule();
	kt_set(kt, KT_WOKEN);
	if (!kt_has(kt, KT_SHOULD_STOP)) {
		int cpu = READ_ONCE(kt->cpu);

		if (cpu >= 0) {
			bound = !irqkit_thread_bind((unsigned int)cpu);
			if (!bound)
				pr_warn("kthread %s: CPU%d is gone; running unbound", kt->comm, cpu);
		}
		kt_parkme(kt);
		ret = kt->threadfn(kt->data);
	}
	if (t->preempt_count || task_irqs_off(t))
		pr_err("note: %s[%d] exited with preempt_count %u%s", kt->comm, kt->pid,
		       t->preempt_count, task_irqs_off(t) ? " and interrupts off" : "");
	if (bound && irqkit_thread_unbind())
		pr_err("kthread %s: still atomic at exit; its CPU binding is left", kt->comm);
	kt->result = ret;
	irqkit___set_current_state(IRQKIT_TASK_DEAD);
	/* from here kthread_stop() may join the thread: nothing of @kt is touched */
	kt_set(kt, KT_EXITED);
}

static struct irqkit_task *kt_create(int (*threadfn)(void *data), void *data, int cpu,
				     const char *namefmt, va_list ap)
{
	struct irqkit__kthread *kt;
	unsigned int run;
	int ret;

	might_sleep();
	if (!threadfn || !namefmt)
		return (struct irqkit_task *)(long)-IRQKIT_EINVAL;
	irqkit_spin_lock(&kt_lock);
	run = READ_ONCE(irqkit__run);
	ret = irqkit_started() && kt_closed_run != run ? 0 : -IRQKIT_EINVAL;
	if (!ret)
		kt_creating++;
	irqkit_spin_unlock(&kt_lock);
	if (ret) {
		pr_err("kthread_create(%s): the runtime is not started", namefmt);
		return (struct irqkit_task *)(long)ret;
	}
	kt = irqkit_plat_alloc(sizeof(*kt));
	if (kt) {
		kt->threadfn = threadfn;
		kt->data = data;
		kt->cpu = cpu;
		ilist_init(&kt->node);
		irqkit__vsnprintf(kt->comm, sizeof(kt->comm), namefmt, ap);
		ret = irqkit_plat_thread_create(&kt->thread, kt->comm, kthread_main, kt);
		if (!ret)
			(void)kt_wait(kt, KT_CREATED, "kthread_create", 0);
	} else {
		ret = -IRQKIT_ENOMEM;
	}
	irqkit_spin_lock(&kt_lock);
	if (!ret)
		ilist_add_tail(&kt->node, &kt_live);
	kt_creating--;
	irqkit_spin_unlock(&kt_lock);
	irqkit__seq_wake(&kt_seq);
	if (ret) {
		if (kt)
			irqkit_plat_free(kt, sizeof(*kt));
		return (struct irqkit_task *)(long)ret;
	}
	return kt->task;
}

struct irqkit_task *irqkit_kthread_create(int (*threadfn)(void *data), void *data,
					  const char *namefmt, ...)
{
	struct irqkit_task *k;
	va_list ap;

	va_start(ap, namefmt);
	k = kt_create(threadfn, data, -1, namefmt, ap);
	va_end(ap);
	return k;
}

static struct irqkit_task *kt_create_on_cpu(int (*threadfn)(void *data), void *data,
					    unsigned int cpu, const char *namefmt, ...)
{
	struct irqkit_task *k;
	va_list ap;

	va_start(ap, namefmt);
	k = kt_create(threadfn, data, (int)cpu, namefmt, ap);
	va_end(ap);
	return k;
}

struct irqkit_task *irqkit_kthread_create_on_cpu(int (*threadfn)(void *data), void *data,
						 unsigned int cpu, const char *namefmt)
{
	if (!irqkit_cpu_online(cpu)) {
		pr_err("kthread_create_on_cpu(%s, %u): CPU%u is not online", namefmt ? namefmt : "",
		       cpu, cpu);
		return (struct irqkit_task *)(long)-IRQKIT_EINVAL;
	}
	return kt_create_on_cpu(threadfn, data, cpu, namefmt, cpu);
}

void irqkit_kthread_bind(struct irqkit_task *k, unsigned int cpu)
{
	struct irqkit__kthread *kt = kt_get(k);

	if (WARN(!kt, "kthread_bind(%p): not a kthread", (void *)k))
		return;
	if (!WARN(!irqkit_cpu_online(cpu), "kthread_bind(%s, %u): CPU%u is not online", kt->comm,
		  cpu, cpu) &&
	    /* Linux's wait_task_inactive() fails on a task that runs: so does this */
	    !WARN(kt_has(kt, KT_WOKEN), "kthread_bind(%s, %u): the kthread runs already",
		  kt->comm, cpu))
		WRITE_ONCE(kt->cpu, (int)cpu);
	kt_put(kt);
}

/*
 * @kt is joined: off the live list (no kt_get() finds it), its answer kept
 * for a second kthread_stop(), freed once its last holder other than the
 * caller (who holds it too) lets go.
 */
static void kt_retire(struct irqkit__kthread *kt)
{
	struct kt_done *d;

	irqkit_spin_lock(&kt_lock);
	ilist_del_init(&kt->node);
	d = &kt_done[kt_done_next++ % KT_DONE_KEPT];
	d->task = kt->task;
	d->result = kt->result;
	__builtin_memcpy(d->comm, kt->comm, sizeof(d->comm));
	irqkit_spin_unlock(&kt_lock);
	irqkit__seq_wait_event(&kt_seq, kt_count(&kt->users) <= 1, "kthread_stop", WAIT_KTHREAD,
			       kt->comm, 0);
	irqkit_plat_free(kt, sizeof(*kt));
}

/*
 * Stop and join @kt, which the caller claimed (KT_STOPPING) and holds,
 * waiting at most @limit_ns (0: for ever).  Once joined the record is
 * freed (the caller's hold with it) and its result is put in *@result.
 * Return: true once joined; false at the limit (the caller still holds it).
 */
static bool kt_stop_claimed(struct irqkit__kthread *kt, uint64_t limit_ns, int *result)
{
	struct irqkit_task *k = kt->task;

	a_fetch_and(&kt->flags, ~(unsigned int)KT_SHOULD_PARK);
	kt_set(kt, KT_SHOULD_STOP);
	if (!kt_has(kt, KT_EXITED)) {
		/*
		 * a parked, a sleeping and a never-woken kthread all wake to see
		 * it, and its interruptible sleeps end from now on (TIF_NOTIFY_SIGNAL)
		 */
		irqkit__signal_notify(k);
		irqkit_wake_up_state(k, IRQKIT_TASK_NORMAL | IRQKIT_TASK_PARKED);
	}
	if (!kt_wait(kt, KT_EXITED, "kthread_stop", limit_ns))
		return false;
	irqkit_plat_thread_join(kt->thread);
	kt->thread = NULL;
	*result = kt->result;
	kt_set(kt, KT_JOINED);
	kt_retire(kt);
	return true;
}

int irqkit_kthread_stop(struct irqkit_task *k)
{
	struct irqkit__kthread *kt;
	struct kt_done done;
	int result;

	might_sleep();
	kt = kt_get(k);
	if (kt && k == irqkit_arch_current()) {
		irqkit__warn(__FILE__, __LINE__,
			     "kthread_stop(%s) from the kthread itself: it would wait for itself",
			     kt->comm);
		kt_put(kt);
		return -IRQKIT_EDEADLK;
	}
	if (kt && !(a_fetch_or(&kt->flags, KT_STOPPING) & KT_STOPPING)) {
		/* no limit: it returns only once joined, with the result set */
		if (!kt_stop_claimed(kt, 0, &result))
			return -IRQKIT_EINTR;
		return result;
	}
	if (kt) {
		/* another caller stops it: wait until it is joined, or given up */
		(void)kt_wait(kt, KT_JOINED | KT_LEFT, "kthread_stop", 0);
		kt_put(kt);
	}
	if (kt_find_done(k, &done)) {
		irqkit__warn(__FILE__, __LINE__,
			     "kthread_stop(%s) on a kthread already stopped: its result again (%d)",
			     done.comm, done.result);
		return done.result;
	}
	irqkit__warn(__FILE__, __LINE__, "kthread_stop(%p): %s", (void *)k,
		     kt ? "the runtime's stop left it running" : "not a kthread");
	return kt ? -IRQKIT_EINTR : -IRQKIT_EINVAL;
}

bool irqkit_kthread_should_stop(void)
{
	struct irqkit__kthread *kt = kt_self("kthread_should_stop");

	return kt && kt_has(kt, KT_SHOULD_STOP);
}

bool irqkit_kthread_should_park(void)
{
	struct irqkit__kthread *kt = kt_self("kthread_should_park");

	return kt && kt_has(kt, KT_SHOULD_PARK);
}

void irqkit_kthread_parkme(void)
{
	struct irqkit__kthread *kt = kt_self("kthread_parkme");

	if (kt)
		kt_parkme(kt);
}

int irqkit_kthread_park(struct irqkit_task *k)
{
	struct irqkit__kthread *kt;
	int ret = 0;

	might_sleep();
	kt = kt_get(k);
	if (!kt) {
		irqkit__warn(__FILE__, __LINE__, "kthread_park(%p): not a kthread", (void *)k);
		return -IRQKIT_EINVAL;
	}
	if (kt_has(kt, KT_EXITED | KT_SHOULD_STOP)) {
		ret = -IRQKIT_ENOSYS;
	} else if (a_fetch_or(&kt->flags, KT_SHOULD_PARK) & KT_SHOULD_PARK) {
		irqkit__warn(__FILE__, __LINE__, "kthread_park(%s): asked to park already", kt->comm);
		ret = -IRQKIT_EBUSY;
	} else if (k != irqkit_arch_current()) {
		irqkit_wake_up_process(k);
		(void)kt_wait(kt, KT_PARKED | KT_EXITED, "kthread_park", 0);
		if (!kt_has(kt, KT_PARKED))
			ret = -IRQKIT_ENOSYS;
	}
	kt_put(kt);
	return ret;
}

void irqkit_kthread_unpark(struct irqkit_task *k)
{
	struct irqkit__kthread *kt = kt_get(k);

	if (WARN(!kt, "kthread_unpark(%p): not a kthread", (void *)k))
		return;
	if (a_fetch_and(&kt->flags, ~(unsigned int)(KT_SHOULD_PARK | KT_PARKED)) & KT_SHOULD_PARK)
		if (!kt_has(kt, KT_EXITED))
			irqkit_wake_up_state(k, IRQKIT_TASK_PARKED);
	kt_put(kt);
}

void *irqkit_kthread_data(struct irqkit_task *k)
{
	struct irqkit__kthread *kt = kt_get(k);
	void *data = kt ? kt->data : NULL;

	if (kt)
		kt_put(kt);
	return data;
}

bool irqkit_is_kthread(const struct irqkit_task *k)
{
	struct irqkit__kthread *kt = k ? kt_get(k) : NULL;

	if (kt)
		kt_put(kt);
	return kt;
}

/*
 * irqkit__kthreads_stop_all - the runtime stops: no new kthread, and each
 * one still there is stopped and joined, with a warning; a kthread that
 * does not return within @limit_ns (0: no limit) is reported and left.
 * Context: the stopping thread, process context.
 */
void irqkit__kthreads_stop_all(uint64_t limit_ns)
{
	irqkit_spin_lock(&kt_lock);
	kt_closed_run = READ_ONCE(irqkit__run);
	irqkit_spin_unlock(&kt_lock);
	irqkit__seq_wait_event(&kt_seq, !kt_count(&kt_creating), "irqkit_stop", WAIT_KTHREAD,
			       "(one being created)", 0);
	for (;;) {
		struct irqkit__kthread *kt = NULL, *busy = NULL;
		int result;

		irqkit_spin_lock(&kt_lock);
		for (struct irqkit_list_head *pos = kt_live.next; pos != &kt_live; pos = pos->next) {
			struct irqkit__kthread *c = container_of(pos, struct irqkit__kthread, node);
			unsigned int flags = a_load_seq(&c->flags);

			if (flags & KT_LEFT)
				continue;
			if (!(a_fetch_or(&c->flags, KT_STOPPING) & KT_STOPPING)) {
				kt = c;
				break;
			}
			busy = busy ? busy : c;	/* another caller's kthread_stop() */
		}
		if (!kt)
			kt = busy;
		if (kt)
			kt->users++;
		irqkit_spin_unlock(&kt_lock);
		if (!kt)
			break;
		if (kt == busy) {
			/* its stop ends before ours: wait for it */
			bool ended = kt_wait(kt, KT_JOINED | KT_LEFT, "irqkit_stop", limit_ns);

			if (!ended)
				kt_set(kt, KT_LEFT);
			kt_put(kt);
			continue;
		}
		if (!kt_has(kt, KT_EXITED))
			irqkit__warn(__FILE__, __LINE__,
				     "irqkit_stop(): kthread %s/%d still running: stopping it",
				     kt->comm, kt->pid);
		if (kt_stop_claimed(kt, limit_ns, &result))
			continue;
		pr_err("irqkit_stop(): kthread %s/%d did not return within %llu ms: left running, not joined",
		       kt->comm, kt->pid, (unsigned long long)(limit_ns / 1000000));
		kt_set(kt, KT_LEFT);
		kt_put(kt);
	}
}

/* ---- kthread workers ----------------------------------------------------------------- */

void irqkit_kthread_init_worker(struct irqkit_kthread_worker *worker)
{
	*worker = (struct irqkit_kthread_worker){ .lock = IRQKIT_SPINLOCK_INIT };
	ilist_init(&worker->work_list);
}

void irqkit_kthread_init_work(struct irqkit_kthread_work *work, irqkit_kthread_work_func_t fn)
{
	*work = (struct irqkit_kthread_work){ .func = fn };
	ilist_init(&work->node);
}

int irqkit_kthread_worker_fn(void *worker_ptr)
{
	struct irqkit_kthread_worker *worker = worker_ptr;
	struct irqkit_task *self = irqkit_current();
	unsigned long flags;

	flags = irqkit_spin_lock_irqsave(&worker->lock);
	WARN(worker->task && worker->task != self, "kthread_worker_fn: the worker has a task");
	worker->task = self;
	irqkit_spin_unlock_irqrestore(&worker->lock, flags);
	for (;;) {
		struct irqkit_kthread_work *work = NULL;

		irqkit_set_current_state(IRQKIT_TASK_INTERRUPTIBLE);
		if (irqkit_kthread_should_stop()) {
			irqkit___set_current_state(IRQKIT_TASK_RUNNING);
			flags = irqkit_spin_lock_irqsave(&worker->lock);
			worker->task = NULL;
			irqkit_spin_unlock_irqrestore(&worker->lock, flags);
			return 0;
		}
		flags = irqkit_spin_lock_irqsave(&worker->lock);
		if (!ilist_empty(&worker->work_list)) {
			work = container_of(worker->work_list.next, struct irqkit_kthread_work, node);
			ilist_del_init(&work->node);
		}
		worker->current_work = work;
		irqkit_spin_unlock_irqrestore(&worker->lock, flags);
		if (work) {
			irqkit___set_current_state(IRQKIT_TASK_RUNNING);
			work->func(work);
			/* the item may be freed or queued again by now: only the worker is read */
		} else {
			irqkit_schedule();
		}
	}
}

/* Queue @work before @pos, under @worker's lock; wake the worker if it waits. */
static void kt_insert_work(struct irqkit_kthread_worker *worker, struct irqkit_kthread_work *work,
			   struct irqkit_list_head *pos)
{
	ilist_insert(&work->node, pos->prev, pos);
	work->worker = worker;
	if (!worker->current_work && worker->task)
		irqkit_wake_up_process(worker->task);
}

bool irqkit_kthread_queue_work(struct irqkit_kthread_worker *worker,
			       struct irqkit_kthread_work *work)
{
	unsigned long flags;
	bool queued = false;

	flags = irqkit_spin_lock_irqsave(&worker->lock);
	if (ilist_empty(&work->node) && !work->canceling) {
		kt_insert_work(worker, work, &worker->work_list);
		queued = true;
	}
	irqkit_spin_unlock_irqrestore(&worker->lock, flags);
	return queued;
}

struct kt_flush_work {
	struct irqkit_kthread_work	work;
	struct irqkit_completion	done;
};

static void kt_flush_work_fn(struct irqkit_kthread_work *work)
{
	irqkit_complete(&container_of(work, struct kt_flush_work, work)->done);
}

void irqkit_kthread_flush_work(struct irqkit_kthread_work *work)
{
	struct kt_flush_work fwork;
	struct irqkit_kthread_worker *worker = READ_ONCE(work->worker);
	unsigned long flags;
	bool noop = false;

	might_sleep();
	if (!worker)
		return;
	irqkit_kthread_init_work(&fwork.work, kt_flush_work_fn);
	irqkit_init_completion(&fwork.done);
	flags = irqkit_spin_lock_irqsave(&worker->lock);
	if (!ilist_empty(&work->node))
		kt_insert_work(worker, &fwork.work, work->node.next);	/* right after it */
	else if (worker->current_work == work)
		kt_insert_work(worker, &fwork.work, worker->work_list.next);	/* next to run */
	else
		noop = true;
	irqkit_spin_unlock_irqrestore(&worker->lock, flags);
	if (!noop)
		irqkit_wait_for_completion(&fwork.done);
}

void irqkit_kthread_flush_worker(struct irqkit_kthread_worker *worker)
{
	struct kt_flush_work fwork;

	might_sleep();
	irqkit_kthread_init_work(&fwork.work, kt_flush_work_fn);
	irqkit_init_completion(&fwork.done);
	irqkit_kthread_queue_work(worker, &fwork.work);
	irqkit_wait_for_completion(&fwork.done);
}

bool irqkit_kthread_cancel_work_sync(struct irqkit_kthread_work *work)
{
	struct irqkit_kthread_worker *worker = READ_ONCE(work->worker);
	unsigned long flags;
	bool was_queued;

	might_sleep();
	if (!worker)
		return false;
	flags = irqkit_spin_lock_irqsave(&worker->lock);
	was_queued = !ilist_empty(&work->node);
	if (was_queued)
		ilist_del_init(&work->node);
	if (worker->current_work == work) {
		/* queueing fails meanwhile, so the run under way is the last */
		work->canceling++;
		irqkit_spin_unlock_irqrestore(&worker->lock, flags);
		irqkit_kthread_flush_work(work);
		flags = irqkit_spin_lock_irqsave(&worker->lock);
		work->canceling--;
	}
	irqkit_spin_unlock_irqrestore(&worker->lock, flags);
	return was_queued;
}

static struct irqkit_kthread_worker *kt_create_worker(int cpu, const char *namefmt, va_list ap)
{
	struct irqkit_kthread_worker *worker = irqkit_plat_alloc(sizeof(*worker));
	struct irqkit_task *task;

	if (!worker)
		return (struct irqkit_kthread_worker *)(long)-IRQKIT_ENOMEM;
	irqkit_kthread_init_worker(worker);
	task = kt_create(irqkit_kthread_worker_fn, worker, cpu, namefmt, ap);
	if (irqkit_is_err(task)) {
		irqkit_plat_free(worker, sizeof(*worker));
		return (struct irqkit_kthread_worker *)task;
	}
	worker->task = task;
	irqkit_wake_up_process(task);
	return worker;
}

struct irqkit_kthread_worker *irqkit_kthread_create_worker(unsigned int flags,
							   const char *namefmt, ...)
{
	struct irqkit_kthread_worker *worker;
	va_list ap;

	(void)flags;	/* KTW_FREEZABLE: there is no freezer */
	va_start(ap, namefmt);
	worker = kt_create_worker(-1, namefmt, ap);
	va_end(ap);
	return worker;
}

static struct irqkit_kthread_worker *kt_create_worker_on_cpu(int cpu, const char *namefmt, ...)
{
	struct irqkit_kthread_worker *worker;
	va_list ap;

	va_start(ap, namefmt);
	worker = kt_create_worker(cpu, namefmt, ap);
	va_end(ap);
	return worker;
}

struct irqkit_kthread_worker *irqkit_kthread_create_worker_on_cpu(int cpu, unsigned int flags,
								  const char *namefmt)
{
	(void)flags;
	if (cpu < 0 || !irqkit_cpu_online((unsigned int)cpu)) {
		pr_err("kthread_create_worker_on_cpu(%d): CPU%d is not online", cpu, cpu);
		return (struct irqkit_kthread_worker *)(long)-IRQKIT_EINVAL;
	}
	return kt_create_worker_on_cpu(cpu, namefmt, cpu);
}

void irqkit_kthread_destroy_worker(struct irqkit_kthread_worker *worker)
{
	unsigned long flags = irqkit_spin_lock_irqsave(&worker->lock);
	struct irqkit_task *task = worker->task;

	irqkit_spin_unlock_irqrestore(&worker->lock, flags);

	if (WARN(!task, "kthread_destroy_worker: the worker has no kthread"))
		return;
	irqkit_kthread_flush_worker(worker);
	irqkit_kthread_stop(task);
	WARN(!ilist_empty(&worker->work_list), "kthread_destroy_worker: items left on the worker");
	irqkit_plat_free(worker, sizeof(*worker));
}

/* ---- the task listing ------------------------------------------------------------- */

static char state_letter(unsigned int state)
{
	if (state == IRQKIT_TASK_RUNNING)
		return 'R';
	if (state & IRQKIT_TASK_DEAD)
		return 'Z';
	if (state & IRQKIT_TASK_PARKED)
		return 'P';
	if (state & IRQKIT_TASK_UNINTERRUPTIBLE)
		return 'D';
	return 'S';
}

int irqkit_show_tasks_buf(char *buf, size_t size)
{
	struct irqkit__sbuf sb = { .buf = buf, .size = size };
	struct irqkit_list_head *pos;

	if (!buf && size)
		return -IRQKIT_EINVAL;
	irqkit__sb_printf(&sb, "%7s S COMMAND\n", "PID");
	irqkit_spin_lock(&kt_lock);
	for (pos = kt_live.next; pos != &kt_live; pos = pos->next) {
		const struct irqkit__kthread *kt = container_of(pos, struct irqkit__kthread, node);
		/* the task is alive until joined, and joining takes it off this list under kt_lock */
		unsigned int state = kt_has(kt, KT_EXITED) ? IRQKIT_TASK_DEAD :
				     a_load_seq(&kt->task->state);

		irqkit__sb_printf(&sb, "%7d %c [%s]\n", kt->pid, state_letter(state), kt->comm);
	}
	irqkit_spin_unlock(&kt_lock);
	if (READ_ONCE(irqkit__rt.nr_irqs))
		irqkit__irq_threads_show(&sb, state_letter);
	return irqkit__sb_finish(&sb);
}
