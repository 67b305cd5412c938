#!/bin/sh
# The Debian packages: build them from build dir $1 (cpack -G DEB: libirqkit0,
# libirqkit-dev, irqkit-tools), check what each holds, install them with
# dpkg, build and run the quick start against the installed packages alone
# (pkg-config and find_package, with no path into the tree or the build),
# then purge them again, leaving the machine as it was.  Needs root (sudo
# is used when not root).
# Usage: tools/check-packages.sh BUILD-DIR
set -eu
build=${1:?usage: tools/check-packages.sh BUILD-DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
work=$(mktemp -d)
pkgs="libirqkit0 libirqkit-dev irqkit-tools"
installed=0
cleanup() {
	[ "$installed" = 0 ] || $sudo dpkg -P $pkgs >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "check-packages: $*" >&2; exit 1; }

for p in $pkgs; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		fail "$p is installed on this machine already; remove it first (dpkg -P $p)"
	fi
done
(cd "$build" && cpack -G DEB -B "$work/debs") >"$work/cpack.log" 2>&1 ||
	{ cat "$work/cpack.log" >&2; fail "cpack failed"; }
v=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
for p in $pkgs; do
	[ -f "$work/debs/${p}_${v}_$(dpkg --print-architecture).deb" ] || fail "no package $p $v"
done
holds() {	# holds PACKAGE PATH...: the package has each path
	p=$1; shift
	dpkg-deb -c "$work/debs/${p}_${v}_"*.deb | awk '{ print $6 }' >"$work/list"
	for f in "$@"; do
		grep -qx "./usr/$f" "$work/list" || fail "$p lacks /usr/$f"
	done
}
holds libirqkit0 "lib/libirqkit.so.0"
holds libirqkit-dev include/irqkit/irqkit.h include/irqkit/compat/linux/interrupt.h \
	include/irqkit/arch/irqflags.h include/irqkit/config.h lib/libirqkit.so lib/libirqkit.a \
	lib/libirqkit-kunit.a lib/pkgconfig/irqkit.pc lib/pkgconfig/irqkit-linux.pc \
	lib/cmake/irqkit/irqkitConfig.cmake
holds irqkit-tools bin/irqkit-top bin/irqkit-hardirqs bin/irqkit-softirqs bin/irqkit-demo
grep -q "^./usr/lib/libirqkit.so" "$work/list" && fail "irqkit-tools holds the library"

installed=1
$sudo dpkg -i "$work/debs/"*.deb >/dev/null || fail "dpkg -i failed"

# the quick start, against /usr alone: no -I or -L into the tree or the build
cc -std=c11 "$top/examples/quickstart.c" $(pkg-config --cflags --libs irqkit) -o "$work/quickstart"
"$work/quickstart" >/dev/null || fail "the quick start built against the packages did not run"
cc -std=gnu11 "$top/examples/shared_line.c" $(pkg-config --cflags --libs irqkit-linux) \
	-o "$work/shared_line"
"$work/shared_line" >/dev/null || fail "shared_line built with irqkit-linux did not run"
# tools/install-check, the project check-install.sh builds, with no prefix path: /usr
cmake -S "$top/tools/install-check" -B "$work/consumer" -G Ninja >/dev/null ||
	fail "find_package(irqkit) against the packages failed"
cmake --build "$work/consumer" >/dev/null || fail "the find_package consumer did not build"
"$work/consumer/consumer" >/dev/null || fail "the find_package consumer did not run"
"$work/consumer/timer26" || fail "the 2.6 consumer built against the packages did not run"
"$work/consumer/kunit_driver_test" | grep -q "^ok 1 myuart" ||
	fail "the KUnit example built against the packages did not pass"
irqkit-top --help 2>&1 | grep -q "usage: irqkit-top" || fail "irqkit-top from irqkit-tools does not run"
irqkit-demo >/dev/null || fail "irqkit-demo from irqkit-tools did not run"
echo "check-packages: libirqkit0, libirqkit-dev, irqkit-tools $v built, installed and used (pkg-config, find_package, the tools), then purged"
