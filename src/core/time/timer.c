// SPDX-License-Identifier: MIT
/*
 * Time and kernel timers (Linux's kernel/time/timer.c as drivers see it):
 * jiffies, the virtual clock of deterministic mode, and timer_list.
 *
 * Each CPU has a base: a pairing heap (pheap.h) of armed timers ordered by expiry (ties
 * in arming order).  When the earliest expiry of a CPU comes, the platform's
 * one-shot timer (or irqkit_clock_advance) raises TIMER_SOFTIRQ on that CPU,
 * as its local timer interrupt would; the softirq runs the expired callbacks.
 * Nothing is programmed while no timer is armed: an idle runtime sleeps.
 *
 * One lock, timer_lock, guards every base; it nests inside nothing else of
 * the core and is dropped around callbacks.  It is taken with interrupts
 * saved, as Linux's base lock: mod_timer from a handler must not find it
 * held by the code that handler interrupted.
 */
#include "core.h"
#include "cpu.h"
#include "bh/bh.h"
#include "time.h"
#include "sched/sched.h"
#include "debug/debug.h"
#include "pheap.h"

#define NSEC_PER_SEC	1000000000ull

static struct irqkit_spinlock timer_lock = IRQKIT_SPINLOCK_INIT;

uint64_t irqkit__now_ns(void)
{
	if (mode_virtual_clock())
		return a_load_acquire(&irqkit__rt.virt_ns);
	return irqkit_plat_now_ns() - irqkit__rt.start_ns;
}

uint64_t irqkit_ktime_get_ns(void)
{
	return irqkit__now_ns();
}

volatile unsigned long irqkit_jiffies_value;
volatile uint64_t irqkit_jiffies_64_value;

/* HZ of the run, or the default before the first start (a division must not fault). */
static uint64_t rt_hz(void)
{
	unsigned int hz = READ_ONCE(irqkit__rt.hz);

	return hz ? hz : IRQKIT__HZ_DEFAULT;
}

/* Ticks of the clock since start, @ns since start. */
static uint64_t ticks_at(uint64_t hz, uint64_t ns)
{
	return (ns / NSEC_PER_SEC) * hz + (ns % NSEC_PER_SEC) * hz / NSEC_PER_SEC;
}


static uint64_t initial_jiffies_64(uint64_t hz)
{
	return IRQKIT_INITIAL_JIFFIES(hz) & 0xffffffffull;
}

/*
 * Publish @j in the jiffies objects unless a later count is there already:
 * two readers of the clock may finish in either order, and jiffies never go
 * back.
 */
static void publish_jiffies(uint64_t j)
{
	uint64_t old64 = READ_ONCE(irqkit_jiffies_64_value);
	unsigned long old = READ_ONCE(irqkit_jiffies_value);

	while (old64 < j && !a_cas(&irqkit_jiffies_64_value, &old64, j))
		;
	while (irqkit_time_before(old, (unsigned long)j) &&
	       !a_cas(&irqkit_jiffies_value, &old, (unsigned long)j))
		;
}

/* The jiffies count at @ns since start. */
static uint64_t jiffies_at(uint64_t ns)
{
	uint64_t hz = rt_hz();

	return initial_jiffies_64(hz) + ticks_at(hz, ns);
}

/* The count at @ns since start, published in the objects. */
static uint64_t jiffies_publish_at(uint64_t ns)
{
	uint64_t j = jiffies_at(ns);

	if (READ_ONCE(irqkit_jiffies_64_value) != j)
		publish_jiffies(j);
	return j;
}

/* The count now; no activity noted (the tick's own read). */
static uint64_t jiffies_publish(void)
{
	return jiffies_publish_at(irqkit__now_ns());
}

/*
 * The tick of the Linux-name layer, NO_HZ-style.  A program that reads the
 * jiffies object (it includes <linux/jiffies.h>) wants it to move by itself,
 * as Linux's tick moves it; an idle runtime should not wake up HZ times a
 * second for nothing.  So the tick runs while the runtime is active: any
 * clock read other than the tick's own (an interrupt taken by a dispatcher,
 * a softirq round, a work item, a wait, a time call) is activity and starts
 * it; irqkit__tick_idle_ns (10 s) without activity stops it.  A bare spin on the object,
 * calling nothing, keeps seeing it move for that long (and for ever with
 * IRQKIT_CFG_PERIODIC_TICK).
 */
HIDDEN uint64_t irqkit__tick_idle_ns = 10 * NSEC_PER_SEC;	/* a variable for the tests */
HIDDEN unsigned int irqkit__jiffies_readers;	/* the objects are read: the Linux-name layer is in use */
static unsigned int tick_on;		/* the tick is programmed */
static uint64_t tick_last_activity;	/* ns since start */
static void program(void);

void irqkit_jiffies_object_used(void)
{
	WRITE_ONCE(irqkit__jiffies_readers, 1);
}

static void tick_activity(uint64_t now)
{
	unsigned int off = 0;
	unsigned long flags;

	if (!READ_ONCE(irqkit__jiffies_readers) || mode_virtual_clock() || !irqkit_started())
		return;
	/* one store a millisecond at most: callers on many threads share the line */
	if (now - READ_ONCE(tick_last_activity) > 1000000)
		WRITE_ONCE(tick_last_activity, now);
	if (!READ_ONCE(tick_on) && a_cas(&tick_on, &off, 1)) {
		flags = irqkit_spin_lock_irqsave(&timer_lock);
		program();
		irqkit_spin_unlock_irqrestore(&timer_lock, flags);
	}
}

/* From the timer interrupt: has the runtime been idle long enough to stop ticking? */
static void tick_idle_check(void)
{
	if (READ_ONCE(tick_on) &&
	    irqkit__now_ns() - READ_ONCE(tick_last_activity) > READ_ONCE(irqkit__tick_idle_ns))
		WRITE_ONCE(tick_on, 0);
}

uint64_t irqkit_get_jiffies_64(void)
{
	uint64_t now = irqkit__now_ns();
	uint64_t j = jiffies_publish_at(now);

	tick_activity(now);
	return j;
}

unsigned long irqkit_jiffies(void)
{
	return (unsigned long)irqkit_get_jiffies_64();
}

/* A new run: the objects start again at INITIAL_JIFFIES (a store, not a maximum). */
void irqkit__jiffies_reset(void)
{
	uint64_t j = jiffies_at(irqkit__now_ns());

	WRITE_ONCE(tick_on, 0);
	a_store_release(&irqkit_jiffies_64_value, j);
	a_store_release(&irqkit_jiffies_value, (unsigned long)j);
}

/* The first nanosecond since start at which jiffies reads @j. */
uint64_t irqkit__jiffies_to_ns(unsigned long j)
{
	uint64_t hz = rt_hz();
	long since = (long)(j - (unsigned long)initial_jiffies_64(hz));
	uint64_t t = since > 0 ? (uint64_t)since : 0;	/* before start: due at once */

	return (t / hz) * NSEC_PER_SEC + ((t % hz) * NSEC_PER_SEC + hz - 1) / hz;
}

unsigned int irqkit_hz(void)
{
	return (unsigned int)rt_hz();
}

unsigned long irqkit_msecs_to_jiffies(unsigned int ms)
{
	return (unsigned long)(((uint64_t)ms * rt_hz() + 999) / 1000);
}

unsigned long irqkit_usecs_to_jiffies(unsigned int us)
{
	return (unsigned long)(((uint64_t)us * rt_hz() + 999999) / 1000000);
}

unsigned int irqkit_jiffies_to_msecs(unsigned long j)
{
	return (unsigned int)((uint64_t)j * 1000 / rt_hz());
}

unsigned int irqkit_jiffies_to_usecs(unsigned long j)
{
	return (unsigned int)((uint64_t)j * 1000000 / rt_hz());
}

/* ---- the pairing heap ---------------------------------------------------------- */

static bool tl_before(const struct irqkit__heap_node *na, const struct irqkit__heap_node *nb)
{
	const struct irqkit_timer_list *a = container_of(na, struct irqkit_timer_list, node);
	const struct irqkit_timer_list *b = container_of(nb, struct irqkit_timer_list, node);

	if (a->expires != b->expires)
		return irqkit_time_before(a->expires, b->expires);
	return a->seq < b->seq;
}

/* The base's earliest timer, or NULL. */
static inline struct irqkit_timer_list *base_first(const struct irqkit__timer_base *b)
{
	return b->root ? container_of(b->root, struct irqkit_timer_list, node) : NULL;
}

static void hp_remove(struct irqkit__timer_base *b, struct irqkit_timer_list *t)
{
	pheap_remove(&b->root, &t->node, tl_before);
}

/* ---- bases ----------------------------------------------------------------------- */

static struct irqkit__timer_base *base_of(int cpu)
{
	return &irqkit__rt.cpus[cpu].timers;
}

static void base_update(struct irqkit__timer_base *b)
{
	if (b->root)
		a_store_seq(&b->next, base_first(b)->expires);
	a_store_seq(&b->armed, b->root != NULL);
}

/* Take @t off its base.  Timer lock held.  Return: whether it was armed. */
static bool detach_timer(struct irqkit_timer_list *t)
{
	struct irqkit__timer_base *b;

	spin_assert_locked(&timer_lock);
	if (!t->base)
		return false;
	b = base_of((int)t->base - 1);
	hp_remove(b, t);
	WRITE_ONCE(t->base, 0);
	base_update(b);
	return true;
}

static void enqueue_timer(struct irqkit_timer_list *t, int cpu)
{
	struct irqkit__timer_base *b = base_of(cpu);

	t->seq = ++irqkit__rt.timer_seq;
	pheap_insert(&b->root, &t->node, tl_before);
	WRITE_ONCE(t->base, (unsigned int)cpu + 1);
	base_update(b);
}

/*
 * The earliest expiry among bases that have not been told yet (a base whose
 * TIMER softirq is raised is skipped until it runs).  Timer lock held.
 */
static bool earliest_expiry(unsigned long *when)
{
	bool any = false;

	spin_assert_locked(&timer_lock);
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++) {
		struct irqkit__timer_base *b = base_of((int)i);

		if (!b->root || (a_load_seq(&irqkit__rt.cpus[i].softirq_pending) &
				 (1u << IRQKIT_TIMER_SOFTIRQ)))
			continue;
		if (!any || irqkit_time_before(base_first(b)->expires, *when))
			*when = base_first(b)->expires;
		any = true;
	}
	return any;
}

/* Tell the platform timer about the earliest expiry.  Timer lock held. */
static void program(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	unsigned long when = 0;
	uint64_t deadline, hr;
	bool any;

	spin_assert_locked(&timer_lock);
	if (mode_player_delivers())
		return;		/* no ksoftirqd to time, no platform timer */
	/*
	 * Each CPU's ksoftirqd sleeps until its own earliest expiry (see
	 * irqkit__timers_sleep), so an expiry wakes one thread, as a timerfd
	 * does.  The platform timer is left with the jiffies objects' tick.
	 */
	any = (rt->flags & IRQKIT_CFG_PERIODIC_TICK) || READ_ONCE(tick_on);
	if (any)
		when = (unsigned long)jiffies_publish() + 1;	/* the next tick */
	deadline = any ? irqkit__jiffies_to_ns(when) : UINT64_MAX;
	/* and the earliest high-resolution timer (hrtimer.c) */
	hr = irqkit__hrtimer_earliest();
	if (hr < deadline)
		deadline = hr;
	irqkit_arch_timer_program(deadline == UINT64_MAX ? UINT64_MAX : rt->start_ns + deadline);
}

/* A high-resolution timer became the earliest of its CPU, or left: program again. */
void irqkit__timers_reprogram(void)
{
	unsigned long flags;

	if (mode_player_delivers())
		return;
	flags = irqkit_spin_lock_irqsave(&timer_lock);
	program();
	irqkit_spin_unlock_irqrestore(&timer_lock, flags);
}

/* Once the platform runs: the periodic tick, if asked for, starts ticking. */
void irqkit__timers_started(void)
{
	unsigned long flags;

	tick_activity(irqkit__now_ns());
	flags = irqkit_spin_lock_irqsave(&timer_lock);
	program();
	irqkit_spin_unlock_irqrestore(&timer_lock, flags);
}

/*
 * Raise TIMER_SOFTIRQ on every CPU whose earliest timer is due at @now: its
 * local timer interrupt.  Return: the CPUs told, a bit each.
 */
static uint64_t tell_due_cpus(unsigned long now)
{
	uint64_t told = 0;
	unsigned long flags;

	flags = irqkit_spin_lock_irqsave(&timer_lock);
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++) {
		struct irqkit__timer_base *b = base_of((int)i);

		if (b->root && irqkit_time_after_eq(now, base_first(b)->expires)) {
			irqkit__raise_softirq_on(&irqkit__rt.cpus[i], IRQKIT_TIMER_SOFTIRQ);
			told |= 1ull << i;
		}
	}
	program();
	irqkit_spin_unlock_irqrestore(&timer_lock, flags);
	return told;
}

/*
 * The platform timer fired (threaded mode): the CPUs that have timers due get
 * TIMER_SOFTIRQ, run by their ksoftirqd (the timer is not an interrupt of
 * theirs, so no irq_exit runs it).
 */
void irqkit__core_timer_interrupt(void)
{
	unsigned long flags;

	tick_idle_check();
	jiffies_publish();
	irqkit__hrtimer_tell_due(irqkit__now_ns());
	flags = irqkit_spin_lock_irqsave(&timer_lock);
	program();
	irqkit_spin_unlock_irqrestore(&timer_lock, flags);
}

/*
 * Threaded mode, ksoftirqd/k before it sleeps: raise TIMER_SOFTIRQ if a timer
 * of CPU @c is due (then it does not sleep); otherwise the time until the
 * earliest one, in ns (UINT64_MAX: none armed).  Read without the timer lock:
 * a timer armed after this read as the new earliest wakes ksoftirqd (see
 * timer_armed), since ksoftirqd_idle is published before this runs.
 */
uint64_t irqkit__timers_sleep(struct irqkit_cpu *c)
{
	struct irqkit__timer_base *b = &c->timers;
	unsigned long next;
	uint64_t at, now;

	if (!a_load_seq(&b->armed))
		return UINT64_MAX;
	next = a_load_seq(&b->next);
	now = irqkit__now_ns();
	if (irqkit_time_after_eq((unsigned long)jiffies_publish_at(now), next)) {
		irqkit__raise_softirq_on(c, IRQKIT_TIMER_SOFTIRQ);
		return 0;
	}
	at = irqkit__jiffies_to_ns(next);
	return at > now ? at - now : 0;
}

/*
 * A timer became the earliest of CPU @c: if its ksoftirqd sleeps (until a
 * later expiry, or none), wake it to sleep again for this one.  After the
 * timer lock (a wake is a system call).
 */
static void timer_armed(struct irqkit_cpu *c)
{
	if (mode_player_delivers())
		return;
	a_fence();		/* the new base->next, then who times (Dekker with both sleepers) */
	if (a_load_seq(&c->timer_duty))
		irqkit__seq_wake(&c->duty_seq);	/* an idle kworker is the CPU's timer (timer duty) */
	else if (a_load_seq(&c->ksoftirqd_idle))
		irqkit__wakeup_softirqd(c);
}

/*
 * Timer duty.  In threaded mode an idle kworker of a CPU's normal pool is
 * that CPU's timer while it sleeps: it sleeps until the CPU's earliest timer
 * and runs TIMER_SOFTIRQ itself, so the item a delayed work's timer queues
 * is taken by the thread that woke for the timer: one wake-up, as a timerfd
 * wait takes, where ksoftirqd and then a worker took two.  ksoftirqd sleeps
 * untimed while a worker has the duty (a timer armed as the new earliest
 * wakes the worker instead), and is the timer again when the worker leaves
 * its sleep (woken for work, reaped, stopping): the worker wakes it then if a
 * timer is armed.  Any worker of the pool may have it, one at a time.
 */
struct irqkit_cpu *irqkit__timer_duty_take(unsigned int cpu)
{
	struct irqkit_cpu *c = &irqkit__rt.cpus[cpu];

	if (!mode_timer_duty() || a_load_seq(&c->timer_duty))
		return NULL;	/* another worker of the pool has it: its lock orders takers */
	a_store_seq(&c->timer_duty, 1);
	return c;
}

/* The duty ends: ksoftirqd is the timer again (Dekker with timer_armed and ksoftirqd's sleep). */
void irqkit__timer_duty_release(struct irqkit_cpu *c)
{
	a_store_seq(&c->timer_duty, 0);
	if (a_load_seq(&c->timers.armed))
		irqkit__wakeup_softirqd(c);
}

/*
 * The time until @c's earliest timer (UINT64_MAX: none), or 0 when one is
 * due, TIMER_SOFTIRQ raised; the caller then runs irqkit__timer_duty_run().
 */
uint64_t irqkit__timer_duty_due(struct irqkit_cpu *c)
{
	if (READ_ONCE(irqkit__rt.stopping))
		return UINT64_MAX;	/* no timers once stop has begun: it wakes the worker */
	return irqkit__timers_sleep(c);
}

/*
 * Run TIMER_SOFTIRQ here, with what else is pending then, as any
 * local_bh_enable does; a softirq raised while no timer is due stays
 * ksoftirqd's.  Process context.
 */
void irqkit__timer_duty_run(struct irqkit_cpu *c)
{
	irqkit_local_bh_disable();
	irqkit_local_bh_enable();	/* runs what is pending, if it can take the CPU */
	if (irqkit__softirq_pending(c))
		irqkit__wakeup_softirqd(c);	/* it could not: as a raise from process context */
}

/* TIMER_SOFTIRQ: run this CPU's expired timers, one at a time, lock dropped. */
void irqkit__run_timers(void)
{
	struct irqkit_task *task = irqkit_arch_current();
	struct irqkit_cpu *c = irqkit__this_cpu();
	struct irqkit__timer_base *b = &c->timers;
	unsigned long now = irqkit_jiffies();
	unsigned long flags;

	flags = irqkit_spin_lock_irqsave(&timer_lock);
	while (b->root && irqkit_time_after_eq(now, base_first(b)->expires)) {
		struct irqkit_timer_list *t = base_first(b);
		void (*fn)(struct irqkit_timer_list *) = t->function;
		const void *outer = task->running_bh;
		const void *outer_fn = task->running_fn;

		hp_remove(b, t);
		WRITE_ONCE(t->base, 0);
		base_update(b);
		WRITE_ONCE(b->running, t);
		irqkit_spin_unlock_irqrestore(&timer_lock, flags);

		task->running_bh = t;
		WRITE_ONCE(task->running_fn, (const void *)fn);
		irqkit_trace(timer_expire_entry, t, now, (const void *)fn);
		if (unlikely(irqkit__observing())) {
			uint64_t start = irqkit__now_ns();

			fn(t);
			irqkit__obs_slice(IRQKIT__TEV_TIMER, (const void *)fn, start, 0);
		} else {
			fn(t);
		}
		irqkit_trace(timer_expire_exit, t);
		WRITE_ONCE(task->running_fn, outer_fn);
		task->running_bh = outer;
		irqkit__softirq_preempt_point(task, c);

		flags = irqkit_spin_lock_irqsave(&timer_lock);
		WRITE_ONCE(b->running, NULL);
	}
	program();
	irqkit_spin_unlock_irqrestore(&timer_lock, flags);
}

/*
 * timers_dead_cpu: CPU @cpu went offline; its armed timers move to CPU @to,
 * in their order (among equal expiries, after @to's own).
 */
void irqkit__timers_dead_cpu(unsigned int cpu, unsigned int to)
{
	struct irqkit__timer_base *b = base_of((int)cpu);
	unsigned long flags;
	bool moved = false;

	flags = irqkit_spin_lock_irqsave(&timer_lock);
	while (b->root) {
		struct irqkit_timer_list *t = base_first(b);

		hp_remove(b, t);
		enqueue_timer(t, (int)to);	/* taken earliest first: their order stays */
		moved = true;
	}
	base_update(b);
	program();
	irqkit_spin_unlock_irqrestore(&timer_lock, flags);
	if (moved)
		timer_armed(&irqkit__rt.cpus[to]);
}

static void run_timers_action(void)
{
	irqkit__run_timers();
}

/* ---- the timer_list API --------------------------------------------------------------- */

void irqkit_timer_setup(struct irqkit_timer_list *timer, void (*fn)(struct irqkit_timer_list *),
			unsigned int flags)
{
	*timer = (struct irqkit_timer_list){ .function = fn, .flags = flags };
}

bool irqkit_timer_pending(const struct irqkit_timer_list *timer)
{
	return READ_ONCE(timer->base) != 0;
}

int irqkit_mod_timer(struct irqkit_timer_list *timer, unsigned long expires)
{
	struct irqkit_cpu *c = irqkit__this_cpu();
	int cpu;
	bool was, earliest;
	unsigned long flags;

	if (!c)
		return 0;
	irqkit__point("mod_timer", __builtin_return_address(0));
	if (WARN_ONCE(!timer->function,
		      "mod_timer() of timer %p with no function (timer_setup() missing?): refused",
		      (void *)timer))
		return 0;
	cpu = (int)c->id;
	irqkit_trace(timer_start, timer, (const void *)timer->function, expires);
	flags = irqkit_spin_lock_irqsave(&timer_lock);
	was = detach_timer(timer);
	timer->expires = expires;
	enqueue_timer(timer, cpu);
	earliest = base_of(cpu)->root == &timer->node;
	irqkit_spin_unlock_irqrestore(&timer_lock, flags);
	if (earliest)
		timer_armed(c);
	return was;
}

void irqkit_add_timer(struct irqkit_timer_list *timer)
{
	if (WARN_ON_ONCE(irqkit_timer_pending(timer)))
		return;
	irqkit_mod_timer(timer, timer->expires);
}

int irqkit_del_timer(struct irqkit_timer_list *timer)
{
	bool was;
	unsigned long flags;

	if (!irqkit__rt.cpus)
		return 0;
	flags = irqkit_spin_lock_irqsave(&timer_lock);
	was = detach_timer(timer);
	irqkit_spin_unlock_irqrestore(&timer_lock, flags);
	if (was)
		irqkit_trace(timer_cancel, timer);
	return was;
}

/* Is @timer's callback running on some CPU now?  Timer lock held. */
static bool timer_running(const struct irqkit_timer_list *timer)
{
	spin_assert_locked(&timer_lock);
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++)
		if (READ_ONCE(base_of((int)i)->running) == timer)
			return true;
	return false;
}

int irqkit_del_timer_sync(struct irqkit_timer_list *timer)
{
	struct irqkit__wait w;
	unsigned int spins = 0;
	bool was = false, running;
	unsigned long flags;
	irqkit__wait_init(&w);

	if (!irqkit__rt.cpus)
		return 0;
	if (!(timer->flags & IRQKIT_TIMER_IRQSAFE)) {
		WARN_ON(irqkit_in_hardirq());
		might_sleep();
	}
	if (irqkit_arch_current()->running_bh == timer) {
		irqkit__warn(__FILE__, __LINE__,
			     "del_timer_sync() called from the timer's own callback: it would wait for itself forever; not waiting");
		return irqkit_del_timer(timer);
	}
	do {
		flags = irqkit_spin_lock_irqsave(&timer_lock);
		was |= detach_timer(timer);
		running = timer_running(timer);
		irqkit_spin_unlock_irqrestore(&timer_lock, flags);
		if (running) {
			irqkit__wait_begin(&w, "del_timer_sync", WAIT_TIMER, timer, 0);
			spin_step(&spins);
		}
	} while (running);
	irqkit__wait_end(&w);
	return was;
}

/* A sleep of @ns: the virtual clock moves instead in deterministic mode.  Process context. */
void irqkit__sleep_ns(uint64_t ns)
{
	might_sleep();
	if (mode_virtual_clock() && irqkit_started())
		irqkit_clock_advance(ns);
	else
		irqkit_plat_sleep_ns(ns);
	irqkit__jiffies_touch();
}

void irqkit_msleep(unsigned int ms)
{
	irqkit__sleep_ns((uint64_t)ms * 1000000);
}

void irqkit__timers_init(void)
{
	irqkit_open_softirq(IRQKIT_TIMER_SOFTIRQ, run_timers_action);
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++)
		base_of((int)i)->root = NULL;
}

/* At stop: timers still armed are dropped (their memory is the caller's). */
void irqkit__timers_exit(void)
{
	unsigned long flags;

	flags = irqkit_spin_lock_irqsave(&timer_lock);
	for (unsigned int i = 0; i < irqkit__rt.nr_cpus; i++) {
		struct irqkit__timer_base *b = base_of((int)i);

		while (b->root) {
			struct irqkit_timer_list *t = base_first(b);

			detach_timer(t);
			if (t->function == irqkit_delayed_work_timer_fn)
				irqkit__delayed_work_dropped(t);
		}
	}
	program();
	irqkit_spin_unlock_irqrestore(&timer_lock, flags);
}

/*
 * Deterministic mode: step the virtual clock from expiry to expiry (of
 * timer_list and hrtimers alike), so a timer that re-arms itself inside the
 * interval fires as often as it would in real time.  Each due CPU gets its TIMER softirq; the caller runs those of the
 * CPU it plays at once (a delivery point), the others wait for irqkit_cpu_run.
 */
int irqkit_clock_advance(uint64_t ns)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	uint64_t target;
	unsigned long flags;

	if (!irqkit_started() || !mode_virtual_clock())
		return -IRQKIT_EINVAL;
	target = a_load_acquire(&rt->virt_ns);
	if (ns > UINT64_MAX - target) {
		pr_err("irqkit_clock_advance(%llu): the virtual clock would wrap; refused",
		       (unsigned long long)ns);
		return -IRQKIT_EINVAL;
	}
	target += ns;
	for (;;) {
		unsigned long when = 0;
		uint64_t at = UINT64_MAX, hr;

		flags = irqkit_spin_lock_irqsave(&timer_lock);
		if (earliest_expiry(&when))
			at = irqkit__jiffies_to_ns(when);
		irqkit_spin_unlock_irqrestore(&timer_lock, flags);
		hr = irqkit__hrtimer_earliest();
		if (hr < at)
			at = hr;
		if (at == UINT64_MAX || at > target)
			break;		/* nothing armed, or nothing due by then */
		if (at > a_load_acquire(&rt->virt_ns))
			a_store_release(&rt->virt_ns, at);
		/* a told CPU is skipped by both earliest expiries until it runs: this ends */
		tell_due_cpus(irqkit_jiffies());
		irqkit__hrtimer_tell_due(a_load_acquire(&rt->virt_ns));
		irqkit_deliver_pending();
	}
	a_store_release(&rt->virt_ns, target);
	irqkit_jiffies();		/* the objects follow the virtual clock */
	irqkit_deliver_pending();
	return 0;
}
