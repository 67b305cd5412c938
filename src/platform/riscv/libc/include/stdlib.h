/* SPDX-License-Identifier: MIT */
/* The C library on bare metal: number parsing. */
#ifndef IRQKIT_RV_STDLIB_H
#define IRQKIT_RV_STDLIB_H
#include <stddef.h>
unsigned long strtoul(const char *restrict s, char **restrict end, int base);
long strtol(const char *restrict s, char **restrict end, int base);
#endif
