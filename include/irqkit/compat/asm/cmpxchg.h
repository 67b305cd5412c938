/* SPDX-License-Identifier: MIT */
/*
 * Linux's xchg() and cmpxchg() on a plain object (<asm/cmpxchg.h>; 2.6
 * drivers had them from <asm/system.h>): fully ordered, as Linux's, and
 * each returns the value the object held before.
 */
#ifndef IRQKIT_COMPAT_ASM_CMPXCHG_H
#define IRQKIT_COMPAT_ASM_CMPXCHG_H

#define xchg(ptr, v)	__atomic_exchange_n((ptr), (v), __ATOMIC_SEQ_CST)

#define cmpxchg(ptr, old, new) ({							\
	__typeof__(*(ptr)) __irqkit_old = (old);					\
	(void)__atomic_compare_exchange_n((ptr), &__irqkit_old, (new), 0,		\
					  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);		\
	__irqkit_old;									\
})

#endif
