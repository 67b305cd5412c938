// SPDX-License-Identifier: MIT
/*
 * GPIO line events (the v2 character-device interface) as a source of the
 * fd chip: an edge line whose records are the events; a gap in their
 * sequence numbers is events lost, the timestamp is the delivery's, and
 * the last event is kept for irqkit_fd_last_record().
 */
#include "fd.h"

#include <linux/gpio.h>
#include <string.h>
#include <sys/epoll.h>

static void each_gpio(struct fd_line *l, struct fd_arrival *a, const void *rec)
{
	struct gpio_v2_line_event ev;

	memcpy(&ev, rec, sizeof(ev));
	if (ld(&l->state) & FL_SEEN) {
		uint32_t gap = ev.seqno - l->last_seq - 1;

		if (gap < 0x80000000u) {	/* a reordered or restarted sequence is no gap */
			a->n += gap;
			a->lost += gap;
		}
	}
	set_bits(&l->state, FL_SEEN);
	l->last_seq = ev.seqno;
	l->last_ts = ev.timestamp_ns;
	a->n++;
	irqkit__fd_keep_record(l, rec, sizeof(ev));
}

static void read_gpio(struct fd_line *l, struct fd_arrival *a)
{
	irqkit__fd_read_records(l, a, sizeof(struct gpio_v2_line_event), each_gpio);
}

const struct irqkit__fd_kind irqkit__fd_kind_gpio = {
	.name = "gpio", .edge = true, .et = true, .events = EPOLLIN,
	.record = sizeof(struct gpio_v2_line_event), .keeps_record = true, .read = read_gpio,
};

int irqkit_fd_bind_gpio(unsigned int irq, int request_fd)
{
	return irqkit__fd_bind_kind(irq, request_fd, &irqkit__fd_kind_gpio, -1);
}
