// SPDX-License-Identifier: MIT
/*
 * Signals to tasks (the part of Linux's kernel/signal.c that driver code
 * meets) and the task list they need.
 *
 * A task joins the list at its first irqkit_current(), its first sleep, or
 * its start as a kthread, and leaves it when its thread ends (the platform
 * calls irqkit__core_task_exit() then, while the task's memory is still
 * valid).  A sender finds its target on the list under the list's lock and
 * marks the signal pending there, so a task that ended is -ESRCH and never
 * written.  Pending signals are a word of bits on the task; the sender then
 * wakes the task from an interruptible sleep (and from a killable one for
 * SIGKILL), and the sleeper checks the word before it sleeps: the state is
 * published before the check and the bit before the wake, so one of the two
 * sees the other.
 */
#include "core.h"
#include "sched.h"
#include <irqkit/signal.h>

static struct irqkit_spinlock task_lock = IRQKIT_SPINLOCK_INIT;
static struct irqkit_task *task_list;		/* task_lock */

static unsigned long long sig_bit(int sig)
{
	return 1ull << (sig - 1);
}

static bool sig_valid(int sig)
{
	return sig >= 1 && sig <= IRQKIT_NSIG;
}

/* A kernel thread: a kthread or a thread of the runtime (ksoftirqd, kworker, irq thread). */
static bool kernel_thread(const struct irqkit_task *t)
{
	return t->kthread || t->kthread_rec;
}

/*
 * irqkit__task_register - @t, the caller's task, joins the task list (once).
 * Context: any.
 */
void irqkit__task_register_slow(struct irqkit_task *t)
{
	unsigned long flags;

	if (!t->pid) {
		irqkit_plat_thread_name(t->comm, sizeof(t->comm));
		WRITE_ONCE(t->pid, irqkit_plat_thread_id());
	}
	flags = irqkit_spin_lock_irqsave(&task_lock);
	t->tasks_next = task_list;
	if (task_list)
		task_list->tasks_pprev = &t->tasks_next;
	t->tasks_pprev = &task_list;
	task_list = t;
	WRITE_ONCE(t->registered, true);
	irqkit_spin_unlock_irqrestore(&task_lock, flags);
	irqkit_plat_task_track(t);
}

/* irqkit__core_task_exit - @t's thread ends: off the list, so no signal reaches it. */
void irqkit__core_task_exit(struct irqkit_task *t)
{
	unsigned long flags = irqkit_spin_lock_irqsave(&task_lock);

	if (t->registered) {
		*t->tasks_pprev = t->tasks_next;
		if (t->tasks_next)
			t->tasks_next->tasks_pprev = t->tasks_pprev;
		t->tasks_next = NULL;
		t->tasks_pprev = NULL;
		WRITE_ONCE(t->registered, false);
	}
	irqkit_spin_unlock_irqrestore(&task_lock, flags);
}

/* Mark @sig pending on @t and wake it as Linux's signal_wake_up(); under task_lock. */
static void signal_wake_up(struct irqkit_task *t, int sig)
{
	unsigned int mode = IRQKIT_TASK_INTERRUPTIBLE;

	a_fetch_or(&t->sig_pending, sig_bit(sig));
	if (sig == IRQKIT_SIGKILL)
		mode |= IRQKIT_TASK_WAKEKILL;
	irqkit_wake_up_state(t, mode);
}

static int send(int sig, struct irqkit_task *p, bool force)
{
	unsigned long flags;
	int ret = -IRQKIT_ESRCH;

	if (!sig_valid(sig))
		return -IRQKIT_EINVAL;
	flags = irqkit_spin_lock_irqsave(&task_lock);
	for (struct irqkit_task *t = task_list; t; t = t->tasks_next) {
		if (t != p)
			continue;
		/* a kernel thread ignores what it has not allowed, as Linux's kthreads */
		if (force || !kernel_thread(t) || (READ_ONCE(t->sig_allowed) & sig_bit(sig)))
			signal_wake_up(t, sig);
		ret = 0;
		break;
	}
	irqkit_spin_unlock_irqrestore(&task_lock, flags);
	return ret;
}

int irqkit_send_sig(int sig, struct irqkit_task *p, int priv)
{
	(void)priv;
	return send(sig, p, false);
}

int irqkit_force_sig(int sig, struct irqkit_task *p)
{
	return send(sig, p, true);
}

int irqkit_signal_all_tasks(int sig)
{
	unsigned long flags;
	int n = 0;

	if (!sig_valid(sig))
		return -IRQKIT_EINVAL;
	flags = irqkit_spin_lock_irqsave(&task_lock);
	for (struct irqkit_task *t = task_list; t; t = t->tasks_next) {
		if (kernel_thread(t))
			continue;
		signal_wake_up(t, sig);
		n++;
	}
	irqkit_spin_unlock_irqrestore(&task_lock, flags);
	return n;
}

void irqkit_allow_signal(int sig)
{
	struct irqkit_task *t = irqkit_arch_current();

	if (WARN(!sig_valid(sig), "allow_signal(%d): no such signal", sig))
		return;
	a_fetch_or(&t->sig_allowed, sig_bit(sig));
}

void irqkit_disallow_signal(int sig)
{
	struct irqkit_task *t = irqkit_arch_current();

	if (WARN(!sig_valid(sig), "disallow_signal(%d): no such signal", sig))
		return;
	a_fetch_and(&t->sig_allowed, ~sig_bit(sig));
	a_fetch_and(&t->sig_pending, ~sig_bit(sig));
}

void irqkit_flush_signals(struct irqkit_task *p)
{
	a_store_seq(&p->sig_pending, 0ull);
}

int irqkit_dequeue_signal(void)
{
	struct irqkit_task *t = irqkit_arch_current();
	unsigned long long pending = a_load_seq(&t->sig_pending);

	while (pending) {
		int sig = __builtin_ctzll(pending) + 1;

		if (a_cas(&t->sig_pending, &pending, pending & ~sig_bit(sig)))
			return sig;
	}
	return 0;
}

/* Does a pending signal end a sleep in @state (Linux's signal_pending_state)? */
bool irqkit__signal_pending_state(unsigned int state, const struct irqkit_task *t)
{
	if (!(state & (IRQKIT_TASK_INTERRUPTIBLE | IRQKIT_TASK_WAKEKILL)))
		return false;
	if (!irqkit_signal_pending(t))
		return false;
	return (state & IRQKIT_TASK_INTERRUPTIBLE) || irqkit_fatal_signal_pending(t);
}

/* kthread_stop()'s notice: every interruptible sleep of @t ends from now on (TIF_NOTIFY_SIGNAL). */
void irqkit__signal_notify(struct irqkit_task *t)
{
	a_store_seq(&t->sig_notify, 1u);
	irqkit_wake_up_state(t, IRQKIT_TASK_INTERRUPTIBLE);
}
