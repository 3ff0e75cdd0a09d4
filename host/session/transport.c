/* What every host window shares (see transport.h). */
#include "transport.h"

void sn_transport_close(sn_transport *t)
{
    if (!t)
        return;
    if (t->ops)
        t->ops->close(t->ctx);
    *t = (sn_transport){0};
}
