/* SPDX-License-Identifier: MIT */
/*
 * The atomic primitives of the core, in one place.  Each is a macro a platform
 * may define first (musl's per-primitive override): the generic fallback is the
 * compiler's __atomic builtins, freestanding on gcc and clang.
 */
#ifndef IRQKIT_CORE_ATOMIC_H
#define IRQKIT_CORE_ATOMIC_H

/* Relaxed load and store: a value read or written by several threads, no order. */
#ifndef READ_ONCE
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#endif
#ifndef WRITE_ONCE
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#endif

#ifndef a_load_acquire
#define a_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#endif
#ifndef a_load_seq
#define a_load_seq(p)		__atomic_load_n((p), __ATOMIC_SEQ_CST)
#endif
#ifndef a_store_release
#define a_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#endif
#ifndef a_store_seq
#define a_store_seq(p, v)	__atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
#endif

/* Read-modify-write operations are full barriers (seq_cst) unless named _relaxed. */
#ifndef a_fetch_or
#define a_fetch_or(p, v)	__atomic_fetch_or((p), (v), __ATOMIC_SEQ_CST)
#endif
#ifndef a_fetch_and
#define a_fetch_and(p, v)	__atomic_fetch_and((p), (v), __ATOMIC_SEQ_CST)
#endif
#ifndef a_fetch_add
#define a_fetch_add(p, v)	__atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#endif
#ifndef a_fetch_sub
#define a_fetch_sub(p, v)	__atomic_fetch_sub((p), (v), __ATOMIC_SEQ_CST)
#endif
#ifndef a_add_relaxed
#define a_add_relaxed(p, v)	((void)__atomic_fetch_add((p), (v), __ATOMIC_RELAXED))
#endif
#ifndef a_xchg
#define a_xchg(p, v)		__atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)
#endif
/*
 * Weaker orders, where the code says why it may: a lock's own acquire and
 * release (spinlock.c, the tasklet RUN bit), a flag nobody orders on.
 */
#ifndef a_xchg_relaxed
#define a_xchg_relaxed(p, v)		__atomic_exchange_n((p), (v), __ATOMIC_RELAXED)
#endif
#ifndef a_xchg_acquire
#define a_xchg_acquire(p, v)		__atomic_exchange_n((p), (v), __ATOMIC_ACQUIRE)
#endif
#ifndef a_fetch_or_acquire
#define a_fetch_or_acquire(p, v)	__atomic_fetch_or((p), (v), __ATOMIC_ACQUIRE)
#endif
#ifndef a_fetch_or_relaxed
#define a_fetch_or_relaxed(p, v)	__atomic_fetch_or((p), (v), __ATOMIC_RELAXED)
#endif
#ifndef a_fetch_and_release
#define a_fetch_and_release(p, v)	__atomic_fetch_and((p), (v), __ATOMIC_RELEASE)
#endif
#ifndef a_fetch_add_acquire
#define a_fetch_add_acquire(p, v)	__atomic_fetch_add((p), (v), __ATOMIC_ACQUIRE)
#endif
#ifndef a_fetch_sub_relaxed
#define a_fetch_sub_relaxed(p, v)	__atomic_fetch_sub((p), (v), __ATOMIC_RELAXED)
#endif

/* Compare-and-swap: true when *p held *expected; else *expected gets *p. */
#ifndef a_cas
#define a_cas(p, expected, v)						\
	__atomic_compare_exchange_n((p), (expected), (v), false,	\
				    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)
#endif
#ifndef a_fence
#define a_fence()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
/*
 * The light side of an asymmetric pair: orders the compiler only; the other
 * side's irqkit_plat_barrier_heavy() makes it a full barrier.
 */
#ifndef a_fence_light
#define a_fence_light()		__atomic_signal_fence(__ATOMIC_SEQ_CST)
#endif

/*
 * A counter written by one thread at a time (the holder of a CPU or of a
 * descriptor lock) and read racily by others: no read-modify-write needed.
 */
#define a_inc_single(p)		WRITE_ONCE(*(p), READ_ONCE(*(p)) + 1)

#endif /* IRQKIT_CORE_ATOMIC_H */
