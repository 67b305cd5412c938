#!/bin/sh
# Install what irqkit needs to build, test and benchmark, from Debian's
# packages (Debian 12).  Safe to run again.  Uses sudo when not root.
set -eu
pkgs="build-essential cmake ninja-build pkg-config clang libclang-rt-dev
      libcmocka-dev libdw-dev valgrind libuv1-dev libglib2.0-dev gnuplot-nox
      systemtap-sdt-dev linux-perf bpftrace linux-libc-dev util-linux
      util-linux-extra libjson-c-dev doxygen clang-tidy cppcheck
      gcc-riscv64-unknown-elf qemu-system-misc qemu-system-x86 busybox-static"
need=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		need="$need $p"
done
[ -z "$need" ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $need >/dev/null
