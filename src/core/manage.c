// SPDX-License-Identifier: MIT
/*
 * The driver API (Linux's kernel/irq/manage.c): request_irq and free_irq with
 * the sharing rules, disable/enable with depth, synchronize_irq,
 * can_request_irq, trigger type and affinity.
 *
 * Locking: desc->request_mutex (sleeping) serialises request and free of a
 * line; inside it, the descriptor lock guards the line state.  Order:
 * request_mutex -> descriptor lock -> resend lock / timer lock.
 */
#include "internals.h"

/* ---- synchronisation ------------------------------------------------------- */

/*
 * A wait for the line's own handlers, made from one of them, never ends
 * (REFERENCE 4.7): INPROGRESS belongs to the caller.  Report it and do not
 * wait.  Return: true when the caller is inside a handler of @desc.
 */
static bool self_deadlock(struct irqkit_desc *desc, const char *what, const char *instead)
{
	if (likely(irqkit_task_self.running != desc))
		return false;
	irqkit__warn(__FILE__, __LINE__,
		     "%s(%u) called from a handler of irq %u: it would wait for itself forever; not waiting (use %s)",
		     what, irq_desc_get_irq(desc), irq_desc_get_irq(desc), instead);
	return true;
}

/* __synchronize_hardirq (REFERENCE 4.6 steps 1-2). */
static void __synchronize_hardirq(struct irqkit_desc *desc)
{
	unsigned long flags;
	struct irqkit_chip *chip;
	bool inprogress;

	do {
		unsigned int spins = 0;

		while (irqd_irq_inprogress(&desc->irq_data))
			spin_step(&spins);
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
}

bool irqkit_synchronize_hardirq(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return false;
	if (!self_deadlock(desc, "synchronize_hardirq", "nothing: a handler needs no wait"))
		__synchronize_hardirq(desc);
	/* no threaded handlers yet: none can be active */
	return true;
}

void irqkit_synchronize_irq(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);

	might_sleep();
	if (!desc)
		return;
	if (!self_deadlock(desc, "synchronize_irq", "nothing: a handler needs no wait"))
		__synchronize_hardirq(desc);
}

/* ---- disable / enable (REFERENCE section 4) --------------------------------------- */

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
		__synchronize_hardirq(desc);
}

bool irqkit_disable_hardirq(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return false;
	irqkit_disable_irq_nosync(irq);
	return irqkit_synchronize_hardirq(irq);
}

/* __enable_irq (REFERENCE 4.4).  Descriptor lock held. */
void irqkit__enable_irq_locked(struct irqkit_desc *desc)
{
	switch (desc->depth) {
	case 0:
err_out:
		WARN(1, "Unbalanced enable for IRQ %u", irq_desc_get_irq(desc));
		break;
	case 1:
		if (istate_get(desc) & IRQS_SUSPENDED)
			goto err_out;
		WRITE_ONCE(desc->settings, desc->settings | IRQKIT_IRQ_NOPROBE);
		irqkit__irq_startup(desc, true, true);
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
	irqkit_deliver_pending();
}

/* ---- request --------------------------------------------------------------- */

/*
 * __setup_irq (REFERENCE 1.4, 1.6, 1.7): link @new at the tail of the line's
 * actions if the sharing rules allow; the first action starts the line.
 */
static int __setup_irq(unsigned int irq, struct irqkit_desc *desc, struct irqkit_action *new)
{
	unsigned long flags;
	struct irqkit_action *old, **old_ptr;
	struct irqkit_chip *chip;
	bool shared = false;
	int ret = 0;

	if (desc->irq_data.chip == &irqkit_no_irq_chip)
		return -IRQKIT_ENOSYS;
	new->irq = irq;

	irqkit__mutex_lock(&desc->request_mutex);
	flags = desc_lock_irqsave(desc);
	chip = desc->irq_data.chip;

	/* no trigger given: take the line's current one (1.4 step 3) */
	if (!(new->flags & IRQKIT_F_TRIGGER_MASK))
		new->flags |= irqd_get(&desc->irq_data) & IRQD_TRIGGER_MASK;
	if ((desc->settings & IRQKIT_IRQ_NESTED_THREAD)) {
		ret = -IRQKIT_EINVAL;		/* no thread_fn: threads come later */
		goto out_unlock;
	}
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
			old_ptr = &old->next;
			old = *old_ptr;
		}
		shared = true;
	}

	if (!shared) {
		/* first action (1.7) */
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
		if (new->flags & IRQKIT_F_ONESHOT)
			istate_set(desc, IRQS_ONESHOT);
		if (new->flags & IRQKIT_F_NOBALANCING) {
			WRITE_ONCE(desc->settings, desc->settings | IRQKIT_IRQ_NO_BALANCING);
			irqd_set(&desc->irq_data, IRQD_NO_BALANCING);
		}
		if (!(new->flags & IRQKIT_F_NO_AUTOEN) && !(desc->settings & IRQKIT_IRQ_NOAUTOEN)) {
			irqkit__irq_startup(desc, true, false);
		} else {
			WARN_ON_ONCE(new->flags & IRQKIT_F_SHARED);
			desc->depth = 1;
		}
	} else if (new->flags & IRQKIT_F_TRIGGER_MASK) {
		unsigned int nmsk = new->flags & IRQKIT_F_TRIGGER_MASK;
		unsigned int omsk = irqd_get(&desc->irq_data) & IRQD_TRIGGER_MASK;

		if (nmsk != omsk)
			pr_warn("irq %u uses trigger mode %u; requested %u", irq, omsk, nmsk);
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
		pr_err("Flags mismatch irq %u. %08x (%s) vs. %08x (%s)", irq, new->flags,
		       new->name, old->flags, old->name);
	ret = -IRQKIT_EBUSY;
out_unlock:
	desc_unlock_irqrestore(desc, flags);
	irqkit__mutex_unlock(&desc->request_mutex);
	return ret;
}

/* request_threaded_irq's argument checks, in Linux's order (REFERENCE 1.3). */
static int request_common(unsigned int irq, irqkit_handler_fn handler,
			  irqkit_handler_regs_fn handler_regs, unsigned long irqflags,
			  const char *devname, void *dev_id)
{
	unsigned int flags = (unsigned int)irqflags | IRQKIT_F_COND_ONESHOT;
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
	if (!handler && !handler_regs)
		return -IRQKIT_EINVAL;	/* no thread_fn either (threads come later) */
	might_sleep();

	action = irqkit_plat_alloc(sizeof(*action));
	if (!action)
		return -IRQKIT_ENOMEM;
	action->handler = handler;
	action->handler_regs = handler_regs;
	action->flags = flags;
	action->name = devname;
	action->dev_id = dev_id;

	ret = __setup_irq(irq, desc, action);
	if (ret)
		irqkit_plat_free(action, sizeof(*action));
	else
		irqkit_deliver_pending();
	return ret;
}

int irqkit_request_irq(unsigned int irq, irqkit_handler_fn handler, unsigned long flags,
		       const char *name, void *dev_id)
{
	return request_common(irq, handler, NULL, flags, name, dev_id);
}

int irqkit_request_irq_regs(unsigned int irq, irqkit_handler_regs_fn handler,
			    unsigned long flags, const char *name, void *dev_id)
{
	return request_common(irq, NULL, handler, flags, name, dev_id);
}

/* ---- free (REFERENCE 1.8) ------------------------------------------------------ */

const char *irqkit_free_irq(unsigned int irq, void *dev_id)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);
	struct irqkit_action *action, **action_ptr;
	bool from_irq = irqkit_in_interrupt();
	bool own_handler;
	const char *devname;

	if (!desc || WARN_ON(READ_ONCE(desc->settings) & IRQKIT_IRQ_PER_CPU_DEVID))
		return NULL;
	WARN(from_irq, "Trying to free IRQ %u from IRQ context!", irq);
	might_sleep();
	/*
	 * From interrupt context the request mutex is not taken: its holder may
	 * be waiting for this very handler to finish.
	 */
	if (!from_irq)
		irqkit__mutex_lock(&desc->request_mutex);
	flags = desc_lock_irqsave(desc);
	action_ptr = &desc->action;
	for (;;) {
		action = *action_ptr;
		if (!action) {
			desc_unlock_irqrestore(desc, flags);
			if (!from_irq)
				irqkit__mutex_unlock(&desc->request_mutex);
			WARN(1, "Trying to free already-free IRQ %u", irq);
			return NULL;
		}
		if (action->dev_id == dev_id)
			break;
		action_ptr = &action->next;
	}
	a_store_release(action_ptr, action->next);
	if (!desc->action) {
		WRITE_ONCE(desc->settings, desc->settings & ~IRQKIT_IRQ_DISABLE_UNLAZY);
		irqkit__irq_shutdown(desc);
	}
	/*
	 * Called from the line's own handler: waiting would never end.  The
	 * action is freed by handle_irq_event when the handler returns.
	 */
	own_handler = irqkit_task_self.running == desc;
	if (own_handler) {
		action->deferred_next = desc->deferred_free;
		desc->deferred_free = action;
	}
	desc_unlock_irqrestore(desc, flags);

	devname = action->name;
	if (!own_handler) {
		__synchronize_hardirq(desc);
		if ((irqkit__rt.flags & IRQKIT_CFG_DEBUG_SHIRQ) && (action->flags & IRQKIT_F_SHARED)) {
			/* CONFIG_DEBUG_SHIRQ: a shared handler must cope with a stray call */
			flags = irqkit_local_irq_save();
			if (action->handler)
				action->handler((int)irq, dev_id);
			else
				action->handler_regs((int)irq, dev_id, NULL);
			irqkit_local_irq_restore(flags);
		}
		irqkit_plat_free(action, sizeof(*action));
	}
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
			irqkit_plat_free(action, sizeof(*action));
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

int irqkit_irq_set_irq_type(unsigned int irq, unsigned int type)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);
	int ret;

	if (!desc)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	ret = irqkit__irq_set_trigger(desc, type & IRQKIT_TYPE_SENSE_MASK);
	desc_unlock_irqrestore(desc, flags);
	return ret;
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
	online = irqkit__rt.nr_cpus >= 64 ? ~(irqkit_cpumask)0 :
		 (((irqkit_cpumask)1 << irqkit__rt.nr_cpus) - 1);
	flags = desc_lock_irqsave(desc);
	chip = desc->irq_data.chip;
	if (!chip->irq_set_affinity || !(mask & online)) {
		ret = -IRQKIT_EINVAL;
		goto out_unlock;
	}
	ret = chip->irq_set_affinity(&desc->irq_data, mask & online, false);
	if (!ret) {
		desc->irq_data.affinity = mask;
		irqd_set(&desc->irq_data, IRQD_AFFINITY_SET);
	}
out_unlock:
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
	info->inprogress = state & IRQD_IRQ_INPROGRESS;
	info->pending = istate_get(desc) & IRQS_PENDING;
	info->replay = istate_get(desc) & IRQS_REPLAY;
	info->spurious_disabled = istate_get(desc) & IRQS_SPURIOUS_DISABLED;
	desc_unlock_irqrestore(desc, flags);
	return 0;
}

unsigned int irqkit_kstat_irqs_cpu(unsigned int irq, unsigned int cpu)
{
	if (irq >= irqkit__rt.nr_irqs || cpu >= irqkit__rt.nr_cpus)
		return 0;
	return READ_ONCE(irqkit__rt.cpus[cpu].kstat[irq]);
}

unsigned int irqkit_irq_err_count(void)
{
	return READ_ONCE(irqkit__rt.irq_err_count);
}
