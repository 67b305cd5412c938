/* SPDX-License-Identifier: MIT */
/* Helpers of the Linux-name layer: pick a macro by its number of arguments. */
#ifndef IRQKIT_COMPAT_LINUX_IRQKIT_ARGS_H
#define IRQKIT_COMPAT_LINUX_IRQKIT_ARGS_H

#define IRQKIT__NARGS(...)			IRQKIT__NARGS_(__VA_ARGS__, 4, 3, 2, 1, 0)
#define IRQKIT__NARGS_(_1, _2, _3, _4, N, ...)	N
#define IRQKIT__CAT(a, b)			IRQKIT__CAT_(a, b)
#define IRQKIT__CAT_(a, b)			a##b
/* NAME(...) expands to NAME<n>(...) for n arguments */
#define IRQKIT__BY_NARGS(name, ...)		IRQKIT__CAT(name, IRQKIT__NARGS(__VA_ARGS__))(__VA_ARGS__)

#endif
