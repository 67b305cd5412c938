// SPDX-License-Identifier: MIT
/*
 * A benchmark inside the Linux guest (tests/guest/run.sh), not a test: the
 * interrupts per second QEMU's e1000e delivers through vfio-pci and irqkit
 * on one MSI-X vector on one CPU, against two vectors (rx0's and rx1's) on
 * two CPUs, spread by pci_alloc_irq_vectors_affinity.  Each handler clears
 * its cause and raises it again (an ICS write), so each vector keeps one
 * interrupt in flight and no raising thread competes for the CPUs.
 * Blocks of each alternate in one run; the medians and their ratio are
 * printed ("bench: ..."), never asserted: the guest has two TCG vCPUs on
 * a shared machine, and QEMU serialises the device's register writes.
 * Usage: bench_msix PCI_ADDRESS
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>
#include <irqkit/pci.h>

#include "guest.h"

#include <stdlib.h>
#include <string.h>

#define BLOCKS		5
#define BLOCK_MS	400

static volatile uint32_t *regs;
static atomic_bool running;

struct vec {
	uint32_t	cause;
	atomic_ulong	irqs;
};

static struct vec vecs[2] = { { .cause = ICR_RXQ0 }, { .cause = ICR_RXQ1 } };

static enum irqkit_irqreturn vec_interrupt(int irq, void *dev_id)
{
	struct vec *v = dev_id;

	(void)irq;
	regs[E1000_ICR / 4] = v->cause;
	atomic_fetch_add_explicit(&v->irqs, 1, memory_order_relaxed);
	if (atomic_load_explicit(&running, memory_order_relaxed))
		regs[E1000_ICS / 4] = v->cause;
	return IRQKIT_HANDLED;
}

/* Interrupts per second of @n vectors on @n irqkit CPUs, one block of BLOCK_MS; 0 on failure. */
static double block(const char *addr, unsigned int n)
{
	struct irqkit_config cfg = { .nr_irqs = 64, .nr_cpus = n, .mode = IRQKIT_MODE_THREADED };
	struct irqkit_pci_dev *pdev = NULL;
	unsigned long before = 0, after = 0;
	uint64_t t0, t1;
	bool ok;

	if (irqkit_start(&cfg))
		return 0;
	ok = !irqkit_pci_open(addr, &pdev) &&
	     irqkit_pci_alloc_irq_vectors(pdev, n, n, IRQKIT_PCI_IRQ_MSIX |
						  IRQKIT_PCI_IRQ_AFFINITY) == (int)n;
	if (ok) {
		irqkit_pci_set_master(pdev);
		regs = irqkit_pci_iomap(pdev, 0, 0);
		ok = regs != NULL;
	}
	for (unsigned int i = 0; ok && i < n; i++)
		ok = !irqkit_request_irq((unsigned int)irqkit_pci_irq_vector(pdev, i), vec_interrupt,
					 0, "bench", &vecs[i]);
	if (ok) {
		regs[E1000_IMC / 4] = ~0u;
		regs[E1000_EIAC / 4] = 0;
		regs[E1000_ICR / 4] = ~0u;
		regs[E1000_IVAR / 4] = (IVAR_VALID | 0) | (IVAR_VALID | (n > 1 ? 1 : 0)) << 4;
		regs[E1000_IMS / 4] = vecs[0].cause | (n > 1 ? vecs[1].cause : 0);
		atomic_store(&running, true);
		for (unsigned int i = 0; i < n; i++)
			before += atomic_load(&vecs[i].irqs);
		t0 = now_ns();
		for (unsigned int i = 0; i < n; i++)
			regs[E1000_ICS / 4] = vecs[i].cause;
		usleep(BLOCK_MS * 1000);
		for (unsigned int i = 0; i < n; i++)
			after += atomic_load(&vecs[i].irqs);
		t1 = now_ns();
		atomic_store(&running, false);
		regs[E1000_IMC / 4] = ~0u;
		usleep(20000);
	}
	if (pdev) {
		for (unsigned int i = 0; i < n; i++) {
			int v = irqkit_pci_irq_vector(pdev, i);

			if (v > 0 && irqkit_irq_has_action((unsigned int)v))
				irqkit_free_irq((unsigned int)v, &vecs[i]);
		}
		if (pdev->msix_enabled)
			irqkit_pci_free_irq_vectors(pdev);
		(void)irqkit_pci_close(pdev);
	}
	irqkit_stop();
	return ok ? (double)(after - before) * 1e9 / (double)(t1 - t0) : 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	double one[BLOCKS], two[BLOCKS];

	if (argc < 2) {
		printf("usage: bench_msix PCI_ADDRESS\n");
		return 1;
	}
	for (int b = 0; b < BLOCKS; b++) {
		one[b] = block(argv[1], 1);
		two[b] = block(argv[1], 2);
		if (!one[b] || !two[b]) {
			printf("bench: e1000e MSI-X: a block failed\n");
			return 1;
		}
	}
	qsort(one, BLOCKS, sizeof(one[0]), cmp);
	qsort(two, BLOCKS, sizeof(two[0]), cmp);
	printf("bench: e1000e MSI-X through vfio-pci, %d blocks of %d ms, medians: 1 vector on 1 CPU %.0f interrupts/s, 2 vectors on 2 CPUs %.0f/s, ratio %.2f\n",
	       BLOCKS, BLOCK_MS, one[BLOCKS / 2], two[BLOCKS / 2], two[BLOCKS / 2] / one[BLOCKS / 2]);
	return 0;
}
