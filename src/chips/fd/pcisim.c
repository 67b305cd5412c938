// SPDX-License-Identifier: MIT
/*
 * A simulated PCI device that answers VFIO's device calls as vfio-pci does,
 * for tests of a driver without the hardware: GET_IRQ_INFO gives the
 * configured counts, SET_IRQS is checked as vfio-pci checks it (one kind
 * at a time, no more vectors than the device has, a kind turned off with
 * count 0), and the device signals the eventfds it was given.  INTx is
 * masked as it signals and unmasked when its unmask eventfd is written.
 * The host kernel unmasks in the write itself (the eventfd's wake-up calls
 * vfio-pci's unmask); here a helper thread watches the eventfd, and a
 * change of the pin first takes any unmask already written, so that no
 * unmask is seen after a later change of the pin, as none is in Linux.
 */
#include "fd.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define NO_INDEX	(~0u)

struct pcisim {
	pthread_mutex_t	lock;
	unsigned int	count[VFIO_PCI_NUM_IRQS];
	unsigned int	on;		/* the index VFIO signals, or NO_INDEX */
	unsigned int	nfds;		/* its vectors */
	int		*fds;		/* -1: no eventfd for that vector */
	/* INTx */
	int		unmask_fd;	/* VFIO's: written to unmask; -1 none */
	bool		masked, level;
	bool		grow;		/* MSI-X grows while on (NORESIZE clear) */
	pthread_t	thread;
	bool		thread_on;
	int		stop_fd;
	int		ev_fd[2];	/* ERR, REQ: -1 none */
	uint8_t		config[256];
	uint8_t		*bar0;		/* 4 KiB, shared with the test */
};

static void signal_fd(int fd)
{
	uint64_t one = 1;

	if (fd >= 0)
		(void)!write(fd, &one, sizeof(one));
}

/* INTx asserted and not masked: signal, and VFIO masks it.  Caller: the lock. */
static void intx_update(struct pcisim *s)
{
	if (s->on == VFIO_PCI_INTX_IRQ_INDEX && s->level && !s->masked && s->fds[0] >= 0) {
		s->masked = true;
		signal_fd(s->fds[0]);
	}
}

/* Unmask writes not yet taken: INTx unmasked.  Caller: the lock. */
static void take_unmask(struct pcisim *s)
{
	uint64_t v;

	if (s->unmask_fd >= 0 && read(s->unmask_fd, &v, sizeof(v)) == sizeof(v))
		s->masked = false;
}

/* What the host kernel's irqfd does with the unmask eventfd (its descriptor is non-blocking). */
static void *unmask_thread(void *arg)
{
	struct pcisim *s = arg;

	for (;;) {
		struct pollfd p[2] = { { .fd = s->stop_fd, .events = POLLIN },
				       { .fd = s->unmask_fd, .events = POLLIN } };

		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[0].revents)
			break;
		if (p[1].revents) {
			pthread_mutex_lock(&s->lock);
			take_unmask(s);
			intx_update(s);
			pthread_mutex_unlock(&s->lock);
		}
	}
	return NULL;
}

/* Stop the helper.  Caller: not the lock, which the helper takes. */
static void unmask_stop(struct pcisim *s)
{
	int fd;

	if (!s->thread_on)
		return;
	signal_fd(s->stop_fd);
	pthread_join(s->thread, NULL);
	s->thread_on = false;
	close(s->stop_fd);
	pthread_mutex_lock(&s->lock);
	fd = s->unmask_fd;
	s->unmask_fd = -1;
	pthread_mutex_unlock(&s->lock);
	close(fd);
}

/* Turn the kind on off.  Caller: the lock, not the unmask thread. */
static void irqs_off(struct pcisim *s)
{
	for (unsigned int i = 0; i < s->nfds; i++)
		if (s->fds[i] >= 0)
			close(s->fds[i]);
	free(s->fds);
	s->fds = NULL;
	s->nfds = 0;
	s->on = NO_INDEX;
	s->masked = false;
}

static int dup_fds(struct pcisim *s, const struct vfio_irq_set *set)
{
	const int32_t *in = (const int32_t *)set->data;

	for (unsigned int i = 0; i < set->count; i++) {
		int fd = in[i] >= 0 ? fcntl(in[i], F_DUPFD_CLOEXEC, 0) : -1;

		if (in[i] >= 0 && fd < 0)
			return -EBADF;
		if (s->fds[set->start + i] >= 0)
			close(s->fds[set->start + i]);
		s->fds[set->start + i] = fd;
	}
	return 0;
}

static int set_unmask(struct pcisim *s, const struct vfio_irq_set *set)
{
	int32_t fd;

	if (set->index != VFIO_PCI_INTX_IRQ_INDEX || s->on != VFIO_PCI_INTX_IRQ_INDEX ||
	    set->start != 0 || set->count != 1 ||
	    (set->flags & VFIO_IRQ_SET_DATA_TYPE_MASK) != VFIO_IRQ_SET_DATA_EVENTFD)
		return -EINVAL;
	memcpy(&fd, set->data, sizeof(fd));
	pthread_mutex_unlock(&s->lock);
	unmask_stop(s);
	pthread_mutex_lock(&s->lock);
	s->unmask_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	s->stop_fd = eventfd(0, EFD_CLOEXEC);
	if (s->unmask_fd < 0 || s->stop_fd < 0 ||
	    pthread_create(&s->thread, NULL, unmask_thread, s)) {
		if (s->unmask_fd >= 0)
			close(s->unmask_fd);
		if (s->stop_fd >= 0)
			close(s->stop_fd);
		s->unmask_fd = -1;
		return -ENOMEM;
	}
	s->thread_on = true;
	return 0;
}

/* The device events (ERR, REQ): one eventfd each, beside whichever kind is on. */
static int set_event(struct pcisim *s, const struct vfio_irq_set *set)
{
	uint32_t data = set->flags & VFIO_IRQ_SET_DATA_TYPE_MASK;
	int *slot = &s->ev_fd[set->index - VFIO_PCI_ERR_IRQ_INDEX];
	int32_t fd;

	if (set->start != 0 || set->count > 1 || !s->count[set->index])
		return -EINVAL;
	if (data == VFIO_IRQ_SET_DATA_NONE && !set->count) {
		if (*slot >= 0)
			close(*slot);
		*slot = -1;
		return 0;
	}
	if (data != VFIO_IRQ_SET_DATA_EVENTFD || set->count != 1)
		return -EINVAL;
	memcpy(&fd, set->data, sizeof(fd));
	fd = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
	if (*slot >= 0)
		close(*slot);
	*slot = fd;
	return 0;
}

/* vfio-pci's checks of SET_IRQS with the trigger action. */
static int set_trigger(struct pcisim *s, const struct vfio_irq_set *set)
{
	uint32_t data = set->flags & VFIO_IRQ_SET_DATA_TYPE_MASK;

	if (set->index == VFIO_PCI_ERR_IRQ_INDEX || set->index == VFIO_PCI_REQ_IRQ_INDEX)
		return set_event(s, set);
	if (set->index > VFIO_PCI_MSIX_IRQ_INDEX || !s->count[set->index])
		return -EINVAL;
	if (data == VFIO_IRQ_SET_DATA_NONE && !set->count) {
		if (s->on == set->index) {
			if (set->index == VFIO_PCI_INTX_IRQ_INDEX) {
				pthread_mutex_unlock(&s->lock);
				unmask_stop(s);
				pthread_mutex_lock(&s->lock);
			}
			irqs_off(s);
		}
		return 0;
	}
	if (data != VFIO_IRQ_SET_DATA_EVENTFD || !set->count ||
	    set->start + set->count > s->count[set->index])
		return -EINVAL;
	if (s->on == NO_INDEX) {
		/* enabling: as many vectors as start + count, all or nothing */
		s->fds = malloc(sizeof(int) * (set->start + set->count));
		if (!s->fds)
			return -ENOMEM;
		for (unsigned int i = 0; i < set->start + set->count; i++)
			s->fds[i] = -1;
		s->nfds = set->start + set->count;
		s->on = set->index;
		if (dup_fds(s, set)) {
			irqs_off(s);
			return -EBADF;
		}
		intx_update(s);
		return 0;
	}
	if (s->on != set->index)
		return -EINVAL;		/* another kind is on */
	if (set->start + set->count > s->nfds) {
		int *more;

		/* vectors past those enabled: vfio-pci 6.5 on adds MSI-X ones, before it says no */
		if (set->index != VFIO_PCI_MSIX_IRQ_INDEX || !s->grow)
			return -EINVAL;
		more = realloc(s->fds, sizeof(int) * (set->start + set->count));
		if (!more)
			return -ENOMEM;
		s->fds = more;
		for (unsigned int i = s->nfds; i < set->start + set->count; i++)
			s->fds[i] = -1;
		s->nfds = set->start + set->count;
	}
	return dup_fds(s, set);
}

static int sim_ioctl(void *data, unsigned long req, void *arg)
{
	struct pcisim *s = data;
	int ret = -ENOTTY;

	pthread_mutex_lock(&s->lock);
	if (req == VFIO_DEVICE_GET_IRQ_INFO) {
		struct vfio_irq_info *info = arg;

		if (info->index >= VFIO_PCI_NUM_IRQS) {
			ret = -EINVAL;
		} else {
			info->count = s->count[info->index];
			info->flags = VFIO_IRQ_INFO_EVENTFD |
				      (info->index == VFIO_PCI_INTX_IRQ_INDEX ?
					       VFIO_IRQ_INFO_MASKABLE | VFIO_IRQ_INFO_AUTOMASKED :
				       info->index == VFIO_PCI_MSI_IRQ_INDEX ||
				       (info->index == VFIO_PCI_MSIX_IRQ_INDEX && !s->grow) ?
					       VFIO_IRQ_INFO_NORESIZE : 0);
			ret = 0;
		}
	} else if (req == VFIO_DEVICE_SET_IRQS) {
		const struct vfio_irq_set *set = arg;

		if (set->flags & VFIO_IRQ_SET_ACTION_TRIGGER)
			ret = set_trigger(s, set);
		else if (set->flags & VFIO_IRQ_SET_ACTION_UNMASK)
			ret = set_unmask(s, set);
		else
			ret = -EINVAL;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

static int sim_config(void *data, void *buf, unsigned int len, unsigned int where, bool write)
{
	struct pcisim *s = data;

	if (where + len > sizeof(s->config))
		return -IRQKIT_EIO;
	pthread_mutex_lock(&s->lock);
	if (write)
		memcpy(s->config + where, buf, len);
	else
		memcpy(buf, s->config + where, len);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

static struct irqkit__pci_mapping sim_map(void *data, unsigned int bar, size_t maxlen)
{
	struct pcisim *s = data;
	struct irqkit__pci_mapping m = { NULL, 0 };

	if (bar == 0) {
		m.addr = s->bar0;
		m.len = !maxlen || maxlen > 4096 ? 4096 : maxlen;
	}
	return m;
}

static void sim_unmap(void *data, void *addr, size_t len)
{
	(void)data;
	(void)addr;
	(void)len;
}

static void sim_release(void *data)
{
	struct pcisim *s = data;

	unmask_stop(s);
	irqs_off(s);
	for (unsigned int e = 0; e < 2; e++)
		if (s->ev_fd[e] >= 0)
			close(s->ev_fd[e]);
	pthread_mutex_destroy(&s->lock);
	free(s->bar0);
	free(s);
}

static const struct irqkit__pci_backend sim_backend = {
	.ioctl = sim_ioctl, .config = sim_config, .map = sim_map, .unmap = sim_unmap,
	.release = sim_release,
};

int irqkit_pci_sim_create(const char *addr, const struct irqkit_pci_sim_config *cfg,
			  struct irqkit_pci_dev **out)
{
	struct pcisim *s;

	if (!addr || !*addr || !cfg || !out || cfg->msix > 2048 || cfg->msi > 32 ||
	    (cfg->msi & (cfg->msi - 1)))
		return -IRQKIT_EINVAL;
	s = calloc(1, sizeof(*s));
	if (s)
		s->bar0 = calloc(1, 4096);
	if (!s || !s->bar0) {
		free(s);
		return -IRQKIT_ENOMEM;
	}
	pthread_mutex_init(&s->lock, NULL);
	s->count[VFIO_PCI_INTX_IRQ_INDEX] = cfg->intx;
	s->count[VFIO_PCI_MSI_IRQ_INDEX] = cfg->msi;
	s->count[VFIO_PCI_MSIX_IRQ_INDEX] = cfg->msix;
	s->count[VFIO_PCI_ERR_IRQ_INDEX] = cfg->aer;
	s->count[VFIO_PCI_REQ_IRQ_INDEX] = 1;
	s->grow = cfg->grow;
	s->ev_fd[0] = s->ev_fd[1] = -1;
	s->on = NO_INDEX;
	s->unmask_fd = -1;
	memcpy(s->config, &cfg->vendor, 2);
	memcpy(s->config + 2, &cfg->device, 2);
	return irqkit__pci_new(addr, &sim_backend, s, out);
}

int irqkit_pci_sim_fire(struct irqkit_pci_dev *pdev, unsigned int nr)
{
	struct pcisim *s = irqkit__pci_backend_data(pdev, &sim_backend);
	int ret;

	if (!s)
		return -IRQKIT_EINVAL;
	pthread_mutex_lock(&s->lock);
	if (s->on != VFIO_PCI_MSI_IRQ_INDEX && s->on != VFIO_PCI_MSIX_IRQ_INDEX)
		ret = -IRQKIT_EINVAL;
	else if (nr >= s->nfds || s->fds[nr] < 0)
		ret = -IRQKIT_ENOENT;
	else
		ret = 0;
	if (!ret)
		signal_fd(s->fds[nr]);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int irqkit_pci_sim_event(struct irqkit_pci_dev *pdev, unsigned int which)
{
	struct pcisim *s = irqkit__pci_backend_data(pdev, &sim_backend);
	int ret = 0;

	if (!s || (which != IRQKIT_PCI_EVENT_ERR && which != IRQKIT_PCI_EVENT_REQ))
		return -IRQKIT_EINVAL;
	pthread_mutex_lock(&s->lock);
	if (s->ev_fd[which - IRQKIT_PCI_EVENT_ERR] < 0)
		ret = -IRQKIT_ENOENT;
	else
		signal_fd(s->ev_fd[which - IRQKIT_PCI_EVENT_ERR]);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int irqkit_pci_sim_set_intx(struct irqkit_pci_dev *pdev, bool level)
{
	struct pcisim *s = irqkit__pci_backend_data(pdev, &sim_backend);

	if (!s || !s->count[VFIO_PCI_INTX_IRQ_INDEX])
		return -IRQKIT_EINVAL;
	pthread_mutex_lock(&s->lock);
	take_unmask(s);
	s->level = level;
	intx_update(s);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

int irqkit_pci_sim_triggers(struct irqkit_pci_dev *pdev, unsigned int flag)
{
	struct pcisim *s = irqkit__pci_backend_data(pdev, &sim_backend);
	unsigned int index = flag == IRQKIT_PCI_IRQ_INTX ? VFIO_PCI_INTX_IRQ_INDEX :
			     flag == IRQKIT_PCI_IRQ_MSI	 ? VFIO_PCI_MSI_IRQ_INDEX :
			     flag == IRQKIT_PCI_IRQ_MSIX ? VFIO_PCI_MSIX_IRQ_INDEX :
							   NO_INDEX;
	int n = 0;

	if (!s || index == NO_INDEX)
		return -IRQKIT_EINVAL;
	pthread_mutex_lock(&s->lock);
	if (s->on == index)
		for (unsigned int i = 0; i < s->nfds; i++)
			n += s->fds[i] >= 0;
	pthread_mutex_unlock(&s->lock);
	return n;
}
