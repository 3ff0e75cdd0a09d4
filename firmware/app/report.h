/* How a runner image ends: the status block holds the report (FORMAT.md §7);
 * the console gets one summary line. */
#ifndef SN_APP_REPORT_H
#define SN_APP_REPORT_H

#include "sysnode/status.h"
#include "sysnode/status_block.h"

/* Latches st as the first error in s when none is (with error_value and
 * error_node unset), stamps the block, prints the summary and returns the
 * status the image exits with: s->error, or st when s holds none. */
sn_status sn_app_report(sn_status_block *s, sn_status st);

#endif
