// OpenBLAS's CBLAS interface from libopenblas-dev.
#ifndef COPENBLAS_SHIM_H
#define COPENBLAS_SHIM_H
#include <cblas.h>
#endif
