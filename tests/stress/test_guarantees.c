// SPDX-License-Identifier: MIT
/*
 * Stress tests of the guarantees of DESIGN.md, with real threads: dispatchers,
 * bound threads that take interrupts at their delivery points, unbound
 * raisers, and threads that move lines between CPUs or disable them.  Each
 * test would fail without its guarantee.  IRQKIT_STRESS_SCALE multiplies the
 * iteration counts (default 1); the seed is printed for replay.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define NCPU	3
#define NLINES	6

/* A xorshift generator per thread, seeded from the printed seed. */
static unsigned int rnd(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static atomic_bool stop_flag;
static atomic_int violations;
static atomic_long calls[NLINES];
static atomic_int in_line[NLINES];
static atomic_int on_cpu[NCPU];
static atomic_int irqoff_on[NCPU];
static atomic_long handler_raises;	/* raises made by check_handler itself */

static int setup(void **state)
{
	(void)state;
	atomic_store(&stop_flag, false);
	atomic_store(&violations, 0);
	atomic_store(&handler_raises, 0);
	for (int i = 0; i < NLINES; i++) {
		atomic_store(&calls[i], 0);
		atomic_store(&in_line[i], 0);
	}
	for (int i = 0; i < NCPU; i++) {
		atomic_store(&on_cpu[i], 0);
		atomic_store(&irqoff_on[i], 0);
	}
	return thr_setup_cpus(NCPU, 64);
}

/*
 * The checking handler: the line is not running elsewhere (guarantee 1), no
 * other handler runs on this CPU (2), interrupts are off (2), and no thread
 * bound to this CPU has interrupts off (3).
 */
static enum irqkit_irqreturn check_handler(int irq, void *dev_id)
{
	int cpu = irqkit_smp_processor_id();

	(void)dev_id;
	if (atomic_fetch_add(&in_line[irq], 1) != 0)
		atomic_fetch_add(&violations, 1);
	if (atomic_fetch_add(&on_cpu[cpu], 1) != 0)
		atomic_fetch_add(&violations, 1);
	if (!irqkit_irqs_disabled() || !irqkit_in_hardirq())
		atomic_fetch_add(&violations, 1);
	if (atomic_load(&irqoff_on[cpu]) != 0)
		atomic_fetch_add(&violations, 1);
	/*
	 * Now and then, while running, move the line to the next CPU and raise
	 * it there: that CPU finds it in progress here (guarantee 1's case).
	 */
	if (atomic_load(&calls[irq]) % 8 == 0) {
		irqkit_irq_set_affinity((unsigned int)irq, 1ull << ((cpu + 1) % NCPU));
		irqkit_sw_raise((unsigned int)irq);
		atomic_fetch_add(&handler_raises, 1);
		stress_burn(3000);
	}
	stress_burn(200);
	atomic_fetch_sub(&on_cpu[cpu], 1);
	atomic_fetch_sub(&in_line[irq], 1);
	atomic_fetch_add(&calls[irq], 1);
	return IRQKIT_HANDLED;
}

struct worker {
	pthread_t	thread;
	int		id;
	int		cpu;		/* bound CPU or -1 */
	int		iters;
	int		pace;		/* busy work between raises */
	unsigned int	seed;
	long		raised[NLINES];
};

/* Raise random lines; bound workers also hold interrupts off now and then. */
static void *raiser(void *arg)
{
	struct worker *w = arg;

	if (w->cpu >= 0)
		assert_int_equal(irqkit_thread_bind((unsigned int)w->cpu), 0);
	for (int i = 0; i < w->iters && !atomic_load(&stop_flag); i++) {
		unsigned int line = rnd(&w->seed) % NLINES;

		if (w->cpu >= 0 && (rnd(&w->seed) & 3) == 0) {
			unsigned long flags = irqkit_local_irq_save();

			atomic_fetch_add(&irqoff_on[w->cpu], 1);
			irqkit_sw_raise(line);
			stress_burn(300);
			atomic_fetch_sub(&irqoff_on[w->cpu], 1);
			irqkit_local_irq_restore(flags);
		} else {
			irqkit_sw_raise(line);
		}
		w->raised[line]++;
		stress_burn(w->pace);
		if (i % 16 == 15)
			usleep(20);
	}
	if (w->cpu >= 0)
		irqkit_thread_unbind();
	return NULL;
}

/* Move lines between CPUs at random. */
static void *mover(void *arg)
{
	struct worker *w = arg;

	while (!atomic_load(&stop_flag)) {
		unsigned int line = rnd(&w->seed) % NLINES;

		irqkit_irq_set_affinity(line, 1ull << (rnd(&w->seed) % NCPU));
		usleep(50);
	}
	return NULL;
}

static void start_workers_paced(struct worker *w, int n, int iters, int pace)
{
	unsigned int seed = test_seed();

	for (int i = 0; i < n; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].id = i;
		w[i].cpu = i < NCPU ? i : -1;	/* one bound thread per CPU, the rest unbound */
		w[i].iters = iters;
		w[i].pace = pace;
		w[i].seed = seed * 2654435761u + (unsigned int)i + 1;
		pthread_create(&w[i].thread, NULL, raiser, &w[i]);
	}
}

static void start_workers(struct worker *w, int n, int iters)
{
	start_workers_paced(w, n, iters, 0);
}

static long join_workers(struct worker *w, int n)
{
	long total = 0;

	for (int i = 0; i < n; i++) {
		pthread_join(w[i].thread, NULL);
		for (int l = 0; l < NLINES; l++)
			total += w[i].raised[l];
	}
	return total;
}

static long total_calls(void)
{
	long sum = 0;

	for (int i = 0; i < NLINES; i++)
		sum += atomic_load(&calls[i]);
	return sum;
}

static void request_lines(void)
{
	for (int i = 0; i < NLINES; i++)
		assert_int_equal(irqkit_request_irq((unsigned int)i, check_handler, 0, "chk",
						    &calls[i]), 0);
}

/*
 * Guarantees 1, 2 and 3 together: lines moving between CPUs under load.  The
 * raisers run until enough handler runs and in-progress moves happened, so
 * the test does the same work on a fast machine and under a sanitizer.
 */
static void test_guarantees_1_2_3_exclusion_under_load(void **state)
{
	struct worker w[5], m = { .seed = test_seed() | 1 };
	long want_calls = stress_scale(5000), want_moves = stress_scale(300);
	long raised;
	bool enough;

	(void)state;
	request_lines();
	pthread_create(&m.thread, NULL, mover, &m);
	start_workers_paced(w, 5, 1 << 30, 500);
	enough = wait_until(total_calls() >= want_calls &&
			    atomic_load(&handler_raises) >= want_moves, 60000);
	atomic_store(&stop_flag, true);
	raised = join_workers(w, 5);
	pthread_join(m.thread, NULL);
	usleep(50000);
	fprintf(stderr, "  raised %ld, handled %ld, moved while running %ld, violations %d\n",
		raised, total_calls(), atomic_load(&handler_raises), atomic_load(&violations));
	assert_int_equal(atomic_load(&violations), 0);
	assert_true(enough);
}

/*
 * Guarantee 6: every raise is delivered or counted as coalesced, while lines
 * are disabled and enabled, moved, and raised under interrupts-off.
 */
struct toggler {
	pthread_t	thread;
	unsigned int	seed;
};

static void *toggle(void *arg)
{
	struct toggler *t = arg;

	while (!atomic_load(&stop_flag)) {
		unsigned int line = rnd(&t->seed) % NLINES;

		if (rnd(&t->seed) & 1)
			irqkit_disable_irq_nosync(line);
		else
			irqkit_disable_irq(line);
		stress_burn(2000);
		irqkit_enable_irq(line);
		irqkit_irq_set_affinity(line, 1ull << (rnd(&t->seed) % NCPU));
	}
	return NULL;
}

/* @raised_total: raises of the workers; the handler's own raises are added here. */
static bool accounted(long raised_total)
{
	long coalesced = 0;

	raised_total += atomic_load(&handler_raises);
	for (int i = 0; i < NLINES; i++) {
		struct irqkit_sw_stats st;
		struct irqkit_irq_info info;

		irqkit_sw_get_stats((unsigned int)i, &st);
		irqkit_irq_get_info((unsigned int)i, &info);
		coalesced += (long)st.coalesced + info.coalesced;
	}
	return total_calls() == raised_total - coalesced;
}

static void test_guarantee_6_nothing_raised_is_lost(void **state)
{
	struct worker w[5];
	struct toggler t[2];
	long raised, coalesced = 0, kstat = 0;

	(void)state;
	request_lines();
	for (int i = 0; i < 2; i++) {
		t[i].seed = test_seed() * 7 + (unsigned int)i + 1;
		pthread_create(&t[i].thread, NULL, toggle, &t[i]);
	}
	start_workers_paced(w, 5, stress_scale(20000), 2000);
	raised = join_workers(w, 5);
	atomic_store(&stop_flag, true);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i].thread, NULL);
	/* every line is enabled again (balanced); latched edges drain */
	if (!wait_until(accounted(raised), 10000)) {
		for (int i = 0; i < NLINES; i++) {
			struct irqkit_sw_stats st;
			struct irqkit_irq_info info;

			irqkit_sw_get_stats((unsigned int)i, &st);
			irqkit_irq_get_info((unsigned int)i, &info);
			fprintf(stderr, "line %d: coalesced %lu+%u calls %ld depth %u "
				"pending %d masked %d latched %d\n", i,
				(unsigned long)st.coalesced, info.coalesced, atomic_load(&calls[i]), info.depth,
				info.pending, info.masked, st.latched);
		}
		{
			long co = 0;

			for (int i = 0; i < NLINES; i++) {
				struct irqkit_sw_stats st;
				struct irqkit_irq_info info;

				irqkit_sw_get_stats((unsigned int)i, &st);
				irqkit_irq_get_info((unsigned int)i, &info);
				co += (long)st.coalesced + info.coalesced;
			}
			fail_msg("raises not accounted for: raised %ld + %ld by handlers, "
				 "handled %ld, coalesced %ld", raised,
				 atomic_load(&handler_raises), total_calls(), co);
		}
	}
	for (int i = 0; i < NLINES; i++) {
		struct irqkit_sw_stats st;
		struct irqkit_irq_info info;

		irqkit_sw_get_stats((unsigned int)i, &st);
		irqkit_irq_get_info((unsigned int)i, &info);
		coalesced += (long)st.coalesced + info.coalesced;
		for (unsigned int c = 0; c < NCPU; c++)
			kstat += irqkit_kstat_irqs_cpu((unsigned int)i, c);
	}
	fprintf(stderr, "  raised %ld = handled %ld + coalesced %ld; kstat %ld\n",
		raised + atomic_load(&handler_raises), total_calls(), coalesced, kstat);
	/*
	 * /proc/interrupts counts flow entries that ran the actions; an edge
	 * replayed by the edge flow's loop runs the handler without a new entry.
	 */
	assert_true(kstat > 0 && kstat <= total_calls());
	assert_int_equal(atomic_load(&violations), 0);
}

/*
 * irqkit's own irqsave locks (mod_timer's timer base, the work pools) set the
 * thread's interrupt flag without holding its CPU: an interrupt raised while
 * a bound thread is inside one is signalled to the dispatcher at once, and
 * no wake-up waits for the section's end.  Each raise here waits for its
 * handler; one lost wake-up leaves it waiting for good.
 */
static atomic_long core_calls;

static enum irqkit_irqreturn count_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	atomic_fetch_add(&core_calls, 1);
	return IRQKIT_HANDLED;
}

static void nop_timer(struct irqkit_timer_list *t)
{
	(void)t;
}

static void nop_work(struct irqkit_work *w)
{
	(void)w;
}

static void *core_sections_on_cpu0(void *arg)
{
	struct irqkit_timer_list timer;
	struct irqkit_work work;

	(void)arg;
	irqkit_timer_setup(&timer, nop_timer, 0);
	irqkit_init_work(&work, nop_work);
	assert_int_equal(irqkit_thread_bind(0), 0);
	while (!atomic_load(&stop_flag)) {
		irqkit_mod_timer(&timer, irqkit_jiffies() + 1000);
		irqkit_del_timer(&timer);
		irqkit_queue_work_on(1, irqkit_system_wq(), &work);
	}
	assert_int_equal(irqkit_thread_unbind(), 0);
	irqkit_flush_work(&work);
	return NULL;
}

static void test_guarantee_6_no_wakeup_lost_behind_core_sections(void **state)
{
	const unsigned int irq = NLINES + 1;
	int n = stress_scale(20000);
	pthread_t th;

	(void)state;
	atomic_store(&core_calls, 0);
	assert_int_equal(irqkit_request_irq(irq, count_handler, 0, "core", NULL), 0);
	assert_int_equal(irqkit_irq_set_affinity(irq, 1), 0);	/* CPU 0 */
	pthread_create(&th, NULL, core_sections_on_cpu0, NULL);
	for (long i = 1; i <= n; i++) {
		irqkit_sw_raise(irq);
		if (!wait_until(atomic_load(&core_calls) >= i, 5000))
			break;
	}
	atomic_store(&stop_flag, true);
	pthread_join(th, NULL);
	assert_int_equal(atomic_load(&core_calls), n);
	irqkit_free_irq(irq, NULL);
}

/*
 * The dispatcher's idle recheck: it reads its CPU's eventcount, finds
 * nothing pending, says it is idle, looks again, and sleeps on the
 * eventcount; a raise marks the line pending and then, if the CPU says it
 * is idle, bumps the eventcount and wakes it.  Each raiser here waits for
 * its interrupt before the next one, after a random pause of 0-63 us, so
 * raises land in every phase of a dispatcher going to sleep (before the
 * idle flag, between the flag and the second look, between the look and
 * the sleep).  A lost wake-up leaves an interrupt undelivered: the bounded
 * wait ends the test with it.
 */
struct idle_raiser {
	pthread_t	thread;
	unsigned int	irq;
	unsigned int	seed;
	atomic_long	handled;
	long		raised;
};

static enum irqkit_irqreturn idle_handler(int irq, void *dev_id)
{
	struct idle_raiser *r = dev_id;

	(void)irq;
	atomic_fetch_add(&r->handled, 1);
	return IRQKIT_HANDLED;
}

static void *idle_raise_loop(void *arg)
{
	struct idle_raiser *r = arg;
	int n = stress_scale(20000);

	for (int i = 0; i < n; i++) {
		irqkit_sw_raise(r->irq);
		r->raised++;
		if (!wait_until(atomic_load(&r->handled) >= r->raised, 5000)) {
			atomic_fetch_add(&violations, 1);
			break;
		}
		if (rnd(&r->seed) & 1)
			usleep(rnd(&r->seed) % 64);
	}
	return NULL;
}

static void test_guarantee_6_no_wakeup_lost_at_the_dispatchers_idle(void **state)
{
	struct idle_raiser r[NCPU];

	(void)state;
	for (int i = 0; i < NCPU; i++) {
		r[i] = (struct idle_raiser){ .irq = NLINES + 2 + (unsigned int)i,
					     .seed = test_seed() * 31 + (unsigned int)i + 1 };
		assert_int_equal(irqkit_request_irq(r[i].irq, idle_handler, 0, "idle", &r[i]), 0);
		assert_int_equal(irqkit_irq_set_affinity(r[i].irq, 1ull << i), 0);
	}
	for (int i = 0; i < NCPU; i++)
		pthread_create(&r[i].thread, NULL, idle_raise_loop, &r[i]);
	for (int i = 0; i < NCPU; i++)
		pthread_join(r[i].thread, NULL);
	assert_int_equal(atomic_load(&violations), 0);
	for (int i = 0; i < NCPU; i++) {
		assert_int_equal(atomic_load(&r[i].handled), r[i].raised);
		assert_int_equal(r[i].raised, stress_scale(20000));
		irqkit_free_irq(r[i].irq, &r[i]);
	}
}

/* ---- guarantee 4 --------------------------------------------------------------------------- */

struct g4dev {
	atomic_long	started, finished;
	atomic_bool	gone;		/* set after free_irq / disable_irq returned */
};

static enum irqkit_irqreturn g4_handler(int irq, void *dev_id)
{
	struct g4dev *d = dev_id;

	(void)irq;
	atomic_fetch_add(&d->started, 1);
	if (atomic_load(&d->gone))
		atomic_fetch_add(&violations, 1);
	stress_burn(3000);
	atomic_fetch_add(&d->finished, 1);
	return IRQKIT_HANDLED;
}

static void *line0_raiser(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop_flag)) {
		irqkit_sw_raise(0);
		stress_burn(500);
	}
	return NULL;
}

static void test_guarantee_4_synchronize_free_disable(void **state)
{
	static struct g4dev devs[64];
	pthread_t r[2];
	int rounds = stress_scale(150);

	(void)state;
	for (int i = 0; i < 2; i++)
		pthread_create(&r[i], NULL, line0_raiser, NULL);
	for (int round = 0; round < rounds; round++) {
		struct g4dev *d = &devs[round % 64];
		long s;

		atomic_store(&d->gone, false);
		atomic_store(&d->started, 0);
		atomic_store(&d->finished, 0);
		assert_int_equal(irqkit_request_irq(0, g4_handler, 0, "g4", d), 0);
		irqkit_irq_set_affinity(0, 1ull << (round % NCPU));
		usleep(200);

		/* synchronize_irq: whatever started before has finished */
		s = atomic_load(&d->started);
		irqkit_synchronize_irq(0);
		if (atomic_load(&d->finished) < s)
			atomic_fetch_add(&violations, 1);

		/* disable_irq: none running, none starts until enable */
		irqkit_disable_irq(0);
		atomic_store(&d->gone, true);
		if (atomic_load(&d->started) != atomic_load(&d->finished))
			atomic_fetch_add(&violations, 1);
		usleep(200);
		atomic_store(&d->gone, false);
		irqkit_enable_irq(0);
		usleep(200);

		/* free_irq: not running now, never called again */
		irqkit_free_irq(0, d);
		atomic_store(&d->gone, true);
		if (atomic_load(&d->started) != atomic_load(&d->finished))
			atomic_fetch_add(&violations, 1);
		usleep(100);
	}
	atomic_store(&stop_flag, true);
	for (int i = 0; i < 2; i++)
		pthread_join(r[i], NULL);
	assert_int_equal(atomic_load(&violations), 0);
}

/* ---- guarantee 7 ------------------------------------------------------------------------------- */

static struct tdev fuzz_devs[4];

/* dev_id may be NULL for a line that is not shared */
static enum irqkit_irqreturn fuzz_handler(int irq, void *dev_id)
{
	(void)irq;
	if (dev_id)
		atomic_fetch_add(&((struct tdev *)dev_id)->calls, 1);
	return IRQKIT_NONE;
}

/* Random calls, most of them wrong, from several threads at once. */
static void *fuzzer(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg;
	char buf[512];

	for (int i = 0; i < stress_scale(4000); i++) {
		unsigned int r = rnd(&seed);
		unsigned int irq = (r >> 8) % 70;	/* some beyond the table */
		void *dev = &fuzz_devs[(r >> 16) % 4];
		unsigned long flags = (rnd(&seed) & 1) ? IRQKIT_F_SHARED : 0;

		if ((r >> 20) % 16 == 0)
			irq = IRQKIT_NOTCONNECTED;
		if ((r >> 24) % 8 == 0)
			flags |= 1ul << (rnd(&seed) % 22);
		switch (r % 12) {
		case 0:
		case 1:
			if (irqkit_request_irq(irq, fuzz_handler, flags, "fz",
					       (r & 0x1000) ? NULL : dev) == 0)
				irqkit_free_irq(irq, dev);
			break;
		case 2:
			irqkit_free_irq(irq, dev);
			break;
		case 3:
			irqkit_disable_irq_nosync(irq);
			break;
		case 4:
			irqkit_enable_irq(irq);
			break;
		case 5:
		case 6:
			irqkit_sw_raise(irq);
			break;
		case 7:
			irqkit_sw_set_level(irq, r & 0x100);
			break;
		case 8:
			irqkit_irq_set_affinity(irq, rnd(&seed));
			break;
		case 9:
			(void)irqkit_can_request_irq(irq, flags);
			irqkit_synchronize_irq(irq);
			break;
		case 10:
			irqkit_show_interrupts_buf(buf, sizeof(buf), 0);
			break;
		default:
			irqkit_irq_set_irq_type(irq, rnd(&seed) & 0x1f);
			break;
		}
	}
	return NULL;
}

static void quiet_log(void *arg, int level, const char *line)
{
	(void)arg;
	(void)level;
	(void)line;
}

static void test_guarantee_7_bad_input_from_many_threads_then_clean_stop(void **state)
{
	pthread_t f[4];

	(void)state;
	irqkit_set_log(quiet_log, NULL);
	for (int i = 0; i < 4; i++) {
		tdev_init(&fuzz_devs[i]);
		fuzz_devs[i].ret = IRQKIT_NONE;
	}
	for (int i = 0; i < 4; i++)
		pthread_create(&f[i], NULL, fuzzer, (void *)(uintptr_t)(test_seed() * 31 + (unsigned)i + 1));
	for (int i = 0; i < 4; i++)
		pthread_join(f[i], NULL);
	irqkit_set_log(logcap_hook, NULL);
	/* whatever is registered now is freed by stop (teardown); the sanitizers check */
}

static void test_guarantee_7_start_stop_cycles_under_use(void **state)
{
	(void)state;
	for (int round = 0; round < stress_scale(30); round++) {
		struct worker w[4];

		request_lines();
		start_workers(w, 4, 500);
		join_workers(w, 4);
		irqkit_stop();
		assert_int_equal(setup(NULL), 0);
	}
	assert_int_equal(atomic_load(&violations), 0);
}

/*
 * Guarantee 2's waiting side: a thread of a CPU that wants it (here to turn
 * interrupts off) while another thread holds it for a hardirq sleeps on the
 * CPU's word, and the hardirq's release wakes it.  Each round the holder's
 * handler runs long enough for both waiters to spin out and sleep, and the
 * next round starts only when both got through: a release that woke nobody
 * leaves a round stuck.  The release is a plain store when the platform has
 * membarrier (the waiter issues the heavy barrier), an atomic when it has
 * not (IRQKIT_MEMBARRIER=0): both forms run.
 */
static atomic_int wake_round, wake_through;

static enum irqkit_irqreturn hold_cpu_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	atomic_fetch_add(&wake_round, 1);
	stress_burn(60000);
	return IRQKIT_HANDLED;
}

static void *cpu_waiter(void *arg)
{
	int rounds = (int)(intptr_t)arg;

	assert_int_equal(irqkit_thread_bind(0), 0);
	for (int r = 1; r <= rounds; r++) {
		unsigned long flags;

		while (atomic_load(&wake_round) < r)
			;
		flags = irqkit_local_irq_save();	/* waits for the handler's CPU */
		irqkit_local_irq_restore(flags);
		atomic_fetch_add(&wake_through, 1);
	}
	irqkit_thread_unbind();
	return NULL;
}

static void waiters_woken_rounds(int rounds)
{
	pthread_t th[2];

	atomic_store(&wake_round, 0);
	atomic_store(&wake_through, 0);
	assert_int_equal(irqkit_request_irq(0, hold_cpu_handler, 0, "hold", NULL), 0);
	assert_int_equal(irqkit_irq_set_affinity(0, 1u << 0), 0);
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, cpu_waiter, (void *)(intptr_t)rounds);
	assert_int_equal(irqkit_thread_bind(0), 0);
	for (int r = 1; r <= rounds; r++) {
		assert_int_equal(irqkit_sw_raise(0), 0);	/* taken here, on CPU 0 */
		assert_int_equal(atomic_load(&wake_round), r);
		if (!wait_until(atomic_load(&wake_through) == 2 * r, 10000))
			fail_msg("round %d: %d of 2 waiters got through after the release", r,
				 atomic_load(&wake_through) - 2 * (r - 1));
	}
	irqkit_thread_unbind();
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	irqkit_free_irq(0, NULL);
}

static void test_guarantee_2_threads_waiting_for_a_hardirq_are_woken(void **state)
{
	(void)state;
	waiters_woken_rounds(stress_scale(300));
	irqkit_stop();
	setenv("IRQKIT_MEMBARRIER", "0", 1);
	assert_int_equal(setup(NULL), 0);
	waiters_woken_rounds(stress_scale(300));
	unsetenv("IRQKIT_MEMBARRIER");
}

/*
 * irqkit_wait_delivered() of a line whose chip keeps no state of its own
 * (no latch to ask: the dummy chip), signalled to a CPU whose dispatcher
 * is busy with a neighbour in the same word of its bitmap: the CPU takes
 * the whole word, and while it runs the neighbour's long handler the line
 * is neither in the bitmap nor being taken yet.  The wait must still see
 * it (cpu->taking_word); before, it returned 0 with the handler not run.
 */
#define BUSY_NEIGHBOUR	(T_NOCHIP + 2)
#define QUIET_LINE	(T_NOCHIP + 3)
static atomic_long quiet_calls;

static enum irqkit_irqreturn neighbour_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	stress_burn(2000);
	return IRQKIT_HANDLED;
}

static enum irqkit_irqreturn quiet_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	atomic_fetch_add(&quiet_calls, 1);
	return IRQKIT_HANDLED;
}

static void *neighbour_raiser(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop_flag)) {
		irqkit_cpu_signal(1, BUSY_NEIGHBOUR);
		usleep(20);
	}
	return NULL;
}

static void test_guarantee_6_wait_delivered_sees_a_word_in_hand(void **state)
{
	pthread_t r;

	(void)state;
	atomic_store(&quiet_calls, 0);
	/* both signalled to CPU 1 by hand: the dummy chip routes nothing itself */
	for (unsigned int irq = BUSY_NEIGHBOUR; irq <= QUIET_LINE; irq++)
		assert_int_equal(irqkit_irq_set_chip_and_handler_name(irq, &irqkit_dummy_irq_chip,
								      irqkit_handle_simple_irq,
								      NULL), 0);
	assert_int_equal(irqkit_request_irq(BUSY_NEIGHBOUR, neighbour_handler, 0, "busy", NULL), 0);
	assert_int_equal(irqkit_request_irq(QUIET_LINE, quiet_handler, 0, "quiet", NULL), 0);
	assert_int_equal(pthread_create(&r, NULL, neighbour_raiser, NULL), 0);
	for (long i = 1; i <= stress_scale(3000); i++) {
		irqkit_cpu_signal(1, QUIET_LINE);
		assert_int_equal(irqkit_wait_delivered(QUIET_LINE, 10000), 0);
		if (atomic_load(&quiet_calls) != i)
			fail_msg("signal %ld: wait_delivered returned with %ld handler runs", i,
				 atomic_load(&quiet_calls));
	}
	atomic_store(&stop_flag, true);
	pthread_join(r, NULL);
	irqkit_free_irq(BUSY_NEIGHBOUR, NULL);
	irqkit_free_irq(QUIET_LINE, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, thr_teardown)
		T(test_guarantees_1_2_3_exclusion_under_load),
		T(test_guarantee_6_nothing_raised_is_lost),
		T(test_guarantee_6_no_wakeup_lost_behind_core_sections),
		T(test_guarantee_6_no_wakeup_lost_at_the_dispatchers_idle),
		T(test_guarantee_6_wait_delivered_sees_a_word_in_hand),
		T(test_guarantee_4_synchronize_free_disable),
		T(test_guarantee_7_bad_input_from_many_threads_then_clean_stop),
		T(test_guarantee_7_start_stop_cycles_under_use),
		T(test_guarantee_2_threads_waiting_for_a_hardirq_are_woken),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
