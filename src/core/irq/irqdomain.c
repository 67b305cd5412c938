// SPDX-License-Identifier: MIT
/*
 * Interrupt domains (Linux's kernel/irq/irqdomain.c): how a controller's own
 * numbers (hwirqs) become lines of the runtime (virqs).
 *
 * Locking: domain_mutex serialises everything that changes a domain or a
 * mapping (creation, mapping, disposal, hierarchy allocation), all process
 * context; it nests outside the descriptor allocator's lock and the
 * descriptor locks.  A domain's map is also read from any context
 * (irq_find_mapping in a chained handler), so each change of it is made
 * under the domain's revmap_lock, a spinlock taken with interrupts off.
 *
 * Lifetime: a domain lives until irqkit_irq_domain_remove(), across runs.
 * A run is a boot: when the runtime stops, the lines it had are gone, so
 * every domain's map is emptied and the per-level data of hierarchy lines
 * is freed (irqkit__domains_exit).
 */
#include "internals.h"
#include "locking/locking.h"

#include <irqkit/irqdomain.h>

#define pr_debug(...)	irqkit_printk(IRQKIT_LOG_DEBUG, __VA_ARGS__)

struct irqkit__domain_pair {
	irqkit_hwirq_t	hwirq;
	unsigned int	virq;
};

static unsigned int domain_mutex;		/* the core's sleeping mutex (irqkit__mutex_lock) */
static struct irqkit_irq_domain *domains;	/* domain_mutex */
static struct irqkit_irq_domain *default_host;
static unsigned int unknown_domains;		/* names "unknown-N" */

static bool is_hierarchy(const struct irqkit_irq_domain *d)
{
	return d->flags & IRQKIT_DOMAIN_FLAG_HIERARCHY;
}

/* ---- the map: hwirq -> virq ---------------------------------------------------------- */

/* Index of the first tree entry with hwirq >= @hwirq.  revmap_lock held. */
static unsigned int tree_search(const struct irqkit_irq_domain *d, irqkit_hwirq_t hwirq)
{
	unsigned int lo = 0, hi = d->tree_nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (d->tree[mid].hwirq < hwirq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static unsigned int revmap_lookup(struct irqkit_irq_domain *d, irqkit_hwirq_t hwirq)
{
	unsigned long flags = irqkit_spin_lock_irqsave(&d->revmap_lock);
	unsigned int virq = 0, i;

	if (hwirq < d->revmap_size) {
		virq = d->revmap[hwirq];
	} else if (d->tree_nr) {
		i = tree_search(d, hwirq);
		if (i < d->tree_nr && d->tree[i].hwirq == hwirq)
			virq = d->tree[i].virq;
	}
	irqkit_spin_unlock_irqrestore(&d->revmap_lock, flags);
	return virq;
}

/* Make room for one more tree entry.  domain_mutex held (no other writer). */
static int tree_reserve(struct irqkit_irq_domain *d)
{
	struct irqkit__domain_pair *old = d->tree, *new;
	unsigned int cap = d->tree_cap ? 2 * d->tree_cap : 8;
	unsigned long flags;

	if (d->tree_nr < d->tree_cap)
		return 0;
	new = irqkit_plat_alloc(sizeof(*new) * cap);
	if (!new)
		return -IRQKIT_ENOMEM;
	flags = irqkit_spin_lock_irqsave(&d->revmap_lock);
	for (unsigned int i = 0; i < d->tree_nr; i++)
		new[i] = old[i];
	d->tree = new;
	irqkit_spin_unlock_irqrestore(&d->revmap_lock, flags);
	if (old)
		irqkit_plat_free(old, sizeof(*old) * d->tree_cap);
	d->tree_cap = cap;
	return 0;
}

/* domain_mutex held; the hwirq is not in the map. */
static int revmap_insert(struct irqkit_irq_domain *d, irqkit_hwirq_t hwirq, unsigned int virq)
{
	unsigned long flags;
	unsigned int i;

	if (hwirq >= d->revmap_size && tree_reserve(d))
		return -IRQKIT_ENOMEM;
	flags = irqkit_spin_lock_irqsave(&d->revmap_lock);
	if (hwirq < d->revmap_size) {
		d->revmap[hwirq] = virq;
	} else {
		i = tree_search(d, hwirq);
		for (unsigned int j = d->tree_nr; j > i; j--)
			d->tree[j] = d->tree[j - 1];
		d->tree[i] = (struct irqkit__domain_pair){ .hwirq = hwirq, .virq = virq };
		d->tree_nr++;
	}
	d->mapcount++;
	irqkit_spin_unlock_irqrestore(&d->revmap_lock, flags);
	return 0;
}

static void revmap_remove(struct irqkit_irq_domain *d, irqkit_hwirq_t hwirq)
{
	unsigned long flags = irqkit_spin_lock_irqsave(&d->revmap_lock);
	unsigned int i;

	if (hwirq < d->revmap_size) {
		if (d->revmap[hwirq]) {
			d->revmap[hwirq] = 0;
			d->mapcount--;
		}
	} else if (d->tree_nr) {
		i = tree_search(d, hwirq);
		if (i < d->tree_nr && d->tree[i].hwirq == hwirq) {
			for (; i + 1 < d->tree_nr; i++)
				d->tree[i] = d->tree[i + 1];
			d->tree_nr--;
			d->mapcount--;
		}
	}
	irqkit_spin_unlock_irqrestore(&d->revmap_lock, flags);
}

/* ---- domains ------------------------------------------------------------------------- */

static struct irqkit_irq_domain *domain_new(struct irqkit_fwnode *fwnode, unsigned int size,
					    irqkit_hwirq_t hwirq_max,
					    const struct irqkit_irq_domain_ops *ops, void *host_data,
					    struct irqkit_irq_domain *parent, unsigned int flags)
{
	static const struct irqkit_irq_domain_ops no_ops;
	struct irqkit_irq_domain *d = irqkit_plat_alloc(sizeof(*d));

	if (!d)
		return NULL;
	if (size) {
		d->revmap = irqkit_plat_alloc(sizeof(*d->revmap) * size);
		if (!d->revmap) {
			irqkit_plat_free(d, sizeof(*d));
			return NULL;
		}
	}
	d->revmap_size = size;
	d->hwirq_max = hwirq_max;
	d->ops = ops ? ops : &no_ops;
	d->host_data = host_data;
	d->parent = parent;
	d->flags = flags;
	d->fwnode = fwnode;
	irqkit_spin_lock_init(&d->revmap_lock);
	irqkit__mutex_lock(&domain_mutex);
	if (fwnode && fwnode->name) {
		d->name = fwnode->name;
	} else {
		irqkit__snprintf(d->name_buf, sizeof(d->name_buf), "unknown-%u", ++unknown_domains);
		d->name = d->name_buf;
	}
	d->next = domains;
	domains = d;
	irqkit__mutex_unlock(&domain_mutex);
	return d;
}

struct irqkit_irq_domain *irqkit_irq_domain_create_linear(struct irqkit_fwnode *fwnode,
							  unsigned int size,
							  const struct irqkit_irq_domain_ops *ops,
							  void *host_data)
{
	if (!size)
		return NULL;
	return domain_new(fwnode, size, size, ops, host_data, NULL, 0);
}

struct irqkit_irq_domain *irqkit_irq_domain_create_tree(struct irqkit_fwnode *fwnode,
							const struct irqkit_irq_domain_ops *ops,
							void *host_data)
{
	return domain_new(fwnode, 0, ~(irqkit_hwirq_t)0, ops, host_data, NULL, 0);
}

static int associate_locked(struct irqkit_irq_domain *d, unsigned int virq, irqkit_hwirq_t hwirq);

/*
 * Map @size hwirqs from @first_hwirq to the lines from @first_irq, for a
 * domain just made; if one fails, the ones mapped are disposed of and the
 * domain removed.  Return: 0 or the failing association's error.
 */
static int associate_many_or_remove(struct irqkit_irq_domain *d, unsigned int first_irq,
				    irqkit_hwirq_t first_hwirq, unsigned int size)
{
	int ret = 0;

	irqkit__mutex_lock(&domain_mutex);
	for (unsigned int i = 0; !ret && i < size; i++)
		ret = associate_locked(d, first_irq + i, first_hwirq + i);
	irqkit__mutex_unlock(&domain_mutex);
	if (!ret)
		return 0;
	for (unsigned int i = 0; i < size; i++)
		if (irqkit_irq_find_mapping(d, first_hwirq + i) == first_irq + i)
			irqkit_irq_dispose_mapping(first_irq + i);
	irqkit_irq_domain_remove(d);
	return ret;
}

struct irqkit_irq_domain *irqkit_irq_domain_create_legacy(struct irqkit_fwnode *fwnode,
							  unsigned int size, unsigned int first_irq,
							  irqkit_hwirq_t first_hwirq,
							  const struct irqkit_irq_domain_ops *ops,
							  void *host_data)
{
	struct irqkit_irq_domain *d;
	int ret;

	/* its map is a table up to first_hwirq + size, as Linux's: keep that sane */
	if (!size || first_irq >= irqkit__rt.nr_irqs || size > irqkit__rt.nr_irqs - first_irq ||
	    first_hwirq > (1u << 24) - size)
		return NULL;
	d = domain_new(fwnode, (unsigned int)first_hwirq + size, first_hwirq + size, ops,
		       host_data, NULL, 0);
	if (!d)
		return NULL;
	ret = associate_many_or_remove(d, first_irq, first_hwirq, size);
	if (ret) {
		pr_err("irq_domain_create_legacy: %s: lines %u-%u: %d",
		       fwnode && fwnode->name ? fwnode->name : "(unnamed)", first_irq,
		       first_irq + size - 1, ret);
		return NULL;
	}
	return d;
}

struct irqkit_irq_domain *irqkit_irq_domain_create_simple(struct irqkit_fwnode *fwnode,
							  unsigned int size, unsigned int first_irq,
							  const struct irqkit_irq_domain_ops *ops,
							  void *host_data)
{
	struct irqkit_irq_domain *d = irqkit_irq_domain_create_linear(fwnode, size, ops, host_data);
	int ret;

	if (!d || !first_irq)
		return d;
	ret = irqkit_irq_alloc_descs((int)first_irq, first_irq, size, NULL);
	if (ret < 0)
		pr_info("irq: Cannot allocate irq_descs @ IRQ%u, assuming pre-allocated", first_irq);
	return associate_many_or_remove(d, first_irq, 0, size) ? NULL : d;
}

struct irqkit_irq_domain *
irqkit_irq_domain_create_hierarchy(struct irqkit_irq_domain *parent, unsigned int flags,
				   unsigned int size, struct irqkit_fwnode *fwnode,
				   const struct irqkit_irq_domain_ops *ops, void *host_data)
{
	return domain_new(fwnode, size, size ? size : ~(irqkit_hwirq_t)0, ops, host_data, parent,
			  flags | IRQKIT_DOMAIN_FLAG_HIERARCHY);
}

void irqkit_irq_domain_remove(struct irqkit_irq_domain *domain)
{
	struct irqkit_irq_domain **pp, *c;

	if (!domain)
		return;
	irqkit__mutex_lock(&domain_mutex);
	for (c = domains; c; c = c->next)
		if (c->parent == domain)
			break;
	if (READ_ONCE(domain->mapcount) || c) {
		pr_err("irq_domain_remove: %s still has %s; not removed", domain->name,
		       c ? "a child domain" : "lines mapped");
		irqkit__mutex_unlock(&domain_mutex);
		return;
	}
	for (pp = &domains; *pp && *pp != domain; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = domain->next;
	if (default_host == domain)
		default_host = NULL;
	irqkit__mutex_unlock(&domain_mutex);
	if (domain->revmap)
		irqkit_plat_free(domain->revmap, sizeof(*domain->revmap) * domain->revmap_size);
	if (domain->tree)
		irqkit_plat_free(domain->tree, sizeof(*domain->tree) * domain->tree_cap);
	irqkit_plat_free(domain, sizeof(*domain));
}

void irqkit_irq_set_default_host(struct irqkit_irq_domain *domain)
{
	irqkit__mutex_lock(&domain_mutex);
	default_host = domain;
	irqkit__mutex_unlock(&domain_mutex);
}

struct irqkit_irq_domain *irqkit_irq_get_default_host(void)
{
	return READ_ONCE(default_host);
}

struct irqkit_fwnode *irqkit_irq_domain_alloc_named_fwnode(const char *name)
{
	struct irqkit_fwnode *fw = irqkit_plat_alloc(sizeof(*fw));

	if (fw)
		fw->name = name;
	return fw;
}

void irqkit_irq_domain_free_fwnode(struct irqkit_fwnode *fwnode)
{
	if (fwnode)
		irqkit_plat_free(fwnode, sizeof(*fwnode));
}

struct irqkit_irq_domain *irqkit_irq_find_matching_fwnode(struct irqkit_fwnode *fwnode)
{
	struct irqkit_irq_domain *d;

	if (!fwnode)
		return NULL;
	irqkit__mutex_lock(&domain_mutex);
	for (d = domains; d && d->fwnode != fwnode; d = d->next)
		;
	irqkit__mutex_unlock(&domain_mutex);
	return d;
}

/* ---- mappings ------------------------------------------------------------------------ */

static void set_level(struct irqkit_desc *desc, struct irqkit_irq_data *d,
		      struct irqkit_irq_domain *domain, irqkit_hwirq_t hwirq)
{
	unsigned long flags = desc_lock_irqsave(desc);

	d->hwirq = hwirq;
	WRITE_ONCE(d->domain, domain);
	if (d == &desc->irq_data)
		d->has_domain = domain != NULL;
	desc_unlock_irqrestore(desc, flags);
}

/* irq_domain_associate_locked(): domain_mutex held. */
static int associate_locked(struct irqkit_irq_domain *d, unsigned int virq, irqkit_hwirq_t hwirq)
{
	struct irqkit_desc *desc = irq_to_desc(virq);
	int ret;

	if (!desc || !virq)
		return -IRQKIT_EINVAL;
	if (hwirq >= d->hwirq_max) {
		WARN(1, "error: hwirq 0x%lx is too large for %s", hwirq, d->name);
		return -IRQKIT_EINVAL;
	}
	if (READ_ONCE(desc->irq_data.domain)) {
		WARN(1, "error: virq%u is already associated", virq);
		return -IRQKIT_EINVAL;
	}
	if (revmap_lookup(d, hwirq))
		return -IRQKIT_EEXIST;
	set_level(desc, &desc->irq_data, d, hwirq);
	if (d->ops->map) {
		ret = d->ops->map(d, virq, hwirq);
		if (ret) {
			if (ret != -IRQKIT_EPERM)
				pr_info("irq: %s didn't like hwirq-0x%lx to VIRQ%u mapping (rc=%d)",
					d->name, hwirq, virq, ret);
			set_level(desc, &desc->irq_data, NULL, 0);
			return ret;
		}
	}
	ret = revmap_insert(d, hwirq, virq);
	if (ret) {
		if (d->ops->unmap)
			d->ops->unmap(d, virq);
		set_level(desc, &desc->irq_data, NULL, 0);
		return ret;
	}
	irqkit_irq_modify_status(virq, IRQKIT_IRQ_NOREQUEST, 0);
	return 0;
}

int irqkit_irq_domain_associate(struct irqkit_irq_domain *domain, unsigned int virq,
				irqkit_hwirq_t hwirq)
{
	int ret;

	if (!domain)
		return -IRQKIT_EINVAL;
	irqkit__mutex_lock(&domain_mutex);
	ret = associate_locked(domain, virq, hwirq);
	irqkit__mutex_unlock(&domain_mutex);
	return ret;
}

unsigned int irqkit_irq_create_mapping_affinity(struct irqkit_irq_domain *domain,
						irqkit_hwirq_t hwirq,
						const struct irqkit_irq_affinity_desc *affd)
{
	unsigned int virq;
	int v;

	if (!domain)
		domain = READ_ONCE(default_host);
	if (!domain) {
		WARN(1, "irq_create_mapping called for NULL domain, hwirq=%lx", hwirq);
		return 0;
	}
	irqkit__mutex_lock(&domain_mutex);
	virq = revmap_lookup(domain, hwirq);
	if (virq)
		goto out;		/* mapped already: the same line */
	if (hwirq >= domain->hwirq_max) {
		WARN(1, "error: hwirq 0x%lx is too large for %s", hwirq, domain->name);
		goto out;
	}
	v = irqkit_irq_domain_alloc_descs(-1, 1, hwirq, affd);
	if (v <= 0) {
		pr_debug("irq: -> virq allocation failed");
		goto out;
	}
	if (associate_locked(domain, (unsigned int)v, hwirq)) {
		irqkit_irq_free_descs((unsigned int)v, 1);
		goto out;
	}
	virq = (unsigned int)v;
out:
	irqkit__mutex_unlock(&domain_mutex);
	return virq;
}

unsigned int irqkit_irq_find_mapping(struct irqkit_irq_domain *domain, irqkit_hwirq_t hwirq)
{
	if (!domain)
		domain = READ_ONCE(default_host);
	return domain ? revmap_lookup(domain, hwirq) : 0;
}

int irqkit_generic_handle_domain_irq(struct irqkit_irq_domain *domain, irqkit_hwirq_t hwirq)
{
	unsigned int virq = irqkit_irq_find_mapping(domain, hwirq);

	return virq ? irqkit_generic_handle_irq(virq) : -IRQKIT_EINVAL;
}

/* irq_domain_disassociate(): domain_mutex held; the line has no handler. */
static void disassociate_locked(struct irqkit_irq_domain *d, unsigned int virq)
{
	struct irqkit_desc *desc = irq_to_desc(virq);
	irqkit_hwirq_t hwirq = desc->irq_data.hwirq;

	irqkit_irq_modify_status(virq, 0, IRQKIT_IRQ_NOREQUEST);
	irqkit_irq_set_chip_and_handler_name(virq, NULL, NULL, NULL);
	irqkit_synchronize_irq(virq);
	if (d->ops->unmap)
		d->ops->unmap(d, virq);
	set_level(desc, &desc->irq_data, NULL, 0);
	revmap_remove(d, hwirq);
}

static void free_irqs_locked(unsigned int virq, unsigned int nr_irqs);

void irqkit_irq_dispose_mapping(unsigned int virq)
{
	struct irqkit_desc *desc = irq_to_desc(virq);
	struct irqkit_irq_domain *d;

	if (!desc)
		return;
	irqkit__mutex_lock(&domain_mutex);
	d = READ_ONCE(desc->irq_data.domain);
	if (!d) {
		WARN(1, "irq_dispose_mapping: IRQ %u has no mapping", virq);
	} else if (irqkit_irq_has_action(virq)) {
		WARN(1, "irq_dispose_mapping: IRQ %u still has a handler", virq);
	} else if (is_hierarchy(d)) {
		free_irqs_locked(virq, 1);
	} else {
		disassociate_locked(d, virq);
		irqkit_irq_free_descs(virq, 1);
	}
	irqkit__mutex_unlock(&domain_mutex);
}

unsigned int irqkit_irq_create_fwspec_mapping(struct irqkit_irq_fwspec *fwspec)
{
	struct irqkit_irq_domain *d;
	irqkit_hwirq_t hwirq;
	unsigned int type = IRQKIT_TYPE_NONE, virq;
	int ret;

	if (!fwspec)
		return 0;
	d = fwspec->fwnode ? irqkit_irq_find_matching_fwnode(fwspec->fwnode) :
			     irqkit_irq_get_default_host();
	if (!d) {
		pr_warn("irq: no irq domain found for %s !",
			fwspec->fwnode && fwspec->fwnode->name ? fwspec->fwnode->name : "(null)");
		return 0;
	}
	if (d->ops->translate) {
		ret = d->ops->translate(d, fwspec, &hwirq, &type);
		if (ret)
			return 0;
	} else if (fwspec->param_count >= 1) {
		hwirq = fwspec->param[0];
		if (fwspec->param_count >= 2)
			type = fwspec->param[1] & IRQKIT_TYPE_SENSE_MASK;
	} else {
		return 0;
	}
	virq = irqkit_irq_find_mapping(d, hwirq);
	if (virq) {
		/* mapped already: the same type, or none asked or set yet */
		unsigned int cur = irqkit_irqd_get_trigger_type(irqkit_irq_get_irq_data(virq));

		if (type == IRQKIT_TYPE_NONE || type == cur)
			return virq;
		if (cur == IRQKIT_TYPE_NONE) {
			(void)irqkit_irq_set_default_type(virq, type);
			return virq;
		}
		pr_warn("irq: type mismatch, failed to map hwirq-%lu for %s!", hwirq, d->name);
		return 0;
	}
	if (is_hierarchy(d)) {
		ret = irqkit_irq_domain_alloc_irqs(d, 1, fwspec);
		virq = ret > 0 ? (unsigned int)ret : 0;
	} else {
		virq = irqkit_irq_create_mapping_affinity(d, hwirq, NULL);
	}
	/* the line's trigger: programmed and kept as its default, as a mapping does */
	if (virq && type != IRQKIT_TYPE_NONE)
		(void)irqkit_irq_set_default_type(virq, type);
	return virq;
}

/* ---- hierarchy ----------------------------------------------------------------------- */

struct irqkit_irq_data *irqkit_irq_domain_get_irq_data(struct irqkit_irq_domain *domain,
						       unsigned int virq)
{
	struct irqkit_desc *desc = irq_to_desc(virq);

	if (!desc)
		return NULL;
	for (struct irqkit_irq_data *d = &desc->irq_data; d; d = d->parent_data)
		if (d->domain == domain)
			return d;
	return NULL;
}

/* Free the per-level data under line @virq's top level. */
static void free_levels(struct irqkit_desc *desc)
{
	struct irqkit_irq_data *d = desc->irq_data.parent_data;
	unsigned long flags = desc_lock_irqsave(desc);

	desc->irq_data.parent_data = NULL;
	desc_unlock_irqrestore(desc, flags);
	while (d) {
		struct irqkit_irq_data *next = d->parent_data;

		irqkit_plat_free(d, sizeof(*d));
		d = next;
	}
}

/* irq_domain_alloc_irq_data(): a data per parent level, each naming its domain. */
static int alloc_levels(struct irqkit_irq_domain *domain, unsigned int virq, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++) {
		struct irqkit_desc *desc = irq_to_desc(virq + i);
		struct irqkit_irq_data *d = &desc->irq_data;

		set_level(desc, d, domain, 0);
		for (struct irqkit_irq_domain *p = domain->parent; p; p = p->parent) {
			struct irqkit_irq_data *pd = irqkit_plat_alloc(sizeof(*pd));
			unsigned long flags;

			if (!pd) {
				for (unsigned int j = 0; j <= i; j++) {
					free_levels(irq_to_desc(virq + j));
					set_level(irq_to_desc(virq + j),
						  &irq_to_desc(virq + j)->irq_data, NULL, 0);
				}
				return -IRQKIT_ENOMEM;
			}
			pd->irq = virq + i;
			pd->chip = &irqkit_no_irq_chip;
			pd->domain = p;
			pd->affinity = ~(irqkit_cpumask)0;
			flags = desc_lock_irqsave(desc);
			d->parent_data = pd;
			desc_unlock_irqrestore(desc, flags);
			d = pd;
		}
	}
	return 0;
}

/* Enter (or remove) each level's hwirq in its domain's map.  domain_mutex held. */
static int insert_levels(unsigned int virq)
{
	struct irqkit_desc *desc = irq_to_desc(virq);

	for (struct irqkit_irq_data *d = &desc->irq_data; d; d = d->parent_data) {
		int ret = revmap_insert(d->domain, d->hwirq, virq);

		if (ret) {
			for (struct irqkit_irq_data *u = &desc->irq_data; u != d; u = u->parent_data)
				revmap_remove(u->domain, u->hwirq);
			return ret;
		}
	}
	irqkit_irq_modify_status(virq, IRQKIT_IRQ_NOREQUEST, 0);
	return 0;
}

static void remove_levels(unsigned int virq)
{
	struct irqkit_desc *desc = irq_to_desc(virq);

	for (struct irqkit_irq_data *d = &desc->irq_data; d; d = d->parent_data)
		if (d->domain && irqkit_irq_find_mapping(d->domain, d->hwirq) == virq)
			revmap_remove(d->domain, d->hwirq);
}

int irqkit_irq_domain_alloc_irqs(struct irqkit_irq_domain *domain, unsigned int nr_irqs,
				 void *arg)
{
	int virq, ret;

	if (!domain || !nr_irqs)
		return -IRQKIT_EINVAL;
	if (!domain->ops->alloc) {
		pr_debug("irq: domain->ops->alloc() is NULL");
		return -IRQKIT_ENOSYS;
	}
	irqkit__mutex_lock(&domain_mutex);
	virq = irqkit_irq_domain_alloc_descs(-1, nr_irqs, 0, NULL);
	if (virq < 0) {
		pr_debug("irq: cannot allocate IRQ(base %d, count %u)", virq, nr_irqs);
		goto out;
	}
	ret = alloc_levels(domain, (unsigned int)virq, nr_irqs);
	if (!ret)
		ret = domain->ops->alloc(domain, (unsigned int)virq, nr_irqs, arg);
	for (unsigned int i = 0; !ret && i < nr_irqs; i++) {
		ret = insert_levels((unsigned int)virq + i);
		for (unsigned int j = 0; ret && j < i; j++)
			remove_levels((unsigned int)virq + j);
		if (ret && domain->ops->free)
			domain->ops->free(domain, (unsigned int)virq, nr_irqs);
	}
	if (ret) {
		for (unsigned int i = 0; i < nr_irqs; i++) {
			struct irqkit_desc *desc = irq_to_desc((unsigned int)virq + i);

			free_levels(desc);
			set_level(desc, &desc->irq_data, NULL, 0);
		}
		irqkit_irq_free_descs((unsigned int)virq, nr_irqs);
		virq = ret;
	}
out:
	irqkit__mutex_unlock(&domain_mutex);
	return virq;
}

/* domain_mutex held; @virq is a line of a hierarchy. */
static void free_irqs_locked(unsigned int virq, unsigned int nr_irqs)
{
	struct irqkit_desc *top = irq_to_desc(virq);
	struct irqkit_irq_domain *domain = top ? READ_ONCE(top->irq_data.domain) : NULL;

	if (!domain)
		return;

	for (unsigned int i = 0; i < nr_irqs; i++) {
		irqkit_synchronize_irq(virq + i);
		remove_levels(virq + i);
	}
	if (domain->ops->free)
		domain->ops->free(domain, virq, nr_irqs);
	for (unsigned int i = 0; i < nr_irqs; i++) {
		struct irqkit_desc *desc = irq_to_desc(virq + i);

		free_levels(desc);
		set_level(desc, &desc->irq_data, NULL, 0);
	}
	irqkit_irq_free_descs(virq, nr_irqs);
}

void irqkit_irq_domain_free_irqs(unsigned int virq, unsigned int nr_irqs)
{
	struct irqkit_desc *desc = irq_to_desc(virq);
	struct irqkit_irq_domain *d = desc ? READ_ONCE(desc->irq_data.domain) : NULL;

	if (!d || !is_hierarchy(d) || virq + nr_irqs > irqkit__rt.nr_irqs) {
		WARN(1, "irq_domain_free_irqs: IRQ %u was not allocated through a hierarchy", virq);
		return;
	}
	for (unsigned int i = 0; i < nr_irqs; i++) {
		if (irqkit_irq_has_action(virq + i)) {
			WARN(1, "irq_domain_free_irqs: IRQ %u still has a handler", virq + i);
			return;
		}
	}
	irqkit__mutex_lock(&domain_mutex);
	free_irqs_locked(virq, nr_irqs);
	irqkit__mutex_unlock(&domain_mutex);
}

int irqkit_irq_domain_alloc_irqs_parent(struct irqkit_irq_domain *domain, unsigned int virq,
					unsigned int nr_irqs, void *arg)
{
	if (!domain->parent || !domain->parent->ops->alloc)
		return -IRQKIT_ENOSYS;
	return domain->parent->ops->alloc(domain->parent, virq, nr_irqs, arg);
}

void irqkit_irq_domain_free_irqs_parent(struct irqkit_irq_domain *domain, unsigned int virq,
					unsigned int nr_irqs)
{
	if (domain->parent && domain->parent->ops->free)
		domain->parent->ops->free(domain->parent, virq, nr_irqs);
}

void irqkit_irq_domain_reset_irq_data(struct irqkit_irq_data *d)
{
	d->hwirq = 0;
	WRITE_ONCE(d->chip, &irqkit_no_irq_chip);
	d->chip_data = NULL;
}

void irqkit_irq_domain_free_irqs_common(struct irqkit_irq_domain *domain, unsigned int virq,
					unsigned int nr_irqs)
{
	for (unsigned int i = 0; i < nr_irqs; i++) {
		struct irqkit_irq_data *d = irqkit_irq_domain_get_irq_data(domain, virq + i);

		if (d)
			irqkit_irq_domain_reset_irq_data(d);
	}
	irqkit_irq_domain_free_irqs_parent(domain, virq, nr_irqs);
}

int irqkit_irq_domain_set_hwirq_and_chip(struct irqkit_irq_domain *domain, unsigned int virq,
					 irqkit_hwirq_t hwirq, struct irqkit_chip *chip,
					 void *chip_data)
{
	struct irqkit_irq_data *d = irqkit_irq_domain_get_irq_data(domain, virq);
	unsigned long flags;

	if (!d)
		return -IRQKIT_ENOENT;
	flags = desc_lock_irqsave(irq_to_desc(virq));
	d->hwirq = hwirq;
	WRITE_ONCE(d->chip, chip ? chip : &irqkit_no_irq_chip);
	d->chip_data = chip_data;
	desc_unlock_irqrestore(irq_to_desc(virq), flags);
	return 0;
}

int irqkit_irq_domain_set_info(struct irqkit_irq_domain *domain, unsigned int virq,
			       irqkit_hwirq_t hwirq, struct irqkit_chip *chip, void *chip_data,
			       irqkit_flow_fn handler, void *handler_data,
			       const char *handler_name)
{
	struct irqkit_desc *desc = irq_to_desc(virq);
	unsigned long flags;
	int ret = irqkit_irq_domain_set_hwirq_and_chip(domain, virq, hwirq, chip, chip_data);

	if (ret)
		return ret;
	flags = desc_lock_irqsave(desc);
	WRITE_ONCE(desc->handle_irq, handler ? handler : irqkit_handle_bad_irq);
	desc->name = handler_name;
	desc->handler_data = handler_data;
	desc_unlock_irqrestore(desc, flags);
	return 0;
}

/* irq_domain_activate_irq(): the levels from the root up.  Descriptor lock held. */
int irqkit__irq_domain_activate(struct irqkit_irq_data *d, bool reserve)
{
	int ret = 0;

	if (d->parent_data)
		ret = irqkit__irq_domain_activate(d->parent_data, reserve);
	if (!ret && d->domain && d->domain->ops->activate) {
		ret = d->domain->ops->activate(d->domain, d, reserve);
		if (ret && d->parent_data)
			irqkit__irq_domain_deactivate(d->parent_data);
	}
	return ret;
}

/* irq_domain_deactivate_irq(): from the top down.  Descriptor lock held. */
void irqkit__irq_domain_deactivate(struct irqkit_irq_data *d)
{
	if (d->domain && d->domain->ops->deactivate)
		d->domain->ops->deactivate(d->domain, d);
	if (d->parent_data)
		irqkit__irq_domain_deactivate(d->parent_data);
}

/* ---- a run ends: its lines are gone ---------------------------------------------------- */

void irqkit__domains_exit(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	irqkit__mutex_lock(&domain_mutex);
	for (unsigned int i = 0; rt->descs && i < rt->nr_irqs; i++)
		free_levels(&rt->descs[i]);
	for (struct irqkit_irq_domain *d = domains; d; d = d->next) {
		unsigned long flags = irqkit_spin_lock_irqsave(&d->revmap_lock);

		for (unsigned int h = 0; h < d->revmap_size; h++)
			d->revmap[h] = 0;
		d->tree_nr = 0;
		d->mapcount = 0;
		irqkit_spin_unlock_irqrestore(&d->revmap_lock, flags);
	}
	irqkit__mutex_unlock(&domain_mutex);
}

/*
 * irq_domain_alloc_descs(): @cnt lines for a domain.  With @virq -1 the
 * search starts at @hwirq (modulo the lines), never at line 0, and once
 * more at line 1 when nothing is free above the hint.
 */
int irqkit_irq_domain_alloc_descs(int virq, unsigned int cnt, irqkit_hwirq_t hwirq,
				  const struct irqkit_irq_affinity_desc *affd)
{
	unsigned int nr = irqkit_nr_irqs(), hint;

	if (virq >= 0)
		return irqkit_irq_alloc_descs(virq, (unsigned int)virq, cnt, affd);
	if (!nr)
		return -IRQKIT_EINVAL;
	hint = (unsigned int)(hwirq % nr);
	if (!hint)
		hint = 1;
	virq = irqkit_irq_alloc_descs(-1, hint, cnt, affd);
	if (virq <= 0 && hint > 1)
		virq = irqkit_irq_alloc_descs(-1, 1, cnt, affd);
	return virq;
}
