/* The console as text: the one escape rule for showing console bytes where
 * a NUL or a control byte would be lost or garble a terminal (README
 * "Debugging the image": printable ASCII, newline and tab as they are, `\`
 * as `\\`, every other byte as `\xHH`). The console itself keeps every
 * byte (sysnode-facts §1.7). */
#ifndef SN_SIM_CONSOLE_TEXT_H
#define SN_SIM_CONSOLE_TEXT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Writes byte's text (1, 2 or 4 characters, no NUL) to out; returns its length. */
unsigned sn_console_escape(unsigned char byte, char out[4]);

#ifdef __cplusplus
}
#endif

#endif
