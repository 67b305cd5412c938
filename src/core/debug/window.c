// SPDX-License-Identifier: MIT
/*
 * Race windows: places of the core a test may widen in the checking build
 * (core.h, irqkit__window()), as Lua's stress switches force a rare path at
 * the point where it could happen.  A thread that passes a widened window
 * waits there, in real or virtual time, on a word nobody wakes.
 */
#include "core.h"
#include "debug.h"

static const char *const window_names[WINDOW_NR] = {
	[WINDOW_WAKE_WORKER] = "wake_worker",
};

#ifdef IRQKIT_DEBUG
HIDDEN uint64_t irqkit__window_ns[WINDOW_NR];

void irqkit__window_slow(enum irqkit__window which)
{
	uint64_t ns = READ_ONCE(irqkit__window_ns[which]);
	uint64_t end = irqkit_plat_now_ns() + ns;
	unsigned int word = 0;

	for (uint64_t now = irqkit_plat_now_ns(); now < end; now = irqkit_plat_now_ns())
		irqkit_plat_wait_timeout(&word, 0, end - now);
}
#endif

static bool same_name(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

void irqkit__windows_close(void)
{
#ifdef IRQKIT_DEBUG
	for (unsigned int i = 0; i < WINDOW_NR; i++)
		WRITE_ONCE(irqkit__window_ns[i], 0);
#endif
}

int irqkit__core_window_set(const char *name, uint64_t ns)
{
	for (unsigned int i = 0; i < WINDOW_NR; i++) {
		if (!name || !same_name(name, window_names[i]))
			continue;
#ifdef IRQKIT_DEBUG
		WRITE_ONCE(irqkit__window_ns[i], ns);
		return 0;
#else
		(void)ns;
		return -IRQKIT_EOPNOTSUPP;
#endif
	}
	return -IRQKIT_EINVAL;
}
