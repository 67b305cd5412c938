// SPDX-License-Identifier: MIT
/*
 * UIO (/dev/uioN) as a source of the fd chip: a level line (fasteoi) whose
 * read is the device's 32-bit interrupt count (a gap is interrupts lost);
 * the end of interrupt writes 1 to re-enable the device's line, after the
 * handler or its thread.  A driver without irqcontrol (uio_pci_generic)
 * refuses that write; a PCI device is then re-enabled by clearing the
 * command register's INTx disable bit in its config space, as that
 * driver's users must.
 */
#include "fd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define PCI_COMMAND			4
#define PCI_COMMAND_INTX_DISABLE	0x400

static void read_uio(struct fd_line *l, struct fd_arrival *a)
{
	uint32_t count;
	ssize_t r = irqkit__fd_src_read(l, &count, sizeof(count));

	if (r == (ssize_t)sizeof(count)) {
		uint32_t d = count - l->last_seq;

		if (!(ld(&l->state) & FL_SEEN) || d == 0 || d >= 0x80000000u)
			d = 1;	/* the first read, or a count that did not move on */
		set_bits(&l->state, FL_SEEN);
		l->last_seq = count;
		a->n = d;
		a->lost = d - 1;
	} else if (r >= 0) {
		a->error = "UIO read did not return the 4-byte count";
	} else if (errno != EAGAIN && errno != EINTR) {
		a->error = "read failed", a->err = errno;
	}
}

/*
 * The PCI configuration space of the device behind a UIO descriptor
 * (/sys/class/uio/uioN/device/config, N the descriptor's minor), open for
 * writing, or -1 when it is no PCI device or cannot be opened.
 */
static int uio_pci_config(int uio_fd)
{
	struct stat st;
	char path[64];

	if (fstat(uio_fd, &st) || !S_ISCHR(st.st_mode))
		return -1;
	snprintf(path, sizeof(path), "/sys/class/uio/uio%u/device/config", minor(st.st_rdev));
	return open(path, O_RDWR | O_CLOEXEC);
}

/*
 * uio_pci_generic's re-enable: its kernel handler sets the command
 * register's INTx disable bit as it takes the interrupt, and the driver
 * clears it once the device is served.  Return: 0 or -errno.
 */
static int pci_intx_enable(int cfg_fd)
{
	uint16_t cmd;

	if (pread(cfg_fd, &cmd, sizeof(cmd), PCI_COMMAND) != (ssize_t)sizeof(cmd))
		return -errno;
	if (!(cmd & PCI_COMMAND_INTX_DISABLE))
		return 0;
	cmd &= (uint16_t)~PCI_COMMAND_INTX_DISABLE;
	if (pwrite(cfg_fd, &cmd, sizeof(cmd), PCI_COMMAND) != (ssize_t)sizeof(cmd))
		return -errno;
	return 0;
}

/*
 * A UIO driver refused the re-enable write (no irqcontrol): re-enable
 * through the PCI command register if the device is a PCI one (as
 * uio_pci_generic's users must), else stop writing.  Return: whether the
 * command register is the way now.
 */
static bool uio_learn_reenable(struct fd_line *l, int err)
{
	int cfg = uio_pci_config(l->eoi_fd), none = -1;

	if (cfg >= 0 && !a_cas(&l->cfg_fd, &none, cfg))
		close(cfg);			/* another CPU's EOI found it first */
	if (cfg >= 0) {
		if (!(set_bits(&l->state, FL_PCICMD) & FL_PCICMD))
			irqkit_printk(IRQKIT_LOG_INFO,
				      "irq %u: fd %d (uio): the driver has no irqcontrol (%s); re-enabling through the PCI command register",
				      irqkit__fd_line_irq(l), l->fd, strerror(err));
		return true;
	}
	set_bits(&l->state, FL_NOCTL);
	irqkit_printk(IRQKIT_LOG_INFO,
		      "irq %u: fd %d (uio): the driver has no irqcontrol (%s); no re-enable writes",
		      irqkit__fd_line_irq(l), l->fd, strerror(err));
	return false;
}

/* Write the re-enable (a 32-bit 1), or clear the PCI command register's INTx disable bit. */
static void uio_reenable(struct fd_line *l)
{
	int32_t one = 1;

	if (ld(&l->state) & FL_PCICMD) {
		int err = pci_intx_enable(a_load_acquire(&l->cfg_fd));

		if (err)
			irqkit_printk(IRQKIT_LOG_ERR,
				      "irq %u: fd %d (uio): PCI command register write failed (%s)",
				      irqkit__fd_line_irq(l), l->fd, strerror(-err));
		return;
	}
	if (write(l->eoi_fd, &one, sizeof(one)) >= 0 || errno == EAGAIN)
		return;
	if (errno == EIO || errno == ENOSYS || errno == EINVAL) {
		if (uio_learn_reenable(l, errno))
			uio_reenable(l);
	} else {
		irqkit_printk(IRQKIT_LOG_ERR, "irq %u: fd %d (uio): re-enable write failed (%s)",
			      irqkit__fd_line_irq(l), l->eoi_fd, strerror(errno));
	}
}

const struct irqkit__fd_kind irqkit__fd_kind_uio = {
	.name = "uio", .edge = false, .et = true, .events = EPOLLIN,
	.record = sizeof(uint32_t), .read = read_uio, .reenable = uio_reenable,
};

int irqkit_fd_bind_uio(unsigned int irq, int uio_fd)
{
	return irqkit__fd_bind_kind(irq, uio_fd, &irqkit__fd_kind_uio, uio_fd);
}
