#!/bin/sh
# gdb_session.sh SYSNODE RUNNER_ELF CASE_DIR WORKDIR: Debian's gdb-multiarch,
# in batch mode, on runner.elf inside `sysnode run CASE_DIR --gdb 0`: break on
# sn_runner_run, read a variable and the pc register, single-step, continue
# to the verdict, which matches and takes the same cycles as without the
# debugger (simulated time stands still while GDB holds the image).
set -eu
sysnode=$1 elf=$2 case=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work"
# Whatever step fails, show what each side said.
trap 'rc=$?; [ $rc -eq 0 ] || for f in plain.out run.out run.err gdb.out; do [ -f $f ] && { echo "--- $f"; cat $f; }; done; exit $rc' EXIT
"$sysnode" run "$case" > plain.out
: > run.err # before the run's shell opens it: the wait below reads it at once
"$sysnode" run "$case" --gdb 0 > run.out 2> run.err &
runpid=$!
port=
# Until the stub has printed its port (it listens before the image runs) or
# the run has ended: no fixed wait that a loaded machine could outlast.
while [ -z "$port" ] && kill -0 $runpid 2>/dev/null; do
    port=$(sed -n 's/^gdb: listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' run.err)
    [ -n "$port" ] || sleep 0.1
done
[ -n "$port" ] || port=$(sed -n 's/^gdb: listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' run.err)
[ -n "$port" ] || { echo "no port from sysnode run --gdb: it ended first"; exit 1; }
gdb-multiarch -batch -nx -ex "target remote 127.0.0.1:$port" -ex "break sn_runner_run" -ex continue \
    -ex "print runner.probe_units" -ex 'print/x $pc' -ex 'set $before = $pc' -ex stepi \
    -ex 'print $pc != $before' -ex 'info symbol $pc' -ex delete -ex continue "$elf" > gdb.out 2>&1
wait $runpid
cat gdb.out run.out
grep -q '^Breakpoint 1, sn_runner_run (' gdb.out
grep -q '^\$1 = 1 ' gdb.out                         # runner.probe_units, set by main_dram.c
bp=$(sed -n 's/^Breakpoint 1 at \(0x[0-9a-f]*\): .*/\1/p' gdb.out)
grep -q "^\\\$2 = $bp\$" gdb.out                     # the pc register stopped at the breakpoint
grep -q '^\$3 = 1$' gdb.out                         # stepi moved the pc
# by exactly one instruction: the prologue's jal (-msave-restore) lands on the
# first instruction of __riscv_save_N, not a byte past it
grep -q '^__riscv_save_[0-9]* in section \.text$' gdb.out
grep -q 'exited normally' gdb.out
grep -q ': match$' run.out
cmp run.out plain.out
