#!/bin/sh
# gdb_session.sh SYSNODE SYSNODE_SIM RUNNER_ELF CASE_DIR WORKDIR: Debian's
# gdb-multiarch, in batch mode, on runner.elf inside sysnode-sim (--gdb 0)
# replaying CASE_DIR's table: break on sn_runner_run, read a variable and a
# register, single-step, continue to the runner's verdict; the run takes the
# same cycles as without the debugger.
set -eu
sysnode=$1 sim=$2 elf=$3 case=$4 work=$5
rm -rf "$work" && mkdir -p "$work" && cd "$work"
"$sysnode" pack "$case" -o table.bin > /dev/null
set -- "$elf" --load "0x1000=$case/upload_00_00001000.bin" --load "0x2000=$case/upload_01_00002000.bin" \
    --table 0x10000=table.bin
"$sim" "$@" > plain.out
"$sim" "$@" --gdb 0 > sim.out 2> sim.err &
simpid=$!
port=
for _ in $(seq 100); do # until the stub has printed its port (it listens before the image runs)
    port=$(sed -n 's/^gdb: listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' sim.err)
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { echo "no port from sysnode-sim --gdb"; kill $simpid; exit 1; }
gdb-multiarch -batch -nx -ex "target remote 127.0.0.1:$port" -ex "break sn_runner_run" -ex continue \
    -ex "print runner.probe_units" -ex 'print/x $pc' -ex 'set $before = $pc' -ex stepi \
    -ex 'print $pc == $before + 4' -ex delete -ex continue "$elf" > gdb.out 2>&1
wait $simpid
cat gdb.out sim.out
grep -q '^Breakpoint 1, sn_runner_run (' gdb.out
grep -q '^\$1 = 1 ' gdb.out                         # runner.probe_units, set by main_dram.c
bp=$(sed -n 's/^Breakpoint 1 at \(0x[0-9a-f]*\): .*/\1/p' gdb.out)
grep -q "^\\\$2 = $bp\$" gdb.out                     # the pc register stopped at the breakpoint
grep -q '^\$3 = 1$' gdb.out                         # stepi moved the pc by one instruction
grep -q 'exited normally' gdb.out
grep -q '^runner: ok rounds=1 flits=26 completions=26 ' sim.out
[ "$(grep '^sysnode-sim: exit' sim.out)" = "$(grep '^sysnode-sim: exit' plain.out)" ]
