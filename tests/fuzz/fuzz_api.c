// SPDX-License-Identifier: MIT
/*
 * API-sequence fuzzer (libFuzzer, clang).  Each input decodes to a sequence of
 * calls on a deterministic runtime with two virtual CPUs: request and free
 * with every sharing flag and trigger, NULL and wrong dev_ids, lines out of
 * range or without a chip; disable, enable, synchronize; raises and level
 * changes; interrupts and bottom halves off and on; the clock; tasklets,
 * timers and work; stop and start inside one input.  Inputs that begin
 * with the byte 0xF2 (version 2) also reach irqkit_wait_delivered(), the
 * histograms, the timeline recorder, and a stop made by another thread than
 * the one that started the run (which played CPU 0), followed by calls on
 * the stopped run's objects.  Inputs that begin with 0xF3 (version 3) also
 * leave the deterministic run for an episode of another mode and come
 * back: threaded mode with a line bound to an eventfd, or the simulator.
 * Inputs that begin with 0xF4 (version 4) also move lines between CPUs,
 * let this thread play CPU 1 for a moment, and take CPU 1 offline and
 * back (CPU hotplug).
 * Inputs that begin with 0xF5 (version 5) also create, wake, park, stop
 * and signal kthreads, and send signals to this thread that its
 * interruptible sleeps then see.
 * Every other input decodes as version 1 did, so the committed corpus and
 * regressions keep their meaning.
 *
 * A reference model says what Linux answers and the run must agree:
 * - request_irq's error code and its order (-EINVAL for a bad flag, a
 *   missing line or handler, -ENOSYS without a chip, -EBUSY for a sharing
 *   mismatch), free_irq's result and "Trying to free already-free IRQ";
 * - the disable depth after every call and "Unbalanced enable for IRQ";
 * - a handler runs only for a dev_id registered on its line, only with its
 *   line enabled, in hardirq context with interrupts off, and each run
 *   calls every action of the line once;
 * - every raise of an edge line is accounted at the end of the input:
 *   raises = flow runs + coalesced (chip and core) + still waiting;
 * - a tasklet scheduled N times before it runs runs once;
 * - (version 2) wait_delivered: -EINVAL for a line that does not exist, 0
 *   for an enabled edge line with a handler (this thread's CPU delivers
 *   it), and never 0
 *   while an edge is still latched or pending; hist_enable and trace_start
 *   0 while running; hist_read -EINVAL for a line that does not exist,
 *   -ENODATA before the histograms were started in this run;
 *   trace_write -ENODATA before the recorder was started in this run
 *   (after it, the events written, or -ENODATA while none was recorded);
 *   after a stop from another thread, the starting thread's interrupt and
 *   bottom-half calls and the old objects' calls are clean (no sanitizer
 *   report) and the next start works;
 * - (version 3, eventfd episode) binding refuses a line out of range
 *   (-EINVAL), a bad descriptor (-EBADF), a bound line (-EBUSY); unbinding
 *   refuses a line with a handler (-EBUSY); the handler runs in hardirq
 *   context with interrupts off, and once the line is enabled again and
 *   delivered, the events its deliveries stand for add up to what was
 *   written to the eventfd, whatever the disables, synchronizes and moves
 *   between the writes;
 * - (version 3, simulator episode) every raise is accounted (runs +
 *   coalesced) once delivered, tasklets run once per schedule batch, and
 *   the same seed and operations give the same schedule (the run is
 *   repeated and the schedules' hashes compared);
 * - (version 4) set_affinity: 0 when the mask holds an online CPU and the
 *   line's chip can move (software lines), else -EINVAL; remove_cpu(1) 0
 *   when online, 1 when offline already, remove_cpu(0) -EBUSY (this
 *   thread plays it); add_cpu(1) 0 or 1 the other way round; after each,
 *   every software line on the CPU the model's migration rules give (an
 *   online CPU of its affinity, else the first online one; none moves
 *   back); and the accounting above still holds at the end of the input,
 *   whatever lines moved off CPU 1 with their arrivals pending;
 * - (version 5) kthread_create gives a task; kthread_stop of one never
 *   woken is -EINTR, of a woken one its value (or -EINTR when the stop
 *   came first), a second stop (or one after the runtime's stop) the same
 *   value again; kthread_park 0, -EBUSY when asked already, kthread_unpark
 *   lets it go on; send_sig 0 to a live task (a kthread drops it: its
 *   interruptible sleep goes on), -ESRCH to a joined one, -EINVAL for a
 *   number outside 1-64; with a signal pending on this thread
 *   wait_event_interruptible is -ERESTARTSYS, down_interruptible -EINTR,
 *   kernel_dequeue_signal gives the lowest, flush_signals clears them.
 * A disagreement aborts with the model's and the runtime's values.
 *
 * Without libFuzzer (IRQKIT_FUZZ_STANDALONE) it replays the files named on
 * the command line: the regression run of the corpus and of every crash.
 */
#include <irqkit/irqkit.h>
#include <irqkit/explore.h>
#include <irqkit/fd.h>
#include <irqkit/observe.h>
#include <irqkit/workqueue.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define NR_IRQS		32
#define NR_CPUS		2
#define NR_EDGE		8	/* lines 0-7: software edge */
#define NR_LEVEL	8	/* lines 8-15: software level; 16-31: no chip */
#define NR_DEVS		4
#define MAX_ACTIONS	8
#define FUZZ_V2		0xf2	/* first byte of a version-2 input */
#define FUZZ_V3		0xf3	/* of a version-3 input */
#define FUZZ_V4		0xf4	/* of a version-4 input */
#define FUZZ_V5		0xf5	/* of a version-5 input */

/* ---- the model ---------------------------------------------------------------- */

struct mline {
	int		devs[MAX_ACTIONS];	/* registered dev indexes, in order */
	bool		shared[MAX_ACTIONS];
	int		nr;
	unsigned int	depth;
	bool		level;			/* the line's trigger type now */
	long		raises;			/* accepted raises (edge lines) */
	long		runs;			/* flow runs: every action called once */
	int		calls_in_run;		/* actions called so far in this run */
	/* at the last change of trigger type: what was counted until then */
	long		base_raises, base_runs, base_coalesced, base_waiting;
	unsigned int	aff, cpu;		/* affinity and effective CPU (version 4) */
	/*
	 * An edge raised while the line was CPU 1's may still wait in CPU
	 * 1's pending set after the line moved: it is that CPU's interrupt,
	 * as an interrupt already sent to a CPU's local APIC is.  Cleared
	 * when CPU 1 runs or goes offline (its pending arrivals move);
	 * CPU 1 may also run inside a wait the model does not follow, so the
	 * flag only ever spares a check.
	 */
	bool		left_on_cpu1;
};

static struct {
	struct mline	line[NR_IRQS];
	bool		irqs_off, bh_off;
	int		warn_unbalanced, warn_free;	/* expected warnings */
	int		seen_unbalanced, seen_free;	/* warnings logged */
	int		tasklet_sched[2], tasklet_runs[2];
	bool		started;
	bool		hist_started, traced;	/* in this run (version 2) */
	unsigned int	online;			/* CPUs online (version 4) */
	unsigned long long sigs;		/* signals pending on this thread (version 5) */
} m;

static struct irqkit_tasklet tasklets[2];
static struct irqkit_timer_list timers[2];
static struct irqkit_work works[2];
static int devs[NR_DEVS];		/* dev_id = &devs[i] */
static struct irqkit_wait_queue_head kt_wq;	/* version 5: kthreads sleep here */
static struct irqkit_semaphore kt_sem;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz_api: model disagrees: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/*
 * --to-seq: the input's calls in the text form of tests/guest/diff/seq.h,
 * for the comparison with the guest's kernel: those of version 1 that the
 * form has, up to the first stop (line i is seq line i + 1: an edge line,
 * a level line, a descriptor with no chip, or no descriptor).
 */
static char seq_body[32768];
static size_t seq_len;
static bool seq_on;			/* writing: --to-seq, no stop yet */
static uint64_t seq_used;		/* lines named, as bits of the fuzzer's numbers */

static void seq_step(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void seq_step(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!seq_on || seq_len >= sizeof(seq_body))
		return;
	va_start(ap, fmt);
	n = vsnprintf(seq_body + seq_len, sizeof(seq_body) - seq_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		seq_len += (size_t)n;
}

static unsigned int seq_line(unsigned int irq)
{
	seq_used |= 1ull << irq;
	return irq + 1;
}

static void log_hook(void *arg, int level, const char *line)
{
	(void)arg;
	(void)level;
	if (strstr(line, "Unbalanced enable for IRQ"))
		m.seen_unbalanced++;
	if (strstr(line, "Trying to free already-free IRQ"))
		m.seen_free++;
	if (getenv("IRQKIT_FUZZ_ECHO"))
		fprintf(stderr, "  log: %s\n", line);
}

static int dev_index(void *dev_id)
{
	for (int i = 0; i < NR_DEVS; i++)
		if (dev_id == &devs[i])
			return i;
	return -1;
}

static enum irqkit_irqreturn handler(int irq, void *dev_id)
{
	struct mline *l;
	int d = dev_index(dev_id), k;

	if (irq < 0 || irq >= NR_IRQS)
		fail("handler called for irq %d", irq);
	l = &m.line[irq];
	if (!irqkit_in_hardirq() || !irqkit_irqs_disabled())
		fail("irq %d handler outside hardirq or with interrupts on", irq);
	if (l->depth)
		fail("irq %d handler ran with the line disabled (depth %u)", irq, l->depth);
	for (k = 0; k < l->nr && l->devs[k] != d; k++)
		;
	if (k == l->nr)
		fail("irq %d handler ran for dev %d, not registered", irq, d);
	/* actions run in registration order, all of them, one run at a time */
	if (++l->calls_in_run == l->nr) {
		l->calls_in_run = 0;
		l->runs++;
		if (l->level)
			irqkit_sw_set_level((unsigned int)irq, false);	/* the device lets go */
	}
	return IRQKIT_HANDLED;
}

static void tasklet_fn(unsigned long i)
{
	if (!m.tasklet_sched[i])
		fail("tasklet %lu ran without a schedule", i);
	m.tasklet_sched[i] = 0;
	m.tasklet_runs[i]++;
}

static void timer_fn(struct irqkit_timer_list *t)
{
	(void)t;
}

static void work_fn(struct irqkit_work *w)
{
	(void)w;
}

/* ---- start and stop --------------------------------------------------------------- */

static void start(void)
{
	struct irqkit_config cfg = { .nr_irqs = NR_IRQS, .nr_cpus = NR_CPUS,
				     .mode = IRQKIT_MODE_DETERMINISTIC, .log = log_hook };

	if (irqkit_start(&cfg) ||
	    irqkit_swchip_add(0, NR_EDGE, IRQKIT_TYPE_EDGE_RISING) ||
	    irqkit_swchip_add(NR_EDGE, NR_LEVEL, IRQKIT_TYPE_LEVEL_HIGH))
		fail("start");
	memset(m.line, 0, sizeof(m.line));
	irqkit_init_waitqueue_head(&kt_wq);
	irqkit_sema_init(&kt_sem, 0);
	for (int i = 0; i < NR_IRQS; i++)
		m.line[i].depth = 1;	/* a line nobody requested is disabled, as Linux's */
	for (int i = 0; i < NR_IRQS; i++)
		m.line[i].aff = (1u << NR_CPUS) - 1;
	for (int i = NR_EDGE; i < NR_EDGE + NR_LEVEL; i++)
		m.line[i].level = true;
	m.irqs_off = m.bh_off = false;
	m.started = true;
	m.online = (1u << NR_CPUS) - 1;
	m.hist_started = m.traced = false;
	for (int i = 0; i < 2; i++) {
		irqkit_tasklet_init(&tasklets[i], tasklet_fn, (unsigned long)i);
		m.tasklet_sched[i] = 0;
		irqkit_timer_setup(&timers[i], timer_fn, 0);
		irqkit_init_work(&works[i], work_fn);
	}
}

/* The end of a run: interrupts back on, every line accounted, then stop. */
static void check_accounting(void)
{
	for (int i = 0; i < NR_EDGE; i++) {
		struct mline *l = &m.line[i];
		struct irqkit_sw_stats st;
		struct irqkit_irq_info info;
		long waiting;

		if (l->calls_in_run)
			fail("irq %d: a run called %d of its %d actions", i, l->calls_in_run, l->nr);
		if (l->level || irqkit_sw_get_stats((unsigned int)i, &st) ||
		    irqkit_irq_get_info((unsigned int)i, &info))
			continue;
		if (info.depth != l->depth)
			fail("irq %d depth %u, model %u", i, info.depth, l->depth);
		waiting = (st.latched ? 1 : 0) + (info.pending ? 1 : 0);
		if (l->raises - l->base_raises != l->runs - l->base_runs +
		    (long)st.coalesced + (long)info.coalesced - l->base_coalesced +
		    waiting - l->base_waiting)
			fail("irq %d: raised %ld != runs %ld + coalesced %lu+%u + waiting %ld "
			     "(since the last trigger change: %ld, %ld, %ld, %ld)", i, l->raises,
			     l->runs, (unsigned long)st.coalesced, info.coalesced, waiting,
			     l->base_raises, l->base_runs, l->base_coalesced, l->base_waiting);
	}
}

/* Before a stop: interrupts and bottom halves back on, every line accounted. */
static void stop_prepare(void)
{
	if (m.bh_off)
		irqkit_local_bh_enable();
	if (m.irqs_off)
		irqkit_local_irq_enable();
	m.irqs_off = m.bh_off = false;
	check_accounting();
	for (int i = 0; i < 2; i++)
		irqkit_tasklet_kill(&tasklets[i]);
}

static void kthreads_stopped_by_the_runtime(void);

static void stop(void)
{
	if (!m.started)
		return;
	stop_prepare();
	irqkit_stop();
	m.started = false;
	kthreads_stopped_by_the_runtime();
}

/* ---- operations ------------------------------------------------------------------------ */

struct input {
	const uint8_t	*p;
	size_t		n;
};

static unsigned int next(struct input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

/*
 * A trigger change reprograms the line: an edge latched while it was an edge
 * line means nothing to a level line, and the chip drops it, as a controller
 * whose trigger is rewritten does.  Accounting starts again from here.  An
 * arrival the descriptor kept pending (IRQS_PENDING, a level line asserted
 * while disabled) is replayed as an edge once the line is an edge line
 * again, as Linux's check_irq_resend does: it is waiting here, and counted
 * in the base.
 */
static void rebase(unsigned int irq)
{
	struct mline *l = &m.line[irq];
	struct irqkit_sw_stats st;
	struct irqkit_irq_info info;

	if (irqkit_sw_get_stats(irq, &st) || irqkit_irq_get_info(irq, &info))
		fail("stats of irq %u", irq);
	l->base_raises = l->raises;
	l->base_runs = l->runs;
	l->base_coalesced = (long)st.coalesced + (long)info.coalesced;
	l->base_waiting = (st.latched ? 1 : 0) + (info.pending ? 1 : 0);
}

/* What request_irq must answer, in Linux's order. */
static int model_request(unsigned int irq, void *dev_id, bool null_handler, unsigned long flags)
{
	struct mline *l;
	bool shared = flags & IRQKIT_F_SHARED;
	unsigned int trig = flags & IRQKIT_F_TRIGGER_MASK;

	if (shared && !dev_id)
		return -IRQKIT_EINVAL;
	if (irq >= NR_IRQS)
		return -IRQKIT_EINVAL;
	if (null_handler)
		return -IRQKIT_EINVAL;
	if (irq >= NR_EDGE + NR_LEVEL)
		return -IRQKIT_ENOSYS;
	l = &m.line[irq];
	if (l->nr) {
		bool level_wanted = trig ? !!(trig & (IRQKIT_F_TRIGGER_HIGH | IRQKIT_F_TRIGGER_LOW))
					 : l->level;

		if (!shared || !l->shared[0] || level_wanted != l->level)
			return -IRQKIT_EBUSY;
	}
	if (l->nr == MAX_ACTIONS)
		return 1;	/* not modelled: the fuzzer keeps lists short */
	return 0;
}

static void op_request(struct input *in)
{
	static const unsigned long trig[4] = { 0, IRQKIT_F_TRIGGER_RISING, IRQKIT_F_TRIGGER_HIGH, 0 };
	unsigned int irq = next(in) % (NR_IRQS + 4);
	unsigned int f = next(in);
	int d = (int)(f >> 4) % (NR_DEVS + 1);	/* NR_DEVS: NULL */
	void *dev_id = d < NR_DEVS ? &devs[d] : NULL;
	bool null_handler = (f & 0x0c) == 0x0c;
	unsigned long flags = ((f & 1) ? IRQKIT_F_SHARED : 0) | trig[(f >> 1) & 3];
	int want = model_request(irq, dev_id, null_handler, flags);
	bool was_level = irq < NR_IRQS && m.line[irq].level;
	int got;

	if (want == 1)
		return;
	seq_step("request %u %d%s%s%s%s%s\n", seq_line(irq), d < NR_DEVS ? d : 0,
		 (flags & IRQKIT_F_SHARED) ? " shared" : "",
		 (flags & IRQKIT_F_TRIGGER_RISING) ? " rising" : "",
		 (flags & IRQKIT_F_TRIGGER_HIGH) ? " high" : "", null_handler ? " noprimary" : "",
		 dev_id ? "" : " nulldev");
	/* the model moves first: starting the line may deliver a latched edge at once */
	if (want == 0) {
		struct mline *l = &m.line[irq];
		bool first = l->nr == 0;

		l->devs[l->nr] = dev_id ? d : -1;
		l->shared[l->nr] = flags & IRQKIT_F_SHARED;
		l->nr++;
		if (first && (flags & IRQKIT_F_TRIGGER_MASK))
			l->level = !!(flags & (IRQKIT_F_TRIGGER_HIGH | IRQKIT_F_TRIGGER_LOW));
		if (first)
			l->depth = 0;	/* the first action starts the line */
	}
	got = irqkit_request_irq(irq, null_handler ? NULL : handler, flags, "fuzz", dev_id);
	if (got != want)
		fail("request_irq(%u, flags %#lx, dev %d%s) = %d, model %d", irq, flags, d,
		     null_handler ? ", NULL handler" : "", got, want);
	if (!got && m.line[irq].level != was_level)
		rebase(irq);
}

static void op_free(struct input *in)
{
	unsigned int irq = next(in) % (NR_IRQS + 4);
	int d = (int)next(in) % (NR_DEVS + 1);
	void *dev_id = d < NR_DEVS ? &devs[d] : NULL;
	const char *got;
	struct mline *l;
	int k;

	seq_step("free %u %d%s\n", seq_line(irq), d < NR_DEVS ? d : 0, dev_id ? "" : " nulldev");
	got = irqkit_free_irq(irq, dev_id);
	if (irq >= NR_IRQS) {
		if (got)
			fail("free_irq(%u) of a line that does not exist gave %s", irq, got);
		return;
	}
	l = &m.line[irq];
	for (k = 0; k < l->nr && l->devs[k] != (dev_id ? d : -1); k++)
		;
	if (k == l->nr) {
		if (got)
			fail("free_irq(%u, dev %d) of no such action gave %s", irq, d, got);
		m.warn_free++;
		return;
	}
	if (!got)
		fail("free_irq(%u, dev %d) found nothing; model has it", irq, d);
	memmove(&l->devs[k], &l->devs[k + 1], sizeof(l->devs[0]) * (size_t)(l->nr - k - 1));
	memmove(&l->shared[k], &l->shared[k + 1], sizeof(l->shared[0]) * (size_t)(l->nr - k - 1));
	l->nr--;
	if (!l->nr)
		l->depth++;	/* irq_shutdown adds a disable, kept until the next first request */
}

static void check_depth(unsigned int irq)
{
	struct irqkit_irq_info info;

	if (irq >= NR_IRQS)
		return;
	if (irqkit_irq_get_info(irq, &info))
		fail("irq_get_info(%u)", irq);
	if (info.depth != m.line[irq].depth)
		fail("irq %u depth %u, model %u", irq, info.depth, m.line[irq].depth);
}

static void op_disable(struct input *in)
{
	unsigned int irq = next(in) % (NR_IRQS + 4);

	seq_step("disable_nosync %u\n", seq_line(irq));
	irqkit_disable_irq_nosync(irq);
	if (irq < NR_IRQS)
		m.line[irq].depth++;
	check_depth(irq);
}

static void op_enable(struct input *in)
{
	unsigned int irq = next(in) % (NR_IRQS + 4);

	/* not on a line with no chip: irqkit warns there, Linux does not (conformance.md) */
	if (irq < NR_EDGE + NR_LEVEL || irq >= NR_IRQS)
		seq_step("enable %u\n", seq_line(irq));
	if (irq >= NR_EDGE + NR_LEVEL)
		;	/* no chip: "enable_irq before setup/request_irq", depth kept */
	else if (!m.line[irq].depth)
		m.warn_unbalanced++;
	else
		m.line[irq].depth--;
	irqkit_enable_irq(irq);
	check_depth(irq);
}

static void op_raise(struct input *in)
{
	unsigned int irq = next(in) % (NR_IRQS + 4);
	int want = irq < NR_EDGE + NR_LEVEL && !m.line[irq].level ? 0 : -IRQKIT_EINVAL;
	int got;

	seq_step("raise %u\n", seq_line(irq));
	/* count first: the raise may run the handlers before it returns */
	if (!want)
		m.line[irq].raises++;
	if (!want && m.line[irq].cpu == 1)
		m.line[irq].left_on_cpu1 = true;
	got = irqkit_sw_raise(irq);
	if (got != want)
		fail("sw_raise(%u) = %d, model %d", irq, got, want);
}

static void op_level(struct input *in)
{
	unsigned int irq = next(in) % (NR_IRQS + 4);
	bool on = next(in) & 1;
	int want = irq < NR_EDGE + NR_LEVEL && m.line[irq].level ? 0 : -IRQKIT_EINVAL;
	int got = irqkit_sw_set_level(irq, on);

	seq_step(on ? "level %u 1\nlevel %u 0\n" : "level %u 0\n", seq_line(irq), irq + 1);
	if (got != want)
		fail("sw_set_level(%u) = %d, model %d", irq, got, want);
	/* a level line asserted with handlers that do not lower it screams: lower it again */
	if (!got && on)
		irqkit_sw_set_level(irq, false);
}

static void op_irqs(void)
{
	seq_step(m.irqs_off ? "irqs on\n" : "irqs off\n");
	if (m.irqs_off)
		irqkit_local_irq_enable();
	else
		irqkit_local_irq_disable();
	m.irqs_off = !m.irqs_off;
}

static void op_bh(void)
{
	if (m.irqs_off)
		return;		/* local_bh_enable with interrupts off is a warned misuse */
	seq_step(m.bh_off ? "bh on\n" : "bh off\n");
	if (m.bh_off)
		irqkit_local_bh_enable();
	else
		irqkit_local_bh_disable();
	m.bh_off = !m.bh_off;
}

static void op_tasklet(struct input *in)
{
	unsigned int i = next(in) & 1;

	seq_step("tasklet %u schedule\n", i);
	m.tasklet_sched[i] = 1;
	irqkit_tasklet_schedule(&tasklets[i]);
}

/* ---- version 2 ------------------------------------------------------------------------ */

static void op_wait_delivered(struct input *in)
{
	unsigned int irq = next(in) % (NR_IRQS + 4);
	struct irqkit_sw_stats st;
	struct irqkit_irq_info info;
	int got;

	if (m.irqs_off || m.bh_off)
		return;		/* it may sleep: not from there */
	got = irqkit_wait_delivered(irq, 0);
	if (irq >= NR_IRQS) {
		if (got != -IRQKIT_EINVAL)
			fail("wait_delivered(%u) = %d, model -EINVAL", irq, got);
		return;
	}
	if (got != 0 && got != -IRQKIT_EAGAIN)
		fail("wait_delivered(%u) = %d, model 0 or -EAGAIN", irq, got);
	if (irq >= NR_EDGE || m.line[irq].level)
		return;
	/*
	 * With no handler an edge stays latched until one is requested; a line
	 * on CPU 1 (version 4) is not this thread's CPU to deliver.
	 */
	if (!m.line[irq].depth && m.line[irq].nr && m.line[irq].cpu == 0 &&
	    !m.line[irq].left_on_cpu1 && got)
		fail("wait_delivered(%u) of an enabled edge line = %d, model 0", irq, got);
	if (irqkit_sw_get_stats(irq, &st) || irqkit_irq_get_info(irq, &info))
		fail("stats of irq %u", irq);
	if (!got && (st.latched || info.pending))
		fail("wait_delivered(%u) = 0 with an edge %s", irq,
		     st.latched ? "latched" : "pending");
}

static void op_hist(struct input *in)
{
	unsigned int f = next(in), irq = next(in) % (NR_IRQS + 4);
	struct irqkit_hist_data d;
	int got, want;

	if ((f & 3) == 0 && !m.irqs_off && !m.bh_off) {
		bool on = f & 4;

		if ((got = irqkit_hist_enable(on)) != 0)
			fail("hist_enable(%d) = %d, model 0", on, got);
		m.hist_started |= on;
	}
	want = irq >= NR_IRQS ? -IRQKIT_EINVAL : m.hist_started ? 0 : -IRQKIT_ENODATA;
	got = irqkit_hist_read((f & 8) ? IRQKIT_HIST_IRQ_DURATION : IRQKIT_HIST_IRQ_LATENCY, irq, &d);
	if (got != want)
		fail("hist_read(irq %u) = %d, model %d", irq, got, want);
}

static void op_trace(struct input *in)
{
	unsigned int f = next(in);
	long got;

	if (m.irqs_off || m.bh_off)
		return;
	switch (f % 3) {
	case 0:
		if ((got = irqkit_trace_start(64 + f)) != 0)
			fail("trace_start = %ld, model 0", got);
		m.traced = true;
		break;
	case 1:
		irqkit_trace_stop();
		break;
	default:
		/* recording but nothing recorded yet is -ENODATA too */
		got = irqkit_trace_write("/dev/null");
		if (m.traced ? got < 0 && got != -IRQKIT_ENODATA : got != -IRQKIT_ENODATA)
			fail("trace_write = %ld, model %s", got,
			     m.traced ? ">= 0 or -ENODATA" : "-ENODATA");
		break;
	}
}

static void *stop_thread(void *arg)
{
	(void)arg;
	irqkit_stop();
	return NULL;
}

/*
 * stop() with the last step, irqkit_stop(), on another thread: this thread
 * played CPU 0 of the run and must find that out at its next call; the
 * run's objects must be stale, not freed memory.
 */
static void op_stop_elsewhere(void)
{
	pthread_t th;
	unsigned long flags;

	stop_prepare();
	if (pthread_create(&th, NULL, stop_thread, NULL) || pthread_join(th, NULL))
		fail("stop thread");
	m.started = false;
	kthreads_stopped_by_the_runtime();
	if (irqkit_started())
		fail("started after a stop from another thread");
	flags = irqkit_local_irq_save();
	irqkit_local_irq_restore(flags);
	irqkit_local_bh_disable();
	irqkit_local_bh_enable();
	irqkit_deliver_pending();
	for (int i = 0; i < 2; i++) {
		if (irqkit_flush_work(&works[i]) || irqkit_cancel_work_sync(&works[i]))
			fail("work %d of a stopped run is not idle", i);
		if (irqkit_del_timer_sync(&timers[i]))
			fail("timer %d of a stopped run is armed", i);
		irqkit_tasklet_kill(&tasklets[i]);
	}
	start();
}

/* ---- version 3: episodes of other modes ------------------------------------------------ */

#define EP_OPS		12	/* operations in an episode */

static struct {
	unsigned long	calls, events, bad;	/* atomics: the handler runs on a dispatcher */
	unsigned long	tasklet_runs;
} ep;

static enum irqkit_irqreturn ep_handler(int irq, void *dev_id)
{
	struct irqkit_irq_events ev;

	(void)dev_id;
	if (!irqkit_in_hardirq() || !irqkit_irqs_disabled() ||
	    irqkit_irq_get_events((unsigned int)irq, &ev))
		__atomic_fetch_add(&ep.bad, 1, __ATOMIC_RELAXED);
	else
		__atomic_fetch_add(&ep.events, ev.events, __ATOMIC_RELAXED);
	__atomic_fetch_add(&ep.calls, 1, __ATOMIC_RELAXED);
	return IRQKIT_HANDLED;
}

static void ep_tasklet_fn(unsigned long arg)
{
	(void)arg;
	__atomic_fetch_add(&ep.tasklet_runs, 1, __ATOMIC_RELAXED);
}

static void ep_start(enum irqkit_mode mode, uint64_t seed)
{
	struct irqkit_config cfg = { .nr_irqs = NR_IRQS, .nr_cpus = NR_CPUS, .mode = mode,
				     .sim_seed = seed, .log = log_hook };
	int ret = irqkit_start(&cfg);

	if (ret)
		fail("episode start (mode %d) = %d", mode, ret);
	memset(&ep, 0, sizeof(ep));
}

/* Wait until @irq's arrivals are all delivered: irqkit_wait_delivered() returns 0. */
static void ep_delivered(unsigned int irq)
{
	int got = irqkit_wait_delivered(irq, 5000);

	if (got)
		fail("wait_delivered(%u) after the episode = %d, model 0", irq, got);
}

/* A disable, enable, synchronize or move of @irq, as byte @b says; *@depth follows. */
static void ep_line_op(unsigned int irq, unsigned int b, unsigned int *depth)
{
	switch (b % 4) {
	case 0:
		if (*depth < 3) {
			if (b & 4)
				irqkit_disable_irq_nosync(irq);
			else
				irqkit_disable_irq(irq);
			++*depth;
		}
		break;
	case 1:
		if (*depth) {
			irqkit_enable_irq(irq);
			--*depth;
		}
		break;
	case 2:
		irqkit_synchronize_irq(irq);
		break;
	default:
		(void)irqkit_irq_set_affinity(irq, 1ull << ((b >> 2) % NR_CPUS));
		break;
	}
}

/*
 * Threaded mode, a line bound to an eventfd: writes, disables, enables,
 * synchronizes and moves from the input, then every written event must be
 * delivered.
 */
static void op_fd_episode(struct input *in)
{
	unsigned int irq = NR_EDGE + NR_LEVEL + next(in) % (NR_IRQS - NR_EDGE - NR_LEVEL);
	unsigned int depth = 0;
	uint64_t written = 0;
	int efd, got;

	stop();
	ep_start(IRQKIT_MODE_THREADED, 0);
	efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (efd < 0)
		fail("eventfd");
	if ((got = irqkit_fd_bind_eventfd(NR_IRQS + next(in) % 4, efd)) != -IRQKIT_EINVAL)
		fail("fd_bind_eventfd(line out of range) = %d, model -EINVAL", got);
	if ((got = irqkit_fd_bind_eventfd(irq, -1)) != -IRQKIT_EBADF)
		fail("fd_bind_eventfd(fd -1) = %d, model -EBADF", got);
	if ((got = irqkit_fd_bind_eventfd(irq, efd)) != 0)
		fail("fd_bind_eventfd(%u) = %d, model 0", irq, got);
	if ((got = irqkit_fd_bind_eventfd(irq, efd)) != -IRQKIT_EBUSY)
		fail("fd_bind_eventfd of a bound line = %d, model -EBUSY", got);
	if ((got = irqkit_request_irq(irq, ep_handler, 0, "fuzz-fd", &devs[0])) != 0)
		fail("request_irq(%u) of a bound line = %d, model 0", irq, got);
	if ((got = irqkit_fd_unbind(irq)) != -IRQKIT_EBUSY)
		fail("fd_unbind(%u) with a handler = %d, model -EBUSY", irq, got);
	for (int k = 0; k < EP_OPS && in->n; k++) {
		unsigned int b = next(in);

		if (b % 3 == 0) {
			uint64_t v = 1 + (b >> 2) % 5;

			if (write(efd, &v, sizeof(v)) != sizeof(v))
				fail("eventfd write");
			written += v;
		} else {
			ep_line_op(irq, b, &depth);
		}
	}
	while (depth--)
		irqkit_enable_irq(irq);
	ep_delivered(irq);
	if (__atomic_load_n(&ep.bad, __ATOMIC_RELAXED))
		fail("eventfd line: a handler outside hardirq, with interrupts on, or without events");
	/* every event written was read and told to exactly one handler run */
	if (__atomic_load_n(&ep.events, __ATOMIC_RELAXED) != written)
		fail("eventfd line: %lu deliveries stand for %lu events, %lu written",
		     __atomic_load_n(&ep.calls, __ATOMIC_RELAXED),
		     __atomic_load_n(&ep.events, __ATOMIC_RELAXED), (unsigned long)written);
	irqkit_free_irq(irq, &devs[0]);
	if ((got = irqkit_fd_unbind(irq)) != 0)
		fail("fd_unbind(%u) = %d, model 0", irq, got);
	close(efd);
	irqkit_stop();
	start();
}

/* One simulated run of the episode's operations; its schedule's hash. */
static uint64_t sim_run(const struct input *ops, uint64_t seed)
{
	struct input in = *ops;
	unsigned int irq = next(&in) % NR_EDGE, depth = 0;
	struct irqkit_tasklet t;
	struct irqkit_sw_stats st;
	struct irqkit_irq_info info;
	struct irqkit_sim_stats ss;
	unsigned long raises = 0, scheduled = 0, runs;
	int got;

	ep_start(IRQKIT_MODE_SIM, seed);
	irqkit_tasklet_init(&t, ep_tasklet_fn, 0);
	if (irqkit_swchip_add(0, NR_EDGE, IRQKIT_TYPE_EDGE_RISING))
		fail("sim: swchip_add");
	if ((got = irqkit_request_irq(irq, ep_handler, 0, "fuzz-sim", &devs[1])) != 0)
		fail("sim: request_irq(%u) = %d, model 0", irq, got);
	for (int k = 0; k < EP_OPS && in.n; k++) {
		unsigned int b = next(&in);

		switch (b % 4) {
		case 0:
			if (irqkit_sw_raise(irq))
				fail("sim: sw_raise(%u)", irq);
			raises++;
			break;
		case 1:
			irqkit_tasklet_schedule(&t);
			scheduled++;
			break;
		default:
			ep_line_op(irq, b >> 1, &depth);
			break;
		}
	}
	while (depth--)
		irqkit_enable_irq(irq);
	ep_delivered(irq);
	irqkit_tasklet_kill(&t);
	if (irqkit_sw_get_stats(irq, &st) || irqkit_irq_get_info(irq, &info))
		fail("sim: stats of irq %u", irq);
	if (raises != __atomic_load_n(&ep.calls, __ATOMIC_RELAXED) + st.coalesced + info.coalesced)
		fail("sim: raised %lu != runs %lu + coalesced %lu+%u", raises,
		     __atomic_load_n(&ep.calls, __ATOMIC_RELAXED), (unsigned long)st.coalesced,
		     info.coalesced);
	runs = __atomic_load_n(&ep.tasklet_runs, __ATOMIC_RELAXED);
	if (__atomic_load_n(&ep.bad, __ATOMIC_RELAXED))
		fail("sim: a handler outside hardirq or with interrupts on");
	if (scheduled ? !runs || runs > scheduled : runs)
		fail("sim: tasklet ran %lu times for %lu schedules", runs, scheduled);
	irqkit_free_irq(irq, &devs[1]);
	irqkit_stop();
	if ((got = irqkit_sim_stats(&ss)) != 0 || ss.seed != seed)
		fail("sim_stats after the run = %d (seed %llu, model %llu)", got,
		     (unsigned long long)ss.seed, (unsigned long long)seed);
	return ss.hash;
}

/* The simulator: the episode's operations run twice with one seed; the schedules must agree. */
static void op_sim_episode(struct input *in)
{
	uint64_t seed = next(in) | (uint64_t)next(in) << 8;
	struct input ops = *in;
	uint64_t h1, h2;

	/* the episode's operations are the next bytes; the input goes on after them */
	ops.n = in->n < EP_OPS + 1 ? in->n : EP_OPS + 1;
	in->p += ops.n;
	in->n -= ops.n;
	stop();
	h1 = sim_run(&ops, seed);
	h2 = sim_run(&ops, seed);
	if (h1 != h2)
		fail("sim: seed %llu gave two schedules (hash %016llx, %016llx)",
		     (unsigned long long)seed, (unsigned long long)h1, (unsigned long long)h2);
	start();
}

/* ---- version 4: CPUs and affinity ----------------------------------------------------- */

/* Every software line targets the CPU the model says. */
static void check_cpus(const char *after)
{
	for (unsigned int i = 0; i < NR_EDGE + NR_LEVEL; i++) {
		struct irqkit_irq_info info;

		if (irqkit_irq_get_info(i, &info) || (unsigned int)info.cpu != m.line[i].cpu)
			fail("after %s: irq %u on CPU %d, model %u (affinity %#x, online %#x)", after,
			     i, info.cpu, m.line[i].cpu, m.line[i].aff, m.online);
	}
}

static void op_affinity(struct input *in)
{
	unsigned int irq = next(in) % (NR_IRQS + 4);
	irqkit_cpumask mask = next(in) % 4;
	int want = irq < NR_EDGE + NR_LEVEL && (mask & m.online) ? 0 : -IRQKIT_EINVAL;
	int got = irqkit_irq_set_affinity(irq, mask);

	if (got != want)
		fail("irq_set_affinity(%u, %#llx) = %d, model %d (online %#x)", irq,
		     (unsigned long long)mask, got, want, m.online);
	if (!got) {
		m.line[irq].aff = (unsigned int)mask;
		m.line[irq].cpu = (unsigned int)__builtin_ctz((unsigned int)mask & m.online);
	}
	check_cpus("irq_set_affinity");
}

/* CPU 1 went: its lines go to an online CPU of their affinity, else (broken) to CPU 0. */
static void model_cpu1_offline(void)
{
	m.online &= ~2u;
	for (unsigned int i = 0; i < NR_EDGE + NR_LEVEL; i++) {
		unsigned int mask = m.line[i].aff & m.online;

		m.line[i].left_on_cpu1 = false;	/* its pending arrivals moved */

		if (m.line[i].cpu == 1)
			m.line[i].cpu = (unsigned int)__builtin_ctz(mask ? mask : m.online);
	}
}

static void op_hotplug(struct input *in)
{
	unsigned int f = next(in) % 4;
	int got, want;

	if (m.irqs_off || m.bh_off)
		return;		/* they sleep: not from there */
	switch (f) {
	case 0:
		want = (m.online & 2) ? 0 : 1;
		if ((got = irqkit_remove_cpu(1)) != want)
			fail("remove_cpu(1) = %d, model %d", got, want);
		model_cpu1_offline();
		check_cpus("remove_cpu(1)");
		break;
	case 1:
		want = (m.online & 2) ? 1 : 0;
		if ((got = irqkit_add_cpu(1)) != want)
			fail("add_cpu(1) = %d, model %d", got, want);
		m.online |= 2u;
		check_cpus("add_cpu(1)");	/* lines do not move back */
		break;
	case 2:
		if ((got = irqkit_remove_cpu(0)) != -IRQKIT_EBUSY)
			fail("remove_cpu(0) of this thread's CPU = %d, model -EBUSY", got);
		break;
	default:
		/* CPU 1's lines, delivered on this thread (offline: what was left, nothing) */
		if ((got = irqkit_cpu_run(1)) != 0)
			fail("cpu_run(1) = %d, model 0", got);
		for (unsigned int i = 0; i < NR_EDGE + NR_LEVEL; i++)
			m.line[i].left_on_cpu1 = false;
		break;
	}
}

/* ---- version 5: kthreads and signals ----------------------------------------------------- */

#define KT_VALUE	77
enum kt_state { KT_NONE, KT_CREATED, KT_WOKEN, KT_STOPPED };

static struct {
	struct irqkit_task	*task;
	enum kt_state		state;
	bool			parked;		/* asked to park (and not unparked) */
	int			result;		/* once stopped; 1: -EINTR or KT_VALUE */
	bool			result_known;
	/*
	 * Joined, and a kthread created since took its task memory: a stop
	 * of the pointer names that one (the newest answer the runtime kept
	 * for it), as a stale task_struct pointer would in Linux.
	 */
	bool			reused;
} kts[2];

/* A kthread: park when asked; sleep interruptibly (signals it does not allow are dropped). */
static int kt_fn(void *data)
{
	(void)data;
	while (!irqkit_kthread_should_stop()) {
		if (irqkit_kthread_should_park())
			irqkit_kthread_parkme();
		(void)irqkit_wait_event_interruptible_timeout(kt_wq, irqkit_kthread_should_stop() ||
								     irqkit_kthread_should_park(), 1);
	}
	return KT_VALUE;
}

/* The runtime's stop stopped every kthread of the run: a later kthread_stop gives the same. */
static void kthreads_stopped_by_the_runtime(void)
{
	for (int i = 0; i < 2; i++) {
		if (kts[i].state == KT_NONE || kts[i].state == KT_STOPPED)
			continue;
		kts[i].result_known = kts[i].state == KT_CREATED;
		kts[i].result = -IRQKIT_EINTR;
		kts[i].state = KT_STOPPED;
	}
}

static bool kt_live(const struct irqkit_task *t)
{
	for (int i = 0; i < 2; i++)
		if (kts[i].task == t && (kts[i].state == KT_CREATED || kts[i].state == KT_WOKEN))
			return true;
	return false;
}


static void op_kthread(struct input *in)
{
	unsigned int i = next(in) & 1, f = next(in) % 6;
	int got;

	if (m.irqs_off || m.bh_off)
		return;		/* they sleep: not from there */
	switch (f) {
	case 0:		/* create (a stopped one's slot is reused) */
		if (kts[i].state == KT_CREATED || kts[i].state == KT_WOKEN)
			break;
		kts[i] = (typeof(kts[i])){ 0 };
		kts[i].task = irqkit_kthread_create(kt_fn, NULL, "fz%u", i);
		if (irqkit_is_err(kts[i].task))
			fail("kthread_create = %ld in a started run", irqkit_ptr_err(kts[i].task));
		if (kts[i ^ 1].state == KT_STOPPED && kts[i ^ 1].task == kts[i].task)
			kts[i ^ 1].reused = true;
		kts[i].state = KT_CREATED;
		break;
	case 1:		/* wake */
		if (kts[i].state != KT_CREATED)
			break;
		if (!kts[i].parked && (got = irqkit_wake_up_process(kts[i].task)) != 1)
			fail("wake_up_process of a created kthread = %d, model 1", got);
		kts[i].state = KT_WOKEN;
		break;
	case 2:		/* stop */
		/* a joined task's memory may be a live kthread's now (a thread's reused): not that */
		if (kts[i].state == KT_NONE ||
		    (kts[i].state == KT_STOPPED && (kt_live(kts[i].task) || kts[i].reused)))
			break;
		got = irqkit_kthread_stop(kts[i].task);
		if (kts[i].state == KT_STOPPED) {
			if (kts[i].result_known ? got != kts[i].result
						: got != -IRQKIT_EINTR && got != KT_VALUE)
				fail("second kthread_stop = %d, model %d", got, kts[i].result);
			kts[i].result = got;
			kts[i].result_known = true;
			break;
		}
		if (kts[i].state == KT_CREATED && !kts[i].parked ? got != -IRQKIT_EINTR
				: got != -IRQKIT_EINTR && got != KT_VALUE)
			fail("kthread_stop = %d (state %d, parked %d)", got, kts[i].state, kts[i].parked);
		kts[i].result = got;
		kts[i].result_known = true;
		kts[i].state = KT_STOPPED;
		break;
	case 3:		/* park */
		if (kts[i].state != KT_CREATED && kts[i].state != KT_WOKEN)
			break;
		got = irqkit_kthread_park(kts[i].task);
		if (got != (kts[i].parked ? -IRQKIT_EBUSY : 0))
			fail("kthread_park = %d, model %d", got, kts[i].parked ? -IRQKIT_EBUSY : 0);
		kts[i].parked = true;
		if (kts[i].state == KT_CREATED)
			kts[i].state = KT_WOKEN;	/* park wakes it: it parks before its function */
		break;
	case 4:		/* unpark */
		if (kts[i].state != KT_WOKEN || !kts[i].parked)
			break;
		irqkit_kthread_unpark(kts[i].task);
		kts[i].parked = false;
		break;
	default: {	/* a signal to it: dropped by a live kthread, -ESRCH after its join */
		int want;

		if (kts[i].state == KT_NONE)
			break;
		want = kt_live(kts[i].task) ? 0 : -IRQKIT_ESRCH;
		got = irqkit_send_sig(10, kts[i].task, 0);
		/* a joined task's address may be another thread's by now: then 0 is right too */
		if (got != want && !(want == -IRQKIT_ESRCH && got == 0))
			fail("send_sig to kthread %u = %d, model %d (state %d)", i, got, want,
			     kts[i].state);
		break;
	}
	}
}

static void op_signal(struct input *in)
{
	unsigned int f = next(in) % 5;
	int sig, got, want;

	if (m.irqs_off || m.bh_off)
		return;		/* the sleeps below: process context */
	switch (f) {
	case 0:
	case 1:
		sig = (int)(next(in) % 67);
		want = sig >= 1 && sig <= 64 ? 0 : -IRQKIT_EINVAL;
		if ((got = irqkit_send_sig(sig, irqkit_current(), 0)) != want)
			fail("send_sig(%d, current) = %d, model %d", sig, got, want);
		if (!got)
			m.sigs |= 1ull << (sig - 1);
		break;
	case 2:
		if (!m.sigs)
			break;	/* it would sleep for ever */
		if ((got = irqkit_wait_event_interruptible(kt_wq, 0)) != -IRQKIT_ERESTARTSYS)
			fail("wait_event_interruptible with a signal pending = %d", got);
		if ((got = irqkit_down_interruptible(&kt_sem)) != -IRQKIT_EINTR)
			fail("down_interruptible with a signal pending = %d", got);
		break;
	case 3:
		want = m.sigs ? __builtin_ctzll(m.sigs) + 1 : 0;
		if ((got = irqkit_dequeue_signal()) != want)
			fail("kernel_dequeue_signal = %d, model %d", got, want);
		if (want)
			m.sigs &= ~(1ull << (want - 1));
		break;
	default:
		irqkit_flush_signals(irqkit_current());
		m.sigs = 0;
		break;
	}
	if (irqkit_signal_pending(irqkit_current()) != (m.sigs != 0))
		fail("signal_pending = %d, model %d", irqkit_signal_pending(irqkit_current()),
		     m.sigs != 0);
}

static void run(struct input *in)
{
	unsigned int nr_ops = 16;

	if (in->n && in->p[0] >= FUZZ_V2 && in->p[0] <= FUZZ_V5) {
		nr_ops = in->p[0] == FUZZ_V5 ? 25 : in->p[0] == FUZZ_V4 ? 23 :
			 in->p[0] == FUZZ_V3 ? 21 : 20;
		in->p++;
		in->n--;
	}
	start();
	while (in->n) {
		unsigned int op = next(in) % nr_ops;

		switch (op) {
		case 0: case 1:
			op_request(in);
			break;
		case 2:
			op_free(in);
			break;
		case 3:
			op_disable(in);
			break;
		case 4:
			op_enable(in);
			break;
		case 5: case 6:
			op_raise(in);
			break;
		case 7:
			op_level(in);
			break;
		case 8:
			op_irqs();
			break;
		case 9:
			op_bh();
			break;
		case 10:
			if (!m.irqs_off && !m.bh_off)
				irqkit_deliver_pending();
			break;
		case 11:
			irqkit_clock_advance((uint64_t)(next(in) % 50) * 1000000u);
			break;
		case 12:
			op_tasklet(in);
			break;
		case 13: {
			unsigned int i = next(in) & 1;

			irqkit_mod_timer(&timers[i], irqkit_jiffies() + next(in) % 20);
			seq_step("timer %u short\n", i);
			if (next(in) & 1) {
				irqkit_del_timer(&timers[i]);
				seq_step("timer %u del\n", i);
			}
			break;
		}
		case 14: {
			unsigned int i = next(in) & 1;

			irqkit_schedule_work(&works[i]);
			seq_step("work %u queue\n", i);
			if (!m.irqs_off && !m.bh_off) {
				irqkit_flush_work(&works[i]);
				seq_step("work %u flush\n", i);
			}
			break;
		}
		case 15:
			if (next(in) % 8 == 0) {
				seq_on = false;		/* a new run: the form has none */
				stop();
				start();
			} else if (!m.irqs_off && !m.bh_off) {
				unsigned int irq = next(in) % NR_IRQS;

				seq_step("sync %u\n", seq_line(irq));
				irqkit_synchronize_irq(irq);
			}
			break;
		case 16:
			seq_on = false;		/* versions 2-5: not in the form */
			op_wait_delivered(in);
			break;
		case 17:
			seq_on = false;
			op_hist(in);
			break;
		case 18:
			seq_on = false;
			op_trace(in);
			break;
		case 19:
			seq_on = false;
			if (next(in) % 4 == 0)
				op_stop_elsewhere();
			break;
		case 20:
			seq_on = false;
			if (next(in) & 1)
				op_fd_episode(in);
			else
				op_sim_episode(in);
			break;
		case 21:
			seq_on = false;
			op_affinity(in);
			break;
		case 22:
			seq_on = false;
			op_hotplug(in);
			break;
		case 23:
			seq_on = false;
			op_kthread(in);
			break;
		case 24:
			seq_on = false;
			op_signal(in);
			break;
		}
	}
	stop();
	/* signals stay on this thread across runs: none is left for the next input */
	irqkit_flush_signals(irqkit_current());
	m.sigs = 0;
	for (int i = 0; i < 2; i++)
		if (kts[i].state == KT_STOPPED)
			(void)irqkit_kthread_stop(kts[i].task);	/* warned; the same value */
	memset(kts, 0, sizeof(kts));
	if (m.seen_unbalanced != m.warn_unbalanced)
		fail("%d 'Unbalanced enable' warnings, model %d", m.seen_unbalanced,
		     m.warn_unbalanced);
	if (m.seen_free != m.warn_free)
		fail("%d 'already-free' warnings, model %d", m.seen_free, m.warn_free);
	m.seen_unbalanced = m.warn_unbalanced = m.seen_free = m.warn_free = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };

	run(&in);
	return 0;
}

#ifdef IRQKIT_FUZZ_STANDALONE
/* Write @path's input as a sequence of tests/guest/diff/seq.h on stdout (running it too). */
static int to_seq(const char *path)
{
	FILE *f = fopen(path, "rb");
	const char *base = strrchr(path, '/');
	uint8_t buf[65536];
	size_t n;

	if (!f) {
		perror(path);
		return 1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	seq_len = 0;
	seq_used = 0;
	seq_on = true;
	LLVMFuzzerTestOneInput(buf, n);
	seq_on = false;
	printf("# from the fuzzer's input %s (tests/fuzz)\n", base ? base + 1 : path);
	/* the fuzzer's handlers claim each interrupt and let go of a level line */
	for (int h = 0; h < NR_DEVS; h++)
		printf("handler %d lower\n", h);
	for (unsigned int irq = 0; irq < NR_IRQS + 4; irq++)
		if (seq_used & (1ull << irq))
			printf("line %u %s\n", irq + 1, irq < NR_EDGE ? "edge" :
			       irq < NR_EDGE + NR_LEVEL ? "level" : irq < NR_IRQS ? "nochip" :
			       "absent");
	fwrite(seq_body, 1, seq_len, stdout);
	return 0;
}

/* Replay each file named on the command line once; --to-seq FILE: see to_seq(). */
int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--to-seq"))
		return to_seq(argv[2]);
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t buf[65536];
		size_t n;

		if (!f) {
			perror(argv[i]);
			return 1;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
	}
	printf("fuzz_api: %d inputs replayed, model agreed\n", argc - 1);
	return 0;
}
#endif
