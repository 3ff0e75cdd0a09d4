/* sn_error_set: the one place a host error message is formatted. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

sn_status sn_error_set(sn_error *e, sn_status code, const char *fmt, ...)
{
    if (e == NULL)
        return code;
    e->code = code;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    /* Say so when the message did not fit rather than cutting it silently. */
    if (n < 0)
        snprintf(e->msg, sizeof e->msg, "(unformattable error message)");
    else if ((size_t)n >= sizeof e->msg)
        memcpy(e->msg + sizeof e->msg - 4, "...", 4);
    return code;
}
