// SPDX-License-Identifier: MIT
/*
 * Spurious-interrupt detection (Linux's kernel/irq/spurious.c): a line whose
 * interrupts nobody handles is reported and disabled, and a spurious-disabled
 * shared line is polled every 100 ms.  With irqfixup (IRQKIT_CFG_IRQFIXUP) an
 * unhandled interrupt tries the other shared lines' handlers; with irqpoll
 * so does each interrupt of line 0 and of an IRQF_IRQPOLL line.
 *
 * The counters (irq_count, irqs_unhandled, last_unhandled) are written only by
 * the thread running the line's handlers (one at a time: guarantee 1), and read
 * by reports with READ_ONCE.
 */
#include "internals.h"
#include "time/time.h"
#include <irqkit/proc.h>

/* note_interrupt's window: SPURIOUS_WINDOW interrupts (irq/internals.h) ... */
/* ... of which more than 99,900 unhandled means the line is stuck (3.6, 3.7). */
#define SPURIOUS_THRESHOLD	99900u
/* Bit 31 of threads_handled_last: the verdict is deferred to the next hardirq (3.3). */
#define SPURIOUS_DEFERRED	0x80000000u
/* Bogus-return reports in all, one static counter in Linux (3.2). */
#define BAD_IRQ_REPORTS		100

/* HZ/10: the unhandled-counter reset (3.4) and the poll period (3.8). */
static unsigned long hz_tenth(void)
{
	return irqkit__rt.hz / 10 ? irqkit__rt.hz / 10 : 1;
}

/* A result is bogus when, read as unsigned, it exceeds HANDLED | WAKE_THREAD (3.2). */
static bool bad_action_ret(unsigned int ret)
{
	return ret > (IRQKIT_HANDLED | IRQKIT_WAKE_THREAD);
}

/* "handlers:" and one line per action, in list order.  Takes the descriptor lock. */
void irqkit__print_handlers(struct irqkit_desc *desc)
{
	pr_err("handlers:");
	desc_lock(desc);
	for (struct irqkit_action *a = desc->action; a; a = a->next) {
		const void *fn = a->handler ? (const void *)a->handler : (const void *)a->handler_regs;

		pr_err("[<%p>] %ps", fn, fn);
	}
	desc_unlock(desc);
}

static void __report_bad_irq(struct irqkit_desc *desc, unsigned int action_ret)
{
	unsigned int irq = irq_desc_get_irq(desc);

	if (bad_action_ret(action_ret))
		pr_err("irq event %u: bogus return value %x", irq, action_ret);
	else
		pr_err("irq %u: nobody cared (try booting with the \"irqpoll\" option)", irq);
	irqkit__dump_stack();
	irqkit__print_handlers(desc);
}

static void report_bad_irq(struct irqkit_desc *desc, unsigned int action_ret)
{
	if (a_fetch_sub(&irqkit__rt.bad_irq_reports, 1) > 0)
		__report_bad_irq(desc, action_ret);
}

/* Linux's irqfixup level: 0 off, 1 irqfixup, 2 irqpoll. */
static unsigned int irqfixup(void)
{
	unsigned int f = READ_ONCE(irqkit__rt.flags);

	return (f & IRQKIT_CFG_IRQPOLL) ? 2 : (f & IRQKIT_CFG_IRQFIXUP) ? 1 : 0;
}

static bool try_one_irq(struct irqkit_desc *desc, bool force);

/*
 * misrouted_irq: try every other shared line's handlers (not line 0, not
 * disabled ones) on this CPU, one poller at a time.
 * Return: whether one of them handled.
 */
static bool misrouted_irq(unsigned int irq)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	bool ok = false;

	if (a_fetch_add(&rt->poll_active, 1) == 0) {
		for (unsigned int i = 1; i < rt->nr_irqs; i++)
			if (i != irq && try_one_irq(&rt->descs[i], false))
				ok = true;
	}
	a_fetch_sub(&rt->poll_active, 1);
	return ok;
}

/*
 * try_misrouted_irq: irqfixup tries the other lines after an unhandled
 * interrupt; irqpoll also after each of line 0 and of an IRQF_IRQPOLL line.
 */
static bool try_misrouted_irq(unsigned int irq, struct irqkit_desc *desc, unsigned int ret)
{
	struct irqkit_action *action;
	unsigned int level = irqfixup();

	if (!level)
		return false;
	if (ret == IRQKIT_NONE)
		return true;
	if (level < 2)
		return false;
	if (!irq)
		return true;
	action = READ_ONCE(desc->action);	/* unlocked, as Linux: it may change */
	return action && (action->flags & IRQKIT_F_IRQPOLL);
}

/*
 * note_interrupt - account one interrupt of a line and its combined result
 *
 * Context: the thread running the line's handlers, descriptor lock not held.
 */
void irqkit__note_interrupt(struct irqkit_desc *desc, enum irqkit_irqreturn action_ret)
{
	unsigned int ret = (unsigned int)action_ret;
	unsigned int irq = irq_desc_get_irq(desc);

	/* 3.1: not while the poll runs the chain, not on polled lines */
	if ((istate_get(desc) & IRQS_POLL_INPROGRESS) ||
	    (READ_ONCE(desc->settings) & IRQKIT_IRQ_IS_POLLED))
		return;

	/* 3.2: report (capped) and do not count */
	if (bad_action_ret(ret)) {
		report_bad_irq(desc, ret);
		return;
	}

	/* 3.3: a pure WAKE_THREAD result is judged at the next hardirq, on the count it saw */
	if (ret & IRQKIT_WAKE_THREAD) {
		unsigned int last = READ_ONCE(desc->threads_handled_last);

		if (ret == IRQKIT_WAKE_THREAD) {
			unsigned int handled;

			if (!(last & SPURIOUS_DEFERRED)) {
				WRITE_ONCE(desc->threads_handled_last, last | SPURIOUS_DEFERRED);
				return;
			}
			handled = READ_ONCE(desc->threads_handled_seen) | SPURIOUS_DEFERRED;
			if (handled != last) {
				ret = IRQKIT_HANDLED;
				WRITE_ONCE(desc->threads_handled_last, handled);
			} else {
				ret = IRQKIT_NONE;
			}
		} else {
			WRITE_ONCE(desc->threads_handled_last, last & ~SPURIOUS_DEFERRED);
		}
	}

	/* 3.4: an unhandled interrupt more than 100 ms after the last restarts at 1 */
	if (unlikely(ret == IRQKIT_NONE)) {
		unsigned long now = irqkit_jiffies();

		if (time_after(now, READ_ONCE(desc->last_unhandled) + hz_tenth()))
			WRITE_ONCE(desc->irqs_unhandled, 1);
		else
			a_inc_single(&desc->irqs_unhandled);
		WRITE_ONCE(desc->last_unhandled, now);
	}

	/* 3.5: irqfixup and irqpoll; another line's handler that handled takes one back */
	if (unlikely(try_misrouted_irq(irq, desc, ret))) {
		bool ok = misrouted_irq(irq);

		if (ret == IRQKIT_NONE && ok)
			WRITE_ONCE(desc->irqs_unhandled, READ_ONCE(desc->irqs_unhandled) - 1);
	}

	/*
	 * The window: every interrupt moves it (2.6 to 5.12), or from 5.13 on
	 * only once one was unhandled, which keeps the common path from
	 * writing the line's counters at all.
	 */
	if ((READ_ONCE(irqkit__rt.flags) & IRQKIT_CFG_WINDOW_FROM_UNHANDLED) &&
	    likely(!READ_ONCE(desc->irqs_unhandled)))
		return;
	a_inc_single(&desc->irq_count);
	if (likely(READ_ONCE(desc->irq_count) < SPURIOUS_WINDOW))
		return;

	WRITE_ONCE(desc->irq_count, 0);
	if (unlikely(READ_ONCE(desc->irqs_unhandled) > SPURIOUS_THRESHOLD)) {
		/*
		 * 3.7: the interrupt is stuck.  Report, disable (depth++, lazy
		 * irq_disable) and start polling.
		 */
		__report_bad_irq(desc, ret);
		pr_emerg("Disabling IRQ #%u", irq);
		irqkit_trace(spurious_disable, irq);
		desc_lock(desc);
		istate_set(desc, IRQS_SPURIOUS_DISABLED);
		desc->depth++;
		irqkit__irq_disable(desc);
		desc_unlock(desc);
		irqkit_mod_timer(&irqkit__rt.poll_timer, irqkit_jiffies() + hz_tenth());
	}
	WRITE_ONCE(desc->irqs_unhandled, 0);
}

/*
 * A flow found the line in progress because the spurious poll runs it: wait
 * for the poll.  Called and returns with the lock held.
 * Return: whether the line can still be handled.
 */
bool irqkit__irq_wait_for_poll(struct irqkit_desc *desc)
{
	desc_assert_locked(desc);
	do {
		unsigned int spins = 0;

		desc_unlock(desc);
		while (irqd_irq_inprogress(&desc->irq_data))
			spin_step(&spins);
		desc_lock(desc);
	} while (irqd_irq_inprogress(&desc->irq_data));
	return !irqd_irq_disabled(&desc->irq_data) && desc->action;
}

/*
 * try_one_irq: run the chain of a shared line from the
 * poll.  A line busy elsewhere is only marked PENDING.
 * Return: true if some handler said HANDLED.
 */
static bool try_one_irq(struct irqkit_desc *desc, bool force)
{
	unsigned int ret = IRQKIT_NONE;
	struct irqkit_action *action;

	desc_lock(desc);
	if (desc->settings & (IRQKIT_IRQ_PER_CPU | IRQKIT_IRQ_NESTED_THREAD | IRQKIT_IRQ_IS_POLLED))
		goto out_unlock;
	if (irqd_irq_disabled(&desc->irq_data) && !force)
		goto out_unlock;
	action = desc->action;
	if (!action || !(action->flags & IRQKIT_F_SHARED) || (action->flags & IRQKIT_F__TIMER))
		goto out_unlock;
	if (irqd_irq_inprogress(&desc->irq_data)) {
		istate_set(desc, IRQS_PENDING);
		goto out_unlock;
	}
	istate_set(desc, IRQS_POLL_INPROGRESS);
	do {
		if (irqkit__handle_irq_event_poll(desc) == IRQKIT_HANDLED)
			ret = IRQKIT_HANDLED;
		action = desc->action;
	} while ((istate_get(desc) & IRQS_PENDING) && action);
	istate_clear(desc, IRQS_POLL_INPROGRESS);
out_unlock:
	desc_unlock(desc);
	return ret == IRQKIT_HANDLED;
}

/*
 * poll_spurious_irqs - the HZ/10 timer.  One poller at a time;
 * every spurious-disabled line but irq 0 is tried with interrupts off.  It
 * re-arms itself and never re-enables a line.
 * Context: TIMER softirq.
 */
static void poll_spurious_irqs(struct irqkit_timer_list *timer)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	if (a_fetch_add(&rt->poll_active, 1) != 0)
		goto out;
	for (unsigned int i = 1; i < rt->nr_irqs; i++) {
		struct irqkit_desc *desc = &rt->descs[i];

		if (!(istate_get(desc) & IRQS_SPURIOUS_DISABLED))
			continue;
		irqkit_local_irq_disable();
		try_one_irq(desc, true);
		irqkit_local_irq_enable();
	}
out:
	a_fetch_sub(&rt->poll_active, 1);
	irqkit_mod_timer(timer, irqkit_jiffies() + hz_tenth());
}

void irqkit__spurious_init(void)
{
	irqkit_timer_setup(&irqkit__rt.poll_timer, poll_spurious_irqs, 0);
	irqkit__rt.bad_irq_reports = BAD_IRQ_REPORTS;
	/* the words Linux prints when it boots with either option */
	if (irqfixup() == 2) {
		pr_warn("Misrouted IRQ fixup and polling support enabled");
		pr_warn("This may significantly impact system performance");
	} else if (irqfixup() == 1) {
		pr_warn("Misrouted IRQ fixup support enabled.");
		pr_warn("This may impact system performance.");
	}
}

int irqkit_show_spurious_buf(unsigned int irq, char *buf, size_t size)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	unsigned long last;

	if (!desc)
		return -IRQKIT_EINVAL;
	last = READ_ONCE(desc->last_unhandled);
	/* Linux prints jiffies_to_msecs() of the jiffies value itself, INITIAL_JIFFIES included */
	return irqkit__snprintf(buf, size, "count %u\nunhandled %u\nlast_unhandled %u ms\n",
				READ_ONCE(desc->irq_count), READ_ONCE(desc->irqs_unhandled),
				irqkit_jiffies_to_msecs(last));
}
