/* SPDX-License-Identifier: MIT */
/* The C library on bare metal: number parsing, and memory on the port's allocator. */
#ifndef IRQKIT_RV_STDLIB_H
#define IRQKIT_RV_STDLIB_H
#include <stddef.h>
unsigned long strtoul(const char *restrict s, char **restrict end, int base);
long strtol(const char *restrict s, char **restrict end, int base);
void *malloc(size_t size);
void *calloc(size_t n, size_t size);
void free(void *p);
#endif
