// SPDX-License-Identifier: MIT
/*
 * irqkit's side of the affinity comparison (tests/guest/run.sh): the cases
 * of affmask/cases.h on the same e1000e, now under vfio-pci, with as many
 * irqkit CPUs as the guest has, printed as the kernel module prints them.
 * Usage: affmask_irqkit PCI_ADDRESS
 */
#define _GNU_SOURCE
#include <irqkit/pci.h>

#include "guest.h"
#include "affmask/cases.h"

/* @m as the kernel's %*pbl prints it: "0-1,3". */
static void cpu_list(const struct irqkit_cpus *m, unsigned int nr, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned int c = 0; c < nr; c++) {
		unsigned int e = c;

		if (!(irqkit_cpus_mask(m) & (1ull << c)))
			continue;
		while (e + 1 < nr && (irqkit_cpus_mask(m) & (1ull << (e + 1))))
			e++;
		at += (size_t)snprintf(buf + at, len - at, e > c ? "%s%u-%u" : "%s%u",
				       at ? "," : "", c, e);
		c = e;
	}
}

static void two_sets(struct irqkit_irq_affinity *affd, unsigned int nvecs)
{
	affd->nr_sets = 2;
	affd->set_size[0] = (nvecs + 1) / 2;
	affd->set_size[1] = nvecs / 2;
}

int main(int argc, char **argv)
{
	unsigned int cpus = (unsigned int)sysconf(_SC_NPROCESSORS_CONF);
	struct irqkit_config cfg = { .nr_irqs = 64, .nr_cpus = cpus,
				     .mode = IRQKIT_MODE_THREADED, .log = log_line };
	struct irqkit_pci_dev *pdev;
	char list[64];

	if (argc < 2 || irqkit_start(&cfg) || irqkit_pci_open(argv[1], &pdev)) {
		printf("affmask_irqkit: cannot start or open the device\n");
		return 1;
	}
	for (unsigned int c = 0; c < AFFMASK_CASES; c++) {
		struct irqkit_irq_affinity affd = {
			.pre_vectors = affmask_cases[c].pre, .post_vectors = affmask_cases[c].post,
			.calc_sets = affmask_cases[c].two_sets ? two_sets : NULL };
		int n = irqkit_pci_alloc_irq_vectors_affinity(
			pdev, affmask_cases[c].min, affmask_cases[c].max,
			IRQKIT_PCI_IRQ_MSIX | IRQKIT_PCI_IRQ_AFFINITY, &affd);

		printf("AFFMASK-IRQKIT case %u: %d vectors\n", c, n);
		for (int v = 0; v < n; v++) {
			struct irqkit_irq_info info;

			cpu_list(irqkit_pci_irq_get_affinity(pdev, (unsigned int)v), cpus, list,
				 sizeof(list));
			(void)irqkit_irq_get_info(
				(unsigned int)irqkit_pci_irq_vector(pdev, (unsigned int)v), &info);
			printf("AFFMASK-IRQKIT case %u vector %d: %s%s\n", c, v, list,
			       info.managed ? " managed" : "");
		}
		if (n > 0)
			irqkit_pci_free_irq_vectors(pdev);
	}
	(void)irqkit_pci_close(pdev);
	irqkit_stop();
	return 0;
}
