// SPDX-License-Identifier: MIT
/*
 * Per-CPU memory (Linux's mm/percpu.c, much reduced), <irqkit/percpu.h>.
 *
 * The dynamic area is one allocation of IRQKIT_NR_CPUS_MAX units, CPU k's
 * at k units from CPU 0's, made on first use and kept for the process (a
 * host maps the pages it touches only).  CPU 0's unit is carved in blocks
 * of 64 bytes with a bitmap; the first block of an object records its
 * length.  Static sections are copied once per CPU at registration; a
 * lookup tries the area, then each section.  One lock guards the area's
 * bitmap and the section table; a lookup reads the table without it (an
 * entry is complete before the count that shows it).
 */
#include "core.h"

#include <irqkit/percpu.h>

#define BLOCK		64u
#define NBLOCKS		(IRQKIT_PERCPU_UNIT / BLOCK)
#define MAX_SECTIONS	16

static struct irqkit_spinlock percpu_lock = IRQKIT_SPINLOCK_INIT;
static char *area;				/* CPU 0's unit; CPU k's at k units */
static uint64_t used[NBLOCKS / 64];		/* blocks taken */
static uint16_t length[NBLOCKS];		/* blocks of the object starting here */

static struct section {
	char		*start, *end;
	char		*copies;		/* CPUs 1..NR-1, one section's size each */
} sections[MAX_SECTIONS];
static unsigned int nr_sections;

static bool block_used(unsigned int b)
{
	return used[b / 64] & (1ull << (b % 64));
}

static void blocks_mark(unsigned int b, unsigned int n, bool on)
{
	for (unsigned int i = b; i < b + n; i++) {
		if (on)
			used[i / 64] |= 1ull << (i % 64);
		else
			used[i / 64] &= ~(1ull << (i % 64));
	}
}

void *irqkit_alloc_percpu(size_t size, size_t align)
{
	unsigned int n = (unsigned int)((size + BLOCK - 1) / BLOCK), run = 0;
	unsigned long flags;
	char *p = NULL;

	if (!size || size > IRQKIT_PERCPU_UNIT || align > BLOCK || (align & (align - 1))) {
		pr_warn("alloc_percpu: size %zu, align %zu: refused", size, align);
		return NULL;
	}
	might_sleep();
	if (!READ_ONCE(area)) {
		char *a = irqkit_plat_alloc((size_t)IRQKIT_PERCPU_UNIT * IRQKIT_NR_CPUS_MAX);

		if (!a)
			return NULL;
		flags = irqkit_spin_lock_irqsave(&percpu_lock);
		if (!area)
			a_store_release(&area, a);
		else
			p = a;		/* another caller's won: ours goes back */
		irqkit_spin_unlock_irqrestore(&percpu_lock, flags);
		if (p)
			irqkit_plat_free(p, (size_t)IRQKIT_PERCPU_UNIT * IRQKIT_NR_CPUS_MAX);
		p = NULL;
	}
	flags = irqkit_spin_lock_irqsave(&percpu_lock);
	for (unsigned int b = 0; b < NBLOCKS; b++) {
		run = block_used(b) ? 0 : run + 1;
		if (run == n) {
			unsigned int first = b + 1 - n;

			blocks_mark(first, n, true);
			length[first] = (uint16_t)n;
			p = area + (size_t)first * BLOCK;
			break;
		}
	}
	irqkit_spin_unlock_irqrestore(&percpu_lock, flags);
	if (!p) {
		pr_warn("alloc_percpu: no room for %zu bytes in the per-CPU area", size);
		return NULL;
	}
	for (unsigned int cpu = 0; cpu < IRQKIT_NR_CPUS_MAX; cpu++)
		__builtin_memset(p + (size_t)cpu * IRQKIT_PERCPU_UNIT, 0, (size_t)n * BLOCK);
	return p;
}

void irqkit_free_percpu(void *ptr)
{
	char *p = ptr, *a = a_load_acquire(&area);
	unsigned long flags;
	size_t off = 0;

	if (!p)
		return;
	if (a && p >= a)
		off = (size_t)(p - a);
	if (!a || p < a || off >= IRQKIT_PERCPU_UNIT || off % BLOCK) {
		WARN(1, "free_percpu(%p): not a per-CPU allocation", ptr);
		return;
	}
	flags = irqkit_spin_lock_irqsave(&percpu_lock);
	if (!length[off / BLOCK] || !block_used((unsigned int)(off / BLOCK))) {
		irqkit_spin_unlock_irqrestore(&percpu_lock, flags);
		WARN(1, "free_percpu(%p): not allocated (freed twice?)", ptr);
		return;
	}
	blocks_mark((unsigned int)(off / BLOCK), length[off / BLOCK], false);
	length[off / BLOCK] = 0;
	irqkit_spin_unlock_irqrestore(&percpu_lock, flags);
}

void *irqkit_per_cpu_ptr(const void *ptr, unsigned int cpu)
{
	const char *p = ptr, *a = a_load_acquire(&area);
	unsigned int n = a_load_acquire(&nr_sections);

	if (unlikely(cpu >= IRQKIT_NR_CPUS_MAX)) {
		WARN_ONCE(1, "per_cpu_ptr(%p, %u): no such CPU", ptr, cpu);
		return NULL;
	}
	if (a && p >= a && p < a + IRQKIT_PERCPU_UNIT)
		return (char *)p + (size_t)cpu * IRQKIT_PERCPU_UNIT;
	for (unsigned int i = 0; i < n; i++) {
		const struct section *s = &sections[i];

		if (p >= s->start && p < s->end)
			return cpu ? s->copies + (size_t)(cpu - 1) * (size_t)(s->end - s->start) +
					     (p - s->start)
				   : (char *)p;
	}
	WARN_ONCE(1, "per_cpu_ptr(%p): not a per-CPU pointer", ptr);
	return NULL;
}

int irqkit_percpu_register(void *start, void *end)
{
	char *s = start, *e = end, *copies;
	size_t size = (size_t)(e - s);
	unsigned long flags;
	int ret = 0;

	if (!size)
		return 0;
	for (unsigned int i = 0; i < a_load_acquire(&nr_sections); i++)
		if (sections[i].start == s)
			return 0;
	copies = irqkit_plat_alloc(size * (IRQKIT_NR_CPUS_MAX - 1));
	if (!copies)
		return -IRQKIT_ENOMEM;
	for (unsigned int cpu = 1; cpu < IRQKIT_NR_CPUS_MAX; cpu++)
		__builtin_memcpy(copies + (cpu - 1) * size, s, size);
	flags = irqkit_spin_lock_irqsave(&percpu_lock);
	for (unsigned int i = 0; i < nr_sections; i++)
		if (sections[i].start == s)
			ret = 1;		/* registered meanwhile */
	if (!ret && nr_sections == MAX_SECTIONS)
		ret = -IRQKIT_ENOSPC;
	if (!ret) {
		sections[nr_sections] = (struct section){ s, e, copies };
		a_store_release(&nr_sections, nr_sections + 1);
	}
	irqkit_spin_unlock_irqrestore(&percpu_lock, flags);
	if (ret) {
		irqkit_plat_free(copies, size * (IRQKIT_NR_CPUS_MAX - 1));
		return ret > 0 ? 0 : ret;
	}
	return 0;
}
