/* SPDX-License-Identifier: MIT */
/*
 * Devices and their managed resources (Linux's devres, <linux/device.h>):
 * the minimal device model a driver's managed calls need.  A program makes
 * a device (irqkit_device_initialize(), what the driver core does before a
 * probe), the driver attaches resources to it -- memory, actions, interrupt
 * lines (devm_request_irq) -- and irqkit_devres_release_all(), what the
 * driver core does when the driver is unbound or its probe fails, releases
 * them all, newest first.  A managed line is freed with free_irq(), which
 * waits for its handlers (synchronize_irq) before the resources added
 * before it, such as the memory its handler uses, are released.
 *
 * No bus, driver, power management or sysfs: a device is a name and its
 * resource list.
 */
#ifndef IRQKIT_DEVICE_H
#define IRQKIT_DEVICE_H

#include <irqkit/types.h>
#include <irqkit/spinlock.h>

#ifdef __cplusplus
extern "C" {
#endif

struct irqkit_devres;

struct irqkit_device {
	char			name[32];	/* dev_name() */
	unsigned int		magic;		/* set by irqkit_device_initialize() */
	struct irqkit_spinlock	devres_lock;
	struct irqkit_devres	*devres_head;	/* newest first */
	void			*driver_data;	/* dev_get_drvdata() */
};

/* Linux's dr_release_t and dr_match_t. */
typedef void (*irqkit_dr_release_t)(struct irqkit_device *dev, void *res);
typedef int (*irqkit_dr_match_t)(struct irqkit_device *dev, void *res, void *match_data);

/**
 * irqkit_device_initialize - make @dev a device named by @fmt, with no
 * resources (Linux's device_initialize() and dev_set_name()).
 * Context: any.
 */
IRQKIT_API void irqkit_device_initialize(struct irqkit_device *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** irqkit_dev_set_name - name @dev by @fmt (Linux's dev_set_name(); cut at 31 bytes). */
IRQKIT_API void irqkit_dev_set_name(struct irqkit_device *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** irqkit_dev_name - the device's name ("" for NULL).  Context: any. */
IRQKIT_API const char *irqkit_dev_name(const struct irqkit_device *dev);

/**
 * irqkit_devres_release_all - release every managed resource of @dev,
 * newest first (what the driver core does at unbind or a failed probe)
 * Context: process context; the releases may sleep (free_irq does).
 * Return: how many were released; -ENODEV for a device never initialised
 * (reported, as Linux's WARN_ON).
 */
IRQKIT_API int irqkit_devres_release_all(struct irqkit_device *dev);

/*
 * Managed resources of a driver's own (Linux's devres_alloc() family): a
 * block of @size bytes whose @release runs when the device releases it.
 */
/** irqkit_devres_alloc - a resource not yet added, zeroed; NULL when memory runs out. */
IRQKIT_API void *irqkit_devres_alloc(irqkit_dr_release_t release, size_t size, unsigned int gfp);
/** irqkit_devres_free - free a resource that was never added. */
IRQKIT_API void irqkit_devres_free(void *res);
/** irqkit_devres_add - add @res to @dev's list (reported and ignored for a bad device). */
IRQKIT_API void irqkit_devres_add(struct irqkit_device *dev, void *res);
/**
 * irqkit_devres_find - the newest resource of @dev with @release for which
 * @match (NULL: any) says yes, or NULL.
 */
IRQKIT_API void *irqkit_devres_find(struct irqkit_device *dev, irqkit_dr_release_t release,
				    irqkit_dr_match_t match, void *match_data);
/**
 * irqkit_devres_destroy - take that resource off the list and free it
 * without releasing it.  Return: 0; -ENOENT when there is none.
 */
IRQKIT_API int irqkit_devres_destroy(struct irqkit_device *dev, irqkit_dr_release_t release,
				     irqkit_dr_match_t match, void *match_data);
/** irqkit_devres_release - the same, but release it first.  Return: 0 or -ENOENT. */
IRQKIT_API int irqkit_devres_release(struct irqkit_device *dev, irqkit_dr_release_t release,
				     irqkit_dr_match_t match, void *match_data);

/**
 * irqkit_devm_kmalloc - @size bytes that live as long as the driver is
 * bound to @dev (Linux's devm_kmalloc(); devm_kzalloc() with __GFP_ZERO).
 * Return: the memory, or NULL.  Context: as kmalloc with @gfp.
 */
IRQKIT_API void *irqkit_devm_kmalloc(struct irqkit_device *dev, size_t size, unsigned int gfp);
/** irqkit_devm_kfree - free managed memory early; memory @dev does not own is reported. */
IRQKIT_API void irqkit_devm_kfree(struct irqkit_device *dev, const void *p);

/**
 * irqkit_devm_add_action - have @action(@data) run when @dev's resources
 * are released.  Return: 0 or -ENOMEM.
 */
IRQKIT_API int irqkit_devm_add_action(struct irqkit_device *dev, void (*action)(void *),
				      void *data);
/** irqkit_devm_add_action_or_reset - the same; when it fails, @action(@data) runs at once. */
IRQKIT_API int irqkit_devm_add_action_or_reset(struct irqkit_device *dev, void (*action)(void *),
					       void *data);
/** irqkit_devm_remove_action - forget the action without running it (reported when absent). */
IRQKIT_API void irqkit_devm_remove_action(struct irqkit_device *dev, void (*action)(void *),
					  void *data);
/** irqkit_devm_release_action - run the action now and forget it (reported when absent). */
IRQKIT_API void irqkit_devm_release_action(struct irqkit_device *dev, void (*action)(void *),
					   void *data);

/**
 * irqkit_devm_request_threaded_irq - irqkit_request_threaded_irq() for the
 * driver bound to @dev: the line is freed when @dev's resources are
 * released.  A NULL @devname is dev_name(@dev).
 * Context: process context; may sleep.
 * Return: as irqkit_request_threaded_irq(); -EINVAL for a bad device,
 * -ENOMEM.  On failure nothing is added to @dev.
 */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_devm_request_threaded_irq(struct irqkit_device *dev,
								  unsigned int irq,
								  irqkit_handler_fn handler,
								  irqkit_handler_fn thread_fn,
								  unsigned long flags,
								  const char *devname,
								  void *dev_id);

/** irqkit_devm_request_irq - the same with no thread function. */
IRQKIT_API IRQKIT_MUST_CHECK int irqkit_devm_request_irq(struct irqkit_device *dev, unsigned int irq,
							 irqkit_handler_fn handler,
							 unsigned long flags, const char *devname,
							 void *dev_id);

/**
 * irqkit_devm_request_any_context_irq - irqkit_request_any_context_irq()
 * for the driver bound to @dev.  Return: as that, and as above.
 */
IRQKIT_API int irqkit_devm_request_any_context_irq(struct irqkit_device *dev, unsigned int irq,
						   irqkit_handler_fn handler, unsigned long flags,
						   const char *devname, void *dev_id);

/**
 * irqkit_devm_free_irq - free a managed line early.  As Linux's: a line
 * @dev does not hold under @dev_id is reported ("WARNING") and then freed
 * all the same, if it is requested.
 * Context: process context; may sleep.
 */
IRQKIT_API void irqkit_devm_free_irq(struct irqkit_device *dev, unsigned int irq, void *dev_id);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_DEVICE_H */
