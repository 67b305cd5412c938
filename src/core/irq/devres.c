// SPDX-License-Identifier: MIT
/*
 * Managed interrupt lines (Linux's kernel/irq/devres.c): a line requested
 * for a device is one of its resources, freed with free_irq() -- which
 * waits for the line's handlers -- when the device's resources are
 * released, before anything the driver set up earlier goes.
 */
#include "core.h"
#include "base/base.h"

#include <irqkit/device.h>
#include <irqkit/kernel.h>

struct irq_devres {
	unsigned int	irq;
	void		*dev_id;
};

static void devm_irq_release(struct irqkit_device *dev, void *res)
{
	struct irq_devres *this = res;

	(void)dev;
	irqkit_free_irq(this->irq, this->dev_id);
}

static int devm_irq_match(struct irqkit_device *dev, void *res, void *data)
{
	struct irq_devres *this = res, *match = data;

	(void)dev;
	return this->irq == match->irq && this->dev_id == match->dev_id;
}

/* A managed request's resource, made before the request; NULL and *@ret when it cannot be. */
static struct irq_devres *devm_irq_prepare(struct irqkit_device *dev, const char *what, int *ret)
{
	struct irq_devres *dr;

	if (!irqkit__device_ok(dev, what)) {
		*ret = -IRQKIT_EINVAL;
		return NULL;
	}
	dr = irqkit_devres_alloc(devm_irq_release, sizeof(*dr), IRQKIT_GFP_KERNEL);
	if (!dr)
		*ret = -IRQKIT_ENOMEM;
	return dr;
}

/* The request returned @ret: on success @dr joins @dev, else it goes and the failure is said. */
static int devm_irq_commit(struct irqkit_device *dev, struct irq_devres *dr, unsigned int irq,
			   void *dev_id, const char *devname, bool threaded, int ret)
{
	if (ret < 0) {
		irqkit_devres_free(dr);
		/* current Linux says so itself (dev_err_probe), sparing every driver its message */
		pr_err("%s: failed to request %sinterrupt %u (%s): %d", irqkit_dev_name(dev),
		       threaded ? "threaded " : "", irq, devname, ret);
		return ret;
	}
	dr->irq = irq;
	dr->dev_id = dev_id;
	irqkit_devres_add(dev, dr);
	return ret;
}

int irqkit_devm_request_threaded_irq(struct irqkit_device *dev, unsigned int irq,
				     irqkit_handler_fn handler, irqkit_handler_fn thread_fn,
				     unsigned long flags, const char *devname, void *dev_id)
{
	int ret = 0;
	struct irq_devres *dr = devm_irq_prepare(dev, "devm_request_threaded_irq", &ret);

	if (!dr)
		return ret;
	if (!devname)
		devname = irqkit_dev_name(dev);
	ret = irqkit_request_threaded_irq(irq, handler, thread_fn, flags, devname, dev_id);
	return devm_irq_commit(dev, dr, irq, dev_id, devname, thread_fn != NULL, ret);
}

int irqkit_devm_request_irq(struct irqkit_device *dev, unsigned int irq, irqkit_handler_fn handler,
			    unsigned long flags, const char *devname, void *dev_id)
{
	return irqkit_devm_request_threaded_irq(dev, irq, handler, NULL, flags, devname, dev_id);
}

int irqkit_devm_request_any_context_irq(struct irqkit_device *dev, unsigned int irq,
					irqkit_handler_fn handler, unsigned long flags,
					const char *devname, void *dev_id)
{
	int ret = 0;
	struct irq_devres *dr = devm_irq_prepare(dev, "devm_request_any_context_irq", &ret);

	if (!dr)
		return ret;
	if (!devname)
		devname = irqkit_dev_name(dev);
	ret = irqkit_request_any_context_irq(irq, handler, flags, devname, dev_id);
	return devm_irq_commit(dev, dr, irq, dev_id, devname, false, ret);
}

void irqkit_devm_free_irq(struct irqkit_device *dev, unsigned int irq, void *dev_id)
{
	struct irq_devres match = { irq, dev_id };

	if (irqkit__device_ok(dev, "devm_free_irq"))
		WARN(irqkit_devres_destroy(dev, devm_irq_release, devm_irq_match, &match),
		     "devm_free_irq: irq %u (dev_id %p) is not a managed line of device %s", irq,
		     dev_id, irqkit_dev_name(dev));
	irqkit_free_irq(irq, dev_id);		/* all the same, as Linux */
}
