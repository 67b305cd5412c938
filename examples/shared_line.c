// SPDX-License-Identifier: MIT
/*
 * The native API in a few lines: two devices share a software edge line;
 * each handler claims only its own interrupts.  Build against an installed
 * irqkit with:  cc shared_line.c $(pkg-config --cflags --libs irqkit)
 */
#include <irqkit/irqkit.h>

#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

struct dev {
	const char	*name;
	atomic_int	status;		/* the device's "interrupt pending" register */
	atomic_int	count;
};

static enum irqkit_irqreturn handler(int irq, void *dev_id)
{
	struct dev *d = dev_id;

	(void)irq;
	if (!atomic_exchange(&d->status, 0))
		return IRQKIT_NONE;
	atomic_fetch_add(&d->count, 1);
	return IRQKIT_HANDLED;
}

int main(void)
{
	struct irqkit_config cfg = { .nr_irqs = 32, .nr_cpus = 2 };
	struct dev a = { .name = "devA" }, b = { .name = "devB" };

	if (irqkit_start(&cfg) || irqkit_swchip_add(3, 1, IRQKIT_TYPE_EDGE_RISING) ||
	    irqkit_request_irq(3, handler, IRQKIT_F_SHARED, a.name, &a) ||
	    irqkit_request_irq(3, handler, IRQKIT_F_SHARED, b.name, &b)) {
		fprintf(stderr, "set-up failed\n");
		return 1;
	}
	for (int i = 0; i < 10; i++) {
		struct dev *d = i % 3 ? &a : &b;

		/* a device with one status bit interrupts again once it was served */
		while (atomic_load(&d->status))
			usleep(100);
		atomic_store(&d->status, 1);
		irqkit_sw_raise(3);
		usleep(1000);
	}
	for (int i = 0; i < 5000 && (atomic_load(&a.status) || atomic_load(&b.status)); i++)
		usleep(1000);			/* the last one served */
	printf("devA %d, devB %d\n", atomic_load(&a.count), atomic_load(&b.count));
	irqkit_show_interrupts(stdout, IRQKIT_SHOW_LINUX_ONLY);
	irqkit_free_irq(3, &b);
	irqkit_free_irq(3, &a);
	irqkit_stop();
	return atomic_load(&a.count) + atomic_load(&b.count) == 10 ? 0 : 1;
}
