/* SPDX-License-Identifier: MIT */
/* The C library on bare metal: formatting into buffers (no files, no streams). */
#ifndef IRQKIT_RV_STDIO_H
#define IRQKIT_RV_STDIO_H
#include <stdarg.h>
#include <stddef.h>
int vsnprintf(char *restrict buf, size_t n, const char *restrict fmt, va_list ap);
int snprintf(char *restrict buf, size_t n, const char *restrict fmt, ...)
	__attribute__((format(printf, 3, 4)));
int sprintf(char *restrict buf, const char *restrict fmt, ...)
	__attribute__((format(printf, 2, 3)));
#endif
