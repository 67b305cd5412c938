// SPDX-License-Identifier: MIT
/*
 * Lines bound to file descriptors, against what a user-space driver writes
 * by hand.  The device side is the same code on both sides of each pair:
 *
 *  - round trip: the device writes eventfd A, the interrupt handler writes
 *    eventfd B, the device reads B (blocking).  Peers: a thread in a raw
 *    epoll_wait loop on A, and a thread running libuv with a uv_poll_t on A.
 *  - the same with 16,384 more bound lines, idle, on the same CPU.
 *  - burst: the device writes events to 16 lines as fast as it can while
 *    the dispatcher is awake; per event, against one thread doing
 *    write + epoll_wait + read for each event.
 *  - a CPU played by a libuv loop (irqkit_loop_fd in a uv_poll_t): its
 *    round trip against libuv's own uv_poll_t round trip, same loop thread.
 *  - an arrival recorded (<irqkit/record.h>) against the same arrival not
 *    recorded, one thread (below).
 *  - a PCI device's MSI-X vector (<irqkit/pci.h>, the simulated device)
 *    against a plain eventfd line, one thread (below).
 *
 * Placement is fixed, the same for both sides: the device on host CPU 0,
 * the side that takes the interrupt (virtual CPU 1's dispatcher, pinned with
 * IRQKIT_CFG_PIN_CPUS, or the peer's thread) on host CPU 1.  Left to the
 * scheduler, a pair sometimes shares a core and sometimes not, and a round
 * trip then takes 8 or 25 us by that alone.
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>
#include <irqkit/pci.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>
#include <uv.h>

#include "bench.h"

#define RT_IRQ		1	/* the round-trip line */
#define BURST_FIRST	2	/* the burst lines */
#define BURST_LINES	16
#define IDLE_FIRST	32	/* the idle lines */
#define IDLE_LINES	16384

static int dev_a, dev_b;		/* device -> handler, handler -> device */
static int raw_a, raw_b;		/* the same pair for a peer */

static const uint64_t one = 1;

static void efd_put(int fd)
{
	if (write(fd, &one, sizeof(one)) != sizeof(one))
		abort();
}

static void efd_get(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		abort();
}

#define DEVICE_HOST_CPU	0
#define SERVER_HOST_CPU	1
#define SERVER_VCPU	1

/* The device side: n round trips through @a and @b. */
static void device_round_trips(int a, int b, long n)
{
	bench_pin_to(DEVICE_HOST_CPU);
	for (long i = 0; i < n; i++) {
		efd_put(a);
		efd_get(b);
	}
}

static int blocking_efd(void)
{
	return eventfd(0, EFD_CLOEXEC);
}

static int nonblocking_efd(void)
{
	return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

/* ---- the handler of the round-trip line ------------------------------------- */

static enum irqkit_irqreturn reply_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	efd_put(dev_b);
	return IRQKIT_HANDLED;
}

static void irqkit_round_trips(long n)
{
	device_round_trips(dev_a, dev_b, n);
}

static int start_fd_runtime(unsigned int nr_irqs, uint64_t loop_cpus)
{
	struct irqkit_config cfg = { .nr_irqs = nr_irqs, .nr_cpus = 2, .loop_cpus = loop_cpus,
				     .flags = IRQKIT_CFG_PIN_CPUS };

	if (irqkit_start(&cfg))
		return -1;
	dev_a = nonblocking_efd();
	dev_b = blocking_efd();
	raw_a = nonblocking_efd();
	raw_b = blocking_efd();
	return dev_a < 0 || dev_b < 0 || raw_a < 0 || raw_b < 0 ? -1 : 0;
}

static void close_pairs(void)
{
	close(dev_a);
	close(dev_b);
	close(raw_a);
	close(raw_b);
}

static int bind_round_trip_line(unsigned int cpu)
{
	if (irqkit_fd_bind_eventfd(RT_IRQ, dev_a) ||
	    irqkit_irq_set_affinity(RT_IRQ, 1ull << cpu) ||
	    irqkit_request_irq(RT_IRQ, reply_handler, 0, "bench-rt", NULL))
		return -1;
	return 0;
}

static void unbind_round_trip_line(void)
{
	irqkit_free_irq(RT_IRQ, NULL);
	(void)irqkit_fd_unbind(RT_IRQ);
}

/* ---- peer: a raw epoll loop -------------------------------------------------- */

static pthread_t raw_thread;
static int raw_ep, raw_stop_fd;

static void *raw_server(void *arg)
{
	(void)arg;
	bench_pin_to(SERVER_HOST_CPU);
	for (;;) {
		struct epoll_event ev[8];
		int n = epoll_wait(raw_ep, ev, 8, -1);

		for (int i = 0; i < n; i++) {
			if (ev[i].data.fd == raw_stop_fd)
				return NULL;
			efd_get(raw_a);
			efd_put(raw_b);
		}
	}
}

static int raw_server_start(void)
{
	struct epoll_event ev = { .events = EPOLLIN };

	raw_ep = epoll_create1(EPOLL_CLOEXEC);
	raw_stop_fd = nonblocking_efd();
	ev.data.fd = raw_a;
	if (raw_ep < 0 || epoll_ctl(raw_ep, EPOLL_CTL_ADD, raw_a, &ev))
		return -1;
	ev.data.fd = raw_stop_fd;
	if (epoll_ctl(raw_ep, EPOLL_CTL_ADD, raw_stop_fd, &ev))
		return -1;
	return pthread_create(&raw_thread, NULL, raw_server, NULL) ? -1 : 0;
}

static void raw_server_stop(void)
{
	efd_put(raw_stop_fd);
	pthread_join(raw_thread, NULL);
	close(raw_ep);
	close(raw_stop_fd);
}

static void raw_round_trips(long n)
{
	device_round_trips(raw_a, raw_b, n);
}

/* ---- peer: libuv's uv_poll_t --------------------------------------------------- */

static uv_loop_t uvl;
static uv_poll_t uv_raw_poll, uv_loop_poll;
static uv_async_t uv_stop_async;
static pthread_t uv_thread;
static int uv_plays_cpu = -1;		/* the CPU this loop plays, or -1 */

static void uv_on_raw(uv_poll_t *p, int status, int events)
{
	uint64_t v;

	(void)p;
	(void)status;
	(void)events;
	if (read(raw_a, &v, sizeof(v)) == sizeof(v))
		efd_put(raw_b);
}

static void uv_on_loop_fd(uv_poll_t *p, int status, int events)
{
	(void)p;
	(void)status;
	(void)events;
	(void)irqkit_loop_run();
}

static void uv_on_stop(uv_async_t *a)
{
	uv_stop(a->loop);
}

static void *uv_server(void *arg)
{
	(void)arg;
	bench_pin_to(SERVER_HOST_CPU);
	if (uv_plays_cpu >= 0 && irqkit_thread_bind((unsigned int)uv_plays_cpu))
		abort();
	uv_run(&uvl, UV_RUN_DEFAULT);
	if (uv_plays_cpu >= 0)
		irqkit_thread_unbind();
	return NULL;
}

static int uv_server_start(int loop_fd)
{
	if (uv_loop_init(&uvl) || uv_poll_init(&uvl, &uv_raw_poll, raw_a) ||
	    uv_poll_start(&uv_raw_poll, UV_READABLE, uv_on_raw) ||
	    uv_async_init(&uvl, &uv_stop_async, uv_on_stop))
		return -1;
	if (loop_fd >= 0 && (uv_poll_init(&uvl, &uv_loop_poll, loop_fd) ||
			     uv_poll_start(&uv_loop_poll, UV_READABLE, uv_on_loop_fd)))
		return -1;
	return pthread_create(&uv_thread, NULL, uv_server, NULL) ? -1 : 0;
}

static void on_uv_closed(uv_handle_t *h)
{
	(void)h;
}

static void uv_server_stop(void)
{
	uv_async_send(&uv_stop_async);
	pthread_join(uv_thread, NULL);
	uv_close((uv_handle_t *)&uv_raw_poll, on_uv_closed);
	uv_close((uv_handle_t *)&uv_stop_async, on_uv_closed);
	if (uv_plays_cpu >= 0)
		uv_close((uv_handle_t *)&uv_loop_poll, on_uv_closed);
	uv_run(&uvl, UV_RUN_DEFAULT);
	uv_loop_close(&uvl);
	uv_plays_cpu = -1;
}

/* ---- round trip: irqkit vs raw epoll, vs libuv ------------------------------------ */

static int setup_rt_raw(void)
{
	return start_fd_runtime(64, 0) || bind_round_trip_line(SERVER_VCPU) || raw_server_start();
}

static void teardown_rt_raw(void)
{
	raw_server_stop();
	unbind_round_trip_line();
	irqkit_stop();
	close_pairs();
}

static int setup_rt_uv(void)
{
	return start_fd_runtime(64, 0) || bind_round_trip_line(SERVER_VCPU) || uv_server_start(-1);
}

static void teardown_rt_uv(void)
{
	uv_server_stop();
	unbind_round_trip_line();
	irqkit_stop();
	close_pairs();
}

/* ---- 16,384 idle bound lines ---------------------------------------------------- */

static int idle_fds[IDLE_LINES];
static bool idle_requested;

static enum irqkit_irqreturn never_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	return IRQKIT_NONE;
}

/* Request (or free) every idle line: their descriptors join (or leave) CPU 0's epoll set. */
static void idle_lines_request(bool on)
{
	if (idle_requested == on)
		return;
	for (int i = 0; i < IDLE_LINES; i++) {
		if (on) {
			if (irqkit_request_irq(IDLE_FIRST + (unsigned int)i, never_handler, 0, "idle",
					       &idle_fds[i]))
				abort();
		} else {
			irqkit_free_irq(IDLE_FIRST + (unsigned int)i, &idle_fds[i]);
		}
	}
	idle_requested = on;
}

static void timed_round_trips(long n, bool idle_on)
{
	uint64_t t0;

	idle_lines_request(idle_on);
	t0 = bench_now_ns();
	device_round_trips(dev_a, dev_b, n);
	bench_report_ns((double)(bench_now_ns() - t0) / (double)n);
}

static void rt_with_idle(long n) { timed_round_trips(n, true); }
static void rt_without_idle(long n) { timed_round_trips(n, false); }

static int setup_idle(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < IDLE_LINES + 256 &&
	    rl.rlim_max >= IDLE_LINES + 256) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (start_fd_runtime(IDLE_FIRST + IDLE_LINES, 0) || bind_round_trip_line(SERVER_VCPU))
		return -1;
	for (int i = 0; i < IDLE_LINES; i++) {
		idle_fds[i] = nonblocking_efd();
		if (idle_fds[i] < 0) {
			fprintf(stderr, "fd_round_trip_16k_idle: %d descriptors needed (ulimit -n)\n",
				IDLE_LINES + 256);
			return -1;
		}
		if (irqkit_fd_bind_eventfd(IDLE_FIRST + (unsigned int)i, idle_fds[i]) ||
		    irqkit_irq_set_affinity(IDLE_FIRST + (unsigned int)i, 1ull << SERVER_VCPU))
			return -1;
	}
	return 0;
}

static void teardown_idle(void)
{
	idle_lines_request(false);
	for (int i = 0; i < IDLE_LINES; i++) {
		(void)irqkit_fd_unbind(IDLE_FIRST + (unsigned int)i);
		close(idle_fds[i]);
	}
	unbind_round_trip_line();
	irqkit_stop();
	close_pairs();
}

/* ---- burst ------------------------------------------------------------------------ */

static int burst_fds[BURST_LINES];
static long burst_seen;		/* events the handlers stood for */

static enum irqkit_irqreturn burst_handler(int irq, void *dev_id)
{
	struct irqkit_irq_events ev;

	(void)dev_id;
	irqkit_irq_get_events((unsigned int)irq, &ev);
	__atomic_fetch_add(&burst_seen, (long)ev.events, __ATOMIC_RELEASE);
	return IRQKIT_HANDLED;
}

static void irqkit_burst(long n)
{
	long target = __atomic_load_n(&burst_seen, __ATOMIC_RELAXED) + n;

	bench_pin_to(DEVICE_HOST_CPU);
	for (long i = 0; i < n; i++)
		efd_put(burst_fds[i % BURST_LINES]);
	while (__atomic_load_n(&burst_seen, __ATOMIC_ACQUIRE) < target)
		;
}

/* One thread: write an event, epoll_wait for it, read it. */
static int floor_ep, floor_fds[BURST_LINES];

static void raw_write_wait_read(long n)
{
	bench_pin_to(DEVICE_HOST_CPU);
	for (long i = 0; i < n; i++) {
		struct epoll_event ev;
		uint64_t v;

		efd_put(floor_fds[i % BURST_LINES]);
		if (epoll_wait(floor_ep, &ev, 1, -1) != 1 ||
		    read(ev.data.fd, &v, sizeof(v)) != sizeof(v))
			abort();
	}
}

static int setup_burst(void)
{
	if (start_fd_runtime(64, 0))
		return -1;
	floor_ep = epoll_create1(EPOLL_CLOEXEC);
	for (int i = 0; i < BURST_LINES; i++) {
		struct epoll_event ev = { .events = EPOLLIN };

		burst_fds[i] = nonblocking_efd();
		floor_fds[i] = ev.data.fd = nonblocking_efd();
		if (irqkit_fd_bind_eventfd(BURST_FIRST + (unsigned int)i, burst_fds[i]) ||
		    irqkit_irq_set_affinity(BURST_FIRST + (unsigned int)i, 1ull << SERVER_VCPU) ||
		    irqkit_request_irq(BURST_FIRST + (unsigned int)i, burst_handler, 0, "burst", NULL) ||
		    epoll_ctl(floor_ep, EPOLL_CTL_ADD, floor_fds[i], &ev))
			return -1;
	}
	return 0;
}

static void teardown_burst(void)
{
	for (int i = 0; i < BURST_LINES; i++) {
		irqkit_free_irq(BURST_FIRST + (unsigned int)i, NULL);
		(void)irqkit_fd_unbind(BURST_FIRST + (unsigned int)i);
		close(burst_fds[i]);
		close(floor_fds[i]);
	}
	close(floor_ep);
	irqkit_stop();
	close_pairs();
}

/* ---- a CPU played by a libuv loop --------------------------------------------------- */

static int setup_loop(void)
{
	if (start_fd_runtime(64, 1ull << SERVER_VCPU) || bind_round_trip_line(SERVER_VCPU))
		return -1;
	uv_plays_cpu = SERVER_VCPU;
	return uv_server_start(irqkit_loop_fd(SERVER_VCPU));
}

static void teardown_loop(void)
{
	uv_server_stop();
	unbind_round_trip_line();
	irqkit_stop();
	close_pairs();
}

/* ---- the recorder's cost per arrival ---------------------------------------------------
 *
 * One thread plays a loop CPU and is its device too: it writes the eventfd,
 * runs the loop (the chip reads the counter, the handler answers on the
 * other eventfd) and reads the answer.  Single-threaded, so callgrind
 * counts it (bench/callgrind.sh); the subject records the line to a file,
 * the floor does not.
 */
static char rec_path[64];

static int setup_arrivals(void)
{
	if (start_fd_runtime(64, 1ull << SERVER_VCPU) || bind_round_trip_line(SERVER_VCPU) ||
	    irqkit_thread_bind(SERVER_VCPU))
		return -1;
	snprintf(rec_path, sizeof(rec_path), "/tmp/irqkit-bench-%d.rec", (int)getpid());
	return 0;
}

static void teardown_arrivals(void)
{
	(void)irqkit_thread_unbind();
	unbind_round_trip_line();
	irqkit_stop();
	close_pairs();
	unlink(rec_path);
}

static void loop_arrivals(long n)
{
	for (long i = 0; i < n; i++) {
		efd_put(dev_a);
		if (irqkit_loop_run() != 1)
			abort();
		efd_get(dev_b);
	}
}

static void recorded_arrivals(long n)
{
	unsigned int irq = RT_IRQ;

	if (irqkit_record_start(rec_path, &irq, 1))
		abort();
	loop_arrivals(n);
	if (irqkit_record_stop() != n)
		abort();
}

/* ---- a PCI vector's arrival ------------------------------------------------------------
 *
 * The same single-threaded loop, the arrival coming through an MSI-X
 * vector of a simulated PCI device (a line of the device's own domain,
 * bound to the eventfd VFIO would signal) instead of a line bound to an
 * eventfd by hand.  The device side is the same on both: one eventfd
 * write, to the vector's eventfd here (what the host kernel writes for
 * VFIO), so the pair compares the deliveries alone.
 */
static struct irqkit_pci_dev *vec_dev;
static unsigned int vec_irq;
static int vec_fd;

static int setup_vector(void)
{
	struct irqkit_pci_sim_config sim = { .msix = 1 };
	int v;

	if (setup_arrivals() || irqkit_pci_sim_create("0000:00:05.0", &sim, &vec_dev) ||
	    irqkit_pci_alloc_irq_vectors(vec_dev, 1, 1, IRQKIT_PCI_IRQ_MSIX) != 1)
		return -1;
	v = irqkit_pci_irq_vector(vec_dev, 0);
	if (v <= 0 || irqkit_irq_set_affinity((unsigned int)v, 1ull << SERVER_VCPU) ||
	    irqkit_request_irq((unsigned int)v, reply_handler, 0, "bench-vector", NULL))
		return -1;
	vec_irq = (unsigned int)v;
	vec_fd = irqkit_fd_of(vec_irq);
	return vec_fd < 0 ? -1 : 0;
}

static void teardown_vector(void)
{
	irqkit_free_irq(vec_irq, NULL);
	irqkit_pci_free_irq_vectors(vec_dev);
	(void)irqkit_pci_close(vec_dev);
	teardown_arrivals();
}

static void vector_arrivals(long n)
{
	for (long i = 0; i < n; i++) {
		efd_put(vec_fd);
		if (irqkit_loop_run() != 1)
			abort();
		efd_get(dev_b);
	}
}

static const struct bench benches[] = {
	{ .name = "fd_round_trip", .floor_name = "eventfd_epoll_pingpong",
	  .subject = irqkit_round_trips, .floor = raw_round_trips, .target = 1.05,
	  .setup = setup_rt_raw, .teardown = teardown_rt_raw, .flags = BENCH_UNPINNED,
	  .unit = "ns/trip" },
	{ .name = "fd_round_trip", .floor_name = "uv_poll_pingpong",
	  .subject = irqkit_round_trips, .floor = raw_round_trips, .target = 1.0,
	  .setup = setup_rt_uv, .teardown = teardown_rt_uv, .flags = BENCH_UNPINNED,
	  .unit = "ns/trip" },
	{ .name = "fd_round_trip_16k_idle", .floor_name = "fd_round_trip",
	  .subject = rt_with_idle, .floor = rt_without_idle, .target = 1.10,
	  .setup = setup_idle, .teardown = teardown_idle, .flags = BENCH_UNPINNED,
	  .unit = "ns/trip" },
	{ .name = "fd_burst", .floor_name = "write_epoll_wait_read",
	  .subject = irqkit_burst, .floor = raw_write_wait_read, .target = 1.0,
	  .setup = setup_burst, .teardown = teardown_burst, .flags = BENCH_UNPINNED,
	  .unit = "ns/event" },
	{ .name = "loop_cpu_round_trip", .floor_name = "uv_poll_pingpong",
	  .subject = irqkit_round_trips, .floor = raw_round_trips, .target = 1.10,
	  .setup = setup_loop, .teardown = teardown_loop, .flags = BENCH_UNPINNED,
	  .unit = "ns/trip" },
	{ .name = "fd_arrival_recorded", .floor_name = "fd_arrival",
	  .subject = recorded_arrivals, .floor = loop_arrivals, .target = 0,
	  .setup = setup_arrivals, .teardown = teardown_arrivals, .unit = "ns/arrival" },
	{ .name = "pci_vector_arrival", .floor_name = "fd_arrival",
	  .subject = vector_arrivals, .floor = loop_arrivals, .target = 1.05,
	  .setup = setup_vector, .teardown = teardown_vector, .unit = "ns/arrival" },
};

const struct bench_set bench_fd_set = { benches, sizeof(benches) / sizeof(benches[0]) };
