/* The host's words for every runner error code (common/messages.c): a
 * status block is filled by hand as FORMAT.md §7 lays it out, and the
 * message must read exactly as written here, with the round, step, node and
 * counts the block carries. The runner's side (which facts land in which
 * field) is covered by test_runner_faults.c and the bad-table system test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "cmocka_main.h"

#include "messages.h"
#include "sysnode/mesh.h"

/* A block as the runner leaves it: round 3, step 5, rv64_mesh_2p2's units. */
static sn_status_block block(uint32_t error, uint32_t phase, uint32_t node, uint32_t value)
{
    static const sn_mesh mesh = SN_MESH_2P2_INIT;
    sn_status_block s;
    memset(&s, 0, sizeof s);
    s.magic = SN_STATUS_MAGIC;
    s.phase = phase;
    s.round = s.error_round = 3;
    s.step = s.error_step = 5;
    s.error = error;
    s.error_node = node;
    s.error_value = value;
    s.unit_count = mesh.unit_count;
    for (unsigned i = 0; i < mesh.unit_count; i++) {
        s.units[i].node = (uint8_t)sn_mesh_node(&mesh, i);
        s.units[i].cu_type = mesh.units[i].cu_type;
    }
    return s;
}

static void expect(const sn_status_block *s, const char *want)
{
    char text[1536];
    assert_string_equal(sn_runner_describe(s, text, sizeof text), want);
}

static void table_rules(void **state)
{
    (void)state;
    sn_status_block s = block(SN_ERR_TABLE_SLOT, SN_PHASE_BOOT, SN_NODE_ID(1, 0), 27);
    s.error_rule = SN_RULE_KICK_PAYLOADS;
    s.error_limit = 26;
    expect(&s, "round 3 step 5: kick passes the round's payloads: ends at slot 27, limit 26 (node (1,0))");
    s = block(SN_ERR_TABLE_NODE, SN_PHASE_BOOT, SN_NODE_ID(5, 0), 5);
    s.error_rule = SN_RULE_KICK_NODE;
    expect(&s, "round 3 step 5: kick to a coordinate with no unit (node (5,0))");
    /* the coordinate as the step wrote it (value x | y << 8), not its 4-bit node ID (1,0) */
    s = block(SN_ERR_TABLE_NODE, SN_PHASE_BOOT, SN_NODE_ID(1, 0), 17);
    s.error_rule = SN_RULE_KICK_NODE;
    expect(&s, "round 3 step 5: kick to a coordinate with no unit (node (17,0))");
    s = block(SN_ERR_TABLE_NODE, SN_PHASE_BOOT, SN_NODE_ID(1, 0), 1 | 16 << 8);
    s.error_rule = SN_RULE_AWAIT_NODE;
    expect(&s, "round 3 step 5: await on a coordinate with no unit (node (1,16))");
    s = block(SN_ERR_TABLE_STEP, SN_PHASE_BOOT, SN_STATUS_NO_NODE, 9);
    s.error_rule = SN_RULE_OPCODE;
    expect(&s, "round 3 step 5: unknown step opcode 9");
    s = block(SN_ERR_TABLE_CHANGED, SN_PHASE_KICK, SN_NODE_ID(1, 1), 52);
    s.error_rule = SN_RULE_AWAITS_SHORT;
    s.error_limit = 117;
    expect(&s, "the table in DRAM changed after it was checked (a unit wrote over it?): round 3 (end of round): "
               "node awaited for fewer completions than flits kicked to it: awaited 52, kicked 117 (node (1,1))");
}

static void table_image_and_boot(void **state)
{
    (void)state;
    sn_status_block s = block(SN_ERR_TABLE_IMAGE, SN_PHASE_BOOT, SN_STATUS_NO_NODE, 0);
    s.error_rule = SN_TI_STRUCTURE_HASH;
    s.detail_field = 0x30;
    s.detail[0] = 0x1234;
    s.detail[1] = 0xabcdef0123456789ull;
    expect(&s, "table: structure hash 0x1234 at offset 0x30, computed 0xabcdef0123456789");
    s.error_rule = SN_TI_PAYLOAD_HASH; /* the runner's, before round 3's first GO */
    s.detail_field = 0x40 + 3 * 32 + 24;
    s.detail[2] = 3;
    expect(&s, "table: round 3's payload hash 0x1234 at offset 0xb8, computed 0xabcdef0123456789");
    s = block(SN_ERR_BOOT_ARGS, SN_PHASE_BOOT, SN_STATUS_NO_NODE, SN_BOOT_ARGS_BAD_MAGIC);
    expect(&s, "no boot-argument block at 0x10040 (magic or version wrong)");
    s.error_value = SN_BOOT_ARGS_OUTSIDE;
    expect(&s, "boot arguments place the table or the result region outside DRAM");
    s = block(SN_ERR_TRAP, SN_PHASE_KICK, SN_STATUS_NO_NODE, 0);
    s.detail[0] = 5;
    s.detail[1] = 0x1a4;
    s.detail[2] = 0x20000;
    expect(&s, "trap: mcause=0x5 mepc=0x1a4 mtval=0x20000");
}

static void protocol(void **state)
{
    (void)state;
    sn_status_block s = block(SN_ERR_PROTOCOL, SN_PHASE_KICK, SN_NODE_ID(1, 1), 7);
    expect(&s, "round 3 step 5: unexpected signal code or reply 7; node (1,1)");
    s = block(SN_ERR_EXTRA_COMPLETION, SN_PHASE_ROUND_END, SN_NODE_ID(1, 2), 17);
    s.error_limit = 16;
    expect(&s, "round 3 step 5: received 17 completions, awaited 16; node (1,2)");
    s = block(SN_ERR_UNKNOWN_SOURCE, SN_PHASE_KICK, SN_NODE_ID(3, 3), 1);
    expect(&s, "round 3 step 5: completion (code 1) from a coordinate with no unit; node (3,3)");
    s = block(SN_ERR_LOST_COMPLETION, SN_PHASE_AWAIT, SN_STATUS_NO_NODE, 16);
    expect(&s, "round 3 step 5: STAT[31] set: the mailbox dropped completions");
    s = block(SN_ERR_UNIT_CAPS, SN_PHASE_BOOT, SN_NODE_ID(2, 1), 0x5643ff00);
    expect(&s, "round 3 step 5: CU_CAPS[63:32] 0x5643ff00 disagrees with the mesh description (type, or "
               "inst_depth 0); node (2,1)");
    s = block(SN_ERR_RX_FLIT, SN_PHASE_ROUND_END, SN_NODE_ID(1, 0), 6);
    expect(&s, "round 3 step 5: a flit of type 6 (not a CU_SIGNAL) reached the SysNode and waits in its RX "
               "queue; node (1,0)");
}

static void unit_fault(void **state)
{
    (void)state;
    sn_status_block s = block(SN_ERR_UNIT_FAULT, SN_PHASE_AWAIT, SN_NODE_ID(1, 0), 7);
    expect(&s, "round 3 step 5: SIG_FAULT, argument 7 (vector core fault: VL); node (1,0)");
    s = block(SN_ERR_UNIT_FAULT, SN_PHASE_AWAIT, SN_NODE_ID(1, 1), 7); /* a matmul cluster: no VC name */
    expect(&s, "round 3 step 5: SIG_FAULT, argument 7 (matmul cluster fault: DRAIN range); node (1,1)");
}

static void hangs(void **state)
{
    (void)state;
    sn_status_block s = block(SN_ERR_HANG, SN_PHASE_KICK, SN_NODE_ID(1, 0), 8000001);
    s.units[2].outstanding = 512; /* (1,0) */
    s.units[0].expected = 13;     /* (1,1) */
    s.units[0].received = 12;
    expect(&s, "round 3 step 5: hang: no completion for 8000001 cycles while sending to (1,0); owed:"
               "\n  node (1,1): awaited 13, received 12, owed 1, flits outstanding 0"
               "\n  node (1,0): awaited 0, received 0, owed 0, flits outstanding 512");
    s = block(SN_ERR_HANG, SN_PHASE_BARRIER, SN_STATUS_NO_NODE, 9000000);
    expect(&s, "round 3 step 5: hang: no completion for 9000000 cycles while waiting on every node; owed:");
    s = block(SN_ERR_HANG, SN_PHASE_BOOT, SN_NODE_ID(2, 1), 8000001);
    expect(&s, "round 3 step 5: hang: no CU_CTRL reply from (2,1) within 8000001 cycles");
}

static void ok_and_cut_short(void **state)
{
    (void)state;
    char text[16];
    sn_status_block s = block(SN_OK, SN_PHASE_DONE, SN_STATUS_NO_NODE, 0);
    expect(&s, "ok");
    s = block(SN_ERR_LOST_COMPLETION, SN_PHASE_AWAIT, SN_STATUS_NO_NODE, 16);
    assert_string_equal(sn_runner_describe(&s, text, sizeof text), "round 3 step..."); /* cut, and says so */
}

SN_TEST_MAIN(NULL, NULL, cmocka_unit_test(table_rules), cmocka_unit_test(table_image_and_boot),
             cmocka_unit_test(protocol), cmocka_unit_test(unit_fault), cmocka_unit_test(hangs),
             cmocka_unit_test(ok_and_cut_short))
