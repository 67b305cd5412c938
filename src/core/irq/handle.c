// SPDX-License-Identifier: MIT
/* Running a line's action chain (Linux's kernel/irq/handle.c). */
#include "handle.h"
#include "sched/sched.h"

/* Linux's warn_no_thread(): a handler asked for a thread it does not have; once per action. */
void irqkit__warn_no_thread(unsigned int irq, struct irqkit_action *action)
{
	if (a_xchg_relaxed(&action->warned_no_thread, true))
		return;
	pr_warn("IRQ %u device %s returned IRQ_WAKE_THREAD but no thread function available.",
		irq, action->name);
}

/*
 * A handler returned with interrupts on, or with a lock (preemption off)
 * still held.  The handler is read back from running_fn, the thread from
 * its own: nothing of this stays live across the hot path's call.
 */
__attribute__((cold)) void irqkit__handler_left_state(unsigned int irq, unsigned int pc)
{
	struct irqkit_task *t = irqkit_arch_current();
	const void *fn = READ_ONCE(t->running_fn);

	if (WARN_ONCE(!task_irqs_off(t), "irq %u handler %pS enabled interrupts", irq, fn))
		irqkit_local_irq_disable();
	if (t->preempt_count != pc) {
		pr_err("BUG: irq %u handler %pS returned with preempt_count %08x, entered with %08x (a lock still held?)",
		       irq, fn, t->preempt_count, pc);
		t->preempt_count = pc;
	}
}

/* The watched chain (histograms, recorder), a copy of its own out of line. */
enum irqkit_irqreturn irqkit__handle_actions_observed(struct irqkit_desc *desc)
{
	return handle_actions_as(desc, true);
}

/* Out of line for the flows that need only these parts (the per-CPU and nested flows). */
enum irqkit_irqreturn irqkit__handle_actions(struct irqkit_desc *desc)
{
	return handle_actions(desc, false);
}

enum irqkit_irqreturn irqkit__handle_irq_event_percpu(struct irqkit_desc *desc)
{
	return handle_irq_event_percpu(desc, false);
}

/* Actions removed by their own handler (see irqkit_free_irq): free them now. */
void irqkit__free_deferred(struct irqkit_desc *desc)
{
	while (desc->deferred_free != NULL) {
		struct irqkit_action *action = desc->deferred_free;

		desc->deferred_free = action->deferred_next;
		if (action->thread)
			irqkit__reap_action(action);	/* its thread is joined later */
		else
			irqkit_plat_free(action, sizeof(*action));
	}
}

/*
 * The edge flow's later turns, out of line: the first turn is the common
 * case, and a loop in the inline flow keeps the descriptor's field
 * addresses live across the handlers' calls.  Descriptor lock held.
 */
void irqkit__handle_edge_irq_turns(struct irqkit_desc *desc)
{
	desc_assert_locked(desc);
	while (edge_irq_turn(desc) && edge_irq_again(desc))
		;
}

enum irqkit_irqreturn irqkit__handle_irq_event(struct irqkit_desc *desc)
{
	return __handle_irq_event(desc, true, false);
}

/* The same for the spurious poll (IRQS_POLL_INPROGRESS): no accounting. */
enum irqkit_irqreturn irqkit__handle_irq_event_poll(struct irqkit_desc *desc)
{
	return __handle_irq_event(desc, false, false);
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

	if (irqkit__core_printk_ratelimit()) {
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
	if (irqkit__core_printk_ratelimit())
		irqkit_printk(IRQKIT_LOG_CRIT, "unexpected IRQ trap at vector %02x", irq);
}
