/* SPDX-License-Identifier: MIT */
/*
 * Spreading a device's vectors over the CPUs (Linux's kernel/irq/affinity.c
 * over lib/group_cpus.c), for multi-queue drivers: each queue's vector gets
 * a group of CPUs near each other, every CPU in exactly one group.
 *
 * Groups are made as Linux makes them: CPUs grouped evenly by NUMA node,
 * SMT siblings kept together, present CPUs first, a group per CPU at most,
 * the CPUs that do not divide evenly to the first groups.  irqkit's virtual
 * CPUs are one node with no siblings, all present, so the groups are runs
 * of consecutive CPUs.  Where the groups asked for outnumber the CPUs,
 * current Linux (6.14 on) gives the vectors left over the default affinity
 * (every CPU), still managed; 6.1 left their masks empty, with a warning.
 */
#ifndef IRQKIT_AFFINITY_H
#define IRQKIT_AFFINITY_H

#include <irqkit/irq.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IRQKIT_IRQ_AFFINITY_MAX_SETS	4

/*
 * Linux's struct irq_affinity: vectors kept out of the spreading at the
 * start (admin, config) and the end, and for drivers with several kinds of
 * queues, sets spread each on its own (@calc_sets fills @nr_sets and
 * @set_size from the vectors there are to spread; NULL: one set).
 */
struct irqkit_irq_affinity {
	unsigned int	pre_vectors;
	unsigned int	post_vectors;
	unsigned int	nr_sets;
	unsigned int	set_size[IRQKIT_IRQ_AFFINITY_MAX_SETS];
	void		(*calc_sets)(struct irqkit_irq_affinity *affd, unsigned int nvecs);
	void		*priv;
};

/**
 * irqkit_group_cpus_evenly - @numgrps groups of the possible CPUs
 * @nummasks: set to the number of groups that got CPUs (min(@numgrps, CPUs))
 *
 * Context: process context, runtime started.
 * Return: an array of @numgrps masks for irqkit_kfree(), or NULL (0 groups,
 * no runtime, no memory).
 */
IRQKIT_API struct irqkit_cpus *irqkit_group_cpus_evenly(unsigned int numgrps,
						       unsigned int *nummasks);

/**
 * irqkit_irq_create_affinity_masks - a mask per vector of a device's @nvecs
 *
 * The pre and post vectors get the default affinity (every CPU) and are not
 * managed; the others are spread, set by set, and managed.  @affd's
 * calc_sets is called (Linux's default one when NULL) with the vectors to
 * spread; more than IRQKIT_IRQ_AFFINITY_MAX_SETS sets is a warning and NULL.
 * Context: process context, runtime started.
 * Return: @nvecs descriptors for irqkit_kfree(), or NULL when no vector is
 * to be spread (or no runtime, no memory).
 */
IRQKIT_API struct irqkit_irq_affinity_desc *
irqkit_irq_create_affinity_masks(unsigned int nvecs, struct irqkit_irq_affinity *affd);

/**
 * irqkit_irq_calc_affinity_vectors - how many of @minvec..@maxvec vectors to ask for
 *
 * The pre and post vectors, plus as many spread ones as there are possible
 * CPUs (with calc_sets: all there is room for).
 * Return: that count, or 0 when the pre and post vectors exceed @minvec.
 */
IRQKIT_API unsigned int irqkit_irq_calc_affinity_vectors(unsigned int minvec, unsigned int maxvec,
							 const struct irqkit_irq_affinity *affd);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_AFFINITY_H */
