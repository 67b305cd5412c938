/* SPDX-License-Identifier: MIT */
/*
 * Bottom halves (bh/): softirqs and tasklets (softirq.c), irq_work
 * (irq_work.c) and work queues (workqueue.c), as the other rooms of the
 * core reach them: raising a vector, running the pending ones as the
 * softirq holder, the start and stop of each, and moving an offline CPU's
 * work to a live one.
 */
#ifndef IRQKIT_CORE_BH_BH_H
#define IRQKIT_CORE_BH_BH_H

#include "core.h"
#include "cpu.h"
#include "debug/debug.h"

/*
 * A delivery point inside softirq processing (between tasklets, between timer
 * callbacks): the softirq holder takes the hardirqs that came meanwhile.
 */
static inline void irqkit__softirq_preempt_point(struct irqkit_task *t, struct irqkit_cpu *c)
{
	if (unlikely(hardirq_pending(c)) && !task_irqs_off(t))
		irqkit__cpu_deliver_hardirqs(t, c);
}

/* softirq.c */
HIDDEN int irqkit__softirq_init(void);
HIDDEN void irqkit__softirq_exit(void);
HIDDEN void irqkit__handle_softirqs(struct irqkit_task *t, struct irqkit_cpu *c);
HIDDEN void irqkit__raise_softirq_observed(struct irqkit_cpu *c, unsigned int nr);
HIDDEN void irqkit__wakeup_softirqd(struct irqkit_cpu *c);

/*
 * PREEMPT_RT mode with threads of the runtime: softirqs raised in hardirq
 * context are ksoftirqd's (irq_exit and a delivery point do not run them);
 * the thread whose local_bh_enable ends the last bh-off section still runs
 * what is pending.  In deterministic mode the player runs them as before.
 */
static inline bool irqkit__softirqs_threaded(void)
{
	return unlikely(irqkit__rt.flags & IRQKIT_CFG_PREEMPT_RT) && !irqkit__rt.m.player_delivers;
}
HIDDEN void irqkit__tasklets_exit(void);
struct irqkit_tasklet;
HIDDEN void irqkit__tasklet_schedule_quiet(struct irqkit_tasklet *t, bool hi);
/* softirq.c: deterministic mode's player, waiting for a bottom half, runs the softirqs itself */
HIDDEN bool irqkit__det_player(void);
HIDDEN bool irqkit__det_run_softirqs(void);
/*
 * One turn of a wait for what only a CPU's softirqs finish (a tasklet, a
 * poll).  Return: 1 when the deterministic player ran the CPUs (look
 * again at once); 0 when threads run them (wait the caller's own way);
 * -1 when the player can run nothing (a section that keeps softirqs out):
 * "@what() in deterministic mode ...: nothing would run @whom; not
 * waiting" reported at the caller's place, and the wait is to end.
 */
HIDDEN int irqkit__det_wait_turn(const char *file, int line, const char *what, const char *whom);
#define det_wait_turn(what, whom)	irqkit__det_wait_turn(__FILE__, __LINE__, (what), (whom))

/* Let go of the softirq hold (a full barrier), waking whoever waits for the CPU. */
static inline void irqkit__release_softirq(struct irqkit_task *t, struct irqkit_cpu *c)
{
	unsigned long f = irqkit_arch_hold_begin();

	t->slot &= ~TASK_SLOT_SOFTIRQ;
	a_fetch_and(&c->slot, ~SLOT_SOFTIRQ);
	irqkit_arch_hold_end(f);
	irqkit__slot_wake(c);
}

/*
 * Take the CPU for softirqs when its slot word is exactly @from: 0 (nobody
 * holds it in any way), or the caller's own single hold that it turns into
 * the softirq hold in the same step (its bh-off hold at local_bh_enable, its
 * hardirq hold at irq_exit).
 */
static inline bool irqkit__claim_softirq(struct irqkit_task *t, struct irqkit_cpu *c, unsigned int from)
{
	unsigned long f = irqkit_arch_hold_begin();

	if (!a_cas(&c->slot, &from, SLOT_SOFTIRQ)) {
		irqkit_arch_hold_end(f);
		return false;
	}
	cpu_note_hold(c, HOLD_SOFTIRQ, t);
	t->slot |= TASK_SLOT_SOFTIRQ;
	irqkit_arch_hold_end(f);
	return true;
}

/*
 * The caller has just taken @c for softirqs: run them, let go, then take the
 * hardirqs that came meanwhile (the release is a full barrier).
 */
static inline void irqkit__run_softirqs_held(struct irqkit_task *t, struct irqkit_cpu *c)
{
	irqkit__handle_softirqs(t, c);
	irqkit__release_softirq(t, c);
	if (hardirq_pending(c))
		irqkit__cpu_deliver_hardirqs(t, c);
}

/* softirq.c: a vector's name, as /proc/softirqs and the reports print it */
HIDDEN const char *irqkit__softirq_name(unsigned int nr);

/* workqueue.c */
HIDDEN int irqkit__workqueue_init(void);
HIDDEN void irqkit__workqueue_stop(void);
HIDDEN void irqkit__workqueue_exit(void);
HIDDEN void irqkit__delayed_work_dropped(struct irqkit_timer_list *timer);
HIDDEN void irqkit__workqueue_watchdog(uint64_t now, uint64_t thresh);
HIDDEN void irqkit__workqueue_reap(void);
struct irqkit_work;
HIDDEN const void *irqkit__work_fn(const struct irqkit_work *work);
IRQKIT_API void irqkit_delayed_work_timer_fn(struct irqkit_timer_list *timer);

/* softirq.c: an offline CPU's tasklets go to @to */
HIDDEN void irqkit__softirq_takeover(unsigned int cpu, unsigned int to);

/* irq_poll.c: the per-CPU lists and the vector; an offline CPU's instances go to @to */
HIDDEN void irqkit__irq_poll_init(void);
HIDDEN void irqkit__irq_poll_takeover(unsigned int cpu, unsigned int to);
/* napi.c: the same for NAPI's lists and NET_RX */
HIDDEN void irqkit__napi_init(void);
HIDDEN void irqkit__napi_takeover(unsigned int cpu, unsigned int to);

/* irq_work.c */
HIDDEN int irqkit__irq_work_init(void);
HIDDEN void irqkit__irq_work_run(struct irqkit_cpu *c);
HIDDEN void irqkit__irq_work_dead_cpu(unsigned int cpu, unsigned int to);
HIDDEN void irqkit__irq_work_exit(void);

/* Mark softirq @nr pending on @c, @observed already tested by the caller; that form is out of line. */
static __always_inline void irqkit__raise_softirq_as(struct irqkit_cpu *c, unsigned int nr,
						     bool observed)
{
	irqkit_trace(softirq_raise, nr);
	if (unlikely(observed))
		irqkit__raise_softirq_observed(c, nr);
	else
		a_fetch_or(&c->softirq_pending, 1u << nr);
}

/* Mark softirq @nr pending on @c. */
static __always_inline void irqkit__raise_softirq_on(struct irqkit_cpu *c, unsigned int nr)
{
	irqkit__raise_softirq_as(c, nr, irqkit__observing());
}

/* workqueue.c: each queue's WORK histograms (delay, duration, lateness) */
HIDDEN void irqkit__wq_hist_clear(void);
HIDDEN struct irqkit__hist *irqkit__wq_hist(const struct irqkit_workqueue *wq, unsigned int which);
HIDDEN void irqkit__wq_for_each(void (*fn)(const struct irqkit_workqueue *wq, const char *name,
					   void *arg), void *arg);

#endif /* IRQKIT_CORE_BH_BH_H */
