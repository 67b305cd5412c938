// SPDX-License-Identifier: MIT
/* Hosted conveniences: the /proc/interrupts table written to a FILE. */
#include <irqkit/irqkit.h>

#include <stdio.h>
#include <stdlib.h>

int irqkit_show_interrupts(FILE *f, unsigned int flags)
{
	int len = irqkit_show_interrupts_buf(NULL, 0, flags);
	char *buf;
	int ret = 0;

	if (len < 0)
		return len;
	buf = malloc((size_t)len + 1);
	if (!buf)
		return -IRQKIT_ENOMEM;
	/* the table may have grown in between: take what fits */
	irqkit_show_interrupts_buf(buf, (size_t)len + 1, flags);
	if (fputs(buf, f) < 0)
		ret = -IRQKIT_EIO;
	free(buf);
	return ret;
}
