// SPDX-License-Identifier: MIT
/*
 * Bottom halves through the Linux-name layer: a 2.6.9-era driver (tasklets
 * with an unsigned long, work items with a void * argument, create_workqueue)
 * and a current one (tasklet_setup/from_tasklet, work_struct callbacks with
 * container_of, delayed work, timer_setup/from_timer, request_threaded_irq)
 * build unchanged, side by side, and behave as Linux says.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/spinlock.h>
#include <linux/hardirq.h>
#include <linux/workqueue.h>
#include <linux/timer.h>
#include <linux/jiffies.h>
#include <linux/delay.h>

#include <string.h>

#define MS 1000000ull

/* ---- a 2.6.9-era driver -------------------------------------------------------------- */

struct old_nic {
	spinlock_t	lock;
	int		rx_ready;	/* the device's status register */
	int		rx_tasklet_runs;
	unsigned long	tasklet_data;
	int		tasklet_in_softirq;
	int		refill_runs;
	void		*refill_data;
	int		refill_in_task;
	int		reset_runs;
};

static struct old_nic nic = { .lock = __SPIN_LOCK_UNLOCKED(nic.lock) };

static void old_rx_tasklet(unsigned long data)
{
	struct old_nic *n = (struct old_nic *)data;

	n->tasklet_data = data;
	n->tasklet_in_softirq = in_softirq() && !in_irq();
	n->rx_tasklet_runs++;
}

static DECLARE_TASKLET(old_rx, old_rx_tasklet, (unsigned long)&nic);

static void old_refill(void *data)
{
	struct old_nic *n = data;

	n->refill_data = data;
	n->refill_in_task = !in_interrupt();
	n->refill_runs++;
}

static DECLARE_WORK(old_refill_work, old_refill, &nic);

static void old_reset(void *data)
{
	((struct old_nic *)data)->reset_runs++;
}

static irqreturn_t old_nic_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct old_nic *n = dev_id;
	int mine;

	(void)irq;
	(void)regs;
	spin_lock(&n->lock);
	mine = n->rx_ready;
	n->rx_ready = 0;
	spin_unlock(&n->lock);
	if (mine) {
		tasklet_schedule(&old_rx);
		schedule_work(&old_refill_work);
	}
	return IRQ_RETVAL(mine);
}

static void test_26_tasklet_and_work_forms_build_and_run(void **state)
{
	struct tasklet_struct later;
	struct work_struct reset;
	struct workqueue_struct *wq;
	int irq = T_EDGE(2);

	(void)state;
	assert_int_equal(request_irq(irq, old_nic_interrupt, SA_SHIRQ, "oldnic", &nic), 0);
	nic.rx_ready = 1;
	irqkit_sw_raise((unsigned int)irq);	/* top half runs, tasklet runs at irq exit */
	assert_int_equal(nic.rx_tasklet_runs, 1);
	assert_int_equal(nic.tasklet_data, (unsigned long)&nic);
	assert_true(nic.tasklet_in_softirq);
	flush_scheduled_work();
	assert_int_equal(nic.refill_runs, 1);
	assert_ptr_equal(nic.refill_data, &nic);
	assert_true(nic.refill_in_task);

	/* tasklet_init with data; DECLARE_TASKLET_DISABLED waits for tasklet_enable */
	tasklet_init(&later, old_rx_tasklet, (unsigned long)&nic);
	tasklet_disable(&later);
	tasklet_schedule(&later);
	irqkit_deliver_pending();
	assert_int_equal(nic.rx_tasklet_runs, 1);
	tasklet_enable(&later);
	irqkit_deliver_pending();
	assert_int_equal(nic.rx_tasklet_runs, 2);
	tasklet_kill(&later);

	/* INIT_WORK with data, PREPARE_WORK, create_workqueue, queue_work, flush_workqueue */
	wq = create_workqueue("oldnic");
	assert_non_null(wq);
	INIT_WORK(&reset, old_refill, &nic);
	PREPARE_WORK(&reset, old_reset, &nic);
	assert_true(queue_work(wq, &reset));
	flush_workqueue(wq);
	assert_int_equal(nic.reset_runs, 1);
	assert_int_equal(nic.refill_runs, 1);	/* PREPARE_WORK replaced the function */
	destroy_workqueue(wq);

	free_irq(irq, &nic);
	tasklet_kill(&old_rx);
}

/* ---- a current driver ---------------------------------------------------------------- */

struct new_dev {
	struct tasklet_struct	bh;
	struct work_struct	work;
	struct delayed_work	poll;
	struct timer_list	watchdog;
	int			bh_runs, work_runs, poll_runs, watchdog_runs, thread_runs;
	unsigned long		poll_at, watchdog_at;
	char			thread_name[16];
	int			thread_in_task;
	atomic_int		status;
};

static struct new_dev nd;

static void new_bh(struct tasklet_struct *t)
{
	struct new_dev *d = from_tasklet(d, t, bh);

	d->bh_runs++;
}

static void new_work(struct work_struct *w)
{
	struct new_dev *d = container_of(w, struct new_dev, work);

	d->work_runs++;
}

static void new_poll(struct work_struct *w)
{
	struct new_dev *d = container_of(to_delayed_work(w), struct new_dev, poll);

	d->poll_at = jiffies;
	d->poll_runs++;
}

static void new_watchdog(struct timer_list *t)
{
	struct new_dev *d = from_timer(d, t, watchdog);

	d->watchdog_at = jiffies;
	d->watchdog_runs++;
}

static irqreturn_t new_hardirq(int irq, void *dev_id)
{
	struct new_dev *d = dev_id;

	(void)irq;
	if (!atomic_exchange(&d->status, 0))
		return IRQ_NONE;
	tasklet_schedule(&d->bh);
	return IRQ_WAKE_THREAD;
}

static irqreturn_t new_thread(int irq, void *dev_id)
{
	struct new_dev *d = dev_id;

	(void)irq;
	pthread_getname_np(pthread_self(), d->thread_name, sizeof(d->thread_name));
	d->thread_in_task = in_task();
	d->thread_runs++;
	irqkit_sw_set_level((unsigned int)irq, false);	/* the transfer is done */
	schedule_work(&d->work);
	return IRQ_HANDLED;
}

static int hi_runs;
static struct tasklet_struct *hi_seen;

static void hi_callback(struct tasklet_struct *t)
{
	hi_seen = t;
	hi_runs++;
}

static DECLARE_TASKLET(new_hi, hi_callback);	/* the 2-argument form: a callback */

static void test_current_forms_build_and_run(void **state)
{
	unsigned long t0;
	int irq = T_LEVEL(3);
	char want[16];

	(void)state;
	memset(&nd, 0, sizeof(nd));
	assert_int_equal(HZ, 1000);
	tasklet_setup(&nd.bh, new_bh);
	INIT_WORK(&nd.work, new_work);
	INIT_DELAYED_WORK(&nd.poll, new_poll);
	timer_setup(&nd.watchdog, new_watchdog, 0);

	assert_int_equal(request_threaded_irq(irq, new_hardirq, new_thread, IRQF_ONESHOT,
					      "newdev", &nd), 0);
	atomic_store(&nd.status, 1);
	irqkit_sw_set_level((unsigned int)irq, true);	/* the device asserts; its thread lowers */
	synchronize_irq(irq);			/* waits for the thread as well */
	assert_int_equal(nd.bh_runs, 1);
	assert_int_equal(nd.thread_runs, 1);
	snprintf(want, sizeof(want), "irq/%d-newdev", irq);
	assert_string_equal(nd.thread_name, want);
	assert_true(nd.thread_in_task);
	flush_work(&nd.work);
	assert_int_equal(nd.work_runs, 1);

	t0 = jiffies;
	assert_false(timer_pending(&nd.watchdog));
	assert_int_equal(mod_timer(&nd.watchdog, jiffies + msecs_to_jiffies(5)), 0);
	assert_true(timer_pending(&nd.watchdog));
	assert_true(schedule_delayed_work(&nd.poll, msecs_to_jiffies(20)));
	assert_true(delayed_work_pending(&nd.poll));
	msleep(5);				/* the virtual clock moves 5 ms */
	assert_int_equal(nd.watchdog_runs, 1);
	assert_false(time_before(nd.watchdog_at, t0 + 5));
	assert_false(del_timer_sync(&nd.watchdog));
	irqkit_clock_advance(15 * MS);
	flush_delayed_work(&nd.poll);	/* the worker may have run it already */
	assert_int_equal(nd.poll_runs, 1);
	assert_true(time_after_eq(nd.poll_at, t0 + 20));

	tasklet_hi_schedule(&new_hi);
	irqkit_deliver_pending();
	assert_int_equal(hi_runs, 1);
	assert_ptr_equal(hi_seen, &new_hi);

	free_irq(irq, &nd);
	tasklet_kill(&nd.bh);
	tasklet_kill(&new_hi);
	assert_false(cancel_delayed_work_sync(&nd.poll));
	assert_false(cancel_work_sync(&nd.work));
}

/* DECLARE_TASKLET_DISABLED, both forms: scheduled, it waits for tasklet_enable. */
static int off_runs;

static void off_callback(struct tasklet_struct *t)
{
	(void)t;
	off_runs++;
}

static void off_func(unsigned long data)
{
	off_runs += (int)data;
}

static DECLARE_TASKLET_DISABLED(off_new, off_callback);
static DECLARE_TASKLET_DISABLED(off_old, off_func, 10);

static void test_declared_disabled_tasklets_wait_for_enable(void **state)
{
	(void)state;
	off_runs = 0;
	assert_int_equal(off_new.count, 1);
	tasklet_schedule(&off_new);
	tasklet_schedule(&off_old);
	irqkit_deliver_pending();
	assert_int_equal(off_runs, 0);
	assert_true(test_bit(TASKLET_STATE_SCHED, &off_new.state));
	tasklet_enable(&off_new);
	irqkit_deliver_pending();
	assert_int_equal(off_runs, 1);
	tasklet_enable(&off_old);
	irqkit_deliver_pending();
	assert_int_equal(off_runs, 11);
	assert_int_equal(off_new.count, 0);
	assert_false(test_bit(TASKLET_STATE_SCHED, &off_new.state));
	assert_false(test_bit(TASKLET_STATE_RUN, &off_old.state));
	tasklet_disable(&off_new);		/* as it was, for a second run of the program's tests */
	tasklet_disable(&off_old);
}

/*
 * ---- a driver converted from a tasklet to a BH work item ------------------------------
 *
 * As drivers carry it since Linux 6.9: the same source builds for either
 * era, the bottom half a work item on system_bh_wq where the kernel has
 * one, a tasklet before.  Built here in the current era, its bottom half
 * runs in softirq context on the CPU whose handler queued it.
 */
struct conv_dev {
	atomic_int	status;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	struct work_struct	bh;
#else
	struct tasklet_struct	bh;
#endif
	int		bh_runs, bh_cpu, irq_cpu;
	bool		bh_in_softirq;
};

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
static void conv_bh(struct work_struct *w)
{
	struct conv_dev *d = from_work(d, w, bh);
#else
static void conv_bh(struct tasklet_struct *t)
{
	struct conv_dev *d = from_tasklet(d, t, bh);
#endif
	d->bh_in_softirq = in_serving_softirq();
	d->bh_cpu = smp_processor_id();
	d->bh_runs++;
}

static irqreturn_t conv_interrupt(int irq, void *dev_id)
{
	struct conv_dev *d = dev_id;

	(void)irq;
	if (!atomic_exchange(&d->status, 0))
		return IRQ_NONE;
	d->irq_cpu = smp_processor_id();
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	queue_work(system_bh_wq, &d->bh);
#else
	tasklet_schedule(&d->bh);
#endif
	return IRQ_HANDLED;
}

static void test_driver_converted_to_bh_work_runs_its_bottom_half_in_softirq(void **state)
{
	static struct conv_dev d;
	int irq = T_EDGE(4);

	(void)state;
	memset(&d, 0, sizeof(d));
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	INIT_WORK(&d.bh, conv_bh);
#else
	tasklet_setup(&d.bh, conv_bh);
#endif
	assert_int_equal(request_irq(irq, conv_interrupt, 0, "convdev", &d), 0);
	for (int i = 1; i <= 3; i++) {
		atomic_store(&d.status, 1);
		irqkit_sw_raise((unsigned int)irq);	/* the bottom half runs at irq exit */
		synchronize_irq(irq);
		flush_work(&d.bh);
		assert_int_equal(d.bh_runs, i);
		assert_true(d.bh_in_softirq);
		assert_int_equal(d.bh_cpu, d.irq_cpu);
	}
	/* close and open, as rtl8152 does since its conversion: the bottom half off, then on */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	disable_work_sync(&d.bh);
	assert_false(queue_work(system_bh_wq, &d.bh));
	assert_true(enable_work(&d.bh));
#endif
	free_irq(irq, &d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, det_setup, det_teardown)
		T(test_26_tasklet_and_work_forms_build_and_run),
		T(test_current_forms_build_and_run),
		T(test_declared_disabled_tasklets_wait_for_enable),
		T(test_driver_converted_to_bh_work_runs_its_bottom_half_in_softirq),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
