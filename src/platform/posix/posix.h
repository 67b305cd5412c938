/* SPDX-License-Identifier: MIT */
/* Internals of the Linux user-space platform shared by its files. */
#ifndef IRQKIT_POSIX_H
#define IRQKIT_POSIX_H

#include <stdint.h>

/* timer.c: the thread behind irqkit_plat_timer_program(). */
int irqkit__posix_timer_start(void);
void irqkit__posix_timer_stop(void);

/* platform.c: fault injection for tests; see irqkit_plat_alloc(). */
extern int irqkit__plat_alloc_fail;

/* symbols.c: drop the symbol cache. */
void irqkit__posix_symbols_exit(void);

#endif /* IRQKIT_POSIX_H */
