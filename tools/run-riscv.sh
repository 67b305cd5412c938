#!/bin/sh
# The bare-metal port's tests: build the RISC-V images (cmake/riscv64-virt.cmake)
# and run each under QEMU's virt machine in machine mode, in the matrix
#   1 hart; 2 harts (multi-threaded TCG); 4 harts on this machine's cores;
#   2 harts on single-threaded TCG; 4 harts under -icount (deterministic);
# each run under a timeout.  A run passes only when QEMU's exit status is the
# one expected (0, from the SiFive test device) and the log has the image's
# "RESULT: PASS" line.  test_fail must fail (status 42, no pass line): the
# proof that this runner can go red.  The bad_* images are bad input (a
# handler that faults, a stack overflow, a handler that never returns): each
# must end with its own status and its report on the console.  An image NAME may have tests/riscv/NAME.input,
# which QEMU's serial port reads.  Logs: BUILD_DIR/logs/.
# Usage: tools/run-riscv.sh [build-dir]   (default build/riscv)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build/riscv}
limit=${IRQKIT_RV_TIMEOUT:-120}

cmake -S "$top" -B "$dir" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$top/cmake/riscv64-virt.cmake" \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo -DIRQKIT_WERROR=ON >/dev/null
cmake --build "$dir"
# the core, compiled for the target as it is built there, needs only the contract
sh "$top/tools/check-freestanding.sh" riscv64-unknown-elf-gcc "$dir/include" \
	"$top/src/platform/riscv/include"
# the layers call each other only as the picture says (docs/DESIGN.md)
objs() { find "$dir/CMakeFiles/irqkit_$1.dir" -name '*.obj' | tr '\n' ':' | sed 's/:$//'; }
NM=riscv64-unknown-elf-nm sh "$top/tools/check-layers.sh" core="$(objs core)" \
	chips="$(objs chips)" platform="$(objs platform_riscv)"
mkdir -p "$dir/logs"

failed=0
runs=0
# run IMAGE LABEL EXPECTED-STATUS WANT-PASS-LINE LOG-PATTERN QEMU-OPTIONS...
# (LOG-PATTERN: an extended regular expression the log must match, or "")
run() {
	img=$1 label=$2 want=$3 wantpass=$4 pattern=$5
	shift 5
	name=$(basename "$img" .elf)
	log="$dir/logs/$name-$label.log"
	input=/dev/null
	[ -f "$top/tests/riscv/$name.input" ] && input="$top/tests/riscv/$name.input"
	start=$(date +%s%N)
	set +e
	timeout --kill-after=5 "$limit" qemu-system-riscv64 -machine virt -bios none \
		-display none -monitor none -serial stdio -nic none "$@" \
		-kernel "$img" <"$input" >"$log" 2>&1
	rc=$?
	set -e
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	haspass=0
	grep -q "RESULT: PASS" "$log" && haspass=1
	hasword=1
	[ -n "$pattern" ] && ! grep -Eq "$pattern" "$log" && hasword=0
	runs=$((runs + 1))
	if [ "$rc" -eq "$want" ] && [ "$haspass" -eq "$wantpass" ] && [ "$hasword" -eq 1 ]; then
		printf '%-28s %-12s ok      %5d ms\n' "$name" "$label" "$ms"
	else
		failed=$((failed + 1))
		printf '%-28s %-12s FAILED  status %d (want %d), pass line %d (want %d), log words %d\n' \
			"$name" "$label" "$rc" "$want" "$haspass" "$wantpass" "$hasword"
		sed 's/^/    | /' "$log" | tail -40
	fi
}

for img in "$dir"/tests/riscv/*.elf; do
	case $(basename "$img" .elf) in
	test_fail)
		run "$img" smp2 42 0 "FAILED .*1 \+ 1 == 3" -smp 2 ;;
	bad_exception)
		run "$img" smp2 99 0 "exception on hart 0: store access fault .*\\(faulting\+0x[0-9a-f]+\\).* in hardirq context" \
			-smp 2 ;;
	bad_stack)
		run "$img" smp2 96 0 "stack overflow in thread greedy .*: [0-9]+ bytes past the end" -smp 2 ;;
	test_cmocka_fail)
		run "$img" smp2 1 0 "FAILED  \\] test_a_failed_assertion_ends_the_test" -smp 2 ;;
	core_test_cpu)
		# three CPUs go up and down: a hart each
		run "$img" smp4 0 1 "PASSED  \\] [0-9]+ test" -smp 4
		run "$img" smp4-icount 0 1 "PASSED  \\] [0-9]+ test" \
			-smp 4 -icount shift=3,sleep=off ;;
	core_*)
		# the host suite's deterministic tests: one hart plays every CPU
		run "$img" smp2 0 1 "PASSED  \\] [0-9]+ test" -smp 2
		run "$img" smp4-icount 0 1 "PASSED  \\] [0-9]+ test" \
			-smp 4 -icount shift=3,sleep=off ;;
	bad_lockup)
		# the report names the task the trap interrupted on that hart: its
		# swapper, or a kworker of CPU 1 that was running (the hotplug state's)
		run "$img" smp2 0 1 "soft lockup - CPU#1 stuck for .* \\[(swapper:0|kworker/1:[0-9]+:[0-9]+)\\]" -smp 2
		run "$img" smp4-icount 0 1 "soft lockup - CPU#3 stuck" \
			-smp 4 -icount shift=3,sleep=off ;;
	*)
		run "$img" smp1 0 1 "" -smp 1
		run "$img" smp2 0 1 "" -smp 2
		run "$img" smp4 0 1 "" -smp 4
		run "$img" smp2-single 0 1 "" -smp 2 -accel tcg,thread=single
		run "$img" smp4-icount 0 1 "" -smp 4 -icount shift=3,sleep=off ;;
	esac
done
echo "bare metal: $runs QEMU runs, $failed failed (logs in $dir/logs)"
[ "$failed" -eq 0 ]
