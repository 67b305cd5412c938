// SPDX-License-Identifier: MIT
/* Running a line's action chain (Linux's kernel/irq/handle.c). */
#include "internals.h"

/* Linux's warn_no_thread(): a handler asked for a thread it does not have; once per action. */
static void warn_no_thread(unsigned int irq, struct irqkit_action *action)
{
	if (a_xchg_relaxed(&action->warned_no_thread, true))
		return;
	pr_warn("IRQ %u device %s returned IRQ_WAKE_THREAD but no thread function available.",
		irq, action->name);
}

/*
 * Call every action in registration order with interrupts off, OR-ing their
 * results.  The chain is walked without the descriptor lock:
 * an action is unlinked under the lock and freed only after the line is no
 * longer in progress (free_irq synchronises), so the walk never sees freed
 * memory.  A handler that turned interrupts on is warned about once (1.2);
 * one that returns with preemption still off (a spinlock it took and did not
 * release) is reported and its count put back, as Linux does for a softirq.
 */
/* A handler returned with interrupts on, or with a lock (preemption off) still held. */
static __attribute__((noinline, cold)) void handler_left_state(struct irqkit_task *t,
							       unsigned int irq, const void *fn,
							       unsigned int pc)
{
	if (WARN_ONCE(!task_irqs_off(t), "irq %u handler %pS enabled interrupts", irq, fn))
		irqkit_local_irq_disable();
	if (t->preempt_count != pc) {
		pr_err("BUG: irq %u handler %pS returned with preempt_count %08x, entered with %08x (a lock still held?)",
		       irq, fn, t->preempt_count, pc);
		t->preempt_count = pc;
	}
}

/*
 * The chain, @observed a constant: the watched form (histograms, recorder)
 * is a copy of its own, out of line, so the plain one carries nothing of it.
 */
static __always_inline enum irqkit_irqreturn
handle_actions_as(struct irqkit_desc *desc, const bool observed)
{
	struct irqkit_task *t = &irqkit_task_self;
	const void *prev_running = t->running;
	const void *prev_fn = t->running_fn;
	unsigned int irq = irq_desc_get_irq(desc);
	unsigned int retval = IRQKIT_NONE;
	unsigned int pc = t->preempt_count;
	uint64_t start = 0, ts = 0, flow = 0;

	if (observed)
		start = ts = irqkit__obs_irq_begin(desc, &flow);
	WRITE_ONCE(t->running, desc);
	for (struct irqkit_action *action = a_load_acquire(&desc->action); action;
	     action = a_load_acquire(&action->next)) {
		unsigned int res;
		const void *fn;

		/* the running function for reports, in each branch: the dispatch path */
		irqkit_trace(irq_handler_entry, irq, action->name);
		if (action->handler) {
			fn = (const void *)action->handler;
			WRITE_ONCE(t->running_fn, fn);
			res = action->handler((int)irq, action->dev_id);
		} else {
			fn = (const void *)action->handler_regs;
			WRITE_ONCE(t->running_fn, fn);
			res = action->handler_regs((int)irq, action->dev_id, NULL);
		}
		irqkit_trace(irq_handler_exit, irq, res);
		if (observed)
			ts = irqkit__obs_handler(desc, action, res, ts, &flow);
		if (unlikely(!task_irqs_off(t) || t->preempt_count != pc))
			handler_left_state(t, irq, fn, pc);
		if (res == IRQKIT_WAKE_THREAD) {
			if (unlikely(!action->thread_fn))
				warn_no_thread(irq, action);
			else
				irqkit__irq_wake_thread(desc, action);
		}
		retval |= res;
	}
	if (observed)
		irqkit__obs_irq_end(desc, start, ts);
	WRITE_ONCE(t->running, prev_running);
	WRITE_ONCE(t->running_fn, prev_fn);
	return (enum irqkit_irqreturn)retval;
}

static __attribute__((noinline)) enum irqkit_irqreturn
handle_actions_observed(struct irqkit_desc *desc)
{
	return handle_actions_as(desc, true);
}

static __always_inline enum irqkit_irqreturn
handle_actions(struct irqkit_desc *desc)
{
	if (unlikely(irqkit__observing()))
		return handle_actions_observed(desc);
	return handle_actions_as(desc, false);
}

/*
 * handle_irq_event_percpu(): the actions, then the spurious accounting.  The
 * common case inline: handled, a line that is not polled, the window not at
 * its end; that is note_interrupt's whole work there (it advances the
 * window).  Everything else goes to note_interrupt.  The spurious poll's
 * runs are not counted, as Linux's note_interrupt skips them: the poll runs
 * the chain through handle_irq_event_poll(), so no dispatch needs to look
 * for it.
 */
static __always_inline enum irqkit_irqreturn
handle_irq_event_percpu(struct irqkit_desc *desc)
{
	enum irqkit_irqreturn ret = handle_actions(desc);
	unsigned int settings = READ_ONCE(desc->settings);
	unsigned int count = READ_ONCE(desc->irq_count);

	if (likely(ret == IRQKIT_HANDLED &&
		   !(settings & (IRQ_SETTINGS_NO_DEBUG | IRQKIT_IRQ_IS_POLLED)) &&
		   count + 1 < SPURIOUS_WINDOW))
		WRITE_ONCE(desc->irq_count, count + 1);
	else if (!(settings & IRQ_SETTINGS_NO_DEBUG))
		irqkit__note_interrupt(desc, ret);
	return ret;
}

/* Out of line for the flows that need only these parts (the per-CPU and nested flows). */
enum irqkit_irqreturn irqkit__handle_actions(struct irqkit_desc *desc)
{
	return handle_actions(desc);
}

enum irqkit_irqreturn irqkit__handle_irq_event_percpu(struct irqkit_desc *desc)
{
	return handle_irq_event_percpu(desc);
}

/* Actions removed by their own handler (see irqkit_free_irq): free them now. */
void irqkit__free_deferred(struct irqkit_desc *desc)
{
	while (unlikely(desc->deferred_free != NULL)) {
		struct irqkit_action *action = desc->deferred_free;

		desc->deferred_free = action->deferred_next;
		if (action->thread)
			irqkit__reap_action(action);	/* its thread is joined later */
		else
			irqkit_plat_free(action, sizeof(*action));
	}
}

/*
 * handle_irq_event(): called with the descriptor lock held.  Clears PENDING,
 * marks the line in progress, runs the actions with the lock dropped, and
 * clears in-progress again under the lock.
 */
static __always_inline enum irqkit_irqreturn
__handle_irq_event(struct irqkit_desc *desc, bool account)
{
	enum irqkit_irqreturn ret;

	desc_assert_locked(desc);
	istate_clear(desc, IRQS_PENDING);
	irqd_set(&desc->irq_data, IRQD_IRQ_INPROGRESS);
	desc_unlock(desc);

	ret = account ? handle_irq_event_percpu(desc) : handle_actions(desc);

	desc_lock(desc);
	irqd_clear(&desc->irq_data, IRQD_IRQ_INPROGRESS);
	irqkit__free_deferred(desc);
	return ret;
}

enum irqkit_irqreturn irqkit__handle_irq_event(struct irqkit_desc *desc)
{
	return __handle_irq_event(desc, true);
}

/* The same for the spurious poll (IRQS_POLL_INPROGRESS): no accounting. */
enum irqkit_irqreturn irqkit__handle_irq_event_poll(struct irqkit_desc *desc)
{
	return __handle_irq_event(desc, false);
}

/*
 * __irq_wake_thread (1.11): set RUNTHREAD; if it was already set nothing more
 * happens (several wakes, one run).  Otherwise the action's ONESHOT bit goes
 * into threads_oneshot and threads_active counts the run.  Any context.
 */
void irqkit__irq_wake_thread(struct irqkit_desc *desc, struct irqkit_action *action)
{
	if (a_load_acquire(&action->thread_flags) & IRQTF_STOP)
		return;
	if (a_fetch_or(&action->thread_flags, IRQTF_RUNTHREAD) &
	    IRQTF_RUNTHREAD)
		return;
	a_fetch_or(&desc->threads_oneshot, action->thread_mask);
	a_fetch_add(&desc->threads_active, 1);
	irqkit__seq_wake(&action->thread_seq);
}

/*
 * A line with no flow handler.  Linux prints the descriptor
 * (rate-limited), counts the interrupt and calls ack_bad_irq, which says
 * "unexpected IRQ trap at vector %02x" and adds to the ERR row.
 */
void irqkit_handle_bad_irq(struct irqkit_desc *desc)
{
	unsigned int irq = irq_desc_get_irq(desc);

	if (irqkit__printk_ratelimit()) {
		struct irqkit_action *action;

		desc_lock(desc);
		action = desc->action;
		pr_warn("irq %u, desc: %p, depth: %u, count: %u, unhandled: %u", irq, (void *)desc,
			desc->depth, READ_ONCE(desc->irq_count), READ_ONCE(desc->irqs_unhandled));
		pr_warn("->handle_irq():  %p, %pS", (void *)desc->handle_irq,
			(void *)desc->handle_irq);
		pr_warn("->irq_data.chip(): %p, %s", (void *)desc->irq_data.chip,
			desc->irq_data.chip->name);
		pr_warn("->action(): %p", (void *)action);
		if (action)
			pr_warn("->action->handler(): %p, %pS", (void *)action->handler,
				(void *)action->handler);
		desc_unlock(desc);
	}
	irqkit__kstat_incr(desc);
	a_fetch_add(&irqkit__rt.irq_err_count, 1);
	if (irqkit__printk_ratelimit())
		irqkit_printk(IRQKIT_LOG_CRIT, "unexpected IRQ trap at vector %02x", irq);
}
