/* sn_error_set: the one place a host error message is formatted. */
#include "error.h"

#include <stdarg.h>

#include "err_text.h"

sn_status sn_error_set(sn_error *e, sn_status code, const char *fmt, ...)
{
    if (e == NULL)
        return code;
    e->code = code;
    va_list ap;
    va_start(ap, fmt);
    sn_text_vfit(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return code;
}
