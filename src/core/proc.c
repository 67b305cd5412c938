// SPDX-License-Identifier: MIT
/* The /proc/interrupts table in Linux's format (kernel/irq/proc.c). */
#include "internals.h"
#include <irqkit/proc.h>

struct sbuf {
	char	*buf;
	size_t	size;
	size_t	len;	/* the whole output's length, even past size */
};

static void sb_printf(struct sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	size_t room = sb->len < sb->size ? sb->size - sb->len : 0;
	char scratch[1];

	va_start(ap, fmt);
	sb->len += (size_t)irqkit__vsnprintf(room ? sb->buf + sb->len : scratch,
					     room ? room : sizeof(scratch), fmt, ap);
	va_end(ap);
}

/* Width of the irq column: 3, plus one per power of ten of nr_irqs from 1000, up to 10 (8.1). */
static int irq_prec(unsigned int nr_irqs)
{
	int prec = 3;

	for (unsigned long j = 1000; prec < 10 && j <= nr_irqs; ++prec)
		j *= 10;
	return prec;
}

/* Is the line shown?  Not if hidden, nor without action and with every count 0 (8.2). */
static bool shown(struct irqkit_desc *desc, unsigned int irq)
{
	if (READ_ONCE(desc->settings) & IRQKIT_IRQ_HIDDEN)
		return false;
	return a_load_acquire(&desc->action) || irqkit__kstat_sum(irq);
}

static void show_row(struct sbuf *sb, struct irqkit_desc *desc, unsigned int irq, int prec)
{
	unsigned long flags;
	struct irqkit__runtime *rt = &irqkit__rt;
	struct irqkit_chip *chip;

	sb_printf(sb, "%*u: ", prec, irq);
	for (unsigned int c = 0; c < rt->nr_cpus; c++)
		sb_printf(sb, "%10u ", READ_ONCE(rt->cpus[c].kstat[irq]));
	flags = desc_lock_irqsave(desc);
	chip = desc->irq_data.chip;
	if (!chip)
		sb_printf(sb, " %8s", "None");
	else
		sb_printf(sb, " %8s", chip->name ? chip->name : "-");
	if (desc->irq_data.has_domain)
		sb_printf(sb, " %*lu", prec, desc->irq_data.hwirq);
	else
		sb_printf(sb, " %*s", prec, "");
	sb_printf(sb, " %-8s", irqd_is_level_type(&desc->irq_data) ? "Level" : "Edge");
	if (desc->name)
		sb_printf(sb, "-%-8s", desc->name);
	for (struct irqkit_action *a = desc->action; a; a = a->next)
		sb_printf(sb, a == desc->action ? "  %s" : ", %s", a->name ? a->name : "");
	desc_unlock_irqrestore(desc, flags);
	sb_printf(sb, "\n");
}

unsigned int irqkit_kstat_softirqs_cpu(unsigned int nr, unsigned int cpu)
{
	if (!irqkit__rt.cpus || cpu >= irqkit__rt.nr_cpus || nr >= IRQKIT_NR_SOFTIRQS)
		return 0;
	return READ_ONCE(irqkit__rt.cpus[cpu].softirq_count[nr]);
}

int irqkit_show_softirqs_buf(char *buf, size_t size)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	struct sbuf sb = { buf, size, 0 };

	if (!irqkit_started() || (!buf && size))
		return -IRQKIT_EINVAL;
	sb_printf(&sb, "                    ");
	for (unsigned int c = 0; c < rt->nr_cpus; c++)
		sb_printf(&sb, "CPU%-8u", c);
	sb_printf(&sb, "\n");
	for (unsigned int nr = 0; nr < IRQKIT_NR_SOFTIRQS; nr++) {
		sb_printf(&sb, "%12s:", irqkit__softirq_name(nr));
		for (unsigned int c = 0; c < rt->nr_cpus; c++)
			sb_printf(&sb, " %10u", READ_ONCE(rt->cpus[c].softirq_count[nr]));
		sb_printf(&sb, "\n");
	}
	if (size)
		buf[sb.len < size ? sb.len : size - 1] = '\0';
	return sb.len > 0x7fffffff ? 0x7fffffff : (int)sb.len;
}

int irqkit_show_interrupts_buf(char *buf, size_t size, unsigned int flags)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	struct sbuf sb = { buf, size, 0 };
	int prec;

	if (!irqkit_started() || (!buf && size))
		return -IRQKIT_EINVAL;
	prec = irq_prec(rt->nr_irqs);
	sb_printf(&sb, "%*s", prec + 8, "");
	for (unsigned int c = 0; c < rt->nr_cpus; c++)
		sb_printf(&sb, "CPU%-8u", c);
	sb_printf(&sb, "\n");
	for (unsigned int i = 0; i < rt->nr_irqs; i++) {
		struct irqkit_desc *desc = &rt->descs[i];

		if (shown(desc, i))
			show_row(&sb, desc, i, prec);
	}
	/* the arch rows (8.3): x86's ERR counts stray vectors */
	sb_printf(&sb, "%*s: %10u\n", prec, "ERR", READ_ONCE(rt->irq_err_count));

	if ((flags & IRQKIT_SHOW_IRQKIT) && !(flags & IRQKIT_SHOW_LINUX_ONLY)) {
		/* irqkit's own section: Linux keeps these in /proc/irq/N/spurious */
		sb_printf(&sb, "irqkit: per line: spurious accounting (count, unhandled, last_unhandled), "
			  "arrivals folded into others (coalesced) and never shown (lost)\n");
		for (unsigned int i = 0; i < rt->nr_irqs; i++) {
			struct irqkit_desc *desc = &rt->descs[i];
			struct irqkit_irq_events ev;
			unsigned long last;

			if (!shown(desc, i))
				continue;
			/* milliseconds after start (0: never), not Linux's raw jiffies */
			last = READ_ONCE(desc->last_unhandled);
			if (last)
				last -= IRQKIT_INITIAL_JIFFIES(rt->hz);
			(void)irqkit_irq_get_event_totals(i, &ev);
			sb_printf(&sb, "%*u: %10u %10u %10lu ms %10llu %10llu  %s\n", prec, i,
				  READ_ONCE(desc->irq_count), READ_ONCE(desc->irqs_unhandled),
				  (unsigned long)((uint64_t)last * 1000 / rt->hz),
				  (unsigned long long)ev.coalesced, (unsigned long long)ev.lost,
				  (istate_get(desc) & IRQS_SPURIOUS_DISABLED) ?
				  "disabled as spurious" : "ok");
		}
	}
	if (size)
		buf[sb.len < size ? sb.len : size - 1] = '\0';
	return sb.len > 0x7fffffff ? 0x7fffffff : (int)sb.len;
}
