/* SPDX-License-Identifier: MIT */
/*
 * A port's <irqkit/arch/current.h> for the contract's compile test
 * (tests/platform/port_check.c): every hook with the contract's signature,
 * or, with -DWRONG_<hook>, that one hook with another (a form the
 * hook's uses would accept: only the contract's declaration rejects it).  Never run.
 */
#ifndef IRQKIT_ARCH_CURRENT_H
#define IRQKIT_ARCH_CURRENT_H

/* no wrong form of this one: every use of it in <irqkit/task.h> rejects one already */
static inline struct irqkit_task *irqkit_arch_current(void)
{
	return 0;
}

#ifdef WRONG_smp_processor_id
static inline unsigned int irqkit_arch_smp_processor_id(void)
#else
static inline int irqkit_arch_smp_processor_id(void)
#endif
{
	return 0;
}

#endif
