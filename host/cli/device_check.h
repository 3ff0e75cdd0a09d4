/* How the options of sysnode run and flash combine with --device, judged
 * once from the option table's row flags (common/options.h
 * SN_OPTF_NO_DEVICE, SN_OPTF_NO_CARD) before anything is read or opened. */
#ifndef SN_CLI_DEVICE_CHECK_H
#define SN_CLI_DEVICE_CHECK_H

#include "options.h"

/* With --device given in o (parsed for tool): a spec that is none
 * (host/compose/device_open.h), an option for the in-process
 * simulator alone, or one a card cannot serve with an xdma: spec, is bad
 * usage: 2 after "PROG: WHY" naming the option and the device
 * (docs/user-guide.md "Exit statuses"). Returns -1 to go on. */
int sn_cli_device_check(sn_tool tool, const sn_opts *o);

#endif
