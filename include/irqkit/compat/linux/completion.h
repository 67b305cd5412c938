/* SPDX-License-Identifier: MIT */
/* Linux's <linux/completion.h> over irqkit: complete() from any context, waits sleep. */
#ifndef IRQKIT_COMPAT_LINUX_COMPLETION_H
#define IRQKIT_COMPAT_LINUX_COMPLETION_H

#include <irqkit/wait.h>
#include <linux/wait.h>

#define completion			irqkit_completion
#define COMPLETION_INITIALIZER(work)	IRQKIT_COMPLETION_INITIALIZER(work)
#define COMPLETION_INITIALIZER_ONSTACK(work)	IRQKIT_COMPLETION_INITIALIZER(work)
#define DECLARE_COMPLETION(work)	struct completion work = COMPLETION_INITIALIZER(work)
#define DECLARE_COMPLETION_ONSTACK(work) DECLARE_COMPLETION(work)
#define init_completion(x)		irqkit_init_completion(x)
#define reinit_completion(x)		irqkit_reinit_completion(x)
#define INIT_COMPLETION(x)		irqkit_reinit_completion(&(x))	/* 2.6: takes the object */
#define complete(x)			irqkit_complete(x)
#define complete_all(x)			irqkit_complete_all(x)
#define wait_for_completion(x)		irqkit_wait_for_completion(x)
#define wait_for_completion_timeout(x, t)	irqkit_wait_for_completion_timeout((x), (t))
#define wait_for_completion_interruptible(x)	irqkit_wait_for_completion_interruptible(x)
#define wait_for_completion_killable(x)		irqkit_wait_for_completion_killable(x)
#define wait_for_completion_killable_timeout(x, t)	irqkit_wait_for_completion_killable_timeout((x), (t))
#define wait_for_completion_interruptible_timeout(x, t)					\
	irqkit_wait_for_completion_interruptible_timeout((x), (t))
#define try_wait_for_completion(x)	irqkit_try_wait_for_completion(x)
#define completion_done(x)		irqkit_completion_done(x)

#endif
