/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/cleanup.h>: scope-based release on the compiler's cleanup
 * attribute.  A guard takes a lock (or turns interrupts off) where it is
 * declared and lets go when its scope ends, on every way out of it:
 *   guard(spinlock_irqsave)(&lock);            to the end of the block
 *   scoped_guard(raw_spinlock_irqsave, &desc->lock) { ... }
 * and __free(kfree) frees a pointer at the end of its scope unless
 * no_free_ptr()/return_ptr() hand it on.  The lock types define their
 * guards in their own headers (<linux/spinlock.h>, <linux/mutex.h>,
 * <linux/irqflags.h>), as Linux's do.
 */
#ifndef IRQKIT_COMPAT_LINUX_CLEANUP_H
#define IRQKIT_COMPAT_LINUX_CLEANUP_H

#include <stddef.h>

#define __cleanup(fn)		__attribute__((cleanup(fn)))
/* a guard is never read: clang would call it unused */
#define __irqkit_guard_var(fn)	__attribute__((cleanup(fn), unused))
#define __irqkit_cat2(a, b)	a##b
#define __irqkit_cat(a, b)	__irqkit_cat2(a, b)
#define __UNIQUE_ID(prefix)	__irqkit_cat(__irqkit_cat(__UNIQUE_ID_, prefix), __COUNTER__)

/* ---- pointers freed at the end of their scope ---------------------------------------- */

#define DEFINE_FREE(_name, _type, _free)						\
	static inline void __free_##_name(void *p)					\
	{										\
		_type _T = *(_type *)p;							\
		_free;									\
	}
#define __free(_name)		__cleanup(__free_##_name)
/* Hand the pointer on: the scope's end frees nothing. */
#define no_free_ptr(p)		({ __typeof__(p) __ptr = (p); (p) = NULL; __ptr; })
#define take_ptr(p)		no_free_ptr(p)
#define return_ptr(p)		return no_free_ptr(p)

/* ---- classes and guards ------------------------------------------------------------------ */

/* A guard over a pointer (a mutex): @_lock and @_unlock use _T, the pointer. */
#define DEFINE_GUARD(_name, _type, _lock, _unlock)					\
	typedef _type class_##_name##_t;						\
	static inline void class_##_name##_destructor(class_##_name##_t *p)		\
	{										\
		_type _T = *p;								\
		if (_T) {								\
			_unlock;							\
		}									\
	}										\
	static inline class_##_name##_t class_##_name##_constructor(_type _T)		\
	{										\
		_lock;									\
		return _T;								\
	}

/* The class of a lock guard: the lock (NULL: nothing held), the state the rest declares. */
#define __DEFINE_UNLOCK_GUARD(_name, _type, _unlock, ...)				\
	typedef struct {								\
		_type *lock;								\
		__VA_ARGS__;								\
	} class_##_name##_t;								\
	static inline void class_##_name##_destructor(class_##_name##_t *_T)		\
	{										\
		if (_T->lock) {								\
			_unlock;							\
		}									\
	}

/*
 * A guard over a lock with state of its own (the flags of an irqsave):
 * @_lock and @_unlock use _T->lock and the members the rest declares.
 */
#define DEFINE_LOCK_GUARD_1(_name, _type, _lock, _unlock, ...)				\
	__DEFINE_UNLOCK_GUARD(_name, _type, _unlock, __VA_ARGS__)			\
	static inline class_##_name##_t class_##_name##_constructor(_type *l)		\
	{										\
		class_##_name##_t _t = { .lock = l }, *_T = &_t;			\
		_lock;									\
		return _t;								\
	}

/* A guard over no object (interrupts off): the members the rest declares. */
#define DEFINE_LOCK_GUARD_0(_name, _lock, _unlock, ...)					\
	__DEFINE_UNLOCK_GUARD(_name, void, _unlock, __VA_ARGS__)			\
	static inline class_##_name##_t class_##_name##_constructor(void)		\
	{										\
		class_##_name##_t _t = { .lock = (void *)1 }, *_T = &_t;		\
		(void)_T;								\
		_lock;									\
		return _t;								\
	}

#define CLASS(_name, var)								\
	class_##_name##_t var __irqkit_guard_var(class_##_name##_destructor) =		\
		class_##_name##_constructor

/*
 * guard(name)(args): held until the end of the enclosing block.  (The
 * name is pasted, never expanded: `mutex` is a macro of <linux/mutex.h>.)
 */
#define guard(_name)									\
	class_##_name##_t __UNIQUE_ID(guard)						\
		__irqkit_guard_var(class_##_name##_destructor) =			\
		class_##_name##_constructor

/* scoped_guard(name, args) { ... }: held for the statement; break leaves it. */
#define scoped_guard(_name, ...)							\
	for (class_##_name##_t __scope __irqkit_guard_var(class_##_name##_destructor) =	\
		     class_##_name##_constructor(__VA_ARGS__), *__done = NULL;		\
	     !__done; __done = (class_##_name##_t *)1)

#endif
