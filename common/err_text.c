/* See err_text.h. */
#include "err_text.h"

#include <stdarg.h>
#include <stdio.h>

int sn_err_text(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}
