/* SPDX-License-Identifier: MIT */
/*
 * Linux's WARN and BUG over irqkit.  WARN_ON(cond) reports "WARNING: CPU: c
 * PID: p at file:line" with the call trace and returns cond; BUG() reports
 * "kernel BUG at file:line!" and ends the program, as an oops ends the task.
 */
#ifndef IRQKIT_COMPAT_LINUX_BUG_H
#define IRQKIT_COMPAT_LINUX_BUG_H

#include <irqkit/kernel.h>

#define WARN(condition, ...) ({								\
	int __ret_warn_on = !!(condition);						\
	if (__builtin_expect(__ret_warn_on, 0))						\
		irqkit_warn_at(__FILE__, __LINE__, __VA_ARGS__);			\
	__builtin_expect(__ret_warn_on, 0);						\
})
#define WARN_ON(condition) ({								\
	int __ret_warn_on = !!(condition);						\
	if (__builtin_expect(__ret_warn_on, 0))						\
		irqkit_warn_at(__FILE__, __LINE__, NULL);				\
	__builtin_expect(__ret_warn_on, 0);						\
})
#define WARN_ONCE(condition, ...) ({							\
	static int __warned;								\
	int __ret_warn_once = !!(condition);						\
	if (__builtin_expect(__ret_warn_once, 0) && !__atomic_exchange_n(&__warned, 1, __ATOMIC_RELAXED)) \
		irqkit_warn_at(__FILE__, __LINE__, __VA_ARGS__);			\
	__builtin_expect(__ret_warn_once, 0);						\
})
#define WARN_ON_ONCE(condition) ({							\
	static int __warned;								\
	int __ret_warn_once = !!(condition);						\
	if (__builtin_expect(__ret_warn_once, 0) && !__atomic_exchange_n(&__warned, 1, __ATOMIC_RELAXED)) \
		irqkit_warn_at(__FILE__, __LINE__, NULL);				\
	__builtin_expect(__ret_warn_once, 0);						\
})
#define BUG()			irqkit_bug_at(__FILE__, __LINE__)
#define BUG_ON(condition)	do { if (__builtin_expect(!!(condition), 0)) BUG(); } while (0)
#define BUILD_BUG_ON(condition)	((void)sizeof(char[1 - 2 * !!(condition)]))

#endif
