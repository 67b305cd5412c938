// SPDX-License-Identifier: MIT
/*
 * Affinity spreading (<irqkit/affinity.h>, Linux's kernel/irq/affinity.c
 * and lib/group_cpus.c) for irqkit's topology: one node, no SMT siblings,
 * every possible CPU present.  Linux's two stages (present CPUs, then the
 * possible ones that are not) are one here, and its share-out between
 * nodes gives the one node min(groups, CPUs) groups.
 */
#include "core.h"
#include "cpu.h"

#include <irqkit/affinity.h>
#include <irqkit/kernel.h>

/* The lowest @n CPUs of *@from, taken off it. */
static irqkit_cpumask take_lowest(irqkit_cpumask *from, unsigned int n)
{
	irqkit_cpumask got = 0;

	while (n-- && *from) {
		irqkit_cpumask low = *from & -*from;

		got |= low;
		*from &= ~low;
	}
	return got;
}

struct irqkit_cpus *irqkit_group_cpus_evenly(unsigned int numgrps, unsigned int *nummasks)
{
	irqkit_cpumask left = irqkit_cpus_mask(&irqkit__rt.possible_cpus);
	unsigned int ncpus = (unsigned int)__builtin_popcountll(left);
	unsigned int ngroups, per, extra;
	struct irqkit_cpus *masks;

	*nummasks = 0;
	if (!numgrps || !irqkit__rt.cpus)
		return NULL;
	masks = irqkit_kcalloc(numgrps, sizeof(*masks), IRQKIT_GFP_KERNEL);
	if (!masks)
		return NULL;
	/* no more groups than CPUs; the remainder one each to the first groups */
	ngroups = numgrps < ncpus ? numgrps : ncpus;
	per = ncpus / ngroups;
	extra = ncpus - per * ngroups;
	for (unsigned int g = 0; g < ngroups; g++)
		masks[g] = irqkit_cpus_of_mask(take_lowest(&left, per + (g < extra)));
	*nummasks = ngroups;
	return masks;
}

static void default_calc_sets(struct irqkit_irq_affinity *affd, unsigned int affvecs)
{
	affd->nr_sets = 1;
	affd->set_size[0] = affvecs;
}

struct irqkit_irq_affinity_desc *
irqkit_irq_create_affinity_masks(unsigned int nvecs, struct irqkit_irq_affinity *affd)
{
	unsigned int resv = affd->pre_vectors + affd->post_vectors;
	unsigned int affvecs = nvecs > resv ? nvecs - resv : 0;
	unsigned int curvec, usedvecs = 0;
	struct irqkit_irq_affinity_desc *masks;

	if (!affd->calc_sets)
		affd->calc_sets = default_calc_sets;
	/* called even with nothing to spread, so the driver sees how it stands */
	affd->calc_sets(affd, affvecs);
	if (WARN_ON_ONCE(affd->nr_sets > IRQKIT_IRQ_AFFINITY_MAX_SETS) || !affvecs ||
	    !irqkit__rt.cpus)
		return NULL;
	for (unsigned int i = 0, sum = 0; i < affd->nr_sets; i++) {
		sum += affd->set_size[i];	/* more than there is room for: refused */
		if (WARN(sum > affvecs, "irq_create_affinity_masks: sets of %u vectors for %u",
			 sum, affvecs))
			return NULL;
	}
	masks = irqkit_kcalloc(nvecs, sizeof(*masks), IRQKIT_GFP_KERNEL);
	if (!masks)
		return NULL;
	for (curvec = 0; curvec < affd->pre_vectors; curvec++)
		masks[curvec].mask = irqkit__rt.possible_cpus;
	for (unsigned int i = 0; i < affd->nr_sets; i++) {
		unsigned int nr_masks;
		struct irqkit_cpus *grp = irqkit_group_cpus_evenly(affd->set_size[i], &nr_masks);

		if (!grp) {
			irqkit_kfree(masks);
			return NULL;
		}
		for (unsigned int j = 0; j < nr_masks; j++)
			masks[curvec + j].mask = grp[j];
		irqkit_kfree(grp);
		curvec += nr_masks;
		usedvecs += nr_masks;
	}
	/* what no group reached, and the post vectors: the default affinity */
	curvec = affd->pre_vectors + (usedvecs < affvecs ? usedvecs : affvecs);
	for (; curvec < nvecs; curvec++)
		masks[curvec].mask = irqkit__rt.possible_cpus;
	for (unsigned int i = affd->pre_vectors; i < nvecs - affd->post_vectors; i++)
		masks[i].is_managed = 1;
	return masks;
}

unsigned int irqkit_irq_calc_affinity_vectors(unsigned int minvec, unsigned int maxvec,
					      const struct irqkit_irq_affinity *affd)
{
	unsigned int resv = affd->pre_vectors + affd->post_vectors;
	unsigned int set_vecs;

	if (resv > minvec || resv > maxvec)
		return 0;
	if (affd->calc_sets)
		set_vecs = maxvec - resv;
	else
		set_vecs = irqkit__rt.cpus ?
			   (unsigned int)__builtin_popcountll(irqkit_cpus_mask(&irqkit__rt.possible_cpus)) : 1;
	return resv + (set_vecs < maxvec - resv ? set_vecs : maxvec - resv);
}
