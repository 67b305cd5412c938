/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/irqdomain.h> over irqkit: hwirq-to-line maps of
 * controllers, linear, tree, legacy and hierarchical.  There is no device
 * tree or ACPI: a controller is named by a named fwnode
 * (irq_domain_alloc_named_fwnode), and the forms that take a device_node
 * accept and ignore one.
 */
#ifndef IRQKIT_COMPAT_LINUX_IRQDOMAIN_H
#define IRQKIT_COMPAT_LINUX_IRQDOMAIN_H

#include <irqkit/irqdomain.h>
#include <linux/irq.h>
#include <linux/nodemask.h>

typedef irqkit_hwirq_t			irq_hw_number_t;
#define irq_domain			irqkit_irq_domain
#define irq_domain_ops			irqkit_irq_domain_ops
#define irq_fwspec			irqkit_irq_fwspec
#define fwnode_handle			irqkit_fwnode
#define IRQ_DOMAIN_FLAG_HIERARCHY	IRQKIT_DOMAIN_FLAG_HIERARCHY
#define IRQ_DOMAIN_IRQ_SPEC_PARAMS	IRQKIT_FWSPEC_PARAMS

/* node, of_node: one memory node and no device tree here */
#define irq_domain_create_linear(fwnode, size, ops, data) \
	irqkit_irq_domain_create_linear((fwnode), (size), (ops), (data))
#define irq_domain_create_tree(fwnode, ops, data) \
	irqkit_irq_domain_create_tree((fwnode), (ops), (data))
#define irq_domain_create_legacy(fwnode, size, first_irq, first_hwirq, ops, data) \
	irqkit_irq_domain_create_legacy((fwnode), (size), (first_irq), (first_hwirq), (ops), (data))
#define irq_domain_create_simple(fwnode, size, first_irq, ops, data) \
	irqkit_irq_domain_create_simple((fwnode), (size), (first_irq), (ops), (data))
#define irq_domain_create_hierarchy(parent, flags, size, fwnode, ops, data) \
	irqkit_irq_domain_create_hierarchy((parent), (flags), (size), (fwnode), (ops), (data))
/* the older names, with a device_node (ignored: NULL in practice here) */
#define irq_domain_add_linear(of_node, size, ops, data) \
	((void)(of_node), irqkit_irq_domain_create_linear(NULL, (size), (ops), (data)))
#define irq_domain_add_tree(of_node, ops, data) \
	((void)(of_node), irqkit_irq_domain_create_tree(NULL, (ops), (data)))
#define irq_domain_add_legacy(of_node, size, first_irq, first_hwirq, ops, data) \
	((void)(of_node), irqkit_irq_domain_create_legacy(NULL, (size), (first_irq), \
							  (first_hwirq), (ops), (data)))
#define irq_domain_add_simple(of_node, size, first_irq, ops, data) \
	((void)(of_node), irqkit_irq_domain_create_simple(NULL, (size), (first_irq), (ops), (data)))
#define irq_domain_remove(d)			irqkit_irq_domain_remove(d)
#define irq_set_default_host(d)			irqkit_irq_set_default_host(d)
#define irq_get_default_host()			irqkit_irq_get_default_host()
#define irq_domain_alloc_named_fwnode(name)	irqkit_irq_domain_alloc_named_fwnode(name)
#define irq_domain_free_fwnode(fwnode)		irqkit_irq_domain_free_fwnode(fwnode)
#define irq_find_matching_fwnode(fwnode, bus)	((void)(bus), irqkit_irq_find_matching_fwnode(fwnode))
#define DOMAIN_BUS_ANY				0

#define irq_create_mapping(d, hwirq)		irqkit_irq_create_mapping_affinity((d), (hwirq), NULL)
#define irq_create_mapping_affinity(d, hwirq, affinity) \
	irqkit_irq_create_mapping_affinity((d), (hwirq), (affinity))
#define irq_create_fwspec_mapping(fwspec)	irqkit_irq_create_fwspec_mapping(fwspec)
#define irq_domain_associate(d, virq, hwirq)	irqkit_irq_domain_associate((d), (virq), (hwirq))
#define irq_find_mapping(d, hwirq)		irqkit_irq_find_mapping((d), (hwirq))
#define irq_dispose_mapping(virq)		irqkit_irq_dispose_mapping(virq)
#define generic_handle_domain_irq(d, hwirq)	irqkit_generic_handle_domain_irq((d), (hwirq))
#define irq_domain_alloc_descs(virq, cnt, hwirq, node, affinity) \
	((void)(node), irqkit_irq_domain_alloc_descs((virq), (cnt), (hwirq), (affinity)))

static inline void irq_domain_associate_many(struct irqkit_irq_domain *d, unsigned int irq_base,
					     irq_hw_number_t hwirq_base, int count)
{
	for (int i = 0; i < count; i++)
		(void)irqkit_irq_domain_associate(d, irq_base + (unsigned int)i,
						  hwirq_base + (irq_hw_number_t)i);
}

/* hierarchy */
#define irq_domain_is_hierarchy(d)	(!!((d)->flags & IRQKIT_DOMAIN_FLAG_HIERARCHY))
#define irq_domain_alloc_irqs(d, nr, node, arg) \
	((void)(node), irqkit_irq_domain_alloc_irqs((d), (nr), (arg)))
#define irq_domain_free_irqs(virq, nr)		irqkit_irq_domain_free_irqs((virq), (nr))
#define irq_domain_alloc_irqs_parent(d, virq, nr, arg) \
	irqkit_irq_domain_alloc_irqs_parent((d), (virq), (nr), (arg))
#define irq_domain_free_irqs_parent(d, virq, nr) irqkit_irq_domain_free_irqs_parent((d), (virq), (nr))
#define irq_domain_free_irqs_common(d, virq, nr) irqkit_irq_domain_free_irqs_common((d), (virq), (nr))
#define irq_domain_get_irq_data(d, virq)	irqkit_irq_domain_get_irq_data((d), (virq))
#define irq_domain_set_hwirq_and_chip(d, virq, hwirq, chip, chip_data) \
	irqkit_irq_domain_set_hwirq_and_chip((d), (virq), (hwirq), (chip), (chip_data))
#define irq_domain_set_info(d, virq, hwirq, chip, chip_data, handler, handler_data, name) \
	irqkit_irq_domain_set_info((d), (virq), (hwirq), (chip), (chip_data), (handler), \
				   (handler_data), (name))
#define irq_domain_reset_irq_data(irqd)		irqkit_irq_domain_reset_irq_data(irqd)

#endif
