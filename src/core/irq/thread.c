// SPDX-License-Identifier: MIT
/*
 * Threaded handlers (Linux keeps them in kernel/irq/manage.c): the
 * irq/N-name thread of an action with a thread_fn, its wake-up, the oneshot
 * unmask when it is done, forced threading (threadirqs), and the joining of
 * threads whose action was freed where they could not be joined.
 */
#include "internals.h"
#include "time/time.h"
#include "sched/sched.h"
#include "debug/debug.h"

/* irq_default_primary_handler: a request without a primary handler gets this one. */
enum irqkit_irqreturn irqkit__default_primary_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQKIT_WAKE_THREAD;
}

/* irq_nested_primary_handler: a nested line's actions run from the parent's thread. */
enum irqkit_irqreturn irqkit__nested_primary_handler(int irq, void *dev_id)
{
	(void)dev_id;
	WARN(1, "Primary handler called for nested irq %d", irq);
	return IRQKIT_NONE;
}

void irqkit_irq_wake_thread(unsigned int irq, void *dev_id)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	unsigned long flags;

	if (!desc)
		return;
	flags = desc_lock_irqsave(desc);
	for (struct irqkit_action *a = desc->action; a; a = a->next) {
		if (a->dev_id == dev_id) {
			if (a->thread_fn)
				irqkit__irq_wake_thread(desc, a);
			break;
		}
	}
	desc_unlock_irqrestore(desc, flags);
}

/*
 * irq_finalize_oneshot (1.12): the thread is done.  Wait while a hardirq of
 * the line is in flight; if RUNTHREAD came again, keep the bit and run again;
 * otherwise drop the bit and, when no ONESHOT thread is left, unmask.
 */
static void irq_finalize_oneshot(struct irqkit_desc *desc, struct irqkit_action *action)
{
	unsigned long flags;

	if (!(istate_get(desc) & IRQS_ONESHOT))
		return;
	for (;;) {
		unsigned int spins = 0;

		flags = desc_lock_irqsave(desc);
		if (!irqd_irq_inprogress(&desc->irq_data))
			break;
		desc_unlock_irqrestore(desc, flags);
		spin_step(&spins);
	}
	if (!(a_load_seq(&action->thread_flags) & IRQTF_RUNTHREAD)) {
		unsigned long left = a_fetch_and(&desc->threads_oneshot, ~action->thread_mask) &
				     ~action->thread_mask;
		struct irqkit_chip *chip = desc->irq_data.chip;

		if (!left && !irqd_irq_disabled(&desc->irq_data) && irqd_irq_masked(&desc->irq_data)) {
			if ((chip->flags & IRQKIT_CHIP_EOI_THREADED) && chip->irq_eoi)
				chip->irq_eoi(&desc->irq_data);
			irqkit__unmask_irq(desc);
		}
	}
	desc_unlock_irqrestore(desc, flags);
}

/* wake_threads_waitq: one run finished; the last one wakes synchronize_irq. */
static void wake_threads_waitq(struct irqkit_desc *desc)
{
	if (a_fetch_sub(&desc->threads_active, 1) == 1) {
		irqkit__seq_wake(&desc->wait_for_threads);
	}
}

/*
 * Threads of freed actions that could not be joined where they were freed:
 * actions freed from their own hardirq handler (joined, then freed), and
 * threads whose action was freed from its own thread_fn (the thread frees
 * the action itself).  Joined later in process context.
 */
static struct irqkit_spinlock reap_lock = IRQKIT_SPINLOCK_INIT;
static struct irqkit_action *reap_actions;	/* linked by deferred_next */
static struct reaped {
	struct irqkit_plat_thread	*thread;
	struct reaped			*next;
} *reap_list;

/* An action with a thread, freed from its own handler: join and free it later.  Any context. */
void irqkit__reap_action(struct irqkit_action *action)
{
	irqkit_spin_lock(&reap_lock);
	action->deferred_next = reap_actions;
	reap_actions = action;
	irqkit_spin_unlock(&reap_lock);
}

/* A thread whose action its own thread_fn freed: joined later.  Process context. */
void irqkit__reap_thread_later(struct irqkit_plat_thread *thread)
{
	struct reaped *r = irqkit_plat_alloc(sizeof(*r));

	if (!r)
		return;
	r->thread = thread;
	irqkit_spin_lock(&reap_lock);
	r->next = reap_list;
	reap_list = r;
	irqkit_spin_unlock(&reap_lock);
}

/* The irq/N-name thread (1.11), bound to the line's CPU. */
static void irq_thread_main(void *arg)
{
	struct irqkit_action *action = arg;
	struct irqkit_desc *desc = irq_to_desc(action->irq);
	struct irqkit_task *t = irqkit_arch_current();
	unsigned long flags;
	int cpu = -1;

	t->irq_thread_desc = desc;
	t->irq_thread_action = action;
	t->kthread = true;
	flags = desc_lock_irqsave(desc);		/* the task listing may show it now */
	action->thread_pid = irqkit_plat_thread_id();
	action->thread_task = t;
	desc_unlock_irqrestore(desc, flags);
	for (;;) {
		unsigned int seq = a_load_seq(&action->thread_seq);
		unsigned int tf = a_load_seq(&action->thread_flags);
		enum irqkit_irqreturn ret;
		uint64_t start;		/* 1 + the run's start, 0 when not observed */
		int want;

		if (!(tf & IRQTF_RUNTHREAD)) {
			if (tf & IRQTF_STOP)
				break;
			irqkit_plat_wait(&action->thread_seq, seq);
			continue;
		}
		a_fetch_and(&action->thread_flags, ~IRQTF_RUNTHREAD);
		irqkit__jiffies_touch();	/* the jiffies objects, once per run */
		want = (int)READ_ONCE(desc->irq_data.cpu);	/* follow the line (IRQTF_AFFINITY) */
		if (want != cpu && !irqkit__kthread_bind(want))
			cpu = want;
		start = unlikely(irqkit__observing()) ? irqkit__now_ns() + 1 : 0;
		if (tf & IRQTF_FORCED) {
			/*
			 * 1.13: a forced thread runs with bottom halves off, and
			 * interrupts too but on PREEMPT_RT (its spinlock_t may sleep)
			 */
			bool irqs_off = !(irqkit__rt.flags & IRQKIT_CFG_PREEMPT_RT);

			irqkit_local_bh_disable();
			if (irqs_off)
				irqkit_local_irq_disable();
			ret = action->thread_fn((int)action->irq, action->dev_id);
			if (irqs_off)
				irqkit_local_irq_enable();
			irqkit_local_bh_enable();
		} else {
			ret = action->thread_fn((int)action->irq, action->dev_id);
		}
		if (start)
			irqkit__obs_slice(IRQKIT__TEV_THREAD_FN, action->name, start - 1, action->irq);
		if (ret == IRQKIT_HANDLED)
			a_fetch_add(&desc->threads_handled, 1);
		if (!action->primary)		/* a secondary thread's line is not its to unmask */
			irq_finalize_oneshot(desc, action);
		/* a forced primary that wants its thread: the driver's, the secondary one */
		if (ret == IRQKIT_WAKE_THREAD && !WARN_ON_ONCE(!action->secondary)) {
			flags = desc_lock_irqsave(desc);
			irqkit__irq_wake_thread(desc, action->secondary);
			desc_unlock_irqrestore(desc, flags);
		}
		wake_threads_waitq(desc);
	}
	t->irq_thread_desc = NULL;
	t->irq_thread_action = NULL;
	flags = desc_lock_irqsave(desc);		/* its task goes with the thread */
	action->thread_task = NULL;
	desc_unlock_irqrestore(desc, flags);
	if (t->cpu)
		irqkit_thread_unbind();
	/* freed from its own thread_fn: nobody else holds it any more */
	if (a_load_seq(&action->thread_flags) & IRQTF_SELF_FREE)
		irqkit_plat_free(action, sizeof(*action));
}

/*
 * setup_irq_thread: start irq/N-name, and for a forced action's secondary
 * irq/N-s-name (Linux's names).  Process context.
 */
int irqkit__setup_irq_thread(struct irqkit_action *action, unsigned int irq)
{
	const char *dev = action->name ? action->name : "";
	char name[32];
	int ret;

	irqkit__snprintf(name, sizeof(name), "irq/%u-%s", irq, dev);
	ret = irqkit_plat_thread_create(&action->thread, name, irq_thread_main, action);
	if (ret && action->secondary) {
		irqkit_plat_free(action->secondary, sizeof(*action->secondary));
		action->secondary = NULL;
	}
	if (ret || !action->secondary)
		return ret;
	irqkit__snprintf(name, sizeof(name), "irq/%u-s-%s", irq, dev);
	ret = irqkit_plat_thread_create(&action->secondary->thread, name, irq_thread_main,
					action->secondary);
	if (ret)
		irqkit__stop_irq_thread(action);
	return ret;
}

static void stop_one_thread(struct irqkit_action *action)
{
	if (!action->thread)
		return;
	a_fetch_or(&action->thread_flags, IRQTF_STOP);
	irqkit__seq_wake(&action->thread_seq);
	irqkit_plat_thread_join(action->thread);
	action->thread = NULL;
}

/*
 * kthread_stop: the thread has nothing left to run (synchronised); end and
 * join it, then the secondary thread it may have woken, and free that one.
 */
void irqkit__stop_irq_thread(struct irqkit_action *action)
{
	struct irqkit_action *secondary = action->secondary;

	stop_one_thread(action);
	if (secondary) {
		stop_one_thread(secondary);
		action->secondary = NULL;
		irqkit_plat_free(secondary, sizeof(*secondary));
	}
}

/*
 * free_irq from one of the action's own threads (the thread function, in
 * the primary thread or a forced action's secondary): neither can be joined
 * from there.  Both end when their run returns, each frees its own action,
 * and they are joined later.  Process context.
 */
void irqkit__stop_irq_threads_later(struct irqkit_action *action)
{
	struct irqkit_action *secondary = action->secondary;

	irqkit__reap_thread_later(action->thread);
	a_fetch_or(&action->thread_flags, IRQTF_STOP | IRQTF_SELF_FREE);
	if (secondary) {
		irqkit__reap_thread_later(secondary->thread);
		a_fetch_or(&secondary->thread_flags, IRQTF_STOP | IRQTF_SELF_FREE);
		irqkit__seq_wake(&secondary->thread_seq);
	}
	irqkit__seq_wake(&action->thread_seq);
}

/* Join the threads left for later.  Process context. */
void irqkit__reap_irq_threads(void)
{
	assert_process_context();
	for (;;) {
		struct irqkit_action *action;
		struct reaped *r;

		irqkit_spin_lock(&reap_lock);
		r = reap_list;
		if (r)
			reap_list = r->next;
		action = r ? NULL : reap_actions;
		if (action)
			reap_actions = action->deferred_next;
		irqkit_spin_unlock(&reap_lock);
		if (r) {
			irqkit_plat_thread_join(r->thread);
			irqkit_plat_free(r, sizeof(*r));
		} else if (action) {
			irqkit__stop_irq_thread(action);
			irqkit_plat_free(action, sizeof(*action));
		} else {
			break;
		}
	}
}

/* The handler of a secondary action: never called (it is not on the line). */
static enum irqkit_irqreturn forced_secondary_handler(int irq, void *dev_id)
{
	(void)dev_id;
	WARN(1, "Primary handler called for secondary irq %d", irq);
	return IRQKIT_NONE;
}

/*
 * irq_setup_forced_threading (1.13): with threadirqs the primary handler
 * moves into the thread irq/N-name behind the default primary handler, and
 * the action becomes ONESHOT.  An action that has a thread function of its
 * own too gets a secondary action for it, with a thread irq/N-s-name, which
 * the primary's thread wakes when the primary returns IRQ_WAKE_THREAD.
 * Lines that cannot be threaded, NO_THREAD, PERCPU and ONESHOT actions, and
 * nested lines (the caller's test) stay as they are.  Process context.
 * Return: 0 or -ENOMEM.
 */
int irqkit__irq_setup_forced_threading(struct irqkit_desc *desc, struct irqkit_action *new)
{
	if (!(irqkit__rt.flags & IRQKIT_CFG_THREADIRQS))
		return 0;
	if (READ_ONCE(desc->settings) & IRQKIT_IRQ_NOTHREAD)
		return 0;
	if (new->flags & (IRQKIT_F_NO_THREAD | IRQKIT_F_PERCPU | IRQKIT_F_ONESHOT))
		return 0;
	if (new->handler == irqkit__default_primary_handler || !new->handler)
		return 0;
	new->flags |= IRQKIT_F_ONESHOT;
	if (new->thread_fn) {
		struct irqkit_action *s = irqkit_plat_alloc(sizeof(*s));

		if (!s)
			return -IRQKIT_ENOMEM;
		s->handler = forced_secondary_handler;
		s->thread_fn = new->thread_fn;
		s->dev_id = new->dev_id;
		s->irq = new->irq;
		s->name = new->name;
		s->primary = new;
		new->secondary = s;
	}
	new->thread_fn = new->handler;
	new->handler = irqkit__default_primary_handler;
	new->thread_flags |= IRQTF_FORCED;
	return 0;
}

/*
 * The irq threads in the task listing, as ps shows Linux's: "irq/N-name"
 * and a forced action's "irq/N-s-name", with their thread id and state,
 * while they run.  Each row under its line's descriptor lock: a thread
 * clears its task there before it ends.
 */
static void show_one(struct irqkit__sbuf *sb, char (*letter)(unsigned int state),
		     const struct irqkit_action *a, unsigned int irq, bool secondary)
{
	const struct irqkit_task *task = a->thread_task;

	if (!task)
		return;
	irqkit__sb_printf(sb, "%7d %c [irq/%u-%s%s]\n", a->thread_pid,
			  letter(a_load_seq(&task->state)), irq, secondary ? "s-" : "",
			  a->name ? a->name : "");
}

void irqkit__irq_threads_show(struct irqkit__sbuf *sb, char (*letter)(unsigned int state))
{
	for (unsigned int irq = 0; irq < irqkit__rt.nr_irqs; irq++) {
		struct irqkit_desc *desc = irq_to_desc(irq);
		unsigned long flags;

		if (!READ_ONCE(desc->action))
			continue;
		flags = desc_lock_irqsave(desc);
		for (const struct irqkit_action *a = desc->action; a; a = a->next) {
			show_one(sb, letter, a, irq, false);
			if (a->secondary)
				show_one(sb, letter, a->secondary, irq, true);
		}
		desc_unlock_irqrestore(desc, flags);
	}
}
