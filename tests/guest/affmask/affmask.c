// SPDX-License-Identifier: MIT OR GPL-2.0
/*
 * The kernel's side of the affinity comparison (tests/guest/run.sh): a PCI
 * driver bound to the e1000e by driver_override that, in its probe, asks
 * for each case of cases.h the vectors pci_alloc_irq_vectors_affinity
 * gives (MSI-X, spread), prints their masks and whether each is managed,
 * frees them, and declines the device so that vfio-pci can take it next.
 */
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "cases.h"

static void two_sets(struct irq_affinity *affd, unsigned int nvecs)
{
	affd->nr_sets = 2;
	affd->set_size[0] = (nvecs + 1) / 2;
	affd->set_size[1] = nvecs / 2;
}

static int affmask_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	unsigned int c;
	int ret, n, v;

	ret = pci_enable_device_mem(pdev);
	if (ret)
		return ret;
	pci_set_master(pdev);
	for (c = 0; c < AFFMASK_CASES; c++) {
		struct irq_affinity affd = { .pre_vectors = affmask_cases[c].pre,
					     .post_vectors = affmask_cases[c].post,
					     .calc_sets = affmask_cases[c].two_sets ? two_sets : NULL };

		n = pci_alloc_irq_vectors_affinity(pdev, affmask_cases[c].min,
						   affmask_cases[c].max,
						   PCI_IRQ_MSIX | PCI_IRQ_AFFINITY, &affd);
		pr_warn("AFFMASK case %u: %d vectors\n", c, n);
		for (v = 0; v < n; v++) {
			struct irq_data *d = irq_get_irq_data(pci_irq_vector(pdev, v));

			pr_warn("AFFMASK case %u vector %d: %*pbl%s\n", c, v,
				cpumask_pr_args(pci_irq_get_affinity(pdev, v)),
				d && irqd_affinity_is_managed(d) ? " managed" : "");
		}
		if (n > 0)
			pci_free_irq_vectors(pdev);
	}
	pci_disable_device(pdev);
	return -ENODEV;
}

static const struct pci_device_id affmask_ids[] = {
	{ PCI_DEVICE(0x8086, 0x10d3) },
	{ }
};

static struct pci_driver affmask_driver = {
	.name = "affmask",
	.id_table = affmask_ids,
	.probe = affmask_probe,
};
module_pci_driver(affmask_driver);

MODULE_LICENSE("Dual MIT/GPL");
MODULE_DESCRIPTION("irqkit's comparison with Linux: the affinity masks of a device's vectors");
