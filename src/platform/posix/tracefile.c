// SPDX-License-Identifier: MIT
/*
 * The timeline recorder's file (<irqkit/observe.h>): Chrome's trace-event
 * JSON, which Perfetto's UI and chrome://tracing open.
 *
 *   process 1 "virtual CPUs": per CPU a track "CPUn hardirq" (tid 2n) and a
 *             track "CPUn softirq" (tid 2n+1), where its softirqs, tasklets
 *             and timers nest;
 *   process 2 "threads": a track per thread that recorded (work items,
 *             threaded handlers, raises and queue_work calls from process
 *             context), named as the thread is;
 *   slices ("X") with start and duration in microseconds, instants ("i")
 *   for raises and queue_work, flows ("s" -> "f") from each to the handler
 *   run or item run it led to.
 *
 * IRQKIT_TRACE=FILE: record from the start of the runtime, write FILE at
 * its stop (IRQKIT_TRACE_EVENTS: the ring size per thread).
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <irqkit-core/platform.h>
#include <irqkit-core/tracering.h>
#include "posix.h"

#define PID_CPUS	1
#define PID_THREADS	2

/* Functions named once per file: a symbol lookup costs microseconds, a file holds millions. */
#define NAMES_CACHED	1024

struct name_cache {
	const void	*addr;
	char		name[128];
};

struct writer {
	FILE		*f;
	struct name_cache *names;	/* open addressing by address; NULL: no cache */
	long		events;
	uint64_t	lost;		/* overwritten in full rings */
	unsigned int	cpus_seen;	/* a bit per CPU with events, for the names */
	bool		first;
};

static void file_put(void *arg, const char *p, size_t n)
{
	fwrite(p, 1, n, arg);
}

static void put_string(FILE *f, const char *s)
{
	irqkit__core_json_string(s, file_put, f);
}

/* Microseconds with the nanoseconds, as the format's ts and dur want them. */
static void put_us(FILE *f, const char *key, uint64_t ns)
{
	fprintf(f, ",\"%s\":%" PRIu64 ".%03u", key, ns / 1000, (unsigned int)(ns % 1000));
}

static void begin_event(struct writer *w)
{
	fputs(w->first ? "\n" : ",\n", w->f);
	w->first = false;
	w->events++;
}

/* The symbol of @addr, or its address. */
static const char *symbol_of(struct writer *w, const void *addr, char *buf, size_t len)
{
	struct name_cache *slot = NULL;

	if (w->names) {
		size_t h = ((uintptr_t)addr >> 4) * 2654435761u % NAMES_CACHED;

		for (size_t i = 0; i < NAMES_CACHED; i++) {
			struct name_cache *c = &w->names[(h + i) % NAMES_CACHED];

			if (c->addr == addr && c->name[0])
				return c->name;
			if (!c->name[0]) {
				slot = c;
				break;
			}
		}
	}
	irqkit_plat_symbol(addr, buf, len);
	if (!buf[0])
		snprintf(buf, len, "%p", addr);
	if (slot) {
		slot->addr = addr;
		snprintf(slot->name, sizeof(slot->name), "%s", buf);
	}
	return buf;
}

static void event_name(struct writer *w, const struct irqkit__tev *e, char *buf, size_t len)
{
	char sym[128];

	switch (e->kind) {
	case IRQKIT__TEV_HANDLER:
	case IRQKIT__TEV_THREAD_FN:
	case IRQKIT__TEV_SOFTIRQ:
		snprintf(buf, len, "%s", e->what ? (const char *)e->what : "?");
		return;
	case IRQKIT__TEV_RAISE:
		snprintf(buf, len, "raise irq %u", e->arg);
		return;
	default:
		snprintf(buf, len, e->kind == IRQKIT__TEV_QUEUE ? "queue_work %s" : "%s",
			 symbol_of(w, e->what, sym, sizeof(sym)));
		return;
	}
}

static const char *const category[] = {
	[IRQKIT__TEV_HANDLER] = "hardirq",	[IRQKIT__TEV_THREAD_FN] = "irq_thread",
	[IRQKIT__TEV_SOFTIRQ] = "softirq",	[IRQKIT__TEV_TASKLET] = "tasklet",
	[IRQKIT__TEV_TIMER] = "timer",		[IRQKIT__TEV_WORK] = "workqueue",
	[IRQKIT__TEV_RAISE] = "irq",		[IRQKIT__TEV_QUEUE] = "workqueue",
};

static void write_event(struct writer *w, const struct irqkit__tbuf *b, const struct irqkit__tev *e)
{
	bool instant = e->kind == IRQKIT__TEV_RAISE || e->kind == IRQKIT__TEV_QUEUE;
	const char *flow_name = e->kind == IRQKIT__TEV_RAISE || e->kind == IRQKIT__TEV_HANDLER ?
				"raise" : "queue_work";
	int pid = e->track >= 0 ? PID_CPUS : PID_THREADS;
	long tid = e->track >= 0 ? e->track : b->tid;
	char name[192];

	if (e->track >= 0 && (unsigned int)e->track / 2 < 32)
		w->cpus_seen |= 1u << (e->track / 2);
	event_name(w, e, name, sizeof(name));
	begin_event(w);
	fputs("{\"name\":", w->f);
	put_string(w->f, name);
	fprintf(w->f, ",\"cat\":\"%s\",\"ph\":\"%s\",\"pid\":%d,\"tid\":%ld",
		e->kind < sizeof(category) / sizeof(category[0]) ? category[e->kind] : "irqkit",
		instant ? "i" : "X", pid, tid);
	put_us(w->f, "ts", e->ts);
	if (instant)
		fputs(",\"s\":\"t\"", w->f);
	else
		put_us(w->f, "dur", e->dur);
	if (e->kind == IRQKIT__TEV_HANDLER)
		fprintf(w->f, ",\"args\":{\"irq\":%u,\"ret\":%u}", e->arg & 0xffffffu, e->arg >> 24);
	else if (e->kind == IRQKIT__TEV_THREAD_FN || e->kind == IRQKIT__TEV_RAISE)
		fprintf(w->f, ",\"args\":{\"irq\":%u}", e->arg);
	fputs("}", w->f);
	if (!e->flow)
		return;
	/* the link: from the instant, to the start of the slice it led to */
	begin_event(w);
	fprintf(w->f, "{\"name\":\"%s\",\"cat\":\"flow\",\"ph\":\"%s\",\"id\":%" PRIu64
		",\"pid\":%d,\"tid\":%ld", flow_name, instant ? "s" : "f", e->flow, pid, tid);
	if (!instant)
		fputs(",\"bp\":\"e\"", w->f);
	put_us(w->f, "ts", e->ts);
	fputs("}", w->f);
}

/* A metadata event: @what ("process_name", "thread_name") of @pid, or of @pid's @tid (-1: none). */
static void put_name(struct writer *w, const char *what, int pid, long tid, const char *name)
{
	begin_event(w);
	fprintf(w->f, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d", what, pid);
	if (tid >= 0)
		fprintf(w->f, ",\"tid\":%ld", tid);
	fputs(",\"args\":{\"name\":", w->f);
	put_string(w->f, name);
	fputs("}}", w->f);
}

static void write_ring(const struct irqkit__tbuf *b, uint64_t from, uint64_t to, void *arg)
{
	struct writer *w = arg;

	w->lost += from;
	if (from == to)
		return;
	if (b->tid >= 0)		/* a CPU context's tracks are named at the end */
		put_name(w, "thread_name", PID_THREADS, b->tid, b->name[0] ? b->name : "thread");
	for (uint64_t i = from; i < to; i++)
		write_event(w, b, &b->ev[i % b->size]);
}

static void write_names(struct writer *w)
{
	static const char *const procs[] = { NULL, "virtual CPUs", "threads" };

	char name[32];

	for (int pid = PID_CPUS; pid <= PID_THREADS; pid++)
		put_name(w, "process_name", pid, -1, procs[pid]);
	for (unsigned int cpu = 0; cpu < 32; cpu++) {
		if (!(w->cpus_seen & (1u << cpu)))
			continue;
		for (unsigned int soft = 0; soft < 2; soft++) {
			snprintf(name, sizeof(name), "CPU%u %s", cpu, soft ? "softirq" : "hardirq");
			put_name(w, "thread_name", PID_CPUS, (long)(cpu * 2 + soft), name);
		}
	}
}

static void note_any(const struct irqkit__tbuf *b, uint64_t from, uint64_t to, void *arg)
{
	*(bool *)arg |= to > from;
}

long irqkit_trace_write(const char *path)
{
	struct writer w = { .first = true };
	bool any = false;
	int err = 0;

	if (!path)
		return -IRQKIT_EINVAL;
	irqkit_trace_stop();
	irqkit__core_trace_for_each(note_any, &any);
	if (!any)
		return -ENODATA;
	w.f = fopen(path, "w");
	if (!w.f) {
		err = -errno;
		irqkit_printk(IRQKIT_LOG_ERR, "irqkit: cannot write the trace to %s: %s", path,
			      strerror(errno));
		return err;
	}
	w.names = calloc(NAMES_CACHED, sizeof(*w.names));	/* slower without, no less right */
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", w.f);
	irqkit__core_trace_for_each(write_ring, &w);
	write_names(&w);
	fprintf(w.f, "\n],\"otherData\":{\"producer\":\"irqkit\",\"events_overwritten\":\"%" PRIu64
		"\"}}\n", w.lost);
	free(w.names);
	if (ferror(w.f))
		err = -EIO;
	if (fclose(w.f) && !err)
		err = -errno;
	if (err) {
		irqkit_printk(IRQKIT_LOG_ERR, "irqkit: writing the trace to %s failed: %s", path,
			      strerror(-err));
		return err;
	}
	if (w.lost)
		irqkit_printk(IRQKIT_LOG_WARNING,
			      "irqkit: trace %s: %" PRIu64 " oldest events were overwritten (rings full; IRQKIT_TRACE_EVENTS or irqkit_trace_start() sets their size)",
			      path, w.lost);
	return w.events;
}

/* IRQKIT_TRACE's file, as it was when the runtime started. */
static char trace_at_stop[4096];

/* IRQKIT_HIST=1, IRQKIT_TRACE=FILE: switched on with the runtime. */
void irqkit__posix_observe_start(void)
{
	const char *hist = getenv("IRQKIT_HIST");
	const char *trace = getenv("IRQKIT_TRACE");
	const char *events = getenv("IRQKIT_TRACE_EVENTS");

	if (hist && hist[0] == '1' && !hist[1])
		(void)irqkit_hist_enable(true);
	if (trace && *trace) {
		char *end = NULL;
		unsigned long n = events && *events ? strtoul(events, &end, 10) : 0;

		if (end && (*end || n > (1ul << 24))) {
			irqkit_printk(IRQKIT_LOG_WARNING,
				      "irqkit: IRQKIT_TRACE_EVENTS=%s is not a size up to 16777216: the default",
				      events);
			n = 0;
		}
		if (strlen(trace) >= sizeof(trace_at_stop))
			irqkit_printk(IRQKIT_LOG_WARNING, "irqkit: IRQKIT_TRACE: the path is too long");
		else if (!irqkit_trace_start((unsigned int)n))
			strcpy(trace_at_stop, trace);
	}
}

/* At stop, before the rings are freed: write IRQKIT_TRACE's file. */
void irqkit__posix_observe_stop(void)
{
	if (trace_at_stop[0])
		(void)irqkit_trace_write(trace_at_stop);
	trace_at_stop[0] = '\0';
}
