// SPDX-License-Identifier: MIT
/*
 * Flow handlers and line state changes through the chip (Linux's kernel/irq/chip.c):
 * startup, shutdown, enable, disable (lazy), mask, unmask, and the level, edge,
 * fasteoi, simple, per-CPU, untracked and bad flows.
 *
 * Every function here runs with the descriptor lock held, except the flow
 * handlers, which take it themselves and drop it while actions run.
 */
#include "handle.h"
#include "sched/sched.h"

#include <irqkit/percpu.h>

/* ---- mask / unmask / ack (no nesting) ------------------------------------- */

void irqkit__mask_irq(struct irqkit_desc *desc)
{
	struct irqkit_chip *chip = desc_chip(desc);

	desc_assert_locked(desc);
	if (irqd_irq_masked(&desc->irq_data))
		return;
	if (chip->irq_mask) {
		chip->irq_mask(&desc->irq_data);
		irqd_set(&desc->irq_data, IRQD_IRQ_MASKED);
	}
}

void irqkit__unmask_irq(struct irqkit_desc *desc)
{
	struct irqkit_chip *chip = desc_chip(desc);

	desc_assert_locked(desc);
	if (!irqd_irq_masked(&desc->irq_data))
		return;
	if (chip->irq_unmask) {
		chip->irq_unmask(&desc->irq_data);
		irqd_clear(&desc->irq_data, IRQD_IRQ_MASKED);
	}
}

void irqkit__mask_ack_irq(struct irqkit_desc *desc)
{
	struct irqkit_chip *chip = desc_chip(desc);

	desc_assert_locked(desc);
	if (chip->irq_mask_ack) {
		chip->irq_mask_ack(&desc->irq_data);
		irqd_set(&desc->irq_data, IRQD_IRQ_MASKED);
	} else {
		irqkit__mask_irq(desc);
		if (chip->irq_ack)
			chip->irq_ack(&desc->irq_data);
	}
}

/* ---- enable / disable (nesting is the caller's: depth) ---------------------- */

/*
 * Lazy disable: with a chip irq_disable the line is masked at
 * once; otherwise it is only marked disabled, and the flow handler masks it if
 * an interrupt comes (unless DISABLE_UNLAZY asks for the mask now).
 */
static void __irq_disable(struct irqkit_desc *desc, bool mask)
{
	struct irqkit_chip *chip = desc_chip(desc);

	desc_assert_locked(desc);
	if (irqd_irq_disabled(&desc->irq_data)) {
		if (mask)
			irqkit__mask_irq(desc);
	} else {
		irqd_set(&desc->irq_data, IRQD_IRQ_DISABLED);
		if (chip->irq_disable) {
			chip->irq_disable(&desc->irq_data);
			irqd_set(&desc->irq_data, IRQD_IRQ_MASKED);
		} else if (mask) {
			irqkit__mask_irq(desc);
		}
	}
}

void irqkit__irq_disable(struct irqkit_desc *desc)
{
	__irq_disable(desc, desc->settings & IRQKIT_IRQ_DISABLE_UNLAZY);
}

void irqkit__irq_enable(struct irqkit_desc *desc)
{
	struct irqkit_chip *chip = desc_chip(desc);

	desc_assert_locked(desc);
	if (!irqd_irq_disabled(&desc->irq_data)) {
		irqkit__unmask_irq(desc);
	} else {
		irqd_clear(&desc->irq_data, IRQD_IRQ_DISABLED);
		if (chip->irq_enable) {
			chip->irq_enable(&desc->irq_data);
			irqd_clear(&desc->irq_data, IRQD_IRQ_MASKED);
		} else {
			irqkit__unmask_irq(desc);
		}
	}
}

/* ---- startup / shutdown ---------------------------------------------------- */

static void __irq_startup(struct irqkit_desc *desc)
{
	struct irqkit_chip *chip = desc_chip(desc);

	desc_assert_locked(desc);
	if (chip->irq_startup) {
		chip->irq_startup(&desc->irq_data);
		irqd_clear(&desc->irq_data, IRQD_IRQ_DISABLED | IRQD_IRQ_MASKED);
	} else {
		irqkit__irq_enable(desc);
	}
	irqd_set(&desc->irq_data, IRQD_IRQ_STARTED);
}

/* irq_deactivate(): an activated line's resources released (its domains', top down). */
static void irq_deactivate(struct irqkit_desc *desc)
{
	if (irqd_has(&desc->irq_data, IRQD_ACTIVATED)) {
		irqkit__irq_domain_deactivate(&desc->irq_data);
		irqd_clear(&desc->irq_data, IRQD_ACTIVATED);
	}
}

/*
 * irq_startup(): depth becomes 0, the line is enabled (or started the first
 * time), and with @resend an edge that came while it was off is replayed.
 */
int irqkit__irq_startup(struct irqkit_desc *desc, bool resend)
{
	struct irqkit_irq_data *d = &desc->irq_data;
	bool managed = irqd_has(d, IRQD_AFFINITY_MANAGED);
	/* a managed line starts on an online CPU of its mask, or waits shut down for one */
	irqkit_cpumask mask = managed ? d->affinity & irqkit__online_mask() : 0;
	int ret;

	desc_assert_locked(desc);
	if (managed && !mask) {
		desc->depth = 1;
		irqd_set(d, IRQD_MANAGED_SHUTDOWN);
		irq_deactivate(desc);
		return 0;
	}
	ret = irqkit__irq_activate(desc);
	if (ret)
		return ret;
	desc->depth = 0;
	if (managed) {
		irqd_clear(d, IRQD_MANAGED_SHUTDOWN);
		if (desc_chip(desc)->irq_set_affinity)
			(void)chip_set_affinity(d, mask);
	}
	if (irqd_has(&desc->irq_data, IRQD_IRQ_STARTED))
		irqkit__irq_enable(desc);
	else
		__irq_startup(desc);
	if (resend)
		irqkit__check_irq_resend(desc, false);
	return 0;
}

/*
 * irq_shutdown(): the last action is gone.  depth is incremented (the line
 * counts as disabled until a request starts it again), the line masked or
 * shut down, a queued resend dropped.
 */
void irqkit__irq_shutdown(struct irqkit_desc *desc)
{
	struct irqkit_chip *chip = desc_chip(desc);

	desc_assert_locked(desc);
	if (!irqd_has(&desc->irq_data, IRQD_IRQ_STARTED))
		return;
	irqkit__clear_irq_resend(desc);
	desc->depth++;
	if (chip->irq_shutdown) {
		chip->irq_shutdown(&desc->irq_data);
		irqd_set(&desc->irq_data, IRQD_IRQ_DISABLED | IRQD_IRQ_MASKED);
	} else {
		__irq_disable(desc, true);
	}
	irqd_clear(&desc->irq_data, IRQD_IRQ_STARTED);
}

/* irq_shutdown_and_deactivate(): the line shut down and its resources released. */
void irqkit__irq_shutdown_and_deactivate(struct irqkit_desc *desc)
{
	irqkit__irq_shutdown(desc);
	irq_deactivate(desc);
}

/*
 * irq_activate(): the line's resources set up (its domains' activate, from
 * the root up), once until it is deactivated.  Descriptor lock held.
 */
int irqkit__irq_activate(struct irqkit_desc *desc)
{
	int ret;

	desc_assert_locked(desc);
	if (irqd_has(&desc->irq_data, IRQD_ACTIVATED))
		return 0;
	ret = irqkit__irq_domain_activate(&desc->irq_data, false);
	if (!ret)
		irqd_set(&desc->irq_data, IRQD_ACTIVATED);
	return ret;
}

/*
 * irq_startup_managed(): a CPU of a managed line's mask came back.  The
 * shutdown counted as a disable; only a line nobody else disabled starts
 * (a disable, an unplug and a plug leave it disabled).
 */
void irqkit__irq_startup_managed(struct irqkit_desc *desc)
{
	desc_assert_locked(desc);
	irqd_clear(&desc->irq_data, IRQD_MANAGED_SHUTDOWN);
	if (desc->depth)
		desc->depth--;
	if (!desc->depth)
		irqkit__irq_startup(desc, true);
}

/* The same steps for code of Linux's shape (<irqkit/irqdesc.h>). */
void irqkit_irq_shutdown_and_deactivate(struct irqkit_desc *desc)
{
	irqkit__irq_shutdown_and_deactivate(desc);
}

/* Take the descriptor lock unless the caller holds it; true when taken here. */
static bool lock_unless_held(struct irqkit_desc *desc, unsigned long *flags)
{
	return irqkit_spin_trylock_irqsave(&desc->lock, flags);
}

int irqkit_irq_activate(struct irqkit_desc *desc)
{
	unsigned long flags;
	bool took = lock_unless_held(desc, &flags);
	int ret = irqkit__irq_activate(desc);

	if (took)
		desc_unlock_irqrestore(desc, flags);
	return ret;
}

void irqkit_irq_startup_managed(struct irqkit_desc *desc)
{
	unsigned long flags;
	bool took = lock_unless_held(desc, &flags);

	irqkit__irq_startup_managed(desc);
	if (took)
		desc_unlock_irqrestore(desc, flags);
}

/*
 * __irq_set_trigger(): program the trigger type; on success record it in the
 * line state (IRQD_TRIGGER, IRQD_LEVEL).  A chip without irq_set_type accepts
 * anything silently, as in Linux.
 */
int irqkit__irq_set_trigger(struct irqkit_desc *desc, unsigned int flags)
{
	struct irqkit_chip *chip = desc_chip(desc);
	bool unmask = false;
	int ret;

	desc_assert_locked(desc);
	if (!chip->irq_set_type)
		return 0;
	if (chip->flags & IRQKIT_CHIP_SET_TYPE_MASKED) {
		if (!irqd_irq_masked(&desc->irq_data))
			irqkit__mask_irq(desc);
		if (!irqd_irq_disabled(&desc->irq_data))
			unmask = true;
	}
	flags &= IRQKIT_TYPE_SENSE_MASK;
	ret = chip->irq_set_type(&desc->irq_data, flags);
	if (ret == 0) {
		irqd_clear(&desc->irq_data, IRQD_TRIGGER_MASK | IRQD_LEVEL);
		irqd_set(&desc->irq_data, flags);
		WRITE_ONCE(desc->settings, desc->settings & ~IRQKIT_IRQ_LEVEL);
		if (flags & IRQKIT_TYPE_LEVEL_MASK) {
			WRITE_ONCE(desc->settings, desc->settings | IRQKIT_IRQ_LEVEL);
			irqd_set(&desc->irq_data, IRQD_LEVEL);
		}
	} else {
		pr_err("genirq: Setting trigger mode %u for irq %u failed (%pS)", flags,
		       irq_desc_get_irq(desc), (void *)chip->irq_set_type);
	}
	if (unmask)
		irqkit__unmask_irq(desc);
	return ret;
}

/* ---- preconditions of the flows (the rest in handle.h) ---------------- */

static bool irq_can_handle(struct irqkit_desc *desc)
{
	return irq_may_run(desc) && irq_can_handle_actions(desc);
}

static inline unsigned long threads_oneshot(const struct irqkit_desc *desc)
{
	return a_load_acquire(&desc->threads_oneshot);
}

/* A ONESHOT thread still to run keeps the line masked. */
static void cond_unmask_irq(struct irqkit_desc *desc)
{
	desc_assert_locked(desc);
	if (!irqd_irq_disabled(&desc->irq_data) && irqd_irq_masked(&desc->irq_data) &&
	    !threads_oneshot(desc))
		irqkit__unmask_irq(desc);
}

/* ---- the flows ----------------------------------------------------------- */

/* Mask and ack first; unmask after the actions if still enabled. */
void irqkit_handle_level_irq(struct irqkit_desc *desc)
{
	desc_lock(desc);
	irqkit__mask_ack_irq(desc);
	if (!irq_can_handle(desc))
		goto out_unlock;
	irqkit__kstat_incr(desc);
	fold_stale_pending(desc);
	irqkit__handle_irq_event(desc);
	cond_unmask_irq(desc);
out_unlock:
	desc_unlock(desc);
}

/*
 * An edge that cannot be handled now is remembered (PENDING) and the line
 * masked; the CPU running the line loops while PENDING is set (handle.h).
 */
void irqkit_handle_edge_irq(struct irqkit_desc *desc)
{
	handle_edge_irq(desc);
}

static void cond_eoi_irq(struct irqkit_chip *chip, struct irqkit_irq_data *d)
{
	if (chip->irq_eoi && !(chip->flags & IRQKIT_CHIP_EOI_IF_HANDLED))
		chip->irq_eoi(d);
}

static void cond_unmask_eoi_irq(struct irqkit_chip *chip, struct irqkit_desc *desc)
{
	if (!(istate_get(desc) & IRQS_ONESHOT)) {
		if (chip->irq_eoi)
			chip->irq_eoi(&desc->irq_data);
		return;
	}
	/* ONESHOT: unmask only when no thread still owns the line */
	if (!irqd_irq_disabled(&desc->irq_data) && irqd_irq_masked(&desc->irq_data) &&
	    !threads_oneshot(desc)) {
		if (chip->irq_eoi)
			chip->irq_eoi(&desc->irq_data);
		irqkit__unmask_irq(desc);
	} else if (!(chip->flags & IRQKIT_CHIP_EOI_THREADED)) {
		if (chip->irq_eoi)
			chip->irq_eoi(&desc->irq_data);
	}
}

/* No ack; an EOI at the end; busy or disabled lines are masked. */
void irqkit_handle_fasteoi_irq(struct irqkit_desc *desc)
{
	struct irqkit_chip *chip = desc_chip(desc);

	desc_lock(desc);
	if (!irq_may_run(desc)) {
		cond_eoi_irq(chip, &desc->irq_data);
		goto out_unlock;
	}
	if (!irq_can_handle_actions(desc)) {
		irqkit__mask_irq(desc);
		cond_eoi_irq(chip, &desc->irq_data);
		goto out_unlock;
	}
	irqkit__kstat_incr(desc);
	if (istate_get(desc) & IRQS_ONESHOT)
		irqkit__mask_irq(desc);
	fold_stale_pending(desc);
	irqkit__handle_irq_event(desc);
	cond_unmask_eoi_irq(chip, desc);
	if (unlikely(istate_get(desc) & IRQS_PENDING))
		irqkit__check_irq_resend(desc, false);
out_unlock:
	desc_unlock(desc);
}

/* No chip calls at all; the caller does ack, mask and EOI. */
void irqkit_handle_simple_irq(struct irqkit_desc *desc)
{
	desc_lock(desc);
	if (!irq_may_run(desc))
		goto out_unlock;
	if (!irq_can_handle_actions(desc))
		goto out_unlock;
	irqkit__kstat_incr(desc);
	fold_stale_pending(desc);
	irqkit__handle_irq_event(desc);
out_unlock:
	desc_unlock(desc);
}

/* Enable or disable a per-CPU devid line on CPU @cpu, the caller's: its chip's mask is banked. */
void irqkit__irq_percpu_enable(struct irqkit_desc *desc, unsigned int cpu)
{
	struct irqkit_chip *chip = desc->irq_data.chip;

	if (chip->irq_enable)
		chip->irq_enable(&desc->irq_data);
	else if (chip->irq_unmask)
		chip->irq_unmask(&desc->irq_data);
	a_fetch_or(&desc->percpu_enabled, (irqkit_cpumask)1 << cpu);
}

void irqkit__irq_percpu_disable(struct irqkit_desc *desc, unsigned int cpu)
{
	struct irqkit_chip *chip = desc->irq_data.chip;

	if (chip->irq_disable)
		chip->irq_disable(&desc->irq_data);
	else if (chip->irq_mask)
		chip->irq_mask(&desc->irq_data);
	a_fetch_and(&desc->percpu_enabled, ~((irqkit_cpumask)1 << cpu));
}

/*
 * A per-CPU devid line: no lock, no INPROGRESS, no spurious accounting; the
 * one action runs with this CPU's dev_id.  percpu_active counts the flows
 * in flight for free_percpu_irq (a seq_cst increment, then the action: the
 * free's store of NULL, a fence, then its read of the count).
 */
void irqkit_handle_percpu_devid_irq(struct irqkit_desc *desc)
{
	struct irqkit_chip *chip = READ_ONCE(desc->irq_data.chip);
	struct irqkit_task *t = irqkit_arch_current();
	unsigned int irq = irq_desc_get_irq(desc);
	unsigned int cpu = (unsigned int)irqkit_arch_smp_processor_id();
	struct irqkit_action *action;

	irqkit__kstat_incr(desc);
	if (chip->irq_ack)
		chip->irq_ack(&desc->irq_data);
	a_fetch_add(&desc->percpu_active, 1);
	action = a_load_acquire(&desc->action);
	if (likely(action)) {
		const void *prev_fn = t->running_fn;
		unsigned int res;

		irqkit_trace(irq_handler_entry, irq, action->name);
		WRITE_ONCE(t->running_fn, (const void *)action->handler);
		res = action->handler((int)irq, irqkit_per_cpu_ptr(action->dev_id, cpu));
		WRITE_ONCE(t->running_fn, prev_fn);
		irqkit_trace(irq_handler_exit, irq, res);
		(void)res;		/* no spurious accounting on a per-CPU devid line */
	} else {
		bool enabled = a_load_seq(&desc->percpu_enabled) & ((irqkit_cpumask)1 << cpu);

		if (enabled)
			irqkit__irq_percpu_disable(desc, cpu);
		static unsigned int said_run;

		if (irqkit__once(&said_run))	/* Linux's pr_err_once */
			pr_err("Spurious%s percpu IRQ%u on CPU%u", enabled ? " and unmasked" : "", irq,
			       cpu);
	}
	a_fetch_sub(&desc->percpu_active, 1);
	if (chip->irq_eoi)
		chip->irq_eoi(&desc->irq_data);
}

/* Per-CPU lines take no lock and have no INPROGRESS. */
void irqkit_handle_percpu_irq(struct irqkit_desc *desc)
{
	struct irqkit_chip *chip = READ_ONCE(desc->irq_data.chip);

	irqkit__kstat_incr(desc);
	if (chip->irq_ack)
		chip->irq_ack(&desc->irq_data);
	irqkit__handle_irq_event_percpu(desc);
	if (chip->irq_eoi)
		chip->irq_eoi(&desc->irq_data);
}

/*
 * handle_nested_irq runs the thread functions of a nested line
 * in the calling (parent's) thread, counted as active threads so that
 * synchronize_irq waits for them.
 */
void irqkit_handle_nested_irq(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	unsigned int ret = IRQKIT_NONE;
	unsigned long flags;

	if (!desc)
		return;
	might_sleep();
	flags = desc_lock_irqsave(desc);
	istate_clear(desc, IRQS_REPLAY | IRQS_WAITING);
	if (unlikely(!desc->action || irqd_irq_disabled(&desc->irq_data))) {
		flow_mark_pending(desc);
		desc_unlock_irqrestore(desc, flags);
		return;
	}
	irqkit__kstat_incr(desc);
	a_fetch_add(&desc->threads_active, 1);
	desc_unlock_irqrestore(desc, flags);
	for (struct irqkit_action *a = a_load_acquire(&desc->action); a;
	     a = a_load_acquire(&a->next))
		ret |= a->thread_fn((int)irq, a->dev_id);
	if (!(READ_ONCE(desc->settings) & IRQ_SETTINGS_NO_DEBUG)) {
		WRITE_ONCE(desc->threads_handled_seen, a_load_seq(&desc->threads_handled));
		irqkit__note_interrupt(desc, (enum irqkit_irqreturn)ret);
	}
	if (a_fetch_sub(&desc->threads_active, 1) == 1) {
		irqkit__seq_wake(&desc->wait_for_threads);
	}
}

/* No counting and no spurious accounting. */
void irqkit_handle_untracked_irq(struct irqkit_desc *desc)
{
	desc_lock(desc);
	if (!irq_can_handle(desc)) {
		desc_unlock(desc);
		return;
	}
	istate_clear(desc, IRQS_PENDING);
	irqd_set(&desc->irq_data, IRQD_IRQ_INPROGRESS);
	desc_unlock(desc);
	irqkit__handle_actions(desc);
	desc_lock(desc);
	irqd_clear(&desc->irq_data, IRQD_IRQ_INPROGRESS);
	irqkit__free_deferred(desc);
	desc_unlock(desc);
}

int irqkit_irq_set_chip_and_handler_name(unsigned int irq, struct irqkit_chip *chip,
					 irqkit_flow_fn handle, const char *name)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	WRITE_ONCE(desc->irq_data.chip, chip ? chip : &irqkit_no_irq_chip);
	WRITE_ONCE(desc->handle_irq, handle ? handle : irqkit_handle_bad_irq);
	desc->name = name;
	desc_unlock_irqrestore(desc, flags);
	return 0;
}

int irqkit_irq_set_chip_data(unsigned int irq, void *data)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	desc->irq_data.chip_data = data;
	desc_unlock_irqrestore(desc, flags);
	return 0;
}

int irqkit_irq_set_hwirq(unsigned int irq, unsigned long hwirq)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	desc->irq_data.hwirq = hwirq;
	desc->irq_data.has_domain = true;
	desc_unlock_irqrestore(desc, flags);
	return 0;
}

void irqkit_irq_set_handler_locked(struct irqkit_irq_data *d, irqkit_flow_fn handle)
{
	struct irqkit_desc *desc = irq_to_desc(d->irq);	/* any level of a hierarchy */

	WRITE_ONCE(desc->handle_irq, handle ? handle : irqkit_handle_bad_irq);
}

void irqkit_irq_modify_status(unsigned int irq, unsigned long clr, unsigned long set)
{
	unsigned long flags;
	struct irqkit_desc *desc = irq_to_desc(irq);
	unsigned int keep = IRQ_SETTINGS_NO_DEBUG | IRQ_SETTINGS_IRQPOLL;

	if (!desc)
		return;
	flags = desc_lock_irqsave(desc);
	WRITE_ONCE(desc->settings, (desc->settings & (~(unsigned int)clr | keep)) |
				   ((unsigned int)set & ~keep));
	if (desc->settings & IRQKIT_IRQ_LEVEL)
		irqd_set(&desc->irq_data, IRQD_LEVEL);
	else
		irqd_clear(&desc->irq_data, IRQD_LEVEL);
	if (desc->settings & IRQKIT_IRQ_PER_CPU)
		irqd_set(&desc->irq_data, IRQD_PER_CPU);
	if (desc->settings & IRQKIT_IRQ_NO_BALANCING)
		irqd_set(&desc->irq_data, IRQD_NO_BALANCING);
	desc_unlock_irqrestore(desc, flags);
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

/* ---- chained handlers and handler data --------------------------------------------------- */

int irqkit_irq_set_handler_data(unsigned int irq, void *data)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	unsigned long flags;

	if (!desc)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	desc->handler_data = data;
	desc_unlock_irqrestore(desc, flags);
	return 0;
}

void *irqkit_irq_get_handler_data(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);

	return desc ? READ_ONCE(desc->handler_data) : NULL;
}

/*
 * __irq_do_set_handler() for a chained line: the demultiplexer is the
 * flow; the line cannot be requested, probed or threaded, and starts now.
 * Undone (NULL), the line is disabled and masked again at depth 1.
 */
int irqkit_irq_set_chained_handler_and_data(unsigned int irq, irqkit_flow_fn handle, void *data)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	const unsigned int chained = IRQKIT_IRQ_NOPROBE | IRQKIT_IRQ_NOREQUEST | IRQKIT_IRQ_NOTHREAD;
	unsigned long flags;
	int ret = 0;

	if (!desc)
		return -IRQKIT_EINVAL;
	flags = desc_lock_irqsave(desc);
	if (desc->action) {
		ret = -IRQKIT_EBUSY;		/* requested by a driver: not a demultiplexer's */
	} else if (!handle) {
		if (irqd_has(&desc->irq_data, IRQD_IRQ_STARTED))
			irqkit__irq_shutdown_and_deactivate(desc);
		desc->depth = 1;
		WRITE_ONCE(desc->handle_irq, irqkit_handle_bad_irq);
		WRITE_ONCE(desc->settings, desc->settings & ~chained);
		desc->handler_data = NULL;
	} else {
		desc->handler_data = data;
		WRITE_ONCE(desc->handle_irq, handle);
		WRITE_ONCE(desc->settings, desc->settings | chained);
		ret = irqkit__irq_startup(desc, true);
	}
	desc_unlock_irqrestore(desc, flags);
	return ret;
}

/* ---- hierarchy: a level's operation done by the level below ------------------------------ */

#define PARENT_OP(name, op)							\
void irqkit_irq_chip_##name##_parent(struct irqkit_irq_data *d)			\
{										\
	struct irqkit_irq_data *p = d->parent_data;				\
										\
	if (p && p->chip->op)							\
		p->chip->op(p);							\
}
PARENT_OP(enable, irq_enable)
PARENT_OP(disable, irq_disable)
PARENT_OP(ack, irq_ack)
PARENT_OP(mask, irq_mask)
PARENT_OP(mask_ack, irq_mask_ack)
PARENT_OP(unmask, irq_unmask)
PARENT_OP(eoi, irq_eoi)
#undef PARENT_OP

int irqkit_irq_chip_set_affinity_parent(struct irqkit_irq_data *d, const struct irqkit_cpus *dest,
					bool force)
{
	struct irqkit_irq_data *p = d->parent_data;

	if (!p || !p->chip->irq_set_affinity)
		return -IRQKIT_ENOSYS;
	return p->chip->irq_set_affinity(p, dest, force);
}

int irqkit_irq_chip_set_type_parent(struct irqkit_irq_data *d, unsigned int type)
{
	struct irqkit_irq_data *p = d->parent_data;

	if (!p || !p->chip->irq_set_type)
		return -IRQKIT_ENOSYS;
	return p->chip->irq_set_type(p, type);
}

int irqkit_irq_chip_retrigger_hierarchy(struct irqkit_irq_data *d)
{
	for (d = d->parent_data; d; d = d->parent_data)
		if (d->chip->irq_retrigger)
			return d->chip->irq_retrigger(d);
	return 0;
}

int irqkit_irq_chip_get_parent_state(struct irqkit_irq_data *d, int which, bool *state)
{
	struct irqkit_irq_data *p = d->parent_data;

	if (!p || !p->chip->irq_get_irqchip_state)
		return -IRQKIT_ENOSYS;
	return p->chip->irq_get_irqchip_state(p, which, state);
}
