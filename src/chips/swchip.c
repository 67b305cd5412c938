// SPDX-License-Identifier: MIT
/*
 * The software interrupt chip: a controller whose inputs are driven by code.
 * Each line has one state word:
 *
 *   SW_LATCH       an edge arrived and was not yet acknowledged
 *   SW_LEVEL       the level input is asserted
 *   SW_MASKED      the line is masked at the chip
 *   SW_TYPE_LEVEL  level-triggered (else edge)
 *
 * A line requests an interrupt when it is unmasked and latched (edge) or
 * asserted (level); the request goes to the line's target CPU.  Raises while
 * the latch is set coalesce and are counted, so that every raise is either
 * delivered or counted as coalesced (DESIGN guarantee 6).
 *
 * The direct path: an edge raised on an idle, unmasked line by a thread that
 * can take it on the line's CPU at once never touches the latch; the flow
 * handler's ack then has nothing to clear, and must not clear a latch that
 * another thread's raise set meanwhile (that raise is delivered on its own).
 * The core's edge flow does not call the ack for it; another flow's ack,
 * mask_ack and get_events know it by irqkit__core_irq_taken_direct().
 *
 * The signalled path: the target CPU's claim takes the edge out of the latch
 * with one atomic step, so an edge signalled to two CPUs (the line moved
 * while latched, then was unmasked on its new CPU) runs the flow on one of
 * them only; that flow's ack, like the direct path's, has nothing to clear.
 */
#include <irqkit-core/irqchip.h>
#include <irqkit/irqdomain.h>
#include <irqkit/swchip.h>

#define SW_LATCH	(1u << 0)
#define SW_LEVEL	(1u << 1)
#define SW_MASKED	(1u << 2)
#define SW_TYPE_LEVEL	(1u << 3)

/*
 * A cache line each: lines raised from different threads do not share one,
 * and the line of an irq number is a shift away.
 */
struct sw_line {
	unsigned int		state;
	struct irqkit_irq_data	*d;	/* the line's data, set when it joins the chip */
	uint64_t		coalesced;
	uint64_t		resent;
	uint64_t		seen;		/* coalesced when the last claimed delivery began */
	uint64_t		cur;		/* of which that delivery stands for */
} __attribute__((aligned(64)));

/*
 * The flow's ack for an edge the direct path or a claim took: nothing to
 * clear.  A claim that took the edge out of the latch marks it on the task
 * (irq + 1) until that ack.
 */
static bool sw_edge_taken(struct irqkit_irq_data *d)
{
	struct irqkit_task *t = irqkit_arch_current();

	if (irqkit__core_irq_taken_direct(d))
		return true;
	if (t->chip_claimed == d->irq + 1) {
		t->chip_claimed = 0;
		return true;
	}
	return false;
}

static struct sw_line *sw_lines;	/* one per line of the runtime, allocated on first use */
static unsigned int sw_nr_lines;

static void sw_exit(void)
{
	irqkit_plat_free(sw_lines, sizeof(*sw_lines) * sw_nr_lines);
	sw_lines = NULL;
	sw_nr_lines = 0;
}

static struct irqkit__core_exit_hook sw_exit_hook = { .fn = sw_exit };

static inline struct sw_line *sw_line(struct irqkit_irq_data *d)
{
	return d->chip_data;
}

/* The line requests an interrupt on its CPU; under the descriptor lock, never inline. */
static void sw_signal(struct irqkit_irq_data *d)
{
	irqkit_cpu_signal(READ_ONCE(d->cpu), d->irq);
}

static void sw_mask(struct irqkit_irq_data *d)
{
	a_fetch_or(&sw_line(d)->state, SW_MASKED);
}

static void sw_unmask(struct irqkit_irq_data *d)
{
	unsigned int old = a_fetch_and(&sw_line(d)->state, ~SW_MASKED);

	if (old & (SW_LATCH | SW_LEVEL))
		sw_signal(d);
}

/* Acknowledge: an edge's latch is cleared; a level follows its input. */
static void sw_ack(struct irqkit_irq_data *d)
{
	struct sw_line *l = sw_line(d);

	if (sw_edge_taken(d))
		return;			/* the latch holds nothing of this arrival */
	if (!(READ_ONCE(l->state) & SW_TYPE_LEVEL))
		a_fetch_and(&l->state, ~SW_LATCH);
}

static void sw_mask_ack(struct irqkit_irq_data *d)
{
	struct sw_line *l = sw_line(d);
	unsigned int old = READ_ONCE(l->state), new;

	if (sw_edge_taken(d)) {
		a_fetch_or(&l->state, SW_MASKED);
		return;
	}
	do {
		new = old | SW_MASKED;
		if (!(old & SW_TYPE_LEVEL))
			new &= ~SW_LATCH;
	} while (!a_cas(&l->state, &old, new));
}

/* An edge latched under the descriptor lock: it coalesces, or is signalled unless masked. */
static void sw_latch(struct irqkit_irq_data *d)
{
	struct sw_line *l = sw_line(d);
	unsigned int old = a_fetch_or(&l->state, SW_LATCH);

	if (old & SW_LATCH) {
		a_add_relaxed(&l->coalesced, 1);
		irqkit_trace(coalesced, d->irq);
	} else if (!(old & SW_MASKED)) {
		sw_signal(d);
	}
}

/* Replay an edge: latch it again as a fresh arrival would. */
static int sw_retrigger(struct irqkit_irq_data *d)
{
	a_add_relaxed(&sw_line(d)->resent, 1);
	sw_latch(d);
	return 1;
}

/* Edge types use handle_edge_irq, level types handle_level_irq. */
static int sw_set_type(struct irqkit_irq_data *d, unsigned int type)
{
	struct sw_line *l = sw_line(d);

	switch (type & IRQKIT_TYPE_SENSE_MASK) {
	case IRQKIT_TYPE_EDGE_RISING:
	case IRQKIT_TYPE_EDGE_FALLING:
	case IRQKIT_TYPE_EDGE_BOTH:
		a_fetch_and(&l->state, ~(SW_TYPE_LEVEL | SW_LEVEL));
		irqkit_irq_set_handler_locked(d, irqkit_handle_edge_irq);
		return 0;
	case IRQKIT_TYPE_LEVEL_HIGH:
	case IRQKIT_TYPE_LEVEL_LOW:
		a_fetch_and(&l->state, ~SW_LATCH);
		a_fetch_or(&l->state, SW_TYPE_LEVEL);
		irqkit_irq_set_handler_locked(d, irqkit_handle_level_irq);
		return 0;
	default:
		return -IRQKIT_EINVAL;
	}
}

/* Route to the first CPU of @dest. */
static int sw_set_affinity(struct irqkit_irq_data *d, const struct irqkit_cpus *dest, bool force)
{
	(void)force;
	if (!irqkit_cpus_mask(dest))
		return -IRQKIT_EINVAL;
	irqkit_irq_data_update_effective_affinity(d, dest);
	return 0;
}

/*
 * On the target CPU: is the line still requesting?  An edge is taken out of
 * the latch here, atomically, so one latched edge runs one flow however many
 * CPUs were signalled for it.
 */
static bool sw_claim(struct irqkit_irq_data *d)
{
	struct sw_line *l = sw_line(d);
	unsigned int s = READ_ONCE(l->state);
	uint64_t now;

	if (s & SW_TYPE_LEVEL)
		return (s & SW_LEVEL) != 0;
	if (!(s & SW_LATCH) || !(a_fetch_and(&l->state, ~SW_LATCH) & SW_LATCH))
		return false;
	irqkit_arch_current()->chip_claimed = d->irq + 1;
	/* the raises that met this latch are this delivery's */
	now = READ_ONCE(l->coalesced);
	WRITE_ONCE(l->cur, now - a_xchg(&l->seen, now));
	return true;
}

/*
 * What a delivery stands for: a raise taken on the direct path never met a
 * latch; a claimed one carries the raises that met its latch.
 */
static void sw_get_events(struct irqkit_irq_data *d, struct irqkit_irq_events *ev, bool total)
{
	struct sw_line *l = sw_line(d);

	if (total)
		ev->coalesced = READ_ONCE(l->coalesced);
	else if (!irqkit__core_irq_taken_direct(d))
		ev->coalesced = READ_ONCE(l->cur);
}

static int sw_get_state(struct irqkit_irq_data *d, int which, bool *state)
{
	unsigned int s = READ_ONCE(sw_line(d)->state);

	return irqkit_irqchip_state(which, s & (SW_LATCH | SW_LEVEL), s & SW_MASKED, state);
}

/*
 * irq_set_irqchip_state(PENDING): set, an edge arrives as by a raise, but is
 * always latched and signalled (the caller holds the descriptor lock);
 * cleared, a latched edge is dropped.  A level line follows its input only.
 */
static int sw_set_state(struct irqkit_irq_data *d, int which, bool state)
{
	struct sw_line *l = sw_line(d);

	if (which != IRQKIT_CHIPSTATE_PENDING || (READ_ONCE(l->state) & SW_TYPE_LEVEL))
		return -IRQKIT_EINVAL;
	if (state)
		sw_latch(d);
	else
		a_fetch_and(&l->state, ~SW_LATCH);
	return 0;
}

/* The operations the software chip and the simulator's share. */
#define SW_CHIP_COMMON_OPS					\
	.irq_ack		= sw_ack,			\
	.irq_mask		= sw_mask,			\
	.irq_mask_ack		= sw_mask_ack,			\
	.irq_unmask		= sw_unmask,			\
	.irq_set_affinity	= sw_set_affinity,		\
	.irq_claim		= sw_claim,			\
	.irq_get_irqchip_state	= sw_get_state,			\
	.irq_get_events		= sw_get_events

struct irqkit_chip irqkit_sw_chip = {
	.name			= "SW-IRQ",
	SW_CHIP_COMMON_OPS,
	.irq_retrigger		= sw_retrigger,
	.irq_set_type		= sw_set_type,
	.irq_set_irqchip_state	= sw_set_state,
	/* a line code drives wakes nothing: arming it is accepted and does nothing */
	.flags			= IRQKIT_CHIP_SKIP_SET_WAKE,
};

/*
 * The interrupt simulator's chip (irqsim.c): this chip under Linux's
 * simulator rules, rising and falling edges only, a fire on a masked line
 * dropped rather than latched (irq_sim_set_irqchip_state), and no
 * retrigger: Linux's irq_sim has none, so an edge that came while its line
 * was disabled is replayed at the enable by the core's software resend,
 * from a tasklet, not in hardirq context (the guest's kernel shows it).
 */
static int sim_set_type(struct irqkit_irq_data *d, unsigned int type)
{
	if (type & ~IRQKIT_TYPE_EDGE_BOTH)
		return -IRQKIT_EINVAL;
	/* none, as a line starts on Linux's simulator: the chip keeps taking edges */
	return type ? sw_set_type(d, type) : 0;
}

static int sim_set_state(struct irqkit_irq_data *d, int which, bool state)
{
	if (which == IRQKIT_CHIPSTATE_PENDING && state && (READ_ONCE(sw_line(d)->state) & SW_MASKED))
		return 0;
	return sw_set_state(d, which, state);
}

HIDDEN struct irqkit_chip irqkit__sim_chip = {
	.name			= "irq_sim",
	SW_CHIP_COMMON_OPS,
	.irq_set_type		= sim_set_type,
	.irq_set_irqchip_state	= sim_set_state,
};

/* Put line @irq on the chip; its hwirq is its domain's, else its number. */
static void sw_setup(unsigned int irq, unsigned int type)
{
	struct irqkit_irq_data *d = irqkit_irq_get_irq_data(irq);
	bool level = type & IRQKIT_TYPE_LEVEL_MASK;
	struct sw_line *l = &sw_lines[irq];

	*l = (struct sw_line){ .state = SW_MASKED | (level ? SW_TYPE_LEVEL : 0), .d = d };
	irqkit_irq_set_chip_data(irq, l);
	irqkit_irq_set_chip_and_handler_name(irq, &irqkit_sw_chip,
					     level ? irqkit_handle_level_irq : irqkit_handle_edge_irq,
					     NULL);
	if (!READ_ONCE(d->domain))
		irqkit_irq_set_hwirq(irq, irq);
	irqkit_irq_set_default_type(irq, type);
}

static int sw_lines_init(void)
{
	unsigned int nr = irqkit_nr_irqs();

	if (sw_lines)
		return 0;
	sw_lines = irqkit_plat_alloc(sizeof(*sw_lines) * nr);
	if (!sw_lines)
		return -IRQKIT_ENOMEM;
	sw_nr_lines = nr;
	irqkit__core_exit_hook_add(&sw_exit_hook);
	return 0;
}

/*
 * The chip's domain: its inputs are numbered as the lines they drive
 * (hwirq = line, a tree, as the runtime's line count may change from run
 * to run).  A line mapped through it (irqkit_irq_create_mapping) becomes a
 * rising-edge software line.
 */
static int sw_map(struct irqkit_irq_domain *domain, unsigned int virq, irqkit_hwirq_t hw)
{
	int ret = sw_lines_init();

	(void)domain;
	(void)hw;
	if (!ret)
		sw_setup(virq, IRQKIT_TYPE_EDGE_RISING);
	return ret;
}

static const struct irqkit_irq_domain_ops sw_domain_ops = { .map = sw_map };
static struct irqkit_fwnode sw_fwnode = { .name = "irqkit-sw" };
static struct irqkit_irq_domain *sw_domain;	/* made once, kept across runs */

struct irqkit_irq_domain *irqkit_swchip_domain(void)
{
	struct irqkit_irq_domain *d = a_load_acquire(&sw_domain), *expected = NULL;

	if (d)
		return d;
	d = irqkit_irq_domain_create_tree(&sw_fwnode, &sw_domain_ops, NULL);
	if (d && !a_cas(&sw_domain, &expected, d)) {
		irqkit_irq_domain_remove(d);	/* another thread made it first */
		d = expected;
	}
	return d;
}

int irqkit_swchip_add(unsigned int first, unsigned int count, unsigned int type)
{
	unsigned int nr = irqkit_nr_irqs();
	struct irqkit_irq_domain *domain;
	int ret;

	if (!nr || !count || first >= nr || count > nr - first)
		return -IRQKIT_EINVAL;
	if (!(type & IRQKIT_TYPE_SENSE_MASK) ||
	    ((type & IRQKIT_TYPE_LEVEL_MASK) && (type & IRQKIT_TYPE_EDGE_BOTH)) ||
	    (type & ~IRQKIT_TYPE_SENSE_MASK))
		return -IRQKIT_EINVAL;
	for (unsigned int irq = first; irq < first + count; irq++)
		if (irqkit_irq_has_action(irq))
			return -IRQKIT_EINVAL;
	ret = sw_lines_init();
	if (ret)
		return ret;
	domain = irqkit_swchip_domain();
	for (unsigned int irq = first; irq < first + count; irq++) {
		/* a line no domain has yet joins the chip's, as legacy lines do */
		if (domain && !READ_ONCE(irqkit_irq_get_irq_data(irq)->domain))
			(void)irqkit_irq_domain_associate(domain, irq, irq);
		sw_setup(irq, type);
	}
	return 0;
}

/* The data of line @irq if it is on this chip, else NULL; its line is then sw_lines[irq].  Any context. */
static inline struct irqkit_irq_data *line_data(unsigned int irq)
{
	struct irqkit_irq_data *d;

	if (irq >= sw_nr_lines || !(d = sw_lines[irq].d) || READ_ONCE(d->chip) != &irqkit_sw_chip)
		return NULL;
	return d;
}

/* The software line @irq, or NULL if @irq is not on this chip.  Any context. */
static struct sw_line *line_of(unsigned int irq, struct irqkit_irq_data **dp)
{
	return (*dp = line_data(irq)) ? &sw_lines[irq] : NULL;
}

/* An arrival on a masked line: say so if nobody could ever take it (irqkit's own message). */
static void note_masked_arrival(unsigned int irq)
{
	if (!irqkit_irq_has_action(irq) && irqkit__core_printk_ratelimit())
		pr_warn("irq %u: raised with no handler installed; latched until one is requested",
			irq);
}

/* The raise of line @l (@d) that is not taken on the direct path: latched, then signalled. */
static __attribute__((noinline)) int sw_raise_latched(struct sw_line *l, struct irqkit_irq_data *d)
{
	unsigned int irq = d->irq;
	unsigned int old = a_fetch_or(&l->state, SW_LATCH);

	if (old & SW_LATCH) {
		a_add_relaxed(&l->coalesced, 1);
		irqkit_trace(coalesced, d->irq);
		return 0;
	}
	if (old & SW_MASKED) {
		note_masked_arrival(irq);
		return 0;
	}
	irqkit_cpu_raise(READ_ONCE(d->cpu), irq);
	return 0;
}

/* The same after a direct attempt the CPU could not take: the line found again. */
static int sw_raise_refound(unsigned int irq)
{
	struct irqkit_irq_data *d;
	struct sw_line *l = line_of(irq, &d);

	if (!l)
		return -IRQKIT_EINVAL;	/* the line left the chip meanwhile */
	return sw_raise_latched(l, d);
}

/*
 * An edge raised on a line that is neither latched nor masked is taken on
 * the calling thread when it plays the line's CPU and the CPU is free (the
 * direct path: no latch, no bitmap); otherwise it is latched and signalled.
 * The core calls the latched path itself when the CPU cannot take the edge
 * (so the raise keeps nothing across the call): the line is found again.
 */
int irqkit_sw_raise(unsigned int irq)
{
	struct irqkit_irq_data *d = line_data(irq);
	unsigned int old;

	if (!d)
		return -IRQKIT_EINVAL;
	old = READ_ONCE(sw_lines[irq].state);
	if (unlikely(old & (SW_TYPE_LEVEL | SW_LATCH | SW_MASKED))) {
		if (old & SW_TYPE_LEVEL)
			return -IRQKIT_EINVAL;
		return sw_raise_latched(&sw_lines[irq], d);
	}
	return irqkit__core_cpu_handle_now(irq, READ_ONCE(d->cpu), sw_raise_refound);
}

int irqkit_sw_set_level(unsigned int irq, bool asserted)
{
	struct irqkit_irq_data *d;
	struct sw_line *l = line_of(irq, &d);
	unsigned int old;

	if (!l || !(READ_ONCE(l->state) & SW_TYPE_LEVEL))
		return -IRQKIT_EINVAL;
	if (!asserted) {
		a_fetch_and(&l->state, ~SW_LEVEL);
		return 0;
	}
	old = a_fetch_or(&l->state, SW_LEVEL);
	if (old & SW_LEVEL)
		return 0;
	if (old & SW_MASKED) {
		note_masked_arrival(irq);
		return 0;
	}
	irqkit_cpu_raise(READ_ONCE(d->cpu), irq);
	return 0;
}

int irqkit_sw_get_stats(unsigned int irq, struct irqkit_sw_stats *st)
{
	struct irqkit_irq_data *d;
	struct sw_line *l = line_of(irq, &d);
	unsigned int s;

	if (!l || !st)
		return -IRQKIT_EINVAL;
	s = READ_ONCE(l->state);
	st->coalesced = READ_ONCE(l->coalesced);
	st->resent = READ_ONCE(l->resent);
	st->latched = s & SW_LATCH;
	st->level = s & SW_LEVEL;
	st->masked = s & SW_MASKED;
	return 0;
}
