// SPDX-License-Identifier: MIT
/*
 * Virtual CPUs: who holds a CPU, the per-CPU pending set of signalled lines,
 * and delivery of those lines on the CPU's dispatcher or on a bound thread.
 *
 * Holding a CPU (cpu->slot): one thread running hardirq handlers, or any number
 * of bound threads with interrupts off, never both (guarantees 2 and 3).
 *
 * Lost-wakeup rules (guarantee 6).  A signaller sets the line's pending bit
 * with a full barrier, then wakes the dispatcher if it sleeps.
 *  - An interrupts-off holder lets go with a full barrier (fetch_sub) and then
 *    reads the pending set: it or the signaller sees the other, and the last
 *    holder delivers what came meanwhile.
 *  - A hardirq holder lets go with a plain release store, the cheap path of
 *    every interrupt, and re-reads the pending set; that read may miss a bit
 *    set at the same moment.  So the dispatcher never sleeps while something
 *    is pending and the CPU is held for hardirq: it waits for the holder to
 *    let go and delivers itself (see irqkit__dispatcher_loop).
 */
#include "internals.h"

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

bool irqkit__cpu_pending(const struct irqkit_cpu *c)
{
	return a_load_seq(&c->pend2) != 0 || a_load_seq(&c->work) != 0;
}

/* The cheap re-read after a hardirq holder lets go (see the lost-wakeup rules). */
static inline bool cpu_pending_relaxed(const struct irqkit_cpu *c)
{
	return (READ_ONCE(c->pend2) | READ_ONCE(c->work)) != 0;
}

/* Wake the CPU's dispatcher if it sleeps (there is none in deterministic mode). */
void irqkit__cpu_kick(struct irqkit_cpu *c)
{
	if (a_load_seq(&c->idle)) {
		a_fetch_add(&c->kick_seq, 1);
		irqkit_plat_wake(&c->kick_seq);
	}
}

/* Take the CPU for hardirq handling.  Caller: bound to @c, interrupts on. */
bool irqkit__cpu_claim_hardirq(struct irqkit_task *t, struct irqkit_cpu *c)
{
	unsigned int free = 0;

	if (!a_cas(&c->slot, &free, SLOT_HARDIRQ))
		return false;
	t->slot = TASK_SLOT_HARDIRQ;
	task_set_irqs_off(t, true);
	irqkit__irq_enter(t);
	return true;
}

/* Let the CPU go; the caller then re-reads the pending set (lost-wakeup rules). */
void irqkit__cpu_release_hardirq(struct irqkit_task *t, struct irqkit_cpu *c)
{
	irqkit__irq_exit(t);
	task_set_irqs_off(t, false);
	t->slot = TASK_SLOT_NONE;
	a_store_release(&c->slot, 0);
}

/* One signalled line: the chip may drop it (claim), else its flow handler runs. */
static void handle_signalled(unsigned int irq)
{
	struct irqkit_desc *desc = &irqkit__rt.descs[irq];
	struct irqkit_irq_data *d = &desc->irq_data;
	struct irqkit_chip *chip = READ_ONCE(d->chip);

	if (chip->irq_claim && !chip->irq_claim(d))
		return;
	READ_ONCE(desc->handle_irq)(desc);
}

/*
 * Take everything pending on the CPU, top level first, and run it in line
 * order.  Lines signalled meanwhile set their bits again and are found by the
 * next batch.  Caller holds the CPU for hardirq.
 */
static void deliver_batch(struct irqkit_cpu *c)
{
	uint64_t w2 = a_xchg(&c->pend2, 0);

	while (w2) {
		unsigned int i = ctz64(w2);
		uint64_t w1;

		w2 &= w2 - 1;
		w1 = a_xchg(&c->pend1[i], 0);
		while (w1) {
			unsigned int wi = i * 64 + ctz64(w1);
			uint64_t w0;

			w1 &= w1 - 1;
			w0 = a_xchg(&c->pend0[wi], 0);
			while (w0) {
				handle_signalled(wi * 64 + ctz64(w0));
				w0 &= w0 - 1;
			}
		}
	}
	if (a_load_seq(&c->work)) {
		unsigned int work = a_xchg(&c->work, 0);

		if (work & CPU_WORK_RESEND)
			irqkit__resend_run();
	}
}

/*
 * irqkit__cpu_deliver - run the pending interrupts of @c on the calling thread
 *
 * Returns when nothing is pending, or when another thread holds the CPU (that
 * thread delivers when it lets go).  Between batches a thread waiting to turn
 * interrupts off on this CPU gets its turn.
 */
void irqkit__cpu_deliver(struct irqkit_task *t, struct irqkit_cpu *c)
{
	while (cpu_pending_relaxed(c)) {
		if (!irqkit__cpu_claim_hardirq(t, c))
			return;
		deliver_batch(c);
		irqkit__cpu_release_hardirq(t, c);
		if (READ_ONCE(c->slot_waiters))
			irqkit_plat_yield();
	}
}

bool irqkit__may_deliver_here(const struct irqkit_task *t, unsigned int cpu)
{
	return t->cpu && (unsigned int)t->cpu_id == cpu && !task_irqs_off(t) &&
	       t->slot == TASK_SLOT_NONE && !(t->preempt_count & IRQKIT_HARDIRQ_MASK);
}

void irqkit_cpu_signal(unsigned int cpu, unsigned int irq)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	struct irqkit_cpu *c;
	unsigned int w0;

	if (unlikely(irq >= rt->nr_irqs || cpu >= rt->nr_cpus)) {
		/* a stray vector: x86 counts it in ERR and says so (REFERENCE 2.8) */
		a_fetch_add(&rt->irq_err_count, 1);
		if (irqkit__printk_ratelimit())
			irqkit_printk(IRQKIT_LOG_CRIT, "unexpected IRQ trap at vector %02x", irq);
		return;
	}
	c = &rt->cpus[cpu];
	w0 = irq / 64;
	if (!(a_fetch_or(&c->pend0[w0], 1ull << (irq % 64)) & (1ull << (irq % 64)))) {
		a_fetch_or(&c->pend1[w0 / 64], 1ull << (w0 % 64));
		a_fetch_or(&c->pend2, 1ull << (w0 / 64));
	}
	irqkit__cpu_kick(c);
}

/*
 * Take @irq on @cpu now, on the calling thread, if it plays that CPU and the
 * CPU is free.  @claim: ask the chip first whether the line still requests.
 * @rest: then deliver what else became pending.
 */
static bool cpu_run_now(unsigned int cpu, unsigned int irq, bool claim, bool rest)
{
	struct irqkit_task *t = &irqkit_task_self;
	struct irqkit_cpu *c;

	if (unlikely(irq >= irqkit__rt.nr_irqs) || !irqkit__may_deliver_here(t, cpu))
		return false;
	c = t->cpu;
	if (!irqkit__cpu_claim_hardirq(t, c))
		return false;
	if (claim) {
		handle_signalled(irq);
	} else {
		struct irqkit_desc *desc = &irqkit__rt.descs[irq];

		READ_ONCE(desc->handle_irq)(desc);
	}
	irqkit__cpu_release_hardirq(t, c);
	if (rest && unlikely(cpu_pending_relaxed(c)))
		irqkit__cpu_deliver(t, c);
	return true;
}

void irqkit_cpu_raise(unsigned int cpu, unsigned int irq)
{
	if (!cpu_run_now(cpu, irq, true, true))
		irqkit_cpu_signal(cpu, irq);
}

bool irqkit_cpu_handle_now(unsigned int cpu, unsigned int irq)
{
	return cpu_run_now(cpu, irq, false, false);
}

/* Ask a CPU to run CPU-wide work (the software resend list) at its next delivery. */
void irqkit__cpu_raise_work(unsigned int cpu, unsigned int work)
{
	struct irqkit_cpu *c = &irqkit__rt.cpus[cpu];

	a_fetch_or(&c->work, work);
	irqkit__cpu_kick(c);
}

void irqkit_deliver_pending(void)
{
	struct irqkit_task *t = &irqkit_task_self;

	if (irqkit__rt.cpus && t->cpu && irqkit__may_deliver_here(t, t->cpu_id) &&
	    irqkit__cpu_pending(t->cpu))
		irqkit__cpu_deliver(t, t->cpu);
}

int irqkit_generic_handle_irq(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);

	if (!desc)
		return -IRQKIT_EINVAL;
	READ_ONCE(desc->handle_irq)(desc);
	return 0;
}

int irqkit_thread_bind(unsigned int cpu)
{
	struct irqkit_task *t = &irqkit_task_self;

	if (!irqkit__rt.cpus || cpu >= irqkit__rt.nr_cpus)
		return -IRQKIT_EINVAL;
	if (task_irqs_off(t) || t->slot != TASK_SLOT_NONE || (t->preempt_count & IRQKIT_HARDIRQ_MASK))
		return -IRQKIT_EBUSY;
	t->cpu = &irqkit__rt.cpus[cpu];
	t->cpu_id = (int)cpu;
	t->irqflags |= IRQKIT_TASK_BOUND;
	return 0;
}

int irqkit_thread_unbind(void)
{
	struct irqkit_task *t = &irqkit_task_self;

	if (task_irqs_off(t) || t->slot != TASK_SLOT_NONE || (t->preempt_count & IRQKIT_HARDIRQ_MASK))
		return -IRQKIT_EBUSY;
	t->cpu = NULL;
	t->cpu_id = 0;
	t->irqflags &= ~IRQKIT_TASK_BOUND;
	return 0;
}

int irqkit_cpu_run(unsigned int cpu)
{
	struct irqkit_task *t = &irqkit_task_self;
	struct irqkit_cpu *saved = t->cpu;
	int saved_id = t->cpu_id;

	if (!irqkit__rt.cpus || cpu >= irqkit__rt.nr_cpus)
		return -IRQKIT_EINVAL;
	if (task_irqs_off(t) || t->slot != TASK_SLOT_NONE || (t->preempt_count & IRQKIT_HARDIRQ_MASK))
		return -IRQKIT_EBUSY;
	t->cpu = &irqkit__rt.cpus[cpu];
	t->cpu_id = (int)cpu;
	t->irqflags |= IRQKIT_TASK_BOUND;
	irqkit__cpu_deliver(t, t->cpu);
	t->cpu = saved;
	t->cpu_id = saved_id;
	if (!saved)
		t->irqflags &= ~IRQKIT_TASK_BOUND;
	return 0;
}

/*
 * Must the dispatcher stay awake?  Something is pending and the CPU is free,
 * or held for hardirq (whose holder may have missed it).  Interrupts-off
 * holders deliver themselves when they let go.
 */
static bool dispatcher_must_run(const struct irqkit_cpu *c)
{
	unsigned int slot;

	if (!irqkit__cpu_pending(c))
		return false;
	slot = a_load_seq(&c->slot);
	return slot == 0 || (slot & SLOT_HARDIRQ);
}

/*
 * The dispatcher of a virtual CPU (threaded mode): deliver, then sleep on the
 * CPU's eventcount until a signal kicks it.
 */
void irqkit__dispatcher_loop(unsigned int cpu)
{
	struct irqkit_task *t = &irqkit_task_self;
	struct irqkit_cpu *c = &irqkit__rt.cpus[cpu];
	unsigned int spins = 0;

	t->cpu = c;
	t->cpu_id = (int)cpu;
	t->irqflags |= IRQKIT_TASK_BOUND;
	for (;;) {
		unsigned int seq = a_load_seq(&c->kick_seq);

		if (READ_ONCE(c->stop))
			break;
		irqkit__cpu_deliver(t, c);
		if (dispatcher_must_run(c)) {
			/* a hardirq holder is about to let go: wait for it */
			spin_step(&spins);
			continue;
		}
		spins = 0;
		a_store_seq(&c->idle, 1);
		if (READ_ONCE(c->stop) || dispatcher_must_run(c)) {
			a_store_seq(&c->idle, 0);
			continue;
		}
		irqkit_plat_wait(&c->kick_seq, seq);
		a_store_seq(&c->idle, 0);
	}
	t->cpu = NULL;
	t->irqflags = 0;
}
