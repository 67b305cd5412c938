// SPDX-License-Identifier: MIT
/*
 * The executor of seq.h: parse the whole sequence first (a step that does
 * not parse runs nothing), then run each step with Linux's calls and write
 * its record.  Written for both sides: the kernel module's and irqkit's
 * Linux-name layer, so only names both have, and no C library beyond
 * snprintf and the string functions.
 */
#include <linux/bottom_half.h>
#include <linux/errno.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_sim.h>
#include <linux/irqdomain.h>
#include <linux/irq_poll.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <net/busy_poll.h>

#include "seq.h"

#define SEQ_STEPS	512
#define SEQ_LOGS	8
#define SEQ_RUNS	32
#define SEQ_BH		2	/* tasklets, timers, works: each 0-1 */
#define SEQ_HOLDS	8
#define SEQ_POLLS	6	/* NAPI instances, irq_poll instances: each 0-5 */
#define SEQ_POLL_NOTES	48

enum seq_op {
	OP_LINE, OP_HANDLER, OP_REQUEST, OP_FREE, OP_RAISE, OP_LEVEL, OP_DISABLE,
	OP_DISABLE_NOSYNC, OP_ENABLE, OP_SYNC, OP_IRQS, OP_BH, OP_LOCK, OP_UNLOCK,
	OP_TASKLET, OP_TIMER, OP_WORK, OP_DEFER, OP_SPURIOUS, OP_DWORK, OP_NAPI, OP_IOPOLL,
	OP_SOFTNET,
};

#define F_SHARED	1u
#define F_ONESHOT	2u
#define F_THREAD	4u
#define F_NOPRIMARY	8u
#define F_NULLDEV	16u		/* dev_id NULL */
#define F_RISING	32u
#define F_HIGH		64u

/* The irq of an absent line: no descriptor on either side */
#define SEQ_ABSENT_IRQ	100000

enum { R_NONE, R_HANDLED, R_WAKE, R_LOWER };
enum { TL_SCHEDULE, TL_HI_SCHEDULE, TL_DISABLE, TL_ENABLE, TL_KILL };
enum { TM_SHORT, TM_LONG, TM_DEL, TM_DEL_SYNC };
enum { WK_QUEUE, WK_FLUSH, WK_CANCEL_SYNC };
enum { LK_PLAIN, LK_BH, LK_IRQ, LK_IRQSAVE };
enum { D_NONE, D_TASKLET, D_HI, D_TIMER, D_WORK, D_NAPI, D_IOPOLL };
/* the side's chip (edge, level), no descriptor, the simulator's, no chip */
enum { LINE_EDGE, LINE_LEVEL, LINE_ABSENT, LINE_SIM, LINE_NOCHIP };
enum { DW_SHORT, DW_LONG, DW_MOD_SHORT, DW_CANCEL, DW_CANCEL_SYNC, DW_FLUSH };
enum { NP_ADD, NP_ENABLE, NP_DISABLE, NP_SCHEDULE, NP_DEL, NP_SYNC, NP_MISSED, NP_BACKLOG,
       NP_STATE, NP_THREADED, NP_BUSY };
enum { IO_INIT, IO_SCHED, IO_DISABLE, IO_ENABLE, IO_BACKLOG };
enum { BH_TASKLET, BH_TIMER, BH_WORK, BH_DWORK, BH_KINDS };	/* bottom halves, as counted */

struct seq_step {
	enum seq_op	op;
	unsigned int	n, h, arg, idx, flags, repeat;
	unsigned int	nrets;
	unsigned char	rets[SEQ_RETS];
	char		text[80];
};

struct seq_handler {
	unsigned int	id;
	unsigned int	nrets;
	unsigned char	rets[SEQ_RETS];
	unsigned int	defer, defer_idx;	/* D_*, and which */
	unsigned long	hard, thread;
};

/* A hold of the runner's CPU (irqs off, bottom halves off, the lock), innermost last. */
enum { HOLD_IRQS, HOLD_BH, HOLD_LOCK };
#define BLOCK_IRQ	1u
#define BLOCK_BH	2u

/* One run at a time: the executor's state, static (a module's stack is small). */
static struct seq_step steps[SEQ_STEPS];
static struct seq_handler handlers[SEQ_HANDLERS];
static int irqs[SEQ_LINES + 1];			/* line N's irq, 0: not set up */
static unsigned char line_kind[SEQ_LINES + 1];	/* LINE_*, as its "line" step said */
static struct irq_domain *sim_domain;		/* made at the run's first sim line */
static const struct seq_side *cur_side;		/* the run's, for the handlers */
static unsigned int requested[SEQ_LINES + 1];	/* line N's handlers requested, as bits */
static DEFINE_SPINLOCK(note_lock);		/* runs and logs, from any context */
static struct { unsigned int h; unsigned long count; } runs[SEQ_RUNS];	/* primaries */
static unsigned int nr_runs;
static bool runs_cut;
static unsigned long thread_runs[SEQ_HANDLERS];	/* since the last record */
static unsigned long bh_runs[BH_KINDS][SEQ_BH];	/* since the last record */
static char logs[SEQ_LOGS][120];		/* "log ..." (a line's number not yet LN) or "ctx ..." */
static unsigned int nr_logs;
static char rec[SEQ_TEXT];

static struct tasklet_struct tasklets[SEQ_BH];
static struct { bool pending; unsigned int off; } tl_state[SEQ_BH];	/* as the steps left it */
static struct timer_list timers[SEQ_BH];
static bool timer_short[SEQ_BH];		/* armed to the next jiffy: a settle waits for it */
static struct work_struct works[SEQ_BH];
static struct delayed_work dworks[SEQ_BH];
static bool dwork_short[SEQ_BH];		/* queued for the next jiffy: a settle waits for it */
static DEFINE_SPINLOCK(seq_lock);		/* the sequence's lock (lock, unlock) */
static struct { unsigned int what, kind; unsigned long flags; } holds[SEQ_HOLDS];
static unsigned int nr_holds;
static int hold_cpu = -1;			/* the runner's CPU while it holds */
static unsigned int hold_blocks;		/* BLOCK_*, while it holds */
static bool had_request[SEQ_LINES + 1];		/* /proc/irq/N is there from the first */
static bool had_thread[SEQ_LINES + 1];		/* an action with a thread was requested */
static long last_unhandled_ms[SEQ_LINES + 1];	/* as the spurious file said last */
static bool unhandled_timed[SEQ_LINES + 1];	/* its unhandled count may have restarted */

/* NAPI on dummy devices, irq_poll; their polls reap a backlog the steps set */
static struct net_device seq_netdevs[SEQ_POLLS];
static struct napi_struct napis[SEQ_POLLS];
static struct { unsigned int backlog; bool added, on, threaded; } napi_st[SEQ_POLLS];
static struct irq_poll iops[SEQ_POLLS];
static struct { unsigned int backlog; bool inited, off; } iop_st[SEQ_POLLS];
/* each poll since the last record: 'n' or 'i', which, its work, how its complete went */
static struct { char kind, mark; unsigned char idx; unsigned short work; } poll_notes[SEQ_POLL_NOTES];
static unsigned int nr_poll_notes;
static bool poll_notes_cut;
static unsigned long squeeze_base;		/* time_squeeze at the run's start */
static unsigned long side_squeeze_base;

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
	[OP_ENABLE] = "enable", [OP_SYNC] = "sync", [OP_IRQS] = "irqs", [OP_BH] = "bh",
	[OP_LOCK] = "lock", [OP_UNLOCK] = "unlock", [OP_TASKLET] = "tasklet",
	[OP_TIMER] = "timer", [OP_WORK] = "work", [OP_DEFER] = "defer", [OP_DWORK] = "dwork",
	[OP_SPURIOUS] = "spurious", [OP_NAPI] = "napi", [OP_IOPOLL] = "iopoll",
	[OP_SOFTNET] = "softnet",
};
static const char *const napi_verbs[] = { "add", "enable", "disable", "schedule", "del", "sync",
					  "missed", "backlog", "state", "threaded", "busy" };
static const char *const iopoll_verbs[] = { "init", "sched", "disable", "enable", "backlog" };
static const char *const tasklet_verbs[] = { "schedule", "hi_schedule", "disable", "enable",
					     "kill" };
static const char *const timer_verbs[] = { "short", "long", "del", "del_sync" };
static const char *const work_verbs[] = { "queue", "flush", "cancel_sync" };
static const char *const dwork_verbs[] = { "short", "long", "mod_short", "cancel", "cancel_sync",
					   "flush" };
static const char *const lock_kinds[] = { "plain", "bh", "irq", "irqsave" };
static const char *const defer_kinds[] = { "none", "tasklet", "hi", "timer", "work", "napi",
					   "iopoll" };

/* @w's index in @names, or -1. */
static int choose(const char *w, const char *const *names, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(w, names[i]))
			return (int)i;
	return -1;
}

/* The next word of *@p as one of @names into *@v.  Return: false if it is none of them. */
static bool verb(const char **p, const char *const *names, unsigned int n, unsigned int *v)
{
	char w[32];
	int i;

	if (!word(p, w, sizeof(w)) || (i = choose(w, names, n)) < 0)
		return false;
	*v = (unsigned int)i;
	return true;
}

/* The next word of *@p as a number up to @max into *@v. */
static bool index_of(const char **p, unsigned int max, unsigned int *v)
{
	char w[32];

	return word(p, w, sizeof(w)) && number(w, max, v);
}

/* Whether @op names a line (its second word). */
static bool names_line(enum seq_op op)
{
	return op != OP_HANDLER && op != OP_IRQS && op != OP_BH && op != OP_LOCK &&
	       op != OP_UNLOCK && op != OP_TASKLET && op != OP_TIMER && op != OP_WORK &&
	       op != OP_DWORK && op != OP_NAPI && op != OP_IOPOLL && op != OP_SOFTNET &&
	       op != OP_DEFER;
}

/*
 * One step from the words at *@p (after "repeat K", if any).
 * Return: false if it does not parse.
 */
static bool parse_step(const char *p, struct seq_step *s)
{
	static const char *const off_on[] = { "on", "off" };
	char w[32];
	int i;

	if (!word(&p, w, sizeof(w)))
		return false;
	if (!strcmp(w, "repeat")) {
		if (!word(&p, w, sizeof(w)) || !number(w, 1000000, &s->repeat) || !s->repeat)
			return false;
		if (!word(&p, w, sizeof(w)))
			return false;
	}
	if ((i = choose(w, op_names, ARRAY_SIZE(op_names))) < 0)
		return false;
	s->op = (enum seq_op)i;
	if (s->repeat > 1 && s->op != OP_RAISE && s->op != OP_LEVEL && s->op != OP_DISABLE &&
	    s->op != OP_ENABLE)
		return false;
	switch (s->op) {
	case OP_IRQS:
	case OP_BH:
		if (!verb(&p, off_on, ARRAY_SIZE(off_on), &s->arg))
			return false;
		break;
	case OP_LOCK:
		if (!verb(&p, lock_kinds, ARRAY_SIZE(lock_kinds), &s->arg))
			return false;
		break;
	case OP_UNLOCK:
	case OP_SOFTNET:
		break;
	case OP_NAPI:
	case OP_IOPOLL: {
		/* which one, what to do, and its number (a weight, a count, rounds) */
		bool napi = s->op == OP_NAPI;

		if (!index_of(&p, SEQ_POLLS - 1, &s->h) ||
		    !verb(&p, napi ? napi_verbs : iopoll_verbs,
			  napi ? ARRAY_SIZE(napi_verbs) : ARRAY_SIZE(iopoll_verbs), &s->arg))
			return false;
		if ((napi && (s->arg == NP_ADD || s->arg == NP_BACKLOG || s->arg == NP_THREADED ||
			      s->arg == NP_BUSY)) ||
		    (!napi && (s->arg == IO_INIT || s->arg == IO_BACKLOG))) {
			if (!index_of(&p, 100000, &s->idx))
				return false;
		}
		/* add W [defer N]: N completions deferred by 1 ms each; busy R [prefer] */
		if (napi && (s->arg == NP_ADD || s->arg == NP_BUSY) && word(&p, w, sizeof(w))) {
			if (s->arg == NP_ADD && !strcmp(w, "defer")) {
				if (!index_of(&p, 16, &s->n))
					return false;
			} else if (s->arg == NP_BUSY && !strcmp(w, "prefer")) {
				s->flags |= F_SHARED;	/* (the flag's bit reused: prefer busy poll) */
			} else {
				return false;
			}
		}
		break;
	}
	case OP_TASKLET:
	case OP_TIMER:
	case OP_WORK:
	case OP_DWORK: {
		/* which one, then what to do with it */
		const char *const *names = s->op == OP_TASKLET ? tasklet_verbs :
					   s->op == OP_TIMER ? timer_verbs :
					   s->op == OP_WORK ? work_verbs : dwork_verbs;
		unsigned int n = s->op == OP_TASKLET ? ARRAY_SIZE(tasklet_verbs) :
				 s->op == OP_TIMER ? ARRAY_SIZE(timer_verbs) :
				 s->op == OP_WORK ? ARRAY_SIZE(work_verbs) :
						    ARRAY_SIZE(dwork_verbs);

		if (!index_of(&p, SEQ_BH - 1, &s->h) || !verb(&p, names, n, &s->arg))
			return false;
		break;
	}
	case OP_DEFER:
		if (!index_of(&p, SEQ_HANDLERS - 1, &s->h) ||
		    !verb(&p, defer_kinds, ARRAY_SIZE(defer_kinds), &s->arg))
			return false;
		if (s->arg != D_NONE &&
		    !index_of(&p, (s->arg >= D_NAPI ? SEQ_POLLS : SEQ_BH) - 1, &s->idx))
			return false;
		break;
	case OP_HANDLER:
		if (!index_of(&p, SEQ_HANDLERS - 1, &s->h))
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
			else if (!strcmp(w, "lower"))
				s->rets[s->nrets++] = R_LOWER;
			else
				return false;
		}
		return s->nrets > 0;
	default:
		if (!index_of(&p, SEQ_LINES, &s->n) || !s->n)
			return false;
		break;
	}
	switch (s->op) {
	case OP_LINE: {
		static const char *const kinds[] = { "edge", "level", "absent", "sim", "nochip" };

		if (!verb(&p, kinds, ARRAY_SIZE(kinds), &s->arg))
			return false;
		break;
	}
	case OP_LEVEL:
		if (!index_of(&p, 1, &s->arg))
			return false;
		break;
	case OP_REQUEST:
	case OP_FREE:
		if (!index_of(&p, SEQ_HANDLERS - 1, &s->h))
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
			else if (!strcmp(w, "nulldev"))
				s->flags |= F_NULLDEV;
			else if (!strcmp(w, "rising"))
				s->flags |= F_RISING;
			else if (!strcmp(w, "high"))
				s->flags |= F_HIGH;
			else
				return false;
		}
		if (s->op == OP_FREE && word(&p, w, sizeof(w))) {
			if (strcmp(w, "nulldev"))
				return false;
			s->flags |= F_NULLDEV;
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
	memset(bh_runs, 0, sizeof(bh_runs));
	nr_logs = 0;
	nr_poll_notes = 0;
	poll_notes_cut = false;
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

/* A note for the record: @kind ("log", "ctx") and @what. */
static void note_text(const char *kind, const char *what, unsigned int id)
{
	unsigned long flags;

	spin_lock_irqsave(&note_lock, flags);
	if (nr_logs < SEQ_LOGS)
		snprintf(logs[nr_logs++], sizeof(logs[0]), kind[0] == 'c' ? "%s %s%u" : "%s %s",
			 kind, what, id);
	spin_unlock_irqrestore(&note_lock, flags);
}

/* Whether the runner's CPU holds what @block names and this is that CPU. */
static bool on_held_cpu(unsigned int block)
{
	return (READ_ONCE(hold_blocks) & block) && READ_ONCE(hold_cpu) == (int)smp_processor_id();
}

static void note_bh_run(unsigned int kind, unsigned int i, bool softirq)
{
	static const char *const names[] = { "tasklet t", "timer t", "work w", "dwork d" };
	unsigned long flags;

	if (softirq && !in_serving_softirq())
		note_text("ctx not in softirq context:", names[kind], i);
	else if (softirq && on_held_cpu(BLOCK_BH))
		note_text("ctx with bottom halves off on the runner's CPU:", names[kind], i);
	else if (!softirq && !in_task())
		note_text("ctx not in task context:", names[kind], i);
	spin_lock_irqsave(&note_lock, flags);
	bh_runs[kind][i]++;
	spin_unlock_irqrestore(&note_lock, flags);
}

static void seq_tasklet(struct tasklet_struct *t)
{
	unsigned int i = (unsigned int)(t - tasklets);

	WRITE_ONCE(tl_state[i].pending, false);
	note_bh_run(BH_TASKLET, i, true);
}

static void seq_timer(struct timer_list *t)
{
	note_bh_run(BH_TIMER, (unsigned int)(t - timers), true);
}

static void seq_work(struct work_struct *w)
{
	note_bh_run(BH_WORK, (unsigned int)(w - works), false);
}

static void seq_dwork(struct work_struct *w)
{
	note_bh_run(BH_DWORK, (unsigned int)(to_delayed_work(w) - dworks), false);
}

static void note_poll(char kind, unsigned int i, int work, char mark)
{
	unsigned long flags;

	spin_lock_irqsave(&note_lock, flags);
	if (nr_poll_notes < SEQ_POLL_NOTES)
		poll_notes[nr_poll_notes++] = (typeof(poll_notes[0])){ kind, mark, (unsigned char)i,
								      (unsigned short)work };
	else
		poll_notes_cut = true;
	spin_unlock_irqrestore(&note_lock, flags);
}

/*
 * A NAPI poll: reap the backlog up to the budget; under it, complete, and
 * note whether the complete let the interrupt back ('.') or not ('!').
 * In the NET_RX softirq, or in task context when threaded or busy polled.
 */
static int seq_napi_poll(struct napi_struct *napi, int budget)
{
	unsigned int i = (unsigned int)(napi - napis);
	unsigned int n = READ_ONCE(napi_st[i].backlog);
	int done = n < (unsigned int)budget ? (int)n : budget;
	char mark = ' ';

	if (!in_serving_softirq() && !in_task())
		note_text("ctx not in softirq or task context:", "napi n", i);
	WRITE_ONCE(napi_st[i].backlog, n - (unsigned int)done);
	if (done < budget)
		mark = napi_complete_done(napi, done) ? '.' : '!';
	note_poll('n', i, done, mark);
	return done;
}

/* An irq_poll poll: the same, in the IRQ_POLL softirq; its complete says nothing. */
static int seq_iop_poll(struct irq_poll *iop, int budget)
{
	unsigned int i = (unsigned int)(iop - iops);
	unsigned int n = READ_ONCE(iop_st[i].backlog);
	int done = n < (unsigned int)budget ? (int)n : budget;

	if (!in_serving_softirq())
		note_text("ctx not in softirq context:", "iopoll i", i);
	WRITE_ONCE(iop_st[i].backlog, n - (unsigned int)done);
	if (done < budget)
		irq_poll_complete(iop);
	note_poll('i', i, done, done < budget ? '.' : ' ');
	return done;
}

static void tasklet_go(unsigned int i, bool hi)
{
	WRITE_ONCE(tl_state[i].pending, true);
	if (hi)
		tasklet_hi_schedule(&tasklets[i]);
	else
		tasklet_schedule(&tasklets[i]);
}

static int timer_go(unsigned int i, bool short_one)
{
	WRITE_ONCE(timer_short[i], short_one);
	return mod_timer(&timers[i], jiffies + (short_one ? 1 : 100 * HZ));
}

/*
 * The device behind @irq lets go of its line, if a level line (the chip
 * refuses a level on an edge line: a request's trigger flags may have
 * made either of the other).
 */
static void lower(int irq)
{
	for (unsigned int n = 1; n <= SEQ_LINES; n++)
		if (irqs[n] == irq && line_kind[n] <= LINE_LEVEL)
			(void)cur_side->set_level(cur_side->ctx, (unsigned int)irq, 0);
}

static irqreturn_t seq_primary(int irq, void *dev_id)
{
	struct seq_handler *h = dev_id;
	unsigned long calls = h->hard++;
	unsigned int r = h->rets[calls < h->nrets ? calls : h->nrets - 1];

	if (!in_hardirq())
		note_text("ctx not in hardirq context:", "h", h->id);
	else if (on_held_cpu(BLOCK_IRQ))
		note_text("ctx with interrupts off on the runner's CPU:", "h", h->id);
	note_run(h->id);
	switch (h->defer) {
	case D_TASKLET:
	case D_HI:
		tasklet_go(h->defer_idx, h->defer == D_HI);
		break;
	case D_TIMER:
		(void)timer_go(h->defer_idx, true);
		break;
	case D_WORK:
		(void)queue_work(system_wq, &works[h->defer_idx]);
		break;
	case D_NAPI:
		(void)napi_schedule(&napis[h->defer_idx]);
		break;
	case D_IOPOLL:
		irq_poll_sched(&iops[h->defer_idx]);
		break;
	default:
		break;
	}
	if (r == R_LOWER)
		lower(irq);
	return r == R_WAKE ? IRQ_WAKE_THREAD : r == R_NONE ? IRQ_NONE : IRQ_HANDLED;
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

	if (!in_task())
		note_text("ctx not in task context:", "thread h", h->id);
	lower(irq);
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
	for (unsigned int i = 0; i < ARRAY_SIZE(log_words); i++)
		if (strstr(line, log_words[i])) {
			note_text("log", line, 0);
			return;
		}
}

static bool is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * @s with each line's irq number written LN (numbers differ by side): a
 * whole word's number, without a leading zero (not the 1 of "h1", not
 * flags as "00000001").
 */
static void put_lines(char *out, size_t size, const char *s)
{
	const char *start = s;
	size_t o = 0;

	while (*s && o + 1 < size) {
		if (*s >= '1' && *s <= '9' && (s == start || !is_alnum(s[-1]))) {
			unsigned long v = 0;
			const char *d = s;
			unsigned int n;

			while (*d >= '0' && *d <= '9')
				v = v * 10 + (unsigned long)(*d++ - '0');
			for (n = 1; n <= SEQ_LINES; n++)
				if (irqs[n] > 0 && (unsigned long)irqs[n] == v && !is_alnum(*d))
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

/* The bottom halves' runs of kind @k since the last record, at *@o. */
static void put_bh_runs(size_t *o, unsigned int k)
{
	static const char *const what[] = { " | tasklets", " | timers", " | works", " | dworks" };
	static const char prefix[] = { 't', 't', 'w', 'd' };
	bool any = false;

	for (unsigned int i = 0; i < SEQ_BH; i++) {
		if (!bh_runs[k][i])
			continue;
		if (!any)
			PUT(*o, "%s", what[k]);
		any = true;
		PUT(*o, " %c%u", prefix[k], i);
		if (bh_runs[k][i] > 1)
			PUT(*o, "*%lu", bh_runs[k][i]);
	}
}

/*
 * The record of step @i: its text, @ret if any and, when @settled, what ran
 * and the log said since the last such record.
 */
static void record(const struct seq_side *side, unsigned int i, const char *ret, bool settled)
{
	static char fixed[120];
	unsigned long flags;
	size_t o = 0;
	unsigned int k;

	PUT(o, "%u: %s", i + 1, steps[i].text);
	if (ret)
		PUT(o, " => %s", ret);
	if (!settled) {
		side->out(side->ctx, rec);
		return;
	}
	if (side->log_flush)
		side->log_flush(side->ctx);
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
	for (k = 0; k < BH_KINDS; k++)
		put_bh_runs(&o, k);
	if (nr_poll_notes) {
		PUT(o, " | polls");
		for (k = 0; k < nr_poll_notes; k++)
			PUT(o, " %c%u:%u%s", poll_notes[k].kind, poll_notes[k].idx, poll_notes[k].work,
			    poll_notes[k].mark == '.' ? "" : poll_notes[k].mark == '!' ? "!" : "+");
		if (poll_notes_cut)
			PUT(o, " ...");
	}
	for (k = 0; k < nr_logs; k++) {
		if (logs[k][0] == 'l') {
			put_lines(fixed, sizeof(fixed), logs[k]);
			PUT(o, " | %s", fixed);
		} else {
			PUT(o, " | %s", logs[k]);
		}
	}
	notes_clear();
	spin_unlock_irqrestore(&note_lock, flags);
	side->out(side->ctx, rec);
}

static const char *errname(int e, char *buf, size_t size)
{
	static const struct { int e; const char *name; } names[] = {
		{ -EINVAL, "ret -EINVAL" }, { -EBUSY, "ret -EBUSY" }, { -ENOMEM, "ret -ENOMEM" },
		{ -ENOSYS, "ret -ENOSYS" },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(buf, size, "ret %d", e);
	return buf;
}

/* The number after @key in @s (the form of /proc/irq/N/spurious), or -1. */
static long field(const char *s, const char *key)
{
	const char *p = strstr(s, key);
	long v = 0;

	if (!p)
		return -1;
	p += strlen(key);
	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9')
		v = v * 10 + (*p++ - '0');
	return v;
}

/*
 * Line @n's spurious counters into @v (count, unhandled, last_unhandled
 * ms).  Return: false if unreadable.
 */
static bool read_spurious(const struct seq_side *side, unsigned int n, long v[3])
{
	static char buf[128];

	if (side->spurious(side->ctx, (unsigned int)irqs[n], buf, sizeof(buf)) < 0)
		return false;
	v[0] = field(buf, "count ");
	v[1] = field(buf, "unhandled ");
	v[2] = field(buf, "last_unhandled ");
	return v[0] >= 0 && v[1] >= 0 && v[2] >= 0;
}

/*
 * After each step that ends with no hold: whether a line's unhandled
 * interrupts came further apart than Linux's HZ/10 (less a margin), which
 * starts their count again, so its number depends on how fast the side
 * ran: the steps' last_unhandled times, one step to the next.  Within a
 * step they come back to back.
 */
static void watch_unhandled(const struct seq_side *side)
{
	long v[3];

	for (unsigned int n = 1; n <= SEQ_LINES; n++) {
		if (irqs[n] <= 0 || !had_request[n] || !read_spurious(side, n, v))
			continue;
		if (v[2] != last_unhandled_ms[n] && last_unhandled_ms[n] &&
		    v[2] - last_unhandled_ms[n] > 90)
			unhandled_timed[n] = true;
		last_unhandled_ms[n] = v[2];
	}
}

/*
 * Line @n's spurious counters at *@o: the count, the unhandled count unless
 * its interrupts came too far apart (watch_unhandled), whether a last
 * unhandled time is set.  Linux has /proc/irq/N from its first request.
 * Not on a line that had a thread: a hardirq that only woke threads is
 * judged by whether a thread handled one since the hardirq before, and a
 * thread on another CPU may finish before its own hardirq looks, on both
 * sides, so the verdicts are the scheduler's.
 */
static void put_spurious(const struct seq_side *side, size_t *o, unsigned int n)
{
	long v[3];

	if (!had_request[n]) {
		PUT(*o, "no /proc/irq entry");
		return;
	}
	if (had_thread[n]) {
		PUT(*o, "spurious counters of a threaded line not compared");
		return;
	}
	if (!read_spurious(side, n, v)) {
		PUT(*o, "spurious unreadable");
		return;
	}
	PUT(*o, "count %ld, unhandled ", v[0]);
	if (!unhandled_timed[n])
		PUT(*o, "%ld", v[1]);
	else
		PUT(*o, "~");
	PUT(*o, ", last_unhandled %s", v[2] ? "set" : "0");
}

/*
 * Wait until what the steps started has run: the lines' handlers and
 * threads, tasklets scheduled and enabled, timers armed to the next jiffy,
 * works.  Return: false if something still waits after the bound.
 */
static bool settle(const struct seq_side *side)
{
	for (unsigned int pass = 0; pass < 4000; pass++) {
		bool wait = false;

		side->settle(side->ctx);
		if (sim_domain) {
			unsigned long flags;

			/*
			 * The simulator's fire is an irq_work on this CPU, its
			 * software resend a tasklet: both run here, at this
			 * CPU's interrupts on and bottom halves on.
			 */
			local_irq_save(flags);
			local_irq_restore(flags);
			local_bh_disable();
			local_bh_enable();
			for (unsigned int n = 1; n <= SEQ_LINES; n++)
				if (line_kind[n] == LINE_SIM && irqs[n] > 0)
					synchronize_irq((unsigned int)irqs[n]);
		}
		for (unsigned int i = 0; i < SEQ_BH; i++) {
			flush_work(&works[i]);
			flush_work(&dworks[i].work);	/* queued already; its timer's not waited */
		}
		for (unsigned int i = 0; i < SEQ_POLLS; i++) {
			/* a scheduled instance's NET_RX or IRQ_POLL run, its thread, a deferral */
			wait |= napi_st[i].on && (test_bit(NAPI_STATE_SCHED, &napis[i].state) ||
						  hrtimer_active(&napis[i].timer));
			wait |= iop_st[i].inited && !iop_st[i].off &&
				test_bit(IRQ_POLL_F_SCHED, &iops[i].state);
		}
		if (wait) {
			/* softirqs raised in process context run at a bottom-half enable */
			local_bh_disable();
			local_bh_enable();
		}
		for (unsigned int i = 0; i < SEQ_BH; i++) {
			wait |= READ_ONCE(tl_state[i].pending) && !tl_state[i].off;
			wait |= READ_ONCE(timer_short[i]) && timer_pending(&timers[i]);
			wait |= dwork_short[i] && delayed_work_pending(&dworks[i]);
		}
		if (!wait)
			return true;
		side->tick(side->ctx);
	}
	return false;
}

/* What a hold of @what (HOLD_*, @kind for the lock's) keeps off the runner's CPU. */
static unsigned int blocks_of(unsigned int what, unsigned int kind)
{
	if (what == HOLD_IRQS)
		return BLOCK_IRQ | BLOCK_BH;
	if (what == HOLD_BH || kind == LK_BH)
		return BLOCK_BH;
	return kind == LK_PLAIN || cur_side->rt ? 0 : BLOCK_IRQ | BLOCK_BH;
}

/* Take a hold of @what (HOLD_*), @kind for the lock's. */
static void hold(unsigned int what, unsigned int kind)
{
	unsigned long flags = 0;
	unsigned int block = blocks_of(what, kind);

	switch (what) {
	case HOLD_IRQS:
		local_irq_save(flags);
		break;
	case HOLD_BH:
		local_bh_disable();
		break;
	default:
		switch (kind) {
		case LK_PLAIN:
			spin_lock(&seq_lock);
			break;
		case LK_BH:
			spin_lock_bh(&seq_lock);
			break;
		case LK_IRQ:
			spin_lock_irq(&seq_lock);
			break;
		default:
			spin_lock_irqsave(&seq_lock, flags);
			break;
		}
		break;
	}
	holds[nr_holds++] = (typeof(holds[0])){ what, kind, flags };
	WRITE_ONCE(hold_cpu, (int)smp_processor_id());
	WRITE_ONCE(hold_blocks, hold_blocks | block);
}

/* Let go of the innermost hold. */
static void unhold(void)
{
	unsigned int what = holds[nr_holds - 1].what, kind = holds[nr_holds - 1].kind;
	unsigned long flags = holds[nr_holds - 1].flags;
	unsigned int block = 0;

	nr_holds--;
	for (unsigned int k = 0; k < nr_holds; k++)
		block |= blocks_of(holds[k].what, holds[k].kind);
	/* what the hold kept back may run at its end: not counted against it */
	WRITE_ONCE(hold_blocks, block);
	if (!nr_holds)
		WRITE_ONCE(hold_cpu, -1);
	switch (what) {
	case HOLD_IRQS:
		local_irq_restore(flags);
		break;
	case HOLD_BH:
		local_bh_enable();
		break;
	default:
		if (kind == LK_PLAIN)
			spin_unlock(&seq_lock);
		else if (kind == LK_BH)
			spin_unlock_bh(&seq_lock);
		else if (kind == LK_IRQ)
			spin_unlock_irq(&seq_lock);
		else
			spin_unlock_irqrestore(&seq_lock, flags);
		break;
	}
}

/* Whether step @s may sleep (refused while the runner holds anything). */
static bool sleeps(const struct seq_step *s)
{
	switch (s->op) {
	case OP_LINE:
	case OP_REQUEST:
	case OP_FREE:
	case OP_DISABLE:
	case OP_SYNC:
	case OP_SPURIOUS:
		return true;
	case OP_TASKLET:
		return s->arg == TL_KILL;
	case OP_TIMER:
		return s->arg == TM_DEL_SYNC;
	case OP_WORK:
		return s->arg != WK_QUEUE;
	case OP_DWORK:
		return s->arg == DW_CANCEL_SYNC || s->arg == DW_FLUSH;
	case OP_NAPI:
		/* add and threaded may start a kthread; busy polls in process context */
		return s->arg == NP_ADD || s->arg == NP_DISABLE || s->arg == NP_DEL ||
		       s->arg == NP_SYNC || s->arg == NP_THREADED || s->arg == NP_BUSY;
	case OP_IOPOLL:
		return s->arg == IO_DISABLE;
	default:
		return false;
	}
}

static unsigned int busy_rounds, busy_want;

static bool busy_end(void *arg, unsigned long start_time)
{
	return ++busy_rounds >= busy_want;
}

/* The NAPI state bits both sides have, by name. */
static const char *napi_state(unsigned int i, char *buf, size_t size)
{
	static const char *const bits[] = { "sched", "missed", "disable", "npsvc", "listed" };
	size_t o = 0;

	o += (size_t)snprintf(buf + o, size - o, "state");
	for (unsigned int b = 0; b < ARRAY_SIZE(bits); b++)
		if (test_bit((long)b, &napis[i].state))
			o += (size_t)snprintf(buf + o, size - o, " %s", bits[b]);
	if (o == strlen("state"))
		snprintf(buf + o, size - o, " none");
	return buf;
}

/* A NAPI step.  Return: what its record says after "=>", or NULL. */
static const char *napi_step(const struct seq_side *side, const struct seq_step *s, char *buf,
			     size_t size)
{
	unsigned int i = s->h;
	struct napi_struct *n = &napis[i];

	if (s->arg != NP_ADD && s->arg != NP_BACKLOG && !napi_st[i].added)
		return "refused: not added";
	switch (s->arg) {
	case NP_ADD:
		if (napi_st[i].added)
			return "refused: added already";
		if (!s->idx || s->idx > 64)
			return "refused: a weight of 1 to 64";
		init_dummy_netdev(&seq_netdevs[i]);
		seq_netdevs[i].napi_defer_hard_irqs = (int)s->n;
		seq_netdevs[i].gro_flush_timeout = s->n ? 1000000 : 0;
		netif_napi_add_weight(&seq_netdevs[i], n, seq_napi_poll, (int)s->idx);
		napi_st[i].added = true;
		return NULL;
	case NP_ENABLE:
		if (napi_st[i].on)
			return "refused: enabled already";
		napi_enable(n);
		napi_st[i].on = true;
		return NULL;
	case NP_DISABLE:
		if (!napi_st[i].on)
			return "refused: disabled already";
		napi_disable(n);
		napi_st[i].on = false;
		return NULL;
	case NP_SCHEDULE:
		return napi_schedule_prep(n) ? (__napi_schedule(n), "ret 1") : "ret 0";
	case NP_DEL:
		if (napi_st[i].on)
			return "refused: enabled";
		netif_napi_del(n);
		napi_st[i].added = false;
		return NULL;
	case NP_SYNC:
		if (!napi_st[i].on)
			return "refused: disabled";
		napi_synchronize(n);
		return NULL;
	case NP_MISSED:
		return napi_if_scheduled_mark_missed(n) ? "ret 1" : "ret 0";
	case NP_BACKLOG:
		WRITE_ONCE(napi_st[i].backlog, s->idx);
		return NULL;
	case NP_STATE:
		return napi_state(i, buf, size);
	case NP_THREADED: {
		int ret = dev_set_threaded(&seq_netdevs[i], s->idx != 0);

		napi_st[i].threaded = !ret && s->idx;
		snprintf(buf, size, "ret %d", ret);
		return buf;
	}
	default:
		if (!s->idx)
			return "refused: no rounds";
		/* Linux builds busy polling only without PREEMPT_RT (NET_RX_BUSY_POLL) */
		if (side->rt)
			return "refused: no busy polling on PREEMPT_RT";
#if defined(CONFIG_NET_RX_BUSY_POLL) || !defined(__KERNEL__)
		busy_rounds = 0;
		busy_want = s->idx;
		napi_busy_loop(n->napi_id, busy_end, NULL, s->flags & F_SHARED, 8);
		return NULL;
#else
		return "refused: no busy polling in this kernel";
#endif
	}
}

/* An irq_poll step. */
static const char *iopoll_step(const struct seq_step *s)
{
	unsigned int i = s->h;

	if (s->arg != IO_INIT && s->arg != IO_BACKLOG && !iop_st[i].inited)
		return "refused: not set up";
	switch (s->arg) {
	case IO_INIT:
		if (!s->idx || s->idx > 256)
			return "refused: a weight of 1 to 256";
		if (iop_st[i].inited && (iop_st[i].off || test_bit(IRQ_POLL_F_SCHED, &iops[i].state)))
			return "refused: in use";
		irq_poll_init(&iops[i], (int)s->idx, seq_iop_poll);
		iop_st[i].inited = true;
		iop_st[i].off = false;
		return NULL;
	case IO_SCHED:
		irq_poll_sched(&iops[i]);
		return NULL;
	case IO_DISABLE:
		if (iop_st[i].off)
			return "refused: disabled already";
		irq_poll_disable(&iops[i]);
		iop_st[i].off = true;
		return NULL;
	case IO_ENABLE:
		if (!iop_st[i].off)
			return "refused: not disabled";	/* Linux: BUG_ON */
		irq_poll_enable(&iops[i]);
		iop_st[i].off = false;
		return NULL;
	default:
		WRITE_ONCE(iop_st[i].backlog, s->idx);
		return NULL;
	}
}

/*
 * Line @n on the interrupt simulator (Linux's kernel/irq/irq_sim.c, a
 * module in the guest; irqkit's own): handle_simple_irq, edges only, a
 * fire while masked dropped, no retrigger (a pending edge is resent by
 * the core's software resend).  Return: NULL, or the record's error.
 */
static const char *sim_line(unsigned int n, char *buf, size_t size)
{
	unsigned int virq;

	if (!sim_domain) {
		struct irq_domain *d = irq_domain_create_sim(NULL, SEQ_LINES + 1);

		if (IS_ERR_OR_NULL(d))
			return errname(d ? (int)PTR_ERR(d) : -ENOMEM, buf, size);
		sim_domain = d;
	}
	virq = irq_create_mapping(sim_domain, n);
	if (!virq)
		return errname(-ENOMEM, buf, size);
	irqs[n] = (int)virq;
	return NULL;
}

/* The simulator's lines go, then its domain (at the end of a run, nothing requested). */
static void sim_remove(void)
{
	if (!sim_domain)
		return;
	for (unsigned int n = 1; n <= SEQ_LINES; n++)
		if (line_kind[n] == LINE_SIM && irqs[n] > 0)
			irq_dispose_mapping((unsigned int)irqs[n]);
	irq_domain_remove_sim(sim_domain);
	sim_domain = NULL;
}

/*
 * Step @s once.  Return: what its record says after "=>" (@buf may hold
 * it), or NULL for nothing.
 */
static const char *step(const struct seq_side *side, const struct seq_step *s, char *buf,
			size_t size)
{
	static const char *const names[] = { "h0", "h1", "h2", "h3" };
	int irq = irqs[s->n];

	/* no chip to drive, no /proc/irq to read */
	if ((s->op == OP_RAISE || s->op == OP_LEVEL || s->op == OP_SPURIOUS) &&
	    (line_kind[s->n] == LINE_ABSENT || line_kind[s->n] == LINE_NOCHIP))
		return "refused: no such line";
	switch (s->op) {
	case OP_LINE: {
		int got;

		line_kind[s->n] = (unsigned char)s->arg;
		switch (s->arg) {
		case LINE_ABSENT:
			irqs[s->n] = SEQ_ABSENT_IRQ;
			return NULL;
		case LINE_SIM:
			return sim_line(s->n, buf, size);
		case LINE_NOCHIP:
			got = side->nochip(side->ctx, s->n);
			break;
		default:
			got = side->line(side->ctx, s->n, s->arg == LINE_LEVEL);
			break;
		}
		if (got <= 0)
			return errname(got ? got : -EINVAL, buf, size);
		irqs[s->n] = got;
		return NULL;
	}
	case OP_HANDLER:
		handlers[s->h].nrets = s->nrets;
		memcpy(handlers[s->h].rets, s->rets, sizeof(s->rets));
		return NULL;
	case OP_DEFER:
		handlers[s->h].defer = s->arg;
		handlers[s->h].defer_idx = s->idx;
		return NULL;
	case OP_REQUEST: {
		unsigned long f = (s->flags & F_SHARED ? IRQF_SHARED : 0) |
				  (s->flags & F_ONESHOT ? IRQF_ONESHOT : 0) |
				  (s->flags & F_RISING ? IRQF_TRIGGER_RISING : 0) |
				  (s->flags & F_HIGH ? IRQF_TRIGGER_HIGH : 0);
		int ret;

		/* a NULL dev_id only where Linux refuses it: no handler sees it */
		if ((s->flags & F_NULLDEV) && !(s->flags & F_SHARED))
			return "refused: nulldev only with shared";
		ret = request_threaded_irq((unsigned int)irq,
					   s->flags & F_NOPRIMARY ? NULL : seq_primary,
					   s->flags & F_THREAD ? seq_thread : NULL, f, names[s->h],
					   s->flags & F_NULLDEV ? NULL : &handlers[s->h]);

		if (!ret)
			requested[s->n] |= 1u << s->h;
		had_request[s->n] |= !ret;
		had_thread[s->n] |= !ret && (s->flags & F_THREAD);
		return ret ? errname(ret, buf, size) : "ret 0";
	}
	case OP_FREE:
		if (s->flags & F_NULLDEV)
			return free_irq((unsigned int)irq, NULL) ? "ret name" : "ret null";
		requested[s->n] &= ~(1u << s->h);
		return free_irq((unsigned int)irq, &handlers[s->h]) ? "ret name" : "ret null";
	case OP_RAISE: {
		/* the simulator's lines fire through the chip's pending state */
		int e = line_kind[s->n] == LINE_SIM ? irq_set_irqchip_state((unsigned int)irq,
							       IRQCHIP_STATE_PENDING, true) :
					 side->raise(side->ctx, (unsigned int)irq);

		return e ? errname(e, buf, size) : NULL;
	}
	case OP_LEVEL: {
		/* the simulator has edges only */
		int e = line_kind[s->n] == LINE_SIM ? -EINVAL :
					 side->set_level(side->ctx, (unsigned int)irq, (int)s->arg);

		return e ? errname(e, buf, size) : NULL;
	}
	case OP_DISABLE:
		disable_irq((unsigned int)irq);
		return NULL;
	case OP_DISABLE_NOSYNC:
		disable_irq_nosync((unsigned int)irq);
		return NULL;
	case OP_ENABLE:
		enable_irq((unsigned int)irq);
		return NULL;
	case OP_SYNC:
		synchronize_irq((unsigned int)irq);
		return NULL;
	case OP_IRQS:
	case OP_BH:
		if (s->arg) {
			if (nr_holds == SEQ_HOLDS)
				return "refused: too deep";
			hold(s->op == OP_IRQS ? HOLD_IRQS : HOLD_BH, 0);
			return NULL;
		}
		if (!nr_holds || holds[nr_holds - 1].what != (s->op == OP_IRQS ? HOLD_IRQS : HOLD_BH))
			return "refused: not the innermost hold";
		unhold();
		return NULL;
	case OP_LOCK:
		for (unsigned int k = 0; k < nr_holds; k++)
			if (holds[k].what == HOLD_LOCK)
				return "refused: held already";
		if (nr_holds == SEQ_HOLDS)
			return "refused: too deep";
		/* spin_unlock_irq would turn interrupts on under an outer hold's */
		if (s->arg == LK_IRQ && (READ_ONCE(hold_blocks) & BLOCK_IRQ))
			return "refused: interrupts off already";
		hold(HOLD_LOCK, s->arg);
		return NULL;
	case OP_UNLOCK:
		if (!nr_holds || holds[nr_holds - 1].what != HOLD_LOCK)
			return "refused: not the innermost hold";
		unhold();
		return NULL;
	case OP_TASKLET:
		switch (s->arg) {
		case TL_SCHEDULE:
		case TL_HI_SCHEDULE:
			tasklet_go(s->h, s->arg == TL_HI_SCHEDULE);
			return NULL;
		case TL_DISABLE:
			tasklet_disable(&tasklets[s->h]);
			tl_state[s->h].off++;
			return NULL;
		case TL_ENABLE:
			if (!tl_state[s->h].off)
				return "refused: not disabled";
			tl_state[s->h].off--;
			tasklet_enable(&tasklets[s->h]);
			return NULL;
		default:
			/* Linux's tasklet_kill waits for a scheduled tasklet to run */
			if (tl_state[s->h].off && READ_ONCE(tl_state[s->h].pending))
				return "refused: would wait for ever";
			tasklet_kill(&tasklets[s->h]);
			WRITE_ONCE(tl_state[s->h].pending, false);
			return NULL;
		}
	case OP_TIMER: {
		int ret;

		switch (s->arg) {
		case TM_SHORT:
		case TM_LONG:
			ret = timer_go(s->h, s->arg == TM_SHORT);
			break;
		case TM_DEL:
			ret = del_timer(&timers[s->h]);
			break;
		default:
			ret = del_timer_sync(&timers[s->h]);
			break;
		}
		snprintf(buf, size, "ret %d", ret);
		return buf;
	}
	case OP_WORK: {
		bool ret;

		switch (s->arg) {
		case WK_QUEUE:
			ret = queue_work(system_wq, &works[s->h]);
			break;
		case WK_FLUSH:
			ret = flush_work(&works[s->h]);
			break;
		default:
			ret = cancel_work_sync(&works[s->h]);
			break;
		}
		return ret ? "ret 1" : "ret 0";
	}
	case OP_DWORK: {
		struct delayed_work *dw = &dworks[s->h];
		bool ret;

		switch (s->arg) {
		case DW_SHORT:
		case DW_LONG:
			/* one pending already keeps its time */
			ret = queue_delayed_work(system_wq, dw, s->arg == DW_SHORT ? 1 : 100 * HZ);
			if (ret)
				dwork_short[s->h] = s->arg == DW_SHORT;
			break;
		case DW_MOD_SHORT:
			dwork_short[s->h] = true;
			ret = mod_delayed_work(system_wq, dw, 1);
			break;
		case DW_CANCEL:
			ret = cancel_delayed_work(dw);
			break;
		case DW_CANCEL_SYNC:
			ret = cancel_delayed_work_sync(dw);
			break;
		default:
			/*
			 * Its value is the scheduler's: whether the work it
			 * queued had run before it looked (a kworker of the
			 * kernel's may preempt it when it turns interrupts on).
			 */
			(void)flush_delayed_work(dw);
			return NULL;
		}
		return ret ? "ret 1" : "ret 0";
	}
	case OP_NAPI:
		return napi_step(side, s, buf, size);
	case OP_IOPOLL:
		return iopoll_step(s);
	case OP_SOFTNET:
		snprintf(buf, size, "time_squeeze %lu", side->time_squeeze(side->ctx) - squeeze_base);
		return buf;
	case OP_SPURIOUS: {
		size_t o = 0;

		/* rec[] is free until the record: the counters go there first */
		put_spurious(side, &o, s->n);
		snprintf(buf, size, "%s", rec);
		return buf;
	}
	}
	return NULL;
}

/* A new run: the bottom halves set up, nothing noted, no hold. */
static void run_start(void)
{
	memset(irqs, 0, sizeof(irqs));
	memset(line_kind, 0, sizeof(line_kind));
	memset(requested, 0, sizeof(requested));
	for (unsigned int h = 0; h < SEQ_HANDLERS; h++)
		handlers[h] = (struct seq_handler){ .id = h, .nrets = 1, .rets = { R_HANDLED } };
	for (unsigned int i = 0; i < SEQ_BH; i++) {
		tasklet_setup(&tasklets[i], seq_tasklet);
		tl_state[i].pending = false;
		tl_state[i].off = 0;
		timer_setup(&timers[i], seq_timer, 0);
		timer_short[i] = false;
		INIT_WORK(&works[i], seq_work);
		INIT_DELAYED_WORK(&dworks[i], seq_dwork);
		dwork_short[i] = false;
	}
	nr_holds = 0;
	hold_cpu = -1;
	hold_blocks = 0;
	memset(had_request, 0, sizeof(had_request));
	memset(had_thread, 0, sizeof(had_thread));
	memset(last_unhandled_ms, 0, sizeof(last_unhandled_ms));
	memset(unhandled_timed, 0, sizeof(unhandled_timed));
	memset(napi_st, 0, sizeof(napi_st));
	memset(iop_st, 0, sizeof(iop_st));
	squeeze_base = side_squeeze_base;
	notes_clear();		/* no handler of the sequence's runs yet */
}

/* The end of a run: the holds let go, then each line's state and each handler's calls. */
static void run_end(const struct seq_side *side)
{
	while (nr_holds)
		unhold();
	if (!settle(side))
		side->out(side->ctx, "end: what the sequence started still waits");
	watch_unhandled(side);
	for (unsigned int l = 1; l <= SEQ_LINES; l++) {
		size_t o = 0;

		/*
		 * Where it has a handler: a line without keeps the disable depth
		 * its last free left, which Linux changed after 6.1 (irq_shutdown
		 * counts the shutdown in the depth instead of setting it to 1).
		 */
		if (irqs[l] <= 0 || !requested[l])
			continue;
		PUT(o, "line %u: %s, ", l,
		    irqd_irq_disabled(irq_get_irq_data((unsigned int)irqs[l])) ? "disabled" :
										  "enabled");
		put_spurious(side, &o, l);
		side->out(side->ctx, rec);
	}
	for (unsigned int h = 0; h < SEQ_HANDLERS; h++) {
		if (!handlers[h].hard && !handlers[h].thread)
			continue;
		snprintf(rec, sizeof(rec), "handler %u: %lu hard, %lu thread", h, handlers[h].hard,
			 handlers[h].thread);
		side->out(side->ctx, rec);
	}
	/* what the sequence left goes, unrecorded: the side stops clean */
	for (unsigned int i = 0; i < SEQ_POLLS; i++) {
		if (napi_st[i].on)
			napi_disable(&napis[i]);
		if (napi_st[i].added)
			netif_napi_del(&napis[i]);
		if (iop_st[i].inited && !iop_st[i].off)
			irq_poll_disable(&iops[i]);
	}
	for (unsigned int l = 1; l <= SEQ_LINES; l++)
		for (unsigned int h = 0; h < SEQ_HANDLERS; h++)
			if (requested[l] & (1u << h))
				(void)free_irq((unsigned int)irqs[l], &handlers[h]);
	sim_remove();
	for (unsigned int n = 1; n <= SEQ_LINES; n++)
		if (line_kind[n] == LINE_NOCHIP && irqs[n] > 0)
			side->nochip_free(side->ctx, (unsigned int)irqs[n]);
	for (unsigned int i = 0; i < SEQ_BH; i++) {
		for (; tl_state[i].off; tl_state[i].off--)
			tasklet_enable(&tasklets[i]);
		tasklet_kill(&tasklets[i]);
		del_timer_sync(&timers[i]);
		cancel_work_sync(&works[i]);
		cancel_delayed_work_sync(&dworks[i]);
	}
}

int seq_run(const struct seq_side *side, const char *text)
{
	char buf[SEQ_TEXT];
	int n = parse(text);

	if (n < 0)
		return -n;
	cur_side = side;
	side_squeeze_base = side->time_squeeze(side->ctx);
	run_start();
	for (unsigned int i = 0; i < (unsigned int)n; i++) {
		const struct seq_step *s = &steps[i];
		const char *ret = NULL;
		bool settled = true;

		if (s->op == OP_LINE && irqs[s->n] > 0)
			ret = "line set up already";
		else if (names_line(s->op) && s->op != OP_LINE && irqs[s->n] <= 0)
			ret = "line not set up";
		else if (nr_holds && sleeps(s))
			ret = "refused: sleeps";
		for (unsigned int r = 0; !ret && r < s->repeat; r++) {
			const char *got = step(side, s, buf, sizeof(buf));

			if (!nr_holds)
				settled = settle(side);
			if (r + 1 == s->repeat)
				ret = got;
		}
		if (!settled)
			ret = "still waits after the bound";
		if (!nr_holds)
			watch_unhandled(side);
		record(side, i, ret, !nr_holds);
	}
	run_end(side);
	return 0;
}
