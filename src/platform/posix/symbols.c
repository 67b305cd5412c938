// SPDX-License-Identifier: MIT
/*
 * Code addresses to function names, for "handlers:" lists and call traces.
 * elfutils' libdw reads the symbol tables of the executable and its libraries,
 * so static functions (most handlers) get their names; dladdr is the fallback,
 * and all there is in a build without libdw (IRQKIT_HAVE_LIBDW unset): it
 * names exported functions only.
 */
#define _GNU_SOURCE
#include <irqkit-core/platform.h>

#include <dlfcn.h>
#ifdef IRQKIT_HAVE_LIBDW
#include <elfutils/libdwfl.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "posix.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
#ifdef IRQKIT_HAVE_LIBDW
static Dwfl *dwfl;
static char *debuginfo_path;

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

/* (Re)read the process's modules: libraries may have been loaded since.  Lock held. */
static bool report_modules(void)
{
	if (!dwfl) {
		dwfl = dwfl_begin(&callbacks);
		if (!dwfl)
			return false;
	}
	dwfl_report_begin(dwfl);
	if (dwfl_linux_proc_report(dwfl, getpid()) != 0) {
		dwfl_report_end(dwfl, NULL, NULL);
		return false;
	}
	return dwfl_report_end(dwfl, NULL, NULL) == 0;
}

static const char *dwfl_name(const void *addr, unsigned long *off)
{
	Dwarf_Addr a = (Dwarf_Addr)(uintptr_t)addr;
	Dwfl_Module *mod;
	GElf_Off offset = 0;
	GElf_Sym sym;
	const char *name;

	if (!dwfl && !report_modules())
		return NULL;
	mod = dwfl_addrmodule(dwfl, a);
	if (!mod) {
		if (!report_modules())
			return NULL;
		mod = dwfl_addrmodule(dwfl, a);
		if (!mod)
			return NULL;
	}
	name = dwfl_module_addrinfo(mod, a, &offset, &sym, NULL, NULL, NULL);
	*off = (unsigned long)offset;
	return name;
}

#else
static const char *dwfl_name(const void *addr, unsigned long *off)
{
	(void)addr;
	(void)off;
	return NULL;
}
#endif

unsigned long irqkit_plat_symbol(const void *addr, char *buf, size_t len)
{
	unsigned long off = 0;
	const char *name;
	Dl_info info;

	if (!len)
		return 0;
	buf[0] = '\0';
	if (!addr)
		return 0;
	pthread_mutex_lock(&lock);
	name = dwfl_name(addr, &off);
	if (name)
		snprintf(buf, len, "%s", name);
	pthread_mutex_unlock(&lock);
	if (name)
		return off;
	if (dladdr(addr, &info) && info.dli_sname) {
		snprintf(buf, len, "%s", info.dli_sname);
		return (unsigned long)((const char *)addr - (const char *)info.dli_saddr);
	}
	return 0;
}

void irqkit__posix_symbols_exit(void)
{
	pthread_mutex_lock(&lock);
#ifdef IRQKIT_HAVE_LIBDW
	if (dwfl)
		dwfl_end(dwfl);
	dwfl = NULL;
#endif
	pthread_mutex_unlock(&lock);
}
