// SPDX-License-Identifier: MIT
/*
 * What the compiler calls even in freestanding code (memset, memcpy,
 * memmove, memcmp), and the string functions drivers use (libc/include/
 * string.h): there is no C library on bare metal.  Built with
 * -fno-tree-loop-distribute-patterns, so that these loops are not turned
 * back into calls to themselves.
 */
#include <stddef.h>

void *memset(void *d, int c, size_t n);
void *memcpy(void *restrict d, const void *restrict s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

void *memset(void *d, int c, size_t n)
{
	unsigned char *p = d;

	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

void *memcpy(void *restrict d, const void *restrict s, size_t n)
{
	unsigned char *dp = d;
	const unsigned char *sp = s;

	while (n--)
		*dp++ = *sp++;
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	unsigned char *dp = d;
	const unsigned char *sp = s;

	if (dp < sp) {
		while (n--)
			*dp++ = *sp++;
	} else {
		while (n--)
			dp[n] = sp[n];
	}
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strcpy(char *restrict d, const char *restrict s);
char *strncpy(char *restrict d, const char *restrict s, size_t n);
char *strncat(char *restrict d, const char *restrict s, size_t n);
char *strcat(char *restrict d, const char *restrict s);
char *strchr(const char *s, int c);
char *strstr(const char *h, const char *n);

int strcmp(const char *a, const char *b)
{
	for (; *a && *a == *b; a++, b++)
		;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n && *a && *a == *b; n--, a++, b++)
		;
	return n ? (unsigned char)*a - (unsigned char)*b : 0;
}

char *strcpy(char *restrict d, const char *restrict s)
{
	char *r = d;

	while ((*d++ = *s++))
		;
	return r;
}

/* As the C library's: pads with NULs, and leaves @d unterminated when @s is as long as @n. */
char *strncpy(char *restrict d, const char *restrict s, size_t n)
{
	size_t i = 0;

	for (; i < n && s[i]; i++)
		d[i] = s[i];
	for (; i < n; i++)
		d[i] = '\0';
	return d;
}

/* As the C library's: at most @n of @s appended, then a NUL. */
char *strncat(char *restrict d, const char *restrict s, size_t n)
{
	char *e = d + strlen(d);

	for (; n && *s; n--)
		*e++ = *s++;
	*e = '\0';
	return d;
}

char *strcat(char *restrict d, const char *restrict s)
{
	strcpy(d + strlen(d), s);
	return d;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strstr(const char *h, const char *n)
{
	size_t len = strlen(n);

	for (; *h; h++)
		if (!strncmp(h, n, len))
			return (char *)h;
	return len ? NULL : (char *)h;
}
