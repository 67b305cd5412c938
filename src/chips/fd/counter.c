// SPDX-License-Identifier: MIT
/*
 * Counting sources of the fd chip: an eventfd and a timerfd, edge lines
 * whose 8-byte counter (the events, the expirations) is what the
 * interrupt stands for.
 */
#include "fd.h"

#include <errno.h>
#include <sys/epoll.h>

void irqkit__fd_read_counter(struct fd_line *l, struct fd_arrival *a)
{
	uint64_t v;
	ssize_t r = irqkit__fd_src_read(l, &v, sizeof(v));

	if (r == (ssize_t)sizeof(v))
		a->n = v;
	else if (r >= 0)
		a->error = "short read of the 8-byte counter";
	else if (errno != EAGAIN && errno != EINTR)
		a->error = "read failed", a->err = errno;
}

const struct irqkit__fd_kind irqkit__fd_kind_eventfd = {
	.name = "eventfd", .edge = true, .et = true, .events = EPOLLIN,
	.record = sizeof(uint64_t), .read = irqkit__fd_read_counter,
};

const struct irqkit__fd_kind irqkit__fd_kind_timerfd = {
	.name = "timerfd", .edge = true, .et = true, .events = EPOLLIN,
	.record = sizeof(uint64_t), .read = irqkit__fd_read_counter,
};

int irqkit_fd_bind_eventfd(unsigned int irq, int efd)
{
	return irqkit__fd_bind_kind(irq, efd, &irqkit__fd_kind_eventfd, -1);
}

int irqkit_fd_bind_timerfd(unsigned int irq, int tfd)
{
	return irqkit__fd_bind_kind(irq, tfd, &irqkit__fd_kind_timerfd, -1);
}
