/* SPDX-License-Identifier: MIT */
/*
 * Between the fd chip (fdchip.c) and the routing of the host's signals
 * (fdsignal.c): a signal goes one way, to a line's signalfd or to the
 * tasks, never both.
 */
#ifndef IRQKIT_CHIPS_FDCHIP_H
#define IRQKIT_CHIPS_FDCHIP_H

#include <stdint.h>

/* The signals routed to tasks now (bit n - 1 for signal n).  Any thread. */
uint64_t irqkit__fd_routed_signals(void);
/*
 * The line whose signalfd takes @sig, or -1.  Reads the lines under the
 * chip's bind lock, so a bind that raced a route either saw the route or
 * is seen here.  Process context.
 */
int irqkit__fd_signalfd_taker(int sig);

#endif
