// Faults of the FST writer. GTKWave's fstapi maps the dump's files into
// memory, so a write past a full disk or a file-size limit arrives as SIGBUS
// (or SIGXFSZ) inside the writer, not as an error it returns. While a dump is
// open those two signals are caught (sn_fst_fault_catch), and each call into
// the writer runs under sn_fst_guarded, which returns the signal that stopped
// it: the caller then abandons the writer (its state is lost mid-call) and
// reports the file. A signal outside a guarded call keeps its usual effect.
#ifndef SN_SIM_FST_FAULT_H
#define SN_SIM_FST_FAULT_H

#include <csetjmp>
#include <csignal>

// The faulting thread's way back into sn_fst_guarded (nullptr outside one).
extern thread_local sigjmp_buf *sn_fst_fault_jump;

// Installs (on) the handler for SIGBUS and SIGXFSZ, or puts back what was
// there before (off). Calls nest: the last off restores.
void sn_fst_fault_catch(bool on);

// Whether the FST file at path is whole: its blocks (a tag byte, then a
// big-endian 64-bit length that counts itself) follow each other from the
// header to the end of the file, none left unfinished (FST_BL_SKIP), with
// value changes, the geometry and the hierarchy among them (GTKWave's
// fstapi.h block types). The writer ignores failed writes (a full disk), so
// its return says nothing; this walk does.
bool sn_fst_file_whole(const char *path);

// Calls f(); 0 when it returned, else the signal (SIGBUS, SIGXFSZ) that
// stopped it, unblocked again.
template <class F>
int sn_fst_guarded(F f)
{
    sigjmp_buf env;
    int sig = sigsetjmp(env, 0);
    if (sig == 0) {
        sn_fst_fault_jump = &env;
        f();
        sn_fst_fault_jump = nullptr;
        return 0;
    }
    sn_fst_fault_jump = nullptr;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr); // the handler left it blocked: no mask was saved
    return sig;
}

#endif
