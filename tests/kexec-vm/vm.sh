# The rehearsal host's power and console (sourced by rehearsal.sh).
#
#   vm_setup DIR PORT   disks under DIR; the guest reaches 127.0.0.1:PORT
#                       (perflabd) at 10.0.2.100:8080 and nothing else
#   vm_power_on         start the restart loop: every QEMU exit (reboot,
#                       panic with -no-reboot, power cut) is followed by a
#                       fresh boot of the default kernel, as a real host's
#                       firmware would; each boot's console in DIR/console-N.log
#   vm_power_cut        kill QEMU (SIGKILL): a power loss
#   vm_power_off        stop the loop and QEMU
#
# Environment: VM_ICOUNT (1: -icount shift=0,sleep=off, guest time counts
# instructions so the figures repeat; 0: plain TCG), VM_MEM (512).
KH=$TOP/build/kexec-host
VM_DIR=
VM_LOOP_PID=

vm_setup() {
	VM_DIR=$1
	VM_PORT=$2
	mkdir -p "$VM_DIR"
	rm -f "$VM_DIR"/console-*.log "$VM_DIR/stop"
	truncate -s 64M "$VM_DIR/nvme.img"
}

# vm_qemu N: one boot; the previous boot's console tail goes in by fw_cfg.
vm_qemu() {
	local n=$1 prev=$VM_DIR/console-$(($1 - 1)).log tail=$VM_DIR/prev-console
	local icount=()

	if [ -f "$prev" ]; then
		tail -c 8192 "$prev" >"$tail"
	else
		echo "(first boot)" >"$tail"
	fi
	[ "${VM_ICOUNT:-1}" = 1 ] && icount=(-icount shift=0,sleep=off)
	qemu-system-x86_64 -nodefaults -no-user-config -no-reboot -display none \
		-smp 1 -m "${VM_MEM:-512}" "${icount[@]}" \
		-kernel "$KH/bzImage" -initrd "$KH/initrd.cpio" \
		-append "console=ttyS0 panic=-1 nokaslr noapictimer no_timer_check" \
		-serial "file:$VM_DIR/console-$n.log" \
		-pidfile "$VM_DIR/qemu.pid" \
		-fw_cfg "name=opt/perflab/console,file=$tail" \
		-drive "file=$VM_DIR/state.ext4,if=virtio,format=raw" \
		-drive "file=$VM_DIR/images.ext4,if=virtio,format=raw,readonly=on" \
		-drive "file=$VM_DIR/nvme.img,if=none,id=nvm,format=raw" \
		-device nvme,serial=perflab0,drive=nvm \
		-netdev "user,id=n0,restrict=on,guestfwd=tcp:10.0.2.100:8080-cmd:busybox nc 127.0.0.1 $VM_PORT" \
		-device virtio-net-pci,netdev=n0 \
		>>"$VM_DIR/qemu.log" 2>&1
}

vm_loop() {
	local n=0 rc

	while [ ! -f "$VM_DIR/stop" ]; do
		n=$((n + 1))
		echo "$(date +%s) boot $n" >>"$VM_DIR/power.log"
		vm_qemu $n
		rc=$?
		echo "$(date +%s) exit $n rc=$rc" >>"$VM_DIR/power.log"
	done
}

vm_power_on() {
	vm_loop 2>>"$VM_DIR/qemu.log" &
	VM_LOOP_PID=$!
}

vm_power_cut() {
	local pid

	pid=$(cat "$VM_DIR/qemu.pid" 2>/dev/null) && kill -9 "$pid" 2>/dev/null
	echo "$(date +%s) power cut" >>"$VM_DIR/power.log"
}

vm_power_off() {
	[ -n "$VM_DIR" ] || return 0
	touch "$VM_DIR/stop"
	vm_power_cut
	[ -n "$VM_LOOP_PID" ] && wait "$VM_LOOP_PID" 2>/dev/null
	VM_LOOP_PID=
}

# vm_boots: how many boots so far.
vm_boots() {
	grep -c ' boot ' "$VM_DIR/power.log" 2>/dev/null || echo 0
}
