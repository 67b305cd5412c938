// SPDX-License-Identifier: MIT
/*
 * A signalfd as a source of the fd chip: an edge line whose records are
 * the signals taken; the last is kept for irqkit_fd_last_record().  A
 * signal goes to a line's signalfd or to the tasks (sigroute.c), not both.
 */
#include "fd.h"

#include <stdio.h>
#include <sys/epoll.h>

static void each_siginfo(struct fd_line *l, struct fd_arrival *a, const void *rec)
{
	a->n++;
	irqkit__fd_keep_record(l, rec, sizeof(struct signalfd_siginfo));
}

static void read_siginfo(struct fd_line *l, struct fd_arrival *a)
{
	irqkit__fd_read_records(l, a, sizeof(struct signalfd_siginfo), each_siginfo);
}

const struct irqkit__fd_kind irqkit__fd_kind_signalfd = {
	.name = "signalfd", .edge = true, .et = true, .events = EPOLLIN,
	.record = sizeof(struct signalfd_siginfo), .keeps_record = true, .read = read_siginfo,
};

/* The signals a signalfd takes: its mask, as /proc/self/fdinfo shows it ("sigmask:"). */
static uint64_t signalfd_signals(int fd)
{
	char path[64], line[128];
	unsigned long long mask = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "sigmask: %llx", &mask) == 1)
			break;
	fclose(f);
	return mask;
}

int irqkit_fd_bind_signalfd(unsigned int irq, int sfd)
{
	uint64_t sigs = sfd >= 0 ? signalfd_signals(sfd) : 0;
	uint64_t both;
	int ret;

	irqkit__fd_bind_lock();
	both = sigs & irqkit__fd_routed_signals();
	ret = both ? -IRQKIT_EBUSY :
		     irqkit__fd_bind_locked(irq, sfd, &irqkit__fd_kind_signalfd, -1, 0);
	if (!ret)
		irqkit__fd_bound_line(irq)->sigs = sigs;
	irqkit__fd_bind_unlock();
	if (both)
		irqkit_printk(IRQKIT_LOG_ERR,
			      "irqkit_fd_bind_signalfd(%u): signal %d is routed to tasks (irqkit_route_signal); a signal goes to a line or to tasks, not both",
			      irq, __builtin_ctzll(both) + 1);
	return ret;
}

int irqkit__fd_signalfd_taker(int sig)
{
	int irq = -1;

	irqkit__fd_bind_lock();
	for (unsigned int i = 0; i < irqkit_nr_irqs() && irq < 0; i++) {
		struct fd_line *l = irqkit__fd_bound_line(i);

		if (l && l->kind == &irqkit__fd_kind_signalfd && (l->sigs & (1ull << (sig - 1))))
			irq = (int)i;
	}
	irqkit__fd_bind_unlock();
	return irq;
}
