// SPDX-License-Identifier: MIT
/*
 * ktime_t in Linux's names: its arithmetic and conversions (negative times
 * included), and ktime_get() reading irqkit's clock -- the virtual one in
 * deterministic mode, where it moves only with the clock, exactly with it,
 * and in step with jiffies, and in the simulator, where a sleep costs no
 * host time; the host's in threaded mode.
 */
#include "../../harness.h"

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/time64.h>
#include <linux/delay.h>

#include <unistd.h>

static void test_arithmetic_and_conversions(void **state)
{
	ktime_t a = ms_to_ktime(1500), b = us_to_ktime(250);
	struct timespec64 ts;

	(void)state;
	assert_int_equal(a, 1500000000);
	assert_int_equal(ktime_add(a, b), 1500250000);
	assert_int_equal(ktime_sub(a, b), 1499750000);
	assert_int_equal(ktime_add_ns(a, 7), 1500000007);
	assert_int_equal(ktime_sub_ns(a, 7), 1499999993);
	assert_int_equal(ktime_add_us(a, 3), 1500003000);
	assert_int_equal(ktime_add_ms(a, 2), 1502000000);
	assert_int_equal(ktime_to_us(a), 1500000);
	assert_int_equal(ktime_to_ms(ktime_add(a, b)), 1500);
	assert_int_equal(ktime_us_delta(a, b), 1499750);
	assert_int_equal(ktime_ms_delta(b, a), -1499);
	assert_int_equal(ktime_set(2, 5), 2000000005);
	assert_int_equal(ktime_set(KTIME_SEC_MAX + 1, 0), KTIME_MAX);
	assert_int_equal(ktime_compare(a, b), 1);
	assert_int_equal(ktime_compare(b, a), -1);
	assert_int_equal(ktime_compare(a, a), 0);
	assert_true(ktime_after(a, b));
	assert_true(ktime_before(b, a));
	assert_false(ktime_before(a, a));
	ts = ns_to_timespec64(1500000007);
	assert_int_equal(ts.tv_sec, 1);
	assert_int_equal(ts.tv_nsec, 500000007);
	assert_int_equal(timespec64_to_ns(&ts), 1500000007);
	/* a negative time: tv_sec below, tv_nsec positive, as Linux's */
	ts = ns_to_timespec64(-1);
	assert_int_equal(ts.tv_sec, -1);
	assert_int_equal(ts.tv_nsec, 999999999);
	assert_int_equal(timespec64_to_ns(&ts), -1);
	assert_int_equal(timespec64_to_ktime(ktime_to_timespec64(a)), a);
	assert_int_equal(ktime_to_ns(a), 1500000000);
}

static void test_ktime_get_is_the_virtual_clock_in_deterministic_mode(void **state)
{
	ktime_t t0 = ktime_get(), t1;
	unsigned long j0 = jiffies;
	struct timespec64 ts;

	(void)state;
	assert_int_equal(ktime_get(), t0);		/* nothing moves it but the clock */
	assert_int_equal(irqkit_clock_advance(1234567), 0);
	t1 = ktime_get();
	assert_int_equal(t1 - t0, 1234567);
	assert_int_equal(ktime_get_ns(), (uint64_t)t1);
	assert_int_equal(irqkit_clock_advance(1000000000), 0);
	assert_int_equal(ktime_get() - t1, 1000000000);
	assert_int_equal(jiffies - j0, (unsigned long)(HZ * (ktime_get() - t0) / NSEC_PER_SEC));
	ktime_get_ts64(&ts);
	assert_int_equal(timespec64_to_ns(&ts), ktime_get());
}

static void test_ktime_get_follows_the_host_in_threaded_mode(void **state)
{
	struct timespec a, b;
	ktime_t k0, k1;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &a);
	k0 = ktime_get();
	usleep(20000);
	k1 = ktime_get();
	clock_gettime(CLOCK_MONOTONIC, &b);
	assert_true(k1 - k0 >= 20000000);
	assert_true(k1 - k0 <= (b.tv_sec - a.tv_sec) * NSEC_PER_SEC + (b.tv_nsec - a.tv_nsec));
	assert_true(k0 >= 0);
}

static void test_ktime_get_is_virtual_in_the_simulator(void **state)
{
	ktime_t k0, k1;
	struct timespec a, b;

	(void)state;
	assert_int_equal(start_world_cfg((struct irqkit_config){ .nr_cpus = 2,
								.mode = IRQKIT_MODE_SIM,
								.sim_seed = 3 }), 0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	k0 = ktime_get();
	msleep(500);			/* virtual: costs nothing */
	k1 = ktime_get();
	clock_gettime(CLOCK_MONOTONIC, &b);
	irqkit_stop();
	assert_true(k1 - k0 >= 500 * NSEC_PER_MSEC);
	assert_true(k1 - k0 < 600 * NSEC_PER_MSEC);
	/* far less host time went by than the half second the driver saw */
	assert_true((b.tv_sec - a.tv_sec) * NSEC_PER_SEC + (b.tv_nsec - a.tv_nsec) < k1 - k0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arithmetic_and_conversions),
		cmocka_unit_test_setup_teardown(test_ktime_get_is_the_virtual_clock_in_deterministic_mode,
						det_setup, det_teardown),
		cmocka_unit_test_setup_teardown(test_ktime_get_follows_the_host_in_threaded_mode,
						thr_setup, thr_teardown),
		cmocka_unit_test(test_ktime_get_is_virtual_in_the_simulator),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
