/* SPDX-License-Identifier: MIT */
/* Internals of the Linux user-space platform shared by its files. */
#ifndef IRQKIT_POSIX_H
#define IRQKIT_POSIX_H

#include <stdbool.h>
#include <stdint.h>

/* timer.c: the thread behind irqkit_plat_timer_program(). */
int irqkit__posix_timer_start(void);
void irqkit__posix_timer_stop(void);

/* platform.c: fault injection for tests; see irqkit_plat_alloc(). */
extern int irqkit__plat_alloc_fail;

/* symbols.c: drop the symbol cache. */
void irqkit__posix_symbols_exit(void);

/*
 * idle.c: each virtual CPU's epoll set, where its dispatcher waits once a
 * descriptor is bound to it (see there).
 */
int irqkit__posix_cpus_init(unsigned int nr);
void irqkit__posix_cpus_exit(void);
void irqkit__posix_cpu_loop(unsigned int cpu);
/* epoll_ctl(@op) of @fd in @cpu's set, the event's data being @irq.  Return: 0 or -errno. */
int irqkit__posix_fd_ctl(unsigned int cpu, int op, int fd, uint32_t events, unsigned int irq);
void irqkit__posix_fd_count(unsigned int cpu, int delta);
void irqkit__posix_fd_read_begin(unsigned int cpu, unsigned int irq);
void irqkit__posix_fd_read_end(unsigned int cpu);
void irqkit__posix_fd_quiesce(unsigned int irq);

/* publish.c: the tables for other processes (IRQKIT_CFG_PUBLISH, IRQKIT_PUBLISH). */
void irqkit__posix_publish_start(bool flag);
void irqkit__posix_publish_stop(void);

/* tracefile.c: IRQKIT_HIST and IRQKIT_TRACE, at start and at stop. */
void irqkit__posix_observe_start(void);
void irqkit__posix_observe_stop(void);

/* fdchip.c: a bound line's descriptor reported @revents on @cpu; the end of a run. */
void irqkit__fdchip_event(unsigned int cpu, unsigned int irq, uint32_t revents);
void irqkit__fdchip_exit(void);

#endif /* IRQKIT_POSIX_H */
