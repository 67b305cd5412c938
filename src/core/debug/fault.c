// SPDX-License-Identifier: MIT
/*
 * Fault injection per line (<irqkit/fault.h>).  An arrival is where the CPU
 * takes a line's interrupt after the chip's claim (dispatch.c's handle_signalled;
 * a line with an attribute never takes the direct path, which has no claim);
 * a line with an attribute has IRQS_FAULT set, so the others pay one test of
 * a word the flow reads anyway.
 *
 * A delay counted in delivery points holds the arrival on its CPU's list
 * (the CPU's hardirq holder alone writes it); each delivery point of that
 * CPU that ends with arrivals held marks them pending again (fault_rearm),
 * so the next point finds them; a point counts once however often it looks
 * (the CPU's fault_gen, bumped as each point ends), and at the last one the
 * flow runs.  The decision follows Linux's should_fail():
 * times, then interval, then probability.
 */
#include "core.h"
#include "cpu.h"
#include "debug.h"
#include "irq/internals.h"
#include <irqkit/fault.h>

struct irqkit__fault {
	struct irqkit_fault_attr	attr;		/* desc lock */
	uint32_t			rng;		/* desc lock */
	uint64_t			count;		/* arrivals seen, for interval; desc lock */
	uint64_t			stuck_until;	/* STUCK: ns of the clock; desc lock */
	unsigned int			points_left;	/* a held arrival: points to go; desc lock */
	unsigned int			held_on;	/* and the CPU that holds it */
	unsigned int			seen_gen;	/* that CPU's fault_gen at its last point */
	unsigned int			released;	/* held arrivals let go; desc lock */
	struct irqkit_fault_stats	stats;		/* desc lock to change, READ_ONCE to read */
};

static uint32_t xorshift32(uint32_t *s)
{
	uint32_t x = *s ? *s : 0x9e3779b9u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

/* should_fail(): does this arrival get the fault?  Descriptor lock held. */
static bool should_fail(struct irqkit__fault *f)
{
	struct irqkit_fault_attr *a = &f->attr;

	assert_a_lock_held();
	WRITE_ONCE(f->stats.considered, f->stats.considered + 1);
	if (a->kind == IRQKIT_FAULT_OFF || a->times == 0)
		return false;
	if (a->interval > 1 && ++f->count % a->interval)
		return false;
	if (a->probability <= xorshift32(&f->rng) % 100)
		return false;
	if (a->times > 0)
		a->times--;
	return true;
}

/* The interrupt is lost: acknowledge it at the chip as the flow would, run nothing. */
static void drop_irq(struct irqkit_desc *desc)
{
	struct irqkit_chip *chip = desc->irq_data.chip;
	struct irqkit_irq_data *d = &desc->irq_data;

	if (desc->handle_irq == irqkit_handle_fasteoi_irq) {
		if (chip->irq_eoi)
			chip->irq_eoi(d);
	} else if (!irqd_is_level_type(d) && chip->irq_ack) {
		chip->irq_ack(d);
	}
}

/* One more delivery than the device made (Linux's irq_inject_interrupt). */
static bool extra_irq(struct irqkit_desc *desc)
{
	if (irqd_is_level_type(&desc->irq_data))
		return irqkit__irq_sw_resend(desc) == 0;
	return irqkit__check_irq_resend(desc, true) == 0;
}

/*
 * Hold the arrival back on the CPU the caller plays (it holds that CPU for
 * hardirq, so it alone writes the CPU's list).  Descriptor lock held.
 * Return: false when the list is full (then it is taken now).
 */
static bool hold(struct irqkit_cpu *c, struct irqkit_desc *desc, struct irqkit__fault *f)
{
	desc_assert_locked(desc);
	assert_hardirq_holder(c);
	for (unsigned int i = 0; i < IRQKIT__FAULT_HELD; i++) {
		if (READ_ONCE(c->fault_held[i]))
			continue;
		WRITE_ONCE(c->fault_held[i], irq_desc_get_irq(desc) + 1);
		WRITE_ONCE(c->fault_nheld, c->fault_nheld + 1);
		f->points_left = f->attr.delay_points;
		f->held_on = c->id;
		f->seen_gen = a_load_acquire(&c->fault_gen);	/* this point is its arrival */
		return true;
	}
	return false;
}

/* A held arrival's last point: off the CPU's list.  Its hardirq holder; desc lock. */
static void unhold(struct irqkit_cpu *c, unsigned int irq)
{
	assert_hardirq_holder(c);
	for (unsigned int i = 0; i < IRQKIT__FAULT_HELD; i++) {
		if (READ_ONCE(c->fault_held[i]) != irq + 1)
			continue;
		WRITE_ONCE(c->fault_held[i], 0);
		WRITE_ONCE(c->fault_nheld, c->fault_nheld - 1);
		return;
	}
}

/* An arrival the chip's claim gave @c (its hardirq holder): faulted or not, as should_fail says. */
static void fault_take(struct irqkit_cpu *c, struct irqkit_desc *desc)
{
	struct irqkit__fault *f = desc->fault;
	enum irqkit_fault_kind kind = IRQKIT_FAULT_OFF;
	uint64_t deadline = 0;

	assert_hardirq_holder(c);
	desc_lock(desc);
	if (should_fail(f))
		kind = f->attr.kind;
	switch (kind) {
	case IRQKIT_FAULT_DROP:
		WRITE_ONCE(f->stats.dropped, f->stats.dropped + 1);
		drop_irq(desc);
		desc_unlock(desc);
		/* a level line the device still asserts requests again */
		if (irqd_is_level_type(&desc->irq_data))
			irqkit_cpu_signal(READ_ONCE(desc->irq_data.cpu), irq_desc_get_irq(desc));
		return;
	case IRQKIT_FAULT_DELAY:
		WRITE_ONCE(f->stats.delayed, f->stats.delayed + 1);
		if (f->attr.delay_points && hold(c, desc, f)) {
			/* the chip has acknowledged it; the handlers run points later */
			desc_unlock(desc);
			return;
		}
		deadline = irqkit_plat_now_ns() + (uint64_t)f->attr.delay_us * 1000;
		break;
	case IRQKIT_FAULT_STUCK:
		if (irqd_is_level_type(&desc->irq_data))
			f->stuck_until = irqkit_plat_now_ns() + (uint64_t)f->attr.stuck_ms * 1000000;
		else
			kind = IRQKIT_FAULT_OFF;
		break;
	default:
		break;
	}
	desc_unlock(desc);
	while (deadline && irqkit_plat_now_ns() < deadline)
		irqkit_arch_cpu_relax();
	READ_ONCE(desc->handle_irq)(desc);
	if (kind == IRQKIT_FAULT_STUCK) {
		irqkit__fault_resent(desc);
		return;
	}
	if (kind != IRQKIT_FAULT_DUPLICATE && kind != IRQKIT_FAULT_SPURIOUS)
		return;
	desc_lock(desc);
	if (extra_irq(desc)) {
		if (kind == IRQKIT_FAULT_DUPLICATE)
			WRITE_ONCE(f->stats.duplicated, f->stats.duplicated + 1);
		else
			WRITE_ONCE(f->stats.spurious, f->stats.spurious + 1);
	}
	desc_unlock(desc);
}

/*
 * A signalled line with a fault attribute, on @c (its hardirq holder).  An
 * arrival held back: this delivery point is one of its points; at the last
 * one its handlers run, and the line is pending again for what arrived
 * meanwhile (new arrivals wait in the chip while one is held).  Otherwise
 * the chip's claim and the fault's decision, as for any arrival.
 */
void irqkit__fault_signalled(struct irqkit_cpu *c, struct irqkit_desc *desc)
{
	struct irqkit__fault *f = desc->fault;
	struct irqkit_irq_data *d = &desc->irq_data;
	struct irqkit_chip *chip = READ_ONCE(d->chip);
	unsigned int irq = irq_desc_get_irq(desc);
	unsigned int gen;
	bool run;

	assert_hardirq_holder(c);
	desc_lock(desc);
	if (!f->points_left || f->held_on != c->id) {
		desc_unlock(desc);
		if (!chip->irq_claim || chip->irq_claim(d))
			fault_take(c, desc);
		return;
	}
	/* one delivery point counts once, however often it looks (a raise, then the rest) */
	gen = a_load_acquire(&c->fault_gen);
	if (gen == f->seen_gen) {
		desc_unlock(desc);
		return;
	}
	f->seen_gen = gen;
	run = --f->points_left == 0;
	if (run) {
		f->released++;
		unhold(c, irq);
		if (f->attr.kind == IRQKIT_FAULT_OFF)
			istate_clear(desc, IRQS_FAULT);
	}
	desc_unlock(desc);
	if (!run)
		return;
	READ_ONCE(desc->handle_irq)(desc);
	irqkit__cpu_repend(c, irq);	/* a claim finds what arrived meanwhile, if anything */
}

/* A delivery point of @c ended: its held arrivals are pending again for the next one. */
void irqkit__fault_rearm(struct irqkit_cpu *c)
{
	a_fetch_add(&c->fault_gen, 1);
	for (unsigned int i = 0; i < IRQKIT__FAULT_HELD; i++) {
		unsigned int irq1 = READ_ONCE(c->fault_held[i]);

		if (irq1)
			irqkit__cpu_repend(c, irq1 - 1);
	}
}

/*
 * Is an arrival on @desc held back?  (irqkit_wait_delivered)  *@released
 * gets the count of held arrivals let go so far: a held arrival goes back
 * to the start of the path (pending on its CPU, then taken), so a look
 * along the path that began with none held sees it only if none was let go
 * meanwhile.
 */
bool irqkit__fault_holding(struct irqkit_desc *desc, unsigned int *released)
{
	struct irqkit__fault *f = READ_ONCE(desc->fault);
	unsigned long flags;
	bool held;

	*released = 0;
	if (!f)
		return false;
	flags = desc_lock_irqsave(desc);
	held = f->points_left != 0;
	*released = f->released;
	desc_unlock_irqrestore(desc, flags);
	return held;
}

/*
 * A line held stuck was taken (or its software resend ran): while the time
 * lasts and the line is enabled, it requests again.  Any context.
 */
void irqkit__fault_resent(struct irqkit_desc *desc)
{
	struct irqkit__fault *f = READ_ONCE(desc->fault);
	unsigned long flags;

	if (!f)
		return;
	flags = desc_lock_irqsave(desc);
	if (f->stuck_until && irqkit_plat_now_ns() < f->stuck_until &&
	    !irqd_irq_disabled(&desc->irq_data) && desc->action &&
	    irqkit__irq_sw_resend(desc) == 0)
		WRITE_ONCE(f->stats.stuck, f->stats.stuck + 1);
	else
		f->stuck_until = 0;
	desc_unlock_irqrestore(desc, flags);
}

static const char *const kind_name[] = {
	[IRQKIT_FAULT_OFF] = "off", [IRQKIT_FAULT_DROP] = "drop",
	[IRQKIT_FAULT_DUPLICATE] = "duplicate", [IRQKIT_FAULT_SPURIOUS] = "spurious",
	[IRQKIT_FAULT_DELAY] = "delay", [IRQKIT_FAULT_STUCK] = "stuck",
};

int irqkit_fault_inject(unsigned int irq, const struct irqkit_fault_attr *attr)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	struct irqkit_fault_attr a = attr ? *attr : (struct irqkit_fault_attr){ 0 };
	struct irqkit__fault *f, *fresh = NULL;
	unsigned long flags;

	if (!desc) {
		pr_warn("irqkit_fault_inject: no irq %u", irq);
		return -IRQKIT_EINVAL;
	}
	if ((unsigned int)a.kind > IRQKIT_FAULT_STUCK || a.probability > 100 || a.times < -1 ||
	    a.delay_us > 1000000 || a.delay_points > 1000 || (a.delay_us && a.delay_points) ||
	    a.stuck_ms > 60000) {
		pr_warn("irqkit_fault_inject: irq %u: bad attribute (kind %u, probability %u, times %d, delay_us %u, delay_points %u, stuck_ms %u)",
			irq, (unsigned int)a.kind, a.probability, a.times, a.delay_us, a.delay_points,
			a.stuck_ms);
		return -IRQKIT_EINVAL;
	}
	if (!READ_ONCE(desc->fault)) {
		fresh = irqkit_plat_alloc(sizeof(*fresh));
		if (!fresh)
			return -IRQKIT_ENOMEM;
	}
	flags = desc_lock_irqsave(desc);
	f = desc->fault;
	/* a line's fault state, once made, lives until the run ends */
	if (NEVER(!f && !fresh)) {
		desc_unlock_irqrestore(desc, flags);
		return -IRQKIT_ENODEV;
	}
	if (!f) {
		f = desc->fault = fresh;
		fresh = NULL;
	}
	f->attr = a;
	f->rng = a.seed;
	f->count = 0;
	f->stuck_until = 0;
	/* an arrival held back still ends through the fault path (it clears the flag then) */
	if (a.kind == IRQKIT_FAULT_OFF && !f->points_left)
		istate_clear(desc, IRQS_FAULT);
	else
		istate_set(desc, IRQS_FAULT);
	desc_unlock_irqrestore(desc, flags);
	if (fresh)
		irqkit_plat_free(fresh, sizeof(*fresh));
	if (a.kind != IRQKIT_FAULT_OFF)
		pr_info("irq %u: injecting faults: %s, probability %u%%, interval %u, times %d",
			irq, kind_name[a.kind], a.probability, a.interval, a.times);
	return 0;
}

int irqkit_fault_get_stats(unsigned int irq, struct irqkit_fault_stats *st)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	struct irqkit__fault *f;

	if (!desc || !st)
		return -IRQKIT_EINVAL;
	*st = (struct irqkit_fault_stats){ 0 };
	f = READ_ONCE(desc->fault);
	if (f) {
		st->considered = READ_ONCE(f->stats.considered);
		st->dropped = READ_ONCE(f->stats.dropped);
		st->duplicated = READ_ONCE(f->stats.duplicated);
		st->spurious = READ_ONCE(f->stats.spurious);
		st->delayed = READ_ONCE(f->stats.delayed);
		st->stuck = READ_ONCE(f->stats.stuck);
	}
	return 0;
}

/* The run ends: every line's attribute goes, after a report of what it did. */
void irqkit__faults_exit(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	for (unsigned int i = 0; rt->descs && i < rt->nr_irqs; i++) {
		struct irqkit__fault *f = rt->descs[i].fault;

		if (!f)
			continue;
		if (f->stats.considered)
			pr_info("irq %u: fault injection: %llu interrupts, %llu dropped, %llu duplicated, %llu spurious added, %llu delayed, %llu while stuck",
				i, (unsigned long long)f->stats.considered,
				(unsigned long long)f->stats.dropped,
				(unsigned long long)f->stats.duplicated,
				(unsigned long long)f->stats.spurious,
				(unsigned long long)f->stats.delayed,
				(unsigned long long)f->stats.stuck);
		irqkit_plat_free(f, sizeof(*f));
		rt->descs[i].fault = NULL;
	}
}

/* ---- the specification string ------------------------------------------------ */

static bool parse_uint(const char **p, unsigned long *v)
{
	const char *s = *p;
	unsigned long n = 0;

	if (*s < '0' || *s > '9')
		return false;
	while (*s >= '0' && *s <= '9') {
		if (n > 100000000ul)
			return false;
		n = n * 10 + (unsigned long)(*s++ - '0');
	}
	*v = n;
	*p = s;
	return true;
}

static bool word_is(const char **p, const char *w)
{
	const char *s = *p;

	while (*w && *s == *w)
		s++, w++;
	if (*w || (*s >= 'a' && *s <= 'z') || *s == '_')
		return false;
	*p = s;
	return true;
}

/* One "key=value" of an entry into @a.  Return: 0 or -EINVAL. */
static int parse_key(const char **p, struct irqkit_fault_attr *a)
{
	const struct {
		const char	*key;
		unsigned int	*field;
	} keys[] = {
		{ "probability", &a->probability }, { "interval", &a->interval },
		{ "delay_us", &a->delay_us }, { "delay_points", &a->delay_points },
		{ "stuck_ms", &a->stuck_ms }, { "seed", &a->seed },
	};
	const char *s = *p;
	unsigned long v;
	bool neg;

	if (word_is(&s, "times") && *s == '=') {
		s++;
		neg = *s == '-';		/* -1: no limit, the only negative value */
		s += neg;
		if (!parse_uint(&s, &v) || (neg && v != 1))
			return -IRQKIT_EINVAL;
		a->times = neg ? -1 : (int)v;
		*p = s;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		s = *p;
		if (!word_is(&s, keys[i].key) || *s++ != '=')
			continue;
		if (!parse_uint(&s, &v))
			return -IRQKIT_EINVAL;
		*keys[i].field = (unsigned int)v;
		*p = s;
		return 0;
	}
	return -IRQKIT_EINVAL;
}

/* One entry "IRQ:KIND[:key=value,...]" up to ';' or the end. */
static int parse_entry(const char **p)
{
	struct irqkit_fault_attr a = { .probability = 100, .interval = 1, .times = -1 };
	const char *s = *p;
	unsigned long irq;
	int kind;

	if (!parse_uint(&s, &irq) || *s++ != ':')
		return -IRQKIT_EINVAL;
	for (kind = IRQKIT_FAULT_DROP; kind <= IRQKIT_FAULT_STUCK; kind++)
		if (word_is(&s, kind_name[kind]))
			break;
	if (kind > IRQKIT_FAULT_STUCK)
		return -IRQKIT_EINVAL;
	a.kind = (enum irqkit_fault_kind)kind;
	if (*s == ':') {
		do {
			s++;
			if (parse_key(&s, &a))
				return -IRQKIT_EINVAL;
		} while (*s == ',');
	}
	if (*s && *s != ';')
		return -IRQKIT_EINVAL;
	*p = s;
	return irqkit_fault_inject((unsigned int)irq, &a);
}

int irqkit_fault_parse(const char *spec)
{
	const char *s = spec;

	if (!spec)
		return -IRQKIT_EINVAL;
	while (*s) {
		const char *entry = s;
		int ret = parse_entry(&s);

		if (ret) {
			pr_warn("irqkit: fault specification: bad entry at \"%s\"", entry);
			return ret;
		}
		if (*s == ';')
			s++;
	}
	return 0;
}
