/* SPDX-License-Identifier: MIT */
/*
 * The part the event-loop examples share: a "device" thread that signals an
 * eventfd, the line bound to it on CPU 1 (the CPU the loop plays), and a
 * driver whose top half counts and whose tasklet does the work.
 */
#ifndef IRQKIT_EXAMPLES_LOOP_DEVICE_H
#define IRQKIT_EXAMPLES_LOOP_DEVICE_H

#define _GNU_SOURCE
#include <irqkit/irqkit.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define LOOP_CPU	1
#define DEV_IRQ		5

struct loop_dev {
	int			efd;		/* the device's interrupt */
	int			events;		/* how many the device sends */
	pid_t			loop_tid;	/* where the handlers must run */
	atomic_int		irqs;		/* top-half runs */
	atomic_long		arrivals;	/* events they stood for */
	atomic_long		bottom;		/* tasklet runs */
	atomic_bool		elsewhere;	/* a handler ran off the loop's thread */
	struct irqkit_tasklet	tasklet;
	pthread_t		thread;
};

static void loop_dev_tasklet(unsigned long data)
{
	struct loop_dev *d = (struct loop_dev *)data;

	atomic_fetch_add(&d->bottom, 1);
}

static enum irqkit_irqreturn loop_dev_irq(int irq, void *dev_id)
{
	struct loop_dev *d = dev_id;
	struct irqkit_irq_events ev;

	if (gettid() != d->loop_tid)
		atomic_store(&d->elsewhere, true);
	irqkit_irq_get_events((unsigned int)irq, &ev);
	atomic_fetch_add(&d->arrivals, (long)ev.events);
	atomic_fetch_add(&d->irqs, 1);
	irqkit_tasklet_schedule(&d->tasklet);
	return IRQKIT_HANDLED;
}

static void *loop_dev_thread(void *arg)
{
	struct loop_dev *d = arg;
	uint64_t one = 1;

	for (int i = 0; i < d->events; i++) {
		if (write(d->efd, &one, sizeof(one)) != sizeof(one))
			abort();
		usleep(100);
	}
	return NULL;
}

/* Start irqkit with CPU 1 played by the calling thread's loop; return its descriptor. */
static int loop_dev_start(struct loop_dev *d, int events)
{
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = 2, .loop_cpus = 1ull << LOOP_CPU };

	d->events = events;
	d->loop_tid = gettid();
	d->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	irqkit_tasklet_init(&d->tasklet, loop_dev_tasklet, (unsigned long)d);
	if (d->efd < 0 || irqkit_start(&cfg) || irqkit_thread_bind(LOOP_CPU) ||
	    irqkit_fd_bind_eventfd(DEV_IRQ, d->efd) ||
	    irqkit_irq_set_affinity(DEV_IRQ, 1ull << LOOP_CPU) ||
	    irqkit_request_irq(DEV_IRQ, loop_dev_irq, 0, "loopdev", d) ||
	    pthread_create(&d->thread, NULL, loop_dev_thread, d)) {
		fprintf(stderr, "set-up failed\n");
		exit(1);
	}
	return irqkit_loop_fd(LOOP_CPU);
}

static bool loop_dev_done(struct loop_dev *d)
{
	return atomic_load(&d->arrivals) == d->events;
}

/* Report, stop, and say whether every event came through, on the loop's thread. */
static int loop_dev_finish(struct loop_dev *d, const char *loop)
{
	int ok;

	pthread_join(d->thread, NULL);
	irqkit_tasklet_kill(&d->tasklet);
	printf("%s: %d events, %d interrupts (%ld coalesced), %ld tasklet runs, all on the loop's thread: %s\n",
	       loop, d->events, atomic_load(&d->irqs), atomic_load(&d->arrivals) - atomic_load(&d->irqs),
	       atomic_load(&d->bottom), atomic_load(&d->elsewhere) ? "no" : "yes");
	ok = loop_dev_done(d) && !atomic_load(&d->elsewhere) && atomic_load(&d->bottom) > 0;
	irqkit_free_irq(DEV_IRQ, d);
	irqkit_thread_unbind();
	irqkit_stop();
	close(d->efd);
	return ok ? 0 : 1;
}

#endif /* IRQKIT_EXAMPLES_LOOP_DEVICE_H */
