/* SPDX-License-Identifier: MIT */
/*
 * The generic interrupt layer's own structures and helpers (Linux's
 * kernel/irq/internals.h): descriptor state, actions, the descriptor and its
 * lock, and what the files of irq/ call in each other.  The files of irq/
 * include it; elsewhere in the core only what delivers or observes lines.
 */
#ifndef IRQKIT_CORE_IRQ_INTERNALS_H
#define IRQKIT_CORE_IRQ_INTERNALS_H

#include "core.h"
#include "cpu.h"
#include <irqkit/irqdesc.h>
#include <irqkit/irqdomain.h>

/* ---- what the rest of the core calls ------------------------------------- */

/*
 * kstat_incr_irqs_this_cpu: count a handled interrupt on the caller's CPU (an
 * unbound caller, as the poll, counts on CPU 0).  Only the CPU's holder writes.
 */
static inline void irqkit__kstat_incr_on(struct irqkit_cpu *c, unsigned int irq)
{
	a_inc_single(&c->kstat[irq]);
}

/* irq_enter / irq_exit: the hardirq part of preempt_count, inline on the dispatch path. */
static inline void irqkit__irq_enter(struct irqkit_task *t)
{
	t->preempt_count += IRQKIT_HARDIRQ_OFFSET;
}
static inline void irqkit__irq_exit(struct irqkit_task *t)
{
	t->preempt_count -= IRQKIT_HARDIRQ_OFFSET;
}

/*
 * irq/: the generic interrupt layer's life cycle, for the runtime (its own
 * structures are in irq/internals.h): the descriptors, the resend and
 * spurious machinery, every action freed and every irq thread reaped at
 * stop.
 */
HIDDEN int irqkit__descs_init(void);
HIDDEN void irqkit__descs_exit(void);
HIDDEN void irqkit__resend_init(void);
HIDDEN void irqkit__spurious_init(void);
HIDDEN void irqkit__free_all(void);
HIDDEN void irqkit__reap_irq_threads(void);

/* irq/irqdomain.c: the run's lines are gone from every domain's map */
HIDDEN void irqkit__domains_exit(void);

/* irq/cpuhotplug.c: a CPU's lines move off it; what was pending for it, after its dispatcher */
HIDDEN void irqkit__irq_migrate_all_off_cpu(unsigned int cpu);
HIDDEN void irqkit__irq_resignal_off_cpu(unsigned int cpu);
HIDDEN void irqkit__irq_affinity_online_cpu(unsigned int cpu);

/* ---- descriptor state ---------------------------------------------------- */

/*
 * irq_data.state bits (Linux's IRQD_*), changed under the descriptor lock and
 * read anywhere with READ_ONCE.
 *
 *   bit                     set by                         cleared by
 *   IRQD_IRQ_DISABLED       irq_disable, shutdown          irq_enable, startup
 *   IRQD_IRQ_MASKED         mask, mask_ack, shutdown       unmask, startup
 *   IRQD_IRQ_INPROGRESS     handle_irq_event (lock held)   handle_irq_event on return
 *   IRQD_IRQ_STARTED        irq_startup                    irq_shutdown
 */
#define IRQD_TRIGGER_MASK		0xfu
#define IRQD_LEVEL			(1u << 8)
#define IRQD_IRQ_DISABLED		(1u << 9)
#define IRQD_IRQ_MASKED			(1u << 10)
#define IRQD_IRQ_INPROGRESS		(1u << 11)
#define IRQD_IRQ_STARTED		(1u << 12)
#define IRQD_DEFAULT_TRIGGER_SET	(1u << 13)
#define IRQD_PER_CPU			(1u << 14)
#define IRQD_NO_BALANCING		(1u << 16)
#define IRQD_ACTIVATED			(1u << 17)	/* the line's resources are set up */
#define IRQD_AFFINITY_MANAGED		(1u << 18)	/* the kernel's affinity, not the user's */
#define IRQD_MANAGED_SHUTDOWN		(1u << 19)	/* managed, shut down: no CPU of it online */
#define IRQD_WAKEUP_STATE		(1u << 20)	/* armed as a wake-up source */

/*
 * desc->istate bits (Linux's IRQS_*), under the descriptor lock.
 *
 *   IRQS_PENDING            an interrupt the flow could not handle (disabled,
 *                           busy elsewhere, no action): replayed by enable or
 *                           looped on by the CPU running the line
 *   IRQS_REPLAY             a resend is in flight; cleared at the next flow entry
 *   IRQS_SPURIOUS_DISABLED  disabled by note_interrupt as stuck (section 3)
 *   IRQS_POLL_INPROGRESS    the spurious poll runs the actions now
 *   IRQS_ONESHOT            the line's actions are ONESHOT
 */
#define IRQS_AUTODETECT			(1u << 0)
#define IRQS_SPURIOUS_DISABLED		(1u << 1)
#define IRQS_POLL_INPROGRESS		(1u << 3)
#define IRQS_ONESHOT			(1u << 5)
#define IRQS_REPLAY			(1u << 6)
#define IRQS_WAITING			(1u << 7)
#define IRQS_PENDING			(1u << 9)
#define IRQS_FAULT			(1u << 16)	/* irqkit: fault injection on (fault.c) */

/* desc->settings: the public IRQKIT_IRQ_* plus these private bits. */
#define IRQ_SETTINGS_NO_DEBUG		(1u << 30)
/* irqpoll: even a handled interrupt goes to note_interrupt, which may poll the others */
#define IRQ_SETTINGS_IRQPOLL		(1u << 29)

/*
 * action->thread_flags (Linux's IRQTF_*):
 *   RUNTHREAD  the primary handler asked for the thread; the thread clears it
 *   FORCED     threadirqs moved the handler into the thread (1.13)
 *   STOP       free_irq: the thread exits
 *   SELF_FREE  freed from its own thread_fn: the thread frees the action as it exits
 */
#define IRQTF_RUNTHREAD		(1u << 0)
#define IRQTF_FORCED		(1u << 1)
#define IRQTF_STOP		(1u << 2)
#define IRQTF_SELF_FREE		(1u << 3)

struct irqkit_action {
	irqkit_handler_fn	handler;	/* the 2-argument form, or NULL */
	irqkit_handler_regs_fn	handler_regs;	/* the 2.6.0-2.6.18 form, or NULL */
	void			*dev_id;
	struct irqkit_action	*next;		/* READ_ONCE: walked without the lock */
	unsigned int		irq;
	unsigned int		flags;
	const char		*name;
	struct irqkit_action	*deferred_next;	/* on desc->deferred_free */
	unsigned int		warned_no_thread;	/* a word: no byte atomics on every CPU */
	/* threaded handler */
	irqkit_handler_fn	thread_fn;
	struct irqkit_plat_thread *thread;
	unsigned int		thread_flags;	/* IRQTF_*, atomic */
	unsigned int		thread_seq;	/* the thread sleeps on it */
	unsigned long		thread_mask;	/* its bit in desc->threads_oneshot */
	/* forced threading of an action with a thread function (thread.c) */
	struct irqkit_action	*secondary;	/* the driver's thread function, irq/N-s-name */
	struct irqkit_action	*primary;	/* a secondary's action on the line */
	/* the task listing's view of its thread: set and cleared by the thread, under desc lock */
	struct irqkit_task	*thread_task;
	int			thread_pid;
};

/* struct irqkit_desc, one per line, is public: <irqkit/irqdesc.h>. */

static inline struct irqkit_desc *irq_to_desc(unsigned int irq)
{
	if (unlikely(irq >= irqkit__rt.nr_irqs))
		return NULL;
	return &irqkit__rt.descs[irq];
}

static inline unsigned int irq_desc_get_irq(const struct irqkit_desc *desc)
{
	return desc->irq_data.irq;
}

/* irq_data.state accessors; writers hold the descriptor lock. */
static inline unsigned int irqd_get(const struct irqkit_irq_data *d)
{
	return READ_ONCE(d->state);
}
static inline bool irqd_has(const struct irqkit_irq_data *d, unsigned int bits)
{
	return (irqd_get(d) & bits) != 0;
}
static inline void irqd_set(struct irqkit_irq_data *d, unsigned int bits)
{
	WRITE_ONCE(d->state, READ_ONCE(d->state) | bits);
}
static inline void irqd_clear(struct irqkit_irq_data *d, unsigned int bits)
{
	WRITE_ONCE(d->state, READ_ONCE(d->state) & ~bits);
}
static inline bool irqd_irq_disabled(const struct irqkit_irq_data *d)
{
	return irqd_has(d, IRQD_IRQ_DISABLED);
}
static inline bool irqd_irq_masked(const struct irqkit_irq_data *d)
{
	return irqd_has(d, IRQD_IRQ_MASKED);
}
static inline bool irqd_irq_inprogress(const struct irqkit_irq_data *d)
{
	return irqd_has(d, IRQD_IRQ_INPROGRESS);
}
static inline bool irqd_is_level_type(const struct irqkit_irq_data *d)
{
	return irqd_has(d, IRQD_LEVEL);
}

/* desc->istate accessors: written under the descriptor lock, read anywhere. */
static inline unsigned int istate_get(const struct irqkit_desc *desc)
{
	return READ_ONCE(desc->istate);
}
static inline void istate_set(struct irqkit_desc *desc, unsigned int bits)
{
	WRITE_ONCE(desc->istate, READ_ONCE(desc->istate) | bits);
}
static inline void istate_clear(struct irqkit_desc *desc, unsigned int bits)
{
	WRITE_ONCE(desc->istate, READ_ONCE(desc->istate) & ~bits);
}

/*
 * The descriptor lock.  As Linux's raw desc->lock it is held with interrupts
 * off: flow handlers take it in hardirq context (interrupts already off),
 * process-context paths with desc_lock_irqsave, so no delivery point (a
 * local_irq_restore on a bound thread) is reached while it is held.
 * Handlers run with it dropped.
 */
/* Checking build: a helper that needs the descriptor lock finds it taken. */
#define desc_assert_locked(desc)	spin_assert_locked(&(desc)->lock)

static inline void desc_lock(struct irqkit_desc *desc)
{
	irqkit_spin_lock(&desc->lock);
}
static inline void desc_unlock(struct irqkit_desc *desc)
{
	irqkit_spin_unlock(&desc->lock);
}
/* The chip routes the line to a CPU of @mask (its irq_set_affinity, which the caller checked). */
static inline int chip_set_affinity(struct irqkit_irq_data *d, irqkit_cpumask mask)
{
	struct irqkit_cpus dest = irqkit_cpus_of_mask(mask);

	return d->chip->irq_set_affinity(d, &dest, false);
}

static inline unsigned long desc_lock_irqsave(struct irqkit_desc *desc)
{
	return irqkit_spin_lock_irqsave(&desc->lock);
}
static inline void desc_unlock_irqrestore(struct irqkit_desc *desc, unsigned long flags)
{
	irqkit_spin_unlock_irqrestore(&desc->lock, flags);
}

static inline void irqkit__kstat_incr(struct irqkit_desc *desc)
{
	const struct irqkit_task *t = irqkit_arch_current();

	irqkit__kstat_incr_on(t->cpu ? t->cpu : irqkit__rt.cpus, irq_desc_get_irq(desc));
}

/* irqdesc.c */
HIDDEN unsigned int irqkit__kstat_sum(unsigned int irq);

/* chip.c */
HIDDEN int irqkit__irq_startup(struct irqkit_desc *desc, bool resend);
HIDDEN void irqkit__irq_shutdown(struct irqkit_desc *desc);
HIDDEN void irqkit__irq_shutdown_and_deactivate(struct irqkit_desc *desc);
HIDDEN void irqkit__irq_startup_managed(struct irqkit_desc *desc);
HIDDEN int irqkit__irq_activate(struct irqkit_desc *desc);

/* irqdomain.c: a hierarchy line's levels activated (root first) and deactivated */
HIDDEN int irqkit__irq_domain_activate(struct irqkit_irq_data *d, bool reserve);
HIDDEN void irqkit__irq_domain_deactivate(struct irqkit_irq_data *d);
HIDDEN void irqkit__irq_enable(struct irqkit_desc *desc);
HIDDEN void irqkit__irq_disable(struct irqkit_desc *desc);
HIDDEN void irqkit__mask_irq(struct irqkit_desc *desc);
HIDDEN void irqkit__unmask_irq(struct irqkit_desc *desc);
HIDDEN int irqkit__irq_set_trigger(struct irqkit_desc *desc, unsigned int flags);
HIDDEN void irqkit__irq_percpu_enable(struct irqkit_desc *desc, unsigned int cpu);
HIDDEN void irqkit__irq_percpu_disable(struct irqkit_desc *desc, unsigned int cpu);

/* handle.c */
HIDDEN enum irqkit_irqreturn irqkit__handle_irq_event(struct irqkit_desc *desc);
HIDDEN enum irqkit_irqreturn irqkit__handle_irq_event_poll(struct irqkit_desc *desc);
HIDDEN enum irqkit_irqreturn irqkit__handle_irq_event_percpu(struct irqkit_desc *desc);
HIDDEN enum irqkit_irqreturn irqkit__handle_actions(struct irqkit_desc *desc);
HIDDEN void irqkit__free_deferred(struct irqkit_desc *desc);

/* manage.c */
HIDDEN void irqkit__enable_irq_locked(struct irqkit_desc *desc);
/* handle.c */
HIDDEN void irqkit__irq_wake_thread(struct irqkit_desc *desc, struct irqkit_action *action);
/* thread.c: the irq threads, for manage.c's request and free */
HIDDEN enum irqkit_irqreturn irqkit__default_primary_handler(int irq, void *dev_id);
HIDDEN void irqkit__reap_action(struct irqkit_action *action);
HIDDEN enum irqkit_irqreturn irqkit__nested_primary_handler(int irq, void *dev_id);
HIDDEN int irqkit__setup_irq_thread(struct irqkit_action *action, unsigned int irq);
HIDDEN void irqkit__stop_irq_thread(struct irqkit_action *action);
HIDDEN int irqkit__irq_setup_forced_threading(struct irqkit_desc *desc, struct irqkit_action *new);
HIDDEN void irqkit__stop_irq_threads_later(struct irqkit_action *action);
/* thread.c: the irq threads' rows of the task listing (sched/kthread.c) */
HIDDEN void irqkit__irq_threads_show(struct irqkit__sbuf *sb, char (*letter)(unsigned int state));
HIDDEN void irqkit__reap_thread_later(struct irqkit_plat_thread *thread);

/* spurious.c; the window: 100,000 interrupts, as Linux's note_interrupt counts them */
#define SPURIOUS_WINDOW		100000u
HIDDEN void irqkit__note_interrupt(struct irqkit_desc *desc, enum irqkit_irqreturn ret);
HIDDEN bool irqkit__irq_wait_for_poll(struct irqkit_desc *desc);
HIDDEN void irqkit__print_handlers(struct irqkit_desc *desc);

/* resend.c */
HIDDEN int irqkit__check_irq_resend(struct irqkit_desc *desc, bool inject);
/* Queue the line for the software resend, level lines too (fault injection). */
HIDDEN int irqkit__irq_sw_resend(struct irqkit_desc *desc);
HIDDEN bool irqkit__resend_queued(struct irqkit_desc *desc);
HIDDEN void irqkit__clear_irq_resend(struct irqkit_desc *desc);

#endif /* IRQKIT_CORE_IRQ_INTERNALS_H */
