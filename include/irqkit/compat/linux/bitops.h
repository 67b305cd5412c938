/* SPDX-License-Identifier: MIT */
/*
 * Linux's bit operations on unsigned long arrays: set_bit and friends are
 * atomic (the test_and_ forms fully ordered), the __ forms are not.
 */
#ifndef IRQKIT_COMPAT_LINUX_BITOPS_H
#define IRQKIT_COMPAT_LINUX_BITOPS_H

#include <linux/barrier.h>

#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define BIT(nr)			(1UL << (nr))
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BITS_TO_LONGS(nr)	(((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]

static inline void set_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_RELAXED);
}
static inline void clear_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr), __ATOMIC_RELAXED);
}
static inline void clear_bit_unlock(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr), __ATOMIC_RELEASE);
}
static inline void change_bit(long nr, volatile unsigned long *addr)
{
	__atomic_fetch_xor(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_RELAXED);
}
static inline int test_and_set_bit(long nr, volatile unsigned long *addr)
{
	return !!(__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_SEQ_CST) &
		  BIT_MASK(nr));
}
static inline int test_and_set_bit_lock(long nr, volatile unsigned long *addr)
{
	return !!(__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_ACQUIRE) &
		  BIT_MASK(nr));
}
static inline int test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	return !!(__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr), __ATOMIC_SEQ_CST) &
		  BIT_MASK(nr));
}
static inline int test_and_change_bit(long nr, volatile unsigned long *addr)
{
	return !!(__atomic_fetch_xor(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_SEQ_CST) &
		  BIT_MASK(nr));
}
static inline int test_bit(long nr, const volatile unsigned long *addr)
{
	return !!(__atomic_load_n(&addr[BIT_WORD(nr)], __ATOMIC_RELAXED) & BIT_MASK(nr));
}
static inline void __set_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}
static inline void __clear_bit(long nr, volatile unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}
static inline int __test_and_set_bit(long nr, volatile unsigned long *addr)
{
	int old = !!(addr[BIT_WORD(nr)] & BIT_MASK(nr));

	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
	return old;
}
static inline int __test_and_clear_bit(long nr, volatile unsigned long *addr)
{
	int old = !!(addr[BIT_WORD(nr)] & BIT_MASK(nr));

	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
	return old;
}
/* first set bit (__ffs: of a non-zero word, 0-based), first zero bit, last set bit (1-based) */
static inline unsigned long __ffs(unsigned long word) { return (unsigned long)__builtin_ctzl(word); }
static inline unsigned long ffz(unsigned long word) { return __ffs(~word); }
static inline int fls(unsigned int x) { return x ? 32 - __builtin_clz(x) : 0; }
static inline int hweight32(unsigned int w) { return __builtin_popcount(w); }
static inline int hweight_long(unsigned long w) { return __builtin_popcountl(w); }

#endif
