/* SPDX-License-Identifier: MIT */
/* The C library on bare metal, as much as drivers and the Linux-name layer use. */
#ifndef IRQKIT_RV_STRING_H
#define IRQKIT_RV_STRING_H
#include <stddef.h>
void *memset(void *d, int c, size_t n);
void *memcpy(void *restrict d, const void *restrict s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strcpy(char *restrict d, const char *restrict s);
char *strncpy(char *restrict d, const char *restrict s, size_t n);
char *strncat(char *restrict d, const char *restrict s, size_t n);
char *strcat(char *restrict d, const char *restrict s);
char *strchr(const char *s, int c);
char *strstr(const char *h, const char *n);
#endif
