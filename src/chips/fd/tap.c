// SPDX-License-Identifier: MIT
/* A TAP device as a source of the fd chip: a level line that requests while a packet waits. */
#include "fd.h"

#include <sys/epoll.h>

const struct irqkit__fd_kind irqkit__fd_kind_tap = {
	.name = "tap", .edge = false, .et = false, .events = EPOLLIN,
};

int irqkit_fd_bind_tap(unsigned int irq, int tap_fd)
{
	return irqkit__fd_bind_kind(irq, tap_fd, &irqkit__fd_kind_tap, -1);
}
