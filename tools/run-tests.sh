#!/bin/sh
# Every check CI runs: install the dependencies, then build and test
#   - Release with gcc and with clang, -Werror;
#   - AddressSanitizer + UndefinedBehaviorSanitizer (gcc);
#   - ThreadSanitizer (clang);
#   - without libdw (gcc): reports name functions through dladdr;
#   - the lock validator on irqkit's own locks (gcc, IRQKIT_LOCKDEP_CORE,
#     with the checking build's assertions, so that "lock held" contracts
#     check the calling task holds it): the examples' tests fail on any report;
# each running the whole ctest suite (unit, stress, compile tests, the
# freestanding build of src/core/, exported symbols, the replay of the fuzz
# corpus and of every input that ever failed), then the install check
# (pkg-config and find_package), the Debian packages (built, installed, the
# quick start built against them, purged), the static analyzers (clang-tidy's
# clang-analyzer checks and cppcheck, no finding), a minute of the API fuzzer (libFuzzer with
# ASan+UBSan and its reference model), the bare-metal RISC-V images under QEMU
# (tools/run-riscv.sh), the Linux guest's tests (tests/guest/run.sh: Debian's
# kernel downloaded, never installed) and a smoke run of the benchmarks.
# Usage: tools/run-tests.sh [build-root]
# IRQKIT_SKIP_SETUP=1 skips the package step (a machine that has them).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-$top/build/ci}
jobs=$(nproc 2>/dev/null || echo 2)

[ "${IRQKIT_SKIP_SETUP:-0}" = 1 ] || "$top/tools/setup-debian.sh"

step() { printf '\n=== %s\n' "$*"; }

configure_build_test() {
	name=$1; shift
	dir="$root/$name"
	step "$name: configure, build"
	cmake -S "$top" -B "$dir" -G Ninja -DIRQKIT_WERROR=ON "$@" >/dev/null
	cmake --build "$dir" -j "$jobs"
	step "$name: test"
	(cd "$dir" && ctest -j "$jobs" --output-on-failure --timeout 900)
}

configure_build_test gcc-release -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Release \
	-DCMAKE_EXPORT_COMPILE_COMMANDS=ON
configure_build_test clang-release -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Release
configure_build_test gcc-asan-ubsan -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Debug \
	-DIRQKIT_SANITIZE=address,undefined -DIRQKIT_DEBUG=ON
configure_build_test gcc-no-libdw -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Debug \
	-DIRQKIT_LIBDW=OFF -DIRQKIT_BUILD_BENCH=OFF -DIRQKIT_BUILD_EXAMPLES=OFF
configure_build_test gcc-lockdep-core -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Debug \
	-DIRQKIT_LOCKDEP_CORE=ON -DIRQKIT_DEBUG=ON -DIRQKIT_BUILD_BENCH=OFF
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
	configure_build_test clang-tsan -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
	-DIRQKIT_SANITIZE=thread

step "bare metal: the RISC-V images under QEMU (virt, machine mode, 1 to 4 harts)"
"$top/tools/run-riscv.sh" "$root/riscv"

step "Linux guest: Debian's kernel under QEMU (x86, TCG), irqkit against uio_pci_generic, vfio-pci, 8250, gpio-sim"
"$top/tests/guest/run.sh" "$root/guest"

step "static analysis: clang-tidy's clang-analyzer checks and cppcheck, no finding"
"$top/tools/check-analyzer.sh" "$root/gcc-release"

step "fuzz: API sequences against the model, 60 s"
"$top/tools/fuzz.sh" "$root/clang-fuzz" 60

step "API reference: man pages and HTML from the headers, no warnings"
"$top/tools/check-api-docs.sh" "$root/gcc-release"

step "install check"
"$top/tools/check-install.sh" "$root/gcc-release"

step "Debian packages: built, installed, the quick start built against them, purged"
"$top/tools/check-packages.sh" "$root/gcc-release"

step "demo: the README's first command (its own Release build, build/demo)"
IRQKIT_SKIP_SETUP=1 "$top/tools/run-demo.sh" >/dev/null

step "benchmark smoke run (ratios reported, not asserted)"
"$root/gcc-release/bench/irqkit-bench" --quick
"$root/gcc-release/bench/irqkit-bench" --scaling --quick

step "all checks passed"
