/* Every instruction form of the card (sysnode-facts §1.1: RV64IMA, Zicsr on
 * the card's CSRs, Zifencei, the privileged instructions), as GAS encodes
 * them: test_isa_decode checks that the card's decoder accepts each word.
 * Never run. */
    .text
    .globl _start
_start:
    lui a0, 0x12345
    auipc a0, 0x1
    jal ra, 1f
1:  jalr ra, 8(a0)
    beq a0, a1, 1b
    bne a0, a1, 1b
    blt a0, a1, 1b
    bge a0, a1, 1b
    bltu a0, a1, 1b
    bgeu a0, a1, 1b
    lb a0, -1(a1)
    lh a0, 2(a1)
    lw a0, 4(a1)
    ld a0, 8(a1)
    lbu a0, 1(a1)
    lhu a0, 2(a1)
    lwu a0, 4(a1)
    sb a0, -1(a1)
    sh a0, 2(a1)
    sw a0, 4(a1)
    sd a0, 8(a1)
    addi a0, a1, -2048
    slti a0, a1, 3
    sltiu a0, a1, 3
    xori a0, a1, -1
    ori a0, a1, 7
    andi a0, a1, 7
    slli a0, a1, 63
    srli a0, a1, 63
    srai a0, a1, 63
    addiw a0, a1, 5
    slliw a0, a1, 31
    srliw a0, a1, 31
    sraiw a0, a1, 31
    add a0, a1, a2
    sub a0, a1, a2
    sll a0, a1, a2
    slt a0, a1, a2
    sltu a0, a1, a2
    xor a0, a1, a2
    srl a0, a1, a2
    sra a0, a1, a2
    or a0, a1, a2
    and a0, a1, a2
    addw a0, a1, a2
    subw a0, a1, a2
    sllw a0, a1, a2
    srlw a0, a1, a2
    sraw a0, a1, a2
    mul a0, a1, a2
    mulh a0, a1, a2
    mulhsu a0, a1, a2
    mulhu a0, a1, a2
    div a0, a1, a2
    divu a0, a1, a2
    rem a0, a1, a2
    remu a0, a1, a2
    mulw a0, a1, a2
    divw a0, a1, a2
    divuw a0, a1, a2
    remw a0, a1, a2
    remuw a0, a1, a2
    .irp w, .w, .d
    lr\w a0, (a1)
    sc\w a0, a2, (a1)
    lr\w\().aqrl a0, (a1)
    amoswap\w a0, a2, (a1)
    amoadd\w a0, a2, (a1)
    amoxor\w a0, a2, (a1)
    amoand\w a0, a2, (a1)
    amoor\w a0, a2, (a1)
    amomin\w a0, a2, (a1)
    amomax\w a0, a2, (a1)
    amominu\w a0, a2, (a1)
    amomaxu\w\().aq a0, a2, (a1)
    .endr
    fence
    fence rw, w
    fence.i
    .irp csr, sstatus, sie, stvec, sscratch, sepc, scause, stval, sip, satp, mstatus, misa, medeleg, mideleg, mie, mtvec, mscratch, mepc, mcause, mtval, mip, 0x7c0, mcycle, minstret, cycle, time, instret, mvendorid, marchid, mimpid, mhartid
    csrrs a0, \csr, zero
    .endr
    csrrw a0, mscratch, a1
    csrrc a0, mie, a1
    csrrwi a0, mscratch, 5
    csrrsi a0, mie, 8
    csrrci a0, mstatus, 8
    ecall
    ebreak
    sret
    mret
    wfi
    sfence.vma
    sfence.vma a0, a1
