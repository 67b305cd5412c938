// SPDX-License-Identifier: MIT
/* Counting interrupt chips for tests. */
#include "testchip.h"

#include <string.h>

struct tchip_counts tchip;

static void t_ack(struct irqkit_irq_data *d) { (void)d; tchip.ack++; }
static void t_eoi(struct irqkit_irq_data *d) { (void)d; tchip.eoi++; }
static void t_mask(struct irqkit_irq_data *d) { (void)d; tchip.mask++; tchip.masked = true; }
static void t_unmask(struct irqkit_irq_data *d) { (void)d; tchip.unmask++; tchip.masked = false; }
static void t_disable(struct irqkit_irq_data *d) { (void)d; tchip.disable++; tchip.masked = true; }
static void t_enable(struct irqkit_irq_data *d) { (void)d; tchip.enable++; tchip.masked = false; }

static int t_retrigger(struct irqkit_irq_data *d)
{
	tchip.retrigger++;
	irqkit_cpu_signal(d->cpu, d->irq);
	return 1;
}

static int t_set_type(struct irqkit_irq_data *d, unsigned int type)
{
	(void)d;
	tchip.set_type++;
	tchip.last_type = (int)type;
	return 0;
}

static int t_bad_type(struct irqkit_irq_data *d, unsigned int type)
{
	(void)d;
	(void)type;
	tchip.set_type++;
	return -IRQKIT_EINVAL;
}

#define TCHIP_COMMON			\
	.irq_ack	= t_ack,	\
	.irq_mask	= t_mask,	\
	.irq_unmask	= t_unmask,	\
	.irq_eoi	= t_eoi

struct irqkit_chip tchip_plain = {
	.name = "TEST", TCHIP_COMMON, .irq_retrigger = t_retrigger, .irq_set_type = t_set_type,
};
struct irqkit_chip tchip_no_retrigger = {
	.name = "TEST-NR", TCHIP_COMMON, .irq_set_type = t_set_type,
};
struct irqkit_chip tchip_oneshot_safe = {
	.name = "TEST-OS", TCHIP_COMMON, .flags = IRQKIT_CHIP_ONESHOT_SAFE,
};
struct irqkit_chip tchip_bad_type = {
	.name = "TEST-BT", TCHIP_COMMON, .irq_set_type = t_bad_type,
};
struct irqkit_chip tchip_with_disable = {
	.name = "TEST-DIS", TCHIP_COMMON, .irq_disable = t_disable, .irq_enable = t_enable,
	.irq_retrigger = t_retrigger,
};
struct irqkit_chip tchip_none = { .name = "TEST-0" };

static int t_set_wake(struct irqkit_irq_data *d, unsigned int on)
{
	(void)d;
	if (tchip.wake_ret)
		return tchip.wake_ret;
	tchip.set_wake++;
	tchip.wake_on = on;
	return 0;
}

struct irqkit_chip tchip_wake = {
	.name = "TEST-WK", TCHIP_COMMON, .irq_set_wake = t_set_wake,
};
struct irqkit_chip tchip_eoi_if_handled = {
	.name = "TEST-EIH", .irq_eoi = t_eoi, .irq_mask = t_mask, .irq_unmask = t_unmask,
	.flags = IRQKIT_CHIP_EOI_IF_HANDLED,
};

struct irqkit_chip tchip_eoi_threaded = {
	.name = "TEST-ET", TCHIP_COMMON, .flags = IRQKIT_CHIP_EOI_THREADED,
};

void testchip_attach(unsigned int irq, struct irqkit_chip *chip, irqkit_flow_fn flow)
{
	memset(&tchip, 0, sizeof(tchip));
	tchip.masked = true;
	irqkit_irq_set_chip_and_handler_name(irq, chip, flow, NULL);
}

void testchip_fire(unsigned int irq)
{
	irqkit_cpu_raise(0, irq);
}
