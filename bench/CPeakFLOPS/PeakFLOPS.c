#include "PeakFLOPS.h"
#include <time.h>
// Timed in thread CPU time, so other processes on a shared machine do not
// lower the figure (they still share caches and, on SMT cores, pipelines).
#if defined(__x86_64__)
#include <immintrin.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

// 12 accumulators cover the FMA latency (4 cycles) times the issue width of
// current x86 cores; the empty asm keeps the compiler from folding the chains.
#define IK_CHAINS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)

__attribute__((target("avx512f")))
static double run512(long iterations) {
#define DECLARE(i) __m512 acc##i = _mm512_set1_ps((float)(i) * 1e-3f);
#define STEP(i) acc##i = _mm512_fmadd_ps(acc##i, a, b);
#define KEEP(i) __asm__ volatile("" : "+v"(acc##i));
#define SUM(i) + _mm512_reduce_add_ps(acc##i)
    IK_CHAINS(DECLARE)
    const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
    double start = now();
    for (long n = 0; n < iterations; n++) {
        IK_CHAINS(STEP)
        IK_CHAINS(KEEP)
    }
    double seconds = now() - start;
    volatile float sink = 0 IK_CHAINS(SUM);
    (void)sink;
    return 12.0 * 16 * 2 * (double)iterations / seconds * 1e-9;
#undef DECLARE
#undef STEP
#undef KEEP
#undef SUM
}

__attribute__((target("avx2,fma")))
static double run256(long iterations) {
#define DECLARE(i) __m256 acc##i = _mm256_set1_ps((float)(i) * 1e-3f);
#define STEP(i) acc##i = _mm256_fmadd_ps(acc##i, a, b);
#define KEEP(i) __asm__ volatile("" : "+x"(acc##i));
    IK_CHAINS(DECLARE)
    const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
    double start = now();
    for (long n = 0; n < iterations; n++) {
        IK_CHAINS(STEP)
        IK_CHAINS(KEEP)
    }
    double seconds = now() - start;
    return 12.0 * 8 * 2 * (double)iterations / seconds * 1e-9;
#undef DECLARE
#undef STEP
#undef KEEP
}

int peak_vector_width(void) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return 16;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 8;
    return 1;
}

double peak_gflops(long iterations) {
    switch (peak_vector_width()) {
    case 16: return run512(iterations);
    case 8: return run256(iterations);
    default: return 0;
    }
}
#else
int peak_vector_width(void) { return 1; }
double peak_gflops(long iterations) { (void)iterations; return 0; }
#endif
