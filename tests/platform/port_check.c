// SPDX-License-Identifier: MIT
/*
 * The port contract checked by the compiler: <irqkit/task.h> declares every
 * inline hook with its signature before it includes the port's
 * <irqkit/arch/...> headers, so a port (here tests/platform/port_check/)
 * with one hook of another signature fails to build.  Compiled only.
 */
#include <irqkit/task.h>

int main(void)
{
	return irqkit_in_interrupt() ? 1 : 0;
}
