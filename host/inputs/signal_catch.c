/* See signal_catch.h. */
#define _XOPEN_SOURCE 700 /* sigaction */
#include "signal_catch.h"

#include <signal.h>
#include <string.h>

void sn_signal_catch(void (*handler)(int), bool take_over)
{
    static const int sigs[] = {SIGINT, SIGTERM};
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaddset(&sa.sa_mask, sigs[i]);
    for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN ||
            (!take_over && old.sa_handler != SIG_DFL))
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
}
