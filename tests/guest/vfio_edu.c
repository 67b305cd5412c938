// SPDX-License-Identifier: MIT
/*
 * Inside the Linux guest (tests/guest/run.sh): QEMU's second edu device
 * under the kernel's vfio-pci (behind QEMU's intel-iommu: Debian's kernel
 * has no no-IOMMU mode), its interrupts taken through irqkit's VFIO source:
 * INTx with VFIO's automatic mask and the unmask eventfd, then MSI, both set
 * up by irqkit_vfio_set_irqs().  MSI needs bus mastering, set through the
 * device's config region.  Then the same device through <irqkit/pci.h>, as
 * a kernel driver asks for vectors: edu has no MSI-X (-EINVAL), one MSI
 * vector (-ENOSPC for two), and pci_alloc_irq_vectors falls back to it.
 *
 * Prints one "ok N - what" or "not ok N - what" line per check, then
 * "GUEST vfio_edu: PASS" or "GUEST vfio_edu: FAIL"; exits 0 on a pass.
 * Usage: vfio_edu PCI_ADDRESS   (e.g. 0000:00:04.0)
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>
#include <irqkit/fd.h>
#include <irqkit/pci.h>

#include "guest.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/vfio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#define LINE_INTX	5
#define LINE_MSI	6
#define RAISES		100

/* @RAISES interrupts one at a time on @line; return how many were handled. */
static unsigned int raise_one_at_a_time(unsigned int line)
{
	unsigned int start = atomic_load(&edu_handled);
	struct irqkit_irq_info info;

	for (unsigned int i = 0; i < RAISES; i++) {
		edu_bar[EDU_RAISE / 4] = 1;
		if (!wait_for(&edu_handled, start + i + 1, 5000)) {
			(void)irqkit_irq_get_info(line, &info);
			printf("  raise %u not handled (line count %llu)\n", i,
			       (unsigned long long)info.count);
			break;
		}
	}
	return atomic_load(&edu_handled) - start;
}

static int container = -1, group = -1;

/*
 * The device's VFIO descriptor, through a type-1 container and its IOMMU
 * group (left in container and group); -1 on failure.
 */
static int open_device(const char *addr)
{
	struct vfio_group_status gs = { .argsz = sizeof(gs) };
	char link[256], path[300];
	int dev;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/iommu_group", addr);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0) {
		printf("  no IOMMU group for %s: %s\n", addr, strerror(errno));
		return -1;
	}
	link[n] = '\0';
	snprintf(path, sizeof(path), "/dev/vfio/%s", basename(link));
	container = open("/dev/vfio/vfio", O_RDWR | O_CLOEXEC);
	group = open(path, O_RDWR | O_CLOEXEC);
	if (container < 0 || group < 0 ||
	    ioctl(container, VFIO_GET_API_VERSION) != VFIO_API_VERSION ||
	    ioctl(group, VFIO_GROUP_GET_STATUS, &gs) || !(gs.flags & VFIO_GROUP_FLAGS_VIABLE) ||
	    ioctl(group, VFIO_GROUP_SET_CONTAINER, &container) ||
	    ioctl(container, VFIO_SET_IOMMU, VFIO_TYPE1_IOMMU)) {
		printf("  VFIO container or group %s: %s\n", path, strerror(errno));
		return -1;
	}
	dev = ioctl(group, VFIO_GROUP_GET_DEVICE_FD, addr);
	if (dev < 0)
		printf("  VFIO_GROUP_GET_DEVICE_FD %s: %s\n", addr, strerror(errno));
	return dev;
}

/* Stop VFIO signalling interrupt @index (a SET_IRQS with no data and count 0). */
static int irqs_off(int dev, unsigned int index)
{
	struct vfio_irq_set set = { .argsz = sizeof(set),
				    .flags = VFIO_IRQ_SET_DATA_NONE | VFIO_IRQ_SET_ACTION_TRIGGER,
				    .index = index, .start = 0, .count = 0 };

	return ioctl(dev, VFIO_DEVICE_SET_IRQS, &set);
}

/* The device again, opened and its vectors allocated by <irqkit/pci.h>. */
static void pci_vectors(const char *addr)
{
	struct irqkit_pci_dev *pdev = NULL;
	int cookie, v;

	check(irqkit_pci_open(addr, &pdev) == 0 && pdev, "irqkit_pci_open by address");
	if (!pdev)
		return;
	check(pdev->vendor == 0x1234 && pdev->device == 0x11e8, "IDs read from config space");
	check(pdev->irq > 0, "an INTx line from the open on (dev->irq)");
	check(irqkit_pci_msix_vec_count(pdev) == -EINVAL && irqkit_pci_msi_vec_count(pdev) == 1,
	      "VFIO's counts: no MSI-X capability, one MSI vector");
	check(irqkit_pci_alloc_irq_vectors(pdev, 1, 4, IRQKIT_PCI_IRQ_MSIX) == -EINVAL,
	      "MSI-X only: -EINVAL");
	check(irqkit_pci_alloc_irq_vectors(pdev, 2, 4, IRQKIT_PCI_IRQ_MSI) == -ENOSPC,
	      "two MSI vectors at least: -ENOSPC");
	check(irqkit_pci_alloc_irq_vectors(pdev, 1, 4, IRQKIT_PCI_IRQ_ALL_TYPES |
				IRQKIT_PCI_IRQ_AFFINITY) == 1 && pdev->msi_enabled,
	      "all types: falls back to the one MSI vector");
	irqkit_pci_set_master(pdev);
	edu_bar = irqkit_pci_iomap(pdev, 0, 0);
	check(edu_bar && edu_bar[EDU_ID / 4] == EDU_ID_VALUE, "pci_iomap of BAR0");
	v = irqkit_pci_irq_vector(pdev, 0);
	check(v > 0 && (unsigned int)v == pdev->irq, "vector 0 is dev->irq while MSI is on");
	check(irqkit_request_irq((unsigned int)v, edu_interrupt, 0, "edu-pci", &cookie) == 0,
	      "request_irq (vector 0)");
	check(edu_bar && raise_one_at_a_time((unsigned int)v) == RAISES,
	      "MSI through pci_alloc_irq_vectors: 100 raises one at a time, 100 handled");
	check(irqkit_pci_irq_vector(pdev, 1) == -EINVAL, "vector 1 of 1: -EINVAL");
	irqkit_free_irq((unsigned int)v, &cookie);
	irqkit_pci_free_irq_vectors(pdev);
	check(!pdev->msi_enabled && irqkit_pci_irq_vector(pdev, 0) == (int)pdev->irq,
	      "freed: INTx is dev->irq again");
	check(irqkit_pci_close(pdev) == 0, "irqkit_pci_close");
	check(irqkit_pci_open("0000:00:03.0", &pdev) == -ENODEV,
	      "a device bound to another driver: -ENODEV");
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .nr_irqs = 16, .nr_cpus = guest_cpus(1),
				     .mode = IRQKIT_MODE_THREADED,
				     .log = log_line };
	struct vfio_region_info bar0 = { .argsz = sizeof(bar0), .index = VFIO_PCI_BAR0_REGION_INDEX };
	struct vfio_region_info conf = { .argsz = sizeof(conf),
					 .index = VFIO_PCI_CONFIG_REGION_INDEX };
	int dev, trig = -1, unmask = -1, cookie;
	uint16_t cmd;

	if (argc < 2) {
		printf("usage: vfio_edu PCI_ADDRESS\nGUEST vfio_edu: FAIL\n");
		return 1;
	}
	dev = open_device(argv[1]);
	if (dev < 0 || ioctl(dev, VFIO_DEVICE_GET_REGION_INFO, &bar0) ||
	    ioctl(dev, VFIO_DEVICE_GET_REGION_INFO, &conf)) {
		printf("no VFIO device %s\nGUEST vfio_edu: FAIL\n", argv[1]);
		return 1;
	}
	edu_bar = mmap(NULL, bar0.size, PROT_READ | PROT_WRITE, MAP_SHARED, dev, (off_t)bar0.offset);
	if (edu_bar == MAP_FAILED) {
		printf("cannot map BAR0: %s\nGUEST vfio_edu: FAIL\n", strerror(errno));
		return 1;
	}
	check(edu_bar[EDU_ID / 4] == EDU_ID_VALUE, "BAR0 through VFIO is the edu device's");
	printf("  irqkit: threaded, %u CPU(s)\n", cfg.nr_cpus);
	check(irqkit_start(&cfg) == 0, "irqkit_start");

	/* INTx: VFIO masks it as it fires; irqkit writes the unmask eventfd after the handler */
	check(irqkit_vfio_set_irqs(dev, VFIO_PCI_INTX_IRQ_INDEX, 1, &trig, &unmask) == 0 &&
	      unmask >= 0, "irqkit_vfio_set_irqs(INTx): trigger and unmask eventfds");
	check(irqkit_fd_bind_vfio(LINE_INTX, trig, unmask) == 0, "irqkit_fd_bind_vfio(INTx)");
	check(irqkit_request_irq(LINE_INTX, edu_interrupt, 0, "edu-intx", &cookie) == 0,
	      "request_irq (INTx)");
	check(raise_one_at_a_time(LINE_INTX) == RAISES, "INTx: 100 raises one at a time, 100 handled");
	irqkit_free_irq(LINE_INTX, &cookie);
	check(irqkit_fd_unbind(LINE_INTX) == 0, "unbind (INTx)");
	check(irqs_off(dev, VFIO_PCI_INTX_IRQ_INDEX) == 0, "INTx off");
	close(trig);
	close(unmask);

	/* MSI: an edge per raise; the device writes memory, so it needs bus mastering */
	if (pread(dev, &cmd, sizeof(cmd), (off_t)conf.offset + 4) == (ssize_t)sizeof(cmd)) {
		cmd |= 0x4;
		check(pwrite(dev, &cmd, sizeof(cmd), (off_t)conf.offset + 4) == (ssize_t)sizeof(cmd),
		      "bus mastering on (PCI command register through the config region)");
	}
	trig = -1;
	check(irqkit_vfio_set_irqs(dev, VFIO_PCI_MSI_IRQ_INDEX, 1, &trig, NULL) == 0,
	      "irqkit_vfio_set_irqs(MSI, 1 vector)");
	check(irqkit_fd_bind_vfio(LINE_MSI, trig, -1) == 0, "irqkit_fd_bind_vfio(MSI)");
	check(irqkit_request_irq(LINE_MSI, edu_interrupt, 0, "edu-msi", &cookie) == 0,
	      "request_irq (MSI)");
	check(raise_one_at_a_time(LINE_MSI) == RAISES, "MSI: 100 raises one at a time, 100 handled");
	irqkit_free_irq(LINE_MSI, &cookie);
	check(irqkit_fd_unbind(LINE_MSI) == 0, "unbind (MSI)");
	check(irqs_off(dev, VFIO_PCI_MSI_IRQ_INDEX) == 0, "MSI off");
	close(trig);

	/* bad input: an interrupt index the device does not have */
	trig = -1;
	check(irqkit_vfio_set_irqs(dev, VFIO_PCI_MSIX_IRQ_INDEX, 1, &trig, NULL) < 0,
	      "MSI-X, which edu lacks: an error, nothing bound");
	munmap((void *)edu_bar, bar0.size);
	close(dev);
	close(group);
	close(container);
	pci_vectors(argv[1]);
	irqkit_stop();
	return verdict("vfio_edu");
}
