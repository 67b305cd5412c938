// SPDX-License-Identifier: MIT
/*
 * A UIO driver skeleton: the top half acknowledges the device and wakes the
 * bottom half (a threaded handler), which does the work; the interrupt is
 * re-enabled (UIO's write of 1) only after the bottom half has finished --
 * irqkit writes it as the line's end of interrupt.  Count gaps the UIO core
 * reports are lost interrupts, shown at the end.
 *
 * With a UIO device (/dev/uio0, or the one named) it takes that device's
 * interrupts; the register accesses a real driver makes through mmap() of
 * the device's memory are marked where they go.  Without one it simulates
 * the device with an eventfd and a thread that raises it.
 *
 * Usage: example-uio-skeleton [--device /dev/uioN] [interrupts]
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define IRQ	3

struct dev {
	int		fd;
	bool		simulated;
	atomic_uint	status;		/* the device's event counter register (simulated) */
	atomic_int	serviced;	/* events the top halves acknowledged */
	atomic_int	top, bottom;
	atomic_long	lost, coalesced;
	int		want;
};

/* Top half, hardirq context: acknowledge the device, leave the work to the thread. */
static enum irqkit_irqreturn dev_irq(int irq, void *dev_id)
{
	struct dev *d = dev_id;
	struct irqkit_irq_events ev;

	/* real device: read and clear its status register through the mmap()ed BAR */
	if (d->simulated) {
		unsigned int n = atomic_exchange(&d->status, 0);

		if (!n)
			return IRQKIT_NONE;	/* an earlier interrupt took these events */
		atomic_fetch_add(&d->serviced, (int)n);
	} else {
		atomic_fetch_add(&d->serviced, 1);
	}
	irqkit_irq_get_events((unsigned int)irq, &ev);
	atomic_fetch_add(&d->lost, (long)ev.lost);
	atomic_fetch_add(&d->coalesced, (long)ev.coalesced);
	atomic_fetch_add(&d->top, 1);
	return IRQKIT_WAKE_THREAD;
}

/* Bottom half, process context: may sleep; the line stays off until it returns. */
static enum irqkit_irqreturn dev_thread(int irq, void *dev_id)
{
	struct dev *d = dev_id;

	(void)irq;
	usleep(100);	/* the work: move data, talk to the device */
	atomic_fetch_add(&d->bottom, 1);
	return IRQKIT_HANDLED;
}

/* The simulated device: set the status register, raise the interrupt. */
static void *sim_device(void *arg)
{
	struct dev *d = arg;
	uint64_t one = 1;

	for (int i = 0; i < d->want; i++) {
		atomic_fetch_add(&d->status, 1);
		if (write(d->fd, &one, sizeof(one)) != sizeof(one))
			abort();
		usleep(500);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = 2 };
	const char *path = "/dev/uio0";
	struct dev d = { .want = 200 };
	pthread_t sim;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--device") && i + 1 < argc)
			path = argv[++i];
		else
			d.want = atoi(argv[i]);
	}
	d.fd = open(path, O_RDWR | O_CLOEXEC);
	d.simulated = d.fd < 0;
	if (d.simulated) {
		printf("no %s: simulating the device with an eventfd\n", path);
		d.fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	}
	if (d.fd < 0 || irqkit_start(&cfg)) {
		fprintf(stderr, "set-up failed\n");
		return 1;
	}
	ret = d.simulated ? irqkit_fd_bind_eventfd(IRQ, d.fd) : irqkit_fd_bind_uio(IRQ, d.fd);
	if (!ret)
		ret = irqkit_request_threaded_irq(IRQ, dev_irq, dev_thread, IRQKIT_F_ONESHOT,
						  "uio-skel", &d);
	if (ret) {
		fprintf(stderr, "binding %s: %s\n", path, strerror(-ret));
		return 1;
	}
	if (d.simulated)
		pthread_create(&sim, NULL, sim_device, &d);
	for (int i = 0; i < 3000 && atomic_load(&d.serviced) < d.want; i++)
		usleep(10000);
	if (d.simulated)
		pthread_join(sim, NULL);
	irqkit_free_irq(IRQ, &d);
	irqkit_fd_unbind(IRQ);
	printf("%d interrupts: %d top halves, %d bottom halves, %ld coalesced, %ld lost\n", d.want,
	       atomic_load(&d.top), atomic_load(&d.bottom), atomic_load(&d.coalesced),
	       atomic_load(&d.lost));
	irqkit_stop();
	close(d.fd);
	return atomic_load(&d.serviced) >= d.want ? 0 : 1;
}
