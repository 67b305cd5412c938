// SPDX-License-Identifier: MIT
/*
 * The parallel-port-style 2.6 driver of the host tests
 * (tests/compat/drivers/drv_parport.c, LDD3's short.c in shape), built
 * unchanged for bare metal through the Linux-name layer: it finds its line
 * by probing, its top half stamps each interrupt in hardirq context on the
 * hart the line is routed to, its bottom half (a tasklet, or a work item)
 * turns the stamps into text, and a reader thread on another hart sleeps on
 * its wait queue.  The checks are the host test's.
 */
#include <irqkit/swchip.h>

#include "drv_parport.h"
#include "fakedev.h"
#include "rvtest.h"

#include <stdlib.h>
#include <string.h>

#define DEVICE_LINE	9
#define WANT		200

struct reader {
	int	want, got;
	bool	in_order;
};

static int reader_main(void *arg)
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
	return 0;
}

static void run(enum parport_bh bh)
{
	unsigned int last = irqkit_nr_cpus() - 1;
	struct reader r = { .want = WANT };
	struct parport_stats st;
	struct irqkit_thread *th;

	fakedev_ack();
	CHECK_EQ(parport_init(bh), 0);
	parport_stats(&st);
	CHECK_EQ(st.irq, DEVICE_LINE);			/* found by probing */
	CHECK_EQ(irqkit_irq_set_affinity(DEVICE_LINE, 1ull << last), 0);
	CHECK_EQ(irqkit_thread_start(&th, last, "reader", reader_main, &r), 0);
	/* the reader sleeps first: seen asleep, not given a fixed time */
	for (int ms = 0; ms < 5000 && (parport_stats(&st), st.reader_sleeps < 1); ms++)
		irqkit_msleep(1);
	for (int i = 0; i < r.want; i++) {
		fakedev_trigger();
		/* the next interrupt once this one is served (a device has one status bit) */
		/*
		 * A short spin, then sleeps: a hart that spins on another under
		 * single-threaded emulation keeps it from running until QEMU's
		 * next round-robin turn.
		 */
		for (int spin = 0; fakedev_status() && spin < 10; spin++)
			irqkit_udelay(5);
		while (fakedev_status())
			irqkit_msleep(1);
		if (i % 16 == 0)
			irqkit_msleep(2);		/* now and then the reader runs dry */
		while (parport_backlog() >= 32)
			irqkit_msleep(1);
	}
	CHECK_EQ(irqkit_thread_join(th), 0);
	parport_stats(&st);
	parport_exit();
	CHECK_EQ(st.overruns, 0);
	CHECK_EQ(r.got, r.want);
	CHECK(r.in_order);
	CHECK_EQ(st.top_halves, r.want);
	CHECK_EQ(st.top_in_hardirq, r.want);
	CHECK(st.bottom_halves >= 1);
	if (bh == PARPORT_BH_TASKLET) {
		CHECK_EQ(st.bottom_in_softirq, st.bottom_halves);
		CHECK_EQ(st.bottom_in_process, 0);
	} else {
		CHECK_EQ(st.bottom_in_process, st.bottom_halves);
		CHECK_EQ(st.bottom_in_softirq, 0);
	}
	CHECK(st.reader_sleeps >= 1);
	CHECK(rvtest_log_has("parport: irq 9"));
	rv_printf("  %d interrupts on cpu %u, %d bottom halves, %d reader sleeps\n", st.top_halves,
		  last, st.bottom_halves, st.reader_sleeps);
}

static void test_tasklet_bottom_half(void)
{
	run(PARPORT_BH_TASKLET);
}

static void test_work_queue_bottom_half(void)
{
	run(PARPORT_BH_WORK);
}

int irqkit_main(void)
{
	CHECK_EQ(irqkit_start(&(struct irqkit_config){ .log = rvtest_capture }), 0);
	/* the "board": a bank of software lines, the device wired to one the driver must find */
	CHECK_EQ(irqkit_swchip_add(8, 24, IRQKIT_TYPE_EDGE_RISING), 0);
	fakedev_wire(DEVICE_LINE);
	RUN(test_tasklet_bottom_half);
	RUN(test_work_queue_bottom_half);
	irqkit_stop();
	return rvtest_result();
}
