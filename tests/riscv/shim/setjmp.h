/* SPDX-License-Identifier: MIT */
/* The test harness includes it before cmocka.h; the images jump with the compiler's builtins. */
#ifndef IRQKIT_RV_SETJMP_H
#define IRQKIT_RV_SETJMP_H
#endif
