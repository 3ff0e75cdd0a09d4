/* A --device spec to a host window (see device_open.h). */
#include "device_open.h"

#include <string.h>

#include "card_bus_xdma.h"
#include "transport_card.h"
#include "transport_sim.h"

static const char XDMA[] = "xdma:";

int sn_device_spec_valid(const char *device)
{
    return !strcmp(device, "sim") || (!strncmp(device, XDMA, sizeof XDMA - 1) && device[sizeof XDMA - 1]);
}

int sn_device_spec_is_card(const char *device)
{
    return !strncmp(device, XDMA, sizeof XDMA - 1);
}

sn_status sn_transport_open_device(sn_transport *t, const char *device, unsigned cu_version, sn_error *e)
{
    sn_card_bus bus = {0};
    sn_status st;
    if (!strcmp(device, "sim")) {
        st = sn_card_bus_sim_open(&bus, cu_version, e);
    } else if (!strncmp(device, XDMA, sizeof XDMA - 1) && device[sizeof XDMA - 1]) {
        if (cu_version)
            return sn_error_set(e, SN_ERR_INPUT, "device %s: a unit generation (cu_version %u) applies to a "
                                "simulated SysNode only; a card's units report their own", device, cu_version);
        st = sn_card_bus_xdma_open(&bus, device + sizeof XDMA - 1, e);
    } else {
        return sn_error_set(e, SN_ERR_INPUT, "--device %s: not a device (want sim or xdma:/dev/xdmaN)", device);
    }
    return st == SN_OK ? sn_transport_card_open(t, bus, e) : st;
}
