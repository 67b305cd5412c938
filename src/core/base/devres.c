// SPDX-License-Identifier: MIT
/*
 * Managed device resources (Linux's drivers/base/devres.c): each device
 * keeps a list of resources, newest first; releasing the device runs their
 * release functions in that order, so what was set up last is torn down
 * first.  Memory, actions and (irq/devres.c) interrupt lines are such
 * resources.  The list is under the device's spinlock; a release function
 * runs with no lock held, in process context.
 */
#include "core.h"
#include "base.h"

#include <irqkit/device.h>
#include <irqkit/kernel.h>

#include <stdarg.h>

#define DEVICE_MAGIC	0x64657673u	/* "devs" */

struct irqkit_devres {
	struct irqkit_devres	*next;
	irqkit_dr_release_t	release;
	size_t			size;		/* of data[] */
	unsigned char		data[] __attribute__((aligned(16)));
};

static struct irqkit_devres *node_of(void *res)
{
	return (struct irqkit_devres *)((unsigned char *)res - offsetof(struct irqkit_devres, data));
}

/* @dev is a device irqkit_device_initialize() made; else say so, as Linux's WARN_ON. */
bool irqkit__device_ok(struct irqkit_device *dev, const char *what)
{
	if (dev && dev->magic == DEVICE_MAGIC)
		return true;
	WARN(1, "%s: %s device", what, dev ? "an uninitialised" : "a NULL");
	return false;
}

void irqkit_device_initialize(struct irqkit_device *dev, const char *fmt, ...)
{
	va_list ap;

	if (!dev)
		return;
	irqkit_spin_lock_init(&dev->devres_lock);
	dev->devres_head = NULL;
	dev->driver_data = NULL;
	dev->name[0] = '\0';
	if (fmt) {
		va_start(ap, fmt);
		irqkit__vsnprintf(dev->name, sizeof(dev->name), fmt, ap);
		va_end(ap);
	}
	dev->magic = DEVICE_MAGIC;
}

void irqkit_dev_set_name(struct irqkit_device *dev, const char *fmt, ...)
{
	va_list ap;

	if (!dev || !fmt)
		return;
	va_start(ap, fmt);
	irqkit__vsnprintf(dev->name, sizeof(dev->name), fmt, ap);
	va_end(ap);
}

const char *irqkit_dev_name(const struct irqkit_device *dev)
{
	return dev ? dev->name : "";
}

void *irqkit_devres_alloc(irqkit_dr_release_t release, size_t size, unsigned int gfp)
{
	struct irqkit_devres *dr;

	if (size > (size_t)-1 - sizeof(*dr))
		return NULL;
	dr = irqkit_kmalloc(sizeof(*dr) + size, gfp | IRQKIT___GFP_ZERO);
	if (!dr)
		return NULL;
	dr->release = release;
	dr->size = size;
	return dr->data;
}

void irqkit_devres_free(void *res)
{
	if (res)
		irqkit_kfree(node_of(res));
}

void irqkit_devres_add(struct irqkit_device *dev, void *res)
{
	struct irqkit_devres *dr;
	unsigned long flags;

	if (!res || !irqkit__device_ok(dev, "devres_add"))
		return;
	dr = node_of(res);
	flags = irqkit_spin_lock_irqsave(&dev->devres_lock);
	dr->next = dev->devres_head;
	dev->devres_head = dr;
	irqkit_spin_unlock_irqrestore(&dev->devres_lock, flags);
}

/* The link to the newest matching resource, or NULL; caller: devres_lock. */
static struct irqkit_devres **find_locked(struct irqkit_device *dev, irqkit_dr_release_t release,
					  irqkit_dr_match_t match, void *match_data)
{
	for (struct irqkit_devres **pp = &dev->devres_head; *pp; pp = &(*pp)->next)
		if ((*pp)->release == release && (!match || match(dev, (*pp)->data, match_data)))
			return pp;
	return NULL;
}

void *irqkit_devres_find(struct irqkit_device *dev, irqkit_dr_release_t release,
			 irqkit_dr_match_t match, void *match_data)
{
	struct irqkit_devres **pp;
	unsigned long flags;
	void *res = NULL;

	if (!irqkit__device_ok(dev, "devres_find"))
		return NULL;
	flags = irqkit_spin_lock_irqsave(&dev->devres_lock);
	pp = find_locked(dev, release, match, match_data);
	if (pp)
		res = (*pp)->data;
	irqkit_spin_unlock_irqrestore(&dev->devres_lock, flags);
	return res;
}

/* Take the matching resource off the list; NULL when there is none. */
static struct irqkit_devres *unlink(struct irqkit_device *dev, irqkit_dr_release_t release,
				    irqkit_dr_match_t match, void *match_data)
{
	struct irqkit_devres **pp, *dr = NULL;
	unsigned long flags;

	if (!irqkit__device_ok(dev, "devres_remove"))
		return NULL;
	flags = irqkit_spin_lock_irqsave(&dev->devres_lock);
	pp = find_locked(dev, release, match, match_data);
	if (pp) {
		dr = *pp;
		*pp = dr->next;
	}
	irqkit_spin_unlock_irqrestore(&dev->devres_lock, flags);
	return dr;
}

int irqkit_devres_destroy(struct irqkit_device *dev, irqkit_dr_release_t release,
			  irqkit_dr_match_t match, void *match_data)
{
	struct irqkit_devres *dr = unlink(dev, release, match, match_data);

	if (!dr)
		return -IRQKIT_ENOENT;
	irqkit_kfree(dr);
	return 0;
}

int irqkit_devres_release(struct irqkit_device *dev, irqkit_dr_release_t release,
			  irqkit_dr_match_t match, void *match_data)
{
	struct irqkit_devres *dr = unlink(dev, release, match, match_data);

	if (!dr)
		return -IRQKIT_ENOENT;
	dr->release(dev, dr->data);
	irqkit_kfree(dr);
	return 0;
}

int irqkit_devres_release_all(struct irqkit_device *dev)
{
	struct irqkit_devres *list, *dr;
	unsigned long flags;
	int n = 0;

	if (!irqkit__device_ok(dev, "devres_release_all"))
		return -IRQKIT_ENODEV;
	might_sleep();
	/* the whole list at once: what a release adds meanwhile waits for the next */
	flags = irqkit_spin_lock_irqsave(&dev->devres_lock);
	list = dev->devres_head;
	dev->devres_head = NULL;
	irqkit_spin_unlock_irqrestore(&dev->devres_lock, flags);
	while ((dr = list)) {
		list = dr->next;
		if (dr->release)
			dr->release(dev, dr->data);
		irqkit_kfree(dr);
		n++;
	}
	return n;
}

/* ---- memory -------------------------------------------------------------------- */

/* Managed memory's release: the memory is the resource itself, freed with it. */
static void devm_kmalloc_release(struct irqkit_device *dev, void *res)
{
	(void)dev;
	(void)res;
}

static int devm_kmalloc_match(struct irqkit_device *dev, void *res, void *data)
{
	(void)dev;
	return res == data;
}

void *irqkit_devm_kmalloc(struct irqkit_device *dev, size_t size, unsigned int gfp)
{
	void *p;

	if (!irqkit__device_ok(dev, "devm_kmalloc"))
		return NULL;
	p = irqkit_devres_alloc(devm_kmalloc_release, size, gfp);
	if (p)
		irqkit_devres_add(dev, p);
	return p;
}

void irqkit_devm_kfree(struct irqkit_device *dev, const void *p)
{
	if (!p)
		return;
	WARN(irqkit_devres_destroy(dev, devm_kmalloc_release, devm_kmalloc_match, (void *)p),
	     "devm_kfree: %p is not memory of device %s", p, irqkit_dev_name(dev));
}

/* ---- actions -------------------------------------------------------------------- */

struct action_devres {
	void	*data;
	void	(*action)(void *);
};

static void devm_action_release(struct irqkit_device *dev, void *res)
{
	struct action_devres *a = res;

	(void)dev;
	a->action(a->data);
}

static int devm_action_match(struct irqkit_device *dev, void *res, void *p)
{
	struct action_devres *a = res, *want = p;

	(void)dev;
	return a->action == want->action && a->data == want->data;
}

int irqkit_devm_add_action(struct irqkit_device *dev, void (*action)(void *), void *data)
{
	struct action_devres *a;

	if (!irqkit__device_ok(dev, "devm_add_action") || !action)
		return -IRQKIT_EINVAL;
	a = irqkit_devres_alloc(devm_action_release, sizeof(*a), IRQKIT_GFP_KERNEL);
	if (!a)
		return -IRQKIT_ENOMEM;
	a->data = data;
	a->action = action;
	irqkit_devres_add(dev, a);
	return 0;
}

int irqkit_devm_add_action_or_reset(struct irqkit_device *dev, void (*action)(void *), void *data)
{
	int ret = irqkit_devm_add_action(dev, action, data);

	if (ret && action)
		action(data);
	return ret;
}

void irqkit_devm_remove_action(struct irqkit_device *dev, void (*action)(void *), void *data)
{
	struct action_devres want = { .data = data, .action = action };

	WARN(irqkit_devres_destroy(dev, devm_action_release, devm_action_match, &want),
	     "devm_remove_action: device %s has no such action", irqkit_dev_name(dev));
}

void irqkit_devm_release_action(struct irqkit_device *dev, void (*action)(void *), void *data)
{
	struct action_devres want = { .data = data, .action = action };

	WARN(irqkit_devres_release(dev, devm_action_release, devm_action_match, &want),
	     "devm_release_action: device %s has no such action", irqkit_dev_name(dev));
}
