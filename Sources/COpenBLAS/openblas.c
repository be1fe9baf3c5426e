// OpenBLAS is opened with dlopen when training first multiplies, instead of being linked
// (CLazyLibrary.h says why). Only `model train` multiplies with it; linked, it was loaded at
// every start of every command, and its pthread build started a pool of threads as it loaded
// (a core spinning for the first 0.13 s, `BLASThreads`), whose threads each reserve a buffer:
// under a limit on address space (`ulimit -v 200000`) they retried that forever, and every
// command, `wardrobe list` too, hung with a core busy before its first line.
#include "COpenBLAS.h"
#include <CLazyLibrary.h>
#include <stdlib.h>
#include <string.h>

#define FUNCTIONS(X, V) \
    V(cblas_sgemm, (OPENBLAS_CONST enum CBLAS_ORDER Order, OPENBLAS_CONST enum CBLAS_TRANSPOSE TransA, \
                    OPENBLAS_CONST enum CBLAS_TRANSPOSE TransB, OPENBLAS_CONST blasint M, OPENBLAS_CONST blasint N, \
                    OPENBLAS_CONST blasint K, OPENBLAS_CONST float alpha, OPENBLAS_CONST float *A, \
                    OPENBLAS_CONST blasint lda, OPENBLAS_CONST float *B, OPENBLAS_CONST blasint ldb, \
                    OPENBLAS_CONST float beta, float *C, OPENBLAS_CONST blasint ldc), \
      (Order, TransA, TransB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)) \
    V(openblas_set_num_threads, (int num_threads), (num_threads))

enum { FUNCTIONS(WARDROBE_LAZY_INDEX, WARDROBE_LAZY_VOID_INDEX) function_count };
static const char *const names[] = { FUNCTIONS(WARDROBE_LAZY_NAME, WARDROBE_LAZY_VOID_NAME) };
static void *functions[function_count];
static struct wardrobe_library openblas = WARDROBE_LIBRARY("libopenblas.so.0", "libopenblas0", names, functions);

int wardrobe_load_openblas(const char **problem) {
    // Read by OpenBLAS as it loads. The executable sets it at its first line, while it has one
    // thread (`WardrobeProcess.start`); a process that did not (a test) has it set here.
    const char *threads = getenv("OPENBLAS_NUM_THREADS");
    if (!threads || strcmp(threads, "1") != 0) setenv("OPENBLAS_NUM_THREADS", "1", 1);
    return wardrobe_library_load(&openblas, problem);
}

void *wardrobe_openblas_symbol(const char *name) {
    if (!wardrobe_load_openblas(NULL)) return NULL;
    return wardrobe_library_symbol(&openblas, name);
}

#define FORWARD(type, name, parameters, arguments) WARDROBE_LAZY_FORWARD(openblas, type, name, parameters, arguments)
#define VOID_FORWARD(name, parameters, arguments) \
    void name parameters { \
        wardrobe_load_openblas(NULL); \
        void (*function) parameters = (void (*) parameters)wardrobe_library_function(&openblas, name##_index); \
        function arguments; \
    }
FUNCTIONS(FORWARD, VOID_FORWARD)
