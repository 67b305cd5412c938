// SPDX-License-Identifier: MIT
/*
 * A tty (a pty, a serial port) as two level lines of the fd chip, as a
 * UART has: receive (readable) and transmit (writable), the latter enabled
 * by the driver while it has data to send.  epoll keys on the descriptor,
 * so transmit watches a duplicate of it, closed at unbind.
 */
#include "fd.h"

#include <fcntl.h>
#include <sys/epoll.h>
#include <unistd.h>

const struct irqkit__fd_kind irqkit__fd_kind_tty_rx = {
	.name = "tty-rx", .edge = false, .et = false, .events = EPOLLIN,
};

const struct irqkit__fd_kind irqkit__fd_kind_tty_tx = {
	.name = "tty-tx", .edge = false, .et = false, .events = EPOLLOUT,
};

int irqkit_fd_bind_tty(unsigned int rx_irq, unsigned int tx_irq, int tty_fd)
{
	int ret, dup_fd = -1;

	if (rx_irq == tx_irq)
		return -IRQKIT_EINVAL;
	irqkit__fd_bind_lock();
	ret = irqkit__fd_bind_locked(rx_irq, tty_fd, &irqkit__fd_kind_tty_rx, -1, 0);
	if (ret || tx_irq == IRQKIT_FD_NO_IRQ)
		goto out;
	dup_fd = fcntl(tty_fd, F_DUPFD_CLOEXEC, 0);
	ret = dup_fd < 0 ? -IRQKIT_EMFILE :
			   irqkit__fd_bind_locked(tx_irq, dup_fd, &irqkit__fd_kind_tty_tx, -1, FL_OWN_FD);
	if (ret) {
		if (dup_fd >= 0)
			close(dup_fd);
		irqkit__fd_unbind_locked(irqkit__fd_bound_line(rx_irq));
		goto out;
	}
	irqkit__fd_bound_line(rx_irq)->peer = tx_irq;
	irqkit__fd_bound_line(tx_irq)->peer = rx_irq;
out:
	irqkit__fd_bind_unlock();
	return ret;
}
