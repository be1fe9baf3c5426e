// TurboJPEG API from libturbojpeg0-dev.
#ifndef CTURBOJPEG_SHIM_H
#define CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
#endif
