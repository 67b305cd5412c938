/* SPDX-License-Identifier: MIT */
/*
 * The checks of the bare-metal test images: each failed check prints its
 * file, line and expression on the console and counts; irqkit_main()
 * returns the count (capped), and the port turns it into QEMU's exit status
 * and a "RESULT: PASS" or "RESULT: FAIL" line.
 */
#ifndef IRQKIT_RVTEST_H
#define IRQKIT_RVTEST_H

#include <irqkit/irqkit.h>

/* the image's program: run on hart 0 as the first thread; 0 is a pass */
int irqkit_main(void);
void rv_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rv_puts(const char *s);

static unsigned int rvtest_failures;

#define CHECK(cond)								\
	do {									\
		if (!(cond)) {							\
			rvtest_failures++;					\
			rv_printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
		}								\
	} while (0)

#define CHECK_EQ(a, b)								\
	do {									\
		long long __a = (long long)(a), __b = (long long)(b);		\
		if (__a != __b) {						\
			rvtest_failures++;					\
			rv_printf("FAILED %s:%d: %s == %s (%lld != %lld)\n",	\
				  __FILE__, __LINE__, #a, #b, __a, __b);	\
		}								\
	} while (0)

#define RUN(test)								\
	do {									\
		unsigned int __f = rvtest_failures;				\
		test();								\
		rv_printf("%s %s\n", __f == rvtest_failures ? "ok" : "not ok", #test);	\
	} while (0)

static inline int rvtest_result(void)
{
	return rvtest_failures > 200 ? 200 : (int)rvtest_failures;
}

#endif
