// SPDX-License-Identifier: MIT
/*
 * Compile cases of <linux/hrtimer.h>'s names by version: without a CASE the
 * file builds in each version it is given (2.6.20, 4.14, 6.13, current);
 * each CASE_x uses a name the chosen version does not have and must stop
 * the build naming the version that has it.
 */
#include <linux/version.h>
#include <linux/hrtimer.h>

static enum hrtimer_restart fn(struct hrtimer *t)
{
	(void)t;
	return HRTIMER_NORESTART;
}

int use(void);
int use(void)
{
	struct hrtimer t;
#if IRQKIT_LINUX_AT_LEAST(2, 6, 21)
	enum hrtimer_mode rel = HRTIMER_MODE_REL;
#else
	enum hrtimer_mode rel = HRTIMER_REL;
#endif

#if IRQKIT_LINUX_AT_LEAST(6, 13, 0)
	hrtimer_setup(&t, fn, CLOCK_MONOTONIC, rel);
#else
	hrtimer_init(&t, CLOCK_MONOTONIC, rel);
	t.function = fn;
#endif
	hrtimer_start(&t, 1000, rel);
#if defined(CASE_hrtimer_mode_rel_in_2_6_20)
	hrtimer_start(&t, 1000, HRTIMER_MODE_REL);
#elif defined(CASE_hrtimer_rel_now)
	hrtimer_start(&t, 1000, HRTIMER_REL);
#elif defined(CASE_hrtimer_setup_in_6_12)
	hrtimer_setup(&t, fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#elif defined(CASE_hrtimer_init_now)
	hrtimer_init(&t, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#elif defined(CASE_hrtimer_setup_on_stack_in_6_12)
	hrtimer_setup_on_stack(&t, fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#elif defined(CASE_hrtimer_init_on_stack_now)
	hrtimer_init_on_stack(&t, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#elif defined(CASE_hrtimer_soft_in_4_14)
	hrtimer_start(&t, 1000, HRTIMER_MODE_REL_SOFT);
#endif
	return hrtimer_cancel(&t);
}
