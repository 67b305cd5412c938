// SPDX-License-Identifier: MIT
/*
 * PREEMPT_RT mode (IRQKIT_CFG_PREEMPT_RT): spinlock_t, rwlock_t and
 * local_lock_t sleep and leave interrupts on, raw spinlocks spin, handlers
 * are threaded with interrupts on, and a sleeping lock where an RT kernel
 * cannot sleep is "BUG: sleeping function called from invalid context".
 * Each test runs the same code in the default mode too, where it must
 * behave as before.  On the RISC-V harts (tests/riscv) the same tests run
 * but those of the host's priority inheritance, environment and explorer:
 * there the sleeping locks park their waiters on the word, with no PI.
 */
#define _GNU_SOURCE
#include "../../harness.h"

#include <linux/bottom_half.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/interrupt.h>
#include <linux/local_lock.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <irqkit/explore.h>

#include <pthread.h>
#include <string.h>
#ifndef __riscv
/* host only: priority inheritance (SCHED_FIFO, /proc), the environment, the explorer */
#define HOST 1
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#define let_others_run()	sched_yield()
#else
#include <linux/sched.h>
#define let_others_run()	cond_resched()
#endif

#define BUG_SLEEP	"BUG: sleeping function called from invalid context"
#define IRQ		T_EDGE(3)

static int rt_setup(void **state)
{
	(void)state;
	return start_world_cfg((struct irqkit_config){ .nr_irqs = T_NR_IRQS, .nr_cpus = 2,
						       .mode = IRQKIT_MODE_THREADED,
						       .flags = IRQKIT_CFG_PREEMPT_RT });
}

static DEFINE_SPINLOCK(lock);
static DEFINE_RAW_SPINLOCK(raw);
static DEFINE_RWLOCK(rw);

/* What each form leaves on and off, in @rt mode or not. */
static void check_forms(bool rt)
{
	unsigned long flags = 1;

	assert_int_equal(irqkit_preempt_rt(), rt);
	spin_lock_irqsave(&lock, flags);
	assert_true(spin_is_locked(&lock));
	assert_int_equal(irqs_disabled(), !rt);	/* RT: interrupts stay on, flags 0 */
	assert_int_equal(in_atomic(), !rt);	/* RT: no preempt_count either */
	if (rt)
		assert_int_equal(flags, 0);
	spin_unlock_irqrestore(&lock, flags);
	assert_false(irqs_disabled());
	assert_false(spin_is_locked(&lock));
	spin_lock_irq(&lock);
	assert_int_equal(irqs_disabled(), !rt);
	spin_unlock_irq(&lock);
	assert_true(spin_trylock_irqsave(&lock, flags));
	assert_int_equal(irqs_disabled(), !rt);
	spin_unlock_irqrestore(&lock, flags);
	/* a raw spinlock spins with interrupts off in both modes */
	raw_spin_lock_irqsave(&raw, flags);
	assert_true(irqs_disabled());
	assert_true(in_atomic());
	raw_spin_unlock_irqrestore(&raw, flags);
	assert_false(irqs_disabled());
	assert_false(in_atomic());
	read_lock_irqsave(&rw, flags);
	assert_int_equal(irqs_disabled(), !rt);
	read_unlock_irqrestore(&rw, flags);
	write_lock_irq(&rw);
	assert_int_equal(irqs_disabled(), !rt);
	assert_false(write_trylock(&rw));
	assert_false(read_trylock(&rw));
	write_unlock_irq(&rw);
	assert_true(write_trylock_irqsave(&rw, flags));
	assert_int_equal(irqs_disabled(), !rt);
	write_unlock_irqrestore(&rw, flags);
	assert_false(irqs_disabled());
	assert_log_lacks(BUG_SLEEP);
	assert_log_lacks("WARNING");
}

static void test_rt_locks_leave_interrupts_on(void **state)
{
	(void)state;
	assert_int_equal(irqkit_thread_bind(0), 0);
	check_forms(true);
	assert_int_equal(irqkit_thread_unbind(), 0);
	check_forms(true);
	irqkit_stop();
	assert_false(irqkit_preempt_rt());	/* the mode ends with the run */
	assert_int_equal(thr_setup(NULL), 0);
	assert_int_equal(irqkit_thread_bind(0), 0);
	check_forms(false);
	assert_int_equal(irqkit_thread_unbind(), 0);
#ifdef HOST
	irqkit_stop();
	/* IRQKIT_PREEMPT_RT=1 in the environment turns the mode on */
	setenv("IRQKIT_PREEMPT_RT", "1", 1);
	assert_int_equal(thr_setup(NULL), 0);
	unsetenv("IRQKIT_PREEMPT_RT");
	assert_true(irqkit_preempt_rt());
	check_forms(true);
#endif
}

/* ---- handlers are threads, with interrupts on --------------------------------- */

static struct tdev dev;

static void test_rt_threads_every_handler_it_can(void **state)
{
	(void)state;
	tdev_init(&dev);
	assert_int_equal(request_irq(IRQ, tdev_handler, 0, "rtdev", &dev), 0);
	assert_true(wait_until(nr_threads_named("irq/3-rtdev", NULL) == 1, 10000));
	tdev_raise_served(&dev, IRQ, 20);
	assert_false(atomic_load(&dev.saw_hardirq));
	assert_false(atomic_load(&dev.saw_irqs_off));	/* threadirqs alone turns them off */
	free_irq(IRQ, &dev);
	/* IRQF_NO_THREAD stays in hardirq context, interrupts off */
	tdev_init(&dev);
	assert_int_equal(request_irq(IRQ, tdev_handler, IRQF_NO_THREAD, "rtdev", &dev), 0);
	tdev_raise_served(&dev, IRQ, 5);
	assert_true(atomic_load(&dev.saw_hardirq));
	assert_true(atomic_load(&dev.saw_irqs_off));
	free_irq(IRQ, &dev);
	assert_log_lacks(BUG_SLEEP);
}

/* ---- a sleeping lock where an RT kernel cannot sleep ---------------------------- */

static atomic_int taken;

static irqreturn_t takes_spinlock(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	spin_lock(&lock);
	atomic_fetch_add(&taken, 1);
	spin_unlock(&lock);
	return IRQ_HANDLED;
}

static irqreturn_t takes_raw_spinlock(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	raw_spin_lock(&raw);
	atomic_fetch_add(&taken, 1);
	raw_spin_unlock(&raw);
	return IRQ_HANDLED;
}

static irqreturn_t takes_read_lock(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	read_lock(&rw);
	atomic_fetch_add(&taken, 1);
	read_unlock(&rw);
	return IRQ_HANDLED;
}

/* Request @fn with @flags, raise once, free; did it report? */
static bool reports(irq_handler_t fn, unsigned long flags)
{
	atomic_store(&taken, 0);
	log_clear();
	assert_int_equal(request_irq(IRQ, fn, flags, "locker", NULL), 0);
	assert_int_equal(irqkit_sw_raise(IRQ), 0);
	assert_true(wait_until(atomic_load(&taken) == 1, 10000));
	free_irq(IRQ, NULL);
	return log_count(BUG_SLEEP) > 0;
}

static void test_rt_spinlock_in_hardirq_is_a_bug(void **state)
{
	(void)state;
	assert_false(reports(takes_spinlock, 0));		/* threaded: fine */
	assert_true(reports(takes_spinlock, IRQF_NO_THREAD));	/* hardirq: a bug on RT */
	assert_log_contains("in_atomic(): 1, irqs_disabled(): 1");
	assert_false(reports(takes_raw_spinlock, IRQF_NO_THREAD));
	irqkit_stop();
	assert_int_equal(rt_setup(NULL), 0);	/* the report is once a second: a new run */
	assert_true(reports(takes_read_lock, IRQF_NO_THREAD));
	irqkit_stop();
	/* the same driver without RT: spin_lock in a hardirq handler is right */
	assert_int_equal(thr_setup(NULL), 0);
	assert_false(reports(takes_spinlock, IRQF_NO_THREAD));
	assert_false(reports(takes_read_lock, IRQF_NO_THREAD));
}

static void test_rt_spinlock_where_it_cannot_sleep_is_a_bug(void **state)
{
	unsigned long flags;

	(void)state;
	/* under a raw spinlock */
	log_clear();
	raw_spin_lock(&raw);
	spin_lock(&lock);
	spin_unlock(&lock);
	raw_spin_unlock(&raw);
	assert_log_contains(BUG_SLEEP);
	assert_log_contains("preempt_count: 1, expected: 0");
	irqkit_stop();
	assert_int_equal(rt_setup(NULL), 0);	/* the report is once a second: a new run */
	/* with interrupts off */
	local_irq_save(flags);
	spin_lock(&lock);
	spin_unlock(&lock);
	local_irq_restore(flags);
	assert_log_contains("in_atomic(): 0, irqs_disabled(): 1");
	irqkit_stop();
	assert_int_equal(rt_setup(NULL), 0);
	/* nested spinlock_t, bottom halves off, a local_lock: all fine on RT */
	spin_lock(&lock);
	write_lock(&rw);
	write_unlock(&rw);
	spin_unlock(&lock);
	local_bh_disable();
	spin_lock(&lock);
	spin_unlock(&lock);
	local_bh_enable();
	spin_lock_bh(&lock);
	spin_unlock_bh(&lock);
	assert_log_lacks(BUG_SLEEP);
}

/* ---- mutual exclusion, with the holders preemptible ----------------------------- */

#define WORKERS	4

static unsigned long counter;		/* plain: the lock protects it */
static unsigned long in_section;
static atomic_int excl_failed;

static void section(void)
{
	if (in_section++)
		atomic_store(&excl_failed, 1);
	irqkit_sim_point();		/* the simulator may switch here */
	counter++;
	if (!(counter & 63))
		let_others_run();		/* a sleeping lock's holder may be preempted */
	in_section--;
}

static int excl_worker(void *arg)
{
	int n = (int)(intptr_t)arg;
	unsigned long flags;

	for (int i = 0; i < n; i++) {
		switch (i % 3) {
		case 0:
			spin_lock(&lock);
			section();
			spin_unlock(&lock);
			break;
		case 1:
			spin_lock_irqsave(&lock, flags);
			section();
			spin_unlock_irqrestore(&lock, flags);
			break;
		default:
			spin_lock_bh(&lock);
			section();
			spin_unlock_bh(&lock);
		}
	}
	return 0;
}

static atomic_int handler_runs;

static irqreturn_t excl_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	spin_lock(&lock);
	section();
	spin_unlock(&lock);
	atomic_fetch_add(&handler_runs, 1);
	return IRQ_HANDLED;
}

static void run_exclusion(int n)
{
	struct irqkit_thread *th[WORKERS];
	int raises = 0;

	counter = 0;
	atomic_store(&excl_failed, 0);
	atomic_store(&handler_runs, 0);
	assert_int_equal(request_irq(IRQ, excl_handler, 0, "excl", NULL), 0);
	for (unsigned int i = 0; i < WORKERS; i++)
		assert_int_equal(irqkit_thread_start(&th[i], i % 2, "excl",
						     excl_worker, (void *)(intptr_t)n), 0);
	for (int i = 0; i < n / 50; i++) {
		assert_int_equal(irqkit_sw_raise(IRQ), 0);
		raises++;
		usleep_100();
	}
	for (unsigned int i = 0; i < WORKERS; i++)
		assert_int_equal(irqkit_thread_join(th[i]), 0);
	synchronize_irq(IRQ);
	free_irq(IRQ, NULL);
	assert_false(atomic_load(&excl_failed));
	/* raises that came while the thread ran fold into its run, as edges do */
	assert_true(atomic_load(&handler_runs) >= 1 && atomic_load(&handler_runs) <= raises);
	assert_int_equal(counter, (unsigned long)WORKERS * n + atomic_load(&handler_runs));
	assert_false(spin_is_locked(&lock));
}

static void test_rt_spinlock_excludes_stress(void **state)
{
	(void)state;
	run_exclusion(stress_scale(20000));
	assert_log_lacks(BUG_SLEEP);
	assert_log_lacks("WARNING");
}

/* rwlock_t: readers together, a writer alone */
static atomic_int readers_in, rw_failed;
static unsigned long rw_value;

static int rw_worker(void *arg)
{
	int n = (int)(intptr_t)arg;

	for (int i = 0; i < n; i++) {
		if (i % 4) {
			read_lock(&rw);
			atomic_fetch_add(&readers_in, 1);
			if (rw_value & 1)
				atomic_store(&rw_failed, 1);
			atomic_fetch_sub(&readers_in, 1);
			read_unlock(&rw);
		} else {
			write_lock(&rw);
			if (atomic_load(&readers_in))
				atomic_store(&rw_failed, 1);
			rw_value++;		/* odd while the writer is in */
			if (!(i & 31))
				let_others_run();
			rw_value++;
			write_unlock(&rw);
		}
	}
	return 0;
}

static void test_rt_rwlock_stress(void **state)
{
	struct irqkit_thread *th[WORKERS];
	int n = stress_scale(20000);

	(void)state;
	rw_value = 0;
	for (unsigned int i = 0; i < WORKERS; i++)
		assert_int_equal(irqkit_thread_start(&th[i], i % 2, "rw", rw_worker,
						     (void *)(intptr_t)n), 0);
	for (unsigned int i = 0; i < WORKERS; i++)
		assert_int_equal(irqkit_thread_join(th[i]), 0);
	assert_false(atomic_load(&rw_failed));
	assert_int_equal(rw_value, 2ul * WORKERS * ((n + 3) / 4));
	assert_int_equal(rw.cnts, 0);
	assert_log_lacks("WARNING");
}

/* ---- local_lock_t: RT's per-CPU spinlock_t -------------------------------------- */

struct pcpu_stats {
	local_lock_t	lock;
	unsigned long	events;
};

static DEFINE_PER_CPU(struct pcpu_stats, pstats) = { .lock = INIT_LOCAL_LOCK(lock) };

static void test_rt_local_lock_is_a_lock(void **state)
{
	unsigned long flags = 1;

	(void)state;
	assert_int_equal(irqkit_thread_bind(1), 0);
	local_lock_irqsave(&pstats.lock, flags);
	assert_int_equal(flags, 0);
	assert_false(irqs_disabled());
	assert_false(in_atomic());
	assert_true(spin_is_locked(&this_cpu_ptr(&pstats)->lock.irqkit__lock));
	this_cpu_ptr(&pstats)->events++;
	local_unlock_irqrestore(&pstats.lock, flags);
	assert_false(spin_is_locked(&this_cpu_ptr(&pstats)->lock.irqkit__lock));
	local_lock(&pstats.lock);
	this_cpu_ptr(&pstats)->events++;
	local_unlock(&pstats.lock);
	local_bh_disable();
	local_lock_nested_bh(&pstats.lock);	/* RT: takes it */
	assert_true(spin_is_locked(&this_cpu_ptr(&pstats)->lock.irqkit__lock));
	local_unlock_nested_bh(&pstats.lock);
	local_bh_enable();
	assert_int_equal(per_cpu(pstats, 1).events, 2);
	assert_int_equal(irqkit_thread_unbind(), 0);
	irqkit_stop();
	/* default mode: nothing is taken, interrupts go off */
	assert_int_equal(thr_setup(NULL), 0);
	assert_int_equal(irqkit_thread_bind(1), 0);
	local_lock_irqsave(&pstats.lock, flags);
	assert_true(irqs_disabled());
	assert_false(spin_is_locked(&this_cpu_ptr(&pstats)->lock.irqkit__lock));
	local_unlock_irqrestore(&pstats.lock, flags);
	assert_int_equal(irqkit_thread_unbind(), 0);
	assert_log_lacks("WARNING");
}

/* ---- softirqs: ksoftirqd's or the thread's that turns bottom halves back on ----- */

static char ran_in[16];
static atomic_int tasklet_runs;

static void note_thread(unsigned long data)
{
	(void)data;
	pthread_getname_np(pthread_self(), ran_in, sizeof(ran_in));
	assert_true(in_serving_softirq());
	atomic_fetch_add(&tasklet_runs, 1);
}

static DECLARE_TASKLET_OLD(noting, note_thread);

static irqreturn_t schedules_tasklet(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	tasklet_schedule(&noting);
	return IRQ_HANDLED;
}

/* Where does a tasklet scheduled by a handler requested with @flags run? */
static void tasklet_from_handler(unsigned long flags)
{
	atomic_store(&tasklet_runs, 0);
	ran_in[0] = '\0';
	assert_int_equal(request_irq(IRQ, schedules_tasklet, flags, "sched", NULL), 0);
	assert_int_equal(irqkit_sw_raise(IRQ), 0);
	assert_true(wait_until(atomic_load(&tasklet_runs) == 1, 10000));
	free_irq(IRQ, NULL);
}

static void test_rt_softirqs_leave_the_hardirq_path(void **state)
{
	(void)state;
	/* raised in hardirq context: ksoftirqd runs it, not irq_exit */
	tasklet_from_handler(IRQF_NO_THREAD);
	assert_string_equal(ran_in, "ksoftirqd/0");
	/* raised in a forced thread: its local_bh_enable runs it, in that thread */
	tasklet_from_handler(0);
	assert_string_equal(ran_in, "irq/3-sched");
	irqkit_stop();
	/* without RT the hardirq's irq_exit runs it, on the CPU's dispatcher */
	assert_int_equal(thr_setup(NULL), 0);
	tasklet_from_handler(0);
	assert_false(strncmp(ran_in, "ksoftirqd", 9) == 0);
}

/* RT: local_bh_disable is a per-CPU lock; the sections of one CPU exclude each other */
static atomic_int bh_inside, bh_overlaps;

static int bh_section_worker(void *arg)
{
	int n = (int)(intptr_t)arg;

	for (int i = 0; i < n; i++) {
		local_bh_disable();
		if (atomic_fetch_add(&bh_inside, 1))
			atomic_fetch_add(&bh_overlaps, 1);
		if (!(i & 7))
			let_others_run();		/* preemptible on RT: the other may run, not enter */
		atomic_fetch_sub(&bh_inside, 1);
		local_bh_enable();
	}
	return 0;
}

static int bh_overlaps_on_one_cpu(int n)
{
	struct irqkit_thread *th[2];

	atomic_store(&bh_overlaps, 0);
	for (unsigned int i = 0; i < 2; i++)
		assert_int_equal(irqkit_thread_start(&th[i], 1, "bh", bh_section_worker,
						     (void *)(intptr_t)n), 0);
	for (unsigned int i = 0; i < 2; i++)
		assert_int_equal(irqkit_thread_join(th[i]), 0);
	return atomic_load(&bh_overlaps);
}

static void test_rt_bh_sections_exclude_each_other_stress(void **state)
{
	int n = stress_scale(4000), without;

	(void)state;
	assert_int_equal(bh_overlaps_on_one_cpu(n), 0);
	irqkit_stop();
	assert_int_equal(thr_setup(NULL), 0);
	without = bh_overlaps_on_one_cpu(n);	/* without RT they may overlap: no lock */
	test_printf("bh-off sections of two threads on one CPU overlapped %d times without RT\n",
		    without);
}

/* ---- hrtimers: soft unless marked hard ------------------------------------------- */

static atomic_int hrt_runs, hrt_hardirq, hrt_softirq;

static enum hrtimer_restart hrt_takes_lock(struct hrtimer *t)
{
	(void)t;
	atomic_store(&hrt_hardirq, in_hardirq() != 0);
	atomic_store(&hrt_softirq, in_serving_softirq() != 0);
	spin_lock(&lock);	/* a sleeping lock on RT: right in a soft timer only */
	spin_unlock(&lock);
	atomic_fetch_add(&hrt_runs, 1);
	return HRTIMER_NORESTART;
}

/* Run an hrtimer set up with @mode once; where did its callback run? */
static void run_hrtimer(enum hrtimer_mode mode)
{
	struct hrtimer t;

	atomic_store(&hrt_runs, 0);
	hrtimer_setup(&t, hrt_takes_lock, CLOCK_MONOTONIC, mode);
	hrtimer_start(&t, ms_to_ktime(1), mode);
	assert_true(wait_until(atomic_load(&hrt_runs) == 1, 10000));
	hrtimer_cancel(&t);
}

static void test_rt_hrtimers_expire_in_softirq_unless_hard(void **state)
{
	(void)state;
	log_clear();
	run_hrtimer(HRTIMER_MODE_REL);
	assert_false(atomic_load(&hrt_hardirq));
	assert_true(atomic_load(&hrt_softirq));
	assert_log_lacks(BUG_SLEEP);
	run_hrtimer(HRTIMER_MODE_REL_HARD);	/* hard: hardirq context, a bug on RT */
	assert_true(atomic_load(&hrt_hardirq));
	assert_log_contains(BUG_SLEEP);
	irqkit_stop();
	assert_int_equal(thr_setup(NULL), 0);
	run_hrtimer(HRTIMER_MODE_REL);		/* without RT: hardirq context, and fine */
	assert_true(atomic_load(&hrt_hardirq));
	assert_log_lacks(BUG_SLEEP);
}

/* ---- irq_work: a thread's unless marked hard ----------------------------------------- */

static atomic_int iw_runs, iw_hardirq;
static char iw_thread[16];

static void iw_takes_lock(struct irq_work *w)
{
	irq_work_sync(w);	/* its own: a report, not a wait for ever */
	atomic_store(&iw_hardirq, in_hardirq() != 0);
	pthread_getname_np(pthread_self(), iw_thread, sizeof(iw_thread));
	spin_lock(&lock);	/* right on RT in the thread only */
	spin_unlock(&lock);
	atomic_fetch_add(&iw_runs, 1);
}

static void run_irq_work(struct irq_work *w)
{
	atomic_store(&iw_runs, 0);
	assert_int_equal(irqkit_thread_bind(1), 0);
	assert_true(irq_work_queue(w));
	assert_int_equal(irqkit_thread_unbind(), 0);
	assert_true(wait_until(atomic_load(&iw_runs) == 1, 10000));
	irq_work_sync(w);
	assert_false(irq_work_is_busy(w));
}

static void test_rt_irq_work_runs_in_a_thread_unless_hard(void **state)
{
	struct irq_work plain = IRQ_WORK_INIT(iw_takes_lock);
	struct irq_work hard = IRQ_WORK_INIT_HARD(iw_takes_lock);

	(void)state;
	log_clear();
	assert_true(wait_until(nr_threads_named("irq_work/", NULL) == 2, 10000));
	run_irq_work(&plain);
	assert_log_contains("irq_work_sync() called from the irq_work's own callback");
	assert_false(atomic_load(&iw_hardirq));
	assert_string_equal(iw_thread, "irq_work/1");
	assert_log_lacks(BUG_SLEEP);
	run_irq_work(&hard);			/* hard: the IRQ work interrupt, a bug on RT */
	assert_true(atomic_load(&iw_hardirq));
	assert_log_contains(BUG_SLEEP);
	irqkit_stop();
	assert_int_equal(nr_threads_named("irq_work/", NULL), 0);
	assert_int_equal(thr_setup(NULL), 0);
	run_irq_work(&plain);			/* without RT: hardirq context, and fine */
	assert_true(atomic_load(&iw_hardirq));
	assert_int_equal(nr_threads_named("irq_work/", NULL), 0);
}

#ifdef HOST
/* ---- priority inheritance --------------------------------------------------------- */

static atomic_int pi_stage;
static int holder_tid;

/* The effective priority the kernel gives thread @tid (/proc's "prio" field). */
static int kernel_prio(int tid)
{
	char path[64], buf[512];
	FILE *f;
	char *p;
	int prio = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	p = strrchr(buf, ')');		/* after the name, which may hold spaces */
	assert_non_null(p);
	/* fields 3.. follow; "priority" is field 18 */
	assert_int_equal(sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %d",
				&prio), 1);
	return prio;
}

static void *pi_waiter(void *arg)
{
	(void)arg;
	spin_lock(&lock);		/* blocks: the holder has it */
	spin_unlock(&lock);
	atomic_store(&pi_stage, 3);
	return NULL;
}

static int set_fifo(pthread_t th, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	return pthread_setschedparam(th, SCHED_FIFO, &sp);
}

static void test_rt_spinlock_passes_priority(void **state)
{
	pthread_t waiter;
	pthread_attr_t attr;
	struct sched_param sp = { .sched_priority = 0 };
	int base, boosted;

	(void)state;
	if (set_fifo(pthread_self(), 10) == EPERM) {
		test_printf("no SCHED_FIFO here (EPERM): priority inheritance not checked\n");
		skip();
	}
	holder_tid = (int)syscall(SYS_gettid);
	base = kernel_prio(holder_tid);
	spin_lock(&lock);
	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	sp.sched_priority = 50;
	pthread_attr_setschedparam(&attr, &sp);
	assert_int_equal(pthread_create(&waiter, &attr, pi_waiter, NULL), 0);
	pthread_attr_destroy(&attr);
	/* the waiter is in the kernel's PI wait once the word says so */
	assert_true(wait_until(READ_ONCE(lock.locked) & 0x80000000u, 10000));
	assert_true(wait_until(kernel_prio(holder_tid) != base, 10000));
	boosted = kernel_prio(holder_tid);
	spin_unlock(&lock);
	assert_int_equal(pthread_join(waiter, NULL), 0);
	assert_int_equal(atomic_load(&pi_stage), 3);
	test_printf("holder's kernel priority %d, %d while a FIFO-50 thread waited\n", base, boosted);
	assert_int_equal(boosted, -51);		/* -1 - 50: the waiter's */
	assert_int_equal(kernel_prio(holder_tid), base);
	sp.sched_priority = 0;
	assert_int_equal(pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp), 0);
}

/* ---- the simulator explores RT runs --------------------------------------------- */

static unsigned int sim_seed;

static int sim_body(void *arg)
{
	struct irqkit_thread *th[2];

	(void)arg;
	if (start_world_cfg((struct irqkit_config){ .nr_irqs = T_NR_IRQS, .nr_cpus = 2,
						    .mode = IRQKIT_MODE_SIM,
						    .sim_seed = sim_seed++,
						    .flags = IRQKIT_CFG_PREEMPT_RT }))
		return 1;
	counter = 0;
	atomic_store(&excl_failed, 0);
	atomic_store(&handler_runs, 0);
	if (request_irq(IRQ, excl_handler, 0, "excl", NULL))
		return 2;
	for (unsigned int i = 0; i < 2; i++)
		if (irqkit_thread_start(&th[i], i, "excl", excl_worker, (void *)(intptr_t)30))
			return 3;
	(void)irqkit_sw_raise(IRQ);
	excl_worker((void *)(intptr_t)30);
	for (unsigned int i = 0; i < 2; i++)
		(void)irqkit_thread_join(th[i]);
	synchronize_irq(IRQ);
	free_irq(IRQ, NULL);
	irqkit_stop();
	if (atomic_load(&excl_failed) || atomic_load(&handler_runs) != 1 ||
	    counter != 3 * 30 + 1)
		return 4;
	return log_count(BUG_SLEEP) ? 5 : 0;
}

static void test_rt_runs_are_explored(void **state)
{
	struct irqkit_explore_cfg cfg = { .random_runs = 40, .seed = 7, .timeout_ms = 20000 };
	struct irqkit_explore_result res;

	(void)state;
	irqkit_stop();		/* the exploration starts its own runs */
	assert_int_equal(irqkit_explore(&cfg, sim_body, NULL, &res), 0);
	assert_true(res.runs >= 40);
	assert_int_equal(rt_setup(NULL), 0);
}

#endif

static int teardown(void **state)
{
	(void)state;
	irqkit_stop();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, rt_setup, teardown)
		T(test_rt_locks_leave_interrupts_on),
		T(test_rt_threads_every_handler_it_can),
		T(test_rt_spinlock_in_hardirq_is_a_bug),
		T(test_rt_spinlock_where_it_cannot_sleep_is_a_bug),
		T(test_rt_spinlock_excludes_stress),
		T(test_rt_rwlock_stress),
		T(test_rt_local_lock_is_a_lock),
		T(test_rt_softirqs_leave_the_hardirq_path),
		T(test_rt_hrtimers_expire_in_softirq_unless_hard),
		T(test_rt_irq_work_runs_in_a_thread_unless_hard),
		T(test_rt_bh_sections_exclude_each_other_stress),
#ifdef HOST
		T(test_rt_spinlock_passes_priority),
		T(test_rt_runs_are_explored),
#endif
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
