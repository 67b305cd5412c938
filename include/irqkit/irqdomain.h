/* SPDX-License-Identifier: MIT */
/*
 * Interrupt domains (Linux's <linux/irqdomain.h>): a controller numbers its
 * inputs its own way (hwirq); a domain maps them to lines of the runtime
 * (virq), as every Linux irqchip driver since 2.6.37 gets its lines.
 *
 *  - linear: a table of @size hwirqs (small controllers); tree: any hwirq
 *    (sparse numbers); legacy and simple: hwirqs mapped to lines fixed in
 *    advance.  irqkit_irq_create_mapping() gives a hwirq a line and calls
 *    the domain's map(); irqkit_irq_find_mapping() reads it back, from any
 *    context, a chained handler's included.
 *  - hierarchy: a domain stacked on a parent (a GPIO controller on an
 *    interrupt controller); each line has one irq_data per level, linked by
 *    parent_data, allocated by the domains' alloc() from the top down
 *    (irqkit_irq_domain_alloc_irqs()); a level's chip reaches its parent's
 *    through the irqkit_irq_chip_*_parent() helpers.
 *
 * Domains are made, mapped and removed in process context.  A domain with
 * lines still mapped is not removed (logged): its lines would point at
 * freed memory.
 */
#ifndef IRQKIT_IRQDOMAIN_H
#define IRQKIT_IRQDOMAIN_H

#include <irqkit/irqdesc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A controller's own number for one of its inputs (Linux's irq_hw_number_t). */
typedef unsigned long irqkit_hwirq_t;

/*
 * struct irqkit_fwnode - what names a controller to the code that looks for
 * its domain (Linux's struct fwnode_handle, the named kind only: there is
 * no device tree or ACPI here).
 */
struct irqkit_fwnode {
	const char	*name;
};

/* An interrupt as a consumer describes it: its controller and parameters. */
#define IRQKIT_FWSPEC_PARAMS	16
struct irqkit_irq_fwspec {
	struct irqkit_fwnode	*fwnode;
	int			param_count;
	uint32_t		param[IRQKIT_FWSPEC_PARAMS];
};

struct irqkit_irq_domain;

/* Linux's struct irq_domain_ops; every operation is optional. */
struct irqkit_irq_domain_ops {
	/* a line was given @hw: set its chip, flow and data (irq_set_chip_and_handler ...) */
	int	(*map)(struct irqkit_irq_domain *d, unsigned int virq, irqkit_hwirq_t hw);
	void	(*unmap)(struct irqkit_irq_domain *d, unsigned int virq);
	/* hierarchy: set up @nr_irqs lines from @virq at this level, then the parent's */
	int	(*alloc)(struct irqkit_irq_domain *d, unsigned int virq, unsigned int nr_irqs,
			 void *arg);
	void	(*free)(struct irqkit_irq_domain *d, unsigned int virq, unsigned int nr_irqs);
	/* hierarchy: the line is requested (its resources) and released */
	int	(*activate)(struct irqkit_irq_domain *d, struct irqkit_irq_data *irqd,
			    bool reserve);
	void	(*deactivate)(struct irqkit_irq_domain *d, struct irqkit_irq_data *irqd);
	/* a consumer's description -> hwirq and trigger type */
	int	(*translate)(struct irqkit_irq_domain *d, struct irqkit_irq_fwspec *fwspec,
			     irqkit_hwirq_t *out_hwirq, unsigned int *out_type);
};

#define IRQKIT_DOMAIN_FLAG_HIERARCHY	(1u << 0)

/*
 * struct irqkit_irq_domain - Linux's struct irq_domain.  Public for the
 * fields an ops function reads (@host_data, @name, @parent, @hwirq_max,
 * @mapcount); the rest is the core's.
 */
struct irqkit_irq_domain {
	const char				*name;
	const struct irqkit_irq_domain_ops	*ops;
	void					*host_data;
	unsigned int				flags;
	unsigned int				mapcount;	/* lines mapped */
	struct irqkit_fwnode			*fwnode;
	struct irqkit_irq_domain		*parent;
	irqkit_hwirq_t				hwirq_max;	/* hwirqs below it */
	/* the core's */
	struct irqkit_irq_domain		*next;		/* the list of domains */
	struct irqkit_spinlock			revmap_lock;	/* the maps below */
	unsigned int				revmap_size;	/* linear: revmap[hwirq] */
	unsigned int				*revmap;
	unsigned int				tree_nr, tree_cap; /* tree: sorted by hwirq */
	struct irqkit__domain_pair		*tree;
	char					name_buf[32];
};

/**
 * irqkit_irq_domain_create_linear - a domain of @size hwirqs (0 .. @size - 1)
 * (Linux's irq_domain_create_linear).  @fwnode may be NULL; its name is the
 * domain's.  Return: the domain or NULL (bad argument, no memory).
 */
IRQKIT_API struct irqkit_irq_domain *
irqkit_irq_domain_create_linear(struct irqkit_fwnode *fwnode, unsigned int size,
				const struct irqkit_irq_domain_ops *ops, void *host_data);
/** irqkit_irq_domain_create_tree - a domain of any hwirq (Linux's irq_domain_create_tree). */
IRQKIT_API struct irqkit_irq_domain *
irqkit_irq_domain_create_tree(struct irqkit_fwnode *fwnode,
			      const struct irqkit_irq_domain_ops *ops, void *host_data);
/**
 * irqkit_irq_domain_create_legacy - @size hwirqs from @first_hwirq mapped at
 * once to lines from @first_irq (Linux's irq_domain_create_legacy); the
 * lines must be free.  Return: the domain or NULL.
 */
IRQKIT_API struct irqkit_irq_domain *
irqkit_irq_domain_create_legacy(struct irqkit_fwnode *fwnode, unsigned int size,
				unsigned int first_irq, irqkit_hwirq_t first_hwirq,
				const struct irqkit_irq_domain_ops *ops, void *host_data);
/**
 * irqkit_irq_domain_create_simple - a linear domain; with @first_irq > 0 its
 * @size hwirqs are mapped at once to lines from @first_irq (Linux's
 * irq_domain_create_simple).  Return: the domain or NULL.
 */
IRQKIT_API struct irqkit_irq_domain *
irqkit_irq_domain_create_simple(struct irqkit_fwnode *fwnode, unsigned int size,
				unsigned int first_irq,
				const struct irqkit_irq_domain_ops *ops, void *host_data);
/**
 * irqkit_irq_domain_create_hierarchy - a domain stacked on @parent, linear
 * of @size hwirqs or a tree with @size 0 (Linux's
 * irq_domain_create_hierarchy).  Return: the domain or NULL.
 */
IRQKIT_API struct irqkit_irq_domain *
irqkit_irq_domain_create_hierarchy(struct irqkit_irq_domain *parent, unsigned int flags,
				   unsigned int size, struct irqkit_fwnode *fwnode,
				   const struct irqkit_irq_domain_ops *ops, void *host_data);
/**
 * irqkit_irq_domain_remove - forget a domain with no line mapped.  One
 * with lines still mapped, or a parent of another domain, is kept and
 * the fact logged.  Context: process context.
 */
IRQKIT_API void irqkit_irq_domain_remove(struct irqkit_irq_domain *domain);

/** irqkit_irq_set_default_host - the domain irqkit_irq_create_mapping(NULL, ...) uses. */
IRQKIT_API void irqkit_irq_set_default_host(struct irqkit_irq_domain *domain);
IRQKIT_API struct irqkit_irq_domain *irqkit_irq_get_default_host(void);

/**
 * irqkit_irq_create_mapping - the line of @hwirq, made if there is none
 * (a free line, the domain's map() called) (Linux's irq_create_mapping).
 * @domain: NULL for the default host.  @affd: NULL, or the line's affinity.
 * Return: the line, or 0 (no domain, a hwirq past the domain's size: logged
 * as Linux's "hwirq is too large", no free line, map() failed).
 * Context: process context.
 */
IRQKIT_API unsigned int irqkit_irq_create_mapping_affinity(struct irqkit_irq_domain *domain,
							   irqkit_hwirq_t hwirq,
							   const struct irqkit_irq_affinity_desc *affd);
/**
 * irqkit_irq_domain_associate - map @hwirq to the line @virq, already
 * allocated (Linux's irq_domain_associate).  Return: 0; -EINVAL (hwirq past
 * the size, line mapped elsewhere or out of range); -EEXIST (hwirq mapped);
 * map()'s error.
 */
IRQKIT_API int irqkit_irq_domain_associate(struct irqkit_irq_domain *domain, unsigned int virq,
					   irqkit_hwirq_t hwirq);
/**
 * irqkit_irq_find_mapping - the line of @hwirq, or 0 (Linux's irq_find_mapping).
 * Context: any.
 */
IRQKIT_API unsigned int irqkit_irq_find_mapping(struct irqkit_irq_domain *domain,
						irqkit_hwirq_t hwirq);
/**
 * irqkit_irq_dispose_mapping - undo a mapping: unmap() (or the hierarchy's
 * free()), the line's chip and flow reset, the line freed (Linux's
 * irq_dispose_mapping).  A line with no mapping is left alone, with a
 * warning.  Context: process context; the line has no handler.
 */
IRQKIT_API void irqkit_irq_dispose_mapping(unsigned int virq);

/**
 * irqkit_generic_handle_domain_irq - run the flow handler of @hwirq's line
 * now (Linux's generic_handle_domain_irq).  Context: hardirq (a chained
 * handler).  Return: 0; -EINVAL when @hwirq has no line.
 */
IRQKIT_API int irqkit_generic_handle_domain_irq(struct irqkit_irq_domain *domain,
						irqkit_hwirq_t hwirq);

/** irqkit_irq_domain_alloc_named_fwnode - a name for a domain to be found by.  NULL: no memory. */
IRQKIT_API struct irqkit_fwnode *irqkit_irq_domain_alloc_named_fwnode(const char *name);
IRQKIT_API void irqkit_irq_domain_free_fwnode(struct irqkit_fwnode *fwnode);
/** irqkit_irq_find_matching_fwnode - the domain made with @fwnode, or NULL. */
IRQKIT_API struct irqkit_irq_domain *irqkit_irq_find_matching_fwnode(struct irqkit_fwnode *fwnode);
/**
 * irqkit_irq_create_fwspec_mapping - the line of a consumer's description:
 * its controller's domain found by fwnode (the default host for NULL), the
 * parameters translated (translate(), or param[0] as the hwirq), the line
 * mapped or allocated through the hierarchy, its trigger type set when the
 * description gives one (Linux's irq_create_fwspec_mapping).
 * Return: the line, or 0.  Context: process context.
 */
IRQKIT_API unsigned int irqkit_irq_create_fwspec_mapping(struct irqkit_irq_fwspec *fwspec);

/* ---- hierarchy -------------------------------------------------------------------------- */

/**
 * irqkit_irq_domain_alloc_irqs - @nr_irqs lines through a hierarchy (Linux's
 * irq_domain_alloc_irqs): lines found, an irq_data per parent level, the
 * domain's alloc() called with @arg (it calls its parent's), then each
 * level's hwirq entered in its domain's map.
 * Return: the first line; -EINVAL; -ENOMEM; alloc()'s error.
 * Context: process context.
 */
IRQKIT_API int irqkit_irq_domain_alloc_irqs(struct irqkit_irq_domain *domain,
					    unsigned int nr_irqs, void *arg);
/** irqkit_irq_domain_free_irqs - give back lines of irqkit_irq_domain_alloc_irqs(). */
IRQKIT_API void irqkit_irq_domain_free_irqs(unsigned int virq, unsigned int nr_irqs);
/** From a domain's alloc()/free(): the same at the parent.  Return: 0, -ENOSYS without one. */
IRQKIT_API int irqkit_irq_domain_alloc_irqs_parent(struct irqkit_irq_domain *domain,
						   unsigned int virq, unsigned int nr_irqs,
						   void *arg);
IRQKIT_API void irqkit_irq_domain_free_irqs_parent(struct irqkit_irq_domain *domain,
						   unsigned int virq, unsigned int nr_irqs);
/** A free() that resets this level's data and frees the parent's (Linux's _common). */
IRQKIT_API void irqkit_irq_domain_free_irqs_common(struct irqkit_irq_domain *domain,
						   unsigned int virq, unsigned int nr_irqs);
/** irqkit_irq_domain_get_irq_data - @virq's data at @domain's level, or NULL. */
IRQKIT_API struct irqkit_irq_data *irqkit_irq_domain_get_irq_data(struct irqkit_irq_domain *domain,
								  unsigned int virq);
/**
 * irqkit_irq_domain_set_hwirq_and_chip - from alloc(): @virq's hwirq, chip
 * (NULL: no_irq_chip) and chip data at @domain's level.  Return: 0, -ENOENT.
 */
IRQKIT_API int irqkit_irq_domain_set_hwirq_and_chip(struct irqkit_irq_domain *domain,
						    unsigned int virq, irqkit_hwirq_t hwirq,
						    struct irqkit_chip *chip, void *chip_data);
/** The same, and the line's flow handler, handler data and flow name. */
IRQKIT_API int irqkit_irq_domain_set_info(struct irqkit_irq_domain *domain, unsigned int virq,
					  irqkit_hwirq_t hwirq, struct irqkit_chip *chip,
					  void *chip_data, irqkit_flow_fn handler,
					  void *handler_data, const char *handler_name);
/** irqkit_irq_domain_reset_irq_data - a level's data back to no chip, hwirq 0. */
IRQKIT_API void irqkit_irq_domain_reset_irq_data(struct irqkit_irq_data *d);

/*
 * A level's chip operation done by the level below (Linux's
 * irq_chip_*_parent): each calls the parent level's chip, if it has the
 * operation.  Context: the chip operation's (descriptor lock held).
 */
IRQKIT_API void irqkit_irq_chip_enable_parent(struct irqkit_irq_data *d);
IRQKIT_API void irqkit_irq_chip_disable_parent(struct irqkit_irq_data *d);
IRQKIT_API void irqkit_irq_chip_ack_parent(struct irqkit_irq_data *d);
IRQKIT_API void irqkit_irq_chip_mask_parent(struct irqkit_irq_data *d);
IRQKIT_API void irqkit_irq_chip_mask_ack_parent(struct irqkit_irq_data *d);
IRQKIT_API void irqkit_irq_chip_unmask_parent(struct irqkit_irq_data *d);
IRQKIT_API void irqkit_irq_chip_eoi_parent(struct irqkit_irq_data *d);
/** Return: the parent's answer, -ENOSYS when it has no such operation. */
IRQKIT_API int irqkit_irq_chip_set_affinity_parent(struct irqkit_irq_data *d,
						   const struct irqkit_cpus *dest, bool force);
IRQKIT_API int irqkit_irq_chip_set_type_parent(struct irqkit_irq_data *d, unsigned int type);
/** The first level down with irq_retrigger does it.  Return: 1, or 0 when none can. */
IRQKIT_API int irqkit_irq_chip_retrigger_hierarchy(struct irqkit_irq_data *d);
IRQKIT_API int irqkit_irq_chip_get_parent_state(struct irqkit_irq_data *d, int which,
						bool *state);

/**
 * irqkit_irq_domain_alloc_descs - lines for a domain (Linux's
 * irq_domain_alloc_descs): @cnt lines at @virq, or with @virq -1 the first
 * free ones from @hwirq's number on (line 0 never), then from line 1.
 * @affd: NULL or one affinity descriptor per line.
 * Return: the first line, or a negative errno of irqkit_irq_alloc_descs().
 * Context: process context.
 */
IRQKIT_API int irqkit_irq_domain_alloc_descs(int virq, unsigned int cnt, irqkit_hwirq_t hwirq,
					     const struct irqkit_irq_affinity_desc *affd);

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_IRQDOMAIN_H */
