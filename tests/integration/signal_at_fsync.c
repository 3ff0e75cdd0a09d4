/* LD_PRELOAD shim for outputs.py's signal_during_pack_and_header: the first
 * fsync raises the signal numbered in SN_SIGNAL_AT_FSYNC. An output file is
 * fsync'ed once its temporary holds every byte and before the rename
 * (README "Output files"), so the signal lands where a Ctrl-C is worst: the
 * temporary whole, the target not yet replaced. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

int fsync(int fd)
{
    const char *sig = getenv("SN_SIGNAL_AT_FSYNC");
    if (sig != NULL)
        raise(atoi(sig));
    int (*next)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    return next(fd);
}
