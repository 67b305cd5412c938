// SPDX-License-Identifier: MIT
/*
 * The host's signals routed into irqkit's (irqkit_route_signal): a real
 * POSIX signal sent to the process becomes irqkit_signal_all_tasks(), so
 * a terminal's Ctrl-C ends a driver's interruptible read with
 * -ERESTARTSYS as it would on Linux.
 *
 * The handler only writes the signal's number to a pipe (async-signal-safe:
 * the host may interrupt any thread, one that holds the task list's lock
 * among them); a thread of this file reads the pipe and does the delivery.
 * A signal goes one way: one that a line's signalfd takes is not routed.
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>
#include <irqkit/signal.h>

#include <irqkit-core/atomic.h>

#include "fd.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t route_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t routed;				/* bit n - 1: signal n; atomic */
static struct sigaction saved[IRQKIT_NSIG + 1];	/* route_lock: the handlers replaced */
static int route_pipe[2] = { -1, -1 };		/* route_lock */
static pthread_t router;			/* route_lock */

uint64_t irqkit__fd_routed_signals(void)
{
	return a_load_seq(&routed);
}

static void route_handler(int signo)
{
	int saved_errno = errno;
	unsigned char b = (unsigned char)signo;

	if (write(route_pipe[1], &b, 1) < 0) {
		/* the pipe is full: signals already queued there stand for this one */
	}
	errno = saved_errno;
}

/* Deliver what the handler wrote; a 0 byte ends the thread. */
static void *router_main(void *arg)
{
	sigset_t all;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);	/* the host delivers elsewhere */
	for (;;) {
		unsigned char b;
		ssize_t n = read(route_pipe[0], &b, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n != 1 || !b)
			break;
		(void)irqkit_signal_all_tasks(b);
	}
	return NULL;
}

/* The first route starts the router thread.  Caller: route_lock. */
static int router_start(void)
{
	if (route_pipe[0] >= 0)
		return 0;
	if (pipe2(route_pipe, O_CLOEXEC))
		return -IRQKIT_ENOMEM;
	if (pthread_create(&router, NULL, router_main, NULL)) {
		close(route_pipe[0]);
		close(route_pipe[1]);
		route_pipe[0] = route_pipe[1] = -1;
		return -IRQKIT_ENOMEM;
	}
	pthread_setname_np(router, "irqkit-signals");
	return 0;
}

/* The last route gone: end the router thread.  Caller: route_lock. */
static void router_stop(void)
{
	unsigned char end = 0;

	if (route_pipe[0] < 0 || a_load_seq(&routed))
		return;
	while (write(route_pipe[1], &end, 1) < 0 && errno == EINTR)
		;
	pthread_join(router, NULL);
	close(route_pipe[0]);
	close(route_pipe[1]);
	route_pipe[0] = route_pipe[1] = -1;
}

int irqkit_route_signal(int signo)
{
	struct sigaction sa;
	uint64_t bit;
	int irq, ret;

	if (signo < 1 || signo > IRQKIT_NSIG || signo == SIGKILL || signo == SIGSTOP)
		return -IRQKIT_EINVAL;
	bit = 1ull << (signo - 1);
	pthread_mutex_lock(&route_lock);
	if (a_load_seq(&routed) & bit) {
		pthread_mutex_unlock(&route_lock);
		return -IRQKIT_EALREADY;
	}
	/* claimed before the lines are read: a bind racing this sees it (fd.h) */
	a_fetch_or(&routed, bit);
	irq = irqkit__fd_signalfd_taker(signo);
	if (irq >= 0) {
		a_fetch_and(&routed, ~bit);
		pthread_mutex_unlock(&route_lock);
		irqkit_printk(IRQKIT_LOG_ERR,
			      "irqkit_route_signal(%d): line %d's signalfd takes it; a signal goes to a line or to tasks, not both",
			      signo, irq);
		return -IRQKIT_EBUSY;
	}
	ret = router_start();
	if (!ret) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = route_handler;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		if (sigaction(signo, &sa, &saved[signo]))
			ret = -IRQKIT_EINVAL;
	}
	if (ret) {
		a_fetch_and(&routed, ~bit);
		router_stop();
	}
	pthread_mutex_unlock(&route_lock);
	return ret;
}

int irqkit_unroute_signal(int signo)
{
	if (signo < 1 || signo > IRQKIT_NSIG)
		return -IRQKIT_EINVAL;
	pthread_mutex_lock(&route_lock);
	if (!(a_load_seq(&routed) & (1ull << (signo - 1)))) {
		pthread_mutex_unlock(&route_lock);
		return -IRQKIT_ENOENT;
	}
	sigaction(signo, &saved[signo], NULL);
	a_fetch_and(&routed, ~(1ull << (signo - 1)));
	router_stop();
	pthread_mutex_unlock(&route_lock);
	return 0;
}
