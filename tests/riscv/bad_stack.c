// SPDX-License-Identifier: MIT
/*
 * Bad input: a kernel thread that runs past the end of its stack.  The
 * guard at the bottom of every stack is checked at each switch: the next
 * switch away from the thread reports the overflow with its name and ends
 * the image (status 96) before anything runs on what it overwrote.
 */
#include <irqkit/arch/rv.h>

#include "rvtest.h"

/*
 * An array 64 bytes longer than what is left: its low end is in the guard
 * (the frame around it moves that end by a few words).
 */
static __attribute__((noinline)) void overflow(void)
{
	size_t left = irqkit_rv_stack_left();
	volatile char big[left + 64];

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = 0;
}

static int greedy(void *arg)
{
	(void)arg;
	overflow();
	irqkit_msleep(1);	/* the switch that finds it */
	return 0;
}

int irqkit_main(void)
{
	struct irqkit_thread *th;

	CHECK_EQ(irqkit_start(NULL), 0);
	CHECK_EQ(irqkit_thread_start(&th, 0, "greedy", greedy, NULL), 0);
	irqkit_thread_join(th);
	rv_printf("still here: the overflow was not found\n");
	return 1;
}
