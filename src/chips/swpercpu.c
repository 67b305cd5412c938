// SPDX-License-Identifier: MIT
/*
 * The banked software chip: per-CPU lines as a GIC's private peripheral
 * interrupts or a CPU's local timer, <irqkit/swchip.h>.  Each line has a
 * latch and a mask per CPU; mask and unmask act on the calling CPU's bank
 * (a per-CPU line is enabled and disabled by each CPU for itself), and a
 * raise for CPU k latches k's bit and signals k unless k's bank is masked.
 * An edge raised while its bank is masked waits in the latch and is
 * signalled at the unmask, as a pending PPI is.  The lines start masked on
 * every CPU (Linux's per-CPU lines are not started by request).
 */
#include <irqkit-core/irqchip.h>
#include <irqkit/swchip.h>

struct pc_line {
	uint64_t	latched;	/* a bit per CPU */
	uint64_t	masked;		/* a bit per CPU */
	uint64_t	coalesced;
} __attribute__((aligned(64)));

static struct pc_line *pc_lines;
static unsigned int pc_nr_lines;

static void pc_exit(void)
{
	irqkit_plat_free(pc_lines, sizeof(*pc_lines) * pc_nr_lines);
	pc_lines = NULL;
	pc_nr_lines = 0;
}

static struct irqkit__core_exit_hook pc_exit_hook = { .fn = pc_exit };

static inline uint64_t this_bit(void)
{
	return 1ull << irqkit_arch_smp_processor_id();
}

static void pc_mask(struct irqkit_irq_data *d)
{
	a_fetch_or(&pc_lines[d->irq].masked, this_bit());
}

static void pc_unmask(struct irqkit_irq_data *d)
{
	struct pc_line *l = &pc_lines[d->irq];
	uint64_t bit = this_bit();

	a_fetch_and(&l->masked, ~bit);
	if (a_load_seq(&l->latched) & bit)
		irqkit_cpu_signal((unsigned int)irqkit_arch_smp_processor_id(), d->irq);
}

/* On the CPU taking it: unmasked there and latched there, the latch taken in one step. */
static bool pc_claim(struct irqkit_irq_data *d)
{
	struct pc_line *l = &pc_lines[d->irq];
	uint64_t bit = this_bit();

	if (a_load_seq(&l->masked) & bit)
		return false;		/* waits in the latch for the unmask */
	return a_fetch_and(&l->latched, ~bit) & bit;
}

static int pc_get_state(struct irqkit_irq_data *d, int which, bool *state)
{
	struct pc_line *l = &pc_lines[d->irq];
	uint64_t bit = this_bit();

	return irqkit_irqchip_state(which, a_load_seq(&l->latched) & bit,
				    a_load_seq(&l->masked) & bit, state);
}

struct irqkit_chip irqkit_sw_percpu_chip = {
	.name			= "SW-PERCPU",
	.irq_mask		= pc_mask,
	.irq_unmask		= pc_unmask,
	.irq_claim		= pc_claim,
	.irq_get_irqchip_state	= pc_get_state,
	.flags			= IRQKIT_CHIP_SKIP_SET_WAKE,
};

int irqkit_swchip_add_percpu(unsigned int first, unsigned int count)
{
	unsigned int nr = irqkit_nr_irqs();

	if (!nr || !count || first >= nr || count > nr - first)
		return -IRQKIT_EINVAL;
	for (unsigned int irq = first; irq < first + count; irq++)
		if (irqkit_irq_has_action(irq))
			return -IRQKIT_EINVAL;
	if (!pc_lines) {
		pc_lines = irqkit_plat_alloc(sizeof(*pc_lines) * nr);
		if (!pc_lines)
			return -IRQKIT_ENOMEM;
		pc_nr_lines = nr;
		irqkit__core_exit_hook_add(&pc_exit_hook);
	}
	for (unsigned int irq = first; irq < first + count; irq++) {
		int ret;

		pc_lines[irq] = (struct pc_line){ .masked = ~0ull };
		irqkit_irq_set_chip_and_handler_name(irq, &irqkit_sw_percpu_chip,
						     irqkit_handle_percpu_devid_irq, "percpu_devid");
		irqkit_irq_set_hwirq(irq, irq);
		ret = irqkit_irq_set_percpu_devid(irq);
		if (ret && ret != -IRQKIT_EINVAL)	/* -EINVAL: it is one already (a second run) */
			return ret;
	}
	return 0;
}

int irqkit_sw_raise_on(unsigned int irq, unsigned int cpu)
{
	struct pc_line *l;
	uint64_t bit;

	if (irq >= pc_nr_lines || cpu >= irqkit_nr_cpus() ||
	    READ_ONCE(irqkit_irq_get_irq_data(irq)->chip) != &irqkit_sw_percpu_chip)
		return -IRQKIT_EINVAL;
	l = &pc_lines[irq];
	bit = 1ull << cpu;
	if (a_fetch_or(&l->latched, bit) & bit) {
		a_add_relaxed(&l->coalesced, 1);
		return 0;
	}
	if (!(a_load_seq(&l->masked) & bit))
		irqkit_cpu_signal(cpu, irq);
	return 0;
}
