/* SPDX-License-Identifier: MIT */
/*
 * Linux's <net/busy_poll.h> over irqkit (<irqkit/napi.h>): busy polling of
 * a NAPI instance by its id from the calling thread.  There are no sockets
 * here, so nothing of the socket side (sk_busy_loop, the sysctls).
 */
#ifndef IRQKIT_COMPAT_NET_BUSY_POLL_H
#define IRQKIT_COMPAT_NET_BUSY_POLL_H

#include <linux/netdevice.h>

#define BUSY_POLL_BUDGET			IRQKIT_BUSY_POLL_BUDGET
#define busy_loop_current_time()		irqkit_busy_loop_current_time()
#define napi_busy_loop(id, end, arg, prefer, budget) \
	irqkit_napi_busy_loop((id), (end), (arg), (prefer), (budget))

#endif
