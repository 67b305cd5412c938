// SPDX-License-Identifier: MIT
/*
 * The driver API (Linux's kernel/irq/manage.c): request_irq and free_irq with
 * the sharing rules, disable/enable with depth, synchronize_irq,
 * can_request_irq, trigger type and affinity.  The irq threads themselves
 * are thread.c's.
 *
 * Locking: desc->request_mutex (sleeping) serialises request and free of a
 * line; inside it, the descriptor lock guards the line state.  Order:
 * request_mutex -> descriptor lock -> resend lock / timer lock.
 */
#include "internals.h"
#include "time/time.h"
#include "sched/sched.h"
#include "locking/locking.h"
#include "debug/debug.h"

/* ---- synchronisation ------------------------------------------------------- */

/*
 * A wait for the line's own handlers, made from one of them, never ends:
 * INPROGRESS belongs to the caller.  Report it and do not wait.
 * Return: true when the caller is inside a handler of @desc.
 */
static bool self_deadlock(struct irqkit_desc *desc, const char *what, const char *instead)
{
	if (likely(irqkit_arch_current()->running != desc))
		return false;
	irqkit__warn(__FILE__, __LINE__,
		     "%s(%u) called from a handler of irq %u: it would wait for itself forever; not waiting (use %s)",
		     what, irq_desc_get_irq(desc), irq_desc_get_irq(desc), instead);
	return true;
}

/* __synchronize_hardirq. */
static void __synchronize_hardirq(struct irqkit_desc *desc)
{
	unsigned long flags;
	struct irqkit_chip *chip;
	bool inprogress;

	struct irqkit__wait w;

	irqkit__wait_init(&w);
	do {
		unsigned int spins = 0;

		while (irqd_irq_inprogress(&desc->irq_data)) {
			irqkit__wait_begin(&w, "synchronize_irq", WAIT_IRQ, NULL,
					   irq_desc_get_irq(desc));
			spin_step(&spins);
		}
		flags = desc_lock_irqsave(desc);
		inprogress = irqd_irq_inprogress(&desc->irq_data);
		chip = desc->irq_data.chip;
		if (!inprogress && chip->irq_get_irqchip_state) {
			bool active = false;

			if (!chip->irq_get_irqchip_state(&desc->irq_data, IRQKIT_CHIPSTATE_ACTIVE,
							 &active))
				inprogress = active;
		}
		desc_unlock_irqrestore(desc, flags);
	} while (inprogress);
	irqkit__wait_end(&w);
}

/* The line whose threaded handler the calling thread runs (irq/N-name), or NULL. */
static inline struct irqkit_desc *thread_desc(void)
{
	return irqkit_arch_current()->irq_thread_desc;
}

/* That thread's action, or NULL. */
static inline struct irqkit_action *thread_action(void)
{
	return irqkit_arch_current()->irq_thread_action;
}

/* Sleep until no threaded handler of the line is active. */
static void wait_for_threads(struct irqkit_desc *desc)
{
	if (thread_desc() == desc) {
		irqkit__warn(__FILE__, __LINE__,
			     "waiting for the threads of irq %u from its own thread: it would wait for itself forever; not waiting",
			     irq_desc_get_irq(desc));
		return;
	}
	irqkit__seq_wait_event(&desc->wait_for_threads, !a_load_seq(&desc->threads_active),
			       "synchronize_irq", WAIT_IRQ, NULL, irq_desc_get_irq(desc));
}

static void __synchronize_irq(struct irqkit_desc *desc)
{
	__synchronize_hardirq(desc);
	wait_for_threads(desc);
}

bool irqkit_synchronize_hardirq(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return false;
	if (!self_deadlock(desc, "synchronize_hardirq", "nothing: a handler needs no wait"))
		__synchronize_hardirq(desc);
	return !a_load_seq(&desc->threads_active);
}

void irqkit_synchronize_irq(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);

	might_sleep();
	if (!desc)
		return;
	if (!self_deadlock(desc, "synchronize_irq", "nothing: a handler needs no wait"))
		__synchronize_irq(desc);
}

/*
 * The chip state of @desc's line, asked of (or set at) the first level of
 * its hierarchy whose chip has the operation.  Descriptor lock held.
 * Return: the chip's answer, or -EINVAL when no level has it.
 */
static int irqchip_state_locked(struct irqkit_desc *desc, int which, bool *state, bool set,
				bool val)
{
	for (struct irqkit_irq_data *d = &desc->irq_data; d; d = d->parent_data) {
		struct irqkit_chip *chip = d->chip;

		if (!set && chip->irq_get_irqchip_state)
			return chip->irq_get_irqchip_state(d, which, state);
		if (set && chip->irq_set_irqchip_state)
			return chip->irq_set_irqchip_state(d, which, val);
	}
	return -IRQKIT_EINVAL;
}

/*
 * Does @desc hold an arrival not yet handled?  Where an arrival can be, in
 * the order it passes: latched in the chip (its PENDING state), signalled
 * to its CPU (the CPU's bitmap), in the word of the bitmap the CPU took
 * (cpu->taking_word), being claimed from the chip and handled there
 * (cpu->taking), in progress, marked PENDING or REPLAY by the flow, queued
 * for the software resend, and a threaded handler still to run or running.
 * Each step shows the next before it lets go of its own, and the places are
 * looked at in that order: an arrival that moves on meanwhile is met at a
 * later one (or has been handled).  An arrival held back by an injected
 * delay is the exception: let go, it starts the path again, so the look
 * begins and ends with the fault's count of those let go.
 */
static bool has_undelivered(struct irqkit_desc *desc, unsigned int irq)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	unsigned int released0, released1;
	unsigned long flags;
	bool pending = false;
	bool busy;

	if (irqkit__fault_holding(desc, &released0))
		return true;
	flags = desc_lock_irqsave(desc);
	busy = !irqchip_state_locked(desc, IRQKIT_CHIPSTATE_PENDING, &pending, false, false) &&
	       pending;
	desc_unlock_irqrestore(desc, flags);
	/* a claim cleared the chip's state after `taking` was set: seeing one, see the other */
	a_fence();
	for (unsigned int c = 0; !busy && c < rt->nr_cpus; c++)
		busy = (a_load_seq(&rt->cpus[c].pend0[irq / 64]) & (1ull << (irq % 64))) ||
		       a_load_seq(&rt->cpus[c].taking_word) == irq / 64 + 1 ||
		       a_load_seq(&rt->cpus[c].taking) == irq + 1;
	if (!busy) {
		flags = desc_lock_irqsave(desc);
		busy = irqd_irq_inprogress(&desc->irq_data) ||
		       (desc->istate & (IRQS_PENDING | IRQS_REPLAY));
		desc_unlock_irqrestore(desc, flags);
	}
	return busy || irqkit__resend_queued(desc) || a_load_seq(&desc->threads_active) ||
	       irqkit__fault_holding(desc, &released1) || released1 != released0;
}

int irqkit_wait_delivered(unsigned int irq, unsigned int timeout_ms)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	uint64_t deadline;
	struct irqkit__wait w;

	might_sleep();
	if (!desc)
		return -IRQKIT_EINVAL;
	if (self_deadlock(desc, "irqkit_wait_delivered", "nothing: it is being delivered"))
		return -IRQKIT_EDEADLK;
	if (thread_desc() == desc) {
		irqkit__warn(__FILE__, __LINE__,
			     "irqkit_wait_delivered(%u) from the line's own irq thread: it would wait for itself; not waiting",
			     irq);
		return -IRQKIT_EDEADLK;
	}
	if (mode_player_delivers()) {
		/* nothing moves unless the test moves it: deliver what this CPU has */
		irqkit_deliver_pending();
		return has_undelivered(desc, irq) ? -IRQKIT_EAGAIN : 0;
	}
	deadline = irqkit_plat_now_ns() + (uint64_t)timeout_ms * 1000000u;
	irqkit__wait_init(&w);
	while (has_undelivered(desc, irq)) {
		if (irqkit_plat_now_ns() >= deadline) {
			irqkit__wait_end(&w);
			return -IRQKIT_ETIMEDOUT;
		}
		irqkit__wait_begin(&w, "irqkit_wait_delivered", WAIT_IRQ, NULL, irq);
		irqkit_plat_sleep_ns(20000);
	}
	irqkit__wait_end(&w);
	return 0;
}


/* ---- disable / enable --------------------------------------- */

static void __disable_irq(struct irqkit_desc *desc)
{
	if (!desc->depth++)
		irqkit__irq_disable(desc);
}

void irqkit_disable_irq_nosync(unsigned int irq)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return;
	flags = desc_lock_irqsave(desc);
	__disable_irq(desc);
	desc_unlock_irqrestore(desc, flags);
}

void irqkit_disable_irq(unsigned int irq)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);

	might_sleep();
	if (!desc)
		return;
	flags = desc_lock_irqsave(desc);
	__disable_irq(desc);
	desc_unlock_irqrestore(desc, flags);
	if (!self_deadlock(desc, "disable_irq", "disable_irq_nosync"))
		__synchronize_irq(desc);
}

bool irqkit_disable_hardirq(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return false;
	irqkit_disable_irq_nosync(irq);
	return irqkit_synchronize_hardirq(irq);
}

/* __enable_irq.  Descriptor lock held. */
void irqkit__enable_irq_locked(struct irqkit_desc *desc)
{
	desc_assert_locked(desc);
	switch (desc->depth) {
	case 0:
		WARN(1, "Unbalanced enable for IRQ %u", irq_desc_get_irq(desc));
		break;
	case 1:
		/* (Linux also refuses here while the line is suspended: no suspend in irqkit) */
		WRITE_ONCE(desc->settings, desc->settings | IRQKIT_IRQ_NOPROBE);
		irqkit__irq_startup(desc, true);
		break;
	default:
		desc->depth--;
	}
}

void irqkit_enable_irq(unsigned int irq)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return;
	flags = desc_lock_irqsave(desc);
	if (!WARN(desc->irq_data.chip == &irqkit_no_irq_chip,
		  "enable_irq before setup/request_irq: irq %u", irq))
		irqkit__enable_irq_locked(desc);
	desc_unlock_irqrestore(desc, flags);
	irqkit__point("enable_irq", __builtin_return_address(0));
	irqkit_deliver_pending();
}

/* ---- request --------------------------------------------------------------- */

/*
 * __setup_irq: link @new at the tail of the line's
 * actions if the sharing rules allow; the first action starts the line.
 */
static int __setup_irq(unsigned int irq, struct irqkit_desc *desc, struct irqkit_action *new)
{
	unsigned long flags;
	struct irqkit_action *old, **old_ptr;
	struct irqkit_chip *chip;
	bool shared = false;
	int ret = 0;

	unsigned long thread_mask = 0;
	bool nested;

	if (desc->irq_data.chip == &irqkit_no_irq_chip)
		return -IRQKIT_ENOSYS;
	new->irq = irq;

	/* no trigger given: take the line's current one (1.4 step 3) */
	if (!(new->flags & IRQKIT_F_TRIGGER_MASK))
		new->flags |= irqd_get(&desc->irq_data) & IRQD_TRIGGER_MASK;

	/* 1.4 step 4: a nested line's actions run in the parent's thread */
	nested = READ_ONCE(desc->settings) & IRQKIT_IRQ_NESTED_THREAD;
	if (nested) {
		if (!new->thread_fn)
			return -IRQKIT_EINVAL;
		new->handler = irqkit__nested_primary_handler;
	} else {
		ret = irqkit__irq_setup_forced_threading(desc, new);
		if (ret)
			return ret;
	}
	/* 1.4 step 5: a thread for a thread function */
	if (new->thread_fn && !nested) {
		ret = irqkit__setup_irq_thread(new, irq);
		if (ret)
			return ret;
	}

	irqkit__mutex_lock(&desc->request_mutex);
	flags = desc_lock_irqsave(desc);
	chip = desc->irq_data.chip;
	if (chip->flags & IRQKIT_CHIP_ONESHOT_SAFE)
		new->flags &= ~IRQKIT_F_ONESHOT;

	old_ptr = &desc->action;
	old = *old_ptr;
	if (old) {
		unsigned int oldtype;

		if (irqd_has(&desc->irq_data, IRQD_DEFAULT_TRIGGER_SET)) {
			oldtype = irqd_get(&desc->irq_data) & IRQD_TRIGGER_MASK;
		} else {
			oldtype = new->flags & IRQKIT_F_TRIGGER_MASK;
			irqd_clear(&desc->irq_data, IRQD_TRIGGER_MASK);
			irqd_set(&desc->irq_data, oldtype | IRQD_DEFAULT_TRIGGER_SET);
		}
		if (!((old->flags & new->flags) & IRQKIT_F_SHARED) ||
		    oldtype != (new->flags & IRQKIT_F_TRIGGER_MASK))
			goto mismatch;
		if ((old->flags & IRQKIT_F_ONESHOT) && (new->flags & IRQKIT_F_COND_ONESHOT))
			new->flags |= IRQKIT_F_ONESHOT;
		else if ((old->flags ^ new->flags) & IRQKIT_F_ONESHOT)
			goto mismatch;
		if ((old->flags & IRQKIT_F_PERCPU) != (new->flags & IRQKIT_F_PERCPU))
			goto mismatch;
		while (old) {
			thread_mask |= old->thread_mask;
			old_ptr = &old->next;
			old = *old_ptr;
		}
		shared = true;
	}

	/* 1.4 steps 8-9: a ONESHOT action owns a bit of threads_oneshot */
	if (new->flags & IRQKIT_F_ONESHOT) {
		if (thread_mask == ~0ul) {
			ret = -IRQKIT_EBUSY;
			goto out_unlock;
		}
		new->thread_mask = 1ul << __builtin_ctzl(~thread_mask);
	} else if (new->handler == irqkit__default_primary_handler &&
		   !(chip->flags & IRQKIT_CHIP_ONESHOT_SAFE)) {
		pr_err("genirq: Threaded irq requested with handler=NULL and !ONESHOT for %s (irq %u)",
		       new->name, irq);
		ret = -IRQKIT_EINVAL;
		goto out_unlock;
	}

	if (!shared) {
		/* first action (1.7): the line's resources first, whether it starts or not */
		ret = irqkit__irq_activate(desc);
		if (ret)
			goto out_unlock;
		if (new->flags & IRQKIT_F_TRIGGER_MASK) {
			ret = irqkit__irq_set_trigger(desc, new->flags & IRQKIT_F_TRIGGER_MASK);
			if (ret)
				goto out_unlock;
		}
		istate_clear(desc, IRQS_AUTODETECT | IRQS_SPURIOUS_DISABLED | IRQS_ONESHOT |
				   IRQS_WAITING);
		irqd_clear(&desc->irq_data, IRQD_IRQ_INPROGRESS);
		if (new->flags & IRQKIT_F_PERCPU) {
			irqd_set(&desc->irq_data, IRQD_PER_CPU);
			WRITE_ONCE(desc->settings, desc->settings | IRQKIT_IRQ_PER_CPU);
			if (new->flags & IRQKIT_F_NO_DEBUG)
				WRITE_ONCE(desc->settings, desc->settings | IRQ_SETTINGS_NO_DEBUG);
		}
		if (irqkit__rt.flags & IRQKIT_CFG_NOIRQDEBUG)
			WRITE_ONCE(desc->settings, desc->settings | IRQ_SETTINGS_NO_DEBUG);
		if (irqkit__rt.flags & IRQKIT_CFG_IRQPOLL)
			WRITE_ONCE(desc->settings, desc->settings | IRQ_SETTINGS_IRQPOLL);
		if (new->flags & IRQKIT_F_ONESHOT)
			istate_set(desc, IRQS_ONESHOT);
		if (new->flags & IRQKIT_F_NOBALANCING) {
			WRITE_ONCE(desc->settings, desc->settings | IRQKIT_IRQ_NO_BALANCING);
			irqd_set(&desc->irq_data, IRQD_NO_BALANCING);
		}
		if (!(new->flags & IRQKIT_F_NO_AUTOEN) && !(desc->settings & IRQKIT_IRQ_NOAUTOEN)) {
			irqkit__irq_startup(desc, true);
		} else {
			WARN_ON_ONCE(new->flags & IRQKIT_F_SHARED);
			desc->depth = 1;
		}
	} else if (new->flags & IRQKIT_F_TRIGGER_MASK) {
		unsigned int nmsk = new->flags & IRQKIT_F_TRIGGER_MASK;
		unsigned int omsk = irqd_get(&desc->irq_data) & IRQD_TRIGGER_MASK;

		if (nmsk != omsk)
			pr_warn("genirq: irq %u uses trigger mode %u; requested %u", irq, omsk, nmsk);
	}

	a_store_release(old_ptr, new);
	WRITE_ONCE(desc->irq_count, 0);
	WRITE_ONCE(desc->irqs_unhandled, 0);

	/* a spurious-disabled shared line gets another chance (3.9 a) */
	if (shared && (istate_get(desc) & IRQS_SPURIOUS_DISABLED)) {
		istate_clear(desc, IRQS_SPURIOUS_DISABLED);
		irqkit__enable_irq_locked(desc);
	}
	goto out_unlock;

mismatch:
	if (!(new->flags & IRQKIT_F_PROBE_SHARED))
		pr_err("genirq: Flags mismatch irq %u. %08x (%s) vs. %08x (%s)", irq, new->flags,
		       new->name, old->flags, old->name);
	ret = -IRQKIT_EBUSY;
out_unlock:
	desc_unlock_irqrestore(desc, flags);
	irqkit__mutex_unlock(&desc->request_mutex);
	if (ret)
		irqkit__stop_irq_thread(new);
	return ret;
}

/*
 * request_threaded_irq's argument checks, in Linux's order.
 * Always inlined: the interrupt point at its end names the driver's call.
 */
static __always_inline int request_common(unsigned int irq, irqkit_handler_fn handler,
			  irqkit_handler_regs_fn handler_regs, irqkit_handler_fn thread_fn,
			  unsigned long irqflags, const char *devname, void *dev_id)
{
	unsigned int flags = (unsigned int)irqflags;
	struct irqkit_action *action;
	struct irqkit_desc *desc;
	int ret;

	if (irq == IRQKIT_NOTCONNECTED)
		return -IRQKIT_ENOTCONN;
	if (((flags & IRQKIT_F_SHARED) && !dev_id) ||
	    ((flags & IRQKIT_F_SHARED) && (flags & IRQKIT_F_NO_AUTOEN)) ||
	    (!(flags & IRQKIT_F_SHARED) && (flags & IRQKIT_F_COND_SUSPEND)) ||
	    ((flags & IRQKIT_F_NO_SUSPEND) && (flags & IRQKIT_F_COND_SUSPEND)))
		return -IRQKIT_EINVAL;
	desc = irq_to_desc(irq);
	if (!desc)
		return -IRQKIT_EINVAL;
	if ((READ_ONCE(desc->settings) & IRQKIT_IRQ_NOREQUEST) ||
	    WARN_ON(READ_ONCE(desc->settings) & IRQKIT_IRQ_PER_CPU_DEVID))
		return -IRQKIT_EINVAL;
	if (!handler && !handler_regs) {
		if (!thread_fn)
			return -IRQKIT_EINVAL;
		handler = irqkit__default_primary_handler;	/* 1.3 step 5 */
	}
	might_sleep();

	action = irqkit_plat_alloc(sizeof(*action));
	if (!action)
		return -IRQKIT_ENOMEM;
	action->handler = handler;
	action->handler_regs = handler_regs;
	action->thread_fn = thread_fn;
	action->flags = flags;
	action->name = devname;
	action->dev_id = dev_id;

	ret = __setup_irq(irq, desc, action);
	if (ret) {
		irqkit_plat_free(action, sizeof(*action));
		return ret;
	}
	irqkit__point("request_irq", __builtin_return_address(0));
	irqkit_deliver_pending();
	return 0;
}

/* request_irq is request_threaded_irq with no thread and COND_ONESHOT. */
int irqkit_request_irq(unsigned int irq, irqkit_handler_fn handler, unsigned long flags,
		       const char *name, void *dev_id)
{
	if (!handler)
		return irq == IRQKIT_NOTCONNECTED ? -IRQKIT_ENOTCONN : -IRQKIT_EINVAL;
	return request_common(irq, handler, NULL, NULL, flags | IRQKIT_F_COND_ONESHOT, name,
			      dev_id);
}

int irqkit_request_irq_regs(unsigned int irq, irqkit_handler_regs_fn handler,
			    unsigned long flags, const char *name, void *dev_id)
{
	if (!handler)
		return irq == IRQKIT_NOTCONNECTED ? -IRQKIT_ENOTCONN : -IRQKIT_EINVAL;
	return request_common(irq, NULL, handler, NULL, flags | IRQKIT_F_COND_ONESHOT, name,
			      dev_id);
}

int irqkit_request_threaded_irq(unsigned int irq, irqkit_handler_fn handler,
				irqkit_handler_fn thread_fn, unsigned long flags, const char *name,
				void *dev_id)
{
	return request_common(irq, handler, NULL, thread_fn, flags, name, dev_id);
}

/* ---- free ------------------------------------------------------ */

/*
 * Unlink @dev_id's action from @desc (the first match, as Linux); the last
 * one shuts the line down.  Called from the line's own handler, waiting
 * would never end: the action goes on desc->deferred_free, freed by
 * handle_irq_event when the handler returns (its thread, if any, told to
 * stop and joined later in process context), and *@deferred says so.
 * Return: the action, or NULL when none has @dev_id.
 */
static struct irqkit_action *unlink_action(struct irqkit_desc *desc, void *dev_id, bool *deferred)
{
	struct irqkit_action *action, **action_ptr;
	unsigned long flags = desc_lock_irqsave(desc);

	for (action_ptr = &desc->action; (action = *action_ptr); action_ptr = &action->next)
		if (action->dev_id == dev_id)
			break;
	if (!action)
		goto out_unlock;
	a_store_release(action_ptr, action->next);
	if (!desc->action) {
		WRITE_ONCE(desc->settings, desc->settings & ~IRQKIT_IRQ_DISABLE_UNLAZY);
		irqkit__irq_shutdown_and_deactivate(desc);
	}
	*deferred = irqkit_arch_current()->running == desc;
	if (*deferred) {
		action->deferred_next = desc->deferred_free;
		desc->deferred_free = action;
		if (action->thread) {
			a_fetch_or(&action->thread_flags, IRQTF_STOP);
			irqkit__seq_wake(&action->thread_seq);
		}
	}
out_unlock:
	desc_unlock_irqrestore(desc, flags);
	return action;
}

/*
 * free_irq from the action's own thread_fn: that run is one of the threads
 * waited for, so only the hardirq part is synchronised; the thread frees the
 * action when the run returns, and is joined later.
 */
static void free_from_own_thread(struct irqkit_desc *desc, struct irqkit_action *action)
{
	__synchronize_hardirq(desc);
	irqkit__stop_irq_threads_later(action);
}

/* The second half of Linux's __free_irq: wait for handlers and thread, then free. */
static void free_action(struct irqkit_desc *desc, struct irqkit_action *action)
{
	__synchronize_irq(desc);
	irqkit__stop_irq_thread(action);
	if ((irqkit__rt.flags & IRQKIT_CFG_DEBUG_SHIRQ) && (action->flags & IRQKIT_F_SHARED)) {
		/* CONFIG_DEBUG_SHIRQ: a shared handler must cope with a stray call */
		unsigned long flags = irqkit_local_irq_save();

		if (action->handler)
			action->handler((int)action->irq, action->dev_id);
		else
			action->handler_regs((int)action->irq, action->dev_id, NULL);
		irqkit_local_irq_restore(flags);
	}
	irqkit_plat_free(action, sizeof(*action));
}

const char *irqkit_free_irq(unsigned int irq, void *dev_id)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	bool from_irq = irqkit_in_interrupt();
	struct irqkit_action *action;
	const char *devname = NULL;
	bool deferred = false;

	irqkit__point("free_irq", __builtin_return_address(0));
	if (!desc || WARN_ON(READ_ONCE(desc->settings) & IRQKIT_IRQ_PER_CPU_DEVID))
		return NULL;
	WARN(from_irq, "Trying to free IRQ %u from IRQ context!", irq);
	might_sleep();
	if (!from_irq && thread_action() == NULL)
		irqkit__reap_irq_threads();
	/*
	 * From interrupt context the request mutex is not taken: its holder may
	 * be waiting for this very handler to finish.
	 */
	if (!from_irq)
		irqkit__mutex_lock(&desc->request_mutex);
	action = unlink_action(desc, dev_id, &deferred);
	if (!action) {
		WARN(1, "Trying to free already-free IRQ %u", irq);
		goto out;
	}
	devname = action->name;
	/* a driver clears its hint before it frees the line: Linux warns and clears it */
	if (WARN_ONCE(READ_ONCE(desc->affinity_hint),
		      "irq %u freed with its affinity hint still set", irq))
		WRITE_ONCE(desc->affinity_hint, NULL);
	if (deferred)
		;			/* freed when the handler returns */
	else if (thread_action() == action ||
		 (action->secondary && thread_action() == action->secondary))
		free_from_own_thread(desc, action);
	else
		free_action(desc, action);
out:
	if (!from_irq)
		irqkit__mutex_unlock(&desc->request_mutex);
	return devname;
}

/* At stop: the CPUs are quiet; free what drivers left registered. */
void irqkit__free_all(void)
{
	unsigned long flags;
	for (unsigned int i = 0; i < irqkit__rt.nr_irqs; i++) {
		struct irqkit_desc *desc = &irqkit__rt.descs[i];

		flags = desc_lock_irqsave(desc);
		while (desc->action) {
			struct irqkit_action *action = desc->action;

			desc->action = action->next;
			desc_unlock_irqrestore(desc, flags);
			irqkit__stop_irq_thread(action);
			irqkit_plat_free(action, sizeof(*action));
			flags = desc_lock_irqsave(desc);
		}
		irqkit__free_deferred(desc);
		irqkit__clear_irq_resend(desc);
		desc_unlock_irqrestore(desc, flags);
	}
}

/* ---- queries and settings ------------------------------------------------------- */

bool irqkit_can_request_irq(unsigned int irq, unsigned long irqflags)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);
	bool ok = false;

	if (!desc)
		return false;
	flags = desc_lock_irqsave(desc);
	if (!(desc->settings & IRQKIT_IRQ_NOREQUEST)) {
		if (!desc->action || (irqflags & desc->action->flags & IRQKIT_F_SHARED))
			ok = true;
	}
	desc_unlock_irqrestore(desc, flags);
	return ok;
}

int irqkit_irq_set_affinity(unsigned int irq, irqkit_cpumask mask)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);
	irqkit_cpumask online;
	struct irqkit_chip *chip;
	int ret;

	if (!desc)
		return -IRQKIT_EINVAL;
	online = irqkit__online_mask();		/* an offline CPU is no target (-EINVAL) */
	flags = desc_lock_irqsave(desc);
	chip = desc->irq_data.chip;
	if (!chip->irq_set_affinity || !(mask & online)) {
		ret = -IRQKIT_EINVAL;
		goto out_unlock;
	}
	ret = chip_set_affinity(&desc->irq_data, mask & online);
	if (!ret)
		desc->irq_data.affinity = mask;
out_unlock:
	desc_unlock_irqrestore(desc, flags);
	return ret;
}

/*
 * The affinity hint (Linux's irq_update_affinity_hint and friends): a mask a
 * driver suggests to user space (irqbalance reads /proc/irq/N/affinity_hint);
 * irq_set_affinity_and_hint also routes the line there.  The mask is the
 * caller's and must live until the hint is cleared (NULL).
 */
static int apply_affinity_hint(unsigned int irq, const struct irqkit_cpus *m, bool setaffinity)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	WRITE_ONCE(desc->affinity_hint, m);
	desc_unlock_irqrestore(desc, flags);
	if (m && setaffinity)
		(void)irqkit_irq_set_affinity(irq, irqkit_cpus_mask(m));	/* as Linux: not checked */
	return 0;
}

int irqkit_irq_update_affinity_hint(unsigned int irq, const struct irqkit_cpus *m)
{
	return apply_affinity_hint(irq, m, false);
}

int irqkit_irq_set_affinity_and_hint(unsigned int irq, const struct irqkit_cpus *m)
{
	return apply_affinity_hint(irq, m, true);
}

irqkit_cpumask irqkit_irq_get_affinity_hint(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	const struct irqkit_cpus *m = desc ? READ_ONCE(desc->affinity_hint) : NULL;

	return m ? irqkit_cpus_mask(m) : 0;
}

/*
 * Wake-up sources (Linux's irq_set_irq_wake): a count per line, apart from
 * the disable depth, so that drivers sharing a line need not agree; the
 * chip is told when the count goes 0 -> 1 and 1 -> 0.
 */
static int set_irq_wake_real(struct irqkit_desc *desc, unsigned int on)
{
	struct irqkit_chip *chip = desc->irq_data.chip;

	if (chip->flags & IRQKIT_CHIP_SKIP_SET_WAKE)
		return 0;
	if (chip->irq_set_wake)
		return chip->irq_set_wake(&desc->irq_data, on);
	return -IRQKIT_ENXIO;
}

int irqkit_irq_set_irq_wake(unsigned int irq, unsigned int on)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);
	int ret = 0;

	if (!desc)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	if (on) {
		if (desc->wake_depth++ == 0) {
			ret = set_irq_wake_real(desc, 1);
			if (ret)
				desc->wake_depth = 0;
			else
				irqd_set(&desc->irq_data, IRQD_WAKEUP_STATE);
		}
	} else if (desc->wake_depth == 0) {
		WARN(1, "Unbalanced IRQ %u wake disable", irq);
	} else if (--desc->wake_depth == 0) {
		ret = set_irq_wake_real(desc, 0);
		if (ret)
			desc->wake_depth = 1;
		else
			irqd_clear(&desc->irq_data, IRQD_WAKEUP_STATE);
	}
	desc_unlock_irqrestore(desc, flags);
	return ret;
}

/*
 * Linux's request_any_context_irq: a nested-thread line (its parent's
 * handler runs it in a thread) gets @handler as its thread function, any
 * other line as its hardirq handler.  Return: IRQKIT_IRQC_IS_NESTED or
 * IRQKIT_IRQC_IS_HARDIRQ, or the request's -errno.
 */
int irqkit_request_any_context_irq(unsigned int irq, irqkit_handler_fn handler,
				   unsigned long flags, const char *name, void *dev_id)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	int ret;

	if (!desc)
		return -IRQKIT_EINVAL;
	if (READ_ONCE(desc->settings) & IRQKIT_IRQ_NESTED_THREAD) {
		ret = irqkit_request_threaded_irq(irq, NULL, handler, flags, name, dev_id);
		return ret ? ret : IRQKIT_IRQC_IS_NESTED;
	}
	ret = irqkit_request_irq(irq, handler, flags, name, dev_id);
	return ret ? ret : IRQKIT_IRQC_IS_HARDIRQ;
}

/*
 * NMIs (Linux's request_nmi): Linux's checks, in its order, and then the
 * one no line here passes: no chip of irqkit delivers non-maskable
 * interrupts (user space has none; the RISC-V port's harts take none), so
 * a request that is right in every other way is -EINVAL too.
 */
int irqkit_request_nmi(unsigned int irq, irqkit_handler_fn handler, unsigned long flags,
		       const char *name, void *dev_id)
{
	struct irqkit_desc *desc;
	unsigned int settings;

	(void)name;
	(void)dev_id;
	if (irq == IRQKIT_NOTCONNECTED)
		return -IRQKIT_ENOTCONN;
	/* an NMI is not shared, not polled, and a per-CPU line's */
	if (flags & (IRQKIT_F_SHARED | IRQKIT_F_COND_SUSPEND | IRQKIT_F_IRQPOLL))
		return -IRQKIT_EINVAL;
	if (!(flags & IRQKIT_F_PERCPU) || !handler)
		return -IRQKIT_EINVAL;
	desc = irq_to_desc(irq);
	if (!desc)
		return -IRQKIT_EINVAL;
	settings = READ_ONCE(desc->settings);
	if ((!(settings & IRQKIT_IRQ_NOAUTOEN) && !(flags & IRQKIT_F_NO_AUTOEN)) ||
	    (settings & IRQKIT_IRQ_NOREQUEST) || WARN_ON(settings & IRQKIT_IRQ_PER_CPU_DEVID))
		return -IRQKIT_EINVAL;
	return -IRQKIT_EINVAL;		/* irq_supports_nmi(): no chip here does */
}

const char *irqkit_free_nmi(unsigned int irq, void *dev_id)
{
	struct irqkit_desc *desc = irq_to_desc(irq);

	(void)dev_id;
	/* no line is an NMI line here: Linux's WARN_ON(!irq_is_nmi(desc)) */
	if (!desc || WARN(1, "free_nmi: irq %u is not an NMI line", irq))
		return NULL;
	return NULL;
}

int irqkit_irq_set_affinity_desc(unsigned int irq, const struct irqkit_irq_affinity_desc *affd)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);
	int ret = 0;

	if (!desc || !affd)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	if (desc->action) {
		ret = -IRQKIT_EBUSY;
	} else {
		irqkit_cpumask mask = irqkit_cpus_mask(&affd->mask);

		desc->irq_data.affinity = mask ? mask : ~(irqkit_cpumask)0;
		if (affd->is_managed)
			irqd_set(&desc->irq_data, IRQD_AFFINITY_MANAGED);
		else
			irqd_clear(&desc->irq_data, IRQD_AFFINITY_MANAGED | IRQD_MANAGED_SHUTDOWN);
	}
	desc_unlock_irqrestore(desc, flags);
	return ret;
}

int irqkit_irq_get_info(unsigned int irq, struct irqkit_irq_info *info)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);
	unsigned int state;

	if (!desc || !info)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	state = irqd_get(&desc->irq_data);
	info->depth = desc->depth;
	info->irq_count = READ_ONCE(desc->irq_count);
	info->irqs_unhandled = READ_ONCE(desc->irqs_unhandled);
	info->last_unhandled = READ_ONCE(desc->last_unhandled);
	info->count = irqkit__kstat_sum(irq);
	info->coalesced = READ_ONCE(desc->pending_merged);
	info->nr_actions = 0;
	for (struct irqkit_action *a = desc->action; a; a = a->next)
		info->nr_actions++;
	info->trigger = state & IRQD_TRIGGER_MASK;
	info->cpu = (int)READ_ONCE(desc->irq_data.cpu);
	info->disabled = state & IRQD_IRQ_DISABLED;
	info->masked = state & IRQD_IRQ_MASKED;
	info->started = state & IRQD_IRQ_STARTED;
	info->activated = state & IRQD_ACTIVATED;
	info->managed = state & IRQD_AFFINITY_MANAGED;
	info->managed_shutdown = state & IRQD_MANAGED_SHUTDOWN;
	info->wake_depth = desc->wake_depth;
	info->wakeup = state & IRQD_WAKEUP_STATE;
	info->inprogress = state & IRQD_IRQ_INPROGRESS;
	info->pending = istate_get(desc) & IRQS_PENDING;
	info->replay = istate_get(desc) & IRQS_REPLAY;
	info->spurious_disabled = istate_get(desc) & IRQS_SPURIOUS_DISABLED;
	desc_unlock_irqrestore(desc, flags);
	return 0;
}

static int get_events(unsigned int irq, struct irqkit_irq_events *ev, bool total)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	struct irqkit_chip *chip;

	if (!desc || !ev)
		return -IRQKIT_EINVAL;
	*ev = (struct irqkit_irq_events){ 0 };
	chip = READ_ONCE(desc->irq_data.chip);
	if (chip && chip->irq_get_events)
		chip->irq_get_events(&desc->irq_data, ev, total);
	if (!total) {
		ev->events = 1 + ev->coalesced + ev->lost;
		return 0;
	}
	/* edges the flow folded into a pending one are coalesced too */
	ev->coalesced += READ_ONCE(desc->pending_merged);
	if (!ev->events)	/* a chip that does not count arrivals */
		ev->events = irqkit__kstat_sum(irq) + ev->coalesced + ev->lost;
	return 0;
}

int irqkit_irq_get_events(unsigned int irq, struct irqkit_irq_events *ev)
{
	return get_events(irq, ev, false);
}

int irqkit_irq_get_event_totals(unsigned int irq, struct irqkit_irq_events *ev)
{
	return get_events(irq, ev, true);
}

unsigned int irqkit_irq_err_count(void)
{
	return READ_ONCE(irqkit__rt.irq_err_count);
}

/*
 * irq_get_irqchip_state / irq_set_irqchip_state: the first level of the
 * line's hierarchy whose chip has the operation answers, under the
 * descriptor lock.
 */
static int irqchip_state(unsigned int irq, int which, bool *state, bool set, bool val)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	unsigned long flags;
	int ret;

	if (!desc || (!set && !state))
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	ret = irqchip_state_locked(desc, which, state, set, val);
	desc_unlock_irqrestore(desc, flags);
	return ret;
}

int irqkit_irq_get_irqchip_state(unsigned int irq, int which, bool *state)
{
	return irqchip_state(irq, which, state, false, false);
}

int irqkit_irq_set_irqchip_state(unsigned int irq, int which, bool val)
{
	int ret = irqchip_state(irq, which, NULL, true, val);

	/*
	 * A line made pending interrupts its CPU at once, as the simulator's
	 * irq_work does on Linux's: a delivery point when the caller plays
	 * that CPU with interrupts on.
	 */
	if (!ret && which == IRQKIT_CHIPSTATE_PENDING && val)
		irqkit_deliver_pending();
	return ret;
}

/* ---- per-CPU lines with a per-CPU dev_id ------------------------------------------ */

int irqkit_irq_set_percpu_devid(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	unsigned long flags;
	int ret = 0;

	if (!desc)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	if (desc->settings & IRQKIT_IRQ_PER_CPU_DEVID)
		ret = -IRQKIT_EINVAL;
	else
		WRITE_ONCE(desc->settings, desc->settings | IRQKIT_IRQ_PER_CPU_DEVID |
					   IRQKIT_IRQ_NOAUTOEN | IRQKIT_IRQ_PER_CPU |
					   IRQKIT_IRQ_NOTHREAD | IRQKIT_IRQ_NOPROBE);
	WRITE_ONCE(desc->percpu_enabled, 0);
	desc_unlock_irqrestore(desc, flags);
	return ret;
}

/* The line if it is a per-CPU devid line; else NULL, with @what's warning when @warn. */
static struct irqkit_desc *percpu_desc(unsigned int irq, const char *what, bool warn)
{
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (desc && (READ_ONCE(desc->settings) & IRQKIT_IRQ_PER_CPU_DEVID))
		return desc;
	WARN(warn, "%s(%u): not a per-CPU line (irq_set_percpu_devid() missing?): refused", what,
	     irq);
	return NULL;
}

int irqkit_request_percpu_irq(unsigned int irq, irqkit_handler_fn handler, const char *devname,
			      void *percpu_dev_id)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	struct irqkit_action *action;
	int ret;

	if (!percpu_dev_id || !handler)
		return -IRQKIT_EINVAL;
	if (!desc || (READ_ONCE(desc->settings) & IRQKIT_IRQ_NOREQUEST) ||
	    !(READ_ONCE(desc->settings) & IRQKIT_IRQ_PER_CPU_DEVID))
		return -IRQKIT_EINVAL;
	might_sleep();
	action = irqkit_plat_alloc(sizeof(*action));
	if (!action)
		return -IRQKIT_ENOMEM;
	action->handler = handler;
	action->flags = IRQKIT_F_PERCPU | IRQKIT_F_NO_SUSPEND;
	action->name = devname;
	action->dev_id = percpu_dev_id;
	ret = __setup_irq(irq, desc, action);
	if (ret) {
		irqkit_plat_free(action, sizeof(*action));
		return ret;
	}
	irqkit__point("request_percpu_irq", __builtin_return_address(0));
	return 0;
}

void irqkit_free_percpu_irq(unsigned int irq, void *percpu_dev_id)
{
	struct irqkit_desc *desc = percpu_desc(irq, "free_percpu_irq", false);
	struct irqkit_action *action;
	irqkit_cpumask enabled;
	unsigned long flags;
	unsigned int spins = 0;

	if (!desc)
		return;
	might_sleep();
	irqkit__mutex_lock(&desc->request_mutex);
	flags = desc_lock_irqsave(desc);
	action = desc->action;
	enabled = a_load_seq(&desc->percpu_enabled);
	if (!action || action->dev_id != percpu_dev_id || enabled) {
		desc_unlock_irqrestore(desc, flags);
		irqkit__mutex_unlock(&desc->request_mutex);
		if (!action || action->dev_id != percpu_dev_id)
			WARN(1, "Trying to free already-free IRQ %u", irq);
		else
			WARN(1, "percpu IRQ %u still enabled on CPU%u!", irq,
			     (unsigned int)__builtin_ctzll(enabled));
		return;
	}
	a_store_release(&desc->action, NULL);
	desc_unlock_irqrestore(desc, flags);
	/* a flow that took the action before it went: see irqkit_handle_percpu_devid_irq */
	a_fence();
	while (a_load_seq(&desc->percpu_active))
		spin_step(&spins);
	irqkit__mutex_unlock(&desc->request_mutex);
	irqkit_plat_free(action, sizeof(*action));
}

void irqkit_enable_percpu_irq(unsigned int irq, unsigned int type)
{
	struct irqkit_desc *desc = percpu_desc(irq, "enable_percpu_irq", true);
	unsigned int cpu = (unsigned int)irqkit_arch_smp_processor_id();
	unsigned long flags;

	if (!desc)
		return;
	flags = desc_lock_irqsave(desc);
	type &= IRQKIT_TYPE_SENSE_MASK;
	if (type != IRQKIT_TYPE_NONE && irqkit__irq_set_trigger(desc, type)) {
		desc_unlock_irqrestore(desc, flags);
		WARN(1, "failed to set type for IRQ%u", irq);
		return;
	}
	irqkit__irq_percpu_enable(desc, cpu);
	desc_unlock_irqrestore(desc, flags);
}

void irqkit_disable_percpu_irq(unsigned int irq)
{
	struct irqkit_desc *desc = percpu_desc(irq, "disable_percpu_irq", true);
	unsigned long flags;

	if (!desc)
		return;
	flags = desc_lock_irqsave(desc);
	irqkit__irq_percpu_disable(desc, (unsigned int)irqkit_arch_smp_processor_id());
	desc_unlock_irqrestore(desc, flags);
}

bool irqkit_irq_is_percpu_devid(unsigned int irq)
{
	return percpu_desc(irq, "irq_is_percpu_devid", false) != NULL;
}

bool irqkit_irq_percpu_is_enabled(unsigned int irq)
{
	struct irqkit_desc *desc = percpu_desc(irq, "irq_percpu_is_enabled", false);

	return desc && (a_load_seq(&desc->percpu_enabled) &
			((irqkit_cpumask)1 << irqkit_arch_smp_processor_id()));
}
