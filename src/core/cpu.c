// SPDX-License-Identifier: MIT
/*
 * CPU hotplug (Linux's kernel/cpu.c): the online mask, the dynamic hotplug
 * states and their callbacks, and the steps of taking a virtual CPU down
 * and bringing it up (<irqkit/cpu.h> says what each means).
 *
 * One sleeping lock, hp_lock, serialises hotplug operations and state
 * changes, as Linux's cpu_hotplug_lock.  A state's callback runs on its CPU:
 * a work item queued on that CPU's pool, waited for, as Linux runs it on
 * the CPU's hotplug thread.  Lock order: hp_lock, then whatever the
 * callbacks and the steps take (descriptor locks, the timer lock).
 */
#include "core.h"
#include "cpu.h"
#include "bh/bh.h"
#include "time/time.h"
#include "irq/internals.h"
#include <irqkit/cpu.h>
#include <irqkit/workqueue.h>

#define NR_DYN_STATES	32

struct hp_state {
	const char	*name;		/* NULL: free */
	int		(*startup)(unsigned int cpu);
	int		(*teardown)(unsigned int cpu);
};

static struct irqkit_mutex hp_lock = IRQKIT_MUTEX_INITIALIZER(hp_lock);
static struct hp_state states[NR_DYN_STATES];

/* A run is a boot: no state is kept from the last one. */
void irqkit__cpuhp_init(void)
{
	for (unsigned int i = 0; i < NR_DYN_STATES; i++)
		states[i] = (struct hp_state){ 0 };
}

bool irqkit_cpu_online(unsigned int cpu)
{
	return irqkit_started() && cpu < irqkit__rt.nr_cpus &&
	       (irqkit__online_mask() & ((irqkit_cpumask)1 << cpu));
}

irqkit_cpumask irqkit_cpu_online_mask(void)
{
	return irqkit_started() ? irqkit__online_mask() : 0;
}

/* The online word read as words of a long: the same bits on a little-endian machine. */
_Static_assert(IRQKIT_CPUS_LONGS == 1 || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "cpu_online_mask aliases the online word");

const struct irqkit_cpus *irqkit_cpu_online_cpus(void)
{
	return &irqkit__rt.online_cpus;
}

const struct irqkit_cpus *irqkit_cpu_possible_cpus(void)
{
	return &irqkit__rt.possible_cpus;
}

#define BPL		(8 * __SIZEOF_LONG__)
#define ONE(i)		{ .bits = { [(i) / BPL] = 1ul << ((i) % BPL) } }
#define EIGHT(i)	ONE(i), ONE(i + 1), ONE(i + 2), ONE(i + 3), ONE(i + 4), ONE(i + 5), \
			ONE(i + 6), ONE(i + 7)
const struct irqkit_cpus irqkit_cpus_bit[IRQKIT_NR_CPUS_MAX] = {
	EIGHT(0), EIGHT(8), EIGHT(16), EIGHT(24), EIGHT(32), EIGHT(40), EIGHT(48), EIGHT(56),
};
#undef EIGHT
#undef ONE
#undef BPL

unsigned int irqkit_num_online_cpus(void)
{
	irqkit_cpumask m = irqkit_cpu_online_mask();
	unsigned int n = 0;

	for (; m; m &= m - 1)	/* no libgcc popcount in the freestanding core */
		n++;
	return n;
}

/* ---- callbacks on a CPU -------------------------------------------------------------- */

struct on_cpu {
	struct irqkit_work	work;
	int			(*fn)(unsigned int cpu);
	unsigned int		cpu;
	int			ret;
};

static void on_cpu_fn(struct irqkit_work *work)
{
	struct on_cpu *o = container_of(work, struct on_cpu, work);

	o->ret = o->fn(o->cpu);
}

/* @fn(@cpu) on a kworker of @cpu, waited for.  Its result. */
static int call_on_cpu(unsigned int cpu, int (*fn)(unsigned int cpu))
{
	struct on_cpu o = { .fn = fn, .cpu = cpu };

	if (!fn)
		return 0;
	irqkit_init_work(&o.work, on_cpu_fn);
	irqkit_queue_work_on((int)cpu, irqkit_system_wq(), &o.work);
	irqkit_flush_work(&o.work);
	return o.ret;
}

/* Teardown of states [0, @upto) on @cpu, last first; a failure is reported, as Linux WARNs. */
static void teardown_states(unsigned int cpu, unsigned int upto)
{
	for (unsigned int i = upto; i-- > 0;) {
		int ret;

		if (!states[i].name)
			continue;
		ret = call_on_cpu(cpu, states[i].teardown);
		if (ret)
			irqkit_printk(IRQKIT_LOG_WARNING,
				      "CPU%u: %s teardown failed: %d (the CPU goes down all the same)",
				      cpu, states[i].name, ret);
	}
}

/* Startup of every state on @cpu in order; on a failure, those done are torn down. */
static int startup_states(unsigned int cpu)
{
	for (unsigned int i = 0; i < NR_DYN_STATES; i++) {
		int ret;

		if (!states[i].name)
			continue;
		ret = call_on_cpu(cpu, states[i].startup);
		if (ret) {
			irqkit_printk(IRQKIT_LOG_ERR, "CPU%u: %s startup failed: %d", cpu,
				      states[i].name, ret);
			teardown_states(cpu, i);
			return ret;
		}
	}
	return 0;
}

/* ---- down and up ------------------------------------------------------------------------ */

/* May the calling thread change CPUs?  Not a runtime thread: it may be the one to stop. */
static int hotplug_context(const char *what, unsigned int cpu)
{
	struct irqkit_task *t = irqkit_arch_current();

	might_sleep();
	if (!irqkit_started() || cpu >= irqkit__rt.nr_cpus)
		return -IRQKIT_EINVAL;
	if (t->kthread) {
		irqkit_printk(IRQKIT_LOG_ERR, "%s(%u) from a thread of the runtime: refused", what,
			      cpu);
		return -IRQKIT_EBUSY;
	}
	return 0;
}

/*
 * No thread of the runtime takes a hardirq on @c from now on (ksoftirqd at
 * its delivery points checks the gate once it holds the CPU): set it, then
 * wait for a holder that took the CPU before it saw the gate.
 */
static void close_hardirq_gate(struct irqkit_cpu *c)
{
	unsigned int spins = 0;

	a_store_seq(&c->offline, 1);
	a_fence();
	while (a_load_seq(&c->slot) & SLOT_HARDIRQ)
		spin_step(&spins);
}

int irqkit_remove_cpu(unsigned int cpu)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	struct irqkit_task *t = irqkit_arch_current();
	irqkit_cpumask bit = (irqkit_cpumask)1 << (cpu & 63), online;
	unsigned int to;
	int ret = hotplug_context("remove_cpu", cpu);

	if (ret)
		return ret;
	irqkit_mutex_lock(&hp_lock);
	online = irqkit__online_mask();
	if (!(online & bit)) {
		ret = 1;		/* offline already, as Linux's device_offline says */
		goto out;
	}
	if (online == bit || (rt->loop_cpus & bit) ||
	    ((t->irqflags & IRQKIT_TASK_BOUND) && t->cpu_id == (int)cpu)) {
		ret = -IRQKIT_EBUSY;
		goto out;
	}
	teardown_states(cpu, NR_DYN_STATES);
	/*
	 * Its dispatcher first (it ends the handler it runs), then out of the
	 * mask: every handler the dispatcher started, it started online.  What
	 * arrives for the CPU meanwhile waits in its pending set, and goes to
	 * the line's new CPU once the lines have moved.
	 */
	if (!mode_player_delivers()) {
		ret = irqkit_arch_cpu_down(cpu);
		if (ret) {
			(void)startup_states(cpu);	/* the platform cannot: the CPU stays */
			goto out;
		}
	}
	close_hardirq_gate(&rt->cpus[cpu]);
	a_fetch_and(&rt->online, ~bit);
	to = (unsigned int)__builtin_ctzll(online & ~bit);
	irqkit__irq_migrate_all_off_cpu(cpu);
	irqkit__irq_resignal_off_cpu(cpu);
	irqkit__softirq_takeover(cpu, to);
	irqkit__irq_poll_takeover(cpu, to);
	irqkit__napi_takeover(cpu, to);
	irqkit__timers_dead_cpu(cpu, to);
	irqkit__hrtimers_dead_cpu(cpu, to);
	irqkit__irq_work_dead_cpu(cpu, to);
	irqkit__smp_call_dead_cpu(cpu, to);
out:
	irqkit_mutex_unlock(&hp_lock);
	return ret;
}

int irqkit_add_cpu(unsigned int cpu)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	irqkit_cpumask bit = (irqkit_cpumask)1 << (cpu & 63);
	int ret = hotplug_context("add_cpu", cpu);

	if (ret)
		return ret;
	irqkit_mutex_lock(&hp_lock);
	if (irqkit__online_mask() & bit) {
		ret = 1;		/* online already */
		goto out;
	}
	if (!mode_player_delivers()) {
		a_store_seq(&rt->cpus[cpu].stop, 0);
		ret = irqkit_arch_cpu_up(cpu);
		if (ret)
			goto out;
	}
	a_store_seq(&rt->cpus[cpu].offline, 0);
	a_fetch_or(&rt->online, bit);
	irqkit__irq_affinity_online_cpu(cpu);
	ret = startup_states(cpu);
	if (ret) {
		if (!mode_player_delivers())
			(void)irqkit_arch_cpu_down(cpu);
		close_hardirq_gate(&rt->cpus[cpu]);
		a_fetch_and(&rt->online, ~bit);
		irqkit__irq_resignal_off_cpu(cpu);
	}
out:
	irqkit_mutex_unlock(&hp_lock);
	return ret;
}

/* ---- states ---------------------------------------------------------------------------------- */

static int setup_state(int state, const char *name, int (*startup)(unsigned int),
		       int (*teardown)(unsigned int), bool calls)
{
	unsigned int i;
	irqkit_cpumask online;

	might_sleep();
	if (state != IRQKIT_CPUHP_AP_ONLINE_DYN || !name || !irqkit_started())
		return -IRQKIT_EINVAL;
	irqkit_mutex_lock(&hp_lock);
	for (i = 0; i < NR_DYN_STATES && states[i].name; i++)
		;
	if (i == NR_DYN_STATES) {
		irqkit_mutex_unlock(&hp_lock);
		return -IRQKIT_ENOSPC;
	}
	online = irqkit__online_mask();
	for (unsigned int cpu = 0; calls && startup && cpu < irqkit__rt.nr_cpus; cpu++) {
		int ret;

		if (!(online & ((irqkit_cpumask)1 << cpu)))
			continue;
		ret = call_on_cpu(cpu, startup);
		if (ret) {
			/* undo the CPUs done, last first */
			while (teardown && cpu-- > 0)
				if (online & ((irqkit_cpumask)1 << cpu))
					(void)call_on_cpu(cpu, teardown);
			irqkit_mutex_unlock(&hp_lock);
			return ret;
		}
	}
	states[i] = (struct hp_state){ .name = name, .startup = startup, .teardown = teardown };
	irqkit_mutex_unlock(&hp_lock);
	return (int)i + 1;	/* a dynamic state's number, > 0 */
}

int irqkit_cpuhp_setup_state(int state, const char *name, int (*startup)(unsigned int cpu),
			     int (*teardown)(unsigned int cpu))
{
	return setup_state(state, name, startup, teardown, true);
}

int irqkit_cpuhp_setup_state_nocalls(int state, const char *name,
				     int (*startup)(unsigned int cpu),
				     int (*teardown)(unsigned int cpu))
{
	return setup_state(state, name, startup, teardown, false);
}

static void remove_state(int state, bool calls)
{
	unsigned int i = (unsigned int)state - 1;

	might_sleep();
	if (state <= 0 || state > NR_DYN_STATES)
		return;
	irqkit_mutex_lock(&hp_lock);
	if (states[i].name && calls && states[i].teardown) {
		irqkit_cpumask online = irqkit__online_mask();

		for (unsigned int cpu = irqkit__rt.nr_cpus; cpu-- > 0;)
			if (online & ((irqkit_cpumask)1 << cpu))
				(void)call_on_cpu(cpu, states[i].teardown);
	}
	states[i] = (struct hp_state){ 0 };
	irqkit_mutex_unlock(&hp_lock);
}

void irqkit_cpuhp_remove_state(int state)
{
	remove_state(state, true);
}

void irqkit_cpuhp_remove_state_nocalls(int state)
{
	remove_state(state, false);
}
