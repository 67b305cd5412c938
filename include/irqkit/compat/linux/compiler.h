/* SPDX-License-Identifier: MIT */
/* Linux's <linux/compiler.h> as drivers use it: likely/unlikely, barrier, READ_ONCE/WRITE_ONCE. */
#ifndef IRQKIT_COMPAT_LINUX_COMPILER_H
#define IRQKIT_COMPAT_LINUX_COMPILER_H

#include <irqkit/sched.h>

#ifndef likely
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#endif
/*
 * barrier(): a compiler barrier, and (a call) a point where the jiffies
 * object is brought up to date, so that the 2.6 busy-wait
 * `while (time_before(jiffies, j)) barrier();` ends.
 */
#define barrier()		irqkit_cpu_relax()
/* scalars and pointers, as relaxed atomics (so ThreadSanitizer sees them for what they are) */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define __user
#define __iomem
#define __kernel
#define __force
#define __must_check		__attribute__((warn_unused_result))
#ifndef __always_inline		/* glibc's <sys/cdefs.h> has one */
#define __always_inline		inline __attribute__((always_inline))
#endif
#define noinline		__attribute__((noinline))

#endif
