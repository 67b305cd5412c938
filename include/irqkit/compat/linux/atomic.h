/* SPDX-License-Identifier: MIT */
/*
 * Linux's atomic_t over the compiler's atomics, with Linux's ordering: the
 * operations that return a value are fully ordered, the others (atomic_inc,
 * atomic_set, ...) are not.  atomic_fetch_add is left out: C11's
 * <stdatomic.h> has a macro of that name, and test code includes both.
 */
#ifndef IRQKIT_COMPAT_LINUX_ATOMIC_H
#define IRQKIT_COMPAT_LINUX_ATOMIC_H

#include <linux/barrier.h>
#include <asm/cmpxchg.h>	/* xchg, cmpxchg: modern Linux reaches them here */

typedef struct { int counter; } atomic_t;
typedef struct { long long counter; } atomic64_t;
typedef struct { long counter; } atomic_long_t;

#define ATOMIC_INIT(i)			{ (i) }
#define ATOMIC64_INIT(i)		{ (i) }
#define ATOMIC_LONG_INIT(i)		{ (i) }

#define IRQKIT__ATOMIC_OPS(pfx, T)							\
static inline T pfx##_read(const pfx##_t *v)						\
{ return __atomic_load_n(&v->counter, __ATOMIC_RELAXED); }				\
static inline void pfx##_set(pfx##_t *v, T i)						\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); }					\
static inline void pfx##_add(T i, pfx##_t *v)						\
{ __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); }				\
static inline void pfx##_sub(T i, pfx##_t *v)						\
{ __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED); }				\
static inline void pfx##_inc(pfx##_t *v) { pfx##_add(1, v); }				\
static inline void pfx##_dec(pfx##_t *v) { pfx##_sub(1, v); }				\
static inline T pfx##_add_return(T i, pfx##_t *v)					\
{ return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }			\
static inline T pfx##_sub_return(T i, pfx##_t *v)					\
{ return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }			\
static inline T pfx##_inc_return(pfx##_t *v) { return pfx##_add_return(1, v); }	\
static inline T pfx##_dec_return(pfx##_t *v) { return pfx##_sub_return(1, v); }	\
static inline int pfx##_inc_and_test(pfx##_t *v) { return pfx##_add_return(1, v) == 0; } \
static inline int pfx##_dec_and_test(pfx##_t *v) { return pfx##_sub_return(1, v) == 0; } \
static inline int pfx##_sub_and_test(T i, pfx##_t *v) { return pfx##_sub_return(i, v) == 0; } \
static inline int pfx##_add_negative(T i, pfx##_t *v) { return pfx##_add_return(i, v) < 0; } \
static inline T pfx##_xchg(pfx##_t *v, T i)						\
{ return __atomic_exchange_n(&v->counter, i, __ATOMIC_SEQ_CST); }			\
static inline T pfx##_cmpxchg(pfx##_t *v, T old, T new_)				\
{ __atomic_compare_exchange_n(&v->counter, &old, new_, 0, __ATOMIC_SEQ_CST,		\
			      __ATOMIC_SEQ_CST); return old; }				\
static inline int pfx##_add_unless(pfx##_t *v, T a, T u)				\
{ T c = pfx##_read(v);									\
  do { if (c == u) return 0; } while (!__atomic_compare_exchange_n(&v->counter, &c,	\
	c + a, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));					\
  return 1; }

IRQKIT__ATOMIC_OPS(atomic, int)
IRQKIT__ATOMIC_OPS(atomic64, long long)
IRQKIT__ATOMIC_OPS(atomic_long, long)
#undef IRQKIT__ATOMIC_OPS

#define atomic_inc_not_zero(v)		atomic_add_unless((v), 1, 0)

#endif
