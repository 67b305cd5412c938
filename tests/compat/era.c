// SPDX-License-Identifier: MIT
/*
 * Compile cases of the version choice (<linux/version.h>): each CASE_x uses
 * a form that the chosen version does not have and must stop the build with
 * a message naming the version that has it.  Without a CASE the file
 * compiles in every version: the controls.
 */
#include <linux/version.h>
#include <linux/kernel.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <linux/wait.h>
#include <linux/semaphore.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/gfp.h>

#if !IRQKIT_LINUX_AT_LEAST(4, 15, 0)
static void old_fn(unsigned long data) { (void)data; }
#else
static void new_fn(struct timer_list *t) { (void)t; }
#endif
#if !IRQKIT_LINUX_AT_LEAST(2, 6, 20)
static void work_fn(void *data) { (void)data; }
#else
static void work_fn(struct work_struct *w) { (void)w; }
#endif

#if defined(CASE_define_timer2_in_26)
DEFINE_TIMER(t2, old_fn);
#elif defined(CASE_define_timer4_now)
DEFINE_TIMER(t4, new_fn, 0, 0);
#elif defined(CASE_declare_delayed_work_in_26)
DECLARE_DELAYED_WORK(dw, work_fn);
#elif defined(CASE_declare_mutex_now)
DECLARE_MUTEX(sem);
#endif

int use(void);
int use(void)
{
	struct timer_list t;
	struct work_struct w;
	wait_queue_head_t q;

	(void)q;
#if !IRQKIT_LINUX_AT_LEAST(4, 15, 0)
	setup_timer(&t, old_fn, 0);
	t.data = 1;
#else
	timer_setup(&t, new_fn, 0);
#endif
#if !IRQKIT_LINUX_AT_LEAST(2, 6, 20)
	INIT_WORK(&w, work_fn, NULL);
	schedule_delayed_work(&w, 1);
#else
	INIT_WORK(&w, work_fn);
#endif
#if defined(CASE_timer_setup_in_26)
	timer_setup(&t, old_fn, 0);
#elif defined(CASE_from_timer_in_26)
	(void)from_timer(&t, &t, data);
#elif defined(CASE_init_timer_now)
	init_timer(&t);
#elif defined(CASE_setup_timer_now)
	setup_timer(&t, new_fn, 0);
#elif defined(CASE_timer_data_now)
	t.data = 0;
#elif defined(CASE_init_delayed_work_in_26)
	INIT_DELAYED_WORK(&w, work_fn);
#elif defined(CASE_init_work2_in_26)
	INIT_WORK(&w, (void (*)(struct work_struct *))work_fn);
#elif defined(CASE_devm_request_irq_in_26)
	(void)devm_request_irq((struct device *)0, 1, (irqreturn_t (*)(int, void *))0, 0, "x",
			       (void *)0);
#elif defined(CASE_devm_kzalloc_in_26)
	(void)devm_kzalloc((struct device *)0, 8, GFP_KERNEL);
#elif defined(CASE_request_percpu_irq_in_26)
	(void)request_percpu_irq(1, (irqreturn_t (*)(int, void *))0, "x", (void *)0);
#elif defined(CASE_sleep_on_now)
	interruptible_sleep_on(&q);
#elif defined(CASE_system_bh_wq_in_6_1)
	(void)queue_work(system_bh_wq, &w);
#elif defined(CASE_wq_bh_in_6_1)
	(void)alloc_workqueue("x", WQ_BH, 0);
#elif defined(CASE_from_work_in_6_1)
	(void)from_work((struct work_struct *)0, &w, entry);
#elif defined(CASE_disable_work_in_6_9)
	(void)disable_work_sync(&w);
#elif defined(CASE_wq_percpu_in_6_9)
	(void)alloc_workqueue("x", WQ_PERCPU, 0);
#elif defined(CASE_init_mutex_now)
	{
		struct semaphore s;

		init_MUTEX(&s);
	}
#endif
	return (int)work_pending(&w);
}
