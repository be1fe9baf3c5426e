// libpng 1.6 from libpng-dev.
#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H
#include <png.h>
#endif
