// OpenBLAS's CBLAS interface (Debian's libopenblas0; headers from libopenblas-dev), loaded when
// training first multiplies rather than when wardrobe starts.
#ifndef COPENBLAS_H
#define COPENBLAS_H
#include <cblas.h>

/// Loads libopenblas.so.0 with one thread (`OPENBLAS_NUM_THREADS=1` in the environment first,
/// so that it starts no pool of threads) and finds every function wardrobe calls, once per
/// process. Returns 1 when it is ready; else 0, with `*problem` (when given) saying why in
/// one line. The functions of cblas.h below may be called without it: they load it first.
int wardrobe_load_openblas(const char **problem);

/// The address of `name` in the loaded OpenBLAS (loading it first), or NULL: for the pthread
/// build's own symbols (`blas_thread_shutdown_`, `blas_server_avail`), which other builds lack.
void *wardrobe_openblas_symbol(const char *name);
#endif
