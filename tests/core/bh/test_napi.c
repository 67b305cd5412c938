// SPDX-License-Identifier: MIT
/*
 * NAPI (<irqkit/napi.h>, Linux's net/core/dev.c): a poll that uses its
 * whole weight is polled again, round robin, one that uses less completes;
 * a NET_RX run stops at its budget or after two jiffies, counts a time
 * squeeze and raises itself again; a schedule during the poll (MISSED)
 * makes the complete say no and polls once more; a disabled instance is
 * not scheduled, and disable waits for the poll that runs; deferral polls
 * from an hrtimer instead of unmasking; the softnet table; bad calls get
 * Linux's warnings.
 */
#define _GNU_SOURCE
#include "../../harness.h"

#include <irqkit/napi.h>

#if T_CPUS_ARE_THREADS
#include <unistd.h>
#endif

struct ring {
	struct irqkit_napi_struct napi;
	atomic_int		backlog;	/* events waiting in the device */
	atomic_int		polls, reaped, completes_true, completes_false;
	atomic_int		cpu;
	atomic_bool		in_poll, go;	/* a slow poll waits for go */
	bool			slow;
	int			advance_ns;	/* each poll moves the virtual clock on */
	int			arrive_in_poll;	/* events that arrive during the poll, then a schedule */
	int			extra;		/* added to what the poll returns (a driver's bug) */
	char			comm[16];	/* the last poll's task */
	atomic_bool		in_serving_softirq, in_task, bh_off;
	char			name;
};

static struct irqkit_net_device *ndev;
static struct ring a, b;
static char order[128];
static atomic_int order_n;

static int ring_poll(struct irqkit_napi_struct *napi, int budget)
{
	struct ring *r = container_of(napi, struct ring, napi);
	int n = atomic_load(&r->backlog), done = n < budget ? n : budget;
	int at = atomic_fetch_add(&order_n, 1);

	if (at < (int)sizeof(order) - 1)
		order[at] = r->name;
	atomic_fetch_add(&r->polls, 1);
	atomic_store(&r->cpu, irqkit_smp_processor_id());
	memcpy(r->comm, irqkit_current()->comm, sizeof(r->comm));
	atomic_store(&r->in_serving_softirq, irqkit_in_serving_softirq());
	atomic_store(&r->in_task, irqkit_in_task());
	atomic_store(&r->bh_off, irqkit_in_softirq());
	if (r->advance_ns)
		(void)irqkit_clock_advance((uint64_t)r->advance_ns);
	if (r->slow) {
		atomic_store(&r->in_poll, true);
		while (!atomic_load(&r->go))
			;
	}
	atomic_fetch_sub(&r->backlog, done);
	atomic_fetch_add(&r->reaped, done);
	if (r->arrive_in_poll) {
		/* the device's interrupt (still unmasked in this model) between the last look and the complete */
		atomic_fetch_add(&r->backlog, r->arrive_in_poll);
		r->arrive_in_poll = 0;
		assert_false(irqkit_napi_schedule(&r->napi));	/* claimed: MISSED */
	}
	if (r->slow)
		atomic_store(&r->in_poll, false);
	if (done < budget) {
		if (irqkit_napi_complete_done(napi, done))
			atomic_fetch_add(&r->completes_true, 1);
		else
			atomic_fetch_add(&r->completes_false, 1);
	}
	return done + r->extra;
}

static void ring_init(struct ring *r, char name, int weight, int backlog)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	atomic_store(&r->backlog, backlog);
	irqkit_netif_napi_add_weight(ndev, &r->napi, ring_poll, weight);
	irqkit_napi_enable(&r->napi);
}

static void ring_fini(struct ring *r)
{
	irqkit_napi_disable(&r->napi);
	irqkit_netif_napi_del(&r->napi);
}

static int setup_common(void)
{
	memset(order, 0, sizeof(order));
	atomic_store(&order_n, 0);
	ndev = irqkit_alloc_netdev_dummy(32);
	return ndev ? 0 : -1;
}

static int setup(void **state)
{
	int ret = det_setup(state);

	return ret ? ret : setup_common();
}

static int teardown(void **state)
{
	irqkit_free_netdev(ndev);
	return det_teardown(state);
}

/* Schedule from process context with bottom halves off; NET_RX runs at the enable. */
static void sched_bh(struct ring *r1, struct ring *r2)
{
	irqkit_local_bh_disable();
	assert_true(irqkit_napi_schedule(&r1->napi));
	if (r2)
		assert_true(irqkit_napi_schedule(&r2->napi));
	irqkit_local_bh_enable();
}

static struct irqkit_softnet_stat stat0(void)
{
	struct irqkit_softnet_stat st;

	assert_int_equal(irqkit_softnet_stat(0, &st), 0);
	return st;
}

static void test_weight_used_polls_again_less_completes(void **state)
{
	(void)state;
	ring_init(&a, 'a', 4, 10);		/* 4 + 4 + 2: three polls, the last completes */
	ring_init(&b, 'b', 4, 3);
	sched_bh(&a, &b);
	assert_int_equal(atomic_load(&a.reaped), 10);
	assert_int_equal(atomic_load(&b.reaped), 3);
	assert_string_equal(order, "abaa");	/* a used its weight: behind b */
	assert_int_equal(atomic_load(&a.completes_true), 1);
	assert_int_equal(atomic_load(&b.completes_true), 1);
	assert_false(irqkit_napi_is_scheduled(&a.napi));
	assert_int_equal(stat0().processed, 13);
	assert_int_equal(stat0().time_squeeze, 0);
	/* completed: scheduled again, polled again; a claimed one is not scheduled twice */
	atomic_store(&a.backlog, 1);
	irqkit_local_bh_disable();
	assert_true(irqkit_napi_schedule(&a.napi));
	assert_false(irqkit_napi_schedule(&a.napi));
	irqkit_local_bh_enable();
	/* the second schedule marked it MISSED: its complete said no and it ran once more */
	assert_int_equal(atomic_load(&a.polls), 5);
	assert_int_equal(atomic_load(&a.completes_false), 1);
	assert_int_equal(atomic_load(&a.reaped), 11);
	ring_fini(&a);
	ring_fini(&b);
}

static void test_schedule_during_the_poll_polls_again(void **state)
{
	(void)state;
	ring_init(&a, 'a', 8, 3);
	a.arrive_in_poll = 2;
	sched_bh(&a, NULL);
	/* poll 1: 3, two arrive, a schedule marks MISSED, complete says no; poll 2: 2, complete */
	assert_int_equal(atomic_load(&a.polls), 2);
	assert_int_equal(atomic_load(&a.reaped), 5);
	assert_int_equal(atomic_load(&a.completes_false), 1);
	assert_int_equal(atomic_load(&a.completes_true), 1);
	assert_int_equal(atomic_load(&a.backlog), 0);
	assert_false(irqkit_napi_is_scheduled(&a.napi));
	/* mark_missed: true and polled again if scheduled, false if not */
	assert_false(irqkit_napi_if_scheduled_mark_missed(&a.napi));
	ring_fini(&a);
}

static struct ring more[4];

static void wait_idle(struct ring *const *rs, int n)
{
	for (int i = 0; i < n; i++)
		assert_true(wait_until(!irqkit_napi_is_scheduled(&rs[i]->napi) ||
					       (irqkit_deliver_pending(), false), 5000));
}

/*
 * The budget is for the whole run: an instance that used its weight waits
 * for the next run (as in Linux, a lone instance is polled once a run), so
 * it takes several to spend 300.
 */
static void test_budget_ends_a_run_and_raises_again(void **state)
{
	struct ring *rs[6] = { &a, &b, &more[0], &more[1], &more[2], &more[3] };
	unsigned int runs;

	(void)state;
	for (int i = 0; i < 6; i++)
		ring_init(rs[i], (char)('a' + i), 64, 64 * 2);	/* two full polls and an empty one each */
	irqkit_local_bh_disable();
	for (int i = 0; i < 6; i++)
		assert_true(irqkit_napi_schedule(&rs[i]->napi));
	runs = irqkit_kstat_softirqs_cpu(IRQKIT_NET_RX_SOFTIRQ, 0);
	irqkit_local_bh_enable();
	wait_idle(rs, 6);
	/* runs: abcde (320: squeezed), fabcd (squeezed), efabcd, ef */
	assert_string_equal(order, "abcdefabcdefabcdef");
	assert_int_equal(stat0().time_squeeze, 2);
	assert_int_equal(irqkit_kstat_softirqs_cpu(IRQKIT_NET_RX_SOFTIRQ, 0) - runs, 4);
	assert_int_equal(stat0().processed, 6 * 64 * 2);
	for (int i = 0; i < 6; i++)
		assert_int_equal(atomic_load(&rs[i]->completes_true), 1);
	/* a budget of 1: every poll that does work ends its run */
	irqkit_set_netdev_budget(1, 2 * 1000000u / irqkit_hz());
	atomic_store(&a.backlog, 64 * 3);
	sched_bh(&a, NULL);
	wait_idle(rs, 1);
	assert_int_equal(stat0().time_squeeze, 2 + 3);	/* three full polls; the empty one fits */
	irqkit_set_netdev_budget(IRQKIT_NETDEV_BUDGET, 2 * 1000000u / irqkit_hz());
	for (int i = 0; i < 6; i++)
		ring_fini(rs[i]);
}

static void test_two_jiffies_end_a_run(void **state)
{
	struct ring *rs[3] = { &a, &b, &more[0] };

	(void)state;
	/* each poll takes a jiffy: every run stops after its second poll, whatever the budget */
	for (int i = 0; i < 3; i++) {
		ring_init(rs[i], (char)('a' + i), 4, 8);
		rs[i]->advance_ns = (int)(1000000000u / irqkit_hz());
	}
	irqkit_local_bh_disable();
	for (int i = 0; i < 3; i++)
		assert_true(irqkit_napi_schedule(&rs[i]->napi));
	irqkit_local_bh_enable();
	wait_idle(rs, 3);
	/* runs: ab, ca, bc, ab (squeezed on the time), c */
	assert_string_equal(order, "abcabcabc");
	assert_int_equal(stat0().time_squeeze, 4);
	for (int i = 0; i < 3; i++)
		ring_fini(rs[i]);
}

static void test_disabled_instance_is_not_scheduled(void **state)
{
	(void)state;
	memset(&a, 0, sizeof(a));
	irqkit_netif_napi_add_weight(ndev, &a.napi, ring_poll, 8);
	a.name = 'a';
	atomic_store(&a.backlog, 5);
	/* added disabled: a schedule does nothing */
	irqkit_local_bh_disable();
	assert_false(irqkit_napi_schedule(&a.napi));
	irqkit_local_bh_enable();
	assert_int_equal(atomic_load(&a.polls), 0);
	irqkit_napi_enable(&a.napi);
	sched_bh(&a, NULL);
	/*
	 * That schedule of the disabled instance found it claimed (a disabled
	 * instance holds SCHED) and marked it MISSED, which neither the enable
	 * nor the disable clears, in Linux either: the first poll's complete
	 * says no and it is polled once more.
	 */
	assert_int_equal(atomic_load(&a.polls), 2);
	assert_int_equal(atomic_load(&a.completes_false), 1);
	assert_int_equal(atomic_load(&a.completes_true), 1);
	irqkit_napi_disable(&a.napi);
	irqkit_local_bh_disable();
	assert_false(irqkit_napi_schedule(&a.napi));
	assert_false(irqkit_napi_complete_done(&a.napi, 0));	/* disabled: not the caller's */
	irqkit_local_bh_enable();
	assert_int_equal(atomic_load(&a.polls), 2);
	irqkit_netif_napi_del(&a.napi);
}

/* A poll that used its weight while a disable waits completes there, is not moved. */
static void test_full_poll_with_a_disable_pending_completes(void **state)
{
	(void)state;
	ring_init(&a, 'a', 8, 1000);
	irqkit_local_bh_disable();
	assert_true(irqkit_napi_schedule(&a.napi));
	a.napi.state |= IRQKIT_NAPIF(DISABLE);		/* as napi_disable sets it before it waits */
	irqkit_local_bh_enable();
	assert_int_equal(atomic_load(&a.polls), 1);
	assert_false(irqkit_napi_is_scheduled(&a.napi));
	a.napi.state &= ~IRQKIT_NAPIF(DISABLE);
	ring_fini(&a);
}

static void test_deferral_polls_from_a_timer(void **state)
{
	uint64_t timeout = 200000;		/* 200 us */

	(void)state;
	irqkit_netdev_set_defer_hard_irqs(ndev, 2);
	irqkit_netdev_set_gro_flush_timeout(ndev, (unsigned long)timeout);
	ring_init(&a, 'a', 8, 3);
	assert_int_equal(a.napi.defer_hard_irqs, 2);
	sched_bh(&a, NULL);
	/* did work: the interrupt stays off, an hrtimer polls again */
	assert_int_equal(atomic_load(&a.polls), 1);
	assert_int_equal(atomic_load(&a.completes_false), 1);
	(void)irqkit_clock_advance(timeout / 2);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&a.polls), 1);
	(void)irqkit_clock_advance(timeout);
	irqkit_deliver_pending();
	/* empty: the second deferral, off still */
	assert_int_equal(atomic_load(&a.polls), 2);
	assert_int_equal(atomic_load(&a.completes_false), 2);
	(void)irqkit_clock_advance(timeout + 1);
	irqkit_deliver_pending();
	/* empty again, no deferral left: the interrupt may come back */
	assert_int_equal(atomic_load(&a.polls), 3);
	assert_int_equal(atomic_load(&a.completes_true), 1);
	(void)irqkit_clock_advance(10 * timeout);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&a.polls), 3);
	/* a disable cancels a pending deferral */
	atomic_store(&a.backlog, 1);
	sched_bh(&a, NULL);
	assert_int_equal(atomic_load(&a.polls), 4);
	irqkit_napi_disable(&a.napi);
	(void)irqkit_clock_advance(10 * timeout);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&a.polls), 4);
	irqkit_netif_napi_del(&a.napi);
	/* the timeout alone defers nothing (Linux: only with held GRO packets, which irqkit has none of) */
	irqkit_netdev_set_defer_hard_irqs(ndev, 0);
	ring_init(&b, 'b', 8, 3);
	sched_bh(&b, NULL);
	assert_int_equal(atomic_load(&b.completes_true), 1);
	ring_fini(&b);
}

static void test_bad_calls_are_reported_as_linux(void **state)
{
	(void)state;
	/* a weight over 64: taken, an error line once */
	irqkit_netif_napi_add_weight(ndev, &a.napi, ring_poll, 65);
	assert_int_equal(a.napi.weight, 65);
	assert_log_contains("dummy# (dummy): netif_napi_add_weight() called with weight 65");
	/* added twice: a warning, nothing changed */
	log_clear();
	irqkit_netif_napi_add_weight(ndev, &a.napi, ring_poll, 8);
	assert_log_contains("WARNING");
	assert_int_equal(a.napi.weight, 65);
	/* deleted while enabled: a warning */
	irqkit_napi_enable(&a.napi);
	log_clear();
	irqkit_netif_napi_del(&a.napi);
	assert_log_contains("WARNING");
	/* a complete of an instance that is not scheduled: a warning once */
	irqkit_netif_napi_add_weight(ndev, &b.napi, ring_poll, 8);
	irqkit_napi_enable(&b.napi);
	log_clear();
	assert_true(irqkit_napi_complete(&b.napi));
	assert_log_contains("WARNING");
	/* synchronize of a disabled instance would wait for ever: said, not waited */
	irqkit_napi_disable(&b.napi);
	log_clear();
	irqkit_napi_synchronize(&b.napi);
	assert_log_contains("napi_synchronize() of a disabled instance");
	irqkit_netif_napi_del(&b.napi);
	/* a poll that returns more than its budget: an error line */
	ring_init(&a, 'a', 4, 2);
	a.extra = 3;
	log_clear();
	sched_bh(&a, NULL);
	assert_log_contains("dummy# (dummy): NAPI poll function ");	/* its name where symbols are read */
	assert_log_contains("returned 5, exceeding its budget of 4.");
	assert_int_equal(atomic_load(&a.polls), 1);
	assert_false(irqkit_napi_is_scheduled(&a.napi));
	ring_fini(&a);
}

static void test_softnet_stat_rows(void **state)
{
	char buf[1024], want[1024];
	size_t len = 0;
	int n;

	(void)state;
	ring_init(&a, 'a', 4, 6);
	sched_bh(&a, NULL);
	n = irqkit_show_softnet_stat_buf(buf, sizeof(buf));
	assert_int_equal(n, (int)strlen(buf));
	/* a row per online CPU: processed, dropped, squeezed, zeros, the CPU in the 13th column */
	for (unsigned int cpu = 0; cpu < irqkit_num_online_cpus(); cpu++)
		len += (size_t)snprintf(want + len, sizeof(want) - len,
					"%08x 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 %08x 00000000 00000000\n",
					cpu ? 0u : 6u, cpu);
	assert_string_equal(buf, want);
	assert_int_equal(irqkit_softnet_stat(99, &(struct irqkit_softnet_stat){ 0 }), -IRQKIT_EINVAL);
	/* ids: above every CPU number, one each, none for a transmit instance */
	assert_true(a.napi.napi_id > IRQKIT_NR_CPUS_MAX);
	irqkit_netif_napi_add_weight(ndev, &b.napi, ring_poll, 4);
	assert_int_equal(b.napi.napi_id, a.napi.napi_id + 1);
	irqkit_netif_napi_del(&b.napi);
	memset(&b, 0, sizeof(b));
	irqkit_netif_napi_add_tx_weight(ndev, &b.napi, ring_poll, 4);
	assert_int_equal(b.napi.napi_id, 0);
	irqkit_netif_napi_del(&b.napi);
	ring_fini(&a);
}

/* Busy polling: the loop's rounds, and a schedule from outside in its second round. */
static int loop_rounds, loop_sched_at;
static bool loop_sched_ret;

static bool loop_end_after(void *arg, unsigned long start_time)
{
	struct ring *r = arg;

	(void)start_time;
	if (++loop_rounds == loop_sched_at) {
		atomic_fetch_add(&r->backlog, 2);	/* the device's interrupt, a schedule */
		loop_sched_ret = irqkit_napi_schedule(&r->napi);
	}
	return loop_rounds >= 3;
}

static void test_busy_loop_polls_in_the_caller(void **state)
{
	unsigned int runs;
	char me[16];

	(void)state;
	memcpy(me, irqkit_current()->comm, sizeof(me));
	ring_init(&a, 'a', 64, 20);
	runs = irqkit_kstat_softirqs_cpu(IRQKIT_NET_RX_SOFTIRQ, 0);
	loop_rounds = 0;
	loop_sched_at = 2;
	irqkit_napi_busy_loop(a.napi.napi_id, loop_end_after, &a, false, IRQKIT_BUSY_POLL_BUDGET);
	/* three rounds of 8 and the stop's poll; the loop owned it: completes said no */
	assert_int_equal(atomic_load(&a.polls), 4);
	assert_int_equal(atomic_load(&a.reaped), 22);
	assert_int_equal(atomic_load(&a.completes_false), 1);	/* round 3: 6 left, under the budget */
	/* the schedule during the loop found it claimed; the stop's poll covered it, no softirq poll */
	assert_false(loop_sched_ret);
	assert_int_equal(atomic_load(&a.completes_true), 1);
	assert_false(irqkit_napi_is_scheduled(&a.napi));
	assert_false(a.napi.state & IRQKIT_NAPIF(MISSED));
	assert_int_equal(irqkit_kstat_softirqs_cpu(IRQKIT_NET_RX_SOFTIRQ, 0), runs);
	assert_string_equal(a.comm, me);
	assert_false(atomic_load(&a.in_serving_softirq));
	assert_int_equal(stat0().processed, 22);
	/* no loop_end: one round and the stop */
	atomic_store(&a.backlog, 3);
	irqkit_napi_busy_loop(a.napi.napi_id, NULL, NULL, false, IRQKIT_BUSY_POLL_BUDGET);
	assert_int_equal(atomic_load(&a.polls), 6);
	/* unknown ids, and a transmit instance's 0: nothing */
	irqkit_napi_busy_loop(a.napi.napi_id + 100, NULL, NULL, false, 8);
	irqkit_napi_busy_loop(0, NULL, NULL, false, 8);
	assert_int_equal(atomic_load(&a.polls), 6);
	ring_fini(&a);
}

static void test_busy_loop_with_prefer_and_deferral_keeps_the_interrupt_off(void **state)
{
	uint64_t timeout = 500000;

	(void)state;
	irqkit_netdev_set_defer_hard_irqs(ndev, 1);
	irqkit_netdev_set_gro_flush_timeout(ndev, (unsigned long)timeout);
	ring_init(&a, 'a', 64, 5);
	irqkit_napi_busy_loop(a.napi.napi_id, NULL, NULL, true, IRQKIT_BUSY_POLL_BUDGET);
	/* round: 5 (complete: no, the loop owns it); the stop's poll: 0, complete: no, the timer polls next */
	assert_int_equal(atomic_load(&a.polls), 2);
	assert_int_equal(atomic_load(&a.completes_true), 0);
	(void)irqkit_clock_advance(timeout + 1);
	irqkit_deliver_pending();
	assert_int_equal(atomic_load(&a.polls), 3);
	assert_int_equal(atomic_load(&a.completes_true), 1);	/* empty, no deferral left */
	/*
	 * Owned by the softirq: the loop does not poll, it marks the instance
	 * preferring busy polls, and its next full poll completes into the
	 * deferral instead of polling again.
	 */
	atomic_store(&a.backlog, 1000);
	irqkit_local_bh_disable();
	assert_true(irqkit_napi_schedule(&a.napi));
	irqkit_napi_busy_loop(a.napi.napi_id, NULL, NULL, true, IRQKIT_BUSY_POLL_BUDGET);
	assert_int_equal(atomic_load(&a.polls), 3);
	assert_true(a.napi.state & IRQKIT_NAPIF(PREFER_BUSY_POLL));
	irqkit_local_bh_enable();
	assert_int_equal(atomic_load(&a.polls), 4);		/* 64, then off: the timer's */
	assert_false(irqkit_napi_is_scheduled(&a.napi));
	assert_false(a.napi.state & IRQKIT_NAPIF(PREFER_BUSY_POLL));
	(void)irqkit_clock_advance(timeout + 1);
	irqkit_deliver_pending();
	assert_true(atomic_load(&a.polls) > 4);
	irqkit_netdev_set_defer_hard_irqs(ndev, 0);
	ring_fini(&a);
}

#if T_CPUS_ARE_THREADS
static int thr_setup_2(void **state)
{
	(void)state;
	if (thr_setup_cpus(2, T_NR_IRQS))
		return -1;
	return setup_common();
}

static int thr_teardown_2(void **state)
{
	irqkit_free_netdev(ndev);
	return thr_teardown(state);
}

/* From process context on CPU 1: ksoftirqd/1 runs it. */
static void sched_napi(void *arg)
{
	assert_true(irqkit_napi_schedule(&((struct ring *)arg)->napi));
}

/* napi_disable and napi_synchronize wait for the poll that runs; many rounds. */
static void test_disable_waits_for_a_running_poll(void **state)
{
	(void)state;
	for (int round = 0; round < stress_scale(200); round++) {
		ring_init(&a, 'a', 8, 3);
		a.slow = true;
		run_on_cpu(1, sched_napi, &a);
		assert_true(wait_until(atomic_load(&a.in_poll), 5000));
		atomic_store(&a.go, true);
		if (round % 2)
			irqkit_napi_synchronize(&a.napi);
		irqkit_napi_disable(&a.napi);
		assert_false(atomic_load(&a.in_poll));
		assert_int_equal(atomic_load(&a.reaped), 3);
		assert_int_equal(atomic_load(&a.polls), 1);
		assert_int_equal(atomic_load(&a.cpu), 1);
		/* the poll's last lines, after its complete: the del waits for them */
		irqkit_netif_napi_del(&a.napi);
		assert_int_equal(atomic_load(&a.completes_true), 1);
	}
}

/* Schedules from two threads against a poll that reaps: every event is reaped, none waits. */
static atomic_bool feeding;

static void *feed(void *arg)
{
	struct ring *r = arg;

	assert_int_equal(irqkit_thread_bind(1), 0);
	for (int i = 0; i < stress_scale(20000); i++) {
		atomic_fetch_add(&r->backlog, 1);
		(void)irqkit_napi_schedule(&r->napi);
	}
	irqkit_thread_unbind();
	atomic_store(&feeding, false);
	return NULL;
}

static void test_no_event_waits_after_its_schedule(void **state)
{
	pthread_t th;

	(void)state;
	ring_init(&a, 'a', 16, 0);
	atomic_store(&feeding, true);
	assert_int_equal(pthread_create(&th, NULL, feed, &a), 0);
	pthread_join(th, NULL);
	/* each event was followed by a schedule; MISSED closes the window at the complete */
	assert_true(wait_until(atomic_load(&a.reaped) == stress_scale(20000), 5000));
	assert_true(wait_until(!irqkit_napi_is_scheduled(&a.napi), 5000));
	assert_int_equal(atomic_load(&a.backlog), 0);
	ring_fini(&a);
}

/*
 * Threaded NAPI: each instance polls in its napi/DEV-ID kthread, in process
 * context with bottom halves off, until a poll completes (no budget, no
 * squeeze); off again, the next schedule goes to NET_RX.
 */
static void test_threaded_polls_in_its_kthread(void **state)
{
	char name[16];

	(void)state;
	ring_init(&a, 'a', 8, 0);
	assert_int_equal(irqkit_dev_set_threaded(ndev, true), 0);
	assert_non_null(a.napi.thread);
	assert_true(a.napi.state & IRQKIT_NAPIF(THREADED));
	snprintf(name, sizeof(name), "napi/dummy#-%u", a.napi.napi_id);
	for (int round = 0; round < stress_scale(100); round++) {
		atomic_store(&a.backlog, 8 * 40 + 3);	/* 40 full polls and one of 3 */
		assert_true(irqkit_napi_schedule(&a.napi));
		/* the complete, then the poll's last lines */
		assert_true(wait_until(atomic_load(&a.completes_true) == round + 1, 5000));
		assert_false(irqkit_napi_is_scheduled(&a.napi));
		assert_int_equal(atomic_load(&a.backlog), 0);
	}
	assert_int_equal(atomic_load(&a.polls), stress_scale(100) * 41);
	assert_int_equal(atomic_load(&a.completes_true), stress_scale(100));
	assert_string_equal(a.comm, name);
	assert_false(atomic_load(&a.in_serving_softirq));
	assert_true(atomic_load(&a.in_task));
	assert_true(atomic_load(&a.bh_off));
	assert_int_equal(stat0().time_squeeze, 0);
	/* an instance added to a threaded device gets its thread at once */
	ring_init(&b, 'b', 8, 5);
	assert_non_null(b.napi.thread);
	assert_true(irqkit_napi_schedule(&b.napi));
	assert_true(wait_until(atomic_load(&b.reaped) == 5, 5000));
	/* back to the softirq at the next schedule; the threads stay until the del */
	assert_int_equal(irqkit_dev_set_threaded(ndev, false), 0);
	assert_false(a.napi.state & IRQKIT_NAPIF(THREADED));
	atomic_store(&a.backlog, 3);
	assert_true(irqkit_napi_schedule(&a.napi));
	assert_true(wait_until(atomic_load(&a.backlog) == 0, 5000));
	assert_true(wait_until(!irqkit_napi_is_scheduled(&a.napi), 5000));
	assert_true(atomic_load(&a.in_serving_softirq));
	assert_non_null(a.napi.thread);
	ring_fini(&a);
	assert_null(a.napi.thread);		/* stopped by the del */
	ring_fini(&b);
}

/* An instance that completed is on no list: nothing polls it, NET_RX does not run, idle. */
static void test_an_idle_instance_costs_nothing(void **state)
{
	unsigned int runs[2];

	(void)state;
	ring_init(&a, 'a', 8, 5);
	assert_true(irqkit_napi_schedule(&a.napi));
	assert_true(wait_until(atomic_load(&a.completes_true) == 1, 5000));
	for (unsigned int c = 0; c < 2; c++)
		runs[c] = irqkit_kstat_softirqs_cpu(IRQKIT_NET_RX_SOFTIRQ, c);
	usleep(50000);
	for (unsigned int c = 0; c < 2; c++)
		assert_int_equal(irqkit_kstat_softirqs_cpu(IRQKIT_NET_RX_SOFTIRQ, c), runs[c]);
	assert_int_equal(atomic_load(&a.polls), 1);
	ring_fini(&a);
}

/* CPU 1 goes with an instance on its list: it is polled on CPU 0, once. */
static void test_offline_cpus_instances_move(void **state)
{
	struct cpu_hold hold;

	(void)state;
	ring_init(&a, 'a', 8, 5);
	cpu_hold_start(&hold, 1, sched_napi, &a);
	usleep(10000);
	assert_int_equal(atomic_load(&a.polls), 0);
	assert_int_equal(irqkit_remove_cpu(1), 0);
	assert_true(wait_until(atomic_load(&a.reaped) == 5, 5000));
	assert_int_equal(atomic_load(&a.cpu), 0);
	cpu_hold_release(&hold);
	usleep(10000);
	assert_int_equal(atomic_load(&a.polls), 1);
	ring_fini(&a);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_weight_used_polls_again_less_completes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_schedule_during_the_poll_polls_again, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_budget_ends_a_run_and_raises_again, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_two_jiffies_end_a_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_disabled_instance_is_not_scheduled, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_full_poll_with_a_disable_pending_completes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_deferral_polls_from_a_timer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_calls_are_reported_as_linux, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_softnet_stat_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busy_loop_polls_in_the_caller, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busy_loop_with_prefer_and_deferral_keeps_the_interrupt_off,
						setup, teardown),
#if T_CPUS_ARE_THREADS
		cmocka_unit_test_setup_teardown(test_disable_waits_for_a_running_poll, thr_setup_2,
						thr_teardown_2),
		cmocka_unit_test_setup_teardown(test_no_event_waits_after_its_schedule, thr_setup_2,
						thr_teardown_2),
		cmocka_unit_test_setup_teardown(test_offline_cpus_instances_move, thr_setup_2,
						thr_teardown_2),
		cmocka_unit_test_setup_teardown(test_threaded_polls_in_its_kthread, thr_setup_2,
						thr_teardown_2),
		cmocka_unit_test_setup_teardown(test_an_idle_instance_costs_nothing, thr_setup_2,
						thr_teardown_2),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
