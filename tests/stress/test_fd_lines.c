// SPDX-License-Identifier: MIT
/*
 * Stress tests of lines bound to file descriptors: two virtual CPUs, many
 * eventfd lines, writer threads, a thread moving lines between CPUs, a
 * thread bound to a CPU that turns interrupts off and on, and descriptors
 * closed under load.  Each arrival is delivered or counted (DESIGN guarantee
 * 6), no line runs concurrently with itself (guarantee 1), and nothing
 * crashes.  IRQKIT_STRESS_SCALE multiplies the iterations.
 */
#define _GNU_SOURCE
#include "../harness.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define NCPU	2
#define NLINES	48
#define FIRST	64
#define NWRITERS 3

static int fds[NLINES];		/* bound to the lines */
static int wfds[NLINES];	/* the device's side: the same eventfds, duplicated */
static atomic_long written[NLINES];
static atomic_long runs[NLINES];
static atomic_int inside[NLINES];
static atomic_int violations;
static atomic_bool stop_flag;

static unsigned int rnd(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static enum irqkit_irqreturn handler(int irq, void *dev)
{
	int i = (int)(intptr_t)dev;

	(void)irq;
	if (atomic_fetch_add(&inside[i], 1))
		atomic_fetch_add(&violations, 1);
	if (!irqkit_in_hardirq() || !irqkit_irqs_disabled())
		atomic_fetch_add(&violations, 1);
	stress_burn(50);
	atomic_fetch_sub(&inside[i], 1);
	atomic_fetch_add(&runs[i], 1);
	return IRQKIT_HANDLED;
}

static int setup(void **state)
{
	(void)state;
	atomic_store(&violations, 0);
	atomic_store(&stop_flag, false);
	(void)test_seed();	/* chosen before the threads read it */
	if (thr_setup_cpus(NCPU, FIRST + NLINES))
		return -1;
	for (int i = 0; i < NLINES; i++) {
		fds[i] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		wfds[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 0);
		atomic_store(&written[i], 0);
		atomic_store(&runs[i], 0);
		atomic_store(&inside[i], 0);
		if (fds[i] < 0 || irqkit_fd_bind_eventfd(FIRST + i, fds[i]) ||
		    irqkit_irq_set_affinity(FIRST + i, 1ull << (i % NCPU)) ||
		    irqkit_request_irq(FIRST + i, handler, 0, "fd-stress", (void *)(intptr_t)i))
			return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	for (int i = 0; i < NLINES; i++) {
		irqkit_free_irq(FIRST + i, (void *)(intptr_t)i);
		(void)irqkit_fd_unbind(FIRST + i);
		close(fds[i]);
		close(wfds[i]);
	}
	return thr_teardown(state);
}

static void *writer(void *arg)
{
	unsigned int seed = test_seed() + (unsigned int)(uintptr_t)arg * 7919u;
	int n = stress_scale(40000);

	for (int k = 0; k < n; k++) {
		int i = (int)(rnd(&seed) % NLINES);
		uint64_t v = 1 + rnd(&seed) % 3;

		if (write(wfds[i], &v, sizeof(v)) == (ssize_t)sizeof(v))
			atomic_fetch_add(&written[i], (long)v);
		if (k % 64 == 0)
			usleep(rnd(&seed) % 50);
	}
	return NULL;
}

/* Move lines between the CPUs while they fire. */
static void *mover(void *arg)
{
	unsigned int seed = test_seed() * 31u + 1;

	(void)arg;
	while (!atomic_load(&stop_flag)) {
		unsigned int i = rnd(&seed) % NLINES;

		if (irqkit_irq_set_affinity(FIRST + i, 1ull << (rnd(&seed) % NCPU)))
			atomic_fetch_add(&violations, 1);
		usleep(rnd(&seed) % 200);
	}
	return NULL;
}

/* A driver thread on CPU 0: interrupts off now and then, so arrivals wait. */
static void *irqoff(void *arg)
{
	unsigned int seed = test_seed() * 17u + 3;

	(void)arg;
	if (irqkit_thread_bind(0))
		atomic_fetch_add(&violations, 1);
	while (!atomic_load(&stop_flag)) {
		unsigned long flags = irqkit_local_irq_save();

		stress_burn((int)(rnd(&seed) % 20000));
		irqkit_local_irq_restore(flags);
		usleep(rnd(&seed) % 300);
	}
	irqkit_thread_unbind();
	return NULL;
}

static bool all_accounted(void)
{
	for (int i = 0; i < NLINES; i++) {
		struct irqkit_irq_events tot;

		if (irqkit_irq_get_event_totals(FIRST + i, &tot) ||
		    tot.events != (uint64_t)atomic_load(&written[i]) ||
		    tot.events != (uint64_t)atomic_load(&runs[i]) + tot.coalesced + tot.lost)
			return false;
	}
	return true;
}

static void test_every_event_written_is_handled_or_coalesced(void **state)
{
	pthread_t w[NWRITERS], m, o;

	(void)state;
	assert_int_equal(pthread_create(&m, NULL, mover, NULL), 0);
	assert_int_equal(pthread_create(&o, NULL, irqoff, NULL), 0);
	for (int i = 0; i < NWRITERS; i++)
		assert_int_equal(pthread_create(&w[i], NULL, writer, (void *)(uintptr_t)i), 0);
	for (int i = 0; i < NWRITERS; i++)
		pthread_join(w[i], NULL);
	atomic_store(&stop_flag, true);
	pthread_join(m, NULL);
	pthread_join(o, NULL);
	if (!wait_until(all_accounted(), 10000)) {
		for (int i = 0; i < NLINES; i++) {
			struct irqkit_irq_events tot;

			assert_int_equal(irqkit_irq_get_event_totals(FIRST + i, &tot), 0);
			print_message("line %d: written %ld runs %ld events %llu coalesced %llu lost %llu\n",
				      FIRST + i, atomic_load(&written[i]), atomic_load(&runs[i]),
				      (unsigned long long)tot.events, (unsigned long long)tot.coalesced,
				      (unsigned long long)tot.lost);
		}
		fail_msg("arrivals not accounted");
	}
	assert_int_equal(atomic_load(&violations), 0);
	if (getenv("IRQKIT_TEST_ECHO")) {
		long wsum = 0, rsum = 0;

		for (int i = 0; i < NLINES; i++)
			wsum += atomic_load(&written[i]), rsum += atomic_load(&runs[i]);
		print_message("written %ld, handler runs %ld\n", wsum, rsum);
	}
}

/*
 * irqkit_wait_delivered() right after each burst of writes, while the line
 * keeps moving between the CPUs: when it returns, the handler runs have
 * been told every event written, no more, no less.  Two CPUs may read the
 * descriptor at once around a move, and an arrival that finds the line in
 * progress elsewhere is served by a later turn of the edge flow: both once
 * let the wait end early or the count come out short.
 */
static atomic_ullong told;

static enum irqkit_irqreturn telling_handler(int irq, void *dev)
{
	struct irqkit_irq_events ev;

	(void)dev;
	if (irqkit_irq_get_events((unsigned int)irq, &ev))
		atomic_fetch_add(&violations, 1);
	else
		atomic_fetch_add(&told, ev.events);
	stress_burn(20);
	return IRQKIT_HANDLED;
}

#define ALONE	(FIRST + NLINES)	/* a line of its own, past the others */

static int alone_setup(void **state)
{
	(void)state;
	atomic_store(&violations, 0);
	atomic_store(&stop_flag, false);
	(void)test_seed();
	return thr_setup_cpus(NCPU, ALONE + 1);
}

static void *one_line_mover(void *arg)
{
	unsigned int seed = test_seed() * 7u + 5;

	(void)arg;
	while (!atomic_load(&stop_flag)) {
		if (irqkit_irq_set_affinity(ALONE, 1ull << (rnd(&seed) % NCPU)))
			atomic_fetch_add(&violations, 1);
		if (rnd(&seed) % 4 == 0)
			usleep(rnd(&seed) % 50);
	}
	return NULL;
}

static void test_wait_delivered_after_writes_to_a_moving_line(void **state)
{
	unsigned int seed = test_seed() * 13u + 11;
	int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	unsigned long long sum = 0;
	pthread_t m;

	(void)state;
	assert_true(fd >= 0);
	atomic_store(&told, 0);
	assert_int_equal(irqkit_fd_bind_eventfd(ALONE, fd), 0);
	assert_int_equal(irqkit_request_irq(ALONE, telling_handler, 0, "moving", NULL), 0);
	assert_int_equal(pthread_create(&m, NULL, one_line_mover, NULL), 0);
	for (int round = 0; round < stress_scale(3000); round++) {
		for (unsigned int k = 1 + rnd(&seed) % 3; k; k--) {
			uint64_t v = 1 + rnd(&seed) % 3;

			assert_int_equal(write(fd, &v, sizeof(v)), (ssize_t)sizeof(v));
			sum += v;
		}
		assert_int_equal(irqkit_wait_delivered(ALONE, 10000), 0);
		if (atomic_load(&told) != sum)
			fail_msg("round %d: handlers told %llu events of %llu written", round,
				 (unsigned long long)atomic_load(&told), sum);
	}
	atomic_store(&stop_flag, true);
	pthread_join(m, NULL);
	assert_int_equal(atomic_load(&violations), 0);
	irqkit_free_irq(ALONE, NULL);
	assert_int_equal(irqkit_fd_unbind(ALONE), 0);
	close(fd);
}

/*
 * The device keeps writing while another thread frees the even lines,
 * unbinds them and closes their descriptors: a dispatcher may be reading one
 * at that moment.
 */
static void *closer(void *arg)
{
	(void)arg;
	for (int i = 0; i < NLINES; i += 2) {
		usleep(300);
		irqkit_free_irq(FIRST + i, (void *)(intptr_t)i);
		if (irqkit_fd_unbind(FIRST + i))
			atomic_fetch_add(&violations, 1);
		close(fds[i]);
	}
	return NULL;
}

static void test_descriptors_freed_and_closed_under_load(void **state)
{
	pthread_t w[NWRITERS], c;

	(void)state;
	for (int i = 0; i < NWRITERS; i++)
		assert_int_equal(pthread_create(&w[i], NULL, writer, (void *)(uintptr_t)i), 0);
	assert_int_equal(pthread_create(&c, NULL, closer, NULL), 0);
	pthread_join(c, NULL);
	for (int i = 0; i < NWRITERS; i++)
		pthread_join(w[i], NULL);
	assert_int_equal(atomic_load(&violations), 0);
	/* the odd lines still work */
	for (int i = 1; i < NLINES; i += 2) {
		long before = atomic_load(&runs[i]);
		uint64_t one = 1;

		assert_int_equal(write(wfds[i], &one, sizeof(one)), (ssize_t)sizeof(one));
		assert_true(wait_until(atomic_load(&runs[i]) > before, 5000));
	}
	/* teardown frees the even lines again: the warning, not a crash */
	for (int i = 0; i < NLINES; i += 2)
		fds[i] = eventfd(0, EFD_CLOEXEC);
}

/*
 * A descriptor closed while its line is requested (a caller's bug):
 * epoll drops it with its last reference, and the line simply goes quiet;
 * freeing and unbinding afterwards works and reports nothing fatal.
 */
static void test_descriptor_closed_while_requested(void **state)
{
	uint64_t one = 1;

	(void)state;
	assert_int_equal(write(wfds[0], &one, sizeof(one)), (ssize_t)sizeof(one));
	assert_true(wait_until(atomic_load(&runs[0]) == 1, 5000));
	close(wfds[0]);		/* the last references: epoll drops the descriptor */
	close(fds[0]);
	usleep(10000);
	irqkit_free_irq(FIRST, (void *)(intptr_t)0);
	assert_int_equal(irqkit_fd_unbind(FIRST), 0);
	fds[0] = eventfd(0, EFD_CLOEXEC);
	wfds[0] = fcntl(fds[0], F_DUPFD_CLOEXEC, 0);
	assert_int_equal(irqkit_fd_bind_eventfd(FIRST, fds[0]), 0);
	assert_int_equal(irqkit_request_irq(FIRST, handler, 0, "fd-stress", (void *)(intptr_t)0), 0);
	assert_int_equal(write(wfds[0], &one, sizeof(one)), (ssize_t)sizeof(one));
	assert_true(wait_until(atomic_load(&runs[0]) == 2, 5000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_every_event_written_is_handled_or_coalesced,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_wait_delivered_after_writes_to_a_moving_line,
						alone_setup, thr_teardown),
		cmocka_unit_test_setup_teardown(test_descriptors_freed_and_closed_under_load,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_descriptor_closed_while_requested,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
