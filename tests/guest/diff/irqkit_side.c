// SPDX-License-Identifier: MIT
/*
 * The irqkit side of the comparison: the sequences of seq.h run over
 * irqkit's Linux-name layer, one CPU in deterministic mode played by the
 * runner (interrupts come at its delivery points only, as on the kernel's
 * CPU, where the chip fires through irq_work on the CPU that raised), the
 * lines on the software chip, and each step settled by a delivery point
 * and synchronize_irq() for the threads.  The kernel's log reaches seq_log() through the
 * log hook.  Prints one record a line.
 *
 * With --gen SEED it prints a sequence made from SEED instead: edge, level
 * and interrupt simulator lines, sometimes a line with no descriptor (bad
 * input, as a NULL dev_id on a shared request or a free); handlers with
 * random answers (with a level line each script ends letting go of it),
 * some handing on to a tasklet or a timer; requests (shared, ONESHOT,
 * threaded, without a primary), frees, raises, disables and enables,
 * tasklet, timer, work and delayed work calls, spurious counters, in
 * random order, some inside a hold (interrupts off, bottom halves off, the
 * lock taken one of four ways).  Only what both sides can run with the
 * same outcome whatever the timing: no sleeping call in a hold; a handler
 * that wakes its thread has one, ONESHOT on a level line; no free of a
 * line the sequence has disabled more often than enabled: a line freed
 * while disabled keeps that depth since Linux 6.15 (irq_shutdown counts
 * itself in the depth), which irqkit follows, where the guest's 6.1 set it
 * to 1.
 * Usage: seq_irqkit FILE.seq | seq_irqkit --gen SEED
 * (exit 0; 1 if the file does not parse or the runtime does not start)
 */
#include <irqkit/irqkit.h>
#include <irqkit/swchip.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seq.h"

#define FIRST_IRQ	32		/* line N is irq FIRST_IRQ + N - 1 */

static unsigned long long lines_up;	/* set up, as bits of N (1-36) */

static int side_line(void *ctx, unsigned int n, int level)
{
	unsigned int irq = FIRST_IRQ + n - 1;
	int ret = irqkit_swchip_add(irq, 1,
				    level ? IRQKIT_TYPE_LEVEL_HIGH : IRQKIT_TYPE_EDGE_RISING);

	(void)ctx;
	if (ret)
		return ret;
	lines_up |= 1ull << n;
	return (int)irq;
}

/* A descriptor with no chip: irqkit's lines have one each, the last ones of the table. */
static int side_nochip(void *ctx, unsigned int n)
{
	(void)ctx;
	return (int)(irqkit_nr_irqs() - n);
}

static void side_nochip_free(void *ctx, unsigned int irq)
{
	(void)ctx;
	(void)irq;
}

static int side_raise(void *ctx, unsigned int irq)
{
	(void)ctx;
	return irqkit_sw_raise(irq);
}

static int side_set_level(void *ctx, unsigned int irq, int high)
{
	(void)ctx;
	return irqkit_sw_set_level(irq, high);
}

/*
 * Wait until each line's arrivals have been handled, threads included; an
 * arrival on a disabled line waits for its enable, and one on a line with
 * no handler for a request, not for this.  A thread woken before the
 * line was disabled runs now: the kernel's irq thread (SCHED_FIFO) takes
 * the CPU from the runner as soon as it is woken.
 */
static void side_settle(void *ctx)
{
	(void)ctx;
	irqkit_deliver_pending();	/* softirqs raised in process context run here */
	for (int pass = 0; pass < 1000; pass++) {
		bool more = false;

		for (unsigned int n = 1; n <= SEQ_LINES; n++) {
			unsigned int irq = FIRST_IRQ + n - 1;

			if (!(lines_up & (1ull << n)) || !irqkit_irq_has_action(irq))
				continue;
			if (irqkit_irqd_state(irqkit_irq_get_irq_data(irq)) & IRQKIT_IRQD_DISABLED) {
				irqkit_synchronize_irq(irq);
				continue;
			}
			/* this CPU's delivery point, then the line's threads, then what
			 * their end let through (a ONESHOT line unmasked on its latch) */
			more |= irqkit_wait_delivered(irq, 0) != 0;
			irqkit_synchronize_irq(irq);
			more |= irqkit_wait_delivered(irq, 0) != 0;
		}
		if (!more)
			break;
	}
}

/*
 * A jiffy of the virtual clock: the timers it makes due run in it.  And a
 * little real time, for what runs in a thread of its own whatever the
 * mode (a threaded NAPI instance's kthread).
 */
static void side_tick(void *ctx)
{
	(void)ctx;
	(void)irqkit_clock_advance(1000000000ull / irqkit_hz());
	irqkit_deliver_pending();
	usleep(100);
}

static int side_spurious(void *ctx, unsigned int irq, char *buf, unsigned int size)
{
	(void)ctx;
	return irqkit_show_spurious_buf(irq, buf, size);
}

static unsigned long side_time_squeeze(void *ctx)
{
	unsigned long sum = 0;

	(void)ctx;
	for (unsigned int cpu = 0; cpu < irqkit_num_online_cpus(); cpu++) {
		struct irqkit_softnet_stat st;

		if (!irqkit_softnet_stat(cpu, &st))
			sum += st.time_squeeze;
	}
	return sum;
}

static void side_out(void *ctx, const char *text)
{
	(void)ctx;
	puts(text);
}

static void log_hook(void *arg, int level, const char *line)
{
	(void)arg;
	(void)level;
	seq_log(line);
	if (getenv("SEQ_VERBOSE"))
		fprintf(stderr, "log: %s\n", line);
}

/* ---- generated sequences ------------------------------------------------------ */

static unsigned int rnd_state;

static unsigned int rnd(unsigned int n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state % n;
}

/* An edge on line @n, or on a level line its level (mostly asserted). */
static void generate_raise(unsigned int n, unsigned int level, bool may_repeat)
{
	if (level & (1u << n))
		printf("level %u %u\n", n, rnd(4) ? 1 : 0);
	else
		printf("%sraise %u\n", may_repeat && !rnd(4) ? "repeat 3 " : "", n);
}

/*
 * One step of a hold of kind @k (holds[] below) on a line of @nlines;
 * @level, @sim, @threaded: lines as bits; @depth as in generate().
 */
static void generate_held(unsigned int k, unsigned int nlines, unsigned int level,
			  unsigned int sim, unsigned int threaded, unsigned int *depth)
{
	static const char *const timer_verbs[] = { "short", "long", "del" };
	static const char *const dwork_verbs[] = { "short", "long", "mod_short", "cancel" };
	unsigned int m = 1 + rnd(nlines), what = rnd(7);
	/*
	 * With interrupts on (bottom halves off, the plain lock) an edge runs
	 * at once; a line with a thread is not raised then, since its
	 * thread's end (on another CPU of the kernel's) unmasks the line
	 * whenever the scheduler has it run, among the hold's hardirqs.
	 */
	bool irqs_on = k == 1 || k == 2 || k == 3;
	/*
	 * With interrupts off, the simulator's lines are not raised either:
	 * its fire is an irq_work of its own, which the kernel's CPU runs
	 * before or after the module chip's as its irq_work list has them,
	 * where irqkit takes lines in their order.
	 */
	bool may_raise = irqs_on ? !(threaded & (1u << m)) : !(sim & (1u << m));

	if (what < 2 && may_raise) {
		generate_raise(m, level, false);
	} else if (what == 2) {
		printf("disable_nosync %u\n", m);
		depth[m]++;
	} else if (what == 3 && may_raise) {
		/*
		 * Not a simulator's line under the plain lock: an interrupt it
		 * held while disabled is resent by the kernel's resend tasklet
		 * (irq_sim has no retrigger), which a tick's irq_exit may run
		 * before the unlock, and its handler with it; irqkit's
		 * deterministic mode has no tick.  No draw is skipped.
		 */
		if (k != 2 || !(sim & (1u << m))) {
			printf("enable %u\n", m);
			depth[m] -= depth[m] > 0;
		}
	} else if (what == 5) {
		printf("timer %u %s\n", rnd(2), timer_verbs[rnd(3)]);
	} else if (what == 6) {
		printf("dwork %u %s\n", rnd(2), dwork_verbs[rnd(4)]);
	} else if (k == 2) {
		/*
		 * Not under the plain lock: it holds off preemption, not bottom
		 * halves, so on the kernel a tick's irq_exit may run the
		 * tasklet before the unlock, or (scheduled on both vectors)
		 * twice, as the tick falls; irqkit's deterministic mode has no
		 * tick.  The draws are made all the same, so that the rest of
		 * the sequence stays as the seed made it.
		 */
		(void)rnd(2);
		(void)rnd(2);
	} else {
		printf("tasklet %u %s\n", rnd(2), rnd(2) ? "schedule" : "hi_schedule");
	}
}

/*
 * A sequence from @seed.  Works are queued and waited for in process
 * context only: a CPU's kworker in irqkit's deterministic mode runs beside
 * the thread playing that CPU, where the kernel's waits for the CPU, so
 * two queues of one work with no wait between (under a hold, or from two
 * hardirqs) may run it once or twice in irqkit (docs/conformance.md).
 */
static void generate(unsigned int seed)
{
	static const char *const answers[] = { "none", "handled", "wake", "lower" };
	static const char *const defers[] = { "tasklet", "hi", "timer" };
	static const char *const holds[] = { "irqs off", "bh off", "lock plain", "lock bh",
					     "lock irq", "lock irqsave" };
	static const char *const unholds[] = { "irqs on", "bh on", "unlock", "unlock", "unlock",
					       "unlock" };
	static const char *const tasklet_verbs[] = { "schedule", "hi_schedule", "disable", "enable",
						     "kill" };
	static const char *const timer_verbs[] = { "short", "long", "del", "del_sync" };
	static const char *const work_verbs[] = { "queue", "flush", "cancel_sync" };
	static const char *const dwork_verbs[] = { "short", "long", "mod_short", "cancel",
						   "cancel_sync", "flush" };
	unsigned int nlines, nall, steps, wakes = 0, threaded = 0, level = 0, sim = 0;
	unsigned int depth[5] = { 0 };	/* disables not yet enabled, by line */
	unsigned int tasklet_off[2] = { 0 };

	rnd_state = seed * 2654435761u + 1;
	(void)rnd(1);			/* one step first: neighbouring seeds part at once */
	nlines = 1 + rnd(3);
	printf("# generated from seed %u\n", seed);
	for (unsigned int n = 1; n <= nlines; n++) {
		unsigned int kind = rnd(12);

		level |= (kind < 4) << n;
		sim |= (kind >= 4 && kind < 7) << n;
		printf("line %u %s\n", n, kind < 4 ? "level" : kind < 7 ? "sim" : "edge");
	}
	/* sometimes one more, with no descriptor: every call on it is bad input */
	nall = nlines + (rnd(4) == 0);
	if (nall > nlines)
		printf("line %u absent\n", nall);
	for (unsigned int h = 0; h < SEQ_HANDLERS; h++) {
		unsigned int k = 1 + rnd(3);

		printf("handler %u", h);
		for (unsigned int i = 0; i < k; i++) {
			/* with level lines each script ends letting go, or they fire for ever */
			unsigned int a = level && i + 1 == k ? 3 : rnd(level ? 4 : 3);

			wakes |= (a == 2) << h;
			printf(" %s", answers[a]);
		}
		printf("\n");
		if (rnd(3) == 0) {
			unsigned int d = rnd(3);

			printf("defer %u %s %u\n", h, defers[d], rnd(2));
		}
	}
	steps = 8 + rnd(25);
	for (unsigned int s = 0; s < steps; s++) {
		unsigned int n = 1 + rnd(nall), h = rnd(SEQ_HANDLERS), op = rnd(26);

		if (op < 5) {
			/* drawn one by one: a call's arguments are evaluated in no set order */
			bool thread = (wakes & (1u << h)) || rnd(4) == 0;
			bool shared = rnd(3) != 0;
			/*
			 * a level line's thread is ONESHOT: without, the line
			 * fires again while the thread (which lets go of it) has
			 * yet to run, as often as the scheduler lets it
			 */
			bool oneshot = rnd(3) == 0 || (thread && (level & (1u << n)));
			bool noprimary = thread && !(wakes & (1u << h)) && rnd(2);
			bool nulldev = shared && rnd(8) == 0;

			threaded |= thread << n;
			printf("request %u %u%s%s%s%s%s\n", n, h, shared ? " shared" : "",
			       oneshot ? " oneshot" : "", thread ? " thread" : "",
			       noprimary ? " noprimary" : "", nulldev ? " nulldev" : "");
		} else if (op < 7 && !depth[n]) {
			printf("free %u %u%s\n", n, h, rnd(8) ? "" : " nulldev");
		} else if (op < 7) {
			printf("enable %u\n", n);
			depth[n]--;
		} else if (op < 12) {
			generate_raise(n, level, true);
		} else if (op < 14) {
			printf("disable %u\n", n);
			depth[n]++;
		} else if (op < 15) {
			printf("disable_nosync %u\n", n);
			depth[n]++;
		} else if (op < 18) {
			printf("enable %u\n", n);
			depth[n] -= depth[n] > 0;
		} else if (op < 19) {
			printf("sync %u\n", n);
		} else if (op < 20) {
			unsigned int t = rnd(2), v = rnd(5);

			/* an enable without its disable is refused: schedule instead */
			if (v == 3 && !tasklet_off[t])
				v = 0;
			tasklet_off[t] += v == 2;
			tasklet_off[t] -= v == 3;
			printf("tasklet %u %s\n", t, tasklet_verbs[v]);
		} else if (op < 21) {
			unsigned int t = rnd(2);

			printf("timer %u %s\n", t, timer_verbs[rnd(4)]);
		} else if (op < 22) {
			unsigned int w = rnd(2);

			printf("work %u %s\n", w, work_verbs[rnd(3)]);
		} else if (op < 23) {
			printf("spurious %u\n", n);
		} else if (op < 24) {
			unsigned int w = rnd(2);

			printf("dwork %u %s\n", w, dwork_verbs[rnd(6)]);
		} else {
			/* a hold: only what does not sleep */
			unsigned int k = rnd(6);

			printf("%s\n", holds[k]);
			for (unsigned int i = 1 + rnd(3); i; i--)
				generate_held(k, nlines, level, sim, threaded, depth);
			printf("%s\n", unholds[k]);
		}
	}
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = calloc(1, (size_t)n + 1)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	struct irqkit_config cfg = { .mode = IRQKIT_MODE_DETERMINISTIC, .nr_cpus = 1, .nr_irqs = 128,
				     .flags = IRQKIT_CFG_WINDOW_FROM_UNHANDLED,
				     .log = log_hook };
	struct seq_side side = { .line = side_line, .raise = side_raise,
				 .set_level = side_set_level, .settle = side_settle,
				 .tick = side_tick, .spurious = side_spurious, .out = side_out,
				 .time_squeeze = side_time_squeeze,
				 .nochip = side_nochip, .nochip_free = side_nochip_free };
	char *text;
	int bad;

	if (argc == 3 && !strcmp(argv[1], "--gen")) {
		generate((unsigned int)strtoul(argv[2], NULL, 0));
		return 0;
	}
	if (argc != 2 || !(text = read_file(argv[1]))) {
		fprintf(stderr, "usage: %s FILE.seq | --gen SEED\n", argv[0]);
		return 1;
	}
	if (irqkit_start(&cfg) || irqkit_thread_bind(0)) {
		fprintf(stderr, "%s: irqkit_start failed\n", argv[0]);
		return 1;
	}
	side.rt = irqkit_preempt_rt();	/* IRQKIT_PREEMPT_RT=1: the PREEMPT_RT kernel's peer */
	bad = seq_run(&side, text);
	(void)irqkit_thread_unbind();
	irqkit_stop();
	free(text);
	if (bad) {
		fprintf(stderr, "%s:%d: not a step\n", argv[1], bad);
		return 1;
	}
	return 0;
}
