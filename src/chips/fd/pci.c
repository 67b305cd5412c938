// SPDX-License-Identifier: MIT
/*
 * A PCI device's interrupt vectors over VFIO, allocated as Linux's PCI core
 * allocates them: MSI-X, then MSI, then INTx as the flags allow, each kind
 * with as many vectors as the device has up to the maximum and no fewer
 * than the minimum, spread over the CPUs when asked.  Each MSI or MSI-X
 * vector is an eventfd VFIO signals, bound to a line of the device's own
 * irq domain (hwirq = vector); INTx is a level line whose end of interrupt
 * writes VFIO's unmask eventfd.
 *
 * VFIO takes one kind at a time: INTx is turned off in VFIO while MSI or
 * MSI-X is on, and back on when they are freed, as Linux clears and sets
 * the INTx-disable bit of the command register around them.
 */
#include "fd.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/vfio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define NO_INDEX	(~0u)

/* Linux's WARN_ON and WARN_ON_ONCE, over the public report. */
#define warn_on(cond) ({							\
	bool c_ = (cond);							\
	if (c_)									\
		irqkit_warn_at(__FILE__, __LINE__, NULL);			\
	c_;									\
})
#define warn_on_once(cond) ({							\
	static bool warned_;							\
	bool c_ = (cond);							\
	if (c_ && !warned_) {							\
		warned_ = true;							\
		irqkit_warn_at(__FILE__, __LINE__, NULL);			\
	}									\
	c_;									\
})

struct irqkit__pci {
	const struct irqkit__pci_backend *be;
	void		*data;
	unsigned int	count[VFIO_PCI_NUM_IRQS];	/* vectors per index, as VFIO says */
	uint32_t	flags[VFIO_PCI_NUM_IRQS];	/* and VFIO_IRQ_INFO_* (NORESIZE) */
	/* INTx: a level line from the open on (0: no pin), signalled by VFIO while intx_on */
	unsigned int	intx_line;
	int		intx_fd, intx_unmask;
	bool		intx_on;
	/*
	 * MSI or MSI-X, while index is one of them: @size entries (MSI-X:
	 * the device's table; MSI: the vectors), of which VFIO signals the
	 * first @nvec; an entry without a line (virq 0) is a hole, which
	 * irqkit_pci_msix_alloc_irq_at() may fill.
	 */
	unsigned int	index;
	unsigned int	size, nvec;
	unsigned int	*virq;
	int		*fds;
	struct irqkit_irq_affinity_desc *aff;	/* each entry's mask, where aff_set */
	uint8_t		*aff_set;
	struct irqkit_irq_domain *domain;
	struct irqkit_fwnode fwnode;
	char		domain_name[48];
	struct irqkit_chip chip;	/* the fd chip, named as the domain: /proc/interrupts */
	struct {
		void	*addr;
		size_t	len;
	} maps[6];			/* irqkit_pci_iomap's, one per BAR */
	/* the device events (ERR, REQ): a line each once asked for, 0 before */
	unsigned int	ev_line[2];
	int		ev_fd[2];
};

static const char *pci_name(const struct irqkit_pci_dev *pdev)
{
	return pdev->dev.name;
}

static const char *index_name(unsigned int index)
{
	return index == VFIO_PCI_MSIX_IRQ_INDEX ? "MSI-X" : index == VFIO_PCI_MSI_IRQ_INDEX ? "MSI" :
										  "INTx";
}

/* ---- VFIO's calls ------------------------------------------------------------------------ */

/* SET_IRQS of @index: @count eventfds from vector @start, or (@fds NULL, @count 0) off. */
static int set_irqs_at(struct irqkit__pci *p, unsigned int index, uint32_t action,
		       unsigned int start, unsigned int count, const int *fds)
{
	return irqkit__vfio_irq_set(p->be->ioctl, p->data, index, action, start, count, fds);
}

static int set_irqs(struct irqkit__pci *p, unsigned int index, uint32_t action, unsigned int count,
		    const int *fds)
{
	return set_irqs_at(p, index, action, 0, count, fds);
}

/* The device's descriptor and where its configuration space is in it. */
struct vfio_dev {
	int	fd;		/* first: irqkit__vfio_fd_ioctl reads it */
	int	group, container;	/* -1 when the caller opened the device */
	off_t	cfg;
};

static int vfio_config(void *data, void *buf, unsigned int len, unsigned int where, bool write)
{
	struct vfio_dev *v = data;
	ssize_t n = write ? pwrite(v->fd, buf, len, v->cfg + where) :
			    pread(v->fd, buf, len, v->cfg + where);

	return n == (ssize_t)len ? 0 : -IRQKIT_EIO;
}

static void vfio_release(void *data)
{
	struct vfio_dev *v = data;

	if (v->group >= 0) {
		close(v->fd);
		close(v->group);
		close(v->container);
	}
	free(v);
}

static struct irqkit__pci_mapping vfio_map(void *data, unsigned int bar, size_t maxlen)
{
	struct vfio_dev *v = data;
	struct vfio_region_info r = { .argsz = sizeof(r), .index = bar };
	struct irqkit__pci_mapping m = { NULL, 0 };
	void *addr;

	if (ioctl(v->fd, VFIO_DEVICE_GET_REGION_INFO, &r) || !r.size ||
	    !(r.flags & VFIO_REGION_INFO_FLAG_MMAP))
		return m;
	m.len = !maxlen || maxlen > r.size ? (size_t)r.size : maxlen;
	addr = mmap(NULL, m.len, PROT_READ | PROT_WRITE, MAP_SHARED, v->fd, (off_t)r.offset);
	m.addr = addr == MAP_FAILED ? NULL : addr;
	return m;
}

static void vfio_unmap(void *data, void *addr, size_t len)
{
	(void)data;
	munmap(addr, len);
}

static const struct irqkit__pci_backend vfio_backend = {
	.ioctl = irqkit__vfio_fd_ioctl, .config = vfio_config, .map = vfio_map, .unmap = vfio_unmap,
	.release = vfio_release,
};

/* ---- lines of their own: INTx and the device events ------------------------------------------ */

/*
 * A line of its own bound, as a VFIO source, to an eventfd made here
 * (*@fd), @eoi_fd the unmask eventfd its end of interrupt writes, or -1.
 * Return: the line, or -errno with nothing left.
 */
static int eventfd_line(int *fd, int eoi_fd)
{
	int irq = irqkit_irq_alloc_descs(-1, 1, 1, NULL), ret;

	if (irq < 0)
		return irq;
	*fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ret = *fd < 0 ? -IRQKIT_EMFILE :
			irqkit__fd_bind_kind((unsigned int)irq, *fd, &irqkit__fd_kind_vfio, eoi_fd);
	if (!ret)
		return irq;
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	irqkit_irq_free_descs((unsigned int)irq, 1);
	return ret;
}

/* Undo eventfd_line(). */
static void eventfd_line_free(unsigned int irq, int fd)
{
	(void)irqkit_fd_unbind(irq);
	irqkit_irq_free_descs(irq, 1);
	close(fd);
}

/* ---- INTx ----------------------------------------------------------------------------------- */

static void intx_off(struct irqkit_pci_dev *pdev)
{
	struct irqkit__pci *p = pdev->priv;
	int ret;

	if (!p->intx_on)
		return;
	ret = set_irqs(p, VFIO_PCI_INTX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_TRIGGER, 0, NULL);
	if (ret)
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: turning INTx off in VFIO failed (%d)",
			      pci_name(pdev), ret);
	p->intx_on = false;
}

static int intx_on(struct irqkit_pci_dev *pdev)
{
	struct irqkit__pci *p = pdev->priv;
	int ret;

	if (p->intx_on || p->intx_fd < 0)
		return 0;
	ret = set_irqs(p, VFIO_PCI_INTX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_TRIGGER, 1, &p->intx_fd);
	if (!ret)
		ret = set_irqs(p, VFIO_PCI_INTX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_UNMASK, 1,
			       &p->intx_unmask);
	if (ret) {
		(void)set_irqs(p, VFIO_PCI_INTX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_TRIGGER, 0, NULL);
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: VFIO refused INTx's eventfds (%d)",
			      pci_name(pdev), ret);
		return ret;
	}
	p->intx_on = true;
	return 0;
}

/* Give the device its INTx line, if it has the pin; pdev->irq stays 0 without. */
static int intx_setup(struct irqkit_pci_dev *pdev)
{
	struct irqkit__pci *p = pdev->priv;
	int irq, ret;

	if (!p->count[VFIO_PCI_INTX_IRQ_INDEX])
		return 0;
	p->intx_unmask = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (p->intx_unmask < 0)
		return -IRQKIT_EMFILE;
	irq = eventfd_line(&p->intx_fd, p->intx_unmask);
	ret = irq < 0 ? irq : intx_on(pdev);
	if (ret) {
		if (irq >= 0)
			eventfd_line_free((unsigned int)irq, p->intx_fd);
		close(p->intx_unmask);
		p->intx_fd = p->intx_unmask = -1;
		return ret;
	}
	p->intx_line = pdev->irq = (unsigned int)irq;
	return 0;
}

static void intx_teardown(struct irqkit_pci_dev *pdev)
{
	struct irqkit__pci *p = pdev->priv;

	if (p->intx_fd < 0)
		return;
	intx_off(pdev);
	eventfd_line_free(p->intx_line, p->intx_fd);
	close(p->intx_unmask);
	p->intx_fd = p->intx_unmask = -1;
	p->intx_line = pdev->irq = 0;
}

/* ---- the device ----------------------------------------------------------------------------- */

int irqkit__pci_new(const char *addr, const struct irqkit__pci_backend *be, void *data,
		    struct irqkit_pci_dev **out)
{
	struct irqkit_pci_dev *pdev = calloc(1, sizeof(*pdev));
	struct irqkit__pci *p = calloc(1, sizeof(*p));
	uint32_t ids;
	int ret;

	if (!pdev || !p) {
		free(pdev);
		free(p);
		be->release(data);
		return -IRQKIT_ENOMEM;
	}
	irqkit_device_initialize(&pdev->dev, "%s", addr);
	pdev->priv = p;
	p->be = be;
	p->data = data;
	p->index = NO_INDEX;
	p->intx_fd = p->intx_unmask = -1;
	for (unsigned int i = 0; i < VFIO_PCI_NUM_IRQS; i++) {
		struct vfio_irq_info info = { .argsz = sizeof(info), .index = i };

		ret = be->ioctl(data, VFIO_DEVICE_GET_IRQ_INFO, &info);
		if (ret && i >= VFIO_PCI_ERR_IRQ_INDEX) {
			/* vfio-pci answers -EINVAL for the error event of a device without PCIe */
			info.count = 0;
			ret = 0;
		}
		if (ret) {
			irqkit_printk(IRQKIT_LOG_ERR, "pci %s: VFIO_DEVICE_GET_IRQ_INFO(%s): %d", addr,
				      index_name(i), ret);
			goto fail;
		}
		p->count[i] = info.count;
		p->flags[i] = info.flags;
	}
	if (!irqkit_pci_read_config(pdev, 0, 4, &ids)) {
		pdev->vendor = (uint16_t)ids;
		pdev->device = (uint16_t)(ids >> 16);
	}
	ret = intx_setup(pdev);
	if (ret)
		goto fail;
	*out = pdev;
	return 0;
fail:
	be->release(data);
	free(p);
	free(pdev);
	return ret;
}

void *irqkit__pci_backend_data(struct irqkit_pci_dev *pdev, const struct irqkit__pci_backend *be)
{
	return pdev && pdev->priv && pdev->priv->be == be ? pdev->priv->data : NULL;
}

static bool valid_addr(const char *addr)
{
	return addr && *addr && strlen(addr) < sizeof(((struct irqkit_device *)0)->name) &&
	       !strchr(addr, '/');
}

/* The group of the device at @addr, checked to be bound to vfio-pci; -errno when not. */
static int device_group(const char *addr, char *group, size_t len)
{
	char path[128], link[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", addr);
	if (access(path, F_OK)) {
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: no such PCI device", addr);
		return -IRQKIT_ENODEV;
	}
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", addr);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	if (n <= 0 || strcmp(basename(link), "vfio-pci")) {
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: bound to %s, not vfio-pci", addr,
			      n > 0 ? basename(link) : "no driver");
		return -IRQKIT_ENODEV;
	}
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/iommu_group", addr);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0) {
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: no IOMMU group", addr);
		return -IRQKIT_ENODEV;
	}
	link[n] = '\0';
	snprintf(group, len, "/dev/vfio/%s", basename(link));
	return 0;
}

/* The configuration region's offset in the device's descriptor. */
static int config_region(struct vfio_dev *v)
{
	struct vfio_region_info conf = { .argsz = sizeof(conf),
					 .index = VFIO_PCI_CONFIG_REGION_INDEX };

	if (ioctl(v->fd, VFIO_DEVICE_GET_REGION_INFO, &conf))
		return -errno;
	v->cfg = (off_t)conf.offset;
	return 0;
}

int irqkit_pci_open_fd(const char *addr, int device_fd, struct irqkit_pci_dev **out)
{
	struct vfio_dev *v;
	int ret;

	if (!valid_addr(addr) || device_fd < 0 || !out)
		return -IRQKIT_EINVAL;
	v = calloc(1, sizeof(*v));
	if (!v)
		return -IRQKIT_ENOMEM;
	*v = (struct vfio_dev){ .fd = device_fd, .group = -1, .container = -1 };
	ret = config_region(v);
	if (ret) {
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: fd %d is not a VFIO PCI device (%d)", addr,
			      device_fd, ret);
		free(v);
		return ret;
	}
	return irqkit__pci_new(addr, &vfio_backend, v, out);
}

int irqkit_pci_open(const char *addr, struct irqkit_pci_dev **out)
{
	struct vfio_group_status gs = { .argsz = sizeof(gs) };
	char group[300];
	struct vfio_dev *v;
	int ret;

	if (!valid_addr(addr) || !out)
		return -IRQKIT_EINVAL;
	ret = device_group(addr, group, sizeof(group));
	if (ret)
		return ret;
	v = calloc(1, sizeof(*v));
	if (!v)
		return -IRQKIT_ENOMEM;
	v->container = open("/dev/vfio/vfio", O_RDWR | O_CLOEXEC);
	v->group = open(group, O_RDWR | O_CLOEXEC);
	v->fd = -1;
	if (v->container < 0 || v->group < 0 || ioctl(v->group, VFIO_GROUP_GET_STATUS, &gs)) {
		ret = -errno;
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: cannot open %s or the VFIO container (%d)",
			      addr, group, ret);
	} else if (!(gs.flags & VFIO_GROUP_FLAGS_VIABLE)) {
		ret = -IRQKIT_EBUSY;
		irqkit_printk(IRQKIT_LOG_ERR,
			      "pci %s: group %s is not viable: bind all its devices to vfio-pci",
			      addr, group);
	} else if (ioctl(v->group, VFIO_GROUP_SET_CONTAINER, &v->container) ||
		   ioctl(v->container, VFIO_SET_IOMMU, VFIO_TYPE1_IOMMU) ||
		   (v->fd = ioctl(v->group, VFIO_GROUP_GET_DEVICE_FD, addr)) < 0) {
		ret = -errno;
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: VFIO set-up of %s failed (%d)", addr, group,
			      ret);
	} else {
		ret = config_region(v);
	}
	if (ret) {
		if (v->fd >= 0)
			close(v->fd);
		if (v->group >= 0)
			close(v->group);
		if (v->container >= 0)
			close(v->container);
		free(v);
		return ret;
	}
	return irqkit__pci_new(addr, &vfio_backend, v, out);
}

/* ---- configuration space -------------------------------------------------------------------- */

/* A read or write of 1, 2 or 4 aligned bytes within the 4 KiB of configuration space? */
static bool config_access_ok(const struct irqkit_pci_dev *pdev, unsigned int where,
			     unsigned int len)
{
	return pdev && (len == 1 || len == 2 || len == 4) && where <= 4096 - len && !(where % len);
}

int irqkit_pci_read_config(struct irqkit_pci_dev *pdev, unsigned int where, unsigned int len,
			   uint32_t *val)
{
	uint8_t b[4] = { 0 };
	int ret;

	if (!val || !config_access_ok(pdev, where, len))
		return -IRQKIT_EINVAL;
	ret = pdev->priv->be->config(pdev->priv->data, b, len, where, false);
	*val = ret ? ~0u : (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
				   (uint32_t)b[3] << 24;
	return ret;
}

int irqkit_pci_write_config(struct irqkit_pci_dev *pdev, unsigned int where, unsigned int len,
			    uint32_t val)
{
	uint8_t b[4] = { (uint8_t)val, (uint8_t)(val >> 8), (uint8_t)(val >> 16),
			 (uint8_t)(val >> 24) };

	if (!config_access_ok(pdev, where, len))
		return -IRQKIT_EINVAL;
	return pdev->priv->be->config(pdev->priv->data, b, len, where, true);
}

void irqkit_pci_set_master(struct irqkit_pci_dev *pdev)
{
	uint32_t cmd;

	if (irqkit_pci_read_config(pdev, 4, 2, &cmd) ||
	    irqkit_pci_write_config(pdev, 4, 2, cmd | 0x4))	/* PCI_COMMAND_MASTER */
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: cannot set bus mastering",
			      pdev ? pci_name(pdev) : "(null)");
}

/* ---- the device events ------------------------------------------------------------------- */

int irqkit_pci_event_irq(struct irqkit_pci_dev *pdev, unsigned int which)
{
	struct irqkit__pci *p = pdev ? pdev->priv : NULL;
	unsigned int e = which - IRQKIT_PCI_EVENT_ERR;
	int irq, fd, ret;

	if (!p || (which != IRQKIT_PCI_EVENT_ERR && which != IRQKIT_PCI_EVENT_REQ))
		return -IRQKIT_EINVAL;
	if (p->ev_line[e])
		return (int)p->ev_line[e];
	if (!p->count[which]) {
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: VFIO offers no %s event", pci_name(pdev),
			      which == IRQKIT_PCI_EVENT_ERR ? "error (no AER)" : "request");
		return -IRQKIT_ENODEV;
	}
	irq = eventfd_line(&fd, -1);
	if (irq < 0)
		return irq;
	ret = set_irqs(p, which, VFIO_IRQ_SET_ACTION_TRIGGER, 1, &fd);
	if (ret) {
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: VFIO refused the %s event's eventfd (%d)",
			      pci_name(pdev), which == IRQKIT_PCI_EVENT_ERR ? "error" : "request", ret);
		eventfd_line_free((unsigned int)irq, fd);
		return ret;
	}
	p->ev_line[e] = (unsigned int)irq;
	p->ev_fd[e] = fd;
	return irq;
}

static void events_teardown(struct irqkit__pci *p)
{
	for (unsigned int e = 0; e < 2; e++) {
		if (!p->ev_line[e])
			continue;
		(void)set_irqs(p, IRQKIT_PCI_EVENT_ERR + e, VFIO_IRQ_SET_ACTION_TRIGGER, 0, NULL);
		eventfd_line_free(p->ev_line[e], p->ev_fd[e]);
		p->ev_line[e] = 0;
	}
}

/* ---- BARs ------------------------------------------------------------------------------------ */

void *irqkit_pci_iomap(struct irqkit_pci_dev *pdev, int bar, size_t maxlen)
{
	struct irqkit__pci *p = pdev ? pdev->priv : NULL;
	struct irqkit__pci_mapping m;

	if (!p || bar < 0 || bar > 5)
		return NULL;
	if (p->maps[bar].addr) {
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: BAR %d is mapped already", pci_name(pdev), bar);
		return NULL;
	}
	m = p->be->map(p->data, (unsigned int)bar, maxlen);
	if (!m.addr) {
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: BAR %d cannot be mapped", pci_name(pdev), bar);
		return NULL;
	}
	p->maps[bar].addr = m.addr;
	p->maps[bar].len = m.len;
	return m.addr;
}

void irqkit_pci_iounmap(struct irqkit_pci_dev *pdev, void *addr)
{
	struct irqkit__pci *p = pdev ? pdev->priv : NULL;

	for (unsigned int i = 0; p && addr && i < 6; i++)
		if (p->maps[i].addr == addr) {
			p->be->unmap(p->data, addr, p->maps[i].len);
			p->maps[i].addr = NULL;
			return;
		}
	irqkit_printk(IRQKIT_LOG_ERR, "pci %s: pci_iounmap of %p, not a mapping of it",
		      pdev ? pci_name(pdev) : "(null)", addr);
}

/* ---- MSI and MSI-X vectors ------------------------------------------------------------------- */

/*
 * A vector's line: its eventfd bound as a VFIO source, and, as Linux's
 * per-device MSI domains show it, the chip named by the domain
 * ("PCI-MSIX-0000:00:05.0") and the flow by "edge".
 */
static int vec_map(struct irqkit_irq_domain *d, unsigned int virq, irqkit_hwirq_t hw)
{
	struct irqkit__pci *p = d->host_data;
	int ret = irqkit__fd_bind_kind(virq, p->fds[hw], &irqkit__fd_kind_vfio, -1);

	if (!ret)
		ret = irqkit_irq_set_chip_and_handler_name(virq, &p->chip, irqkit_handle_edge_irq,
							   "edge");
	return ret;
}

static void vec_unmap(struct irqkit_irq_domain *d, unsigned int virq)
{
	struct fd_line *l;

	(void)d;
	irqkit__fd_bind_lock();
	l = irqkit__fd_bound_line(virq);
	if (l)
		irqkit__fd_unbind_locked(l);
	irqkit__fd_bind_unlock();
}

static const struct irqkit_irq_domain_ops vec_domain_ops = { .map = vec_map, .unmap = vec_unmap };

/* Entry @i's eventfd and its line in the device's domain, with @aff (NULL: none).  Return: 0 or -errno. */
static int vector_add(struct irqkit__pci *p, unsigned int i,
		      const struct irqkit_irq_affinity_desc *aff)
{
	p->fds[i] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (p->fds[i] < 0)
		return -IRQKIT_EMFILE;
	if (aff) {
		p->aff[i] = *aff;
		p->aff_set[i] = 1;
	}
	p->virq[i] = irqkit_irq_create_mapping_affinity(p->domain, i, aff);
	return p->virq[i] ? 0 : -IRQKIT_ENOSPC;
}

/* Undo vector_add() for entry @i, as far as it got. */
static void vector_drop(struct irqkit__pci *p, unsigned int i)
{
	if (p->virq[i])
		irqkit_irq_dispose_mapping(p->virq[i]);
	if (p->fds[i] >= 0)
		close(p->fds[i]);
	p->fds[i] = -1;
	p->virq[i] = 0;
	p->aff_set[i] = 0;
}

/* Undo what vectors_setup() did up to where it got: lines, eventfds, domain, masks. */
static void vectors_release(struct irqkit__pci *p)
{
	for (unsigned int i = 0; p->virq && p->fds && p->aff_set && i < p->size; i++)
		vector_drop(p, i);
	if (p->domain)
		irqkit_irq_domain_remove(p->domain);
	free(p->aff);
	free(p->aff_set);
	free(p->virq);
	free(p->fds);
	p->domain = NULL;
	p->aff = NULL;
	p->aff_set = NULL;
	p->virq = NULL;
	p->fds = NULL;
	p->size = p->nvec = 0;
	p->index = NO_INDEX;
}

/* @nvec vectors of @index, spread as @affd says (NULL: not).  Return: 0 or -errno. */
static int vectors_setup(struct irqkit_pci_dev *pdev, unsigned int index, unsigned int nvec,
			 struct irqkit_irq_affinity *affd)
{
	struct irqkit__pci *p = pdev->priv;
	struct irqkit_irq_affinity_desc *masks;
	int ret = 0;

	p->size = index == VFIO_PCI_MSIX_IRQ_INDEX ? p->count[index] : nvec;
	p->nvec = nvec;
	p->virq = calloc(p->size, sizeof(*p->virq));
	p->fds = malloc(p->size * sizeof(*p->fds));
	p->aff = calloc(p->size, sizeof(*p->aff));
	p->aff_set = calloc(p->size, sizeof(*p->aff_set));
	for (unsigned int i = 0; p->fds && i < p->size; i++)
		p->fds[i] = -1;		/* before any failure: the release reads them */
	if (!p->virq || !p->fds || !p->aff || !p->aff_set) {
		ret = -IRQKIT_ENOMEM;
		goto fail;
	}
	masks = affd ? irqkit_irq_create_affinity_masks(nvec, affd) : NULL;
	snprintf(p->domain_name, sizeof(p->domain_name), "PCI-%s-%s",
		 index == VFIO_PCI_MSIX_IRQ_INDEX ? "MSIX" : "MSI", pci_name(pdev));
	p->fwnode.name = p->domain_name;
	p->chip = irqkit_fd_chip;
	p->chip.name = p->domain_name;
	p->domain = irqkit_irq_domain_create_linear(&p->fwnode, p->size, &vec_domain_ops, p);
	ret = p->domain ? 0 : -IRQKIT_ENOMEM;
	for (unsigned int i = 0; !ret && i < nvec; i++)
		ret = vector_add(p, i, masks ? &masks[i] : NULL);
	irqkit_kfree(masks);
	if (ret)
		goto fail;
	intx_off(pdev);
	ret = set_irqs(p, index, VFIO_IRQ_SET_ACTION_TRIGGER, nvec, p->fds);
	if (ret) {
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: VFIO refused %u %s vectors (%d)",
			      pci_name(pdev), nvec, index_name(index), ret);
		(void)intx_on(pdev);
		goto fail;
	}
	p->index = index;
	if (index == VFIO_PCI_MSIX_IRQ_INDEX) {
		pdev->msix_enabled = true;
	} else {
		pdev->msi_enabled = true;
		pdev->irq = p->virq[0];
	}
	return 0;
fail:
	vectors_release(p);
	return ret;
}

/*
 * Linux's __pci_enable_msix_range and __pci_enable_msi_range: @min..@max
 * vectors of @index, as many as the device has and the spreading wants.
 */
static int enable_range(struct irqkit_pci_dev *pdev, unsigned int index, unsigned int min,
			unsigned int max, struct irqkit_irq_affinity *affd)
{
	struct irqkit__pci *p = pdev->priv;
	unsigned int hw = p->count[index];
	unsigned int nvec = max;
	bool msix = index == VFIO_PCI_MSIX_IRQ_INDEX;

	/* Linux's order of checks: MSI-X's range first, MSI's after the other kind */
	if (!msix && min < 1)
		return -IRQKIT_EINVAL;
	if (msix && max < min)
		return -IRQKIT_ERANGE;
	if (msix ? pdev->msi_enabled : pdev->msix_enabled) {
		irqkit_printk(IRQKIT_LOG_INFO, "pci %s: can't enable %s (%s already enabled)",
			      pci_name(pdev), msix ? "MSI-X" : "MSI", msix ? "MSI" : "MSI-X");
		return -IRQKIT_EINVAL;
	}
	if (max < min)
		return -IRQKIT_ERANGE;
	if (warn_on_once(msix ? pdev->msix_enabled : pdev->msi_enabled))
		return -IRQKIT_EINVAL;
	if (!msix) {
		if (!hw)
			return -IRQKIT_EINVAL;
		if (hw < min)
			return -IRQKIT_ENOSPC;
		if (nvec > hw)
			nvec = hw;
	}
	for (;;) {
		if (affd) {
			nvec = irqkit_irq_calc_affinity_vectors(min, nvec, affd);
			if (nvec < min)
				return -IRQKIT_ENOSPC;
		}
		if (msix) {
			if (nvec < 1 || !hw)
				return -IRQKIT_EINVAL;
			if (nvec > hw) {
				if (hw < min)
					return -IRQKIT_ENOSPC;
				nvec = hw;
				continue;
			}
		}
		return vectors_setup(pdev, index, nvec, affd) ?: (int)nvec;
	}
}

int irqkit_pci_alloc_irq_vectors_affinity(struct irqkit_pci_dev *pdev, unsigned int min,
					  unsigned int max, unsigned int flags,
					  struct irqkit_irq_affinity *affd)
{
	struct irqkit_irq_affinity none = { 0 };
	int n = -IRQKIT_ENOSPC;

	irqkit_might_sleep(__FILE__, __LINE__);
	if (!pdev || !pdev->priv)
		return -IRQKIT_EINVAL;
	if (flags & IRQKIT_PCI_IRQ_AFFINITY) {
		if (!affd)
			affd = &none;
	} else if (warn_on(affd)) {
		affd = NULL;
	}
	if (flags & IRQKIT_PCI_IRQ_MSIX) {
		n = enable_range(pdev, VFIO_PCI_MSIX_IRQ_INDEX, min, max, affd);
		if (n > 0)
			return n;
	}
	if (flags & IRQKIT_PCI_IRQ_MSI) {
		n = enable_range(pdev, VFIO_PCI_MSI_IRQ_INDEX, min, max, affd);
		if (n > 0)
			return n;
	}
	if ((flags & IRQKIT_PCI_IRQ_INTX) && min == 1 && pdev->irq) {
		/* the spreading runs for one vector, so calc_sets sees the single-vector case */
		if (affd)
			irqkit_kfree(irqkit_irq_create_affinity_masks(1, affd));
		return 1;
	}
	return n;
}

int irqkit_pci_alloc_irq_vectors(struct irqkit_pci_dev *pdev, unsigned int min, unsigned int max,
				 unsigned int flags)
{
	return irqkit_pci_alloc_irq_vectors_affinity(pdev, min, max, flags, NULL);
}

/* Does line @irq (0: none) have a handler requested? */
static bool line_busy(unsigned int irq)
{
	return irq && irqkit_irq_has_action(irq);
}

/* A vector of @p with a handler requested, or -1. */
static int busy_vector(const struct irqkit__pci *p)
{
	for (unsigned int i = 0; i < p->size; i++)
		if (line_busy(p->virq[i]))
			return (int)i;
	return -1;
}

void irqkit_pci_free_irq_vectors(struct irqkit_pci_dev *pdev)
{
	struct irqkit__pci *p;
	int busy, ret;

	irqkit_might_sleep(__FILE__, __LINE__);
	if (!pdev || !pdev->priv)
		return;
	p = pdev->priv;
	if (p->index == NO_INDEX) {
		irqkit_printk(IRQKIT_LOG_WARNING,
			      "pci %s: pci_free_irq_vectors: no MSI or MSI-X vectors allocated",
			      pci_name(pdev));
		return;
	}
	busy = busy_vector(p);
	if (busy >= 0) {
		irqkit_printk(IRQKIT_LOG_ERR,
			      "pci %s: pci_free_irq_vectors: vector %d (irq %u) still has a handler; free_irq() it first",
			      pci_name(pdev), busy, p->virq[busy]);
		return;
	}
	ret = set_irqs(p, p->index, VFIO_IRQ_SET_ACTION_TRIGGER, 0, NULL);
	if (ret)
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: turning %s off in VFIO failed (%d)",
			      pci_name(pdev), index_name(p->index), ret);
	pdev->irq = p->intx_line;
	pdev->msi_enabled = pdev->msix_enabled = false;
	vectors_release(p);
	(void)intx_on(pdev);
}

int irqkit_pci_irq_vector(struct irqkit_pci_dev *pdev, unsigned int nr)
{
	struct irqkit__pci *p = pdev ? pdev->priv : NULL;

	if (!p)
		return -IRQKIT_EINVAL;
	if (p->index == NO_INDEX && !nr && pdev->irq)
		return (int)pdev->irq;
	if (p->index != NO_INDEX && nr < p->size && p->virq[nr])
		return (int)p->virq[nr];
	irqkit_printk(IRQKIT_LOG_ERR, "pci %s: pci_irq_vector(%u): the device has %u %s vector%s",
		      pci_name(pdev), nr, p->index == NO_INDEX ? (pdev->irq ? 1u : 0u) : p->nvec,
		      index_name(p->index), p->index == NO_INDEX || p->nvec != 1 ? "s" : "");
	return -IRQKIT_EINVAL;
}

const struct irqkit_cpus *irqkit_pci_irq_get_affinity(struct irqkit_pci_dev *pdev, unsigned int nr)
{
	int irq = irqkit_pci_irq_vector(pdev, nr);

	if (warn_on_once(irq <= 0))
		return NULL;
	if (pdev->priv->index == NO_INDEX)
		return irqkit_cpu_possible_cpus();
	return pdev->priv->aff_set[nr] ? &pdev->priv->aff[nr].mask : NULL;
}

/* ---- MSI-X vectors added to a running set (Linux 6.2) ------------------------------------- */

bool irqkit_pci_msix_can_alloc_dyn(struct irqkit_pci_dev *pdev)
{
	return pdev && pdev->priv && pdev->priv->count[VFIO_PCI_MSIX_IRQ_INDEX];
}

/*
 * VFIO signals the first @nvec entries; have it signal @index too.  Where
 * VFIO can add a vector to a running set (NORESIZE clear, vfio-pci 6.5 on)
 * it is one SET_IRQS.  Else, as QEMU does, MSI-X goes off and on again with
 * the larger count; what a vector sent in between is gone in VFIO, so each
 * vector that was on is signalled once after (a call its handler may find
 * nothing for, as on a shared line).  Return: 0 or VFIO's -errno.
 */
static int msix_add(struct irqkit__pci *p, unsigned int index)
{
	int ret;

	if (index < p->nvec || !(p->flags[VFIO_PCI_MSIX_IRQ_INDEX] & VFIO_IRQ_INFO_NORESIZE)) {
		ret = set_irqs_at(p, VFIO_PCI_MSIX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_TRIGGER, index, 1,
				  &p->fds[index]);
		if (!ret && index >= p->nvec)
			p->nvec = index + 1;
		return ret;
	}
	ret = set_irqs(p, VFIO_PCI_MSIX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_TRIGGER, 0, NULL);
	if (!ret)
		ret = set_irqs(p, VFIO_PCI_MSIX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_TRIGGER, index + 1,
			       p->fds);
	if (ret) {
		/* the old set back, if VFIO takes it */
		(void)set_irqs(p, VFIO_PCI_MSIX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_TRIGGER, p->nvec,
			       p->fds);
		return ret;
	}
	for (unsigned int i = 0; i < p->nvec; i++) {
		static const uint64_t one = 1;

		if (p->fds[i] >= 0)
			(void)!write(p->fds[i], &one, sizeof(one));
	}
	p->nvec = index + 1;
	return 0;
}

struct irqkit_msi_map irqkit_pci_msix_alloc_irq_at(struct irqkit_pci_dev *pdev, unsigned int index,
						   const struct irqkit_irq_affinity_desc *affdesc)
{
	struct irqkit__pci *p = pdev ? pdev->priv : NULL;
	struct irqkit_msi_map map = { .index = -IRQKIT_ENOTSUPP, .virq = 0 };
	int ret;

	irqkit_might_sleep(__FILE__, __LINE__);
	if (!p || !pdev->msix_enabled)
		return map;
	if (index == IRQKIT_MSI_ANY_INDEX) {
		for (index = 0; index < p->size && p->virq[index]; index++)
			;
		if (index == p->size) {
			map.index = -IRQKIT_EBUSY;
			return map;
		}
	} else if (index >= p->size || p->virq[index]) {
		map.index = index >= p->size ? -IRQKIT_ERANGE : -IRQKIT_EBUSY;
		return map;
	}
	ret = vector_add(p, index, affdesc);
	if (!ret)
		ret = msix_add(p, index);
	if (ret) {
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: MSI-X vector %u could not be added (%d)",
			      pci_name(pdev), index, ret);
		vector_drop(p, index);
		map.index = ret;
		return map;
	}
	map.index = (int)index;
	map.virq = (int)p->virq[index];
	return map;
}

void irqkit_pci_msix_free_irq(struct irqkit_pci_dev *pdev, struct irqkit_msi_map map)
{
	struct irqkit__pci *p = pdev ? pdev->priv : NULL;
	unsigned int i = (unsigned int)map.index;
	static const int none = -1;

	irqkit_might_sleep(__FILE__, __LINE__);
	if (warn_on_once(!p || map.index < 0 || map.virq <= 0))
		return;
	if (!pdev->msix_enabled || i >= p->size || p->virq[i] != (unsigned int)map.virq) {
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: pci_msix_free_irq: no vector %d at irq %d",
			      pci_name(pdev), map.index, map.virq);
		return;
	}
	if (irqkit_irq_has_action(p->virq[i])) {
		irqkit_printk(IRQKIT_LOG_ERR,
			      "pci %s: pci_msix_free_irq: vector %u (irq %u) still has a handler; free_irq() it first",
			      pci_name(pdev), i, p->virq[i]);
		return;
	}
	/* VFIO lets go of the eventfd (-1 for one vector), the rest stays on */
	(void)set_irqs_at(p, VFIO_PCI_MSIX_IRQ_INDEX, VFIO_IRQ_SET_ACTION_TRIGGER, i, 1, &none);
	vector_drop(p, i);
}

int irqkit_pci_msix_vec_count(struct irqkit_pci_dev *pdev)
{
	unsigned int n = pdev && pdev->priv ? pdev->priv->count[VFIO_PCI_MSIX_IRQ_INDEX] : 0;

	return n ? (int)n : -IRQKIT_EINVAL;
}

int irqkit_pci_msi_vec_count(struct irqkit_pci_dev *pdev)
{
	unsigned int n = pdev && pdev->priv ? pdev->priv->count[VFIO_PCI_MSI_IRQ_INDEX] : 0;

	return n ? (int)n : -IRQKIT_EINVAL;
}

int irqkit_pci_close(struct irqkit_pci_dev *pdev)
{
	struct irqkit__pci *p;

	if (!pdev || !pdev->priv)
		return -IRQKIT_EINVAL;
	p = pdev->priv;
	if (busy_vector(p) >= 0 || line_busy(p->intx_line) || line_busy(p->ev_line[0]) ||
	    line_busy(p->ev_line[1])) {
		irqkit_printk(IRQKIT_LOG_ERR, "pci %s: close with a handler still requested; not closed",
			      pci_name(pdev));
		return -IRQKIT_EBUSY;
	}
	if (p->index != NO_INDEX)
		irqkit_pci_free_irq_vectors(pdev);
	intx_teardown(pdev);
	events_teardown(p);
	for (unsigned int i = 0; i < 6; i++)
		if (p->maps[i].addr)
			irqkit_pci_iounmap(pdev, p->maps[i].addr);
	irqkit_devres_release_all(&pdev->dev);
	p->be->release(p->data);
	free(p);
	free(pdev);
	return 0;
}
