// Shared by the kernel files: CPU detection, view addressing, border zeroing.
#ifndef INFERENCE_KERNELS_INTERNAL_H
#define INFERENCE_KERNELS_INTERNAL_H

#include "InferenceKernels.h"

#if defined(__x86_64__)
#define IK_X86 1
#include <immintrin.h>
// The AVX-512 kernels are compiled for AVX-512 whatever the build's target and
// chosen at run time, so the binary still runs on a CPU without it.
#define IK_AVX512_TARGET __attribute__((target("avx512f,avx512vl,avx512dq,avx2,fma")))
int ik_has_avx512(void);
// The same for AVX2 with FMA: 8-wide, for the many CPUs without AVX-512.
#define IK_AVX2_TARGET __attribute__((target("avx2,fma")))
int ik_has_avx2(void);
#else
#define IK_X86 0
#endif

// The simple loops are compiled twice on Linux/x86 (AVX-512 and baseline) and
// picked by the loader; elsewhere once.
#if IK_X86 && defined(__linux__)
#define IK_CLONES __attribute__((target_clones("arch=x86-64-v4", "default")))
#else
#define IK_CLONES
#endif

static inline float *ik_interior(ik_view v, int n) {
    return v.data + n * v.image_stride
        + ((ptrdiff_t)v.border * (v.width + 2 * v.border) + v.border) * v.channels;
}

static inline ptrdiff_t ik_pitch(ik_view v) {
    return (ptrdiff_t)(v.width + 2 * v.border) * v.channels;
}

void ik_zero_border(ik_view v, int n);

#endif
