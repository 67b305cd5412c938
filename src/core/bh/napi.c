// SPDX-License-Identifier: MIT
/*
 * NAPI (Linux's net/core/dev.c, the driver's side): instances scheduled on
 * a CPU wait in its list; the NET_RX softirq takes the list and polls each
 * instance with its weight until the run's budget or time is spent.  The
 * state word is Linux's, changed by compare-and-swap: SCHED is the claim
 * (whoever sets it puts the instance on a list, and only the poll's side
 * clears it), MISSED a schedule that found it claimed, NPSVC and SCHED
 * together a disabled instance.  Each CPU's list is under a lock of its own,
 * as irq_poll's (irqkit's unbound threads act for CPU 0 beside its
 * dispatcher); the softirq takes the whole list off the lock, as Linux takes
 * it with interrupts on, and only the owner of a claim touches an
 * instance's list entry.
 */
#include "core.h"
#include "cpu.h"
#include "bh.h"
#include "sched/sched.h"

#include <irqkit/napi.h>
#include <irqkit/kernel.h>
#include <irqkit/timer.h>
#include <irqkit/cpu.h>

#define F(bit)		IRQKIT_NAPIF(bit)
/* a NAPI id is above every CPU number, so that busy polling can tell the two apart */
#define MIN_NAPI_ID	((unsigned int)IRQKIT_NR_CPUS_MAX + 1)

static unsigned int napi_gen_id;
/* the instances with an id, for busy polling (Linux's napi_hash) */
static struct irqkit_list_head napi_hash;
static struct irqkit_spinlock napi_hash_lock;
static int netdev_budget = IRQKIT_NETDEV_BUDGET;
static unsigned int netdev_budget_usecs;	/* two jiffies, set at the start */

static struct irqkit_napi_struct *entry_of(struct irqkit_list_head *l)
{
	return container_of(l, struct irqkit_napi_struct, poll_list);
}

/* Linux's netdev_name() and netdev_reg_state(), for its messages. */
static const char *dev_name(const struct irqkit_net_device *dev)
{
	if (!dev)
		return "backlog";
	for (const char *p = dev->name; *p; p++)
		if (*p == '%')
			return "(unnamed net_device)";
	return dev->name[0] ? dev->name : "(unnamed net_device)";
}

static const char *dev_state(const struct irqkit_net_device *dev)
{
	return dev && dev->dummy ? " (dummy)" : "";
}

/* ---- the device ------------------------------------------------------------------ */

void irqkit_init_dummy_netdev(struct irqkit_net_device *dev)
{
	*dev = (struct irqkit_net_device){ .dummy = true };
	ilist_init(&dev->napi_list);
}

/* Where the driver's area of an allocated dummy device starts: 64-aligned after it. */
#define NETDEV_PRIV_OFFSET	((sizeof(struct irqkit_net_device) + 63) & ~(size_t)63)

struct irqkit_net_device *irqkit_alloc_netdev_dummy(int sizeof_priv)
{
	size_t size = NETDEV_PRIV_OFFSET + (sizeof_priv > 0 ? (size_t)sizeof_priv : 0);
	struct irqkit_net_device *dev;

	if (sizeof_priv < 0)
		return NULL;
	dev = irqkit_plat_alloc(size);
	if (!dev)
		return NULL;
	irqkit_init_dummy_netdev(dev);
	irqkit__snprintf(dev->name, sizeof(dev->name), "dummy#");
	dev->alloc_size = size;
	return dev;
}

void *irqkit_netdev_priv(const struct irqkit_net_device *dev)
{
	return (char *)dev + NETDEV_PRIV_OFFSET;
}

void irqkit_free_netdev(struct irqkit_net_device *dev)
{
	if (!dev)
		return;
	while (!ilist_empty(&dev->napi_list))
		irqkit_netif_napi_del(container_of(dev->napi_list.next, struct irqkit_napi_struct,
						   dev_list));
	if (dev->alloc_size)
		irqkit_plat_free(dev, dev->alloc_size);
}

void irqkit_netdev_set_defer_hard_irqs(struct irqkit_net_device *dev, unsigned int n)
{
	WRITE_ONCE(dev->napi_defer_hard_irqs, n);
	for (struct irqkit_list_head *l = dev->napi_list.next; l != &dev->napi_list; l = l->next)
		WRITE_ONCE(container_of(l, struct irqkit_napi_struct, dev_list)->defer_hard_irqs, n);
}

void irqkit_netdev_set_gro_flush_timeout(struct irqkit_net_device *dev, unsigned long ns)
{
	WRITE_ONCE(dev->gro_flush_timeout, ns);
	for (struct irqkit_list_head *l = dev->napi_list.next; l != &dev->napi_list; l = l->next)
		WRITE_ONCE(container_of(l, struct irqkit_napi_struct, dev_list)->gro_flush_timeout, ns);
}

/* ---- scheduling ------------------------------------------------------------------ */

/* ____napi_schedule: on this CPU's list; NET_RX raised unless its run is the caller's. */
static void napi_schedule_on(struct irqkit_napi_struct *n)
{
	struct irqkit_cpu *c = irqkit__this_cpu();
	unsigned long flags;
	bool raise;

	if (a_load_seq(&n->state) & F(THREADED)) {
		struct irqkit_task *thread = READ_ONCE(n->thread);

		if (thread) {
			/* the thread owns the claim it is woken for */
			a_fetch_or(&n->state, F(SCHED_THREADED));
			irqkit_wake_up_process(thread);
			return;
		}
	}
	if (!c) {
		a_fetch_and(&n->state, ~(F(SCHED) | F(MISSED)));
		return;
	}
	flags = irqkit_spin_lock_irqsave(&c->napi_lock);
	ilist_add_tail(&n->poll_list, &c->napi_poll);
	WRITE_ONCE(n->list_owner, (int)(c - irqkit__rt.cpus));
	raise = !c->in_net_rx_action;
	irqkit_spin_unlock_irqrestore(&c->napi_lock, flags);
	/* from outside this CPU's interrupt context, ksoftirqd is woken (raise_softirq_irqoff) */
	if (raise)
		irqkit_raise_softirq_irqoff(IRQKIT_NET_RX_SOFTIRQ);
}

bool irqkit_napi_schedule_prep(struct irqkit_napi_struct *n)
{
	unsigned long val = a_load_seq(&n->state), new;

	do {
		if (unlikely(val & F(DISABLE)))
			return false;
		new = val | F(SCHED);
		if (val & F(SCHED))
			new |= F(MISSED);
	} while (!a_cas(&n->state, &val, new));
	return !(val & F(SCHED));
}

void irqkit_napi_schedule_prepped(struct irqkit_napi_struct *n)
{
	unsigned long flags = irqkit_local_irq_save();

	napi_schedule_on(n);
	irqkit_local_irq_restore(flags);
}

void irqkit_napi_schedule_prepped_irqoff(struct irqkit_napi_struct *n)
{
	napi_schedule_on(n);
}

bool irqkit_napi_schedule(struct irqkit_napi_struct *n)
{
	if (!irqkit_napi_schedule_prep(n))
		return false;
	irqkit_napi_schedule_prepped(n);
	return true;
}

bool irqkit_napi_schedule_irqoff(struct irqkit_napi_struct *n)
{
	if (!irqkit_napi_schedule_prep(n))
		return false;
	napi_schedule_on(n);
	return true;
}

bool irqkit_napi_if_scheduled_mark_missed(struct irqkit_napi_struct *n)
{
	unsigned long val = a_load_seq(&n->state), new;

	do {
		if (val & F(DISABLE))
			return true;
		if (!(val & F(SCHED)))
			return false;
		new = val | F(MISSED);
	} while (!a_cas(&n->state, &val, new));
	return true;
}

/* Off the list it is on (a CPU's, under that CPU's lock). */
static void napi_unlist(struct irqkit_napi_struct *n)
{
	int owner = READ_ONCE(n->list_owner);
	unsigned long flags;

	if (ilist_empty(&n->poll_list))
		return;
	if (owner < 0) {
		ilist_del_init(&n->poll_list);
		return;
	}
	flags = irqkit_spin_lock_irqsave(&irqkit__rt.cpus[owner].napi_lock);
	ilist_del_init(&n->poll_list);
	irqkit_spin_unlock_irqrestore(&irqkit__rt.cpus[owner].napi_lock, flags);
}

bool irqkit_napi_complete_done(struct irqkit_napi_struct *n, int work_done)
{
	unsigned long val, new, timeout = 0;
	bool ret = true;

	/* disabled (or a busy poll owns it): the owner completes, not this caller */
	if (unlikely(a_load_seq(&n->state) & (F(NPSVC) | F(IN_BUSY_POLL))))
		return false;
	if (work_done)
		n->defer_hard_irqs_count = (int)READ_ONCE(n->defer_hard_irqs);
	if (n->defer_hard_irqs_count > 0) {
		n->defer_hard_irqs_count--;
		timeout = READ_ONCE(n->gro_flush_timeout);
		if (timeout)
			ret = false;
	}
	napi_unlist(n);
	WRITE_ONCE(n->list_owner, -1);
	val = a_load_seq(&n->state);
	do {
		WARN_ON_ONCE(!(val & F(SCHED)));
		new = val & ~(F(MISSED) | F(SCHED) | F(SCHED_THREADED) | F(PREFER_BUSY_POLL));
		/* a schedule during the poll: it stays claimed, and is polled once more */
		if (val & F(MISSED))
			new |= F(SCHED);
	} while (!a_cas(&n->state, &val, new));
	if (unlikely(val & F(MISSED))) {
		irqkit_napi_schedule_prepped(n);
		return false;
	}
	if (timeout)
		irqkit_hrtimer_start_range_ns(&n->timer, (int64_t)timeout, 0,
					      IRQKIT_HRTIMER_MODE_REL | IRQKIT_HRTIMER_MODE_PINNED);
	return ret;
}

bool irqkit_napi_complete(struct irqkit_napi_struct *n)
{
	return irqkit_napi_complete_done(n, 0);
}

/* The deferral's poll: scheduled unless disabled or claimed; no MISSED, no device asked. */
static enum irqkit_hrtimer_restart napi_watchdog(struct irqkit_hrtimer *timer)
{
	struct irqkit_napi_struct *n = container_of(timer, struct irqkit_napi_struct, timer);

	if (!irqkit_napi_disable_pending(n) && !(a_fetch_or(&n->state, F(SCHED)) & F(SCHED))) {
		a_fetch_and(&n->state, ~F(PREFER_BUSY_POLL));
		napi_schedule_on(n);
	}
	return IRQKIT_HRTIMER_NORESTART;
}

/* ---- the NET_RX softirq ---------------------------------------------------------- */

/*
 * __napi_poll: poll @n once with its weight, if it is still claimed; true
 * in @repoll if it used its weight and stays the poller's.  @polling, the
 * CPU's note of the poll that runs (a softirq's, which netif_napi_del
 * waits for), or NULL.
 */
static int napi_poll_weight(struct irqkit_cpu *c, struct irqkit_napi_struct *n, bool *repoll,
			    bool note)
{
	static unsigned int once_over, once_resched;
	int weight = n->weight, work = 0;

	if (a_load_seq(&n->state) & F(SCHED)) {
		if (note)
			a_store_release(&c->napi_polling, n);
		work = n->poll(n, weight);
		if (note)
			a_store_release(&c->napi_polling, NULL);
	}
	if (unlikely(work > weight) && irqkit__once(&once_over))
		pr_err("%s%s: NAPI poll function %pS returned %d, exceeding its budget of %d.",
		       dev_name(n->dev), dev_state(n->dev), (const void *)n->poll, work, weight);
	if (work > 0 && c)
		a_fetch_add(&c->softnet_processed, (unsigned int)work);	/* a kthread acts for the CPU too */
	if (likely(work < weight))
		return work;
	/* the whole weight: the instance is still the poller's to move or complete */
	if (unlikely(irqkit_napi_disable_pending(n))) {
		irqkit_napi_complete(n);
		return work;
	}
	/* more to do, but a busy poller is preferred: stop here, rescheduled unless deferred */
	if (a_load_seq(&n->state) & F(PREFER_BUSY_POLL)) {
		if (irqkit_napi_complete_done(n, work))
			irqkit_napi_schedule(n);
		return work;
	}
	if (unlikely(!ilist_empty(&n->poll_list))) {
		if (irqkit__once(&once_resched))
			pr_warn("%s: Budget exhausted after napi rescheduled",
				n->dev ? n->dev->name : "backlog");
		return work;
	}
	*repoll = true;
	return work;
}

static void net_rx_action(void)
{
	struct irqkit_cpu *c = irqkit__this_cpu();
	unsigned long time_limit, flags;
	struct irqkit_list_head list, repoll;
	int budget = READ_ONCE(netdev_budget);

	if (!c)
		return;
	time_limit = irqkit_jiffies() + irqkit_usecs_to_jiffies(READ_ONCE(netdev_budget_usecs));
	ilist_init(&list);
	ilist_init(&repoll);
start:
	flags = irqkit_spin_lock_irqsave(&c->napi_lock);
	c->in_net_rx_action = true;
	ilist_splice_tail_init(&c->napi_poll, &list);
	irqkit_spin_unlock_irqrestore(&c->napi_lock, flags);
	for (;;) {
		struct irqkit_napi_struct *n;
		bool again = false;

		if (ilist_empty(&list)) {
			if (!ilist_empty(&repoll))
				break;
			/* schedules that came meanwhile did not raise: take them now */
			flags = irqkit_spin_lock_irqsave(&c->napi_lock);
			c->in_net_rx_action = false;
			if (!ilist_empty(&c->napi_poll)) {
				irqkit_spin_unlock_irqrestore(&c->napi_lock, flags);
				goto start;
			}
			irqkit_spin_unlock_irqrestore(&c->napi_lock, flags);
			return;
		}
		n = entry_of(list.next);
		ilist_del_init(&n->poll_list);
		budget -= napi_poll_weight(c, n, &again, true);
		if (again)
			ilist_add_tail(&n->poll_list, &repoll);
		/* the window spent: the rest waits for the next run (two jiffies: 1.5 on average) */
		if (unlikely(budget <= 0 || irqkit_time_after_eq(irqkit_jiffies(), time_limit))) {
			a_fetch_add(&c->softnet_time_squeeze, 1);
			break;
		}
	}
	/* what is left, then what used its weight, then what came meanwhile */
	flags = irqkit_spin_lock_irqsave(&c->napi_lock);
	c->in_net_rx_action = false;
	ilist_splice_tail_init(&c->napi_poll, &list);
	ilist_splice_tail_init(&repoll, &list);
	ilist_splice_tail_init(&list, &c->napi_poll);
	if (!ilist_empty(&c->napi_poll))
		irqkit__raise_softirq_on(c, IRQKIT_NET_RX_SOFTIRQ);
	irqkit_spin_unlock_irqrestore(&c->napi_lock, flags);
}

/* ---- busy polling ------------------------------------------------------------------ */

unsigned long irqkit_busy_loop_current_time(void)
{
	return (unsigned long)(irqkit_ktime_get_ns() >> 10);
}

/* The instance of @id, held against its del; NULL if there is none. */
static struct irqkit_napi_struct *napi_get(unsigned int id)
{
	struct irqkit_napi_struct *found = NULL;
	unsigned long flags = irqkit_spin_lock_irqsave(&napi_hash_lock);

	for (struct irqkit_list_head *l = napi_hash.next; l != &napi_hash; l = l->next) {
		struct irqkit_napi_struct *n = container_of(l, struct irqkit_napi_struct, hash_node);

		if (n->napi_id == id) {
			n->busy_users++;
			found = n;
			break;
		}
	}
	irqkit_spin_unlock_irqrestore(&napi_hash_lock, flags);
	return found;
}

static void napi_put(struct irqkit_napi_struct *n)
{
	unsigned long flags = irqkit_spin_lock_irqsave(&napi_hash_lock);

	n->busy_users--;
	irqkit_spin_unlock_irqrestore(&napi_hash_lock, flags);
}

/*
 * The loop's end: the claim given back, then one more poll without it, so
 * that the driver completes and unmasks (or, preferring busy polls with
 * deferral set, an hrtimer polls next and the interrupt stays off).
 */
static void busy_poll_stop(struct irqkit_napi_struct *n, bool prefer_busy_poll, int budget)
{
	bool skip_schedule = false;
	int rc;

	/* a schedule during the loop could only mark MISSED: this poll covers it */
	a_fetch_and(&n->state, ~(F(MISSED) | F(IN_BUSY_POLL)));
	irqkit_local_bh_disable();
	if (prefer_busy_poll) {
		unsigned long timeout = READ_ONCE(n->gro_flush_timeout);

		n->defer_hard_irqs_count = (int)READ_ONCE(n->defer_hard_irqs);
		if (n->defer_hard_irqs_count && timeout) {
			irqkit_hrtimer_start_range_ns(&n->timer, (int64_t)timeout, 0,
						      IRQKIT_HRTIMER_MODE_REL |
							      IRQKIT_HRTIMER_MODE_PINNED);
			skip_schedule = true;
		}
	}
	rc = n->poll(n, budget);
	if (rc > 0 && irqkit__this_cpu())
		a_fetch_add(&irqkit__this_cpu()->softnet_processed, (unsigned int)rc);
	/* the whole budget: not completed, still claimed; the softirq (or the timer) goes on */
	if (rc == budget) {
		if (!skip_schedule)
			irqkit_napi_schedule_prepped(n);
		else
			a_fetch_and(&n->state, ~F(SCHED));
	}
	irqkit_local_bh_enable();
}

void irqkit_napi_busy_loop(unsigned int napi_id,
			   bool (*loop_end)(void *arg, unsigned long start_time),
			   void *loop_end_arg, bool prefer_busy_poll, uint16_t budget)
{
	unsigned long start = loop_end ? irqkit_busy_loop_current_time() : 0;
	struct irqkit_napi_struct *n = napi_get(napi_id);
	bool owned = false;

	if (!n)
		return;
	for (;;) {
		int work = 0;

		irqkit_local_bh_disable();
		if (!owned) {
			unsigned long val = a_load_seq(&n->state);

			/* claimed by the softirq, a thread, another loop, or disabled: not ours */
			if ((val & (F(DISABLE) | F(SCHED) | F(IN_BUSY_POLL))) ||
			    !a_cas(&n->state, &val, val | F(IN_BUSY_POLL) | F(SCHED))) {
				if (prefer_busy_poll)
					a_fetch_or(&n->state, F(PREFER_BUSY_POLL));
				goto count;
			}
			owned = true;
		}
		work = n->poll(n, budget);
count:
		if (work > 0 && irqkit__this_cpu())
			a_fetch_add(&irqkit__this_cpu()->softnet_processed, (unsigned int)work);
		irqkit_local_bh_enable();
		if (!loop_end || loop_end(loop_end_arg, start))
			break;
		irqkit_cpu_relax();
	}
	if (owned)
		busy_poll_stop(n, prefer_busy_poll, budget);
	napi_put(n);
}

/* ---- threaded NAPI ----------------------------------------------------------------- */

/* Sleep until woken with the claim (SCHED_THREADED).  Return: 0, or -1 to stop. */
static int napi_thread_wait(struct irqkit_napi_struct *n)
{
	irqkit_set_current_state(IRQKIT_TASK_INTERRUPTIBLE);
	while (!irqkit_kthread_should_stop()) {
		if (a_load_seq(&n->state) & F(SCHED_THREADED)) {
			irqkit___set_current_state(IRQKIT_TASK_RUNNING);
			return 0;
		}
		irqkit_schedule();
		irqkit_set_current_state(IRQKIT_TASK_INTERRUPTIBLE);
	}
	irqkit___set_current_state(IRQKIT_TASK_RUNNING);
	return -1;
}

/* napi/DEV-ID: the polls in process context, bottom halves off, until one completes. */
static int napi_threaded_poll(void *data)
{
	struct irqkit_napi_struct *n = data;

	while (!napi_thread_wait(n)) {
		for (;;) {
			bool repoll = false;

			irqkit_local_bh_disable();
			(void)napi_poll_weight(irqkit__this_cpu(), n, &repoll, false);
			irqkit_local_bh_enable();
			if (!repoll)
				break;
		}
	}
	return 0;
}

static int napi_kthread_create(struct irqkit_napi_struct *n)
{
	struct irqkit_task *t = irqkit_kthread_create(napi_threaded_poll, n, "napi/%s-%u",
						      n->dev->name, n->napi_id);

	if (irqkit_is_err(t)) {
		int err = (int)irqkit_ptr_err(t);

		pr_err("kthread_run failed with err %d", err);
		return err;
	}
	irqkit_wake_up_process(t);	/* to its wait */
	WRITE_ONCE(n->thread, t);
	return 0;
}

int irqkit_dev_set_threaded(struct irqkit_net_device *dev, bool threaded)
{
	int err = 0;

	might_sleep();
	if (dev->threaded == threaded)
		return 0;
	if (threaded) {
		for (struct irqkit_list_head *l = dev->napi_list.next; l != &dev->napi_list;
		     l = l->next) {
			struct irqkit_napi_struct *n = container_of(l, struct irqkit_napi_struct,
								    dev_list);

			if (!n->thread && (err = napi_kthread_create(n)) != 0) {
				threaded = false;
				break;
			}
		}
	}
	dev->threaded = threaded;
	/* a poll that runs now keeps its mode until the next schedule */
	for (struct irqkit_list_head *l = dev->napi_list.next; l != &dev->napi_list; l = l->next) {
		struct irqkit_napi_struct *n = container_of(l, struct irqkit_napi_struct, dev_list);

		if (threaded)
			a_fetch_or(&n->state, F(THREADED));
		else
			a_fetch_and(&n->state, ~F(THREADED));
	}
	return err;
}

/* ---- set-up and teardown --------------------------------------------------------- */

static void napi_add(struct irqkit_net_device *dev, struct irqkit_napi_struct *n,
		     irqkit_napi_poll_fn *poll, int weight, bool tx)
{
	static unsigned int once_weight;

	if (WARN_ON(a_fetch_or(&n->state, F(LISTED)) & F(LISTED)))
		return;
	ilist_init(&n->poll_list);
	irqkit_hrtimer_setup(&n->timer, napi_watchdog, IRQKIT_CLOCK_MONOTONIC,
			     IRQKIT_HRTIMER_MODE_REL | IRQKIT_HRTIMER_MODE_PINNED);
	n->poll = poll;
	if (weight > IRQKIT_NAPI_POLL_WEIGHT && irqkit__once(&once_weight))
		pr_err("%s%s: netif_napi_add_weight() called with weight %d", dev_name(dev),
		       dev_state(dev), weight);
	n->weight = weight;
	n->dev = dev;
	n->list_owner = -1;
	n->defer_hard_irqs_count = 0;
	n->defer_hard_irqs = READ_ONCE(dev->napi_defer_hard_irqs);
	n->gro_flush_timeout = READ_ONCE(dev->gro_flush_timeout);
	n->napi_id = 0;
	a_fetch_or(&n->state, F(SCHED) | F(NPSVC) | (tx ? F(NO_BUSY_POLL) : 0));
	ilist_add(&n->dev_list, &dev->napi_list);
	if (!tx) {
		unsigned int id = a_fetch_add(&napi_gen_id, 1) + 1;

		/* the ids wrap past the CPU numbers */
		n->napi_id = id < MIN_NAPI_ID ? MIN_NAPI_ID : id;
	}
	n->thread = NULL;
	n->busy_users = 0;
	ilist_init(&n->hash_node);
	if (!tx) {
		unsigned long flags = irqkit_spin_lock_irqsave(&napi_hash_lock);

		ilist_add_tail(&n->hash_node, &napi_hash);
		irqkit_spin_unlock_irqrestore(&napi_hash_lock, flags);
	}
	/* a threaded device's instance gets its thread now; without one, the device is not threaded */
	if (dev->threaded && napi_kthread_create(n))
		dev->threaded = false;
}

void irqkit_netif_napi_add_weight(struct irqkit_net_device *dev, struct irqkit_napi_struct *n,
				  irqkit_napi_poll_fn *poll, int weight)
{
	napi_add(dev, n, poll, weight, false);
}

void irqkit_netif_napi_add_tx_weight(struct irqkit_net_device *dev, struct irqkit_napi_struct *n,
				     irqkit_napi_poll_fn *poll, int weight)
{
	napi_add(dev, n, poll, weight, true);
}

/*
 * Linux's synchronize_net() in netif_napi_del: a poll that completed may
 * still run its last lines (the driver's unmask after its complete), and
 * the caller frees what it uses next.  Wait until no CPU is in @n's poll.
 */
static void napi_sync_polls(const struct irqkit_napi_struct *n)
{
	for (unsigned int cpu = 0; cpu < irqkit__rt.nr_cpus; cpu++) {
		const struct irqkit_cpu *c = &irqkit__rt.cpus[cpu];

		if (c == irqkit__this_cpu() && irqkit_in_serving_softirq())
			continue;	/* from its own poll: nothing to wait for */
		while (a_load_acquire(&c->napi_polling) == n) {
			if (irqkit__det_run_softirqs())
				continue;
			if (irqkit__det_player())
				break;
			irqkit_usleep_range(20, 200);
		}
	}
}

void irqkit_netif_napi_del(struct irqkit_napi_struct *n)
{
	if (!(a_fetch_and(&n->state, ~F(LISTED)) & F(LISTED)))
		return;
	/* disabled, or never enabled: else it may still be on a CPU's list (Linux 6.15) */
	WARN_ON(!(a_load_seq(&n->state) & F(SCHED)));
	ilist_del_init(&n->dev_list);
	/* no busy loop finds it now; one that holds it ends first */
	for (;;) {
		unsigned long flags = irqkit_spin_lock_irqsave(&napi_hash_lock);
		unsigned int users = n->busy_users;

		if (!users)
			ilist_del_init(&n->hash_node);
		irqkit_spin_unlock_irqrestore(&napi_hash_lock, flags);
		if (!users)
			break;
		irqkit_usleep_range(20, 200);
	}
	napi_sync_polls(n);
	if (n->thread) {
		irqkit_kthread_stop(n->thread);
		n->thread = NULL;
	}
}

/* Until @done(@n) is true: the softirqs run meanwhile (deterministic mode runs them here). */
static void napi_wait(const struct irqkit_napi_struct *n, unsigned long busy, const char *what)
{
	while (a_load_seq(&n->state) & busy) {
		int turn = det_wait_turn(what, "the poll");

		if (turn < 0)
			return;
		if (!turn)
			irqkit_usleep_range(20, 200);
	}
}

void irqkit_napi_disable(struct irqkit_napi_struct *n)
{
	unsigned long val, new;

	might_sleep();
	a_fetch_or(&n->state, F(DISABLE));
	val = a_load_seq(&n->state);
	do {
		if (val & (F(SCHED) | F(NPSVC))) {
			napi_wait(n, F(SCHED) | F(NPSVC), "napi_disable");
			val = a_load_seq(&n->state);
			if (val & (F(SCHED) | F(NPSVC)))
				break;		/* not waiting (reported): held as it is */
		}
		new = (val | F(SCHED) | F(NPSVC)) & ~(F(THREADED) | F(PREFER_BUSY_POLL));
	} while (!a_cas(&n->state, &val, new));
	irqkit_hrtimer_cancel(&n->timer);
	a_fetch_and(&n->state, ~F(DISABLE));
}

void irqkit_napi_enable(struct irqkit_napi_struct *n)
{
	unsigned long val = a_load_seq(&n->state), new;

	do {
		if (!(val & F(SCHED)))
			irqkit_bug_at(__FILE__, __LINE__);	/* Linux: BUG_ON, an enable without a disable */
		new = val & ~(F(SCHED) | F(NPSVC));
		if (n->dev && n->dev->threaded && n->thread)
			new |= F(THREADED);
	} while (!a_cas(&n->state, &val, new));
}

void irqkit_napi_synchronize(const struct irqkit_napi_struct *n)
{
	might_sleep();
	/* a disabled instance stays claimed: Linux would wait for ever */
	if (WARN_ONCE(a_load_seq(&n->state) & F(NPSVC),
		      "napi_synchronize() of a disabled instance: it stays scheduled until napi_enable(); not waiting"))
		return;
	napi_wait(n, F(SCHED), "napi_synchronize");
}

void irqkit_set_netdev_budget(int budget, unsigned int budget_usecs)
{
	WRITE_ONCE(netdev_budget, budget);
	WRITE_ONCE(netdev_budget_usecs, budget_usecs);
}

int irqkit_softnet_stat(unsigned int cpu, struct irqkit_softnet_stat *st)
{
	if (!irqkit_started() || cpu >= irqkit__rt.nr_cpus || !st)
		return -IRQKIT_EINVAL;
	st->processed = READ_ONCE(irqkit__rt.cpus[cpu].softnet_processed);
	st->dropped = 0;
	st->time_squeeze = READ_ONCE(irqkit__rt.cpus[cpu].softnet_time_squeeze);
	return 0;
}

int irqkit_show_softnet_stat_buf(char *buf, size_t size)
{
	struct irqkit__sbuf sb = { buf, size, 0 };

	if (!irqkit_started() || (!buf && size))
		return -IRQKIT_EINVAL;
	for (unsigned int cpu = 0; cpu < irqkit__rt.nr_cpus; cpu++) {
		const struct irqkit_cpu *c = &irqkit__rt.cpus[cpu];

		if (!irqkit_cpu_online(cpu))
			continue;
		/* processed, dropped, time_squeeze, 0, fastroute (5), rps, flow limit, backlog, cpu, two queues */
		irqkit__sb_printf(&sb, "%08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x\n",
				  READ_ONCE(c->softnet_processed), 0u,
				  READ_ONCE(c->softnet_time_squeeze), 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u,
				  cpu, 0u, 0u);
	}
	return irqkit__sb_finish(&sb);
}

/* CPU @cpu went offline: its instances go to the end of @to's list, NET_RX raised there. */
void irqkit__napi_takeover(unsigned int cpu, unsigned int to)
{
	struct irqkit_cpu *from = &irqkit__rt.cpus[cpu], *c = &irqkit__rt.cpus[to];
	struct irqkit_list_head moved;
	unsigned long flags;

	ilist_init(&moved);
	flags = irqkit_spin_lock_irqsave(&from->napi_lock);
	ilist_splice_tail_init(&from->napi_poll, &moved);
	irqkit_spin_unlock_irqrestore(&from->napi_lock, flags);
	if (ilist_empty(&moved))
		return;
	flags = irqkit_spin_lock_irqsave(&c->napi_lock);
	for (struct irqkit_list_head *l = moved.next; l != &moved; l = l->next)
		WRITE_ONCE(entry_of(l)->list_owner, (int)to);
	ilist_splice_tail_init(&moved, &c->napi_poll);
	irqkit__raise_softirq_on(c, IRQKIT_NET_RX_SOFTIRQ);
	irqkit_spin_unlock_irqrestore(&c->napi_lock, flags);
	irqkit__wakeup_softirqd(c);
}

void irqkit__napi_init(void)
{
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++) {
		struct irqkit_cpu *c = &irqkit__rt.cpus[i];

		ilist_init(&c->napi_poll);
		irqkit_spin_lock_init(&c->napi_lock);
		c->in_net_rx_action = false;
		c->softnet_processed = c->softnet_time_squeeze = 0;
	}
	napi_gen_id = MIN_NAPI_ID - 1;
	ilist_init(&napi_hash);
	irqkit_spin_lock_init(&napi_hash_lock);
	netdev_budget = IRQKIT_NETDEV_BUDGET;
	netdev_budget_usecs = 2 * 1000000u / irqkit_hz();
	irqkit_open_softirq(IRQKIT_NET_RX_SOFTIRQ, net_rx_action);
}
