// SPDX-License-Identifier: MIT
/*
 * The deterministic scheduler, stacked on the posix platform for
 * IRQKIT_MODE_SIM (the simulator): the threads of threaded mode, run one at
 * a time in an order a seed decides.
 *
 * Every thread of a simulated run is the simulator's: the one that called
 * irqkit_start() ("main"), the ones the runtime makes through
 * irqkit_plat_thread_create() (vcpu/N, ksoftirqd/N, kworkers, irq threads,
 * ktimerd) and the program's own (irqkit_thread_start()).  One of them holds
 * the baton and runs; the others are parked on their own futex word.  The
 * holder gives the baton away only at a switch point: a kernel-API point of
 * the core (point.c: a lock taken or released, interrupts or bottom halves
 * turned on, queue_work, tasklet_schedule, mod_timer, wake_up, complete,
 * free_irq, irqkit_sim_point(), ...), a wake-up, a wait, a spin, a thread's
 * start, end or join.  At each, the scheduler picks the next thread from
 * those that can run, by PCT (Burckhardt et al., "A randomized scheduler
 * with probabilistic guarantees of finding bugs", ASPLOS 2010): every
 * thread gets a random priority when it is made, the highest that can run
 * runs, and at @depth steps chosen at random the running thread drops below
 * all others.  The seed fixes the priorities and the steps, so a seed and
 * the program fix the whole interleaving.
 *
 * A virtual CPU runs one context at a time, as a real one: a thread bound to
 * CPU k may run only while no other thread on k is in a section that cannot
 * be preempted (interrupts off, a spinlock held, bottom halves off, softirq
 * or hardirq context).  So a task on k does not run while k's dispatcher
 * runs a handler: the handler interrupted it.  The dispatchers and the timer
 * thread are the hardware: they may always run, and the core's own holds
 * decide whether an interrupt can be taken.
 *
 * Waits are the platform's: irqkit_plat_wait() parks the thread until the
 * word changes or a wake names it; a spin (irqkit_arch_cpu_relax()) gives
 * way to every other thread that can run and costs a microsecond of
 * virtual time (a long spin's yield, 100 microseconds).  Time is virtual: it moves by spins and, when no thread can
 * run, jumps to the earliest timed wait.  When nothing can run and no wait
 * ends within a virtual minute, the run is deadlocked; when only spinning
 * threads can run for two virtual seconds, it is livelocked.  Either is
 * reported with every thread's state and the last switches, and the program
 * aborts: an exploration (explore.c) counts it as a failed run.
 */
#define _GNU_SOURCE
#include <irqkit-core/platform.h>
#include <irqkit/irqkit.h>
#include <irqkit/explore.h>

#include <errno.h>
#include <execinfo.h>
#include <inttypes.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "testing.h"

#define SPIN_NS		1000ull			/* virtual time of one spin step (cpu_relax) */
#define YIELD_NS	100000ull		/* of a long spin's step (irqkit_plat_yield) */
#define STALL_NS	(60ull * 1000000000ull)	/* no wait ends sooner: deadlocked */
#define LIVELOCK_NS	(2ull * 1000000000ull)	/* only spinners ran this long: livelocked */
#define SPIN_JUMP	1000			/* spin steps before the clock jumps to a wait's end */
#define NSEC		((uint64_t)1000000000)
#define START_NS	NSEC			/* the virtual clock at start */
#define DEPTH_DEFAULT	2
#define STEPS_DEFAULT	2000			/* PCT's estimate of a run's steps */
#define BT_MAX		10

enum det_state { ST_RUN, ST_SPIN, ST_WAIT, ST_JOIN, ST_DEAD };

struct sched_thread {
	unsigned int		id;		/* 1..: its thread id in the run */
	char			name[16];
	bool			hw;		/* a dispatcher or the timer: never held back */
	bool			tick;		/* the timer */
	enum det_state		state;
	struct irqkit_task	*task;		/* its irqkit_task_self, once it ran */
	const unsigned int	*addr;		/* ST_WAIT: while *addr == val */
	unsigned int		val;
	bool			woken;		/* ST_WAIT: a wake named addr */
	uint64_t		deadline;	/* ST_WAIT: or until then (UINT64_MAX: no limit) */
	struct sched_thread	*target;	/* ST_JOIN: until it is dead */
	int64_t			prio;
	unsigned int		go;		/* the baton, handed over: a futex word */
	const char		*what;		/* where it stopped last */
	const void		*ip;
	void			*bt[BT_MAX];	/* its stack when it began to wait or spin */
	int			nbt;
};

static struct {
	struct sched_thread	**t;
	unsigned int		nr, cap;
	struct sched_thread	*cur;
	uint64_t		rng, seed;
	uint64_t		now;
	uint64_t		step, switches;
	uint64_t		spin_since;	/* only spinners have run since then (0: not so) */
	uint64_t		spin_steps;	/* spin steps since another thread ran */
	uint64_t		change[IRQKIT_EXPLORE_MAX_DEPTH];
	unsigned int		nr_change, next_change;
	int64_t			low;		/* the last priority given to a thread that gave way */
	FILE			*log;
	bool			verbose;
	uint64_t		hash;
	struct irqkit__det_tail	own_tail;
	struct irqkit__det_tail	*tail;		/* own_tail, or an exploration's */
	bool			foreign_told;
} det;

static bool active;			/* a run is on: this scheduler is installed */
struct irqkit__det_plan irqkit__det_plan;
static struct irqkit_sim_stats last;
static _Thread_local struct sched_thread *self;

static void futex_wait(unsigned int *w, unsigned int val)
{
	syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(unsigned int *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static uint64_t next_rand(void)
{
	uint64_t z = (det.rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		det.hash = (det.hash ^ b[i]) * 0x100000001b3ull;
}

/* ---- the threads ------------------------------------------------------------- */

static struct sched_thread *thread_new(const char *name)
{
	struct sched_thread *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	if (det.nr == det.cap) {
		unsigned int cap = det.cap ? 2 * det.cap : 16;
		struct sched_thread **n = realloc(det.t, cap * sizeof(*n));

		if (!n) {
			free(t);
			return NULL;
		}
		det.t = n;
		det.cap = cap;
	}
	t->id = det.nr + 1;
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->tick = !strcmp(name, "ktimerd");
	t->hw = t->tick || !strncmp(name, "vcpu/", 5);
	t->state = ST_RUN;
	t->deadline = UINT64_MAX;
	/* PCT: a random priority above every one a change point gives */
	t->prio = (int64_t)(1ull << 40) + (int64_t)(next_rand() >> 24);
	det.t[det.nr++] = t;
	return t;
}

/* Can @t go on now (its wait is over)? */
static bool ready(const struct sched_thread *t)
{
	switch (t->state) {
	case ST_RUN:
	case ST_SPIN:
		return true;
	case ST_WAIT:
		return t->woken || (t->addr && __atomic_load_n(t->addr, __ATOMIC_RELAXED) != t->val) ||
		       det.now >= t->deadline;
	case ST_JOIN:
		return t->target->state == ST_DEAD;
	case ST_DEAD:
		break;
	}
	return false;
}

/* Is @k in a section that cannot be preempted (interrupts off, a spinlock, bh off, irq context)? */
static bool non_preemptible(const struct irqkit_task *k)
{
	return k->preempt_count || (k->irqflags & IRQKIT_TASK_IRQS_OFF);
}

/* Is @u on CPU @cpu in a section no other context of that CPU may preempt? */
static bool holds_cpu(const struct sched_thread *u, int cpu)
{
	const struct irqkit_task *k = u->task;

	if (!k || u->state == ST_WAIT || u->state == ST_JOIN || u->state == ST_DEAD)
		return false;
	if (!(k->irqflags & IRQKIT_TASK_BOUND) || k->cpu_id != cpu)
		return false;
	return non_preemptible(k);
}

static bool eligible(const struct sched_thread *t)
{
	if (!ready(t))
		return false;
	if (t->hw || !t->task || !(t->task->irqflags & IRQKIT_TASK_BOUND))
		return true;
	for (unsigned int i = 0; i < det.nr; i++)
		if (det.t[i] != t && holds_cpu(det.t[i], t->task->cpu_id))
			return false;
	return true;
}

/* The earliest end of a timed wait, or UINT64_MAX. */
static uint64_t earliest_deadline(void)
{
	uint64_t d = UINT64_MAX;

	for (unsigned int i = 0; i < det.nr; i++)
		if (det.t[i]->state == ST_WAIT && det.t[i]->deadline < d)
			d = det.t[i]->deadline;
	return d;
}

/* ---- reports ----------------------------------------------------------------- */

static const char *state_name(const struct sched_thread *t)
{
	static const char *const names[] = { "runs", "spins", "waits", "joins", "ended" };

	return names[t->state];
}

static void context_text(char *buf, size_t len, const struct sched_thread *t)
{
	const struct irqkit_task *k = t->task;
	int n;

	if (!k) {
		snprintf(buf, len, "not started");
		return;
	}
	if (k->irqflags & IRQKIT_TASK_BOUND)
		n = snprintf(buf, len, "CPU %d, ", k->cpu_id);
	else
		n = snprintf(buf, len, "unbound, ");
	snprintf(buf + n, len - (size_t)n, "%s%s%s",
		 (k->preempt_count & IRQKIT_HARDIRQ_MASK) ? "hardirq" :
		 (k->preempt_count & IRQKIT_SOFTIRQ_OFFSET) ? "softirq" : "process context",
		 (k->irqflags & IRQKIT_TASK_IRQS_OFF) ? ", irqs off" : "",
		 (k->preempt_count & IRQKIT_PREEMPT_MASK) ? ", a spinlock held" : "");
}

static void where_text(char *buf, size_t len, const void *ip)
{
	char sym[96];
	unsigned long off;

	if (!ip) {
		snprintf(buf, len, "-");
		return;
	}
	off = irqkit_plat_symbol(ip, sym, sizeof(sym));
	if (sym[0])
		snprintf(buf, len, "%s+0x%lx", sym, off);
	else
		snprintf(buf, len, "%p", ip);
}

void irqkit__det_switch_text(char *buf, size_t len, const struct irqkit__det_switch *e)
{
	char w[128];

	where_text(w, sizeof(w), e->ip);
	snprintf(buf, len, "step %" PRIu64 " at %" PRIu64 ".%09" PRIu64 ": %s: %s from %s -> %s",
		 e->step, e->now / NSEC, e->now % NSEC, e->from, e->what ? e->what : "start", w,
		 e->to);
}

#define say(...)	irqkit__posix_say("irqkit sim", __VA_ARGS__)

/*
 * The run cannot go on: say why, naming the program's threads that wait
 * (@spin: that spin), then every thread with its stack and the last
 * switches; abort.
 */
static void __attribute__((noreturn)) fail(const char *what, bool spin)
{
	char why[160], line[256], ctx[96];
	const struct irqkit__det_tail *tl = det.tail;
	size_t n = (size_t)snprintf(why, sizeof(why), "%s (", what);
	bool any = false;

	for (unsigned int i = 0; i < det.nr && n < sizeof(why); i++) {
		const struct sched_thread *t = det.t[i];

		/* spinners, any; waiters, the program's own */
		if (spin ? t->state != ST_SPIN
			 : (t->state != ST_WAIT && t->state != ST_JOIN) || t->hw ||
			   (t->task && t->task->kthread))
			continue;
		n += (size_t)snprintf(why + n, sizeof(why) - n, "%s%s", any ? ", " : "", t->name);
		any = true;
	}
	if (n < sizeof(why))
		snprintf(why + n, sizeof(why) - n, "%s)", any ? (spin ? " spin" : " wait")
							     : (spin ? "the runtime's threads spin" : "the runtime's threads wait"));

	say("%s (seed %" PRIu64 ", step %" PRIu64 ", virtual time %" PRIu64 ".%09" PRIu64 " s)",
	    why, det.seed, det.step, det.now / NSEC, det.now % NSEC);
	for (unsigned int i = 0; i < det.nr; i++) {
		struct sched_thread *t = det.t[i];

		if (t->state == ST_DEAD)
			continue;
		context_text(ctx, sizeof(ctx), t);
		say("  %s (%s): %s", t->name, ctx, state_name(t));
		/* from the platform's hook down: not capture_stack and the simulator's */
		for (int f = 2; f < t->nbt; f++) {
			where_text(line, sizeof(line), t->bt[f]);
			say("      %s", line);
		}
	}
	say("the last switches:");
	for (uint64_t s = tl->switches > IRQKIT__DET_TAIL ? tl->switches - IRQKIT__DET_TAIL : 0;
	     s < tl->switches; s++) {
		irqkit__det_switch_text(line, sizeof(line), &tl->e[s % IRQKIT__DET_TAIL]);
		say("  %s", line);
	}
	if (det.log)
		fflush(det.log);
	if (irqkit__det_plan.fail)
		irqkit__det_plan.fail(why);
	abort();
}

/* ---- switching ----------------------------------------------------------------- */

static void park(struct sched_thread *me)
{
	while (!__atomic_load_n(&me->go, __ATOMIC_ACQUIRE))
		futex_wait(&me->go, 0);
	__atomic_store_n(&me->go, 0, __ATOMIC_RELAXED);
}

static void hand_to(struct sched_thread *next)
{
	det.cur = next;
	__atomic_store_n(&next->go, 1, __ATOMIC_RELEASE);
	futex_wake(&next->go);
}

/* The switch from @me to @next: counted, hashed, logged. */
static void record(struct sched_thread *me, struct sched_thread *next)
{
	struct irqkit__det_switch *e = &det.tail->e[det.switches % IRQKIT__DET_TAIL];

	*e = (struct irqkit__det_switch){ .step = det.step, .now = det.now, .what = me->what,
					  .ip = me->ip };
	memcpy(e->from, me->name, sizeof(e->from));
	memcpy(e->to, next->name, sizeof(e->to));
	det.switches++;
	det.tail->switches = det.switches;
	hash_bytes(&e->step, sizeof(e->step));
	hash_bytes(&e->now, sizeof(e->now));
	hash_bytes(&me->id, sizeof(me->id));
	hash_bytes(&next->id, sizeof(next->id));
	if (e->what)
		hash_bytes(e->what, strlen(e->what));
	if (det.log || det.verbose) {
		char line[320];

		irqkit__det_switch_text(line, sizeof(line), e);
		if (det.log)
			fprintf(det.log, "%s\n", line);
		if (det.verbose)
			say("%s", line);
	}
}

/*
 * The next thread to run: the eligible one of the highest priority; a
 * spinner gives way to any other.  Time jumps when nothing else can run.
 */
static struct sched_thread *pick(void)
{
	for (;;) {
		struct sched_thread *best = NULL, *spinner = NULL;
		bool others = false, soon;
		uint64_t d;

		for (unsigned int i = 0; i < det.nr; i++) {
			struct sched_thread *t = det.t[i];

			if (!eligible(t))
				continue;
			if (t->state == ST_SPIN) {
				if (!spinner || t->prio > spinner->prio)
					spinner = t;
				continue;
			}
			others = true;
			if (!best || t->prio > best->prio)
				best = t;
		}
		if (others) {
			/* the timer's ticks are no progress for a spinner */
			if (!best->tick)
				det.spin_since = 0;
			det.spin_steps = 0;
			return best;
		}
		d = earliest_deadline();
		soon = d != UINT64_MAX && d > det.now && d <= det.now + STALL_NS;
		if (spinner) {
			if (!det.spin_since)
				det.spin_since = det.now;
			else if (det.now - det.spin_since >= LIVELOCK_NS)
				fail("livelock: only spinning threads can run", true);
			/*
			 * Spinners go on (a spin costs SPIN_NS), and a yield
			 * comes straight back; after a long spin, the clock
			 * jumps to the next timed wait.
			 */
			if (det.spin_steps >= SPIN_JUMP && soon) {
				det.now = d;
				det.spin_steps = 0;
				continue;
			}
			return spinner;
		}
		/* a timed wait that ends soon: the clock jumps there */
		if (soon) {
			det.now = d;
			continue;
		}
		fail("deadlock: no thread can run", false);
	}
}

/* @me (the holder, its state set) gives the baton to whoever runs next. */
static void switch_from(struct sched_thread *me)
{
	struct sched_thread *next;
	bool dead;

	det.step++;
	if (det.next_change < det.nr_change && det.step >= det.change[det.next_change]) {
		/* a PCT change point: the running thread drops below every other */
		me->prio = (int64_t)(det.nr_change - det.next_change);
		det.next_change++;
	}
	next = pick();
	if (next->state == ST_WAIT || next->state == ST_JOIN) {
		next->state = ST_RUN;
		next->woken = false;
	}
	if (next == me)
		return;
	record(me, next);
	/* once handed over, @me's record is the new holder's to write */
	dead = me->state == ST_DEAD;
	hand_to(next);
	if (!dead)
		park(me);
}

static void __attribute__((noinline)) capture_stack(struct sched_thread *me)
{
	me->nbt = backtrace(me->bt, BT_MAX);
}

/* ---- what the platform's hooks call ------------------------------------------ */

static struct sched_thread *holder(void)
{
	struct sched_thread *me = self;

	if (!me && !__atomic_exchange_n(&det.foreign_told, true, __ATOMIC_RELAXED))
		irqkit_printk(IRQKIT_LOG_ERR,
			      "irqkit sim: thread %d is not the simulator's: its calls are not serialised (start threads with irqkit_thread_start())",
			      (int)syscall(SYS_gettid));
	return me;
}

/* A switch point of the core (point.c's hook). */
static void point_hook(const char *what, const void *ip)
{
	struct sched_thread *me = holder();

	if (!me)
		return;
	me->what = what;
	me->ip = ip;
	me->state = ST_RUN;
	switch_from(me);
}

static void det_spin(bool yield, const void *ip)
{
	struct sched_thread *me = holder();

	if (!me) {
		irqkit__posix_host.spin(yield, ip);
		return;
	}
	if (me->state != ST_SPIN) {
		capture_stack(me);
		me->what = "spin";
		me->ip = ip;
	}
	me->state = ST_SPIN;
	me->prio = --det.low;	/* a spinner gives way: below every thread that did not */
	det.now += yield ? YIELD_NS : SPIN_NS;
	det.spin_steps++;
	switch_from(me);
	me->state = ST_RUN;
}

static void det_wait(const unsigned int *addr, unsigned int val, uint64_t ns, const void *ip)
{
	struct sched_thread *me = holder();

	if (!me) {
		irqkit__posix_host.wait(addr, val, ns, ip);
		return;
	}
	if (addr && __atomic_load_n(addr, __ATOMIC_RELAXED) != val)
		return;
	capture_stack(me);
	me->what = addr ? "wait" : "sleep";
	me->ip = ip;
	me->state = ST_WAIT;
	me->addr = addr;
	me->val = val;
	me->woken = false;
	me->deadline = ns == UINT64_MAX || ns > UINT64_MAX - det.now ? UINT64_MAX : det.now + ns;
	switch_from(me);
	me->state = ST_RUN;
	me->addr = NULL;
	me->deadline = UINT64_MAX;
}

static void det_wake(const unsigned int *addr, const void *ip)
{
	struct sched_thread *me = holder();

	if (!me) {
		irqkit__posix_host.wake(addr, ip);
		return;
	}
	for (unsigned int i = 0; i < det.nr; i++)
		if (det.t[i]->state == ST_WAIT && det.t[i]->addr == addr)
			det.t[i]->woken = true;
	/*
	 * Not a switch inside a section that cannot be preempted: the runtime
	 * wakes its threads under its own locks, which a handler of this CPU may
	 * take too (they are safe between threads, not within one CPU's contexts).
	 */
	if (me->task && non_preemptible(me->task))
		return;
	me->what = "wake";
	me->ip = ip;
	me->state = ST_RUN;
	switch_from(me);
}

static uint64_t det_now(void)
{
	return __atomic_load_n(&det.now, __ATOMIC_RELAXED);
}

static int det_thread_id(void)
{
	return self ? (int)self->id : irqkit__posix_host.thread_id();
}

/* ---- threads: made, started, ended, joined ----------------------------------- */

/* Made by a thread of the run only: the order of the run is the simulator's. */
static int det_thread_new(struct sched_thread **out, const char *name)
{
	*out = holder() ? thread_new(name) : NULL;
	return *out ? 0 : -IRQKIT_ENOMEM;
}

/* First thing in a new thread: wait for the baton. */
static void det_thread_enter(struct sched_thread *t)
{
	self = t;
	park(t);
	t->task = irqkit_arch_current();
}

/* Last thing in a thread: it ends, and the baton goes on. */
static void det_thread_exit(struct sched_thread *t)
{
	t->what = "exit";
	t->ip = NULL;
	t->state = ST_DEAD;
	t->nbt = 0;
	switch_from(t);
	self = NULL;
}

static void det_thread_abandon(struct sched_thread *t)
{
	t->state = ST_DEAD;
}

static void det_thread_join(struct sched_thread *t, const void *ip)
{
	struct sched_thread *me = holder();

	if (!me || t->state == ST_DEAD)
		return;
	capture_stack(me);
	me->what = "join";
	me->ip = ip;
	me->target = t;
	me->state = ST_JOIN;
	switch_from(me);
	me->state = ST_RUN;
	me->target = NULL;
}

/* ---- a run ------------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int det_begin(const struct irqkit_config *cfg)
{
	const char *env = getenv("IRQKIT_SIM_SEED");
	const char *path = getenv("IRQKIT_SIM_LOG");
	struct irqkit__det_plan *plan = &irqkit__det_plan;
	uint64_t steps = STEPS_DEFAULT;
	unsigned int depth;
	char name[16] = "main";

	memset(&det, 0, sizeof(det));
	det.seed = cfg->sim_seed;
	depth = cfg->sim_depth ? cfg->sim_depth : DEPTH_DEFAULT;
	if (env && *env) {
		char *end;

		errno = 0;
		det.seed = strtoull(env, &end, 0);
		if (errno || *end) {
			irqkit_printk(IRQKIT_LOG_ERR, "irqkit_start: IRQKIT_SIM_SEED=%s is not a number", env);
			return -IRQKIT_EINVAL;
		}
	}
	det.tail = &det.own_tail;
	if (plan->set) {
		det.seed = plan->seed;
		depth = plan->depth ? plan->depth : depth;
		steps = plan->steps ? plan->steps : steps;
		det.verbose = plan->verbose;
		if (plan->tail)
			det.tail = plan->tail;
	}
	det.tail->active = true;
	det.tail->seed = det.seed;
	if (depth > IRQKIT_EXPLORE_MAX_DEPTH) {
		irqkit_printk(IRQKIT_LOG_ERR, "irqkit_start: sim_depth %u is above %d", depth,
			      IRQKIT_EXPLORE_MAX_DEPTH);
		return -IRQKIT_EINVAL;
	}
	det.rng = det.seed;
	det.hash = 0xcbf29ce484222325ull;
	det.now = START_NS;
	det.nr_change = depth;
	for (unsigned int i = 0; i < depth; i++)
		det.change[i] = 1 + next_rand() % steps;
	qsort(det.change, depth, sizeof(det.change[0]), cmp_u64);
	if (path && *path) {
		det.log = fopen(path, "w");
		if (!det.log)
			irqkit_printk(IRQKIT_LOG_WARNING, "irqkit_start: IRQKIT_SIM_LOG=%s: %s", path,
				      strerror(errno));
	}
	pthread_getname_np(pthread_self(), name, sizeof(name));
	self = thread_new(name);
	if (!self) {
		if (det.log)
			fclose(det.log);
		return -IRQKIT_ENOMEM;
	}
	self->task = irqkit_arch_current();
	det.cur = self;
	irqkit__core_explore_hook_set(point_hook);
	__atomic_store_n(&active, true, __ATOMIC_RELEASE);
	irqkit__posix_sched_install(&irqkit__sched_det);
	if (det.log)
		fprintf(det.log, "seed %" PRIu64 " depth %u\n", det.seed, depth);
	return 0;
}

/* The run in progress, as irqkit_sim_stats() reports it. */
static struct irqkit_sim_stats stats_now(void)
{
	return (struct irqkit_sim_stats){ .seed = det.seed, .steps = det.step,
					  .switches = det.switches, .virtual_ns = det.now - START_NS,
					  .hash = det.hash, .threads = det.nr };
}

/*
 * The run ends (irqkit_stop(), or a start that failed): on the thread that
 * began it, every thread of the runtime joined.  A program's thread still
 * there is reported and let go, unserialised.
 */
static void det_end(void)
{
	if (!__atomic_load_n(&active, __ATOMIC_ACQUIRE))
		return;
	last = stats_now();
	irqkit__core_explore_hook_set(NULL);
	__atomic_store_n(&active, false, __ATOMIC_RELEASE);
	irqkit__posix_sched_install(NULL);
	for (unsigned int i = 0; i < det.nr; i++) {
		struct sched_thread *t = det.t[i];

		if (t == self || t->state == ST_DEAD)
			continue;
		irqkit_printk(IRQKIT_LOG_ERR,
			      "irqkit_stop: %s, started by irqkit_thread_start(), was not joined; it goes on unserialised",
			      t->name);
		hand_to(t);
	}
	if (det.log) {
		fprintf(det.log, "end: %" PRIu64 " steps, %" PRIu64 " switches, %" PRIu64 " ns, hash %016" PRIx64 "\n",
			last.steps, last.switches, last.virtual_ns, last.hash);
		fclose(det.log);
	}
	/* records of threads still running stay: they may read theirs */
	for (unsigned int i = 0; i < det.nr; i++)
		if (det.t[i]->state == ST_DEAD || det.t[i] == self)
			free(det.t[i]);
	free(det.t);
	self = NULL;
	memset(&det, 0, sizeof(det));
}

int irqkit_sim_stats(struct irqkit_sim_stats *out)
{
	if (!out)
		return -IRQKIT_EINVAL;
	if (__atomic_load_n(&active, __ATOMIC_ACQUIRE)) {
		if (!self)
			return -IRQKIT_EINVAL;
		*out = stats_now();
		return 0;
	}
	if (!last.hash)
		return -IRQKIT_ENODATA;
	*out = last;
	return 0;
}

const struct irqkit__posix_sched irqkit__sched_det = {
	.name		= "sim",
	.mode		= IRQKIT_MODE_SIM,
	.virtual_time	= true,
	.begin		= det_begin,
	.end		= det_end,
	.now_ns		= det_now,
	.spin		= det_spin,
	.wait		= det_wait,
	.wake		= det_wake,
	.thread_id	= det_thread_id,
	.thread_new	= det_thread_new,
	.thread_enter	= det_thread_enter,
	.thread_exit	= det_thread_exit,
	.thread_abandon	= det_thread_abandon,
	.thread_join	= det_thread_join,
};

/* What this layer stacks on the posix platform. */
const struct irqkit__posix_sched *const irqkit__posix_stacked[] = { &irqkit__sched_det, NULL };
