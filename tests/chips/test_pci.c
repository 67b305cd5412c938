// SPDX-License-Identifier: MIT
/*
 * Tests of <irqkit/pci.h> (src/chips/fd/pci.c) over the simulated device
 * (pcisim.c), which answers VFIO's calls as vfio-pci does: vectors spread
 * with a pre vector, the MSI-X -> MSI -> INTx fallback and Linux's errors,
 * a masked vector that keeps its interrupt, a managed vector shut down with
 * its CPU, INTx as a level line, teardown that leaves no eventfd behind.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <irqkit/pci.h>

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>

#define CPUS	4
#define VECS	5

struct vec_seen {
	atomic_int	calls;
	atomic_int	cpu;
	atomic_bool	off_mask;	/* ran on a CPU outside its vector's mask */
	const struct irqkit_cpus *mask;
};

static struct vec_seen seen[VECS];

static int setup(void **state)
{
	(void)state;
	memset(seen, 0, sizeof(seen));
	return thr_setup_cpus(CPUS, T_NR_IRQS);
}

static enum irqkit_irqreturn vec_handler(int irq, void *dev_id)
{
	struct vec_seen *s = dev_id;
	unsigned int cpu = (unsigned int)irqkit_smp_processor_id();

	(void)irq;
	atomic_store(&s->cpu, (int)cpu);
	if (s->mask && !(irqkit_cpus_mask(s->mask) & (1ull << cpu)))
		atomic_store(&s->off_mask, true);
	atomic_fetch_add(&s->calls, 1);
	return IRQKIT_HANDLED;
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static struct irqkit_pci_dev *sim(unsigned int msix, unsigned int msi, bool intx)
{
	struct irqkit_pci_sim_config cfg = { .msix = msix, .msi = msi, .intx = intx,
					     .vendor = 0x8086, .device = 0x10d3 };
	struct irqkit_pci_dev *pdev = NULL;

	assert_int_equal(irqkit_pci_sim_create("0000:00:05.0", &cfg, &pdev), 0);
	assert_non_null(pdev);
	return pdev;
}

static void test_msix_vectors_are_spread_with_a_pre_vector_kept_out(void **state)
{
	struct irqkit_irq_affinity affd = { .pre_vectors = 1 };
	int fds_before = open_fds();
	struct irqkit_pci_dev *pdev = sim(VECS, 1, true);
	unsigned int intx = pdev->irq;
	int virq[VECS];

	(void)state;
	assert_int_equal(pdev->vendor, 0x8086);
	assert_int_equal(pdev->device, 0x10d3);
	assert_string_equal(pdev->dev.name, "0000:00:05.0");
	assert_true(intx > 0);
	assert_int_equal(irqkit_pci_sim_triggers(pdev, IRQKIT_PCI_IRQ_INTX), 1);
	assert_int_equal(irqkit_pci_msix_vec_count(pdev), VECS);
	assert_int_equal(irqkit_pci_msi_vec_count(pdev), 1);

	/* a vector per CPU and the admin vector: as many as the device has */
	assert_int_equal(irqkit_pci_alloc_irq_vectors_affinity(pdev, 2, 16,
							       IRQKIT_PCI_IRQ_ALL_TYPES |
								       IRQKIT_PCI_IRQ_AFFINITY,
							       &affd), VECS);
	assert_true(pdev->msix_enabled);
	assert_false(pdev->msi_enabled);
	assert_int_equal(pdev->irq, intx);		/* MSI-X leaves dev->irq alone, as Linux */
	assert_int_equal(irqkit_pci_sim_triggers(pdev, IRQKIT_PCI_IRQ_MSIX), VECS);
	assert_int_equal(irqkit_pci_sim_triggers(pdev, IRQKIT_PCI_IRQ_INTX), 0);
	for (unsigned int i = 0; i < VECS; i++) {
		const struct irqkit_cpus *m = irqkit_pci_irq_get_affinity(pdev, i);
		struct irqkit_irq_data *d;
		struct irqkit_irq_info info;

		virq[i] = irqkit_pci_irq_vector(pdev, i);
		assert_true(virq[i] > 0);
		/* a line of the device's own domain, hwirq the vector's index */
		d = irqkit_irq_get_irq_data((unsigned int)virq[i]);
		assert_non_null(d);
		assert_non_null(d->domain);
		assert_string_equal(d->domain->name, "PCI-MSIX-0000:00:05.0");
		assert_int_equal(d->hwirq, i);
		for (unsigned int j = 0; j < i; j++)
			assert_int_not_equal(virq[i], virq[j]);
		assert_non_null(m);
		info = info_of((unsigned int)virq[i]);
		if (i == 0) {
			/* the pre vector: every CPU, not managed */
			assert_int_equal(__builtin_popcountll(irqkit_cpus_mask(m)), CPUS);
			assert_false(info.managed);
		} else {
			/* one CPU each, in order, managed */
			assert_int_equal(__builtin_popcountll(irqkit_cpus_mask(m)), 1);
			assert_true(irqkit_cpus_mask(m) == 1ull << (i - 1));
			assert_true(info.managed);
		}
		seen[i].mask = m;
		assert_int_equal(irqkit_request_irq((unsigned int)virq[i], vec_handler, 0, "queue",
						    &seen[i]), 0);
	}

	/* /proc/interrupts as current Linux prints a per-device MSI-X domain's vectors */
	{
		static char table[16384];
		char head[16], *row;

		assert_true(irqkit_show_interrupts_buf(table, sizeof(table), 0) > 0);
		snprintf(head, sizeof(head), "\n%3d:", virq[3]);
		row = strstr(table, head);
		assert_non_null(row);
		*strchrnul(row + 1, '\n') = '\0';
		assert_non_null(strstr(row, " PCI-MSIX-0000:00:05.0   3 Edge    -edge      queue"));
	}
	/* /proc/irq/N/: the managed vector's mask and target, the pre vector's */
	{
		char b[64];

		assert_int_equal(irqkit_show_irq_affinity_buf((unsigned int)virq[3],
							      IRQKIT_PROC_SMP_AFFINITY_LIST, b,
							      sizeof(b)), 2);
		assert_string_equal(b, "2\n");
		assert_true(irqkit_show_irq_affinity_buf((unsigned int)virq[3],
							 IRQKIT_PROC_SMP_AFFINITY, b, sizeof(b)) > 0);
		assert_string_equal(b, "4\n");
		assert_true(irqkit_show_irq_affinity_buf((unsigned int)virq[3],
							 IRQKIT_PROC_EFFECTIVE_AFFINITY_LIST, b,
							 sizeof(b)) > 0);
		assert_string_equal(b, "2\n");
		assert_true(irqkit_show_irq_affinity_buf((unsigned int)virq[0],
							 IRQKIT_PROC_SMP_AFFINITY_LIST, b,
							 sizeof(b)) > 0);
		assert_string_equal(b, "0-3\n");
		assert_true(irqkit_show_irq_affinity_buf((unsigned int)virq[0],
							 IRQKIT_PROC_SMP_AFFINITY, b, sizeof(b)) > 0);
		assert_string_equal(b, "f\n");
		assert_int_equal(irqkit_show_irq_affinity_buf((unsigned int)virq[0], 4, b, sizeof(b)),
				 -EINVAL);
	}

	/* each vector's message reaches its own handler, on a CPU of its mask */
	for (int round = 0; round < 20; round++)
		for (unsigned int i = 0; i < VECS; i++) {
			assert_int_equal(irqkit_pci_sim_fire(pdev, i), 0);
			assert_true(wait_until(atomic_load(&seen[i].calls) == round + 1, 5000));
		}
	for (unsigned int i = 0; i < VECS; i++) {
		assert_false(atomic_load(&seen[i].off_mask));
		if (i)
			assert_int_equal(atomic_load(&seen[i].cpu), (int)i - 1);
	}

	/* teardown: VFIO keeps no eventfd, INTx is back, no descriptor is left open */
	for (unsigned int i = 0; i < VECS; i++)
		irqkit_free_irq((unsigned int)virq[i], &seen[i]);
	irqkit_pci_free_irq_vectors(pdev);
	assert_false(pdev->msix_enabled);
	assert_int_equal(irqkit_pci_sim_triggers(pdev, IRQKIT_PCI_IRQ_MSIX), 0);
	assert_int_equal(irqkit_pci_sim_triggers(pdev, IRQKIT_PCI_IRQ_INTX), 1);
	assert_int_equal(irqkit_pci_irq_vector(pdev, 0), (int)intx);
	for (unsigned int i = 0; i < VECS; i++)
		assert_false(irqkit_irq_has_action((unsigned int)virq[i]));
	assert_int_equal(irqkit_pci_close(pdev), 0);
	assert_int_equal(open_fds(), fds_before);
	assert_log_lacks("still has lines mapped");	/* the device's domain went too */
}

static void test_bar_and_config_space(void **state)
{
	struct irqkit_pci_dev *pdev = sim(0, 1, true);
	volatile uint32_t *bar, *again;
	uint32_t v;

	(void)state;
	bar = irqkit_pci_iomap(pdev, 0, 0);
	assert_non_null(bar);
	bar[1] = 0x12345678;
	again = irqkit_pci_iomap(pdev, 0, 0);		/* mapped already: logged, NULL */
	assert_null(again);
	assert_log_contains("BAR 0 is mapped already");
	assert_null(irqkit_pci_iomap(pdev, 2, 0));	/* the sim has BAR 0 only */
	assert_null(irqkit_pci_iomap(pdev, 6, 0));
	irqkit_pci_iounmap(pdev, (void *)bar);
	bar = irqkit_pci_iomap(pdev, 0, 64);
	assert_non_null(bar);
	assert_int_equal(bar[1], 0x12345678);		/* the same memory */
	irqkit_pci_iounmap(pdev, (void *)&v);
	assert_log_contains("not a mapping of it");

	/* config space: IDs, the command register's bus-master bit, bad sizes */
	assert_int_equal(irqkit_pci_read_config(pdev, 0, 2, &v), 0);
	assert_int_equal(v, 0x8086);
	assert_int_equal(irqkit_pci_read_config(pdev, 2, 2, &v), 0);
	assert_int_equal(v, 0x10d3);
	irqkit_pci_set_master(pdev);
	assert_int_equal(irqkit_pci_read_config(pdev, 4, 2, &v), 0);
	assert_int_equal(v & 0x4, 0x4);
	assert_int_equal(irqkit_pci_read_config(pdev, 1, 2, &v), -EINVAL);
	assert_int_equal(irqkit_pci_read_config(pdev, 0, 3, &v), -EINVAL);
	assert_int_equal(irqkit_pci_write_config(pdev, 4096, 4, 0), -EINVAL);
	assert_int_equal(irqkit_pci_close(pdev), 0);	/* unmaps what is mapped */
}

static void test_fallback_from_msix_to_msi_to_intx_with_linux_errors(void **state)
{
	struct irqkit_pci_dev *msi4 = sim(0, 4, true), *msi1 = sim(0, 1, true);
	struct irqkit_pci_dev *intx = sim(0, 0, true), *msix5 = sim(VECS, 0, false);
	unsigned int line = msi4->irq;

	(void)state;
	/* no MSI-X capability: MSI, as many as it has; dev->irq is vector 0 meanwhile */
	assert_int_equal(irqkit_pci_msix_vec_count(msi4), -EINVAL);
	assert_int_equal(irqkit_pci_alloc_irq_vectors(msi4, 1, 8, IRQKIT_PCI_IRQ_ALL_TYPES), 4);
	assert_true(msi4->msi_enabled);
	assert_int_equal(irqkit_pci_sim_triggers(msi4, IRQKIT_PCI_IRQ_MSI), 4);
	assert_int_equal((int)msi4->irq, irqkit_pci_irq_vector(msi4, 0));
	assert_int_not_equal(msi4->irq, line);
	assert_null(irqkit_pci_irq_get_affinity(msi4, 1));	/* not spread */
	irqkit_pci_free_irq_vectors(msi4);
	assert_int_equal(msi4->irq, line);
	/* MSI-X only, on a device without it: -EINVAL */
	assert_int_equal(irqkit_pci_alloc_irq_vectors(msi4, 1, 8, IRQKIT_PCI_IRQ_MSIX), -EINVAL);

	/* one MSI vector and a minimum of 2: -ENOSPC, and INTx needs a minimum of 1 */
	assert_int_equal(irqkit_pci_alloc_irq_vectors(msi1, 2, 4, IRQKIT_PCI_IRQ_MSI |
								   IRQKIT_PCI_IRQ_INTX), -ENOSPC);
	assert_int_equal(irqkit_pci_alloc_irq_vectors(msi1, 1, 4, IRQKIT_PCI_IRQ_MSI |
								   IRQKIT_PCI_IRQ_INTX), 1);
	assert_true(msi1->msi_enabled);
	irqkit_pci_free_irq_vectors(msi1);

	/* INTx only: one vector, the pin's line, every CPU */
	assert_int_equal(irqkit_pci_alloc_irq_vectors(intx, 1, 4, IRQKIT_PCI_IRQ_ALL_TYPES |
								  IRQKIT_PCI_IRQ_AFFINITY), 1);
	assert_false(intx->msi_enabled || intx->msix_enabled);
	assert_int_equal(irqkit_pci_irq_vector(intx, 0), (int)intx->irq);
	assert_ptr_equal(irqkit_pci_irq_get_affinity(intx, 0), irqkit_cpu_possible_cpus());
	/* a minimum of 2 with no MSI of either kind: the last kind's error, as Linux */
	assert_int_equal(irqkit_pci_alloc_irq_vectors(intx, 2, 4, IRQKIT_PCI_IRQ_ALL_TYPES),
			 -EINVAL);

	/* more than the device has, with the minimum above it */
	assert_int_equal(irqkit_pci_alloc_irq_vectors(msix5, 6, 8, IRQKIT_PCI_IRQ_MSIX), -ENOSPC);
	assert_int_equal(irqkit_pci_alloc_irq_vectors(msix5, 6, 8, IRQKIT_PCI_IRQ_ALL_TYPES),
			 -EINVAL);	/* MSI tried last, and it has none */
	assert_int_equal(msix5->irq, 0);		/* no pin: no INTx line */

	assert_int_equal(irqkit_pci_close(msi4), 0);
	assert_int_equal(irqkit_pci_close(msi1), 0);
	assert_int_equal(irqkit_pci_close(intx), 0);
	assert_int_equal(irqkit_pci_close(msix5), 0);
}

static void test_bad_calls_get_linux_errors_and_a_log_line(void **state)
{
	struct irqkit_irq_affinity affd = { .pre_vectors = 1 };
	struct irqkit_pci_dev *pdev = sim(VECS, 1, true);
	int v;

	(void)state;
	assert_int_equal(irqkit_pci_alloc_irq_vectors(pdev, 4, 2, IRQKIT_PCI_IRQ_MSIX), -ERANGE);
	assert_int_equal(irqkit_pci_alloc_irq_vectors(pdev, 0, 0, IRQKIT_PCI_IRQ_MSI), -EINVAL);
	/* affinity without the flag: a warning, and the vectors are not spread */
	assert_int_equal(irqkit_pci_alloc_irq_vectors_affinity(pdev, 1, 3, IRQKIT_PCI_IRQ_MSIX,
							       &affd), 3);
	assert_log_contains("WARNING");
	assert_null(irqkit_pci_irq_get_affinity(pdev, 1));
	assert_false(info_of((unsigned int)irqkit_pci_irq_vector(pdev, 1)).managed);

	/* MSI while MSI-X is on, MSI-X twice */
	log_clear();
	assert_int_equal(irqkit_pci_alloc_irq_vectors(pdev, 1, 1, IRQKIT_PCI_IRQ_MSI), -EINVAL);
	assert_log_contains("can't enable MSI (MSI-X already enabled)");
	assert_int_equal(irqkit_pci_alloc_irq_vectors(pdev, 1, 1, IRQKIT_PCI_IRQ_MSIX), -EINVAL);
	assert_log_contains("WARNING");

	/* a vector past the count */
	log_clear();
	assert_int_equal(irqkit_pci_irq_vector(pdev, 3), -EINVAL);
	assert_log_contains("pci_irq_vector(3): the device has 3 MSI-X vectors");
	assert_null(irqkit_pci_irq_get_affinity(pdev, 7));

	/* freeing with a handler requested: nothing freed; closing: refused */
	v = irqkit_pci_irq_vector(pdev, 2);
	assert_int_equal(irqkit_request_irq((unsigned int)v, vec_handler, 0, "q", &seen[2]), 0);
	log_clear();
	irqkit_pci_free_irq_vectors(pdev);
	assert_log_contains("vector 2 (irq");
	assert_true(pdev->msix_enabled);
	assert_int_equal(irqkit_pci_sim_triggers(pdev, IRQKIT_PCI_IRQ_MSIX), 3);
	assert_int_equal(irqkit_pci_sim_fire(pdev, 2), 0);
	assert_true(wait_until(atomic_load(&seen[2].calls) == 1, 5000));
	assert_int_equal(irqkit_pci_close(pdev), -EBUSY);
	irqkit_free_irq((unsigned int)v, &seen[2]);

	/* freeing twice */
	irqkit_pci_free_irq_vectors(pdev);
	log_clear();
	irqkit_pci_free_irq_vectors(pdev);
	assert_log_contains("no MSI or MSI-X vectors allocated");
	assert_int_equal(irqkit_pci_sim_fire(pdev, 0), -EINVAL);	/* nothing on */
	assert_int_equal(irqkit_pci_close(pdev), 0);

	/* bad devices and addresses */
	assert_int_equal(irqkit_pci_alloc_irq_vectors(NULL, 1, 1, IRQKIT_PCI_IRQ_MSI), -EINVAL);
	assert_int_equal(irqkit_pci_close(NULL), -EINVAL);
	assert_int_equal(irqkit_pci_open("../etc", &pdev), -EINVAL);
	log_clear();
	assert_int_equal(irqkit_pci_open("ffff:ff:1f.7", &pdev), -ENODEV);
	assert_log_contains("ffff:ff:1f.7: no such PCI device");
	assert_int_equal(irqkit_pci_open_fd("0000:00:05.0", 0, &pdev), -ENOTTY);
	{
		struct irqkit_pci_sim_config bad = { .msi = 3 };

		assert_int_equal(irqkit_pci_sim_create("x", &bad, &pdev), -EINVAL);
	}
}

static void test_a_masked_vector_keeps_its_interrupt(void **state)
{
	struct irqkit_pci_dev *pdev = sim(2, 0, false);
	int v;

	(void)state;
	assert_int_equal(irqkit_pci_alloc_irq_vectors(pdev, 2, 2, IRQKIT_PCI_IRQ_MSIX), 2);
	v = irqkit_pci_irq_vector(pdev, 1);
	assert_int_equal(irqkit_request_irq((unsigned int)v, vec_handler, 0, "q", &seen[1]), 0);
	for (int i = 0; i < 50; i++) {
		irqkit_disable_irq((unsigned int)v);
		assert_int_equal(irqkit_pci_sim_fire(pdev, 1), 0);
		usleep_100();
		assert_int_equal(atomic_load(&seen[1].calls), i);
		irqkit_enable_irq((unsigned int)v);
		assert_true(wait_until(atomic_load(&seen[1].calls) == i + 1, 5000));
	}
	assert_int_equal(irqkit_wait_delivered((unsigned int)v, 1000), 0);
	assert_int_equal(atomic_load(&seen[1].calls), 50);
	irqkit_free_irq((unsigned int)v, &seen[1]);
	irqkit_pci_free_irq_vectors(pdev);
	assert_int_equal(irqkit_pci_close(pdev), 0);
}

static void test_a_managed_vector_shuts_down_with_its_cpu(void **state)
{
	struct irqkit_pci_dev *pdev = sim(CPUS, 0, false);
	int v;

	(void)state;
	assert_int_equal(irqkit_pci_alloc_irq_vectors(pdev, 1, CPUS, IRQKIT_PCI_IRQ_MSIX |
								   IRQKIT_PCI_IRQ_AFFINITY), CPUS);
	v = irqkit_pci_irq_vector(pdev, 3);		/* CPU 3's */
	assert_int_equal(irqkit_request_irq((unsigned int)v, vec_handler, 0, "q", &seen[3]), 0);
	assert_int_equal(irqkit_remove_cpu(3), 0);
	assert_true(info_of((unsigned int)v).managed_shutdown);
	assert_int_equal(irqkit_pci_sim_fire(pdev, 3), 0);
	usleep_100();
	assert_int_equal(atomic_load(&seen[3].calls), 0);
	assert_int_equal(irqkit_add_cpu(3), 0);
	assert_true(wait_until(atomic_load(&seen[3].calls) == 1, 5000));
	assert_int_equal(irqkit_wait_delivered((unsigned int)v, 1000), 0);
	assert_int_equal(atomic_load(&seen[3].calls), 1);
	assert_int_equal(atomic_load(&seen[3].cpu), 3);
	irqkit_free_irq((unsigned int)v, &seen[3]);
	irqkit_pci_free_irq_vectors(pdev);
	assert_int_equal(irqkit_pci_close(pdev), 0);
}

static atomic_int req_calls;

static enum irqkit_irqreturn req_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	atomic_fetch_add(&req_calls, 1);
	return IRQKIT_HANDLED;
}

/* VFIO's request to give the device back reaches a handler; the error event needs AER. */
static void test_device_events_are_lines(void **state)
{
	struct irqkit_pci_sim_config cfg = { .msix = 2, .aer = true };
	struct irqkit_pci_dev *pdev = sim(2, 0, false), *aer;
	int req, req2, err;

	(void)state;
	assert_int_equal(irqkit_pci_sim_event(pdev, IRQKIT_PCI_EVENT_REQ), -ENOENT);
	req = irqkit_pci_event_irq(pdev, IRQKIT_PCI_EVENT_REQ);
	assert_true(req > 0);
	req2 = irqkit_pci_event_irq(pdev, IRQKIT_PCI_EVENT_REQ);	/* the same line again */
	assert_int_equal(req2, req);
	assert_int_equal(irqkit_request_irq((unsigned int)req, req_handler, 0, "req", NULL), 0);
	atomic_store(&req_calls, 0);
	for (int i = 1; i <= 5; i++) {
		assert_int_equal(irqkit_pci_sim_event(pdev, IRQKIT_PCI_EVENT_REQ), 0);
		assert_true(wait_until(atomic_load(&req_calls) == i, 5000));
	}
	/* alongside MSI-X, which VFIO keeps apart */
	assert_int_equal(irqkit_pci_alloc_irq_vectors(pdev, 2, 2, IRQKIT_PCI_IRQ_MSIX), 2);
	assert_int_equal(irqkit_pci_sim_event(pdev, IRQKIT_PCI_EVENT_REQ), 0);
	assert_true(wait_until(atomic_load(&req_calls) == 6, 5000));
	irqkit_pci_free_irq_vectors(pdev);
	log_clear();
	assert_int_equal(irqkit_pci_event_irq(pdev, IRQKIT_PCI_EVENT_ERR), -ENODEV);
	assert_log_contains("no error (no AER) event");
	assert_int_equal(irqkit_pci_event_irq(pdev, 2), -EINVAL);
	assert_int_equal(irqkit_pci_close(pdev), -EBUSY);		/* its handler first */
	irqkit_free_irq((unsigned int)req, NULL);
	assert_int_equal(irqkit_pci_close(pdev), 0);

	assert_int_equal(irqkit_pci_sim_create("0000:00:06.0", &cfg, &aer), 0);
	err = irqkit_pci_event_irq(aer, IRQKIT_PCI_EVENT_ERR);
	assert_true(err > 0);
	assert_int_equal(irqkit_request_irq((unsigned int)err, req_handler, 0, "err", NULL), 0);
	atomic_store(&req_calls, 0);
	assert_int_equal(irqkit_pci_sim_event(aer, IRQKIT_PCI_EVENT_ERR), 0);
	assert_true(wait_until(atomic_load(&req_calls) == 1, 5000));
	irqkit_free_irq((unsigned int)err, NULL);
	assert_int_equal(irqkit_pci_close(aer), 0);
	assert_int_equal(irqkit_pci_sim_event(NULL, IRQKIT_PCI_EVENT_REQ), -EINVAL);
}

/*
 * MSI-X vectors added while MSI-X is on: through one SET_IRQS where VFIO
 * grows a running set, else MSI-X off and on again with each vector that
 * was on signalled once after (so nothing sent in between is lost).
 */
static void test_msix_vectors_added_to_a_running_set(void **state)
{
	(void)state;
	for (int grow = 0; grow <= 1; grow++) {
		struct irqkit_pci_sim_config cfg = { .msix = 8, .grow = grow };
		struct irqkit_irq_affinity_desc on3 = { .mask = irqkit_cpus_bit[3], .is_managed = 1 };
		struct irqkit_pci_dev *pdev;
		struct irqkit_msi_map m2, m5, bad;
		int kick = grow ? 0 : 1, v;

		memset(seen, 0, sizeof(seen));
		assert_int_equal(irqkit_pci_sim_create("0000:00:07.0", &cfg, &pdev), 0);
		assert_true(irqkit_pci_msix_can_alloc_dyn(pdev));
		bad = irqkit_pci_msix_alloc_irq_at(pdev, IRQKIT_MSI_ANY_INDEX, NULL);
		assert_int_equal(bad.index, -IRQKIT_ENOTSUPP);	/* MSI-X is not on */
		assert_int_equal(bad.virq, 0);
		assert_int_equal(irqkit_pci_alloc_irq_vectors(pdev, 2, 2, IRQKIT_PCI_IRQ_MSIX), 2);
		for (unsigned int i = 0; i < 2; i++) {
			v = irqkit_pci_irq_vector(pdev, i);
			assert_int_equal(irqkit_request_irq((unsigned int)v, vec_handler, 0, "q",
							    &seen[i]), 0);
		}

		/* the first free entry */
		m2 = irqkit_pci_msix_alloc_irq_at(pdev, IRQKIT_MSI_ANY_INDEX, NULL);
		assert_int_equal(m2.index, 2);
		assert_int_equal(m2.virq, irqkit_pci_irq_vector(pdev, 2));
		assert_int_equal(irqkit_pci_sim_triggers(pdev, IRQKIT_PCI_IRQ_MSIX), 3);
		for (unsigned int i = 0; i < 2; i++) {
			assert_int_equal(irqkit_wait_delivered((unsigned int)irqkit_pci_irq_vector(pdev, i),
							       1000), 0);
			assert_int_equal(atomic_load(&seen[i].calls), kick);
		}
		assert_int_equal(irqkit_request_irq((unsigned int)m2.virq, vec_handler, 0, "q2",
						    &seen[2]), 0);
		assert_int_equal(irqkit_pci_sim_fire(pdev, 2), 0);
		assert_true(wait_until(atomic_load(&seen[2].calls) == 1, 5000));

		/* a given entry past those on, with a managed affinity; a hole before it */
		m5 = irqkit_pci_msix_alloc_irq_at(pdev, 5, &on3);
		assert_int_equal(m5.index, 5);
		assert_true(m5.virq > 0);
		assert_int_equal(irqkit_pci_irq_vector(pdev, 3), -EINVAL);
		assert_true(irqkit_cpus_mask(irqkit_pci_irq_get_affinity(pdev, 5)) == 1ull << 3);
		assert_true(info_of((unsigned int)m5.virq).managed);
		for (unsigned int i = 0; i < 3; i++) {
			assert_int_equal(irqkit_wait_delivered((unsigned int)irqkit_pci_irq_vector(pdev, i),
							       1000), 0);
			assert_int_equal(atomic_load(&seen[i].calls), (i == 2) + (i == 2 ? 1 : 2) * kick);
		}
		seen[3].mask = &irqkit_cpus_bit[3];
		assert_int_equal(irqkit_request_irq((unsigned int)m5.virq, vec_handler, 0, "q5",
						    &seen[3]), 0);
		assert_int_equal(irqkit_pci_sim_fire(pdev, 5), 0);
		assert_true(wait_until(atomic_load(&seen[3].calls) == 1, 5000));
		assert_int_equal(atomic_load(&seen[3].cpu), 3);

		/* taken, past the table */
		assert_int_equal(irqkit_pci_msix_alloc_irq_at(pdev, 5, NULL).index, -IRQKIT_EBUSY);
		assert_int_equal(irqkit_pci_msix_alloc_irq_at(pdev, 8, NULL).index, -IRQKIT_ERANGE);

		/* one given back: VFIO lets its eventfd go, the others stay */
		log_clear();
		irqkit_pci_msix_free_irq(pdev, m5);		/* a handler still on it */
		assert_log_contains("vector 5 (irq");
		irqkit_free_irq((unsigned int)m5.virq, &seen[3]);
		irqkit_pci_msix_free_irq(pdev, m5);
		assert_int_equal(irqkit_pci_sim_fire(pdev, 5), -ENOENT);
		assert_int_equal(irqkit_pci_irq_vector(pdev, 5), -EINVAL);
		assert_int_equal(irqkit_pci_sim_fire(pdev, 2), 0);
		assert_true(wait_until(atomic_load(&seen[2].calls) == 2 + kick, 5000));
		log_clear();
		irqkit_pci_msix_free_irq(pdev, m5);		/* twice */
		assert_log_contains("no vector 5");
		irqkit_pci_msix_free_irq(pdev, bad);		/* a failed map: a warning, once */
		if (!grow)
			assert_log_contains("WARNING");
		/* the entry can be taken again */
		m5 = irqkit_pci_msix_alloc_irq_at(pdev, 5, NULL);
		assert_int_equal(m5.index, 5);
		assert_null(irqkit_pci_irq_get_affinity(pdev, 5));

		for (unsigned int i = 0; i < 3; i++)
			irqkit_free_irq((unsigned int)irqkit_pci_irq_vector(pdev, i), &seen[i]);
		irqkit_pci_free_irq_vectors(pdev);
		assert_int_equal(irqkit_pci_sim_triggers(pdev, IRQKIT_PCI_IRQ_MSIX), 0);
		assert_int_equal(irqkit_pci_close(pdev), 0);
	}
}

static struct irqkit_pci_dev *intx_dev;
static atomic_int intx_entered, intx_calls;

/*
 * Deasserts the pin on every second call: an unmask with the pin still up
 * signals again.  The call is counted after the deassert, so the test's
 * next assert comes after it.
 */
static enum irqkit_irqreturn intx_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	if (atomic_fetch_add(&intx_entered, 1) % 2)
		assert_int_equal(irqkit_pci_sim_set_intx(intx_dev, false), 0);
	atomic_fetch_add(&intx_calls, 1);
	return IRQKIT_HANDLED;
}

static void test_intx_is_a_level_line_unmasked_after_its_handler(void **state)
{
	(void)state;
	intx_dev = sim(0, 0, true);
	atomic_store(&intx_entered, 0);
	atomic_store(&intx_calls, 0);
	assert_int_equal(irqkit_request_irq(intx_dev->irq, intx_handler, 0, "intx", NULL), 0);
	assert_int_equal(info_of(intx_dev->irq).trigger & IRQKIT_TYPE_LEVEL_MASK,
			 info_of(intx_dev->irq).trigger);
	for (int i = 1; i <= 30; i++) {
		assert_int_equal(irqkit_pci_sim_set_intx(intx_dev, true), 0);
		assert_true(wait_until(atomic_load(&intx_calls) == 2 * i, 5000));
	}
	assert_int_equal(irqkit_wait_delivered(intx_dev->irq, 1000), 0);
	assert_int_equal(atomic_load(&intx_calls), 60);
	assert_int_equal(irqkit_pci_close(intx_dev), -EBUSY);
	irqkit_free_irq(intx_dev->irq, NULL);
	assert_int_equal(irqkit_pci_close(intx_dev), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_msix_vectors_are_spread_with_a_pre_vector_kept_out,
						setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_bar_and_config_space, setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_fallback_from_msix_to_msi_to_intx_with_linux_errors,
						setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_bad_calls_get_linux_errors_and_a_log_line,
						setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_a_masked_vector_keeps_its_interrupt,
						setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_a_managed_vector_shuts_down_with_its_cpu,
						setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_intx_is_a_level_line_unmasked_after_its_handler,
						setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_device_events_are_lines, setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_msix_vectors_added_to_a_running_set, setup,
						thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
