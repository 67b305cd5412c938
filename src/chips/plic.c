// SPDX-License-Identifier: MIT
/*
 * The PLIC (RISC-V Platform-Level Interrupt Controller) as a chip: a source's
 * priority is its mask (0 never fires), the enable bits of one CPU's context
 * route it there (its effective affinity), and the claim/complete register of
 * the context that took the interrupt is the fasteoi flow's claim and eoi.
 * Linux's drivers/irqchip/irq-sifive-plic.c does the same with the same
 * registers; this file is written from the PLIC specification.
 */
#include <irqkit-core/irqchip.h>
#include <irqkit/cpu.h>
#include <irqkit/irqdesc.h>
#include <irqkit/irqdomain.h>
#include <irqkit/plic.h>

#define PRIORITY(src)		(4ul * (src))
#define ENABLE(ctx)		(0x2000ul + 0x80ul * (ctx))
#define THRESHOLD(ctx)		(0x200000ul + 0x1000ul * (ctx))
#define CLAIM(ctx)		(THRESHOLD(ctx) + 4)
#define PLIC_MAX_CPUS		64

struct plic {
	uintptr_t		base;
	unsigned int		nr_sources;
	unsigned int		ctx_per_cpu, ctx_first;
	unsigned int		nr_cpus;
	unsigned int		parent_irq;	/* the CPUs' external input, or 0: root handler */
	struct irqkit_irq_domain *domain;
	struct irqkit_spinlock	enable_lock;	/* the enable words' read-modify-write */
	unsigned long		spurious[PLIC_MAX_CPUS];
};

static struct plic plic_state;
static struct plic *plic;	/* set once the PLIC is taken */

/* Device accesses ordered as Linux's writel/readl order them on RISC-V. */
static inline void wr32(uintptr_t a, uint32_t v)
{
	__asm__ __volatile__("fence w,o" ::: "memory");
	*(volatile uint32_t *)a = v;
}

static inline uint32_t rd32(uintptr_t a)
{
	uint32_t v = *(volatile uint32_t *)a;

	__asm__ __volatile__("fence i,r" ::: "memory");
	return v;
}

static unsigned int ctx_of(const struct plic *p, unsigned int cpu)
{
	return cpu * p->ctx_per_cpu + p->ctx_first;
}

/* Set or clear @src's enable bit in @cpu's context. */
static void toggle(struct plic *p, unsigned int cpu, unsigned long src, bool on)
{
	uintptr_t w = p->base + ENABLE(ctx_of(p, cpu)) + 4 * (src / 32);
	uint32_t bit = 1u << (src % 32);
	unsigned long flags = irqkit_spin_lock_irqsave(&p->enable_lock);

	wr32(w, on ? (rd32(w) | bit) : (rd32(w) & ~bit));
	irqkit_spin_unlock_irqrestore(&p->enable_lock, flags);
}

static void plic_mask(struct irqkit_irq_data *d)
{
	wr32(plic->base + PRIORITY(d->hwirq), 0);
}

static void plic_unmask(struct irqkit_irq_data *d)
{
	wr32(plic->base + PRIORITY(d->hwirq), 1);
}

/* Enabled: routed to its effective CPU and unmasked; disabled: off there and masked. */
static void plic_enable(struct irqkit_irq_data *d)
{
	toggle(plic, READ_ONCE(d->cpu), d->hwirq, true);
	plic_unmask(d);
}

static void plic_disable(struct irqkit_irq_data *d)
{
	toggle(plic, READ_ONCE(d->cpu), d->hwirq, false);
}

/*
 * Complete the claim in the context of the CPU that took it (the one running
 * the flow).  A PLIC ignores a completion for a source not enabled in that
 * context, so a line disabled meanwhile is enabled around the write.
 */
static void plic_eoi(struct irqkit_irq_data *d)
{
	unsigned int cpu = (unsigned int)irqkit_smp_processor_id();
	uintptr_t claim = plic->base + CLAIM(ctx_of(plic, cpu));

	if (unlikely(irqkit_irqd_state(d) & IRQKIT_IRQD_DISABLED)) {
		toggle(plic, cpu, d->hwirq, true);
		wr32(claim, (uint32_t)d->hwirq);
		toggle(plic, cpu, d->hwirq, false);
	} else {
		wr32(claim, (uint32_t)d->hwirq);
	}
}

/* Route the source to the first online CPU of @dest: its enable bit moves there. */
static int plic_set_affinity(struct irqkit_irq_data *d, const struct irqkit_cpus *dest, bool force)
{
	irqkit_cpumask m = irqkit_cpus_mask(dest);
	unsigned int old = READ_ONCE(d->cpu), cpu;
	struct irqkit_cpus eff = { { 0 } };
	bool enabled = !(irqkit_irqd_state(d) & IRQKIT_IRQD_DISABLED);

	(void)force;
	if (!m)
		return -IRQKIT_EINVAL;
	cpu = (unsigned int)__builtin_ctzll(m);
	if (cpu >= plic->nr_cpus)
		return -IRQKIT_EINVAL;
	if (enabled && old != cpu)
		toggle(plic, old, d->hwirq, false);
	eff.bits[cpu / (8 * sizeof(unsigned long))] = 1ul << (cpu % (8 * sizeof(unsigned long)));
	irqkit_irq_data_update_effective_affinity(d, &eff);
	if (enabled)
		toggle(plic, cpu, d->hwirq, true);
	return 0;
}

/* The PLIC's gateways take level inputs (QEMU's virt wires every device so). */
static int plic_set_type(struct irqkit_irq_data *d, unsigned int type)
{
	(void)d;
	return (type == IRQKIT_TYPE_LEVEL_HIGH || type == IRQKIT_TYPE_NONE) ? 0 : -IRQKIT_EINVAL;
}

static int plic_get_state(struct irqkit_irq_data *d, int which, bool *state)
{
	bool pending = rd32(plic->base + 0x1000 + 4 * (d->hwirq / 32)) & (1u << (d->hwirq % 32));
	bool masked = rd32(plic->base + PRIORITY(d->hwirq)) == 0;

	return irqkit_irqchip_state(which, pending, masked, state);
}

static struct irqkit_chip plic_chip = {
	.name			= "SiFive PLIC",
	.irq_enable		= plic_enable,
	.irq_disable		= plic_disable,
	.irq_mask		= plic_mask,
	.irq_unmask		= plic_unmask,
	.irq_eoi		= plic_eoi,
	.irq_set_affinity	= plic_set_affinity,
	.irq_set_type		= plic_set_type,
	.irq_get_irqchip_state	= plic_get_state,
	.flags			= IRQKIT_CHIP_SKIP_SET_WAKE | IRQKIT_CHIP_EOI_THREADED,
};

/*
 * On the CPU whose external interrupt trapped: claim and run sources until
 * the claim reads 0.  A first claim of 0 is spurious (another CPU took the
 * source, or it deasserted): counted, nothing run.  A source with no line
 * is left claimed, as Linux leaves it, and said.
 */
static void plic_claim_all(struct plic *p)
{
	unsigned int cpu = (unsigned int)irqkit_smp_processor_id();
	uintptr_t claim = p->base + CLAIM(ctx_of(p, cpu));
	uint32_t hwirq = rd32(claim);

	if (!hwirq) {
		a_add_relaxed(&p->spurious[cpu], 1);
		return;
	}
	do {
		if (unlikely(irqkit_generic_handle_domain_irq(p->domain, hwirq)) &&
		    irqkit__core_printk_ratelimit())
			pr_warn("plic: can't find mapping for hwirq %u", hwirq);
	} while ((hwirq = rd32(claim)));
}

/* The CPUs' root handler (no parent line). */
static void plic_handle(void *arg)
{
	plic_claim_all(arg);
}

/* The chained handler of the parent line (the CPU's external interrupt input). */
static void plic_handle_chained(struct irqkit_desc *desc)
{
	struct irqkit_chip *chip = desc->irq_data.chip;

	irqkit_chained_irq_enter(chip, desc);
	plic_claim_all(desc->handler_data);
	irqkit_chained_irq_exit(chip, desc);
}

/* Each CPU as it comes up (and every online one at init): the parent line on there. */
static int plic_starting_cpu(unsigned int cpu)
{
	(void)cpu;
	irqkit_enable_percpu_irq(READ_ONCE(plic)->parent_irq, IRQKIT_TYPE_NONE);
	return 0;
}

static int plic_dying_cpu(unsigned int cpu)
{
	(void)cpu;
	irqkit_disable_percpu_irq(READ_ONCE(plic)->parent_irq);
	return 0;
}

static int plic_map(struct irqkit_irq_domain *d, unsigned int virq, irqkit_hwirq_t hw)
{
	int ret;

	(void)d;
	if (!hw || hw > plic->nr_sources)
		return -IRQKIT_EINVAL;
	ret = irqkit_irq_set_chip_and_handler_name(virq, &plic_chip, irqkit_handle_fasteoi_irq,
						   "fasteoi");
	if (!ret)
		ret = irqkit_irq_set_chip_data(virq, plic);
	if (!ret)
		ret = irqkit_irq_set_default_type(virq, IRQKIT_TYPE_LEVEL_HIGH);
	return ret;
}

static const struct irqkit_irq_domain_ops plic_domain_ops = { .map = plic_map };

/* At stop: the root handler goes, every source off, the domain's lines with the runtime. */
static void plic_exit(void)
{
	struct plic *p = plic;

	if (!p)
		return;
	if (!p->parent_irq)
		(void)irqkit_arch_set_handle_irq(NULL, NULL);
	for (unsigned int c = 0; c < p->nr_cpus; c++)
		for (unsigned int w = 0; w <= p->nr_sources / 32; w++)
			wr32(p->base + ENABLE(ctx_of(p, c)) + 4 * w, 0);
	WRITE_ONCE(plic, NULL);
}

static struct irqkit__core_exit_hook plic_exit_hook = { .fn = plic_exit };

int irqkit_plic_init(const struct irqkit_plic_config *cfg)
{
	struct plic *p = &plic_state;
	int ret;

	if (!cfg || !cfg->base || !cfg->nr_sources || cfg->nr_sources > 1023 || !cfg->ctx_per_cpu)
		return -IRQKIT_EINVAL;
	if (READ_ONCE(plic))
		return -IRQKIT_EBUSY;
	*p = (struct plic){ .base = cfg->base, .nr_sources = cfg->nr_sources,
			    .ctx_per_cpu = cfg->ctx_per_cpu, .ctx_first = cfg->ctx_first,
			    .nr_cpus = irqkit_nr_cpus(), .parent_irq = cfg->parent_irq,
			    .domain = p->domain };
	if (p->nr_cpus > PLIC_MAX_CPUS)
		p->nr_cpus = PLIC_MAX_CPUS;
	irqkit_spin_lock_init(&p->enable_lock);
	for (unsigned int src = 1; src <= p->nr_sources; src++)
		wr32(p->base + PRIORITY(src), 0);
	for (unsigned int c = 0; c < p->nr_cpus; c++) {
		for (unsigned int w = 0; w <= p->nr_sources / 32; w++)
			wr32(p->base + ENABLE(ctx_of(p, c)) + 4 * w, 0);
		wr32(p->base + THRESHOLD(ctx_of(p, c)), 0);
	}
	if (!p->domain)
		p->domain = irqkit_irq_domain_create_linear(NULL, p->nr_sources + 1,
							    &plic_domain_ops, p);
	if (!p->domain)
		return -IRQKIT_ENOMEM;
	WRITE_ONCE(plic, p);
	if (!p->parent_irq) {
		ret = irqkit_arch_set_handle_irq(plic_handle, p);
	} else if (!irqkit_irq_is_percpu_devid(p->parent_irq)) {
		pr_err("plic: parent irq %u is not a per-CPU line", p->parent_irq);
		ret = -IRQKIT_EINVAL;
	} else {
		/* Linux's plic_probe: chained under the parent, on in each CPU's starting step */
		ret = irqkit_irq_set_chained_handler_and_data(p->parent_irq, plic_handle_chained, p);
		if (!ret) {
			ret = irqkit_cpuhp_setup_state(IRQKIT_CPUHP_AP_ONLINE_DYN,
						       "irqchip/sifive/plic:starting",
						       plic_starting_cpu, plic_dying_cpu);
			if (ret > 0)
				ret = 0;
			else
				(void)irqkit_irq_set_chained_handler_and_data(p->parent_irq, NULL,
									      NULL);
		}
	}
	if (ret) {
		WRITE_ONCE(plic, NULL);
		return ret;
	}
	irqkit__core_exit_hook_add(&plic_exit_hook);
	return 0;
}

struct irqkit_irq_domain *irqkit_plic_domain(void)
{
	struct plic *p = READ_ONCE(plic);

	return p ? p->domain : NULL;
}

unsigned long irqkit_plic_spurious_claims(unsigned int cpu)
{
	return cpu < PLIC_MAX_CPUS ? READ_ONCE(plic_state.spurious[cpu]) : 0;
}
