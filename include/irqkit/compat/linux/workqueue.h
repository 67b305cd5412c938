/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/workqueue.h> over irqkit.  The forms with a data pointer
 * of 2.6.0-2.6.19 (DECLARE_WORK(name, func, data), INIT_WORK(work, func,
 * data), func(void *)) work in every version, chosen by the number of
 * arguments.  Delayed work depends on LINUX_VERSION_CODE: before 2.6.20 a
 * struct work_struct carries its own timer and goes to
 * schedule_delayed_work/queue_delayed_work/cancel_delayed_work itself; from
 * 2.6.20 those take a struct delayed_work.
 */
#ifndef IRQKIT_COMPAT_LINUX_WORKQUEUE_H
#define IRQKIT_COMPAT_LINUX_WORKQUEUE_H

#include <stddef.h>
#include <irqkit/workqueue.h>
#include <linux/version.h>
#include <linux/atomic.h>
#include <linux/timer.h>
#include <linux/irqkit_args.h>
#include <linux/container_of.h>

#if IRQKIT_LINUX_AT_LEAST(2, 6, 20)
#define work_struct			irqkit_work
#define delayed_work			irqkit_delayed_work
#else
/* 2.6.0-2.6.19: a work_struct carries its own timer, for schedule_delayed_work */
#define work_struct			irqkit_delayed_work
#define delayed_work			irqkit__delayed_work_needs_linux_2_6_20
#endif
#define workqueue_struct		irqkit_workqueue
typedef irqkit_work_fn work_func_t;

#define IRQKIT__WQ_NEEDS(name, ver, how)						\
	IRQKIT_ERA_ERROR(name " is Linux " ver ": build with IRQKIT_LINUX_VERSION_CODE " how)
#if IRQKIT_LINUX_AT_LEAST(6, 9, 0)
#define WQ_BH				IRQKIT_WQ_BH
#else
#define WQ_BH	IRQKIT__WQ_NEEDS("WQ_BH", "6.9 and later", ">= KERNEL_VERSION(6,9,0)")
#endif
#if IRQKIT_LINUX_AT_LEAST(6, 17, 0)
#define WQ_PERCPU			IRQKIT_WQ_PERCPU
#else
#define WQ_PERCPU	IRQKIT__WQ_NEEDS("WQ_PERCPU", "6.17 and later", ">= KERNEL_VERSION(6,17,0)")
#endif
#define WQ_UNBOUND			IRQKIT_WQ_UNBOUND
#define WQ_FREEZABLE			IRQKIT_WQ_FREEZABLE
#define WQ_MEM_RECLAIM			IRQKIT_WQ_MEM_RECLAIM
#define WQ_HIGHPRI			IRQKIT_WQ_HIGHPRI
#define WQ_CPU_INTENSIVE		IRQKIT_WQ_CPU_INTENSIVE
#define WQ_SYSFS			IRQKIT_WQ_SYSFS
#define WQ_POWER_EFFICIENT		IRQKIT_WQ_POWER_EFFICIENT
#define __WQ_ORDERED			IRQKIT__WQ_ORDERED
#define __WQ_LEGACY			IRQKIT__WQ_LEGACY
#define WQ_MAX_ACTIVE			IRQKIT_WQ_MAX_ACTIVE
#define WQ_DFL_ACTIVE			IRQKIT_WQ_DFL_ACTIVE
#define WORK_CPU_UNBOUND		IRQKIT_WORK_CPU_UNBOUND

#if IRQKIT_LINUX_AT_LEAST(2, 6, 20)
#define IRQKIT__DECLARE_WORK2(n, f)	struct work_struct n = IRQKIT_WORK_INIT(f)
#define IRQKIT__DECLARE_WORK3(n, f, d)	struct work_struct n = IRQKIT_WORK_INIT_26(f, d)
#define IRQKIT__INIT_WORK2(w, f)	irqkit_init_work((w), (f))
#define IRQKIT__INIT_WORK3(w, f, d)	irqkit_init_work_26((w), (f), (d))
#define PREPARE_WORK(w, f, d)		((w)->func = NULL, (w)->func26 = (f), (w)->data26 = (d))
#define IRQKIT__W(w)			(w)	/* the irqkit work item of a work_struct */

#define DECLARE_DELAYED_WORK(n, f)	struct delayed_work n = IRQKIT_DELAYED_WORK_INIT(n, f)
#define INIT_DELAYED_WORK(dw, f)	irqkit_init_delayed_work((dw), (f))
#define to_delayed_work(w)		((struct delayed_work *)((char *)(w) -		\
					 offsetof(struct delayed_work, work)))
#else
#define IRQKIT__NEEDS_2_6_20(what)							\
	what " is Linux 2.6.20 and later (struct delayed_work, work functions taking "	\
	"the work_struct *): build with IRQKIT_LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,20)"
#define IRQKIT__DECLARE_WORK2(n, f)	IRQKIT_ERA_ERROR_DECL(IRQKIT__NEEDS_2_6_20("DECLARE_WORK(name, func)"))
#define IRQKIT__DECLARE_WORK3(n, f, d)	struct work_struct n = IRQKIT_DELAYED_WORK_INIT_26(n, f, d)
#define IRQKIT__INIT_WORK2(w, f)	IRQKIT_ERA_ERROR(IRQKIT__NEEDS_2_6_20("INIT_WORK(work, func)"))
#define IRQKIT__INIT_WORK3(w, f, d)	irqkit_init_delayed_work_26((w), (f), (d))
#define PREPARE_WORK(w, f, d)								\
	((w)->work.func = NULL, (w)->work.func26 = (f), (w)->work.data26 = (d))
#define IRQKIT__W(w)			(&(w)->work)
#define DECLARE_DELAYED_WORK(n, f)	IRQKIT_ERA_ERROR_DECL(IRQKIT__NEEDS_2_6_20("DECLARE_DELAYED_WORK"))
#define INIT_DELAYED_WORK(dw, f)	IRQKIT_ERA_ERROR(IRQKIT__NEEDS_2_6_20("INIT_DELAYED_WORK"))
#endif
#define DECLARE_WORK(...)		IRQKIT__BY_NARGS(IRQKIT__DECLARE_WORK, __VA_ARGS__)
#define INIT_WORK(...)			IRQKIT__BY_NARGS(IRQKIT__INIT_WORK, __VA_ARGS__)

#define work_pending(w)			irqkit_work_pending(IRQKIT__W(w))
#define delayed_work_pending(dw)	irqkit_delayed_work_pending(dw)

#define alloc_workqueue(fmt, flags, max_active, ...)					\
	irqkit_alloc_workqueue((fmt), (flags), (max_active), ##__VA_ARGS__)
#define alloc_ordered_workqueue(fmt, flags, ...)					\
	irqkit_alloc_ordered_workqueue((fmt), (flags), ##__VA_ARGS__)
#define create_workqueue(name)								\
	irqkit_alloc_workqueue("%s", __WQ_LEGACY | WQ_MEM_RECLAIM, 1, (name))
#define create_singlethread_workqueue(name)						\
	irqkit_alloc_ordered_workqueue("%s", __WQ_LEGACY | WQ_MEM_RECLAIM, (name))
#define destroy_workqueue(wq)		irqkit_destroy_workqueue(wq)

#define system_wq			irqkit_system_wq()
#define system_highpri_wq		irqkit_system_highpri_wq()
#define system_unbound_wq		irqkit_system_unbound_wq()
#if IRQKIT_LINUX_AT_LEAST(6, 9, 0)
#define system_bh_wq			irqkit_system_bh_wq()
#define system_bh_highpri_wq		irqkit_system_bh_highpri_wq()
/* from_work: the object a work item is embedded in, as from_tasklet is for a tasklet */
#define from_work(var, callback_work, work_fieldname)					\
	container_of(callback_work, __typeof__(*(var)), work_fieldname)
#else
#define system_bh_wq	IRQKIT__WQ_NEEDS("system_bh_wq", "6.9 and later", ">= KERNEL_VERSION(6,9,0)")
#define system_bh_highpri_wq										\
	IRQKIT__WQ_NEEDS("system_bh_highpri_wq", "6.9 and later", ">= KERNEL_VERSION(6,9,0)")
#define from_work(var, callback_work, work_fieldname)					\
	IRQKIT__WQ_NEEDS("from_work()", "6.9 and later", ">= KERNEL_VERSION(6,9,0)")
#endif

#define queue_work_on(cpu, wq, w)	irqkit_queue_work_on((cpu), (wq), IRQKIT__W(w))
#define queue_work(wq, w)		irqkit_queue_work((wq), IRQKIT__W(w))
#define schedule_work(w)		irqkit_schedule_work(IRQKIT__W(w))
#if IRQKIT_LINUX_AT_LEAST(2, 6, 20)
/*
 * Linux 2.6.0-2.6.19 queued delayed work through a struct work_struct that
 * carried its own timer; from 2.6.20 it takes a struct delayed_work.  Passing
 * a work_struct here would write a timer past the end of it, so the old form
 * stops the build instead, naming the change and the version to build for.
 */
#define __irqkit_not_26_delayed_work(dw, fn) ((void)sizeof(struct {			\
	_Static_assert(!__builtin_types_compatible_p(__typeof__(dw), struct work_struct *),	\
		       fn "() takes a struct delayed_work since Linux 2.6.20; for the 2.6.0-2.6.19 "\
		       "form with a struct work_struct build with IRQKIT_LINUX_VERSION_CODE < "	\
		       "KERNEL_VERSION(2,6,20), or use DECLARE_DELAYED_WORK/INIT_DELAYED_WORK");	\
	int __irqkit_unused; }))
#else
#define __irqkit_not_26_delayed_work(dw, fn)	((void)0)
#endif
#define queue_delayed_work_on(cpu, wq, dw, d)						\
	(__irqkit_not_26_delayed_work(dw, "queue_delayed_work_on"),			\
	 irqkit_queue_delayed_work_on((cpu), (wq), (dw), (d)))
#define queue_delayed_work(wq, dw, d)							\
	(__irqkit_not_26_delayed_work(dw, "queue_delayed_work"),			\
	 irqkit_queue_delayed_work((wq), (dw), (d)))
#define schedule_delayed_work(dw, d)							\
	(__irqkit_not_26_delayed_work(dw, "schedule_delayed_work"),			\
	 irqkit_schedule_delayed_work((dw), (d)))
#define mod_delayed_work_on(cpu, wq, dw, d)	irqkit_mod_delayed_work_on((cpu), (wq), (dw), (d))
#define mod_delayed_work(wq, dw, d)	irqkit_mod_delayed_work((wq), (dw), (d))
#define flush_work(w)			irqkit_flush_work(IRQKIT__W(w))
#define flush_delayed_work(dw)		irqkit_flush_delayed_work(dw)
#define flush_workqueue(wq)		irqkit_flush_workqueue(wq)
#define drain_workqueue(wq)		irqkit_drain_workqueue(wq)
#define flush_scheduled_work()		irqkit_flush_scheduled_work()
#define cancel_work_sync(w)		irqkit_cancel_work_sync(IRQKIT__W(w))
#define cancel_delayed_work(dw)							\
	(__irqkit_not_26_delayed_work(dw, "cancel_delayed_work"),			\
	 irqkit_cancel_delayed_work(dw))
#define cancel_delayed_work_sync(dw)	irqkit_cancel_delayed_work_sync(dw)

/*
 * The on-stack forms (Linux's debug-objects annotations): the plain forms
 * here, and destroying one is nothing to do.
 */
#define INIT_WORK_ONSTACK(...)		INIT_WORK(__VA_ARGS__)
#define destroy_work_on_stack(w)	((void)(w))
#if IRQKIT_LINUX_AT_LEAST(2, 6, 20)
#define INIT_DELAYED_WORK_ONSTACK(dw, f)	INIT_DELAYED_WORK((dw), (f))
#define destroy_delayed_work_on_stack(dw)	((void)(dw))
#endif

/* Disabling a work item: Linux 6.10 (enable_and_queue_work a little later). */
#if IRQKIT_LINUX_AT_LEAST(6, 10, 0)
#define disable_work(w)			irqkit_disable_work(IRQKIT__W(w))
#define disable_work_sync(w)		irqkit_disable_work_sync(IRQKIT__W(w))
#define enable_work(w)			irqkit_enable_work(IRQKIT__W(w))
#define disable_delayed_work(dw)	irqkit_disable_delayed_work(dw)
#define disable_delayed_work_sync(dw)	irqkit_disable_delayed_work_sync(dw)
#define enable_delayed_work(dw)		irqkit_enable_delayed_work(dw)
#define enable_and_queue_work(wq, w)	irqkit_enable_and_queue_work((wq), IRQKIT__W(w))
#else
#define IRQKIT__NEEDS_6_10(name)	IRQKIT__WQ_NEEDS(name, "6.10 and later", ">= KERNEL_VERSION(6,10,0)")
#define disable_work(w)			IRQKIT__NEEDS_6_10("disable_work()")
#define disable_work_sync(w)		IRQKIT__NEEDS_6_10("disable_work_sync()")
#define enable_work(w)			IRQKIT__NEEDS_6_10("enable_work()")
#define disable_delayed_work(dw)	IRQKIT__NEEDS_6_10("disable_delayed_work()")
#define disable_delayed_work_sync(dw)	IRQKIT__NEEDS_6_10("disable_delayed_work_sync()")
#define enable_delayed_work(dw)		IRQKIT__NEEDS_6_10("enable_delayed_work()")
#define enable_and_queue_work(wq, w)	IRQKIT__NEEDS_6_10("enable_and_queue_work()")
#endif

#endif
