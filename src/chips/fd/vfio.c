// SPDX-License-Identifier: MIT
/*
 * VFIO as a source of the fd chip: a device's interrupt signalled through
 * a trigger eventfd (VFIO_DEVICE_SET_IRQS).  MSI is an edge line; INTx is
 * a level line whose end of interrupt writes the unmask eventfd, after the
 * handler or its thread.
 */
#include "fd.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* INTx's unmask: an eventfd add. */
static void vfio_unmask(struct fd_line *l)
{
	uint64_t one = 1;

	if (write(l->eoi_fd, &one, sizeof(one)) >= 0 || errno == EAGAIN)
		return;
	irqkit_printk(IRQKIT_LOG_ERR, "irq %u: fd %d (vfio): re-enable write failed (%s)",
		      irqkit__fd_line_irq(l), l->eoi_fd, strerror(errno));
}

const struct irqkit__fd_kind irqkit__fd_kind_vfio = {
	.name = "vfio", .edge = true, .et = true, .events = EPOLLIN,
	.record = sizeof(uint64_t), .read = irqkit__fd_read_counter, .reenable = vfio_unmask,
};

int irqkit_fd_bind_vfio(unsigned int irq, int trigger_fd, int unmask_fd)
{
	if (unmask_fd < -1 || (unmask_fd >= 0 && fcntl(unmask_fd, F_GETFL) < 0))
		return -IRQKIT_EBADF;
	return irqkit__fd_bind_kind(irq, trigger_fd, &irqkit__fd_kind_vfio, unmask_fd);
}

int irqkit__vfio_irq_set(int (*ioctl_fn)(void *data, unsigned long req, void *arg), void *data,
			 unsigned int index, uint32_t action, unsigned int start, unsigned int count,
			 const int *fds)
{
	size_t size = sizeof(struct vfio_irq_set) + sizeof(int32_t) * count;
	struct vfio_irq_set *set = calloc(1, size);
	int ret;

	if (!set)
		return -IRQKIT_ENOMEM;
	*set = (struct vfio_irq_set){
		.argsz = (uint32_t)size,
		.flags = (fds ? VFIO_IRQ_SET_DATA_EVENTFD : VFIO_IRQ_SET_DATA_NONE) | action,
		.index = index, .start = start, .count = count };
	if (fds)
		memcpy(set->data, fds, sizeof(int32_t) * count);
	ret = ioctl_fn(data, VFIO_DEVICE_SET_IRQS, set);
	free(set);
	return ret;
}

int irqkit__vfio_fd_ioctl(void *data, unsigned long req, void *arg)
{
	return ioctl(*(int *)data, req, arg) ? -errno : 0;
}

int irqkit_vfio_set_irqs(int device_fd, unsigned int index, unsigned int count, int *trigger_fds,
			 int *unmask_fd)
{
	int ret = 0;

	if (!count || !trigger_fds || count > 2048 ||
	    (index == VFIO_PCI_INTX_IRQ_INDEX && (count != 1 || !unmask_fd)))
		return -IRQKIT_EINVAL;
	for (unsigned int i = 0; i < count; i++)
		trigger_fds[i] = -1;
	if (unmask_fd)
		*unmask_fd = -1;
	for (unsigned int i = 0; i < count; i++) {
		trigger_fds[i] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (trigger_fds[i] < 0) {
			ret = -IRQKIT_EMFILE;
			goto fail;
		}
	}
	ret = irqkit__vfio_irq_set(irqkit__vfio_fd_ioctl, &device_fd, index,
				   VFIO_IRQ_SET_ACTION_TRIGGER, 0, count, trigger_fds);
	if (ret)
		goto fail;
	if (index == VFIO_PCI_INTX_IRQ_INDEX) {
		*unmask_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (*unmask_fd < 0) {
			ret = -IRQKIT_EMFILE;
			goto fail;
		}
		ret = irqkit__vfio_irq_set(irqkit__vfio_fd_ioctl, &device_fd, index,
					   VFIO_IRQ_SET_ACTION_UNMASK, 0, 1, unmask_fd);
		if (ret)
			goto fail;
	}
	return 0;
fail:
	for (unsigned int i = 0; i < count; i++)
		if (trigger_fds[i] >= 0)
			close(trigger_fds[i]);
	if (unmask_fd && *unmask_fd >= 0)
		close(*unmask_fd);
	return ret;
}
