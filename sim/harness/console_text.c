/* The console's escape rule; see console_text.h. */
#include "console_text.h"

static const char HEX[] = "0123456789abcdef";

unsigned sn_console_escape(unsigned char byte, char out[4])
{
    if (byte == '\\') {
        out[0] = out[1] = '\\';
        return 2;
    }
    if (byte == '\n' || byte == '\t' || (byte >= 0x20 && byte < 0x7F)) {
        out[0] = (char)byte;
        return 1;
    }
    out[0] = '\\';
    out[1] = 'x';
    out[2] = HEX[byte >> 4];
    out[3] = HEX[byte & 15];
    return 4;
}
