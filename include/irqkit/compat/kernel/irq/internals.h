/* SPDX-License-Identifier: MIT */
/*
 * The private header of Linux's generic interrupt layer, "internals.h",
 * as far as the kernel's own tests of it use it.  It lives in its own
 * folder so that a test which includes it by that name finds it: compile
 * with -iquote "$(pkg-config --variable=genirq_internals irqkit-kunit)".
 *
 * The irq_settings_* helpers change a line's settings as Linux's do, with
 * no lock of their own: call them where the line is quiet (set-up, a test)
 * or with the descriptor lock held.
 */
#ifndef IRQKIT_COMPAT_KERNEL_IRQ_INTERNALS_H
#define IRQKIT_COMPAT_KERNEL_IRQ_INTERNALS_H

#include <linux/irq.h>
#include <linux/irqdesc.h>

#define irq_shutdown_and_deactivate(desc)	irqkit_irq_shutdown_and_deactivate(desc)
#define irq_activate(desc)			irqkit_irq_activate(desc)
#define irq_startup_managed(desc)		irqkit_irq_startup_managed(desc)

#define IRQKIT__SETTINGS_FNS(name, bit)							\
static inline void irq_settings_set_##name(struct irqkit_desc *desc)			\
{											\
	desc->settings |= (bit);							\
}											\
static inline void irq_settings_clr_##name(struct irqkit_desc *desc)			\
{											\
	desc->settings &= ~(unsigned int)(bit);						\
}

IRQKIT__SETTINGS_FNS(norequest, IRQKIT_IRQ_NOREQUEST)
IRQKIT__SETTINGS_FNS(noprobe, IRQKIT_IRQ_NOPROBE)
IRQKIT__SETTINGS_FNS(noautoen, IRQKIT_IRQ_NOAUTOEN)
IRQKIT__SETTINGS_FNS(nothread, IRQKIT_IRQ_NOTHREAD)
IRQKIT__SETTINGS_FNS(level, IRQKIT_IRQ_LEVEL)
#undef IRQKIT__SETTINGS_FNS

static inline bool irq_settings_can_request(struct irqkit_desc *desc)
{
	return !(desc->settings & IRQKIT_IRQ_NOREQUEST);
}
static inline bool irq_settings_can_probe(struct irqkit_desc *desc)
{
	return !(desc->settings & IRQKIT_IRQ_NOPROBE);
}
static inline bool irq_settings_can_autoenable(struct irqkit_desc *desc)
{
	return !(desc->settings & IRQKIT_IRQ_NOAUTOEN);
}
static inline bool irq_settings_is_level(struct irqkit_desc *desc)
{
	return desc->settings & IRQKIT_IRQ_LEVEL;
}
static inline bool irq_settings_is_per_cpu(struct irqkit_desc *desc)
{
	return desc->settings & IRQKIT_IRQ_PER_CPU;
}

#endif
