/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/netdevice.h> over irqkit (<irqkit/napi.h>): the NAPI part
 * a driver uses, on a dummy device (irqkit has no network stack).  The
 * forms are the current kernel's: netif_napi_add with three arguments (6.1
 * on), napi_schedule returning bool, alloc_netdev_dummy (6.8) beside
 * init_dummy_netdev (6.1's).
 */
#ifndef IRQKIT_COMPAT_LINUX_NETDEVICE_H
#define IRQKIT_COMPAT_LINUX_NETDEVICE_H

#include <irqkit/napi.h>
#include <linux/interrupt.h>

#define net_device			irqkit_net_device
#define napi_struct			irqkit_napi_struct
#define IFNAMSIZ			IRQKIT_IFNAMSIZ
#define NAPI_POLL_WEIGHT		IRQKIT_NAPI_POLL_WEIGHT

#define NAPI_STATE_SCHED		IRQKIT_NAPI_STATE_SCHED
#define NAPI_STATE_MISSED		IRQKIT_NAPI_STATE_MISSED
#define NAPI_STATE_DISABLE		IRQKIT_NAPI_STATE_DISABLE
#define NAPI_STATE_NPSVC		IRQKIT_NAPI_STATE_NPSVC
#define NAPI_STATE_LISTED		IRQKIT_NAPI_STATE_LISTED
#define NAPI_STATE_NO_BUSY_POLL		IRQKIT_NAPI_STATE_NO_BUSY_POLL
#define NAPI_STATE_IN_BUSY_POLL		IRQKIT_NAPI_STATE_IN_BUSY_POLL
#define NAPI_STATE_PREFER_BUSY_POLL	IRQKIT_NAPI_STATE_PREFER_BUSY_POLL
#define NAPI_STATE_THREADED		IRQKIT_NAPI_STATE_THREADED
#define NAPI_STATE_SCHED_THREADED	IRQKIT_NAPI_STATE_SCHED_THREADED
#define NAPIF_STATE_SCHED		IRQKIT_NAPIF(SCHED)
#define NAPIF_STATE_MISSED		IRQKIT_NAPIF(MISSED)
#define NAPIF_STATE_DISABLE		IRQKIT_NAPIF(DISABLE)
#define NAPIF_STATE_NPSVC		IRQKIT_NAPIF(NPSVC)

#define alloc_netdev_dummy(sizeof_priv)		irqkit_alloc_netdev_dummy(sizeof_priv)
#define init_dummy_netdev(dev)			irqkit_init_dummy_netdev(dev)
#define free_netdev(dev)			irqkit_free_netdev(dev)
#define netdev_priv(dev)			irqkit_netdev_priv(dev)

#define netif_napi_add_weight(dev, napi, poll, weight) \
	irqkit_netif_napi_add_weight((dev), (napi), (poll), (weight))
#define netif_napi_add(dev, napi, poll) \
	irqkit_netif_napi_add_weight((dev), (napi), (poll), NAPI_POLL_WEIGHT)
#define netif_napi_add_tx_weight(dev, napi, poll, weight) \
	irqkit_netif_napi_add_tx_weight((dev), (napi), (poll), (weight))
#define netif_napi_add_tx(dev, napi, poll) \
	irqkit_netif_napi_add_tx_weight((dev), (napi), (poll), NAPI_POLL_WEIGHT)
#define netif_napi_del(napi)			irqkit_netif_napi_del(napi)
#define dev_set_threaded(dev, threaded)		irqkit_dev_set_threaded((dev), (threaded))
#define __netif_napi_del(napi)			irqkit_netif_napi_del(napi)

#define napi_enable(napi)			irqkit_napi_enable(napi)
#define napi_disable(napi)			irqkit_napi_disable(napi)
#define napi_synchronize(napi)			irqkit_napi_synchronize(napi)
#define napi_schedule_prep(napi)		irqkit_napi_schedule_prep(napi)
#define __napi_schedule(napi)			irqkit_napi_schedule_prepped(napi)
#define __napi_schedule_irqoff(napi)		irqkit_napi_schedule_prepped_irqoff(napi)
#define napi_schedule(napi)			irqkit_napi_schedule(napi)
#define napi_schedule_irqoff(napi)		irqkit_napi_schedule_irqoff(napi)
#define napi_if_scheduled_mark_missed(napi)	irqkit_napi_if_scheduled_mark_missed(napi)
#define napi_complete_done(napi, work)		irqkit_napi_complete_done((napi), (work))
#define napi_complete(napi)			irqkit_napi_complete(napi)
#define napi_disable_pending(napi)		irqkit_napi_disable_pending(napi)
#define napi_is_scheduled(napi)			irqkit_napi_is_scheduled(napi)

#endif
