// SPDX-License-Identifier: MIT
/*
 * The target of the USDT test (tools/check-usdt.sh): linked against the
 * shared library, it raises a software line N times with one handler on it,
 * so irq_handler_entry fires exactly N times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <irqkit/irqkit.h>

static enum irqkit_irqreturn handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQKIT_HANDLED;
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .nr_irqs = 8, .mode = IRQKIT_MODE_DETERMINISTIC };
	long n = argc > 1 ? atol(argv[1]) : 100;

	if (irqkit_start(&cfg) || irqkit_swchip_add(1, 1, IRQKIT_TYPE_EDGE_RISING) ||
	    irqkit_request_irq(1, handler, 0, "usdt", NULL)) {
		fprintf(stderr, "usdt_target: set-up failed\n");
		return 1;
	}
	for (long i = 0; i < n; i++)
		irqkit_sw_raise(1);
	irqkit_free_irq(1, NULL);
	irqkit_stop();
	return 0;
}
