/* A jump or taken branch to a target that is not 4-aligned traps with
 * cause 0 at the jump, mtval the target, rd unwritten (RISC-V privileged
 * spec, IALIGN = 32 without C; sysnode-facts §1.1-1.2); a branch not taken
 * does not, and jalr clears bit 0 of its target first. The block sits at
 * 0x100, one instruction per word: jal +6 (0x100), jalr a3 to 0x1f2
 * (0x108), beq taken +6 (0x10c), bne not taken +6 (0x110), jalr to 0x11d
 * (0x118), landing at 0x11c. Trap records at SPAD + 32n (trap_record.h);
 * a3 afterwards at SPAD + 0x800. Exit code: the trap count. */
#include "sysnode/regs.h"
#include "trap_record.h"

#define SENTINEL 0x5A5A

    trap_record_start
    li a3, SENTINEL
    j block

    trap_record m

    .org 0x100
block:
    jal zero, . + 6
    addi t0, zero, 0x1f2
    jalr a3, 0(t0)
    beq zero, zero, . + 6
    bne zero, zero, . + 6
    addi t0, zero, 0x11d
    jalr zero, 0(t0)
    li t0, SN_SPAD_BASE + 0x800 /* 0x11c */
    sd a3, 0(t0)
    li t0, SN_CTRL_BASE
    sd s1, SN_CTRL_EXIT(t0)
1:  j 1b
