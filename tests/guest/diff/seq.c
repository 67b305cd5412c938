// SPDX-License-Identifier: MIT
/*
 * The executor of seq.h: parse the whole sequence first (a step that does
 * not parse runs nothing), then run each step with Linux's calls and write
 * its record.  Written for both sides: the kernel module's and irqkit's
 * Linux-name layer, so only names both have, and no C library beyond
 * snprintf and the string functions.
 */
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "seq.h"

#define SEQ_STEPS	512
#define SEQ_LOGS	8
#define SEQ_RUNS	32

enum seq_op {
	OP_LINE, OP_HANDLER, OP_REQUEST, OP_FREE, OP_RAISE, OP_LEVEL, OP_DISABLE,
	OP_DISABLE_NOSYNC, OP_ENABLE, OP_SYNC, OP_IRQS,
};

#define F_SHARED	1u
#define F_ONESHOT	2u
#define F_THREAD	4u
#define F_NOPRIMARY	8u

enum { R_NONE, R_HANDLED, R_WAKE };

struct seq_step {
	enum seq_op	op;
	unsigned int	n, h, arg, flags, repeat;
	unsigned int	nrets;
	unsigned char	rets[SEQ_RETS];
	char		text[80];
};

struct seq_handler {
	unsigned int	id;
	unsigned int	nrets;
	unsigned char	rets[SEQ_RETS];
	unsigned long	hard, thread;
};

/* One run at a time: the executor's state, static (a module's stack is small). */
static struct seq_step steps[SEQ_STEPS];
static struct seq_handler handlers[SEQ_HANDLERS];
static int irqs[SEQ_LINES + 1];			/* line N's irq, 0: not set up */
static unsigned int requested[SEQ_LINES + 1];	/* line N's handlers requested, as bits */
static DEFINE_SPINLOCK(note_lock);		/* runs and logs, from any context */
static struct { unsigned int h; unsigned long count; } runs[SEQ_RUNS];	/* primaries */
static unsigned int nr_runs;
static bool runs_cut;
static unsigned long thread_runs[SEQ_HANDLERS];	/* since the last record */
static char logs[SEQ_LOGS][120];
static unsigned int nr_logs;
static char rec[SEQ_TEXT];

/* ---- parsing ------------------------------------------------------------------------ */

/* The next word of *@p (spaces and tabs between), copied into @w; false at the line's end. */
static bool word(const char **p, char *w, size_t size)
{
	const char *s = *p;
	size_t n = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '\n' || *s == '#')
		return false;
	while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '#') {
		if (n + 1 < size)
			w[n++] = *s;
		s++;
	}
	w[n] = '\0';
	*p = s;
	return true;
}

static bool number(const char *w, unsigned int max, unsigned int *v)
{
	unsigned long n = 0;

	if (!*w)
		return false;
	for (; *w; w++) {
		if (*w < '0' || *w > '9')
			return false;
		n = n * 10 + (unsigned long)(*w - '0');
		if (n > max)
			return false;
	}
	*v = (unsigned int)n;
	return true;
}

static const char *const op_names[] = {
	[OP_LINE] = "line", [OP_HANDLER] = "handler", [OP_REQUEST] = "request",
	[OP_FREE] = "free", [OP_RAISE] = "raise", [OP_LEVEL] = "level",
	[OP_DISABLE] = "disable", [OP_DISABLE_NOSYNC] = "disable_nosync",
	[OP_ENABLE] = "enable", [OP_SYNC] = "sync", [OP_IRQS] = "irqs",
};

/* One step from the words at *@p (after "repeat K", if any).  Return: false if it does not parse. */
static bool parse_step(const char *p, struct seq_step *s)
{
	char w[32];
	unsigned int i;

	if (!word(&p, w, sizeof(w)))
		return false;
	if (!strcmp(w, "repeat")) {
		if (!word(&p, w, sizeof(w)) || !number(w, 1000000, &s->repeat) || !s->repeat)
			return false;
		if (!word(&p, w, sizeof(w)))
			return false;
	}
	for (i = 0; i < ARRAY_SIZE(op_names); i++)
		if (!strcmp(w, op_names[i]))
			break;
	if (i == ARRAY_SIZE(op_names))
		return false;
	s->op = (enum seq_op)i;
	if (s->repeat > 1 && s->op != OP_RAISE && s->op != OP_LEVEL && s->op != OP_DISABLE &&
	    s->op != OP_ENABLE)
		return false;
	switch (s->op) {
	case OP_IRQS:
		if (!word(&p, w, sizeof(w)) || (strcmp(w, "off") && strcmp(w, "on")))
			return false;
		s->arg = !strcmp(w, "off");
		break;
	case OP_HANDLER:
		if (!word(&p, w, sizeof(w)) || !number(w, SEQ_HANDLERS - 1, &s->h))
			return false;
		while (word(&p, w, sizeof(w))) {
			if (s->nrets == SEQ_RETS)
				return false;
			if (!strcmp(w, "none"))
				s->rets[s->nrets++] = R_NONE;
			else if (!strcmp(w, "handled"))
				s->rets[s->nrets++] = R_HANDLED;
			else if (!strcmp(w, "wake"))
				s->rets[s->nrets++] = R_WAKE;
			else
				return false;
		}
		return s->nrets > 0;
	default:
		if (!word(&p, w, sizeof(w)) || !number(w, SEQ_LINES, &s->n) || !s->n)
			return false;
		break;
	}
	switch (s->op) {
	case OP_LINE:
		if (!word(&p, w, sizeof(w)) || (strcmp(w, "edge") && strcmp(w, "level")))
			return false;
		s->arg = !strcmp(w, "level");
		break;
	case OP_LEVEL:
		if (!word(&p, w, sizeof(w)) || !number(w, 1, &s->arg))
			return false;
		break;
	case OP_REQUEST:
	case OP_FREE:
		if (!word(&p, w, sizeof(w)) || !number(w, SEQ_HANDLERS - 1, &s->h))
			return false;
		while (s->op == OP_REQUEST && word(&p, w, sizeof(w))) {
			if (!strcmp(w, "shared"))
				s->flags |= F_SHARED;
			else if (!strcmp(w, "oneshot"))
				s->flags |= F_ONESHOT;
			else if (!strcmp(w, "thread"))
				s->flags |= F_THREAD;
			else if (!strcmp(w, "noprimary"))
				s->flags |= F_NOPRIMARY;
			else
				return false;
		}
		break;
	default:
		break;
	}
	return !word(&p, w, sizeof(w));
}

/* Every step of @text into steps[].  Return: how many, or -(the line that does not parse). */
static int parse(const char *text)
{
	unsigned int line = 0, n = 0;
	const char *p = text;

	while (*p) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *q = p;
		char w[8];

		line++;
		if (word(&q, w, sizeof(w))) {
			struct seq_step *s = &steps[n];

			if (n == SEQ_STEPS)
				return -(int)line;
			memset(s, 0, sizeof(*s));
			s->repeat = 1;
			if (!parse_step(p, s))
				return -(int)line;
			while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
				len--;
			snprintf(s->text, sizeof(s->text), "%.*s", (int)len, p);
			n++;
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	return (int)n;
}

/* ---- what the handlers and the log say ----------------------------------------------- */

/* What the handlers and the log noted is in a record now: start again.  note_lock held. */
static void notes_clear(void)
{
	nr_runs = 0;
	runs_cut = false;
	memset(thread_runs, 0, sizeof(thread_runs));
	nr_logs = 0;
}

static void note_run(unsigned int h)
{
	unsigned long flags;

	spin_lock_irqsave(&note_lock, flags);
	if (nr_runs && runs[nr_runs - 1].h == h)
		runs[nr_runs - 1].count++;
	else if (nr_runs < SEQ_RUNS)
		runs[nr_runs++] = (typeof(runs[0])){ h, 1 };
	else
		runs_cut = true;
	spin_unlock_irqrestore(&note_lock, flags);
}

static irqreturn_t seq_primary(int irq, void *dev_id)
{
	struct seq_handler *h = dev_id;
	unsigned long calls = h->hard++;
	unsigned int r = h->rets[calls < h->nrets ? calls : h->nrets - 1];

	(void)irq;
	note_run(h->id);
	return r == R_WAKE ? IRQ_WAKE_THREAD : r == R_HANDLED ? IRQ_HANDLED : IRQ_NONE;
}

/*
 * Threads are counted, not ordered: the order in which the threads of a
 * shared line's actions run, and where they fall among the next hardirqs,
 * is the scheduler's, on both sides.
 */
static irqreturn_t seq_thread(int irq, void *dev_id)
{
	struct seq_handler *h = dev_id;
	unsigned long flags;

	(void)irq;
	spin_lock_irqsave(&note_lock, flags);
	h->thread++;
	thread_runs[h->id]++;
	spin_unlock_irqrestore(&note_lock, flags);
	return IRQ_HANDLED;
}

/* The kernel's words about lines that a comparison keeps (not the banners around a WARN). */
static const char *const log_words[] = {
	"Unbalanced enable", "already-free", "nobody cared", "Disabling IRQ", "Flags mismatch",
	"Threaded irq requested", "Spurious", "enable_irq before setup",
};

void seq_log(const char *line)
{
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(log_words); i++)
		if (strstr(line, log_words[i]))
			break;
	if (i == ARRAY_SIZE(log_words))
		return;
	spin_lock_irqsave(&note_lock, flags);
	if (nr_logs < SEQ_LOGS)
		snprintf(logs[nr_logs++], sizeof(logs[0]), "%s", line);
	spin_unlock_irqrestore(&note_lock, flags);
}

/* @s with each line's irq number, as a whole number, written LN (numbers differ by side). */
static void put_lines(char *out, size_t size, const char *s)
{
	size_t o = 0;

	while (*s && o + 1 < size) {
		if (*s >= '0' && *s <= '9') {
			unsigned long v = 0;
			const char *d = s;
			unsigned int n;

			while (*d >= '0' && *d <= '9')
				v = v * 10 + (unsigned long)(*d++ - '0');
			for (n = 1; n <= SEQ_LINES; n++)
				if (irqs[n] > 0 && (unsigned long)irqs[n] == v)
					break;
			if (n <= SEQ_LINES) {
				o += (size_t)snprintf(out + o, size - o, "L%u", n);
			} else {
				while (s < d && o + 1 < size)
					out[o++] = *s++;
			}
			s = d;
			if (o >= size)
				o = size - 1;
			continue;
		}
		out[o++] = *s++;
	}
	out[o] = '\0';
}

/* ---- running ------------------------------------------------------------------------ */

/* Append to rec[] at *@o, cut at its end as snprintf cuts. */
#define PUT(o, ...)								\
	do {									\
		if ((o) < sizeof(rec))						\
			(o) += (size_t)snprintf(rec + (o), sizeof(rec) - (o), __VA_ARGS__); \
	} while (0)

/* The record of step @i: its text, @ret if any, the runs and the log since the last. */
static void record(const struct seq_side *side, unsigned int i, const char *ret)
{
	static char fixed[120];
	unsigned long flags;
	size_t o = 0;
	unsigned int k;

	PUT(o, "%u: %s", i + 1, steps[i].text);
	if (ret)
		PUT(o, " => ret %s", ret);
	spin_lock_irqsave(&note_lock, flags);
	if (nr_runs) {
		PUT(o, " | runs");
		for (k = 0; k < nr_runs; k++) {
			PUT(o, " h%u", runs[k].h);
			if (runs[k].count > 1)
				PUT(o, "*%lu", runs[k].count);
		}
		if (runs_cut)
			PUT(o, " ...");
	}
	for (k = 0; k < SEQ_HANDLERS; k++) {
		if (!thread_runs[k])
			continue;
		PUT(o, " | threads h%u", k);
		if (thread_runs[k] > 1)
			PUT(o, "*%lu", thread_runs[k]);
	}
	for (k = 0; k < nr_logs; k++) {
		put_lines(fixed, sizeof(fixed), logs[k]);
		PUT(o, " | log %s", fixed);
	}
	notes_clear();
	spin_unlock_irqrestore(&note_lock, flags);
	side->out(side->ctx, rec);
}

static const char *errname(int e, char *buf, size_t size)
{
	static const struct { int e; const char *name; } names[] = {
		{ 0, "0" }, { -EINVAL, "-EINVAL" }, { -EBUSY, "-EBUSY" }, { -ENOMEM, "-ENOMEM" },
		{ -ENOSYS, "-ENOSYS" },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(buf, size, "%d", e);
	return buf;
}

int seq_run(const struct seq_side *side, const char *text)
{
	unsigned long irqflags[4];
	unsigned int irqs_off = 0;
	char ebuf[16];
	int n = parse(text);

	if (n < 0)
		return -n;
	memset(irqs, 0, sizeof(irqs));
	memset(requested, 0, sizeof(requested));
	for (unsigned int h = 0; h < SEQ_HANDLERS; h++)
		handlers[h] = (struct seq_handler){ .id = h, .nrets = 1, .rets = { R_HANDLED } };
	notes_clear();		/* no handler of the sequence's runs yet */
	for (unsigned int i = 0; i < (unsigned int)n; i++) {
		struct seq_step *s = &steps[i];
		int irq = irqs[s->n], ret = 0;
		bool has_ret = false;
		const char *rets = NULL;

		if (s->op == OP_LINE && irq > 0) {
			snprintf(rec, sizeof(rec), "%u: %s => line %u set up already", i + 1,
				 s->text, s->n);
			side->out(side->ctx, rec);
			continue;
		}

		if (s->op != OP_LINE && s->op != OP_HANDLER && s->op != OP_IRQS && irq <= 0) {
			snprintf(rec, sizeof(rec), "%u: %s => line %u not set up", i + 1, s->text, s->n);
			side->out(side->ctx, rec);
			continue;
		}
		for (unsigned int r = 0; r < s->repeat; r++) {
			switch (s->op) {
			case OP_LINE:
				irqs[s->n] = side->line(side->ctx, s->n, (int)s->arg);
				if (irqs[s->n] <= 0) {
					has_ret = true;
					ret = irqs[s->n] ? irqs[s->n] : -EINVAL;
					irqs[s->n] = 0;
				}
				break;
			case OP_HANDLER:
				handlers[s->h].nrets = s->nrets;
				memcpy(handlers[s->h].rets, s->rets, sizeof(s->rets));
				break;
			case OP_REQUEST: {
				struct seq_handler *h = &handlers[s->h];
				unsigned long f = (s->flags & F_SHARED ? IRQF_SHARED : 0) |
						  (s->flags & F_ONESHOT ? IRQF_ONESHOT : 0);
				static const char *const names[] = { "h0", "h1", "h2", "h3" };

				ret = request_threaded_irq((unsigned int)irq,
							   s->flags & F_NOPRIMARY ? NULL : seq_primary,
							   s->flags & F_THREAD ? seq_thread : NULL, f,
							   names[s->h], h);
				if (!ret)
					requested[s->n] |= 1u << s->h;
				has_ret = true;
				break;
			}
			case OP_FREE:
				rets = free_irq((unsigned int)irq, &handlers[s->h]) ? "name" : "null";
				requested[s->n] &= ~(1u << s->h);
				break;
			case OP_RAISE:
				side->raise(side->ctx, (unsigned int)irq);
				break;
			case OP_LEVEL:
				side->set_level(side->ctx, (unsigned int)irq, (int)s->arg);
				break;
			case OP_DISABLE:
				disable_irq((unsigned int)irq);
				break;
			case OP_DISABLE_NOSYNC:
				disable_irq_nosync((unsigned int)irq);
				break;
			case OP_ENABLE:
				enable_irq((unsigned int)irq);
				break;
			case OP_SYNC:
				synchronize_irq((unsigned int)irq);
				break;
			case OP_IRQS:
				if (s->arg && irqs_off < ARRAY_SIZE(irqflags)) {
					local_irq_save(irqflags[irqs_off]);
					irqs_off++;
				} else if (!s->arg && irqs_off) {
					irqs_off--;
					local_irq_restore(irqflags[irqs_off]);
				}
				break;
			}
			if (!irqs_off)
				side->settle(side->ctx);
		}
		record(side, i, rets ? rets : has_ret ? errname(ret, ebuf, sizeof(ebuf)) : NULL);
	}
	while (irqs_off) {
		irqs_off--;
		local_irq_restore(irqflags[irqs_off]);
	}
	side->settle(side->ctx);
	/*
	 * A line's state, where it has a handler: one without keeps the disable
	 * depth its last free left, which Linux changed after 6.1 (irq_shutdown
	 * counts the shutdown in the depth instead of setting it to 1).
	 */
	for (unsigned int l = 1; l <= SEQ_LINES; l++) {
		if (irqs[l] <= 0 || !requested[l])
			continue;
		snprintf(rec, sizeof(rec), "line %u: %s", l,
			 irqd_irq_disabled(irq_get_irq_data((unsigned int)irqs[l])) ? "disabled" :
											  "enabled");
		side->out(side->ctx, rec);
	}
	for (unsigned int h = 0; h < SEQ_HANDLERS; h++) {
		if (!handlers[h].hard && !handlers[h].thread)
			continue;
		snprintf(rec, sizeof(rec), "handler %u: %lu hard, %lu thread", h, handlers[h].hard,
			 handlers[h].thread);
		side->out(side->ctx, rec);
	}
	/* what the sequence left requested goes, unrecorded: the side stops clean */
	for (unsigned int l = 1; l <= SEQ_LINES; l++)
		for (unsigned int h = 0; h < SEQ_HANDLERS; h++)
			if (requested[l] & (1u << h))
				(void)free_irq((unsigned int)irqs[l], &handlers[h]);
	return 0;
}
