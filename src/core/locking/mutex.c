// SPDX-License-Identifier: MIT
/* The sleeping mutex of the core (request_mutex, flush and list mutexes): a futex word. */
#include "core.h"
#include "locking.h"

/*
 * A sleeping mutex on a word (Drepper's "futexes are tricky", mutex 2):
 * 0 free, 1 locked, 2 locked with waiters.  Serialises request and free.
 */
void irqkit__mutex_lock(unsigned int *m)
{
	unsigned int c = 0;

	if (a_cas(m, &c, 1))
		return;
	if (c != 2)
		c = a_xchg(m, 2);
	while (c != 0) {
		irqkit_plat_wait(m, 2);
		c = a_xchg(m, 2);
	}
}

void irqkit__mutex_unlock(unsigned int *m)
{
	if (a_fetch_sub(m, 1) != 1) {
		a_store_seq(m, 0);
		irqkit_plat_wake(m);
	}
}
