/* SPDX-License-Identifier: MIT */
/*
 * The checks of the bare-metal test images: each failed check prints its
 * file, line and expression on the console and counts; irqkit_main()
 * returns the count (capped), and the port turns it into QEMU's exit status
 * and a "RESULT: PASS" or "RESULT: FAIL" line.
 */
#ifndef IRQKIT_RVTEST_H
#define IRQKIT_RVTEST_H

#include <irqkit/irqkit.h>

/* the image's program: run on hart 0 as the first thread; 0 is a pass */
int irqkit_main(void);
void rv_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rv_puts(const char *s);

static unsigned int rvtest_failures;

#define CHECK(cond)								\
	do {									\
		if (!(cond)) {							\
			rvtest_failures++;					\
			rv_printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
		}								\
	} while (0)

#define CHECK_EQ(a, b)								\
	do {									\
		long long __a = (long long)(a), __b = (long long)(b);		\
		if (__a != __b) {						\
			rvtest_failures++;					\
			rv_printf("FAILED %s:%d: %s == %s (%lld != %lld)\n",	\
				  __FILE__, __LINE__, #a, #b, __a, __b);	\
		}								\
	} while (0)

#define RUN(test)								\
	do {									\
		unsigned int __f = rvtest_failures;				\
		test();								\
		rv_printf("%s %s\n", __f == rvtest_failures ? "ok" : "not ok", #test);	\
	} while (0)

/*
 * The core's log lines, kept and shown: pass rvtest_capture as the config's
 * log; rvtest_log_has() looks for words in what was logged so far.
 */
static char rvtest_logbuf[8192];
static unsigned int rvtest_loglen;
static struct irqkit_spinlock rvtest_log_lock = IRQKIT_SPINLOCK_INIT;

static inline void rvtest_capture(void *arg, int level, const char *line)
{
	unsigned long flags = irqkit_spin_lock_irqsave(&rvtest_log_lock);

	(void)arg;
	(void)level;
	for (const char *p = line; *p && rvtest_loglen < sizeof(rvtest_logbuf) - 2; p++)
		rvtest_logbuf[rvtest_loglen++] = *p;
	rvtest_logbuf[rvtest_loglen++] = '\n';
	rvtest_logbuf[rvtest_loglen] = '\0';
	irqkit_spin_unlock_irqrestore(&rvtest_log_lock, flags);
	rv_printf("%s\n", line);
}

static inline bool rvtest_log_has(const char *what)
{
	unsigned long flags = irqkit_spin_lock_irqsave(&rvtest_log_lock);
	size_t n = 0;
	bool found = false;

	while (what[n])
		n++;
	for (size_t i = 0; !found && i + n <= rvtest_loglen; i++)
		found = !__builtin_memcmp(rvtest_logbuf + i, what, n);
	irqkit_spin_unlock_irqrestore(&rvtest_log_lock, flags);
	return found;
}

static inline int rvtest_result(void)
{
	return rvtest_failures > 200 ? 200 : (int)rvtest_failures;
}

#endif
