/* SPDX-License-Identifier: MIT OR GPL-2.0 */
/*
 * The vector sets whose affinity masks the guest's kernel and irqkit both
 * compute for the same device (QEMU's e1000e, five MSI-X vectors) and the
 * same CPU count: affmask.c asks the kernel, affmask_irqkit.c asks irqkit,
 * each prints "AFFMASK case C: N vectors" and "AFFMASK case C vector V:
 * LIST[ managed]" per vector, and run.sh compares the two.
 *
 * Not compared: a set with more vectors than CPUs (sets of 3 and 2 on the
 * guest's 2 CPUs).  Debian's 6.1 leaves the third mask of the first set
 * empty (a WARNING in group_cpus_evenly), its MSI-X allocation fails there
 * and retries with fewer (2 vectors, both 0-1); since 6.14 the vectors no
 * group reached get the default affinity, as irqkit gives them
 * (core/irq/test_affinity.c covers that form).
 */
#ifndef IRQKIT_GUEST_AFFMASK_CASES_H
#define IRQKIT_GUEST_AFFMASK_CASES_H

struct affmask_case {
	unsigned int	pre, post, min, max;
	int		two_sets;	/* calc_sets: the spread vectors in two halves */
};

static const struct affmask_case affmask_cases[] = {
	{ 0, 0, 1, 5, 0 }, { 1, 0, 1, 5, 0 }, { 1, 1, 3, 5, 0 }, { 2, 0, 3, 5, 0 },
	{ 0, 0, 1, 1, 0 }, { 0, 1, 1, 5, 0 }, { 1, 0, 1, 5, 1 },
	/* fewer than the reserved vectors as the minimum: -ENOSPC on both sides */
	{ 1, 1, 1, 5, 0 }, { 2, 0, 1, 5, 0 },
};

#define AFFMASK_CASES	(sizeof(affmask_cases) / sizeof(affmask_cases[0]))

#endif
