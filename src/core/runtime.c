// SPDX-License-Identifier: MIT
/* The runtime's state, its set-up and tear-down (the platform starts and stops threads around these). */
#include "core.h"
#include "cpu.h"
#include "bh/bh.h"
#include "time/time.h"
#include "sched/sched.h"
#include "debug/debug.h"
#include "irq/internals.h"

struct irqkit__runtime irqkit__rt;
unsigned int irqkit__run;

/*
 * The runtime's life, one word moved by compare-and-swap so that exactly one
 * of two racing irqkit_start() calls wins, and exactly one irqkit_stop():
 *
 *   state      entered by                         left by
 *   STOPPED    core_exit                          core_init (-> STARTING)
 *   STARTING   core_init                          the platform's start: STARTED,
 *                                                 or core_exit on failure
 *   STARTED    irqkit__core_started               irqkit__core_stopping (-> STOPPING)
 *   STOPPING   irqkit__core_stopping              core_exit
 */
enum { RT_STOPPED, RT_STARTING, RT_STARTED, RT_STOPPING };
static unsigned int rt_state;

/* Limits: a three-level pending bitmap of 64-bit words covers 64^3 lines. */
#define NR_IRQS_DEFAULT	256u
#define NR_IRQS_MAX	258048u	/* 63 * 4096: pend2's top bit is the CPU's own (core.h) */
#define HZ_MAX		100000u

/*
 * After the last free: every query of the runtime finds no line and no CPU
 * (irq_to_desc() is NULL for every irq), so a call after stop is a clean
 * error, as before start.
 */
static void rt_reset(void)
{
	struct irqkit__runtime *rt = &irqkit__rt;

	WRITE_ONCE(rt->nr_irqs, 0);
	WRITE_ONCE(rt->nr_cpus, 0);
	WRITE_ONCE(rt->hz, 0);
	WRITE_ONCE(rt->descs, NULL);
	WRITE_ONCE(rt->cpus, NULL);
	WRITE_ONCE(rt->stopping, 0);
}

/*
 * irqkit__core_init - validate @cfg and build the descriptor table and CPUs.
 * Context: process context, runtime stopped.
 * Return: 0, -EBUSY if started, -EINVAL for a bad config, -ENOMEM.
 */
int irqkit__core_init(const struct irqkit_config *cfg)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	struct irqkit_config c = cfg ? *cfg : (struct irqkit_config){ 0 };
	const struct irqkit__mode *mode;
	unsigned int stopped = RT_STOPPED;
	int ret;

	if (!a_cas(&rt_state, &stopped, RT_STARTING))
		return -IRQKIT_EBUSY;
	if (!c.nr_irqs)
		c.nr_irqs = NR_IRQS_DEFAULT;
	if (!c.nr_cpus)
		c.nr_cpus = 1;
	if (!c.hz)
		c.hz = IRQKIT__HZ_DEFAULT;
	if (c.flags & IRQKIT_CFG_PREEMPT_RT)	/* RT threads every handler it can */
		c.flags |= IRQKIT_CFG_THREADIRQS;
	mode = irqkit__mode_of(c.mode);
	if (c.nr_irqs > NR_IRQS_MAX || c.nr_cpus > IRQKIT_NR_CPUS_MAX || c.hz > HZ_MAX || !mode ||
	    (c.flags & ~(IRQKIT_CFG_NOIRQDEBUG | IRQKIT_CFG_DEBUG_SHIRQ | IRQKIT_CFG_PIN_CPUS |
			 IRQKIT_CFG_THREADIRQS | IRQKIT_CFG_PERIODIC_TICK |
			 IRQKIT_CFG_PUBLISH | IRQKIT_CFG_IRQFIXUP | IRQKIT_CFG_IRQPOLL |
			 IRQKIT_CFG_WINDOW_FROM_UNHANDLED | IRQKIT_CFG_PREEMPT_RT)) ||
	    (c.loop_cpus && (mode->loop_cpus_off ||
			     (c.nr_cpus < 64 && (c.loop_cpus >> c.nr_cpus))))) {
		a_store_seq(&rt_state, RT_STOPPED);
		return -IRQKIT_EINVAL;
	}

	*rt = (struct irqkit__runtime){
		.nr_irqs	= c.nr_irqs,
		.nr_cpus	= c.nr_cpus,
		.mode		= c.mode,
		.m		= *mode,
		.hz		= c.hz,
		.flags		= c.flags,
		.loop_cpus	= c.loop_cpus,
		.online		= c.nr_cpus >= 64 ? ~(irqkit_cpumask)0 :
				  (((irqkit_cpumask)1 << c.nr_cpus) - 1),
		.possible_cpus	= irqkit_cpus_of_mask(c.nr_cpus >= 64 ? ~(irqkit_cpumask)0 :
						      (((irqkit_cpumask)1 << c.nr_cpus) - 1)),
		.log		= c.log,
		.log_arg	= c.log_arg,
		.start_ns	= irqkit_plat_now_ns(),
		.barrier_heavy	= irqkit_plat_barrier_heavy_init(),
	};
	/* a new run before anything starts: threads bound in the last run see it */
	WRITE_ONCE(irqkit__run, READ_ONCE(irqkit__run) + 1);
	a_store_seq(&irqkit__preempt_rt, (c.flags & IRQKIT_CFG_PREEMPT_RT) != 0);
	ret = irqkit__descs_init();
	if (!ret)
		ret = irqkit__cpus_init();
	if (ret)
		goto fail_descs;
	irqkit__timers_init();
	irqkit__hrtimers_init();
	irqkit__jiffies_reset();
	irqkit__resend_init();
	irqkit__spurious_init();
	irqkit__cpuhp_init();
	irqkit__windows_close();	/* none left open by an earlier run */
	irqkit__watchdog_config(&c);
	ret = irqkit__softirq_init();
	if (ret)
		goto fail_cpus;
	ret = irqkit__irq_work_init();
	if (ret)
		goto fail_softirq;
	ret = irqkit__workqueue_init();
	if (ret)
		goto fail_irq_work;
	ret = irqkit__watchdog_init();
	if (ret)
		goto fail_workqueue;
	return 0;

fail_workqueue:
	irqkit__workqueue_exit();
fail_irq_work:
	irqkit__irq_work_exit();
fail_softirq:
	irqkit__softirq_exit();
fail_cpus:
	irqkit__cpus_exit();
fail_descs:
	irqkit__descs_exit();
	rt_reset();
	a_store_seq(&irqkit__preempt_rt, false);
	a_store_seq(&rt_state, RT_STOPPED);
	return ret;
}

/* irqkit__core_started - the platform's threads run: calls see a started runtime. */
void irqkit__core_started(void)
{
	a_store_seq(&rt_state, RT_STARTED);
	irqkit__timers_started();
}

/*
 * irqkit__core_stop_refused - a thread of the runtime (a dispatcher,
 * ksoftirqd, a kworker, an irq thread, the timer thread) or interrupt context
 * cannot stop the runtime: stopping joins and frees the very thread or
 * handler that asks.  Return: true, with a report, when the caller is one.
 *
 * irqkit__core_stopping - may the calling thread stop the runtime now?  Not
 * when refused; otherwise exactly one caller moves STARTED to STOPPING and
 * gets true.  Context: process context.
 */
bool irqkit__core_stop_refused(void)
{
	const struct irqkit_task *t = irqkit_arch_current();

	if (!t->kthread && !t->kthread_rec &&
	    !(t->preempt_count & (IRQKIT_HARDIRQ_MASK | IRQKIT_SOFTIRQ_OFFSET)))
		return false;
	irqkit__warn(__FILE__, __LINE__,
		     "irqkit_stop() called from %s: stopping would free the caller; refused",
		     t->kthread ? "a thread of the runtime" :
		     t->kthread_rec ? "a kthread (the stop joins it)" : "interrupt context");
	return true;
}

bool irqkit__core_stopping(void)
{
	unsigned int started = RT_STARTED;

	if (a_load_seq(&rt_state) == RT_STOPPED || irqkit__core_stop_refused())
		return false;
	if (!a_cas(&rt_state, &started, RT_STOPPING))
		return false;
	/* the run's kthreads first, while interrupts are still delivered as before */
	irqkit__kthreads_stop_all(2 * irqkit__rt.watchdog_ns);
	/* stop interrupt delivery loops: a line that screams must not hold stop up */
	a_store_seq(&irqkit__rt.stopping, 1);
	return true;
}

/*
 * The calling thread ends the run in process context: whatever sections it
 * left open (a spinlock, a bottom-half-off section, interrupts off) end
 * with the run, said once, so the next run does not start atomic.
 */
static void task_reset_self(void)
{
	struct irqkit_task *t = irqkit_arch_current();
	bool kthread;

	if (t->preempt_count || (t->irqflags & IRQKIT_TASK_IRQS_OFF))
		irqkit__warn(__FILE__, __LINE__,
			     "irqkit_stop() with preempt_count %08x and interrupts %s: a lock or section is still open; reset",
			     t->preempt_count, (t->irqflags & IRQKIT_TASK_IRQS_OFF) ? "off" : "on");
	/* the thread's own fields (its name, the task list, the lock validator's view) stay */
	kthread = t->kthread;
	irqkit__task_reset_run(t);
	t->kthread = kthread;
	t->irq_thread_desc = NULL;
	t->irq_thread_action = NULL;
	t->worker = NULL;
	t->in_point = false;
	t->chip_claimed = 0;
	a_store_seq(&t->state, IRQKIT_TASK_RUNNING);	/* a state set and never slept in ends too */
}

/* irqkit__core_exit - free everything.  Context: the platform's threads have stopped. */
void irqkit__core_exit(void)
{
	/* the watchdog watches stop too, until the threads it could wait for are gone */
	irqkit__watchdog_quiesce();
	irqkit__workqueue_stop();	/* the kworkers, while softirqs still run */
	irqkit__softirq_exit();
	irqkit__watchdog_exit();
	irqkit__hrtimers_exit();
	irqkit__irq_work_exit();
	irqkit__smp_call_exit();
	irqkit__timers_exit();
	irqkit__tasklets_exit();
	irqkit__workqueue_exit();	/* the BH pools' tasklets are off the CPUs' lists now */
	irqkit__free_all();
	irqkit__reap_irq_threads();
	/* the recorder's rings: after every thread that writes them has ended */
	irqkit__obs_exit();
	while (irqkit__rt.exit_hooks) {
		struct irqkit__core_exit_hook *hook = irqkit__rt.exit_hooks;

		irqkit__rt.exit_hooks = hook->next;
		hook->registered = false;
		hook->fn();
	}
	irqkit__domains_exit();
	irqkit__cpus_exit();
	irqkit__descs_exit();
	task_reset_self();
	rt_reset();
	/*
	 * The run is over: every object and thread of it is stale from here,
	 * as after a restart (a work item's pwq, a bound thread's CPU), so a
	 * call on them after the last stop is a clean no-op and not a read of
	 * the memory freed above.
	 */
	WRITE_ONCE(irqkit__run, READ_ONCE(irqkit__run) + 1);
	a_store_seq(&irqkit__preempt_rt, false);
	a_store_seq(&rt_state, RT_STOPPED);
}

/* Register @hook once per run.  Context: process context, runtime started. */
void irqkit__core_exit_hook_add(struct irqkit__core_exit_hook *hook)
{
	if (hook->registered)
		return;
	hook->registered = true;
	hook->next = irqkit__rt.exit_hooks;
	irqkit__rt.exit_hooks = hook;
}

bool irqkit_started(void)
{
	return a_load_seq(&rt_state) == RT_STARTED;
}

unsigned int irqkit_nr_irqs(void)
{
	return irqkit_started() ? irqkit__rt.nr_irqs : 0;
}

unsigned int irqkit_nr_cpus(void)
{
	return irqkit_started() ? irqkit__rt.nr_cpus : 0;
}

enum irqkit_mode irqkit_mode(void)
{
	return irqkit__rt.mode;
}

unsigned int irqkit__core_nr_cpus(void)
{
	return irqkit__rt.nr_cpus;
}

bool irqkit__core_deterministic(void)
{
	return mode_player_delivers();
}

unsigned int irqkit__core_flags(void)
{
	return irqkit__rt.flags;
}

irqkit_cpumask irqkit__core_loop_cpus(void)
{
	return irqkit__rt.loop_cpus;
}

uint64_t irqkit__core_watchdog_ns(void)
{
	return irqkit__rt.watchdog_ns;
}

unsigned int irqkit_version(void)
{
	return IRQKIT_VERSION;
}

const char *irqkit_version_string(void)
{
	return IRQKIT_VERSION_STRING;
}
