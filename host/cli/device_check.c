/* See device_check.h. */
#include "device_check.h"

#include "device_open.h"

int sn_cli_device_check(sn_tool tool, const sn_opts *o)
{
    const char *device = o->text[SN_OPT_DEVICE];
    if (!device)
        return -1;
    if (!sn_device_spec_valid(device))
        return sn_opts_usage_error(tool, "--device %s: not a device (want sim or xdma:/dev/xdmaN)", device);
    for (int id = 0; id < SN_OPT_COUNT; id++) {
        const sn_option *r = &sn_options[id];
        if (!o->given[id])
            continue;
        if (r->flags & SN_OPTF_NO_DEVICE)
            return sn_opts_usage_error(tool, "--%s is for the in-process simulator; it does not combine with "
                                       "--device %s", r->name, device);
        if ((r->flags & SN_OPTF_NO_CARD) && sn_device_spec_is_card(device))
            return sn_opts_usage_error(tool, "--%s needs a simulated SysNode; --device %s is a card", r->name,
                                       device);
    }
    return -1;
}
