/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/timer.h> over irqkit: timer_list, callbacks in TIMER
 * softirq context.  Two forms, chosen by LINUX_VERSION_CODE (<linux/version.h>):
 *
 * - before 4.15: the callback takes an unsigned long, struct timer_list has
 *   a `data` field, and timers are set up with init_timer() (then function,
 *   data and expires are filled in) or setup_timer(timer, fn, data);
 * - 4.15 and later: the callback takes the struct timer_list *, found back
 *   with from_timer(); timer_setup(timer, fn, flags).
 *
 * add_timer, mod_timer, del_timer, del_timer_sync and timer_pending work in
 * both.  A form of the other era stops the build and names the version
 * that has it.
 */
#ifndef IRQKIT_COMPAT_LINUX_TIMER_H
#define IRQKIT_COMPAT_LINUX_TIMER_H

#include <stddef.h>
#include <irqkit/timer.h>
#include <linux/version.h>
#include <linux/jiffies.h>
#include <linux/container_of.h>
#include <linux/irqkit_args.h>

#define TIMER_IRQSAFE		IRQKIT_TIMER_IRQSAFE
#define TIMER_PINNED		IRQKIT_TIMER_PINNED

#if !IRQKIT_LINUX_AT_LEAST(4, 15, 0)

struct timer_list {
	unsigned long			expires;
	void				(*function)(unsigned long);
	unsigned long			data;
	struct irqkit_timer_list	irqkit_timer;	/* private */
};

/* The irqkit timer's callback: the 2.6 function with its data, read at expiry as Linux does. */
static inline void irqkit__timer_list_fn(struct irqkit_timer_list *t)
{
	struct timer_list *timer = container_of(t, struct timer_list, irqkit_timer);

	timer->function(timer->data);
}

#define TIMER_INITIALIZER(fn, exp, d) {							\
	.expires = (exp), .function = (fn), .data = (d),				\
	.irqkit_timer = { .function = irqkit__timer_list_fn } }
#define IRQKIT__DEFINE_TIMER4(n, fn, exp, d)	struct timer_list n = TIMER_INITIALIZER(fn, exp, d)
#define IRQKIT__DEFINE_TIMER2(n, fn)							\
	IRQKIT_ERA_ERROR_DECL("DEFINE_TIMER(name, callback) is the form of Linux 4.15 and later: "\
			      "build with IRQKIT_LINUX_VERSION_CODE >= KERNEL_VERSION(4,15,0), "	\
			      "or use DEFINE_TIMER(name, function, expires, data)")
#define DEFINE_TIMER(...)		IRQKIT__BY_NARGS(IRQKIT__DEFINE_TIMER, __VA_ARGS__)

/* init_timer: the irqkit part only; the driver fills in function, data and expires */
static inline void init_timer(struct timer_list *timer)
{
	irqkit_timer_setup(&timer->irqkit_timer, irqkit__timer_list_fn, 0);
}
static inline void setup_timer(struct timer_list *timer, void (*fn)(unsigned long),
			       unsigned long data)
{
	init_timer(timer);
	timer->function = fn;
	timer->data = data;
}
static inline void add_timer(struct timer_list *timer)
{
	/* a pending timer keeps its place (irqkit_add_timer reports the misuse) */
	if (!irqkit_timer_pending(&timer->irqkit_timer))
		timer->irqkit_timer.expires = timer->expires;
	irqkit_add_timer(&timer->irqkit_timer);
}
static inline int mod_timer(struct timer_list *timer, unsigned long expires)
{
	timer->expires = expires;
	return irqkit_mod_timer(&timer->irqkit_timer, expires);
}
#define del_timer(timer)		irqkit_del_timer(&(timer)->irqkit_timer)
#define del_timer_sync(timer)		irqkit_del_timer_sync(&(timer)->irqkit_timer)
#define del_singleshot_timer_sync(timer) irqkit_del_timer_sync(&(timer)->irqkit_timer)
#define try_to_del_timer_sync(timer)	irqkit_del_timer(&(timer)->irqkit_timer)
#define timer_pending(timer)		irqkit_timer_pending(&(timer)->irqkit_timer)
#define timer_setup(timer, callback, flags)						\
	IRQKIT_ERA_ERROR("timer_setup() and callbacks taking a struct timer_list * are "	\
			 "Linux 4.15 and later: build with IRQKIT_LINUX_VERSION_CODE >= "	\
			 "KERNEL_VERSION(4,15,0), or use init_timer()/setup_timer()")
#define from_timer(var, callback_timer, timer_fieldname)				\
	IRQKIT_ERA_ERROR("from_timer() is Linux 4.15 and later: build with "		\
			 "IRQKIT_LINUX_VERSION_CODE >= KERNEL_VERSION(4,15,0)")

#else	/* 4.15 and later */

#define timer_list		irqkit_timer_list

#define IRQKIT__DEFINE_TIMER2(n, fn)							\
	struct timer_list n = { .function = (fn) }
#define IRQKIT__DEFINE_TIMER4(n, fn, exp, d)						\
	IRQKIT_ERA_ERROR_DECL("DEFINE_TIMER(name, function, expires, data) is the form of "	\
			      "Linux before 4.15: build with IRQKIT_LINUX_VERSION_CODE < "	\
			      "KERNEL_VERSION(4,15,0), or use DEFINE_TIMER(name, callback)")
#define DEFINE_TIMER(...)		IRQKIT__BY_NARGS(IRQKIT__DEFINE_TIMER, __VA_ARGS__)

#define timer_setup(timer, callback, flags)	irqkit_timer_setup((timer), (callback), (flags))
#define add_timer(timer)			irqkit_add_timer(timer)
#define mod_timer(timer, expires)		irqkit_mod_timer((timer), (expires))
#define del_timer(timer)			irqkit_del_timer(timer)
#define del_timer_sync(timer)			irqkit_del_timer_sync(timer)
#define timer_pending(timer)			irqkit_timer_pending(timer)
/*
 * Linux 6.2's timer_delete()/timer_delete_sync() are not provided: timer_delete
 * is POSIX's <time.h> function, and a macro of that name would rewrite libc's
 * prototype in any file that includes both.  Use del_timer/del_timer_sync.
 */

/* from_timer(var, callback_timer, timer_fieldname): the object holding the timer */
#define from_timer(var, callback_timer, timer_fieldname)				\
	((__typeof__(var))((char *)(callback_timer) -					\
			   offsetof(__typeof__(*(var)), timer_fieldname)))
#define timer_container_of(var, callback_timer, timer_fieldname)			\
	from_timer(var, callback_timer, timer_fieldname)
#define init_timer(timer)								\
	IRQKIT_ERA_ERROR("init_timer() is gone since Linux 4.15: use timer_setup(), or build "	\
			 "with IRQKIT_LINUX_VERSION_CODE < KERNEL_VERSION(4,15,0) for the 2.6 form")
#define setup_timer(timer, fn, data)							\
	IRQKIT_ERA_ERROR("setup_timer() is gone since Linux 4.15: use timer_setup(), or build "	\
			 "with IRQKIT_LINUX_VERSION_CODE < KERNEL_VERSION(4,15,0) for the 2.6 form")

#endif

#endif
