// SPDX-License-Identifier: MIT
/*
 * Completions (Linux's kernel/sched/completion.c): a count of done events
 * under the wait queue's lock; each waiter takes one, complete_all() sets it
 * to "always".
 */
#include "core.h"
#include "sched.h"
#include "debug/debug.h"

#define COMPLETE_ALL	(~0u)

/* A completion never initialised (all zero): report and set it up, then go on. */
static void completion_check(struct irqkit_completion *x, const char *what)
{
	if (likely(READ_ONCE(x->wait.head.next)))
		return;
	irqkit__warn(__FILE__, __LINE__, "%s() on a completion %p that was never initialised "
		     "(init_completion, DECLARE_COMPLETION); initialising it now", what, (void *)x);
	irqkit_init_waitqueue_head(&x->wait);
}

void irqkit_init_completion(struct irqkit_completion *x)
{
	x->done = 0;
	irqkit_init_waitqueue_head(&x->wait);
}

void irqkit_reinit_completion(struct irqkit_completion *x)
{
	WRITE_ONCE(x->done, 0);
}

void irqkit_complete(struct irqkit_completion *x)
{
	unsigned long flags;

	irqkit__point("complete", __builtin_return_address(0));
	completion_check(x, "complete");
	flags = irqkit_spin_lock_irqsave(&x->wait.lock);
	if (x->done != COMPLETE_ALL)
		WRITE_ONCE(x->done, x->done + 1);
	irqkit___wake_up_locked(&x->wait, IRQKIT_TASK_NORMAL, 1);
	irqkit_spin_unlock_irqrestore(&x->wait.lock, flags);
}

void irqkit_complete_all(struct irqkit_completion *x)
{
	unsigned long flags;

	completion_check(x, "complete_all");
	flags = irqkit_spin_lock_irqsave(&x->wait.lock);
	WRITE_ONCE(x->done, COMPLETE_ALL);
	irqkit___wake_up_locked(&x->wait, IRQKIT_TASK_NORMAL, 0);
	irqkit_spin_unlock_irqrestore(&x->wait.lock, flags);
}

/*
 * do_wait_for_common: queue exclusively, sleep until done, out of time or
 * signalled; take one.  Return: the jiffies left (at least 1), 0 out of
 * time, -ERESTARTSYS signalled.
 */
static long wait_common(struct irqkit_completion *x, long timeout, unsigned int state,
			const char *what)
{
	unsigned long flags;

	might_sleep();
	completion_check(x, what);
	flags = irqkit_spin_lock_irqsave(&x->wait.lock);
	if (!x->done) {
		struct irqkit_wait_queue_entry wait;

		irqkit_init_wait_entry(&wait, IRQKIT_WQ_FLAG_EXCLUSIVE);
		wait.func = irqkit_default_wake_function;	/* the entry leaves below, not at the wake */
		ilist_add_tail(&wait.entry, &x->wait.head);
		do {
			if (irqkit__signal_pending_state(state, irqkit_arch_current())) {
				ilist_del_init(&wait.entry);
				irqkit_spin_unlock_irqrestore(&x->wait.lock, flags);
				return -IRQKIT_ERESTARTSYS;
			}
			irqkit_set_current_state(state);
			irqkit_spin_unlock_irqrestore(&x->wait.lock, flags);
			timeout = irqkit_schedule_timeout(timeout);
			flags = irqkit_spin_lock_irqsave(&x->wait.lock);
		} while (!x->done && timeout);
		ilist_del_init(&wait.entry);
		if (!x->done) {
			irqkit_spin_unlock_irqrestore(&x->wait.lock, flags);
			return 0;
		}
	}
	if (x->done != COMPLETE_ALL)
		WRITE_ONCE(x->done, x->done - 1);
	irqkit_spin_unlock_irqrestore(&x->wait.lock, flags);
	return timeout ? timeout : 1;
}

void irqkit_wait_for_completion(struct irqkit_completion *x)
{
	wait_common(x, IRQKIT_MAX_SCHEDULE_TIMEOUT, IRQKIT_TASK_UNINTERRUPTIBLE,
		    "wait_for_completion");
}

unsigned long irqkit_wait_for_completion_timeout(struct irqkit_completion *x,
						 unsigned long timeout)
{
	return (unsigned long)wait_common(x, (long)timeout, IRQKIT_TASK_UNINTERRUPTIBLE,
					  "wait_for_completion_timeout");
}

int irqkit_wait_for_completion_interruptible(struct irqkit_completion *x)
{
	long t = wait_common(x, IRQKIT_MAX_SCHEDULE_TIMEOUT, IRQKIT_TASK_INTERRUPTIBLE,
			     "wait_for_completion_interruptible");

	return t == -IRQKIT_ERESTARTSYS ? (int)t : 0;
}

int irqkit_wait_for_completion_killable(struct irqkit_completion *x)
{
	long t = wait_common(x, IRQKIT_MAX_SCHEDULE_TIMEOUT, IRQKIT_TASK_KILLABLE,
			     "wait_for_completion_killable");

	return t == -IRQKIT_ERESTARTSYS ? (int)t : 0;
}

long irqkit_wait_for_completion_interruptible_timeout(struct irqkit_completion *x,
						      unsigned long timeout)
{
	return wait_common(x, (long)timeout, IRQKIT_TASK_INTERRUPTIBLE,
			   "wait_for_completion_interruptible_timeout");
}

long irqkit_wait_for_completion_killable_timeout(struct irqkit_completion *x,
						 unsigned long timeout)
{
	return wait_common(x, (long)timeout, IRQKIT_TASK_KILLABLE,
			   "wait_for_completion_killable_timeout");
}

bool irqkit_try_wait_for_completion(struct irqkit_completion *x)
{
	unsigned long flags;
	bool ret = true;

	completion_check(x, "try_wait_for_completion");
	if (!READ_ONCE(x->done))
		return false;
	flags = irqkit_spin_lock_irqsave(&x->wait.lock);
	if (!x->done)
		ret = false;
	else if (x->done != COMPLETE_ALL)
		WRITE_ONCE(x->done, x->done - 1);
	irqkit_spin_unlock_irqrestore(&x->wait.lock, flags);
	return ret;
}

bool irqkit_completion_done(struct irqkit_completion *x)
{
	return READ_ONCE(x->done) != 0;
}
