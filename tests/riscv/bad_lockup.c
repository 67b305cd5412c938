// SPDX-License-Identifier: MIT
/*
 * Bad input: a handler that never returns, on the last hart.  The watchdog,
 * on another hart, reports the soft lockup as Linux words it; the image
 * then ends with its verdict while that hart is still stuck.  Needs two
 * harts at least (tools/run-riscv.sh runs it so).
 */
#include <irqkit/swchip.h>

#include "rvtest.h"

static volatile bool entered;

static enum irqkit_irqreturn stuck(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	entered = true;
	for (;;)
		__asm__ __volatile__("nop");
	return IRQKIT_HANDLED;
}

int irqkit_main(void)
{
	struct irqkit_config cfg = { .log = rvtest_capture, .watchdog_ms = 500 };
	unsigned int last, i;
	int dev;
	char want[40] = "soft lockup - CPU#";

	CHECK_EQ(irqkit_start(&cfg), 0);
	last = irqkit_nr_cpus() - 1;
	CHECK(last >= 1);
	want[18] = (char)('0' + last);
	want[19] = ' ';
	CHECK_EQ(irqkit_swchip_add(40, 1, IRQKIT_TYPE_EDGE_RISING), 0);
	CHECK_EQ(irqkit_request_irq(40, stuck, 0, "stuck", &dev), 0);
	CHECK_EQ(irqkit_irq_set_affinity(40, 1ull << last), 0);
	CHECK_EQ(irqkit_sw_raise(40), 0);
	for (i = 0; i < 200 && !rvtest_log_has(want); i++)
		irqkit_msleep(50);
	CHECK(entered);
	CHECK(rvtest_log_has(want));
	CHECK(rvtest_log_has("handler stuck"));	/* the report names the handler that runs there */
	/* this hart still runs threads and timers */
	irqkit_msleep(10);
	return rvtest_result();			/* no stop: the last hart is still in the handler */
}
