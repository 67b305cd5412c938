// SPDX-License-Identifier: MIT
/*
 * The lock validator (Linux's lockdep, for spinlocks): code compiled with
 * IRQKIT_LOCKDEP calls irqkit_lockdep_acquire() before it takes a lock and
 * irqkit_lockdep_release() before it lets one go (<irqkit/spinlock.h>), so
 * a deadlock is reported before it happens, in Linux's words.
 *
 *  - classes: a lock initialised by irqkit_spin_lock_init() (spin_lock_init)
 *    belongs to the class of that call site; a lock never initialised so (a
 *    static IRQKIT_SPINLOCK_INIT, DEFINE_SPINLOCK) is a class of its own;
 *  - usage: each class remembers whether it was taken in hardirq context,
 *    in softirq context, with hardirqs on, with softirqs on, and where first;
 *    "inconsistent lock state" when a class is both IN-HARDIRQ and
 *    HARDIRQ-ON (or the softirq pair): the interrupt can come while the
 *    lock is held on its own CPU;
 *  - order: taking B while holding A records A -> B; taking A while holding
 *    B with a path B -> ... -> A recorded is "possible circular locking
 *    dependency detected";
 *  - the same class twice: "possible recursive locking detected"; the same
 *    lock twice: "BUG: spinlock recursion", then the program stops (the
 *    thread would spin for ever);
 *  - releases: "BUG: spinlock already unlocked", "bad unlock balance";
 *  - wait types (CONFIG_PROVE_RAW_LOCK_NESTING): a lock that waits longer
 *    on PREEMPT_RT than its context allows, a spinlock_t (which sleeps
 *    there) under a raw spinlock, in a hardirq handler that cannot be
 *    threaded, a hard hrtimer or an irq_chip callback, a mutex under any
 *    spinlock: "BUG: Invalid wait context".  As Linux, that report turns
 *    the validator off (irqkit_lockdep_keep_reporting() keeps it on).
 *
 * Each report is made once per class (or pair of classes).  The tables have
 * fixed sizes; when one fills up the validator says so once and turns itself
 * off, as lockdep does.  IRQKIT_LOCKDEP=0 in the environment turns it off
 * (the platform calls irqkit_lockdep_off()).  Code compiled without
 * IRQKIT_LOCKDEP calls nothing: no cost.
 */
/* the validator's own lock is not checked by itself */
#undef IRQKIT_LOCKDEP
#include "core.h"
#include "locking.h"
#include "cpu.h"
#include "irq/internals.h"
#include <irqkit/hrtimer.h>
#include <irqkit/irq_work.h>
#include "debug/debug.h"

#define MAX_CLASSES	512
#define MAX_LOCKS	16384		/* lock -> class map, open addressing */
#define MAX_EDGES	32		/* "after" classes per class */
/* held locks per task, Linux's MAX_LOCK_DEPTH */
#define MAX_DEPTH	IRQKIT__LOCKDEP_DEPTH
#define STACK_MAX	8

/* Usage states, for writers (and spinlocks) and for readers of reader-writer locks. */
enum {
	IN_HARDIRQ, IN_SOFTIRQ, HARDIRQ_ON, SOFTIRQ_ON,
	IN_HARDIRQ_R, IN_SOFTIRQ_R, HARDIRQ_ON_R, SOFTIRQ_ON_R, NR_USAGE
};
#define READ_USAGE	(IN_HARDIRQ_R - IN_HARDIRQ)

static const char *const usage_name[NR_USAGE] = {
	"IN-HARDIRQ-W", "IN-SOFTIRQ-W", "HARDIRQ-ON-W", "SOFTIRQ-ON-W",
	"IN-HARDIRQ-R", "IN-SOFTIRQ-R", "HARDIRQ-ON-R", "SOFTIRQ-ON-R",
};

struct stack {
	void	*frames[STACK_MAX];
	int	n;
};

/*
 * The calling task's part of the validator (Linux keeps it in task_struct):
 * the locks it holds, in order, and the return address into the code that
 * called the validator (stacks start there).
 */
static inline struct irqkit__task_lockdep *ld_task(void)
{
	return &irqkit_arch_current()->lockdep;
}

struct lock_class {
	const void	*key;
	const char	*name;
	char		namebuf[64];
	unsigned int	usage;			/* 1 << IN_HARDIRQ ... */
	struct stack	usage_at[NR_USAGE];	/* where each usage was first seen */
	unsigned short	after[MAX_EDGES];	/* classes taken while holding this one */
	struct stack	after_at[MAX_EDGES];	/* where */
	unsigned int	nr_after;
	bool		reported;		/* one usage/recursion report per class */
};

struct lock_entry {
	const void	*lock;
	unsigned short	cls;			/* class index + 1; 0: empty */
};

#define held_lock irqkit__held_lock	/* in struct irqkit_task, <irqkit/task.h> */

/* Set by the first call from code built with IRQKIT_LOCKDEP: the core's mutexes join in. */
bool irqkit__lockdep_active;

static struct lock_class classes[MAX_CLASSES];
static unsigned int nr_classes;
static struct lock_entry lock_map[MAX_LOCKS];
static unsigned int nr_locks;
static struct irqkit_spinlock graph_lock = IRQKIT_SPINLOCK_INIT;	/* the validator's own state */
/* Its own lock is never tracked by it: the word says held. */
#define graph_assert_locked()	IRQKIT_ASSERT(READ_ONCE(graph_lock.locked) != 0)
static bool ld_off;
static unsigned long nr_reports;	/* reports made (an exploration's failed runs) */
static bool keep_reporting;		/* a wait-context report does not turn it off */
static unsigned long long pair_reported[64];	/* circular reports made: hashed pairs */


void irqkit_lockdep_off(void)
{
	WRITE_ONCE(ld_off, true);
}

bool irqkit_lockdep_enabled(void)
{
	return !READ_ONCE(ld_off);
}

void irqkit_lockdep_keep_reporting(bool keep)
{
	WRITE_ONCE(keep_reporting, keep);
}

unsigned long irqkit_lockdep_reports(void)
{
	return a_load_acquire(&nr_reports);
}

static void count_report(void)
{
	a_fetch_add(&nr_reports, 1);
}

/* Out of room: say so once, as lockdep ("BUG: MAX_LOCKDEP_KEYS too low!"), and stop. */
static void table_full(const char *what, unsigned int max)
{
	if (READ_ONCE(ld_off))
		return;
	WRITE_ONCE(ld_off, true);
	pr_err("BUG: irqkit lockdep: %s too low (%u)! turning off the locking correctness validator.",
	       what, max);
}

/* The stack from the validator's caller outwards (this file's frames left out). */
static void stack_save(struct stack *s)
{
	struct irqkit__task_lockdep *lt = ld_task();
	void *all[STACK_MAX + 8];
	int n = irqkit_plat_backtrace(all, STACK_MAX + 8), from = 0;

	for (int i = 0; i < n; i++) {
		if (all[i] == lt->entry_ip) {
			from = i;
			break;
		}
	}
	s->n = 0;
	for (int i = from; i < n && s->n < STACK_MAX; i++)
		s->frames[s->n++] = all[i];
}

static void stack_print(const struct stack *s)
{
	for (int i = 0; i < s->n; i++)
		pr_warn("  %pS", s->frames[i]);
	if (!s->n)
		pr_warn("  (no stack)");
}

static void current_print(void)
{
	struct stack s;

	pr_warn("stack backtrace:");
	stack_save(&s);
	stack_print(&s);
}

static const char *who(char *buf, size_t len)
{
	struct irqkit_task *t = irqkit_current();

	irqkit__snprintf(buf, len, "%s/%d", t->comm, t->pid);
	return buf;
}

static unsigned int map_slot(const void *lock)
{
	uintptr_t h = (uintptr_t)lock;

	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ull;
	return (unsigned int)(h >> 40) % MAX_LOCKS;
}

/* The class of @key, made with @name if new; MAX_CLASSES on overflow.  Graph lock held. */
static unsigned int class_of_key(const void *key, const char *name, const void *lock)
{
	struct lock_class *c;

	graph_assert_locked();
	for (unsigned int i = 0; i < nr_classes; i++)
		if (classes[i].key == key)
			return i;
	if (nr_classes == MAX_CLASSES) {
		table_full("MAX_LOCKDEP_KEYS", MAX_CLASSES);
		return MAX_CLASSES;
	}
	c = &classes[nr_classes];
	c->key = key;
	if (name) {
		c->name = name;
	} else {
		/* a static lock: its own name, if the symbols know it */
		unsigned long off = irqkit_plat_symbol(lock, c->namebuf, sizeof(c->namebuf));

		if (!c->namebuf[0] || off)
			irqkit__snprintf(c->namebuf, sizeof(c->namebuf), "lock#%u", nr_classes);
		c->name = c->namebuf;
	}
	return nr_classes++;
}

/* The lock's entry in the map (found or made); NULL when full.  Graph lock held. */
static struct lock_entry *map_entry(const void *lock, bool *fresh)
{
	unsigned int i = map_slot(lock);

	graph_assert_locked();
	for (unsigned int n = 0; n < MAX_LOCKS; n++, i = (i + 1) % MAX_LOCKS) {
		if (lock_map[i].lock == lock) {
			*fresh = false;
			return &lock_map[i];
		}
		if (!lock_map[i].lock) {
			if (nr_locks + 1 >= MAX_LOCKS * 3 / 4) {
				table_full("MAX_LOCKDEP_ENTRIES", MAX_LOCKS * 3 / 4);
				return NULL;
			}
			nr_locks++;
			lock_map[i].lock = lock;
			*fresh = true;
			return &lock_map[i];
		}
	}
	return NULL;
}

void irqkit_lockdep_init(const void *lock, const void *key, const char *name)
{
	struct irqkit__task_lockdep *lt = ld_task();
	struct lock_entry *e;
	unsigned int cls;
	bool fresh;

	if (!READ_ONCE(irqkit__lockdep_active))
		WRITE_ONCE(irqkit__lockdep_active, true);
	if (READ_ONCE(ld_off) || lt->inside)
		return;
	irqkit_spin_lock(&graph_lock);
	cls = class_of_key(key, name, lock);
	e = cls < MAX_CLASSES ? map_entry(lock, &fresh) : NULL;
	if (e)
		e->cls = (unsigned short)(cls + 1);
	irqkit_spin_unlock(&graph_lock);
}

/* The class of @lock: its init site's, or its own.  Graph lock held; MAX_CLASSES if none. */
static unsigned int class_of_lock(const void *lock)
{
	bool fresh;
	struct lock_entry *e = map_entry(lock, &fresh);
	unsigned int cls;

	graph_assert_locked();
	if (!e)
		return MAX_CLASSES;
	if (!fresh && e->cls)
		return e->cls - 1u;
	cls = class_of_key(lock, NULL, lock);
	if (cls < MAX_CLASSES)
		e->cls = (unsigned short)(cls + 1);
	return cls;
}

static bool has_edge(const struct lock_class *c, unsigned int to)
{
	for (unsigned int i = 0; i < c->nr_after; i++)
		if (c->after[i] == to)
			return true;
	return false;
}

/* Is there a path @from -> ... -> @to?  Depth-first, bounded by the class count. */
static bool path_exists(unsigned int from, unsigned int to, unsigned char *seen)
{
	const struct lock_class *c = &classes[from];

	if (from == to)
		return true;
	if (seen[from])
		return false;
	seen[from] = 1;
	for (unsigned int i = 0; i < c->nr_after; i++)
		if (path_exists(c->after[i], to, seen))
			return true;
	return false;
}

static bool pair_once(unsigned int a, unsigned int b)
{
	unsigned long long key = ((unsigned long long)a << 32) | b;
	unsigned int slot = (a * 31u + b) % 64u;

	if (pair_reported[slot] == key + 1)
		return false;
	pair_reported[slot] = key + 1;
	return true;
}

static void header(const char *title)
{
	char line[80];
	size_t n = 0;

	count_report();
	for (const char *p = title; *p && n < sizeof(line) - 1; p++)
		n++;
	for (size_t i = 0; i < n; i++)
		line[i] = '=';
	line[n] = '\0';
	pr_warn("%s", line);
	pr_warn("%s", title);
	for (size_t i = 0; i < n; i++)
		line[i] = '-';
	pr_warn("%s", line);
}

/* The context letters of Linux's report: [HC0[0]:SC0[0]:HE1:SE1]. */
static void context_line(const char *verb, const struct lock_class *c, const void *ip)
{
	struct irqkit_task *t = irqkit_arch_current();
	char w[48];

	pr_warn("%s [HC%u[%u]:SC%u[%u]:HE%u:SE%u] %s:", who(w, sizeof(w)),
		(t->preempt_count & IRQKIT_HARDIRQ_MASK) ? 1u : 0u,
		(t->preempt_count & IRQKIT_HARDIRQ_MASK) >> 16,
		(t->preempt_count & IRQKIT_SOFTIRQ_OFFSET) ? 1u : 0u,
		(t->preempt_count & IRQKIT_SOFTIRQ_MASK) >> 8,
		irqkit_irqs_disabled() ? 0u : 1u, irqkit_in_softirq() ? 0u : 1u, verb);
	pr_warn(" (%s), at: %pS", c->name, ip);
}

/*
 * Mark @u on @c; report a conflict with the states of @bad (a mask): a
 * writer in an interrupt against any holder with that interrupt on, a
 * reader in an interrupt against a writer with it on.  Readers with readers
 * are no conflict (they share the lock).  Graph lock held.
 */
static void mark_usage(struct lock_class *c, int u, unsigned int bad, const void *ip)
{
	unsigned int conflict;
	int b;

	graph_assert_locked();
	if (!(c->usage & (1u << u))) {
		c->usage |= 1u << u;
		stack_save(&c->usage_at[u]);
	}
	conflict = c->usage & bad;
	if (!conflict || c->reported)
		return;
	c->reported = true;
	b = __builtin_ctz(conflict);
	header("WARNING: inconsistent lock state");
	pr_warn("inconsistent {%s} -> {%s} usage.", usage_name[b], usage_name[u]);
	context_line("takes", c, ip);
	pr_warn("{%s} state was registered at:", usage_name[b]);
	stack_print(&c->usage_at[b]);
	pr_warn("%s", "");
	pr_warn("other info that might help us debug this:");
	pr_warn(" Possible unsafe locking scenario:");
	pr_warn("       CPU0");
	pr_warn("       ----");
	pr_warn("  lock(%s);", c->name);
	pr_warn("  <Interrupt>");
	pr_warn("    lock(%s);", c->name);
	pr_warn("%s", "");
	pr_warn(" *** DEADLOCK ***");
	current_print();
}

#define BIT(u)	(1u << (u))

static void usage_check(struct lock_class *c, bool read, const void *ip)
{
	struct irqkit_task *t = irqkit_arch_current();
	int r = read ? READ_USAGE : 0;

	/* as Linux: the ON states only with hardirqs on (off, no softirq runs either) */
	if (t->preempt_count & IRQKIT_HARDIRQ_MASK)
		mark_usage(c, IN_HARDIRQ + r, read ? BIT(HARDIRQ_ON) : BIT(HARDIRQ_ON) | BIT(HARDIRQ_ON_R), ip);
	if (t->preempt_count & IRQKIT_SOFTIRQ_OFFSET)
		mark_usage(c, IN_SOFTIRQ + r, read ? BIT(SOFTIRQ_ON) : BIT(SOFTIRQ_ON) | BIT(SOFTIRQ_ON_R), ip);
	if (irqkit_irqs_disabled())
		return;
	mark_usage(c, HARDIRQ_ON + r, read ? BIT(IN_HARDIRQ) : BIT(IN_HARDIRQ) | BIT(IN_HARDIRQ_R), ip);
	if (!(t->preempt_count & IRQKIT_SOFTIRQ_MASK))
		mark_usage(c, SOFTIRQ_ON + r, read ? BIT(IN_SOFTIRQ) : BIT(IN_SOFTIRQ) | BIT(IN_SOFTIRQ_R), ip);
}

static void report_recursive(const struct held_lock *h, unsigned int cls, const void *ip)
{
	char w[48];

	if (classes[cls].reported)
		return;
	classes[cls].reported = true;
	header("WARNING: possible recursive locking detected");
	pr_warn("%s is trying to acquire lock:", who(w, sizeof(w)));
	pr_warn(" (%s), at: %pS", classes[cls].name, ip);
	pr_warn("%s", "");
	pr_warn("but task is already holding lock:");
	pr_warn(" (%s), at: %pS", classes[h->cls].name, h->ip);
	pr_warn("%s", "");
	pr_warn(" May be due to missing lock nesting notation");
	current_print();
}

/* @prev held, @next taken: a new edge, unless it closes a circle.  Graph lock held. */
static void add_dependency(const struct held_lock *prev, unsigned int next, const void *ip)
{
	static unsigned char seen[MAX_CLASSES];
	struct lock_class *p = &classes[prev->cls];
	char w[48];

	graph_assert_locked();
	if (prev->cls == next || has_edge(p, next))
		return;
	for (unsigned int i = 0; i < nr_classes; i++)
		seen[i] = 0;
	if (path_exists(next, prev->cls, seen)) {
		if (!pair_once(prev->cls, next))
			return;
		header("WARNING: possible circular locking dependency detected");
		pr_warn("%s is trying to acquire lock:", who(w, sizeof(w)));
		pr_warn(" (%s), at: %pS", classes[next].name, ip);
		pr_warn("%s", "");
		pr_warn("but task is already holding lock:");
		pr_warn(" (%s), at: %pS", p->name, prev->ip);
		pr_warn("%s", "");
		pr_warn("which lock already depends on the new lock.");
		pr_warn("%s", "");
		pr_warn("the existing dependency chain (in reverse order) is:");
		for (unsigned int i = 0; i < classes[next].nr_after; i++) {
			if (classes[next].after[i] != prev->cls)
				continue;
			pr_warn("-> #1 (%s):", p->name);
			stack_print(&classes[next].after_at[i]);
		}
		pr_warn("-> #0 (%s):", classes[next].name);
		current_print();
		pr_warn("%s", "");
		pr_warn(" Possible unsafe locking scenario:");
		pr_warn("       CPU0                    CPU1");
		pr_warn("       ----                    ----");
		pr_warn("  lock(%s);", p->name);
		pr_warn("                               lock(%s);", classes[next].name);
		pr_warn("                               lock(%s);", p->name);
		pr_warn("  lock(%s);", classes[next].name);
		pr_warn("%s", "");
		pr_warn(" *** DEADLOCK ***");
		return;
	}
	if (p->nr_after == MAX_EDGES) {
		table_full("MAX_LOCKDEP_EDGES per class", MAX_EDGES);
		return;
	}
	stack_save(&p->after_at[p->nr_after]);
	p->after[p->nr_after++] = (unsigned short)next;
}

/* ---- wait types ------------------------------------------------------------------------ */

#define LD_WAIT_MAX	5u	/* task context: anything may wait */

/* The calling context's level: hardirq nesting, softirq: what a held lock records. */
static unsigned char context_level(const struct irqkit_task *t)
{
	return (unsigned char)(((t->preempt_count & IRQKIT_HARDIRQ_MASK) >> 16) * 2 +
			       ((t->preempt_count & IRQKIT_SOFTIRQ_OFFSET) ? 1 : 0));
}

/*
 * What hardirq context @t runs in allows (Linux's task_wait_context): a
 * handler that force threading would move into a thread, an hrtimer not
 * marked HARD and an irq_work not marked HARD run in a thread or softirq
 * on PREEMPT_RT, so a spinlock_t is allowed there (CONFIG); anything else
 * in hardirq context spins: a handler that cannot be threaded (NO_THREAD,
 * PERCPU, ONESHOT, a line that cannot be threaded), a hard hrtimer, a hard
 * irq_work, the flow and the chip's callbacks around the handlers.
 */
static bool handler_wait(struct irqkit_desc *desc, const void *fn, unsigned int *wait)
{
	for (const struct irqkit_action *a = READ_ONCE(desc->action); a; a = READ_ONCE(a->next)) {
		if ((const void *)a->handler != fn && (const void *)a->handler_regs != fn)
			continue;
		/* lockdep_hardirq_threaded(): what irq_setup_forced_threading would move */
		*wait = (READ_ONCE(desc->settings) & IRQKIT_IRQ_NOTHREAD) ||
			(a->flags & (IRQKIT_F_NO_THREAD | IRQKIT_F_PERCPU | IRQKIT_F_ONESHOT)) ?
			IRQKIT_LD_WAIT_SPIN : IRQKIT_LD_WAIT_CONFIG;
		return true;
	}
	return false;
}

static unsigned int hardirq_wait(const struct irqkit_task *t)
{
	struct irqkit_cpu *c = t->cpu;
	const void *fn = READ_ONCE(t->running_fn);
	struct irqkit_desc *desc;
	unsigned int taking, wait;

	if (!c || !fn)
		return IRQKIT_LD_WAIT_SPIN;
	if (READ_ONCE(c->hrtimers.running_task[0]) == t) {
		const struct irqkit_hrtimer *h = READ_ONCE(c->hrtimers.running[0]);

		if (h && (const void *)h->function == fn)
			return h->is_hard ? IRQKIT_LD_WAIT_SPIN : IRQKIT_LD_WAIT_CONFIG;
	}
	if (READ_ONCE(c->irq_work_running)) {
		const struct irqkit_irq_work *w = READ_ONCE(c->irq_work_running);

		if ((const void *)w->func == fn)
			return (a_load_acquire(&w->flags) & IRQKIT_IRQ_WORK_HARD_IRQ) ?
			       IRQKIT_LD_WAIT_SPIN : IRQKIT_LD_WAIT_CONFIG;
	}
	/* the line being handled: the CPU says which, else the one whose action it is */
	taking = READ_ONCE(c->taking);
	desc = taking ? irq_to_desc(taking - 1) : NULL;
	if (desc && handler_wait(desc, fn, &wait))
		return wait;
	for (unsigned int irq = 0; irq < irqkit__rt.nr_irqs; irq++)
		if (handler_wait(irq_to_desc(irq), fn, &wait))
			return wait;
	return IRQKIT_LD_WAIT_SPIN;
}

/* What the calling context allows before the locks it holds (Linux's task_wait_context). */
static unsigned int context_wait(const struct irqkit_task *t)
{
	if (t->preempt_count & IRQKIT_HARDIRQ_MASK)
		return hardirq_wait(t);
	if (t->preempt_count & IRQKIT_SOFTIRQ_OFFSET)
		return IRQKIT_LD_WAIT_CONFIG;	/* softirqs are threaded on PREEMPT_RT */
	return LD_WAIT_MAX;
}

/*
 * check_wait_context: taking class @cls, of wait type @wait, allowed in the
 * context and under the locks held in it?  Graph lock held; dropped and
 * taken again around the report (it prints).
 */
static void check_wait(unsigned int cls, unsigned int wait, const void *ip)
{
	struct irqkit__task_lockdep *lt = ld_task();
	struct irqkit_task *t = irqkit_arch_current();
	unsigned char level = context_level(t);
	unsigned int curr = context_wait(t), ctx_wait = curr;
	int first = lt->depth;
	char w[48];

	graph_assert_locked();
	while (first > 0 && lt->held[first - 1].ctx == level)
		first--;
	for (int i = first; i < lt->depth; i++)
		if (lt->held[i].wait && lt->held[i].wait < curr)
			curr = lt->held[i].wait;
	if (wait <= curr || classes[cls].reported)
		return;
	classes[cls].reported = true;
	header("[ BUG: Invalid wait context ]");
	pr_warn("%s is trying to lock:", who(w, sizeof(w)));
	pr_warn(" (%s){%u:%u}, at: %pS", classes[cls].name, wait, wait, ip);
	pr_warn("other info that might help us debug this:");
	pr_warn("context-{%u:%u}", ctx_wait, ctx_wait);
	pr_warn("%d lock%s held by %s:", lt->depth - first, lt->depth - first == 1 ? "" : "s",
		who(w, sizeof(w)));
	for (int i = first; i < lt->depth; i++)
		pr_warn(" #%d: (%s){%u:%u}, at: %pS", i - first, classes[lt->held[i].cls].name,
			lt->held[i].wait, lt->held[i].wait, lt->held[i].ip);
	current_print();
	if (!READ_ONCE(keep_reporting))
		WRITE_ONCE(ld_off, true);	/* as Linux's debug_locks_off() */
}

static void acquire(const void *lock, bool trylock, bool read, bool rw, unsigned int wait,
		    const void *ip)
{
	struct irqkit__task_lockdep *lt = ld_task();
	unsigned int cls;
	char w[48];

	if (!READ_ONCE(irqkit__lockdep_active))
		WRITE_ONCE(irqkit__lockdep_active, true);
	if (READ_ONCE(ld_off) || lt->inside)
		return;
	lt->entry_ip = ip;
	lt->inside = true;
	irqkit_spin_lock(&graph_lock);
	cls = class_of_lock(lock);
	if (cls >= MAX_CLASSES)
		goto out;
	for (int i = 0; i < lt->depth; i++) {
		bool readers = read && lt->held[i].read;	/* readers share: no deadlock */

		if (lt->held[i].lock == lock && !trylock && !readers) {
			irqkit_spin_unlock(&graph_lock);
			pr_emerg("BUG: %s recursion on CPU#%d, %s", rw ? "rwlock" : "spinlock",
				 irqkit_smp_processor_id(), who(w, sizeof(w)));
			pr_emerg(" lock: %s, first taken at %pS, again at %pS", classes[cls].name,
				 lt->held[i].ip, ip);
			current_print();
			irqkit_plat_oops();	/* it would spin for ever */
		}
		if (lt->held[i].cls == cls && !trylock && !readers)
			report_recursive(&lt->held[i], cls, ip);
	}
	if (!trylock && wait)
		check_wait(cls, wait, ip);
	usage_check(&classes[cls], read, ip);
	if (lt->depth && !trylock)
		add_dependency(&lt->held[lt->depth - 1], cls, ip);
	if (lt->depth == MAX_DEPTH) {
		table_full("MAX_LOCK_DEPTH", MAX_DEPTH);
		goto out;
	}
	lt->held[lt->depth++] =
		(struct held_lock){ .lock = lock, .cls = cls, .ip = ip, .read = read,
				    .wait = (unsigned char)wait,
				    .ctx = context_level(irqkit_arch_current()) };
out:
	irqkit_spin_unlock(&graph_lock);
	lt->inside = false;
}

void irqkit_lockdep_acquire(const void *lock, bool trylock)
{
	irqkit__point("spin_lock", __builtin_return_address(0));
	acquire(lock, trylock, false, false, IRQKIT_LD_WAIT_CONFIG, __builtin_return_address(0));
}

void irqkit_lockdep_acquire_wait(const void *lock, bool trylock, unsigned int wait)
{
	irqkit__point("spin_lock", __builtin_return_address(0));
	acquire(lock, trylock, false, false, wait <= IRQKIT_LD_WAIT_SLEEP ? wait : 0,
		__builtin_return_address(0));
}

/* rwlock_t: sleeping on PREEMPT_RT, as spinlock_t */
void irqkit_lockdep_acquire_rw(const void *lock, bool trylock, bool read)
{
	irqkit__point(read ? "read_lock" : "write_lock", __builtin_return_address(0));
	acquire(lock, trylock, read, true, IRQKIT_LD_WAIT_CONFIG, __builtin_return_address(0));
}

static void release(const void *lock, bool locked, bool rw, const void *ip)
{
	struct irqkit__task_lockdep *lt = ld_task();
	char w[48];
	int i;

	if (READ_ONCE(ld_off) || lt->inside)
		return;
	lt->entry_ip = ip;
	if (!locked) {
		count_report();
		pr_emerg("BUG: %s already unlocked on CPU#%d, %s", rw ? "rwlock" : "spinlock",
			 irqkit_smp_processor_id(), who(w, sizeof(w)));
		pr_emerg(" lock: %p, at %pS", lock, ip);
		current_print();
	}
	for (i = lt->depth - 1; i >= 0; i--)
		if (lt->held[i].lock == lock)
			break;
	if (i < 0) {
		if (locked) {
			header("WARNING: bad unlock balance detected!");
			pr_warn("%s is trying to release lock (%p) at:", who(w, sizeof(w)), lock);
			pr_warn("%pS", ip);
			pr_warn("but there are no more locks to release!");
			current_print();
		}
		return;
	}
	for (; i < lt->depth - 1; i++)
		lt->held[i] = lt->held[i + 1];
	lt->depth--;
}

void irqkit_lockdep_release(const void *lock, bool locked)
{
	irqkit__point("spin_unlock", __builtin_return_address(0));
	release(lock, locked, false, __builtin_return_address(0));
}

void irqkit_lockdep_release_rw(const void *lock, bool locked)
{
	irqkit__point("rw_unlock", __builtin_return_address(0));
	release(lock, locked, true, __builtin_return_address(0));
}

/* The library's own locks (a build with IRQKIT_LOCKDEP_CORE): checked, not points. */
void irqkit__lockdep_acquire_own(const void *lock, bool trylock, bool read, bool rw)
{
	acquire(lock, trylock, read, rw, IRQKIT_LD_WAIT_SPIN, __builtin_return_address(0));	/* raw, as Linux's */
}

void irqkit__lockdep_release_own(const void *lock, bool locked, bool rw)
{
	release(lock, locked, rw, __builtin_return_address(0));
}

/*
 * struct mutex (semaphore.c), once the program uses the validator: a class
 * per mutex_init() call site, named after it; order and usage as a lock.
 */
void irqkit__lockdep_mutex_init(const void *lock, const void *site)
{
	struct irqkit__task_lockdep *lt = ld_task();
	struct lock_entry *e;
	unsigned int cls;
	bool fresh;

	if (READ_ONCE(ld_off) || lt->inside)
		return;
	irqkit_spin_lock(&graph_lock);
	cls = class_of_key(site, "", lock);
	if (cls < MAX_CLASSES && !classes[cls].name[0]) {
		irqkit__snprintf(classes[cls].namebuf, sizeof(classes[cls].namebuf), "mutex@%pS", site);
		classes[cls].name = classes[cls].namebuf;
	}
	e = cls < MAX_CLASSES ? map_entry(lock, &fresh) : NULL;
	if (e)
		e->cls = (unsigned short)(cls + 1);
	irqkit_spin_unlock(&graph_lock);
}

void irqkit__lockdep_mutex_acquire(const void *lock, bool trylock, const void *ip)
{
	acquire(lock, trylock, false, false, IRQKIT_LD_WAIT_SLEEP, ip);
}

/* (a mutex taken before the validator came into use is released quietly) */
void irqkit__lockdep_mutex_release(const void *lock, const void *ip)
{
	if (irqkit_lockdep_is_held(lock))
		release(lock, true, false, ip);
}

/*
 * The checking build's "held by the calling task" (core.h's
 * spin_assert_locked): true also when the validator cannot know, because it
 * is off or running itself (its own locks are not tracked).
 */
bool irqkit__lockdep_holds(const void *lock)
{
	if (READ_ONCE(ld_off) || ld_task()->inside)
		return true;
	return irqkit_lockdep_is_held(lock);
}

bool irqkit_lockdep_is_held(const void *lock)
{
	struct irqkit__task_lockdep *lt = ld_task();

	for (int i = 0; i < lt->depth; i++)
		if (lt->held[i].lock == lock)
			return true;
	return false;
}

void irqkit_lockdep_assert_held(const void *lock)
{
	struct irqkit__task_lockdep *lt = ld_task();

	lt->entry_ip = __builtin_return_address(0);
	if (READ_ONCE(ld_off) || irqkit_lockdep_is_held(lock))
		return;
	count_report();
	pr_warn("WARNING: lockdep_assert_held() failed: lock %p not held at %pS", lock,
		__builtin_return_address(0));
	current_print();
}

void irqkit_lockdep_assert_irqs_disabled(void)
{
	struct irqkit__task_lockdep *lt = ld_task();

	lt->entry_ip = __builtin_return_address(0);
	if (READ_ONCE(ld_off) || irqkit_irqs_disabled())
		return;
	count_report();
	pr_warn("WARNING: lockdep_assert_irqs_disabled() failed: interrupts on at %pS",
		__builtin_return_address(0));
	current_print();
}
