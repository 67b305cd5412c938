// SPDX-License-Identifier: MIT
/*
 * A virtual CPU inside a GLib main loop: g_unix_fd_add() watches
 * irqkit_loop_fd(), and the callback calls irqkit_loop_run(), which runs the
 * handlers (and the softirqs they raise) on the loop's thread.
 * Usage: example-loop-glib [events]; exit status 0 when every event arrived.
 */
#include "loop_device.h"

#include <glib.h>
#include <glib-unix.h>

static struct loop_dev dev;

static gboolean on_ready(gint fd, GIOCondition cond, gpointer loop)
{
	(void)fd;
	(void)cond;
	if (irqkit_loop_run() < 0 || loop_dev_done(&dev)) {
		g_main_loop_quit(loop);
		return G_SOURCE_REMOVE;
	}
	return G_SOURCE_CONTINUE;
}

static gboolean on_timeout(gpointer loop)
{
	fprintf(stderr, "timed out\n");
	g_main_loop_quit(loop);
	return G_SOURCE_REMOVE;
}

int main(int argc, char **argv)
{
	GMainLoop *loop = g_main_loop_new(NULL, FALSE);
	int fd = loop_dev_start(&dev, argc > 1 ? atoi(argv[1]) : 1000);
	guint watch = g_unix_fd_add(fd, G_IO_IN, on_ready, loop);
	guint timer = g_timeout_add(20000, on_timeout, loop);

	g_main_loop_run(loop);
	g_source_remove(timer);
	if (!loop_dev_done(&dev))
		g_source_remove(watch);
	g_main_loop_unref(loop);
	return loop_dev_finish(&dev, "GLib");
}
