// SPDX-License-Identifier: MIT
/*
 * The idle wait of a virtual CPU's dispatcher, and the file descriptors it
 * waits on.  A CPU with no bound descriptor sleeps on the core's eventcount
 * with a futex, as before.  Once a line of the fd chip is bound to it, the
 * dispatcher sleeps in epoll_wait() on the CPU's epoll instance instead; an
 * eventfd in that instance (edge-triggered, so it is never read) carries the
 * core's kicks.  The events epoll returns are kept and handed to the
 * registered client (the fd chip) by irqkit_arch_cpu_poll(), once the CPU
 * is awake: no thread besides the dispatcher, and no hop.
 *
 * Lost wake-ups.  The kicker changes the eventcount and then reads in_epoll;
 * the dispatcher sets in_epoll and then re-reads the eventcount (both with
 * full barriers), so one of them sees the other: an eventfd write when the
 * dispatcher is or will be in epoll_wait, a futex wake otherwise (and
 * FUTEX_WAIT compares the word itself).  A CPU whose first descriptor is
 * bound while its dispatcher sleeps on the futex is woken the same way, by a
 * bump of the eventcount.
 */
#define _GNU_SOURCE
#include <irqkit-core/platform.h>
#include <irqkit/irqkit.h>

#include <errno.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "posix.h"

#define EVENTS_MAX	64
#define COOKIE_KICK	UINT64_MAX

struct posix_cpu {
	int			epfd;
	int			kickfd;
	unsigned int		nr_fds;		/* bound descriptors: the wait is epoll's */
	unsigned int		in_epoll;	/* the dispatcher waits, or is about to, in epoll_wait */
	unsigned int		*kick;		/* the core's eventcount, from the first idle wait */
	unsigned int		reading;	/* line + 1 whose descriptor this CPU reads now */
	unsigned int		nposted;	/* keys posted and not yet handed over */
	uint64_t		*posted;	/* bitmap of the keys posted (irqkit_plat_fd_post) */
	int			nev;
	struct epoll_event	ev[EVENTS_MAX];
} __attribute__((aligned(64)));

static struct posix_cpu *pcpus;
static unsigned int nr_pcpus;
static const struct irqkit_plat_fd_client *fd_client;	/* the fd chip, once it binds a line */

void irqkit_plat_fd_register(const struct irqkit_plat_fd_client *client)
{
	__atomic_store_n(&fd_client, client, __ATOMIC_RELEASE);
}

int irqkit__posix_cpus_init(unsigned int nr)
{
	pcpus = calloc(nr, sizeof(*pcpus));
	if (!pcpus)
		return -IRQKIT_ENOMEM;
	nr_pcpus = nr;
	for (unsigned int i = 0; i < nr; i++) {
		struct posix_cpu *pc = &pcpus[i];
		struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = COOKIE_KICK };

		pc->epfd = epoll_create1(EPOLL_CLOEXEC);
		pc->kickfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (pc->epfd < 0 || pc->kickfd < 0 ||
		    epoll_ctl(pc->epfd, EPOLL_CTL_ADD, pc->kickfd, &ev)) {
			nr_pcpus = i + 1;
			irqkit__posix_cpus_exit();
			return errno == ENOMEM ? -IRQKIT_ENOMEM : -IRQKIT_EMFILE;
		}
	}
	return 0;
}

void irqkit__posix_cpus_exit(void)
{
	for (unsigned int i = 0; i < nr_pcpus; i++) {
		if (pcpus[i].epfd > 0)
			close(pcpus[i].epfd);
		if (pcpus[i].kickfd > 0)
			close(pcpus[i].kickfd);
		free(pcpus[i].posted);
	}
	free(pcpus);
	pcpus = NULL;
	nr_pcpus = 0;
}

/*
 * The idle wait, until @deadline_ns of irqkit_plat_now_ns() at the latest
 * (UINT64_MAX: none): a futex wait while the CPU watches no descriptor,
 * else an epoll wait (epoll_pwait2: a timeout in nanoseconds).
 */
static void cpu_idle(unsigned int cpu, unsigned int *kick, unsigned int seen, uint64_t deadline_ns)
{
	struct posix_cpu *pc = &pcpus[cpu];
	struct timespec ts, *timeout = NULL;
	uint64_t now = 0;
	int n;

	if (!__atomic_load_n(&pc->kick, __ATOMIC_RELAXED))
		__atomic_store_n(&pc->kick, kick, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&pc->nposted, __ATOMIC_SEQ_CST))
		return;		/* a post before the kick was known: poll it now */
	if (deadline_ns != UINT64_MAX) {
		now = irqkit_plat_now_ns();
		if (now >= deadline_ns)
			return;
		ts = (struct timespec){ (time_t)((deadline_ns - now) / 1000000000u),
					(long)((deadline_ns - now) % 1000000000u) };
		timeout = &ts;
	}
	if (!__atomic_load_n(&pc->nr_fds, __ATOMIC_SEQ_CST)) {
		if (timeout)
			irqkit_plat_wait_timeout(kick, seen, deadline_ns - now);
		else
			irqkit_plat_wait(kick, seen);
		return;
	}
	__atomic_store_n(&pc->in_epoll, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(kick, __ATOMIC_SEQ_CST) != seen) {
		__atomic_store_n(&pc->in_epoll, 0, __ATOMIC_RELAXED);
		return;
	}
	n = epoll_pwait2(pc->epfd, pc->ev, EVENTS_MAX, timeout, NULL);
	__atomic_store_n(&pc->in_epoll, 0, __ATOMIC_RELAXED);
	if (n < 0 && errno != EINTR)
		irqkit_plat_fatal("epoll_wait failed");
	pc->nev = n > 0 ? n : 0;
}

void irqkit_arch_cpu_idle(unsigned int cpu, unsigned int *kick, unsigned int seen)
{
	cpu_idle(cpu, kick, seen, UINT64_MAX);
}

bool irqkit_arch_cpu_idle_until(unsigned int cpu, unsigned int *kick, unsigned int seen,
				uint64_t deadline_ns)
{
	cpu_idle(cpu, kick, seen, deadline_ns);
	return true;
}

void irqkit_arch_cpu_wake(unsigned int cpu, unsigned int *kick)
{
	static const uint64_t one = 1;
	struct posix_cpu *pc = &pcpus[cpu];

	if (!__atomic_load_n(&pc->in_epoll, __ATOMIC_SEQ_CST)) {
		irqkit_plat_wake(kick);
		return;
	}
	if (write(pc->kickfd, &one, sizeof(one)) != sizeof(one) && errno != EAGAIN)
		irqkit_plat_fatal("eventfd write failed");
}

/* The keys posted to @pc, each once, to the client; a post meanwhile comes next time. */
static void hand_posted(struct posix_cpu *pc, unsigned int cpu,
		       const struct irqkit_plat_fd_client *client)
{
	uint64_t *map = __atomic_load_n(&pc->posted, __ATOMIC_ACQUIRE);
	unsigned int words = (irqkit_nr_irqs() + 63) / 64;

	__atomic_store_n(&pc->nposted, 0, __ATOMIC_SEQ_CST);
	for (unsigned int w = 0; map && w < words; w++) {
		uint64_t bits = __atomic_load_n(&map[w], __ATOMIC_RELAXED) ?
				__atomic_exchange_n(&map[w], 0, __ATOMIC_ACQ_REL) : 0;

		for (; bits; bits &= bits - 1) {
			unsigned int key = w * 64 + (unsigned int)__builtin_ctzll(bits);

			if (client)
				client->event(cpu, key, EPOLLIN);
		}
	}
}

void irqkit_plat_fd_post(unsigned int cpu, unsigned int key)
{
	struct posix_cpu *pc;
	uint64_t *map;
	unsigned int *kick;

	if (cpu >= nr_pcpus || key >= irqkit_nr_irqs())
		return;
	pc = &pcpus[cpu];
	map = __atomic_load_n(&pc->posted, __ATOMIC_ACQUIRE);
	if (!map) {
		uint64_t *fresh = calloc((irqkit_nr_irqs() + 63) / 64, sizeof(*fresh));

		if (!fresh)
			irqkit_plat_fatal("no memory for a CPU's posted descriptors");
		if (!__atomic_compare_exchange_n(&pc->posted, &map, fresh, false,
						 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			free(fresh);
		else
			map = fresh;
	}
	__atomic_fetch_or(&map[key / 64], 1ull << (key % 64), __ATOMIC_RELEASE);
	__atomic_fetch_add(&pc->nposted, 1, __ATOMIC_SEQ_CST);
	kick = __atomic_load_n(&pc->kick, __ATOMIC_SEQ_CST);
	if (kick) {
		__atomic_fetch_add(kick, 1, __ATOMIC_SEQ_CST);
		irqkit_arch_cpu_wake(cpu, kick);
	}
}

/* Hand the events of the last wait to the fd chip: the dispatcher, awake, interrupts on. */
void irqkit_arch_cpu_poll(unsigned int cpu)
{
	const struct irqkit_plat_fd_client *client = __atomic_load_n(&fd_client, __ATOMIC_ACQUIRE);
	struct posix_cpu *pc = &pcpus[cpu];
	int n = pc->nev;

	pc->nev = 0;
	for (int i = 0; i < n; i++)
		if (pc->ev[i].data.u64 != COOKIE_KICK && client)
			client->event(cpu, (unsigned int)pc->ev[i].data.u64, pc->ev[i].events);
	if (__atomic_load_n(&pc->nposted, __ATOMIC_ACQUIRE))
		hand_posted(pc, cpu, client);
}

/*
 * A program's own loop serves @cpu (no dispatcher waits there): collect what
 * is ready without blocking and hand it to the fd chip.  Return: events seen.
 */
static int cpu_collect(unsigned int cpu)
{
	struct posix_cpu *pc = &pcpus[cpu];
	int n = epoll_wait(pc->epfd, pc->ev, EVENTS_MAX, 0);

	pc->nev = n > 0 ? n : 0;
	irqkit_arch_cpu_poll(cpu);
	return n > 0 ? n : 0;
}

/* Keep CPU @cpu readable for its loop: a kick stays visible until collected. */
void irqkit__posix_cpu_loop(unsigned int cpu)
{
	__atomic_store_n(&pcpus[cpu].in_epoll, 1, __ATOMIC_SEQ_CST);
}

int irqkit_plat_fd_ctl(unsigned int cpu, int op, int fd, uint32_t want, unsigned int key)
{
	static const int epoll_op[] = {
		[IRQKIT_PLAT_FD_ADD] = EPOLL_CTL_ADD,
		[IRQKIT_PLAT_FD_MOD] = EPOLL_CTL_MOD,
		[IRQKIT_PLAT_FD_DEL] = EPOLL_CTL_DEL,
	};
	struct epoll_event ev = { .events = want, .data.u64 = key };

	if (cpu >= nr_pcpus || op < 0 || op > IRQKIT_PLAT_FD_DEL)
		return -IRQKIT_EINVAL;
	if (epoll_ctl(pcpus[cpu].epfd, epoll_op[op], fd, &ev))
		return -errno;
	return 0;
}

/*
 * One descriptor more (@delta 1) or less (-1) on @cpu.  The first one wakes a
 * dispatcher that sleeps on the futex, so that it waits in epoll from now on.
 */
void irqkit_plat_fd_count(unsigned int cpu, int delta)
{
	struct posix_cpu *pc = &pcpus[cpu];
	unsigned int *kick;

	if (__atomic_add_fetch(&pc->nr_fds, (unsigned int)delta, __ATOMIC_SEQ_CST) != 1 || delta < 0)
		return;
	kick = __atomic_load_n(&pc->kick, __ATOMIC_SEQ_CST);
	if (kick) {
		__atomic_fetch_add(kick, 1, __ATOMIC_SEQ_CST);
		irqkit_plat_wake(kick);
	}
}

/*
 * Reading @key's descriptor on @cpu: irqkit_plat_fd_read_begin() says
 * so (a full barrier) before the caller checks that the line is still bound,
 * irqkit_plat_fd_read_end() after the read.  irqkit_plat_fd_quiesce(),
 * after the line stopped being bound, waits until no CPU reads it: then its
 * descriptor is the owner's again (it may close it).
 */
void irqkit_plat_fd_read_begin(unsigned int cpu, unsigned int key)
{
	__atomic_store_n(&pcpus[cpu].reading, key + 1, __ATOMIC_SEQ_CST);
}

void irqkit_plat_fd_read_end(unsigned int cpu)
{
	__atomic_store_n(&pcpus[cpu].reading, 0, __ATOMIC_RELEASE);
}

void irqkit_plat_fd_quiesce(unsigned int key)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (unsigned int i = 0; i < nr_pcpus; i++)
		while (__atomic_load_n(&pcpus[i].reading, __ATOMIC_ACQUIRE) == key + 1)
			irqkit_arch_cpu_relax();
}

/* ---- a CPU inside another event loop ------------------------------------------ */

int irqkit_loop_fd(unsigned int cpu)
{
	if (!irqkit_started() || cpu >= irqkit_nr_cpus() || !(irqkit__core_loop_cpus() & (1ull << cpu)))
		return -IRQKIT_EINVAL;
	return pcpus[cpu].epfd;
}

int irqkit_loop_run(void)
{
	unsigned int cpu = (unsigned int)irqkit_smp_processor_id();
	int n;

	if (!irqkit_started() || !(irqkit_arch_current()->irqflags & IRQKIT_TASK_BOUND) ||
	    !(irqkit__core_loop_cpus() & (1ull << cpu)))
		return -IRQKIT_EINVAL;
	if (irqkit_irqs_disabled() || irqkit_in_interrupt())
		return -IRQKIT_EBUSY;
	n = cpu_collect(cpu);
	irqkit_deliver_pending();
	return n;
}
