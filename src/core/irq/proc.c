// SPDX-License-Identifier: MIT
/* The /proc/interrupts table in Linux's format (kernel/irq/proc.c). */
#include "internals.h"
#include "bh/bh.h"
#include "debug/debug.h"
#include <irqkit/proc.h>
#include <irqkit/observe.h>
#include <irqkit/fault.h>

/* The core's table writer (printk.c), under the short names this file uses everywhere. */
#define sbuf		irqkit__sbuf
#define sb_printf	irqkit__sb_printf
#define sb_finish	irqkit__sb_finish

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
	return sb_finish(&sb);
}

static const struct {
	const char *name, *what;
} sysvec_rows[] = {
	[SYSVEC_LOC] = { "LOC", "Local timer interrupts" },
	[SYSVEC_IWI] = { "IWI", "IRQ work interrupts" },
	[SYSVEC_CAL] = { "CAL", "Function call interrupts" },
};

/* @m of @nr CPUs as Linux's %*pb prints it: 32-bit hex chunks, the first only as wide as it needs. */
static void sb_mask(struct sbuf *sb, irqkit_cpumask m, unsigned int nr)
{
	unsigned int chunks = (nr + 31) / 32, first_bits = nr - (chunks - 1) * 32;

	for (unsigned int i = chunks; i-- > 0;) {
		unsigned int bits = i == chunks - 1 ? first_bits : 32;

		sb_printf(sb, "%s%0*x", i == chunks - 1 ? "" : ",", (int)(bits + 3) / 4,
			  (unsigned int)(m >> (i * 32)));
	}
}

/* @m as Linux's %*pbl prints it: ranges, "0-1,3". */
static void sb_mask_list(struct sbuf *sb, irqkit_cpumask m, unsigned int nr)
{
	bool first = true;

	for (unsigned int c = 0; c < nr; c++) {
		unsigned int e = c;

		if (!(m & (1ull << c)))
			continue;
		while (e + 1 < nr && (m & (1ull << (e + 1))))
			e++;
		sb_printf(sb, e > c ? "%s%u-%u" : "%s%u", first ? "" : ",", c, e);
		first = false;
		c = e;
	}
}

int irqkit_show_irq_affinity_buf(unsigned int irq, unsigned int which, char *buf, size_t size)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	struct irqkit_desc *desc = irq_to_desc(irq);
	struct sbuf sb = { buf, size, 0 };
	irqkit_cpumask all, m;
	unsigned long flags;

	if (!desc || which > IRQKIT_PROC_EFFECTIVE_AFFINITY_LIST || (!buf && size))
		return -IRQKIT_EINVAL;
	all = irqkit_cpus_mask(&rt->possible_cpus);
	flags = desc_lock_irqsave(desc);
	if (which >= IRQKIT_PROC_EFFECTIVE_AFFINITY)
		m = 1ull << desc->irq_data.cpu;
	else
		m = desc->irq_data.affinity ? desc->irq_data.affinity & all : all;
	desc_unlock_irqrestore(desc, flags);
	if (which == IRQKIT_PROC_SMP_AFFINITY || which == IRQKIT_PROC_EFFECTIVE_AFFINITY)
		sb_mask(&sb, m, rt->nr_cpus);
	else
		sb_mask_list(&sb, m, rt->nr_cpus);
	sb_printf(&sb, "\n");
	return sb_finish(&sb);
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
	/*
	 * The arch rows, as x86 writes them: the CPU's own vectors, a count per
	 * CPU and what they are (LOC: the local timer interrupts that ran
	 * hrtimers; the jiffies tick is no interrupt of a CPU here), then ERR,
	 * the stray vectors.
	 */
	for (unsigned int v = 0; v < ARRAY_SIZE(sysvec_rows); v++) {
		sb_printf(&sb, "%*s:", prec, sysvec_rows[v].name);
		for (unsigned int c = 0; c < rt->nr_cpus; c++)
			sb_printf(&sb, " %10u", READ_ONCE(rt->cpus[c].sysvec_count[v]));
		sb_printf(&sb, "   %s\n", sysvec_rows[v].what);
	}
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
	return sb_finish(&sb);
}

/* ---- latency histograms (observe.c), as bcc prints them ---------------------------------------- */

/* Samples in @h (NULL: none). */
static uint64_t hist_samples(const struct irqkit__hist *h)
{
	uint64_t n = 0;

	for (unsigned int b = 0; h && b < IRQKIT_HIST_BUCKETS; b++)
		n += READ_ONCE(h->bucket[b]);
	return n;
}

static void show_hist(struct sbuf *sb, const char *title, const struct irqkit__hist *h)
{
	struct irqkit_hist_data d;
	unsigned int first = IRQKIT_HIST_BUCKETS, last = 0;
	uint64_t top = 0;

	if (!h)
		return;
	irqkit__hist_copy(h, &d);
	if (!d.count)
		return;
	for (unsigned int b = 0; b < IRQKIT_HIST_BUCKETS; b++) {
		if (!d.bucket[b])
			continue;
		if (first == IRQKIT_HIST_BUCKETS)
			first = b;
		last = b;
		if (d.bucket[b] > top)
			top = d.bucket[b];
	}
	sb_printf(sb, "%s: %llu samples, mean %llu ns, max %llu ns\n", title,
		  (unsigned long long)d.count, (unsigned long long)(d.sum_ns / d.count),
		  (unsigned long long)d.max_ns);
	sb_printf(sb, "%*s : count     distribution\n", 34, "nsecs");
	for (unsigned int b = first; b <= last; b++) {
		unsigned long long lo = b ? 1ull << (b - 1) : 0, hi = b ? (1ull << b) - 1 : 0;
		unsigned int stars = (unsigned int)(d.bucket[b] * 40 / top);

		if (b == IRQKIT_HIST_BUCKETS - 1)
			sb_printf(sb, "%15llu -> %-15s : %-8llu |", lo, "...", (unsigned long long)d.bucket[b]);
		else
			sb_printf(sb, "%15llu -> %-15llu : %-8llu |", lo, hi,
				  (unsigned long long)d.bucket[b]);
		for (unsigned int i = 0; i < 40; i++)
			sb_printf(sb, "%c", i < stars ? '*' : ' ');
		sb_printf(sb, "|\n");
	}
	sb_printf(sb, "\n");
}

static const char *const work_what[3] = {
	"queue_work to start", "run", "due to start (delayed work)",
};

static void show_wq_hist(const struct irqkit_workqueue *wq, const char *name, void *arg)
{
	char title[96];

	for (unsigned int i = 0; i < 3; i++) {
		irqkit__snprintf(title, sizeof(title), "workqueue %s: %s", name, work_what[i]);
		show_hist(arg, title, irqkit__wq_hist(wq, i));
	}
}

int irqkit_show_hist_buf(char *buf, size_t size)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	struct sbuf sb = { buf, size, 0 };
	char title[128];

	if (!irqkit_started() || (!buf && size))
		return -IRQKIT_EINVAL;
	if (!irqkit__obs_hist(IRQKIT_HIST_IRQ_LATENCY, 0))
		return sb_finish(&sb);		/* never started in this run: nothing */
	for (unsigned int irq = 0; irq < rt->nr_irqs; irq++) {
		struct irqkit_desc *desc = &rt->descs[irq];
		unsigned long flags;
		char names[96] = "";
		size_t n = 0;

		if (!hist_samples(irqkit__obs_hist(IRQKIT_HIST_IRQ_LATENCY, irq)) &&
		    !hist_samples(irqkit__obs_hist(IRQKIT_HIST_IRQ_DURATION, irq)))
			continue;		/* a line without samples: no lock taken */
		flags = desc_lock_irqsave(desc);
		for (struct irqkit_action *a = desc->action; a && n < sizeof(names); a = a->next)
			n += (size_t)irqkit__snprintf(names + n, sizeof(names) - n, "%s%s",
						      a == desc->action ? "" : ", ",
						      a->name ? a->name : "");
		desc_unlock_irqrestore(desc, flags);
		irqkit__snprintf(title, sizeof(title), "irq %u (%s): raise to handler", irq, names);
		show_hist(&sb, title, irqkit__obs_hist(IRQKIT_HIST_IRQ_LATENCY, irq));
		irqkit__snprintf(title, sizeof(title), "irq %u (%s): handlers", irq, names);
		show_hist(&sb, title, irqkit__obs_hist(IRQKIT_HIST_IRQ_DURATION, irq));
	}
	for (unsigned int nr = 0; nr < IRQKIT_NR_SOFTIRQS; nr++) {
		irqkit__snprintf(title, sizeof(title), "softirq %s: raise to start", irqkit__softirq_name(nr));
		show_hist(&sb, title, irqkit__obs_hist(IRQKIT_HIST_SOFTIRQ_DELAY, nr));
		irqkit__snprintf(title, sizeof(title), "softirq %s: run", irqkit__softirq_name(nr));
		show_hist(&sb, title, irqkit__obs_hist(IRQKIT_HIST_SOFTIRQ_DURATION, nr));
	}
	for (unsigned int i = 0; i < 2; i++) {
		unsigned int nr = i ? IRQKIT_TASKLET_SOFTIRQ : IRQKIT_HI_SOFTIRQ;

		irqkit__snprintf(title, sizeof(title), "tasklets (%s): schedule to start",
				 irqkit__softirq_name(nr));
		show_hist(&sb, title, irqkit__obs_hist(IRQKIT_HIST_TASKLET_DELAY, nr));
		irqkit__snprintf(title, sizeof(title), "tasklets (%s): run", irqkit__softirq_name(nr));
		show_hist(&sb, title, irqkit__obs_hist(IRQKIT_HIST_TASKLET_DURATION, nr));
	}
	irqkit__wq_for_each(show_wq_hist, &sb);
	return sb_finish(&sb);
}

/* ---- every counter, as JSON ------------------------------------------------------------------- */

/*
 * @s as a JSON string, in its quotes: quotes, backslashes and control
 * characters escaped; @put gets the text in pieces (runs of plain characters
 * whole).  The platform's trace-file writer uses it too.
 */
void irqkit__core_json_string(const char *s, void (*put)(void *arg, const char *p, size_t n),
			      void *arg)
{
	put(arg, "\"", 1);
	while (s && *s) {
		size_t run = 0;
		unsigned char c;
		char esc[8];

		while (s[run] && (unsigned char)s[run] >= 0x20 && s[run] != '"' && s[run] != '\\')
			run++;
		if (run) {
			put(arg, s, run);
			s += run;
			continue;
		}
		c = (unsigned char)*s++;
		if (c == '"' || c == '\\')
			put(arg, esc, (size_t)irqkit__snprintf(esc, sizeof(esc), "\\%c", c));
		else
			put(arg, esc, (size_t)irqkit__snprintf(esc, sizeof(esc), "\\u%04x", c));
	}
	put(arg, "\"", 1);
}

static void sb_put(void *arg, const char *p, size_t n)
{
	sb_printf(arg, "%.*s", (int)n, p);
}

static void sb_json_string(struct sbuf *sb, const char *s)
{
	irqkit__core_json_string(s, sb_put, sb);
}

static void json_line(struct sbuf *sb, struct irqkit_desc *desc, unsigned int irq, bool first)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	struct irqkit_irq_events ev;
	struct irqkit_fault_stats fs;
	struct irqkit_chip *chip;
	unsigned long flags, last = READ_ONCE(desc->last_unhandled);
	unsigned int istate;
	bool disabled;

	if (last)
		last -= IRQKIT_INITIAL_JIFFIES(rt->hz);
	(void)irqkit_irq_get_event_totals(irq, &ev);
	sb_printf(sb, "%s\n    {\"irq\": %u, \"per_cpu\": [", first ? "" : ",", irq);
	for (unsigned int c = 0; c < rt->nr_cpus; c++)
		sb_printf(sb, "%s%u", c ? ", " : "", READ_ONCE(rt->cpus[c].kstat[irq]));
	sb_printf(sb, "], \"count\": %llu, \"actions\": [", (unsigned long long)irqkit__kstat_sum(irq));
	flags = desc_lock_irqsave(desc);
	for (struct irqkit_action *a = desc->action; a; a = a->next) {
		if (a != desc->action)
			sb_printf(sb, ", ");
		sb_json_string(sb, a->name);
	}
	chip = desc->irq_data.chip;
	sb_printf(sb, "], \"chip\": ");
	sb_json_string(sb, chip && chip->name ? chip->name : "None");
	sb_printf(sb, ", \"type\": \"%s\"", irqd_is_level_type(&desc->irq_data) ? "level" : "edge");
	istate = desc->istate;
	disabled = irqd_irq_disabled(&desc->irq_data);
	sb_printf(sb, ", \"depth\": %u", desc->depth);
	desc_unlock_irqrestore(desc, flags);
	sb_printf(sb, ", \"disabled\": %s, \"spurious_disabled\": %s", disabled ? "true" : "false",
		  (istate & IRQS_SPURIOUS_DISABLED) ? "true" : "false");
	sb_printf(sb, ", \"irq_count\": %u, \"unhandled\": %u, \"last_unhandled_ms\": %lu",
		  READ_ONCE(desc->irq_count), READ_ONCE(desc->irqs_unhandled),
		  (unsigned long)((uint64_t)last * 1000 / rt->hz));
	sb_printf(sb, ", \"threads_handled\": %u", READ_ONCE(desc->threads_handled));
	sb_printf(sb, ", \"events\": %llu, \"coalesced\": %llu, \"lost\": %llu",
		  (unsigned long long)ev.events, (unsigned long long)ev.coalesced,
		  (unsigned long long)ev.lost);
	if (!irqkit_fault_get_stats(irq, &fs) && fs.considered)
		sb_printf(sb, ", \"faults\": {\"considered\": %llu, \"dropped\": %llu, "
			  "\"duplicated\": %llu, \"spurious\": %llu, \"delayed\": %llu, \"stuck\": %llu}",
			  (unsigned long long)fs.considered, (unsigned long long)fs.dropped,
			  (unsigned long long)fs.duplicated, (unsigned long long)fs.spurious,
			  (unsigned long long)fs.delayed, (unsigned long long)fs.stuck);
	sb_printf(sb, "}");
}

int irqkit_show_counters_json(char *buf, size_t size)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	struct sbuf sb = { buf, size, 0 };
	bool first = true;

	if (!irqkit_started() || (!buf && size))
		return -IRQKIT_EINVAL;
	sb_printf(&sb, "{\n  \"cpus\": %u,\n  \"err\": %u,\n  \"irqs\": [", rt->nr_cpus,
		  READ_ONCE(rt->irq_err_count));
	for (unsigned int i = 0; i < rt->nr_irqs; i++) {
		struct irqkit_desc *desc = &rt->descs[i];

		if (!shown(desc, i))
			continue;
		json_line(&sb, desc, i, first);
		first = false;
	}
	sb_printf(&sb, "\n  ],\n  \"softirqs\": {");
	for (unsigned int nr = 0; nr < IRQKIT_NR_SOFTIRQS; nr++) {
		sb_printf(&sb, "%s\n    \"%s\": [", nr ? "," : "", irqkit__softirq_name(nr));
		for (unsigned int c = 0; c < rt->nr_cpus; c++)
			sb_printf(&sb, "%s%u", c ? ", " : "", READ_ONCE(rt->cpus[c].softirq_count[nr]));
		sb_printf(&sb, "]");
	}
	sb_printf(&sb, "\n  },\n  \"histograms\": %s\n}\n", irqkit_hist_enabled() ? "true" : "false");
	return sb_finish(&sb);
}
