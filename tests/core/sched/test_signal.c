// SPDX-License-Identifier: MIT
/*
 * Signals to tasks (src/core/sched/signal.c) and the sleeps they end, through
 * Linux's names: each interruptible sleep's return value, the killable
 * sleeps, uninterruptible sleeps that do not see signals, kthreads that
 * ignore what they have not allowed, and the program's side.
 */
#define _GNU_SOURCE
#include "../../harness.h"

#include <linux/sched/signal.h>
#include <linux/signal.h>
#include <linux/kthread.h>
#include <linux/interrupt.h>
#include <linux/wait.h>
#include <linux/completion.h>
#include <linux/semaphore.h>
#include <linux/mutex.h>
#include <linux/delay.h>
#include <linux/cpumask.h>

#include <unistd.h>

/* ---- a sleeper thread of the program's own, and its signaller ------------------------ */

typedef long (*sleep_fn)(void *arg);

struct sleeper {
	pthread_t		th;
	sleep_fn		fn;
	void			*arg;
	struct task_struct	*task;		/* its task, once it runs */
	atomic_bool		started;
	atomic_bool		done;
	long			ret;
	bool			pending_after;	/* signal_pending(current) when it returned */
	int			dequeued;	/* kernel_dequeue_signal() then */
};

static void *sleeper_main(void *p)
{
	struct sleeper *s = p;

	s->task = current;
	atomic_store(&s->started, true);
	s->ret = s->fn(s->arg);
	s->pending_after = signal_pending(current);
	s->dequeued = kernel_dequeue_signal();
	atomic_store(&s->done, true);
	return NULL;
}

static void sleeper_start(struct sleeper *s, sleep_fn fn, void *arg)
{
	*s = (struct sleeper){ .fn = fn, .arg = arg };
	pthread_create(&s->th, NULL, sleeper_main, s);
	assert_true(wait_until(atomic_load(&s->started), 5000));
}

/* It sleeps (state S, D or killable) and has not returned. */
static void assert_asleep(struct sleeper *s)
{
	assert_true(wait_until(READ_ONCE(s->task->state) != TASK_RUNNING, 5000));
	usleep(10000);
	assert_false(atomic_load(&s->done));
}

static long sleeper_join(struct sleeper *s)
{
	assert_true(wait_until(atomic_load(&s->done), 10000));
	pthread_join(s->th, NULL);
	return s->ret;
}

/* ---- each interruptible sleep's answer -------------------------------------------------- */

static DECLARE_WAIT_QUEUE_HEAD(wq);
static atomic_int cond;

static long do_wait_event_interruptible(void *arg)
{
	(void)arg;
	return wait_event_interruptible(wq, atomic_load(&cond));
}

static long do_wait_event_interruptible_timeout(void *arg)
{
	(void)arg;
	return wait_event_interruptible_timeout(wq, atomic_load(&cond), 100 * HZ);
}

static struct completion done_c;

static long do_wait_for_completion_interruptible(void *arg)
{
	(void)arg;
	return wait_for_completion_interruptible(&done_c);
}

static long do_wait_for_completion_interruptible_timeout(void *arg)
{
	(void)arg;
	return wait_for_completion_interruptible_timeout(&done_c, 100 * HZ);
}

static struct semaphore sem;

static long do_down_interruptible(void *arg)
{
	(void)arg;
	return down_interruptible(&sem);
}

static DEFINE_MUTEX(mtx);

static long do_mutex_lock_interruptible(void *arg)
{
	long ret;

	(void)arg;
	ret = mutex_lock_interruptible(&mtx);
	if (!ret)
		mutex_unlock(&mtx);
	return ret;
}

static long do_msleep_interruptible(void *arg)
{
	(void)arg;
	return (long)msleep_interruptible(100000);
}

static long do_schedule_timeout_interruptible(void *arg)
{
	(void)arg;
	return schedule_timeout_interruptible(100 * HZ);
}

static long do_schedule_loop(void *arg)
{
	(void)arg;
	/* the loop 2.6 drivers wrote by hand */
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (atomic_load(&cond))
			break;
		if (signal_pending(current)) {
			__set_current_state(TASK_RUNNING);
			return -ERESTARTSYS;
		}
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int setup(void **state)
{
	atomic_store(&cond, 0);
	init_completion(&done_c);
	sema_init(&sem, 0);
	return thr_setup(state);
}

static void check_interrupted(sleep_fn fn, long want)
{
	struct sleeper s;

	sleeper_start(&s, fn, NULL);
	assert_asleep(&s);
	assert_int_equal(send_sig(SIGUSR1, s.task, 0), 0);
	assert_int_equal(sleeper_join(&s), want);
	assert_true(s.pending_after);
	assert_int_equal(s.dequeued, SIGUSR1);
}

static void test_interruptible_sleeps_return_as_linux_does(void **state)
{
	(void)state;
	check_interrupted(do_wait_event_interruptible, -ERESTARTSYS);
	check_interrupted(do_wait_event_interruptible_timeout, -ERESTARTSYS);
	check_interrupted(do_wait_for_completion_interruptible, -ERESTARTSYS);
	check_interrupted(do_wait_for_completion_interruptible_timeout, -ERESTARTSYS);
	check_interrupted(do_down_interruptible, -EINTR);
	check_interrupted(do_schedule_loop, -ERESTARTSYS);
	mutex_lock(&mtx);
	check_interrupted(do_mutex_lock_interruptible, -EINTR);
	assert_true(mutex_is_locked(&mtx));	/* still the holder's */
	mutex_unlock(&mtx);
	assert_false(mutex_is_locked(&mtx));	/* the interrupted waiter did not take it */
}

static void test_timed_interruptible_sleeps_return_the_time_left(void **state)
{
	struct sleeper s;

	(void)state;
	sleeper_start(&s, do_msleep_interruptible, NULL);
	assert_asleep(&s);
	send_sig(SIGINT, s.task, 0);
	assert_true(sleeper_join(&s) > 90000);		/* milliseconds left */
	sleeper_start(&s, do_schedule_timeout_interruptible, NULL);
	assert_asleep(&s);
	send_sig(SIGINT, s.task, 0);
	assert_true(sleeper_join(&s) > 90 * HZ);	/* jiffies left */
}

static void test_a_pending_signal_ends_the_sleep_before_it_begins(void **state)
{
	(void)state;
	assert_int_equal(send_sig(SIGUSR2, current, 0), 0);
	assert_true(signal_pending(current));
	assert_int_equal(wait_event_interruptible(wq, atomic_load(&cond)), -ERESTARTSYS);
	assert_int_equal(down_interruptible(&sem), -EINTR);
	assert_int_equal(msleep_interruptible(50), 51);	/* not slept: all of it left, as Linux */
	/* a true condition wins over the signal */
	atomic_store(&cond, 1);
	assert_int_equal(wait_event_interruptible(wq, atomic_load(&cond)), 0);
	/* an uninterruptible sleep does not see it */
	assert_int_equal(wait_event_timeout(wq, 0, 2), 0);
	assert_int_equal(kernel_dequeue_signal(), SIGUSR2);
	assert_false(signal_pending(current));
	assert_int_equal(kernel_dequeue_signal(), 0);
}

/* ---- killable and uninterruptible sleeps --------------------------------------------------- */

static long do_wait_event_killable(void *arg)
{
	(void)arg;
	return wait_event_killable(wq, atomic_load(&cond));
}

static long do_down_killable(void *arg)
{
	(void)arg;
	return down_killable(&sem);
}

static long do_wait_for_completion_killable(void *arg)
{
	(void)arg;
	return wait_for_completion_killable(&done_c);
}

static long do_wait_event(void *arg)
{
	(void)arg;
	wait_event(wq, atomic_load(&cond));
	return 0;
}

static void check_killable(sleep_fn fn, long want)
{
	struct sleeper s;

	sleeper_start(&s, fn, NULL);
	assert_asleep(&s);
	send_sig(SIGINT, s.task, 0);		/* not fatal: it sleeps on */
	assert_asleep(&s);
	send_sig(SIGKILL, s.task, 0);
	assert_int_equal(sleeper_join(&s), want);
	assert_int_equal(s.dequeued, SIGINT);	/* both pending; the lowest first */
}

static void test_killable_sleeps_see_only_sigkill(void **state)
{
	(void)state;
	check_killable(do_wait_event_killable, -ERESTARTSYS);
	check_killable(do_down_killable, -EINTR);
	check_killable(do_wait_for_completion_killable, -ERESTARTSYS);
}

static void test_uninterruptible_sleep_sees_the_signal_only_after_it_wakes(void **state)
{
	struct sleeper s;

	(void)state;
	sleeper_start(&s, do_wait_event, NULL);
	assert_asleep(&s);
	send_sig(SIGKILL, s.task, 0);
	send_sig(SIGINT, s.task, 0);
	assert_asleep(&s);
	atomic_store(&cond, 1);
	wake_up(&wq);
	assert_int_equal(sleeper_join(&s), 0);
	assert_true(s.pending_after);		/* there all along, seen now */
	assert_int_equal(s.dequeued, SIGINT);	/* the lowest first */
}

/* ---- kthreads: only what they allowed ------------------------------------------------------- */

struct kt_sleep {
	int		allow;		/* a signal to allow first, or 0 */
	atomic_int	woke;		/* the sleep returned */
	long		ret;
	int		dequeued;
};

static int kt_sleeper(void *data)
{
	struct kt_sleep *k = data;

	if (k->allow)
		allow_signal(k->allow);
	k->ret = wait_event_interruptible(wq, atomic_load(&cond) || kthread_should_stop());
	k->dequeued = kernel_dequeue_signal();
	atomic_store(&k->woke, 1);
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(1);
	return 0;
}

static void test_kthread_ignores_a_signal_it_has_not_allowed(void **state)
{
	struct kt_sleep k = { 0 };
	struct task_struct *t;

	(void)state;
	t = kthread_run(kt_sleeper, &k, "kt-deaf");
	assert_true(wait_until(READ_ONCE(t->state) == TASK_INTERRUPTIBLE, 5000));
	assert_int_equal(send_sig(SIGUSR1, t, 0), 0);	/* accepted, and dropped */
	assert_int_equal(send_sig(SIGKILL, t, 0), 0);	/* kthreads cannot be killed */
	usleep(20000);
	assert_int_equal(atomic_load(&k.woke), 0);
	assert_false(signal_pending(t));
	/* force_sig gets through what send_sig does not (in this era's form, to a task) */
	assert_int_equal(irqkit_force_sig(SIGUSR1, t), 0);
	assert_true(wait_until(atomic_load(&k.woke), 5000));
	assert_int_equal(k.ret, -ERESTARTSYS);
	assert_int_equal(k.dequeued, SIGUSR1);
	assert_int_equal(kthread_stop(t), 0);
}

static void test_kthread_takes_an_allowed_signal(void **state)
{
	struct kt_sleep k = { .allow = SIGTERM };
	struct task_struct *t;

	(void)state;
	t = kthread_run(kt_sleeper, &k, "kt-hears");
	assert_true(wait_until(READ_ONCE(t->state) == TASK_INTERRUPTIBLE, 5000));
	assert_int_equal(send_sig(SIGTERM, t, 0), 0);
	assert_true(wait_until(atomic_load(&k.woke), 5000));
	assert_int_equal(k.ret, -ERESTARTSYS);
	assert_int_equal(k.dequeued, SIGTERM);
	assert_int_equal(kthread_stop(t), 0);
}

static int kt_deaf_forever(void *data)
{
	long *ret = data;

	/* a wait that never tests kthread_should_stop(): only the stop's notice ends it */
	*ret = wait_event_interruptible(wq, 0);
	return 11;
}

static void test_kthread_stopped_while_sleeping_interruptibly(void **state)
{
	struct task_struct *t;
	long ret = 1;

	(void)state;
	t = kthread_run(kt_deaf_forever, &ret, "kt-stopme");
	assert_true(wait_until(READ_ONCE(t->state) == TASK_INTERRUPTIBLE, 5000));
	assert_int_equal(kthread_stop(t), 11);
	assert_int_equal(ret, -ERESTARTSYS);
}

/* ---- bad input and the program's side --------------------------------------------------------- */

static void *register_and_end(void *arg)
{
	*(struct task_struct **)arg = current;
	return NULL;
}

static void test_send_sig_bad_input(void **state)
{
	struct task_struct *gone;
	pthread_t th;

	(void)state;
	assert_int_equal(send_sig(0, current, 0), -EINVAL);
	assert_int_equal(send_sig(65, current, 0), -EINVAL);
	assert_int_equal(send_sig(-1, current, 0), -EINVAL);
	pthread_create(&th, NULL, register_and_end, &gone);
	pthread_join(th, NULL);
	assert_int_equal(send_sig(SIGINT, gone, 0), -ESRCH);	/* its thread ended */
	assert_int_equal(send_sig(SIGINT, (struct task_struct *)&th, 0), -ESRCH);
	assert_int_equal(irqkit_signal_all_tasks(99), -EINVAL);
	assert_false(signal_pending(current));
}

static void test_signal_all_tasks_reaches_program_threads_not_kthreads(void **state)
{
	struct kt_sleep k = { 0 };
	struct sleeper s;
	struct task_struct *t;

	(void)state;
	t = kthread_run(kt_sleeper, &k, "kt-bystander");
	sleeper_start(&s, do_wait_event_interruptible, NULL);
	assert_asleep(&s);
	assert_true(wait_until(READ_ONCE(t->state) == TASK_INTERRUPTIBLE, 5000));
	assert_true(irqkit_signal_all_tasks(SIGINT) >= 2);	/* the sleeper and this thread */
	assert_int_equal(sleeper_join(&s), -ERESTARTSYS);
	assert_int_equal(s.dequeued, SIGINT);
	assert_int_equal(kernel_dequeue_signal(), SIGINT);
	usleep(20000);
	assert_int_equal(atomic_load(&k.woke), 0);
	assert_int_equal(kthread_stop(t), 0);
}

static void test_flush_signals(void **state)
{
	(void)state;
	send_sig(SIGUSR1, current, 0);
	send_sig(SIGUSR2, current, 1);
	assert_true(signal_pending(current));
	flush_signals(current);
	assert_false(signal_pending(current));
	assert_int_equal(kernel_dequeue_signal(), 0);
}

/* ---- stress: signals and stops racing handler wake-ups on two CPUs ----------------------------- */

static DECLARE_WAIT_QUEUE_HEAD(swq);
static atomic_int s_events;
static atomic_bool s_run;

static irqreturn_t s_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	atomic_fetch_add(&s_events, 1);
	wake_up_interruptible_all(&swq);
	return IRQ_HANDLED;
}

struct s_worker {
	pthread_t	th;
	struct task_struct *task;
	atomic_bool	ready;
	atomic_int	interrupted;
	atomic_int	woken;
};

static void *s_worker_main(void *p)
{
	struct s_worker *w = p;

	w->task = current;
	atomic_store(&w->ready, true);
	while (atomic_load(&s_run)) {
		int e = atomic_load(&s_events);
		int ret = wait_event_interruptible(swq, atomic_load(&s_events) != e ||
						       !atomic_load(&s_run));

		if (ret == -ERESTARTSYS) {
			assert_true(kernel_dequeue_signal() != 0);
			atomic_fetch_add(&w->interrupted, 1);
		} else {
			atomic_fetch_add(&w->woken, 1);
		}
	}
	return NULL;
}

static int s_kthread(void *data)
{
	atomic_int *n = data;

	allow_signal(SIGUSR1);
	while (!kthread_should_stop()) {
		int e = atomic_load(&s_events);

		if (wait_event_interruptible(swq, atomic_load(&s_events) != e) == -ERESTARTSYS) {
			flush_signals(current);
			atomic_fetch_add(n, 1);
		}
	}
	return 3;
}

static void *s_raiser(void *arg)
{
	while (atomic_load(&s_run)) {
		irqkit_sw_raise((unsigned int)(uintptr_t)arg);
		usleep(30);
	}
	return NULL;
}

static void test_stress_signals_and_stops_race_handler_wakeups(void **state)
{
	struct s_worker w[3] = { 0 };
	pthread_t raisers[2];
	atomic_int kt_sigs;
	int sent = 0;

	(void)state;
	atomic_store(&kt_sigs, 0);
	atomic_store(&s_run, true);
	assert_int_equal(request_irq(T_EDGE(5), s_handler, 0, "s0", &s_events), 0);
	assert_int_equal(request_irq(T_EDGE(6), s_handler, 0, "s1", &s_run), 0);
	assert_int_equal(irq_set_affinity(T_EDGE(6), cpumask_of(1)), 0);
	for (int i = 0; i < 3; i++) {
		pthread_create(&w[i].th, NULL, s_worker_main, &w[i]);
		assert_true(wait_until(atomic_load(&w[i].ready), 5000));
	}
	pthread_create(&raisers[0], NULL, s_raiser, (void *)(uintptr_t)T_EDGE(5));
	pthread_create(&raisers[1], NULL, s_raiser, (void *)(uintptr_t)T_EDGE(6));
	for (int round = 0; round < 100; round++) {
		struct task_struct *k = kthread_run(s_kthread, &kt_sigs, "s-kt%d", round);

		assert_false(IS_ERR(k));
		for (int j = 0; j < 10; j++) {
			assert_int_equal(send_sig(j & 1 ? SIGUSR2 : SIGUSR1, w[j % 3].task, 0), 0);
			sent++;
			/* before the stop it takes it; after, its task is gone: -ESRCH */
			send_sig(SIGUSR1, k, 0);
			if (j == round % 10) {
				int ret = kthread_stop(k);

				assert_true(ret == 3 || ret == -EINTR);
			}
		}
	}
	atomic_store(&s_run, false);
	wake_up_interruptible_all(&swq);
	for (int i = 0; i < 3; i++)
		pthread_join(w[i].th, NULL);
	pthread_join(raisers[0], NULL);
	pthread_join(raisers[1], NULL);
	free_irq(T_EDGE(5), &s_events);
	free_irq(T_EDGE(6), &s_run);
	for (int i = 0; i < 3; i++) {
		assert_true(atomic_load(&w[i].interrupted) > 0);
		assert_true(atomic_load(&w[i].interrupted) <= sent);
		assert_true(atomic_load(&w[i].woken) > 0);
	}
	assert_log_lacks("BUG");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_interruptible_sleeps_return_as_linux_does, setup,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_timed_interruptible_sleeps_return_the_time_left,
						setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_a_pending_signal_ends_the_sleep_before_it_begins,
						setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_killable_sleeps_see_only_sigkill, setup,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_uninterruptible_sleep_sees_the_signal_only_after_it_wakes,
						setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_ignores_a_signal_it_has_not_allowed, setup,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_takes_an_allowed_signal, setup,
						thr_teardown),
		cmocka_unit_test_setup_teardown(test_kthread_stopped_while_sleeping_interruptibly,
						setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_send_sig_bad_input, setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_signal_all_tasks_reaches_program_threads_not_kthreads,
						setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_flush_signals, setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_stress_signals_and_stops_race_handler_wakeups,
						setup, thr_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
