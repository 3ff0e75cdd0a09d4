/* What every host window shares (see transport.h). */
#include "transport.h"

void sn_transport_close(sn_transport *t)
{
    if (t && t->ops)
        t->ops->close(t->ctx);
    if (t) {
        t->ops = NULL;
        t->ctx = NULL;
    }
}
