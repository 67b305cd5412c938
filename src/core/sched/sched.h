/* SPDX-License-Identifier: MIT */
/*
 * Tasks and sleeping (sched/): the task list and signals (signal.c),
 * kthreads (kthread.c), Linux's list_head for the wait queues, and the
 * event counts the core's own threads sleep on.
 */
#ifndef IRQKIT_CORE_SCHED_SCHED_H
#define IRQKIT_CORE_SCHED_SCHED_H

#include "core.h"
#include "debug/debug.h"

/* Linux's list_head operations, for the wait queues and semaphores. */
static inline void ilist_init(struct irqkit_list_head *l)
{
	WRITE_ONCE(l->next, l);
	a_store_release(&l->prev, l);	/* last: see ilist_empty_careful */
}
static inline bool ilist_empty(const struct irqkit_list_head *l)
{
	return READ_ONCE(l->next) == l;
}
/* Empty, and not being unlinked by another thread right now (list_empty_careful). */
static inline bool ilist_empty_careful(const struct irqkit_list_head *l)
{
	return a_load_acquire(&l->prev) == l && READ_ONCE(l->next) == l;
}
static inline void ilist_insert(struct irqkit_list_head *n, struct irqkit_list_head *prev,
				struct irqkit_list_head *next)
{
	WRITE_ONCE(next->prev, n);
	WRITE_ONCE(n->next, next);
	WRITE_ONCE(n->prev, prev);
	WRITE_ONCE(prev->next, n);
}
static inline void ilist_add(struct irqkit_list_head *n, struct irqkit_list_head *head)
{
	ilist_insert(n, head, head->next);
}
static inline void ilist_add_tail(struct irqkit_list_head *n, struct irqkit_list_head *head)
{
	ilist_insert(n, head->prev, head);
}
static inline void ilist_del_init(struct irqkit_list_head *n)
{
	WRITE_ONCE(n->next->prev, n->prev);
	WRITE_ONCE(n->prev->next, n->next);
	ilist_init(n);
}
/* Move @from's entries to the end of @to, in their order; @from left empty. */
static inline void ilist_splice_tail_init(struct irqkit_list_head *from,
					  struct irqkit_list_head *to)
{
	if (ilist_empty(from))
		return;
	WRITE_ONCE(from->next->prev, to->prev);
	WRITE_ONCE(to->prev->next, from->next);
	WRITE_ONCE(from->prev->next, to);
	WRITE_ONCE(to->prev, from->prev);
	ilist_init(from);
}

HIDDEN int irqkit__kthread_bind(int cpu);
/* signal.c: the task list, signals */
HIDDEN void irqkit__task_register_slow(struct irqkit_task *t);
/* @t, the caller's task, joins the task list (once).  Context: any. */
static inline void irqkit__task_register(struct irqkit_task *t)
{
	if (unlikely(!READ_ONCE(t->registered)))
		irqkit__task_register_slow(t);
}
HIDDEN bool irqkit__signal_pending_state(unsigned int state, const struct irqkit_task *t);
HIDDEN void irqkit__signal_notify(struct irqkit_task *t);

/* A run's end for @t: the fields before `state` back to zero; the thread's own stay. */
static inline void irqkit__task_reset_run(struct irqkit_task *t)
{
	__builtin_memset(t, 0, __builtin_offsetof(struct irqkit_task, state));
}

/* kthread.c */
HIDDEN void irqkit__kthreads_stop_all(uint64_t limit_ns);

/*
 * An event count: the core's threads sleep on a sequence word, as on a
 * Linux wait queue.  The waker changes the condition, then
 * irqkit__seq_wake(); the waiter reads the word before it tests the
 * condition and sleeps only while the word is unchanged, so a wake between
 * its test and its sleep is never lost.  Any context.
 */
static inline void irqkit__seq_wake(unsigned int *seq)
{
	a_fetch_add(seq, 1);
	irqkit_plat_wake(seq);
}

/*
 * wait_event on @seq: sleep until @cond holds, re-tested after each wake;
 * the first sleep records the wait (@what, @kind, @obj, @num) for the
 * watchdog's blocked-wait report.  Process context.
 */
#define irqkit__seq_wait_event(seq, cond, what, kind, obj, num)			\
	do {									\
		struct irqkit_task *__t = irqkit_arch_current();		\
		unsigned int __state = a_load_seq(&__t->state);			\
		struct irqkit__wait __w;					\
										\
		irqkit__wait_init(&__w);					\
		for (;;) {							\
			unsigned int __seen = a_load_seq(seq);			\
										\
			if (cond)						\
				break;						\
			irqkit__wait_begin(&__w, what, kind, obj, num);		\
			/* asleep as Linux's waits are: "D" in the task list */	\
			a_store_seq(&__t->state, IRQKIT_TASK_UNINTERRUPTIBLE);	\
			irqkit_plat_wait(seq, __seen);				\
			a_store_seq(&__t->state, __state);			\
		}								\
		irqkit__wait_end(&__w);						\
	} while (0)

#endif /* IRQKIT_CORE_SCHED_SCHED_H */
