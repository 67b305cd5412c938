// SPDX-License-Identifier: MIT
/* An image that must fail (exit status 42, no pass line): the runner can go red. */
#include "rvtest.h"

int irqkit_main(void)
{
	CHECK_EQ(irqkit_start(NULL), 0);
	CHECK_EQ(1 + 1, 3);
	irqkit_stop();
	return 42;
}
