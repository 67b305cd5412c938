/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/cpumask.h> over irqkit: struct cpumask and its helpers,
 * the online and possible CPUs as drivers read them.  Every virtual CPU is
 * possible and present; the online ones change with CPU hotplug
 * (<linux/cpu.h>).  A mask holds up to IRQKIT_NR_CPUS_MAX (64) CPUs.
 */
#ifndef IRQKIT_COMPAT_LINUX_CPUMASK_H
#define IRQKIT_COMPAT_LINUX_CPUMASK_H

#include <irqkit/cpu.h>
#include <linux/smp.h>

#define cpumask			irqkit_cpus
typedef struct irqkit_cpus	cpumask_t;
typedef struct irqkit_cpus	cpumask_var_t[1];	/* never off the stack here */

#ifndef NR_CPUS
#define NR_CPUS			IRQKIT_NR_CPUS_MAX
#endif
#define nr_cpu_ids		irqkit_nr_cpus()
#define nr_cpumask_bits		nr_cpu_ids
#define cpumask_bits(maskp)	((maskp)->bits)

#define CPU_MASK_ALL		((cpumask_t){ { [0 ... IRQKIT_CPUS_LONGS - 1] = ~0ul } })
#define CPU_MASK_NONE		((cpumask_t){ { [0 ... IRQKIT_CPUS_LONGS - 1] = 0ul } })
#define CPU_MASK_CPU0		((cpumask_t){ { [0] = 1ul } })

#define cpu_online_mask		irqkit_cpu_online_cpus()
#define cpu_active_mask		irqkit_cpu_online_cpus()
#define cpu_possible_mask	irqkit_cpu_possible_cpus()
#define cpu_present_mask	irqkit_cpu_possible_cpus()
#define cpumask_of(cpu)		(&irqkit_cpus_bit[(cpu) % IRQKIT_NR_CPUS_MAX])

#define cpu_online(cpu)		irqkit_cpu_online(cpu)
#define cpu_possible(cpu)	((unsigned int)(cpu) < irqkit_nr_cpus())
#define cpu_present(cpu)	cpu_possible(cpu)
#define cpu_active(cpu)		cpu_online(cpu)

/* The whole mask as one word: every helper below works on it. */
#define __irqkit_m(maskp)	irqkit_cpus_mask(maskp)
#define __irqkit_bit(cpu)	((irqkit_cpumask)1 << ((unsigned int)(cpu) % IRQKIT_NR_CPUS_MAX))
#define __irqkit_valid(m)	((m) & (nr_cpu_ids >= 64 ? ~(irqkit_cpumask)0 :		\
					((irqkit_cpumask)1 << nr_cpu_ids) - 1))

static inline void __irqkit_cpus_store(struct cpumask *dst, irqkit_cpumask m)
{
	struct irqkit_cpus c = irqkit_cpus_of_mask(m);

	for (unsigned int i = 0; i < IRQKIT_CPUS_LONGS; i++)
		__atomic_store_n(&dst->bits[i], c.bits[i], __ATOMIC_RELAXED);
}

static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	return (__irqkit_m(m) & __irqkit_bit(cpu)) != 0;
}

/* Atomic, as Linux's set_bit() under them; the __ forms need no atomicity. */
static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	__atomic_fetch_or(&m->bits[cpu % IRQKIT_NR_CPUS_MAX / (8 * __SIZEOF_LONG__)],
			  1ul << (cpu % (8 * __SIZEOF_LONG__)), __ATOMIC_RELAXED);
}
static inline void cpumask_clear_cpu(int cpu, struct cpumask *m)
{
	unsigned int c = (unsigned int)cpu;

	__atomic_fetch_and(&m->bits[c % IRQKIT_NR_CPUS_MAX / (8 * __SIZEOF_LONG__)],
			   ~(1ul << (c % (8 * __SIZEOF_LONG__))), __ATOMIC_RELAXED);
}
#define __cpumask_set_cpu(cpu, m)	cpumask_set_cpu((cpu), (m))
#define __cpumask_clear_cpu(cpu, m)	cpumask_clear_cpu((cpu), (m))

static inline void cpumask_clear(struct cpumask *m)
{
	__irqkit_cpus_store(m, 0);
}
static inline void cpumask_setall(struct cpumask *m)
{
	__irqkit_cpus_store(m, __irqkit_valid(~(irqkit_cpumask)0));
}
static inline void cpumask_copy(struct cpumask *dst, const struct cpumask *src)
{
	__irqkit_cpus_store(dst, __irqkit_m(src));
}
static inline bool cpumask_empty(const struct cpumask *m)
{
	return __irqkit_valid(__irqkit_m(m)) == 0;
}
static inline bool cpumask_full(const struct cpumask *m)
{
	return __irqkit_valid(__irqkit_m(m)) == __irqkit_valid(~(irqkit_cpumask)0);
}
static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	return (unsigned int)__builtin_popcountll(__irqkit_valid(__irqkit_m(m)));
}
/* The first CPU of @m, or nr_cpu_ids when there is none. */
static inline unsigned int __irqkit_first(irqkit_cpumask m)
{
	m = __irqkit_valid(m);
	return m ? (unsigned int)__builtin_ctzll(m) : nr_cpu_ids;
}
static inline unsigned int cpumask_first(const struct cpumask *m)
{
	return __irqkit_first(__irqkit_m(m));
}
/* The first CPU of @m after @n (-1: from the start), or nr_cpu_ids. */
static inline unsigned int cpumask_next(int n, const struct cpumask *m)
{
	if (n + 1 >= IRQKIT_NR_CPUS_MAX)
		return nr_cpu_ids;
	return __irqkit_first(__irqkit_m(m) & ~(__irqkit_bit(n + 1) - 1));
}
static inline unsigned int cpumask_first_and(const struct cpumask *a, const struct cpumask *b)
{
	return __irqkit_first(__irqkit_m(a) & __irqkit_m(b));
}
#define cpumask_any(m)			cpumask_first(m)
#define cpumask_any_and(a, b)		cpumask_first_and((a), (b))

/* Return whether the result is non-empty, as Linux's. */
static inline bool cpumask_and(struct cpumask *dst, const struct cpumask *a,
			       const struct cpumask *b)
{
	irqkit_cpumask m = __irqkit_valid(__irqkit_m(a) & __irqkit_m(b));

	__irqkit_cpus_store(dst, m);
	return m != 0;
}
static inline bool cpumask_andnot(struct cpumask *dst, const struct cpumask *a,
				  const struct cpumask *b)
{
	irqkit_cpumask m = __irqkit_valid(__irqkit_m(a) & ~__irqkit_m(b));

	__irqkit_cpus_store(dst, m);
	return m != 0;
}
static inline void cpumask_or(struct cpumask *dst, const struct cpumask *a,
			      const struct cpumask *b)
{
	__irqkit_cpus_store(dst, __irqkit_m(a) | __irqkit_m(b));
}
static inline bool cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{
	return __irqkit_valid(__irqkit_m(a)) == __irqkit_valid(__irqkit_m(b));
}
static inline bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b)
{
	return __irqkit_valid(__irqkit_m(a) & __irqkit_m(b)) != 0;
}
static inline bool cpumask_subset(const struct cpumask *a, const struct cpumask *b)
{
	return __irqkit_valid(__irqkit_m(a) & ~__irqkit_m(b)) == 0;
}

#define for_each_cpu(cpu, mask)								\
	for ((cpu) = cpumask_first(mask); (unsigned int)(cpu) < nr_cpu_ids;		\
	     (cpu) = cpumask_next((cpu), (mask)))
#define for_each_possible_cpu(cpu)							\
	for ((cpu) = 0; (unsigned int)(cpu) < irqkit_nr_cpus(); (cpu)++)
#define for_each_present_cpu(cpu)	for_each_possible_cpu(cpu)
#define for_each_online_cpu(cpu)							\
	for_each_possible_cpu(cpu)							\
		if (!irqkit_cpu_online(cpu)) {} else

/* cpumask_var_t lives in place here (as with CONFIG_CPUMASK_OFFSTACK=n). */
#define alloc_cpumask_var(mask, gfp)	((void)(gfp), true)
#define zalloc_cpumask_var(mask, gfp)	((void)(gfp), cpumask_clear(*(mask)), true)
#define free_cpumask_var(mask)		((void)(mask))

#endif
