// SPDX-License-Identifier: MIT
/*
 * Softirqs and tasklets (Linux's kernel/softirq.c).
 *
 * Softirqs of CPU k run on the thread that holds k for softirq
 * (SLOT_SOFTIRQ): the thread leaving the outermost hardirq (irq_exit), the
 * thread whose local_bh_enable leaves the last bh-off section, or ksoftirqd/k.
 * A raise from process context wakes ksoftirqd/k (6.2); after 10 passes or
 * 2 ms the loop hands over to it (6.3).
 *
 * Tasklet state (6.6-6.8):
 *
 *   state   set by                          cleared by
 *   SCHED   tasklet_schedule (0 -> 1 only)  the TASKLET softirq as it takes RUN,
 *                                           before the call; tasklet_kill
 *   RUN     the softirq (trylock)           the softirq after the call
 *   depth   tasklet_disable (the bits from  tasklet_enable
 *           OFF_ONE up; count has it too)
 *
 * With the disable depth in the same word, taking a tasklet to run is one
 * compare-and-swap: from SCHED alone (scheduled, not running, not disabled)
 * to RUN.  Linux takes RUN, reads count, then clears SCHED (three atomics
 * with the later clear of RUN, here two): the same decisions, made at one
 * instant.  A schedule before it is merged into the run; one after it runs
 * the tasklet again; a disable before it keeps the tasklet queued; one after
 * it waits for the run (tasklet_unlock_wait).
 *
 * A tasklet is queued on the list of the CPU that scheduled it.  Several
 * threads may act for one CPU, so the list is lock-free: scheduling pushes
 * with a compare-and-swap, the softirq takes the whole list with one
 * exchange and reverses it, so tasklets run in the order they were
 * scheduled (Linux's tail-append order).
 */
#include "core.h"
#include "cpu.h"
#include "bh.h"
#include "time/time.h"
#include "sched/sched.h"
#include "debug/debug.h"

/* MAX_SOFTIRQ_RESTART and MAX_SOFTIRQ_TIME. */
#define MAX_SOFTIRQ_RESTART	10
#define MAX_SOFTIRQ_TIME_NS	2000000ull

static const char *const softirq_to_name[IRQKIT_NR_SOFTIRQS] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
	"HRTIMER", "RCU",
};


const char *irqkit__softirq_name(unsigned int nr)
{
	return nr < IRQKIT_NR_SOFTIRQS ? softirq_to_name[nr] : "?";
}

unsigned int irqkit_softirq_pending(unsigned int cpu)
{
	if (!irqkit__rt.cpus || cpu >= irqkit__rt.nr_cpus)
		return 0;
	return a_load_seq(&irqkit__rt.cpus[cpu].softirq_pending);
}

void irqkit__wakeup_softirqd(struct irqkit_cpu *c)
{
	if (a_load_seq(&c->ksoftirqd_idle)) {
		irqkit__seq_wake(&c->ksoftirqd_seq);
	}
}

/*
 * One round: every vector pending when it starts, in bit order.  Linux's
 * __do_softirq turns interrupts on once it has taken the pending bits, so
 * a hardirq that came meanwhile (a level line still asserted after its
 * handler, say) runs before the first vector, and a tasklet it schedules
 * again runs once: the round's first delivery point is there.
 */
static __always_inline void softirq_round(struct irqkit_task *t, struct irqkit_cpu *c)
{
	unsigned int pending = a_xchg(&c->softirq_pending, 0);

	/* a delivery point before each vector and after the last */
	for (;;) {
		if (a_load_seq(&c->pend2))
			irqkit__cpu_deliver(t, c);	/* hardirqs only: we hold SOFTIRQ */
		if (!pending)
			break;
		unsigned int nr = (unsigned int)__builtin_ctz(pending);
		irqkit_softirq_fn action = READ_ONCE(irqkit__rt.softirq_vec[nr]);
		unsigned int prev = t->preempt_count;
		bool observed = unlikely(irqkit__observing());
		uint64_t start = 0;

		pending &= pending - 1;
		a_inc_single(&c->softirq_count[nr]);	/* kstat_incr_softirqs_this_cpu */
		WRITE_ONCE(t->running_fn, (const void *)action);
		irqkit_trace(softirq_entry, nr);
		if (observed)
			start = irqkit__obs_softirq_begin(c, nr);
		if (action)
			action();
		if (observed)
			irqkit__obs_softirq_end(nr, start);
		irqkit_trace(softirq_exit, nr);
		WRITE_ONCE(t->running_fn, NULL);
		if (unlikely(t->preempt_count != prev)) {
			pr_err("huh, entered softirq %u %s %p with preempt_count %08x, exited with %08x?",
			       nr, softirq_to_name[nr], (void *)action, prev, t->preempt_count);
			t->preempt_count = prev;
		}
		if (unlikely(task_irqs_off(t)))
			irqkit_local_irq_enable();
	}
}

/*
 * More was raised during the first round: up to 9 more rounds within the
 * 2 ms budget, then ksoftirqd.  The budget is read from the clock only here,
 * and starts here: a clock read costs as much as a whole tasklet run, and
 * most rounds never restart.  The first round then is not counted, an error
 * of one round where Linux's jiffies comparison errs by up to one tick.
 */
static __attribute__((noinline)) void softirq_restart(struct irqkit_task *t, struct irqkit_cpu *c)
{
	bool timed = !mode_virtual_clock();
	uint64_t end = timed ? irqkit_plat_now_ns() + MAX_SOFTIRQ_TIME_NS : 0;
	int restart = MAX_SOFTIRQ_RESTART - 1;

	do {
		if (!restart-- || (timed && irqkit_plat_now_ns() >= end)) {
			irqkit__wakeup_softirqd(c);
			return;
		}
		softirq_round(t, c);
	} while (irqkit__softirq_pending(c));
}

/*
 * handle_softirqs.  Caller holds @c for softirq, interrupts
 * on.  Between vectors the hardirqs that came meanwhile are taken, as a CPU
 * takes an interrupt in the middle of softirq processing.
 */
void irqkit__handle_softirqs(struct irqkit_task *t, struct irqkit_cpu *c)
{
	assert_softirq_holder(c);
	t->preempt_count += IRQKIT_SOFTIRQ_OFFSET;
	softirq_round(t, c);
	if (unlikely(irqkit__softirq_pending(c)))
		softirq_restart(t, c);
	t->preempt_count -= IRQKIT_SOFTIRQ_OFFSET;
}

/* irqkit__raise_softirq_on() when watched: stamp the raise for the histograms. */
void irqkit__raise_softirq_observed(struct irqkit_cpu *c, unsigned int nr)
{
	irqkit__obs_softirq_raise(c, nr);
	a_fetch_or(&c->softirq_pending, 1u << nr);
}

/*
 * raise_softirq_irqoff, after the raise.  From interrupt context on this CPU
 * (hardirq, softirq, bh-off) the softirq runs when that context ends; from
 * anywhere else ksoftirqd is woken.  An unbound thread acts for CPU 0 but
 * is never its interrupt context.
 */
static __always_inline void softirq_raised_here(struct irqkit_task *t, struct irqkit_cpu *c)
{
	if (!irqkit_in_interrupt() || t->cpu != c)
		irqkit__wakeup_softirqd(c);
}

static __always_inline void raise_softirq_here(struct irqkit_task *t, struct irqkit_cpu *c, unsigned int nr)
{
	irqkit__raise_softirq_on(c, nr);
	softirq_raised_here(t, c);
}

void irqkit_raise_softirq_irqoff(unsigned int nr)
{
	struct irqkit_cpu *c;

	if (nr >= IRQKIT_NR_SOFTIRQS || !(c = irqkit__this_cpu()))
		return;
	raise_softirq_here(irqkit_arch_current(), c, nr);
}

void irqkit_raise_softirq(unsigned int nr)
{
	unsigned long flags = irqkit_local_irq_save();

	irqkit_raise_softirq_irqoff(nr);
	irqkit_local_irq_restore(flags);
}

void irqkit_open_softirq(unsigned int nr, irqkit_softirq_fn action)
{
	if (nr < IRQKIT_NR_SOFTIRQS)
		WRITE_ONCE(irqkit__rt.softirq_vec[nr], action);
}

/* ---- tasklets ------------------------------------------------------------------ */

#define SCHED	IRQKIT_TASKLET_STATE_SCHED
#define RUN	IRQKIT_TASKLET_STATE_RUN
#define OFF_ONE	IRQKIT__TASKLET_STATE_OFF_ONE

static inline bool tasklet_state_disabled(unsigned long state)
{
	return state >= OFF_ONE;
}

void irqkit_tasklet_init(struct irqkit_tasklet *t, void (*func)(unsigned long), unsigned long data)
{
	*t = (struct irqkit_tasklet){ .use_callback = false, .func = func, .data = data };
}

void irqkit_tasklet_setup(struct irqkit_tasklet *t, void (*callback)(struct irqkit_tasklet *))
{
	*t = (struct irqkit_tasklet){ .use_callback = true, .callback = callback };
}

/* Push @t on list @idx (0 TASKLET, 1 HI) of @c (newest first).  Any context. */
static void tasklet_enqueue(struct irqkit_cpu *c, struct irqkit_tasklet *t, int idx)
{
	struct irqkit_tasklet *old = READ_ONCE(c->tasklet_head[idx]);

	do {
		t->next = old;
	} while (!a_cas(&c->tasklet_head[idx], &old, t));
}

/* Take list @idx of @c whole, oldest first. */
static struct irqkit_tasklet *tasklet_take(struct irqkit_cpu *c, int idx)
{
	struct irqkit_tasklet *t = a_xchg_acquire(&c->tasklet_head[idx], NULL), *fifo = NULL;

	while (t) {
		struct irqkit_tasklet *next = t->next;

		t->next = fifo;
		fifo = t;
		t = next;
	}
	return fifo;
}

/*
 * takeover_tasklets: CPU @cpu went offline; its queued tasklets go to CPU
 * @to's lists, oldest first, their SCHED kept, and @to's vectors raised.  A
 * list is taken whole by one exchange, so a tasklet its ksoftirqd takes at
 * the same moment is either taken there or here, never both.
 */
void irqkit__softirq_takeover(unsigned int cpu, unsigned int to)
{
	struct irqkit_cpu *from = &irqkit__rt.cpus[cpu], *c = &irqkit__rt.cpus[to];
	static const unsigned int vec[2] = { IRQKIT_TASKLET_SOFTIRQ, IRQKIT_HI_SOFTIRQ };

	for (int idx = 0; idx < 2; idx++) {
		struct irqkit_tasklet *t = tasklet_take(from, idx);

		if (!t)
			continue;
		while (t) {
			struct irqkit_tasklet *next = t->next;

			tasklet_enqueue(c, t, idx);
			t = next;
		}
		irqkit__raise_softirq_on(c, vec[idx]);
	}
}

/* What the schedule does once it owns SCHED: queue @t on @c, raise the vector. */
static __always_inline void tasklet_queue(struct irqkit_cpu *c, struct irqkit_tasklet *t, int idx,
					  unsigned int nr, const bool observed)
{
	tasklet_enqueue(c, t, idx);
	/*
	 * No interrupts-off section around the raise, unlike Linux: the pending
	 * word is atomic and the list has its own lock, and no interrupt can be
	 * taken on this thread between the two (it reaches no delivery point).
	 * The watched test was made by the caller: not again.
	 */
	irqkit__raise_softirq_as(c, nr, observed);
	softirq_raised_here(irqkit_arch_current(), c);
}

/* The same, the tasklet stamped for the histograms first (a copy out of line). */
static __attribute__((noinline)) void tasklet_queue_observed(struct irqkit_cpu *c,
							     struct irqkit_tasklet *t, int idx,
							     unsigned int nr)
{
	irqkit__obs_tasklet_sched(t);
	tasklet_queue(c, t, idx, nr, true);
}

static __always_inline void tasklet_schedule_common(struct irqkit_tasklet *t, int idx,
						    unsigned int nr)
{
	struct irqkit_cpu *c;

	if (WARN_ONCE(!READ_ONCE(t->callback),
		      "tasklet %p scheduled before tasklet_init()/tasklet_setup(): ignored",
		      (void *)t))
		return;
	if (a_fetch_or(&t->state, SCHED) & SCHED)
		return;
	c = irqkit__this_cpu();
	if (!c) {
		a_fetch_and(&t->state, ~SCHED);
		return;
	}
	if (unlikely(irqkit__observing())) {
		tasklet_queue_observed(c, t, idx, nr);
		return;
	}
	tasklet_queue(c, t, idx, nr, false);
}

void irqkit_tasklet_schedule(struct irqkit_tasklet *t)
{
	irqkit__point("tasklet_schedule", __builtin_return_address(0));
	tasklet_schedule_common(t, 0, IRQKIT_TASKLET_SOFTIRQ);
}

void irqkit_tasklet_hi_schedule(struct irqkit_tasklet *t)
{
	irqkit__point("tasklet_hi_schedule", __builtin_return_address(0));
	tasklet_schedule_common(t, 1, IRQKIT_HI_SOFTIRQ);
}

/* A tasklet on a list without SCHED: a bug Linux stops at (BUG()); irqkit warns and drops it. */
static void tasklet_warn_no_sched(struct irqkit_tasklet *t)
{
	WARN_ONCE(1, "tasklet SCHED state not set: %s %pS",
		  t->use_callback ? "callback" : "func", (void *)t->callback);
}

/*
 * Call @t, its RUN bit held and SCHED cleared; @observed a constant, the
 * watched form a copy of its own out of line (see handle_actions_as).
 */
static __always_inline void tasklet_call(struct irqkit_task *task, struct irqkit_tasklet *t,
					 unsigned int nr, uint64_t start, const bool observed)
{
	const void *outer = task->running_bh;
	const void *outer_fn = task->running_fn;
	/* func and callback share one union: either form */
	const void *fn = (const void *)t->callback;

	task->running_bh = t;
	WRITE_ONCE(task->running_fn, fn);
	irqkit_trace(tasklet_entry, t, fn);
	if (t->use_callback)
		t->callback(t);
	else
		t->func(t->data);
	if (observed)
		irqkit__obs_tasklet_end(fn, nr, start);
	irqkit_trace(tasklet_exit, t, fn);
	task->running_bh = outer;
	WRITE_ONCE(task->running_fn, outer_fn);
}

/* What became of a tasklet taken off the list. */
enum { TASKLET_RAN, TASKLET_AGAIN, TASKLET_GONE };

/*
 * The take for a state other than SCHED alone (the guess of the swap in
 * tasklet_try_run).  Return: TASKLET_RAN when it took @t (RUN set, SCHED
 * cleared); TASKLET_AGAIN while it is disabled or runs on another CPU
 * (SCHED stays set: it is queued again); TASKLET_GONE, warned, if it is on
 * a list without SCHED.
 */
static __attribute__((noinline)) int tasklet_take_slow(struct irqkit_tasklet *t, unsigned long old)
{
	do {
		if ((old & RUN) || tasklet_state_disabled(old))
			return TASKLET_AGAIN;
		if (!(old & SCHED)) {
			tasklet_warn_no_sched(t);
			return TASKLET_GONE;
		}
	} while (!a_cas(&t->state, &old, (old | RUN) & ~SCHED));
	return TASKLET_RAN;
}

/*
 * The watched form: RUN first, so the histogram stamp is read while SCHED
 * still holds it for this run (a schedule after SCHED clears stamps anew).
 */
static __attribute__((noinline)) int tasklet_try_run_observed(struct irqkit_task *task,
							      struct irqkit_tasklet *t,
							      unsigned int nr)
{
	unsigned long old = a_fetch_or_acquire(&t->state, RUN);
	uint64_t start;

	if (old & RUN)
		return TASKLET_AGAIN;		/* running on another CPU */
	if (tasklet_state_disabled(old)) {
		a_fetch_and_release(&t->state, ~RUN);
		return TASKLET_AGAIN;
	}
	start = irqkit__obs_tasklet_begin(t, nr);
	if (!(a_fetch_and(&t->state, ~SCHED) & SCHED)) {
		tasklet_warn_no_sched(t);
		a_fetch_and_release(&t->state, ~RUN);
		return TASKLET_GONE;
	}
	tasklet_call(task, t, nr, start, true);
	a_fetch_and_release(&t->state, ~RUN);
	return TASKLET_RAN;
}

/* Run @t if it may run now: the one swap of the table at the top, then the call. */
static __always_inline int tasklet_try_run(struct irqkit_task *task, struct irqkit_tasklet *t,
					   unsigned int nr)
{
	unsigned long old = SCHED;

	if (unlikely(irqkit__observing()))
		return tasklet_try_run_observed(task, t, nr);
	if (unlikely(!a_cas(&t->state, &old, RUN))) {
		int what = tasklet_take_slow(t, old);

		if (what != TASKLET_RAN)
			return what;
	}
	tasklet_call(task, t, nr, 0, false);
	a_fetch_and_release(&t->state, ~RUN);
	return TASKLET_RAN;
}

/* tasklet_action_common, a copy in each vector's action (no frame between). */
static __always_inline void tasklet_action_common(int idx, unsigned int nr)
{
	struct irqkit_task *task = irqkit_arch_current();
	struct irqkit_cpu *c = task->cpu;
	struct irqkit_tasklet *list = tasklet_take(c, idx);

	while (list) {
		struct irqkit_tasklet *t = list;

		list = list->next;
		switch (tasklet_try_run(task, t, nr)) {
		case TASKLET_RAN:
			irqkit__softirq_preempt_point(task, c);
			break;
		case TASKLET_AGAIN:	/* disabled, or running on another CPU: again later */
			tasklet_enqueue(c, t, idx);
			irqkit__raise_softirq_on(c, nr);
			break;
		}
	}
}

static void tasklet_action(void)
{
	tasklet_action_common(0, IRQKIT_TASKLET_SOFTIRQ);
}

static void tasklet_hi_action(void)
{
	tasklet_action_common(1, IRQKIT_HI_SOFTIRQ);
}

/*
 * tasklet_schedule or tasklet_hi_schedule (@hi) for the core's own tasklets
 * (a BH pool's), not an interrupt point of an exploration: the call that
 * made it (queue_work) was one.
 */
void irqkit__tasklet_schedule_quiet(struct irqkit_tasklet *t, bool hi)
{
	if (hi)
		tasklet_schedule_common(t, 1, IRQKIT_HI_SOFTIRQ);
	else
		tasklet_schedule_common(t, 0, IRQKIT_TASKLET_SOFTIRQ);
}

/* The depth in state first: that is what the softirq's take tests. */
void irqkit_tasklet_disable_nosync(struct irqkit_tasklet *t)
{
	a_fetch_add(&t->state, OFF_ONE);
	a_fetch_add(&t->count, 1);
}

/* Wait until @t is not running; a wait for itself is reported instead. */
static bool tasklet_unlock_wait(struct irqkit_tasklet *t, const char *what)
{
	unsigned int spins = 0;

	if (irqkit_arch_current()->running_bh == t) {
		irqkit__warn(__FILE__, __LINE__,
			     "%s() called from the tasklet itself: it would wait for itself forever; not waiting",
			     what);
		return false;
	}
	struct irqkit__wait w;

	irqkit__wait_init(&w);
	while (a_load_acquire(&t->state) & RUN) {
		irqkit__wait_begin(&w, what, WAIT_TASKLET, t, 0);
		spin_step(&spins);
	}
	irqkit__wait_end(&w);
	return true;
}

void irqkit_tasklet_disable(struct irqkit_tasklet *t)
{
	irqkit_tasklet_disable_nosync(t);
	might_sleep();
	tasklet_unlock_wait(t, "tasklet_disable");
}

void irqkit_tasklet_enable(struct irqkit_tasklet *t)
{
	if (WARN_ONCE(!tasklet_state_disabled(a_load_seq(&t->state)),
		      "tasklet_enable() of a tasklet that is not disabled"))
		return;
	a_fetch_sub(&t->count, 1);
	a_fetch_sub(&t->state, OFF_ONE);
}

/*
 * Deterministic mode has no ksoftirqd: the thread that plays the CPUs runs
 * their softirqs itself while it waits for a bottom half (tasklet_kill, a
 * flush or cancel of a BH work item), as ksoftirqd would run them while
 * Linux's caller sleeps.  Other threads wait for it.
 */
bool irqkit__det_player(void)
{
	const struct irqkit_task *t = irqkit_arch_current();

	return mode_player_delivers() && t->cpu && !t->nodeliver;
}

/* Runs of softirq vectors so far, every CPU's: what a player's wait counts as progress. */
static unsigned long softirq_runs(void)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < irqkit__rt.nr_cpus; cpu++)
		for (unsigned int nr = 0; nr < IRQKIT_NR_SOFTIRQS; nr++)
			n += READ_ONCE(irqkit__rt.cpus[cpu].softirq_count[nr]);
	return n;
}

/*
 * The player runs every CPU's pending interrupts and softirqs once.
 * Return: whether a softirq ran: false when nothing could (interrupts or
 * bottom halves off, a lock held, nothing pending), so that the wait, which
 * nothing else can end, reports and returns instead of spinning for ever.
 */
bool irqkit__det_run_softirqs(void)
{
	unsigned long before;

	if (!irqkit__det_player())
		return false;
	before = softirq_runs();
	for (unsigned int cpu = 0; cpu < irqkit__rt.nr_cpus; cpu++)
		(void)irqkit_cpu_run(cpu);
	return softirq_runs() != before;
}

int irqkit__det_wait_turn(const char *file, int line, const char *what, const char *whom)
{
	if (irqkit__det_run_softirqs())
		return 1;
	if (!irqkit__det_player())
		return 0;
	irqkit__warn(file, line,
		     "%s() in deterministic mode from a section that keeps softirqs out: nothing would run %s; not waiting",
		     what, whom);
	return -1;
}

void irqkit_tasklet_kill(struct irqkit_tasklet *t)
{
	struct irqkit__wait w;
	unsigned int spins = 0;
	irqkit__wait_init(&w);

	if (irqkit_in_interrupt())
		irqkit_printk(IRQKIT_LOG_NOTICE, "Attempt to kill tasklet from interrupt");
	if (irqkit_arch_current()->running_bh == t) {
		irqkit__warn(__FILE__, __LINE__,
			     "tasklet_kill() called from the tasklet itself: it would wait for itself forever; not waiting");
		return;
	}
	might_sleep();
	while (a_fetch_or(&t->state, SCHED) & SCHED) {
		int turn;

		if (tasklet_state_disabled(a_load_seq(&t->state))) {
			irqkit__warn(__FILE__, __LINE__,
				     "tasklet_kill() of a tasklet that is disabled and scheduled never returns; not waiting");
			irqkit__wait_end(&w);
			return;
		}
		turn = det_wait_turn("tasklet_kill", "the tasklet");
		if (turn > 0)
			continue;
		if (turn < 0) {
			irqkit__wait_end(&w);
			return;
		}
		irqkit__wait_begin(&w, "tasklet_kill", WAIT_TASKLET, t, 0);
		spin_step(&spins);
	}
	irqkit__wait_end(&w);
	tasklet_unlock_wait(t, "tasklet_kill");
	a_fetch_and(&t->state, ~SCHED);
}

/* ---- ksoftirqd/N ---------------------------------------------------- */

static void ksoftirqd_main(void *arg)
{
	struct irqkit_cpu *c = arg;
	struct irqkit_task *t = irqkit_arch_current();

	if (irqkit__kthread_bind((int)c->id))
		irqkit_plat_fatal("ksoftirqd cannot bind to its CPU");
	for (;;) {
		unsigned int seq = a_load_seq(&c->ksoftirqd_seq);
		unsigned int spins = 0;

		if (READ_ONCE(c->ksoftirqd_stop))
			break;
		if (irqkit__softirq_pending(c)) {
			while (!irqkit__claim_softirq(t, c, 0)) {
				unsigned int s = READ_ONCE(c->slot);

				if (READ_ONCE(c->ksoftirqd_stop) || !irqkit__softirq_pending(c))
					goto next;
				if (s)
					irqkit__slot_wait(c, s, &spins);
			}
			irqkit__jiffies_touch();	/* the jiffies objects, once per round here */
			irqkit__handle_softirqs(t, c);
			irqkit__release_softirq(t, c);
			if (irqkit__cpu_pending(c))
				irqkit__cpu_deliver(t, c);
			irqkit_plat_yield();	/* cond_resched */
next:
			continue;
		}
		a_store_seq(&c->ksoftirqd_idle, 1);
		if (!READ_ONCE(c->ksoftirqd_stop) && !irqkit__softirq_pending(c)) {
			/*
			 * Until woken, or until this CPU's earliest timer: its
			 * timer interrupt, unless an idle kworker is the timer.
			 */
			uint64_t ns = a_load_seq(&c->timer_duty) ? UINT64_MAX : irqkit__timers_sleep(c);

			if (ns == UINT64_MAX)
				irqkit_plat_wait(&c->ksoftirqd_seq, seq);
			else if (ns)
				irqkit_plat_wait_timeout(&c->ksoftirqd_seq, seq, ns);
		}
		a_store_seq(&c->ksoftirqd_idle, 0);
		if (!irqkit__softirq_pending(c))
			(void)irqkit__timers_sleep(c);	/* woken by the clock: raise TIMER if due */
	}
	irqkit_thread_unbind();
}

/* Open the tasklet vectors; start ksoftirqd/N in threaded mode.  Process context. */
int irqkit__softirq_init(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	assert_process_context();
	irqkit_open_softirq(IRQKIT_TASKLET_SOFTIRQ, tasklet_action);
	irqkit_open_softirq(IRQKIT_HI_SOFTIRQ, tasklet_hi_action);
	irqkit__irq_poll_init();
	irqkit__napi_init();
	if (mode_player_delivers())
		return 0;
	for (unsigned int i = 0; i < rt->nr_cpus; i++) {
		char name[24];

		irqkit__snprintf(name, sizeof(name), "ksoftirqd/%u", i);
		if (irqkit_plat_thread_create(&rt->cpus[i].ksoftirqd, name, ksoftirqd_main,
					      &rt->cpus[i])) {
			irqkit__softirq_exit();
			return -IRQKIT_ENOMEM;
		}
	}
	return 0;
}

/*
 * After ksoftirqd: another thread may still run a CPU's softirqs (a kworker
 * that was its CPU's timer, workqueue.c), and stop joins kworkers without a
 * limit.  One stuck past @limit_ns is refused as a stuck ksoftirqd is.
 */
static int softirq_holders_stop(uint64_t limit_ns)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	uint64_t end = irqkit_plat_now_ns() + limit_ns;
	int ret = 0;

	for (unsigned int i = 0; i < rt->nr_cpus; i++) {
		struct irqkit_cpu *c = &rt->cpus[i];
		unsigned int s;

		if (c->ksoftirqd)
			continue;	/* reported above */
		while ((s = a_load_seq(&c->slot)) & SLOT_SOFTIRQ) {
			uint64_t now = irqkit_plat_now_ns();

			if (now >= end) {
				pr_err("irqkit_stop: CPU#%u is stuck in %ps in softirq context; the runtime is left as it is (call irqkit_stop() again once it returns)",
				       i, cpu_hold_running_fn(c, HOLD_SOFTIRQ));
				ret = -IRQKIT_ETIMEDOUT;
				break;
			}
			/* releases wake only registered waiters: look again each millisecond */
			irqkit_plat_wait_timeout(&c->slot, s, end - now < 1000000 ? end - now : 1000000);
		}
	}
	return ret;
}

/*
 * irqkit__core_softirq_stop - end every ksoftirqd/N, waiting at most @limit_ns for
 * each (0: no limit).  One that does not end is stuck in a softirq callback
 * that does not return: it is reported and left, for a later call.
 * Context: process context (irqkit_stop).  Return: 0 or -ETIMEDOUT.
 */
int irqkit__core_softirq_stop(uint64_t limit_ns)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	int ret = 0;

	for (unsigned int i = 0; i < rt->nr_cpus; i++) {
		struct irqkit_cpu *c = &rt->cpus[i];

		if (!c->ksoftirqd)
			continue;
		a_store_seq(&c->ksoftirqd_stop, 1);
		irqkit__seq_wake(&c->ksoftirqd_seq);
		irqkit_plat_wake(&c->slot);
		if (!limit_ns) {
			irqkit_plat_thread_join(c->ksoftirqd);
		} else if (irqkit_plat_thread_join_timeout(c->ksoftirqd, limit_ns)) {
			pr_err("irqkit_stop: ksoftirqd/%u did not stop: CPU#%u is stuck in %ps; the runtime is left as it is (call irqkit_stop() again once it returns)",
			       i, i, cpu_hold_running_fn(c, HOLD_SOFTIRQ));
			ret = -IRQKIT_ETIMEDOUT;
			continue;
		}
		c->ksoftirqd = NULL;
	}
	if (limit_ns) {
		int held = softirq_holders_stop(limit_ns);

		if (held)
			ret = held;
	}
	return ret;
}

void irqkit__softirq_exit(void)
{
	(void)irqkit__core_softirq_stop(0);
}

/* At stop: tasklets still queued are dropped (their memory is the caller's). */
void irqkit__tasklets_exit(void)
{
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++) {
		struct irqkit_cpu *c = &irqkit__rt.cpus[i];

		for (int idx = 0; idx < 2; idx++) {
			struct irqkit_tasklet *t = tasklet_take(c, idx);

			while (t) {
				struct irqkit_tasklet *next = t->next;

				a_fetch_and(&t->state, ~(SCHED | RUN));	/* a disable stays */
				t = next;
			}
		}
	}
}
