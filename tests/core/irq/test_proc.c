// SPDX-License-Identifier: MIT
/* Tests of src/core/irq/proc.c: the /proc/interrupts table, byte for byte. */
#include "../../harness.h"
#include "../../testchip.h"

#include <stdlib.h>

static struct tdev a, b, c;
static char buf[8192];

static int setup(void **state)
{
	tdev_init(&a);
	tdev_init(&b);
	tdev_init(&c);
	a.ret = b.ret = c.ret = IRQKIT_HANDLED;
	return det_setup(state);
}

static char linux_only[sizeof(buf)];

static const char *table(unsigned int flags)
{
	int n = irqkit_show_interrupts_buf(buf, sizeof(buf), flags);

	assert_true(n > 0 && (size_t)n < sizeof(buf));
	assert_int_equal(strlen(buf), n);
	return buf;
}

static void test_table_rows_in_linux_format(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "eth0", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, IRQKIT_F_SHARED, "snd0", &b), 0);
	assert_int_equal(irqkit_request_irq(T_LEVEL(1), tdev_handler, 0, "disk", &c), 0);
	for (int i = 0; i < 3; i++)
		irqkit_sw_raise(T_EDGE(1));
	assert_int_equal(irqkit_irq_set_affinity(T_EDGE(1), 2), 0);
	irqkit_sw_raise(T_EDGE(1));
	irqkit_cpu_run(1);
	assert_string_equal(table(IRQKIT_SHOW_LINUX_ONLY),
		"           CPU0       CPU1       \n"
		"  1:          3          1    SW-IRQ   1 Edge      eth0, snd0\n"
		" 17:          0          0    SW-IRQ  17 Level     disk\n"
		"LOC:          0          0   Local timer interrupts\n"
		"IWI:          0          0   IRQ work interrupts\n"
		"CAL:          0          0   Function call interrupts\n"
		"ERR:          0\n");
}

static void test_table_skips_unused_lines_and_keeps_counted_ones(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, 0, "gone", &a), 0);
	irqkit_sw_raise(T_EDGE(2));
	irqkit_free_irq(T_EDGE(2), &a);
	/* no action but a nonzero count: still shown, with no names */
	assert_string_equal(table(IRQKIT_SHOW_LINUX_ONLY),
		"           CPU0       CPU1       \n"
		"  2:          1          0    SW-IRQ   2 Edge    \n"
		"LOC:          0          0   Local timer interrupts\n"
		"IWI:          0          0   IRQ work interrupts\n"
		"CAL:          0          0   Function call interrupts\n"
		"ERR:          0\n");
	/* hidden lines never are */
	irqkit_irq_modify_status(T_EDGE(2), 0, IRQKIT_IRQ_HIDDEN);
	assert_string_equal(table(IRQKIT_SHOW_LINUX_ONLY),
		"           CPU0       CPU1       \n"
		"LOC:          0          0   Local timer interrupts\n"
		"IWI:          0          0   IRQ work interrupts\n"
		"CAL:          0          0   Function call interrupts\n"
		"ERR:          0\n");
}

static void test_table_shows_flow_name_unnamed_chip_and_err_row(void **state)
{
	static struct irqkit_chip unnamed = { .name = NULL };

	(void)state;
	testchip_attach(T_NOCHIP, &tchip_plain, irqkit_handle_fasteoi_irq);
	irqkit_irq_set_chip_and_handler_name(T_NOCHIP, &tchip_plain, irqkit_handle_fasteoi_irq,
					     "fasteoi");
	assert_int_equal(irqkit_request_irq(T_NOCHIP, tdev_handler, 0, "nic", &a), 0);
	irqkit_irq_set_chip_and_handler_name(T_NOCHIP + 1, &unnamed, irqkit_handle_simple_irq, NULL);
	assert_int_equal(irqkit_request_irq(T_NOCHIP + 1, tdev_handler, 0, "x", &b), 0);
	irqkit_cpu_signal(0, T_NR_IRQS + 1);	/* a stray vector: the ERR row */
	irqkit_deliver_pending();
	assert_string_equal(table(IRQKIT_SHOW_LINUX_ONLY),
		"           CPU0       CPU1       \n"
		" 40:          0          0      TEST     Edge    -fasteoi   nic\n"
		" 41:          0          0         -     Edge      x\n"
		"LOC:          0          0   Local timer interrupts\n"
		"IWI:          0          0   IRQ work interrupts\n"
		"CAL:          0          0   Function call interrupts\n"
		"ERR:          1\n");
}

static void test_irqkit_section_follows_and_marks_spurious_lines(void **state)
{
	unsigned long flags;
	const char *t;

	(void)state;
	a.ret = IRQKIT_NONE;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "stuck", &a), 0);
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, 0, "ok", &b), 0);
	for (int i = 0; i < 100000; i++)
		irqkit_sw_raise(T_EDGE(1));
	flags = irqkit_local_irq_save();
	for (int i = 0; i < 3; i++)
		irqkit_sw_raise(T_EDGE(2));	/* one interrupt, two raises folded into it */
	irqkit_local_irq_restore(flags);
	t = table(IRQKIT_SHOW_IRQKIT);
	assert_non_null(strstr(t, "ERR:          0\n"
		"irqkit: per line: spurious accounting (count, unhandled, last_unhandled), "
		"arrivals folded into others (coalesced) and never shown (lost)\n"
		"  1:          0          0          0 ms          0          0  disabled as spurious\n"
		"  2:          1          0          0 ms          2          0  ok\n"));
	/* the Linux part is unchanged by the addition */
	assert_non_null(strstr(t, "  1:     100000          0    SW-IRQ   1 Edge      stuck\n"));
	assert_null(strstr(table(IRQKIT_SHOW_LINUX_ONLY), "irqkit:"));
	/* Linux's table is the default: lsirq would read the section as rows */
	assert_null(strstr(table(0), "irqkit:"));
	strcpy(linux_only, table(IRQKIT_SHOW_LINUX_ONLY));
	assert_string_equal(table(0), linux_only);
	assert_null(strstr(table(IRQKIT_SHOW_IRQKIT | IRQKIT_SHOW_LINUX_ONLY), "irqkit:"));
}

static void test_buffer_too_small_is_cut_like_snprintf(void **state)
{
	char small[16];
	int full;

	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "x", &a), 0);
	full = irqkit_show_interrupts_buf(NULL, 0, 0);
	assert_true(full > 40);
	memset(small, 'Z', sizeof(small));
	assert_int_equal(irqkit_show_interrupts_buf(small, sizeof(small), 0), full);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, table(0), sizeof(small) - 1);
	assert_int_equal(irqkit_show_interrupts_buf(NULL, 5, 0), -IRQKIT_EINVAL);
}

#if __STDC_HOSTED__	/* bare metal has no FILE */
static void test_table_to_a_file(void **state)
{
	FILE *f = tmpfile();
	char fbuf[8192];
	size_t n;

	(void)state;
	assert_non_null(f);
	assert_int_equal(irqkit_request_irq(T_EDGE(1), tdev_handler, 0, "x", &a), 0);
	assert_int_equal(irqkit_show_interrupts(f, 0), 0);
	rewind(f);
	n = fread(fbuf, 1, sizeof(fbuf) - 1, f);
	fbuf[n] = '\0';
	fclose(f);
	assert_string_equal(fbuf, table(0));
}
#endif

static void count_run(struct irqkit_tasklet *t)
{
	(void)t;
}

/* /proc/softirqs: Linux's layout, each vector's runs per CPU. */
static void test_softirqs_table_in_linux_format(void **state)
{
	static struct irqkit_tasklet tl;
	int n;

	(void)state;
	irqkit_tasklet_setup(&tl, count_run);
	for (int i = 0; i < 3; i++) {
		irqkit_local_bh_disable();
		irqkit_tasklet_schedule(&tl);
		irqkit_local_bh_enable();		/* TASKLET runs here, on CPU 0 */
	}
	n = irqkit_show_softirqs_buf(buf, sizeof(buf));
	assert_int_equal(strlen(buf), n);
	assert_non_null(strstr(buf, "                    CPU0       CPU1       \n"));
	assert_non_null(strstr(buf, "          HI:          0          0\n"));
	assert_non_null(strstr(buf, "     TASKLET:          3          0\n"));
	assert_non_null(strstr(buf, "         RCU:          0          0\n"));
	assert_int_equal(irqkit_kstat_softirqs_cpu(IRQKIT_TASKLET_SOFTIRQ, 0), 3);
	assert_int_equal(irqkit_kstat_softirqs_cpu(IRQKIT_NR_SOFTIRQS, 0), 0);
	assert_int_equal(irqkit_show_softirqs_buf(NULL, 5), -IRQKIT_EINVAL);
}

static void test_irq_column_width_grows_with_nr_irqs(void **state)
{
	(void)state;
	det_teardown(NULL);
	{
		struct irqkit_config cfg = { .nr_irqs = 1000, .nr_cpus = 1,
					     .mode = IRQKIT_MODE_DETERMINISTIC, .log = logcap_hook };

		assert_int_equal(irqkit_start(&cfg), 0);
		assert_int_equal(irqkit_swchip_add(999, 1, IRQKIT_TYPE_EDGE_RISING), 0);
		assert_int_equal(irqkit_request_irq(999, tdev_handler, 0, "x", &a), 0);
		assert_string_equal(table(IRQKIT_SHOW_LINUX_ONLY),
			"            CPU0       \n"
			" 999:          0    SW-IRQ  999 Edge      x\n"
			" LOC:          0   Local timer interrupts\n"
			" IWI:          0   IRQ work interrupts\n"
			" CAL:          0   Function call interrupts\n"
			" ERR:          0\n");
		irqkit_stop();
	}
	{
		struct irqkit_config cfg = { .nr_irqs = 65536, .nr_cpus = 1,
					     .mode = IRQKIT_MODE_DETERMINISTIC, .log = logcap_hook };

		assert_int_equal(irqkit_start(&cfg), 0);
		assert_int_equal(irqkit_swchip_add(65535, 1, IRQKIT_TYPE_EDGE_RISING), 0);
		assert_int_equal(irqkit_request_irq(65535, tdev_handler, 0, "x", &a), 0);
		assert_string_equal(table(IRQKIT_SHOW_LINUX_ONLY),
			"             CPU0       \n"
			"65535:          0    SW-IRQ 65535 Edge      x\n"
			"  LOC:          0   Local timer interrupts\n"
			"  IWI:          0   IRQ work interrupts\n"
			"  CAL:          0   Function call interrupts\n"
			"  ERR:          0\n");
	}
	/* det_teardown stops this one */
}

/* Names in the counters' JSON are JSON strings: a quote, a backslash and a control character escaped. */
static void test_counters_json_escapes_names(void **state)
{
	(void)state;
	assert_int_equal(irqkit_request_irq(T_EDGE(2), tdev_handler, 0, "odd\"name\\x\ty", &a), 0);
	assert_true(irqkit_show_counters_json(buf, sizeof(buf)) > 0);
	if (!strstr(buf, "\"odd\\\"name\\\\x\\u0009y\""))
		fail_msg("name not escaped:\n%s", buf);
}

/* /proc/irq/N/smp_affinity and effective_affinity in Linux's bitmap forms, past 32 CPUs too. */
static void test_irq_affinity_files_in_linux_format(void **state)
{
	struct irqkit_config cfg = { .nr_irqs = 64, .nr_cpus = 40,
				     .mode = IRQKIT_MODE_DETERMINISTIC, .log = logcap_hook };

	(void)state;
	det_teardown(NULL);
	assert_int_equal(irqkit_start(&cfg), 0);
	assert_int_equal(irqkit_swchip_add(3, 1, IRQKIT_TYPE_EDGE_RISING), 0);
	assert_true(irqkit_show_irq_affinity_buf(3, IRQKIT_PROC_SMP_AFFINITY, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "ff,ffffffff\n");
	assert_true(irqkit_show_irq_affinity_buf(3, IRQKIT_PROC_SMP_AFFINITY_LIST, buf,
						 sizeof(buf)) > 0);
	assert_string_equal(buf, "0-39\n");
	assert_int_equal(irqkit_irq_set_affinity(3, (1ull << 33) | (1ull << 34) | (1ull << 36) | 1),
			 0);
	assert_true(irqkit_show_irq_affinity_buf(3, IRQKIT_PROC_SMP_AFFINITY, buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "16,00000001\n");
	assert_true(irqkit_show_irq_affinity_buf(3, IRQKIT_PROC_SMP_AFFINITY_LIST, buf,
						 sizeof(buf)) > 0);
	assert_string_equal(buf, "0,33-34,36\n");
	assert_true(irqkit_show_irq_affinity_buf(3, IRQKIT_PROC_EFFECTIVE_AFFINITY_LIST, buf,
						 sizeof(buf)) > 0);
	assert_string_equal(buf, "0\n");
	assert_true(irqkit_show_irq_affinity_buf(3, IRQKIT_PROC_EFFECTIVE_AFFINITY, buf,
						 sizeof(buf)) > 0);
	assert_string_equal(buf, "00,00000001\n");
	assert_int_equal(irqkit_show_irq_affinity_buf(64, IRQKIT_PROC_SMP_AFFINITY, buf, sizeof(buf)),
			 -IRQKIT_EINVAL);
	/* det_teardown stops this one */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, det_teardown)
		T(test_table_rows_in_linux_format),
		T(test_table_skips_unused_lines_and_keeps_counted_ones),
		T(test_table_shows_flow_name_unnamed_chip_and_err_row),
		T(test_irqkit_section_follows_and_marks_spurious_lines),
		T(test_buffer_too_small_is_cut_like_snprintf),
#if __STDC_HOSTED__
		T(test_table_to_a_file),
#endif
		T(test_irq_column_width_grows_with_nr_irqs),
		T(test_softirqs_table_in_linux_format),
		T(test_counters_json_escapes_names),
		T(test_irq_affinity_files_in_linux_format),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
