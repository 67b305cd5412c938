/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/version.h> for driver code over irqkit: the kernel version
 * the driver is written for, which chooses between the forms of a name
 * that changed (the 2.6 timer_list, 2.6.0-2.6.19 delayed work in a
 * work_struct, ...).  Set it with one define, before any header:
 *
 *   -DIRQKIT_LINUX_VERSION_CODE='KERNEL_VERSION(2,6,10)'   (or 132618)
 *
 * (pkg-config: irqkit-linux-2.6 has it for 2.6.10; CMake:
 * irqkit_linux_version(target 2.6.10)).  The default is current Linux.
 * Names that did not change work in every version.  This header is not the
 * system's <linux/version.h>, which describes the kernel headers installed
 * for user space.
 */
#ifndef IRQKIT_COMPAT_LINUX_VERSION_H
#define IRQKIT_COMPAT_LINUX_VERSION_H

#define KERNEL_VERSION(a, b, c)	(((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))

#define IRQKIT_LINUX_VERSION_CURRENT	KERNEL_VERSION(6, 18, 0)
#ifndef IRQKIT_LINUX_VERSION_CODE
#define IRQKIT_LINUX_VERSION_CODE	IRQKIT_LINUX_VERSION_CURRENT
#endif
#if IRQKIT_LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 0) ||				\
	IRQKIT_LINUX_VERSION_CODE > KERNEL_VERSION(6, 18, 255)
#error "IRQKIT_LINUX_VERSION_CODE must be a version from KERNEL_VERSION(2,6,0) to KERNEL_VERSION(6,18,255)"
#endif

#define LINUX_VERSION_CODE	IRQKIT_LINUX_VERSION_CODE
#define LINUX_VERSION_MAJOR	((LINUX_VERSION_CODE >> 16) & 0xff)
#define LINUX_VERSION_PATCHLEVEL ((LINUX_VERSION_CODE >> 8) & 0xff)
#define LINUX_VERSION_SUBLEVEL	(LINUX_VERSION_CODE & 0xff)

/* Is the driver written for Linux a.b.c or later? */
#define IRQKIT_LINUX_AT_LEAST(a, b, c)	(IRQKIT_LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, c))

/*
 * A name used in a version that does not have it: the build stops with a
 * message naming the version that does.  In an expression: IRQKIT_ERA_ERROR;
 * as a declaration: IRQKIT_ERA_ERROR_DECL.
 */
#define IRQKIT_ERA_ERROR(msg)	((void)sizeof(struct { _Static_assert(0, msg); int irqkit__unused; }))
#define IRQKIT_ERA_ERROR_DECL(msg)	_Static_assert(0, msg)

#endif
