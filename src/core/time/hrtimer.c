// SPDX-License-Identifier: MIT
/*
 * High-resolution timers (Linux's kernel/time/hrtimer.c as drivers see it),
 * <irqkit/hrtimer.h>.
 *
 * Each CPU has a queue of hard and one of soft timers (pairing heaps,
 * pheap.h), ordered by the latest expiry on irqkit's clock (the key) and
 * then by starting order.  The earliest key of all that no CPU has been told
 * about yet is a deadline of the platform's one-shot timer, beside the
 * jiffies tick (timer.c); when it fires, each CPU with a key due gets its
 * local timer vector (SYSVEC_LOC), and that interrupt runs the hard timers
 * whose earliest expiry has come, in key order, stopping at the first that
 * has not (Linux's rule, which lets a range timer wait for a later one and
 * share its interrupt), then raises HRTIMER_SOFTIRQ if a soft timer is
 * due.  A timer already due when started is told to its CPU at once.
 *
 * One lock, hrtimer_lock, taken with interrupts saved, guards every queue
 * and every timer's state; callbacks run with it dropped.  It nests inside
 * nothing and takes timer.c's lock only after being let go.
 */
#include "core.h"
#include "cpu.h"
#include "bh/bh.h"
#include "time.h"
#include "debug/debug.h"
#include "pheap.h"

#include <irqkit/hrtimer.h>

#define HRTIMER_SETUP		0x68727469u	/* irqkit_hrtimer.setup of a timer set up */
#define HRT_QUEUED		0x01u

enum { HARD, SOFT };

static struct irqkit_spinlock hrtimer_lock = IRQKIT_SPINLOCK_INIT;
static int64_t real_offset;	/* the real-time clock minus irqkit's clock, fixed at start */

static bool hrt_before(const struct irqkit__heap_node *na, const struct irqkit__heap_node *nb)
{
	const struct irqkit_hrtimer *a = container_of(na, struct irqkit_hrtimer, node);
	const struct irqkit_hrtimer *b = container_of(nb, struct irqkit_hrtimer, node);

	if (a->key != b->key)
		return a->key < b->key;
	return a->seq < b->seq;
}

static struct irqkit__hrtimer_base *hbase_of(unsigned int cpu)
{
	return &irqkit__rt.cpus[cpu].hrtimers;
}

static struct irqkit_hrtimer *first(const struct irqkit__hrtimer_base *b, int q)
{
	return b->root[q] ? container_of(b->root[q], struct irqkit_hrtimer, node) : NULL;
}

/* a + b, held at the ends of the range (Linux's ktime_add_safe) */
static int64_t add_safe(int64_t a, int64_t b)
{
	int64_t r;

	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

static int64_t clock_now(unsigned int clock)
{
	int64_t now = (int64_t)irqkit__now_ns();

	return clock ? now + READ_ONCE(real_offset) : now;
}

int64_t irqkit_ktime_get_real_ns(void)
{
	if (!irqkit_started())
		return (int64_t)irqkit_plat_realtime_ns();	/* no run: the host's time of day */
	return clock_now(1);
}

int64_t irqkit_hrtimer_now(const struct irqkit_hrtimer *timer)
{
	return clock_now(timer->clock);
}

/* An expiry on @clock as a key on irqkit's clock; the past (and before start) is 0. */
static uint64_t key_of(unsigned int clock, int64_t expires)
{
	int64_t k = clock ? add_safe(expires, -READ_ONCE(real_offset)) : expires;

	return k > 0 ? (uint64_t)k : 0;
}

/* The earliest expiry of @t, on irqkit's clock (the key less the range's slack). */
static uint64_t soft_key(const struct irqkit_hrtimer *t)
{
	uint64_t slack = (uint64_t)(t->expires - t->softexpires);

	return t->key > slack ? t->key - slack : 0;
}

/* @b's earliest key that its CPU has not been told about yet.  Lock held. */
static void base_update(struct irqkit__hrtimer_base *b)
{
	uint64_t next = UINT64_MAX;

	spin_assert_locked(&hrtimer_lock);
	if (!b->told) {
		if (b->root[HARD])
			next = first(b, HARD)->key;
		if (b->root[SOFT] && !b->soft_told && first(b, SOFT)->key < next)
			next = first(b, SOFT)->key;
	}
	a_store_seq(&b->next, next);
}

/* Out of its queue, if in one.  Lock held.  Return: whether it was. */
static bool dequeue(struct irqkit_hrtimer *t)
{
	struct irqkit__hrtimer_base *b;

	spin_assert_locked(&hrtimer_lock);
	if (!(t->state & HRT_QUEUED))
		return false;
	b = hbase_of(t->cpu - 1);
	pheap_remove(&b->root[t->is_soft], &t->node, hrt_before);
	WRITE_ONCE(t->state, 0);
	base_update(b);
	return true;
}

/*
 * Into CPU @cpu's queue at its expiry.  Lock held.  Return: the CPU must
 * be told now (the timer is due), or the deadline moved (it is the
 * earliest), or neither.
 */
enum { ENQ_QUIET, ENQ_EARLIEST, ENQ_DUE };
static int enqueue(struct irqkit_hrtimer *t, unsigned int cpu, uint64_t now)
{
	struct irqkit__hrtimer_base *b = hbase_of(cpu);
	uint64_t before = READ_ONCE(b->next);

	spin_assert_locked(&hrtimer_lock);
	t->key = key_of(t->clock, t->expires);
	t->seq = ++irqkit__rt.timer_seq;
	pheap_insert(&b->root[t->is_soft], &t->node, hrt_before);
	WRITE_ONCE(t->cpu, cpu + 1);
	WRITE_ONCE(t->state, HRT_QUEUED);
	base_update(b);
	if (b->root[t->is_soft] != &t->node || READ_ONCE(b->next) == before)
		return ENQ_QUIET;
	if (t->key <= now) {
		b->told = true;		/* the vector is raised after the lock */
		base_update(b);
		return ENQ_DUE;
	}
	return ENQ_EARLIEST;
}

/*
 * A new earliest expiry of CPU @c goes to whoever times the CPU: its
 * dispatcher, woken if idle to wait again for it (the base's next was
 * stored first, then c->idle is read: Dekker with the dispatcher's store of
 * idle, then its read of next), or the platform timer.
 */
static void retime(struct irqkit_cpu *c)
{
	if (a_load_seq(&c->hr_self)) {
		a_fence();
		irqkit__cpu_kick(c);
	} else {
		irqkit__timers_reprogram();
	}
}

/* After the lock: act on enqueue's answer for CPU @cpu. */
static void enqueued(int what, unsigned int cpu)
{
	struct irqkit_cpu *c = &irqkit__rt.cpus[cpu];

	if (what == ENQ_DUE)
		irqkit__cpu_sysvec(c, SYSVEC_LOC);
	else if (what == ENQ_EARLIEST)
		retime(c);
}

/* The CPU whose callback of @t runs now, or -1.  Lock held. */
static int running_on(const struct irqkit_hrtimer *t)
{
	unsigned int c = READ_ONCE(t->cpu);
	const struct irqkit__hrtimer_base *b;

	if (!c)
		return -1;
	b = hbase_of(c - 1);
	return b->running[t->is_soft] == t ? (int)c - 1 : -1;
}

/* ---- the local timer interrupt and HRTIMER_SOFTIRQ ------------------------------ */

/*
 * Run queue @q's timers that are due at @now, one at a time, lock dropped
 * around each callback; a callback that answers RESTART goes back into the
 * queue at its expiry, unless it was started again meanwhile.  Lock held.
 */
static unsigned long run_queue(struct irqkit_cpu *c, int q, uint64_t now, unsigned long flags)
{
	struct irqkit__hrtimer_base *b = &c->hrtimers;
	struct irqkit_task *task = irqkit_arch_current();
	struct irqkit_hrtimer *t;

	while ((t = first(b, q)) && soft_key(t) <= now) {
		enum irqkit_hrtimer_restart (*fn)(struct irqkit_hrtimer *) = t->function;
		const void *outer_fn = task->running_fn;
		int64_t ran_at = t->expires;
		enum irqkit_hrtimer_restart r;
		int what = ENQ_QUIET;

		pheap_remove(&b->root[q], &t->node, hrt_before);
		WRITE_ONCE(t->state, 0);
		WRITE_ONCE(b->running[q], t);
		WRITE_ONCE(b->running_task[q], task);
		irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);

		WRITE_ONCE(task->running_fn, (const void *)fn);
		irqkit_trace(hrtimer_expire_entry, t, now, (const void *)fn);
		r = fn(t);
		irqkit_trace(hrtimer_expire_exit, t);
		WRITE_ONCE(task->running_fn, outer_fn);
		if (q == SOFT)
			irqkit__softirq_preempt_point(task, c);

		flags = irqkit_spin_lock_irqsave(&hrtimer_lock);
		/*
		 * RESTART at the expiry it just ran at would run it again at once,
		 * for ever: Linux's CPU never leaves the interrupt.  Reported, and
		 * not restarted.
		 */
		if (r == IRQKIT_HRTIMER_RESTART && !(t->state & HRT_QUEUED) &&
		    WARN_ONCE(t->expires == ran_at && key_of(t->clock, t->expires) <= now,
			      "hrtimer %p (callback %p) asked to restart at the expiry it ran at "
			      "(hrtimer_forward() missing?): not restarted", (void *)t, (const void *)fn))
			r = IRQKIT_HRTIMER_NORESTART;
		if (r == IRQKIT_HRTIMER_RESTART && !(t->state & HRT_QUEUED))
			what = enqueue(t, c->id, now);
		WRITE_ONCE(b->running[q], NULL);
		WRITE_ONCE(b->running_task[q], NULL);
		if (what == ENQ_DUE)
			b->told = false;	/* due again: this loop runs it (hard) or tells the softirq */
	}
	return flags;
}

/*
 * SYSVEC_LOC on @c, in hardirq context (dispatch.c): the hard timers due,
 * then HRTIMER_SOFTIRQ if a soft one is.
 */
void irqkit__hrtimer_interrupt(struct irqkit_cpu *c)
{
	struct irqkit__hrtimer_base *b = &c->hrtimers;
	uint64_t now = irqkit__now_ns();
	unsigned long flags;
	struct irqkit_hrtimer *s;

	flags = irqkit_spin_lock_irqsave(&hrtimer_lock);
	b->told = false;
	flags = run_queue(c, HARD, now, flags);
	s = first(b, SOFT);
	if (s && !b->soft_told && soft_key(s) <= now) {
		b->soft_told = true;
		irqkit__raise_softirq_on(c, IRQKIT_HRTIMER_SOFTIRQ);
	}
	base_update(b);
	irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);
	retime(c);	/* a restart may be the new earliest: whoever times the CPU looks again */
}

static void hrtimer_run_softirq(void)
{
	struct irqkit_cpu *c = irqkit__this_cpu();
	struct irqkit__hrtimer_base *b = &c->hrtimers;
	unsigned long flags;

	flags = irqkit_spin_lock_irqsave(&hrtimer_lock);
	b->soft_told = false;
	flags = run_queue(c, SOFT, irqkit__now_ns(), flags);
	base_update(b);
	irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);
	retime(c);
}

/*
 * The earliest key not told, over every CPU: the platform timer's deadline
 * (timer.c), and the next stop of irqkit_clock_advance().  Lock-free: each
 * change of a base's next is followed by a reprogram, which reads it again.
 */
uint64_t irqkit__hrtimer_earliest(void)
{
	uint64_t next = UINT64_MAX;

	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++) {
		uint64_t n = a_load_seq(&hbase_of(i)->next);

		if (n < next && !a_load_seq(&irqkit__rt.cpus[i].hr_self))
			next = n;	/* a CPU whose dispatcher times its own is left out */
	}
	return next;
}

/*
 * A CPU whose port has a timer of its own (arch.h: irqkit_arch_cpu_idle_until,
 * Linux's per-CPU clock event device) is timed by its dispatcher: its idle
 * wait ends at the CPU's earliest expiry, so an expiry wakes one thread,
 * and the platform timer leaves the CPU out (c->hr_self).  The dispatcher,
 * about to idle, has stored c->idle; then it reads the base's next here;
 * it calls this again when it wakes, so that what came due is told.
 * Return: the deadline on the platform's clock, UINT64_MAX for none, 0 when
 * one is due now (the CPU was told: it must not idle).
 */
uint64_t irqkit__hrtimer_idle_deadline(struct irqkit_cpu *c)
{
	uint64_t next = a_load_seq(&c->hrtimers.next), now;

	if (next == UINT64_MAX)
		return UINT64_MAX;
	now = irqkit__now_ns();
	if (next <= now) {
		irqkit__hrtimer_tell_due(now);
		return 0;
	}
	return irqkit__rt.start_ns + next;
}


/* The platform timer fired, or the virtual clock reached @now: tell each CPU with a key due. */
void irqkit__hrtimer_tell_due(uint64_t now)
{
	uint64_t due = 0;
	unsigned long flags;

	flags = irqkit_spin_lock_irqsave(&hrtimer_lock);
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++) {
		struct irqkit__hrtimer_base *b = hbase_of(i);

		if (READ_ONCE(b->next) <= now) {
			b->told = true;
			base_update(b);
			due |= 1ull << i;
		}
	}
	irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);
	for (; due; due &= due - 1)
		irqkit__cpu_sysvec(&irqkit__rt.cpus[__builtin_ctzll(due)], SYSVEC_LOC);
}

/* ---- the API ------------------------------------------------------------------------- */

void irqkit_hrtimer_setup(struct irqkit_hrtimer *timer,
			  enum irqkit_hrtimer_restart (*function)(struct irqkit_hrtimer *),
			  int clock_id, unsigned int mode)
{
	unsigned int clock = 0;

	switch (clock_id) {
	case IRQKIT_CLOCK_MONOTONIC:
	case IRQKIT_CLOCK_BOOTTIME:
		break;
	case IRQKIT_CLOCK_REALTIME:
	case IRQKIT_CLOCK_TAI:
		clock = 1;
		break;
	default:
		WARN(1, "Invalid clockid %d. Using MONOTONIC", clock_id);
	}
	*timer = (struct irqkit_hrtimer){
		.function = function,
		.setup = HRTIMER_SETUP,
		.clock = (unsigned char)clock,
		/* PREEMPT_RT expires in softirq context what is not marked hard */
		.is_soft = (mode & IRQKIT_HRTIMER_MODE_SOFT) ||
			   ((irqkit__rt.flags & IRQKIT_CFG_PREEMPT_RT) &&
			    !(mode & IRQKIT_HRTIMER_MODE_HARD)),
		.is_hard = !!(mode & IRQKIT_HRTIMER_MODE_HARD),
	};
}

void irqkit_hrtimer_start_range_ns(struct irqkit_hrtimer *timer, int64_t tim, uint64_t range_ns,
				   unsigned int mode)
{
	struct irqkit_cpu *c = irqkit__this_cpu();
	unsigned long flags;
	uint64_t now;
	int run, what;
	unsigned int cpu;

	if (WARN_ONCE(timer->setup != HRTIMER_SETUP,
		      "hrtimer_start() of hrtimer %p that was never set up (hrtimer_setup() missing?): refused",
		      (void *)timer) ||
	    WARN_ONCE(!timer->function,
		      "hrtimer_start() of hrtimer %p with no function: refused", (void *)timer) ||
	    !c)
		return;
	irqkit__point("hrtimer_start", __builtin_return_address(0));
	now = irqkit__now_ns();
	if (mode & IRQKIT_HRTIMER_MODE_REL)
		tim = add_safe(tim, clock_now(timer->clock));
	irqkit_trace(hrtimer_start, timer, (const void *)timer->function, tim, mode);

	flags = irqkit_spin_lock_irqsave(&hrtimer_lock);
	dequeue(timer);
	timer->is_rel = !!(mode & IRQKIT_HRTIMER_MODE_REL);
	WRITE_ONCE(timer->softexpires, tim);
	WRITE_ONCE(timer->expires, add_safe(tim, range_ns > INT64_MAX ? INT64_MAX : (int64_t)range_ns));
	/* a timer whose callback runs stays on that CPU (Linux keeps its base) */
	run = running_on(timer);
	cpu = run >= 0 ? (unsigned int)run : c->id;
	what = enqueue(timer, cpu, now);
	irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);
	enqueued(what, cpu);
}

int irqkit_hrtimer_try_to_cancel(struct irqkit_hrtimer *timer)
{
	unsigned long flags;
	int ret;

	if (!irqkit__rt.cpus || !READ_ONCE(timer->cpu))
		return 0;
	flags = irqkit_spin_lock_irqsave(&hrtimer_lock);
	ret = running_on(timer) >= 0 ? -1 : dequeue(timer);
	irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);
	if (ret > 0)
		irqkit_trace(hrtimer_cancel, timer);
	return ret;
}

int irqkit_hrtimer_cancel(struct irqkit_hrtimer *timer)
{
	struct irqkit__wait w;
	unsigned int spins = 0;
	unsigned long flags;
	int ret, run;

	if (!irqkit__rt.cpus || !READ_ONCE(timer->cpu))
		return 0;
	flags = irqkit_spin_lock_irqsave(&hrtimer_lock);
	run = running_on(timer);
	if (run >= 0 && hbase_of((unsigned int)run)->running_task[timer->is_soft] ==
			irqkit_arch_current()) {
		ret = dequeue(timer);
		irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);
		irqkit__warn(__FILE__, __LINE__,
			     "hrtimer_cancel() called from the hrtimer's own callback: it would wait for itself forever; not waiting");
		return ret;
	}
	irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);
	irqkit__wait_init(&w);
	while ((ret = irqkit_hrtimer_try_to_cancel(timer)) < 0) {
		irqkit__wait_begin(&w, "hrtimer_cancel", WAIT_TIMER, timer, 0);
		spin_step(&spins);
	}
	irqkit__wait_end(&w);
	return ret;
}

/*
 * Under the lock, unlike Linux's: a callback forwards its timer while
 * another CPU may start it again, and the two must not tear the expiry.
 */
uint64_t irqkit_hrtimer_forward(struct irqkit_hrtimer *timer, int64_t now, int64_t interval)
{
	uint64_t orun = 1;
	int64_t delta, step;
	unsigned long flags;
	bool queued;

	flags = irqkit_spin_lock_irqsave(&hrtimer_lock);
	delta = now - timer->expires;
	queued = timer->state & HRT_QUEUED;
	if (delta < 0 || queued) {
		irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);
		WARN_ON(delta >= 0 && queued);	/* Linux's: a queued timer is not moved */
		return 0;
	}
	if (interval < 1)
		interval = 1;		/* the resolution: 1 ns */
	step = interval;
	if (delta >= interval) {
		orun = (uint64_t)(delta / interval);
		step = (int64_t)orun * interval;
		if (timer->expires + step <= now) {
			orun++;
			step += interval;
		}
	}
	WRITE_ONCE(timer->expires, add_safe(timer->expires, step));
	WRITE_ONCE(timer->softexpires, add_safe(timer->softexpires, step));
	irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);
	return orun;
}

bool irqkit_hrtimer_is_queued(const struct irqkit_hrtimer *timer)
{
	return READ_ONCE(timer->state) & HRT_QUEUED;
}

bool irqkit_hrtimer_callback_running(const struct irqkit_hrtimer *timer)
{
	unsigned long flags;
	bool ret;

	if (!irqkit__rt.cpus || !READ_ONCE(timer->cpu))
		return false;
	flags = irqkit_spin_lock_irqsave(&hrtimer_lock);
	ret = running_on(timer) >= 0;
	irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);
	return ret;
}

bool irqkit_hrtimer_active(const struct irqkit_hrtimer *timer)
{
	unsigned long flags;
	bool ret;

	if (!irqkit__rt.cpus || !READ_ONCE(timer->cpu))
		return false;
	flags = irqkit_spin_lock_irqsave(&hrtimer_lock);
	ret = (timer->state & HRT_QUEUED) || running_on(timer) >= 0;
	irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);
	return ret;
}

int64_t irqkit_hrtimer_get_remaining(const struct irqkit_hrtimer *timer)
{
	return READ_ONCE(timer->expires) - clock_now(timer->clock);
}

/* ---- the listing (/proc/timer_list) --------------------------------------------------- */

#define LIST_MAX	64		/* timers listed per queue; beyond, counted */

struct listed {
	const struct irqkit_hrtimer	*t;
	const void			*fn;
	uint64_t			soft, hard;	/* on irqkit's clock */
};

/*
 * Up to LIST_MAX timers of queue @root, in key order, walked with a stack of
 * LIST_MAX links; *@cut says a link did not fit (more than were counted).
 * Lock held.  Return: how many were walked.
 */
static unsigned int snapshot(struct irqkit__heap_node *root, struct listed *out, unsigned int *n,
			     bool *cut)
{
	struct irqkit__heap_node *stack[LIST_MAX];
	unsigned int depth = 0, all = 0;

	*n = 0;
	*cut = false;
	if (root)
		stack[depth++] = root;
	while (depth) {
		struct irqkit__heap_node *node = stack[--depth];
		const struct irqkit_hrtimer *t = container_of(node, struct irqkit_hrtimer, node);
		unsigned int i;

		all++;
		if (*n < LIST_MAX) {
			for (i = (*n)++; i > 0 && out[i - 1].hard > t->key; i--)
				out[i] = out[i - 1];	/* insertion by key */
			out[i] = (struct listed){ t, (const void *)t->function, soft_key(t), t->key };
		}
		if (node->next) {
			if (depth < LIST_MAX)
				stack[depth++] = node->next;
			else
				*cut = true;
		}
		if (node->child) {
			if (depth < LIST_MAX)
				stack[depth++] = node->child;
			else
				*cut = true;
		}
	}
	return all;
}

int irqkit_show_timer_list(char *buf, size_t size)
{
	struct irqkit__sbuf sb = { buf, size, 0 };
	static const char *const qname[] = { "hard", "soft" };
	struct listed list[LIST_MAX];
	uint64_t now;

	if (!irqkit_started() || (!buf && size))
		return -IRQKIT_EINVAL;
	now = irqkit__now_ns();
	irqkit__sb_printf(&sb, "Timer List Version: v0.9 (irqkit)\nnow at %llu nsecs\n",
			  (unsigned long long)now);
	for (unsigned int cpu = 0; cpu < irqkit__rt.nr_cpus; cpu++) {
		struct irqkit__hrtimer_base *b = hbase_of(cpu);

		irqkit__sb_printf(&sb, "\ncpu: %u\n", cpu);
		for (int q = HARD; q <= SOFT; q++) {
			unsigned long flags = irqkit_spin_lock_irqsave(&hrtimer_lock);
			unsigned int n;
			bool cut;
			unsigned int all = snapshot(b->root[q], list, &n, &cut);

			irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);
			irqkit__sb_printf(&sb, " clock %d: monotonic, %s\nactive timers:\n", q * 4,
					  qname[q]);
			for (unsigned int i = 0; i < n; i++)
				irqkit__sb_printf(&sb,
						  " #%u: <%p>, %ps, S:01\n"
						  " # expires at %llu-%llu nsecs [in %lld to %lld nsecs]\n",
						  i, (const void *)list[i].t, list[i].fn,
						  (unsigned long long)list[i].soft,
						  (unsigned long long)list[i].hard,
						  (long long)(list[i].soft - now),
						  (long long)(list[i].hard - now));
			if (all > n || cut)
				irqkit__sb_printf(&sb, " ... and %u%s more\n", all - n, cut ? " or" : "");
		}
		irqkit__sb_printf(&sb, "  .expires_next   : %llu nsecs\n",
				  (unsigned long long)a_load_seq(&b->next));
	}
	irqkit__sb_printf(&sb, "\njiffies: %lu\n", irqkit_jiffies());
	return irqkit__sb_finish(&sb);
}

/* ---- the runtime's life ------------------------------------------------------------- */

/*
 * hrtimers_cpu_dying: CPU @cpu went offline; its queued timers move to CPU
 * @to, in their order, and @to is told at once if one is due.
 */
void irqkit__hrtimers_dead_cpu(unsigned int cpu, unsigned int to)
{
	struct irqkit__hrtimer_base *b = hbase_of(cpu);
	uint64_t now = irqkit__now_ns();
	unsigned long flags;
	bool tell = false, moved = false;

	flags = irqkit_spin_lock_irqsave(&hrtimer_lock);
	for (int q = HARD; q <= SOFT; q++) {
		struct irqkit_hrtimer *t;

		while ((t = first(b, q))) {
			pheap_remove(&b->root[q], &t->node, hrt_before);
			tell |= enqueue(t, to, now) == ENQ_DUE;
			moved = true;
		}
	}
	b->told = b->soft_told = false;
	base_update(b);
	irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);
	if (tell)
		irqkit__cpu_sysvec(&irqkit__rt.cpus[to], SYSVEC_LOC);
	if (moved)
		retime(&irqkit__rt.cpus[to]);
}

void irqkit__hrtimers_init(void)
{
	int64_t real = (int64_t)irqkit_plat_realtime_ns();

	WRITE_ONCE(real_offset, real - (int64_t)irqkit__now_ns());
	irqkit_open_softirq(IRQKIT_HRTIMER_SOFTIRQ, hrtimer_run_softirq);
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++)
		*hbase_of(i) = (struct irqkit__hrtimer_base){ .next = UINT64_MAX };
}

/* At stop: timers still queued are dropped (their memory is the caller's). */
void irqkit__hrtimers_exit(void)
{
	unsigned long flags;

	flags = irqkit_spin_lock_irqsave(&hrtimer_lock);
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++) {
		struct irqkit__hrtimer_base *b = hbase_of(i);

		for (int q = HARD; q <= SOFT; q++) {
			struct irqkit_hrtimer *t;

			while ((t = first(b, q)))
				dequeue(t);
		}
		b->told = b->soft_told = false;
		base_update(b);
	}
	irqkit_spin_unlock_irqrestore(&hrtimer_lock, flags);
}
