/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/workqueue.h> over irqkit.  The modern forms
 * (DECLARE_WORK(name, func), INIT_WORK(work, func), func(struct work_struct *))
 * and the 2.6.0-2.6.19 forms with a data pointer (DECLARE_WORK(name, func,
 * data), INIT_WORK(work, func, data), func(void *)) are chosen by the number
 * of arguments, so code of either era builds.
 */
#ifndef IRQKIT_COMPAT_LINUX_WORKQUEUE_H
#define IRQKIT_COMPAT_LINUX_WORKQUEUE_H

#include <stddef.h>
#include <irqkit/workqueue.h>
#include <linux/timer.h>
#include <linux/irqkit_args.h>
#include <linux/container_of.h>

#define work_struct			irqkit_work
#define delayed_work			irqkit_delayed_work
#define workqueue_struct		irqkit_workqueue
typedef irqkit_work_fn work_func_t;

#define WQ_BH				IRQKIT_WQ_BH
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

#define IRQKIT__DECLARE_WORK2(n, f)	struct work_struct n = IRQKIT_WORK_INIT(f)
#define IRQKIT__DECLARE_WORK3(n, f, d)	struct work_struct n = IRQKIT_WORK_INIT_26(f, d)
#define DECLARE_WORK(...)		IRQKIT__BY_NARGS(IRQKIT__DECLARE_WORK, __VA_ARGS__)
#define IRQKIT__INIT_WORK2(w, f)	irqkit_init_work((w), (f))
#define IRQKIT__INIT_WORK3(w, f, d)	irqkit_init_work_26((w), (f), (d))
#define INIT_WORK(...)			IRQKIT__BY_NARGS(IRQKIT__INIT_WORK, __VA_ARGS__)
#define PREPARE_WORK(w, f, d)		((w)->func = NULL, (w)->func26 = (f), (w)->data26 = (d))

#define DECLARE_DELAYED_WORK(n, f)	struct delayed_work n = IRQKIT_DELAYED_WORK_INIT(n, f)
#define INIT_DELAYED_WORK(dw, f)	irqkit_init_delayed_work((dw), (f))
#define to_delayed_work(w)		((struct delayed_work *)((char *)(w) -		\
					 offsetof(struct delayed_work, work)))

#define work_pending(w)			irqkit_work_pending(w)
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

#define queue_work_on(cpu, wq, w)	irqkit_queue_work_on((cpu), (wq), (w))
#define queue_work(wq, w)		irqkit_queue_work((wq), (w))
#define schedule_work(w)		irqkit_schedule_work(w)
/*
 * Linux 2.6.0-2.6.19 queued delayed work through a struct work_struct that
 * carried its own timer; from 2.6.20 it takes a struct delayed_work.  Passing
 * a work_struct here would write a timer past the end of it, so the old form
 * stops the build instead, naming the change.
 */
#define __irqkit_not_26_delayed_work(dw, fn) ((void)sizeof(struct {			\
	_Static_assert(!__builtin_types_compatible_p(__typeof__(dw), struct work_struct *),	\
		       fn "() takes a struct delayed_work since Linux 2.6.20; the 2.6.0-2.6.19 "	\
		       "form with a struct work_struct is not supported: use "			\
		       "DECLARE_DELAYED_WORK/INIT_DELAYED_WORK");				\
	int __irqkit_unused; }))
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
#define flush_work(w)			irqkit_flush_work(w)
#define flush_delayed_work(dw)		irqkit_flush_delayed_work(dw)
#define flush_workqueue(wq)		irqkit_flush_workqueue(wq)
#define drain_workqueue(wq)		irqkit_drain_workqueue(wq)
#define flush_scheduled_work()		irqkit_flush_scheduled_work()
#define cancel_work_sync(w)		irqkit_cancel_work_sync(w)
#define cancel_delayed_work(dw)							\
	(__irqkit_not_26_delayed_work(dw, "cancel_delayed_work"),			\
	 irqkit_cancel_delayed_work(dw))
#define cancel_delayed_work_sync(dw)	irqkit_cancel_delayed_work_sync(dw)

#endif
