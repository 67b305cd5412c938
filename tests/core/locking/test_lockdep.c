// SPDX-License-Identifier: MIT
/*
 * Tests of src/core/locking/lockdep.c, the lock validator: this file is compiled
 * with IRQKIT_LOCKDEP, so its spinlocks are checked.  The validator's
 * tables live for the whole process: each test uses locks of its own
 * (distinct initialisation sites), and the test that fills a table and
 * turns the validator off comes last.
 */
#define _GNU_SOURCE
#include "../../harness.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef IRQKIT_LOCKDEP
#error "test_lockdep.c is built with IRQKIT_LOCKDEP"
#endif

/*
 * The handlers and bottom halves are exported, so reports can name them
 * without libdw; the test functions are static, named only with libdw.
 */
#ifdef IRQKIT_TEST_LIBDW
#define assert_log_names(s)	assert_log_contains(s)
#else
#define assert_log_names(s)	do { } while (0)
#endif
struct irqkit_spinlock lockdep_static_lock;
enum irqkit_irqreturn lockdep_hardirq_user(int irq, void *dev_id);
enum irqkit_irqreturn lockdep_hardirq_user_ok(int irq, void *dev_id);
enum irqkit_irqreturn lockdep_hardirq_reader(int irq, void *dev_id);
void lockdep_softirq_user(unsigned long data);
void lockdep_recursion_child(void) __attribute__((noinline));

static struct irqkit_spinlock unsafe_lock, safe_lock, bh_lock;

enum irqkit_irqreturn lockdep_hardirq_user(int irq, void *dev_id)
{
	(void)irq;
	irqkit_spin_lock(dev_id);
	irqkit_spin_unlock(dev_id);
	return IRQKIT_HANDLED;
}

enum irqkit_irqreturn lockdep_hardirq_user_ok(int irq, void *dev_id)
{
	return lockdep_hardirq_user(irq, dev_id);
}

static void test_a_lock_taken_in_a_handler_and_with_interrupts_on(void **state)
{
	(void)state;
	irqkit_spin_lock_init(&unsafe_lock);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), lockdep_hardirq_user, 0, "dev",
					    &unsafe_lock), 0);
	irqkit_sw_raise(T_EDGE(1));			/* taken in hardirq context */
	assert_log_lacks("inconsistent");
	irqkit_spin_lock(&unsafe_lock);			/* process context, interrupts on */
	irqkit_spin_unlock(&unsafe_lock);
	assert_log_contains("WARNING: inconsistent lock state");
	assert_log_contains("inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage.");
	assert_log_contains("[HC0[0]:SC0[0]:HE1:SE1] takes:");
	assert_log_contains("(&unsafe_lock), at: ");
	assert_log_names("(&unsafe_lock), at: test_a_lock_taken_in_a_handler_and_with_interrupts_on");
	assert_log_contains("{IN-HARDIRQ-W} state was registered at:");
	assert_log_contains("lockdep_hardirq_user");
	assert_log_contains(" *** DEADLOCK ***");
	/* reported once per class */
	log_clear();
	irqkit_spin_lock(&unsafe_lock);
	irqkit_spin_unlock(&unsafe_lock);
	assert_log_lacks("inconsistent");
}

static void test_the_same_with_irqsave_is_clean(void **state)
{
	unsigned long flags;

	(void)state;
	irqkit_spin_lock_init(&safe_lock);
	flags = irqkit_spin_lock_irqsave(&safe_lock);	/* first with interrupts off... */
	irqkit_spin_unlock_irqrestore(&safe_lock, flags);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), lockdep_hardirq_user_ok, 0, "dev",
					    &safe_lock), 0);
	irqkit_sw_raise(T_EDGE(2));			/* ...then in the handler */
	flags = irqkit_spin_lock_irqsave(&safe_lock);
	irqkit_spin_unlock_irqrestore(&safe_lock, flags);
	assert_log_lacks("inconsistent");
	/* the other order: process context first, with interrupts on, then the handler */
	irqkit_free_irq(T_EDGE(2), &safe_lock);
	irqkit_spin_lock(&lockdep_static_lock);		/* a static lock: a class of its own */
	irqkit_spin_unlock(&lockdep_static_lock);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), lockdep_hardirq_user_ok, 0, "dev",
					    &lockdep_static_lock), 0);
	irqkit_sw_raise(T_EDGE(2));
	assert_log_contains("inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage.");
	assert_log_contains("[HC1[1]:SC0[0]:HE0:SE1] takes:");
	assert_log_contains("(lockdep_static_lock), at: lockdep_hardirq_user");
}

static struct irqkit_tasklet bh_tasklet;

void lockdep_softirq_user(unsigned long data)
{
	struct irqkit_spinlock *l = (struct irqkit_spinlock *)data;

	irqkit_spin_lock(l);
	irqkit_spin_unlock(l);
}

static void test_a_lock_taken_in_a_tasklet_and_with_bottom_halves_on(void **state)
{
	(void)state;
	irqkit_spin_lock_init(&bh_lock);
	irqkit_tasklet_init(&bh_tasklet, lockdep_softirq_user, (unsigned long)&bh_lock);
	irqkit_local_bh_disable();
	irqkit_tasklet_schedule(&bh_tasklet);
	irqkit_local_bh_enable();			/* the tasklet runs: softirq context */
	irqkit_spin_lock_bh(&bh_lock);			/* the fix: bottom halves off */
	irqkit_spin_unlock_bh(&bh_lock);
	assert_log_lacks("inconsistent");
	irqkit_spin_lock(&bh_lock);			/* the bug: a tasklet may come now */
	irqkit_spin_unlock(&bh_lock);
	assert_log_contains("inconsistent {IN-SOFTIRQ-W} -> {SOFTIRQ-ON-W} usage.");
	assert_log_contains("lockdep_softirq_user");
	irqkit_tasklet_kill(&bh_tasklet);
}

static void test_two_locks_taken_in_both_orders(void **state)
{
	static struct irqkit_spinlock a, b, c, d;

	(void)state;
	irqkit_spin_lock_init(&a);
	irqkit_spin_lock_init(&b);
	irqkit_spin_lock_init(&c);
	irqkit_spin_lock_init(&d);
	for (int i = 0; i < 2; i++) {			/* one order, twice: fine */
		irqkit_spin_lock(&c);
		irqkit_spin_lock(&d);
		irqkit_spin_unlock(&d);
		irqkit_spin_unlock(&c);
	}
	irqkit_spin_lock(&a);
	irqkit_spin_lock(&b);
	irqkit_spin_unlock(&b);
	irqkit_spin_unlock(&a);
	assert_log_lacks("circular");
	irqkit_spin_lock(&b);				/* never deadlocks here, on one thread */
	irqkit_spin_lock(&a);
	irqkit_spin_unlock(&a);
	irqkit_spin_unlock(&b);
	assert_log_contains("WARNING: possible circular locking dependency detected");
	assert_log_contains("is trying to acquire lock:");
	assert_log_contains(" (&a), at: ");
	assert_log_names(" (&a), at: test_two_locks_taken_in_both_orders");
	assert_log_contains("but task is already holding lock:");
	assert_log_contains(" (&b), at: ");
	assert_log_contains("which lock already depends on the new lock.");
	assert_log_contains("-> #1 (&b):");
	assert_log_contains(" *** DEADLOCK ***");
	assert_int_equal(log_count("possible circular"), 1);
}

static void test_two_locks_of_one_class_nested(void **state)
{
	static struct irqkit_spinlock pair[2];

	(void)state;
	for (int i = 0; i < 2; i++)
		irqkit_spin_lock_init(&pair[i]);	/* one site: one class */
	irqkit_spin_lock(&pair[0]);
	irqkit_spin_lock(&pair[1]);
	irqkit_spin_unlock(&pair[1]);
	irqkit_spin_unlock(&pair[0]);
	assert_log_contains("WARNING: possible recursive locking detected");
	assert_log_contains(" (&pair[i]), at: ");
	assert_log_names(" (&pair[i]), at: test_two_locks_of_one_class_nested");
}

static void test_bad_releases(void **state)
{
	static struct irqkit_spinlock free_lock, foreign;

	(void)state;
	irqkit_spin_lock_init(&free_lock);
	irqkit_preempt_disable();			/* the unlock's preempt_enable pairs with it */
	irqkit_spin_unlock(&free_lock);
	assert_log_contains("BUG: spinlock already unlocked on CPU#0");
	irqkit_spin_lock_init(&foreign);
	__atomic_store_n(&foreign.locked, 1, __ATOMIC_RELAXED);	/* taken behind the validator's back */
	irqkit_preempt_disable();
	irqkit_spin_unlock(&foreign);
	assert_log_contains("WARNING: bad unlock balance detected!");
	assert_log_contains("but there are no more locks to release!");
}

static void test_assertions(void **state)
{
	static struct irqkit_spinlock held_lock;
	unsigned long flags;

	(void)state;
	irqkit_spin_lock_init(&held_lock);
	irqkit_lockdep_assert_held(&held_lock);
	assert_log_contains("WARNING: lockdep_assert_held() failed: lock");
	assert_log_names("not held at test_assertions");
	log_clear();
	flags = irqkit_spin_lock_irqsave(&held_lock);
	irqkit_lockdep_assert_held(&held_lock);
	irqkit_lockdep_assert_irqs_disabled();
	assert_true(irqkit_lockdep_is_held(&held_lock));
	irqkit_spin_unlock_irqrestore(&held_lock, flags);
	assert_false(irqkit_lockdep_is_held(&held_lock));
	assert_log_lacks("WARNING");
	irqkit_lockdep_assert_irqs_disabled();
	assert_log_contains("WARNING: lockdep_assert_irqs_disabled() failed: interrupts on at ");
	assert_log_names("WARNING: lockdep_assert_irqs_disabled() failed: interrupts on at test_assertions");
}

enum irqkit_irqreturn lockdep_hardirq_reader(int irq, void *dev_id)
{
	(void)irq;
	irqkit_read_lock(dev_id);
	irqkit_read_unlock(dev_id);
	return IRQKIT_HANDLED;
}

/* Reader-writer locks: readers share, a writer with interrupts on does not. */
static void test_reader_writer_locks(void **state)
{
	static struct irqkit_rwlock shared, table;

	(void)state;
	irqkit_rwlock_init(&shared);
	irqkit_rwlock_init(&table);
	assert_int_equal(irqkit_request_irq(T_EDGE(3), lockdep_hardirq_reader, 0, "r", &shared), 0);
	irqkit_sw_raise(T_EDGE(3));			/* read in hardirq context */
	irqkit_read_lock(&shared);			/* read with interrupts on: fine */
	irqkit_read_lock(&shared);			/* and again: readers nest */
	irqkit_read_unlock(&shared);
	irqkit_read_unlock(&shared);
	assert_log_lacks("inconsistent");
	assert_log_lacks("recursi");
	irqkit_write_lock(&shared);			/* a writer with interrupts on: the reader in */
	irqkit_write_unlock(&shared);			/* the handler would spin on this CPU */
	assert_log_contains("inconsistent {IN-HARDIRQ-R} -> {HARDIRQ-ON-W} usage.");
	assert_log_contains(" (&shared), at: ");
	/* the irq-safe writer is clean */
	assert_int_equal(irqkit_request_irq(T_EDGE(4), lockdep_hardirq_reader, 0, "r", &table), 0);
	irqkit_sw_raise(T_EDGE(4));
	log_clear();
	{
		unsigned long flags = irqkit_write_lock_irqsave(&table);

		irqkit_write_unlock_irqrestore(&table, flags);
	}
	assert_log_lacks("inconsistent");
	irqkit_preempt_disable();
	irqkit_write_unlock(&table);			/* not locked */
	assert_log_contains("BUG: rwlock already unlocked on CPU#0");
}

/* Mutexes (the core's struct mutex) join in: two taken in both orders. */
static void test_mutexes_taken_in_both_orders(void **state)
{
	static struct irqkit_mutex ma, mb;

	(void)state;
	irqkit_mutex_init(&ma);
	irqkit_mutex_init(&mb);
	irqkit_mutex_lock(&ma);
	irqkit_mutex_lock(&mb);
	irqkit_mutex_unlock(&mb);
	irqkit_mutex_unlock(&ma);
	assert_log_lacks("circular");
	irqkit_mutex_lock(&mb);
	irqkit_mutex_lock(&ma);
	irqkit_mutex_unlock(&ma);
	irqkit_mutex_unlock(&mb);
	assert_log_contains("WARNING: possible circular locking dependency detected");
	assert_log_contains(" (mutex@");
	assert_log_lacks("bad unlock balance");
	assert_false(irqkit_lockdep_is_held(&ma));
}

void lockdep_recursion_child(void)
{
	static struct irqkit_spinlock twice;

	logcap.echo = true;	/* the report to stderr: the child ends in it */
	irqkit_spin_lock_init(&twice);
	irqkit_spin_lock(&twice);
	irqkit_spin_lock(&twice);			/* would spin for ever */
	_exit(3);
}

static void test_the_same_lock_twice_stops_the_program(void **state)
{
	char out[4096];
	int status;

	(void)state;
	status = in_child(lockdep_recursion_child, out, sizeof(out));
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	assert_non_null(strstr(out, "BUG: spinlock recursion on CPU#"));
	assert_non_null(strstr(out, " lock: &twice, first taken at "));
	assert_non_null(strstr(out, "again at lockdep_recursion_child"));
}

static void env_child(void)
{
	static struct irqkit_spinlock x, y;

	setenv("IRQKIT_LOCKDEP", "0", 1);
	if (det_setup(NULL) || irqkit_lockdep_enabled())
		_exit(1);
	irqkit_spin_lock_init(&x);
	irqkit_spin_lock_init(&y);
	irqkit_spin_lock(&x);
	irqkit_spin_lock(&y);
	irqkit_spin_unlock(&y);
	irqkit_spin_unlock(&x);
	irqkit_spin_lock(&y);
	irqkit_spin_lock(&x);
	irqkit_spin_unlock(&x);
	irqkit_spin_unlock(&y);
	_exit(log_contains("circular") ? 2 : 0);
}

static void test_the_environment_turns_it_off(void **state)
{
	char out[4096];
	int status;

	(void)state;
	status = in_child(env_child, out, sizeof(out));
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* Last: it turns the validator off for the rest of the process. */
static void test_a_full_table_turns_the_validator_off_once(void **state)
{
	struct irqkit_spinlock *many = calloc(2000, sizeof(*many));

	(void)state;
	assert_non_null(many);
	for (int i = 0; i < 2000; i++) {		/* uninitialised: a class each */
		irqkit_spin_lock(&many[i]);
		irqkit_spin_unlock(&many[i]);
	}
	assert_int_equal(log_count("MAX_LOCKDEP_KEYS too low (512)! turning off the locking correctness validator."), 1);
	assert_false(irqkit_lockdep_enabled());
	free(many);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, det_setup, det_teardown)
		T(test_a_lock_taken_in_a_handler_and_with_interrupts_on),
		T(test_the_same_with_irqsave_is_clean),
		T(test_a_lock_taken_in_a_tasklet_and_with_bottom_halves_on),
		T(test_two_locks_taken_in_both_orders),
		T(test_two_locks_of_one_class_nested),
		T(test_bad_releases),
		T(test_assertions),
		T(test_reader_writer_locks),
		T(test_mutexes_taken_in_both_orders),
		cmocka_unit_test(test_the_same_lock_twice_stops_the_program),
		cmocka_unit_test(test_the_environment_turns_it_off),
		T(test_a_full_table_turns_the_validator_off_once),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
