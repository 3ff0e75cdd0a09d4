/* Words the card lacks (sysnode-facts §1.1-1.2: no C, no F/D/Q, no V, no
 * CSR outside its list, no N, no H), as GAS encodes them: test_isa_decode
 * checks that the card's decoder refuses each word. Never run. Assembled
 * with F, D, Q and C enabled. */
    .text
    .globl _start
_start:
    flw ft0, 0(a0)
    fsd ft0, 8(a0)
    fadd.s ft0, ft1, ft2
    fmul.d ft0, ft1, ft2
    fmadd.s ft0, ft1, ft2, ft3
    fnmsub.d ft0, ft1, ft2, ft3
    fcvt.w.s a0, ft0
    fmv.x.d a0, ft0
    flq ft0, 0(a0)
    .option push
    .option rvc
    c.nop
    c.addi a0, 1
    c.nop
    c.li a0, 3
    .option pop
    .word 0x02000057          /* vadd.vv v0, v0, v0 */
    .word 0x0000000b          /* custom-0 */
    .word 0x0000002b          /* custom-1 */
    .word 0x0000005b          /* custom-2 */
    .word 0x0000007b          /* custom-3 */
    .word 0x0000001f          /* a 48-bit encoding's first word */
    .word 0x0000003f          /* a 64-bit encoding's first word */
    .word 0x00200073          /* uret */
    .word 0x22000073          /* hfence.vvma */
    .word 0x0000700f          /* MISC-MEM funct3 7 */
    .word 0x0000702f          /* AMO funct3 7 */
    .word 0x1010302f          /* lr.d with rs2 = 1 */
    .word 0x0000c073          /* SYSTEM funct3 4 */
    .irp csr, 0x3a0, 0x3b0, 0x306, 0x106, 0xc03, 0xb03, 0x323, 0x001, 0x002, 0x003, 0x000, 0x7b0, 0x7a0, 0x5c0, 0x7c1, 0x310, 0xf15
    csrrs a0, \csr, zero
    .endr
    .word 0x40a5959b          /* slliw with funct7 0x20 */
    .word 0x02a5a53b          /* OP-32 funct7 1 funct3 2 (no mulhsuw) */
