// SPDX-License-Identifier: MIT
/*
 * A virtual CPU inside libuv's loop: uv_poll_t watches irqkit_loop_fd(), and
 * its callback calls irqkit_loop_run(), which runs the handlers (and the
 * softirqs they raise) right there, on the loop's thread.
 * Usage: example-loop-libuv [events]; exit status 0 when every event arrived.
 */
#include "loop_device.h"

#include <uv.h>

static struct loop_dev dev;

static void on_ready(uv_poll_t *p, int status, int events)
{
	(void)events;
	if (status < 0 || irqkit_loop_run() < 0 || loop_dev_done(&dev))
		uv_stop(p->loop);
}

static void on_timeout(uv_timer_t *t)
{
	fprintf(stderr, "timed out\n");
	uv_stop(t->loop);
}

int main(int argc, char **argv)
{
	uv_loop_t *loop = uv_default_loop();
	uv_poll_t poll;
	uv_timer_t timer;
	int fd = loop_dev_start(&dev, argc > 1 ? atoi(argv[1]) : 1000);

	uv_poll_init(loop, &poll, fd);
	uv_poll_start(&poll, UV_READABLE, on_ready);
	uv_timer_init(loop, &timer);
	uv_timer_start(&timer, on_timeout, 20000, 0);
	uv_run(loop, UV_RUN_DEFAULT);
	uv_poll_stop(&poll);
	uv_timer_stop(&timer);
	return loop_dev_finish(&dev, "libuv");
}
