/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/pci.h> over irqkit, the interrupt part a driver of a
 * multi-queue device uses (<irqkit/pci.h>, over VFIO): struct pci_dev with
 * its irq, dev, vendor, device, msi_enabled and msix_enabled;
 * pci_alloc_irq_vectors(_affinity) (4.8), pci_free_irq_vectors,
 * pci_irq_vector, pci_irq_get_affinity, pci_msix_vec_count,
 * pci_msi_vec_count, pci_msix_alloc_irq_at and pci_msix_free_irq (6.2),
 * pci_set_master, pci_iomap (a BAR mapped through VFIO), the
 * configuration-space accessors and the driver data.  The device itself comes from irqkit_pci_open() (a real
 * one bound to vfio-pci) or irqkit_pci_sim_create() (a simulated one), where
 * the kernel's PCI core would hand it to a probe.  Not here: I/O-port BARs, DMA,
 * the pci_driver model, pci_request_irq.
 */
#ifndef IRQKIT_COMPAT_LINUX_PCI_H
#define IRQKIT_COMPAT_LINUX_PCI_H

#include <irqkit/pci.h>
#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/types.h>
#include <linux/version.h>

#define pci_dev				irqkit_pci_dev

/* PCI_IRQ_LEGACY was renamed PCI_IRQ_INTX (6.8) and removed (6.10): both are given */
#define PCI_IRQ_INTX			IRQKIT_PCI_IRQ_INTX
#define PCI_IRQ_LEGACY			IRQKIT_PCI_IRQ_INTX
#define PCI_IRQ_MSI			IRQKIT_PCI_IRQ_MSI
#define PCI_IRQ_MSIX			IRQKIT_PCI_IRQ_MSIX
#define PCI_IRQ_AFFINITY		IRQKIT_PCI_IRQ_AFFINITY
#define PCI_IRQ_ALL_TYPES		IRQKIT_PCI_IRQ_ALL_TYPES

#define PCIBIOS_SUCCESSFUL		0

#define pci_name(pdev)			((const char *)(pdev)->dev.name)
#define pci_get_drvdata(pdev)		((pdev)->dev.driver_data)
#define pci_set_drvdata(pdev, data)	((void)((pdev)->dev.driver_data = (data)))
#define pci_set_master(pdev)		irqkit_pci_set_master(pdev)
#define pci_iomap(pdev, bar, maxlen)	((void __iomem *)irqkit_pci_iomap((pdev), (bar), (maxlen)))
#define pci_iounmap(pdev, addr)		irqkit_pci_iounmap((pdev), (void *)(addr))

#define IRQKIT__NEEDS_4_8(what)	what " needs Linux 4.8; this build is for an older kernel"
#if IRQKIT_LINUX_AT_LEAST(4, 8, 0)
#define pci_alloc_irq_vectors(pdev, min, max, flags)				\
	irqkit_pci_alloc_irq_vectors((pdev), (min), (max), (flags))
#define pci_alloc_irq_vectors_affinity(pdev, min, max, flags, affd)		\
	irqkit_pci_alloc_irq_vectors_affinity((pdev), (min), (max), (flags), (affd))
#define pci_free_irq_vectors(pdev)	irqkit_pci_free_irq_vectors(pdev)
#define pci_irq_vector(pdev, nr)	irqkit_pci_irq_vector((pdev), (nr))
#define pci_irq_get_affinity(pdev, nr)	irqkit_pci_irq_get_affinity((pdev), (nr))
#else
#define pci_alloc_irq_vectors(pdev, min, max, flags)				\
	IRQKIT_ERA_ERROR(IRQKIT__NEEDS_4_8("pci_alloc_irq_vectors"))
#define pci_alloc_irq_vectors_affinity(pdev, min, max, flags, affd)		\
	IRQKIT_ERA_ERROR(IRQKIT__NEEDS_4_8("pci_alloc_irq_vectors_affinity"))
#endif
#define pci_msix_vec_count(pdev)	irqkit_pci_msix_vec_count(pdev)

/* adding MSI-X vectors to a running set (6.2) */
#define msi_map				irqkit_msi_map
#define MSI_ANY_INDEX			IRQKIT_MSI_ANY_INDEX
#if IRQKIT_LINUX_AT_LEAST(6, 2, 0)
#define pci_msix_can_alloc_dyn(pdev)	irqkit_pci_msix_can_alloc_dyn(pdev)
#define pci_msix_alloc_irq_at(pdev, index, affdesc)				\
	irqkit_pci_msix_alloc_irq_at((pdev), (index), (affdesc))
#define pci_msix_free_irq(pdev, map)	irqkit_pci_msix_free_irq((pdev), (map))
#else
#define IRQKIT__NEEDS_6_2(what)	what " needs Linux 6.2; this build is for an older kernel"
#define pci_msix_can_alloc_dyn(pdev)	IRQKIT_ERA_ERROR(IRQKIT__NEEDS_6_2("pci_msix_can_alloc_dyn"))
#define pci_msix_alloc_irq_at(pdev, index, affdesc)				\
	IRQKIT_ERA_ERROR(IRQKIT__NEEDS_6_2("pci_msix_alloc_irq_at"))
#define pci_msix_free_irq(pdev, map)	IRQKIT_ERA_ERROR(IRQKIT__NEEDS_6_2("pci_msix_free_irq"))
#endif
#define pci_msi_vec_count(pdev)		irqkit_pci_msi_vec_count(pdev)

static inline int irqkit__pci_read_config(struct pci_dev *pdev, int where, unsigned int len,
					  void *val)
{
	uint32_t v;
	int ret = irqkit_pci_read_config(pdev, (unsigned int)where, len, &v);

	if (len == 1)
		*(u8 *)val = (u8)v;
	else if (len == 2)
		*(u16 *)val = (u16)v;
	else
		*(u32 *)val = v;
	return ret;
}

#define pci_read_config_byte(pdev, where, val)	irqkit__pci_read_config((pdev), (where), 1, (u8 *)(val))
#define pci_read_config_word(pdev, where, val)	irqkit__pci_read_config((pdev), (where), 2, (u16 *)(val))
#define pci_read_config_dword(pdev, where, val)	irqkit__pci_read_config((pdev), (where), 4, (u32 *)(val))
#define pci_write_config_byte(pdev, where, val)	irqkit_pci_write_config((pdev), (where), 1, (u8)(val))
#define pci_write_config_word(pdev, where, val)	irqkit_pci_write_config((pdev), (where), 2, (u16)(val))
#define pci_write_config_dword(pdev, where, val) irqkit_pci_write_config((pdev), (where), 4, (u32)(val))

#endif
