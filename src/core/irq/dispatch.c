// SPDX-License-Identifier: MIT
/*
 * Virtual CPUs: who holds a CPU (core.h, cpu->slot), the per-CPU pending
 * set of signalled lines, and delivery: hardirq batches, then the softirqs
 * that irq_exit runs, on the CPU's dispatcher or on a bound thread.
 *
 * Lost-wakeup rules (guarantee 6).  A signaller sets the line's pending bit
 * with a full barrier, then wakes the dispatcher if it sleeps.  Every holder
 * lets the CPU go with a full barrier and then re-reads the pending set, so
 * it or the signaller sees the other.  The dispatcher never sleeps while work
 * is pending that nobody keeps out.
 */
#include "handle.h"
#include "bh/bh.h"
#include "time/time.h"
#include "sched/sched.h"
#include "debug/debug.h"

static inline unsigned int ctz64(uint64_t w)
{
	return (unsigned int)__builtin_ctzll(w);
}

int irqkit__cpus_init(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	unsigned int n0 = (rt->nr_irqs + 63) / 64;
	unsigned int n1 = (n0 + 63) / 64;

	rt->pend0_words = n0;
	rt->pend1_words = n1;
	rt->cpus = irqkit_plat_alloc(sizeof(*rt->cpus) * rt->nr_cpus);
	if (!rt->cpus)
		return -IRQKIT_ENOMEM;
	for (unsigned int i = 0; i < rt->nr_cpus; i++) {
		struct irqkit_cpu *c = &rt->cpus[i];

		c->id = i;
		c->pend0 = irqkit_plat_alloc(sizeof(uint64_t) * n0);
		c->pend1 = irqkit_plat_alloc(sizeof(uint64_t) * n1);
		c->kstat = irqkit_plat_alloc(sizeof(unsigned int) * rt->nr_irqs);
		if (!c->pend0 || !c->pend1 || !c->kstat) {
			irqkit__cpus_exit();
			return -IRQKIT_ENOMEM;
		}
	}
	return 0;
}

void irqkit__cpus_exit(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	if (!rt->cpus)
		return;
	for (unsigned int i = 0; i < rt->nr_cpus; i++) {
		struct irqkit_cpu *c = &rt->cpus[i];

		if (c->pend0)
			irqkit_plat_free(c->pend0, sizeof(uint64_t) * rt->pend0_words);
		if (c->pend1)
			irqkit_plat_free(c->pend1, sizeof(uint64_t) * rt->pend1_words);
		if (c->kstat)
			irqkit_plat_free(c->kstat, sizeof(unsigned int) * rt->nr_irqs);
	}
	irqkit_plat_free(rt->cpus, sizeof(*rt->cpus) * rt->nr_cpus);
	rt->cpus = NULL;
}

/* irqkit__this_cpu for a thread that plays no CPU of this run (core.h has the fast path). */
struct irqkit_cpu *irqkit__this_cpu_slow(struct irqkit_task *t)
{
	struct irqkit_cpu *cpus = READ_ONCE(irqkit__rt.cpus);

	task_stale(t);
	if (!cpus || (unsigned int)t->cpu_id >= READ_ONCE(irqkit__rt.nr_cpus))
		return cpus;
	return &cpus[t->cpu_id];
}

void irqkit__task_drop_stale(struct irqkit_task *t)
{
	t->cpu = NULL;
	t->cpu_id = 0;
	t->slot = TASK_SLOT_NONE;
	t->irqflags &= ~IRQKIT_TASK_BOUND;
	t->nodeliver = false;
}

/* Wake the CPU's dispatcher if it sleeps (there is none in deterministic mode). */
void irqkit__cpu_kick(struct irqkit_cpu *c)
{
	if (a_load_seq(&c->idle)) {
		a_fetch_add(&c->kick_seq, 1);
		irqkit_arch_cpu_wake(c->id, &c->kick_seq);
	}
}

/*
 * Wait until cpu->slot changes from @seen: spin a little, then sleep on the
 * word.  The caller re-reads it and tries again.
 */
void irqkit__slot_wait(struct irqkit_cpu *c, unsigned int seen, unsigned int *spins)
{
	if (++*spins < 64) {
		irqkit_arch_cpu_relax();
		return;
	}
	a_fetch_add(&c->slot_waiters, 1);
	/* a hardirq holder may let go with a plain store: see irqkit__cpu_release_hardirq */
	if (irqkit__rt.barrier_heavy)
		irqkit_plat_barrier_heavy();
	if (a_load_seq(&c->slot) == seen)
		irqkit_plat_wait(&c->slot, seen);
	a_fetch_sub(&c->slot_waiters, 1);
}

/*
 * Take the CPU for hardirq handling.  Caller: plays @c with interrupts on.
 * A CPU runs one context at a time: while another thread runs @c's softirqs,
 * a hardirq waits for that thread's next delivery point (between vectors,
 * tasklets and timer callbacks, or its local_irq_restore), where the softirq
 * holder takes it itself, as a CPU is interrupted in the middle of its
 * softirq processing.
 */
static __always_inline bool cpu_claim_hardirq(struct irqkit_task *t, struct irqkit_cpu *c)
{
	unsigned int s = READ_ONCE(c->slot);
	/*
	 * Where the flag is the CPU's own (bare metal), it is off before the
	 * hold is taken and back on only once it is let go (cpu_release_hardirq),
	 * so no trap finds the hold half taken.  Posix: nothing.
	 */
	unsigned long f = irqkit_arch_hold_begin();

	/* the common case first: nobody holds the CPU in any way */
	if (unlikely(s || !a_cas(&c->slot, &s, SLOT_HARDIRQ))) {
		unsigned int busy = SLOT_HARDIRQ | SLOT_IRQOFF_MASK;

		if (!(t->slot & TASK_SLOT_SOFTIRQ))
			busy |= SLOT_SOFTIRQ;
		do {
			if (s & busy) {
				irqkit_arch_hold_end(f);
				return false;
			}
		} while (!a_cas(&c->slot, &s, s | SLOT_HARDIRQ));
	}
	cpu_note_hold(c, HOLD_HARDIRQ, t);
	t->slot |= TASK_SLOT_HARDIRQ;
	task_set_irqs_off(t, true);
	irqkit__irq_enter(t);
	return true;
}

bool irqkit__cpu_claim_hardirq(struct irqkit_task *t, struct irqkit_cpu *c)
{
	return cpu_claim_hardirq(t, c);
}

/*
 * Let go of the hardirq hold; then the caller re-reads the pending set.
 * While the word reads HARDIRQ alone nobody else writes it (there is no
 * other holder to leave, and none can join), so a store lets go.  The
 * release then looks at slot_waiters; a thread about to sleep on the word
 * counts itself there and looks at the word.  Store then look, on both
 * sides, needs a full barrier between: here it is only the compiler's, and
 * the waiter's irqkit_plat_barrier_heavy() (membarrier) stands for it, so
 * the common case pays no atomic.  On a platform without it, and when the
 * word holds more (a bh-off holder, this thread's softirq hold), the release
 * is a read-modify-write with a full barrier.  The re-read of the pending
 * set needs no barrier: a raise while the CPU is held for hardirq wakes its
 * dispatcher (pend_and_kick).
 */
static __always_inline void cpu_release_hardirq(struct irqkit_task *t, struct irqkit_cpu *c)
{
	unsigned int s = SLOT_HARDIRQ;

	irqkit__irq_exit(t);
	task_set_irqs_flag(t, false);
	t->slot &= ~TASK_SLOT_HARDIRQ;
	if (likely(READ_ONCE(c->slot) == SLOT_HARDIRQ && irqkit__rt.barrier_heavy)) {
		a_store_release(&c->slot, 0);
		a_fence_light();
	} else if (!a_cas(&c->slot, &s, 0)) {
		a_fetch_and(&c->slot, ~SLOT_HARDIRQ);
	}
	irqkit_arch_irq_flag_sync(t, false);	/* the CPU's own flag: once let go */
	irqkit__slot_wake(c);
}

void irqkit__cpu_release_hardirq(struct irqkit_task *t, struct irqkit_cpu *c)
{
	cpu_release_hardirq(t, c);
}

/* PREEMPT_RT's invoke_softirq: the hold goes, and what is pending is ksoftirqd's */
static __attribute__((noinline)) void irq_exit_rt(struct irqkit_task *t, struct irqkit_cpu *c)
{
	irqkit__cpu_release_hardirq(t, c);
	irqkit__wakeup_softirqd(c);
}

/*
 * irq_exit with softirqs pending: turn the hardirq hold into the softirq hold
 * and run them, unless the thread is inside a bottom-half-off section or
 * another thread holds the CPU in any way (then they run later: at that
 * thread's local_bh_enable, in its softirq loop, or in ksoftirqd).  On
 * PREEMPT_RT they are ksoftirqd's (irq_exit_rt).
 */
static void irq_exit_and_release(struct irqkit_task *t, struct irqkit_cpu *c)
{
	if (irqkit__softirq_pending(c)) {
		if (irqkit__softirqs_threaded()) {
			irq_exit_rt(t, c);
			return;
		}
		if (!(t->preempt_count & IRQKIT_SOFTIRQ_MASK) && !(t->slot & TASK_SLOT_SOFTIRQ) &&
		    irqkit__claim_softirq(t, c, SLOT_HARDIRQ)) {
			irqkit__irq_exit(t);
			task_set_irqs_flag(t, false);
			t->slot &= ~TASK_SLOT_HARDIRQ;
			irqkit_arch_irq_flag_sync(t, false);
			irqkit__handle_softirqs(t, c);
			irqkit__release_softirq(t, c);
			return;
		}
	}
	irqkit__cpu_release_hardirq(t, c);
}


/* One signalled line: the chip may drop it (claim), else its flow handler runs. */
static void handle_signalled(struct irqkit_cpu *c, unsigned int irq)
{
	struct irqkit_desc *desc = &irqkit__rt.descs[irq];
	struct irqkit_irq_data *d = &desc->irq_data;
	struct irqkit_chip *chip = READ_ONCE(d->chip);

	/*
	 * A claim takes the arrival from the chip before the flow marks the line
	 * in progress: say meanwhile that it is being taken, before the claim
	 * (irqkit_wait_delivered() looks at the chip, then here).
	 */
	WRITE_ONCE(c->taking, irq + 1);
	if (unlikely(istate_get(desc) & IRQS_FAULT))
		irqkit__fault_signalled(c, desc);	/* it claims, or counts a held arrival's point */
	else if (!chip->irq_claim || chip->irq_claim(d))
		READ_ONCE(desc->handle_irq)(desc);
	a_store_release(&c->taking, 0);
}

/*
 * Take everything pending on the CPU, top level first, and run it in line
 * order.  Lines signalled meanwhile set their bits again and are found by the
 * next batch.  Caller holds the CPU for hardirq.
 */
static void deliver_batch(struct irqkit_cpu *c)
{
	uint64_t w2 = a_xchg(&c->pend2, 0);

	assert_hardirq_holder(c);
	/* the CPU's own vectors first: x86 gives the local APIC's the highest priority */
	if (unlikely(w2 & PEND2_SYSVEC)) {
		unsigned int v = a_xchg(&c->sysvec, 0);

		w2 &= ~PEND2_SYSVEC;
		if (v & (1u << SYSVEC_LOC)) {
			WRITE_ONCE(c->sysvec_count[SYSVEC_LOC], c->sysvec_count[SYSVEC_LOC] + 1);
			irqkit__hrtimer_interrupt(c);
		}
		if (v & (1u << SYSVEC_IWI)) {
			WRITE_ONCE(c->sysvec_count[SYSVEC_IWI], c->sysvec_count[SYSVEC_IWI] + 1);
			irqkit__irq_work_run(c);
		}
		if (v & (1u << SYSVEC_CAL)) {
			WRITE_ONCE(c->sysvec_count[SYSVEC_CAL], c->sysvec_count[SYSVEC_CAL] + 1);
			irqkit__smp_call_run(c);
		}
	}
	while (w2) {
		unsigned int i = ctz64(w2);
		uint64_t w1;

		w2 &= w2 - 1;
		w1 = a_xchg(&c->pend1[i], 0);
		while (w1) {
			unsigned int wi = i * 64 + ctz64(w1);
			uint64_t w0;

			w1 &= w1 - 1;
			/*
			 * Its lines are out of the bitmap before each is marked
			 * taking: say meanwhile that the word is in hand
			 * (irqkit_wait_delivered() reads the word, then this).
			 */
			a_store_release(&c->taking_word, wi + 1);
			w0 = a_xchg(&c->pend0[wi], 0);
			while (w0) {
				handle_signalled(c, wi * 64 + ctz64(w0));
				w0 &= w0 - 1;
			}
			a_store_release(&c->taking_word, 0);
		}
	}
}

/*
 * irqkit__cpu_deliver - run @c's pending hardirqs, then its softirqs once, on
 * the calling thread, which plays @c with interrupts on: a delivery point.
 *
 * A thread that holds the CPU for softirq (a softirq action turning its
 * interrupts back on) or sits in a bh-off section takes hardirqs only.
 * Softirqs run one round (handle_softirqs, with its restart limit): what is
 * left then belongs to ksoftirqd, as after Linux's irq_exit.  Returns early
 * when another thread holds the CPU in a way that keeps this work out (that
 * thread delivers when it lets go).
 */
void irqkit__cpu_deliver(struct irqkit_task *t, struct irqkit_cpu *c)
{
	if (hardirq_pending(c))
		irqkit__cpu_deliver_hardirqs(t, c);
	/*
	 * Softirqs left pending with no hardirq to end in irq_exit are
	 * ksoftirqd's on Linux, which cannot run while this CPU has preemption
	 * off (a spin lock held): they wait for a point outside it.
	 */
	if (irqkit__softirq_pending(c) && !(t->slot & TASK_SLOT_SOFTIRQ) &&
	    !(t->preempt_count & (IRQKIT_SOFTIRQ_MASK | IRQKIT_PREEMPT_MASK)) &&
	    !irqkit__softirqs_threaded() && irqkit__claim_softirq(t, c, 0))
		irqkit__run_softirqs_held(t, c);
}

/*
 * Hardirqs only (each batch's irq_exit may still run softirqs):
 * local_irq_enable's delivery.  A level line that never deasserts would
 * keep the caller here for ever, so: once irqkit_stop() has begun (the
 * dispatcher that stop waits for), one batch per delivery point, the lines
 * pending when it begins; for the thread that holds the CPU for softirqs
 * (its points before and between vectors, tasklets and timer callbacks)
 * up to SOFTIRQ_POINT_BATCHES, then it goes on with them.  Linux's CPU
 * takes every interrupt that comes while its softirqs run with interrupts
 * on, a level line refiring a few times included, before the next
 * instruction of the softirq: the bound only keeps a line stuck for good
 * from stopping the softirqs (Linux's CPU would not get out).  Lines
 * signalled after the last batch wait for the next point.
 */
#define SOFTIRQ_POINT_BATCHES	100

void irqkit__cpu_deliver_hardirqs(struct irqkit_task *t, struct irqkit_cpu *c)
{
	unsigned int batches = 0;

	while (hardirq_pending(c)) {
		if (!irqkit__cpu_claim_hardirq(t, c))
			break;
		/* a CPU going offline: its ksoftirqd leaves the pending set to the hotplug (cpu.c) */
		if (unlikely(a_load_seq(&c->offline)) && t->kthread) {
			irqkit__cpu_release_hardirq(t, c);
			break;
		}
		deliver_batch(c);
		irq_exit_and_release(t, c);
		if (unlikely(READ_ONCE(irqkit__rt.stopping) ||
			     ((t->slot & TASK_SLOT_SOFTIRQ) && ++batches == SOFTIRQ_POINT_BATCHES)))
			break;
	}
	/* arrivals a fault holds back wait for the next delivery point, not this one */
	if (unlikely(READ_ONCE(c->fault_nheld)))
		irqkit__fault_rearm(c);
}

/*
 * The trap entry (arch.h): the caller plays a CPU with interrupts on, outside
 * hardirq context; the hardirq hold makes it that CPU's interrupt context, as
 * a trap does, for @root and the flows it runs.
 */
int irqkit__core_handle_arch_irq(void (*root)(void *arg), void *arg)
{
	struct irqkit_task *t = irqkit_arch_current();
	struct irqkit_cpu *c;

	if (task_stale(t) || !t->cpu)
		return -IRQKIT_EINVAL;
	c = t->cpu;
	if (task_irqs_off(t) || (t->preempt_count & IRQKIT_HARDIRQ_MASK) ||
	    !irqkit__cpu_claim_hardirq(t, c))
		return -IRQKIT_EBUSY;
	root(arg);
	/* what was signalled to the CPU (the IPI's reason) runs in this same interrupt */
	if (hardirq_pending(c))
		deliver_batch(c);
	irq_exit_and_release(t, c);
	if (irqkit__cpu_pending(c) && !t->nodeliver)
		irqkit__cpu_deliver(t, c);
	else if (unlikely(READ_ONCE(c->fault_nheld)))
		irqkit__fault_rearm(c);	/* the trap was a point: what a fault holds waits for the next */
	return 0;
}

/*
 * May the calling thread take @cpu's interrupts now?  It must play that CPU
 * with interrupts on, outside hardirq context, and be a delivery point: in
 * deterministic mode the kworkers and irq threads are not (interrupts come
 * only where the test chooses).  A thread that holds its CPU for hardirq is
 * in hardirq context (the claim enters it, the release leaves it first), so
 * the hardirq count says both.
 */
bool irqkit__may_deliver_here(const struct irqkit_task *t, unsigned int cpu)
{
	IRQKIT_ASSERT(!(t->slot & TASK_SLOT_HARDIRQ) || (t->preempt_count & IRQKIT_HARDIRQ_MASK));
	return t->cpu && (unsigned int)t->cpu_id == cpu && !task_irqs_off(t) && !t->nodeliver &&
	       t->run == READ_ONCE(irqkit__run) && !(t->preempt_count & IRQKIT_HARDIRQ_MASK);
}

/* After marking something pending on @c: wake the CPU if it must look. */
static inline void kick_unless_held(struct irqkit_cpu *c)
{
	/*
	 * A CPU with interrupts off delivers when its last interrupts-off holder
	 * lets go: the holder releases with a full barrier and then reads the
	 * bitmap (Dekker with the caller's fetch_or), and no hardirq holder can
	 * coexist with it.  So no wake-up: an interrupt raised while a CPU has
	 * interrupts off just waits in the controller.  The same holds while a
	 * thread runs the CPU's softirqs: it takes hardirqs at its delivery
	 * points and, after letting go (a full barrier), re-reads the bitmap.  A hardirq holder's
	 * re-read is cheaper, so that case still wakes the dispatcher.
	 */
	if (a_load_seq(&c->slot) & (SLOT_IRQOFF_MASK | SLOT_SOFTIRQ))
		return;
	irqkit__cpu_kick(c);
}

/* Mark @irq pending on @c (top level last), then wake the CPU if it must look. */
static inline void pend_and_kick(struct irqkit_cpu *c, unsigned int irq)
{
	unsigned int w0 = irq / 64;

	if (!(a_fetch_or(&c->pend0[w0], 1ull << (irq % 64)) & (1ull << (irq % 64)))) {
		a_fetch_or(&c->pend1[w0 / 64], 1ull << (w0 % 64));
		a_fetch_or(&c->pend2, 1ull << (w0 / 64));
	}
	kick_unless_held(c);
}

/* The same for a system vector: its bit, then pend2's. */
void irqkit__cpu_sysvec(struct irqkit_cpu *c, unsigned int vec)
{
	a_fetch_or(&c->sysvec, 1u << vec);
	a_fetch_or(&c->pend2, PEND2_SYSVEC);
	kick_unless_held(c);
}

void irqkit__cpu_repend(struct irqkit_cpu *c, unsigned int irq)
{
	pend_and_kick(c, irq);
}

void irqkit_cpu_signal(unsigned int cpu, unsigned int irq)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	struct irqkit_cpu *c;

	if (unlikely(irq >= rt->nr_irqs || cpu >= rt->nr_cpus)) {
		/* a stray vector: x86 counts it in ERR and says so */
		a_fetch_add(&rt->irq_err_count, 1);
		if (irqkit__core_printk_ratelimit())
			irqkit_printk(IRQKIT_LOG_CRIT, "unexpected IRQ trap at vector %02x", irq);
		return;
	}
	if (unlikely(irqkit__observing()))
		irqkit__obs_raise(irq);
	c = &rt->cpus[cpu];
	pend_and_kick(c, irq);
}


/*
 * Take @irq on @cpu now, on the calling thread, if it plays that CPU and the
 * CPU is free.  @claim: ask the chip first whether the line still requests.
 * @rest: then deliver what else became pending (and run softirqs).
 * @chip_direct: a chip's direct path (irqkit__core_cpu_handle_now): @irq is a
 * line of that chip, so a line of the runtime, and the chip latched nothing
 * of this arrival, so the edge flow does not acknowledge it.
 * Return: 0 if not taken; else 1, or for @chip_direct 2 when something is
 * pending on the CPU after it (irqkit__core_cpu_handle_now's answer).
 */
static __always_inline int cpu_run_now(unsigned int cpu, unsigned int irq, bool claim, bool rest,
					const bool chip_direct)
{
	struct irqkit_task *t = irqkit_arch_current();
	struct irqkit_desc *desc;
	struct irqkit_cpu *c;

	if ((!chip_direct && unlikely(irq >= READ_ONCE(irqkit__rt.nr_irqs))) ||
	    !irqkit__may_deliver_here(t, cpu))
		return 0;
	desc = &irqkit__rt.descs[irq];
	/* faults are decided where the chip is asked (handle_signalled): not without a claim */
	if (!claim && unlikely(istate_get(desc) & IRQS_FAULT))
		return 0;
	c = t->cpu;
	if (!cpu_claim_hardirq(t, c))
		return 0;
	if (chip_direct)
		t->direct_irq = irq + 1;	/* no nesting: hardirq context takes nothing directly */
	/* an arrival, taken here (or, below, posted to its CPU): once per arrival */
	if (unlikely(irqkit__observing())) {
		irqkit__obs_raise(irq);
		if (claim)
			handle_signalled(c, irq);
		else
			READ_ONCE(desc->handle_irq)(desc);
	} else if (claim) {
		handle_signalled(c, irq);
	} else {
		irqkit_flow_fn flow = READ_ONCE(desc->handle_irq);

		/* the common flow in this frame: the edge flow's own text, inline */
		if (likely(flow == irqkit_handle_edge_irq))
			handle_edge_irq_as(desc, (struct flow_known){ .cpu = c, .irq = irq,
								     .unlatched = chip_direct,
								     .unwatched = true });
		else
			flow(desc);
	}
	if (chip_direct)
		t->direct_irq = 0;
	if (rest) {
		irq_exit_and_release(t, c);
		if (unlikely(irqkit__cpu_pending(c)))
			irqkit__cpu_deliver(t, c);
	} else {
		cpu_release_hardirq(t, c);
	}
	/* an arrival held back here (only a claim decides faults) waits for the next point */
	if (claim && unlikely(READ_ONCE(c->fault_nheld)))
		irqkit__fault_rearm(c);
	if (chip_direct && unlikely(irqkit__cpu_pending(c)))
		return 2;
	return 1;
}

void irqkit_cpu_raise(unsigned int cpu, unsigned int irq)
{
	if (!cpu_run_now(cpu, irq, true, true, false))
		irqkit_cpu_signal(cpu, irq);
}

bool irqkit_cpu_handle_now(unsigned int cpu, unsigned int irq)
{
	return cpu_run_now(cpu, irq, false, false, false) != 0;
}

int irqkit__core_cpu_handle_now(unsigned int irq, unsigned int cpu,
				int (*not_taken)(unsigned int irq))
{
	int taken = cpu_run_now(cpu, irq, false, false, true);

	if (likely(taken == 1))
		return 0;
	if (!taken)
		return not_taken(irq);
	irqkit_deliver_pending();
	return 0;
}

void irqkit_deliver_pending(void)
{
	struct irqkit_task *t = irqkit_arch_current();

	if (irqkit__rt.cpus && !task_stale(t) && t->cpu)
		irqkit__deliver_pending_slow(t);
}

/* irqkit_deliver_pending for a thread known to play its CPU in this run. */
void irqkit__deliver_pending_slow(struct irqkit_task *t)
{
	if (irqkit__may_deliver_here(t, (unsigned int)t->cpu_id) && irqkit__cpu_pending(t->cpu))
		irqkit__cpu_deliver(t, t->cpu);
}

/* Bound or not, a thread may change its CPU only outside interrupt and off sections. */
static int task_may_move(struct irqkit_task *t)
{
	task_stale(t);
	if (task_irqs_off(t) || t->slot != TASK_SLOT_NONE ||
	    (t->preempt_count & (IRQKIT_HARDIRQ_MASK | IRQKIT_SOFTIRQ_MASK)))
		return -IRQKIT_EBUSY;
	return 0;
}

int irqkit_thread_bind(unsigned int cpu)
{
	struct irqkit_task *t = irqkit_arch_current();

	if (!irqkit__rt.cpus || cpu >= irqkit__rt.nr_cpus)
		return -IRQKIT_EINVAL;
	if (task_may_move(t))
		return -IRQKIT_EBUSY;
	t->cpu = &irqkit__rt.cpus[cpu];
	t->cpu_id = (int)cpu;
	t->run = READ_ONCE(irqkit__run);
	WRITE_ONCE(t->tid, irqkit_plat_thread_id());
	t->irqflags |= IRQKIT_TASK_BOUND;
	irqkit_arch_task_bound(t);
	irqkit__point_switch("bind", __builtin_return_address(0));
	return 0;
}

/*
 * Deterministic mode: a kworker or irq thread acts for @cpu (per-CPU queues,
 * smp_processor_id()) without holding it: its interrupt flag and bottom-half
 * sections are recorded and exclude nothing, and it never takes the CPU's
 * interrupts, so they come only at the points the test chooses.  Data it
 * shares with a handler is still guarded by the spinlock.
 */
static int thread_act_for(struct irqkit_task *t, unsigned int cpu)
{
	if (cpu >= irqkit__rt.nr_cpus || task_may_move(t))
		return -IRQKIT_EINVAL;
	t->cpu = NULL;
	t->cpu_id = (int)cpu;
	t->irqflags &= ~IRQKIT_TASK_BOUND;
	t->nodeliver = true;
	return 0;
}

/*
 * irqkit__kthread_bind - a thread of the runtime (ksoftirqd, kworker, irq
 * thread) takes its place: on @cpu (bound in threaded mode, acting for it in
 * deterministic mode), or unbound for a negative @cpu.
 * Context: that thread, process context.  Return: 0 or -EINVAL.
 */
int irqkit__kthread_bind(int cpu)
{
	struct irqkit_task *t = irqkit_arch_current();

	assert_process_context();
	t->kthread = true;
	WRITE_ONCE(t->tid, irqkit_plat_thread_id());
	if (cpu < 0)
		return 0;
	if (mode_player_delivers())
		return thread_act_for(t, (unsigned int)cpu);
	return irqkit_thread_bind((unsigned int)cpu);
}

int irqkit_thread_unbind(void)
{
	struct irqkit_task *t = irqkit_arch_current();

	if (task_may_move(t))
		return -IRQKIT_EBUSY;
	t->cpu = NULL;
	t->cpu_id = 0;
	t->irqflags &= ~IRQKIT_TASK_BOUND;
	return 0;
}

int irqkit_cpu_run(unsigned int cpu)
{
	struct irqkit_task *t = irqkit_arch_current();
	struct irqkit_cpu *saved;
	int saved_id;
	bool saved_nodeliver;

	if (!irqkit__rt.cpus || cpu >= irqkit__rt.nr_cpus)
		return -IRQKIT_EINVAL;
	if (task_may_move(t))
		return -IRQKIT_EBUSY;
	saved = t->cpu;
	saved_id = t->cpu_id;
	saved_nodeliver = t->nodeliver;
	t->cpu = &irqkit__rt.cpus[cpu];
	t->cpu_id = (int)cpu;
	t->run = READ_ONCE(irqkit__run);
	t->nodeliver = false;
	t->irqflags |= IRQKIT_TASK_BOUND;
	irqkit_arch_task_bound(t);
	irqkit__point_switch("bind", __builtin_return_address(0));
	irqkit__cpu_deliver(t, t->cpu);
	t->cpu = saved;
	t->cpu_id = saved_id;
	t->nodeliver = saved_nodeliver;
	if (!saved)
		t->irqflags &= ~IRQKIT_TASK_BOUND;
	else
		irqkit_arch_task_bound(t);
	return 0;
}

/*
 * Must the dispatcher stay awake?  Hardirqs are pending and could be taken
 * now (a hardirq may interrupt a bh-off section; a softirq only at its
 * holder's delivery points).  Any holder that keeps them out re-reads the
 * pending set when it lets go.  Softirqs
 * are not the dispatcher's: it runs them at irq_exit only; ksoftirqd runs
 * the rest.
 */
static bool dispatcher_must_run(const struct irqkit_cpu *c)
{
	unsigned int slot = a_load_seq(&c->slot);

	return hardirq_pending(c) && !(slot & (SLOT_HARDIRQ | SLOT_SOFTIRQ | SLOT_IRQOFF_MASK));
}

/* Ask CPU @cpu's dispatcher to end (it finishes the handler it runs). */
void irqkit__core_dispatcher_stop(unsigned int cpu)
{
	struct irqkit_cpu *c = &irqkit__rt.cpus[cpu];

	a_store_seq(&c->stop, 1);
	a_fetch_add(&c->kick_seq, 1);
	irqkit_arch_cpu_wake(cpu, &c->kick_seq);
}

void irqkit__core_dispatcher_external(unsigned int cpu)
{
	a_store_seq(&irqkit__rt.cpus[cpu].idle, 1);	/* a sleeper that never wakes by itself */
}

/* What CPU @cpu's hardirq holder runs now, or NULL. */
const void *irqkit__core_dispatcher_running_fn(unsigned int cpu)
{
	return cpu_hold_running_fn(&irqkit__rt.cpus[cpu], HOLD_HARDIRQ);
}

/*
 * The dispatcher of a virtual CPU (threaded mode): deliver, then sleep on the
 * CPU's eventcount until a signal kicks it or one of the platform's own
 * sources (file descriptors on posix) becomes ready; the platform delivers
 * those in irqkit_arch_cpu_poll(), with the CPU awake.
 */
void irqkit__core_dispatcher_loop(unsigned int cpu)
{
	struct irqkit_task *t = irqkit_arch_current();
	struct irqkit_cpu *c = &irqkit__rt.cpus[cpu];
	unsigned int spins = 0;
	bool self_timed;

	t->cpu = c;
	t->cpu_id = (int)cpu;
	t->run = READ_ONCE(irqkit__run);
	t->kthread = true;
	WRITE_ONCE(t->tid, irqkit_plat_thread_id());
	t->irqflags |= IRQKIT_TASK_BOUND;
	/*
	 * Does the port give the CPU a timer of its own (a wait with a deadline
	 * of 0 returns at once where it does)?  Then this thread times the
	 * CPU's hrtimers and the platform timer leaves them out.  Not in the
	 * simulator, whose timer thread keeps the virtual clock.
	 */
	self_timed = mode_timer_duty() &&
		     irqkit_arch_cpu_idle_until(cpu, &c->kick_seq, a_load_seq(&c->kick_seq), 0);
	if (self_timed) {
		a_store_seq(&c->hr_self, 1);
		irqkit__timers_reprogram();
	}
	for (;;) {
		unsigned int seq = a_load_seq(&c->kick_seq);

		if (READ_ONCE(c->stop))
			break;
		irqkit__cpu_deliver_hardirqs(t, c);
		if (dispatcher_must_run(c)) {
			/* lost a race for the CPU with a holder that is letting go */
			spin_step(&spins);
			continue;
		}
		spins = 0;
		a_store_seq(&c->idle, 1);
		if (READ_ONCE(c->stop) || dispatcher_must_run(c)) {
			a_store_seq(&c->idle, 0);
			continue;
		}
		if (self_timed) {
			/* the CPU's own timer: its idle wait ends at its earliest hrtimer */
			uint64_t deadline = irqkit__hrtimer_idle_deadline(c);

			if (deadline) {
				irqkit_arch_cpu_idle_until(cpu, &c->kick_seq, seq, deadline);
				(void)irqkit__hrtimer_idle_deadline(c);	/* tells what came due */
			}
		} else {
			irqkit_arch_cpu_idle(cpu, &c->kick_seq, seq);
		}
		a_store_seq(&c->idle, 0);
		irqkit__jiffies_touch();	/* a wake-up: the jiffies objects, for their readers */
		irqkit_arch_cpu_poll(cpu);
	}
	if (self_timed) {
		a_store_seq(&c->hr_self, 0);	/* what is left is the platform timer's again */
		irqkit__timers_reprogram();
	}
	irqkit__task_reset_run(t);
}
