/* SPDX-License-Identifier: MIT */
/* Hosted conveniences of the Linux user-space platform: output to a FILE. */
#ifndef IRQKIT_HOSTED_H
#define IRQKIT_HOSTED_H

#include <irqkit/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__STDC_HOSTED__) && __STDC_HOSTED__
#include <stdio.h>

/**
 * irqkit_show_interrupts - write the /proc/interrupts table to @f
 * (see irqkit_show_interrupts_buf()).  Return: 0 or -ENOMEM / -EIO.
 */
IRQKIT_API int irqkit_show_interrupts(FILE *f, unsigned int flags);
#endif

#ifdef __cplusplus
}
#endif
#endif /* IRQKIT_HOSTED_H */
