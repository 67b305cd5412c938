#!/bin/sh
# Every shell command the README, the guide (docs/guide/*.md) and
# docs/testing.md show is run
# somewhere: each one (its continuation lines joined, its comment dropped)
# must be in the table below with the test or CI step that runs it and a
# text that step holds; a command with no entry, or whose step no longer
# holds its text, fails the check.  A command no step can run here says why
# (a field "-" and the reason).
# Usage: tools/check-doc-commands.sh
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

# command | file that runs it | text that file holds (or: - | why not)
table=$(cat <<'EOF'
./tools/run-demo.sh|tools/run-tests.sh|tools/run-demo.sh
./tools/run-tests.sh|.ci/run|tools/run-tests.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DIRQKIT_BUILD_TESTS=OFF -DIRQKIT_BUILD_BENCH=OFF -DIRQKIT_BUILD_EXAMPLES=OFF|tools/run-demo.sh|-DCMAKE_BUILD_TYPE=Release
cmake --build build|tools/run-demo.sh|cmake --build
sudo cmake --install build|tools/check-install.sh|cmake --install "$build" --prefix
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release|tools/run-tests.sh|configure_build_test gcc-release -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Release
(cd build && cpack -G DEB)|tools/check-packages.sh|cpack -G DEB
sudo dpkg -i build/*.deb|tools/check-packages.sh|dpkg -i
sudo ldconfig|-|changes the machine; tools/check-install.sh installs to a scratch prefix and sets LD_LIBRARY_PATH instead
cc -std=c11 quickstart.c $(pkg-config --cflags --libs irqkit) -o quickstart|tools/check-install.sh|$(pkg-config --cflags --libs irqkit)
tools/run-riscv.sh|tools/run-tests.sh|tools/run-riscv.sh
cmake -S . -B build/riscv -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/riscv64-virt.cmake|tools/run-riscv.sh|-DCMAKE_TOOLCHAIN_FILE="$top/cmake/riscv64-virt.cmake"
cmake --build build/riscv|tools/run-riscv.sh|cmake --build "$dir"
qemu-system-riscv64 -machine virt -bios none -smp 4 -display none -monitor none -serial stdio -kernel build/riscv/tests/riscv/test_boot.elf|tools/run-riscv.sh|qemu-system-riscv64 -machine virt -bios none
IRQKIT_FAULT_IRQ="5:drop:probability=10,times=100;9:delay:delay_us=200" ./my-driver-test|tests/core/debug/test_fault.c|setenv("IRQKIT_FAULT_IRQ"
cc t.c $(pkg-config --cflags --libs irqkit-kunit)|tools/check-install.sh|$(pkg-config --cflags --libs irqkit-kunit)
./a.out --filter_glob='myuart.*'|tests/CMakeLists.txt|--filter_glob=
./a.out --sim=50|tests/CMakeLists.txt|--sim=3
cc irq_test.c -iquote "$(pkg-config --variable=genirq_internals irqkit-kunit)" $(pkg-config --cflags --libs irqkit-kunit)|-|the kernel's irq_test.c (6.16 and later) is not shipped, and Debian's kernel source predates it; tests/kunit/irq_desc_test.c builds against the same folder
tools/kernel-kunit.sh build/rel ~/linux|-|needs a kernel tree of 6.16 or later, which no Debian package has
tests/guest/run.sh build/guest|tools/run-tests.sh|tests/guest/run.sh
lspci -nn -s 0000:00:05.0|-|the guest's initramfs has no lspci; tests/guest/vfio_e1000e.c checks the same IDs from configuration space
sudo sh -c 'echo vfio-pci > /sys/bus/pci/devices/0000:00:05.0/driver_override'|tests/guest/init|driver_override
sudo sh -c 'echo 0000:00:05.0 > /sys/bus/pci/drivers_probe'|tests/guest/init|drivers_probe
./build/examples/example-multiqueue-pci 0000:00:05.0|tests/guest/init|/bin/multiqueue_pci 0000:00:05.0
./build/examples/example-multiqueue-pci|tests/CMakeLists.txt|example-multiqueue-pci 20000
tools/diff-kernel.sh 2000|-|half an hour of guest time under TCG; CI runs the same comparison with 1,000 sequences (tests/guest/run.sh)
perf probe -x /path/libirqkit.so -a sdt_irqkit:irq_handler_entry|tools/check-usdt.sh|perf probe -q -x "$lib" -a sdt_irqkit:irq_handler_entry
perf stat -e sdt_irqkit:irq_handler_entry ./my-program|tools/check-usdt.sh|perf stat -x, -e sdt_irqkit:irq_handler_entry
tools/irqkit-hardirqs -c ./my-program|tools/check-usdt.sh|tools/irqkit-hardirqs" -L "$lib" -c
tools/irqkit-softirqs -d 10|-|not run by a test yet: tools/check-install.sh checks it is installed
IRQKIT_PUBLISH=1 ./my-program &|tests/platform/irqkit_top.sh|IRQKIT_PUBLISH_DIR
irqkit-top|tests/platform/irqkit_top.sh|"$top" --once
irqkit-top --once -d 2 PID|tests/platform/irqkit_top.sh|"$top" --json --once -d 0.5 "$tpid"
irqkit-top --list|tests/platform/irqkit_top.sh|"$top" --list
irqkit-demo --trace demo.json|tests/platform/test_tracefile.c|--trace %s
cmake -S . -B build/ci/clang-tsan -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DIRQKIT_SANITIZE=thread|tools/run-tests.sh|-DIRQKIT_SANITIZE=thread
cmake --build build/ci/clang-tsan|tools/run-tests.sh|cmake --build "$dir"
cd build/ci/clang-tsan && ctest -j2 --output-on-failure|tools/run-tests.sh|ctest -j "$jobs" --output-on-failure
tools/flake-hunt.sh --racing build/ci/clang-tsan 50|-|45 minutes beside a burner: run by hand, its figures in docs/testing.md
tools/flake-hunt.sh build/ci/gcc-asan-ubsan 10|-|half an hour beside a burner: run by hand
EOF
)

# the commands, one a line: continuation lines joined, comments and blanks dropped
commands() {
	for f in README.md docs/guide/*.md docs/testing.md; do
		awk '/^```sh/ { on = 1; next } /^```/ { on = 0 } on' "$f"
	done | awk '{ line = line $0 } /\\$/ { sub(/\\$/, "", line); next } { print line; line = "" }' |
		sed -e 's/[[:space:]][[:space:]]*#.*$//' -e 's/[[:space:]][[:space:]]*/ /g' \
		    -e 's/^ //' -e 's/ $//' | grep -v '^$'
}

failed=0
n=0
while IFS= read -r cmd; do
	n=$((n + 1))
	entry=$(printf '%s\n' "$table" | awk -F'|' -v c="$cmd" '$1 == c { print; exit }')
	if [ -z "$entry" ]; then
		echo "check-doc-commands: no test or CI step runs: $cmd" >&2
		failed=1
		continue
	fi
	file=$(printf '%s' "$entry" | cut -d'|' -f2)
	text=$(printf '%s' "$entry" | cut -d'|' -f3-)
	[ "$file" = - ] && continue
	if ! grep -qF -- "$text" "$file" 2>/dev/null; then
		echo "check-doc-commands: $file no longer runs: $cmd (it lacks: $text)" >&2
		failed=1
	fi
done <<EOF
$(commands)
EOF
[ "$failed" = 0 ] || exit 1
echo "check-doc-commands: $n commands, each with the step that runs it or the reason none does"
