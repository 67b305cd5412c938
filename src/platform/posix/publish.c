// SPDX-License-Identifier: MIT
/*
 * The runtime's tables for other processes (irqkit-top, lsirq, a script).
 *
 * With IRQKIT_CFG_PUBLISH, or IRQKIT_PUBLISH in the environment ("1", or the
 * interval in milliseconds), a thread "irqkit-publish" rewrites, once per
 * interval (default 1000 ms), a directory named by the process id under
 * $IRQKIT_PUBLISH_DIR, else $XDG_RUNTIME_DIR/irqkit, else /tmp/irqkit-UID:
 *
 *   comm        the program's name, written once
 *   interrupts  Linux's /proc/interrupts, exactly (lsirq and irqtop parse it)
 *   softirqs    Linux's /proc/softirqs
 *   timer_list  the high-resolution timers queued, per CPU (/proc/timer_list's shape)
 *   irqkit      the irqkit section of the table: per line its spurious
 *               accounting and its coalesced and lost arrivals
 *   counters.json  every counter (irqkit_show_counters_json())
 *   hist        the latency histograms, while they record (<irqkit/observe.h>)
 *
 * Each file is written whole under a temporary name and renamed, so a reader
 * sees one table or the next, never half of one.  At stop the directory goes.
 * A directory that cannot be made is reported once; the runtime runs on.
 */
#define _GNU_SOURCE
#include <irqkit/irqkit.h>
#include <irqkit/hrtimer.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "posix.h"

#define PUBLISH_MS_DEFAULT	1000u

static struct {
	pthread_t	thread;
	pthread_mutex_t	lock;
	pthread_cond_t	cond;
	bool		running, stop;
	unsigned int	interval_ms;
	char		dir[4096];
	char		*buf;
	size_t		size;
} pub = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

/* Where the directories of every publishing program live. */
static int base_dir(char *out, size_t size)
{
	const char *env = getenv("IRQKIT_PUBLISH_DIR");
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int n;

	if (env && *env)
		n = snprintf(out, size, "%s", env);
	else if (xdg && *xdg)
		n = snprintf(out, size, "%s/irqkit", xdg);
	else
		n = snprintf(out, size, "/tmp/irqkit-%u", (unsigned int)getuid());
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int make_dir(const char *path)
{
	struct stat st;

	if (!mkdir(path, 0700))
		return 0;
	if (errno != EEXIST)
		return -errno;
	if (stat(path, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

/* @name in the directory, all of @len bytes of @data, or nothing. */
static int write_file(const char *name, const char *data, size_t len)
{
	char tmp[4200], path[4200];
	int fd, ret = 0;

	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", pub.dir, name);
	snprintf(path, sizeof(path), "%s/%s", pub.dir, name);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		data += n;
		len -= (size_t)n;
	}
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

/* A table into pub.buf, grown until it fits.  Return: its length, or -errno. */
static int table(int (*show)(char *, size_t))
{
	for (;;) {
		int n = show(pub.buf, pub.size);
		char *bigger;

		if (n < 0)
			return n;
		if ((size_t)n < pub.size)
			return n;
		bigger = realloc(pub.buf, (size_t)n * 2);
		if (!bigger)
			return -ENOMEM;
		pub.buf = bigger;
		pub.size = (size_t)n * 2;
	}
}

/* The interrupt table with irqkit's section: its Linux part is "interrupts", the rest "irqkit". */
static int show_interrupts_and_section(char *buf, size_t size)
{
	return irqkit_show_interrupts_buf(buf, size, IRQKIT_SHOW_IRQKIT);
}

/* File @name: the whole of what @show writes. */
static int publish_table(const char *name, int (*show)(char *, size_t))
{
	int n = table(show);

	return n < 0 ? n : write_file(name, pub.buf, (size_t)n);
}

static int publish_once(void)
{
	const char *section;
	int n, ret;

	n = table(show_interrupts_and_section);
	if (n < 0)
		return n;
	section = strstr(pub.buf, "\nirqkit:");
	section = section ? section + 1 : pub.buf + n;
	ret = write_file("interrupts", pub.buf, (size_t)(section - pub.buf));
	if (!ret)
		ret = write_file("irqkit", section, (size_t)(pub.buf + n - section));
	if (!ret)
		ret = publish_table("softirqs", irqkit_show_softirqs_buf);
	if (!ret)
		ret = publish_table("timer_list", irqkit_show_timer_list);
	if (!ret)
		ret = publish_table("counters.json", irqkit_show_counters_json);
	if (!ret && irqkit_hist_enabled())
		ret = publish_table("hist", irqkit_show_hist_buf);
	return ret;
}

static void warn_cannot_publish(const char *where, int err)
{
	irqkit_printk(IRQKIT_LOG_WARNING, "irqkit: cannot publish the tables in %s: %s", where,
		      strerror(-err));
}

static void *publish_main(void *arg)
{
	bool reported = false;

	(void)arg;
	pthread_setname_np(pthread_self(), "irqkit-publish");
	pthread_mutex_lock(&pub.lock);
	while (!pub.stop) {
		struct timespec until;
		int ret;

		pthread_mutex_unlock(&pub.lock);
		ret = publish_once();
		if (ret && !reported) {
			warn_cannot_publish(pub.dir, ret);
			reported = true;
		}
		clock_gettime(CLOCK_REALTIME, &until);	/* the condition variable's clock */
		until.tv_sec += pub.interval_ms / 1000;
		until.tv_nsec += (long)(pub.interval_ms % 1000) * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_mutex_lock(&pub.lock);
		while (!pub.stop && pthread_cond_timedwait(&pub.cond, &pub.lock, &until) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&pub.lock);
	return NULL;
}

/* The interval asked for: @flag set, or IRQKIT_PUBLISH ("1" or milliseconds); 0: off. */
static unsigned int interval_ms(bool flag)
{
	const char *env = getenv("IRQKIT_PUBLISH");
	unsigned long ms;
	char *end;

	if (!env || !*env)
		return flag ? PUBLISH_MS_DEFAULT : 0;
	errno = 0;
	ms = strtoul(env, &end, 10);
	if (errno || *end || ms > 3600000ul) {
		irqkit_printk(IRQKIT_LOG_WARNING,
			      "irqkit: IRQKIT_PUBLISH=%s: not 0, 1 or an interval in ms (up to 3600000); not publishing",
			      env);
		return 0;
	}
	if (ms == 0)
		return 0;
	return ms == 1 ? PUBLISH_MS_DEFAULT : (unsigned int)ms;
}

void irqkit__posix_publish_start(bool flag)
{
	char base[4096], comm[64] = "";
	FILE *f;
	int ret;

	pub.interval_ms = interval_ms(flag);
	if (!pub.interval_ms)
		return;
	ret = base_dir(base, sizeof(base));
	if (!ret)
		ret = make_dir(base);
	if (!ret && snprintf(pub.dir, sizeof(pub.dir), "%s/%d", base, (int)getpid()) >=
		    (int)sizeof(pub.dir))
		ret = -ENAMETOOLONG;
	if (!ret)
		ret = make_dir(pub.dir);
	if (!ret) {
		f = fopen("/proc/self/comm", "re");
		if (f) {
			if (!fgets(comm, sizeof(comm), f))
				comm[0] = '\0';
			fclose(f);
		}
		ret = write_file("comm", comm, strlen(comm));
	}
	if (!ret) {
		pub.stop = false;
		ret = -pthread_create(&pub.thread, NULL, publish_main, NULL);
	}
	if (ret) {
		warn_cannot_publish(pub.dir[0] ? pub.dir : base, ret);
		pub.dir[0] = '\0';
		return;
	}
	pub.running = true;
}

void irqkit__posix_publish_stop(void)
{
	static const char *const files[] = {
		"interrupts", "irqkit", "softirqs", "timer_list", "counters.json", "hist", "comm",
	};
	char path[4200];

	if (!pub.running)
		return;
	pthread_mutex_lock(&pub.lock);
	pub.stop = true;
	pthread_cond_signal(&pub.cond);
	pthread_mutex_unlock(&pub.lock);
	pthread_join(pub.thread, NULL);
	pub.running = false;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", pub.dir, files[i]);
		unlink(path);
	}
	rmdir(pub.dir);
	pub.dir[0] = '\0';
	free(pub.buf);
	pub.buf = NULL;
	pub.size = 0;
}
