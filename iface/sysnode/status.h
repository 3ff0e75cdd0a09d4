/* The one status type, shared by firmware, simulator and host. Values sit in
 * documented bands; the runner image exits with the status value, so each
 * failure has a distinct exit code (STYLE 5). */
#ifndef SYSNODE_STATUS_H
#define SYSNODE_STATUS_H

typedef enum {
    SN_OK = 0,

    /* 0x10-0x1F: input (a table, artifact, manifest or argument is wrong) */
    SN_ERR_INPUT = 0x10,        /* malformed input, see the message */
    SN_ERR_TABLE_STEP = 0x11,   /* a step with an unknown opcode or bad fields */
    SN_ERR_TABLE_SLOT = 0x12,   /* a kick past the round's payloads or the 128-slot window */
    SN_ERR_TABLE_NODE = 0x13,   /* a kick or await naming a coordinate outside the mesh */
    SN_ERR_IO = 0x14,           /* a file could not be read or written */
    SN_ERR_TABLE_IMAGE = 0x15,  /* a packed table failed a header, size or CRC check */
    SN_ERR_BOOT_ARGS = 0x16,    /* the boot-argument block is missing or wrong */
    SN_ERR_TABLE_CHANGED = 0x17, /* a round broke a table rule when re-checked before it ran:
                                    the table in DRAM changed after the first check */

    /* 0x20-0x2F: protocol (the mesh answered other than the artifact said) */
    SN_ERR_PROTOCOL = 0x20,     /* generic protocol error */
    SN_ERR_EXTRA_COMPLETION = 0x21, /* a node returned more completions than awaited */
    SN_ERR_UNKNOWN_SOURCE = 0x22,   /* a completion from a coordinate with no unit */
    SN_ERR_LOST_COMPLETION = 0x23,  /* STAT[31]: the mailbox dropped completions */
    SN_ERR_MISMATCH = 0x24,     /* results differ from the expected bytes */
    SN_ERR_UNIT_CAPS = 0x25,    /* a unit's CU_CAPS disagrees with the mesh description */
    SN_ERR_RX_FLIT = 0x26,      /* a flit other than a CU_CTRL reply waits in the RX queue */

    /* 0x30-0x3F: unit fault */
    SN_ERR_UNIT_FAULT = 0x30,   /* a SIG_FAULT completion */

    /* 0x40-0x4F: hang */
    SN_ERR_HANG = 0x40,         /* a bounded wait expired */

    /* 0x50-0x5F: internal */
    SN_ERR_INTERNAL = 0x50,
    SN_ERR_TRAP = 0x51,         /* the runner took an unexpected trap */
} sn_status;

#endif
