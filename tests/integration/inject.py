#!/usr/bin/env python3
"""inject.py SYSNODE SYSNODE_SIM CASES_DIR SYNTH_DIR RUNNER_DIR KIND
(SYNTH_DIR: synth_case's 24-round case; its --flood 80 twin is SYNTH_DIR_flood)

One injected fault (docs/user-guide.md "Faults on demand"; sim/harness/inject.h) and the
diagnosis it must get: a nonzero exit, the runner's (or the simulator's)
words naming round, step and node, and the line saying what was injected.
No kind may end in a silent wrong result."""
import subprocess, sys

sysnode, sysnode_sim, cases, synth, runner_dir, kind = sys.argv[1:7]
VADD = f"{cases}/vadd128"
INJECTED = "sysnode run: injected "
# kind -> (case, --inject, exit code, words that must appear)
EXPECT = {
    # The lost GO was slot 0 (VSETI): the kernel runs without its VL. The runner cannot know a GO was lost, so
    # the slot named is one before the RUN that faulted; the dropped-GO line says why.
    "go-drop": (VADD, "go-drop@0:1", 1, ["exited with 0x30 after ", "the payload that faulted: round 0 step 1 slot ",
                                         "SIG_FAULT, argument 7 (vector core fault: VL); node (1,0)",
                                         "sysnode run: 1 GO dropped by the mailbox", INJECTED + "go-drop: a GO store was lost"]),
    "go-drop-at-cycle": (VADD, "go-drop@9000", 1, ["sysnode run: 1 GO dropped by the mailbox",
                                                     INJECTED + "go-drop: a GO store was lost at cycle 9"]),
    "completion-drop": (VADD, "completion-drop@0:1", 1,
                        ["exited with 0x40 after ", "round 0 step 2: hang:", "node (1,0): awaited 26, received 25, owed 1",
                         INJECTED + "completion-drop: the completion 0x"]),
    "completion-dup": (VADD, "completion-dup@0:1", 1,
                       ["exited with 0x21 after ", "round 0 step 3: received 27 completions, awaited 26; node (1,0)",
                        INJECTED + "completion-dup"]),
    "completion-forge": (VADD, "completion-forge", 1,
                         ["exited with 0x22 after ", "completion (code 1) from a coordinate with no unit; node (3,3)",
                          INJECTED + "completion-forge: a completion from (3,3)"]),
    "unit-stuck": (VADD, "unit-stuck@0:1", 1,
                   ["exited with 0x40 after ", "round 0 step 2: hang:", "node (1,0): awaited 26, received 0, owed 26",
                    INJECTED + "unit-stuck"]),
    "unit-fault-vc": (VADD, "unit-fault:9@0:1", 1,
                      ["exited with 0x30 after ", "round 0 step 1: SIG_FAULT, argument 9 (vector core fault: bad CU_DATA); node (1,0)",
                       INJECTED + "unit-fault"]),
    "unit-fault-mg": (f"{cases}/mm4x32", "unit-fault:2@0:1", 1,
                      ["exited with 0x30 after ", "SIG_FAULT, argument 2 (matmul cluster fault: FILL range); node (1,1); "
                       "the payload that faulted: round 0 step 1 slot 0",
                       INJECTED + "unit-fault"]),
    # synth_case's round 3 kicks core 0 ((1,0)) slots 0..1 at step 1 and 2..4 at step 3; rounds 0..2 sent it
    # 26 + 5 + 5 payloads, so slot 2 of round 3 is its payload 38: the host names the payload, not the step
    # (4) where the fault arrived.
    "unit-fault-slot": (synth, "unit-fault:7@3:3", 1,
                        ["round 3 step 4: SIG_FAULT, argument 7 (vector core fault: VL); node (1,0); the payload "
                         "that faulted: round 3 step 3 slot 2",
                         "'s payload 38 since boot (0-based)"]),
    # Offset 1156 is a step's opcode byte in the packed table (synth_case's 24 rounds of 32 bytes put
    # the steps at 832, FORMAT.md §2-§3; this is step 27's); its inverse is no opcode.
    "table-flip": (synth, "table-flip:1156@0:1", 1,
                   ["exited with 0x17 after ", "the table in DRAM changed after it was checked",
                    "unknown step opcode ", INJECTED + "table-flip: the table byte at offset 1156"]),
    # Offset 127 is the top byte of vadd128's await count (step 2's `a`, steps at 96, FORMAT.md §3): flipped while step 1
    # kicks, the count 26 becomes 0xFF00001A, past 2^31-1; the runner's own count refuses it as it reaches the
    # await (before: the wrap-safe wait ended at once and the round end reported 0x21, 26 received).
    "table-flip-await": (VADD, "table-flip:127@0:1", 1,
                         ["exited with 0x17 after ", "the table in DRAM changed after it was checked",
                          "round 0 step 2: awaits for the node pass 2^31-1 in the round: this await 4278190106, "
                          "room 2147483647 (node (1,0))", INJECTED + "table-flip: the table byte at offset 127"]),
    # The default flips the table's last byte, in round 23's last payload row, at BOOT: the header, the
    # structure and rounds 0..22 are intact, so those run, and round 23 is refused before its first GO.
    "table-flip-payload": (synth, "table-flip", 1,
                           ["exited with 0x15 after ", "table: round 23's payload hash ",
                            INJECTED + "table-flip: the table byte at offset "]),
    "missing-node": (VADD, "missing-node@0:1", 1,
                     ["mesh: a flit for (3,3) has no endpoint", INJECTED + "missing-node: a GO sent to (3,3)"]),
    # A runner that does not drain while it kicks fills the completion queue:
    # the older mailbox drops the overflow and says so in STAT[31].
    "mailbox-gen-a": (synth + "_flood", "mailbox-gen-a", 1,
                      ["exited with 0x23 after ", "round 0 step 1: STAT[31] set: the mailbox dropped completions",
                       INJECTED + "mailbox-gen-a"]),
    "never-triggered": (VADD, "go-drop@0:99", 0,
                        ["match", "sysnode run: injection never triggered: no matching event after the trigger"]),
    # vadd128's table is 992 bytes: offset 992 is past it, which the line names (the size is known at BOOT).
    "table-flip-past": (VADD, "table-flip:992", 0,
                        ["match", "sysnode run: injection never triggered: table-flip offset 992 is past the "
                                  "table's 992 bytes"]),
}
if kind == "sysnode-sim":
    r = subprocess.run([sysnode_sim, f"{runner_dir}/runner-vadd128.elf", "--inject", "completion-dup@0:1"],
                       capture_output=True, text=True)
    out = r.stdout + r.stderr
    assert r.returncode == 0x21, f"exit {r.returncode}: {out}"
    assert "received 27 completions, awaited 26" in out and "sysnode-sim: injected completion-dup" in out, out
    for bad in ("bogus", "unit-fault", "unit-fault:0", "go-drop:3", "go-drop@x"):
        r = subprocess.run([sysnode_sim, f"{runner_dir}/runner-vadd128.elf", "--inject", bad], capture_output=True,
                           text=True)
        assert r.returncode == 2 and "--inject " + bad in r.stderr, (bad, r.returncode, r.stderr)
        r = subprocess.run([sysnode, "run", VADD, "--inject", bad], capture_output=True, text=True)
        assert r.returncode == 2 and "--inject " + bad in r.stderr and "usage: sysnode run" in r.stderr, \
            (bad, r.returncode, r.stderr)
    print("PASS: sysnode-sim and sysnode run --inject")
    sys.exit(0)
case, spec, code, words = EXPECT[kind]
image = ["--image", f"{runner_dir}/runner-nodrain.elf"] if kind == "mailbox-gen-a" else []
r = subprocess.run([sysnode, "run", case, "--inject", spec, *image], capture_output=True, text=True)
out = r.stdout + r.stderr
assert r.returncode == code, f"exit {r.returncode}, want {code}: {out}"
for w in words:
    assert w in out, f"{w!r} not in: {out}"
if code != 0:
    assert ": match" not in r.stdout, "an injected fault passed as a match"
print(f"PASS: {kind}: {spec}")
