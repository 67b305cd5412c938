// SPDX-License-Identifier: MIT
/*
 * <linux/cleanup.h> in KUnit: guards take their lock where declared and
 * let go on every way out of their scope; __free frees unless the pointer
 * is handed on.
 */
#include <kunit/test.h>

#include <linux/cleanup.h>
#include <linux/interrupt.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

static DEFINE_SPINLOCK(lock);
static DEFINE_RAW_SPINLOCK(raw_lock);
static DEFINE_MUTEX(mtx);

static int guarded_return(bool early)
{
	guard(spinlock_irqsave)(&lock);
	if (early)
		return 1;
	return 2;
}

static void guard_lets_go_on_every_return(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, guarded_return(true), 1);
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&lock));
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	KUNIT_EXPECT_EQ(test, guarded_return(false), 2);
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&lock));
}

static void scoped_guard_holds_for_its_statement(struct kunit *test)
{
	int i;

	scoped_guard(raw_spinlock_irqsave, &raw_lock) {
		KUNIT_EXPECT_TRUE(test, spin_is_locked(&raw_lock));
		KUNIT_EXPECT_TRUE(test, irqs_disabled());
	}
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&raw_lock));
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	for (i = 0; i < 3; i++) {
		scoped_guard(spinlock, &lock) {
			if (i == 1)
				break;		/* leaves the guard's scope only */
		}
		KUNIT_EXPECT_FALSE(test, spin_is_locked(&lock));
	}
	KUNIT_EXPECT_EQ(test, i, 3);
	scoped_guard(mutex, &mtx)
		KUNIT_EXPECT_TRUE(test, mutex_is_locked(&mtx));
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&mtx));
	scoped_guard(irqsave)
		KUNIT_EXPECT_TRUE(test, irqs_disabled());
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
}

static int freed;

DEFINE_FREE(count_kfree, int *, if (_T) { freed++; kfree(_T); })

static int *make(bool keep)
{
	int *p __free(count_kfree) = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!keep)
		return NULL;		/* freed on the way out */
	return_ptr(p);			/* handed on: not freed */
}

static void free_unless_handed_on(struct kunit *test)
{
	int *kept;

	freed = 0;
	KUNIT_EXPECT_NULL(test, make(false));
	KUNIT_EXPECT_EQ(test, freed, 1);
	kept = make(true);
	KUNIT_EXPECT_NOT_NULL(test, kept);
	KUNIT_EXPECT_EQ(test, freed, 1);
	kfree(kept);
}

static struct kunit_case cleanup_cases[] = {
	KUNIT_CASE(guard_lets_go_on_every_return),
	KUNIT_CASE(scoped_guard_holds_for_its_statement),
	KUNIT_CASE(free_unless_handed_on),
	{}
};

static struct kunit_suite cleanup_suite = {
	.name = "linux_cleanup",
	.test_cases = cleanup_cases,
};

kunit_test_suite(cleanup_suite);
