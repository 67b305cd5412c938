#!/bin/sh
# Install irqkit from build dir $1 into a scratch prefix, then build the
# example the two ways a user would (pkg-config, find_package) and run it.
set -eu
build=$1
top=$(cd "$(dirname "$0")/.." && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT

cmake --install "$build" --prefix "$prefix" >/dev/null
# the API reference, when it was built (tools/check-api-docs.sh): its man pages
if [ -d "$build/api-docs/man/man3" ]; then
	[ -f "$prefix/share/man/man3/irqkit_request_irq.3" ] &&
		[ -f "$prefix/share/man/man3/irq.h.3" ] ||
		{ echo "check-install: the API reference's man pages were not installed" >&2; exit 1; }
fi
# only the installed .pc files: a consumer needs no other package's (libdw's, say)
export PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig:$prefix/lib/$(gcc -print-multiarch 2>/dev/null)/pkgconfig"
libdir=$(pkg-config --variable=libdir irqkit)

# pkg-config, shared library
cc -std=gnu11 "$top/examples/shared_line.c" $(pkg-config --cflags --libs irqkit) \
	-o "$prefix/by-pkg-config"
LD_LIBRARY_PATH="$libdir" "$prefix/by-pkg-config" >/dev/null

# irqkit-linux: kernel-style headers from the install
printf '#include <linux/interrupt.h>\n#include <linux/spinlock.h>\nint main(void) { DEFINE_SPINLOCK(l); spin_lock(&l); spin_unlock(&l); return in_interrupt(); }\n' \
	> "$prefix/k.c"
cc -std=gnu11 "$prefix/k.c" $(pkg-config --cflags --libs irqkit-linux) -o "$prefix/k"
LD_LIBRARY_PATH="$libdir" "$prefix/k"

# irqkit-linux-2.6: the same headers in their 2.6.10 forms (init_timer, timer.data)
printf '#include <linux/timer.h>
#include <linux/version.h>
#if LINUX_VERSION_CODE != KERNEL_VERSION(2,6,10)
#error wrong version
#endif
static void fn(unsigned long d) { (void)d; }
int main(void) { struct timer_list t; init_timer(&t); t.function = fn; t.data = HZ; return timer_pending(&t); }
' \
	> "$prefix/k26.c"
cc -std=gnu11 -Wall -Werror "$prefix/k26.c" $(pkg-config --cflags --libs irqkit-linux-2.6) -o "$prefix/k26"
LD_LIBRARY_PATH="$libdir" "$prefix/k26"

# irqkit-kunit: a file of KUnit suites, no main of its own, builds as it stands
cc -std=gnu11 -Wall -Werror "$top/examples/kunit_driver_test.c" \
	$(pkg-config --cflags --libs irqkit-kunit) -o "$prefix/kunit"
LD_LIBRARY_PATH="$libdir" "$prefix/kunit" | grep -q "^ok 1 myuart" ||
	{ echo "check-install: the KUnit example built with irqkit-kunit did not pass" >&2; exit 1; }

# find_package
cmake -S "$top/tools/install-check" -B "$prefix/consumer" -G Ninja \
	-DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/consumer" >/dev/null
LD_LIBRARY_PATH="$libdir" "$prefix/consumer/consumer" >/dev/null
LD_LIBRARY_PATH="$libdir" "$prefix/consumer/timer26"
LD_LIBRARY_PATH="$libdir" "$prefix/consumer/kunit_driver_test" >/dev/null
# the installed tools
for t in irqkit-hardirqs irqkit-softirqs irqkit-top irqkit-demo; do
	[ -x "$prefix/bin/$t" ] || { echo "check-install: $t not installed" >&2; exit 1; }
done
"$prefix/bin/irqkit-top" --help 2>&1 | grep -q "usage: irqkit-top" ||
	{ echo "check-install: irqkit-top does not run" >&2; exit 1; }
echo "install check: pkg-config (irqkit, irqkit-linux, irqkit-linux-2.6, irqkit-kunit) and find_package(irqkit) builds run; the tools and the demo installed"
