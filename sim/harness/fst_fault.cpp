// Faults of the FST writer (see fst_fault.h).
#include "fst_fault.h"

#include <cstdint>
#include <cstdio>
#include <mutex>

#include "gtkwave/fstapi.h"

thread_local sigjmp_buf *sn_fst_fault_jump = nullptr;

namespace {
std::mutex catching; // the handler is process-wide; the count of open dumps says when to restore it
int users = 0;
struct sigaction old_bus, old_xfsz;

void on_fault(int sig)
{
    if (sn_fst_fault_jump)
        siglongjmp(*sn_fst_fault_jump, sig);
    // not inside the writer: what was there before takes this one and the next
    const struct sigaction *old = sig == SIGBUS ? &old_bus : &old_xfsz;
    sigaction(sig, old, nullptr);
    if (old->sa_handler != SIG_IGN)
        raise(sig);
}
} // namespace

void sn_fst_fault_catch(bool on)
{
    std::lock_guard<std::mutex> hold(catching);
    if (on && users++ == 0) {
        struct sigaction sa = {};
        sa.sa_handler = on_fault;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, &old_bus);
        sigaction(SIGXFSZ, &sa, &old_xfsz);
    } else if (!on && users > 0 && --users == 0) {
        sigaction(SIGBUS, &old_bus, nullptr);
        sigaction(SIGXFSZ, &old_xfsz, nullptr);
    }
}

bool sn_fst_file_whole(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    bool header = false, changes = false, geometry = false, hierarchy = false, whole = false;
    if (fseeko(f, 0, SEEK_END) == 0) {
        uint64_t size = (uint64_t)ftello(f), pos = 0;
        unsigned char b[9];
        whole = true;
        while (whole && pos < size) {
            whole = fseeko(f, (off_t)pos, SEEK_SET) == 0 && fread(b, 1, 9, f) == 9;
            uint64_t len = 0;
            for (int i = 1; i < 9; i++)
                len = len << 8 | b[i];
            whole = whole && len >= 8 && len <= size - pos - 1 && (pos > 0 || b[0] == FST_BL_HDR);
            switch (whole ? (int)b[0] : (int)FST_BL_SKIP) {
            case FST_BL_HDR: header = pos == 0; break;
            case FST_BL_VCDATA: case FST_BL_VCDATA_DYN_ALIAS: case FST_BL_VCDATA_DYN_ALIAS2: changes = true; break;
            case FST_BL_GEOM: geometry = true; break;
            case FST_BL_HIER: case FST_BL_HIER_LZ4: case FST_BL_HIER_LZ4DUO: hierarchy = true; break;
            case FST_BL_BLACKOUT: break;
            default: whole = false; break; // unfinished (FST_BL_SKIP), wrapped or not a block
            }
            pos += 1 + len;
        }
    }
    fclose(f);
    return whole && header && changes && geometry && hierarchy;
}
