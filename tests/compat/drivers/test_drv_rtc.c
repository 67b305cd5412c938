// SPDX-License-Identifier: MIT
/*
 * Runs the RTC-style driver (drv_rtc.c, built for 2.6.10 and for current
 * Linux): its read returns the interrupt's data, -EAGAIN without blocking,
 * and -ERESTARTSYS when the reader is signalled, by its task or by a
 * signal routed to every task.
 */
#define _GNU_SOURCE
#include "../../harness.h"
#include "drv_rtc.h"
#include "fakedev.h"

#include <linux/signal.h>

#include <unistd.h>

static int setup(void **state)
{
	(void)state;
	fakedev_wire(T_EDGE(3));
	return thr_setup_cpus(2, T_NR_IRQS);
}

struct reader {
	pthread_t		th;
	struct task_struct	*task;
	atomic_bool		started, done;
	unsigned long		data;
	long			ret;
	int			sig;
};

static void *reader_main(void *p)
{
	struct reader *r = p;

	r->task = current;
	atomic_store(&r->started, true);
	r->ret = rtc_read(&r->data, 0);
	r->sig = kernel_dequeue_signal();	/* what Linux does on the way back to user space */
	atomic_store(&r->done, true);
	return NULL;
}

static void reader_start(struct reader *r)
{
	*r = (struct reader){ 0 };
	pthread_create(&r->th, NULL, reader_main, r);
	assert_true(wait_until(atomic_load(&r->started), 5000));
	assert_true(wait_until(READ_ONCE(r->task->state) == TASK_INTERRUPTIBLE, 5000));
	usleep(10000);
	assert_false(atomic_load(&r->done));
}

static long reader_join(struct reader *r)
{
	assert_true(wait_until(atomic_load(&r->done), 10000));
	pthread_join(r->th, NULL);
	return r->ret;
}

static void test_read_returns_the_interrupts_data(void **state)
{
	struct reader r;
	unsigned long data;

	(void)state;
	assert_int_equal(rtc_open(), 0);
	assert_int_equal(rtc_open(), -EBUSY);		/* xchg on the open flag */
	assert_int_equal(rtc_read(&data, 1), -EAGAIN);
	reader_start(&r);
	fakedev_trigger();
	assert_int_equal(reader_join(&r), sizeof(unsigned long));
	assert_int_equal(r.data, 0x110);
	assert_int_equal(r.sig, 0);
	assert_int_equal(rtc_irqs(), 1);
	rtc_release();
}

static void test_a_signalled_reader_gets_erestartsys(void **state)
{
	struct reader r;

	(void)state;
	assert_int_equal(rtc_open(), 0);
	reader_start(&r);
	assert_int_equal(send_sig(SIGINT, r.task, 0), 0);
	assert_int_equal(reader_join(&r), -ERESTARTSYS);
	assert_int_equal(r.sig, SIGINT);
	/* the Ctrl-C way: every task that is not a kernel thread */
	reader_start(&r);
	assert_true(irqkit_signal_all_tasks(SIGTERM) >= 1);
	assert_int_equal(reader_join(&r), -ERESTARTSYS);
	assert_int_equal(r.sig, SIGTERM);
	flush_signals(current);				/* this thread got it too */
	/* the driver still works for the next reader */
	reader_start(&r);
	fakedev_trigger();
	assert_int_equal(reader_join(&r), sizeof(unsigned long));
	rtc_release();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_read_returns_the_interrupts_data, setup,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_a_signalled_reader_gets_erestartsys, setup,
						thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
