// SPDX-License-Identifier: MIT
/*
 * A chip of your own: an 8-pin GPIO expander whose pins interrupt on a
 * rising edge, written with the public chip API only (<irqkit/chip.h>,
 * <irqkit/irqdomain.h>), as an irqchip driver is in Linux: its pins are
 * numbered its own way (hwirq 0-7) and an irq domain gives each one a line
 * of the runtime when it is mapped; the domain's map() attaches the line to
 * the chip.
 *
 * The "hardware" is two registers: STATUS latches a rising edge per pin,
 * MASK (1 = masked) keeps a latched pin from interrupting.  A pin whose
 * STATUS bit is set while unmasked signals the CPU its line is routed to;
 * the edge flow handler (irqkit_handle_edge_irq) then acks it (clears the
 * STATUS bit) and runs the driver's handler.  An edge that comes while the
 * line is disabled stays in STATUS and interrupts when it is enabled again.
 *
 *   example-custom-chip [EDGES]   (default 1000 per pin)
 *
 * Exits 0 when every edge was handled exactly once, with a table whose chip
 * column says "GPIOX" and whose hwirq column gives the pin.
 */
#include <irqkit/irqkit.h>

#include <stdio.h>
#include <stdlib.h>

#define PINS		8

/* ---- the expander: its registers and its irq_chip ---------------------------------------- */

struct expander {
	unsigned int	status;		/* latched rising edges, one bit per pin */
	unsigned int	mask;		/* 1: the pin may not interrupt */
	unsigned int	edges;		/* edges the pins saw, for the check */
	struct irqkit_irq_domain *domain;	/* pin -> line */
};

static struct expander gpx = { .mask = 0xff };	/* masked until a line starts */

static unsigned int pin_of(struct irqkit_irq_data *d)
{
	return (unsigned int)d->hwirq;
}

/* The pin requests an interrupt if it latched an edge and is unmasked. */
static void maybe_signal(struct irqkit_irq_data *d)
{
	unsigned int bit = 1u << pin_of(d);

	if ((__atomic_load_n(&gpx.status, __ATOMIC_ACQUIRE) & bit) &&
	    !(__atomic_load_n(&gpx.mask, __ATOMIC_ACQUIRE) & bit))
		irqkit_cpu_signal(d->cpu, d->irq);
}

static void gpx_mask(struct irqkit_irq_data *d)
{
	__atomic_fetch_or(&gpx.mask, 1u << pin_of(d), __ATOMIC_ACQ_REL);
}

static void gpx_unmask(struct irqkit_irq_data *d)
{
	__atomic_fetch_and(&gpx.mask, ~(1u << pin_of(d)), __ATOMIC_ACQ_REL);
	maybe_signal(d);		/* an edge latched while masked interrupts now */
}

/* Writing 1 to a STATUS bit clears it: this edge is being handled. */
static void gpx_ack(struct irqkit_irq_data *d)
{
	__atomic_fetch_and(&gpx.status, ~(1u << pin_of(d)), __ATOMIC_ACQ_REL);
}

static void gpx_mask_ack(struct irqkit_irq_data *d)
{
	gpx_mask(d);
	gpx_ack(d);
}

/* Rising edges only: the expander has no level or falling-edge mode. */
static int gpx_set_type(struct irqkit_irq_data *d, unsigned int type)
{
	(void)d;
	return (type & IRQKIT_TYPE_SENSE_MASK) == IRQKIT_TYPE_EDGE_RISING ? 0 : -IRQKIT_EINVAL;
}

/* Replay an edge the core held back (a disabled line's): latch it again. */
static int gpx_retrigger(struct irqkit_irq_data *d)
{
	__atomic_fetch_or(&gpx.status, 1u << pin_of(d), __ATOMIC_ACQ_REL);
	maybe_signal(d);
	return 1;
}

static int gpx_get_state(struct irqkit_irq_data *d, int which, bool *state)
{
	unsigned int bit = 1u << pin_of(d);

	return irqkit_irqchip_state(which, __atomic_load_n(&gpx.status, __ATOMIC_ACQUIRE) & bit,
				    __atomic_load_n(&gpx.mask, __ATOMIC_ACQUIRE) & bit, state);
}

static struct irqkit_chip gpx_chip = {
	.name			= "GPIOX",
	.irq_mask		= gpx_mask,
	.irq_unmask		= gpx_unmask,
	.irq_ack		= gpx_ack,
	.irq_mask_ack		= gpx_mask_ack,
	.irq_set_type		= gpx_set_type,
	.irq_retrigger		= gpx_retrigger,
	.irq_get_irqchip_state	= gpx_get_state,
};

/* A pin sees a rising edge (the wire, in a real board): its line found through the domain. */
static void pin_edge(unsigned int pin)
{
	__atomic_fetch_add(&gpx.edges, 1, __ATOMIC_RELAXED);
	__atomic_fetch_or(&gpx.status, 1u << pin, __ATOMIC_ACQ_REL);
	maybe_signal(irqkit_irq_get_irq_data(irqkit_irq_find_mapping(gpx.domain, pin)));
}

/* The domain's map(): a pin got a line; attach it to the chip, rising edges. */
static int gpx_map(struct irqkit_irq_domain *d, unsigned int irq, irqkit_hwirq_t pin)
{
	int ret = irqkit_irq_set_chip_and_handler_name(irq, &gpx_chip, irqkit_handle_edge_irq,
						       "edge");

	(void)pin;
	if (!ret)
		ret = irqkit_irq_set_chip_data(irq, d->host_data);
	if (!ret)
		ret = irqkit_irq_set_default_type(irq, IRQKIT_TYPE_EDGE_RISING);
	return ret;
}

static const struct irqkit_irq_domain_ops gpx_domain_ops = {
	.map	= gpx_map,
};

/*
 * What the chip's probe does: a domain for its pins.  A driver of a pin
 * asks for the pin's line with irqkit_irq_create_mapping(), as a device
 * tree lookup would give it in Linux.
 */
static struct irqkit_fwnode gpx_fwnode = { .name = "gpiox" };

static int gpx_probe(void)
{
	gpx.domain = irqkit_irq_domain_create_linear(&gpx_fwnode, PINS, &gpx_domain_ops, &gpx);
	return gpx.domain ? 0 : -IRQKIT_ENOMEM;
}

static void gpx_remove(void)
{
	for (unsigned int pin = 0; pin < PINS; pin++)
		irqkit_irq_dispose_mapping(irqkit_irq_find_mapping(gpx.domain, pin));
	irqkit_irq_domain_remove(gpx.domain);
}

/* ---- a driver of the pins ------------------------------------------------------------------ */

static unsigned int handled[PINS];
static char names[PINS][16];		/* a line's name lives as long as its handler */

static enum irqkit_irqreturn button_interrupt(int irq, void *dev_id)
{
	unsigned int *count = dev_id;

	(void)irq;
	(*count)++;		/* one CPU runs a line's handler at a time */
	return IRQKIT_HANDLED;
}

static int fail(const char *what, int ret)
{
	fprintf(stderr, "custom_chip: %s: %d\n", what, ret);
	irqkit_stop();
	return 1;
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .nr_irqs = 32, .nr_cpus = 2 };
	int edges = argc > 1 ? atoi(argv[1]) : 1000;
	unsigned int total = 0, irq[PINS];
	char table[4096];
	int ret;

	ret = irqkit_start(&cfg);
	if (ret)
		return fail("irqkit_start", ret);
	ret = gpx_probe();
	if (ret)
		return fail("gpx_probe", ret);
	for (unsigned int pin = 0; pin < PINS; pin++) {
		irq[pin] = irqkit_irq_create_mapping_affinity(gpx.domain, pin, NULL);
		if (!irq[pin])
			return fail("irq_create_mapping", -IRQKIT_ENOMEM);
		snprintf(names[pin], sizeof(names[pin]), "button%u", pin);
		ret = irqkit_request_irq(irq[pin], button_interrupt, IRQKIT_F_TRIGGER_RISING,
					 names[pin], &handled[pin]);
		if (ret)
			return fail("request_irq", ret);
	}
	/* the expander has 8 pins: no line for a ninth */
	if (irqkit_irq_create_mapping_affinity(gpx.domain, PINS, NULL) != 0)
		return fail("a ninth pin was mapped", -1);
	/* a level trigger is refused by the chip, so by request_irq */
	if (irqkit_irq_set_irq_type(irq[0], IRQKIT_TYPE_LEVEL_HIGH) != -IRQKIT_EINVAL)
		return fail("a level trigger was accepted", -1);

	for (int i = 0; i < edges; i++) {
		for (unsigned int pin = 0; pin < PINS; pin++) {
			pin_edge(pin);
			ret = irqkit_wait_delivered(irq[pin], 5000);
			if (ret)
				return fail("irqkit_wait_delivered", ret);
		}
	}
	/* an edge while the line is disabled waits in STATUS, and is taken at enable */
	irqkit_disable_irq(irq[3]);
	pin_edge(3);
	if (irqkit_wait_delivered(irq[3], 20) != -IRQKIT_ETIMEDOUT)
		return fail("an edge of a disabled line was delivered", -1);
	irqkit_enable_irq(irq[3]);
	ret = irqkit_wait_delivered(irq[3], 5000);
	if (ret)
		return fail("the held-back edge", ret);

	for (unsigned int pin = 0; pin < PINS; pin++)
		total += handled[pin];
	irqkit_show_interrupts_buf(table, sizeof(table), 0);
	printf("%s", table);
	printf("custom_chip: %u edges, %u handled\n", gpx.edges, total);
	for (unsigned int pin = 0; pin < PINS; pin++)
		irqkit_free_irq(irq[pin], &handled[pin]);
	gpx_remove();
	irqkit_stop();
	return total == gpx.edges ? 0 : 1;
}
