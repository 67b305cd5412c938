// SPDX-License-Identifier: MIT
/*
 * The test harness: log capture, test worlds, simulated devices.  Portable:
 * the bare-metal images build it too; what needs the host's C library is in
 * harness_host.c (tests/riscv/harness_rv.c on bare metal).
 */
#define _GNU_SOURCE
#include "harness.h"

struct logcap logcap = { .lock = PTHREAD_MUTEX_INITIALIZER };
char order_buf[256];

void logcap_hook(void *arg, int level, const char *line)
{
	(void)arg;
	/* a wait-context report fails every test but the check's own (tests/CMakeLists.txt) */
	if (strstr(line, "[ BUG: Invalid wait context ]"))
		test_printf("harness: validator report: %s\n", line);
	pthread_mutex_lock(&logcap.lock);
	if (logcap.echo)
		test_printf("  log<%d> %s\n", level, line);
	if (logcap.n < LOG_MAX_LINES) {
		snprintf(logcap.lines[logcap.n], LOG_LINE_LEN, "%s", line);
		logcap.levels[logcap.n] = level;
		logcap.n++;
	} else {
		logcap.dropped++;
	}
	pthread_mutex_unlock(&logcap.lock);
}

void log_clear(void)
{
	pthread_mutex_lock(&logcap.lock);
	logcap.n = 0;
	logcap.dropped = 0;
	pthread_mutex_unlock(&logcap.lock);
}

int log_find(const char *needle, int from)
{
	int found = -1;

	pthread_mutex_lock(&logcap.lock);
	for (int i = from < 0 ? 0 : from; i < logcap.n; i++) {
		if (strstr(logcap.lines[i], needle)) {
			found = i;
			break;
		}
	}
	pthread_mutex_unlock(&logcap.lock);
	return found;
}

int log_count(const char *needle)
{
	int n = 0;

	pthread_mutex_lock(&logcap.lock);
	for (int i = 0; i < logcap.n; i++)
		if (strstr(logcap.lines[i], needle))
			n++;
	pthread_mutex_unlock(&logcap.lock);
	return n;
}

bool log_contains(const char *needle)
{
	return log_find(needle, 0) >= 0;
}

void log_dump(void)
{
	pthread_mutex_lock(&logcap.lock);
	test_printf("--- captured log (%d lines, %d dropped)\n", logcap.n, logcap.dropped);
	for (int i = 0; i < logcap.n && i < 200; i++)
		test_printf("  %s\n", logcap.lines[i]);
	pthread_mutex_unlock(&logcap.lock);
}

static int add_lines(void)
{
	if (irqkit_swchip_add(T_EDGE(0), 16, IRQKIT_TYPE_EDGE_RISING))
		return -1;
	if (irqkit_swchip_add(T_LEVEL(0), 16, IRQKIT_TYPE_LEVEL_HIGH))
		return -1;
	return 0;
}

int start_world_cfg(struct irqkit_config cfg)
{
	cfg.log = logcap_hook;
	logcap.echo = test_log_echo();
	log_clear();
	order_buf[0] = '\0';
	if (irqkit_start(&cfg))
		return -1;
	if (add_lines()) {
		irqkit_stop();
		return -1;
	}
	return 0;
}

static int start_world(enum irqkit_mode mode, unsigned int cpus, unsigned int nr_irqs,
		       unsigned int flags)
{
	return start_world_cfg((struct irqkit_config){
		.nr_irqs = nr_irqs, .nr_cpus = cpus, .mode = mode, .flags = flags });
}

int det_setup_flags(unsigned int cfg_flags)
{
	return start_world(IRQKIT_MODE_DETERMINISTIC, T_NR_CPUS, T_NR_IRQS, cfg_flags);
}

int det_setup(void **state)
{
	(void)state;
	return det_setup_flags(0);
}

int det_teardown(void **state)
{
	(void)state;
	irqkit_stop();
	return 0;
}

int thr_setup_cpus(unsigned int cpus, unsigned int nr_irqs)
{
	return start_world(IRQKIT_MODE_THREADED, cpus, nr_irqs, 0);
}

int thr_setup(void **state)
{
	(void)state;
	return thr_setup_cpus(T_NR_CPUS, T_NR_IRQS);
}

int thr_teardown(void **state)
{
	(void)state;
	irqkit_stop();
	return 0;
}

struct irqkit_irq_info info_of(unsigned int irq)
{
	struct irqkit_irq_info info;

	assert_int_equal(irqkit_irq_get_info(irq, &info), 0);
	return info;
}

void tdev_raise_served(struct tdev *dev, unsigned int irq, int n)
{
	int handled = atomic_load(&dev->handled);

	for (int i = 0; i < n; i++) {
		atomic_store(&dev->status, 1);
		assert_int_equal(irqkit_sw_raise(irq), 0);
		assert_true(wait_until(!atomic_load(&dev->status), 5000));
	}
	assert_true(wait_until(atomic_load(&dev->handled) == handled + n, 10000));
}

void tdev_init(struct tdev *dev)
{
	memset(dev, 0, sizeof(*dev));
	dev->ret = -1;
}

enum irqkit_irqreturn tdev_handler(int irq, void *dev_id)
{
	struct tdev *dev = dev_id;

	/* what the handler saw first, then the count a waiting test reads (seq_cst) */
	dev->saw_irqs_off = irqkit_irqs_disabled();
	dev->saw_hardirq = irqkit_in_hardirq();
	dev->cpu = irqkit_smp_processor_id();
	atomic_fetch_add(&dev->calls, 1);
	if (dev->order)
		strncat(order_buf, dev->order, sizeof(order_buf) - strlen(order_buf) - 1);
	if (dev->hook)
		dev->hook(dev, irq);
	if (dev->ret >= 0)
		return (enum irqkit_irqreturn)dev->ret;
	if (!atomic_exchange(&dev->status, 0))
		return IRQKIT_NONE;
	if (dev->lower_irq)
		irqkit_sw_set_level(dev->lower_irq, false);
	atomic_fetch_add(&dev->handled, 1);
	return IRQKIT_HANDLED;
}

enum irqkit_irqreturn tdev_fixed_handler(int irq, void *dev_id)
{
	struct tdev *dev = dev_id;

	(void)irq;
	atomic_fetch_add(&dev->calls, 1);
	if (dev->hook)
		dev->hook(dev, irq);
	return dev->ret >= 0 ? (enum irqkit_irqreturn)dev->ret : IRQKIT_NONE;
}

void stress_burn(int n)
{
	for (volatile int i = 0; i < n; i++)
		;
}
