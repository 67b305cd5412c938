/* SPDX-License-Identifier: MIT */
/* Linux's <linux/irq.h> over irqkit: chips, flow handlers, line settings. */
#ifndef IRQKIT_COMPAT_LINUX_IRQ_H
#define IRQKIT_COMPAT_LINUX_IRQ_H

#include <irqkit/chip.h>
#include <irqkit/irq.h>
#include <irqkit/irqdomain.h>
#include <linux/cpumask.h>
#include <linux/irqdesc.h>
#include <linux/irqreturn.h>
#include <linux/spinlock.h>

#define irq_chip		irqkit_chip
#define irq_data		irqkit_irq_data
typedef irqkit_flow_fn irq_flow_handler_t;

#define IRQ_TYPE_NONE		IRQKIT_TYPE_NONE
#define IRQ_TYPE_EDGE_RISING	IRQKIT_TYPE_EDGE_RISING
#define IRQ_TYPE_EDGE_FALLING	IRQKIT_TYPE_EDGE_FALLING
#define IRQ_TYPE_EDGE_BOTH	IRQKIT_TYPE_EDGE_BOTH
#define IRQ_TYPE_LEVEL_HIGH	IRQKIT_TYPE_LEVEL_HIGH
#define IRQ_TYPE_LEVEL_LOW	IRQKIT_TYPE_LEVEL_LOW
#define IRQ_TYPE_LEVEL_MASK	IRQKIT_TYPE_LEVEL_MASK
#define IRQ_TYPE_SENSE_MASK	IRQKIT_TYPE_SENSE_MASK

#define IRQ_LEVEL		IRQKIT_IRQ_LEVEL
#define IRQ_PER_CPU		IRQKIT_IRQ_PER_CPU
#define IRQ_NOPROBE		IRQKIT_IRQ_NOPROBE
#define IRQ_NOREQUEST		IRQKIT_IRQ_NOREQUEST
#define IRQ_NOAUTOEN		IRQKIT_IRQ_NOAUTOEN
#define IRQ_NO_BALANCING	IRQKIT_IRQ_NO_BALANCING
#define IRQ_NESTED_THREAD	IRQKIT_IRQ_NESTED_THREAD
#define IRQ_NOTHREAD		IRQKIT_IRQ_NOTHREAD
#define IRQ_PER_CPU_DEVID	IRQKIT_IRQ_PER_CPU_DEVID
#define IRQ_IS_POLLED		IRQKIT_IRQ_IS_POLLED
#define IRQ_DISABLE_UNLAZY	IRQKIT_IRQ_DISABLE_UNLAZY
#define IRQ_HIDDEN		IRQKIT_IRQ_HIDDEN

#define IRQCHIP_SET_TYPE_MASKED	IRQKIT_CHIP_SET_TYPE_MASKED
#define IRQCHIP_EOI_IF_HANDLED	IRQKIT_CHIP_EOI_IF_HANDLED
#define IRQCHIP_ONESHOT_SAFE	IRQKIT_CHIP_ONESHOT_SAFE
#define IRQCHIP_SKIP_SET_WAKE	IRQKIT_CHIP_SKIP_SET_WAKE
#define IRQCHIP_EOI_THREADED	IRQKIT_CHIP_EOI_THREADED
#ifndef IRQCHIP_STATE_PENDING
#define IRQCHIP_STATE_PENDING	IRQKIT_CHIPSTATE_PENDING
#define IRQCHIP_STATE_ACTIVE	IRQKIT_CHIPSTATE_ACTIVE
#define IRQCHIP_STATE_MASKED	IRQKIT_CHIPSTATE_MASKED
#endif

#define no_irq_chip		irqkit_no_irq_chip
#define dummy_irq_chip		irqkit_dummy_irq_chip
#define handle_level_irq	irqkit_handle_level_irq
#define handle_edge_irq		irqkit_handle_edge_irq
#define handle_fasteoi_irq	irqkit_handle_fasteoi_irq
#define handle_simple_irq	irqkit_handle_simple_irq
#define handle_percpu_irq	irqkit_handle_percpu_irq
#define handle_percpu_devid_irq	irqkit_handle_percpu_devid_irq
#define irq_set_percpu_devid(irq)	irqkit_irq_set_percpu_devid(irq)
#define handle_untracked_irq	irqkit_handle_untracked_irq
#define handle_bad_irq		irqkit_handle_bad_irq

#define irq_set_chip_and_handler_name(irq, chip, handle, name) \
	irqkit_irq_set_chip_and_handler_name((irq), (chip), (handle), (name))
#define irq_set_chip_and_handler(irq, chip, handle) \
	irqkit_irq_set_chip_and_handler_name((irq), (chip), (handle), NULL)
#define irq_set_chip_data(irq, data)	irqkit_irq_set_chip_data((irq), (data))
#define irq_set_handler_locked(d, h)	irqkit_irq_set_handler_locked((d), (h))
#define irq_get_irq_data(irq)		irqkit_irq_get_irq_data(irq)
#define irq_data_get_irq_chip_data(d)	((d)->chip_data)
#define irq_data_get_irq_chip(d)	((d)->chip)
#define irqd_to_hwirq(d)		((d)->hwirq)
#define irqd_get_trigger_type(d)	irqkit_irqd_get_trigger_type(d)
#define irqd_is_started(d)		(!!(irqkit_irqd_state(d) & IRQKIT_IRQD_STARTED))
#define irqd_is_activated(d)		(!!(irqkit_irqd_state(d) & IRQKIT_IRQD_ACTIVATED))
#define irqd_irq_disabled(d)		(!!(irqkit_irqd_state(d) & IRQKIT_IRQD_DISABLED))
#define irqd_irq_masked(d)		(!!(irqkit_irqd_state(d) & IRQKIT_IRQD_MASKED))
#define irqd_irq_inprogress(d)		(!!(irqkit_irqd_state(d) & IRQKIT_IRQD_INPROGRESS))
#define irqd_is_level_type(d)		(!!(irqkit_irqd_state(d) & IRQKIT_IRQD_LEVEL))
#define irqd_is_per_cpu(d)		(!!(irqkit_irqd_state(d) & IRQKIT_IRQD_PER_CPU))
#define irqd_affinity_is_managed(d)	(!!(irqkit_irqd_state(d) & IRQKIT_IRQD_AFFINITY_MANAGED))
#define irqd_is_managed_and_shutdown(d)	(!!(irqkit_irqd_state(d) & IRQKIT_IRQD_MANAGED_SHUTDOWN))
#define irqd_is_wakeup_set(d)		(!!(irqkit_irqd_state(d) & IRQKIT_IRQD_WAKEUP_STATE))
/* the wake count: irq_set_irq_wake from 2.6.39, set_irq_wake (2.6.16-2.6.38) before */
#define irq_set_irq_wake(irq, on)	irqkit_irq_set_irq_wake((irq), (on))
#if !IRQKIT_LINUX_AT_LEAST(2, 6, 39)
#define set_irq_wake(irq, on)		irqkit_irq_set_irq_wake((irq), (on))
#endif
/* struct irq_affinity_desc and the managed affinity of a line not requested yet */
#define irq_affinity_desc		irqkit_irq_affinity_desc
#define irq_data_update_effective_affinity(d, m) \
	irqkit_irq_data_update_effective_affinity((d), (m))
#define irq_data_get_affinity_mask(d)	((const struct cpumask *)&(d)->affinity_cpus)
#define irq_data_get_effective_affinity_mask(d) \
	cpumask_of(__atomic_load_n(&(d)->cpu, __ATOMIC_RELAXED))

/* Lines numbered for a chip that does not number its own (node: one memory node here). */
#define irq_alloc_descs(irq, from, cnt, node) \
	((void)(node), irqkit_irq_alloc_descs((irq), (from), (cnt), NULL))
#define irq_alloc_descs_from(from, cnt, node)	irq_alloc_descs(-1, (from), (cnt), (node))
#define irq_alloc_desc(node)			irq_alloc_descs(-1, 1, 1, (node))
#define irq_alloc_desc_at(at, node)		irq_alloc_descs((at), (at), 1, (node))
#define irq_alloc_desc_from(from, node)		irq_alloc_descs(-1, (from), 1, (node))
#define irq_free_descs(irq, cnt)		irqkit_irq_free_descs((irq), (cnt))
#define irq_free_desc(irq)			irqkit_irq_free_descs((irq), 1)
#define irq_set_irq_type(irq, type)	irqkit_irq_set_irq_type((irq), (type))
#define irq_modify_status(irq, clr, set) irqkit_irq_modify_status((irq), (clr), (set))
#define irq_set_status_flags(irq, set)	irqkit_irq_modify_status((irq), 0, (set))
#define irq_clear_status_flags(irq, clr) irqkit_irq_modify_status((irq), (clr), 0)
#define irq_set_noprobe(irq)		irqkit_irq_modify_status((irq), 0, IRQ_NOPROBE)
#define irq_set_probe(irq)		irqkit_irq_modify_status((irq), IRQ_NOPROBE, 0)
#define generic_handle_irq(irq)		irqkit_generic_handle_irq(irq)
#define irq_set_chained_handler(irq, h)	irqkit_irq_set_chained_handler_and_data((irq), (h), NULL)
#define irq_set_chained_handler_and_data(irq, h, data) \
	irqkit_irq_set_chained_handler_and_data((irq), (h), (data))
#define irq_set_handler_data(irq, data)	irqkit_irq_set_handler_data((irq), (data))
#define irq_get_handler_data(irq)	irqkit_irq_get_handler_data(irq)
#define irq_desc_get_handler_data(desc)	((desc)->handler_data)
#define irq_data_get_irq_handler_data(d) irqkit_irq_get_handler_data((d)->irq)
#define irq_get_chip(irq)		(irqkit_irq_get_irq_data(irq) ? irqkit_irq_get_irq_data(irq)->chip : NULL)
#define irq_get_chip_data(irq)		(irqkit_irq_get_irq_data(irq) ? irqkit_irq_get_irq_data(irq)->chip_data : NULL)

/* hierarchy: a level's chip operation done by the level below (names, for chip tables) */
#define irq_chip_enable_parent	irqkit_irq_chip_enable_parent
#define irq_chip_disable_parent	irqkit_irq_chip_disable_parent
#define irq_chip_ack_parent	irqkit_irq_chip_ack_parent
#define irq_chip_mask_parent	irqkit_irq_chip_mask_parent
#define irq_chip_mask_ack_parent	irqkit_irq_chip_mask_ack_parent
#define irq_chip_unmask_parent	irqkit_irq_chip_unmask_parent
#define irq_chip_eoi_parent	irqkit_irq_chip_eoi_parent
#define irq_chip_set_affinity_parent	irqkit_irq_chip_set_affinity_parent
#define irq_chip_set_type_parent	irqkit_irq_chip_set_type_parent
#define irq_chip_retrigger_hierarchy	irqkit_irq_chip_retrigger_hierarchy
#define irq_chip_get_parent_state	irqkit_irq_chip_get_parent_state
#define handle_nested_irq(irq)		irqkit_handle_nested_irq(irq)

#endif
