/* SPDX-License-Identifier: MIT */
/*
 * The hot half of handle.c and the edge flow, as inline bodies: handle.c's
 * handle_irq_event, chip.c's flows and dispatch.c's direct dispatch (a raise
 * taken on the raising thread) share one text, and the direct dispatch runs
 * the edge flow and the action chain in its own frame.  Internal to the core.
 */
#ifndef IRQKIT_CORE_HANDLE_H
#define IRQKIT_CORE_HANDLE_H

#include "internals.h"
#include "debug/debug.h"

HIDDEN void irqkit__handler_left_state(unsigned int irq, unsigned int pc);
HIDDEN void irqkit__warn_no_thread(unsigned int irq, struct irqkit_action *action);
HIDDEN enum irqkit_irqreturn irqkit__handle_actions_observed(struct irqkit_desc *desc);
HIDDEN void irqkit__mask_ack_irq(struct irqkit_desc *desc);
HIDDEN void irqkit__handle_edge_irq_turns(struct irqkit_desc *desc);

/*
 * Call every action in registration order with interrupts off, OR-ing their
 * results.  The chain is walked without the descriptor lock:
 * an action is unlinked under the lock and freed only after the line is no
 * longer in progress (free_irq synchronises), so the walk never sees freed
 * memory.  A handler that turned interrupts on is warned about once (1.2);
 * one that returns with preemption still off (a spinlock it took and did not
 * release) is reported and its count put back, as Linux does for a softirq.
 */
/*
 * The chain, @observed a constant: the watched form (histograms, recorder)
 * is a copy of its own, out of line, so the plain one carries nothing of it.
 */
static __always_inline enum irqkit_irqreturn
handle_actions_as(struct irqkit_desc *desc, const bool observed)
{
	struct irqkit_task *t = irqkit_arch_current();
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

		/* the running function for reports, in each branch: the dispatch path */
		irqkit_trace(irq_handler_entry, irq, action->name);
		if (action->handler) {
			WRITE_ONCE(t->running_fn, (const void *)action->handler);
			res = action->handler((int)irq, action->dev_id);
		} else {
			WRITE_ONCE(t->running_fn, (const void *)action->handler_regs);
			res = action->handler_regs((int)irq, action->dev_id, NULL);
		}
		irqkit_trace(irq_handler_exit, irq, res);
		if (observed)
			ts = irqkit__obs_handler(desc, action, res, ts, &flow);
		/* the report finds the thread and the handler itself: nothing more live across the call */
		if (unlikely(!task_irqs_off(t) || t->preempt_count != pc))
			irqkit__handler_left_state(irq, pc);
		if (res == IRQKIT_WAKE_THREAD) {
			/*
			 * The spurious verdict of a pure WAKE_THREAD is on what the
			 * threads did before this interrupt woke them: on a CPU the
			 * woken thread runs only after the hardirq, here it may run
			 * at once, and its count would be taken for the last one's.
			 */
			if (!(retval & IRQKIT_WAKE_THREAD))
				WRITE_ONCE(desc->threads_handled_seen,
					   a_load_seq(&desc->threads_handled));
			if (unlikely(!action->thread_fn))
				irqkit__warn_no_thread(irq, action);
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

/* @unwatched, a constant: the caller saw observation off, no need to look again. */
static __always_inline enum irqkit_irqreturn
handle_actions(struct irqkit_desc *desc, const bool unwatched)
{
	if (!unwatched && unlikely(irqkit__observing()))
		return irqkit__handle_actions_observed(desc);
	return handle_actions_as(desc, false);
}

/*
 * handle_irq_event_percpu(): the actions, then the spurious accounting.  The
 * common case inline: handled, a line that is not polled, the window not at
 * its end, irqpoll off; that is note_interrupt's whole work there (it
 * advances the window, with IRQKIT_CFG_WINDOW_FROM_UNHANDLED only once an
 * interrupt was unhandled).  Everything else goes to note_interrupt.  The spurious poll's
 * runs are not counted, as Linux's note_interrupt skips them: the poll runs
 * the chain through handle_irq_event_poll(), so no dispatch needs to look
 * for it.
 */
static __always_inline enum irqkit_irqreturn
handle_irq_event_percpu(struct irqkit_desc *desc, const bool unwatched)
{
	enum irqkit_irqreturn ret = handle_actions(desc, unwatched);
	unsigned int settings = READ_ONCE(desc->settings);
	unsigned int count = READ_ONCE(desc->irq_count);

	if (likely(ret == IRQKIT_HANDLED &&
		   !(settings & (IRQ_SETTINGS_NO_DEBUG | IRQ_SETTINGS_IRQPOLL |
				 IRQKIT_IRQ_IS_POLLED)) &&
		   count + 1 < SPURIOUS_WINDOW)) {
		/* the window of 5.13 on moves only once an interrupt was unhandled */
		if (!(READ_ONCE(irqkit__rt.flags) & IRQKIT_CFG_WINDOW_FROM_UNHANDLED) ||
		    READ_ONCE(desc->irqs_unhandled))
			WRITE_ONCE(desc->irq_count, count + 1);
	} else if (!(settings & IRQ_SETTINGS_NO_DEBUG))
		irqkit__note_interrupt(desc, ret);
	return ret;
}

/*
 * handle_irq_event(): called with the descriptor lock held.  Clears PENDING,
 * marks the line in progress, runs the actions with the lock dropped, and
 * clears in-progress again under the lock.
 */
static __always_inline enum irqkit_irqreturn
__handle_irq_event_as(struct irqkit_desc *desc, bool account, const bool unwatched,
		      const bool pending_known_clear)
{
	enum irqkit_irqreturn ret;

	desc_assert_locked(desc);
	if (!pending_known_clear)
		istate_clear(desc, IRQS_PENDING);
	irqd_set(&desc->irq_data, IRQD_IRQ_INPROGRESS);
	desc_unlock(desc);

	ret = account ? handle_irq_event_percpu(desc, unwatched) : handle_actions(desc, unwatched);

	desc_lock(desc);
	irqd_clear(&desc->irq_data, IRQD_IRQ_INPROGRESS);
	if (unlikely(desc->deferred_free != NULL))
		irqkit__free_deferred(desc);
	return ret;
}

static __always_inline enum irqkit_irqreturn
__handle_irq_event(struct irqkit_desc *desc, bool account, const bool unwatched)
{
	return __handle_irq_event_as(desc, account, unwatched, false);
}

static inline struct irqkit_chip *desc_chip(struct irqkit_desc *desc)
{
	return desc->irq_data.chip;
}

/* ---- preconditions of the flows ------------------------------ */

static inline bool irq_may_run(struct irqkit_desc *desc)
{
	if (likely(!irqd_irq_inprogress(&desc->irq_data)))
		return true;
	/* busy elsewhere: only a running spurious poll is waited for */
	if (!(istate_get(desc) & IRQS_POLL_INPROGRESS))
		return false;
	return irqkit__irq_wait_for_poll(desc);
}

/*
 * Remember an interrupt the flow cannot handle now.  One that finds another
 * already pending is folded into it, as edges coalesce on hardware; irqkit
 * counts the fold so every arrival stays accounted (DESIGN guarantee 6).
 */
static inline void flow_mark_pending(struct irqkit_desc *desc)
{
	desc_assert_locked(desc);
	if (istate_get(desc) & IRQS_PENDING)
		WRITE_ONCE(desc->pending_merged, desc->pending_merged + 1);
	istate_set(desc, IRQS_PENDING);
}

/*
 * The flow is about to run the actions for its own interrupt while an older
 * one is still PENDING (a replay that met a replay in flight, -EBUSY in
 * check_irq_resend): this run serves both, so the older one is folded.
 */
static inline void fold_stale_pending(struct irqkit_desc *desc)
{
	if (unlikely(istate_get(desc) & IRQS_PENDING))
		WRITE_ONCE(desc->pending_merged, desc->pending_merged + 1);
}

static __always_inline bool irq_can_handle_actions(struct irqkit_desc *desc)
{
	istate_clear(desc, IRQS_REPLAY | IRQS_WAITING);
	if (unlikely(!desc->action || irqd_irq_disabled(&desc->irq_data))) {
		flow_mark_pending(desc);
		return false;
	}
	return true;
}

/*
 * A later turn of the edge flow's loop, the descriptor lock held: the
 * actions, unmasking first (an edge came while they ran).  False: the line
 * lost its last action meanwhile; it is masked and the flow ends.
 */
static __always_inline bool edge_irq_turn(struct irqkit_desc *desc)
{
	if (unlikely(!desc->action)) {
		irqkit__mask_irq(desc);
		return false;
	}
	if (unlikely(istate_get(desc) & IRQS_PENDING)) {
		if (!irqd_irq_disabled(&desc->irq_data) && irqd_irq_masked(&desc->irq_data))
			irqkit__unmask_irq(desc);
	}
	WRITE_ONCE(desc->edge_turns, desc->edge_turns + 1);	/* a run with no ack before it */
	__handle_irq_event(desc, true, false);
	return true;
}

/* Another turn: an edge came while the actions ran, and the line is not disabled. */
static __always_inline bool edge_irq_again(struct irqkit_desc *desc)
{
	return (istate_get(desc) & IRQS_PENDING) && !irqd_irq_disabled(&desc->irq_data);
}

/*
 * What the caller of an inline flow knows, constants folded where used: the
 * CPU its thread holds (NULL: found again) and then the line's number; that
 * the chip latched nothing of this arrival, taken straight from its raise on
 * the CPU's own thread, so there is nothing to acknowledge (a chip's direct
 * path, irqkit__core_cpu_handle_now); and that observation is off.
 */
struct flow_known {
	struct irqkit_cpu	*cpu;
	unsigned int		irq;		/* the line's number, with cpu */
	bool			unlatched;
	bool			unwatched;
};

/*
 * An edge that cannot be handled now is remembered (PENDING)
 * and the line masked; the CPU running the line loops while PENDING is set.
 */
static __always_inline void handle_edge_irq_as(struct irqkit_desc *desc, const struct flow_known k)
{
	unsigned int st, ds;

	desc_lock(desc);
	/* the state words read once: nothing else changes them while the lock is held */
	ds = irqd_get(&desc->irq_data);
	if (unlikely(ds & (IRQD_IRQ_INPROGRESS | IRQD_IRQ_DISABLED)) &&
	    (!(ds & IRQD_IRQ_INPROGRESS) || !irq_may_run(desc) ||
	     irqd_irq_disabled(&desc->irq_data))) {
		/*
		 * In progress elsewhere (irq_may_run(), which may wait for the
		 * spurious poll and then finds the line as it is now), or
		 * disabled (irq_can_handle_actions()): remembered, masked.  The
		 * running CPU's loop serves an edge that found the line in
		 * progress; if it is a replay, that serves the replay, so
		 * REPLAY goes too (2.6's do_IRQ and the older handle_edge_irq
		 * cleared it on every entry, before this check).  Left set, the
		 * next enable's replay would be refused with -EBUSY and its
		 * edge parked until another edge arrives (DESIGN guarantee 6).
		 */
		istate_clear(desc, IRQS_REPLAY | IRQS_WAITING);
		flow_mark_pending(desc);
		irqkit__mask_ack_irq(desc);
		goto out_unlock;
	}
	/* irq_can_handle_actions() for a line that is not disabled, and the loop's first turn */
	st = istate_get(desc);
	if (unlikely(st & (IRQS_REPLAY | IRQS_WAITING)))
		istate_clear(desc, IRQS_REPLAY | IRQS_WAITING);
	if (unlikely(!desc->action)) {
		flow_mark_pending(desc);
		irqkit__mask_ack_irq(desc);
		goto out_unlock;
	}
	if (k.cpu)
		irqkit__kstat_incr_on(k.cpu, k.irq);
	else
		irqkit__kstat_incr(desc);
	if (!k.unlatched && desc_chip(desc)->irq_ack)
		desc_chip(desc)->irq_ack(&desc->irq_data);
	if (unlikely(st & IRQS_PENDING)) {
		fold_stale_pending(desc);	/* this run serves the older edge too */
		if (irqd_irq_masked(&desc->irq_data))
			irqkit__unmask_irq(desc);
		istate_clear(desc, IRQS_PENDING);
	}
	__handle_irq_event_as(desc, true, k.unwatched, true);
	/* later turns serve PENDING set while running */
	if (unlikely(edge_irq_again(desc)))
		irqkit__handle_edge_irq_turns(desc);
out_unlock:
	desc_unlock(desc);
}

static __always_inline void handle_edge_irq(struct irqkit_desc *desc)
{
	handle_edge_irq_as(desc, (struct flow_known){ 0 });
}

#endif /* IRQKIT_CORE_HANDLE_H */
