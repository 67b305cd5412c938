/* SPDX-License-Identifier: MIT */
/* Linux's memory barriers (asm/barrier.h) and cpu_relax, over the compiler's fences. */
#ifndef IRQKIT_COMPAT_LINUX_BARRIER_H
#define IRQKIT_COMPAT_LINUX_BARRIER_H

#include <linux/compiler.h>

#define mb()			__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define rmb()			__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define wmb()			__atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_mb()		mb()
#define smp_rmb()		rmb()
#define smp_wmb()		wmb()
#define smp_store_mb(var, value) do { WRITE_ONCE(var, value); smp_mb(); } while (0)
#define set_mb(var, value)	smp_store_mb(var, value)	/* before 4.2 */
#define smp_mb__before_atomic()	smp_mb()
#define smp_mb__after_atomic()	smp_mb()
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
/* cpu_relax(): a pause, and the jiffies object brought up to date (a busy-wait on it ends) */
#define cpu_relax()		irqkit_cpu_relax()

#endif
