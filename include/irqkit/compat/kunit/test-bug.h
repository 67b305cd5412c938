/* SPDX-License-Identifier: MIT */
/*
 * Linux's <kunit/test-bug.h>: code under test that finds a bug fails the
 * case running now, if any, from any thread of the case's process.
 */
#ifndef IRQKIT_COMPAT_KUNIT_TEST_BUG_H
#define IRQKIT_COMPAT_KUNIT_TEST_BUG_H

#include <kunit/test.h>

void __kunit_fail_current_test(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define kunit_fail_current_test(fmt, ...)						\
	__kunit_fail_current_test(__FILE__, __LINE__, fmt, ##__VA_ARGS__)

#endif
