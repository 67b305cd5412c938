// SPDX-License-Identifier: MIT
/*
 * A work-queue driver in 2.6 style (2.6.10 era), with the later forms behind
 * LINUX_VERSION_CODE.  Before 2.6.20 a struct work_struct carries its own
 * timer and goes to schedule_delayed_work() itself, and the work function
 * takes a void * of data; from 2.6.20 a struct delayed_work does and the
 * function takes the work_struct *.
 */
#include <linux/version.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/preempt.h>
#include <linux/workqueue.h>
#include <linux/wait.h>
#include <linux/timer.h>
#include <linux/completion.h>
#include <linux/semaphore.h>
#include <linux/slab.h>
#include <string.h>

#include "drv_workq.h"

struct clientdata {
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 20)
	struct work_struct	work;		/* its own timer, for the delayed form */
#else
	struct work_struct	work;
	struct delayed_work	dwork;
#endif
	int			delay;
	int			loops;
	int			n;
	unsigned long		jiffies;	/* a member named jiffies, as jiq.c has */
	struct workq_sample	*out;
	wait_queue_head_t	wait;
};

static struct clientdata data;

static int workq_print(struct clientdata *d)
{
	struct workq_sample *s = &d->out[d->n++];

	s->j = jiffies;
	s->in_interrupt = in_interrupt() ? 1 : 0;
	s->preempt = preempt_count();
	memcpy(s->comm, current->comm, sizeof(s->comm));	/* both TASK_COMM_LEN */
	d->jiffies = s->j;
	smp_store_release(&d->loops, d->loops - 1);
	if (d->loops == 0) {
		wake_up_interruptible(&d->wait);
		return 0;
	}
	return 1;
}

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 20)
static void workq_fn(void *ptr)
{
	struct clientdata *d = ptr;

	if (!workq_print(d))
		return;
	if (d->delay)
		schedule_delayed_work(&d->work, d->delay);
	else
		schedule_work(&d->work);
}
#else
static void workq_fn(struct work_struct *work)
{
	struct clientdata *d = container_of(work, struct clientdata, work);

	if (workq_print(d))
		schedule_work(&d->work);
}

static void workq_delayed_fn(struct work_struct *work)
{
	struct clientdata *d = container_of(to_delayed_work(work), struct clientdata, dwork);

	if (workq_print(d))
		schedule_delayed_work(&d->dwork, d->delay);
}
#endif

void workq_run(int delay, struct workq_sample *out)
{
	DEFINE_WAIT(wait);

	memset(&data, 0, sizeof(data));
	init_waitqueue_head(&data.wait);
	data.out = out;
	data.delay = delay;
	data.loops = WORKQ_LOOPS + 1;
	workq_print(&data);			/* the process itself, first */
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 20)
	INIT_WORK(&data.work, workq_fn, &data);
#else
	INIT_WORK(&data.work, workq_fn);
	INIT_DELAYED_WORK(&data.dwork, workq_delayed_fn);
#endif
	prepare_to_wait(&data.wait, &wait, TASK_INTERRUPTIBLE);
	if (delay) {
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 20)
		schedule_delayed_work(&data.work, delay);
#else
		schedule_delayed_work(&data.dwork, delay);
#endif
	} else {
		schedule_work(&data.work);
	}
	if (smp_load_acquire(&data.loops))
		schedule();
	finish_wait(&data.wait, &wait);
	wait_event(data.wait, smp_load_acquire(&data.loops) == 0);	/* a wake-up may come before the last run ends */
	flush_scheduled_work();
}

static int cancelled_ran;

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 20)
static void never_fn(void *ptr)
{
	(void)ptr;
	WRITE_ONCE(cancelled_ran, 1);
}
#else
static void never_fn(struct work_struct *work)
{
	(void)work;
	WRITE_ONCE(cancelled_ran, 1);
}
#endif

int workq_cancel_pending(int delay)
{
	int was_pending;

	WRITE_ONCE(cancelled_ran, 0);
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 20)
	INIT_WORK(&data.work, never_fn, NULL);
	schedule_delayed_work(&data.work, delay);
	was_pending = cancel_delayed_work(&data.work);
#else
	INIT_DELAYED_WORK(&data.dwork, never_fn);
	schedule_delayed_work(&data.dwork, delay);
	was_pending = cancel_delayed_work(&data.dwork);
#endif
	flush_scheduled_work();
	return was_pending && !READ_ONCE(cancelled_ran);
}

/* ---- a private queue, a semaphore and a completion ------------------------------------- */

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 37)
static DECLARE_MUTEX(count_sem);		/* a semaphore used as a lock, 2.6 style */
#else
static DEFINE_SEMAPHORE(count_sem, 1);
#endif
static int counted;
static atomic_t left;
static DECLARE_COMPLETION(all_done);

struct item {
	struct work_struct	work;
};

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 20)
static void item_fn(void *ptr)
{
	struct item *it = ptr;
#else
static void item_fn(struct work_struct *work)
{
	struct item *it = container_of(work, struct item, work);
#endif
	(void)it;
	down(&count_sem);
	counted++;
	up(&count_sem);
	if (atomic_dec_and_test(&left))
		complete(&all_done);
}

int workq_private_queue(int n)
{
	struct workqueue_struct *wq = create_singlethread_workqueue("drvq");
	struct item *items = kcalloc((size_t)n, sizeof(*items), GFP_KERNEL);
	int ret;

	if (!wq || !items)
		return -ENOMEM;
	counted = 0;
	atomic_set(&left, n);
#if LINUX_VERSION_CODE < KERNEL_VERSION(3, 13, 0)
	INIT_COMPLETION(all_done);
#else
	reinit_completion(&all_done);
#endif
	for (int i = 0; i < n; i++) {
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 20)
		INIT_WORK(&items[i].work, item_fn, &items[i]);
#else
		INIT_WORK(&items[i].work, item_fn);
#endif
		queue_work(wq, &items[i].work);
	}
	wait_for_completion(&all_done);
	flush_workqueue(wq);
	destroy_workqueue(wq);
	kfree(items);
	down(&count_sem);
	ret = counted;
	up(&count_sem);
	return ret;
}

/* ---- a timer wakes a sleeping reader ---------------------------------------------------- */

static DECLARE_WAIT_QUEUE_HEAD(timer_wait);
static int timed_out;

#if LINUX_VERSION_CODE < KERNEL_VERSION(4, 15, 0)
static void wake_fn(unsigned long ptr)
{
	(void)ptr;
#else
static void wake_fn(struct timer_list *t)
{
	(void)t;
#endif
	WRITE_ONCE(timed_out, 1);
	wake_up_interruptible(&timer_wait);
}

unsigned long workq_timer_wakes_sleeper(int delay)
{
	struct timer_list timer;
	unsigned long j0 = jiffies;

	WRITE_ONCE(timed_out, 0);
#if LINUX_VERSION_CODE < KERNEL_VERSION(4, 15, 0)
	init_timer(&timer);
	timer.function = wake_fn;
	timer.data = 0;
	timer.expires = j0 + delay;
	add_timer(&timer);
#else
	timer_setup(&timer, wake_fn, 0);
	mod_timer(&timer, j0 + delay);
#endif
#if LINUX_VERSION_CODE < KERNEL_VERSION(3, 15, 0)
	/* 2.6's way, racy as the book says: the timer may fire before we sleep */
	while (!READ_ONCE(timed_out))
		interruptible_sleep_on_timeout(&timer_wait, HZ);
#else
	wait_event_interruptible(timer_wait, READ_ONCE(timed_out));
#endif
	del_timer_sync(&timer);
	return jiffies - j0;
}
