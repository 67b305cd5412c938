// SPDX-License-Identifier: MIT
/*
 * Latency histograms and the timeline recorder (<irqkit/observe.h>).
 *
 * The hot paths look at irqkit__obs, one word, and call in here only when it
 * is nonzero.  Histograms are arrays of log2 buckets added to with relaxed
 * atomics (several CPUs may add to one).  The recorder writes rings of
 * events: one per virtual CPU's hardirq context and one per its softirq
 * context (one holder at a time writes each), and one per thread for
 * process context, each head published with a release store.  Rings live
 * until the runtime stops.
 */
#include "core.h"
#include "cpu.h"
#include "bh/bh.h"
#include "time/time.h"
#include "debug.h"
#include "irq/internals.h"
#include <irqkit/observe.h>
#include <irqkit/workqueue.h>

_Static_assert(sizeof(((struct irqkit__hist *)0)->bucket) ==
	       IRQKIT_HIST_BUCKETS * sizeof(uint64_t), "core.h and observe.h agree");

HIDDEN unsigned int irqkit__obs;

static struct {
	struct irqkit__hist	*irq;		/* [nr_irqs][2]: latency, duration */
	unsigned int		nr_irqs;
	struct irqkit__hist	softirq[IRQKIT_NR_SOFTIRQS][2];	/* delay, duration */
	struct irqkit__hist	tasklet[2][2];	/* [HI, TASKLET][delay, duration] */
	bool			used;		/* started in this run */
	/* recorder */
	struct irqkit__tbuf	**cpu_rings;	/* [2 * nr_cpus]: each CPU's hardirq and softirq */
	unsigned int		nr_cpu_rings;
	struct irqkit__tbuf	*bufs;		/* every thread's ring, newest first */
	unsigned int		gen;		/* of the recording; never 0 while one exists */
	unsigned int		size;		/* events per ring */
	uint64_t		next_flow;
} obs;

/* ---- histograms -------------------------------------------------------------------------- */

/* The lines' histograms, once made in this run (published with a release store). */
static inline struct irqkit__hist *irq_hists(void)
{
	return a_load_acquire(&obs.irq);
}

void irqkit__hist_add(struct irqkit__hist *h, uint64_t ns)
{
	unsigned int b = ns ? 64u - (unsigned int)__builtin_clzll(ns) : 0;
	uint64_t max = READ_ONCE(h->max);

	if (b >= IRQKIT_HIST_BUCKETS)
		b = IRQKIT_HIST_BUCKETS - 1;
	a_add_relaxed(&h->bucket[b], 1);
	a_add_relaxed(&h->sum, ns);
	while (ns > max && !a_cas(&h->max, &max, ns))
		;
}

void irqkit__hist_copy(const struct irqkit__hist *h, struct irqkit_hist_data *out)
{
	*out = (struct irqkit_hist_data){ .sum_ns = READ_ONCE(h->sum), .max_ns = READ_ONCE(h->max) };
	for (unsigned int b = 0; b < IRQKIT_HIST_BUCKETS; b++) {
		out->bucket[b] = READ_ONCE(h->bucket[b]);
		out->count += out->bucket[b];
	}
}

/* Relaxed stores: a sample may still be added by a hook that looked before the switch went off. */
void irqkit__hist_clear(struct irqkit__hist *h, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (unsigned int b = 0; b < IRQKIT_HIST_BUCKETS; b++)
			WRITE_ONCE(h[i].bucket[b], 0);
		WRITE_ONCE(h[i].sum, 0);
		WRITE_ONCE(h[i].max, 0);
	}
}

static bool running(void)
{
	return READ_ONCE(irqkit__rt.nr_irqs) != 0;
}

int irqkit_hist_enable(bool on)
{
	might_sleep();
	if (!on) {
		a_fetch_and(&irqkit__obs, ~IRQKIT__OBS_HIST);
		return 0;
	}
	if (!running())
		return -IRQKIT_ENODEV;
	if (!obs.irq) {
		struct irqkit__hist *h = irqkit_plat_alloc(sizeof(*h) * 2 * irqkit__rt.nr_irqs);

		if (!h)
			return -IRQKIT_ENOMEM;
		obs.nr_irqs = irqkit__rt.nr_irqs;
		a_store_release(&obs.irq, h);	/* the hooks load it with acquire */
	}
	a_fetch_and(&irqkit__obs, ~IRQKIT__OBS_HIST);
	irqkit__hist_clear(obs.irq, 2 * (size_t)obs.nr_irqs);
	irqkit__hist_clear(&obs.softirq[0][0], 2 * IRQKIT_NR_SOFTIRQS);
	irqkit__hist_clear(&obs.tasklet[0][0], 4);
	irqkit__wq_hist_clear();
	/* stamps left from an earlier recording would measure the pause */
	for (unsigned int irq = 0; irq < obs.nr_irqs; irq++)
		WRITE_ONCE(irqkit__rt.descs[irq].raised_ns, 0);
	for (unsigned int cpu = 0; cpu < irqkit__rt.nr_cpus; cpu++)
		for (unsigned int nr = 0; nr < IRQKIT_NR_SOFTIRQS; nr++)
			WRITE_ONCE(irqkit__rt.cpus[cpu].softirq_raised[nr], 0);
	WRITE_ONCE(obs.used, true);
	a_fetch_or(&irqkit__obs, IRQKIT__OBS_HIST);
	return 0;
}

bool irqkit_hist_enabled(void)
{
	return READ_ONCE(irqkit__obs) & IRQKIT__OBS_HIST;
}


/* Is @key one of @kind's (see enum irqkit_hist_kind)?  The WORK kinds have none. */
static bool hist_key_valid(enum irqkit_hist_kind kind, unsigned int key)
{
	switch (kind) {
	case IRQKIT_HIST_IRQ_LATENCY:
	case IRQKIT_HIST_IRQ_DURATION:
		return key < READ_ONCE(irqkit__rt.nr_irqs);
	case IRQKIT_HIST_SOFTIRQ_DELAY:
	case IRQKIT_HIST_SOFTIRQ_DURATION:
		return key < IRQKIT_NR_SOFTIRQS;
	case IRQKIT_HIST_TASKLET_DELAY:
	case IRQKIT_HIST_TASKLET_DURATION:
		return key == IRQKIT_HI_SOFTIRQ || key == IRQKIT_TASKLET_SOFTIRQ;
	default:
		return false;
	}
}

/* Histogram @kind of @key (as irqkit_hist_read()), or NULL: none kept, or not started in this run. */
const struct irqkit__hist *irqkit__obs_hist(int kind, unsigned int key)
{
	struct irqkit__hist *irq = irq_hists();

	if (!READ_ONCE(obs.used) || !hist_key_valid(kind, key))
		return NULL;
	switch (kind) {
	case IRQKIT_HIST_IRQ_LATENCY:
	case IRQKIT_HIST_IRQ_DURATION:
		return irq && key < obs.nr_irqs ? &irq[key * 2 + (kind - IRQKIT_HIST_IRQ_LATENCY)] : NULL;
	case IRQKIT_HIST_SOFTIRQ_DELAY:
	case IRQKIT_HIST_SOFTIRQ_DURATION:
		return &obs.softirq[key][kind - IRQKIT_HIST_SOFTIRQ_DELAY];
	default:
		return &obs.tasklet[key == IRQKIT_TASKLET_SOFTIRQ][kind - IRQKIT_HIST_TASKLET_DELAY];
	}
}

int irqkit_hist_read(enum irqkit_hist_kind kind, unsigned int key, struct irqkit_hist_data *out)
{
	const struct irqkit__hist *h;

	if (!out || !hist_key_valid(kind, key))
		return -IRQKIT_EINVAL;
	h = irqkit__obs_hist(kind, key);
	if (!h)
		return -IRQKIT_ENODATA;
	irqkit__hist_copy(h, out);
	return 0;
}

int irqkit_hist_read_wq(enum irqkit_hist_kind kind, const struct irqkit_workqueue *wq,
			struct irqkit_hist_data *out)
{
	if (!wq || !out || kind < IRQKIT_HIST_WORK_DELAY || kind >= IRQKIT_HIST_NR)
		return -IRQKIT_EINVAL;
	if (!READ_ONCE(obs.used))
		return -IRQKIT_ENODATA;
	irqkit__hist_copy(irqkit__wq_hist(wq, kind - IRQKIT_HIST_WORK_DELAY), out);
	return 0;
}

/* ---- the recorder ------------------------------------------------------------------------ */

static bool tracing(void)
{
	return READ_ONCE(irqkit__obs) & IRQKIT__OBS_TRACE;
}

static struct irqkit__tbuf *tbuf_alloc(size_t size, int tid)
{
	struct irqkit__tbuf *b = irqkit_plat_alloc(sizeof(*b) + size * sizeof(b->ev[0]));

	if (b) {
		b->size = size;
		b->tid = tid;
	}
	return b;
}

static void tbuf_free(struct irqkit__tbuf *b)
{
	irqkit_plat_free(b, sizeof(*b) + b->size * sizeof(b->ev[0]));
}

/* Its first writer in a recording empties a ring: one writer at a time, so nothing else writes. */
static struct irqkit__tbuf *tbuf_for(struct irqkit__tbuf *b, unsigned int gen)
{
	if (b->gen != gen) {
		a_store_release(&b->head, 0);
		a_store_release(&b->gen, gen);
	}
	return b;
}

/*
 * The ring for an event on @track: a CPU context's (made when the recording
 * started: its holder, one thread at a time, writes it), or the calling
 * thread's, made on its first event in process context.
 */
static struct irqkit__tbuf *tbuf_self(struct irqkit_task *t, int track)
{
	unsigned int gen = a_load_acquire(&obs.gen);
	struct irqkit__tbuf *b = t->trace;
	int tid;

	if (track >= 0) {
		if ((unsigned int)track >= READ_ONCE(obs.nr_cpu_rings))
			return NULL;
		return tbuf_for(a_load_acquire(&obs.cpu_rings[track]), gen);
	}
	if (likely(b && t->trace_gen == gen && b->gen == gen))
		return b;
	/* this thread's ring from an earlier recording of this run, or a new one */
	tid = irqkit_plat_thread_id();
	for (b = a_load_acquire(&obs.bufs); b; b = b->next)
		if (b->tid == tid)
			break;
	if (!b) {
		b = tbuf_alloc(READ_ONCE(obs.size), tid);
		if (!b)
			return NULL;
		b->next = READ_ONCE(obs.bufs);
		while (!a_cas(&obs.bufs, &b->next, b))
			;
	}
	/* a thread id may be a new thread's: name the ring after its writer */
	irqkit_plat_thread_name(b->name, sizeof(b->name));
	t->trace = b;
	t->trace_gen = gen;
	return tbuf_for(b, gen);
}

/*
 * A track: the hardirq (2n) or softirq (2n + 1) context of virtual CPU n that
 * the thread is in, or the thread itself (-1).  Two per CPU: a hardirq may
 * run on one thread while another holds the CPU's softirq context, so their
 * slices could overlap without nesting.
 */
static int track_of(const struct irqkit_task *t)
{
	if (t->preempt_count & IRQKIT_HARDIRQ_MASK)
		return (int)irqkit__this_cpu()->id * 2;
	if (t->preempt_count & IRQKIT_SOFTIRQ_OFFSET)
		return (int)irqkit__this_cpu()->id * 2 + 1;
	return -1;
}

void irqkit__trace_event(unsigned int kind, uint64_t ts, uint64_t end, const void *what,
			 uint64_t flow, uint32_t arg)
{
	struct irqkit_task *t = irqkit_arch_current();
	struct irqkit__tbuf *b;
	struct irqkit__tev *e;
	uint64_t head;
	int track;

	if (!tracing())
		return;			/* the histograms alone call here too */
	track = track_of(t);
	b = tbuf_self(t, track);
	if (!b)
		return;
	head = b->head;
	e = &b->ev[head % b->size];
	WRITE_ONCE(e->ts, ts);
	WRITE_ONCE(e->dur, end - ts);
	WRITE_ONCE(e->what, what);
	WRITE_ONCE(e->flow, flow);
	WRITE_ONCE(e->kind, kind);
	WRITE_ONCE(e->arg, arg);
	WRITE_ONCE(e->track, track);
	a_store_release(&b->head, head + 1);
}

uint64_t irqkit__trace_flow(void)
{
	return a_fetch_add(&obs.next_flow, 1) + 1;
}

int irqkit_trace_start(unsigned int events_per_thread)
{
	unsigned int gen;

	might_sleep();
	if (events_per_thread > (1u << 24))
		return -IRQKIT_EINVAL;
	if (!running())
		return -IRQKIT_ENODEV;
	a_fetch_and(&irqkit__obs, ~IRQKIT__OBS_TRACE);
	/*
	 * A ring keeps the size it was made with until the runtime stops (a late
	 * writer of the last recording may still hold it); its next writer
	 * empties it when it sees the new generation.
	 */
	WRITE_ONCE(obs.size, events_per_thread ? events_per_thread : 65536);
	if (!obs.cpu_rings) {
		unsigned int n = 2 * irqkit__rt.nr_cpus;
		struct irqkit__tbuf **rings = irqkit_plat_alloc(n * sizeof(*rings));

		for (unsigned int i = 0; rings && i < n; i++) {
			rings[i] = tbuf_alloc(obs.size, -1);
			if (!rings[i]) {
				while (i--)
					tbuf_free(rings[i]);
				irqkit_plat_free(rings, n * sizeof(*rings));
				rings = NULL;
			}
		}
		if (!rings)
			return -IRQKIT_ENOMEM;
		a_store_release(&obs.cpu_rings, rings);
		a_store_release(&obs.nr_cpu_rings, n);
	}
	gen = READ_ONCE(obs.gen) + 1;
	a_store_release(&obs.gen, gen ? gen : 1);
	a_fetch_or(&irqkit__obs, IRQKIT__OBS_TRACE);
	return 0;
}

void irqkit_trace_stop(void)
{
	a_fetch_and(&irqkit__obs, ~IRQKIT__OBS_TRACE);
}

/*
 * Call @fn for each ring of the last recording with the range of events to
 * read: the recording must be stopped.  A thread that looked at the switch
 * before it went off may still write one event past the head it published;
 * when the ring has wrapped that slot is the oldest, so the oldest
 * IRQKIT__TBUF_SLACK are left out, and counted as overwritten.
 */
static void ring_read(const struct irqkit__tbuf *b, unsigned int gen,
		      void (*fn)(const struct irqkit__tbuf *b, uint64_t from, uint64_t to, void *arg),
		      void *arg)
{
	uint64_t head, from = 0;

	if (a_load_acquire(&b->gen) != gen || !gen)
		return;
	head = a_load_acquire(&b->head);
	if (head > b->size)
		from = head - b->size + IRQKIT__TBUF_SLACK;
	fn(b, from, head, arg);
}

void irqkit__core_trace_for_each(void (*fn)(const struct irqkit__tbuf *b, uint64_t from,
					    uint64_t to, void *arg),
				 void *arg)
{
	unsigned int gen = a_load_acquire(&obs.gen);

	for (unsigned int i = 0; i < a_load_acquire(&obs.nr_cpu_rings); i++)
		ring_read(obs.cpu_rings[i], gen, fn, arg);
	for (const struct irqkit__tbuf *b = a_load_acquire(&obs.bufs); b; b = b->next)
		ring_read(b, gen, fn, arg);
}

/* The runtime stops: everything off, everything freed. */
void irqkit__obs_exit(void)
{
	a_store_seq(&irqkit__obs, 0);
	if (obs.irq)
		irqkit_plat_free(obs.irq, sizeof(*obs.irq) * 2 * obs.nr_irqs);
	obs.irq = NULL;
	obs.nr_irqs = 0;
	obs.used = false;
	while (obs.bufs) {
		struct irqkit__tbuf *b = obs.bufs;

		obs.bufs = b->next;
		tbuf_free(b);
	}
	for (unsigned int i = 0; i < obs.nr_cpu_rings; i++)
		tbuf_free(obs.cpu_rings[i]);
	if (obs.cpu_rings)
		irqkit_plat_free(obs.cpu_rings, obs.nr_cpu_rings * sizeof(*obs.cpu_rings));
	obs.cpu_rings = NULL;
	obs.nr_cpu_rings = 0;
}

/* ---- the hooks --------------------------------------------------------------------------- */

/* A stamp is the time + 1: 0 says none (the virtual clock starts at 0). */
static inline uint64_t stamp_of(uint64_t ns)
{
	return ns + 1;
}

/* From a stamp to @now; 0 for a stamp a racing writer put after @now. */
static inline uint64_t since(uint64_t stamp, uint64_t now)
{
	return now >= stamp - 1 ? now - (stamp - 1) : 0;
}

void irqkit__obs_raise(unsigned int irq)
{
	struct irqkit_desc *desc = irq_to_desc(irq);
	unsigned int on = READ_ONCE(irqkit__obs);
	uint64_t now = irqkit__now_ns(), zero = 0;

	if (!desc)
		return;
	if (on & IRQKIT__OBS_HIST)
		a_cas(&desc->raised_ns, &zero, stamp_of(now));
	if (on & IRQKIT__OBS_TRACE) {
		uint64_t flow = irqkit__trace_flow();

		/* the first raise not yet handled starts the link to the handler run */
		zero = 0;
		if (!a_cas(&desc->flow, &zero, flow))
			flow = 0;
		irqkit__trace_event(IRQKIT__TEV_RAISE, now, now, NULL, flow, irq);
	}
}

uint64_t irqkit__obs_irq_begin(struct irqkit_desc *desc, uint64_t *flow)
{
	uint64_t now = irqkit__now_ns();
	uint64_t raised = a_xchg_relaxed(&desc->raised_ns, 0);

	*flow = a_xchg_relaxed(&desc->flow, 0);
	if (raised && irqkit_hist_enabled() && irq_hists())
		irqkit__hist_add(&irq_hists()[irq_desc_get_irq(desc) * 2], since(raised, now));
	return now;
}

uint64_t irqkit__obs_handler(struct irqkit_desc *desc, const struct irqkit_action *action,
			     unsigned int res, uint64_t start, uint64_t *flow)
{
	uint64_t now = irqkit__now_ns();

	irqkit__trace_event(IRQKIT__TEV_HANDLER, start, now, action->name, *flow,
			    irq_desc_get_irq(desc) | (res << 24));
	*flow = 0;
	return now;
}

void irqkit__obs_irq_end(struct irqkit_desc *desc, uint64_t start, uint64_t end)
{
	if (irqkit_hist_enabled() && irq_hists())
		irqkit__hist_add(&irq_hists()[irq_desc_get_irq(desc) * 2 + 1], end - start);
}

void irqkit__obs_softirq_raise(struct irqkit_cpu *c, unsigned int nr)
{
	uint64_t zero = 0, now = irqkit__now_ns();

	if (irqkit_hist_enabled())
		a_cas(&c->softirq_raised[nr], &zero, stamp_of(now));
}

uint64_t irqkit__obs_softirq_begin(struct irqkit_cpu *c, unsigned int nr)
{
	uint64_t now = irqkit__now_ns();
	uint64_t raised = a_xchg_relaxed(&c->softirq_raised[nr], 0);

	if (raised && irqkit_hist_enabled())
		irqkit__hist_add(&obs.softirq[nr][0], since(raised, now));
	return now;
}

void irqkit__obs_softirq_end(unsigned int nr, uint64_t start)
{
	uint64_t now = irqkit__now_ns();

	if (irqkit_hist_enabled())
		irqkit__hist_add(&obs.softirq[nr][1], now - start);
	irqkit__trace_event(IRQKIT__TEV_SOFTIRQ, start, now, irqkit__softirq_name(nr), 0, nr);
}

void irqkit__obs_tasklet_sched(struct irqkit_tasklet *t)
{
	uint64_t now = irqkit__now_ns();

	WRITE_ONCE(t->stamp, stamp_of(now));
}

uint64_t irqkit__obs_tasklet_begin(struct irqkit_tasklet *t, unsigned int nr)
{
	uint64_t now = irqkit__now_ns();
	uint64_t stamp = a_xchg_relaxed(&t->stamp, 0);

	if (stamp && irqkit_hist_enabled())
		irqkit__hist_add(&obs.tasklet[nr == IRQKIT_TASKLET_SOFTIRQ][0],
				 since(stamp, now));
	return now;
}

void irqkit__obs_tasklet_end(const void *fn, unsigned int nr, uint64_t start)
{
	uint64_t now = irqkit__now_ns();

	if (irqkit_hist_enabled())
		irqkit__hist_add(&obs.tasklet[nr == IRQKIT_TASKLET_SOFTIRQ][1], now - start);
	irqkit__trace_event(IRQKIT__TEV_TASKLET, start, now, fn, 0, nr);
}

void irqkit__obs_work_queued(struct irqkit_work *work, bool timed, uint64_t due)
{
	uint64_t now = irqkit__now_ns();
	uint64_t flow = 0;

	WRITE_ONCE(work->stamp, stamp_of(timed ? due : now));
	if (tracing()) {
		flow = irqkit__trace_flow();
		irqkit__trace_event(IRQKIT__TEV_QUEUE, now, now, irqkit__work_fn(work), flow, 0);
	}
	WRITE_ONCE(work->flow, flow);
}

/* The worker takes @work, still the owner of its PENDING bit: stamp and flow are the queuer's. */
uint64_t irqkit__obs_work_begin(struct irqkit_work *work, struct irqkit__hist *wq_hist,
				uint64_t *flow)
{
	uint64_t now = irqkit__now_ns();
	uint64_t stamp = READ_ONCE(work->stamp);

	*flow = READ_ONCE(work->flow);
	WRITE_ONCE(work->stamp, 0);
	WRITE_ONCE(work->flow, 0);
	if (stamp && irqkit_hist_enabled()) {
		bool delayed = READ_ONCE(work->data) & IRQKIT_WORK_DELAYED;

		irqkit__hist_add(&wq_hist[delayed ? 2 : 0], since(stamp, now));
	}
	return now;
}

void irqkit__obs_work_end(const void *fn, struct irqkit__hist *wq_hist, uint64_t start,
			  uint64_t flow)
{
	uint64_t now = irqkit__now_ns();

	if (irqkit_hist_enabled())
		irqkit__hist_add(&wq_hist[1], now - start);
	irqkit__trace_event(IRQKIT__TEV_WORK, start, now, fn, flow, 0);
}

void irqkit__obs_slice(unsigned int kind, const void *what, uint64_t start, uint32_t arg)
{
	irqkit__trace_event(kind, start, irqkit__now_ns(), what, 0, arg);
}
