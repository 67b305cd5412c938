// SPDX-License-Identifier: MIT
/* Built by find_package(irqkit) with irqkit_linux_version(... 2.6.10): the 2.6 timer forms. */
#include <linux/timer.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE != KERNEL_VERSION(2, 6, 10)
#error "irqkit_linux_version() did not choose 2.6.10"
#endif

static void fn(unsigned long data)
{
	(void)data;
}

int main(void)
{
	struct timer_list t;

	init_timer(&t);
	t.function = fn;
	t.data = HZ;
	return timer_pending(&t);
}
