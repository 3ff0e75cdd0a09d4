/* A case read once (see case.h). */
#include "case.h"

#include <string.h>

sn_status sn_case_open(sn_case *c, const char *case_dir)
{
    memset(c, 0, sizeof *c);
    c->m_status = sn_manifest_load(&c->m, case_dir, &c->m_err);
    return c->m_status;
}

sn_status sn_case_program(sn_case *c, sn_program **out, sn_error *e)
{
    *out = NULL;
    if (c->m_status != SN_OK) {
        if (e)
            *e = c->m_err;
        return c->m_status;
    }
    if (!c->prog_loaded) {
        sn_status st = sn_program_load_manifest(&c->prog, &c->m, e);
        if (st != SN_OK) {
            sn_program_free(&c->prog);
            return st;
        }
        c->prog_loaded = 1;
    }
    *out = &c->prog;
    return SN_OK;
}

void sn_case_free(sn_case *c)
{
    sn_manifest_free(&c->m);
    sn_program_free(&c->prog);
    memset(c, 0, sizeof *c);
}
