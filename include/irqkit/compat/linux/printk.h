/* SPDX-License-Identifier: MIT */
/*
 * Linux's printk over irqkit's log hook.  KERN_<LEVEL> has the form of the
 * chosen version ("<N>" before 3.6, KERN_SOH and a digit after); printk
 * reads either.  pr_debug prints only where DEBUG is defined, as in Linux
 * without dynamic debug.
 */
#ifndef IRQKIT_COMPAT_LINUX_PRINTK_H
#define IRQKIT_COMPAT_LINUX_PRINTK_H

#include <irqkit/kernel.h>
#include <linux/version.h>

#if IRQKIT_LINUX_AT_LEAST(3, 6, 0)
#define KERN_SOH	"\001"
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_DEFAULT	KERN_SOH "d"
#define KERN_CONT	KERN_SOH "c"
#else
#define KERN_EMERG	"<0>"
#define KERN_ALERT	"<1>"
#define KERN_CRIT	"<2>"
#define KERN_ERR	"<3>"
#define KERN_WARNING	"<4>"
#define KERN_NOTICE	"<5>"
#define KERN_INFO	"<6>"
#define KERN_DEBUG	"<7>"
#define KERN_DEFAULT	""
#define KERN_CONT	""
#endif
#define KERN_WARN	KERN_WARNING

#define printk(...)		irqkit_printk_linux(__VA_ARGS__)
#define vprintk(fmt, ap)	irqkit_vprintk_linux((fmt), (ap))
#define dump_stack()		irqkit_dump_stack()

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_emerg(fmt, ...)	printk(KERN_EMERG pr_fmt(fmt), ##__VA_ARGS__)
#define pr_alert(fmt, ...)	printk(KERN_ALERT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_crit(fmt, ...)	printk(KERN_CRIT pr_fmt(fmt), ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(KERN_WARNING pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warning(fmt, ...)	pr_warn(fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...)	printk(KERN_NOTICE pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	printk(KERN_INFO pr_fmt(fmt), ##__VA_ARGS__)
#define pr_cont(fmt, ...)	printk(KERN_CONT fmt, ##__VA_ARGS__)
#ifdef DEBUG
#define pr_debug(fmt, ...)	printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__)
#else
#define pr_debug(fmt, ...)	({ if (0) printk(KERN_DEBUG pr_fmt(fmt), ##__VA_ARGS__); 0; })
#endif

#endif
