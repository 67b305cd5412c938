// SPDX-License-Identifier: MIT
/*
 * A program for tools/irqkit-top's test: it publishes its tables every
 * 50 ms and raises software line 3 ("pubtarget") about 1000 times a second
 * for the seconds given (default 5), then stops.
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static enum irqkit_irqreturn handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQKIT_HANDLED;
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = 2, .flags = IRQKIT_CFG_PUBLISH };
	int secs = argc > 1 ? atoi(argv[1]) : 5;
	struct timespec ms = { 0, 1000000 };

	setenv("IRQKIT_PUBLISH", "50", 0);
	if (irqkit_start(&cfg) || irqkit_swchip_add(0, 16, IRQKIT_TYPE_EDGE_RISING) ||
	    irqkit_request_irq(3, handler, 0, "pubtarget", NULL)) {
		fprintf(stderr, "publish_target: cannot set up\n");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (long i = 0; i < secs * 1000L; i++) {
		irqkit_sw_raise(3);
		nanosleep(&ms, NULL);
	}
	irqkit_stop();
	return 0;
}
