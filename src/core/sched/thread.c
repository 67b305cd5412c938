// SPDX-License-Identifier: MIT
/*
 * Threads of the program's own that play a CPU (irqkit_thread_start): a
 * thread of the platform, bound to its CPU before the function runs (on a
 * port whose CPUs are real, moved there), and unbound when it returns.
 */
#include "core.h"

struct irqkit_thread {
	struct irqkit_plat_thread	*th;
	unsigned int			cpu;
	int				(*fn)(void *);
	void				*arg;
	int				ret;
};

static void program_thread_main(void *p)
{
	struct irqkit_thread *t = p;

	if (irqkit_thread_bind(t->cpu)) {
		/* the runtime stopped before this thread ran: nothing to play */
		t->ret = -IRQKIT_EINVAL;
		return;
	}
	t->ret = t->fn(t->arg);
	if (irqkit_thread_unbind())
		irqkit_printk(IRQKIT_LOG_ERR,
			      "BUG: a thread of irqkit_thread_start() returned with interrupts or bottom halves off, or in interrupt context (CPU#%u)",
			      t->cpu);
}

int irqkit_thread_start(struct irqkit_thread **out, unsigned int cpu, const char *name,
			int (*fn)(void *arg), void *arg)
{
	struct irqkit_thread *t;
	int ret;

	if (!out || !fn || !irqkit_started() || cpu >= irqkit_nr_cpus())
		return -IRQKIT_EINVAL;
	t = irqkit_plat_alloc(sizeof(*t));
	if (!t)
		return -IRQKIT_ENOMEM;
	*t = (struct irqkit_thread){ .cpu = cpu, .fn = fn, .arg = arg };
	ret = irqkit_plat_thread_create(&t->th, name ? name : "task", program_thread_main, t);
	if (ret) {
		irqkit_plat_free(t, sizeof(*t));
		return ret;
	}
	*out = t;
	return 0;
}

int irqkit_thread_join(struct irqkit_thread *t)
{
	int ret;

	if (!t)
		return -IRQKIT_EINVAL;
	irqkit_plat_thread_join(t->th);
	ret = t->ret;
	irqkit_plat_free(t, sizeof(*t));
	return ret;
}
