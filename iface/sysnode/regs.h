/* The SysNode register map: memory map, control region offsets, queue
 * depths, flit types, CU_CTRL indices and signal codes. The one description
 * of these facts: the firmware, the simulator (C and, through
 * iface/gen_iface, the RTL) and the host all include this file; the
 * fields of each word are in sysnode/words.h, included at the end for C.
 * Facts and sources: docs/reference/sysnode-facts.md (§1.4 memory map, §1.7
 * control region, §2 mailbox, §3.1 flit header, §4 signal codes, §7.1
 * CU_CTRL). Freestanding: no libc. */
#ifndef SYSNODE_REGS_H
#define SYSNODE_REGS_H

/* ---- CPU memory map (sysnode-facts §1.4; rv64_syscore.v@1a77e97e) ---- */
#define SN_IMEM_BASE 0x00000000ull /* fetch only, host-loaded */
#define SN_IMEM_SIZE 0x8000ull     /* 32 KB = 8192 words */
#define SN_SPAD_BASE 0x00010000ull /* .rodata .data .bss stack */
#define SN_SPAD_SIZE 0x8000ull     /* 32 KB */
#define SN_CTRL_BASE 0x00020000ull /* uncached MMIO */
#define SN_CTRL_SIZE 0x400ull      /* 1 KB decode */
#define SN_DRAM_CPU_BASE 0x80000000ull /* CPU address of unit DRAM address 0 */
#define SN_UNCACHED_BIT 38             /* pa[38]=1: uncached alias of DRAM */
#define SN_DRAM_DEFAULT_SIZE 0x1000000ull /* 16 MiB (DESIGN §6) */

/* ---- Control region offsets (sysnode-facts §1.7, §2.1, §1.5) ---- */
#define SN_CTRL_EXIT 0x00    /* store: latch exit word, halt (cause 0) */
#define SN_CTRL_CONSOLE 0x08 /* store: byte [7:0] to the console */
#define SN_MBOX_DST 0x40     /* [3:0] x, [11:8] y, [23:20] type, [24] typed */
#define SN_MBOX_ARG0 0x48    /* payload[63:0] */
#define SN_MBOX_ARG1 0x50    /* payload[127:64] */
#define SN_MBOX_ARG2 0x58    /* payload[191:128] */
#define SN_MBOX_ARG3 0x60    /* payload[255:192] */
#define SN_MBOX_GO 0x68      /* store: offer a flit; dropped while STAT[15] */
#define SN_MBOX_STAT 0x70    /* [7:0] queued completions, [15] offered, [31] overflow */
#define SN_MBOX_HEAD 0x78    /* read: oldest completion (no pop); store: pop */
#define SN_CTRL_RX_HDR 0x180 /* {valid[63], header[31:0]}; store pops */
#define SN_CTRL_RX_P0 0x188  /* RX head payload[63:0] .. P3 = [255:192] at 0x1A0 */
#define SN_CTRL_RX_USED 0x1A8
#define SN_CTRL_DCACHE 0x1C8 /* write bit0 flush, bit1 invalidate; read bit0 busy */

/* Mailbox register index = (offset - SN_MBOX_DST) / 8, as the RTL decodes pa[5:3]. */
#define SN_MBOX_REG_COUNT 8

/* The fields of DST, STAT, HEAD, RX_HDR and the flit header are in
 * sysnode/words.h, included below for C. */

/* Mailbox queue depths (sysnode-facts §2.4) */
#define SN_CQ_DEPTH 16
#define SN_RXQ_DEPTH 8

/* ---- Flit (sysnode-facts §3.1): 288 bits = header[287:256] + payload[255:0] ---- */
/* Its header's fields and the payloads' are in sysnode/words.h. */

/* Flit types (sysnode-facts §3.1) */
#define SN_T_MEM_RD_REQ 0x0
#define SN_T_MEM_WR_REQ 0x1
#define SN_T_MEM_RD_RESP 0x2
#define SN_T_MEM_WR_ACK 0x3
#define SN_T_MEM_WR_DATA 0x4
#define SN_T_CU_INST 0x5
#define SN_T_CU_SIGNAL 0x6
#define SN_T_CU_CTRL 0x7
#define SN_T_CU_DATA 0x8

/* CU_CTRL register indices, and the op of every reply (sysnode-facts §7.1,
 * §3.1); their layouts are in sysnode/words.h. */
#define SN_CU_REG_CAPS 0
#define SN_CU_REG_STATUS 1
#define SN_CU_REG_COUNTERS 2
#define SN_CU_REG_DBG 3
#define SN_CU_CTRL_REPLY_OP 0x02

/* Signal codes (sysnode-facts §4) */
#define SN_SIG_INST_COMPLETE 0x00
#define SN_SIG_BATCH_COMPLETE 0x01
#define SN_SIG_BARRIER_REACHED 0x02
#define SN_SIG_DATA_RECEIVED 0x03
#define SN_SIG_FAULT 0x04

/* ---- Mesh coordinates (DESIGN §6, rv64_mesh_2p2) ---- */
#define SN_SYSNODE_X 0 /* the mailbox */
#define SN_SYSNODE_Y 0
#define SN_MEMNODE_X 0
#define SN_MEMNODE_Y 1
#define SN_COORD_BITS 4
#define SN_NODE_ID(x, y) ((unsigned)(((y) & 0xF) << 4 | ((x) & 0xF)))
#define SN_NODE_COUNT 256 /* every 4-bit (x, y) pair */

/* Unit instruction FIFO depth in the reference mesh (sysnode-facts §7.2) */
#define SN_INST_DEPTH_DEFAULT 512

/* ---- Simulated memory timing (DESIGN §6, sysnode-facts §2.4) ---- */
/* CU_VERSION 4 units: a DRAM write lands this many cycles after the unit
 * sends the instruction's completion (its last write beat), so a read in
 * between sees the old bytes; a runner settles longer than this. */
#define SN_V4_WRITE_LANDING_CYCLES 1000
/* CU_VERSION from which a completion waits for its writes' acks. */
#define SN_CU_VERSION_FENCED 5

#ifndef __ASSEMBLER__
#include "sysnode/words.h"
#endif

#endif
