/* SPDX-License-Identifier: MIT */
/* The C library on bare metal: sleeping the calling thread. */
#ifndef IRQKIT_RV_UNISTD_H
#define IRQKIT_RV_UNISTD_H
typedef unsigned int useconds_t;
/* The calling thread sleeps @us microseconds (its hart runs others); process context only. */
int usleep(useconds_t us);
#endif
