/* SPDX-License-Identifier: MIT */
/*
 * Linux's <kunit/test.h> in user space: suites of cases, expectations and
 * assertions, parameterised cases, skips, managed memory and deferred
 * actions, with Linux's names and Linux's KTAP output.
 *
 * A file of suites builds as it stands and needs no main():
 *   cc t.c $(pkg-config --cflags --libs irqkit-kunit)
 * links irqkit's KUnit runner (src/kunit/runner.c), which runs every suite
 * that kunit_test_suites() registered.  Each case runs in a fresh irqkit
 * runtime (threaded mode, 2 virtual CPUs unless told otherwise), on the
 * thread of its suite's process; a case that crashes or runs past its
 * timeout is reported and the next case goes on.  `./t --help` lists the
 * runner's options (a glob filter as kunit.py's --filter_glob, the case
 * timeout, the CPU count, runs under the simulator over N seeds).
 */
#ifndef IRQKIT_COMPAT_KUNIT_TEST_H
#define IRQKIT_COMPAT_KUNIT_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <linux/err.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KUNIT_PARAM_DESC_SIZE		128
#define KUNIT_STATUS_COMMENT_SIZE	256
#define KUNIT_SUBTEST_INDENT		"    "
#define KUNIT_SUBSUBTEST_INDENT		"        "

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

/* What a failed check does: an expectation goes on, an assertion ends the case. */
enum kunit_assert_type {
	KUNIT_ASSERTION,
	KUNIT_EXPECTATION,
};

struct kunit;
struct kunit_suite;

/* A case of a suite; KUNIT_CASE() and KUNIT_CASE_PARAM() fill it. */
struct kunit_case {
	void			(*run_case)(struct kunit *test);
	const char		*name;
	/* the next parameter after @prev (NULL: the first), or NULL at the end; @desc names it */
	const void		*(*generate_params)(const void *prev, char *desc);
	/* private: the runner's */
	enum kunit_status	status;
};

#define KUNIT_CASE(test_name)	{ .run_case = test_name, .name = #test_name }
#define KUNIT_CASE_PARAM(test_name, gen_params)						\
	{ .run_case = test_name, .name = #test_name, .generate_params = gen_params }
/* The slow cases of Linux's attributes run as the others here. */
#define KUNIT_CASE_SLOW(test_name)	KUNIT_CASE(test_name)

/*
 * KUNIT_ARRAY_PARAM - name##_gen_params: the elements of @array one after
 * another; @get_desc(elem, desc), or NULL, describes each.
 */
#define KUNIT_ARRAY_PARAM(name, array, get_desc)					\
	static const void *name##_gen_params(const void *prev, char *desc)		\
	{										\
		__typeof__((array)[0]) *__next = prev ?					\
			((__typeof__(__next))prev) + 1 : (array);			\
		if (__next - (array) < (long)ARRAY_SIZE(array)) {			\
			void (*__get_desc)(__typeof__(__next), char *) = get_desc;	\
			if (__get_desc)							\
				__get_desc(__next, desc);				\
			return __next;							\
		}									\
		return NULL;								\
	}
/* As KUNIT_ARRAY_PARAM, each element described by its string member @desc_member. */
#define KUNIT_ARRAY_PARAM_DESC(name, array, desc_member)				\
	static const void *name##_gen_params(const void *prev, char *desc)		\
	{										\
		__typeof__((array)[0]) *__next = prev ?					\
			((__typeof__(__next))prev) + 1 : (array);			\
		if (__next - (array) < (long)ARRAY_SIZE(array)) {			\
			strncpy(desc, __next->desc_member, KUNIT_PARAM_DESC_SIZE - 1);	\
			desc[KUNIT_PARAM_DESC_SIZE - 1] = '\0';				\
			return __next;							\
		}									\
		return NULL;								\
	}

struct kunit_suite {
	const char		name[256];
	int			(*suite_init)(struct kunit_suite *suite);
	void			(*suite_exit)(struct kunit_suite *suite);
	int			(*init)(struct kunit *test);
	void			(*exit)(struct kunit *test);
	struct kunit_case	*test_cases;	/* ended by an empty case */
	/* private: the runner's */
	char			status_comment[KUNIT_STATUS_COMMENT_SIZE];
	int			suite_init_err;
};

/* The state of one run of a case (one parameter of a parameterised case). */
struct kunit {
	void			*priv;		/* the suite's init may hang its data here */
	/* read-only */
	const char		*name;		/* the case's */
	char			*log;		/* unused: the runner prints as it goes */
	int			param_index;
	const void		*param_value;
	/* private: the runner's */
	enum kunit_status	status;
	char			status_comment[KUNIT_STATUS_COMMENT_SIZE];
	void			*runner;
};

/* ---- registration -------------------------------------------------------------- */

/*
 * kunit_test_suites - register suites for the runner; kunit_test_suite one.
 * Each use puts an array of pointers in the kunit_test_suites section, which
 * the runner walks; no main() of the file's own is needed (or wanted).
 */
#define __kunit_cat2(a, b)	a##b
#define __kunit_cat(a, b)	__kunit_cat2(a, b)
#define kunit_test_suites(...)								\
	static struct kunit_suite *__kunit_cat(__kunit_suites_, __LINE__)[]		\
	__attribute__((used, section("kunit_test_suites"),				\
		       aligned(sizeof(struct kunit_suite *)))) = { __VA_ARGS__ }
#define kunit_test_suite(suite)			kunit_test_suites(&(suite))
#define kunit_test_init_section_suites(...)	kunit_test_suites(__VA_ARGS__)
#define kunit_test_init_section_suite(suite)	kunit_test_suite(suite)

/*
 * irqkit_kunit_main - run the registered suites as the command line asks
 * (--help lists the options); the runner's main() calls it.  A program with
 * a main() of its own may call it instead.  Return: the exit status.
 */
int irqkit_kunit_main(int argc, char **argv);

/* ---- messages ----------------------------------------------------------------------- */

void kunit_printk_line(const char *lvl, const struct kunit *test, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "    # case: message", at the level of Linux's printk (the level is not printed). */
#define kunit_printk(lvl, test, fmt, ...)	kunit_printk_line(lvl, test, fmt, ##__VA_ARGS__)
#define kunit_info(test, fmt, ...)	kunit_printk(KERN_INFO, test, fmt, ##__VA_ARGS__)
#define kunit_warn(test, fmt, ...)	kunit_printk(KERN_WARNING, test, fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...)	kunit_printk(KERN_ERR, test, fmt, ##__VA_ARGS__)
#define kunit_log(lvl, test, fmt, ...)	kunit_printk(lvl, test, fmt, ##__VA_ARGS__)

/* ---- skipping ---------------------------------------------------------------------------- */

void __kunit_mark_skipped(struct kunit *test, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void __kunit_abort(struct kunit *test) __attribute__((noreturn));

/* The case is skipped (reason @fmt) and goes on; a case that failed already stays failed. */
#define kunit_mark_skipped(test, fmt, ...)	__kunit_mark_skipped(test, fmt, ##__VA_ARGS__)
/* The case is skipped and ends here. */
#define kunit_skip(test, fmt, ...)							\
	do {										\
		__kunit_mark_skipped(test, fmt, ##__VA_ARGS__);				\
		__kunit_abort(test);							\
	} while (0)

/* ---- managed memory and deferred actions ------------------------------------------------- */

typedef void (kunit_action_t)(void *);

/* @action(@ctx) runs when the case ends, in the reverse order of adding.  0 or -ENOMEM. */
int kunit_add_action(struct kunit *test, kunit_action_t *action, void *ctx);
/* As kunit_add_action; if it cannot be added, @action(@ctx) runs now. */
int kunit_add_action_or_reset(struct kunit *test, kunit_action_t *action, void *ctx);
/* Forget the last added @action(@ctx) without running it; release runs it now. */
void kunit_remove_action(struct kunit *test, kunit_action_t *action, void *ctx);
void kunit_release_action(struct kunit *test, kunit_action_t *action, void *ctx);

/* Memory freed when the case ends (or at kunit_kfree). */
void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size, gfp_t gfp);
void kunit_kfree(struct kunit *test, const void *ptr);
#define kunit_kmalloc(test, size, gfp)	kunit_kmalloc_array(test, 1, size, gfp)
#define kunit_kzalloc(test, size, gfp)	kunit_kmalloc(test, size, (gfp) | __GFP_ZERO)
#define kunit_kcalloc(test, n, size, gfp) kunit_kmalloc_array(test, n, size, (gfp) | __GFP_ZERO)
char *kunit_kstrdup(struct kunit *test, const char *str, gfp_t gfp);

/* The case this thread runs (<kunit/test-bug.h>), or NULL. */
struct kunit *kunit_get_current_test(void);

/* ---- expectations and assertions ------------------------------------------------------------- */

void __kunit_check_int(struct kunit *test, enum kunit_assert_type type, const char *file,
		       int line, const char *left, const char *op, const char *right,
		       long long lv, long long rv, const char *fmt, ...)
	__attribute__((format(printf, 10, 11)));
void __kunit_check_ptr(struct kunit *test, enum kunit_assert_type type, const char *file,
		       int line, const char *left, const char *op, const char *right,
		       const void *lv, const void *rv, const char *fmt, ...)
	__attribute__((format(printf, 10, 11)));
void __kunit_check_str(struct kunit *test, enum kunit_assert_type type, const char *file,
		       int line, const char *left, const char *op, const char *right,
		       const char *lv, const char *rv, const char *fmt, ...)
	__attribute__((format(printf, 10, 11)));
void __kunit_check_mem(struct kunit *test, enum kunit_assert_type type, const char *file,
		       int line, const char *left, const char *op, const char *right,
		       const void *lv, const void *rv, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 11, 12)));
void __kunit_check_unary(struct kunit *test, enum kunit_assert_type type, const char *file,
			 int line, const char *expr, bool expected, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
void __kunit_check_not_err(struct kunit *test, enum kunit_assert_type type, const char *file,
			   int line, const char *expr, const void *ptr, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
void __kunit_check_fail(struct kunit *test, enum kunit_assert_type type, const char *file,
			int line, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* An assertion that failed ends the case; an expectation goes on. */
#define __KUNIT_END(test, type)								\
	do {										\
		if ((type) == KUNIT_ASSERTION)						\
			__kunit_abort(test);						\
	} while (0)

/*
 * The operands compare as C compares them, signed with unsigned included,
 * as in Linux (which builds without -Wsign-compare): no warning here.
 */
#define __KUNIT_CMP(l, op, r)								\
	({										\
		_Pragma("GCC diagnostic push")						\
		_Pragma("GCC diagnostic ignored \"-Wsign-compare\"")			\
		bool __ok = (l) op (r);							\
		_Pragma("GCC diagnostic pop")						\
		__ok;									\
	})

#define KUNIT_BINARY_INT_ASSERTION(test, type, left, op, right, fmt, ...)		\
	do {										\
		const __typeof__(left) __left = (left);					\
		const __typeof__(right) __right = (right);				\
		if (!__KUNIT_CMP(__left, op, __right)) {				\
			__kunit_check_int(test, type, __FILE__, __LINE__, #left, #op,	\
					  #right, (long long)__left, (long long)__right,	\
					  fmt, ##__VA_ARGS__);				\
			__KUNIT_END(test, type);					\
		}									\
	} while (0)

#define KUNIT_BINARY_PTR_ASSERTION(test, type, left, op, right, fmt, ...)		\
	do {										\
		const void *__left = (const void *)(left);				\
		const void *__right = (const void *)(right);				\
		if (!(__left op __right)) {						\
			__kunit_check_ptr(test, type, __FILE__, __LINE__, #left, #op,	\
					  #right, __left, __right, fmt, ##__VA_ARGS__);	\
			__KUNIT_END(test, type);					\
		}									\
	} while (0)

/* ptr == NULL or != NULL, told as "NULL" (the macro's expansion would show). */
#define KUNIT_PTR_NULL_ASSERTION(test, type, ptr, op, fmt, ...)				\
	do {										\
		const void *__ptr = (const void *)(ptr);				\
		if (!(__ptr op NULL)) {							\
			__kunit_check_ptr(test, type, __FILE__, __LINE__, #ptr, #op,	\
					  "NULL", __ptr, NULL, fmt, ##__VA_ARGS__);	\
			__KUNIT_END(test, type);					\
		}									\
	} while (0)

#define KUNIT_BINARY_STR_ASSERTION(test, type, left, op, right, fmt, ...)		\
	do {										\
		const char *__left = (left);						\
		const char *__right = (right);						\
		if (!(__left && __right && strcmp(__left, __right) op 0)) {		\
			__kunit_check_str(test, type, __FILE__, __LINE__, #left, #op,	\
					  #right, __left, __right, fmt, ##__VA_ARGS__);	\
			__KUNIT_END(test, type);					\
		}									\
	} while (0)

#define KUNIT_MEM_ASSERTION(test, type, left, op, right, size, fmt, ...)		\
	do {										\
		const void *__left = (left);						\
		const void *__right = (right);						\
		const size_t __size = (size);						\
		if (!(__left && __right && memcmp(__left, __right, __size) op 0)) {	\
			__kunit_check_mem(test, type, __FILE__, __LINE__, #left, #op,	\
					  #right, __left, __right, __size, fmt,		\
					  ##__VA_ARGS__);				\
			__KUNIT_END(test, type);					\
		}									\
	} while (0)

#define KUNIT_UNARY_ASSERTION(test, type, cond, expected, fmt, ...)			\
	do {										\
		if ((!!(cond)) != (expected)) {						\
			__kunit_check_unary(test, type, __FILE__, __LINE__, #cond,	\
					    expected, fmt, ##__VA_ARGS__);		\
			__KUNIT_END(test, type);					\
		}									\
	} while (0)

#define KUNIT_PTR_NOT_ERR_OR_NULL_ASSERTION(test, type, ptr, fmt, ...)			\
	do {										\
		const void *__ptr = (const void *)(ptr);				\
		if (IS_ERR_OR_NULL(__ptr)) {						\
			__kunit_check_not_err(test, type, __FILE__, __LINE__, #ptr,	\
					      __ptr, fmt, ##__VA_ARGS__);		\
			__KUNIT_END(test, type);					\
		}									\
	} while (0)

#define KUNIT_FAIL_ASSERTION(test, type, fmt, ...)					\
	do {										\
		__kunit_check_fail(test, type, __FILE__, __LINE__, fmt, ##__VA_ARGS__);\
		__KUNIT_END(test, type);						\
	} while (0)

/* The family, in both kinds: KUNIT_EXPECT_* goes on after a failure, KUNIT_ASSERT_* ends the case. */
#define KUNIT_SUCCEED(test)		do { (void)(test); } while (0)
#define KUNIT_FAIL(test, fmt, ...)	KUNIT_FAIL_ASSERTION(test, KUNIT_EXPECTATION, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_TRUE_MSG(test, c, fmt, ...)					\
	KUNIT_UNARY_ASSERTION(test, KUNIT_EXPECTATION, c, true, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_FALSE_MSG(test, c, fmt, ...)					\
	KUNIT_UNARY_ASSERTION(test, KUNIT_EXPECTATION, c, false, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_EQ_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_EXPECTATION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_EXPECTATION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_EXPECTATION, l, <, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_EXPECTATION, l, <=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_EXPECTATION, l, >, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_EXPECTATION, l, >=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_EQ_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_PTR_ASSERTION(test, KUNIT_EXPECTATION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_NE_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_PTR_ASSERTION(test, KUNIT_EXPECTATION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NULL_MSG(test, p, fmt, ...)					\
	KUNIT_PTR_NULL_ASSERTION(test, KUNIT_EXPECTATION, p, ==, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_NULL_MSG(test, p, fmt, ...)					\
	KUNIT_PTR_NULL_ASSERTION(test, KUNIT_EXPECTATION, p, !=, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_STREQ_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_STR_ASSERTION(test, KUNIT_EXPECTATION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_STRNEQ_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_STR_ASSERTION(test, KUNIT_EXPECTATION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_MEMEQ_MSG(test, l, r, size, fmt, ...)				\
	KUNIT_MEM_ASSERTION(test, KUNIT_EXPECTATION, l, ==, r, size, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_MEMNEQ_MSG(test, l, r, size, fmt, ...)				\
	KUNIT_MEM_ASSERTION(test, KUNIT_EXPECTATION, l, !=, r, size, fmt, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, p, fmt, ...)				\
	KUNIT_PTR_NOT_ERR_OR_NULL_ASSERTION(test, KUNIT_EXPECTATION, p, fmt, ##__VA_ARGS__)

#define KUNIT_ASSERT_TRUE_MSG(test, c, fmt, ...)					\
	KUNIT_UNARY_ASSERTION(test, KUNIT_ASSERTION, c, true, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_FALSE_MSG(test, c, fmt, ...)					\
	KUNIT_UNARY_ASSERTION(test, KUNIT_ASSERTION, c, false, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_EQ_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_ASSERTION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NE_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_ASSERTION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_ASSERTION, l, <, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_LE_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_ASSERTION, l, <=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GT_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_ASSERTION, l, >, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_INT_ASSERTION(test, KUNIT_ASSERTION, l, >=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_EQ_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_PTR_ASSERTION(test, KUNIT_ASSERTION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_NE_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_PTR_ASSERTION(test, KUNIT_ASSERTION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NULL_MSG(test, p, fmt, ...)					\
	KUNIT_PTR_NULL_ASSERTION(test, KUNIT_ASSERTION, p, ==, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL_MSG(test, p, fmt, ...)					\
	KUNIT_PTR_NULL_ASSERTION(test, KUNIT_ASSERTION, p, !=, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_STREQ_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_STR_ASSERTION(test, KUNIT_ASSERTION, l, ==, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_STRNEQ_MSG(test, l, r, fmt, ...)					\
	KUNIT_BINARY_STR_ASSERTION(test, KUNIT_ASSERTION, l, !=, r, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_MEMEQ_MSG(test, l, r, size, fmt, ...)				\
	KUNIT_MEM_ASSERTION(test, KUNIT_ASSERTION, l, ==, r, size, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_MEMNEQ_MSG(test, l, r, size, fmt, ...)				\
	KUNIT_MEM_ASSERTION(test, KUNIT_ASSERTION, l, !=, r, size, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, p, fmt, ...)				\
	KUNIT_PTR_NOT_ERR_OR_NULL_ASSERTION(test, KUNIT_ASSERTION, p, fmt, ##__VA_ARGS__)
#define KUNIT_ASSERT_FAILURE(test, fmt, ...)						\
	KUNIT_FAIL_ASSERTION(test, KUNIT_ASSERTION, fmt, ##__VA_ARGS__)

#define KUNIT_EXPECT_TRUE(test, c)		KUNIT_EXPECT_TRUE_MSG(test, c, NULL)
#define KUNIT_EXPECT_FALSE(test, c)		KUNIT_EXPECT_FALSE_MSG(test, c, NULL)
#define KUNIT_EXPECT_EQ(test, l, r)		KUNIT_EXPECT_EQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_NE(test, l, r)		KUNIT_EXPECT_NE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_LT(test, l, r)		KUNIT_EXPECT_LT_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_LE(test, l, r)		KUNIT_EXPECT_LE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_GT(test, l, r)		KUNIT_EXPECT_GT_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_GE(test, l, r)		KUNIT_EXPECT_GE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_PTR_EQ(test, l, r)		KUNIT_EXPECT_PTR_EQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_PTR_NE(test, l, r)		KUNIT_EXPECT_PTR_NE_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_NULL(test, p)		KUNIT_EXPECT_NULL_MSG(test, p, NULL)
#define KUNIT_EXPECT_NOT_NULL(test, p)		KUNIT_EXPECT_NOT_NULL_MSG(test, p, NULL)
#define KUNIT_EXPECT_STREQ(test, l, r)		KUNIT_EXPECT_STREQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_STRNEQ(test, l, r)		KUNIT_EXPECT_STRNEQ_MSG(test, l, r, NULL)
#define KUNIT_EXPECT_MEMEQ(test, l, r, n)	KUNIT_EXPECT_MEMEQ_MSG(test, l, r, n, NULL)
#define KUNIT_EXPECT_MEMNEQ(test, l, r, n)	KUNIT_EXPECT_MEMNEQ_MSG(test, l, r, n, NULL)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL(test, p)	KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(test, p, NULL)

#define KUNIT_ASSERT_TRUE(test, c)		KUNIT_ASSERT_TRUE_MSG(test, c, NULL)
#define KUNIT_ASSERT_FALSE(test, c)		KUNIT_ASSERT_FALSE_MSG(test, c, NULL)
#define KUNIT_ASSERT_EQ(test, l, r)		KUNIT_ASSERT_EQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_NE(test, l, r)		KUNIT_ASSERT_NE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_LT(test, l, r)		KUNIT_ASSERT_LT_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_LE(test, l, r)		KUNIT_ASSERT_LE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_GT(test, l, r)		KUNIT_ASSERT_GT_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_GE(test, l, r)		KUNIT_ASSERT_GE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_PTR_EQ(test, l, r)		KUNIT_ASSERT_PTR_EQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_PTR_NE(test, l, r)		KUNIT_ASSERT_PTR_NE_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_NULL(test, p)		KUNIT_ASSERT_NULL_MSG(test, p, NULL)
#define KUNIT_ASSERT_NOT_NULL(test, p)		KUNIT_ASSERT_NOT_NULL_MSG(test, p, NULL)
#define KUNIT_ASSERT_STREQ(test, l, r)		KUNIT_ASSERT_STREQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_STRNEQ(test, l, r)		KUNIT_ASSERT_STRNEQ_MSG(test, l, r, NULL)
#define KUNIT_ASSERT_MEMEQ(test, l, r, n)	KUNIT_ASSERT_MEMEQ_MSG(test, l, r, n, NULL)
#define KUNIT_ASSERT_MEMNEQ(test, l, r, n)	KUNIT_ASSERT_MEMNEQ_MSG(test, l, r, n, NULL)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p)	KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, p, NULL)

#ifdef __cplusplus
}
#endif

#endif
