// SPDX-License-Identifier: MIT
/*
 * The platform's one-shot timer: a thread that sleeps until the programmed
 * deadline and then tells the core, which raises TIMER_SOFTIRQ on the CPUs
 * that have timers due (their local timer interrupt).  It sleeps without a
 * deadline when no timer is armed: an idle runtime does not wake up.  Its
 * timer slack is 1 ns: it stands for a hardware timer, and the kernel's
 * default 50 us of slack would make every timer that much late.
 */
#define _GNU_SOURCE
#include "../../core/platform.h"
#include <irqkit/irqkit.h>

#include <pthread.h>
#include <sys/prctl.h>
#include <time.h>

#include "posix.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond;
static pthread_t thread;
static uint64_t deadline = UINT64_MAX;
static bool stopping, running;

void irqkit_plat_timer_program(uint64_t deadline_ns)
{
	pthread_mutex_lock(&lock);
	if (running) {
		deadline = deadline_ns;
		pthread_cond_signal(&cond);
	}
	pthread_mutex_unlock(&lock);
}

static void *timer_main(void *arg)
{
	(void)arg;
	irqkit_task_self.kthread = true;	/* irqkit_stop() from here is refused */
	pthread_setname_np(pthread_self(), "ktimerd");
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);	/* best effort */
	pthread_mutex_lock(&lock);
	while (!stopping) {
		uint64_t now = irqkit_plat_now_ns();

		if (deadline == UINT64_MAX) {
			pthread_cond_wait(&cond, &lock);
		} else if (now < deadline) {
			struct timespec ts = {
				.tv_sec = (time_t)(deadline / 1000000000ull),
				.tv_nsec = (long)(deadline % 1000000000ull),
			};

			pthread_cond_timedwait(&cond, &lock, &ts);
		} else {
			deadline = UINT64_MAX;
			pthread_mutex_unlock(&lock);
			irqkit__timer_interrupt();
			pthread_mutex_lock(&lock);
		}
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

int irqkit__posix_timer_start(void)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&cond, &attr);
	pthread_condattr_destroy(&attr);
	pthread_mutex_lock(&lock);
	deadline = UINT64_MAX;
	stopping = false;
	running = true;
	pthread_mutex_unlock(&lock);
	if (pthread_create(&thread, NULL, timer_main, NULL)) {
		pthread_mutex_lock(&lock);
		running = false;
		pthread_mutex_unlock(&lock);
		pthread_cond_destroy(&cond);
		return -IRQKIT_ENOMEM;
	}
	return 0;
}

void irqkit__posix_timer_stop(void)
{
	pthread_mutex_lock(&lock);
	if (!running) {
		pthread_mutex_unlock(&lock);
		return;
	}
	stopping = true;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	pthread_join(thread, NULL);
	/* later programming (from a thread that still runs) finds it stopped */
	pthread_mutex_lock(&lock);
	running = false;
	pthread_mutex_unlock(&lock);
	pthread_cond_destroy(&cond);
}
