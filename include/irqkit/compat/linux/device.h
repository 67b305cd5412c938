/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/device.h> over irqkit, the part a driver's managed calls
 * need (<irqkit/device.h>): struct device, its name and driver data, and
 * the devres family -- devm_kzalloc, devm_add_action, and, from
 * <linux/interrupt.h>, devm_request_irq -- from 2.6.21, where devres began.  A program makes the device with
 * device_initialize() and dev_set_name(), as the driver core does before a
 * probe, and releases its resources with devres_release_all(), as the
 * driver core does at unbind.  Not here: buses, drivers, sysfs, and the
 * devres_alloc() family for a driver's own resource types.
 */
#ifndef IRQKIT_COMPAT_LINUX_DEVICE_H
#define IRQKIT_COMPAT_LINUX_DEVICE_H

#include <irqkit/device.h>
#include <linux/gfp.h>
#include <linux/interrupt.h>	/* devm_request_irq and devm_free_irq, as Linux declares them */
#include <linux/version.h>

struct device {
	struct irqkit_device	irqkit;	/* the native device: first, so IRQKIT__DEV() holds */
};

#define irqkit__dev(dev)		IRQKIT__DEV(dev)

#define device_initialize(dev)		irqkit_device_initialize(irqkit__dev(dev), (const char *)0)
#define dev_set_name(dev, ...)		irqkit_dev_set_name(irqkit__dev(dev), __VA_ARGS__)
#define dev_name(dev)			irqkit_dev_name(irqkit__dev(dev))
#define dev_get_drvdata(dev)		((dev)->irqkit.driver_data)
#define dev_set_drvdata(dev, data)	((void)((dev)->irqkit.driver_data = (data)))

#define IRQKIT__NEEDS_2_6_21(what)	what " needs Linux 2.6.21 (devres); this build is for an older kernel"
#if IRQKIT_LINUX_AT_LEAST(2, 6, 21)
#define devres_release_all(dev)		irqkit_devres_release_all(irqkit__dev(dev))
#define devm_kzalloc(dev, size, gfp)	irqkit_devm_kmalloc(irqkit__dev(dev), (size), (gfp) | __GFP_ZERO)
#define devm_kcalloc(dev, n, size, gfp)						\
	((size) && (size_t)(n) > (size_t)-1 / (size) ? (void *)0 :			\
	 irqkit_devm_kmalloc(irqkit__dev(dev), (size_t)(n) * (size), (gfp) | __GFP_ZERO))
#define devm_kfree(dev, p)		irqkit_devm_kfree(irqkit__dev(dev), (p))
#define devm_kmalloc(dev, size, gfp)	irqkit_devm_kmalloc(irqkit__dev(dev), (size), (gfp))
#define devm_add_action(dev, action, data)					\
	irqkit_devm_add_action(irqkit__dev(dev), (action), (data))
#define devm_add_action_or_reset(dev, action, data)				\
	irqkit_devm_add_action_or_reset(irqkit__dev(dev), (action), (data))
#define devm_remove_action(dev, action, data)					\
	irqkit_devm_remove_action(irqkit__dev(dev), (action), (data))
#define devm_release_action(dev, action, data)					\
	irqkit_devm_release_action(irqkit__dev(dev), (action), (data))
#else
#define devres_release_all(dev)		IRQKIT_ERA_ERROR(IRQKIT__NEEDS_2_6_21("devres_release_all"))
#define devm_kzalloc(dev, size, gfp)	IRQKIT_ERA_ERROR(IRQKIT__NEEDS_2_6_21("devm_kzalloc"))
#endif

#endif
