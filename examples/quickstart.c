// SPDX-License-Identifier: MIT
/*
 * The README's quick start, whole (built and run as a test): a device on a
 * shared software edge line, its handler, and the caller waiting for each
 * interrupt as a kernel driver does, with a completion the handler signals;
 * then once with irqkit_wait_delivered(), as a test that counts would.
 */
#include <irqkit/irqkit.h>

#include <stdio.h>

struct mydev {
	int			status;		/* the device's "I interrupted" bit */
	unsigned int		handled;
	struct irqkit_completion done;
};

static enum irqkit_irqreturn my_handler(int irq, void *dev_id)
{
	struct mydev *dev = dev_id;

	(void)irq;
	if (!__atomic_exchange_n(&dev->status, 0, __ATOMIC_ACQ_REL))
		return IRQKIT_NONE;		/* shared line: not ours */
	dev->handled++;
	irqkit_complete(&dev->done);		/* wake whoever waits for this interrupt */
	return IRQKIT_HANDLED;
}

int main(void)
{
	struct irqkit_config cfg = { .nr_irqs = 64, .nr_cpus = 2 };
	static struct mydev dev;
	int ret;

	ret = irqkit_start(&cfg);			/* virtual CPUs 0 and 1 run */
	if (ret) {
		fprintf(stderr, "irqkit_start: %d\n", ret);
		return 1;
	}
	irqkit_init_completion(&dev.done);
	ret = irqkit_swchip_add(5, 1, IRQKIT_TYPE_EDGE_RISING);	/* line 5: an edge line */
	if (!ret)
		ret = irqkit_request_irq(5, my_handler, IRQKIT_F_SHARED, "mydev", &dev);
	if (ret) {
		fprintf(stderr, "setting up line 5: %d\n", ret);	/* a negative errno */
		irqkit_stop();
		return 1;
	}
	for (int i = 0; i < 3; i++) {
		__atomic_store_n(&dev.status, 1, __ATOMIC_RELEASE);	/* the device has news */
		irqkit_sw_raise(5);					/* and interrupts */
		/* CPU 0's thread runs the handler; wait for it, at most a second */
		if (!irqkit_wait_for_completion_timeout(&dev.done, irqkit_msecs_to_jiffies(1000))) {
			fprintf(stderr, "interrupt %d not handled within a second\n", i);
			irqkit_stop();
			return 1;
		}
	}
	/* no completion to wait on?  Wait until the line has nothing left to deliver */
	__atomic_store_n(&dev.status, 1, __ATOMIC_RELEASE);
	irqkit_sw_raise(5);
	ret = irqkit_wait_delivered(5, 1000);			/* 0, or -ETIMEDOUT */
	if (ret) {
		fprintf(stderr, "irqkit_wait_delivered: %d\n", ret);
		irqkit_stop();
		return 1;
	}
	printf("handled %u interrupts\n", dev.handled);	/* 4 */
	irqkit_free_irq(5, &dev);
	irqkit_stop();
	return 0;
}
