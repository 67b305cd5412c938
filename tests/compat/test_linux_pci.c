// SPDX-License-Identifier: MIT
/*
 * <linux/pci.h>: a multi-queue driver written as for the kernel -- an admin
 * vector kept out of the spreading, a queue per remaining vector placed on
 * the first CPU of its mask, a handler per vector -- over the simulated
 * device, and its remove.  Checks the names, flags and types a kernel
 * driver uses compile and mean what they mean there.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/pci.h>
#include <linux/smp.h>

#define NR_QUEUES	3

struct queue {
	unsigned int	cpu;		/* where pci_irq_get_affinity placed it */
	atomic_int	irqs;
	atomic_int	wrong_cpu;
};

struct mq {
	struct pci_dev	*pdev;
	int		nr_vecs;
	atomic_int	admin_irqs;
	struct queue	q[NR_QUEUES];
};

static irqreturn_t admin_irq(int irq, void *data)
{
	struct mq *mq = data;

	atomic_fetch_add(&mq->admin_irqs, 1);
	return IRQ_HANDLED;
}

static irqreturn_t queue_irq(int irq, void *data)
{
	struct queue *q = data;

	if ((unsigned int)smp_processor_id() != q->cpu)
		atomic_fetch_add(&q->wrong_cpu, 1);
	atomic_fetch_add(&q->irqs, 1);
	return IRQ_HANDLED;
}

/*
 * The probe's interrupt part, as a kernel driver writes it (the unwinding
 * a driver needs is examples/multiqueue_pci.c's; here each step must work).
 */
static void mq_probe(struct mq *mq, struct pci_dev *pdev)
{
	struct irq_affinity affd = { .pre_vectors = 1 };
	u16 vendor;

	mq->pdev = pdev;
	pci_set_drvdata(pdev, mq);
	pci_set_master(pdev);
	assert_int_equal(pci_read_config_word(pdev, 0, &vendor), PCIBIOS_SUCCESSFUL);
	assert_int_equal(vendor, 0x1b36);
	mq->nr_vecs = pci_alloc_irq_vectors_affinity(pdev, 2, NR_QUEUES + 1,
						     PCI_IRQ_ALL_TYPES | PCI_IRQ_AFFINITY, &affd);
	assert_true(mq->nr_vecs > 0);
	assert_int_equal(request_irq(pci_irq_vector(pdev, 0), admin_irq, 0, "mq-admin", mq), 0);
	for (int i = 1; i < mq->nr_vecs; i++) {
		mq->q[i - 1].cpu = cpumask_first(pci_irq_get_affinity(pdev, i));
		assert_int_equal(request_irq(pci_irq_vector(pdev, i), queue_irq, 0, "mq-queue",
					     &mq->q[i - 1]), 0);
	}
}

static void mq_remove(struct pci_dev *pdev)
{
	struct mq *mq = pci_get_drvdata(pdev);

	for (int i = mq->nr_vecs - 1; i >= 0; i--)
		free_irq(pci_irq_vector(pdev, i), i ? (void *)&mq->q[i - 1] : (void *)mq);
	pci_free_irq_vectors(pdev);
}

static int setup(void **state)
{
	(void)state;
	return thr_setup_cpus(NR_QUEUES, T_NR_IRQS);
}

static void test_a_kernel_style_multi_queue_driver(void **state)
{
	struct irqkit_pci_sim_config cfg = { .msix = 8, .msi = 1, .intx = true,
					     .vendor = 0x1b36, .device = 0x0010 };
	static struct mq mq;
	struct pci_dev *pdev;

	(void)state;
	assert_int_equal(irqkit_pci_sim_create("0000:00:04.0", &cfg, &pdev), 0);
	assert_string_equal(pci_name(pdev), "0000:00:04.0");
	assert_int_equal(pci_msix_vec_count(pdev), 8);
	mq_probe(&mq, pdev);
	/* the admin vector and one per CPU, though the device has 8 */
	assert_int_equal(mq.nr_vecs, NR_QUEUES + 1);
	assert_true(pdev->msix_enabled);
	for (unsigned int i = 0; i < NR_QUEUES; i++)
		assert_int_equal(mq.q[i].cpu, i);
	for (int round = 1; round <= 10; round++) {
		for (int v = 0; v < mq.nr_vecs; v++)
			assert_int_equal(irqkit_pci_sim_fire(pdev, (unsigned int)v), 0);
		assert_true(wait_until(atomic_load(&mq.admin_irqs) == round, 5000));
		for (unsigned int i = 0; i < NR_QUEUES; i++)
			assert_true(wait_until(atomic_load(&mq.q[i].irqs) == round, 5000));
	}
	for (unsigned int i = 0; i < NR_QUEUES; i++)
		assert_int_equal(atomic_load(&mq.q[i].wrong_cpu), 0);
	/* one more queue later, as a driver adds one at run time (6.2) */
	{
		struct msi_map map;

		assert_true(pci_msix_can_alloc_dyn(pdev));
		map = pci_msix_alloc_irq_at(pdev, MSI_ANY_INDEX, NULL);
		assert_int_equal(map.index, NR_QUEUES + 1);
		assert_int_equal(map.virq, pci_irq_vector(pdev, NR_QUEUES + 1));
		pci_msix_free_irq(pdev, map);
		assert_int_equal(irqkit_pci_sim_triggers(pdev, PCI_IRQ_MSIX), NR_QUEUES + 1);
	}
	mq_remove(pdev);
	assert_false(pdev->msix_enabled);
	assert_int_equal(irqkit_pci_sim_triggers(pdev, PCI_IRQ_MSIX), 0);
	assert_int_equal(irqkit_pci_close(pdev), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_kernel_style_multi_queue_driver, setup,
						thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
