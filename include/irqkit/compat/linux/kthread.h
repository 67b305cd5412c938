/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/kthread.h> over irqkit (<irqkit/kthread.h>): kernel
 * threads created stopped, kthread_run, kthread_stop, parking, and kthread
 * workers.  Results are Linux's error pointers (<linux/err.h>).
 */
#ifndef IRQKIT_COMPAT_LINUX_KTHREAD_H
#define IRQKIT_COMPAT_LINUX_KTHREAD_H

#include <irqkit/kthread.h>
#include <linux/err.h>
#include <linux/sched.h>

#define kthread_create(threadfn, data, namefmt, ...)					\
	irqkit_kthread_create((threadfn), (data), namefmt, ##__VA_ARGS__)
/* the node is a hint Linux may ignore; here there is one */
#define kthread_create_on_node(threadfn, data, node, namefmt, ...)			\
	((void)(node), irqkit_kthread_create((threadfn), (data), namefmt, ##__VA_ARGS__))
#define kthread_create_on_cpu(threadfn, data, cpu, namefmt)				\
	irqkit_kthread_create_on_cpu((threadfn), (data), (cpu), (namefmt))

#define kthread_run(threadfn, data, namefmt, ...) ({					\
	struct task_struct *__k = kthread_create(threadfn, data, namefmt, ##__VA_ARGS__);\
	if (!IS_ERR(__k))								\
		wake_up_process(__k);							\
	__k;										\
})

#define kthread_bind(k, cpu)		irqkit_kthread_bind((k), (cpu))
#define kthread_stop(k)			irqkit_kthread_stop(k)
#define kthread_should_stop()		irqkit_kthread_should_stop()
#define kthread_should_park()		irqkit_kthread_should_park()
#define kthread_parkme()		irqkit_kthread_parkme()
#define kthread_park(k)			irqkit_kthread_park(k)
#define kthread_unpark(k)		irqkit_kthread_unpark(k)
#define kthread_data(k)			irqkit_kthread_data(k)
#define is_kthread(k)			irqkit_is_kthread(k)	/* for tests: PF_KTHREAD */

#define kthread_worker			irqkit_kthread_worker
#define kthread_work			irqkit_kthread_work
typedef irqkit_kthread_work_func_t	kthread_work_func_t;
#define KTW_FREEZABLE			(1u << 0)
#define KTHREAD_WORKER_INIT(worker)	IRQKIT_KTHREAD_WORKER_INIT(worker)
#define KTHREAD_WORK_INIT(work, fn)	IRQKIT_KTHREAD_WORK_INIT(work, fn)
#define DEFINE_KTHREAD_WORKER(worker)							\
	struct kthread_worker worker = KTHREAD_WORKER_INIT(worker)
#define DEFINE_KTHREAD_WORK(work, fn)							\
	struct kthread_work work = KTHREAD_WORK_INIT(work, fn)
#define kthread_init_worker(worker)	irqkit_kthread_init_worker(worker)
#define kthread_init_work(work, fn)	irqkit_kthread_init_work((work), (fn))
#define kthread_worker_fn		irqkit_kthread_worker_fn
#define kthread_create_worker(flags, namefmt, ...)					\
	irqkit_kthread_create_worker((flags), namefmt, ##__VA_ARGS__)
#define kthread_run_worker(flags, namefmt, ...)						\
	irqkit_kthread_create_worker((flags), namefmt, ##__VA_ARGS__)
#define kthread_create_worker_on_cpu(cpu, flags, namefmt)				\
	irqkit_kthread_create_worker_on_cpu((cpu), (flags), (namefmt))
#define kthread_queue_work(worker, work) irqkit_kthread_queue_work((worker), (work))
#define kthread_flush_work(work)	irqkit_kthread_flush_work(work)
#define kthread_flush_worker(worker)	irqkit_kthread_flush_worker(worker)
#define kthread_cancel_work_sync(work)	irqkit_kthread_cancel_work_sync(work)
#define kthread_destroy_worker(worker)	irqkit_kthread_destroy_worker(worker)

#endif
