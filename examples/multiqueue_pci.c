// SPDX-License-Identifier: MIT
/*
 * A multi-queue PCI driver skeleton, written as for the kernel
 * (<linux/pci.h>): an admin vector kept out of the spreading, one I/O queue
 * per remaining vector, each queue placed on the first CPU of its vector's
 * mask, a handler per vector whose hardirq half checks the queue and whose
 * thread reaps its completions, then the remove.  The NVMe driver's shape.
 *
 * With a PCI address the device must be bound to vfio-pci (see
 * docs/guide/pci-vectors.md); the skeleton takes its vectors, prints where
 * they went, counts what arrives in a second (an idle device sends
 * nothing: raising its interrupts is the device's own business), and lets
 * them go.  Without one it makes a simulated device with 8 MSI-X vectors
 * (<irqkit/pci.h>) whose "hardware" thread completes commands on random
 * queues and sends each queue's vector.
 *
 * Usage: example-multiqueue-pci [PCI_ADDRESS] [completions]
 * Exits 0 when every completion was reaped once, on its queue's CPU.
 */
#define _GNU_SOURCE
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/pci.h>
#include <linux/smp.h>
#include <irqkit/irqkit.h>	/* irqkit_start, the simulated device */

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_QUEUES	16

struct queue {
	unsigned int	qid, cpu;	/* cpu: the first of its vector's mask */
	atomic_uint	posted;		/* completions the device wrote (its completion queue) */
	atomic_uint	reaped;		/* completions the driver took, in the thread */
	atomic_uint	wrong_cpu;
	atomic_uint	irqs;
};

struct mq_dev {
	struct pci_dev	*pdev;
	int		nr_vecs;	/* 1 admin + queues */
	struct queue	q[MAX_QUEUES];
	atomic_uint	admin_irqs;
};

static irqreturn_t admin_irq(int irq, void *data)
{
	struct mq_dev *mq = data;

	atomic_fetch_add(&mq->admin_irqs, 1);
	return IRQ_HANDLED;
}

/* Hardirq half: is there anything on this queue?  The work goes to the thread. */
static irqreturn_t queue_irq(int irq, void *data)
{
	struct queue *q = data;

	atomic_fetch_add(&q->irqs, 1);
	if (atomic_load(&q->posted) == atomic_load(&q->reaped))
		return IRQ_NONE;
	return IRQ_WAKE_THREAD;
}

/* Thread half: reap the completions, on the queue's CPU's thread. */
static irqreturn_t queue_thread(int irq, void *data)
{
	struct queue *q = data;
	unsigned int posted = atomic_load(&q->posted);

	if ((unsigned int)smp_processor_id() != q->cpu)
		atomic_fetch_add(&q->wrong_cpu, 1);
	atomic_store(&q->reaped, posted);	/* a real driver walks its completion entries here */
	return IRQ_HANDLED;
}

static int mq_probe(struct mq_dev *mq, struct pci_dev *pdev)
{
	struct irq_affinity affd = { .pre_vectors = 1 };	/* vector 0: admin, every CPU */
	int i, ret;

	mq->pdev = pdev;
	pci_set_drvdata(pdev, mq);
	pci_set_master(pdev);
	mq->nr_vecs = pci_alloc_irq_vectors_affinity(pdev, 2, MAX_QUEUES + 1,
						     PCI_IRQ_ALL_TYPES | PCI_IRQ_AFFINITY, &affd);
	if (mq->nr_vecs < 0)
		return mq->nr_vecs;
	ret = request_irq(pci_irq_vector(pdev, 0), admin_irq, 0, "mq-admin", mq);
	if (ret)
		goto free_vecs;
	for (i = 1; i < mq->nr_vecs; i++) {
		struct queue *q = &mq->q[i - 1];

		q->qid = (unsigned int)i;
		q->cpu = cpumask_first(pci_irq_get_affinity(pdev, i));
		ret = request_threaded_irq(pci_irq_vector(pdev, i), queue_irq, queue_thread, 0,
					   "mq-queue", q);
		if (ret)
			goto free_irqs;
	}
	return 0;
free_irqs:
	while (--i >= 1)
		free_irq(pci_irq_vector(pdev, i), &mq->q[i - 1]);
	free_irq(pci_irq_vector(pdev, 0), mq);
free_vecs:
	pci_free_irq_vectors(pdev);
	return ret;
}

static void mq_remove(struct pci_dev *pdev)
{
	struct mq_dev *mq = pci_get_drvdata(pdev);

	for (int i = 1; i < mq->nr_vecs; i++)
		free_irq(pci_irq_vector(pdev, i), &mq->q[i - 1]);
	free_irq(pci_irq_vector(pdev, 0), mq);
	pci_free_irq_vectors(pdev);
}

/* ---- the simulated device's hardware: completes commands on random queues ---------------- */

struct hw {
	struct mq_dev	*mq;
	unsigned int	completions;
};

static void *hw_thread(void *arg)
{
	struct hw *hw = arg;
	struct mq_dev *mq = hw->mq;
	unsigned int seed = 1;

	for (unsigned int n = 0; n < hw->completions; n++) {
		struct queue *q = &mq->q[(unsigned int)rand_r(&seed) % (unsigned int)(mq->nr_vecs - 1)];

		atomic_fetch_add(&q->posted, 1);	/* the completion entry, written */
		(void)irqkit_pci_sim_fire(mq->pdev, q->qid);	/* then the queue's message */
		if (n % 64 == 63) {
			struct timespec gap = { 0, 100000 };

			nanosleep(&gap, NULL);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *addr = argc > 1 && strchr(argv[1], ':') ? argv[1] : NULL;
	unsigned int completions = (unsigned int)atoi(argc > 1 + !!addr ? argv[1 + !!addr] : "20000");
	struct irqkit_config cfg = { .nr_irqs = 64, .nr_cpus = 4 };
	static struct mq_dev mq;
	struct pci_dev *pdev;
	unsigned int total = 0, bad = 0;
	int ret;

	if (irqkit_start(&cfg))
		return 1;
	if (addr) {
		ret = irqkit_pci_open(addr, &pdev);
	} else {
		struct irqkit_pci_sim_config sim = { .msix = 8, .msi = 1, .intx = true,
						     .vendor = 0x1b36, .device = 0x0010 };

		ret = irqkit_pci_sim_create("0000:00:04.0", &sim, &pdev);
	}
	if (ret) {
		fprintf(stderr, "multiqueue_pci: cannot open %s: %s\n", addr ? addr : "the simulated device",
			strerror(-ret));
		irqkit_stop();
		return 1;
	}
	ret = mq_probe(&mq, pdev);
	if (ret) {
		fprintf(stderr, "multiqueue_pci: probe: %s\n", strerror(-ret));
		(void)irqkit_pci_close(pdev);
		irqkit_stop();
		return 1;
	}
	printf("multiqueue_pci: %s %04x:%04x, %d vectors (%s): the admin vector on %u CPUs\n",
	       pci_name(pdev), pdev->vendor, pdev->device, mq.nr_vecs,
	       pdev->msix_enabled ? "MSI-X" : pdev->msi_enabled ? "MSI" : "INTx",
	       cpumask_weight(pci_irq_get_affinity(pdev, 0)));
	if (addr) {
		sleep(1);
	} else {
		struct hw hw = { .mq = &mq, .completions = completions };
		pthread_t t;

		pthread_create(&t, NULL, hw_thread, &hw);
		pthread_join(t, NULL);
		for (int i = 1; i < mq.nr_vecs; i++)
			irqkit_wait_delivered((unsigned int)pci_irq_vector(pdev, i), 2000);
	}
	for (int i = 1; i < mq.nr_vecs; i++) {
		struct queue *q = &mq.q[i - 1];

		printf("  queue %u: vector %d (irq %d), CPU %u, %u interrupts, %u completions reaped%s\n",
		       q->qid, i, pci_irq_vector(pdev, i), q->cpu, atomic_load(&q->irqs),
		       atomic_load(&q->reaped),
		       atomic_load(&q->wrong_cpu) ? ", some on another CPU" : "");
		total += atomic_load(&q->reaped);
		bad += atomic_load(&q->wrong_cpu) + (atomic_load(&q->reaped) != atomic_load(&q->posted));
	}
	mq_remove(pdev);
	(void)irqkit_pci_close(pdev);
	irqkit_stop();
	if (addr)
		return bad ? 1 : 0;
	printf("multiqueue_pci: %u of %u completions reaped\n", total, completions);
	return total == completions && !bad ? 0 : 1;
}
