// The C library's wcwidth (POSIX, XSI), which tells how many terminal columns a
// character takes. glibc declares it only under _XOPEN_SOURCE, which the Swift Glibc
// module is built without; the declaration below is the standard one.
#ifndef CWIDECHARACTERS_SHIM_H
#define CWIDECHARACTERS_SHIM_H
#include <wchar.h>
int wcwidth(wchar_t c);
#endif
