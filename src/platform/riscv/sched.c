// SPDX-License-Identifier: MIT
/*
 * Process context without an OS: cooperative kernel threads, a run queue
 * per hart, futex-style waits keyed by address, timed waits on the hart's
 * CLINT timer, and an idle loop that sleeps in wfi.  A thread runs on one
 * hart until it is bound to another (irqkit_arch_task_bound); it gives the
 * hart up only when it waits, yields or ends, never in a trap.
 */
#include "rv.h"

#include <string.h>

#include <irqkit/arch/rv.h>

#include <irqkit/irqkit.h>

struct rv_hart rv_harts[RV_MAX_HARTS];
unsigned int rv_nr_harts = 1;
struct irqkit_plat_thread *rv_all_threads;
static rv_lock_t all_lock;
static int next_tid = 1;

static void guard_set(struct irqkit_plat_thread *th);

struct irqkit_plat_thread *rv_self(void)
{
	return (struct irqkit_plat_thread *)irqkit_arch_current();
}

void rv_sched_init_hart(unsigned int hart)
{
	struct rv_hart *h = &rv_harts[hart];
	struct irqkit_plat_thread *idle = &h->idle;
	extern char __stack_top[];

	idle->state = RV_RUNNING;
	idle->hart = hart;
	idle->tid = 0;				/* each hart's swapper: pid 0, as Linux's idle tasks */
	idle->name[0] = 's';
	__builtin_memcpy(idle->name, "swapper/", 8);
	idle->name[8] = (char)('0' + hart);
	idle->stack = (unsigned long *)(__stack_top - (hart + 1) * RV_STACK_SIZE);
	idle->stack_size = RV_STACK_SIZE;
	guard_set(idle);
	h->cur = idle;
	h->sleep_deadline = UINT64_MAX;
	__asm__ __volatile__("mv tp, %0" : : "r"(&idle->task) : "memory");
}

/* ---- switching ------------------------------------------------------------------ */

/*
 * The lowest words of a stack hold a pattern; a thread that ran past the
 * rest of its stack wrote over it first.  Checked at every switch away from
 * a thread: the overflow is reported with the thread's name and the image
 * ends (status 96) before anything else runs on what it overwrote.
 */
static void guard_set(struct irqkit_plat_thread *th)
{
	for (unsigned int i = 0; i < RV_GUARD_WORDS; i++)
		th->stack[i] = RV_STACK_GUARD;
}

static void check_guard(const struct irqkit_plat_thread *th)
{
	unsigned int low;

	for (low = 0; low < RV_GUARD_WORDS && th->stack[low] == RV_STACK_GUARD; low++)
		;
	if (low < RV_GUARD_WORDS) {
		rv_printf("irqkit: stack overflow in thread %s (pid %d): %u bytes past the end of its %zu-byte stack\n",
			  th->name, th->tid, (RV_GUARD_WORDS - low) * 8,
			  (size_t)th->stack_size - RV_GUARD_WORDS * 8);
		rv_puts("RESULT: FAIL stack overflow\n");
		rv_exit(96);
	}
}

size_t irqkit_rv_stack_left(void)
{
	unsigned long sp;

	__asm__("mv %0, sp" : "=r"(sp));
	return sp - (unsigned long)(rv_self()->stack + RV_GUARD_WORDS);
}

/*
 * The call trace (Linux's dump_stack on RISC-V walks it the same way), by the
 * frame pointers the port is built with.  In the frame of a function that
 * calls others, s0 is its caller's stack pointer, with the return address at
 * s0 - 8 and the caller's s0 at s0 - 16 (a leaf saves no return address:
 * irqkit_plat_backtrace calls rv_walk so that it is not one).  The walk stays
 * on the calling thread's stack, each frame above the last; frame 0 is the
 * caller's.  Any context (a trap runs on the thread's stack).
 */
static __attribute__((noinline)) int rv_walk(void **frames, int max, uintptr_t fp)
{
	const struct irqkit_plat_thread *th = rv_self();
	uintptr_t lo = (uintptr_t)th->stack, hi = lo + th->stack_size;
	int n = 0;

	while (n < max && fp > lo && fp <= hi && !(fp & 7)) {
		uintptr_t ra = ((const uintptr_t *)fp)[-1], up = ((const uintptr_t *)fp)[-2];

		if (!ra)
			break;
		frames[n++] = (void *)ra;
		if (up <= fp)
			break;
		fp = up;
	}
	return n;
}

__attribute__((noinline)) int irqkit_plat_backtrace(void **frames, int max)
{
	int n = rv_walk(frames, max, (uintptr_t)__builtin_frame_address(0));

	__asm__ __volatile__("" ::: "memory");	/* a call, not a jump: this frame has its ra */
	return n;
}

static void rq_push(struct rv_hart *h, struct irqkit_plat_thread *th)
{
	th->rq_next = NULL;
	if (h->rq_tail)
		h->rq_tail->rq_next = th;
	else
		h->rq_head = th;
	h->rq_tail = th;
}

static struct irqkit_plat_thread *rq_pop(struct rv_hart *h)
{
	struct irqkit_plat_thread *th = h->rq_head;

	if (th) {
		h->rq_head = th->rq_next;
		if (!h->rq_head)
			h->rq_tail = NULL;
	}
	return th;
}

/* A blocked (or migrating) thread goes on its hart's queue; that hart is told. */
void rv_make_runnable(struct irqkit_plat_thread *th)
{
	struct rv_hart *h = &rv_harts[th->hart];
	unsigned long f = rv_irq_save();
	bool queued = false;

	rv_lock(&h->rq_lock);
	if (th->state == RV_BLOCKED || th->state == RV_MIGRATING) {
		th->state = RV_RUNNABLE;
		rq_push(h, th);
		queued = true;
	}
	rv_unlock(&h->rq_lock);
	if (queued && th->hart != rv_hartid())
		rv_ipi_send(th->hart, RV_IPI_RESCHED);
	rv_irq_restore(f);
}

/*
 * After a switch, on the new thread: what the thread that left needs now
 * that nothing runs on its stack (Linux's finish_task_switch).  A thread
 * moving to another hart goes on that hart's queue only now, and an ended
 * one may be freed.
 */
static void finish_switch(unsigned int hart)
{
	struct irqkit_plat_thread *prev = rv_harts[hart].prev;

	rv_harts[hart].prev = NULL;
	if (!prev)
		return;
	if (prev->state == RV_MIGRATING) {
		rv_make_runnable(prev);
	} else if (prev->state == RV_EXITING) {
		prev->state = RV_DEAD;
		__atomic_store_n(&prev->dead, 1, __ATOMIC_RELEASE);
		irqkit_plat_wake(&prev->dead);
	}
}

/*
 * Give the hart to the next runnable thread, or to its idle loop.  The
 * caller has interrupts off and has set its state: RV_RUNNING to yield,
 * RV_BLOCKED, RV_MIGRATING or RV_EXITING to leave.  Returns when the caller
 * runs again (never for RV_EXITING).
 */
void rv_schedule(void)
{
	unsigned int hart = rv_hartid();
	struct rv_hart *h = &rv_harts[hart];
	struct irqkit_plat_thread *cur = h->cur, *next;

	if (irqkit_rv_trap_depth[hart])
		irqkit_plat_fatal("a thread gave up its hart inside a trap");
	check_guard(cur);
	rv_lock(&h->rq_lock);
	if (cur->state == RV_RUNNING && cur != &h->idle) {
		cur->state = RV_RUNNABLE;
		rq_push(h, cur);
	}
	next = rq_pop(h);
	if (!next)
		next = &h->idle;
	if (next == cur) {
		cur->state = RV_RUNNING;
		rv_unlock(&h->rq_lock);
		return;
	}
	next->state = RV_RUNNING;
	h->cur = next;
	h->prev = cur;
	rv_unlock(&h->rq_lock);
	rv_switch(&cur->ctx, &next->ctx, &next->task);
	/* running again, maybe on another hart */
	finish_switch(rv_hartid());
}

/* Each hart's swapper: run what is runnable, else sleep in wfi until an interrupt. */
void rv_idle_loop(void)
{
	struct rv_hart *h = &rv_harts[rv_hartid()];

	for (;;) {
		extern void rv_idle_bind(void);

		rv_idle_bind();
		rv_irq_save();
		if (__atomic_load_n(&h->rq_head, __ATOMIC_ACQUIRE))
			rv_schedule();
		else
			__asm__ __volatile__("wfi" ::: "memory");	/* wakes on mip & mie, MIE off */
		rv_irq_restore(8);	/* take what woke it */
	}
}

/* A new thread's C start (start.S's rv_thread_start): bound to its hart, then its function. */
void rv_thread_main(struct irqkit_plat_thread *th);
void rv_thread_main(struct irqkit_plat_thread *th)
{
	unsigned long f;

	finish_switch(th->hart);
	rv_irq_restore(8);
	if (rv_core_up)
		(void)irqkit_thread_bind(th->hart);	/* traps taken while it runs are this hart's */
	th->fn(th->arg);
	/* off the task list before join may free it: no signal or listing finds it */
	irqkit__core_task_exit(&th->task);
	f = rv_irq_save();
	(void)f;
	th->state = RV_EXITING;
	rv_schedule();
	irqkit_plat_fatal("an ended thread ran again");
}

int irqkit_plat_thread_create(struct irqkit_plat_thread **out, const char *name,
			      void (*fn)(void *), void *arg)
{
	struct irqkit_plat_thread *th = irqkit_plat_alloc(sizeof(*th));
	unsigned long f;

	if (!th)
		return -12;	/* -ENOMEM */
	th->stack_size = RV_STACK_SIZE;
	th->stack = irqkit_plat_alloc(th->stack_size);
	if (!th->stack) {
		irqkit_plat_free(th, sizeof(*th));
		return -12;
	}
	guard_set(th);
	rv_strscpy(th->name, name, sizeof(th->name));
	th->fn = fn;
	th->arg = arg;
	th->tid = __atomic_fetch_add(&next_tid, 1, __ATOMIC_RELAXED);
	th->ctx.ra = (unsigned long)rv_thread_start;
	th->ctx.sp = ((unsigned long)th->stack + th->stack_size) & ~15ul;
	th->ctx.s[0] = (unsigned long)th;
	f = rv_irq_save();
	th->hart = rv_hartid();
	th->state = RV_BLOCKED;
	rv_lock(&all_lock);
	th->all_next = rv_all_threads;
	rv_all_threads = th;
	rv_unlock(&all_lock);
	rv_irq_restore(f);
	rv_make_runnable(th);
	*out = th;
	return 0;
}

void irqkit_plat_thread_join(struct irqkit_plat_thread *th)
{
	unsigned long f;

	while (!__atomic_load_n(&th->dead, __ATOMIC_ACQUIRE))
		irqkit_plat_wait(&th->dead, 0);
	f = rv_irq_save();
	rv_lock(&all_lock);
	for (struct irqkit_plat_thread **pp = &rv_all_threads; *pp; pp = &(*pp)->all_next)
		if (*pp == th) {
			*pp = th->all_next;
			break;
		}
	rv_unlock(&all_lock);
	rv_irq_restore(f);
	irqkit_plat_free(th->stack, th->stack_size);
	irqkit_plat_free(th, sizeof(*th));
}

int irqkit_plat_thread_join_timeout(struct irqkit_plat_thread *th, uint64_t ns)
{
	uint64_t end = irqkit_plat_now_ns() + ns;

	while (!__atomic_load_n(&th->dead, __ATOMIC_ACQUIRE)) {
		uint64_t now = irqkit_plat_now_ns();

		if (now >= end)
			return -110;	/* -ETIMEDOUT */
		irqkit_plat_wait_timeout(&th->dead, 0, end - now);
	}
	irqkit_plat_thread_join(th);
	return 0;
}

/*
 * How many live threads have a name that starts with @prefix and does not
 * hold @without (NULL: no such test): what a host reads in
 * /proc/self/task/N/comm, for tests.  The swappers are not on the list.
 */
unsigned int rv_threads_named(const char *prefix, const char *without);
unsigned int rv_threads_named(const char *prefix, const char *without)
{
	unsigned long f = rv_irq_save();
	unsigned int n = 0;

	rv_lock(&all_lock);
	for (struct irqkit_plat_thread *a = rv_all_threads; a; a = a->all_next)
		n += !__atomic_load_n(&a->dead, __ATOMIC_ACQUIRE) &&
		     !strncmp(a->name, prefix, strlen(prefix)) &&
		     !(without && strstr(a->name, without));
	rv_unlock(&all_lock);
	rv_irq_restore(f);
	return n;
}

/* The watchdog's reports about another thread: its name from its pid. */
void irqkit_plat_thread_name_of(int tid, char *buf, size_t len)
{
	const char *n = tid == 0 ? "swapper" : "";
	unsigned long f = rv_irq_save();

	rv_lock(&all_lock);
	for (struct irqkit_plat_thread *a = rv_all_threads; a && tid; a = a->all_next)
		if (a->tid == tid) {
			n = a->name;
			break;
		}
	rv_strscpy(buf, n, len);
	rv_unlock(&all_lock);
	rv_irq_restore(f);
}

int irqkit_plat_thread_id(void)
{
	return rv_self()->tid;
}

void irqkit_plat_thread_name(char *buf, size_t len)
{
	rv_strscpy(buf, rv_self()->name, len);
}

/* A long spin: let the hart's other threads run, when the caller may give it up. */
void irqkit_plat_yield(void)
{
	struct irqkit_task *t = irqkit_arch_current();
	unsigned long f;

	if (irqkit_rv_trap_depth[rv_hartid()] || t->preempt_count ||
	    (t->irqflags & IRQKIT_TASK_IRQS_OFF)) {
		irqkit_arch_cpu_relax();
		return;
	}
	f = rv_irq_save();
	rv_self()->state = RV_RUNNING;
	rv_schedule();
	rv_irq_restore(f);
}

/* Threads here do not preempt each other: the others of this hart run first. */
void irqkit_plat_cond_resched(void)
{
	irqkit_plat_yield();
}

/*
 * The task was bound to CPU t->cpu_id: a hart is a CPU, so a thread on
 * another hart leaves this one and resumes there.
 */
void irqkit_arch_task_bound(struct irqkit_task *t)
{
	struct irqkit_plat_thread *th = (struct irqkit_plat_thread *)t;
	unsigned long f;

	if (!(t->irqflags & IRQKIT_TASK_BOUND) || (unsigned int)t->cpu_id == th->hart ||
	    th == &rv_harts[th->hart].idle || (unsigned int)t->cpu_id >= rv_nr_harts)
		return;
	f = rv_irq_save();
	th->hart = (unsigned int)t->cpu_id;
	th->state = RV_MIGRATING;
	rv_schedule();
	rv_irq_restore(f);
}

/* ---- waits ------------------------------------------------------------------------ */

struct rv_waiter {
	unsigned int		*addr;
	struct irqkit_plat_thread *th;
	struct rv_waiter	*next, **pprev;	/* in its bucket, while queued */
	struct rv_waiter	*tnext;		/* in its hart's timed list */
	uint64_t		deadline;	/* ticks */
	bool			queued, timed;
};

#define NR_BUCKETS	64
static struct bucket {
	rv_lock_t		lock;
	struct rv_waiter	*head;
} buckets[NR_BUCKETS];

static struct bucket *bucket_of(const unsigned int *addr)
{
	return &buckets[((uintptr_t)addr >> 2) % NR_BUCKETS];
}

static void bucket_del(struct rv_waiter *w)
{
	*w->pprev = w->next;
	if (w->next)
		w->next->pprev = w->pprev;
	w->queued = false;
}

/* Off its bucket if a wake has not taken it off already (a timeout, the waiter's return). */
static void bucket_unqueue(struct rv_waiter *w)
{
	struct bucket *b;

	if (!w->queued)
		return;
	b = bucket_of(w->addr);
	rv_lock(&b->lock);
	if (w->queued)
		bucket_del(w);
	rv_unlock(&b->lock);
}

/* Recompute the hart's earliest timed wait and program its timer. */
static void timed_recompute(struct rv_hart *h)
{
	uint64_t d = UINT64_MAX;

	for (struct rv_waiter *w = h->timed; w; w = w->tnext)
		if (w->deadline < d)
			d = w->deadline;
	h->sleep_deadline = d;
}

static void timed_del(struct rv_hart *h, struct rv_waiter *w)
{
	for (struct rv_waiter **pp = &h->timed; *pp; pp = &(*pp)->tnext)
		if (*pp == w) {
			*pp = w->tnext;
			break;
		}
	w->timed = false;
}

static void wait_common(unsigned int *addr, unsigned int val, uint64_t ns, bool timed)
{
	struct irqkit_plat_thread *self = rv_self();
	struct bucket *b = bucket_of(addr);
	struct rv_waiter w = { .addr = addr, .th = self };
	unsigned long f = rv_irq_save();
	unsigned int hart = rv_hartid();
	struct rv_hart *h = &rv_harts[hart];

	if (irqkit_rv_trap_depth[hart])
		irqkit_plat_fatal("a wait inside a trap");
	rv_lock(&b->lock);
	if (__atomic_load_n(addr, __ATOMIC_SEQ_CST) != val) {
		rv_unlock(&b->lock);
		rv_irq_restore(f);
		return;
	}
	w.next = b->head;
	w.pprev = &b->head;
	if (b->head)
		b->head->pprev = &w.next;
	b->head = &w;
	w.queued = true;
	rv_lock(&h->rq_lock);
	self->state = RV_BLOCKED;
	rv_unlock(&h->rq_lock);
	rv_unlock(&b->lock);
	if (timed) {
		w.deadline = rv_ticks() + rv_ns_to_ticks(ns ? ns : 1);
		w.tnext = h->timed;
		h->timed = &w;
		w.timed = true;
		timed_recompute(h);
		rv_timer_update(hart);
	}
	rv_schedule();
	/* a thread waits on the hart it blocked on: its timed list is this one */
	if (w.timed) {
		timed_del(h, &w);
		timed_recompute(h);
		rv_timer_update(hart);
	}
	bucket_unqueue(&w);
	rv_irq_restore(f);
}

void irqkit_plat_wait(unsigned int *addr, unsigned int val)
{
	wait_common(addr, val, 0, false);
}

void irqkit_plat_wait_timeout(unsigned int *addr, unsigned int val, uint64_t ns)
{
	wait_common(addr, val, ns, true);
}

void irqkit_plat_wake(unsigned int *addr)
{
	struct bucket *b = bucket_of(addr);
	unsigned long f = rv_irq_save();
	struct rv_waiter *w, *next;

	rv_lock(&b->lock);
	for (w = b->head; w; w = next) {
		next = w->next;
		if (w->addr != addr)
			continue;
		bucket_del(w);
		rv_make_runnable(w->th);
	}
	rv_unlock(&b->lock);
	rv_irq_restore(f);
}

/* No priority inheritance on the harts: the core waits on the word itself. */
bool irqkit_plat_pi_lock(unsigned int *word)
{
	(void)word;
	return false;
}

bool irqkit_plat_pi_unlock(unsigned int *word)
{
	(void)word;
	return false;
}

void irqkit_plat_sleep_ns(uint64_t ns)
{
	unsigned int never = 0;
	uint64_t end = irqkit_plat_now_ns() + ns;

	for (;;) {
		uint64_t now = irqkit_plat_now_ns();

		if (now >= end)
			return;
		wait_common(&never, 0, end - now, true);
	}
}

/* The hart's timer fired: wake its timed waits that are due.  Interrupts off. */
void rv_timer_expired(unsigned int hart)
{
	struct rv_hart *h = &rv_harts[hart];
	uint64_t now = rv_ticks();

	for (struct rv_waiter **pp = &h->timed; *pp;) {
		struct rv_waiter *w = *pp;

		if (w->deadline > now) {
			pp = &w->tnext;
			continue;
		}
		*pp = w->tnext;
		w->timed = false;
		bucket_unqueue(w);
		rv_make_runnable(w->th);
	}
	timed_recompute(h);
}
