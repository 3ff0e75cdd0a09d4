/* The SysNode's host window on a card: the 4 KB load window at +0x8000 of the
 * control port, its registers and fields, and the XDMA DMA limits. The one
 * description of these facts: the host's card transport and the simulator's
 * card model both include this file. Sources: docs/reference/sysnode-facts.md
 * §1.3 (rv64_load_win.v@8aa3e0be, rv64_syscore.v@1a77e97e), §6 (DRAM size);
 * the DMA limits: KohakuTPU driver/kohakuaccel/transport/xdma.py@4c61f070
 * (MAX_XFER, MIN_XFER, the SLVERR note). Freestanding: no libc. */
#ifndef SYSNODE_HOST_WINDOW_H
#define SYSNODE_HOST_WINDOW_H

/* The window's base in the card's control port (user BAR), bytes. */
#define SN_HW_WINDOW_BASE 0x8000ull
#define SN_HW_WINDOW_SIZE 0x1000ull

/* 0x00..0x7F pass through to the host control registers (H_CTRL). */
#define SN_HW_BOOT 0x00    /* write 1: boot; clears exit flag, halt latch, counters */
#define SN_HW_PC 0x08      /* stored, never read: the core starts at 0 */
#define SN_HW_STATUS 0x18  /* {exited[3], halted[2], cause[1:0]} */
#define SN_HW_EXIT 0x20    /* the exit word */
#define SN_HW_HALTPC 0x28  /* PC of the halt */
#define SN_HW_CYCLES 0x30  /* CPU cycles since BOOT */
#define SN_HW_RETIRED 0x38 /* instructions retired since BOOT */
/* The load window's own registers. */
#define SN_HW_LOAD_CTL 0x80  /* {start byte offset[23:8], region[0]}: 0 IMEM, 1 SPAD */
#define SN_HW_LOAD_DATA 0x88 /* one word; the offset steps by 4 (IMEM) or 8 (SPAD) */
#define SN_HW_CONSOLE 0x90   /* read {valid[8], byte[7:0]}; a write pops */

#define SN_HW_STATUS_EXITED (1u << 3)
#define SN_HW_STATUS_HALTED (1u << 2)
#define SN_HW_STATUS_CAUSE_MASK 0x3u
/* Set only by the simulated card (bit 8 is 0 on a card): the simulation itself
 * stopped the core (an unmodelled access). */
#define SN_HW_STATUS_SIM_ERROR (1u << 8)

#define SN_HW_LOAD_REGION_IMEM 0u
#define SN_HW_LOAD_REGION_SPAD 1u
#define SN_HW_LOAD_OFFSET_SHIFT 8
#define SN_HW_CONSOLE_VALID (1u << 8)
#define SN_HW_CONSOLE_FIFO_BYTES 256u /* no full check: old bytes are overwritten */

/* DMA through the XDMA H2C/C2H channels. */
#define SN_HW_DMA_MAX_BYTES (8ull << 20) /* the driver's measured ceiling per transfer */
#define SN_HW_DMA_MIN_BYTES 64ull        /* one 512-bit beat; smaller transfers fault the driver */
#define SN_HW_DMA_ALIGN 64ull            /* card address and length in whole beats */

/* How often the host polls STATUS and drains the console: every poll of the
 * simulated card lets this many CPU cycles pass (H-2P2 polls every 256). A
 * console byte costs the core at least 2 cycles (a store to the control
 * region), so at most 128 bytes arrive between polls: the 256-byte FIFO
 * cannot wrap. */
#define SN_HW_POLL_CYCLES 256ull

#endif
