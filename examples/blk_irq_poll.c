// SPDX-License-Identifier: MIT
/*
 * A block-style driver with irq_poll, the way storage and RDMA drivers reap
 * their completion queues: the device posts completions to a ring and
 * signals one interrupt (here an eventfd, as a VFIO MSI is); the handler
 * masks the interrupt and schedules the poll; the poll, in the IRQ_POLL
 * softirq, reaps up to its weight; when it reaped less, it completes
 * (irq_poll_complete) and only then unmasks.  A completion posted while
 * the line is masked stays pending in the eventfd and comes as an
 * interrupt at the unmask, so none waits.  (Unmasking before the complete
 * would lose it: the interrupt's irq_poll_sched would find the poll still
 * scheduled and do nothing.)
 *
 * The "device" is a thread that completes requests in bursts of 1 to 200
 * as fast as the ring lets it.  Usage: example-blk-irq-poll [requests];
 * exit status 0 when every completion was reaped once, in order.
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>

#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define IRQ		5
#define WEIGHT		32
#define RING		1024		/* completion queue entries (a power of two) */

#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

struct cq {
	unsigned int		tags[RING];
	atomic_uint		head;		/* posted by the device */
	atomic_uint		tail;		/* reaped by the driver */
	int			efd;
	struct irqkit_irq_poll	iop;
	unsigned int		next_tag;	/* the poll's: the tag it expects next */
	atomic_int		irqs, polls, reaped, out_of_order;
	int			total;
};

static struct cq cq;

static enum irqkit_irqreturn cq_irq(int irq, void *dev_id)
{
	struct cq *q = dev_id;

	atomic_fetch_add(&q->irqs, 1);
	irqkit_disable_irq_nosync((unsigned int)irq);	/* the device's interrupt off while polling */
	irqkit_irq_poll_sched(&q->iop);
	return IRQKIT_HANDLED;
}

static int cq_poll(struct irqkit_irq_poll *iop, int budget)
{
	struct cq *q = container_of(iop, struct cq, iop);
	unsigned int tail = atomic_load_explicit(&q->tail, memory_order_relaxed);
	int done = 0;

	atomic_fetch_add(&q->polls, 1);
	while (done < budget && tail != atomic_load_explicit(&q->head, memory_order_acquire)) {
		if (q->tags[tail % RING] != q->next_tag)
			atomic_fetch_add(&q->out_of_order, 1);
		q->next_tag++;
		tail++;
		done++;
	}
	atomic_store_explicit(&q->tail, tail, memory_order_release);
	atomic_fetch_add(&q->reaped, done);
	if (done < budget) {
		irqkit_irq_poll_complete(iop);	/* first complete, then unmask */
		irqkit_enable_irq(IRQ);
	}
	return done;
}

/* The device: bursts of completions, one interrupt each. */
static void *device(void *arg)
{
	struct cq *q = arg;
	unsigned int seed = 1, tag = 0;

	while ((int)tag < q->total) {
		unsigned int burst = 1 + (seed = seed * 1103515245u + 12345u) / 65536u % 200u;
		unsigned int head = atomic_load_explicit(&q->head, memory_order_relaxed);
		uint64_t one = 1;

		for (unsigned int i = 0; i < burst && (int)tag < q->total; i++) {
			while (head - atomic_load_explicit(&q->tail, memory_order_acquire) >= RING)
				usleep(10);	/* the queue is full: the driver is behind */
			q->tags[head % RING] = tag++;
			atomic_store_explicit(&q->head, ++head, memory_order_release);
		}
		if (write(q->efd, &one, sizeof(one)) != sizeof(one))
			return NULL;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = 2 };
	pthread_t dev;

	cq.total = argc > 1 ? atoi(argv[1]) : 100000;
	cq.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	irqkit_irq_poll_init(&cq.iop, WEIGHT, cq_poll);
	if (cq.efd < 0 || irqkit_start(&cfg) || irqkit_fd_bind_eventfd(IRQ, cq.efd) ||
	    irqkit_request_irq(IRQ, cq_irq, 0, "blk-cq", &cq)) {
		fprintf(stderr, "set-up failed\n");
		return 1;
	}
	if (pthread_create(&dev, NULL, device, &cq)) {
		fprintf(stderr, "no device thread\n");
		return 1;
	}
	pthread_join(dev, NULL);
	for (int i = 0; i < 1000 && atomic_load(&cq.reaped) < cq.total; i++)
		usleep(10000);
	printf("%d completions reaped (%d out of order) in %d interrupts and %d polls of weight %d\n",
	       atomic_load(&cq.reaped), atomic_load(&cq.out_of_order), atomic_load(&cq.irqs),
	       atomic_load(&cq.polls), WEIGHT);
	irqkit_free_irq(IRQ, &cq);
	irqkit_irq_poll_disable(&cq.iop);
	irqkit_stop();
	close(cq.efd);
	return atomic_load(&cq.reaped) == cq.total && !atomic_load(&cq.out_of_order) ? 0 : 1;
}
