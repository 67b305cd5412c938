/* SPDX-License-Identifier: MIT */
/*
 * The RISC-V Platform-Level Interrupt Controller (SiFive's PLIC, as QEMU's
 * virt machine has it), a chip of the bare-metal port: each source has a
 * priority, each CPU's context an enable bit per source, a threshold and a
 * claim/complete register.  Lines run handle_fasteoi_irq: the root handler
 * claims a source on the CPU that took the external interrupt, the flow runs
 * its handlers, and the eoi completes it in the same context.
 */
#ifndef IRQKIT_PLIC_H
#define IRQKIT_PLIC_H

#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct irqkit_irq_domain;

struct irqkit_plic_config {
	uintptr_t	base;		/* QEMU virt: 0x0c000000 */
	unsigned int	nr_sources;	/* sources 1 .. nr_sources (virt: 95) */
	/* CPU c's context: c * ctx_per_cpu + ctx_first (virt, machine mode: 2c + 0) */
	unsigned int	ctx_per_cpu;
	unsigned int	ctx_first;
	/*
	 * The per-CPU line the PLIC's output raises on each CPU, which it
	 * chains under as Linux's driver does (RISC-V: irqkit_rv_ext_irq());
	 * 0: the claim loop is the CPUs' root handler instead.
	 */
	unsigned int	parent_irq;
};

/**
 * irqkit_plic_init - take the PLIC: every source off and at priority 0 in
 * every CPU's context, thresholds 0, and the claim loop either chained
 * under @cfg->parent_irq, turned on by each CPU in a hotplug state of its
 * own ("irqchip/sifive/plic:starting", Linux's plic_probe), or set as the
 * CPUs' root handler (no parent: Linux's set_handle_irq).  Sources then
 * become lines through irqkit_irq_create_mapping(irqkit_plic_domain(),
 * source), as a device tree's "interrupts" property makes them.
 * Context: process context, runtime started.  Return: 0; -EINVAL for a bad
 * config or a parent that is not a per-CPU dev_id line (said); -EBUSY when
 * the PLIC or a root handler is set already, or a driver requested the
 * parent; -ENOMEM; -EOPNOTSUPP (no parent) on a host whose CPUs take no traps.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_plic_init(const struct irqkit_plic_config *cfg);

/** irqkit_plic_domain - the PLIC's domain (hwirq = source), or NULL before init. */
IRQKIT_API struct irqkit_irq_domain *irqkit_plic_domain(void);

/**
 * irqkit_plic_spurious_claims - external interrupts of @cpu whose first claim
 * read 0: another CPU claimed the source first (a source enabled in several
 * contexts), or it deasserted.  Counted, never an error.  Context: any.
 */
IRQKIT_API unsigned long irqkit_plic_spurious_claims(unsigned int cpu);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_PLIC_H */
