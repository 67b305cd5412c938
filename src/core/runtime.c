// SPDX-License-Identifier: MIT
/* The runtime's state, its set-up and tear-down (the platform starts and stops threads around these). */
#include "internals.h"

struct irqkit__runtime irqkit__rt;
unsigned int irqkit__run;
static bool started;

/* Limits: a three-level pending bitmap of 64-bit words covers 64^3 lines. */
#define NR_IRQS_DEFAULT	256u
#define NR_IRQS_MAX	262144u
#define HZ_DEFAULT	1000u
#define HZ_MAX		100000u

/*
 * irqkit__core_init - validate @cfg and build the descriptor table and CPUs.
 * Context: process context, runtime stopped.
 * Return: 0, -EBUSY if started, -EINVAL for a bad config, -ENOMEM.
 */
int irqkit__core_init(const struct irqkit_config *cfg)
{
	struct irqkit__runtime *rt = &irqkit__rt;
	struct irqkit_config c = cfg ? *cfg : (struct irqkit_config){ 0 };
	int ret;

	if (__atomic_load_n(&started, __ATOMIC_ACQUIRE))
		return -IRQKIT_EBUSY;
	if (!c.nr_irqs)
		c.nr_irqs = NR_IRQS_DEFAULT;
	if (!c.nr_cpus)
		c.nr_cpus = 1;
	if (!c.hz)
		c.hz = HZ_DEFAULT;
	if (c.nr_irqs > NR_IRQS_MAX || c.nr_cpus > IRQKIT_NR_CPUS_MAX || c.hz > HZ_MAX ||
	    (c.mode != IRQKIT_MODE_THREADED && c.mode != IRQKIT_MODE_DETERMINISTIC) ||
	    (c.flags & ~(IRQKIT_CFG_NOIRQDEBUG | IRQKIT_CFG_DEBUG_SHIRQ | IRQKIT_CFG_PIN_CPUS |
			 IRQKIT_CFG_THREADIRQS)))
		return -IRQKIT_EINVAL;

	*rt = (struct irqkit__runtime){
		.nr_irqs	= c.nr_irqs,
		.nr_cpus	= c.nr_cpus,
		.mode		= c.mode,
		.hz		= c.hz,
		.flags		= c.flags,
		.log		= c.log,
		.log_arg	= c.log_arg,
		.start_ns	= irqkit_plat_now_ns(),
	};
	ret = irqkit__descs_init();
	if (!ret)
		ret = irqkit__cpus_init();
	if (ret) {
		irqkit__descs_exit();
		return ret;
	}
	irqkit__timers_init();
	irqkit__resend_init();
	irqkit__spurious_init();
	ret = irqkit__softirq_init();
	if (!ret) {
		ret = irqkit__workqueue_init();
		if (ret)
			irqkit__softirq_exit();
	}
	if (ret) {
		irqkit__cpus_exit();
		irqkit__descs_exit();
		return ret;
	}
	WRITE_ONCE(irqkit__run, READ_ONCE(irqkit__run) + 1);
	__atomic_store_n(&started, true, __ATOMIC_RELEASE);
	return 0;
}

/* irqkit__core_exit - free everything.  Context: the platform's threads have stopped. */
void irqkit__core_exit(void)
{
	irqkit__workqueue_exit();
	irqkit__softirq_exit();
	irqkit__timers_exit();
	irqkit__tasklets_exit();
	irqkit__free_all();
	irqkit__reap_irq_threads();
	while (irqkit__rt.exit_hooks) {
		struct irqkit__exit_hook *hook = irqkit__rt.exit_hooks;

		irqkit__rt.exit_hooks = hook->next;
		hook->registered = false;
		hook->fn();
	}
	irqkit__cpus_exit();
	irqkit__descs_exit();
	__atomic_store_n(&started, false, __ATOMIC_RELEASE);
}

/* Register @hook once per run.  Context: process context, runtime started. */
void irqkit__exit_hook_add(struct irqkit__exit_hook *hook)
{
	if (hook->registered)
		return;
	hook->registered = true;
	hook->next = irqkit__rt.exit_hooks;
	irqkit__rt.exit_hooks = hook;
}

bool irqkit_started(void)
{
	return __atomic_load_n(&started, __ATOMIC_ACQUIRE);
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
