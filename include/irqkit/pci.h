/* SPDX-License-Identifier: MIT */
/*
 * A PCI device's interrupts as Linux's PCI core hands them to a driver
 * (drivers/pci/msi), for a user-space driver of a device bound to vfio-pci:
 * the vectors of a multi-queue device asked for in one call, MSI-X before
 * MSI before INTx as the flags allow, spread over the CPUs with vectors
 * kept out of the spreading for admin work, then one line per vector to
 * request.
 *
 * Each vector is a line of its own, in an irq domain of the device's own
 * (named "PCI-MSIX-<address>" or "PCI-MSI-<address>", hwirq the vector's
 * index), whose source is the eventfd VFIO signals for it; spread vectors
 * are managed lines, bound to their CPUs and shut down with them.  INTx is
 * a level line from the moment the device is opened (pdev->irq), masked by
 * VFIO as it fires and unmasked after its handler; while MSI or MSI-X is
 * on it is off in VFIO, as Linux turns INTx off in the command register.
 *
 * A simulated device speaks VFIO's interface in the process, for tests of
 * a driver without the hardware: the same code allocates, binds and frees
 * its vectors, and the test fires them.
 *
 * Context: process context throughout, runtime started in a mode whose
 * CPUs wait on descriptors (threaded, or a loop CPU), as for any fd line.
 */
#ifndef IRQKIT_PCI_H
#define IRQKIT_PCI_H

#include <irqkit/affinity.h>
#include <irqkit/device.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Linux's PCI_IRQ_* flags, with their values. */
#define IRQKIT_PCI_IRQ_INTX		(1u << 0)	/* PCI_IRQ_LEGACY before 6.10 */
#define IRQKIT_PCI_IRQ_MSI		(1u << 1)
#define IRQKIT_PCI_IRQ_MSIX		(1u << 2)
#define IRQKIT_PCI_IRQ_AFFINITY		(1u << 3)	/* spread the vectors, managed */
#define IRQKIT_PCI_IRQ_ALL_TYPES	(IRQKIT_PCI_IRQ_INTX | IRQKIT_PCI_IRQ_MSI | IRQKIT_PCI_IRQ_MSIX)

struct irqkit__pci;

/*
 * struct irqkit_pci_dev - Linux's struct pci_dev, the fields a driver
 * reads.  @dev is named by the device's address ("0000:00:05.0") and takes
 * managed resources (devm_*); @irq is the INTx line, or vector 0 while MSI
 * is on, 0 when the device has neither.  The rest is the library's.
 */
struct irqkit_pci_dev {
	struct irqkit_device	dev;
	unsigned int		irq;
	uint16_t		vendor, device;
	bool			msi_enabled, msix_enabled;
	struct irqkit__pci	*priv;
};

/**
 * irqkit_pci_open - open the PCI device at @addr ("0000:00:05.0"), bound
 * to vfio-pci, through its IOMMU group: a type-1 container of its own, the
 * group added to it, the device's descriptor.
 * Return: 0 with *@out set; -ENODEV (no such device, or not bound to
 * vfio-pci: logged with the driver it is bound to), -EBUSY (the group is
 * not viable: another device of it is bound elsewhere), another -errno of
 * VFIO's; -EINVAL for a NULL argument or an address too long.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_pci_open(const char *addr, struct irqkit_pci_dev **out);

/**
 * irqkit_pci_open_fd - a device whose VFIO descriptor @device_fd the
 * caller opened (its container set up its own way); the descriptor stays
 * the caller's.  @addr names it.
 * Return: 0 with *@out set, -EINVAL, -ENOMEM, or VFIO's -errno.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_pci_open_fd(const char *addr, int device_fd,
						    struct irqkit_pci_dev **out);

/**
 * irqkit_pci_close - give back everything of @pdev: its vectors (freed as
 * irqkit_pci_free_irq_vectors() frees them), its INTx line, its
 * descriptors.  A device with a handler still requested on one of its
 * lines is not closed (logged).  Return: 0 or -EBUSY.
 */
IRQKIT_API int irqkit_pci_close(struct irqkit_pci_dev *pdev);

/**
 * irqkit_pci_alloc_irq_vectors_affinity - @min..@max vectors of @pdev
 * (Linux's pci_alloc_irq_vectors_affinity)
 * @flags: IRQKIT_PCI_IRQ_*: the kinds to try, MSI-X first, then MSI, then
 *	INTx (only with @min 1); with IRQKIT_PCI_IRQ_AFFINITY the vectors are
 *	spread as irqkit_irq_create_affinity_masks() spreads them (@affd, or
 *	none kept out when NULL); @affd without the flag is a warning and
 *	ignored, as in Linux
 *
 * VFIO says how many vectors of each kind the device has.  As Linux, each
 * kind is tried with as many as the device has up to @max, and no fewer
 * than @min; the error of the last kind tried is returned when none
 * succeeds.
 * Return: the number of vectors; -ENOSPC (fewer than @min), -EINVAL (the
 * device has none of the kind asked for, @min 0, vectors allocated
 * already), -ERANGE (@max below @min), or VFIO's -errno.
 */
IRQKIT_API int irqkit_pci_alloc_irq_vectors_affinity(struct irqkit_pci_dev *pdev, unsigned int min,
						     unsigned int max, unsigned int flags,
						     struct irqkit_irq_affinity *affd);

/** irqkit_pci_alloc_irq_vectors - the same with no @affd (Linux's pci_alloc_irq_vectors). */
IRQKIT_API int irqkit_pci_alloc_irq_vectors(struct irqkit_pci_dev *pdev, unsigned int min,
					    unsigned int max, unsigned int flags);

/**
 * irqkit_pci_free_irq_vectors - free the MSI or MSI-X vectors (Linux's
 * pci_free_irq_vectors): VFIO stops signalling them (SET_IRQS, count 0),
 * their lines and eventfds are gone, INTx is back.  With a handler still
 * requested on one, nothing is freed (logged: free_irq first); with none
 * allocated, nothing to do (logged).
 */
IRQKIT_API void irqkit_pci_free_irq_vectors(struct irqkit_pci_dev *pdev);

/**
 * irqkit_pci_irq_vector - the line of vector @nr (Linux's pci_irq_vector):
 * the MSI-X table index or the MSI vector; with neither on, 0 is INTx.
 * Return: the line, or -EINVAL past the vectors (logged).
 */
IRQKIT_API int irqkit_pci_irq_vector(struct irqkit_pci_dev *pdev, unsigned int nr);

/**
 * irqkit_pci_irq_get_affinity - the CPUs vector @nr was spread to (Linux's
 * pci_irq_get_affinity).  Return: its mask; every possible CPU for INTx;
 * NULL for vectors allocated without IRQKIT_PCI_IRQ_AFFINITY, or past the
 * vectors (a warning, as Linux's).
 */
IRQKIT_API const struct irqkit_cpus *irqkit_pci_irq_get_affinity(struct irqkit_pci_dev *pdev,
								 unsigned int nr);

/**
 * irqkit_pci_msix_vec_count, irqkit_pci_msi_vec_count - how many vectors
 * of the kind the device has (Linux's pci_msix_vec_count and
 * pci_msi_vec_count).  Return: the count, or -EINVAL without the capability.
 */
IRQKIT_API int irqkit_pci_msix_vec_count(struct irqkit_pci_dev *pdev);
IRQKIT_API int irqkit_pci_msi_vec_count(struct irqkit_pci_dev *pdev);

/* Linux's struct msi_map: an MSI-X table entry and its line; a failure has index -errno. */
struct irqkit_msi_map {
	int	index;
	int	virq;
};
#define IRQKIT_MSI_ANY_INDEX	(~0u)

/**
 * irqkit_pci_msix_can_alloc_dyn - can MSI-X vectors be added to a running
 * set (Linux's pci_msix_can_alloc_dyn)?  Over VFIO always, for a device
 * with MSI-X: where VFIO cannot grow a running set (NORESIZE, vfio-pci
 * before 6.5) it is turned off and on again, as QEMU does.
 */
IRQKIT_API bool irqkit_pci_msix_can_alloc_dyn(struct irqkit_pci_dev *pdev);

/**
 * irqkit_pci_msix_alloc_irq_at - one more MSI-X vector, at table entry
 * @index or (IRQKIT_MSI_ANY_INDEX) the first free one, with the affinity
 * @affdesc (may be NULL), after pci_alloc_irq_vectors enabled MSI-X
 * (Linux's pci_msix_alloc_irq_at, 6.2).  Where VFIO had to turn MSI-X off
 * and on to add it, each vector already on is signalled once after, so
 * that what it sent in between is not lost (its handler may find nothing).
 * Return: the map; on failure index -ENOTSUPP (MSI-X not on), -EBUSY (the
 * entry is taken, or none is free), -ERANGE (past the table), or VFIO's
 * -errno, and virq 0.
 */
IRQKIT_API struct irqkit_msi_map
irqkit_pci_msix_alloc_irq_at(struct irqkit_pci_dev *pdev, unsigned int index,
			     const struct irqkit_irq_affinity_desc *affdesc);

/**
 * irqkit_pci_msix_free_irq - give back one vector of
 * irqkit_pci_msix_alloc_irq_at() (or of the first set); MSI-X stays on
 * (Linux's pci_msix_free_irq).  A bad map is a warning; one with a handler
 * requested is refused (logged).
 */
IRQKIT_API void irqkit_pci_msix_free_irq(struct irqkit_pci_dev *pdev, struct irqkit_msi_map map);

/* irqkit_pci_event_irq @which: VFIO's device events, by their VFIO index */
#define IRQKIT_PCI_EVENT_ERR	3	/* VFIO_PCI_ERR_IRQ_INDEX: an AER error was reported */
#define IRQKIT_PCI_EVENT_REQ	4	/* VFIO_PCI_REQ_IRQ_INDEX: the host asks for the device back */

/**
 * irqkit_pci_event_irq - a line for one of VFIO's device events: the
 * request to give the device back (the host unbinds it from vfio-pci, or
 * it is being unplugged; vfio-pci repeats it until the device is closed)
 * or an error the device reported.  The first call allocates an edge line
 * and has VFIO signal its eventfd; request a handler on it as on any line.
 * irqkit_pci_close() frees it (free_irq first).
 * Return: the line; -EINVAL (bad @which); -ENODEV (the device does not
 * offer the event: no AER capability for errors); VFIO's -errno.
 */
IRQKIT_API int irqkit_pci_event_irq(struct irqkit_pci_dev *pdev, unsigned int which);

/**
 * irqkit_pci_read_config, irqkit_pci_write_config - @len (1, 2 or 4) bytes
 * of configuration space at @where, little-endian as the bus (Linux's
 * pci_read_config_byte/word/dword and the writes).
 * Return: 0, -EINVAL (bad @len or @where), -EIO.
 */
IRQKIT_API int irqkit_pci_read_config(struct irqkit_pci_dev *pdev, unsigned int where,
				      unsigned int len, uint32_t *val);
IRQKIT_API int irqkit_pci_write_config(struct irqkit_pci_dev *pdev, unsigned int where,
				       unsigned int len, uint32_t val);

/**
 * irqkit_pci_iomap - map BAR @bar (0-5) of @pdev, its first @maxlen bytes or
 * (0) all of it (Linux's pci_iomap); VFIO's region, mmap'ed.  The mapping
 * lasts until irqkit_pci_iounmap() or the close.  Return: the address, or
 * NULL (no such BAR, one VFIO does not let map, logged).
 */
IRQKIT_API void *irqkit_pci_iomap(struct irqkit_pci_dev *pdev, int bar, size_t maxlen);
/** irqkit_pci_iounmap - end a mapping of irqkit_pci_iomap() (Linux's pci_iounmap). */
IRQKIT_API void irqkit_pci_iounmap(struct irqkit_pci_dev *pdev, void *addr);

/** irqkit_pci_set_master - let the device master the bus (Linux's pci_set_master): MSI needs it. */
IRQKIT_API void irqkit_pci_set_master(struct irqkit_pci_dev *pdev);

/* ---- a simulated device, for tests ------------------------------------------------- */

/*
 * What the simulated device has: vectors of each kind (0: no capability;
 * MSI a power of two up to 32, MSI-X up to 2048), INTx or not, AER or not,
 * and its IDs.
 * Its BAR 0 is 4 KiB of memory the test and the driver share.
 */
struct irqkit_pci_sim_config {
	unsigned int	msix;
	unsigned int	msi;
	bool		intx;
	bool		aer;		/* the error event (IRQKIT_PCI_EVENT_ERR); REQ is always there */
	bool		grow;		/* MSI-X grows while on (NORESIZE clear, vfio-pci 6.5 on) */
	uint16_t	vendor, device;
};

/**
 * irqkit_pci_sim_create - a device at @addr that answers VFIO's calls as
 * vfio-pci does (the counts from @cfg, SET_IRQS checked as vfio-pci checks
 * it, INTx masked as it fires and unmasked by its eventfd), opened as
 * irqkit_pci_open() opens a real one; irqkit_pci_close() ends it.
 * Return: 0 with *@out set, -EINVAL (bad counts), -ENOMEM.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_pci_sim_create(const char *addr,
						       const struct irqkit_pci_sim_config *cfg,
						       struct irqkit_pci_dev **out);

/**
 * irqkit_pci_sim_fire - the device sends the message of vector @nr of the
 * kind that is on (MSI-X or MSI).  Return: 0; -ENOENT when VFIO has no
 * eventfd for it (the message goes nowhere, as on the hardware); -EINVAL
 * for a device that is not simulated, or with neither kind on.
 */
IRQKIT_API int irqkit_pci_sim_fire(struct irqkit_pci_dev *pdev, unsigned int nr);

/**
 * irqkit_pci_sim_set_intx - the device asserts (@level true) or deasserts
 * its INTx pin.  Asserted and not masked, it signals and VFIO masks it; an
 * unmask with the pin still asserted signals again.  Return: 0, -EINVAL.
 */
IRQKIT_API int irqkit_pci_sim_set_intx(struct irqkit_pci_dev *pdev, bool level);

/**
 * irqkit_pci_sim_event - the simulated host signals device event @which
 * (IRQKIT_PCI_EVENT_REQ or _ERR).  Return: 0; -ENOENT when no eventfd is
 * set for it; -EINVAL.
 */
IRQKIT_API int irqkit_pci_sim_event(struct irqkit_pci_dev *pdev, unsigned int which);

/**
 * irqkit_pci_sim_triggers - how many eventfds VFIO holds for the device's
 * interrupt kind @flag (IRQKIT_PCI_IRQ_INTX, _MSI or _MSIX).  Return: the
 * count, or -EINVAL.
 */
IRQKIT_API int irqkit_pci_sim_triggers(struct irqkit_pci_dev *pdev, unsigned int flag);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_PCI_H */
