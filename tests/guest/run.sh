#!/bin/sh
# The Linux guest's tests: Debian's own kernel in qemu-system-x86_64 (q35,
# software emulation: TCG), two of QEMU's edu PCI devices and its e1000e, and irqkit's
# sources against the kernel's real drivers (uio_pci_generic; vfio-pci
# behind QEMU's intel-iommu), nothing mocked.
#
#   1. the kernel: the image package linux-image-amd64 depends on, downloaded
#      with apt-get (never installed) and unpacked, cached per version in
#      BUILD_DIR/kernel/; gpio-sim and irq_sim built as modules from that
#      version's linux-source and headers (downloaded the same way), and
#      seqdiff (tests/guest/diff) built at each run against the kept headers;
#   2. the test programs (tests/guest/*.c), linked statically against
#      libirqkit.a (-DIRQKIT_BUILD_GUEST=ON, no libdw, no USDT);
#   3. an initramfs: busybox-static, the drivers' modules, the programs,
#      the sequences, tests/guest/init as PID 1;
#   4. one boot under a timeout; a pass needs both QEMU's status 1 (the
#      guest wrote 0 to isa-debug-exit) and the guest's "GUEST-RESULT: PASS"
#      line: QEMU's own start-up errors also exit 1, a panic under
#      -no-reboot exits 0, a hang is caught by the timeout;
#   5. the guest's recordings replayed on the host;
#   6. the kernel's records of each sequence of tests/guest/diff/seqs
#      against its .expect file, which irqkit's diff/* tests check too;
#   7. Debian's PREEMPT_RT kernel (linux-image-rt-amd64, downloaded the same
#      way) booted a second time for the sequences alone, against irqkit's
#      PREEMPT_RT mode (IRQKIT_PREEMPT_RT=1).
# The console log, the kernel's lines about the devices included, is
# BUILD_DIR/guest.log.
# Usage: tests/guest/run.sh [build-dir]   (default build/guest)
# Needs: qemu-system-x86, busybox-static (tools/setup-debian.sh installs them).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$top/build/guest}
limit=${IRQKIT_GUEST_TIMEOUT:-300}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

for tool in qemu-system-x86_64 busybox apt-get dpkg-deb; do
	command -v "$tool" >/dev/null || { echo "guest: $tool not found (tools/setup-debian.sh)" >&2; exit 1; }
done

# busybox_root DIR: a fresh initramfs tree in DIR with busybox, its applets and
# tests/guest/init as PID 1
busybox_root() {
	rm -rf "$1" && mkdir -p "$1/bin" "$1/lib/modules" "$1/proc" "$1/sys" "$1/dev"
	cp "$(command -v busybox)" "$1/bin/busybox"
	for applet in $("$1/bin/busybox" --list); do
		[ "$applet" = busybox ] || ln -s busybox "$1/bin/$applet"
	done
	cp "$top/tests/guest/init" "$1/init"
}

# split_records LOG DIR: each sequence's records between the guest's markers
# in LOG, to DIR/NAME.kernel
split_records() {
	rm -rf "$2" && mkdir -p "$2"
	tr -d '\r' <"$1" | awk -v d="$2" '
		/^GUEST-SEQ: / { f = d "/" $2 ".kernel"; printf "" > f; next }
		/^GUEST-SEQ-END/ { f = ""; next }
		f && (/^[0-9]+: / || /^line [0-9]+: / || /^handler [0-9]+: / || /^end: / ||
		      /^GUEST-SEQ-ERROR/) { print > f }'
}

# ---- 1. the kernel --------------------------------------------------------------
image_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}
pkg=$(image_pkg)
if [ -z "$pkg" ]; then
	# a machine whose package lists were never fetched
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq >/dev/null 2>&1 || true
	pkg=$(image_pkg)
fi
[ -n "$pkg" ] || { echo "guest: apt-cache knows no linux-image-amd64" >&2; exit 1; }
kdir=$dir/kernel/$pkg
if [ ! -f "$kdir/ready" ]; then
	rm -rf "$kdir" && mkdir -p "$kdir/deb" "$kdir/root"
	echo "guest: downloading $pkg"
	(cd "$kdir/deb" && apt-get download "$pkg" >/dev/null 2>&1) ||
		{ echo "guest: apt-get download $pkg failed" >&2; exit 1; }
	dpkg-deb --fsys-tarfile "$kdir"/deb/*.deb |
		tar -x -C "$kdir/root" --wildcards './boot/vmlinuz-*' \
			'./lib/modules/*/kernel/drivers/uio/*' \
			'./lib/modules/*/kernel/drivers/vfio/*' \
			'./lib/modules/*/kernel/virt/lib/irqbypass.ko' \
			'./lib/modules/*/kernel/fs/configfs/configfs.ko'
	dpkg-deb -f "$kdir"/deb/*.deb Version >"$kdir/version"
	rm -rf "$kdir/deb"
	touch "$kdir/ready"
fi
vmlinuz=$(ls "$kdir"/root/boot/vmlinuz-*)
mods=$(ls -d "$kdir"/root/lib/modules/*/kernel)
kver=$(basename "$(dirname "$mods")")

# ---- 1b. gpio-sim and irq_sim, which Debian's kernel does not build ---------------
# From linux-source of the image's exact version (gpio-sim uses gpiolib's
# internals), against that version's headers; irq_sim needs two changes to
# be a module: its license, and generic_handle_domain_irq() where it called
# handle_simple_irq() on irq_to_desc(), which modules cannot reach.
gdir=$kdir/gpio-sim
hdr=$gdir/root/usr/src/linux-headers-$kver
if [ ! -f "$gdir/ready" ] || [ ! -f "$hdr/Makefile" ]; then
	version=$(cat "$kdir/version")
	series=${kver%%-*}; series=${series%.*}	# 6.1.0-57-amd64 -> 6.1
	common=${kver%-*}-common
	rm -rf "$gdir" && mkdir -p "$gdir/deb" "$gdir/root" "$gdir/mod"
	echo "guest: building gpio-sim for $kver ($version)"
	(cd "$gdir/deb" && apt-get download "linux-headers-$kver=$version" \
		"linux-headers-$common=$version" "linux-kbuild-$series=$version" \
		"linux-source-$series=$version" >/dev/null 2>&1) ||
		{ echo "guest: apt-get download of the kernel's headers and source failed" >&2; exit 1; }
	for d in "$gdir"/deb/linux-headers-*.deb "$gdir"/deb/linux-kbuild-*.deb; do
		dpkg-deb -x "$d" "$gdir/root"
	done
	src=linux-source-$series
	dpkg-deb --fsys-tarfile "$gdir"/deb/linux-source-*.deb |
		tar -xO "./usr/src/$src.tar.xz" |
		tar -xJ -C "$gdir" "$src/drivers/gpio/gpio-sim.c" "$src/drivers/gpio/gpiolib.h" \
			"$src/kernel/irq/irq_sim.c"
	cp "$gdir/$src/drivers/gpio/gpio-sim.c" "$gdir/$src/drivers/gpio/gpiolib.h" \
		"$gdir/$src/kernel/irq/irq_sim.c" "$gdir/mod/"
	sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_domain_irq(work_ctx->domain, offset);/' \
		"$gdir/mod/irq_sim.c"
	grep -q generic_handle_domain_irq "$gdir/mod/irq_sim.c" ||
		{ echo "guest: irq_sim.c is not as expected" >&2; exit 1; }
	printf '\nMODULE_LICENSE("GPL");\n' >>"$gdir/mod/irq_sim.c"
	printf 'obj-m := irq_sim.o gpio-sim.o\n' >"$gdir/mod/Kbuild"
	sed -i "s|^include /usr/src/|include $gdir/root/usr/src/|" "$hdr/Makefile"
	make -s -C "$hdr" M="$gdir/mod" modules >"$gdir/build.log" 2>&1 ||
		{ cat "$gdir/build.log" >&2; echo "guest: building gpio-sim failed" >&2; exit 1; }
	rm -rf "$gdir/deb" "$gdir/$src"	# the headers stay: seqdiff is built at each run
	touch "$gdir/ready"
fi

# ---- 1c. seqdiff: the sequences of tests/guest/diff in the kernel -----------------
sdir=$dir/seqdiff
rm -rf "$sdir" && mkdir -p "$sdir"
cp "$top/tests/guest/diff/seq.c" "$top/tests/guest/diff/seq.h" "$sdir/"
cp "$top/tests/guest/diff/seqdiff.c" "$sdir/seqdiff_main.c"
printf 'obj-m := seqdiff.o
seqdiff-y := seqdiff_main.o seq.o
ccflags-y := -std=gnu11
' \
	>"$sdir/Kbuild"
# (irq_sim's symbols from its build above: the simulator's lines of seq.c)
make -s -C "$hdr" M="$sdir" KBUILD_EXTRA_SYMBOLS="$gdir/mod/Module.symvers" modules \
	>"$sdir/build.log" 2>&1 ||
	{ cat "$sdir/build.log" >&2; echo "guest: building seqdiff failed" >&2; exit 1; }

# ---- 1d. affmask: the kernel's side of the affinity comparison ---------------------
adir=$dir/affmask
rm -rf "$adir" && mkdir -p "$adir"
cp "$top/tests/guest/affmask/affmask.c" "$top/tests/guest/affmask/cases.h" "$adir/"
printf 'obj-m := affmask.o\n' >"$adir/Kbuild"
make -s -C "$hdr" M="$adir" modules >"$adir/build.log" 2>&1 ||
	{ cat "$adir/build.log" >&2; echo "guest: building affmask failed" >&2; exit 1; }

# ---- 2. the programs ----------------------------------------------------------------
# (and, for the host, the test that replays the guest's recordings)
cmake -S "$top" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DIRQKIT_WERROR=ON \
	-DIRQKIT_LIBDW=OFF -DIRQKIT_USDT=OFF -DIRQKIT_BUILD_TESTS=ON -DIRQKIT_BUILD_BENCH=OFF \
	-DIRQKIT_BUILD_EXAMPLES=OFF -DIRQKIT_BUILD_GUEST=ON >/dev/null
cmake --build "$dir/build" --target guest_uio_edu guest_vfio_edu guest_vfio_e1000e \
	guest_affmask_irqkit guest_multiqueue_pci guest_serial_loop \
	guest_gpio_sim guest_bench_uio guest_bench_msix test_record seq_irqkit fuzz_api_replay >/dev/null

# ---- 2b. generated sequences and irqkit's records of them -------------------------
ngen=${IRQKIT_DIFF_N:-1000}
gen=$dir/gen
rm -rf "$gen" && mkdir -p "$gen"
i=1
while [ "$i" -le "$ngen" ]; do
	"$dir/build/tests/seq_irqkit" --gen "$i" >"$gen/gen-$i.seq"
	"$dir/build/tests/seq_irqkit" "$gen/gen-$i.seq" >"$gen/gen-$i.irqkit"
	i=$((i + 1))
done
# and the fuzzer's corpus and regressions, what of each the form has
nfuzz=0
for f in "$top"/tests/fuzz/corpus/* "$top"/tests/fuzz/regressions/*; do
	name=fuzz-$(basename "$f")
	"$dir/build/tests/fuzz/fuzz_api_replay" --to-seq "$f" >"$gen/$name.seq"
	"$dir/build/tests/seq_irqkit" "$gen/$name.seq" >"$gen/$name.irqkit"
	nfuzz=$((nfuzz + 1))
done

# ---- 3. the initramfs ---------------------------------------------------------------
root=$dir/initramfs
busybox_root "$root"
cp "$mods/drivers/uio/uio.ko" "$mods/drivers/uio/uio_pci_generic.ko" \
	"$mods/virt/lib/irqbypass.ko" "$mods/drivers/vfio/vfio.ko" \
	"$mods/drivers/vfio/vfio_iommu_type1.ko" "$mods/drivers/vfio/vfio_virqfd.ko" \
	"$mods/drivers/vfio/pci/vfio-pci-core.ko" "$mods/drivers/vfio/pci/vfio-pci.ko" \
	"$mods/fs/configfs/configfs.ko" "$gdir/mod/irq_sim.ko" "$gdir/mod/gpio-sim.ko" \
	"$sdir/seqdiff.ko" "$adir/affmask.ko" "$root/lib/modules/"
mkdir -p "$root/seqs/gen"
cp "$top"/tests/guest/diff/seqs/*.seq "$root/seqs/"
cp "$gen"/*.seq "$root/seqs/gen/"
for p in "$dir"/build/tests/guest/guest_*; do
	cp "$p" "$root/bin/${p##*/guest_}"
done
(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null) >"$dir/initramfs.cpio"

# ---- 4. the boot ------------------------------------------------------------------
# (IRQKIT_GUEST_RT_ONLY=1: straight to the PREEMPT_RT kernel's pass, 7)
if [ "${IRQKIT_GUEST_RT_ONLY:-0}" = 0 ]; then
log=$dir/guest.log
start=$(date +%s)
set +e
timeout --kill-after=5 "$limit" qemu-system-x86_64 -accel tcg -M q35 -cpu max -smp 2 -m 512 \
	-nodefaults -no-user-config -display none -no-reboot -serial stdio -serial null \
	-device intel-iommu,intremap=on -device edu,addr=03.0 -device edu,addr=04.0 \
	-device e1000e,addr=05.0 -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-kernel "$vmlinuz" -initrd "$dir/initramfs.cpio" \
	-append "console=ttyS0 panic=-1 loglevel=4 intel_iommu=on" </dev/null >"$log" 2>&1
rc=$?
set -e
secs=$(($(date +%s) - start))
grep -E '^(GUEST|ok |not ok |  |kernel: |bench: |record: )' "$log" | grep -v '^GUEST-RECORDING' || true
if [ "$rc" -ne 1 ] || ! grep -q '^GUEST-RESULT: PASS' "$log"; then
	echo "guest: FAIL ($pkg, QEMU status $rc, $secs s; log $log)"
	# a sequence that started and never ended (the guest hung or died in it)
	tr -d '\r' <"$log" | awk '/^GUEST-SEQ: / { name = $2 } /^GUEST-SEQ-END/ { name = "" }
		END { if (name != "") print "guest: the sequence " name " did not end" }'
	tail -30 "$log" | sed 's/^/    | /'
	exit 1
fi
echo "guest: PASS ($pkg, QEMU status $rc, $secs s; log $log)"

# ---- 4b. the e1000e's vectors: the kernel's affinity masks and irqkit's ------------
tr -d '\r' <"$log" | sed -n 's/^AFFMASK-LINUX //p' >"$adir/linux.txt"
tr -d '\r' <"$log" | sed -n 's/^AFFMASK-IRQKIT //p' >"$adir/irqkit.txt"
if [ ! -s "$adir/linux.txt" ] || ! cmp -s "$adir/linux.txt" "$adir/irqkit.txt"; then
	echo "guest: FAIL (the e1000e's affinity masks: the kernel's and irqkit's differ; - kernel, + irqkit)"
	diff -u "$adir/linux.txt" "$adir/irqkit.txt" | sed 's/^/    | /'
	exit 1
fi
echo "guest: the e1000e's affinity masks the same in the kernel and in irqkit ($(grep -c vectors "$adir/linux.txt") cases, $(grep -c vector "$adir/linux.txt" | tr -d ' ') lines)"

# ---- 5. the guest's recordings, replayed on the host in the simulator -------------
rec=$dir/recordings
rm -rf "$rec" && mkdir -p "$rec"
tr -d '\r' <"$log" | awk -v d="$rec" '
	/^GUEST-RECORDING: / { f = d "/" $2 ".b64"; next }
	/^GUEST-RECORDING-END/ { f = ""; next }
	f { print > f }
	/^record: / { print $4, $6, $8 > (d "/" $2 ".expect") }'
for b in "$rec"/*.b64; do
	[ -e "$b" ] || { echo "guest: FAIL (no recording came back on the console)"; exit 1; }
	base64 -d <"$b" >"${b%.b64}.rec"
done
if ! IRQKIT_RECORDING_DIR=$rec "$dir/build/tests/test_record"; then
	echo "guest: FAIL (the guest's recordings did not replay on the host as recorded)"
	exit 1
fi
echo "guest: the recordings replayed on the host ($(ls "$rec"/*.rec | wc -l) files in $rec)"

# ---- 6. the kernel's records of each sequence, against the same .expect as irqkit's --
seqs=$dir/seqs
split_records "$log" "$seqs"
bad=0
n=0
for s in "$top"/tests/guest/diff/seqs/*.seq; do
	name=$(basename "$s" .seq)
	n=$((n + 1))
	if [ ! -f "$seqs/$name.kernel" ]; then
		echo "guest: sequence $name: no records came back"
		bad=1
	elif ! sh "$top/tests/guest/diff/compare.sh" "${s%.seq}.expect" "$seqs/$name.kernel" \
		>"$seqs/$name.diff"; then
		echo "guest: sequence $name: the kernel's records differ from $name.expect (- expected, + kernel):"
		sed 's/^/    | /' "$seqs/$name.diff"
		bad=1
	fi
done
# the generated ones: the kernel's records are the oracle for irqkit's
differ=0
for s in "$gen"/gen-*.seq "$gen"/fuzz-*.seq; do
	name=$(basename "$s" .seq)
	if [ ! -f "$seqs/$name.kernel" ]; then
		echo "guest: sequence $name: no records came back"
		bad=1
	elif ! cmp -s "$seqs/$name.kernel" "$gen/$name.irqkit" &&
		! sh "$top/tests/guest/diff/compare.sh" "$seqs/$name.kernel" "$gen/$name.irqkit" \
			>"$seqs/$name.diff"; then
		differ=$((differ + 1))
		if [ "$differ" -le 5 ]; then
			echo "guest: sequence $name ($s): irqkit's records differ from the kernel's (- kernel, + irqkit):"
			sed 's/^/    | /' "$seqs/$name.diff"
		fi
		bad=1
	fi
done
[ "$bad" -eq 0 ] || { echo "guest: FAIL (sequences: $differ of $ngen generated and $nfuzz from the fuzzer differ, or a named one does)"; exit 1; }
echo "guest: $n named sequences as expected, $ngen generated and $nfuzz from the fuzzer's inputs the same in the kernel and in irqkit"
fi

# ---- 7. Debian's PREEMPT_RT kernel against irqkit's PREEMPT_RT mode ----------------
# The same sequences (the named ones and the first IRQKIT_DIFF_RT_N generated)
# in the RT kernel (linux-image-rt-amd64, downloaded as above, seqdiff and
# irq_sim built against its headers), booted with irqkit_guest=seq, and in
# irqkit with IRQKIT_PREEMPT_RT=1, compared as rt-normalize.sh puts them
# (the order of a shared line's threads, and log lines, are the
# scheduler's).  Records that then differ only in counts the threads'
# timing decides (rt-normalize.sh -c) are listed: the RT kernel's irq
# thread takes the CPU from the runner when it is woken, where irqkit's
# deterministic runner goes on.  A named sequence must agree so far; a
# generated one that differs otherwise is listed with its difference, and
# the count printed, but does not fail the run: how far the kernel's
# threads get between two steps is its scheduler's.
# (IRQKIT_GUEST_RT=0: not this pass.)
[ "${IRQKIT_GUEST_RT:-1}" = 0 ] && exit 0
rtpkg=$(apt-cache depends linux-image-rt-amd64 2>/dev/null |
	awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
[ -n "$rtpkg" ] || { echo "guest: apt-cache knows no linux-image-rt-amd64" >&2; exit 1; }
rkdir=$dir/kernel/$rtpkg
if [ ! -f "$rkdir/ready" ]; then
	rm -rf "$rkdir" && mkdir -p "$rkdir/deb" "$rkdir/root"
	echo "guest: downloading $rtpkg and its headers"
	rkver=${rtpkg#linux-image-}
	rversion=$(apt-cache show "$rtpkg" 2>/dev/null | awk '/^Version:/ { print $2; exit }')
	rseries=${rkver%%-*}; rseries=${rseries%.*}
	rcommon=${rkver%-rt-*}-common-rt
	(cd "$rkdir/deb" && apt-get download "$rtpkg" "linux-headers-$rkver=$rversion" \
		"linux-headers-$rcommon=$rversion" "linux-kbuild-$rseries=$rversion" \
		>/dev/null 2>&1) || { echo "guest: apt-get download of $rtpkg failed" >&2; exit 1; }
	dpkg-deb --fsys-tarfile "$rkdir"/deb/linux-image-*.deb |
		tar -x -C "$rkdir/root" --wildcards './boot/vmlinuz-*'
	for d in "$rkdir"/deb/linux-headers-*.deb "$rkdir"/deb/linux-kbuild-*.deb; do
		dpkg-deb -x "$d" "$rkdir/root"
	done
	rm -rf "$rkdir/deb"
	touch "$rkdir/ready"
fi
rvmlinuz=$(ls "$rkdir"/root/boot/vmlinuz-*)
rkver=${rvmlinuz##*/vmlinuz-}
rhdr=$rkdir/root/usr/src/linux-headers-$rkver
sed -i "s|^include /usr/src/|include $rkdir/root/usr/src/|" "$rhdr/Makefile"
rmod=$dir/rt-modules
rm -rf "$rmod" && mkdir -p "$rmod/sim" "$rmod/seq"
cp "$gdir/mod/irq_sim.c" "$rmod/sim/"
printf 'obj-m := irq_sim.o\n' >"$rmod/sim/Kbuild"
cp "$sdir/seq.c" "$sdir/seq.h" "$sdir/seqdiff_main.c" "$sdir/Kbuild" "$rmod/seq/"
{ make -s -C "$rhdr" M="$rmod/sim" modules &&
  make -s -C "$rhdr" M="$rmod/seq" KBUILD_EXTRA_SYMBOLS="$rmod/sim/Module.symvers" modules; } \
	>"$rmod/build.log" 2>&1 ||
	{ cat "$rmod/build.log" >&2; echo "guest: building seqdiff for $rkver failed" >&2; exit 1; }
nrt=${IRQKIT_DIFF_RT_N:-300}
[ "$nrt" -le "$ngen" ] || nrt=$ngen
rroot=$dir/initramfs-rt
busybox_root "$rroot"
mkdir -p "$rroot/seqs/gen"
cp "$rmod/sim/irq_sim.ko" "$rmod/seq/seqdiff.ko" "$rroot/lib/modules/"
cp "$top"/tests/guest/diff/seqs/*.seq "$rroot/seqs/"
i=1
while [ "$i" -le "$nrt" ]; do
	cp "$gen/gen-$i.seq" "$rroot/seqs/gen/"
	i=$((i + 1))
done
(cd "$rroot" && find . | busybox cpio -o -H newc 2>/dev/null) >"$dir/initramfs-rt.cpio"
rlog=$dir/guest-rt.log
start=$(date +%s)
set +e
timeout --kill-after=5 "$limit" qemu-system-x86_64 -accel tcg -M q35 -cpu max -smp 2 -m 512 \
	-nodefaults -no-user-config -display none -no-reboot -serial stdio \
	-serial "file:$dir/guest-rt-records.txt" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-kernel "$rvmlinuz" -initrd "$dir/initramfs-rt.cpio" \
	-append "console=ttyS0 panic=-1 loglevel=4 irqkit_guest=seq" </dev/null >"$rlog" 2>&1
rc=$?
set -e
secs=$(($(date +%s) - start))
if [ "$rc" -ne 1 ] || ! grep -q '^GUEST-RESULT: PASS' "$rlog" || ! grep -q '^GUEST: PREEMPT_RT: 1' "$rlog"; then
	echo "guest: FAIL (the PREEMPT_RT kernel $rtpkg, QEMU status $rc, $secs s; log $rlog)"
	tail -30 "$rlog" | sed 's/^/    | /'
	exit 1
fi
rseqs=$dir/seqs-rt
split_records "$dir/guest-rt-records.txt" "$rseqs"
norm=$top/tests/guest/diff/rt-normalize.sh
agree=0 timing=0 other=0 bad=0 timed="" others=""
for s in "$top"/tests/guest/diff/seqs/*.seq "$rroot"/seqs/gen/*.seq; do
	name=$(basename "$s" .seq)
	IRQKIT_PREEMPT_RT=1 "$dir/build/tests/seq_irqkit" "$s" >"$rseqs/$name.irqkit"
	if [ ! -f "$rseqs/$name.kernel" ]; then
		echo "guest: RT sequence $name: no records came back"
		bad=1
		continue
	fi
	sh "$norm" "$rseqs/$name.kernel" >"$rseqs/$name.k"
	sh "$norm" "$rseqs/$name.irqkit" >"$rseqs/$name.i"
	if sh "$top/tests/guest/diff/compare.sh" "$rseqs/$name.k" "$rseqs/$name.i" \
		>"$rseqs/$name.diff"; then
		agree=$((agree + 1))
		continue
	fi
	sh "$norm" -c "$rseqs/$name.kernel" >"$rseqs/$name.kc"
	sh "$norm" -c "$rseqs/$name.irqkit" >"$rseqs/$name.ic"
	if sh "$top/tests/guest/diff/compare.sh" "$rseqs/$name.kc" "$rseqs/$name.ic" >/dev/null; then
		timing=$((timing + 1))
		timed="$timed $name"
		continue
	fi
	other=$((other + 1))
	others="$others $name"
	case $name in gen-*) ;; *) bad=1 ;; esac
	if [ "$other" -le 5 ]; then
		echo "guest: RT sequence $name: irqkit's PREEMPT_RT mode differs from the RT kernel (- kernel, + irqkit):"
		sed 's/^/    | /' "$rseqs/$name.diff"
	fi
done
echo "guest: PREEMPT_RT ($rtpkg, $secs s): $agree sequences agree; $timing differ in counts the threads' timing decides:$timed; $other otherwise:$others (diffs in $rseqs)"
[ "$bad" -eq 0 ] || { echo "guest: FAIL (PREEMPT_RT: a named sequence differs, or records did not come back)"; exit 1; }
exit 0
