// SPDX-License-Identifier: MIT
/*
 * Runs the parallel-port-style driver (drv_parport.c, built for 2.6.10 in
 * one program and for current Linux in another): it must find its line by
 * probing, take every interrupt in hardirq context, run its bottom half in
 * softirq context (tasklet) or on a kworker (work), and hand every stamp to
 * a reader that sleeps on its wait queue.
 */
#include "../../harness.h"
#include "drv_parport.h"
#include "fakedev.h"

#include <stdlib.h>
#include <unistd.h>

#define DEVICE_LINE	T_EDGE(9)

static int setup(void **state)
{
	int ret = thr_setup_cpus(2, T_NR_IRQS);

	(void)state;
	fakedev_wire(DEVICE_LINE);
	fakedev_ack();
	return ret;
}

struct reader {
	int	want;		/* lines to read */
	int	got;
	bool	in_order;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	unsigned long prev = 0;
	char buf[256], line[16];
	size_t have = 0;

	r->in_order = true;
	while (r->got < r->want) {
		size_t n = parport_read(buf + have, sizeof(buf) - 1 - have);
		char *p = buf, *nl;

		have += n;
		buf[have] = '\0';
		while ((nl = strchr(p, '\n'))) {
			unsigned long j;

			memcpy(line, p, (size_t)(nl - p));
			line[nl - p] = '\0';
			j = strtoul(line, NULL, 16);
			if (r->got && (long)(j - prev) < 0)
				r->in_order = false;
			prev = j;
			r->got++;
			p = nl + 1;
		}
		have = strlen(p);
		memmove(buf, p, have);
	}
	return NULL;
}

static void run(enum parport_bh bh)
{
	struct parport_stats st;
	struct reader r = { .want = stress_scale(200) };
	pthread_t th;

	assert_int_equal(parport_init(bh), 0);
	parport_stats(&st);
	assert_int_equal(st.irq, DEVICE_LINE);		/* found by probing */
	assert_int_equal(pthread_create(&th, NULL, reader_main, &r), 0);
	/* the reader sleeps first: seen asleep, not given a fixed time (a loaded host) */
	assert_true(wait_until((parport_stats(&st), st.reader_sleeps >= 1), 5000));
	for (int i = 0; i < r.want; i++) {
		fakedev_trigger();
		/* the next interrupt once this one is served (a device has one status bit) */
		while (fakedev_status())
			usleep(50);
		if (i % 16 == 0)
			usleep(2000);			/* now and then the reader runs dry */
		/*
		 * A starved bottom half (a loaded host) must not fall a ring
		 * behind: the device would overrun, and the stamps come back
		 * out of order.
		 */
		while (parport_backlog() >= 32)
			usleep(100);
	}
	pthread_join(th, NULL);
	parport_stats(&st);
	parport_exit();

	assert_int_equal(st.overruns, 0);
	assert_int_equal(r.got, r.want);
	assert_true(r.in_order);
	assert_int_equal(st.top_halves, r.want);
	assert_int_equal(st.top_in_hardirq, r.want);
	assert_true(st.bottom_halves >= 1);
	if (bh == PARPORT_BH_TASKLET) {
		assert_int_equal(st.bottom_in_softirq, st.bottom_halves);
		assert_int_equal(st.bottom_in_process, 0);
	} else {
		assert_int_equal(st.bottom_in_process, st.bottom_halves);
		assert_int_equal(st.bottom_in_softirq, 0);
	}
	assert_true(st.reader_sleeps >= 1);
	assert_log_contains("parport: irq 9");
}

static void test_tasklet_bottom_half(void **state)
{
	(void)state;
	run(PARPORT_BH_TASKLET);
}

static void test_work_queue_bottom_half(void **state)
{
	(void)state;
	run(PARPORT_BH_WORK);
}

/* Another device's interrupt on the shared line: the driver says IRQ_NONE. */
static void test_shared_line_other_device(void **state)
{
	struct parport_stats st;
	int before;

	(void)state;
	assert_int_equal(parport_init(PARPORT_BH_TASKLET), 0);
	/*
	 * The probe's edge was left pending on the line (as in Linux) and is
	 * replayed when the handler is requested: the device, acknowledged
	 * since, says it is not its own.
	 */
	usleep(20000);
	parport_stats(&st);
	before = st.not_mine;
	assert_true(before <= 1);
	irqkit_sw_raise(DEVICE_LINE);			/* the device did not interrupt */
	assert_true(wait_until((parport_stats(&st), st.not_mine == before + 1), 5000));
	parport_exit();
	assert_int_equal(st.top_halves, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tasklet_bottom_half, setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_work_queue_bottom_half, setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_shared_line_other_device, setup, thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
