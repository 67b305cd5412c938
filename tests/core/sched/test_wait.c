// SPDX-License-Identifier: MIT
/*
 * Tests of the waits around an interrupt: src/core/sched/sched.c (task state,
 * schedule_timeout, wake_up_process), src/core/sched/wait.c (wait queues),
 * src/core/sched/completion.c and src/core/locking/semaphore.c (semaphores, mutexes).
 */
#define _GNU_SOURCE
#include "../../harness.h"

#include <unistd.h>

#define MS	1000000ull

static struct irqkit_wait_queue_head wq;
static atomic_int flag;

static int setup(void **state)
{
	atomic_store(&flag, 0);
	irqkit_init_waitqueue_head(&wq);
	return thr_setup(state);
}

/* ---- a wait ended by an interrupt ------------------------------------------------- */

static atomic_bool woke_in_hardirq;

static enum irqkit_irqreturn waking_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	atomic_store(&woke_in_hardirq, irqkit_in_hardirq());
	atomic_store(&flag, 1);
	irqkit_wake_up(&wq);
	return IRQKIT_HANDLED;
}

static void *raise_later(void *arg)
{
	usleep(20000);
	irqkit_sw_raise((unsigned int)(uintptr_t)arg);
	return NULL;
}

static void test_wait_event_is_ended_by_a_handler(void **state)
{
	pthread_t th;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), waking_handler, 0, "waker", &flag), 0);
	pthread_create(&th, NULL, raise_later, (void *)(uintptr_t)T_EDGE(1));
	irqkit_wait_event(wq, atomic_load(&flag));
	assert_int_equal(atomic_load(&flag), 1);
	assert_true(atomic_load(&woke_in_hardirq));
	assert_int_equal(irqkit_current()->state, IRQKIT_TASK_RUNNING);
	pthread_join(th, NULL);
	irqkit_free_irq(T_EDGE(1), &flag);
}

static void test_wait_event_timeout_returns_the_time_left_or_0(void **state)
{
	unsigned long j0 = irqkit_jiffies();
	long left;
	pthread_t th;

	(void)state;
	left = irqkit_wait_event_timeout(wq, atomic_load(&flag), 5);
	assert_int_equal(left, 0);				/* ran out */
	assert_true(irqkit_jiffies() - j0 >= 5);
	assert_int_equal(irqkit_wait_event_timeout(wq, 1, 0), 1);	/* true at once: at least 1 */
	assert_int_equal(irqkit_wait_event_timeout(wq, 1, 7), 7);

	assert_int_equal(irqkit_request_irq(T_EDGE(1), waking_handler, 0, "waker", &flag), 0);
	pthread_create(&th, NULL, raise_later, (void *)(uintptr_t)T_EDGE(1));
	left = irqkit_wait_event_interruptible_timeout(wq, atomic_load(&flag), 10 * irqkit_hz());
	assert_true(left > 0 && left < 10 * (long)irqkit_hz());
	pthread_join(th, NULL);
	irqkit_free_irq(T_EDGE(1), &flag);
}

/* ---- exclusive and non-exclusive sleepers --------------------------------------------- */

static atomic_int queued, woken;

static void *exclusive_sleeper(void *arg)
{
	struct irqkit_wait_queue_entry w;

	(void)arg;
	irqkit_init_wait_entry(&w, 0);
	irqkit_prepare_to_wait_exclusive(&wq, &w, IRQKIT_TASK_INTERRUPTIBLE);
	atomic_fetch_add(&queued, 1);
	irqkit_schedule();
	irqkit_finish_wait(&wq, &w);
	atomic_fetch_add(&woken, 1);
	return NULL;
}

static void *plain_sleeper(void *arg)
{
	struct irqkit_wait_queue_entry w;

	(void)arg;
	irqkit_init_wait_entry(&w, 0);
	irqkit_prepare_to_wait(&wq, &w, IRQKIT_TASK_UNINTERRUPTIBLE);
	atomic_fetch_add(&queued, 1);
	irqkit_schedule();
	irqkit_finish_wait(&wq, &w);
	atomic_fetch_add(&woken, 1);
	return NULL;
}

static void test_wake_up_wakes_every_plain_sleeper_and_one_exclusive(void **state)
{
	pthread_t th[5];

	(void)state;
	atomic_store(&queued, 0);
	atomic_store(&woken, 0);
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, exclusive_sleeper, NULL);
	for (int i = 3; i < 5; i++)
		pthread_create(&th[i], NULL, plain_sleeper, NULL);
	assert_true(wait_until(atomic_load(&queued) == 5, 5000));
	irqkit_wake_up(&wq);
	assert_true(wait_until(atomic_load(&woken) == 3, 5000));	/* 2 plain + 1 exclusive */
	usleep(50000);
	assert_int_equal(atomic_load(&woken), 3);
	irqkit_wake_up_interruptible(&wq);				/* one more exclusive */
	assert_true(wait_until(atomic_load(&woken) == 4, 5000));
	irqkit_wake_up_all(&wq);
	assert_true(wait_until(atomic_load(&woken) == 5, 5000));
	for (int i = 0; i < 5; i++)
		pthread_join(th[i], NULL);
	assert_false(irqkit_waitqueue_active(&wq));
}

/* A wake-up only wakes a sleeper whose state is in its mode. */
static void test_wake_up_interruptible_leaves_uninterruptible_sleepers(void **state)
{
	pthread_t th;

	(void)state;
	atomic_store(&queued, 0);
	atomic_store(&woken, 0);
	pthread_create(&th, NULL, plain_sleeper, NULL);		/* UNINTERRUPTIBLE */
	assert_true(wait_until(atomic_load(&queued) == 1, 5000));
	irqkit_wake_up_interruptible(&wq);
	usleep(50000);
	assert_int_equal(atomic_load(&woken), 0);
	irqkit_wake_up(&wq);
	assert_true(wait_until(atomic_load(&woken) == 1, 5000));
	pthread_join(th, NULL);
}

/* ---- no wake-up is lost: a ping-pong through wait queues, one side in hardirq ---------- */

static atomic_int ball;
static struct irqkit_wait_queue_head wq_ping, wq_pong;

static enum irqkit_irqreturn pong_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	atomic_fetch_add(&ball, 1);		/* odd -> even */
	irqkit_wake_up(&wq_pong);
	return IRQKIT_HANDLED;
}

static void *pinger(void *arg)
{
	int rounds = (int)(intptr_t)arg;

	for (int i = 0; i < rounds; i++) {
		irqkit_wait_event(wq_ping, atomic_load(&ball) == 2 * i + 1);
		irqkit_sw_raise(T_EDGE(2));		/* the handler answers */
	}
	return NULL;
}

static void test_ping_pong_between_a_task_and_a_handler_loses_no_wake_up(void **state)
{
	int rounds = stress_scale(20000);
	pthread_t th;

	(void)state;
	atomic_store(&ball, 0);
	irqkit_init_waitqueue_head(&wq_ping);
	irqkit_init_waitqueue_head(&wq_pong);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), pong_handler, 0, "pong", &ball), 0);
	pthread_create(&th, NULL, pinger, (void *)(intptr_t)rounds);
	for (int i = 0; i < rounds; i++) {
		irqkit_wait_event(wq_pong, atomic_load(&ball) == 2 * i);
		atomic_fetch_add(&ball, 1);		/* even -> odd */
		irqkit_wake_up(&wq_ping);
	}
	pthread_join(th, NULL);
	irqkit_wait_event(wq_pong, atomic_load(&ball) == 2 * rounds);
	assert_int_equal(atomic_load(&ball), 2 * rounds);
	irqkit_free_irq(T_EDGE(2), &ball);
}

/* ---- task state and schedule_timeout ------------------------------------------------ */

static struct irqkit_task *sleeper_task;
static atomic_long sleeper_left;

static void *timed_sleeper(void *arg)
{
	(void)arg;
	sleeper_task = irqkit_current();
	irqkit_set_current_state(IRQKIT_TASK_INTERRUPTIBLE);
	atomic_store(&queued, 1);
	atomic_store(&sleeper_left, irqkit_schedule_timeout(60 * (long)irqkit_hz()));
	return NULL;
}

static void test_wake_up_process_ends_schedule_timeout_early(void **state)
{
	pthread_t th;

	(void)state;
	atomic_store(&queued, 0);
	atomic_store(&sleeper_left, -1);
	pthread_create(&th, NULL, timed_sleeper, NULL);
	assert_true(wait_until(atomic_load(&queued), 5000));
	usleep(10000);
	while (!irqkit_wake_up_process(sleeper_task))	/* 1 once it was asleep (or about to be) */
		usleep(1000);
	pthread_join(th, NULL);
	assert_true(atomic_load(&sleeper_left) > 0);
	assert_true(atomic_load(&sleeper_left) < 60 * (long)irqkit_hz());
	assert_int_equal(irqkit_wake_up_process(sleeper_task), 0);	/* running: nothing to do */
}

static void test_schedule_timeout_sleeps_and_reports_bad_values(void **state)
{
	unsigned long j0 = irqkit_jiffies();

	(void)state;
	assert_int_equal(irqkit_schedule_timeout_uninterruptible(3), 0);
	assert_true(irqkit_jiffies() - j0 >= 3);
	assert_int_equal(irqkit_current()->state, IRQKIT_TASK_RUNNING);
	irqkit_set_current_state(IRQKIT_TASK_INTERRUPTIBLE);
	assert_int_equal(irqkit_schedule_timeout(-1), 0);
	assert_log_contains("schedule_timeout: wrong timeout value ffffffffffffffff");
	assert_int_equal(irqkit_current()->state, IRQKIT_TASK_RUNNING);
	/* schedule() while RUNNING only yields */
	irqkit_schedule();
	assert_true(irqkit_current()->pid > 0);
}

/* ---- sleeping where one must not -------------------------------------------------------- */

static void sleeping_hook(struct tdev *dev, int irq)
{
	(void)dev;
	(void)irq;
	irqkit_wait_event_timeout(wq, 0, 1);
}

static void test_a_wait_in_a_handler_is_reported(void **state)
{
	struct tdev dev;

	(void)state;
	tdev_init(&dev);
	dev.hook = sleeping_hook;
	atomic_store(&dev.status, 1);
	assert_int_equal(irqkit_request_irq(T_EDGE(3), tdev_handler, 0, "sleepy", &dev), 0);
	irqkit_sw_raise(T_EDGE(3));
	assert_true(wait_until(atomic_load(&dev.calls) == 1, 5000));
	assert_true(wait_until(log_contains("BUG: scheduling while atomic"), 5000));
	assert_log_contains("BUG: sleeping function called from invalid context");
	irqkit_free_irq(T_EDGE(3), &dev);
}

/* A bound thread sleeping with interrupts off lets its CPU's handlers run (schedule() turns them on). */
static void test_a_sleep_with_interrupts_off_does_not_keep_the_cpu(void **state)
{
	pthread_t th;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), waking_handler, 0, "waker", &flag), 0);
	assert_int_equal(irqkit_thread_bind(0), 0);
	pthread_create(&th, NULL, raise_later, (void *)(uintptr_t)T_EDGE(1));
	irqkit_local_irq_disable();
	irqkit_wait_event(wq, atomic_load(&flag));		/* the handler runs on CPU 0 */
	assert_false(irqkit_irqs_disabled());			/* as Linux: back with them on */
	pthread_join(th, NULL);
	irqkit_thread_unbind();
	irqkit_free_irq(T_EDGE(1), &flag);
}

/* ---- completions ---------------------------------------------------------------------- */

static struct irqkit_completion done;

static enum irqkit_irqreturn completing_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	irqkit_complete(&done);
	return IRQKIT_HANDLED;
}

static void *complete_waiter(void *arg)
{
	(void)arg;
	irqkit_wait_for_completion(&done);
	atomic_fetch_add(&woken, 1);
	return NULL;
}

static void test_completion_counts_and_wakes(void **state)
{
	pthread_t th[3];

	(void)state;
	irqkit_init_completion(&done);
	assert_false(irqkit_completion_done(&done));
	assert_int_equal(irqkit_wait_for_completion_timeout(&done, 2), 0);
	irqkit_complete(&done);
	irqkit_complete(&done);				/* two waits return at once */
	assert_int_equal(irqkit_wait_for_completion_timeout(&done, 2), 2);
	assert_int_equal(irqkit_wait_for_completion_interruptible(&done), 0);
	assert_false(irqkit_try_wait_for_completion(&done));

	/* from a handler */
	assert_int_equal(irqkit_request_irq(T_EDGE(1), completing_handler, 0, "done", &done), 0);
	{
		pthread_t r;

		pthread_create(&r, NULL, raise_later, (void *)(uintptr_t)T_EDGE(1));
		assert_true(irqkit_wait_for_completion_timeout(&done, 10 * irqkit_hz()) > 0);
		pthread_join(r, NULL);
	}
	irqkit_free_irq(T_EDGE(1), &done);

	/* complete_all: every waiter, and later ones, until reinit */
	atomic_store(&woken, 0);
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, complete_waiter, NULL);
	usleep(20000);
	irqkit_complete_all(&done);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(atomic_load(&woken), 3);
	irqkit_wait_for_completion(&done);
	assert_true(irqkit_completion_done(&done));
	irqkit_reinit_completion(&done);
	assert_false(irqkit_completion_done(&done));
}

static void test_uninitialised_completion_is_reported_and_works(void **state)
{
	struct irqkit_completion zero;

	(void)state;
	memset(&zero, 0, sizeof(zero));
	irqkit_complete(&zero);
	assert_log_contains("complete() on a completion");
	assert_log_contains("that was never initialised");
	assert_int_equal(irqkit_wait_for_completion_timeout(&zero, 1), 1);
}

/* ---- semaphores and mutexes ----------------------------------------------------------- */

static struct irqkit_semaphore sem;
static struct irqkit_mutex mtx;
static long shared_counter;
static atomic_int inside;
static atomic_bool overlap;

static void *mutex_worker(void *arg)
{
	int n = (int)(intptr_t)arg;

	for (int i = 0; i < n; i++) {
		irqkit_mutex_lock(&mtx);
		if (atomic_fetch_add(&inside, 1) != 0)
			atomic_store(&overlap, true);
		shared_counter++;
		atomic_fetch_sub(&inside, 1);
		irqkit_mutex_unlock(&mtx);
	}
	return NULL;
}

static void test_mutex_excludes_across_threads(void **state)
{
	int n = stress_scale(20000);
	pthread_t th[4];

	(void)state;
	irqkit_mutex_init(&mtx);
	shared_counter = 0;
	atomic_store(&overlap, false);
	for (int i = 0; i < 4; i++)
		pthread_create(&th[i], NULL, mutex_worker, (void *)(intptr_t)n);
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	assert_false(atomic_load(&overlap));
	assert_int_equal(shared_counter, 4L * n);
	assert_false(irqkit_mutex_is_locked(&mtx));
}

static void *mutex_unlocker(void *arg)
{
	irqkit_mutex_unlock(arg);
	return NULL;
}

static void test_mutex_misuse_is_reported_not_hung(void **state)
{
	pthread_t th;

	(void)state;
	irqkit_mutex_init(&mtx);
	irqkit_mutex_lock(&mtx);
	irqkit_mutex_lock(&mtx);			/* Linux would sleep for ever */
	assert_log_contains("already holds mutex");
	assert_int_equal(irqkit_mutex_trylock(&mtx), 0);
	pthread_create(&th, NULL, mutex_unlocker, &mtx);	/* not the owner */
	pthread_join(th, NULL);
	assert_log_contains("DEBUG_LOCKS_WARN_ON(__owner_task(owner) != current)");
	assert_false(irqkit_mutex_is_locked(&mtx));
	assert_int_equal(irqkit_mutex_trylock(&mtx), 1);
	irqkit_mutex_unlock(&mtx);
}

static void *sem_downer(void *arg)
{
	(void)arg;
	irqkit_down(&sem);
	atomic_fetch_add(&woken, 1);
	return NULL;
}

static void test_semaphore_counts_hands_over_and_times_out(void **state)
{
	pthread_t th[2];

	(void)state;
	irqkit_sema_init(&sem, 2);
	assert_int_equal(irqkit_down_trylock(&sem), 0);
	assert_int_equal(irqkit_down_interruptible(&sem), 0);
	assert_int_equal(irqkit_down_trylock(&sem), 1);		/* would sleep */
	assert_int_equal(irqkit_down_timeout(&sem, 2), -IRQKIT_ETIME);
	atomic_store(&woken, 0);
	pthread_create(&th[0], NULL, sem_downer, NULL);
	pthread_create(&th[1], NULL, sem_downer, NULL);
	usleep(20000);
	assert_int_equal(atomic_load(&woken), 0);
	irqkit_up(&sem);
	assert_true(wait_until(atomic_load(&woken) == 1, 5000));
	irqkit_up(&sem);
	assert_true(wait_until(atomic_load(&woken) == 2, 5000));
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	/* up past the initial count is allowed, as in Linux */
	for (int i = 0; i < 5; i++)
		irqkit_up(&sem);
	for (int i = 0; i < 5; i++)
		assert_int_equal(irqkit_down_trylock(&sem), 0);
	assert_int_equal(irqkit_down_trylock(&sem), 1);
}

/* ---- deterministic mode: a timed sleep moves the virtual clock ---------------------- */

static struct irqkit_task *det_sleeper;

static void wake_from_timer(struct irqkit_timer_list *t)
{
	(void)t;
	irqkit_wake_up_process(det_sleeper);
}

static void test_timed_sleep_moves_the_virtual_clock(void **state)
{
	struct irqkit_timer_list tm;
	unsigned long j0;
	long left;

	(void)state;
	thr_teardown(NULL);
	assert_int_equal(det_setup(NULL), 0);
	det_sleeper = irqkit_current();
	j0 = irqkit_jiffies();
	assert_int_equal(irqkit_schedule_timeout_interruptible(10), 0);
	assert_int_equal(irqkit_jiffies() - j0, 10);
	irqkit_timer_setup(&tm, wake_from_timer, 0);
	irqkit_mod_timer(&tm, irqkit_jiffies() + 3);
	j0 = irqkit_jiffies();
	left = irqkit_schedule_timeout_interruptible(10);	/* the timer runs meanwhile, here */
	assert_int_equal(irqkit_jiffies() - j0, 3);
	assert_int_equal(left, 7);
	det_teardown(NULL);
	assert_int_equal(thr_setup(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, thr_teardown)
		T(test_wait_event_is_ended_by_a_handler),
		T(test_wait_event_timeout_returns_the_time_left_or_0),
		T(test_wake_up_wakes_every_plain_sleeper_and_one_exclusive),
		T(test_wake_up_interruptible_leaves_uninterruptible_sleepers),
		T(test_ping_pong_between_a_task_and_a_handler_loses_no_wake_up),
		T(test_wake_up_process_ends_schedule_timeout_early),
		T(test_schedule_timeout_sleeps_and_reports_bad_values),
		T(test_a_wait_in_a_handler_is_reported),
		T(test_a_sleep_with_interrupts_off_does_not_keep_the_cpu),
		T(test_completion_counts_and_wakes),
		T(test_uninitialised_completion_is_reported_and_works),
		T(test_mutex_excludes_across_threads),
		T(test_mutex_misuse_is_reported_not_hung),
		T(test_semaphore_counts_hands_over_and_times_out),
		T(test_timed_sleep_moves_the_virtual_clock),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
