#!/bin/sh
# Build KUnit files of a Linux source tree as they stand against irqkit, and
# run them: the kernel's own genirq tests, say, which this project cannot
# ship (their licence and authorship are the kernel's).
#
# Usage: tools/kernel-kunit.sh BUILD-DIR LINUX-SRC [FILE ...]
#   FILE: paths inside LINUX-SRC (default kernel/irq/irq_test.c).
# Each file is compiled with the kernel's warning habits (no unused-parameter
# warnings), its own folder and the Linux-name layer on the include path,
# and genirq's "internals.h" from the documented folder; then run with
# 2 virtual CPUs, and once more under the simulator (--sim=3).
# Exit status: 0 when every file built and every run passed.
set -u
build=${1:?usage: kernel-kunit.sh BUILD-DIR LINUX-SRC [FILE ...]}
src=${2:?usage: kernel-kunit.sh BUILD-DIR LINUX-SRC [FILE ...]}
shift 2
[ $# -gt 0 ] || set -- kernel/irq/irq_test.c
cc=${CC:-cc}
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT

cmake --install "$build" --prefix "$prefix" >/dev/null || exit 1
export PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig:$prefix/lib/$(gcc -print-multiarch 2>/dev/null)/pkgconfig"
libdir=$(pkg-config --variable=libdir irqkit)
internals=$(pkg-config --variable=genirq_internals irqkit-kunit)

status=0
for f in "$@"; do
	exe="$prefix/$(basename "$f" .c)"
	if [ ! -f "$src/$f" ]; then
		echo "kernel-kunit: $src/$f: no such file" >&2
		status=1
		continue
	fi
	echo "kernel-kunit: $f"
	# shellcheck disable=SC2046
	if ! "$cc" -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Werror \
		-iquote "$internals" "$src/$f" \
		$(pkg-config --cflags --libs irqkit-kunit) -o "$exe"; then
		echo "kernel-kunit: $f does not build" >&2
		status=1
		continue
	fi
	LD_LIBRARY_PATH="$libdir" timeout 300 "$exe" --cpus=2 || status=1
	LD_LIBRARY_PATH="$libdir" timeout 300 "$exe" --cpus=2 --sim=3 >/dev/null ||
		{ echo "kernel-kunit: $f fails under the simulator" >&2; status=1; }
done
exit $status
