/* SPDX-License-Identifier: MIT */
/*
 * Linux's <linux/module.h>, as far as a driver or test file built into a
 * program needs it: its module information has nowhere to go and is
 * dropped; init and exit functions are the program's to call.
 */
#ifndef IRQKIT_COMPAT_LINUX_MODULE_H
#define IRQKIT_COMPAT_LINUX_MODULE_H

#include <linux/kconfig.h>

#define THIS_MODULE			((void *)0)
#define MODULE_LICENSE(x)		struct __irqkit_module_info
#define MODULE_DESCRIPTION(x)		struct __irqkit_module_info
#define MODULE_AUTHOR(x)		struct __irqkit_module_info
#define MODULE_VERSION(x)		struct __irqkit_module_info
#define MODULE_ALIAS(x)			struct __irqkit_module_info
#define MODULE_IMPORT_NS(x)		struct __irqkit_module_info
#define EXPORT_SYMBOL(sym)		struct __irqkit_module_info
#define EXPORT_SYMBOL_GPL(sym)		struct __irqkit_module_info

#endif
