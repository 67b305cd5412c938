// SPDX-License-Identifier: MIT
/*
 * Wait queues (Linux's kernel/sched/wait.c): a spinlock-guarded list of
 * entries, each naming a sleeping task and how to wake it.  The lock is
 * taken with interrupts saved, so a handler may wake a queue that process
 * context on the same CPU is adding itself to.
 */
#include "core.h"
#include "sched.h"
#include "debug/debug.h"

/* A head that was never initialised (all zero) is reported once and set up. */
static void head_check(struct irqkit_wait_queue_head *wq_head, const char *what)
{
	if (likely(READ_ONCE(wq_head->head.next)))
		return;
	unsigned long flags = irqkit_spin_lock_irqsave(&wq_head->lock);

	if (!wq_head->head.next) {
		irqkit__warn(__FILE__, __LINE__, "%s() on a wait queue head %p that was never "
			     "initialised (init_waitqueue_head, DECLARE_WAIT_QUEUE_HEAD); "
			     "initialising it now", what, (void *)wq_head);
		ilist_init(&wq_head->head);
	}
	irqkit_spin_unlock_irqrestore(&wq_head->lock, flags);
}

void irqkit_init_waitqueue_head(struct irqkit_wait_queue_head *wq_head)
{
	irqkit_spin_lock_init(&wq_head->lock);
	ilist_init(&wq_head->head);
}

void irqkit_init_wait_entry(struct irqkit_wait_queue_entry *wq_entry, unsigned int flags)
{
	wq_entry->flags = flags;
	wq_entry->private = irqkit_current();
	wq_entry->func = irqkit_autoremove_wake_function;
	ilist_init(&wq_entry->entry);
}

int irqkit_default_wake_function(struct irqkit_wait_queue_entry *wq_entry, unsigned int mode,
				 int flags, void *key)
{
	(void)flags;
	(void)key;
	return irqkit_wake_up_state(wq_entry->private, mode);
}

int irqkit_autoremove_wake_function(struct irqkit_wait_queue_entry *wq_entry, unsigned int mode,
				    int flags, void *key)
{
	int ret = irqkit_default_wake_function(wq_entry, mode, flags, key);

	if (ret)
		ilist_del_init(&wq_entry->entry);
	return ret;
}

void irqkit_add_wait_queue(struct irqkit_wait_queue_head *wq_head,
			   struct irqkit_wait_queue_entry *wq_entry)
{
	unsigned long flags;

	head_check(wq_head, "add_wait_queue");
	wq_entry->flags &= ~IRQKIT_WQ_FLAG_EXCLUSIVE;
	flags = irqkit_spin_lock_irqsave(&wq_head->lock);
	ilist_add(&wq_entry->entry, &wq_head->head);
	irqkit_spin_unlock_irqrestore(&wq_head->lock, flags);
}

void irqkit_add_wait_queue_exclusive(struct irqkit_wait_queue_head *wq_head,
				     struct irqkit_wait_queue_entry *wq_entry)
{
	unsigned long flags;

	head_check(wq_head, "add_wait_queue_exclusive");
	wq_entry->flags |= IRQKIT_WQ_FLAG_EXCLUSIVE;
	flags = irqkit_spin_lock_irqsave(&wq_head->lock);
	ilist_add_tail(&wq_entry->entry, &wq_head->head);
	irqkit_spin_unlock_irqrestore(&wq_head->lock, flags);
}

void irqkit_remove_wait_queue(struct irqkit_wait_queue_head *wq_head,
			      struct irqkit_wait_queue_entry *wq_entry)
{
	unsigned long flags = irqkit_spin_lock_irqsave(&wq_head->lock);

	if (!ilist_empty(&wq_entry->entry))
		ilist_del_init(&wq_entry->entry);
	irqkit_spin_unlock_irqrestore(&wq_head->lock, flags);
}

/* Non-exclusive entries go first, exclusive ones last, as Linux queues them. */
static void prepare(struct irqkit_wait_queue_head *wq_head,
		    struct irqkit_wait_queue_entry *wq_entry, unsigned int state)
{
	unsigned long flags;

	head_check(wq_head, "prepare_to_wait");
	flags = irqkit_spin_lock_irqsave(&wq_head->lock);
	if (ilist_empty(&wq_entry->entry)) {
		if (wq_entry->flags & IRQKIT_WQ_FLAG_EXCLUSIVE)
			ilist_add_tail(&wq_entry->entry, &wq_head->head);
		else
			ilist_add(&wq_entry->entry, &wq_head->head);
	}
	irqkit_set_current_state(state);
	irqkit_spin_unlock_irqrestore(&wq_head->lock, flags);
}

void irqkit_prepare_to_wait(struct irqkit_wait_queue_head *wq_head,
			    struct irqkit_wait_queue_entry *wq_entry, unsigned int state)
{
	wq_entry->flags &= ~IRQKIT_WQ_FLAG_EXCLUSIVE;
	prepare(wq_head, wq_entry, state);
}

void irqkit_prepare_to_wait_exclusive(struct irqkit_wait_queue_head *wq_head,
				      struct irqkit_wait_queue_entry *wq_entry, unsigned int state)
{
	wq_entry->flags |= IRQKIT_WQ_FLAG_EXCLUSIVE;
	prepare(wq_head, wq_entry, state);
}

long irqkit_prepare_to_wait_event(struct irqkit_wait_queue_head *wq_head,
				  struct irqkit_wait_queue_entry *wq_entry, unsigned int state)
{
	unsigned long flags;

	/* a signal the sleep would see: off the queue, no sleep (Linux's order) */
	if (unlikely(irqkit__signal_pending_state(state, irqkit_arch_current()))) {
		flags = irqkit_spin_lock_irqsave(&wq_head->lock);
		if (!ilist_empty(&wq_entry->entry))
			ilist_del_init(&wq_entry->entry);
		irqkit_spin_unlock_irqrestore(&wq_head->lock, flags);
		return -IRQKIT_ERESTARTSYS;
	}
	prepare(wq_head, wq_entry, state);
	return 0;
}

void irqkit_finish_wait(struct irqkit_wait_queue_head *wq_head,
			struct irqkit_wait_queue_entry *wq_entry)
{
	irqkit___set_current_state(IRQKIT_TASK_RUNNING);
	/* an autoremove wake-up may have unlinked it already: then no lock is needed */
	if (!ilist_empty_careful(&wq_entry->entry)) {
		unsigned long flags = irqkit_spin_lock_irqsave(&wq_head->lock);

		if (!ilist_empty(&wq_entry->entry))
			ilist_del_init(&wq_entry->entry);
		irqkit_spin_unlock_irqrestore(&wq_head->lock, flags);
	}
}

void irqkit___wake_up_locked(struct irqkit_wait_queue_head *wq_head, unsigned int mode,
			     int nr_exclusive)
{
	struct irqkit_list_head *pos = wq_head->head.next, *next;

	spin_assert_locked(&wq_head->lock);
	for (; pos != &wq_head->head; pos = next) {
		struct irqkit_wait_queue_entry *curr =
			container_of(pos, struct irqkit_wait_queue_entry, entry);
		unsigned int flags = curr->flags;
		int ret;

		next = pos->next;		/* the wake function may unlink curr */
		ret = curr->func(curr, mode, 0, NULL);
		if (ret < 0)
			break;
		if (ret && (flags & IRQKIT_WQ_FLAG_EXCLUSIVE) && !--nr_exclusive)
			break;
	}
}

void irqkit___wake_up(struct irqkit_wait_queue_head *wq_head, unsigned int mode,
		      int nr_exclusive, void *key)
{
	unsigned long flags;

	(void)key;
	irqkit__point("wake_up", __builtin_return_address(0));
	head_check(wq_head, "wake_up");
	flags = irqkit_spin_lock_irqsave(&wq_head->lock);
	irqkit___wake_up_locked(wq_head, mode, nr_exclusive);
	irqkit_spin_unlock_irqrestore(&wq_head->lock, flags);
}

bool irqkit_waitqueue_active(struct irqkit_wait_queue_head *wq_head)
{
	const struct irqkit_list_head *first = READ_ONCE(wq_head->head.next);

	return first && first != &wq_head->head;
}

long irqkit_sleep_on_common(struct irqkit_wait_queue_head *wq_head, unsigned int state,
			    long timeout)
{
	struct irqkit_wait_queue_entry wait;
	unsigned long flags;

	might_sleep();
	head_check(wq_head, "sleep_on");
	irqkit_init_wait_entry(&wait, 0);
	wait.func = irqkit_default_wake_function;	/* removed below, not at the wake */
	irqkit_set_current_state(state);
	flags = irqkit_spin_lock_irqsave(&wq_head->lock);
	ilist_add(&wait.entry, &wq_head->head);
	irqkit_spin_unlock_irqrestore(&wq_head->lock, flags);
	timeout = irqkit_schedule_timeout(timeout);
	irqkit_remove_wait_queue(wq_head, &wait);
	return timeout;
}
