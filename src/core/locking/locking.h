/* SPDX-License-Identifier: MIT */
/*
 * Locks (locking/): the core's own sleeping mutex (mutex.c) and what the
 * lock validator (lockdep.c) offers the rest of the core.
 */
#ifndef IRQKIT_CORE_LOCKING_LOCKING_H
#define IRQKIT_CORE_LOCKING_LOCKING_H

#include "core.h"

/* lockdep.c: the core's struct mutex joins the validator once a program uses it */
HIDDEN extern bool irqkit__lockdep_active;
HIDDEN void irqkit__lockdep_mutex_init(const void *lock, const void *site);
HIDDEN void irqkit__lockdep_mutex_acquire(const void *lock, bool trylock, const void *ip);
HIDDEN void irqkit__lockdep_mutex_release(const void *lock, const void *ip);

/* rtlock.c: PREEMPT_RT's sleeping lock on a word, without the might-sleep check */
HIDDEN void irqkit__rt_word_lock(unsigned int *word);
HIDDEN void irqkit__rt_word_unlock(unsigned int *word);

/* mutex.c */
HIDDEN void irqkit__mutex_lock(unsigned int *m);
HIDDEN void irqkit__mutex_unlock(unsigned int *m);

#endif /* IRQKIT_CORE_LOCKING_LOCKING_H */
